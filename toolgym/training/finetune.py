"""LoRA fine-tuning on alignment data: ``peft`` and the ``transformers`` Trainer, any causal LM.

The model is loaded through :class:`~toolgym.agents.backends.hf.HFBackend` (the embedded
SmolLM2-135M-Instruct by default, its GGUF weights converted once into the cache), and each
example is rendered exactly as that backend renders the prompt at inference (plain text for the
embedded model, the chat template for a chat model), followed by the program and the end-of-text
token. The loss is on the program and that token only (the prompt's labels are ``-100``).

An example longer than ``max_length`` tokens (by default the model's context) is skipped, not
truncated: a prompt cut on the left would lose its API docs or demonstrations and no longer be
the prompt the model is evaluated with. The skipped count is reported.

Training runs on CUDA when present (bf16 where supported), else on the CPU in float32, where it
is deterministic for a seed. The adapter is saved with ``save_pretrained`` next to
``toolgym_finetune.json`` (the configuration, data counts, loss history and wall time).
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgym._version import __version__
from toolgym.agents.backends.hf import EMBEDDED_MODEL
from toolgym.errors import DependencyNotInstalled, UserInputError
from toolgym.training.checks import check_lora, check_positive, check_whole, config_dict
from toolgym.training.encoding import PadCollator, encode_example
from toolgym.training.sft_data import SFTExample, build_examples, program_env_ids

DEFAULT_TARGET_MODULES: tuple[str, ...] = (
    "q_proj",
    "k_proj",
    "v_proj",
    "o_proj",
    "gate_proj",
    "up_proj",
    "down_proj",
)
"""The attention and MLP projections of Llama-style models (SmolLM2, Llama, Qwen, Mistral)."""

ADAPTER_DTYPES = ("float32", "float16", "bfloat16")
"""The dtypes an adapter can be saved in."""
RESULT_FILE = "toolgym_finetune.json"
"""What a fine-tuning run writes next to its adapter."""


@dataclass
class FinetuneConfig:
    """A LoRA fine-tuning run.

    Attributes:
        model: ``"smollm2-135m"`` (the embedded model), a model id or a local directory.
        envs: env ids to take ``train`` tasks from.
        families: family names, each meaning its newest env.
        n: examples per env.
        n_per_env: ``(env id or family name, count)`` pairs: another count for those envs.
        shots: demonstrations per prompt (default: the family's, as ``toolgym eval``).
        all_shot: every demonstration of the ``demo`` split in each prompt.
        system_prompt: put the agent's system prompt in each prompt.
        top_k_api: API docs per prompt (default: the family's).
        world_seed: the simulated world the tasks are generated for.
        epochs: passes over the examples (when ``max_steps`` is ``None``).
        max_steps: optimizer steps; overrides ``epochs``.
        lr: the peak learning rate (linear decay to 0).
        batch_size: examples per device batch.
        grad_accum: batches per optimizer step.
        max_length: the longest example in tokens; longer ones are skipped (default: the
            model's context, ``max_position_embeddings``).
        lora_r: the LoRA rank.
        lora_alpha: the LoRA scaling numerator (the update is scaled by ``alpha / r``).
        lora_dropout: dropout on the LoRA input.
        target_modules: the module names LoRA adapts.
        seed: the seed of the ``train`` stream, the LoRA initialization and the data order.
        out: the folder the adapter and ``toolgym_finetune.json`` are written to.
        num_threads: CPU threads for torch (default: torch's choice).
        chat: render with the model's chat template (``None``: as ``HFBackend`` decides).
        device: ``"cpu"``, ``"cuda"``, ... (default: CUDA when available, else the CPU).
        logging_steps: optimizer steps per logged loss.
        progress: show the Trainer's progress bar.
        adapter_dtype: the saved adapter's weights: ``float32`` (as trained), ``float16`` or
            ``bfloat16`` (half the size; they are cast back when merged into a model).
        command: the command line that ran this (recorded beside the adapter).
        tool_calls: train on chat-with-tools examples
            (:mod:`toolgym.training.tool_call_data`: the oracle's calls on ``train`` tasks of
            call-mode envs, every one when no env is named) instead of (prompt, program) pairs,
            rendered by a tool-calling template with the loss on the calls only.
    """

    model: str = EMBEDDED_MODEL
    envs: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    n: int = 1800
    n_per_env: tuple[tuple[str, int], ...] = ()
    shots: int | None = None
    all_shot: bool = False
    system_prompt: bool = True
    top_k_api: int | None = None
    world_seed: int = 0
    epochs: float = 1.0
    max_steps: int | None = None
    lr: float = 2e-4
    batch_size: int = 4
    grad_accum: int = 1
    max_length: int | None = None
    lora_r: int = 16
    lora_alpha: float = 32
    lora_dropout: float = 0.05
    target_modules: tuple[str, ...] = DEFAULT_TARGET_MODULES
    seed: int = 0
    out: str = "adapters/alignment"
    num_threads: int | None = None
    chat: bool | None = None
    device: str | None = None
    logging_steps: int = 1
    progress: bool = True
    adapter_dtype: str = "float32"
    command: str | None = None
    tool_calls: bool = False

    def check(self) -> None:
        """Raise :class:`~toolgym.errors.UserInputError` for a setting that cannot work."""
        whole = {
            "n": (self.n, 1),
            "batch_size": (self.batch_size, 1),
            "grad_accum": (self.grad_accum, 1),
            "max_length": (self.max_length, 8),
            "lora_r": (self.lora_r, 1),
            "logging_steps": (self.logging_steps, 1),
            "max_steps": (self.max_steps, 1),
            "num_threads": (self.num_threads, 1),
            "shots": (self.shots, 0),
            "top_k_api": (self.top_k_api, 0),
            "seed": (self.seed, 0),
            "world_seed": (self.world_seed, 0),
        }
        optional = ("max_steps", "num_threads", "shots", "top_k_api", "max_length")
        check_whole(whole, optional)
        check_positive({"epochs": self.epochs, "lr": self.lr, "lora_alpha": self.lora_alpha})
        check_lora(self.lora_dropout, self.target_modules)
        for name, count in self.n_per_env:
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise UserInputError(f"the count for {name} is a whole number >= 1; got {count!r}")
        if self.adapter_dtype not in ADAPTER_DTYPES:
            raise UserInputError(
                f"adapter_dtype must be one of {', '.join(ADAPTER_DTYPES)}; got {self.adapter_dtype!r}"
            )
        if self.all_shot and self.shots is not None:
            raise UserInputError(
                f"give shots or all_shot, not both (got shots={self.shots} and all_shot=True)"
            )

    def to_dict(self) -> dict[str, Any]:
        """The configuration as JSON-ready values."""
        out = config_dict(self)
        out["n_per_env"] = [list(pair) for pair in self.n_per_env]
        return out

    def count_for(self, env_id: str) -> int:
        """The examples to build for ``env_id`` (its ``n_per_env`` entry, or ``n``)."""
        from toolgym.envs import family_of

        names = {env_id, family_of(env_id).name}
        return next((count for name, count in self.n_per_env if name in names), self.n)


@dataclass
class FinetuneResult:
    """What a fine-tuning run did.

    Attributes:
        out: the adapter folder.
        env_ids: the envs the examples came from.
        examples: examples trained on.
        skipped: examples left out for being longer than ``max_length``.
        max_length: the longest example kept, in tokens (the configured one, or the context).
        steps: optimizer steps taken.
        losses: the logged training losses, in step order.
        wall_s: seconds from loading the model to saving the adapter.
        device: where it trained.
        trainable_params: parameters LoRA trains.
        model: the base model.
        eval_args: the ``toolgym eval`` arguments that evaluate the adapter as it was trained.
        task_ids: per env, the ``train`` tasks trained on (their goals are no test task's).
    """

    out: Path
    env_ids: list[str]
    examples: int
    skipped: int
    max_length: int
    steps: int
    losses: list[float]
    wall_s: float
    device: str
    trainable_params: int
    model: str
    eval_args: list[str] = field(default_factory=list)
    task_ids: dict[str, list[str]] = field(default_factory=dict)

    @property
    def eval_command(self) -> str:
        """The shell command that evaluates the adapter with the prompts it was trained on."""
        return shlex.join(["toolgym", "eval", *self.eval_args])


def base_model_identity(model: str) -> dict[str, Any]:
    """What identifies the base model an adapter was trained on (the embedded GGUF's file)."""
    if model != EMBEDDED_MODEL:
        return {"model": model}
    from toolgym.agents.backends.hf import _embedded_gguf

    path = _embedded_gguf()
    return {"model": model, "gguf": path.name, "bytes": path.stat().st_size}


def _require_train() -> tuple[Any, Any, Any]:
    try:
        import peft
        import torch
        import transformers
    except ImportError as e:
        raise DependencyNotInstalled(
            f"fine-tuning needs torch, transformers and peft ({e.name} is missing): "
            'pip install "toolgym[hf,train]"'
        ) from e
    return torch, transformers, peft


def _context(model: Any, tokenizer: Any) -> int:
    """The model's context in tokens (its position embeddings, else the tokenizer's limit)."""
    context = getattr(model.config, "max_position_embeddings", None)
    return int(context or tokenizer.model_max_length)


def _eval_args(config: FinetuneConfig, env_ids: Sequence[str], out: Path) -> list[str]:
    args = [a for env_id in env_ids for a in ("--env", env_id)]
    args += ["--model", config.model, "--adapter", str(out)]
    if config.shots is not None:
        args += ["--shots", str(config.shots)]
    if config.top_k_api is not None:
        args += ["--top-k-api", str(config.top_k_api)]
    if not config.system_prompt:
        args.append("--no-system-prompt")
    if config.chat is not None:
        args += ["--chat", "on" if config.chat else "off"]
    if config.tool_calls:
        args += ["--tool-calling", "native"]
    return args


def _tool_call_data(
    config: FinetuneConfig, tokenizer: Any
) -> tuple[list[str], list[dict[str, list[int]]], list[tuple[str, str]]]:
    """The envs, the encoded conversations and their (env, task) of a ``tool_calls`` run."""
    from toolgym.training.encoding import encode_tool_conversation
    from toolgym.training.grpo_env import tool_chat_template
    from toolgym.training.tool_call_data import tool_call_env_ids, tool_call_examples

    if config.families:
        raise UserInputError("tool-call examples take envs (or none: every call-mode env)")
    env_ids = tool_call_env_ids(config.envs)
    tool_chat_template(tokenizer)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    encoded, tasks = [], []
    for env_id in env_ids:
        for record in tool_call_examples(
            [env_id], config.count_for(env_id), seed=config.seed, world_seed=config.world_seed
        ):
            encoded.append(encode_tool_conversation(record["messages"], record["tools"], tokenizer))
            tasks.append((env_id, record["task_id"]))
    return env_ids, encoded, tasks


def train_adapter(
    config: FinetuneConfig, examples: Sequence[SFTExample] | None = None
) -> FinetuneResult:
    """Fine-tune a LoRA adapter on alignment examples and save it in ``config.out``.

    Args:
        config: the run.
        examples: the examples to train on (default: :func:`build_examples` from the
            configuration's envs and families).

    Raises:
        UserInputError: a bad setting, no env named, a multi-step family, every example longer
            than ``max_length``.
        DependencyNotInstalled: torch, transformers or peft is missing.
    """
    config.check()
    torch, transformers, peft = _require_train()
    from toolgym.agents.backends.hf import HFBackend

    if config.tool_calls and examples is not None:
        raise UserInputError("tool_calls builds its own examples; pass none")
    if examples is None and not config.tool_calls:
        env_ids = program_env_ids(config.envs, config.families)
        examples = []
        for env_id in env_ids:
            examples += build_examples(
                env_id,
                config.count_for(env_id),
                seed=config.seed,
                world_seed=config.world_seed,
                shots=config.shots,
                all_shot=config.all_shot,
                system_prompt=config.system_prompt,
                top_k_api=config.top_k_api,
            )
    elif examples is not None:
        env_ids = list(dict.fromkeys(e.env_id for e in examples))
    start = time.perf_counter()
    backend = HFBackend(
        config.model, num_threads=config.num_threads, chat=config.chat, device=config.device
    )
    tokenizer, device = backend.tokenizer, backend.device
    if config.tool_calls:
        env_ids, encoded, tasks = _tool_call_data(config, tokenizer)
    else:
        assert examples is not None
        encoded = [
            encode_example(e, tokenizer, backend._render, not backend.chat) for e in examples
        ]
        tasks = [(e.env_id, e.task_id) for e in examples]
    max_length = config.max_length or _context(backend.model, tokenizer)
    kept = [e for e in encoded if len(e["input_ids"]) <= max_length]
    trained: dict[str, list[str]] = {}
    for (env_id, task_id), enc in zip(tasks, encoded, strict=True):
        if len(enc["input_ids"]) <= max_length:
            trained.setdefault(env_id, []).append(task_id)
    if not kept:
        lengths = [len(e["input_ids"]) for e in encoded] or [0]
        raise UserInputError(
            f"examples of at most max_length={max_length} tokens are needed; got "
            f"{len(encoded)} examples of {min(lengths)} to {max(lengths)} tokens "
            "(raise max_length, or use fewer shots or API docs)"
        )
    transformers.set_seed(config.seed)
    lora = peft.LoraConfig(
        r=config.lora_r,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules=list(config.target_modules),
        task_type="CAUSAL_LM",
    )
    try:
        model = peft.get_peft_model(backend.model, lora)
    except ValueError as e:
        raise UserInputError(
            f"LoRA target modules {list(config.target_modules)} do not fit {config.model}: {e}"
        ) from e
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    cuda = device.startswith("cuda")
    out = Path(config.out)
    args = transformers.TrainingArguments(
        output_dir=str(out),
        per_device_train_batch_size=config.batch_size,
        gradient_accumulation_steps=config.grad_accum,
        num_train_epochs=config.epochs,
        max_steps=config.max_steps if config.max_steps is not None else -1,
        learning_rate=config.lr,
        lr_scheduler_type="linear",
        logging_steps=config.logging_steps,
        save_strategy="no",
        report_to="none",
        seed=config.seed,
        data_seed=config.seed,
        use_cpu=not cuda,
        bf16=cuda and bool(torch.cuda.is_bf16_supported()),
        dataloader_num_workers=0,
        remove_unused_columns=False,
        disable_tqdm=not config.progress,
    )
    trainer = transformers.Trainer(
        model=model,
        args=args,
        train_dataset=kept,
        data_collator=PadCollator(int(tokenizer.pad_token_id)),
    )
    if not config.progress:
        trainer.remove_callback(transformers.PrinterCallback)
    trainer.train()
    model.save_pretrained(str(out))
    if config.tool_calls:  # the template the calls were trained in goes with the adapter
        from toolgym.agents.backends.adapters import save_chat_template

        save_chat_template(tokenizer, out)
    if config.adapter_dtype != "float32":
        _cast_adapter(out, getattr(torch, config.adapter_dtype))
    wall = time.perf_counter() - start
    losses = [float(entry["loss"]) for entry in trainer.state.log_history if "loss" in entry]
    result = FinetuneResult(
        out=out,
        env_ids=env_ids,
        examples=len(kept),
        task_ids=trained,
        skipped=len(encoded) - len(kept),
        max_length=max_length,
        steps=int(trainer.state.global_step),
        losses=losses,
        wall_s=wall,
        device=device,
        trainable_params=int(trainable),
        model=config.model,
        eval_args=_eval_args(config, env_ids, out),
    )
    _write_summary(config, result, peft.__version__, transformers.__version__)
    return result


def _cast_adapter(folder: Path, dtype: Any) -> None:
    """Rewrite a saved adapter's weights in ``dtype``."""
    from safetensors.torch import load_file, save_file

    path = folder / "adapter_model.safetensors"
    tensors = {k: v.to(dtype).contiguous() for k, v in load_file(str(path)).items()}
    save_file(tensors, str(path), metadata={"format": "pt"})


def _write_summary(
    config: FinetuneConfig, result: FinetuneResult, peft_version: str, hf_version: str
) -> None:
    summary = {
        "config": config.to_dict(),
        "env_ids": result.env_ids,
        "data": {
            "examples": result.examples,
            "skipped_too_long": result.skipped,
            "max_length": result.max_length,
            "task_ids": result.task_ids,
        },
        "steps": result.steps,
        "train_loss": result.losses,
        "wall_s": round(result.wall_s, 3),
        "device": result.device,
        "trainable_params": result.trainable_params,
        "versions": {"peft": peft_version, "transformers": hf_version, "toolgym": __version__},
        "base_model": base_model_identity(config.model),
        "command": config.command,
        "eval_command": result.eval_command,
    }
    path = result.out / RESULT_FILE
    path.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
