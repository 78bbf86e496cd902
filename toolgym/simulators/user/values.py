"""The values a message writes, and which kind each belongs to.

Numbers attach to the kind word beside them, dates to a date kind's word, listed values to their
kind. The two ends of a pair of kinds (``from A to B``) are read in
:mod:`~toolgym.simulators.user.ends`; values told by their shape (emails, codes, years, cells)
and names the reader cannot know in :mod:`~toolgym.simulators.user.shapes`.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Sequence

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.memo import per_task
from toolgym.simulators.user.number_words import _ORDINAL_WORD, _ORDINAL_WORDS
from toolgym.simulators.user.phrases import (
    _CONFIRM,
)
from toolgym.simulators.user.positions import word_index
from toolgym.simulators.user.slots import (
    Slot,
    SlotKind,
    Vocabulary,
    normalized,
)
from toolgym.simulators.user.spans import (
    _HEAD,
    _TOKEN,
    _Span,
)
from toolgym.simulators.user.text import (
    _BOUND,
    _DATE,
    _DIGIT,
    _NUMBER,
    _NUMERIC_FORM,
    _RANGE,
    _UPPER,
    _find,
    _find_value,
    _phrase,
    date_forms,
    phrased,
)

_ATTACH = 3
_NEAR = 4 * (_ATTACH + 2)
"""How many spans on each side of a number are looked at for the word it attaches to."""
"""How many words may stand between a number and the word of the kind it is the value of."""


_VALUE_THEN_PLACE = compiled(r" (to|from|into|out of)")
"""What follows a value that begins another kind's word (``flying from``: the plane, and the
origin)."""
_ONE_BEFORE = compiled(r"(?:^|[^0-9a-z'])(a|an) $")
"""``a`` or ``an`` right before a word: one of it (``a garage``)."""
_COUNT_OF = compiled(r"\d+(?:\.\d+)? (.+)")
_IES = compiled(r"ies$")
_S_END = compiled(r"s$")


def _writes_value(text: str, kind: str, at: tuple[int, int], spans: Sequence[_Span]) -> bool:
    """Whether what is written at ``at`` is a value of ``kind`` rather than part of a word.

    Part of another kind's word (``monthly rent``) or of a longer word of its own that names it
    (``type of house``) it is not a value; a word that offers values (``buy or rent``) writes
    them; a longer value holding another kind's word (the name ``sale price``) is a value.
    """
    overlapping = [
        s
        for s in spans
        if s.start < at[1]
        and at[0] < s.end
        and not (at[0] <= s.start and s.end <= at[1] and s.end - s.start < at[1] - at[0])
    ]
    overlapping = [  # "flying to": the value, then the other kind's preposition
        s for s in overlapping if not _VALUE_THEN_PLACE.fullmatch(text[at[1] : s.end])
    ]
    if overlapping and not any(kind in s.kinds for s in overlapping):
        return False
    return not any(
        kind in s.kinds
        and s.start <= at[0]
        and at[1] <= s.end
        and s.end - s.start > at[1] - at[0]
        and " or " not in text[s.start : s.end]
        for s in overlapping
    )


def _bounded(text: str, start: int, upper: bool = False) -> bool:
    """Whether the number at ``start`` bounds a count rather than gives it.

    For a kind that is itself an upper bound (``upper``: a price cap), ``less than 40 dollars``
    gives it; only ``more than`` bounds it. ``under``, ``below``, ``above`` and ``over`` bound a
    number (``whose unit cost is under 13``), not a name (``below Dining``).
    """
    found = _BOUND.search(text[max(0, start - 16) : start])
    if found is not None and found.group(1) is None and not text[start : start + 1].isdigit():
        return False  # "below Dining": a place, no bound
    return found is not None and not (upper and found.group(1) != "more")


def _upper(kind: SlotKind) -> bool:
    """Whether the user states ``kind`` as an upper bound (``a price lower than {text}``)."""
    return _UPPER.search(kind.phrase) is not None


_CURRENT = compiled(
    r"\b(?:currently|presently|right now|at present|as of now)"
    r"(?: (?:is|are|at|set to|sits at|reads|shows|stands at))? $"
)
"""What stands before a cell's present number, which no message proposes."""


_DAY_OF_MONTH = compiled(
    r"\bon the ([1-9]|[12]\d|3[01])(?![0-9a-z.])(?=\s*(?:$|[,;:!?)]|\.(?!\d)|(?:and|or|for|to|at|of|"
    r"through|until|till|with)\b|-))"
)
"""A day of the month without its month (``on the 25th, and fares ...``): no number of anything."""


