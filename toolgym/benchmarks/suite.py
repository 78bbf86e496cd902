"""A family's task suite: its fixed splits (stored data), its ``train`` generator and its checkers.

The fixed splits (``test``, ``demo``) are generated once by the family's generator, stored as
JSONL in the family's ``data/`` folder (:attr:`TaskSuite.data_dir`) and versioned with the env:
they belong to the world they were built for (:attr:`TaskSuite.world_seed`). The ``train``
split is unlimited and generated on demand for any world: task ``train-<k>`` is rebuilt from
``k`` and the world seed alone.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from toolgym.benchmarks.score import Checker
from toolgym.benchmarks.tasks import (
    Task,
    TaskId,
    TaskSet,
    load_packaged,
    load_task_file,
    write_task_file,
)
from toolgym.errors import TaskNotFoundError
from toolgym.simulators.seeding import stable_rng

TRAIN = "train"
_TRAIN_ID = re.compile(r"^train-(\d+)$")

TRAIN_STRIDE = 2**32
"""Train stream ``seed`` covers task numbers ``seed * TRAIN_STRIDE + i``, so streams never overlap."""


@dataclass(frozen=True)
class TaskSuite:
    """The tasks of one tool family and version.

    Attributes:
        family: the family's name (file names of its data: ``home_search-v0-test.jsonl``).
        version: the env version the tasks belong to.
        splits: the fixed splits stored as data (``test``, ``demo``).
        generate_split: ``split -> tasks``, the generator of the stored splits.
        train_task: ``(k, world_seed) -> Task``, task ``train-<k>`` of the ``train`` split;
            ``None``: the family has no ``train`` split (a benchmark whose tasks cannot be
            generated).
        checker_for: the checker that scores a task of this family.
        world_seed: the seed of the world the stored splits were built for.
        data_dir: the folder of the stored fixed splits (the family's ``data/``), one
            ``<family>-v<version>-<split>.jsonl`` each; ``None``: the splits are generated when
            loaded (:attr:`stored` is false).
        setup_for: ``task -> setup``, the starting state a task without one needs, derived from
            its gold (a favourite the gold deletes must exist, one it adds must not); ``None``
            or a ``None`` result: the world's state. Tasks from the original files carry no
            setup, so this is what lets their golds run as they were written.
        demo_steps: ``task -> [(page, action), ...]``, for families whose agents prompt on each
            page: a demonstration's steps (see :meth:`demo_pairs`).
        read_file: ``path -> TaskSet``, the reader of the env's ``task_file``, for a family whose
            original task files are not JSONL ``{"prompt", "completion"}`` records (ToolBench's
            query files); ``None``: :func:`~toolgym.benchmarks.tasks.load_task_file`.
        prepare: ``task -> task``, what makes a task from a file or an inline record this
            suite's own before it is bound (a family's task made a conversation); it returns a
            task that is already its own unchanged. ``None``: tasks are taken as they are.
        data_version: the version whose stored splits this one reads, for a version that
            changed how tasks are scored but not the tasks (RapidAPI-v1 reads v0's files);
            ``None``: its own.
    """

    family: str
    version: int
    splits: tuple[str, ...]
    generate_split: Callable[[str], list[Task]]
    train_task: Callable[[int, int], Task] | None
    checker_for: Callable[[Task], Checker]
    world_seed: int = 0
    data_dir: str | None = None
    setup_for: Callable[[Task], Mapping[str, Any] | None] | None = None
    demo_steps: Callable[[Task], list[tuple[str, str]]] | None = None
    read_file: Callable[[str | Path], TaskSet] | None = None
    prepare: Callable[[Task], Task] | None = None
    data_version: int | None = None

    @property
    def stored_version(self) -> int:
        """The version whose stored files hold this suite's fixed splits."""
        return self.version if self.data_version is None else self.data_version

    def read_task_file(self, path: str | Path) -> TaskSet:
        """The tasks of a task file, read by the family's reader (see :attr:`read_file`)."""
        return (self.read_file or load_task_file)(path)

    def demo_pairs(self) -> list[Task]:
        """The demonstrations as agents use them.

        For a family whose agents prompt on each page (:attr:`demo_steps`), every step of every
        ``demo`` task becomes a task of its own (the page, and the action taken on it);
        otherwise the ``demo`` tasks. Empty without a ``demo`` split.
        """
        if "demo" not in self.splits:
            return []
        demos = list(self.load("demo").values())
        if self.demo_steps is None:
            return demos
        return [
            Task(f"{task.task_id}/{k}", page, (action,))
            for task in demos
            for k, (page, action) in enumerate(self.demo_steps(task))
        ]

    @property
    def all_splits(self) -> tuple[str, ...]:
        """The fixed splits plus ``train`` (when the family generates tasks)."""
        return self.splits if self.train_task is None else (*self.splits, TRAIN)

    def _train_task(self, k: int, world_seed: int) -> Task:
        if self.train_task is None:
            raise TaskNotFoundError(
                f"{self.family}-v{self.version} has no train split: its splits are "
                f"{', '.join(map(repr, self.splits))}"
            )
        return self.train_task(k, world_seed)

    def bind(self, task: Task) -> Task:
        """``task`` with this family's checker, and the setup it needs when it has none.

        Tasks from files and inline records need it; see :attr:`setup_for` and :attr:`prepare`.
        """
        if self.prepare is not None:
            task = self.prepare(task)
        if task.setup is None and self.setup_for is not None:
            setup = self.setup_for(task)
            if setup is not None:
                task = dataclasses.replace(task, setup=setup)
        return task.with_checker(self.checker_for(task))

    def load(self, split: str) -> TaskSet:
        """The stored task set of a fixed split, with checkers bound."""
        if split not in self.splits:
            raise ValueError(
                f"split must be one of {', '.join(map(repr, self.all_splits))}; got {split!r}"
            )
        return _load(self, split)

    def train(self, task_id: TaskId, world_seed: int = 0) -> Task:
        """The ``train`` task with id ``train-<k>`` in the world of ``world_seed``."""
        match = _TRAIN_ID.match(str(task_id))
        if match is None:
            raise TaskNotFoundError(
                f"train task ids look like 'train-<k>' with k a non-negative integer; got {task_id!r}"
            )
        return self.bind(self._train_task(int(match.group(1)), world_seed))

    def sample_train_task(self, rng: np.random.Generator, world_seed: int = 0) -> Task:
        """``train-<k>`` with ``k`` drawn uniformly from ``[0, 2**31)`` with ``rng``."""
        return self.bind(self._train_task(int(rng.integers(2**31)), world_seed))

    def sampled_train_ids(self, n: int, seed: int = 0) -> list[str]:
        """``n`` train task ids for an evaluation with ``seed``.

        The same seed gives the same ids, so a run on the ``train`` split can be resumed.
        """
        return [
            f"train-{int(stable_rng('sampled-train', seed, i).integers(2**31))}" for i in range(n)
        ]

    def train_pairs(
        self, n: int | None = 1800, seed: int = 0, world_seed: int = 0
    ) -> Iterator[Task]:
        """Train tasks ``train-<seed * 2**32 + i>`` for ``i = 0, 1, ...`` (``n``, or endless).

        Streams of different seeds never share a task; this is the alignment data
        (``toolgym generate``).
        """
        i = 0
        while n is None or i < n:
            yield self.bind(self._train_task(seed * TRAIN_STRIDE + i, world_seed))
            i += 1

    # -- stored data ----------------------------------------------------------------------------
    def data_path(self, split: str) -> str:
        """The stored file of a fixed split."""
        if self.data_dir is None:
            raise ValueError(
                f"{self.family}-v{self.version} stores no splits (its suite has no data_dir)"
            )
        return str(Path(self.data_dir) / f"{self.family}-v{self.stored_version}-{split}.jsonl")

    @property
    def stored(self) -> bool:
        """Whether the fixed splits are stored files (:attr:`data_dir`) or generated on load."""
        return self.data_dir is not None

    def stored_split(self, split: str) -> TaskSet:
        """The stored file of a fixed split as it is, without checkers.

        Raises:
            ValueError: the suite stores no splits.
            TaskFileError: no such file.
        """
        if self.data_dir is None:
            raise ValueError(
                f"{self.family}-v{self.version} stores no splits (its suite has no data_dir)"
            )
        return load_packaged(self.data_dir, self.family, self.stored_version, split)

    def stale_splits(self) -> list[str]:
        """The stored splits that differ from what the generator produces now."""
        if not self.stored:
            return []
        stale = []
        for split in self.splits:
            generated = self.generate_split(split)
            try:
                stored = list(self.stored_split(split).values())
            except Exception:
                stale.append(f"{self.family}-v{self.stored_version}-{split}")
                continue
            if [t.to_record() for t in generated] != [t.to_record() for t in stored]:
                stale.append(f"{self.family}-v{self.stored_version}-{split}")
        return stale

    def write_splits(self) -> dict[str, int]:
        """Regenerate and store every fixed split; returns the number of tasks per file."""
        if not self.stored:
            return {}
        written = {}
        for split in self.splits:
            tasks = self.generate_split(split)
            write_task_file(tasks, self.data_path(split))
            written[self.data_path(split)] = len(tasks)
        return written


@functools.lru_cache(maxsize=64)
def _load(suite: TaskSuite, split: str) -> TaskSet:
    name = f"{suite.family}-v{suite.version}/{split}"
    if suite.stored:
        tasks = list(suite.stored_split(split).values())
    else:
        tasks = suite.generate_split(split)
    return TaskSet([suite.bind(t) for t in tasks], name)


class FixedSplits:
    """A generator's fixed splits, built once per process, and the goals ``train`` tasks avoid.

    Families wrap :meth:`tasks` and :meth:`unseen` in module-level functions for their
    :class:`TaskSuite`, so that suites (and the envs that hold them) pickle by reference rather
    than with every task.

    Args:
        name: the family's title, for error messages.
        build: builds every fixed split (``{"test": tasks, "demo": tasks}``), the same on every
            machine.
    """

    def __init__(self, name: str, build: Callable[[], Mapping[str, Sequence[Task]]]) -> None:
        self.name = name
        self._build = build
        self._splits: dict[str, tuple[Task, ...]] | None = None
        self._held_out: frozenset[str] | None = None

    def _all(self) -> dict[str, tuple[Task, ...]]:
        if self._splits is None:
            self._splits = {name: tuple(tasks) for name, tasks in self._build().items()}
        return self._splits

    def tasks(self, split: str) -> list[Task]:
        """The tasks of ``split``.

        Raises:
            ValueError: an unknown split.
        """
        splits = self._all()
        if split not in splits:
            raise ValueError(f"unknown {self.name} split {split!r}; splits: {sorted(splits)}")
        return list(splits[split])

    @property
    def held_out(self) -> frozenset[str]:
        """The goals of every fixed task."""
        if self._held_out is None:
            self._held_out = frozenset(t.instruction for ts in self._all().values() for t in ts)
        return self._held_out

    def unseen(self, draw: Callable[[int], Task]) -> Task:
        """``draw(0)``, ``draw(1)``, ... until a task whose goal is not a fixed task's goal."""
        return first_unseen(draw, self.held_out)


def first_unseen(draw: Callable[[int], Task], held_out: frozenset[str]) -> Task:
    """``draw(0)``, ``draw(1)``, ... until a task whose goal is not ``held_out`` (test/demo goals)."""
    attempt = 0
    while True:
        task = draw(attempt)
        if task.instruction not in held_out:
            return task
        attempt += 1
