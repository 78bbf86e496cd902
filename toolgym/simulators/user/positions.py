"""Where a text's words and parts lie: offsets found in logarithmic time.

A reply reads a message's words around many places (the words before a kind's word, those
between two offsets) and asks of many places whether a sentence that asks holds them. In a long
message those are many places, each asked of many words or sentences: the words' offsets are
listed once (:func:`word_index`) and the sentences' spans merged once (:func:`spans_cover`),
and each question is then a binary search.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.memo import message_cache
from toolgym.simulators.user.slots import CACHED_CHARS

_WORD = compiled(r"[^\s\-/]+")
"""A word: what neither a space, a hyphen nor a slash splits."""


class WordIndex:
    """The words of a text, to count those between two offsets in logarithmic time.

    ``words``: each word's ``(start, end)``, in order. Read only (one index is shared by the
    reply's readers of a text: :func:`word_index`).
    """

    def __init__(self, text: str) -> None:
        self.words = [m.span() for m in _WORD.finditer(text)]
        self.starts = [w[0] for w in self.words]
        self.ends = [w[1] for w in self.words]

    def between(self, start: int, end: int) -> int:
        """How many words lie whole in ``text[start:end]``."""
        if end <= start:
            return 0
        first = bisect.bisect_left(self.starts, start)
        return max(0, bisect.bisect_right(self.ends, end) - first)

    def within(self, start: int, end: int) -> list[tuple[int, int]]:
        """The words that lie whole in ``text[start:end]``, in order."""
        return self.words[
            bisect.bisect_left(self.starts, start) : bisect.bisect_right(self.ends, end)
        ]

    def before(self, at: int, count: int) -> list[tuple[int, int]]:
        """The last ``count`` words that end at or before ``at``, in order."""
        last = bisect.bisect_right(self.ends, at)
        return self.words[max(0, last - count) : last]

    def after(self, at: int, count: int) -> list[tuple[int, int]]:
        """The first ``count`` words that start at or after ``at``, in order."""
        first = bisect.bisect_left(self.starts, at)
        return self.words[first : first + count]


def word_index(text: str) -> WordIndex:
    """The :class:`WordIndex` of ``text``, made once for a short text (several readers ask)."""
    return _word_index_short(text) if len(text) <= CACHED_CHARS else WordIndex(text)


_word_index_short = message_cache(WordIndex)


def spans_cover(spans: Iterable[tuple[int, int]]) -> Callable[[int], bool]:
    """Whether an offset lies in one of ``spans`` (``start <= at < end``), in logarithmic time.

    A message of many sentences asks of each of many places whether a sentence holds it: the
    spans are merged once, and each place is then one binary search.

    >>> inside = spans_cover([(10, 20), (0, 5), (4, 8), (30, 30)])
    >>> [at for at in (0, 5, 7, 8, 10, 19, 20, 30) if inside(at)]
    [0, 5, 7, 10, 19]
    """
    starts: list[int] = []
    ends: list[int] = []
    for start, end in sorted(s for s in spans if s[0] < s[1]):
        if ends and start <= ends[-1]:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)

    def inside(at: int) -> bool:
        i = bisect.bisect_right(starts, at) - 1
        return i >= 0 and at < ends[i]

    return inside
