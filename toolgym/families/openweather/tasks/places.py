"""The places OpenWeather goals name: cities and ZIP codes, for each task-set version.

* version 0 (the synthetic world): 76 well-known cities and the central ZIP codes of 64 US cities;
* version 1 (the real gazetteer): the most populous places of the world and of the US, with
  mid-sized US cities (suburbs and county seats of tens of thousands of inhabitants), and real
  ZIP codes drawn from every US ZIP code. A US city whose name first finds another place is named
  with its state (``Springfield, IL``; ``q=springfield,il,us``, the API's ``city,state,country``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from toolgym.simulators.gazetteer import get_gazetteer, get_real_gazetteer, place_key
from toolgym.simulators.seeding import stable_rng

CITIES: tuple[str, ...] = (
    "London", "Birmingham", "Manchester", "Edinburgh", "Dublin", "Paris", "Lyon", "Berlin",
    "Munich", "Hamburg", "Madrid", "Barcelona", "Lisbon", "Rome", "Milan", "Venice", "Amsterdam",
    "Brussels", "Vienna", "Zurich", "Prague", "Warsaw", "Budapest", "Copenhagen", "Stockholm",
    "Oslo", "Helsinki", "Reykjavik", "Athens", "Istanbul", "Moscow", "Cairo", "Nairobi",
    "Cape Town", "Dubai", "Mumbai", "Delhi", "Bangkok", "Singapore", "Hong Kong", "Seoul",
    "Tokyo", "Osaka", "Sydney", "Melbourne", "Auckland", "Toronto", "Vancouver", "Montreal",
    "Mexico City", "Lima", "Buenos Aires", "Rio de Janeiro", "New York", "Los Angeles",
    "Chicago", "Houston", "San Francisco", "Seattle", "Denver", "Austin", "Boston", "Miami",
    "Kansas City", "New Orleans", "Salt Lake City", "Nashville", "Atlanta", "Portland",
    "Las Vegas", "Honolulu", "Anchorage", "Philadelphia", "San Diego", "Detroit", "Minneapolis",
)  # fmt: skip
"""Well-known cities the version-0 goals name (each exists in the synthetic gazetteer)."""

N_WORLD = 240
N_US_LARGE = 160
N_US_MID = 240
N_ZIPS = 2000


@dataclass(frozen=True)
class CityName:
    """A city as a goal names it and as the gold request asks for it.

    Attributes:
        text: the words of the goal (``"Springfield, IL"``).
        query: the ``q`` value (``"springfield,il,us"``); empty for version 0, whose gold writes
            the lowercased text with ``+`` for spaces.
    """

    text: str
    query: str = ""


@dataclass(frozen=True)
class Pools:
    """What the goals of one version draw from."""

    cities: tuple[CityName, ...]
    geo_cities: tuple[CityName, ...]
    zips: tuple[str, ...]


def _query(text: str) -> str:
    """The ``q`` value of a name: lowercase ASCII, spaces as ``+`` (``sao+paulo``)."""
    return place_key(text).replace(" ", "+")


def _plain(name: str) -> bool:
    """A name that a goal and a single-quoted curl URL carry as they are."""
    return name.isascii() and all(c.isalpha() or c in " -." for c in name)


@functools.lru_cache(maxsize=2)
def pools(version: int) -> Pools:
    """The pools of a task-set version (0 or 1).

    Raises:
        ValueError: another version.
    """
    if version == 0:
        get_gazetteer()  # the synthetic gazetteer has every one of them
        names = tuple(CityName(c) for c in CITIES)
        return Pools(names, names, _v0_zips())
    if version != 1:
        raise ValueError(f"OpenWeather task sets have versions 0 and 1; got {version!r}")
    g = get_real_gazetteer()
    cities: list[CityName] = []
    geo: list[CityName] = []
    for place in g.most_populous(n=4 * N_WORLD):
        if place.country == "US" or not _plain(place.name) or len(geo) == N_WORLD:
            continue
        if g.search(place.name)[0].id == place.id:  # the name finds this place first
            geo.append(CityName(place.name, _query(place.name)))
    cities += geo
    us = [p for p in g.most_populous("US", n=6000) if _plain(p.name)]
    mid = [p for p in us[N_US_LARGE:] if 20_000 <= p.population <= 150_000]
    rng = stable_rng("openweather-v1-places")
    picked = us[:N_US_LARGE] + [mid[int(i)] for i in sorted(rng.permutation(len(mid))[:N_US_MID])]
    for place in picked:
        if g.search(place.name)[0].id == place.id:
            cities.append(CityName(place.name, _query(place.name)))
            geo.append(CityName(place.name, _query(place.name)))
        else:
            text = f"{place.name}, {place.state}"
            cities.append(CityName(text, f"{_query(place.name)},{place.state.lower()},us"))
    zips = g.zip_codes()
    chosen = np.sort(stable_rng("openweather-v1-zips").permutation(len(zips))[:N_ZIPS])
    return Pools(tuple(cities), tuple(geo), tuple(zips[int(i)] for i in chosen))


@functools.lru_cache(maxsize=1)
def _v0_zips() -> tuple[str, ...]:
    from toolgym.simulators.gazetteer.synthetic import _CITY_ZIPS

    return tuple(sorted({*_CITY_ZIPS.values(), "94957"}))
