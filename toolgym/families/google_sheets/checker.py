"""The Google Sheets checker: the resulting sheet against the sheet the gold leaves.

The original's rule: a prediction equal to a gold program (``strip("\\n")``) succeeds without
being compared (here it has run all the same, and succeeds if it ran: a service fault that
failed it fails it); otherwise the last worksheet read back as a DataFrame must equal the
gold's (``DataFrame.equals``: the same labels, dtypes, index and values, so ``1``, ``1.0`` and
``"1"`` differ), and, for ``check_format`` tasks, the effective formats of the cells the original
checks must be equal too. Tasks marked ``check_layout`` (an extension: merges, filters, frozen
rows and pivot tables leave the values as they were) also compare the sheet's layout.

Beside ``success``, the score reports ``cells``: the share of the gold table's cells (labels
included) that the prediction has at the same place with the same value, a partial credit for
analysis and training; the reward is ``success``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.families.google_sheets.world.a1 import column_letters
from toolgym.tools.backend import Attempt
from toolgym.tools.errors import WRONG_ARGUMENTS


def _grid(outcome: dict[str, Any]) -> list[list[Any]]:
    return [list(outcome["columns"]), *outcome["rows"]]


def cell_accuracy(prediction: dict[str, Any], gold: dict[str, Any]) -> float:
    """The share of the gold's labels and cells the prediction has, at the same place.

    >>> gold = {"columns": ["a", "b"], "rows": [[1, 2]]}
    >>> cell_accuracy({"columns": ["a", "b"], "rows": [[1, 3]]}, gold)
    0.75
    """
    want, have = _grid(gold), _grid(prediction)
    total = sum(len(row) for row in want)
    if total == 0:
        return 1.0 if sum(len(row) for row in have) == 0 else 0.0
    same = sum(
        1
        for r, row in enumerate(want)
        for c, value in enumerate(row)
        if r < len(have) and c < len(have[r]) and _same(have[r][c], value)
    )
    return same / total


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _first_difference(prediction: dict[str, Any], gold: dict[str, Any]) -> str:
    if prediction["columns"] != gold["columns"]:
        return f"the columns are {prediction['columns']}, expected {gold['columns']}"
    if len(prediction["rows"]) != len(gold["rows"]):
        return f"the table has {len(prediction['rows'])} rows, expected {len(gold['rows'])}"
    for name, have, want in zip(gold["columns"], prediction["dtypes"], gold["dtypes"], strict=True):
        if have != want:
            column = [row[gold["columns"].index(name)] for row in prediction["rows"]]
            odd = next((v for v in column if isinstance(v, str)), None)
            hint = f" (it holds {odd!r})" if odd is not None and want != "object" else ""
            return f"column {name!r} reads as {have}, expected {want}{hint}"
    for r, (have_row, want_row) in enumerate(zip(prediction["rows"], gold["rows"], strict=True)):
        for c, (x, y) in enumerate(zip(have_row, want_row, strict=True)):
            if not _same(x, y):
                return f"cell {column_letters(c)}{r + 2} is {x!r}, expected {y!r}"
    return "the row labels differ"


def frames_equal(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """``DataFrame.equals`` on two outcomes (labels, dtypes, index and values)."""
    return (
        a["columns"] == b["columns"]
        and a["dtypes"] == b["dtypes"]
        and a["index"] == b["index"]
        and len(a["rows"]) == len(b["rows"])
        and all(
            len(x) == len(y) and all(_same(p, q) for p, q in zip(x, y, strict=True))
            for x, y in zip(a["rows"], b["rows"], strict=True)
        )
    )


class SheetMatch(Checker):
    """The sheet a program leaves against the gold's (see the module docstring)."""

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Success when the sheet (and formats or layout, where graded) equals a gold's."""
        text = attempt.text.strip("\n")
        shortcut = attempt.error is None and text and any(text == g.strip("\n") for g in task.gold)
        if shortcut:  # the original's rule (here the program has run, and without a fault)
            return Score(1.0, True, True, {"cells": 1.0, "closest_label": 0}, None, attempt.outcome)
        if attempt.error is not None or attempt.outcome is None:
            error = None if attempt.error is None else attempt.error.to_info()
            return Score(0.0, False, False, {"cells": 0.0, "closest_label": 0}, error, None)
        prediction = attempt.outcome
        check_format = bool(task.meta.get("check_format"))
        check_layout = bool(task.meta.get("check_layout"))
        best, best_cells, problem = 0, -1.0, ""
        for k, gold in enumerate(golds):
            if gold.error is not None or gold.outcome is None:
                continue
            label = gold.outcome
            cells = cell_accuracy(prediction, label)
            if cells > best_cells:
                best, best_cells = k, cells
            if not frames_equal(prediction, label):
                problem = problem or _first_difference(prediction, label)
                continue
            if check_format and prediction["formats"] != label["formats"]:
                problem = problem or "the values are right, but the cell formats differ"
                continue
            if check_layout and prediction["layout"] != label["layout"]:
                problem = problem or (
                    "the values are right, but the layout (merges, filter, frozen rows, pivot "
                    "tables) differs"
                )
                continue
            metrics = {"cells": 1.0, "closest_label": k}
            return Score(1.0, True, True, metrics, None, prediction)
        metrics = {"cells": max(best_cells, 0.0), "closest_label": best}
        error = {"category": WRONG_ARGUMENTS, "message": problem or "the sheet differs"}
        return Score(0.0, False, True, metrics, error, prediction)

    def validate(self, task: Task, golds: Sequence[Attempt]) -> None:
        """A gold must leave a sheet to compare with."""
        for gold in golds:
            if gold.error is None and gold.outcome is None:
                raise TaskFileError(f"the gold of task {task.task_id!r} leaves no sheet")
