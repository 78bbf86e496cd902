"""The web search task suite: BFCL's web search questions, and its agentic verdict.

A task is one question under BFCL's id (``web_search_base_0``, ``web_search_no_snippet_0``): a
multi-hop question whose answer is on the web, the ``WebSearchAPI`` functions, and BFCL's
system message asking for the final answer as ``{'answer': ..., 'context': ...}``. Its meta holds
the possible answers (``ground_truth``); its gold is a final answer that names the first (the
oracle answers without searching: the verdict reads the final answer only).

:class:`AgenticVerdict` is BFCL's agentic checker: the last reply without calls must contain one
of the possible answers, as a whole word, once case, spaces are kept and ``,./-_*^()`` dropped
(``agentic:answer_not_found``); an episode that never replied without calls fails
(``agentic:no_last_message``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.families.bfcl import data
from toolgym.families.bfcl.tasks import bfcl_suite
from toolgym.families.bfcl.turns import NO_REQUEST, user_text
from toolgym.tools.backend import Attempt
from toolgym.tools.errors import GOAL_NOT_MET


@functools.cache
def response_format() -> str:
    """BFCL's system message for agentic entries (the final answer's format)."""
    import bfcl_eval.constants.default_prompts as prompts

    return str(prompts.ADDITIONAL_SYSTEM_PROMPT_FOR_AGENTIC_RESPONSE_FORMAT)


def standardize(text: str) -> str:
    """BFCL's agentic normalisation: ``,./-_*^()`` dropped, lower case, ``'`` as ``"``.

    >>> standardize("April 1, 2024 (Mon.)")
    'april 1 2024 mon'
    """
    return re.sub(r"[\,\.\/\-\_\*\^\(\)]", "", text).lower().replace("'", '"')


def answer_found(reply: str, possible: Sequence[str]) -> bool:
    """Whether ``reply`` contains one of the ``possible`` answers, as BFCL's checker reads it."""
    said = standardize(reply)
    return any(re.search(rf"\b{re.escape(standardize(p))}\b", said) for p in possible)


def entry_task(entry: dict[str, Any], category: str) -> Task:
    """The task of one web search entry (see the module docstring)."""
    turns = [[{"role": "system", "content": response_format()}, *entry["question"][0]]]
    setup = {
        "category": category,
        "involved_classes": list(entry["involved_classes"]),
        "initial_config": entry["initial_config"],
        "functions": entry["function"],
        "missed_function": {},
        "turns": turns,
    }
    truth = list(entry["ground_truth"])
    meta = {"category": category, "ground_truth": truth}
    gold = str({"answer": truth[0], "context": "the answer the question's sources give"})
    return Task(entry["id"], user_text(turns[0]) or NO_REQUEST, (gold,), meta, setup=setup)


@functools.cache
def all_tasks() -> tuple[Task, ...]:
    """Every web search task, category by category, in file order."""
    return tuple(entry_task(e, c) for c in data.WEB_SEARCH for e in data.web_search_entries(c))


class AgenticVerdict(Checker):
    """BFCL's agentic verdict on the final answer (see the module docstring)."""

    runs_gold = False
    accepts_others = True  # any wording that names the answer

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """1 when the last reply without calls names a possible answer, else 0."""
        category = str((task.setup or {}).get("category", "web_search_base"))
        possible = [str(p) for p in task.meta.get("ground_truth", [])]
        reply = attempt.text if attempt.error is None else ""
        if not reply:
            error_type, message = "agentic:no_last_message", "no reply without calls"
        elif answer_found(reply, possible):
            metrics = {"category": category, "error_type": None}
            return Score(1.0, True, True, metrics, None, reply)
        else:
            error_type = "agentic:answer_not_found"
            message = "none of the expected answers is in the final answer"
        metrics = {"category": category, "error_type": error_type}
        error = {"category": GOAL_NOT_MET, "message": f"{error_type}: {message}"}
        return Score(0.0, False, True, metrics, error, reply)


WEB_SEARCH_SUITE = bfcl_suite("bfcl_web_search", all_tasks, AgenticVerdict())
"""BFCL's web search categories (base, no_snippet)."""
