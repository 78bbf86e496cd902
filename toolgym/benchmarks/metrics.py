"""Metrics of the original benchmarks, as pure functions.

``dict_f1`` follows the SambaNova ToolBench evaluator exactly: the overlap counts the keys of the
prediction whose value equals the label's under Python ``==`` (``2 == 2.0`` but ``"2" != 2``);
precision divides by the prediction's size, recall by the label's; an empty prediction scores 0,
and so does anything against an empty label (the original's division by zero, a crashed case).
With several labels the best F1 wins (:func:`best_f1`), and ``success`` means F1 == 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def dict_f1(prediction: Mapping[Any, Any], label: Mapping[Any, Any]) -> tuple[float, float, float]:
    """Precision, recall and F1 of ``prediction`` against ``label`` (see the module docstring).

    >>> dict_f1({"a": 1, "b": 2}, {"a": 1, "b": 3, "c": 4})
    (0.5, 0.3333333333333333, 0.4)
    >>> dict_f1({"n": 2.0}, {"n": 2})
    (1.0, 1.0, 1.0)
    """
    if not prediction or not label:  # the original divides by zero on an empty label: a crash
        return 0.0, 0.0, 0.0
    try:
        overlap = sum(1 for k, v in prediction.items() if k in label and bool(v == label[k]))
    except Exception:  # an exotic value whose __eq__ fails: compare item by item
        overlap = sum(1 for k, v in prediction.items() if k in label and equal(v, label[k]))
    precision, recall = overlap / len(prediction), overlap / len(label)
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1


def equal(a: Any, b: Any) -> bool:
    """``a == b``, and ``False`` when comparing fails (an exotic value's ``__eq__`` raising)."""
    try:
        return bool(a == b)
    except Exception:
        return False


def best_f1(
    prediction: Mapping[Any, Any], labels: Sequence[Mapping[Any, Any] | None]
) -> tuple[float, float, float, int]:
    """(precision, recall, F1, index) against the label with the best F1 (the first of ties).

    A ``None`` label (a gold alternative that did not run) is never chosen.

    >>> best_f1({"a": 1}, [{"a": 2}, {"a": 1, "b": 1}, {"a": 1}])
    (1.0, 1.0, 1.0, 2)
    >>> best_f1({"a": 1}, [None, {"a": 2}])
    (0.0, 0.0, 0.0, 1)
    """
    best, best_i = (-1.0, 0.0, 0.0), next((i for i, x in enumerate(labels) if x is not None), 0)
    for i, label in enumerate(labels):
        if label is None:
            continue
        p, r, f = dict_f1(prediction, label)
        if f > best[0]:
            best, best_i = (f, p, r), i
    f, p, r = best
    return p, r, max(f, 0.0), best_i
