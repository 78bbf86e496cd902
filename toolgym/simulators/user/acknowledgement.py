"""Acknowledgements: an agent's message that restates the user's request before it asks.

``Got it, a Double room in Cary. Where will you fly from?`` and ``Sure, I'll highlight the crab
row. Which colour?`` put what the user asked for back to the user, then ask. A person answers
"yes" to the first part and the question: the message is a check as well as a question. It is
read as one when it opens with an acknowledgement word and its opening sentences, before the
question, write what the request said: a value the user gave, a name of the request, or two of
its words.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.slots import CACHED_CHARS, Slot, normalize, normalized

_ACK = compiled(
    r"^\W*(got it|gotcha|got that|sure( thing)?|alright|all right|understood|ok|okay|perfect|"
    r"great|noted|thanks|thank you|cool|excellent|makes sense|sounds good|wonderful|awesome|"
    r"fantastic|copy that|roger|will do|certainly|absolutely|of course)\b",
    re.IGNORECASE,
)
_NOTED = compiled(r"\b(noted|got it|understood|copy that)\b", re.IGNORECASE)
_END = compiled(r"[.!:;\n]")
_WORD = compiled(r"[a-z0-9][a-z0-9'-]*")
_PART_BREAK = compiled(r"(?<=[.!;:,])\s+")
_NAME_INSIDE = compiled(r"(?<=[a-z,;:] )[A-Z][\w'-]+")
"""A capitalized word inside a sentence: a name the request wrote."""
_OFFER = compiled(
    r"\b(i|we)( can| could| will|'ll| would|'d| am| are|'m|'re)( certainly| definitely| gladly|"
    r" surely| absolutely)?( be)?( happy| glad| delighted)?( to)? help\b"
    r"|\b(happy|glad|delighted|pleased) to (help|assist|arrange|book|find|search|look|set up)\b"
    r"|\b(i|we)( can| could| will|'ll)( certainly| definitely| gladly| happily)? [a-z]+ "
    r"([a-z]+ ){0,3}for you\b",
    re.IGNORECASE,
)
"""An offer of help (``I can certainly help you find a home in Washington``, ``I can upvote that
for you``): no restatement."""
_COMMON = frozenset(
    [
        "about",
        "after",
        "also",
        "before",
        "being",
        "could",
        "each",
        "find",
        "from",
        "have",
        "help",
        "here",
        "into",
        "just",
        "like",
        "looking",
        "make",
        "need",
        "needs",
        "only",
        "other",
        "please",
        "search",
        "some",
        "that",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "want",
        "wants",
        "what",
        "when",
        "where",
        "which",
        "will",
        "with",
        "would",
        "your",
        "you're",
        "you've",
        "i'll",
        "i'm",
        "let's",
        "want",
        "thanks",
        "thank",
        "great",
        "sure",
        "okay",
        "alright",
        "understood",
        "perfect",
        "noted",
        "the",
        "and",
        "for",
        "you",
        "are",
        "but",
        "not",
        "can",
        "was",
        "has",
        "had",
        "its",
        "our",
        "out",
        "any",
        "all",
        "how",
        "why",
        "who",
        "get",
        "got",
        "let",
        "may",
        "now",
        "too",
        "yes",
        "off",
        "per",
        "via",
        "i'd",
        "i've",
        "we'd",
        "it's",
        "we're",
        "we'll",
        "you'd",
        "you'll",
        "does",
        "did",
        "should",
        "shall",
    ]
)
"""Words too common to tell that a message restates a request."""


def request_words(text: str) -> frozenset[str]:
    """The words of ``text`` that may tell what it is about (three letters or more, not common).

    Cached for texts of at most :data:`~.slots.CACHED_CHARS` characters: an episode's opening
    request is read at every message (a long message is read anew, and held by no cache).
    """
    return _request_words_short(text) if len(text) <= CACHED_CHARS else _request_words(text)


def _request_words(text: str) -> frozenset[str]:
    words = _WORD.findall(normalize(text))
    words += [part for w in words if "-" in w for part in w.split("-")]  # "high-quality"
    return frozenset(w for w in words if len(w) >= 3) - _COMMON


_request_words_short = functools.lru_cache(maxsize=4096)(_request_words)


def opens_acknowledging(text: str) -> bool:
    """Whether ``text`` opens with an acknowledgement word (``Got it``, ``Sure``, ``Noted``)."""
    return _ACK.match(text) is not None


def offers_help(text: str) -> bool:
    """Whether ``text`` offers help (``I'd be happy to help you find a hotel in Nashville``).

    Such a sentence writes the request's words without putting them to the user to confirm.
    """
    return _OFFER.search(text) is not None


def acknowledges(message: str, slots: Sequence[Slot], opening: str) -> bool:
    """Whether ``message`` restates the request (see the module docstring), then asks.

    Args:
        message: the agent's message.
        slots: the task's slots (the values the opening gave are among them).
        opening: what the user said first.
    """
    text = message.strip()
    asked_at = text.rfind("?")
    if asked_at < 0:
        return False
    ends = [m.start() for m in _END.finditer(text, 0, asked_at)]
    if not ends:
        return False
    head = text[: ends[-1]]
    if "?" in head or not (_ACK.match(head) or _NOTED.search(head)):
        return False
    said = [p for p in _PART_BREAK.split(head) if not offers_help(p)]
    written = request_words(" ".join(said))  # an offer of help restates nothing
    if not written:
        return False
    given = normalized(opening)
    values = {
        w
        for s in slots
        for f in s.forms()
        if f and normalized(f) and normalized(f) in given
        for w in request_words(f)
    }
    names = {w for m in _NAME_INSIDE.finditer(opening) for w in request_words(m.group())}
    common = written & request_words(opening)
    return bool(written & (values | names)) or len(common) >= 2
