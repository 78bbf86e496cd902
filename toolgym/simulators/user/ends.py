"""The two ends of a pair of kinds a message writes (a trip's origin and destination).

The pairs are a vocabulary's (an origin and a destination, a stay's check-in and check-out).
``from A to B`` is read against each pair the task has both ends of; one end written alone after
its preposition, an end asked (``where from?``) and a route written the other way round are read
here too. The values of single kinds are read in :mod:`~toolgym.simulators.user.values`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.slots import Slot, Vocabulary
from toolgym.simulators.user.text import _DATE, _phrase, phrased

_WHERE = compiled(r"\bwhere\b")
_GOING = compiled(r" (headed|heading|going|bound|go|goes)\b")
_FROM_TO = compiled(
    r"\bfrom ((?:\S+ ){0,3}?\S+) (?:to|until|till|through|thru) ((?:\S+ ){0,3}?\S+?)"
    r"(?= (?:on|for|at|with|in|and|leaving|departing|returning|between|under|max|min|per|"
    r"checking|staying|via|by|is|right|correct|ok|okay)\b| \d|$)"
)
_ASKED_END = compiled(r"(?:which|what|where|whence|how)\b")
_ONE_END = compiled(
    r"\b(?<!back )(?<!return )(?<!returning )(?<!home )(from|out of|to|into) ((?:\S+ ){0,3}\S+)"
)
"""One end of a trip a message writes; not on the way back (``flying back from Albuquerque``:
the destination, not a wrong origin)."""


def _writes_end(by_kind: dict[str, Slot], written: str, kind: str) -> bool:
    """Whether ``written`` (after ``from`` or ``to``) is ``kind``'s value, or opens with it."""
    forms = set(phrased(by_kind[kind].forms()))
    return any(written == f or written.startswith(f + " ") for f in forms if f)


def _paired(text: str, vocabulary: Vocabulary, slots: Sequence[Slot]) -> dict[str, bool]:
    """The two ends of a pair a message writes (``from Baltimore to Miami``), right or wrong.

    ``from A to B`` is read against each pair of kinds the task has both of (``origin`` and
    ``destination``; ``checkin_date`` and ``checkout_date``) whose one end it writes rightly, or
    whose ends are both dates written as dates; the other end is then that kind's, right or
    wrong. A known value after ``from`` or ``to`` that is the other end's (``flying out of
    Tampa`` when Tampa is the destination) is a wrong value of this end.
    """
    by_kind = {s.kind: s for s in slots}
    pairs = [(a, b) for a, b in vocabulary.pairs if a in by_kind and b in by_kind]
    if not pairs:
        return {}

    matches = functools.partial(_writes_end, by_kind)

    found: dict[str, bool] = {}
    for match in _FROM_TO.finditer(text):
        first, second = match.group(1), match.group(2)
        if _ASKED_END.match(first):
            continue  # "from which city you fly to Memphis?": that end is asked
        dates = bool(_DATE.fullmatch(first)) and bool(_DATE.search(second))
        for a, b in pairs:
            known_a, known_b = matches(first, a), matches(second, b)
            both_dates = dates and all(_DATE.search(_phrase(by_kind[k].text)) for k in (a, b))
            if known_a or known_b or (both_dates and len(pairs) == 1):
                if matches(first, b) or matches(second, a):
                    continue  # the other way round: not this pair's order
                found[a], found[b] = known_a, known_b
                break
    for match in _ONE_END.finditer(text):
        end = 0 if match.group(1) in ("from", "out of") else 1
        for pair in pairs:
            own, other = pair[end], pair[1 - end]
            if own in found or other in found:
                continue
            if matches(match.group(2), other) and not matches(match.group(2), own):
                found[own] = False  # a value in the wrong role
    return found


