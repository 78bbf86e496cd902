"""Values a check writes that the reader does not know, and the kinds they belong to.

A check may put a value no vocabulary lists: ``Size medium, correct?`` where the shop's sizes
are others, ``Should the pivot table go in cell E1?``, ``Is it for 2024?``. Such a value is
still the kind's, and wrong: the written token beside a kind's word (a name in capitals, a
token with digits, or for a kind of listed values any word right after its word). A bare value
with no kind's word (``Is it 2024?``) stays a guess the user does not answer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.memo import message_cache
from toolgym.simulators.user.shapes import _kind_words
from toolgym.simulators.user.slots import Slot, Vocabulary, normalize, normalized
from toolgym.simulators.user.text import _DATE, _phrase, date_forms, phrased
from toolgym.simulators.user.typos import MIN_TYPO, _one_edit
from toolgym.simulators.user.word_reads import MessageReads, word_before

_LINK = (
    r"(?:(?:of|is|in|at|on|to|into|for|as|be|equal to|equals|called|named|titled|labell?ed|"
    r"set to|should be|will be|would be|being|go in|goes in|going in)\s+)?"
)
_AFTER = compiled(rf"^ {_LINK}((?:an? |the )?)(\S+)")
_NOT_VALUES = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "by",
        "from",
        "as",
        "is",
        "are",
        "be",
        "it",
        "this",
        "that",
        "these",
        "those",
        "one",
        "ones",
        "any",
        "some",
        "your",
        "you",
        "my",
        "our",
        "their",
        "its",
        "his",
        "her",
        "i",
        "we",
        "they",
        "them",
        "him",
        "us",
        "me",
        "onepron",
        "right",
        "correct",
        "ok",
        "okay",
        "fine",
        "good",
        "yes",
        "no",
        "please",
        "then",
        "also",
        "too",
        "only",
        "just",
        "exactly",
        "instead",
        "now",
        "again",
        "here",
        "there",
        "option",
        "options",
        "value",
        "values",
        "preference",
        "preferences",
        "choice",
        "choices",
        "range",
        "limit",
        "set",
        "selected",
        "chosen",
        "needed",
        "wanted",
        "required",
        "preferred",
        "same",
        "other",
        "else",
        "more",
        "less",
        "correctly",
        "properly",
        "cell",
        "column",
        "row",
        "sheet",
        "table",
        "do",
        "does",
        "did",
        "would",
        "should",
        "will",
        "can",
        "could",
        "shall",
        "may",
        "might",
        "must",
        "have",
        "has",
        "had",
        "want",
        "need",
        "like",
        "get",
        "was",
        "were",
    ]
)
"""Words that stand beside a kind's word without being its value."""


def _forms(slots: Sequence[Slot]) -> set[str]:
    """Every written form of every slot, read as messages are."""
    return {p for s in slots for p in phrased(s.forms()) if p}


_LONG_NOT_VALUES = tuple(w for w in _NOT_VALUES if len(w) >= MIN_TYPO)


def _one_edit_from_no_value(token: str) -> bool:
    """Whether ``token`` is one edit from a word of no value (``a fragrance prefrence``)."""
    return len(token) >= MIN_TYPO and any(_one_edit(token, w) for w in _LONG_NOT_VALUES)


_slip = message_cache(_one_edit_from_no_value)
"""The same, kept for the tokens of the last messages (a message's words recur in its checks)."""


@functools.lru_cache(maxsize=32)
def _listed_heads(vocabulary: Vocabulary) -> frozenset[str]:
    """The first word of every listed value of every kind, read as messages are."""
    return frozenset(
        w.split()[0] for k in vocabulary for group in k.values for w in map(_phrase, group) if w
    )


_NOT_NAMES = frozenset(
    {
        *("whole", "entire", "header", "first", "last", "new", "next", "top", "bottom", "total"),
        *("second", "third", "empty", "blank", "following", "previous", "above", "below"),
        *("matching", "selected", "current", "single", "highlighted", "full", "bold"),
        *("coloured", "colored", "yellow", "green", "red", "blue"),
    }
)
"""Words that stand before ``row`` and name no row (``the whole row``)."""


