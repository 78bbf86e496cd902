"""Values a check writes that only the task's own values can place.

The reader knows no vocabulary word for them, but the task's slots tell whose they are: a
number in the unit one slot's value is measured in (``16 inch`` where the size is ``14 inch``),
the one unknown value of a check written where the one left-out detail of its shape would go
(``I'll fetch the forecasts for Delhi. OK?``), and a value the request quotes for one lookup
written under another lookup whose detail is held back (``Reportmouth search with country code
"SE"``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.memo import TASKS_KEPT, per_task
from toolgym.simulators.user.phrases import _QUOTED
from toolgym.simulators.user.slots import Slot, contains_phrase, normalize, normalized, standalone
from toolgym.simulators.user.text import _MONTHS

_CODE_SHAPE = compiled(r"[A-Z]{2,3}")
"""A short code's shape (``FR``, ``USD``)."""
_NOT_ALNUM = compiled(r"[^0-9a-z]")
_NEXT_WORD = compiled(r" ([a-z]+?)s?\b")

_PLACED_NAME = compiled(
    r"\b(?:at|in|into|for|to|from|near|of|with|about|filtered to|filtered by) "
    r"((?:[A-Z][\w'-]*)(?: (?:de |of |the )?[A-Z][\w'-]*)*)"
)
"""A capitalized name placed by a preposition (``for Delhi``, ``filtered to Toronto``)."""
_MONTH_WORD = compiled(rf"(?i)(?:(?:{_MONTHS})\.?|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$")
"""A month or a weekday: a date's, never a name."""
_PAREN_CODE = compiled(r"\(([A-Za-z]{2,3})\)")
"""A code in parentheses (``French (fr)``)."""


_USE_API = compiled(r"\buse ([A-Za-z0-9][\w.&' -]{0,40}?) to\b")
"""Where a request's lookup starts: ``use Love Bulletin Search to get ...``."""
_OPENING_QUOTED = compiled(r"([a-z_ ]{1,24}) \"([^\"]{1,40})\"")


_API_SUFFIX = compiled(r"(?i)(?:[ .](?:api|service|lite|pro|live|v\d|com|io|net|org|ai|app))+$")
"""Words that end a lookup's name and a message may leave out (``Orchid Cure API``)."""


def _squashed(text: str) -> str:
    return _NOT_ALNUM.sub("", text.lower())


@functools.lru_cache(maxsize=TASKS_KEPT)
def _lookups(opening: str) -> tuple[tuple[int, str], ...]:
    """Where each lookup of the request starts, with its name squashed (read once a task)."""
    return tuple(
        (m.start(), _squashed(_API_SUFFIX.sub("", m.group(1)))) for m in _USE_API.finditer(opening)
    )


def given_elsewhere(message: str, slots: Sequence[Slot], opening: str) -> set[str]:
    """Held details a check writes another lookup's quoted value for.

    ``Reportmouth search with country code "SE"`` where the request quotes ``country code "SE"``
    for its Love Bulletin lookup and leaves Reportmouth's out: the message names the lookup the
    detail is held for and not the one the value belongs to, so the value is wrong for it.
    """
    uses = _lookups(opening)
    if len(uses) < 2:
        return set()
    said = _squashed(message)
    lowered = message.lower()
    known = normalized(opening)
    out: set[str] = set()
    for kind, api, value_form, labels in _quoted_for_lookups(slots):
        if api not in said or contains_phrase(known, value_form):
            continue
        for start, label_form, value in _request_quotes(opening):
            owners = [name for at, name in uses if at < start]
            if not owners or owners[-1] == api or owners[-1] in said:
                continue
            if not any(label_form.endswith(label) for label in labels):
                continue
            if any(  # in the clause that names the lookup, not "..., then gyms in Osmanabad"
                api in _squashed(clause) and value.search(clause)
                for clause in _CLAUSE.split(lowered)
            ):
                out.add(kind)
    return out