def reversed_route(text: str, vocabulary: Vocabulary, slots: Sequence[Slot]) -> set[str]:
    """The two ends of a pair a message writes the other way round.

    ``from Jacksonville to Savannah``, where the trip is from Savannah to Jacksonville: both
    wrong, though each value is one of the task's. Dates aside (:func:`_paired` reads them).
    """
    if not vocabulary.pairs or "from " not in text:
        return set()  # no pair of ends, or no "from A to B"
    by_kind = {s.kind: s for s in slots}
    pairs = [(a, b) for a, b in vocabulary.pairs if a in by_kind and b in by_kind]

    matches = functools.partial(_writes_end, by_kind)

    out: set[str] = set()
    for match in _FROM_TO.finditer(text):
        first, second = match.group(1), match.group(2)
        if _DATE.search(first) or _DATE.search(second):
            continue
        for a, b in pairs:
            if (
                matches(first, b)
                and matches(second, a)
                and not matches(first, a)
                and not matches(second, b)
            ):
                out |= {a, b}
    return out


_BOTH_ENDS = compiled(
    r"\bfrom (and|&|or) (where |which \w+ |what \w+ )?(to|into)\b|\bfrom where (to|into) where\b"
    r"|\bwhere from (and|&) (where )?to\b|\bfrom (and|&) (to|into) where\b"
    r"|\b(check|checking) in (and|&) (out|check out|checking out)\b"
)
"""A question about both ends of a pair (``where are you flying from and to?``, ``checking in
and out``)."""


def _both_ends(text: str, vocabulary: Vocabulary, named: Sequence[str]) -> set[str]:
    """The other ends of the pairs a question asks both ends of (``from where to where?``).

    The pair is the one whose first end the message names, or else the first pair of places.
    """
    if not vocabulary.pairs or not _BOTH_ENDS.search(text):
        return set()
    for first, second in vocabulary.pairs:
        if first in named or second in named:
            return {first, second} - set(named)
    first, second = vocabulary.pairs[0]
    return {first, second} if _WHERE.search(text) else set()


_DANGLING = compiled(r"(?<! and)(?<! or)(?<! from)(?<! to) (from|out of|to|into)$")
"""A direction that ends a question (``Which city are you catching the train from?``)."""


def dangling_end(
    text: str,
    asking: Sequence[tuple[int, int]],
    vocabulary: Vocabulary,
    at: Sequence[tuple[str, int]],
) -> set[str]:
    """The kinds a direction ending a question rules out where a shared word names both ends.

    ``Which city are you catching the train from?``: ``which city`` names the origin, the
    destination and the hotel's city alike; the ``from`` at the end picks the origin, and the
    kinds named only where the origin is named are not asked.
    """
    if _BOTH_ENDS.search(text):
        return set()
    where: dict[str, set[int]] = {}
    for kind, position in at:
        where.setdefault(kind, set()).add(position)
    for start, end in asking:
        direction = _DANGLING.search(text[start:end].rstrip())
        if direction is None:
            continue
        for first, second in vocabulary.pairs:
            shared = where.get(first, set()) & where.get(second, set())
            if not shared:
                continue
            keep = first if direction.group(1) in ("from", "out of") else second
            spots = where[keep]
            return {k for k, p in where.items() if k != keep and p <= spots}
    return set()


_BOUND_FOR = compiled(r" (headed|heading|going|go|goes|bound|off to)$")
"""A verb that ends a ``where`` question about where a trip ends (``where's the cruise headed?``)."""


_WHERE_HEAD = compiled(
    r"(\w+ ){0,3}(where|(which|what) (port|city|airport|station|town|harbou?r|terminal|place))\b"
)
"""A question about a place (``where``, ``which port``)."""


def direction_asked(
    text: str, asking: Sequence[tuple[int, int]], vocabulary: Vocabulary, present: Sequence[str]
) -> str | None:
    """The end of a trip a ``where`` question ending in its direction asks, naming no kind.

    ``Where will you be starting your journey from?``: the origin; ``... heading to?``: the
    destination (of the vocabulary's first pair of ends that are no dates, both in the task).
    """
    for start, end in asking:
        clause = text[start:end].rstrip()
        direction = _DANGLING.search(clause) or _BOUND_FOR.search(clause)
        direction = direction or _GOING.search(clause)
        if direction is None or not _WHERE_HEAD.match(clause):
            continue
        for first, second in vocabulary.pairs:
            timed = {"date", "time", "day"} & {*first.split("_"), *second.split("_")}
            if not timed and first in present and second in present:
                return first if direction.group(1) in ("from", "out of") else second
    return None
