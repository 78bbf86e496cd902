"""What the reader asks of a word of a message: its capitals, its quotes, what it is set to.

A check that writes a value the reader does not know (:mod:`.unknown`) is told by the word beside
a kind's word: a name in capitals, a quoted text, a setting (``size: medium``). A long message
writes many kind words and asks the same of the same words at each, so :class:`MessageReads`
keeps each answer for the message; the patterns built from a word are compiled once per word.
"""

from __future__ import annotations

import functools
import re

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.slots import normalize

_QUOTE = compiled(r"[\"'\u2018\u201c]([^\"'\u2019\u201d]{1,80})[\"'\u2019\u201d]")


def _capitalized(word: str, message: str) -> bool:
    """Whether ``message`` writes ``word`` (read lower-case) with a capital, not first in it."""
    for match in _alone(word, re.I).finditer(message):
        written = match.group(1)
        before = message[: match.start()].rstrip()
        if written[:1].isupper() and written != "I" and before and before[-1] not in ".!?:":
            return True
    return False


def _quote_after(written: str, message: str) -> str | None:
    """The quoted text ``message`` writes right after the word ``written`` (a kind's), if any.

    ``the query 'we will rock you'``, ``call the new column 'Difference'``.
    """
    found = _quoting(written).search(message)
    return None if found is None else found.group(1)


class MessageReads:
    """What :func:`~.unknown.beside_words` asks of a message's words, each answered once.

    A kind's word set to a value (``size: medium``) is looked for with the value's own pattern
    only where the word is set to something at all.
    """

    def __init__(self, message: str) -> None:
        self.message = message
        # plain dicts: a reply makes one of these per check it reads, and a functools cache
        # costs more to make than most messages ask of it
        self._capitals: dict[str, bool] = {}
        self._upper: dict[str, bool] = {}
        self._quotes: dict[str, str | None] = {}
        self._set_words: dict[str, bool] = {}
        self._assigned_pairs: dict[tuple[str, str], bool] = {}

    def capitalized(self, word: str) -> bool:
        """Whether the message writes ``word`` (read lower-case) with a capital, not first in it."""
        found = self._capitals.get(word)
        if found is None:
            found = self._capitals[word] = _capitalized(word, self.message)
        return found

    def upper_case(self, word: str) -> bool:
        """Whether the message writes ``word`` (read lower-case) all in capitals (``US``)."""
        found = self._upper.get(word)
        if found is None:
            found = _alone(word.upper()).search(self.message) is not None
            self._upper[word] = found
        return found

    def quote_after(self, written: str) -> str | None:
        """The quoted text the message writes right after ``written`` (a kind's word), if any."""
        if written not in self._quotes:
            self._quotes[written] = _quote_after(written, self.message)
        return self._quotes[written]

    def _set(self, written: str) -> bool:
        found = self._set_words.get(written)
        if found is None:
            found = _setting(written).search(self.message) is not None
            self._set_words[written] = found
        return found

    @functools.cached_property
    def _quote_heads(self) -> frozenset[str]:
        return frozenset(
            parts[0]
            for m in _QUOTE.finditer(self.message)
            if (parts := normalize(m.group(1)).split())
        )

    def quoted(self, word: str) -> bool:
        """Whether the message writes ``word`` (read lower-case) first in a quoted text."""
        return word in self._quote_heads

    def assigned(self, written: str, token: str) -> bool:
        """Whether the message sets the kind's word to ``token``, whatever its case.

        ``muscle = triceps``, ``size: medium``: a value put to the user.
        """
        found = self._assigned_pairs.get((written, token))
        if found is None:
            found = self._set(written) and (
                _assigning(written, token).search(self.message) is not None
            )
            self._assigned_pairs[(written, token)] = found
        return found


_WORD_BEFORE = compiled(r"(?:^|\s)(?:the |an? )?(\S+) $")
"""The word right before a place in a text (after an article, if any)."""
_BEFORE_WINDOW = 64
"""How far back :func:`word_before` looks first."""


def word_before(text: str, end: int) -> re.Match[str] | None:
    """``_WORD_BEFORE.search(text[:end])``, looked for in the last characters first.

    A match is a space, an article, a word and a space: one that starts well inside the window
    is the first in the whole text too (one further back would hold that space inside its
    word), so the text before it is not searched (in a long message, at each kind word).
    """
    low = max(0, end - _BEFORE_WINDOW)
    found = _WORD_BEFORE.search(text, low, end)
    if low and (found is None or found.start() <= low + len("the ")):
        found = _WORD_BEFORE.search(text, 0, end)
    return found


# The patterns below are built from a kind's word or a word of the message, and compiled once
# per word: a reply asks of a few, an episode of the same few again (the engine's own cache of
# compiled patterns holds 512, and the reader's fixed ones fill much of it).


@functools.lru_cache(maxsize=1024)
def _alone(word: str, flags: int = 0) -> re.Pattern[str]:
    """``word`` with no word character or apostrophe beside it (``re.I``: in any case)."""
    return re.compile(rf"(?<![\w'])({re.escape(word)})(?![\w'])", flags)


@functools.lru_cache(maxsize=1024)
def _setting(written: str) -> re.Pattern[str]:
    """A kind's word set to something (``size:``, ``muscle =``), in any case.

    What :func:`_assigning` matches starts with a match of this: the value's own pattern (one
    for each word of each message) is compiled only where the message sets the word.
    """
    word = re.escape(written).replace("\\ ", r"\W+")
    return re.compile(rf"(?<!\w){word}\s*[:=]", re.I)


@functools.lru_cache(maxsize=1024)
def _assigning(written: str, token: str) -> re.Pattern[str]:
    """A kind's word set to ``token`` (``size: medium``), in any case."""
    word = re.escape(written).replace("\\ ", r"\W+")
    return re.compile(rf"(?<!\w){word}\s*[:=]\s*{re.escape(token)}(?!\w)", re.I)


@functools.lru_cache(maxsize=1024)
def _quoting(written: str) -> re.Pattern[str]:
    """A kind's word, then a quoted text (the first word of which is its group)."""
    word = re.escape(written).replace("\\ ", r"\W+")
    return re.compile(
        rf"(?<!\w){word}\s*(?:(?:it|them|(?:the|this|that) \w+(?: \w+)?)\s+)?"
        rf"(?:[:=]|is|of|as|to)?\s*[\"'\u2018\u201c](\w[^\"'\u2019\u201d]*)",
        re.I,
    )
