"""The single-turn checker: BFCL's verdict on the answer is the reward.

The verdict (:mod:`.checker`) needs the entry, not a gold run: the task's setup holds the
function docs and category, its ``meta["ground_truth"]`` the possible answer. An answer that is
not calls fails every AST category (BFCL's ``ast_decoder:decoder_failed``) and passes the
irrelevance ones. ``info["metrics"]`` holds ``success``, the entry's ``category`` (the
breakdown of reports and of the leaderboard's columns) and BFCL's ``error_type``;
``info["error"]`` gives the failing check in toolgym's categories, its message starting with
BFCL's error type.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.families.bfcl.bounded import VERDICT_S
from toolgym.families.bfcl.checker import Verdict, ast_verdict, relevance_verdict
from toolgym.families.bfcl.data import IRRELEVANCE, RELEVANCE
from toolgym.tools.backend import Attempt
from toolgym.tools.deadline import deadline
from toolgym.tools.errors import GOAL_NOT_MET, NON_EXECUTABLE, WRONG_API, WRONG_ARGUMENTS

_CATEGORY_OF = (
    ("decoder_failed", NON_EXECUTABLE),
    ("wrong_func_name", WRONG_API),
    ("wrong_count", WRONG_API),
    ("irrelevance_error", WRONG_API),
    ("relevance_error", GOAL_NOT_MET),
)


def error_category(error_type: str) -> str:
    """Toolgym's category of a BFCL error type (``wrong_arguments`` for the value checks).

    >>> error_category("value_error:string"), error_category("simple_function_checker:wrong_count")
    ('wrong_arguments', 'wrong_api')
    """
    for part, category in _CATEGORY_OF:
        if part in error_type:
            return category
    return WRONG_ARGUMENTS


def entry_verdict(task: Task, calls: Any) -> Verdict:
    """BFCL's verdict on ``calls`` (``None``: the answer is not calls) for a task's entry."""
    setup = task.setup or {}
    category = str(setup.get("category", "simple_python"))
    if category in IRRELEVANCE + RELEVANCE:
        return relevance_verdict(category, calls)
    if calls is None:
        return Verdict(False, "ast_decoder:decoder_failed", "The answer is not calls.")
    return ast_verdict(
        setup.get("functions", []),
        calls,
        task.meta.get("ground_truth", []),
        language=str(setup.get("language", "python")),
        category=category,
    )


class BfclVerdict(Checker):
    """Scores a single-turn answer with BFCL's verdict (see the module docstring)."""

    runs_gold = False
    accepts_others = True  # a possible answer accepts several values (years 1861 to 1865)

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """1 when BFCL's checker passes the answer, else 0."""
        category = str((task.setup or {}).get("category", ""))
        calls = attempt.outcome
        relevance = category in IRRELEVANCE + RELEVANCE
        if attempt.error is not None:  # refused, or not calls where calls were due
            failed = {"category": category, "error_type": "ast_decoder:decoder_failed"}
            error = {"category": attempt.error.category, "message": attempt.error.message}
            return Score(0.0, False, False, failed, error, None)
        with deadline(time.monotonic() + VERDICT_S):  # slow Java and JavaScript values
            try:
                verdict = entry_verdict(task, calls)
            except Exception as e:  # BFCL's converters met text they cannot read: not a pass
                verdict = Verdict(False, "ast_checker:raised", f"{type(e).__name__}: {e}")
        metrics: dict[str, Any] = {"category": category, "error_type": verdict.error_type}
        # relevance categories score whether a call was made, not which
        prediction = (
            {"called": verdict.valid != ("irrelevance" in category)} if relevance else calls
        )
        if verdict.valid:
            return Score(1.0, True, True, metrics, None, prediction)
        error_type = verdict.error_type or "error"
        error = {
            "category": error_category(error_type),
            "message": f"{error_type}: {verdict.message}",
        }
        return Score(0.0, False, calls is not None or relevance, metrics, error, prediction)
