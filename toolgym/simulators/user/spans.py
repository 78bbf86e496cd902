"""Where a message names slot kinds by their words, and which kind a shared word is.

A word several kinds share (``price``) is narrowed by the qualifiers around it; a one-question
message that opens with ``which <kind>`` is about that kind alone (:func:`_focus`).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.positions import WordIndex, word_index
from toolgym.simulators.user.slots import Vocabulary
from toolgym.simulators.user.text import (
    _AFTER_NUMBER,
    _JOIN,
    _find,
    _inflections,
    _phrase,
    phrased,
)

_BEFORE, _AFTER = 6, 6
"""How many words before and after a shared word its qualifiers are looked for in."""


@dataclass(frozen=True)
class _Span:
    """Where a message names slot kinds by a word (several kinds: a word they share)."""

    start: int
    end: int
    kinds: frozenset[str]


_TOKEN = compiled(r"[0-9a-z]+")
_HEAD = compiled(r"[0-9a-z]+(?=[^0-9a-z]|$)")
_ONE_WORD_GAP = compiled(r" ([a-z]+ )?")
_WH_WORD = compiled(r"(what|which|where|when|how|who)\b")
_WHICH_OPENS = compiled(r"(what|which|how many|how much)\b")
_OR_AND = compiled(r" (or|and)\b")


@functools.lru_cache(maxsize=32)
def _word_forms(vocabulary: Vocabulary) -> tuple[tuple[str, str | None, str, bool], ...]:
    """Each kind's words (with their inflections) and counted nouns, read as messages are.

    Each comes with its first word, which a message must hold as a word of its own for the
    form to be found in it (``None``: a form that starts with no letter or digit), its kind, and
    whether it is a counted noun.
    """
    out = []
    for kind in vocabulary:
        for word in (*kind.words, *kind.weak):
            out += [(form, kind.name, False) for form in _inflections(_phrase(word))]
        out += [(_phrase(noun), kind.name, True) for noun in kind.counted]
        out += [  # "number of pics": the count a counted noun names
            (_phrase(f"{lead} {noun}"), kind.name, False)
            for noun in kind.counted
            for lead in ("number of", "how many")
        ]
    return tuple(
        (form, head.group() if (head := _HEAD.match(form)) else None, name, counted)
        for form, name, counted in out
        if form
    )


@functools.lru_cache(maxsize=32)
def _forms_by_head(
    vocabulary: Vocabulary,
) -> tuple[dict[str, tuple[tuple[str, str, bool], ...]], tuple[tuple[str, str, bool], ...]]:
    """:func:`_word_forms` by first word, and those that open with no letter or digit."""
    by_head: dict[str, list[tuple[str, str, bool]]] = {}
    headless = []
    for form, head, name, counted in _word_forms(vocabulary):
        if head is None:
            headless.append((form, name, counted))
        else:
            by_head.setdefault(head, []).append((form, name, counted))
    return {k: tuple(v) for k, v in by_head.items()}, tuple(headless)


_DIRECTION = compiled(r" (from|to|into|out of)$")
"""A word of a kind that ends in its direction (``travelling from``)."""
_CLAUSE_END = compiled(r" *($|[?.!,;:]| and\b| or\b)")
"""What follows a direction that asks (``from?``), unlike one a value follows (``from Madison``)."""


def _word_spans(text: str, vocabulary: Vocabulary) -> list[_Span]:
    """The spans of the kinds' words, a longer match hiding a shorter one of another kind.

    A shorter word that overlaps the end of a longer one and goes on to a direction
    (``where are you travelling`` and ``travelling from``) hides the longer one instead: the
    direction at the end says which end of the trip is asked.

    A counted noun (:attr:`SlotKind.counted`) is a word of its kind after a number only.
    """
    found: list[tuple[int, int, str]] = []
    by_head, headless = _forms_by_head(vocabulary)
    candidates = [*headless]
    for token in set(_TOKEN.findall(text)):  # only forms whose first word the message holds
        candidates += by_head.get(token, ())
    for form, name, counted in candidates:
        if form not in text:  # (most are not: no call)
            continue
        for s, e in _find(text, form):
            if not counted or _AFTER_NUMBER.search(text[max(0, s - 24) : s]):
                found.append((s, e, name))

    def turns(s: int, e: int, start: int, end: int) -> bool:
        # "where are you travelling" + "travelling from": the later word ends in its direction
        return (
            start < e < end
            and s < start
            and _DIRECTION.search(text[start:end]) is not None
            and _CLAUSE_END.match(text, end) is not None
        )

    found.sort()
    starts = [s for s, _, _ in found]
    longest = max((e - s for s, e, _ in found), default=0)
    kept: dict[tuple[int, int], set[str]] = {}
    for start, end, name in found:
        # only the words that overlap this one can hide it (a message of many kind words stays
        # linear): those starting less than the longest word's length before it, or inside it
        near = found[bisect.bisect_left(starts, start - longest) : bisect.bisect_left(starts, end)]
        hidden = any(  # inside a longer word of another kind, or overlapping one
            s < end
            and start < e
            and (e - s) > (end - start)
            and n != name
            and not turns(s, e, start, end)
            for s, e, n in near
        ) or any(n != name and turns(start, end, s, e) for s, e, n in near)
        if not hidden:
            kept.setdefault((start, end), set()).add(name)
    return [_Span(s, e, frozenset(k)) for (s, e), k in sorted(kept.items())]


def _qualified(
    text: str, region: tuple[int, int], kinds: frozenset[str], vocabulary: Vocabulary, before: bool
) -> set[str]:
    """The kinds among ``kinds`` that the qualifiers in ``region`` pick.

    The qualifier nearest the shared word (``before`` it, or after it) picks, with those joined
    to it (``minimum and maximum``); when it picks several kinds and every other qualifier in
    the region picks a narrower set of them, that set (``when does your stay start``: the
    check-in, not the check-out).
    """
    part = text[region[0] : region[1]]
    hits = [
        (s, e, k)
        for k in kinds
        for q in phrased(vocabulary[k].qualifiers)
        if q in part
        for s, e in _find(part, q)
    ]
    if not hits:
        return set()
    hits = [  # "lower limit": the minimum's, not the cap's "limit" inside it
        h
        for h in hits
        if not any(o[0] <= h[0] and h[1] <= o[1] and o[1] - o[0] > h[1] - h[0] for o in hits)
    ]
    nearest = max(hits, key=lambda h: h[1]) if before else min(hits, key=lambda h: h[0])
    chain = [h for h in hits if h[0] < nearest[1] and nearest[0] < h[1]]
    picked = {h[2] for h in chain}
    others: dict[tuple[int, int], set[str]] = {}
    for h in hits:
        if h not in chain:
            others.setdefault((h[0], h[1]), set()).add(h[2])
    narrowed = set.intersection(*others.values()) if others else set()
    if narrowed and narrowed < picked:  # "when does your stay start": the check-in alone
        return narrowed
    while True:
        low, high = min(h[0] for h in chain), max(h[1] for h in chain)
        joined = [
            h
            for h in hits
            if h not in chain and _JOIN.fullmatch(part[h[1] : low] if before else part[high : h[0]])
        ]
        if not joined:
            return {h[2] for h in chain}
        chain += joined


_RANGE_WORD = compiled(r"\brange\b|\bbracket\b")


def _resolve(text: str, spans: list[_Span], vocabulary: Vocabulary) -> list[_Span]:
    """Shared words narrowed to the kinds their neighbours pick.

    A word several kinds share (``price``) is narrowed by the qualifiers written just before it
    (``lowest``), else by a word of one of the kinds just before it (``budget of 950 dollars``),
    else by what comes just after it (``price, at minimum``); with none, it names them all.
    """
    words = word_index(text)
    resolved = []
    for span in spans:
        if len(span.kinds) < 2:
            resolved.append(_contradicted(text, span, words, vocabulary))
            continue
        if (end := _end_by_preposition(text, span, vocabulary)) is not None:
            resolved.append(_Span(span.start, span.end, frozenset({end})))
            continue  # "from which city to which city": each end by its preposition
        if _RANGE_WORD.search(text[span.start : span.end]):  # a range names both of its ends,
            near = words.before(span.start, 4)  # unless one is picked before it
            picked = _qualified(
                text, (near[0][0] if near else span.start, span.start), span.kinds, vocabulary, True
            )
            resolved.append(_Span(span.start, span.end, frozenset(picked or span.kinds)))
            continue
        before = words.before(span.start, _BEFORE)
        after = words.after(span.end, _AFTER)
        kinds: set[str] = set()
        for side, region in (
            ("before", (before[0][0] if before else span.start, span.start)),
            ("after", _before_next_part(text, span.end, after[-1][1] if after else span.end)),
        ):
            others = [
                o for o in spans if o is not span and region[0] <= o.start and o.end <= region[1]
            ]
            neighbour = (max if side == "before" else min)(
                others, key=lambda o: o.start, default=None
            )
            if neighbour is not None:
                # before: the region reaches back to the nearest other word, which may qualify
                # (``a floor of 900 dollars``); after: it stops short of the words that lead
                # into the next one (``price range and the minimum square footage``)
                if side == "before":
                    region = (neighbour.start, region[1])
                else:
                    lead = words.within(region[0], neighbour.start)
                    region = (region[0], lead[-3][1] if len(lead) >= 3 else region[0])
            kinds = _qualified(text, region, span.kinds, vocabulary, side == "before")
            if not kinds and neighbour is not None and neighbour.kinds < span.kinds:
                kinds = set(neighbour.kinds)
            if not kinds and neighbour is not None and side == "after":
                # "what date will you be arriving at the hotel": a qualifier inside the next
                # word of another kind ("arriving at", the destination's) still picks
                inner = (neighbour.start, neighbour.end)
                kinds = _qualified(text, inner, span.kinds, vocabulary, False)
            if kinds:
                break
        resolved.append(_Span(span.start, span.end, frozenset(kinds or span.kinds)))
    return _narrowed_together(text, _measured_nouns(text, resolved))


_MEASURES = ("how much", "how many")


def _measured_nouns(text: str, spans: list[_Span]) -> list[_Span]:
    """Spans without a ``how much`` that a word of another kind right after it says the measure of.

    ``how much space do you need``: the space, not the price (``how much`` is a price's word).
    """
    out = []
    for i, span in enumerate(spans):
        nxt = spans[i + 1] if i + 1 < len(spans) else None
        if (
            nxt is not None
            and text[span.start : span.end] in _MEASURES
            and not nxt.kinds & span.kinds
            and _ONE_WORD_GAP.fullmatch(text[span.end : nxt.start])
        ):
            continue
        out.append(span)
    return out


_NEXT_PART = compiled(r",? and (?:the|a|an|your) ")


def _before_next_part(text: str, start: int, end: int) -> tuple[int, int]:
    """The region after a shared word, up to the next part of a list (``, and the ...``).

    ``the tour date for Voyage Watch, and the starting address``: ``starting`` is the
    address's, not the date's.
    """
    found = _NEXT_PART.search(text, start, end)
    return (start, found.start() if found else end)


_CLOSE_GAP = compiled(r"\s*(?:[a-z0-9']+\s+){0,3}")
"""At most three words between two words of one quantity (``pay for each room per night``)."""


def _narrowed_together(text: str, spans: list[_Span]) -> list[_Span]:
    """Two close words that name one quantity, each narrowed to the kinds they share.

    ``the most you'd pay per night``: ``pay`` is a cap (the ticket's or the room's) and ``per
    night`` a room price (either bound); together, the room's cap. Only words a short gap with
    no joining word or punctuation parts, and only where they share some but not all kinds.
    """
    out = list(spans)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        shared = a.kinds & b.kinds
        if not shared or (shared == a.kinds and shared == b.kinds) or len(a.kinds | b.kinds) < 3:
            continue
        gap = text[a.end : b.start]
        if _CLOSE_GAP.fullmatch(gap) is None or _JOINED_GAP.search(gap):
            continue
        out[i], out[i + 1] = _Span(a.start, a.end, shared), _Span(b.start, b.end, shared)
    return out


_JOINED_GAP = compiled(r"\b(and|or|nor|plus|then|but|vs|versus)\b")


@functools.lru_cache(maxsize=32)
def _siblings(vocabulary: Vocabulary) -> dict[str, frozenset[str]]:
    """The kinds each kind shares a word with (``min_price`` and ``max_price``: ``price``)."""
    owners: dict[str, set[str]] = {}
    for kind in vocabulary:
        for word in kind.words:
            owners.setdefault(_phrase(word), set()).add(kind.name)
    siblings: dict[str, set[str]] = {}
    for names in owners.values():
        for name in names:
            siblings.setdefault(name, set()).update(names - {name})
    return {name: frozenset(others) for name, others in siblings.items() if others}


_PREPOSITION_BEFORE = compiled(r"\b(from|to|into)\s*$")


def _end_by_preposition(text: str, span: _Span, vocabulary: Vocabulary) -> str | None:
    """The end of a pair a shared word right after ``from`` or ``to`` names, if one pair fits.

    ``to which city``: the destination; ``from which city``: the origin.
    """
    found = _PREPOSITION_BEFORE.search(text[max(0, span.start - 6) : span.start])
    if found is None:
        return None
    pairs = [p for p in vocabulary.pairs if set(p) <= span.kinds]
    if len(pairs) != 1:
        return None
    return pairs[0][0] if found.group(1) == "from" else pairs[0][1]


_JOINED_BEFORE = compiled(r"^(and|or|nor|&|plus)\s*$")


def _contradicted(text: str, span: _Span, words: WordIndex, vocabulary: Vocabulary) -> _Span:
    """A one-kind word that the qualifier right before it gives to a sibling kind.

    ``minimum budget``: ``budget`` names only the maximum price, but ``minimum`` is the minimum
    price's qualifier, and the two share ``price``.
    """
    (kind,) = span.kinds
    siblings = _siblings(vocabulary).get(kind)
    before = words.before(span.start, 2)
    if _WH_WORD.match(text, span.start):
        return span  # "travelling from and where you're going", "where from, where to"
    if not siblings or not before:
        return span
    picked = _qualified(text, (before[0][0], span.start), siblings | {kind}, vocabulary, True)
    if len(picked) != 1 or kind in picked:
        return span
    (other,) = picked
    if _JOINED_BEFORE.search(text[before[-1][0] : span.start]) and (
        (other, kind) in vocabulary.pairs or (kind, other) in vocabulary.pairs
    ):
        return span  # "outbound and return": the other end listed beside it, not its qualifier
    return _Span(span.start, span.end, frozenset(picked))


_LOCATIVE = compiled(r"\b(at|in|near|around) (your|the|my) $")
_FOCUS = compiled(
    r"^(so |and |ok |okay |then |now )?((in|for|from|at|on|by|with|into|to) )?"
    r"(what|which|how many|how much)( is| are| s| was| were)?"
    r"( your| the| an?)?( new| preferred| exact| specific| desired| ideal| main)?( (?!(?:is|are|s|do|does|did|should|would|could|can|will)\b)[a-z]+)? $"
)
_COMPOUND_GAP = compiled(r"/(?:[a-z]+ )?| (?:(?!and\b|or\b|for\b|of\b|in\b|to\b)[a-z]+ )?")
"""What may stand between the nouns of a compound (``company search query``, ``artist/song``)."""
_GENERIC_HEADS = frozenset(
    {"type", "kind", "sort", "name", "number", "id", "code", "header", "heading", "label"}
)
"""Nouns that end a compound without being its detail (``task type``: the task's; ``column
header``: the column's)."""
_OTHER_QUESTION = compiled(r"\b(and|also|plus|as well)\b|\b(what|which|how|where|when|who)\b")


def _focus(text: str, spans: Sequence[_Span], barriers: Sequence[int]) -> _Span | None:
    """The one kind a single question is about, when it opens with it (``which column ...``).

    ``Which column should I sort the table by?`` asks for the column; the sort it is for is
    what the answer is used for. Only a question that asks nothing else, alone or after
    sentences that name no kind.
    """
    if not spans:
        return None
    if barriers:  # "Understood, Raidmatrix then LootPulse. What username should I search for?"
        last = barriers[-1]
        if any(sp.start < last for sp in spans):
            return None
        shifted = [_Span(sp.start - last, sp.end - last, sp.kinds) for sp in spans]
        found = _focus(text[last:], shifted, ())
        return None if found is None else _Span(found.start + last, found.end + last, found.kinds)
    first = min(spans, key=lambda sp: (sp.start, -sp.end))
    opens = _WHICH_OPENS.match(text, first.start)
    if not (_FOCUS.match(text[: first.start]) or (not text[: first.start] and opens)):
        return None
    if _OTHER_QUESTION.search(text[first.end :]):
        return None
    if text[first.start : first.end] in ("how much", "how many", "what", "which"):
        after = [  # "how much living space": the space, not the price, is counted
            sp
            for sp in spans
            if sp.start > first.start and _ONE_WORD_GAP.fullmatch(text[first.end : sp.start])
        ]
        if after and not after[0].kinds & first.kinds:
            first = after[0]
    while True:  # "the company search query", "artist/song query": the last noun is the head
        head = [
            sp
            for sp in spans
            if sp.start > first.end
            and len(sp.kinds) == 1
            and not sp.kinds & first.kinds
            and _COMPOUND_GAP.fullmatch(text[first.end : sp.start])
            and text[sp.start : sp.end] not in _GENERIC_HEADS
            and not _OR_AND.match(text, sp.end)  # "column: cost or price"
        ]
        if not head:
            break
        first = head[0]
    others = {k for sp in spans if sp.end <= first.start or sp.start >= first.end for k in sp.kinds}
    if len(first.kinds) > 1 and first.kinds & others:  # "which airport ... flying out of"
        return _Span(first.start, first.end, first.kinds & others)
    return first
