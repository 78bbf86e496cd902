"""Checkers shared by families: F1 of an outcome dict against the gold's, the original metric.

* :class:`CriteriaF1`: the search criteria an API program accumulated (Home Search, Trip Booking);
  a miss is ``wrong_api`` when the program called other functions than the gold, else
  ``wrong_arguments`` naming the criteria with wrong values.
* :class:`ResponseF1`: the top-level fields of the last response (OpenWeather, The Cat API); a miss
  is ``wrong_api`` when the request went to another endpoint, else ``wrong_arguments``.

An attempt that stopped with an error scores as the original scores a program that does not run:
0 everywhere, not executable, whatever it had done before the error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolgym.benchmarks.metrics import best_f1, equal
from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.tools.backend import Attempt
from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS


class OutcomeF1(Checker):
    """Dict F1 of the attempt's outcome against the best gold outcome (reward = F1)."""

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Score the outcome; the error says what differs from the closest gold."""
        prediction = None if attempt.error is not None else attempt.outcome
        if prediction is None:
            metrics: dict[str, Any] = {
                "precision": 0.0,
                "recall": 0.0,
                "f1": 0.0,
                "closest_label": 0,
            }
            error = None if attempt.error is None else attempt.error.to_info()
            return Score(0.0, False, False, metrics, error, prediction)
        p, r, f, closest = best_f1(prediction, [g.outcome for g in golds])
        metrics = {"precision": p, "recall": r, "f1": f, "closest_label": closest}
        success = f == 1.0
        error = None if success else self.diagnose(prediction, attempt, golds[closest])
        return Score(f, success, True, metrics, error, prediction)

    def diagnose(self, prediction: Any, attempt: Attempt, gold: Attempt) -> dict[str, str] | None:
        """Why an executed attempt missed (default: wrong values)."""
        wrong = _differing_keys(prediction, gold.outcome)
        if not wrong:
            return None
        return {
            "category": WRONG_ARGUMENTS,
            "message": f"these fields differ from the expected ones: {', '.join(wrong[:10])}",
        }


def _differing_keys(prediction: Any, label: Any) -> list[str]:
    return sorted(
        str(k)
        for k in set(prediction) | set(label)
        if k not in prediction or k not in label or not equal(prediction[k], label[k])
    )


class CriteriaF1(OutcomeF1):
    """Dict F1 of the search criteria an API program set (see the module docstring)."""

    def diagnose(self, prediction: Any, attempt: Attempt, gold: Attempt) -> dict[str, str] | None:
        """``wrong_api`` for another set of functions, else ``wrong_arguments``."""
        missing = sorted(set(gold.calls) - set(attempt.calls))
        extra = sorted(set(attempt.calls) - set(gold.calls))
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing)}")
            if extra:
                parts.append(f"unexpected {', '.join(extra)}")
            return {
                "category": WRONG_API,
                "message": "the program calls other functions than the task needs "
                f"({'; '.join(parts)})",
            }
        wrong = _differing_keys(prediction, gold.outcome)
        if not wrong:
            return None
        return {
            "category": WRONG_ARGUMENTS,
            "message": f"the right functions with wrong values for: {', '.join(wrong)}",
        }

    def validate(self, task: Task, golds: Sequence[Attempt]) -> None:
        """A gold program must set some criteria (an empty label cannot be scored against)."""
        for gold in golds:
            if not gold.outcome:
                raise TaskFileError(f"the gold program of task {task.task_id!r} sets nothing")


class ResponseF1(OutcomeF1):
    """Dict F1 of the top-level fields of the last response (see the module docstring)."""

    def validate(self, task: Task, golds: Sequence[Attempt]) -> None:
        """A gold whose answer is empty (``[]``) cannot be scored against: no answer beats 0."""
        for gold in golds:
            if gold.outcome is not None and not gold.outcome:
                raise TaskFileError(
                    f"the gold of task {task.task_id!r} answers an empty list, and under the "
                    "original scoring nothing scores above 0 against an empty answer"
                )

    def diagnose(self, prediction: Any, attempt: Attempt, gold: Attempt) -> dict[str, str] | None:
        """``wrong_api`` for another endpoint, else ``wrong_arguments`` naming the fields."""
        if attempt.calls != gold.calls:
            called = attempt.calls[0] if attempt.calls else "nowhere"
            return {
                "category": WRONG_API,
                "message": f"the request went to {called}, not to the endpoint the task needs",
            }
        wrong = _differing_keys(prediction, gold.outcome)
        return {
            "category": WRONG_ARGUMENTS,
            "message": f"the right endpoint, but these response fields differ: {', '.join(wrong[:10])}",
        }
