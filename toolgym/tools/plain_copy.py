"""Deep copies of JSON-shaped state, at a fraction of ``copy.deepcopy``'s cost.

Backends copy their state at every reset, checkpoint and snapshot: a world's favourites and
votes, an API's search criteria. That state is mostly dicts and lists of texts and numbers, for
which ``copy.deepcopy`` spends most of its time on its memo and its dispatch. :func:`plain_deepcopy`
copies such a value directly and gives the same result; anything else (another type, one
container reached twice, nesting past :data:`MAX_DEPTH`) is left to ``copy.deepcopy``, whole.

A state restored again and again from one copy that never changes (a service's starting state,
restored at every reset) can be kept as a :class:`PlainSnapshot`: its copies are read back from
``marshal`` bytes in one C call, several times faster than walking the value, and
:func:`plain_deepcopy` takes one in place of the value it was made of.
"""

from __future__ import annotations

import copy
import marshal
from typing import Any

MAX_DEPTH = 64
"""The deepest nesting copied directly (a deeper value goes to ``copy.deepcopy``)."""

_ATOMS = frozenset({str, int, float, bool, type(None), bytes})
"""Types ``copy.deepcopy`` returns as they are."""


class _NotPlain(Exception):
    """The value holds something :func:`_copied` does not copy itself."""


class PlainSnapshot:
    """A JSON-shaped value kept as ``marshal`` bytes, to be copied many times.

    Made by :meth:`of`; :meth:`copy` (and :func:`plain_deepcopy` of the snapshot) gives what
    :func:`plain_deepcopy` of the value gave when the snapshot was made: equal, of the same
    types, and sharing no container with the value or with any other copy. The snapshot keeps
    no reference to the value, so changing the value later changes no copy.
    """

    __slots__ = ("_blob",)

    def __init__(self, blob: bytes) -> None:
        self._blob = blob

    @classmethod
    def of(cls, value: Any) -> Any:
        """A snapshot of ``value`` where it is JSON-shaped, else ``copy.deepcopy(value)``.

        JSON-shaped as :func:`plain_deepcopy` copies directly: dicts with atomic keys, lists,
        texts, numbers, booleans, ``None``, bytes and tuples of such atoms, each of its exact
        type, no container twice, at most :data:`MAX_DEPTH` deep. ``marshal`` reads each of
        those back as an equal value of the same type, and keeps the order of a dict's keys.
        """
        try:
            copied = _copied(value, set(), 0)
        except _NotPlain:
            return copy.deepcopy(value)
        return cls(marshal.dumps(copied))

    def copy(self) -> Any:
        """A new copy of the value."""
        return marshal.loads(self._blob)

    def __repr__(self) -> str:
        return f"PlainSnapshot({len(self._blob)} bytes)"


def plain_deepcopy(value: Any) -> Any:
    """``copy.deepcopy(value)``, made directly when ``value`` is JSON-shaped.

    Dicts (with atomic keys) and lists are copied, texts, numbers, ``None`` and tuples of them
    kept, as ``deepcopy`` does; a value holding anything else, or one container twice (which
    ``deepcopy`` copies once and shares), is deep-copied by ``copy.deepcopy``. A
    :class:`PlainSnapshot` gives a copy of the value it was made of.

    >>> state = {"votes": {1: {"value": 1, "image": {"id": "a"}}}, "clock": 7, "ids": [1, 2]}
    >>> copied = plain_deepcopy(state)
    >>> copied == state and copied["votes"][1]["image"] is not state["votes"][1]["image"]
    True
    >>> shared = [1]
    >>> pair = plain_deepcopy({"a": shared, "b": shared})
    >>> pair["a"] is pair["b"]
    True
    """
    if type(value) is PlainSnapshot:
        return value.copy()
    try:
        return _copied(value, set(), 0)
    except _NotPlain:
        return copy.deepcopy(value)


def _copied(value: Any, seen: set[int], depth: int) -> Any:
    kind = type(value)
    if kind in _ATOMS:
        return value
    if depth >= MAX_DEPTH:
        raise _NotPlain
    if kind is tuple:
        if all(type(item) in _ATOMS for item in value):
            return value
        raise _NotPlain
    if kind is not dict and kind is not list:
        raise _NotPlain
    if id(value) in seen:
        raise _NotPlain
    seen.add(id(value))
    depth += 1
    if kind is list:
        return [item if type(item) in _ATOMS else _copied(item, seen, depth) for item in value]
    copied = {}
    for key, item in value.items():
        if type(key) not in _ATOMS:
            raise _NotPlain
        copied[key] = item if type(item) in _ATOMS else _copied(item, seen, depth)
    return copied
