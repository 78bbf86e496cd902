"""Places and what every gazetteer answers: names, ZIP codes, ids and the nearest place.

A :class:`PlaceIndex` resolves the ways the OpenWeather API is asked for a place: a name
(``q=kansas+city``, ``q=portland,or,us``), a ZIP code (``zip=94957`` or ``zip=94957,us``), a city
id, or coordinates (the nearest named place names the answer). Two gazetteers implement it: the
synthetic one of ``OpenWeather-v0`` (:mod:`.synthetic`) and the real one built from GeoNames and
US ZIP code data (:mod:`.real`).
"""

from __future__ import annotations

import datetime as dt
import functools
import importlib.resources
import math
import unicodedata
import zoneinfo
from abc import ABC, abstractmethod
from dataclasses import dataclass

US_STATE_NAMES: dict[str, str] = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
    "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
    "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
    "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
    "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon",
    "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota",
    "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia",
    "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming",
    "PR": "Puerto Rico", "GU": "Guam", "VI": "U.S. Virgin Islands", "AS": "American Samoa",
    "MP": "Northern Mariana Islands",
}  # fmt: skip
"""US state (and territory) postal code -> name."""

STATE_BY_NAME: dict[str, str] = {name.lower(): code for code, name in US_STATE_NAMES.items()}


@dataclass(frozen=True, slots=True)
class Place:
    """One named place.

    Attributes:
        id: the place's id (OpenWeather's city id: a GeoNames id for real places).
        name: the place name as users write it.
        country: ISO 3166-1 alpha-2 code (``"US"``).
        state: for US places the two-letter state code (``"CA"``), else ``""``.
        lat: latitude in degrees (4 decimals).
        lon: longitude in degrees (4 decimals).
        timezone: IANA time zone name.
        population: number of inhabitants (0 where the data has none).
        zip: a ZIP code of the place (US), else ``""``.
    """

    id: int
    name: str
    country: str
    state: str
    lat: float
    lon: float
    timezone: str
    population: int
    zip: str = ""

    @property
    def state_name(self) -> str:
        """The full state name for US places (``"California"``), else ``""``."""
        return US_STATE_NAMES.get(self.state, "") if self.country == "US" else ""

    def utc_offset(self, unix_time: int) -> int:
        """The place's offset from UTC in seconds at ``unix_time`` (daylight saving included)."""
        return _utc_offset(self.timezone, unix_time // 3600)


@functools.lru_cache(maxsize=1024)
def time_zone(key: str) -> zoneinfo.ZoneInfo | None:
    """The IANA zone ``key`` as the ``tzdata`` package has it, whatever the host's database.

    The host's zone files (``/usr/share/zoneinfo``) differ between machines, or are missing, so
    the zones always come from ``tzdata`` (a dependency): observations are the same everywhere.
    ``None`` for a key ``tzdata`` does not have.
    """
    parts = key.split("/")
    if not key or any(not p or p in (".", "..") for p in parts):
        return None
    resource = importlib.resources.files("tzdata.zoneinfo").joinpath(*parts)
    try:
        with resource.open("rb") as handle:
            return zoneinfo.ZoneInfo.from_file(handle, key=key)
    except (OSError, ValueError):
        return None


@functools.lru_cache(maxsize=16384)
def _utc_offset(zone: str, hour: int) -> int:
    tz = time_zone(zone)
    if tz is None:
        return 0
    when = dt.datetime.fromtimestamp(hour * 3600, tz=dt.UTC).astimezone(tz)
    offset = when.utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


def strip_accents(text: str) -> str:
    """``text`` without combining marks (``"Tromsø"`` keeps its ``ø``; see :func:`place_key`)."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


_TRANSLITERATE = str.maketrans(
    {"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "ł": "l", "Ł": "L", "đ": "d",
     "Đ": "D", "ı": "i", "œ": "oe", "Œ": "OE", "þ": "th", "ð": "d", "ħ": "h"}
)  # fmt: skip
_FOLD = str.maketrans({**dict.fromkeys("+_-‐–—.,/", " "), **dict.fromkeys("'’`‘ʻ()")})
"""Separators become spaces, apostrophes and brackets go."""
ABBREVIATIONS: dict[str, str] = {
    "st": "saint",
    "ste": "sainte",
    "ft": "fort",
    "mt": "mount",
}
"""Abbreviated words of place names and the words they stand for (``St.`` for Saint)."""


def place_key(text: str) -> str:
    """The lookup key of a place name: what a user may vary in writing it is folded away.

    Case, accents (and letters such as ``ø``, ``ß``), ``+``, ``%20``, ``_``, hyphens, dots and
    apostrophes are ignored, and ``St``/``Ste``/``Ft``/``Mt`` stand for Saint, Sainte, Fort and
    Mount.

    >>> place_key("St. Louis") == place_key("saint+louis")
    True
    >>> place_key("Tromsø"), place_key("Winston-Salem"), place_key("Coeur d'Alene")
    ('tromso', 'winston salem', 'coeur dalene')
    """
    return _cached_key(text) if len(text) <= 64 else fold(text)  # long names: not kept


def fold(text: str) -> str:
    """:func:`place_key` without its cache (for building indexes of many names once)."""
    text = text.replace("%20", " ")
    if not text.isascii():
        text = strip_accents(text.translate(_TRANSLITERATE))
    words = text.lower().translate(_FOLD).split()
    return " ".join([ABBREVIATIONS.get(w, w) for w in words])


_cached_key = functools.lru_cache(maxsize=8192)(fold)


def haversine_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance in kilometres."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(min(1.0, math.sqrt(h)))


class PlaceIndex(ABC):
    """What a gazetteer answers (see the module docstring)."""

    @abstractmethod
    def by_city(
        self, name: str, state: str | None = None, country: str | None = None
    ) -> list[Place]:
        """Places called ``name``, most populous first, optionally within a state and country.

        Args:
            name: the place name (see :func:`place_key` for what may vary).
            state: a US state code or name (``"CA"``, ``"California"``).
            country: a country, as its ISO code (or, in the real gazetteer, its name).
        """

    @abstractmethod
    def by_zip(self, zip_code: str, country: str = "US") -> Place | None:
        """The place of a ZIP code in ``country``, or ``None``."""

    @abstractmethod
    def by_id(self, place_id: int) -> Place | None:
        """The place with this id, or ``None``."""

    @abstractmethod
    def nearest_within(self, lat: float, lon: float, km: float) -> Place | None:
        """The closest place if it lies within ``km`` kilometres, else ``None``."""

    def search(self, query: str) -> list[Place]:
        """The places a ``q`` parameter names: ``city``, ``city,state`` or ``city,state,country``.

        With two parts the second is read as a country first and, if that finds nothing, as a
        US state (``portland,or``), as the real API does for US users. With three, the state
        narrows the matches in the US only, as the real API documents (``toronto,on,ca`` is
        Toronto in Canada). Empty names find nothing.
        """
        parts = [p.strip() for p in query.split(",")]
        name, rest = parts[0], [p for p in parts[1:] if p]
        if not place_key(name):
            return []
        if not rest:
            return self.by_city(name)
        if len(rest) == 1:
            return self.by_city(name, country=rest[0]) or self.by_city(name, state=rest[0])
        if self.by_city(name, country=rest[1]) and not self.is_us(rest[1]):
            return self.by_city(name, country=rest[1])  # a state counts in the US only
        return self.by_city(name, state=rest[0], country=rest[1])

    def is_us(self, country: str) -> bool:
        """Whether ``country`` names the United States (its ISO code, by default)."""
        return country.strip().upper() == "US"
