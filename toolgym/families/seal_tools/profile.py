"""How Seal-Tools is prompted, reported and benchmarked: its agents' defaults and evaluation profile."""

from __future__ import annotations

from toolgym.agents.defaults import PromptDefaults
from toolgym.evaluation.profile import EvalProfile
from toolgym.families.seal_tools.metrics import BREAKDOWN

PROMPTING = PromptDefaults(top_k_api=5, max_new_tokens=512, eval_limit=4)
"""The original's command-line settings for the family."""

PROFILE = EvalProfile(breakdown=BREAKDOWN, known_by=("tool_f1", "param_f1"))
"""Its headline metrics, suites and table columns, and what ``toolgym bench`` times."""
