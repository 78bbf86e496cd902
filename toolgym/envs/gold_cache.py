"""Gold attempts, run once and kept in a bounded cache shared by the environments of a process.

Running a task's gold costs a search or a request; an episode that starts from the same state as
an earlier one gets the same gold outcome. Entries are keyed by family, version, world, options,
the backend's start key and the gold text, so two worlds or versions never share an entry; the
least recently used entries go first once :data:`MAX_ENTRIES` is reached.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.errors import ToolCallError
from toolgym.tools.language import ActionLanguage

V = TypeVar("V")

MAX_ENTRIES = 4096
"""How many gold outcomes a process keeps."""


class LRUCache(Generic[V]):
    """A least-recently-used mapping with a fixed number of entries.

    Args:
        maxsize: the most entries it keeps.

    >>> cache: LRUCache[int] = LRUCache(2)
    >>> cache.put("a", 1); cache.put("b", 2); cache.get("a"); cache.put("c", 3)
    1
    >>> cache.get("b") is None, len(cache)
    (True, 2)
    """

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"maxsize must be at least 1; got {maxsize}")
        self.maxsize = maxsize
        self._items: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable) -> V | None:
        """The value of ``key`` (now the most recently used), or ``None``."""
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: Hashable, value: V) -> None:
        """Store ``value``; the least recently used entry goes when the cache is full."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.maxsize:
            self._items.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry."""
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


GOLD_CACHE: LRUCache[tuple[Attempt, ...]] = LRUCache(MAX_ENTRIES)
"""Gold attempts of every env of the process."""


def gold_attempts(
    task: Task,
    language: ActionLanguage,
    backend: Backend,
    gold_backend: Backend,
    scope: tuple[Hashable, ...],
    lenient: bool,
) -> tuple[Attempt, ...]:
    """The attempts of the task's gold from ``backend``'s current (starting) state.

    Each gold alternative runs on ``gold_backend``, restored to that state; the outcome is kept
    in :data:`GOLD_CACHE` under ``scope`` (family, version, world, options), the backend's start
    key and the gold. With ``lenient`` (a task file's task with several alternatives), one that
    does not run gets an attempt with its error (it never wins the scoring) and the task fails
    only when none of them runs; otherwise every gold must run.

    Raises:
        TaskFileError: a gold does not execute.
    """
    if task.checker is None:
        return ()
    if not task.checker.needs_gold(task):
        task.checker.validate(task, ())  # inline tasks too: a bad one fails at reset
        return ()
    start_key = backend.start_key()
    key = None if start_key is None else (*scope, start_key, task.gold, lenient)
    if key is not None:
        cached = GOLD_CACHE.get(key)
        if cached is not None:
            return cached
    start = backend.snapshot()
    attempts = []
    failure = None
    for gold in task.gold:
        gold_backend.restore(start)
        try:
            attempt = language.run_gold(gold, gold_backend)
        except ToolCallError as e:
            failure = failure or TaskFileError(
                f"the gold of task {task.task_id!r} does not execute: {e}\n{gold}"
            )
            if not lenient:
                raise failure from None
            attempts.append(Attempt(None, error=e))
            continue
        attempts.append(attempt.detached())
    if failure is not None and all(a.error is not None for a in attempts):
        raise failure
    task.checker.validate(task, [a for a in attempts if a.error is None])
    golds = tuple(attempts)
    if key is not None:
        GOLD_CACHE.put(key, golds)
    return golds
