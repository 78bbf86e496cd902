"""How Tabletop is prompted, reported and benchmarked: its agents' defaults and evaluation profile."""

from __future__ import annotations

from toolgym.agents.defaults import PromptDefaults
from toolgym.evaluation.profile import BenchAction, EvalProfile
from toolgym.families.tabletop.metrics import BREAKDOWN

SORT_BY_COLOR = BenchAction(
    "test-028",
    "block_names = [name for name in get_obj_names() if 'block' in name]\n"
    "for block_name in block_names:\n"
    "    bowl_name = block_name.replace('block', 'bowl')\n"
    "    if is_obj_visible(bowl_name):\n"
    "        put_first_on_second(block_name, bowl_name)",
    "a four-block pick-and-place program",
)
"""The typical action ``toolgym bench`` times: four pick-and-places, each settled by physics."""

PROMPTING = PromptDefaults(top_k_api=0, max_new_tokens=256)
"""The original's command-line settings for the family."""

PROFILE = EvalProfile(
    breakdown=BREAKDOWN,
    suites=("toolbench",),
    bench=SORT_BY_COLOR,
    measures="toolgym.families.tabletop.bench:report",
)
"""Its headline metrics, suites and table columns, and what ``toolgym bench`` times."""
