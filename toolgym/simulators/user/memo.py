"""What a reply reads more than once in the same text, read once.

The reader asks several of its questions of one text in several places: whether the message ends
with a tag (``..., right?``), whether it confirms, the message without its list numbers. Each of
those places is simpler for asking again, so the answers are kept instead: :class:`Remembered`
wraps a compiled pattern and keeps its last answers for each short text. A regular expression's
answer depends on the text alone, so the reading is the same; only the repeated searches go.

The answers kept are few (:data:`KEPT` texts of at most :data:`~.slots.CACHED_CHARS`
characters) and are dropped by :func:`forget_messages`, which benchmarks call between samples so
that each message is read as a new one.

What a reply reads from a task's slots alone (which of them hold a code, the written forms of
all of them) is fixed through an episode: :func:`per_task` keeps it for the slots' tuple itself.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, TypeVar

from toolgym.simulators.user.slots import CACHED_CHARS

_T = TypeVar("_T")
_R = TypeVar("_R")

KEPT = 256
"""How many texts each pattern keeps answers for (a reply reads a few; an episode, a few dozen)."""

_CACHES: list[Any] = []
"""Every cache of message text, for :func:`forget_messages`."""


def message_cache(function: Callable[..., Any]) -> Any:
    """``function`` with its last :data:`KEPT` answers kept (registered for :func:`forget_messages`)."""
    cached = functools.lru_cache(maxsize=KEPT)(function)
    _CACHES.append(cached)
    return cached


def forget_messages() -> None:
    """Drop every answer kept for a message (a benchmark's next sample reads a new one)."""
    for cached in _CACHES:
        cached.cache_clear()


class Remembered:
    """A compiled pattern whose ``search``, ``match``, ``sub`` and ``split`` answers are kept.

    Everything else (``finditer``, ``pattern``, ``flags``...) is the pattern's own. ``sub``
    keeps answers for a replacement text (a function would be a new one at each call).

    >>> tag = Remembered(re.compile(r"\\bright\\b"))
    >>> tag.search("so 2 beds, right") is tag.search("so 2 beds, right")
    True
    >>> tag.sub("ok", "right, right"), tag.split("a right b"), tag.pattern
    ('ok, ok', ['a ', ' b'], '\\\\bright\\\\b')
    """

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.compiled = pattern
        self._search = message_cache(pattern.search)
        self._match = message_cache(pattern.match)
        self._sub = message_cache(pattern.sub)
        self._split = message_cache(lambda text: tuple(pattern.split(text)))

    def search(self, text: str) -> re.Match[str] | None:
        """``pattern.search(text)``."""
        if len(text) > CACHED_CHARS:
            return self.compiled.search(text)
        found: re.Match[str] | None = self._search(text)
        return found

    def match(self, text: str) -> re.Match[str] | None:
        """``pattern.match(text)``."""
        if len(text) > CACHED_CHARS:
            return self.compiled.match(text)
        found: re.Match[str] | None = self._match(text)
        return found

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str, count: int = 0) -> str:
        """``pattern.sub(repl, text, count)``."""
        if len(text) > CACHED_CHARS or not isinstance(repl, str):
            return self.compiled.sub(repl, text, count)
        return str(self._sub(repl, text, count))

    def split(self, text: str) -> list[str]:
        """``pattern.split(text)`` (a new list each time: callers may change it)."""
        if len(text) > CACHED_CHARS:
            return self.compiled.split(text)
        return list(self._split(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled, name)


TASKS_KEPT = 1024
"""How many tuples each :func:`per_task` function keeps an answer for."""


def per_task(function: Callable[[_T], _R]) -> Callable[[_T], _R]:
    """``function`` of a tuple fixed through an episode (a task's slots), computed once a tuple.

    The answer is kept for the tuple object itself (its identity, not its hash: hashing a task's
    slots walks every value at each message, and a value may be a list), beside the tuple, so no
    other object takes its id while the entry lives. Any other argument (a list, which may
    change) is computed each time. The answers are shared: return tuples, or a container the
    caller fills as a cache of its own.

    >>> calls = []
    >>> kinds = per_task(lambda slots: calls.append(1) or tuple(sorted(slots)))
    >>> slots = ("b", "a")
    >>> kinds(slots), kinds(slots), len(calls)
    (('a', 'b'), ('a', 'b'), 1)
    >>> kinds(["b", "a"]), len(calls)
    (('a', 'b'), 2)
    """
    kept: dict[int, tuple[Any, Any]] = {}

    @functools.wraps(function)
    def cached(value: _T) -> _R:
        if type(value) is not tuple:
            return function(value)
        entry = kept.get(id(value))
        if entry is not None and entry[0] is value:
            answer: _R = entry[1]
            return answer
        answer = function(value)
        if len(kept) >= TASKS_KEPT:
            kept.clear()
        kept[id(value)] = (value, answer)
        return answer

    return cached
