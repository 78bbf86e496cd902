"""How BFCL is prompted, reported and benchmarked: its agents' defaults and evaluation profile."""

from __future__ import annotations

import atexit
import hashlib
import re
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from toolgym.agents.defaults import PromptDefaults
from toolgym.evaluation.profile import EvalProfile

PROMPTING = PromptDefaults(top_k_api=64, max_new_tokens=512, shots=0)
"""Every function of an entry in the prompt, no demonstrations (BFCL has none)."""

TURN_PROMPTING = PromptDefaults(top_k_api=64, max_new_tokens=128, shots=0)
"""The multi-turn categories: a reply is a step's few calls, and BFCL's prompt lists every
function of the entry's classes, which leaves a small model's context little room."""

PROFILE = EvalProfile(
    breakdown="category",
    suites=("bfcl",),
    default_run=False,
    known_by=(),
    tables="toolgym.families.bfcl.leaderboard:leaderboard_tables",
)
"""Reported per category (the leaderboard's columns); run with ``--suite bfcl``, not by default
(its data comes from ``bfcl-eval``, which the main install leaves out)."""

WEB_PROFILE = EvalProfile(
    breakdown="category",
    suites=(),
    default_run=False,
    known_by=(),
    tables="toolgym.families.bfcl.leaderboard:leaderboard_tables",
)
"""The web search env: in no suite (it needs the user's search backend: ``--env`` with
``--env-option search_backend=module:attribute`` runs it)."""


def memory_run_options(out_dir: str | None, label: str) -> dict[str, Any]:
    """A run's memory snapshots: under ``--out`` by agent label, else in a temporary folder.

    BFCL plays each scenario's earlier conversations once per model and answers every question
    of the scenario from the memory they leave; a run of ``toolgym eval`` does the same
    (:mod:`.memory_turns`). A run resumed into the same ``--out`` with the same label reads the
    snapshots it wrote.
    """
    if out_dir is None:
        folder = tempfile.mkdtemp(prefix="toolgym-bfcl-memory-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        return {"snapshots": folder}
    slug = re.sub(r"[^A-Za-z0-9_-]+", "_", label).strip("_")[:60] or "agent"
    digest = hashlib.sha256(label.encode()).hexdigest()[:8]  # labels differing in one sign
    return {"snapshots": str(Path(out_dir) / "bfcl_memory_snapshots" / f"{slug}-{digest}")}


MEMORY_PROFILE = replace(PROFILE, run_options="toolgym.families.bfcl.profile:memory_run_options")
"""The memory env: in the ``bfcl`` suite, each scenario's conversations played once per run."""
