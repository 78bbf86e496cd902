"""Coherent values for response fields and arguments, inferred from key names.

:func:`value_kind` reads what a field holds from its key and leaf type (``hotel_id`` is an id,
``checkInDate`` a date, ``fans_num`` a count, ``imageURL`` an image link); :func:`make_value` draws a
realistic value of that kind from a :class:`Draw`, a deterministic source of uniform integers built
on BLAKE2b digests. Values look real: cities, countries and coordinates are real places (capitals,
US cities and Faker's static list of places; never Faker's random generator), people's names come
from census name lists, emails are built from the names, prices have two decimals and dates fall in
2024-2026. :func:`sample_argument` chooses realistic argument values the same way.

A :class:`Scope` makes the fields of one object agree: its city, country, coordinates and time zone
come from one place, its names, user name and email from one person.

>>> value_kind("hotel_id", "str"), value_kind("checkInDate", "str"), value_kind("lat", "float")
('id', 'date', 'latitude')
>>> make_value("date", "str", Draw.of("example")) == make_value("date", "str", Draw.of("example"))
True
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any

from toolgym.simulators.tool_library.key_kinds import (
    CURRENCIES,
    SYMBOLS,
    kind_of_tokens,
    leaf_base,
    singular,
    split_key,
)
from toolgym.simulators.tool_library.model import ParamDoc
from toolgym.simulators.tool_library.value_makers import NUMERIC_ALIASES, NUMERIC_MAKERS, maker_for
from toolgym.simulators.tool_library.value_sources import Draw, Place, Scope

__all__ = [
    "Draw",
    "Place",
    "Scope",
    "leaf_base",
    "make_value",
    "normalize_key",
    "sample_argument",
    "split_key",
    "value_kind",
]


@functools.lru_cache(maxsize=16384)
def normalize_key(key: str) -> str:
    """A key as snake case (``hotelId`` and ``hotel_id`` are both ``hotel_id``)."""
    return "_".join(split_key(key))


@functools.lru_cache(maxsize=16384)
def value_kind(key: str, leaf_type: str, context: str = "") -> str:
    """The kind of value a response field holds, from its key name and leaf type.

    Args:
        key: the field's key (any case style).
        leaf_type: the template's leaf (``str``, ``int``, ``float``, ``bool``, ``NoneType``,
            ``list``, ``dict``, ``str or null``, ...).
        context: what the enclosing object is (``hotel``, ``artist``), when known; it decides
            whether a bare ``name`` is a person's, a company's or a thing's.

    Returns:
        One of :data:`~toolgym.simulators.tool_library.key_kinds.VALUE_KINDS` (for a ``list`` leaf,
        the kind of its elements).
    """
    base = leaf_base(leaf_type)
    if base == "bool":
        return "boolean"
    if base == "null":
        return "null"
    tokens = tuple(singular(t) for t in split_key(key))
    kind = kind_of_tokens(tokens, singular(context.lower()) if context else "")
    if base in ("int", "float"):
        return kind if kind in NUMERIC_MAKERS else NUMERIC_ALIASES.get(kind, "number")
    return kind


def make_value(
    kind: str, leaf_type: str, draw: Draw, hint: str = "", scope: Scope | None = None
) -> Any:
    """A realistic value of ``kind`` as the template's ``leaf_type`` holds it.

    Args:
        kind: a kind from :func:`value_kind`.
        leaf_type: the template's leaf (``str``, ``int``, ``float``, ``bool``, ``NoneType``, ...).
        draw: where the randomness comes from.
        hint: what the value belongs to (``hotel`` for a hotel's name or id), when known.
        scope: the object's shared place and person (a private one when ``None``).

    Returns:
        A string, number, bool, ``None`` (``NoneType`` leaves), a short list (``list`` leaves) or
        an empty object (``dict`` leaves).
    """
    base = leaf_base(leaf_type)
    return maker_for(kind, base)(draw.bits(), base, hint, scope or Scope(draw.bits()))


# ------------------------------------------------------------------------------ arguments

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
_TIME = re.compile(r"^\d{1,2}:\d{2}(:\d{2})?$")
_INTEGER = re.compile(r"^-?\d+$")
_FLOAT = re.compile(r"^-?\d+\.\d+$")
_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)+$")
_PAGE_SIZES = ("limit", "per_page", "page_size", "size", "max_results", "num", "top", "count")


def _default_form(default: Any, name: str, draw: Draw) -> Any:
    """A value of the same form as a documented default, or ``None`` for an unknown form."""
    if not isinstance(default, str) or not default.strip():
        return None
    text = default.strip()
    if "@" in text and "." in text.split("@")[-1]:
        return make_value("email", "str", draw)
    if text.startswith(("http://", "https://")):
        return make_value("url", "str", draw)
    if _DATE.match(text):
        return make_value("date", "str", draw)
    if _DATETIME.match(text):
        return make_value("datetime", "str", draw)
    if _TIME.match(text):
        return make_value("time", "str", draw)
    if _INTEGER.match(text):
        digits = len(text.lstrip("-"))
        low = 10 ** (digits - 1) if digits > 1 else 0
        return str(low + draw(10**digits - low))
    if _FLOAT.match(text):
        return f"{float(make_value(value_kind(name, 'float'), 'float', draw)):.2f}"
    if len(text) == 2 and text.isalpha():
        kind = "country_code" if text.isupper() else "language_code"
        return make_value(kind, "str", draw)
    if len(text) == 3 and text.isupper() and text.isalpha():
        return draw.pick(CURRENCIES) if text in CURRENCIES else draw.pick(SYMBOLS)
    if "," in text and "{" not in text:
        count = len([p for p in text.split(",") if p.strip()])
        kind = value_kind(singular(name), "str")
        return ",".join(str(make_value(kind, "str", draw)) for _ in range(max(count, 1)))
    if _SLUG.match(text):
        return make_value("slug", "str", draw)
    return None


def sample_argument(param: ParamDoc, seed_parts: tuple[Any, ...]) -> Any:
    """A realistic value for ``param``, the same for the same ``seed_parts``.

    The parameter's kind decides the type (numbers for number kinds, booleans, one of the enum's
    values, ``YYYY-MM-DD`` dates, lists for arrays); its documented default, when it has a
    recognisable form (a date, a number, a two-letter code, a slug, a list), decides the form of
    a string; otherwise the parameter's name does (``city`` gets a real city, ``q`` a query).

    Args:
        param: the parameter.
        seed_parts: what makes the choice (task id, parameter position, ...).
    """
    draw = Draw(json.dumps([param.name, *map(str, seed_parts)]).encode("utf-8"))
    kind = param.kind
    name = normalize_key(param.name)
    if param.enum:
        return draw.pick(param.enum)
    if kind == "boolean":
        return draw(2) == 1
    if kind in ("number", "integer"):
        if name in _PAGE_SIZES or name.endswith(("_limit", "_size", "_count")):
            return draw.pick((5, 10, 20, 25, 50))
        if name == "page":
            return 1 + draw(3)
        if name == "offset":
            return 10 * draw(4)
        value_type = "int" if kind == "integer" else "float"
        default = param.default
        if isinstance(default, str) and _INTEGER.match(default.strip()):
            value_type = "int"
        value = make_value(value_kind(param.name, value_type), value_type, draw)
        return int(value) if kind == "integer" else value
    if kind == "date":
        return make_value("date", "str", draw)
    if kind == "time":
        return make_value("time", "str", draw)
    if kind == "array":
        element = value_kind(singular(name), "str")
        return [make_value(element, "str", draw) for _ in range(1 + draw(3))]
    if kind == "object":
        default = param.default
        if isinstance(default, Mapping):
            return dict(default)
        if isinstance(default, str):
            try:
                parsed = json.loads(default)
            except ValueError:
                parsed = None
            if isinstance(parsed, dict):
                return parsed
        return {}
    formed = _default_form(param.default, param.name, draw)
    if formed is not None:
        return formed
    return make_value(value_kind(param.name, "str"), "str", draw, hint=name)
