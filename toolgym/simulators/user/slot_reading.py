"""What a message says of each slot kind.

The kinds it names, writes the task's value of, and writes another value of. Words name kinds (:mod:`~toolgym.simulators.user.spans`); values attach to them
(:mod:`~toolgym.simulators.user.values`); a choice between values (``buy or rent``) writes
neither. :func:`~toolgym.simulators.user.matcher.read_message` reads the kind of message from
this.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolgym.simulators.user.ends import _paired, reversed_route
from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.misworded import (
    _flipped,
    _mislabelled_part,
    _other_units,
    _writes_each_part,
    _written_flipped,
)
from toolgym.simulators.user.phrases import (
    _CONFIRM,
    _TAG,
    _WH,
    _YES_NO_START,
)
from toolgym.simulators.user.slots import (
    Slot,
    SlotKind,
    Vocabulary,
    contains_phrase,
    normalized,
    whole_words,
)
from toolgym.simulators.user.spans import (
    _LOCATIVE,
    _focus,
    _resolve,
    _Span,
    _word_spans,
)
from toolgym.simulators.user.swaps import swapped_labels
from toolgym.simulators.user.text import (
    _NUMERIC_FORM,
    _RANGE,
    _find,
    _phrase,
    phrased,
)
from toolgym.simulators.user.values import (
    _NEGATED,
    _attached,
    _bounded,
    _counted,
    _dated,
    _inside_longer_value,
    _inside_values,
    _upper,
    _writes_value,
    listed_values,
)


@dataclass(frozen=True)
class _Slots:
    """What a message writes about the slot kinds."""

    named: tuple[str, ...]
    right: tuple[str, ...]
    wrong: tuple[str, ...]
    worded: bool = False
    """Whether it names some kind by a word (not only by writing a value)."""
    at: tuple[tuple[str, int], ...] = ()
    """Each kind a word names, with where the word starts."""


_WEAK_FOCUS = compiled(
    r"(^|\b)(what|which|how many|how much)( is| are| s| was| were| re)?"
    r"( (your|the|its|their|his|her|an?|\w+ s))?( new| preferred| exact| specific)? $"
)
"""What stands before a weak word a question asks about (``what cost``, ``what are pork's cost``)."""


_WHERE_ASKED = compiled(r"(^|\b)where\b")
_WHAT_ASKED = compiled(r"\b(what|which|how many|how much)\b")
"""A question of where (of a place), not of what: a kind's weak word there names no answer."""


def _to_task_kinds(spans: list[_Span], slots: Sequence[Slot]) -> list[_Span]:
    """Spans of kinds the task lacks, given to the one task kind whose name ends in theirs.

    ``whats the tag for the first search?`` where the task holds a ``hashtag``: the hashtag.
    """
    kinds = {s.kind for s in slots}
    out = []
    for span in spans:
        if not span.kinds & kinds:
            owners = {k for k in kinds for n in span.kinds if k != n and k.endswith(n)}
            if len(owners) == 1:
                span = _Span(span.start, span.end, frozenset(owners))
        out.append(span)
    return out


@functools.lru_cache(maxsize=64)
def _kind_index(vocabulary: Vocabulary) -> dict[str, int]:
    """Each kind's place in the vocabulary (a family's, once)."""
    return {kind.name: i for i, kind in enumerate(vocabulary)}


def _swapped_bound(name: str, attached: Sequence[float], by_kind: dict[str, Slot]) -> str | None:
    """The other bound of ``name``, when the task has it (not ``name``) with a written number.

    ``a minimum rent of $1,800`` where the task's maximum is 1,800: the maximum, written as the
    wrong bound.
    """
    bound, _, rest = name.partition("_")
    if bound not in ("min", "max") or not rest:
        return None
    other = ("max" if bound == "min" else "min") + "_" + rest
    slot = by_kind.get(other)
    if slot is None:
        return None
    return other if _numeric_values(phrased(slot.forms())) & set(attached) else None


def _own_values(values: tuple[tuple[str, ...], ...], forms: tuple[str, ...]) -> frozenset[int]:
    """The indices of a kind's listed ``values`` that a slot with these ``forms`` holds.

    Computed once for the values object itself and the forms: a kind's values are fixed, and
    its hash (or the hash of its values, hundreds of them for a size or a breed) walks all of
    them, at each message. The entry holds the values, so no other object takes their id.
    """
    if not forms:
        return frozenset()
    key = (id(values), forms)
    found = _OWN_VALUES.get(key)
    if found is not None and found[0] is values:
        return found[1]
    own = frozenset(i for i, group in enumerate(values) if any(_phrase(w) in forms for w in group))
    if len(_OWN_VALUES) >= 4096:
        _OWN_VALUES.clear()
    _OWN_VALUES[key] = (values, own)
    return own


_OWN_VALUES: dict[
    tuple[int, tuple[str, ...]], tuple[tuple[tuple[str, ...], ...], frozenset[int]]
] = {}


@functools.lru_cache(maxsize=64)
def _named_kinds(vocabulary: Vocabulary) -> frozenset[str]:
    """The kinds whose listed values are names, none a number (a room type, a colour)."""
    return frozenset(
        k.name
        for k in vocabulary
        if k.values and not any(re.search(r"\d", w) for group in k.values for w in group)
    )


@functools.lru_cache(maxsize=64)
def _upper_kinds(vocabulary: Vocabulary) -> frozenset[str]:
    """The names of the kinds the user states as an upper bound (a family's, once)."""
    return frozenset(k.name for k in vocabulary if _upper(k))


@functools.lru_cache(maxsize=4096)
def _numeric_values(forms: tuple[str, ...]) -> frozenset[float]:
    """The numbers a slot's written forms are (``1,550``, ``$1550``: 1550.0), fixed in a task."""
    return frozenset(float(m.group(1)) for f in forms if (m := _NUMERIC_FORM.fullmatch(f)))


@functools.lru_cache(maxsize=4096)
def _unnumbered(forms: tuple[str, ...]) -> tuple[str, ...]:
    """A slot's phrased forms that are no number (fixed through a task)."""
    return tuple(f for f in forms if not _NUMERIC_FORM.fullmatch(f))


@functools.lru_cache(maxsize=4096)
def _needles(forms: tuple[str, ...]) -> tuple[str, ...]:
    """What a text holds wherever a slot with these forms is read in it.

    A form of no number, one written the wrong way round (:func:`_flipped`), or the number of a
    measure written in other units (:func:`_other_units`).
    """
    return (*_unnumbered(forms), *_flipped(forms), *(n for n, _ in _other_units(forms)))


_JOINED_BEFORE = compiled(r"(and|or) $")


_AT_YOUR = compiled(r"\b(at|near|around) your $")
"""A place named by the user's own detail (``at your destination``): where, not what."""


def _claimed(
    kind: SlotKind,
    numbers: dict[str, list[float]],
    by_kind: dict[str, Slot],
    vocabulary: Vocabulary,
) -> set[float]:
    """The numbers beside ``kind``'s word that the other end of its range holds as its value."""
    claimed: set[float] = set()
    for other, found in numbers.items():
        slot = by_kind.get(other)
        bound = vocabulary[other]
        if other == kind.name or slot is None or not (kind.qualifiers and bound.qualifiers):
            continue  # the other end of a range ("$2,900 or more" beside a maximum's word)
        if not set(kind.words) & set(bound.words):
            continue
        claimed |= _numeric_values(phrased(slot.forms())) & set(found)
    return claimed


def _read_slots(
    text: str,
    vocabulary: Vocabulary,
    slots: Sequence[Slot],
    barriers: Sequence[int] = (),
    commas: Sequence[int] = (),
    names: Sequence[str] = (),
) -> _Slots:
    """The kinds a message names, writes the task's value of, and writes another value of.

    A choice between values (``buy or rent``) is a question: it writes neither.
    """
    spans = _inside_values(_resolve(text, _word_spans(text, vocabulary), vocabulary), text, slots)
    named_at = [at for name in names for at in _find(text, name)]
    spans = [  # a word inside a name the request wrote ("Lime Sport API") names no kind
        sp for sp in spans if not any(s <= sp.start and sp.end <= e for s, e in named_at)
    ]
    spans = _to_task_kinds(spans, slots)
    if _YES_NO_START.match(text):  # "a hotel at your destination": where, not what is asked
        spans = [sp for sp in spans if not _LOCATIVE.search(text[max(0, sp.start - 12) : sp.start])]
    elif _TAG.search(text):  # "5 hotel rooms at your destination. Right?"
        spans = [sp for sp in spans if not _AT_YOUR.search(text[max(0, sp.start - 12) : sp.start])]
    focus = _focus(text, spans, barriers)
    if focus is not None:  # "which column should I sort by?": the column alone is asked
        spans = [focus]
    upper = _upper_kinds(vocabulary)
    numbers = _attached(text, spans, barriers, upper, commas, _named_kinds(vocabulary))
    for name, counts in _counted(text, spans, slots).items():
        numbers.setdefault(name, []).extend(counts)
    by_kind = {s.kind: s for s in slots}
    named = {k for span in spans for k in span.kinds}
    open_question = _WH.search(text) is not None
    listed = listed_values(text, vocabulary)
    inside = _inside_longer_value(text, vocabulary, slots, listed)
    right, wrong = set(), set()
    index = _kind_index(vocabulary)
    # only the kinds with a value of the task's, a value written or a number beside their word
    # (RapidAPI's vocabulary has about 200 kinds), in the vocabulary's order
    present = {*by_kind, *listed, *(k for k, found in numbers.items() if found)} & index.keys()
    ordered: Any = (vocabulary.kinds[n] for n in sorted(present, key=index.__getitem__))
    for kind in ordered:  # (Any: the name is a kind's name in the loops below)
        slot = by_kind.get(kind.name)
        forms = phrased(slot.forms()) if slot is not None else ()
        if (
            not listed.get(kind.name)
            and not numbers.get(kind.name)
            and not any(needle in text for needle in _needles(forms))
        ):
            continue  # nothing of the kind's written, listed or beside a number: none of the
            # readings below would find anything (most of a task's kinds, at most messages)
        numeric = _numeric_values(forms)
        written = any(
            _writes_value(text, kind.name, at, spans)
            and not _bounded(text, at[0], _upper(kind))
            and not inside(at)
            and not _NEGATED.search(text[max(0, at[0] - 16) : at[0]])
            for f in _unnumbered(forms)
            if f in text  # (most are not: no call)
            for at in _find(text, f)
        )
        mentioned = {
            i
            for i, at in listed.get(kind.name, ())
            if _writes_value(text, kind.name, at, spans)
            and not inside(at)
            and not _NEGATED.search(text[max(0, at[0] - 16) : at[0]])
        }
        if not written and (
            _written_flipped(text, forms)
            or any(
                number in text and any(_find(text, f) for f in units)
                for number, units in _other_units(forms)
            )
        ):
            wrong.add(kind.name)  # "whose unit cost is above 13" for "below 13"; "26 lb"
            named.add(kind.name)
            continue
        own = _own_values(kind.values, forms)
        others = mentioned - own
        attached = numbers.get(kind.name, [])
        if slot is None and attached and (other := _swapped_bound(kind.name, attached, by_kind)):
            wrong.add(other)  # "a minimum rent of $1,800" where 1,800 is the task's maximum
            named.add(other)
            named.discard(kind.name)
            continue
        choice = len(mentioned) + (written and not mentioned & own) >= 2
        choice = choice or (open_question and len(set(attached)) >= 2 and not _RANGE.search(text))
        choice = choice or (open_question and bool(mentioned) and " or " in text)  # "Which
        # room type: Standard, Double or Suite?": a value offered among others, not checked
        if open_question and kind.name not in named and not choice:
            continue  # "what floor should the apartment be on": the apartment is context
        if written or mentioned:
            named.add(kind.name)
        if others:
            if not choice:
                wrong.add(kind.name)  # one other value: checked, wrongly
        elif written or mentioned or numeric & set(attached):
            right.add(kind.name)
        elif attached and set(attached) <= _claimed(kind, numbers, by_kind, vocabulary):
            named.discard(kind.name)  # "$2,900 or more": the minimum's value, no maximum
        elif attached:
            wrong.add(kind.name)
    for kind, ok in {
        **_dated(text, spans, slots, barriers),
        **_paired(text, vocabulary, slots),
    }.items():
        named.add(kind)
        if ok:
            right.add(kind)
            wrong.discard(kind)
        elif kind not in right:
            wrong.add(kind)
    for kind in reversed_route(text, vocabulary, slots) | swapped_labels(text, vocabulary, slots):
        named.add(kind)  # each value right, the way or the labels wrong
        right.discard(kind)
        wrong.add(kind)
    for slot in slots:  # "Sales, salary 93,684, 6 years" writes "department Sales, salary ..."
        if slot.kind in wrong and _writes_each_part(text, slot.text):
            wrong.discard(slot.kind)
            right.add(slot.kind)
        if slot.kind in right and _mislabelled_part(text, slot.text):
            right.discard(slot.kind)  # "planned 1279 and actual 860" for "planned 860 and ..."
            wrong.add(slot.kind)
    for kind in list(named):  # a shared word whose other kind has a value was about that one
        shared = [sp for sp in spans if kind in sp.kinds]
        if (
            shared
            and kind not in right | wrong
            and all(len(sp.kinds) > 1 and sp.kinds & (right | wrong) for sp in shared)
        ):
            named.discard(kind)
    if right or wrong or _TAG.search(text) or _CONFIRM.search(text):
        # a check: a kind named by its weak words alone needs a number there, or a question
        # about it ("What cost and price should it have?")
        starts = [0, *barriers]
        weak: Any = (
            vocabulary.kinds[n] for n in sorted(named & index.keys(), key=index.__getitem__)
        )
        for kind in weak:
            if kind.weak and kind.name not in right | wrong:
                strong = {_phrase(w) for w in kind.words}
                asked_of = False
                for span in sorted(spans, key=lambda sp: sp.start):
                    if kind.name not in span.kinds:
                        continue
                    before = text[max(b for b in starts if b <= span.start) : span.start]
                    if text[span.start : span.end] in strong or _WEAK_FOCUS.search(before):
                        asked_of = True
                    elif asked_of and _JOINED_BEFORE.search(before):
                        continue
                if not asked_of:
                    named.discard(kind.name)
    if _WHERE_ASKED.search(text) and not _WHAT_ASKED.search(text):
        # "Where in the table should I place the new row?": what is placed is not asked
        for kind in [vocabulary.kinds[n] for n in named & index.keys()]:
            if kind.weak and kind.name not in right | wrong:
                strong = {_phrase(w) for w in kind.words}
                if not any(
                    kind.name in sp.kinds and text[sp.start : sp.end] in strong for sp in spans
                ):
                    named.discard(kind.name)
    for span in spans:  # a shared word beside a word of one of its kinds is that one's
        if len(span.kinds) < 2:
            continue
        starts = [0, *barriers]
        first = max(b for b in starts if b <= span.start)
        last = min((b for b in barriers if b > span.start), default=len(text))
        beside = {
            k
            for sp in spans
            if sp is not span and first <= sp.start < last and sp.kinds < span.kinds
            for k in sp.kinds
        }
        dropped = span.kinds - beside
        if beside and not any(k in right | wrong for k in dropped):
            for kind in dropped:
                if not any(kind in sp.kinds for sp in spans if sp is not span):
                    named.discard(kind)
    return _Slots(
        tuple(sorted(named & index.keys(), key=index.__getitem__)),
        tuple(s.kind for s in slots if s.kind in right),
        tuple(sorted(wrong & index.keys(), key=index.__getitem__)),
        bool(spans),
        tuple((k, sp.start) for sp in spans for k in sorted(sp.kinds)),
    )


def mentioned_kinds(text: str, vocabulary: Vocabulary) -> tuple[str, ...]:
    """The slot kinds whose words normalized ``text`` holds (a longer match hides a shorter one).

    >>> from toolgym.simulators.user.slots import SlotKind
    >>> v = Vocabulary([SlotKind("max_price", ("maximum price", "budget")),
    ...                 SlotKind("price", ("price",))], "homes")
    >>> mentioned_kinds("what is your maximum price", v)
    ('max_price',)
    """
    spans: list[tuple[int, int, str]] = []
    for kind in vocabulary:
        for word in kind.words:
            phrase = normalized(word)
            if phrase and phrase not in text:
                continue
            for m in whole_words(phrase).finditer(text):
                spans.append((m.start(), m.end(), kind.name))
    kept = {
        name
        for start, end, name in spans
        if not any(
            s <= start and end <= e and (e - s) > (end - start) and n != name for s, e, n in spans
        )
    }
    return tuple(k.name for k in vocabulary if k.name in kept)


def stated_slots(text: str, slots: Sequence[Slot]) -> tuple[str, ...]:
    """The kinds of ``slots`` whose value normalized ``text`` writes (any form, anywhere)."""
    return tuple(s.kind for s in slots if any(contains_phrase(text, f) for f in s.forms()))


def present_first(found: _Slots, slots: Sequence[Slot]) -> _Slots:
    """``found`` without the kinds the task lacks where one word names a kind it has.

    ``Which city?`` names the origin, the destination and the hotel's city; in a task of a
    hotel alone it is the hotel's city (a kind read only there is left out).
    """
    present = {s.kind for s in slots}
    by_place: dict[int, set[str]] = {}
    for kind, place in found.at:
        by_place.setdefault(place, set()).add(kind)
    dropped = {
        kind
        for kinds in by_place.values()
        if len(kinds) > 1 and kinds & present
        for kind in kinds - present
    }
    if not dropped:
        return found
    at = tuple((k, p) for k, p in found.at if not (k in dropped and by_place[p] & present))
    still = {k for k, _ in at}
    gone = {k for k in dropped if k not in still}
    return _Slots(
        tuple(k for k in found.named if k not in gone),
        found.right,
        found.wrong,
        found.worded,
        at,
    )


_DATED = compiled(r"(?<![0-9a-z])([a-z]+ \d{1,2}) (\d{4})(?![0-9a-z])")
"""A month, a day and a year (``november 30 2026``)."""


def misdated(found: _Slots, text: str, slots: Sequence[Slot], vocabulary: Vocabulary) -> _Slots:
    """``found`` with the date kinds read as right whose day ``text`` writes in another year.

    A task's date is found by its month and day too (``Nov 30``); written with a year
    (``Nov 30, 2026`` where the task's is 2027), it is that date, wrong.
    """
    out: set[str] = set()
    for slot in slots:
        if slot.kind not in found.right or not isinstance(slot.value, str):
            continue
        own = _DATED.search(_phrase(slot.text))
        if own is None:
            continue
        for match in _DATED.finditer(text):
            if match.group(1) == own.group(1) and match.group(2) != own.group(2):
                out.add(slot.kind)
    if not out:
        return found
    return _Slots(
        found.named,
        tuple(k for k in found.right if k not in out),
        tuple(k for k in vocabulary.kinds if k in set(found.wrong) | out),
        found.worded,
        found.at,
    )
