"""The LoRA adapters shipped with toolgym for the embedded SmolLM2-135M-Instruct.

* :data:`SHIPPED_ADAPTER`: the model aligned on generated tool programs, the paper's third
  technique: ``toolgym finetune`` trained it on the ``train`` generators of every family whose
  action is one generation. ``toolgym eval`` uses it by default for the embedded model, with the
  prompt settings it was trained with.
* :data:`TOOL_CALL_ADAPTER`: the tool-calling start: ``toolgym finetune --tool-calls`` trained it
  on the oracle's calls of ``train`` tasks of conversation envs, in the chat-with-tools format
  TRL's environments use; it carries that chat template (``chat_template.jinja``). Multi-turn
  GRPO starts from it (``toolgym train-rl --adapter``), and ``toolgym train-rl --eval-only``
  plays test tasks with it.

Each folder's ``toolgym_finetune.json`` holds its command, data seeds and trained tasks, base
model and toolgym version.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

SHIPPED_ADAPTER = "smollm2-135m-toolbench"
"""The folder name of the shipped adapter (inside this package)."""
TOOL_CALL_ADAPTER = "smollm2-135m-toolcalls"
"""The folder name of the shipped tool-calling start (inside this package)."""
RECORD_FILE = "toolgym_finetune.json"


def shipped_adapter_path(name: str = SHIPPED_ADAPTER) -> Path | None:
    """A shipped adapter's folder, or ``None`` when the package was built without it."""
    folder = Path(__file__).resolve().parent / name
    return folder if (folder / "adapter_config.json").is_file() else None


def tool_call_adapter_path() -> Path | None:
    """The shipped tool-calling start's folder (``None`` without it)."""
    return shipped_adapter_path(TOOL_CALL_ADAPTER)


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
