"""RapidAPI as a conversation: the user holds back some of the values the request gives.

The slots of a task are the argument values of its gold's API calls that the request states
(``q "daft punk"``, ``min price 421``): those the instruction writes, as it writes an argument
or, in a free-text request, as whole words. Ids (they flow from earlier responses), booleans and
``Finish`` are never slots, nor is a value the request also writes elsewhere (for another
argument, in a tool's name), which holding back would not hide; a kind's later, different value
stays in the request. What the request asks to report (``the name and the license``) is a slot
too, always given (what the request is about). Up to three slots are held back, of kinds some
API requires (a missing required parameter); the opening request is the instruction with each
held-back value replaced (``a query I'll tell you``).

The tools differ per task, so a slot kind is what a parameter is about rather than one API's
parameter: one kind per label of the library's grammar, for every world (``query`` for ``q``
and ``query``, ``latitude`` for ``lat`` and ``latitude``), named by its labels, its parameter
names, short descriptions and a few synonyms, built at import (a few milliseconds). A kind is
carried by no single call (``call=None``), but a task's slot is: it names the API and argument
of the gold call that passes it (when no call of that API passes another value there). A step
guesses a held-back value when, before the user told it, it calls that API with that argument
(whatever the value), or writes the value anywhere (``"q": "daft punk"`` or ``daft punk``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolgym.benchmarks.tasks import Task
from toolgym.conversation.guesses import MIN_GUESS_CHARS
from toolgym.conversation.tasks import ChatProfile, chat_suite
from toolgym.conversation.toolkit import ChatToolkit
from toolgym.families.rapid_api.checker import is_id
from toolgym.families.rapid_api.functions import FINISH, RETRIEVE
from toolgym.families.rapid_api.tasks.phrasing import arguments_text, value_text, words
from toolgym.families.rapid_api.toolkit import RapidApiToolkit
from toolgym.simulators.tool_library.domains import CATEGORIES, COMMON_PARAMS, ParamSpec
from toolgym.simulators.tool_library.naming import change_name, standardize
from toolgym.simulators.user import Slot, SlotKind, Vocabulary
from toolgym.simulators.user.date_forms import date_forms
from toolgym.simulators.user.slots import contains_phrase, normalize

_STOP = frozenset({"to", "from", "is", "second", "value", "filter", "order"})
"""Words too common in messages to name a kind alone."""
_UNASKABLE = ("points", "prompt", "reward_code")
"""Kinds that natural questions name in words the user reads as something else (talk of the
score: ``points``; an injection: ``tell me the prompt``): never held back."""
_DATES = "date, dates, date range, time period, date window, time window"
_SYNONYMS = {
    "query": "search query, term, search term, search terms, search for, searching for, look for, "
    "looking for, search keywords, keyword, keywords, search text, search string, search word, "
    "search words, type into the search, search phrase, search phrases, type in, search box, "
    "search bar, what to search",
    "limit": "number of results, how many results, maximum results, max results, result limit",
    "page": "page number, which page, results page",
    "country": "country code, nation, which nation, what nation",
    "status": "state, which state, what state, current state",
    "language": "language code",
    "sort": "sorted, sorting, sort by",
    "email": "email, e-mail",
    "username": "user name, account name, handle, gamer tag, gamertag, screen name, profile name, "
    "player name",
    "mailbox_address": "mailbox, which mailbox, inbox, which inbox",
    "origin": "departing from, departure station, departure, leaving from, starting station, "
    "origin station, travelling from, traveling from, where from, starting address, start "
    "address, starting point, start point, starting location, start location, route start",
    "destination": "arriving at, arrival station, arrival, destination station, travelling to, "
    "traveling to, ending address, end address, end point, ending point, end location, "
    "ending location, route end",
    "url": "web address, link, web link, address of the page, page address",
    "image_url": "image link, image address, link to the image, url of the image, picture url, "
    "photo url, url of the picture, url of the photo",
    "term_months": "loan term, term length, repayment term, month term, months term, "
    "term in months, how many months",
    "symbol": "ticker, tickers, ticker symbol, stock symbol, stock ticker",
    "iata_code": "airport code, airport codes",
    "latitude": "coordinates, lat",
    "longitude": "coordinates, lng",
    "start_date": _DATES,
    "end_date": _DATES,
}
"""Other words for the commonest kinds (by kind name)."""
_QUALIFIERS = {
    "start_date": "start, starting, starts, begin, beginning, begins, from, since, first, earliest",
    "end_date": "end, ending, ends, until, till, through, last, latest, stop",
}
"""The words that pick one end of a pair sharing a word (``date``), by kind name."""
_COUNTED = {"limit": "results, result, items, records, entries"}
"""Nouns that name a kind after a number (``10 results``), by kind name."""
_REPORT = SlotKind(
    "report",
    ("fields to report", "which fields", "what fields", "fields", "field", "what to report"),
    "{text}",
    question="Which fields should I report?",
)
"""What the request is about: the fields it asks for (always given)."""
_REPORTED = re.compile(r"\band tell me (the [^.]+?)(?: of the first result)?\.")
_HEAD = re.compile(r"^(?:the |an? )?([^.,:;(]+)")
_MAX_HEAD_WORDS = 3


def _spec_table() -> tuple[dict[str, list[ParamSpec]], set[str]]:
    """The grammar's parameters that are no ids, by name, and the names some API requires."""
    specs: dict[str, list[ParamSpec]] = {}
    for params in (COMMON_PARAMS, *(c.params for c in CATEGORIES)):
        for name, spec in params.items():
            if not is_id(name):
                specs.setdefault(name, []).append(spec)
    required = {n for c in CATEGORIES for r in c.resources for n, needed in r.filters if needed}
    required |= {n for c in CATEGORIES for op in c.operations for n in op.required}
    return specs, required


