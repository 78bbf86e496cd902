"""Typos in a kind's word: ``citiy`` for ``city``, ``busines`` for ``business``.

A message the reader finds about nothing may name a kind with a slip of the keyboard. Its words
of five letters or more that are no word of the vocabulary are compared with the vocabulary's
words of four letters or more: one letter added or dropped, or two swapped, makes the
vocabulary's word (a letter changed, or an ending, makes other words too often). The reader
reads the corrected message only when the message as written is about nothing, so a correction
never changes what a well-spelled message says.
"""

from __future__ import annotations

import functools
import re

from toolgym.simulators.user.slots import Vocabulary

MIN_TYPO = 5
"""The shortest written word that may be a typo (shorter words differ by a letter too often)."""


def _one_edit(a: str, b: str) -> bool:
    """Whether written ``a`` is ``b`` with one slip: a letter added or dropped, or two swapped.

    A letter changed is no slip here: it turns words into other words too often (``share``
    and ``shade``, ``there`` and ``where``), and so does an ending (``specifics``).
    """
    if a == b or abs(len(a) - len(b)) > 1 or a in (b + "s", b + "es", b + "y", b + "d", b + "r"):
        return False  # the other's plural or an ending of it (``prices``, ``pricey``, ``priced``)
    if b.endswith("s") and not b.endswith("ss") and a == b[:-1]:
        return False  # the other's singular: a word of its own (``price`` for ``prices``)
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long[i]:
        i += 1
    return short[i:] == long[i + 1 :]


@functools.lru_cache(maxsize=32)
def _words(vocabulary: Vocabulary) -> frozenset[str]:
    return frozenset(
        w
        for kind in vocabulary
        for phrase in (*kind.words, *kind.weak)
        for w in re.findall(r"[a-z]+", phrase.lower())
        if len(w) >= 4
    )


@functools.lru_cache(maxsize=4096)
def _candidates(word: str, known: frozenset[str]) -> tuple[str, ...]:
    """The vocabulary words ``word`` is one slip from, sorted."""
    return tuple(sorted(w for w in known if _one_edit(word, w)))


def corrected(message: str, vocabulary: Vocabulary) -> str | None:
    """``message`` with each typo of a vocabulary word corrected, or ``None`` when it has none."""
    known = _words(vocabulary)
    changed = False

    def fix(match: re.Match[str]) -> str:
        nonlocal changed
        word = match.group()
        lower = word.lower()
        if len(lower) < MIN_TYPO or lower in known:
            return word
        candidates = _candidates(lower, known)
        if len(candidates) != 1:
            return word  # none, or no telling which
        changed = True
        return candidates[0]

    fixed = re.sub(r"[A-Za-z]+", fix, message)
    return fixed if changed else None