def _attached(
    text: str,
    spans: Sequence[_Span],
    barriers: Sequence[int] = (),
    upper: frozenset[str] = frozenset(),
    commas: Sequence[int] = (),
    named: frozenset[str] = frozenset(),
) -> dict[str, list[float]]:
    """The numbers written next to a kind's word (``3 bedrooms``, ``floor 10``), by kind.

    A number belongs to the nearest word, at most a few words away (the one after it on a tie)
    and in the same sentence (``barriers``: where sentences start), one that no comma parts from
    it first (``commas``: ``year 2012, genre western``); an ordinal word only to the
    word right after it (``ninth floor``). The numbers of a date (``December 1, 2027``) belong
    to no word, and the two ends of a range (``between $90 and $160``) to the same one. A bound
    (``more than 2``) gives no number, except ``less than 40`` to the kinds that are upper
    bounds themselves (``upper``: a price cap). A word of a kind whose values are ``named``
    (listed names: a room type) yields a number to another kind's word near it in the same part
    (``5 King Bed rooms``: five rooms).
    """
    if not spans or (_DIGIT.search(text) is None and _ORDINAL_WORD.search(text) is None):
        return {}  # no kind's word for a number, or no number (most messages ask a question)
    numbers: dict[str, list[float]] = {}
    dated = [m.span() for m in _DATE.finditer(text)]
    if "on the " in text:
        dated += [m.span(1) for m in _DAY_OF_MONTH.finditer(text)]
    partner = {}
    for m in _RANGE.finditer(text):
        partner[m.start(1)], partner[m.start(2)] = float(m.group(2)), float(m.group(1))
    index = word_index(text)
    ordered = sorted(spans, key=lambda s: s.start)
    span_starts = [s.start for s in ordered]
    barriers = sorted(barriers)
    commas = sorted(commas)
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        at = bisect.bisect_left(span_starts, start + 1)
        if any(s.start <= start and end <= s.end for s in ordered[max(0, at - _NEAR) : at]):
            continue
        if _CURRENT.search(text[max(0, start - 28) : start]):
            continue  # "Quinn's Years value (currently 17)": what it is, not what it should be
        bounded, below = _bounded(text, start), not _bounded(text, start, upper=True)
        if any(s <= start and end <= e for s, e in dated):
            continue
        best: tuple[int, int, int, _Span] | None = None
        counts: tuple[int, int, int, _Span] | None = None  # the best of the other kinds' words
        at = bisect.bisect_left(span_starts, start)
        for span in ordered[max(0, at - _NEAR) : at + _NEAR]:  # spans further are too far
            if span.end <= start:
                gap = (span.end, start)
                rank = (0, index.between(*gap), 1)
            elif span.start >= end:
                gap = (end, span.start)
                rank = (0, index.between(*gap), 0)
            else:
                continue
            if bisect.bisect_left(barriers, gap[0]) < bisect.bisect_right(barriers, gap[1]):
                continue
            if bisect.bisect_left(commas, gap[0]) < bisect.bisect_right(commas, gap[1]):
                rank = (1, *rank[1:])
            if rank[1] <= _ATTACH and (best is None or rank < best[:3]):
                best = (*rank, span)
            if (
                rank[1] <= _ATTACH
                and not span.kinds <= named
                and (counts is None or rank < counts[:3])
            ):
                counts = (*rank, span)
        if best is not None and best[3].kinds <= named and counts is not None and counts[0] == 0:
            best = counts  # "5 King Bed rooms": the count is the rooms', not the room type's
        if best is not None:
            for kind in best[3].kinds:
                if bounded and not (below and kind in upper):
                    continue
                numbers.setdefault(kind, []).append(float(match.group(1)))
                if match.start(1) in partner:
                    numbers[kind].append(partner[match.start(1)])
    for match in _ORDINAL_WORD.finditer(text):  # "the ninth floor"; not "first, how many"
        for span in spans:
            if span.start == match.end():
                for kind in span.kinds:
                    numbers.setdefault(kind, []).append(_ORDINAL_WORDS[match.group(1)])
    return numbers


def _counted(text: str, spans: Sequence[_Span], slots: Sequence[Slot]) -> dict[str, list[float]]:
    """``a garage`` read as one garage, in a message that restates values to confirm.

    Counts only for a kind whose value the user says as a count of that word (``1 garage``).
    """
    if not _CONFIRM.search(text):
        return {}
    counted: dict[str, list[float]] = {}
    for span in spans:
        if not _ONE_BEFORE.search(text[max(0, span.start - 4) : span.start]):
            continue
        word = text[span.start : span.end]
        for slot in slots:
            said = _COUNT_OF.fullmatch(normalized(slot.text))
            if slot.kind in span.kinds and said and _singular(said.group(1)).endswith(word):
                counted.setdefault(slot.kind, []).append(1.0)
    return counted


