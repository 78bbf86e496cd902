"""A family's task suite: its fixed splits (stored data) and its unlimited ``train`` generator."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
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
