"""A task's value written another way: what a message writes wrongly though it looks right.

A comparison turned round (``unit cost is above 13`` for ``below 13``), a difference's operands
swapped (``cost minus price``), another currency, a measure in another unit of its dimension
(``26 lb`` for ``26 ounce``), and a value of labelled parts with a part's number under another
label (``planned 1279 and actual 860``). Each is computed once per value or forms (fixed
through a task) and read against a message by the slot reading
(:mod:`~toolgym.simulators.user.slot_reading`).
"""

from __future__ import annotations

import functools
import re

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.text import _find, _phrase

_COMPARATORS = {
    "below": "above", "above": "below", "under": "over", "over": "under", "less": "more",
    "more": "less", "greater": "less", "lower": "higher", "higher": "lower", "fewer": "more",
}  # fmt: skip
_COMPARATOR = compiled(r"\b(" + "|".join(_COMPARATORS) + r")\b")


_CURRENCY_WORD = compiled(r"\b(dollars|euros|pounds|yen)\b")
_DIFFERENCE = compiled(
    r"(?:the )?([a-z]+)(?: mark| marks| column)? minus (?:the )?([a-z]+)(?: mark| marks| column)?"
)


@functools.lru_cache(maxsize=4096)
def _flipped(forms: tuple[str, ...]) -> tuple[str, ...]:
    """A slot's forms written the wrong way round.

    A condition's comparison the other way (``unit cost is above 13``), a difference's
    operands swapped (``cost minus price``), another currency (``euros with two decimals``).
    """
    flipped = [
        _COMPARATOR.sub(lambda m: _COMPARATORS[m.group(1)], f)
        for f in forms
        if re.search(r"\d", f) and _COMPARATOR.search(f) and len(f.split()) >= 3
    ]
    for f in forms:  # "euros with two decimals" for "dollars with two decimals"
        if (m := _CURRENCY_WORD.search(f)) and len(f.split()) >= 2 and not f[:1].isdigit():
            flipped += [
                f[: m.start()] + other + f[m.end() :]
                for other in ("dollars", "euros", "pounds", "yen")
                if other != m.group()
            ]
    for f in forms:  # "cost minus price" for "price minus cost"
        if (m := _DIFFERENCE.fullmatch(f)) is not None and m.group(1) != m.group(2):
            flipped.append(f"{m.group(2)} minus {m.group(1)}")
    return tuple(flipped)


def _written_flipped(text: str, forms: tuple[str, ...]) -> bool:
    """Whether ``text`` writes a form of :func:`_flipped` and not the form itself as well.

    ``Should it be price minus cost, or cost minus price?`` offers both: no wrong value.
    """
    if not any(_find(text, f) for f in _flipped(forms)):
        return False
    own = {f"{m.group(1)} minus {m.group(2)}" for f in forms if (m := _DIFFERENCE.fullmatch(f))}
    return not any(_find(text, f) for f in own)


_UNITS = (
    (("ounce", "ounces", "oz"), ("pound", "pounds", "lb", "lbs"), ("gram", "grams", "g"),
     ("kilogram", "kilograms", "kg", "kilo", "kilos")),
    (("fl oz", "fluid ounce", "fluid ounces"), ("ml", "milliliter", "milliliters", "millilitre",
     "millilitres"), ("liter", "liters", "litre", "litres", "l"), ("gallon", "gallons", "gal")),
    (("square feet", "square foot", "sq ft", "sqft"), ("square meters", "square metres",
     "square meter", "square metre", "sq m", "m2")),
    (("inch", "inches", "in"), ("foot", "feet", "ft"), ("cm", "centimeter", "centimeters",
     "centimetre", "centimetres"), ("meter", "meters", "metre", "metres", "m")),
    (("dollars", "dollar", "usd"), ("euros", "euro", "eur"), ("pounds sterling", "gbp"),
     ("yen", "jpy")),
)  # fmt: skip
"""Units of one dimension, each with the ways it is written (``26 lb`` is no ``26 ounce``)."""
_MEASURED = compiled(r"(\d+(?:\.\d+)?) ([a-z]+(?: [a-z]+)?)")


@functools.lru_cache(maxsize=4096)
def _other_units(forms: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A measured value's number in the other units of its dimension (``26 lb`` for ``26 ounce``).

    Each number comes with its forms in the other units: a text without the number writes none.
    """
    out: list[tuple[str, tuple[str, ...]]] = []
    for f in forms:
        if (m := _MEASURED.fullmatch(f)) is None:
            continue
        for dimension in _UNITS:
            own = [unit for unit in dimension if m.group(2) in unit]
            if own:
                others = [w for unit in dimension if unit is not own[0] for w in unit]
                out.append((m.group(1), tuple(f"{m.group(1)} {w}" for w in others)))
    return tuple(out)


_PARTS = compiled(r", and |, | and ")
_PART_VALUE = compiled(r"(?:^| )([^ ]+)$")


def _writes_each_part(text: str, value: str) -> bool:
    """Whether ``text`` writes each part of a value of several, in any order and wording.

    ``department Sales, salary 93684 and years 6``: ``Sales``, ``93684`` and ``6``.
    """
    words = _part_values(value)
    return bool(words) and all(_find(text, word) for word in words)


@functools.lru_cache(maxsize=4096)
def _part_values(value: str) -> tuple[str, ...]:
    """The last word of each named part of a value of several (none: not such a value)."""
    parts = [_phrase(p).strip() for p in _PARTS.split(value)]
    if len(parts) < 2 or any(len(p.split()) < 2 or _MONTH_FIRST.match(p) for p in parts):
        return ()  # no list of named parts (a date's "July 3, 2027" is none)
    lasts = [_PART_VALUE.search(part) for part in parts]
    return tuple(last.group(1) for last in lasts if last is not None) if all(lasts) else ()


def _mislabelled_part(text: str, value: str) -> bool:
    """Whether ``text`` writes a part's label of a value of several with another number.

    ``planned 1279 and actual 860`` where the value is ``planned 860 and actual 1279``.
    """
    return any(
        float(written.group(1)) != own
        for label, own in _labelled_parts(value)
        for written in label.finditer(text)
    )


_LABELLED = compiled(r"([a-z][a-z ]*) (\d+(?:\.\d+)?)")


@functools.lru_cache(maxsize=4096)
def _labelled_parts(value: str) -> tuple[tuple[re.Pattern[str], float], ...]:
    """Each part's label written with a number, and its own number (a value of several)."""
    parts = [_phrase(p).strip() for p in _PARTS.split(value)]
    labelled = [_LABELLED.fullmatch(p) for p in parts]
    pairs = zip(labelled, parts, strict=True)
    if len(parts) < 2 or any(m is None or _MONTH_FIRST.match(p) for m, p in pairs):
        return ()  # every part a label and its number (no date: "may 4, 2027")
    return tuple(
        (re.compile(rf"\b{re.escape(label)} (?:of |is |= |at |to )?(\d+(?:\.\d+)?)\b"), float(own))
        for label, own in (m.groups() for m in labelled if m is not None)
    )


_MONTH_FIRST = compiled(
    r"(january|february|march|april|may|june|july|august|september|october|november|december)\b"
)
