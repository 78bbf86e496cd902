"""Scores of the original benchmark: dict F1 against the best gold, and the error diagnosis.

``dict_f1`` follows the original exactly: the overlap counts the keys of the prediction whose value
equals the label's under Python ``==`` (``2 == 2.0`` but ``"2" != 2``); precision divides by the
prediction's size, recall by the label's; an empty prediction scores 0. With several labels the
best F1 wins, and ``success`` means F1 == 1. A prediction that did not execute scores 0 everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS


@dataclass(frozen=True)
class GoldOutcome:
    """What a gold program produced: the criteria dict and the names of the functions it called."""

    criteria: Mapping[str, Any]
    calls: tuple[str, ...]


def dict_f1(prediction: Mapping[str, Any], label: Mapping[str, Any]) -> tuple[float, float, float]:
    """Precision, recall and F1 of ``prediction`` against ``label`` (see the module docstring).

    >>> dict_f1({"a": 1, "b": 2}, {"a": 1, "b": 3, "c": 4})
    (0.5, 0.3333333333333333, 0.4)
    >>> dict_f1({"n": 2.0}, {"n": 2})
    (1.0, 1.0, 1.0)
    """
    if not label:
        raise ValueError("a label dict must not be empty")
    if not prediction:
        return 0.0, 0.0, 0.0
    overlap = sum(1 for k, v in prediction.items() if k in label and _equal(v, label[k]))
    precision, recall = overlap / len(prediction), overlap / len(label)
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1


def _equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # an exotic value whose __eq__ fails is simply not equal
        return False


def score(prediction: Mapping[str, Any] | None, golds: Sequence[GoldOutcome]) -> dict[str, Any]:
    """Metrics of a prediction (``None`` = did not execute) against the best of ``golds``.

    Returns:
        ``{"executable", "success", "precision", "recall", "f1", "closest_label"}``.
    """
    if prediction is None:
        return {
            "executable": False,
            "success": False,
            "precision": 0.0,
            "recall": 0.0,
            "f1": 0.0,
            "closest_label": 0,
        }
    best, best_i = (-1.0, 0.0, 0.0), 0
    for i, gold in enumerate(golds):
        p, r, f = dict_f1(prediction, gold.criteria)
        if f > best[0]:
            best, best_i = (f, p, r), i
    f, p, r = best
    return {
        "executable": True,
        "success": f == 1.0,
        "precision": p,
        "recall": r,
        "f1": f,
        "closest_label": best_i,
    }


def diagnose(
    prediction: Mapping[str, Any], calls: Sequence[str], gold: GoldOutcome
) -> dict[str, str] | None:
    """Classify why an executed prediction missed: ``wrong_api`` or ``wrong_arguments``.

    ``wrong_api`` when the set of called functions differs from the gold's (a call missing, an
    extra one), otherwise ``wrong_arguments`` naming the criteria with wrong values. ``None`` when
    the prediction equals the gold.
    """
    missing = sorted(set(gold.calls) - set(calls))
    extra = sorted(set(calls) - set(gold.calls))
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"missing {', '.join(missing)}")
        if extra:
            parts.append(f"unexpected {', '.join(extra)}")
        return {
            "category": WRONG_API,
            "message": f"the program calls other functions than the task needs ({'; '.join(parts)})",
        }
    wrong = sorted(
        k
        for k in set(prediction) | set(gold.criteria)
        if k not in prediction
        or k not in gold.criteria
        or not _equal(prediction[k], gold.criteria[k])
    )
    if not wrong:
        return None
    return {
        "category": WRONG_ARGUMENTS,
        "message": f"the right functions with wrong values for: {', '.join(wrong)}",
    }