@per_task
def _quoted_for_lookups(slots: Sequence[Slot]) -> tuple[tuple[str, str, str, frozenset[str]], ...]:
    """Each text slot of one lookup's call: its kind, lookup, normalized value and labels."""
    return tuple(
        (
            slot.kind,
            _slot_lookup(slot) or "",
            normalize(slot.value),
            frozenset({normalize(slot.text.split('"')[0]), normalize(slot.argument or "")} - {""}),
        )
        for slot in slots
        if slot.call and "_for_" in slot.call and isinstance(slot.value, str)
    )


@functools.lru_cache(maxsize=TASKS_KEPT)
def _request_quotes(opening: str) -> tuple[tuple[int, str, re.Pattern[str]], ...]:
    """Each value the request quotes: where, its label normalized, the value as a whole word."""
    return tuple(
        (quote.start(), normalize(quote.group(1)), standalone(quote.group(2)))
        for quote in _OPENING_QUOTED.finditer(opening.lower())
    )


_CLAUSE = compiled(r";\s|\b(?:and )?then\b|\bafter that\b|\bnext\b|\bfinally\b|\bafterwards\b")
"""Where a recap's steps part: each step names its own lookup's values."""


def _slot_lookup(slot: Slot) -> str | None:
    """The squashed name of the lookup whose call carries ``slot`` (``aisleberg``), if any."""
    if not (slot.call and "_for_" in slot.call):
        return None
    return _squashed(_API_SUFFIX.sub("", slot.call.rsplit("_for_", 1)[1].replace("_", " ")))


def asked_elsewhere(
    message: str, kind: str, words: Sequence[str], slots: Sequence[Slot], opening: str
) -> bool:
    """Whether a question for ``kind`` asks for another lookup's value, which the request quotes.

    ``What query should I send to Buywave.com?`` where the request holds back Aisleberg's query
    and quotes Buywave's (``q "quiet features"``): the question names Buywave alone, so
    Aisleberg's query is not asked. ``words``: the kind's words (``q`` is a query's).
    """
    uses = _lookups(opening)
    if len(uses) < 2:
        return False
    said = _squashed(message)
    named = [(at, name) for at, name in uses if name and name in said]
    held = [_slot_lookup(s) for s in slots if s.kind == kind]
    if len(named) != 1 or not held or held[0] is None or held[0] in said:
        return False
    if held[0] not in {name for _, name in uses}:
        return False  # the lookup is named otherwise in the request: no telling
    start = named[0][0]
    end = min((at for at, _ in uses if at > start), default=len(opening))
    labels = {normalize(w) for w in words} - {""}
    quoted = (normalize(q.group(1)) for q in _OPENING_QUOTED.finditer(opening.lower(), start, end))
    return any(label == w or label.endswith(f" {w}") for label in quoted for w in labels)


def _value_class(value: str) -> str | None:
    """Which written values a slot's value can be: ``name``, ``code`` or ``text`` (quoted only)."""
    if not value or len(value.split()) > 4 or "," in value or any(c.isdigit() for c in value):
        return None
    if _CODE_SHAPE.fullmatch(value.upper()) and len(value) <= 3:
        return "code"
    return "name" if value[0].isupper() else "text"