def _lowercase_name(token: str, slots: Sequence[Slot], kind: str) -> bool:
    """Whether ``token`` before ``row`` is a name like the task's own lowercase one.

    ``the turkey row`` where the task's row is ``crab``: a name, written as the task writes its
    own, in lowercase.
    """
    value = next((s.value for s in slots if s.kind == kind), None)
    return (
        isinstance(value, str)
        and _LOWER_WORD.fullmatch(value) is not None
        and _LOWER_WORD.fullmatch(token) is not None
        and token not in _NOT_NAMES
    )


def beside_words(
    text: str,
    message: str,
    at: Sequence[tuple[str, int]],
    vocabulary: Vocabulary,
    slots: Sequence[Slot],
    known: set[str],
    names: Sequence[str] = (),
    stops: Sequence[int] = (),
) -> set[str]:
    """The kinds whose word ``text`` writes an unknown value beside (``size medium``, ``cell E1``).

    Args:
        text: the message as the reader reads it (:func:`~toolgym.simulators.user.text._sentences`).
        message: the message as written (for capitals).
        at: each kind a word names, with where the word starts.
        vocabulary: the family's kinds.
        slots: the task's slots.
        known: kinds already read as right or wrong (left alone).
        names: names the user's request wrote (no unknown values).
        stops: where sentences and comma parts start (a value does not cross them).
    """
    forms = _forms(slots)
    words = _kind_words(vocabulary)
    listed = _listed_heads(vocabulary)
    named = [normalize(n) for n in names]
    present = {s.kind: _forms([s]) for s in slots}
    others_forms: dict[str, set[str]] = {}
    out: set[str] = set()
    read = MessageReads(message)  # each word's capitals, quotes and settings: read once
    for kind_name, start in at:
        if kind_name in known or kind_name in out:
            continue
        kind = vocabulary[kind_name]
        matched = [w for w in phrased(kind.words) if w and text.startswith(w, start)]
        if not matched:
            continue
        ends = [start + len(w) for w in matched]
        if kind_name in present and any(  # "the Science column": a name inside the word itself
            len(w.split()) > 1
            and read.capitalized(w.split()[0])
            and not any(w.split()[0] in f.split() for f in present[kind_name])
            for w in matched
        ):
            out.add(kind_name)
            continue
        before = word_before(text, start)
        if (  # "the Rent row": a name of the request, not the task's value, before the word
            before is not None
            and kind_name in present
            and not any(before.start(1) < s <= start for s in stops)
            and before.group(1) not in words
            and before.group(1) not in _NOT_VALUES
            and not any(before.group(1) in f.split() for f in present[kind_name])
            and (
                read.capitalized(before.group(1))
                or read.quoted(before.group(1))
                or (
                    text.startswith("row", start)
                    and _lowercase_name(before.group(1), slots, kind_name)
                )
            )
        ):
            out.add(kind_name)
            continue
        end = max(ends)
        if end < len(text) and text[end] != " ":
            continue
        written = text[start:end]
        quote = read.quote_after(written)  # (the same word reads the same quote: searched once)
        if kind_name not in others_forms:
            others_forms[kind_name] = {
                p for s in slots if s.kind != kind_name for p in phrased(s.forms()) if p
            }
        if quote is not None and quote.lower() in (n.lower() for n in names):
            continue  # "q="population"" where the request quoted it for another lookup
        if quote is not None and _phrase(quote) not in others_forms[kind_name]:
            out.add(kind_name)  # "the query 'we will rock you'": a quoted text is a value
            continue  # (not one of another detail's: "Rename 'Price' to what?")
        match = _AFTER.match(text[end:])
        if match is None:
            continue
        token = match.group(2)
        token_at = end + match.start(2)
        if any(end < s <= token_at for s in stops):
            continue  # the next part of the message
        if (token in _NOT_VALUES and not read.upper_case(token)) or token in words:
            continue  # "country code US": a code, not "us"
        if _slip(token):
            continue  # "a fragrance prefrence": a slip of one, no value
        if token in listed:
            continue  # a listed value is read as one (and several offer a choice)
        if any(f.split()[0] == token for f in forms):
            continue
        if any(token in n.split() for n in named):
            continue
        direct = match.start(2) == 1 and not match.group(1)
        if (
            any(c.isdigit() for c in token)
            or read.capitalized(token)
            or read.quoted(token)
            or (direct and kind.values and token.isalpha())
            or read.assigned(written, token)
        ):
            out.add(kind_name)
    return out


