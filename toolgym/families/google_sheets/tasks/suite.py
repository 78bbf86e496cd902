"""The Google Sheets task suite: the code the package :mod:`toolgym.families.google_sheets.tasks` describes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from toolgym.benchmarks.score import Checker
from toolgym.benchmarks.suite import FixedSplits, TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.families.google_sheets.checker import SheetMatch
from toolgym.families.google_sheets.tasks.operations import OPERATIONS, Goal
from toolgym.families.google_sheets.tasks.tables import TABLES, make_table
from toolgym.families.google_sheets.toolkit import table_rows
from toolgym.simulators.seeding import stable_rng

DATA_DIR = str(Path(__file__).resolve().parents[1] / "data")
"""The family's stored splits."""

FAMILY = "google_sheets"
PAPER_COMPLEXITY = 8.4
"""The paper's API complexity score of the task (its Table 4), which
``toolgym complexity`` shows next to the score of the stored splits."""
VERSION = 0
SPLITS = {"test": 70, "demo": 10}
"""The fixed splits and their sizes (the paper's 70 test tasks and 10 demonstrations)."""

_KINDS = tuple(TABLES)


def generate_task(rng: np.random.Generator, task_id: str, operation: str | None = None) -> Task:
    """One task drawn with ``rng`` (an operation that does not fit the table draws again)."""
    names = list(OPERATIONS)
    while True:
        op = operation or names[int(rng.integers(len(names)))]
        kind = _KINDS[int(rng.integers(len(_KINDS)))]
        table = make_table(kind, rng)
        goal = OPERATIONS[op](table, rng)
        if goal is not None:
            return _task(task_id, table.grid, kind, op, goal)


def _task(task_id: str, grid: list[list[object]], kind: str, op: str, goal: Goal) -> Task:
    prompt = f"{goal.sentence}\n\n{table_rows(grid)}"
    meta = {
        "question_sheet_name": kind,
        "check_format": goal.check_format,
        "check_layout": goal.check_layout,
        "operation": op,
    }
    return Task(task_id, prompt, goal.gold, meta, None, {"table": grid})


def _splits() -> dict[str, tuple[Task, ...]]:
    out: dict[str, tuple[Task, ...]] = {}
    names = list(OPERATIONS)
    seen: set[str] = set()
    for split, size in SPLITS.items():
        tasks: list[Task] = []
        k = 0
        while len(tasks) < size:
            op = names[(len(tasks) + (3 if split == "demo" else 0)) % len(names)]
            task = generate_task(
                stable_rng(FAMILY, VERSION, split, k), f"{split}-{len(tasks):03d}", op
            )
            k += 1
            if task.instruction in seen:
                continue
            seen.add(task.instruction)
            tasks.append(task)
        out[split] = tuple(tasks)
    return out


_FIXED = FixedSplits("Google Sheets", _splits)


def generate_split(split: str) -> list[Task]:
    """The tasks of a fixed split."""
    return _FIXED.tasks(split)


def train_task(k: int, world_seed: int = 0) -> Task:
    """Task ``train-<k>``: any operation over a fresh table, never a test or demo goal."""
    return _FIXED.unseen(
        lambda attempt: generate_task(
            stable_rng(FAMILY, "train", k, world_seed, attempt), f"train-{k}"
        )
    )


_PIPE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def table_from_prompt(prompt: str) -> list[list[Any]]:
    """The table a prompt shows as ``| a | b |`` rows (numbers as numbers), or ``[]``.

    >>> table_from_prompt("Do it.\\n\\n| Product | Cost |\\n| beef | 1 |")
    [['Product', 'Cost'], ['beef', 1]]
    """
    rows: list[list[Any]] = []
    for line in prompt.splitlines():
        match = _PIPE_ROW.match(line)
        if match is None:
            if rows:
                break
            continue
        cells = [c.strip() for c in match.group(1).split("|")]
        if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            continue  # a Markdown separator row
        rows.append([_typed(c) for c in cells])
    return rows


def _typed(text: str) -> Any:
    if _NUMBER.match(text):
        number = float(text)
        return int(number) if number.is_integer() and "." not in text else number
    return text


def setup_for(task: Task) -> Mapping[str, Any]:
    """The table of a task without a setup: from its prompt, else an empty sheet."""
    return {"table": table_from_prompt(task.instruction)}


def checker_for(task: Task) -> Checker:
    """Every task is scored by the sheet it leaves."""
    return SheetMatch()


SUITE = TaskSuite(
    FAMILY,
    VERSION,
    tuple(SPLITS),
    generate_split,
    train_task,
    checker_for,
    setup_for=setup_for,
    data_dir=DATA_DIR,
)
"""The Google Sheets tasks of ``GoogleSheets-v0``."""
