"""How RapidAPI is prompted, reported and benchmarked: its agents' defaults and evaluation profile."""

from __future__ import annotations

from toolgym.agents.defaults import PromptDefaults
from toolgym.evaluation.profile import EvalProfile
from toolgym.families.rapid_api.metrics import BREAKDOWN

PROMPTING = PromptDefaults(top_k_api=12, max_new_tokens=128, strategy="react", eval_limit=3)
"""The original's command-line settings for the family."""

PROFILE = EvalProfile(
    breakdown=BREAKDOWN,
    measures="toolgym.families.rapid_api.bench:report",
    give_up_code=4,
    known_by=("precheck", "tool_f1"),
)
"""Its headline metrics, suites and table columns, and what ``toolgym bench`` times."""
