"""What a reply reads more than once in the same text, read once.

The reader asks several of its questions of one text in several places: whether the message ends
with a tag (``..., right?``), whether it confirms, the message without its list numbers. Each of
those places is simpler for asking again, so the answers are kept instead: :class:`Remembered`
wraps a compiled pattern and keeps its last answers for each short text. A regular expression's
answer depends on the text alone, so the reading is the same; only the repeated searches go.

The answers kept are few (:data:`KEPT` texts of at most :data:`~.slots.CACHED_CHARS`
characters) and are dropped by :func:`forget_messages`, which benchmarks call between samples so
that each message is read as a new one.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from toolgym.simulators.user.slots import CACHED_CHARS

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
