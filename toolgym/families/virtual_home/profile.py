"""How VirtualHome is prompted, reported and benchmarked: its agents' defaults and evaluation profile."""

from __future__ import annotations

from toolgym.agents.defaults import PromptDefaults
from toolgym.evaluation.profile import BenchAction, EvalProfile

TWENTY_ACTIONS = BenchAction(
    "test-044",
    "Agent.WalkTo(bedroom)\nAgent.WalkTo(clothes_pants)\nAgent.Find(clothes_pants)\n"
    "Agent.Open(dresser)\nAgent.Grab(clothes_pants)\nAgent.Close(dresser)\n"
    "Agent.WalkTo(living_room)\nAgent.WalkTo(washing_machine)\nAgent.Open(washing_machine)\n"
    "Agent.PutIn(clothes_pants, washing_machine)\nAgent.Close(washing_machine)\n"
    "Agent.WalkTo(washing_machine)\nAgent.Find(washing_machine)\n"
    "Agent.SwitchOn(washing_machine)\nAgent.WalkTo(living_room)\nAgent.WalkTo(couch)\n"
    "Agent.SitOn(couch)\nAgent.StandUp()\nAgent.WalkTo(kitchen)\nAgent.WalkTo(fridge)",
    "a 20-action program",
)
"""The typical action ``toolgym bench`` times: a 20-line program, simulated line by line."""

PROMPTING = PromptDefaults(top_k_api=10, max_new_tokens=128, eval_limit=4)
"""The original's command-line settings for the family."""

PROFILE = EvalProfile(headline=("executable", "lcs"), suites=("toolbench",), bench=TWENTY_ACTIONS)
"""Its headline metrics, suites and table columns, and what ``toolgym bench`` times."""