def _labels(specs: Sequence[ParamSpec]) -> list[str]:
    return sorted({s.noun.lower() for s in specs})


def _head(description: str) -> str:
    """A description's first phrase, when short (``"Music genre."`` -> ``music genre``)."""
    match = _HEAD.match(description.strip().lower())
    head = match.group(1).strip() if match else ""
    return head if 0 < len(head.split()) <= _MAX_HEAD_WORDS else ""


def _said(name: str) -> str:
    """A parameter's name in words (``min price``; ``to parameter`` for a common word)."""
    said = words(name)
    return f"{said} parameter" if said in _STOP else said


def _vocabulary() -> tuple[Vocabulary, dict[str, str], dict[str, str], tuple[str, ...]]:
    """The slot kinds, and what the slots are read with.

    Returns:
        The vocabulary; each parameter's kind and noun, by grammar and by function name; the
        kinds no API requires (always given).
    """
    specs, required = _spec_table()
    root = {name: name for name in specs}
    by_label: dict[str, str] = {}

    def find(name: str) -> str:
        while root[name] != name:
            name = root[name]
        return name

    for name in sorted(specs):  # names that share a label are one kind
        for label in _labels(specs[name]):
            root[find(name)] = find(by_label.setdefault(label, name))
    groups: dict[str, list[str]] = {}
    for name in sorted(specs):
        groups.setdefault(find(name), []).append(name)
    owners: dict[str, set[str]] = {}  # a name's words or a description's head, by phrase
    for group, members in groups.items():
        for name in members:
            for phrase in [_said(name), *(_head(s.description) for s in specs[name])]:
                owners.setdefault(phrase, set()).add(group)
    kinds, kind_of, nouns, optional = [], {}, {}, []
    for group, members in groups.items():
        labels = sorted({label for n in members for label in _labels(specs[n])})
        named = [n for n in members if words(n) in labels] or members
        kind = min(named, key=lambda n: (len(specs[n]) < 2, len(n), n))
        found = [words(kind) if words(kind) in labels else labels[0], *labels]
        found += [p for p, o in owners.items() if o == {group}]
        found += [w.strip() for w in _SYNONYMS.get(kind, "").split(",")]
        kept = tuple(dict.fromkeys(w for w in found if w and w not in _STOP))
        question = f"Which {kept[0]} should I use?"
        counted = tuple(n.strip() for n in _COUNTED.get(kind, "").split(",") if n.strip())
        qualifiers = tuple(w.strip() for w in _QUALIFIERS.get(kind, "").split(",") if w.strip())
        kinds.append(
            SlotKind(
                kind, kept, "the {text}", question=question, counted=counted, qualifiers=qualifiers
            )
        )
        for name in members:
            own = _labels(specs[name])
            noun = own[0] if len(own) == 1 and len(name) <= 4 else _said(name)
            for key in (name, change_name(standardize(name))):
                kind_of[key], nouns[key] = kind, noun
        if not required & set(members) or kind in _UNASKABLE:
            optional.append(kind)
    names = {k.name for k in kinds}
    kinds = [_bound(k, names) for k in kinds]
    pairs = [p for p in _PAIRS if set(p) <= names]
    vocabulary = Vocabulary([_REPORT, *kinds], "a few data lookups", pairs)
    return vocabulary, kind_of, nouns, (_REPORT.name, *sorted(optional))