def _singular(noun: str) -> str:
    return _IES.sub("y", noun) if noun.endswith("ies") else _S_END.sub("", noun)


@functools.lru_cache(maxsize=32)
def _listed_phrases(vocabulary: Vocabulary) -> tuple[tuple[str, int, str, str | None], ...]:
    """Each listed value's phrase: its kind, its group's index, the phrase and its first word.

    A phrase is found only where its first word is a word of the message (``None``: a phrase
    that opens with ``it`` or with no letter or digit, looked for everywhere).
    """
    out = []
    for kind in vocabulary:
        for i, group in enumerate(kind.values):
            for word in group:
                phrase = _phrase(word)
                head = _HEAD.match(phrase)
                first = head.group() if head is not None and head.group() != "it" else None
                out.append((kind.name, i, phrase, first))
    return tuple(out)


def listed_values(
    text: str, vocabulary: Vocabulary
) -> dict[str, list[tuple[int, tuple[int, int]]]]:
    """Where ``text`` writes each kind's listed values: ``{kind: [(group index, span), ...]}``."""
    phrases = _listed_phrases(vocabulary)
    by_first, anywhere = _listed_index(vocabulary)
    tokens = set(_TOKEN.findall(text))
    tried = sorted({*anywhere, *(j for t in tokens & by_first.keys() for j in by_first[t])})
    found: dict[str, list[tuple[int, tuple[int, int]]]] = {}
    for j in tried:  # in the vocabulary's order, as every phrase were tried
        kind, i, phrase, _ = phrases[j]
        for at in _find_value(text, phrase):
            found.setdefault(kind, []).append((i, at))
    return found


@functools.lru_cache(maxsize=32)
def _listed_index(vocabulary: Vocabulary) -> tuple[dict[str, tuple[int, ...]], tuple[int, ...]]:
    """:func:`_listed_phrases`'s positions by first word, and those looked for everywhere."""
    by_first: dict[str, list[int]] = {}
    anywhere = []
    for j, (_, _, _, first) in enumerate(_listed_phrases(vocabulary)):
        if first is None:
            anywhere.append(j)
        else:
            by_first.setdefault(first, []).append(j)
    return {k: tuple(v) for k, v in by_first.items()}, tuple(anywhere)


@functools.lru_cache(maxsize=4096)
def worded_forms(forms: tuple[str, ...]) -> tuple[str, ...]:
    """A slot's forms read as messages are, less those that are numbers (fixed through a task)."""
    return tuple(p for f in forms if not _NUMERIC_FORM.fullmatch(p := _phrase(f)))


