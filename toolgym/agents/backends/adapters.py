"""LoRA adapters (``toolgym finetune``) applied to a loaded ``transformers`` model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolgym.errors import DependencyNotInstalled, UserInputError

ADAPTER_CONFIG = "adapter_config.json"
"""The file every ``peft`` adapter folder holds."""

CHAT_TEMPLATE = "chat_template.jinja"
"""The chat template an adapter was trained with, when it is not the base model's (a tool-call
adapter's: ``toolgym finetune --tool-calls``); the file ``transformers`` saves templates in."""


def save_chat_template(tokenizer: Any, folder: str | Path) -> Path:
    """Write ``tokenizer``'s chat template into the adapter folder; its path."""
    path = Path(folder) / CHAT_TEMPLATE
    path.write_text(str(tokenizer.chat_template), encoding="utf-8")
    return path


def adapter_chat_template(path: str | Path) -> str | None:
    """The chat template the adapter in ``path`` was trained with (``None``: the base model's)."""
    file = Path(path).expanduser() / CHAT_TEMPLATE
    return file.read_text(encoding="utf-8") if file.is_file() else None


def apply_adapter(model: Any, path: str | Path, tokenizer: Any = None) -> Any:
    """The model with the LoRA adapter in ``path`` merged into its weights.

    An adapter trained with a chat template of its own (:data:`CHAT_TEMPLATE` in its folder: a
    tool-call adapter's) gives it to ``tokenizer``, when one is passed.

    Merging (``merge_and_unload``) makes inference as fast as with the base model: the result is
    a plain ``transformers`` model, no ``peft`` wrapper.

    Args:
        model: a loaded causal LM (the adapter's base model).
        path: the adapter folder (``save_pretrained``'s output).
        tokenizer: the model's tokenizer, which takes the adapter's chat template if it has one.

    Raises:
        UserInputError: ``path`` is not an adapter folder, or the adapter does not fit the model.
        DependencyNotInstalled: ``peft`` is missing.
    """
    folder = Path(path).expanduser()
    if not (folder / ADAPTER_CONFIG).is_file():
        what = "a folder without it" if folder.is_dir() else "no such folder"
        raise UserInputError(
            f"a LoRA adapter is a folder with {ADAPTER_CONFIG} (toolgym finetune writes one); "
            f"got {str(path)!r}: {what}"
        )
    try:
        from peft import PeftModel
    except ImportError as e:
        raise DependencyNotInstalled(
            f"a LoRA adapter needs the peft package ({e.name} is missing): "
            'pip install "toolgym[hf]"'
        ) from e
    try:
        wrapped = PeftModel.from_pretrained(model, str(folder))
    except (ValueError, KeyError, RuntimeError) as e:
        first = (str(e).strip().splitlines() or [""])[0][:300]
        raise UserInputError(
            f"the adapter in {str(folder)!r} does not fit the model: {type(e).__name__}: {first}"
        ) from e
    template = adapter_chat_template(folder)
    if tokenizer is not None and template is not None:  # trained with its own: keep it
        tokenizer.chat_template = template
    return wrapped.merge_and_unload()