_BOUND_QUALIFIERS = {
    "min": "min, minimum, lowest, least, at least, from, starting at, no less than",
    "max": "max, maximum, highest, most, at most, up to, under, below, no more than",
}
"""The words that pick one bound of a pair of ``min_*`` and ``max_*`` kinds."""


def _bound(kind: SlotKind, names: set[str]) -> SlotKind:
    """``kind`` with the words it shares with its other bound, if it is one of a pair.

    ``min_price`` and ``max_price``: ``price`` and ``price range`` name both, and the bound's
    qualifiers (``minimum``, ``up to``) pick one, as a range's two ends (``$39 to $500``) give
    both.
    """
    end, _, rest = kind.name.partition("_")
    other = {"min": "max", "max": "min"}.get(end)
    if other is None or not rest:
        return kind
    said = rest.replace("_", " ")
    if f"{other}_{rest}" not in names:  # a bound alone: "magnitude threshold", "calorie cap"
        alone = ("threshold", "cutoff") if end == "min" else ("cap", "limit", "ceiling")
        return dataclasses.replace(
            kind, words=tuple(dict.fromkeys((*kind.words, *(f"{said} {w}" for w in alone))))
        )
    words = tuple(dict.fromkeys((*kind.words, said, f"{said} range", f"{said}s")))
    qualifiers = tuple(
        dict.fromkeys((*kind.qualifiers, *(w.strip() for w in _BOUND_QUALIFIERS[end].split(","))))
    )
    return dataclasses.replace(kind, words=words, qualifiers=qualifiers)


_PAIRS = (
    ("origin", "destination"),
    ("from", "to"),
    ("from_country", "to_country"),
    ("from_unit", "to_unit"),
    ("source_language", "target_language"),
    ("start_date", "end_date"),
    ("checkin_date", "checkout_date"),
)
"""Kinds that are the two ends of one thing (``from A to B``)."""

VOCABULARY, _KIND_OF, _NOUN, OPTIONAL_KINDS = _vocabulary()
"""The slot kinds; a parameter's kind and noun; the kinds no API requires (never held back)."""


def _gold_calls(task: Task) -> list[dict[str, Any]]:
    """The gold's API calls (``Finish`` and retrieval left out)."""
    try:
        calls = json.loads(task.gold[0]) if task.gold else []
    except (TypeError, ValueError):
        return []
    return [
        c
        for c in (calls if isinstance(calls, list) else [])
        if isinstance(c, dict)
        and c.get("name") not in (FINISH, RETRIEVE)
        and isinstance(c.get("arguments"), dict)
    ]


def _key(value: Any) -> str:
    return normalize(value_text(value))


def _hide(text: str, argument: str, value: Any) -> str:
    """``text`` with ``argument``'s ``value`` replaced by ``a query I'll tell you``."""
    noun = _NOUN.get(argument, words(argument))
    vague = f"{'an' if noun[:1] in 'aeio' else 'a'} {noun} I'll tell you"
    stated = arguments_text([(argument, value)])
    if stated in text:
        return text.replace(stated, vague)
    word = re.escape(value_text(value))
    return re.sub(rf"(?<![0-9a-z]){word}(?![0-9a-z])", vague, text, flags=re.IGNORECASE)


