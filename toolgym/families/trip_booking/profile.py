"""How Trip Booking is prompted, reported and benchmarked: its agents' defaults and evaluation profile."""

from __future__ import annotations

from toolgym.agents.defaults import PromptDefaults
from toolgym.evaluation.profile import EvalProfile

PROMPTING = PromptDefaults(top_k_api=15, max_new_tokens=300)
"""The original's command-line settings for the family."""

PROFILE = EvalProfile(suites=("toolbench", "api"))
"""Its headline metrics, suites and table columns, and what ``toolgym bench`` times."""
