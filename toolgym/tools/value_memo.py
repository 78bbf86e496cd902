"""What was made from a sequence of values, found again when the same objects come back unchanged.

A task's values (a BFCL entry's function docs, say) are the same objects at every reset of the
task, and what an episode makes of them (their tool set, a prompt's text) is the same each time.
Keying such results by the values' JSON text costs an encoding of them at every reset, which for
large docs is most of the reset. A :class:`ValueMemo` keys them by the values' identities
instead, and keeps a copy of the values to check, by one C-level comparison, that none was
changed in place since: a changed value misses, and what is made of it is made anew.

The check is ``==``: a value changed in place to an equal value of another type (``1`` to
``1.0``) is taken as unchanged. The copy is made by ``marshal`` (in C, several times faster than
walking the values in Python; containers of exact built-in types only, else ``copy.deepcopy``),
so a miss costs little beyond making the result; each entry holds such a copy, so a memo's
``size`` bounds its memory.
"""

from __future__ import annotations

import copy
import marshal
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class ValueMemo(Generic[T]):
    """Results by the identities of the values they were made from, checked unchanged.

    Args:
        size: how many results are kept (all are dropped at once past it).
    """

    def __init__(self, size: int = 1024) -> None:
        if size < 1:
            raise ValueError(f"a ValueMemo keeps at least one result; got size={size!r}")
        self.size = size
        self._entries: dict[tuple[Any, ...], tuple[tuple[Any, ...], list[Any], T]] = {}

    def get(self, values: Sequence[Any], *extra: Any) -> T | None:
        """The result kept for these value objects (and ``extra``, a hashable part of the key).

        ``None`` when none is kept, or when a value was changed in place since.
        """
        entry = self._entries.get((*map(id, values), *extra))
        if entry is None or entry[1] != list(values):
            return None
        return entry[2]

    def put(self, values: Sequence[Any], made: T, *extra: Any) -> T:
        """Keep ``made`` for these value objects (and ``extra``); ``made`` is returned."""
        if len(self._entries) >= self.size:
            self._entries.clear()
        kept = tuple(values)  # held, so that no other object takes one of their identities
        self._entries[(*map(id, kept), *extra)] = (kept, _copied(list(kept)), made)
        return made


def _copied(values: list[Any]) -> list[Any]:
    """A deep copy of ``values``: through ``marshal`` where it writes them, else ``deepcopy``."""
    try:
        copied: list[Any] = marshal.loads(marshal.dumps(values))
    except (ValueError, TypeError):  # another type, or nested too deep for marshal
        return copy.deepcopy(values)
    return copied