@functools.lru_cache(maxsize=4096)
def _bare_worded_forms(forms: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`worded_forms` without a leading article (``the amount``: ``amount``)."""
    return tuple(_ARTICLE.sub("", f) for f in worded_forms(forms))


@per_task
def _all_worded_forms(slots: Sequence[Slot]) -> tuple[str, ...]:
    """:func:`worded_forms` of each slot's forms, in the slots' order (fixed in a task)."""
    return tuple(f for slot in slots for f in worded_forms(slot.forms()))


@per_task
def _all_bare_worded_forms(slots: Sequence[Slot]) -> tuple[tuple[str, str], ...]:
    """:func:`_bare_worded_forms` of each slot's forms with its kind, in order (fixed in a task)."""
    return tuple((f, slot.kind) for slot in slots for f in _bare_worded_forms(slot.forms()))


def _inside_longer_value(
    text: str,
    vocabulary: Vocabulary,
    slots: Sequence[Slot],
    listed: dict[str, list[tuple[int, tuple[int, int]]]],
) -> Callable[[tuple[int, int]], bool]:
    """Whether a value written at a span is part of a longer value written around it.

    The longest value wins, as the longest word does: ``light blue`` is not also ``blue``, and
    ``x-large`` is not also ``large``. ``listed``: :func:`listed_values` of ``text``.
    """
    values = [at for spans in listed.values() for _, at in spans]
    values += [
        at
        for f in _all_worded_forms(slots)
        if f in text  # (most are not: no call)
        for at in _find(text, f)
    ]

    def inside(at: tuple[int, int]) -> bool:
        return any(s <= at[0] and at[1] <= e and e - s > at[1] - at[0] for s, e in values)

    return inside


_NEGATED = compiled(
    r"\b(not|no|never|rather than|instead of|other than|except|n't|but not)( an?| the| to| for)? $"
)
"""What stands before a value the message sets aside (``rent, not buy``)."""
_ARTICLE = compiled(r"^(the|an?) ")


def _inside_values(spans: list[_Span], text: str, slots: Sequence[Slot]) -> list[_Span]:
    """``spans`` without the words inside a longer value of another kind's slot.

    The name ``Sale Price`` names no price (an article does not make a value longer: the field
    ``the amount`` still names the amount); a value inside a longer word (``rent`` in ``monthly
    rent``) is :func:`_writes_value`'s to judge. A count before the value keeps the value's last
    word for its own kind (``3 Queen Bed rooms``: three rooms, of the Queen Bed type).
    """
    values = [
        (at, kind)
        for form, kind in _all_bare_worded_forms(slots)
        if form in text  # (most are not: no call)
        for at in _find(text, form)
    ]
    return [
        span
        for span in spans
        if not any(
            s <= span.start
            and span.end <= e
            and e - s > span.end - span.start
            and kind not in span.kinds
            and not (span.end == e and _COUNT_BEFORE.search(text[max(0, s - 12) : s]))
            for (s, e), kind in values
        )
    ]


_COUNT_BEFORE = compiled(r"(?<![0-9a-z.])\d+ $")
"""A count before a value whose last word is a counted kind's (``3 Queen Bed rooms``)."""


def _dated(
    text: str, spans: Sequence[_Span], slots: Sequence[Slot], barriers: Sequence[int]
) -> dict[str, bool]:
    """The dates written right after (or before) a date kind's word, right or wrong.

    ``leaving July 5, 2027`` writes the departure date; it is wrong when the task's is July 3.
    """
    if _DATE.search(text) is None:
        return {}  # (most messages write no date)
    dated = date_forms(slots)
    if not dated:
        return {}
    index = word_index(text)
    found: dict[str, bool] = {}
    for match in _DATE.finditer(text):
        start, end = match.span()
        best: tuple[int, int, _Span] | None = None
        for span in spans:
            if not span.kinds & dated.keys():
                continue
            if span.end <= start:
                gap, rank = (span.end, start), (index.between(span.end, start), 0)
            elif span.start >= end:
                gap, rank = (end, span.start), (index.between(end, span.start), 1)
            else:
                continue
            if any(gap[0] <= b <= gap[1] for b in barriers) or rank[0] > _ATTACH:
                continue
            if best is None or rank < best[:2]:
                best = (*rank, span)
        if best is None:
            continue
        written = match.group()
        for kind in best[2].kinds & dated.keys():
            ok = any(
                written == f or written.startswith(f + " ") or f.startswith(written + " ")
                for f in dated[kind]
            )
            found[kind] = found.get(kind, False) or ok
    return found


_RANGE_ASK = compiled(
    r"\brange\b|\bbetween\b|\bboth (ends|limits|bounds)\b|\b(min|minimum|lowest|low end|least|smallest)\b"
    r".{0,30}\b(and|&|to|or)\b.{0,30}\b(max|maximum|highest|high end|most|largest|biggest)\b"
    r"|\b(max|maximum|highest|high end|most|largest|biggest)\b.{0,30}\b(and|&|to|or)\b.{0,30}"
    r"\b(min|minimum|lowest|low end|least|smallest)\b"
)
"""A question about both bounds of a quantity (``your budget range``, ``the lowest and highest``)."""
_BOUND_WORDS = {
    "min": compiled(r"\b(min|minimum|lowest|least|smallest|floor)\b"),
    "max": compiled(r"\b(max|maximum|highest|most|largest|biggest|ceiling|upper)\b"),
}
"""The words of one bound alone (``And the highest?`` after the lowest price is asked)."""


def _other_bounds(text: str, vocabulary: Vocabulary, named: Sequence[str]) -> set[str]:
    """The other bounds of the quantities a question asks a range or both bounds of.

    A kind ``min_X`` the question names, with ``max_X`` in the vocabulary, names that one too
    in a question about a range (``What's your monthly budget range?``) or when the other
    bound's word stands alone in it (``1) The lowest price? 2) And the highest?``); the same
    the other way round.
    """
    kinds = vocabulary.kinds  # by name
    out: set[str] = set()
    ranged = _RANGE_ASK.search(text) is not None
    for kind in named:
        bound, _, rest = kind.partition("_")
        if bound not in _BOUND_WORDS or not rest:
            continue
        other = ("max" if bound == "min" else "min") + "_" + rest
        if other not in kinds or other in named:
            continue
        own = {*phrased(vocabulary[kind].qualifiers), bound}
        singled = any(re.search(rf"\b{re.escape(q)}\b", text) for q in own if q)
        if _BOUND_WORDS[other[:3]].search(text) or (ranged and not singled):
            out.add(other)  # "the bottom of your price range" asks one bound
    return out
