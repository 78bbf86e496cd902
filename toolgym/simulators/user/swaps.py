"""Two values of a pair written each under the other's label.

``minimum 2,200 square feet and maximum 1,400 square feet`` where the task wants at least 1,400
and at most 2,200, ``check-in Jan 16 and check-out Jan 6`` where the stay runs from the 6th to
the 16th: each value is one of the task's, so a reader that looks for values alone finds both
right. The label just before a value says whose it is: an end that holds the other end's value
is wrong (both, when the two are swapped).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from toolgym.simulators.user.slots import Slot, Vocabulary
from toolgym.simulators.user.text import _DATE, _DIGIT, _phrase, phrased

_LOWER = r"minimum|min|at least|no less than|not less than|lowest|smallest|from"
_UPPER = r"maximum|max|at most|no more than|not more than|up to|highest|largest|under|below"
_LINK = r"(?: (?:of|is|at|on|date|date of|should be|would be))?(?: an?| the)?"
"""What may stand between a label and its value (``check in on``, ``minimum of``)."""


def _bound_pairs(slots: Sequence[Slot]) -> list[tuple[str, str]]:
    """The ``min_*`` and ``max_*`` kinds the task has both of, with different numbers."""
    kinds = {s.kind: s for s in slots}
    return [
        (kind, "max_" + kind[4:])
        for kind in kinds
        if kind.startswith("min_")
        and "max_" + kind[4:] in kinds
        and _number(kinds[kind]) is not None
        and _number(kinds[kind]) != _number(kinds["max_" + kind[4:]])
    ]


def _number(slot: Slot) -> float | None:
    value = slot.value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        found = re.match(r"\d+(?:\.\d+)?", str(slot.text).replace(",", ""))
        return float(found.group()) if found else None
    return float(value)


def _written(number: float | None) -> str:
    """A number as a message's canonical text writes it (``2200``, ``2.5``)."""
    if number is None:
        return ""
    return str(int(number)) if number == int(number) else str(number)


@functools.lru_cache(maxsize=64)
def _label_words(vocabulary: Vocabulary, kind: str, other: str) -> tuple[str, ...]:
    """``kind``'s words that ``other`` does not share, longest first."""
    theirs = {_phrase(w) for w in vocabulary.kinds[other].words}
    own = {_phrase(w) for w in vocabulary.kinds[kind].words} - theirs
    return tuple(sorted((w for w in own if len(w) >= 5), key=len, reverse=True))


def _under(text: str, labels: str, forms: Sequence[str]) -> bool:
    """Whether ``text`` writes one of ``forms`` right after one of the ``labels``."""
    pattern = _pattern(labels, tuple(sorted(set(forms), key=len, reverse=True)))
    return pattern is not None and pattern.search(text) is not None


@functools.lru_cache(maxsize=1024)
def _pattern(labels: str, forms: tuple[str, ...]) -> re.Pattern[str] | None:
    values = "|".join(re.escape(f) for f in forms if f)
    if not values:
        return None
    return re.compile(rf"(?<![\w])(?:{labels}){_LINK} \$?(?:{values})(?![\w.])")


def swapped_labels(text: str, vocabulary: Vocabulary, slots: Sequence[Slot]) -> set[str]:
    """The ends of pairs ``text`` writes the other end's value under (each such end wrong).

    Bounds (``min_*`` and ``max_*``) are labelled by the words of a bound (``minimum``, ``at
    most``), dates and places by the words of their own kind only (``check in``, not ``date``).
    """
    by_kind = {s.kind: s for s in slots}
    out: set[str] = set()
    digit = _DIGIT.search(text) if text.isascii() else any(c.isdigit() for c in text)
    if not digit:  # (on ASCII text \d is str.isdigit; elsewhere isdigit finds more)
        return out  # every value a label could be followed by has a number
    for low, high in _bound_pairs(slots):
        low_forms = [_written(_number(by_kind[low]))]
        high_forms = [_written(_number(by_kind[high]))]
        if _under(text, _LOWER, high_forms):
            out.add(low)  # "at least 2,200" where 2,200 is the cap: the minimum is wrong
        if _under(text, _UPPER, low_forms):
            out.add(high)
    for first, second in vocabulary.pairs:
        if first not in by_kind or second not in by_kind:
            continue
        if not all(_DATE.search(_phrase(by_kind[k].text)) for k in (first, second)):
            continue  # places: the ends of a route are read by their prepositions
        first_forms = phrased(by_kind[first].forms())
        second_forms = phrased(by_kind[second].forms())
        if set(first_forms) & set(second_forms):
            continue
        first_words = _label_words(vocabulary, first, second)
        second_words = _label_words(vocabulary, second, first)
        if not any(w in text for w in (*first_words, *second_words)):
            continue
        first_labels = "|".join(re.escape(w) for w in first_words)
        second_labels = "|".join(re.escape(w) for w in second_words)
        if first_labels and _under(text, first_labels, second_forms):
            out.add(first)
        if second_labels and _under(text, second_labels, first_forms):
            out.add(second)
    return out
