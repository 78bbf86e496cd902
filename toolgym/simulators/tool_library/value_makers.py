"""The makers of values: 64 random bits in, a realistic value of one kind out.

Each maker in :data:`MAKERS` turns an integer of 64 random bits into a value of one kind (see
:mod:`~toolgym.simulators.tool_library.values` for the kinds), typed as its leaf says: ``str``,
``int`` or ``float`` (the numeric makers take all three, the others only ``str``);
:func:`maker_for` also covers ``bool``, ``null``, ``list`` and ``dict`` leaves.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Sequence
from typing import Any, Literal

from toolgym.simulators.tool_library.key_kinds import (
    ADJECTIVES,
    CURRENCIES,
    DESC_WORDS,
    DESCRIPTIONS,
    GENERIC_CONTAINERS,
    LANGUAGES,
    MESSAGES,
    MONTHS,
    NAME_SUFFIXES,
    NOUNS,
    STATUSES,
    SYMBOLS,
    TITLES,
    WEEKDAYS,
    singular,
)
from toolgym.simulators.tool_library.value_sources import (
    Scope,
    key_constant,
    mix,
    people,
    word_lists,
)

# ------------------------------------------------------------------------------ value makers
#
# A maker turns 64 random bits ``x`` into a value of its kind, typed as ``base`` says (``str``,
# ``int`` or ``float``; the numeric makers take all three, the others only ``str``).

_DAY0 = dt.date(2024, 1, 1).toordinal()
_EPOCH0 = 1_704_067_200  # 2024-01-01T00:00:00Z
_DAYS = 1096  # 2024-01-01 .. 2026-12-31
_STREETS = ("Street", "Avenue", "Road", "Boulevard", "Lane", "Drive", "Way", "Place")
_MAIL_DOMAINS = ("gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com", "proton.me")
_TLDS = ("com", "com", "com", "net", "org", "io")
_COMPANY_SUFFIXES = ("Inc", "LLC", "Group", "Ltd", "and Sons", "PLC")
_BRAND_ENDINGS = ("works", "labs", "ly", "hub", "soft")
_IMAGE_SIZES = ("640/480", "800/600", "1024/768", "300/300", "1280/720")
_CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_INDEX = tuple(key_constant(f"\x00item{i}") for i in range(16))

Maker = Callable[[int, str, str, Scope], Any]


def _typed(value: float, base: str) -> Any:
    if base == "str":
        return str(value)
    return round(value) if base == "int" else float(value)


_PREFIXES: dict[str, str] = {}


def _prefix(hint: str) -> str:
    """The short prefix of an id of a ``hint`` (``hotel`` → ``htl``), or ``""``."""
    found = _PREFIXES.get(hint)
    if found is None:
        letters = "".join(c for c in hint.lower() if c.isalpha())
        short = letters[:1] + "".join(c for c in letters[1:] if c not in "aeiou")
        found = (
            ""
            if not hint or hint in GENERIC_CONTAINERS
            else short[:3]
            if len(short) >= 3
            else letters[:3]
        )
        if len(_PREFIXES) < 4096:
            _PREFIXES[hint] = found
    return found


@functools.lru_cache(maxsize=1024)
def _suffixes(hint: str) -> tuple[str, ...]:
    return NAME_SUFFIXES.get(singular(hint.lower()), ()) if hint else ()


def _id(x: int, base: str, hint: str, scope: Scope) -> Any:
    if base != "str":
        return _typed(100_000 + x % 9_900_000, base)
    prefix = _PREFIXES.get(hint)
    if prefix is None:
        prefix = _prefix(hint)
    return f"{prefix}_{x % 16**6:06x}" if prefix else f"{x % 16**10:010x}"


def _uuid(x: int, base: str, hint: str, scope: Scope) -> Any:
    h = f"{x:016x}{mix(x, _INDEX[0]):016x}"
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{'89ab'[x & 3]}{h[17:20]}-{h[20:]}"


def _name(x: int, base: str, hint: str, scope: Scope) -> Any:
    x, a = divmod(x, len(ADJECTIVES))
    x, n = divmod(x, len(NOUNS))
    suffixes = _suffixes(hint)
    if suffixes:
        return f"{ADJECTIVES[a]} {NOUNS[n]} {suffixes[x % len(suffixes)]}"
    return f"{ADJECTIVES[a]} {NOUNS[n]}"


def _person(x: int, base: str, hint: str, scope: Scope) -> Any:
    first, last = scope.person()
    return f"{first} {last}"


def _first_name(x: int, base: str, hint: str, scope: Scope) -> Any:
    return scope.person()[0]


def _last_name(x: int, base: str, hint: str, scope: Scope) -> Any:
    return scope.person()[1]


def _username(x: int, base: str, hint: str, scope: Scope) -> Any:
    first, last = scope.person()
    return f"{first.lower()}{'_.'[x & 1]}{last.lower()}{(x >> 1) % 100}"


def _email(x: int, base: str, hint: str, scope: Scope) -> Any:
    first, last = scope.person()
    return f"{first.lower()}.{last.lower()}@{_MAIL_DOMAINS[x % len(_MAIL_DOMAINS)]}"


def _company(x: int, base: str, hint: str, scope: Scope) -> Any:
    last = people()[1]
    x, style = divmod(x, 3)
    x, i = divmod(x, len(last))
    if style == 0:
        return f"{last[i]} {_COMPANY_SUFFIXES[x % len(_COMPANY_SUFFIXES)]}"
    if style == 1:
        return f"{last[i]}-{last[x % len(last)]}"
    return f"{NOUNS[i % len(NOUNS)]}{_BRAND_ENDINGS[x % len(_BRAND_ENDINGS)]}"


def _url(x: int, base: str, hint: str, scope: Scope) -> Any:
    words = word_lists()[0]
    x, a = divmod(x, len(words))
    x, b = divmod(x, len(NOUNS))
    x, c = divmod(x, len(_TLDS))
    x, d = divmod(x, len(words))
    return f"https://www.{words[a]}{NOUNS[b].lower()}.{_TLDS[c]}/{words[d]}/{x % 100_000}"


def _image(x: int, base: str, hint: str, scope: Scope) -> Any:
    x, size = divmod(x, len(_IMAGE_SIZES))
    return f"https://picsum.photos/seed/{x % 16**8:08x}/{_IMAGE_SIZES[size]}"


def _phone(x: int, base: str, hint: str, scope: Scope) -> Any:
    x, area = divmod(x, 800)
    x, exchange = divmod(x, 800)
    return f"+1-{200 + area}-{200 + exchange}-{x % 10_000:04d}"


def _place_field(field: int) -> Maker:
    def make(x: int, base: str, hint: str, scope: Scope) -> Any:
        return scope.place()[field]

    return make


def _coordinate(field: Literal[0, 1]) -> Maker:
    def make(x: int, base: str, hint: str, scope: Scope) -> Any:
        value = scope.place()[field] + (x % 2001 - 1000) / 100_000
        if base == "str":
            return f"{value:.5f}"
        return round(value) if base == "int" else round(value, 5)

    return make


def _location(x: int, base: str, hint: str, scope: Scope) -> Any:
    place = scope.place()
    return f"{place.city}, {place.country}"


def _region(x: int, base: str, hint: str, scope: Scope) -> Any:
    place = scope.place()
    return place.region or place.continent


def _street(x: int, base: str, hint: str, scope: Scope) -> Any:
    last = people()[1]
    x, kind = divmod(x, 2)
    x, i = divmod(x, len(last))
    x, suffix = divmod(x, len(_STREETS))
    name = last[i] if kind else NOUNS[i % len(NOUNS)]
    return f"{1 + x % 9999} {name} {_STREETS[suffix]}"


def _address(x: int, base: str, hint: str, scope: Scope) -> Any:
    place = scope.place()
    return f"{_street(x, base, hint, scope)}, {place.city}, {place.country}"


def _zip(x: int, base: str, hint: str, scope: Scope) -> Any:
    code = 10_000 + x % 89_990
    return f"{code:05d}" if base == "str" else _typed(code, base)


_ISO_DAYS = tuple(dt.date.fromordinal(_DAY0 + d).isoformat() for d in range(_DAYS))
_CLOCK = tuple(f"{h:02d}:{m:02d}" for h in range(24) for m in range(60))


def _date(x: int, base: str, hint: str, scope: Scope) -> Any:
    days = x % _DAYS
    if base == "str":
        return _ISO_DAYS[days]
    return _typed(_EPOCH0 + days * 86_400, base)


def _datetime(x: int, base: str, hint: str, scope: Scope) -> Any:
    seconds = x % (_DAYS * 86_400)
    if base != "str":
        return _typed(_EPOCH0 + seconds, base)
    days, rest = divmod(seconds, 86_400)
    return f"{_ISO_DAYS[days]}T{_CLOCK[rest // 60]}:{rest % 60:02d}Z"


def _time(x: int, base: str, hint: str, scope: Scope) -> Any:
    return _CLOCK[x % 288 * 5]


def _month(x: int, base: str, hint: str, scope: Scope) -> Any:
    month = x % 12
    return MONTHS[month] if base == "str" else _typed(month + 1, base)


def _weekday(x: int, base: str, hint: str, scope: Scope) -> Any:
    return WEEKDAYS[x % 7] if base == "str" else _typed(1 + x % 28, base)


def _duration(x: int, base: str, hint: str, scope: Scope) -> Any:
    seconds = 60 * (1 + x % 180)
    if base == "str":
        return f"{seconds // 3600}h {seconds % 3600 // 60:02d}m"
    return _typed(seconds, base)


def _number(low: float, high: float, decimals: int) -> Maker:
    scale = 10**decimals
    first = round(low * scale)
    steps = round(high * scale) - first + 1
    text = f"%.{decimals}f"

    def make(x: int, base: str, hint: str, scope: Scope) -> Any:
        units = first + x % steps  # the value in units of the last decimal
        if base == "float":
            return units / scale
        if not decimals:
            return units if base == "int" else str(units)
        return text % (units / scale) if base == "str" else round(units / scale)

    return make


def _log_number(low_exp: int, high_exp: int) -> Maker:
    def make(x: int, base: str, hint: str, scope: Scope) -> Any:
        return _typed(int(10 ** (low_exp + x % (1000 * (high_exp - low_exp)) / 1000)), base)

    return make


def _status_code(x: int, base: str, hint: str, scope: Scope) -> Any:
    return _typed(200, base)


def _boolean(x: int, base: str, hint: str, scope: Scope) -> Any:
    return "true" if x & 1 else "false"


def _choice(options: Sequence[str]) -> Maker:
    def make(x: int, base: str, hint: str, scope: Scope) -> Any:
        return options[x % len(options)]

    return make


_TITLE_FORMATS = tuple(
    t.replace("{adj}", "{0}").replace("{noun2}", "{2}").replace("{noun}", "{1}").format
    for t in TITLES
)


def _title(x: int, base: str, hint: str, scope: Scope) -> Any:
    x, t = divmod(x, len(TITLES))
    x, a = divmod(x, len(ADJECTIVES))
    x, n = divmod(x, len(NOUNS))
    return _TITLE_FORMATS[t](ADJECTIVES[a], NOUNS[n], NOUNS[x % len(NOUNS)])


def _description(x: int, base: str, hint: str, scope: Scope) -> Any:
    adjectives, nouns = DESC_WORDS
    sentences = []
    for i in range(1 + x % 3):
        x = mix(x, _INDEX[i])
        x, t = divmod(x, len(DESCRIPTIONS))
        x, a = divmod(x, len(adjectives))
        x, a2 = divmod(x, len(adjectives))
        x, n = divmod(x, len(nouns))
        x, n2 = divmod(x, len(nouns))
        template = DESCRIPTIONS[t]
        sentences.append(
            template.format(
                adj=adjectives[a],
                adj2=adjectives[a2],
                noun=nouns[n],
                noun2=nouns[n2],
                city=scope.place().city if "{city}" in template else "",
            )
        )
    return " ".join(sentences)


def make_word(x: int, base: str, hint: str, scope: Scope) -> Any:
    """A plain English word (the maker of unknown kinds)."""
    words = word_lists()[0]
    return words[x % len(words)]


def _query(x: int, base: str, hint: str, scope: Scope) -> Any:
    adjectives, nouns = DESC_WORDS
    x, a = divmod(x, len(adjectives))
    return f"{adjectives[a]} {nouns[x % len(nouns)]}"


def _slug(x: int, base: str, hint: str, scope: Scope) -> Any:
    words = word_lists()[0]
    x, a = divmod(x, len(words))
    x, b = divmod(x, len(words))
    return f"{words[a]}-{words[b]}-{x % 10_000}"


def _token(x: int, base: str, hint: str, scope: Scope) -> Any:
    return f"{x:016x}{mix(x, _INDEX[0]):016x}"


def _code(x: int, base: str, hint: str, scope: Scope) -> Any:
    letters = []
    for _ in range(6):
        x, i = divmod(x, len(_CODE_LETTERS))
        letters.append(_CODE_LETTERS[i])
    return "".join(letters)


def _version(x: int, base: str, hint: str, scope: Scope) -> Any:
    x, major = divmod(x, 4)
    x, minor = divmod(x, 20)
    return f"{1 + major}.{minor}.{x % 10}"


def _ip(x: int, base: str, hint: str, scope: Scope) -> Any:
    x, a = divmod(x, 212)
    x, b = divmod(x, 256)
    x, c = divmod(x, 256)
    return f"{11 + a}.{b}.{c}.{1 + x % 254}"


def _color(x: int, base: str, hint: str, scope: Scope) -> Any:
    colors = word_lists()[1]
    return colors[x % len(colors)]


def _hex_color(x: int, base: str, hint: str, scope: Scope) -> Any:
    return f"#{x % (1 << 24):06X}"


NUMERIC_MAKERS: dict[str, Maker] = {
    "id": _id,
    "zip": _zip,
    "latitude": _coordinate(0),
    "longitude": _coordinate(1),
    "date": _date,
    "datetime": _datetime,
    "year": _number(2010, 2026, 0),
    "month": _month,
    "day": _weekday,
    "hour": _number(0, 23, 0),
    "duration": _duration,
    "price": _number(5, 999.99, 2),
    "salary": _number(30_000, 180_000, 0),
    "percentage": _number(0, 100, 2),
    "change": _number(-9.99, 9.99, 2),
    "rating": _number(3, 5, 1),
    "rank": _number(1, 100, 0),
    "count": _number(0, 500, 0),
    "population": _log_number(3, 7),
    "audience": _log_number(1, 6),
    "temperature": _number(-5, 35, 1),
    "humidity": _number(20, 95, 0),
    "age": _number(18, 80, 0),
    "measure": _number(1, 200, 2),
    "status_code": _status_code,
    "number": _number(0, 1000, 0),
}
"""Makers of the kinds a number can hold (they take ``str``, ``int`` and ``float``)."""

NUMERIC_ALIASES = {"time": "datetime", "status": "status_code", "code": "status_code"}
"""The numeric kind a string kind becomes in a number leaf (other kinds become ``number``)."""

MAKERS: dict[str, Maker] = {
    **NUMERIC_MAKERS,
    "uuid": _uuid,
    "name": _name,
    "person": _person,
    "first_name": _first_name,
    "last_name": _last_name,
    "username": _username,
    "company": _company,
    "city": _place_field(2),
    "region": _region,
    "country_code": _place_field(4),
    "country": _place_field(5),
    "timezone": _place_field(7),
    "location": _location,
    "address": _address,
    "street": _street,
    "email": _email,
    "phone": _phone,
    "url": _url,
    "image": _image,
    "time": _time,
    "currency": _choice(CURRENCIES),
    "status": _choice(STATUSES),
    "message": _choice(MESSAGES),
    "error": _choice(("",)),
    "language": _choice(tuple(name for name, _ in LANGUAGES)),
    "language_code": _choice(tuple(code for _, code in LANGUAGES)),
    "title": _title,
    "description": _description,
    "symbol": _choice(SYMBOLS),
    "color": _color,
    "hex_color": _hex_color,
    "gender": _choice(("male", "female")),
    "boolean": _boolean,
    "slug": _slug,
    "code": _code,
    "token": _token,
    "version": _version,
    "ip": _ip,
    "query": _query,
    "word": make_word,
}
"""The maker of every kind (``word`` for kinds not listed)."""

SCOPED_KINDS = frozenset(
    (
        *("person", "first_name", "last_name", "username", "email", "city", "country"),
        *("country_code", "region", "timezone", "location", "address", "latitude", "longitude"),
        "description",
    )
)
"""The kinds whose makers read the object's :class:`Scope`."""


def _null(x: int, base: str, hint: str, scope: Scope) -> Any:
    return None


def _flag(x: int, base: str, hint: str, scope: Scope) -> Any:
    return bool(x & 1)


def _empty_object(x: int, base: str, hint: str, scope: Scope) -> Any:
    return {}


def _list_of(maker: Maker) -> Maker:
    def make(x: int, base: str, hint: str, scope: Scope) -> Any:
        x, count = divmod(x, 3)
        return [maker(mix(x, _INDEX[i]), "str", hint, scope) for i in range(count + 1)]

    return make


@functools.lru_cache(maxsize=1024)
def maker_for(kind: str, base: str) -> Maker:
    """The maker of a ``kind`` in a leaf of type ``base`` (see :func:`~.key_kinds.leaf_base`)."""
    if base == "null":
        return _null
    if base == "bool":
        return _flag
    if base == "dict":
        return _empty_object
    if base == "list":
        return _list_of(maker_for(kind, "str"))
    if base != "str" and kind not in NUMERIC_MAKERS:
        kind = NUMERIC_ALIASES.get(kind, "number")
    return MAKERS.get(kind, make_word)
