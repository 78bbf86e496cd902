"""The LoRA adapter shipped with toolgym: the embedded model aligned on generated tool programs.

The paper's third technique, ready to use: ``toolgym finetune`` trained one adapter for the
embedded SmolLM2-135M-Instruct on the ``train`` generators of every family whose action is one
generation (its command, data seeds, base model and toolgym version are in
``toolgym_finetune.json`` beside it). ``toolgym eval`` uses it by default for the embedded model,
with the prompt settings it was trained with, and prints the base model's row beside it.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

SHIPPED_ADAPTER = "smollm2-135m-toolbench"
"""The folder name of the shipped adapter (inside this package)."""
RECORD_FILE = "toolgym_finetune.json"


def shipped_adapter_path() -> Path | None:
    """The shipped adapter's folder, or ``None`` when the package was built without it."""
    folder = Path(__file__).resolve().parent / SHIPPED_ADAPTER
    return folder if (folder / "adapter_config.json").is_file() else None


@cache
def shipped_record() -> dict[str, Any]:
    """What ``toolgym finetune`` recorded beside the shipped adapter (``{}`` without it)."""
    folder = shipped_adapter_path()
    if folder is None or not (folder / RECORD_FILE).is_file():
        return {}
    data: dict[str, Any] = json.loads((folder / RECORD_FILE).read_text(encoding="utf-8"))
    return data


def shipped_prompt_settings() -> dict[str, Any]:
    """The prompt settings the shipped adapter was trained with, which its evaluation uses too.

    ``shots``, ``system_prompt`` and ``top_k_api`` (``None``: the family's default).
    """
    config = shipped_record().get("config", {})
    return {k: config.get(k) for k in ("shots", "system_prompt", "top_k_api")}
