"""To-do tasks: goals about the list, their gold calls, and a checker of the final list."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from todo_family.simulator import CHORES
from toolgym.benchmarks.score import Checker, MetricSpec, Score
from toolgym.benchmarks.suite import TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.tools.backend import Attempt

NEW_ITEMS = ("buy milk", "send the invoice", "fix the bike", "plan the trip", "walk the dog")
METRICS = (
    MetricSpec("success", "success rate"),
    MetricSpec("item_f1", "item F1"),
    MetricSpec("executable", "executable rate"),
)
SPLITS = {"test": 12, "demo": 4}


def _call(name: str, **arguments: object) -> dict[str, object]:
    return {"name": name, "arguments": arguments}


def make_task(k: int, task_id: str, world_seed: int = 0) -> Task:
    """Task ``k``: a starting list of its own (its setup), add an item, complete or remove one."""
    rng = np.random.default_rng([k, world_seed])
    picks = rng.choice(len(CHORES), size=int(rng.integers(2, 5)), replace=False)
    start = [CHORES[int(i)] for i in picks]
    new = NEW_ITEMS[int(rng.integers(len(NEW_ITEMS)))]
    target = int(rng.integers(1, len(start) + 1))
    text = start[target - 1]
    calls = [_call("add_item", text=new)]
    if rng.random() < 0.5:
        goal = f"Put '{new}' on my to-do list and tick off '{text}'."
        calls.append(_call("complete_item", item_id=target))
    else:
        goal = f"Add '{new}' to my list; I no longer need to {text}."
        calls.append(_call("remove_item", item_id=target))
    return Task(task_id, goal, (json.dumps(calls),), {"k": k}, setup={"items": start})


def generate_split(split: str) -> list[Task]:
    """The fixed splits (generated, not stored)."""
    offset = 0 if split == "test" else 1000
    return [make_task(offset + i, f"{split}-{i:03d}") for i in range(SPLITS[split])]


def train_task(k: int, world_seed: int = 0) -> Task:
    """Train task ``k`` in any world."""
    return make_task(10_000 + k, f"train-{k}", world_seed)


class FinalList(Checker):
    """The final list compared with the list the gold leaves: F1 over its ``(text, done)`` items."""

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Success when the lists are equal; the reward is the item F1."""
        if attempt.error is not None or attempt.outcome is None:
            error = None if attempt.error is None else attempt.error.to_info()
            return Score(0.0, False, False, {"item_f1": 0.0}, error, None)
        final, gold = set(attempt.outcome), set(golds[0].outcome)
        overlap = len(final & gold)
        f1 = 2 * overlap / (len(final) + len(gold)) if final or gold else 1.0
        success = attempt.outcome == golds[0].outcome
        error = (
            None
            if success
            else {
                "category": "wrong_arguments",
                "message": f"the list ends as {list(attempt.outcome)}, not as the task asks",
            }
        )
        return Score(f1, success, True, {"item_f1": f1}, error, list(attempt.outcome))


def checker_for(task: Task) -> FinalList:
    """Every to-do task is graded on the final list."""
    return FinalList()


SUITE = TaskSuite("todo_list", 0, tuple(SPLITS), generate_split, train_task, checker_for)


def generate_split_v1(split: str) -> list[Task]:
    """Version 1 of the fixed splits: more test tasks."""
    n = {"test": 20, "demo": 4}[split]
    offset = 0 if split == "test" else 1000
    return [make_task(offset + i, f"{split}-{i:03d}") for i in range(n)]


SUITE_V1 = TaskSuite("todo_list", 1, tuple(SPLITS), generate_split_v1, train_task, checker_for)
