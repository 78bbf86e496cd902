"""A model ready to train with TRL's environments: weights it will train, a tool-calling template.

Loading the embedded SmolLM2 as people first try (``AutoModelForCausalLM.from_pretrained`` on its
GGUF file) gives a model transformers refuses to train (``QuantizationMethod.GGUF ... do not
support training``), whose ChatML template renders no tools, and TRL's ``GRPOConfig`` then asks
for bf16 on a CPU. :func:`trainable_model` returns the model as toolgym's backend loads it
(dequantized to float32, no quantization left on it), with a tool-calling ChatML template TRL
reads calls from, a response schema and a pad token; :func:`cpu_grpo_args` gives the
``GRPOConfig`` settings a CPU needs.
"""

from __future__ import annotations

from typing import Any

from toolgym.training.grpo import require_rl


def trainable_model(
    model: str = "smollm2-135m",
    device: str | None = None,
    num_threads: int | None = None,
    *,
    adapter: str | None = None,
) -> tuple[Any, Any]:
    """The model and tokenizer, ready for ``GRPOTrainer(model=..., processing_class=...)``.

    Args:
        model: the embedded model's name (the default), a folder or a Hugging Face id, as
            ``toolgym eval --model`` takes it.
        device: ``"cpu"``, ``"cuda"``... (``None``: CUDA when available, else the CPU).
        num_threads: torch's CPU threads (``None``: torch's default).
        adapter: a LoRA adapter folder merged into the weights first (a tool-calling start
            from ``toolgym finetune --tool-calls``, whose chat template it brings), or ``None``.

    Raises:
        DependencyNotInstalled: torch, transformers, peft or trl is missing.
        UserInputError: a model whose chat template cannot call tools and that has no ChatML
            tokens to write one with.
    """
    require_rl()
    from trl.chat_template_utils import add_response_schema

    from toolgym.agents.backends.hf import HFBackend
    from toolgym.training.grpo_env import tool_chat_template

    backend = HFBackend(model, num_threads=num_threads, device=device, adapter=adapter)
    tokenizer, weights = backend.tokenizer, backend.model
    for name in ("hf_quantizer", "quantization_method"):  # weights dequantized on loading
        if getattr(weights, name, None) is not None:
            setattr(weights, name, None)
    if getattr(weights.config, "quantization_config", None) is not None:
        del weights.config.quantization_config
    weights.is_quantized = False
    weights.train()
    tool_chat_template(tokenizer)
    add_response_schema(tokenizer)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return weights, tokenizer


def cpu_grpo_args() -> dict[str, Any]:
    """``GRPOConfig`` keywords a CPU needs: no bf16, the CPU, no loggers, no saving mid-run.

    >>> cpu_grpo_args()["bf16"]
    False
    """
    return {"bf16": False, "use_cpu": True, "report_to": "none", "save_strategy": "no"}