_PLACE = compiled(
    r"\b(in|at|near|around|from|to)\s+((?:[A-Z][a-z]+\.?)(?:\s[A-Z][a-z]+\.?){0,2})\b"
)
_PLACE_WORDS = frozenset({"city", "location", "town", "country"})


def _place_kind(kind_words: tuple[str, ...], value: object) -> bool:
    """Whether a kind names a place (a city's word) and its value is a name (``Salt Lake City``)."""
    return (
        _names_places(kind_words) and isinstance(value, str) and bool(_PLACE_NAME.fullmatch(value))
    )


@functools.lru_cache(maxsize=1024)
def _names_places(kind_words: tuple[str, ...]) -> bool:
    """Whether a kind's words hold a place's word (``city``): once per kind."""
    return not _PLACE_WORDS.isdisjoint(w for phrase in kind_words for w in phrase.split())


def unknown_places(
    message: str,
    vocabulary: Vocabulary,
    slots: Sequence[Slot],
    known: set[str],
    names: Sequence[str] = (),
) -> set[str]:
    """The place kinds a check writes an unknown name of (``A Queen Bed room in Denver, right?``).

    ``in``, ``at`` or ``near`` a name is the one place kind of the task that is no end of a
    pair (a hotel's city, a home's location); ``from`` and ``to`` a name are the two ends of
    the pair of places. A name the request wrote, or any value of the task, is no unknown one.
    """
    places = [
        s.kind
        for s in slots
        if s.kind in vocabulary and _place_kind(vocabulary[s.kind].words, s.value)
    ]
    if not places:
        return set()
    values = {normalized(f) for s in slots for f in s.forms() if f}
    written = [normalize(n) for n in names]
    ends = {k: i for pair in vocabulary.pairs for i, k in enumerate(pair)}
    out: set[str] = set()
    for match in _PLACE.finditer(message):
        name = normalize(match.group(2))
        if any(name in v or v in name for v in values if v) or any(name in n for n in written):
            continue
        word = match.group(1)
        role = []
        if word in ("from", "to"):
            role = [k for k in places if ends.get(k) == (0 if word == "from" else 1)]
        if word not in ("from", "to") or (
            not role and word == "to" and _NARROWED.search(message[: match.start()])
        ):
            role = [k for k in places if k not in ends]  # "filtered to Spain": where, no end
        if len(role) > 1:  # "in Canada" beside a city and a country: the country
            country = name in _country_names()
            role = [k for k in role if ("country" in k.split("_")) == country]
        if len(role) == 1 and role[0] not in known:
            out.add(role[0])
    return out


_NARROWED = compiled(r"\b(filtered|limited|restricted|narrowed|only)\s*$", re.IGNORECASE)
"""``filtered to Spain``: a place the lookup is kept to, not the end of a trip."""


@functools.cache
def _country_names() -> frozenset[str]:
    """The world's country names, read as messages are (Faker's list, loaded when first needed)."""
    from faker.providers import date_time

    return frozenset(normalize(c.name) for c in date_time.Provider.countries)


_LONG_NUMBER = compiled(r"(?<![\d.])\d{3,}(?:\.\d+)?(?![\d.])")
_NUMBER = compiled(r"\d+(?:\.\d+)?")
_LOWER_WORD = compiled(r"[a-z]{3,}")
_PLACE_NAME = compiled(r"[A-Z][A-Za-z.'-]*(?: [A-Z][A-Za-z.'-]*)*")


