"""How LLM agents prompt for a family by default: the original benchmark's settings.

A family names its defaults by import path (``FamilySpec.prompting``, ``"module:attribute"``),
so that the env's declaration carries no agent settings and agents read them here.

>>> prompt_defaults("web_shop").top_k_api
0
>>> prompt_defaults(None) == PromptDefaults()
True
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from toolgym.envs import family as family_spec
from toolgym.envs.spec import load_ref

CALL_ONLY_EVAL_LIMIT = 10
"""The default ``toolgym eval`` tasks of an env played in call mode only (a conversation)."""


@dataclass(frozen=True)
class PromptDefaults:
    """How LLM agents prompt for a family by default (the original's command-line settings).

    Attributes:
        top_k_api: how many API docs are retrieved into a prompt.
        max_new_tokens: the generation budget of one turn.
        strategy: how an LLM agent acts when none is asked for: ``"single"`` (one generation
            per step from a fresh prompt: the paper's protocol) or ``"react"`` (thought, action
            and observation turns with the history: ToolBench's multi-step protocol).
        eval_limit: how many test tasks ``toolgym eval`` gives an LLM agent by default, when a
            family's episodes cost several times the others' (many generations, prompts of
            thousands of tokens, long answers), so that the default run stays short
            (``None``: the command line's default). ``--limit`` and ``--suite`` override it.
        shots: how many demonstrations are retrieved into a prompt (the original's
            ``top_k_example``).
    """

    top_k_api: int = 10
    max_new_tokens: int = 256
    strategy: str = "single"
    eval_limit: int | None = None
    shots: int = 3


def prompt_defaults(family: str | None) -> PromptDefaults:
    """The prompting defaults of the family called ``family`` (``None``: the generic ones).

    Raises:
        KeyError: no such family.
        TypeError: the family's ``prompting`` names something that is not a ``PromptDefaults``.
    """
    if family is None:
        return PromptDefaults()
    spec = family_spec(family)
    found = _load(spec.prompting)
    if "program" not in spec.action_modes and found.strategy == "single":
        # an env played one step at a time whose observations matter (a conversation) needs
        # the history a single-step prompt lacks, and each episode costs many generations
        limit = min(found.eval_limit or CALL_ONLY_EVAL_LIMIT, CALL_ONLY_EVAL_LIMIT)
        return dataclasses.replace(found, strategy="react", eval_limit=limit)
    return found


@functools.cache
def _load(ref: str | None) -> PromptDefaults:
    if ref is None:
        return PromptDefaults()
    found = load_ref(ref)
    if not isinstance(found, PromptDefaults):
        raise TypeError(f"{ref} should be a PromptDefaults; got {type(found).__name__}")
    return found
