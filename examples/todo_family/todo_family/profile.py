"""How the to-do family is prompted and reported: its agents' defaults and its evaluation profile."""

from __future__ import annotations

from toolgym.agents.defaults import PromptDefaults
from toolgym.evaluation.profile import EvalProfile

PROMPTING = PromptDefaults(top_k_api=3, max_new_tokens=96)
"""Three docs per prompt and short answers: one call per turn."""

PROFILE = EvalProfile(headline=("success",), suites=())
"""The paper-style tables show its success rate; it is in no named suite but ``all``."""
