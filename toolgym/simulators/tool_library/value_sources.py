"""Where synthesized values come from: seeds, draws, and what one object's fields share.

:class:`Draw` is a deterministic source of uniform integers built on BLAKE2b digests, and
:func:`mix` derives a new 256-bit seed from a seed and a key's constant with one multiplication,
cheaply enough for one per response field. Places are real (Faker's static list of places with
their countries and capitals, and toolgym's list of US cities; never Faker's random generator);
people's names come from Faker's census name lists. A :class:`Scope` is what one object's fields
share, so that its city, country and coordinates come from one place and its name and email from
one person.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")

SEED_MASK = (1 << 64) - 1
"""Seeds are 64-bit."""
_BIG = 1 << 64
_TOP = 1 << 256


def seed_int(data: bytes) -> int:
    """A 64-bit seed from a BLAKE2b digest of ``data``."""
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


MULTIPLIER = seed_int(b"toolgym value mixer") | 1 | (1 << 63)
"""The odd 64-bit constant of :func:`mix`."""


def key_constant(text: str) -> int:
    """A 64-bit constant for a key (or any text), to :func:`mix` into seeds."""
    return seed_int(b"\x1f" + text.encode("utf-8"))


def mix(seed: int, constant: int) -> int:
    """A new pseudo-random 64-bit seed from a seed and a constant (one multiplication).

    The middle 64 bits of the product of ``seed + constant`` with an odd constant depend on all of
    its bits, so seeds mixed with different constants (the keys of an object's fields, the
    positions of a list's items) look independent. Not for cryptography: for plausible data.
    Because the product distributes, ``seed * MULTIPLIER`` and ``constant * MULTIPLIER`` can be
    computed once each and added per field.
    """
    return (seed + constant) * MULTIPLIER >> 32 & SEED_MASK


_PLACE = key_constant("\x00place")
_PERSON = key_constant("\x00person")


class Draw:
    """A deterministic source of uniform integers: ``draw(n)`` is in ``range(n)``.

    The integers come from BLAKE2b digests of the seed (and a counter once the first digest's
    256 bits run low), so a seed gives the same sequence in any process.

    Args:
        seed: the seed bytes.
    """

    __slots__ = ("_pool", "_round", "_seed")

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._round = 0
        self._pool = _TOP | _digest256(seed)

    @classmethod
    def of(cls, *parts: object) -> Draw:
        """A draw seeded by ``parts`` (joined as text)."""
        return cls("\x1f".join(str(p) for p in parts).encode("utf-8"))

    def bits(self) -> int:
        """A fresh 64-bit seed (for :func:`mix` and the value makers)."""
        self._round += 1
        return seed_int(self._seed + self._round.to_bytes(4, "little"))

    def __call__(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (``0`` when ``n <= 1``)."""
        if n <= 1:
            return 0
        if self._pool < _BIG:
            self._round += 1
            self._pool = _TOP | _digest256(self._seed + self._round.to_bytes(4, "little"))
        self._pool, rest = divmod(self._pool, n)
        return rest

    def pick(self, items: Sequence[T]) -> T:
        """A uniformly chosen element of ``items`` (not empty)."""
        return items[self(len(items))]


def _digest256(data: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(data, digest_size=32).digest(), "little")


class Place(NamedTuple):
    """A real place: coordinates, name, region (a US state), ISO country, continent, time zone."""

    lat: float
    lon: float
    city: str
    region: str
    country_code: str
    country: str
    continent: str
    timezone: str


_EXTRA_COUNTRIES = {
    "HK": ("Hong Kong", "Asia"),
    "MQ": ("Martinique", "North America"),
    "PR": ("Puerto Rico", "North America"),
    "RE": ("Réunion", "Africa"),
    "XK": ("Kosovo", "Europe"),
}


def _us_timezone(state: str, lon: float) -> str:
    special = {"AK": "America/Anchorage", "HI": "Pacific/Honolulu"}
    if state in special:
        return special[state]
    for east, zone in ((-87.0, "America/New_York"), (-101.0, "America/Chicago")):
        if lon > east:
            return zone
    return "America/Denver" if lon > -115.0 else "America/Los_Angeles"


@functools.cache
def _place_groups() -> tuple[tuple[Place, ...], tuple[Place, ...], tuple[Place, ...]]:
    """Capitals, US cities and other real places (Faker's place list, the US city list)."""
    from faker.providers import date_time, geo
    from faker.providers.address import en_US as address

    from toolgym.simulators.places import CITIES

    countries = {c.alpha_2_code: (c.name, c.continent) for c in date_time.Provider.countries}
    countries.update(_EXTRA_COUNTRIES)
    others = tuple(
        Place(float(lat), float(lon), city, "", cc, *countries[cc], tz)
        for lat, lon, city, cc, tz in geo.Provider.land_coords
        if cc in countries
    )
    somewhere = {p.country_code: p for p in reversed(others)}
    capitals = tuple(
        Place(
            near.lat,
            near.lon,
            c.capital,
            "",
            near.country_code,
            c.name,
            c.continent,
            c.timezones[0],
        )
        for c in date_time.Provider.countries
        if (near := somewhere.get(c.alpha_2_code)) is not None and c.capital and c.timezones
    )
    states = dict(zip(address.Provider.states_abbr, address.Provider.states, strict=False))
    us_name, us_continent = countries["US"]
    us_cities = tuple(
        Place(
            c.lat,
            c.lon,
            c.name,
            states.get(c.state, c.state),
            "US",
            us_name,
            us_continent,
            _us_timezone(c.state, c.lon),
        )
        for c in CITIES
    )
    return capitals, us_cities, others


@functools.cache
def _places() -> tuple[Place, ...]:
    capitals, us_cities, others = _place_groups()
    return (*capitals, *us_cities, *others)


def _draw_place(x: int) -> Place:
    capitals, us_cities, others = _place_groups()
    x, group = divmod(x, 10)
    found = capitals if group < 4 else us_cities if group < 6 else others
    return found[x % len(found)]


@functools.cache
def _place_index() -> tuple[dict[str, Place], dict[str, tuple[Place, ...]]]:
    by_city: dict[str, Place] = {}
    by_country: dict[str, list[Place]] = {}
    for place in _places():
        by_city.setdefault(place.city.lower(), place)
        for name in (place.country_code.lower(), place.country.lower()):
            by_country.setdefault(name, []).append(place)
    return by_city, {k: tuple(v) for k, v in by_country.items()}


@functools.cache
def people() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """First names and last names (Faker's US census lists)."""
    from faker.providers.person import en_US as person

    return tuple(person.Provider.first_names), tuple(person.Provider.last_names)


@functools.cache
def word_lists() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Common English words (Faker's lorem list, words of 4 letters or more) and colour names."""
    from faker.providers.color import Provider as Colors
    from faker.providers.lorem.en_US import Provider as Lorem

    words = tuple(w for w in Lorem.word_list if len(w) > 3)
    return words, tuple(Colors.safe_colors)


class Scope:
    """What the fields of one object share: one place, one person.

    Args:
        seed: the object's seed (a non-negative integer).
    """

    __slots__ = ("_person", "_pin", "_place", "_seed")

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._place: Place | None = None
        self._person: tuple[str, str] | None = None
        self._pin: tuple[str, str] | None = None

    def pin(self, kind: str, value: Any) -> None:
        """Tie the place to a given ``city``, ``country`` or ``country_code`` value."""
        if isinstance(value, str) and value.strip() and (self._pin is None or kind == "city"):
            self._pin = (kind, value.strip())
            self._place = None

    def place(self) -> Place:
        """The object's place (the pinned city's or country's, else a drawn one)."""
        if self._place is None:
            x = mix(self._seed, _PLACE)
            place = None
            if self._pin is not None:
                kind, text = self._pin
                by_city, by_country = _place_index()
                if kind == "city":
                    place = by_city.get(text.lower())
                    if place is None:  # an unknown town: somewhere fixed by its name
                        named = seed_int(text.lower().encode("utf-8"))
                        place = _draw_place(named)._replace(city=text)
                else:
                    found = by_country.get(text.lower())
                    place = found[x % len(found)] if found else None
            self._place = place or _draw_place(x)
        return self._place

    def person(self) -> tuple[str, str]:
        """The object's person, ``(first name, last name)``."""
        if self._person is None:
            first, last = people()
            x, i = divmod(mix(self._seed, _PERSON), len(first))
            self._person = (first[i], last[x % len(last)])
        return self._person
