"""How WebShop is prompted, reported and benchmarked: its agents' defaults and evaluation profile."""

from __future__ import annotations

from toolgym.agents.defaults import PromptDefaults
from toolgym.evaluation.profile import EvalProfile

PROMPTING = PromptDefaults(top_k_api=0, max_new_tokens=128, eval_limit=4)
"""The original's command-line settings for the family."""

PROFILE = EvalProfile(
    headline=("reward",),
    suites=("toolbench",),
    measures="toolgym.families.web_shop.bench:report",
    columns={0: "WebShop long", 1: "WebShop short"},
)
"""Its headline metrics, suites and table columns, and what ``toolgym bench`` times."""