def _digits(value: object) -> int | None:
    """How many digits the whole part of a numeric value has (``None`` for no number)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return len(str(int(abs(value))))
    if isinstance(value, str) and _NUMBER.fullmatch(value.strip()):
        return len(value.strip().split(".")[0].lstrip("0") or "0")
    return None


def summary_numbers(text: str, slots: Sequence[Slot], known: set[str]) -> set[str]:
    """The kinds a long unknown number in a summary is the only candidate of (``Samsung, 2023?``).

    Read only in a check that writes some of the task's values rightly (a summary of the
    request, not a bare guess): a number of three or more digits that is no value of the task,
    outside a date, is a wrong value of the one slot, not yet read, whose numeric value has as
    many digits.
    """
    dates = [m.span() for m in _DATE.finditer(text)]
    values = {float(s.value) for s in slots if _digits(s.value) is not None}
    out: set[str] = set()
    for match in _LONG_NUMBER.finditer(text):
        if any(s <= match.start() < e for s, e in dates) or float(match.group()) in values:
            continue
        owners = [s.kind for s in slots if _digits(s.value) == _digits(match.group())]
        if len(owners) == 1 and owners[0] not in known:
            out.add(owners[0])
    return out


def summary_dates(
    text: str, slots: Sequence[Slot], known: set[str], wrong: Sequence[str] = ()
) -> set[str]:
    """The date kind an unknown date in a summary is the only candidate of.

    Read only in a check that writes some of the task's values rightly (``Boise to Buffalo on
    January 20, 2027?``): a date that is no date of the task is a wrong value of the one date
    slot not yet read (``checking in Aug 17 and out Aug 25``: the check-out), unless a date kind
    already read as ``wrong`` accounts for it (``check-in Feb 26``); as many unknown dates as
    date slots not yet read are theirs, all wrong.
    """
    dated = date_forms(slots)
    every = set().union(*dated.values()) if dated else set()
    unknown = [
        m.group()
        for m in _DATE.finditer(text)
        if not any(m.group() == f or f.startswith(m.group() + " ") for f in every)
    ]
    unread = [k for k in dated if k not in known]
    if unread and len(unknown) - len(set(wrong) & dated.keys()) >= len(unread):
        return set(unread)  # "September 23 to 29, 2027" where both dates are in August
    return set()


_ROUTE = compiled(
    r"(?<![A-Za-z])([A-Z][a-z]+(?: [A-Z][a-z]+){0,2}) (?:to|->|→|-) ([A-Z][a-z]+(?: [A-Z][a-z]+){0,2})\b"
)


def unknown_route(
    message: str, vocabulary: Vocabulary, slots: Sequence[Slot], known: set[str]
) -> set[str]:
    """The end of a pair of places a route names wrongly (``So Houston to Denver?``).

    ``A to B`` between two names, one of them the task's value of its end, writes the other
    end too: when it is no value of the task, that end is wrong.
    """
    by_kind = {s.kind: s for s in slots}
    out: set[str] = set()
    for match in _ROUTE.finditer(message):
        first = normalize(match.group(1)).split()
        while first and first[0] in _NOT_VALUES | {"so", "ok", "okay", "from", "flying", "going"}:
            first = first[1:]  # "So Houston to Denver?"
        names = [" ".join(first), normalize(match.group(2))]
        before = message[: match.start(1)].rstrip()
        opens = not before or before[-1] in ".!?:;\n"
        if not names[0] or (opens and len(first) == len(normalize(match.group(1)).split())):
            continue  # "Flights to Memphis": a capital that only opens a sentence
        for a, b in vocabulary.pairs:
            if a not in by_kind or b not in by_kind:
                continue
            ends = [{normalized(f) for f in by_kind[k].forms() if f} for k in (a, b)]
            right = [names[i] in ends[i] for i in (0, 1)]
            if right[0] != right[1]:
                kind = b if right[0] else a
                wrong_name = names[0 if right[1] else 1]
                if kind not in known and not any(wrong_name in e for e in ends):
                    out.add(kind)
    return out