def unplaced(message: str, slots: Sequence[Slot], opening: str, read: set[str]) -> set[str]:
    """The one held kind a check's one unknown value must be written for, if any.

    A check that writes a value neither the request nor the task has (a quoted text, a name
    after a preposition, a code in parentheses: ``I'll fetch the forecasts for Delhi. OK?``)
    writes it for a detail the request left out; when the task leaves out one detail whose
    value can be written that way, the value is that detail's, and a wrong one. Values of
    several shapes, or a shape several details could take, are left alone.
    """
    known = normalized(opening)
    open_slots = [
        (slot, kind)
        for slot in slots
        if slot.kind not in read
        and isinstance(slot.value, str)
        and (kind := _value_class(slot.value)) is not None
        and not contains_phrase(known, normalize(slot.value))
    ]
    if not open_slots:
        return set()
    values = set(slot.value.lower() for slot in slots if isinstance(slot.value, str))
    written: dict[str, str] = {}
    for match in _QUOTED.finditer(message):
        written[match.group().strip("'\"").lower()] = "text"
    for match in _PLACED_NAME.finditer(message):
        after = _NEXT_WORD.match(message, match.end())
        if after is not None and contains_phrase(known, after.group(1)):
            continue  # "with CCS connectors": a value of the connector type the request gives
        if len(match.group(1)) > 2 and not _MONTH_WORD.match(match.group(1)):
            written.setdefault(match.group(1).lower(), "name")
    for match in _PAREN_CODE.finditer(message):
        written[match.group(1).lower()] = "code"
    unknown = {
        w: c
        for w, c in written.items()
        if w and w not in values and not contains_phrase(known, normalize(w))
    }
    if len(unknown) != 1:
        return set()
    ((_, shape),) = unknown.items()
    fits = {slot.kind for slot, kind in open_slots if shape == "text" or kind == shape}
    return fits if len(fits) == 1 else set()


_MEASURE = compiled(
    r"(\d+(?:\.\d+)?)(?: |-| ?(?=(?:mah|gb|tb|mb|mm|cm|ml|kg|oz|lb|lbs|ft|in)$))"
    r"([a-z][a-z.]*(?: [a-z][a-z.]*)?)"
)
"""A slot's value as a number and its unit (``14 inch``, ``8 ounces``, ``2 pack``, ``128gb``);
a unit written against the number only if it is a unit's short form (``3sa`` is a code)."""
_NOT_UNITS = frozenset(
    {"dollar", "dollars", "euro", "euros", "pound sterling", "percent", "am", "pm", "and", "or"}
)
"""Words after a number that are no unit a size is measured in (money is read by its kinds)."""


@functools.lru_cache(maxsize=TASKS_KEPT)
def _units(
    slots: tuple[tuple[str, str, tuple[str, ...]], ...],
) -> dict[str, list[tuple[str, float]]]:
    """Each unit the slots' values are measured in, with the kinds and their numbers.

    ``slots``: each slot's kind, value and other forms (hashable, so the units are found once).
    """
    owners: dict[str, list[tuple[str, float]]] = {}
    for kind, value, forms in slots:
        units: dict[str, float] = {}
        for form in (value, *forms):
            match = _MEASURE.fullmatch(normalized(form))
            if match is not None and match.group(2) not in _NOT_UNITS:
                units[match.group(2)] = float(match.group(1))
        for unit, number in units.items():
            owners.setdefault(unit, []).append((kind, number))
    return owners


def _measured(
    text: str, slots: Sequence[Slot], known: str, read: set[str]
) -> tuple[set[str], set[str]]:
    """The kinds whose value a check writes as a number in the value's own unit: right, wrong.

    A slot whose value is a number and a unit (``14 inch``; its aliases give the unit's other
    spellings: ``8 ounce``, ``8 oz``) is the one kind measured in that unit, so ``16 inch`` in a
    check is that kind's value, and a wrong one. A unit two slots share, a measure the opening
    wrote, and kinds already ``read`` are left alone.
    """
    key = tuple(
        (slot.kind, slot.value, (slot.text, *slot.aliases))
        for slot in slots
        if isinstance(slot.value, str)
    )
    owners = {
        unit: [(kind, number) for kind, number in owned if kind not in read]
        for unit, owned in _units(key).items()
    }
    right: set[str] = set()
    wrong: set[str] = set()
    for unit, owned in owners.items():
        if len({kind for kind, _ in owned}) != 1 or unit not in text:
            continue
        kind, number = owned[0]
        pattern = rf"(?<![\w.])(\d+(?:\.\d+)?) ?-?{re.escape(unit)}(?![\w-])"
        for match in re.finditer(pattern, text):
            if match.group() in known:
                continue
            (right if float(match.group(1)) == number else wrong).add(kind)
    return right, wrong - right
