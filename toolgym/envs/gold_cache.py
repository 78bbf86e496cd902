"""A bounded cache of gold attempts, shared by the environments of one process.

Running a task's gold costs a search or a request; an episode that starts from the same state as
an earlier one gets the same gold outcome. Entries are keyed by family, version, world, options,
the backend's start key and the gold text, so two worlds or versions never share an entry; the
least recently used entries go first once :data:`MAX_ENTRIES` is reached.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

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
