"""A family's task suite: its fixed splits (stored data) and its unlimited ``train`` generator."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from toolgym.benchmarks.tasks import Task, TaskId, TaskSet, load_packaged
from toolgym.errors import TaskNotFoundError

TRAIN = "train"
_TRAIN_ID = re.compile(r"^train-(\d+)$")


@dataclass(frozen=True)
class TaskSuite:
    """The tasks of one tool family and version.

    Attributes:
        family: file-name stem of the family (``home_search``).
        version: the env version the tasks belong to.
        splits: the fixed splits stored as data (``test``, ``demo``).
        train_task: ``k -> Task`` for the generated ``train`` split (task id ``train-<k>``).
        sample_train_task: draws one ``train`` task with a NumPy generator.
    """

    family: str
    version: int
    splits: tuple[str, ...]
    train_task: Callable[[int], Task]
    sample_train_task: Callable[[np.random.Generator], Task]

    @property
    def all_splits(self) -> tuple[str, ...]:
        """The fixed splits plus ``train``."""
        return (*self.splits, TRAIN)

    def load(self, split: str) -> TaskSet:
        """The stored task set of a fixed split."""
        if split not in self.splits:
            raise ValueError(
                f"split must be one of {', '.join(map(repr, self.all_splits))}; got {split!r}"
            )
        return _load(self.family, self.version, split)

    def train(self, task_id: TaskId) -> Task:
        """The ``train`` task with id ``train-<k>`` (regenerated from ``k``)."""
        match = _TRAIN_ID.match(str(task_id))
        if match is None:
            raise TaskNotFoundError(
                f"train task ids look like 'train-<k>' with k a non-negative integer; got {task_id!r}"
            )
        return self.train_task(int(match.group(1)))


@functools.lru_cache(maxsize=64)
def _load(family: str, version: int, split: str) -> TaskSet:
    return load_packaged(family, version, split)


TRAIN_STRIDE = 2**32
"""Train stream ``seed`` covers task numbers ``seed * TRAIN_STRIDE + i``, so streams never overlap."""


def train_stream(train_task: Callable[[int], Task], n: int | None, seed: int) -> Iterator[Task]:
    """``train_task(seed * TRAIN_STRIDE + i)`` for ``i = 0, 1, ...`` (``n`` of them, or endless)."""
    i = 0
    while n is None or i < n:
        yield train_task(seed * TRAIN_STRIDE + i)
        i += 1


def sample_train(train_task: Callable[[int], Task], rng: np.random.Generator) -> Task:
    """``train_task(k)`` with ``k`` drawn uniformly from ``[0, 2**31)`` with ``rng``."""
    return train_task(int(rng.integers(2**31)))


def first_unseen(draw: Callable[[int], Task], held_out: frozenset[str]) -> Task:
    """``draw(0)``, ``draw(1)``, ... until a task whose goal is not ``held_out`` (test/demo goals)."""
    attempt = 0
    while True:
        task = draw(attempt)
        if task.instruction not in held_out:
            return task
        attempt += 1