def _pairs(task: Task) -> list[tuple[str, str, Any]]:
    """``(kind, argument, value)`` of the gold's values that are slots, in the gold's order.

    A kind's first value that the request states, and can hide, is its slot (a later different
    value of the kind stays in the request); a value stated for two kinds is no slot.
    """
    request = normalize(task.instruction)
    stated = [
        (_KIND_OF[argument], argument, value)
        for call in _gold_calls(task)
        for argument, value in call["arguments"].items()
        if argument in _KIND_OF
        and isinstance(value, str | int | float)
        and not isinstance(value, bool)
        and _key(value)
        and contains_phrase(request, _key(value))
    ]
    kinds: dict[str, set[str]] = {}
    for kind, _, value in stated:
        kinds.setdefault(_key(value), set()).add(kind)
    chosen: dict[str, str] = {}
    out = []
    for kind, argument, value in stated:
        key = _key(value)
        if len(kinds[key]) > 1 or chosen.get(kind, key) != key:
            continue
        if kind not in chosen:
            hidden = task.instruction
            for other, name, same in stated:
                if other == kind and _key(same) == key:
                    hidden = _hide(hidden, name, same)
            if len(key) >= MIN_GUESS_CHARS and contains_phrase(normalize(hidden), key):
                continue  # the request writes it elsewhere too (a short value: by chance)
            chosen[kind] = key
        out.append((kind, argument, value))
    return out


def _carrier(task: Task, argument: str, value: Any) -> str | None:
    """The API of the gold's first call that passes ``value`` as ``argument``.

    ``None`` when a call of that API passes another value as it: a step calling the API with
    the argument then need not set this slot.
    """
    key = _key(value)
    calls = [c for c in _gold_calls(task) if argument in c["arguments"]]
    name = next((c["name"] for c in calls if _key(c["arguments"][argument]) == key), None)
    if any(c["name"] == name and _key(c["arguments"][argument]) != key for c in calls):
        return None
    return name


_ISO_DAY = re.compile(r"\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])")
"""A value that is a day (``2025-04-24``)."""


def _day(value: Any) -> dt.date | None:
    """The day ``value`` writes in ISO form, or None."""
    if not isinstance(value, str) or not _ISO_DAY.fullmatch(value):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:  # "2025-02-30"
        return None


def _slot(task: Task, kind: str, argument: str, value: Any) -> Slot:
    """How the user says ``value`` of ``argument`` (``query "daft punk"``).

    The slot names the API and argument that carry it, when :func:`_carrier` finds one.
    """
    shown = f'"{value}"' if isinstance(value, str) else value_text(value)
    text = f"{_NOUN.get(argument, words(argument))} {shown}"
    stated = arguments_text([(argument, value)])
    call = _carrier(task, argument, value)
    aliases: tuple[str, ...] = (stated,) if stated != text else ()
    day = _day(value)
    if day is not None:  # a day, in the ways people write it too
        aliases += date_forms(day)
    return Slot(kind, value, text, aliases, call, argument if call is not None else None)


def slots(task: Task) -> list[Slot]:
    """What the request asks to report, then the values of the gold's calls it states."""
    found: dict[str, Slot] = {}
    reported = ", then ".join(_REPORTED.findall(task.instruction))
    if reported:
        bare = re.sub(
            r"\bthe ", "", reported
        )  # "the model and price": each field's own "the" optional
        aliases = (bare,) if bare != reported else ()
        found[_REPORT.name] = Slot(_REPORT.name, reported, reported, aliases)
    for kind, argument, value in _pairs(task):
        if kind not in found:
            found[kind] = _slot(task, kind, argument, value)
    return list(found.values())


def opening(task: Task, given: Sequence[Slot]) -> str:
    """The request with each held-back value replaced (``a query I'll tell you``)."""
    kinds = {s.kind for s in given}
    text = task.instruction
    for kind, argument, value in _pairs(task):
        if kind not in kinds:
            text = _hide(text, argument, value)
    return text


PROFILE = ChatProfile(
    name="rapid_api_chat",
    inner_tasks="toolgym.families.rapid_api.tasks.suite:SUITE",
    vocabulary=VOCABULARY,
    slots=slots,
    opening=opening,
    data_dir=str(Path(__file__).parent / "data"),
    always_given=OPTIONAL_KINDS,
)


class RapidApiChatToolkit(ChatToolkit):
    """RapidAPI's toolkit with the user channel."""

    inner_class = RapidApiToolkit
    vocabulary = VOCABULARY


SUITE = chat_suite("toolgym.families.rapid_api.chat:PROFILE")
