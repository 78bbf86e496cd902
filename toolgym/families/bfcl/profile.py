"""How BFCL is prompted, reported and benchmarked: its agents' defaults and evaluation profile."""

from __future__ import annotations

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
