"""The Home Search world: a database of real-estate listings and its search.

The database is generated deterministically from a seed: numeric attributes come from NumPy's
PCG64 generator, street addresses and agent names from Faker seeded with the same seed. It holds
``listings_per_city`` listings (half to buy, half to rent) in each of the gazetteer's cities, stored
column-wise per (city, buy/rent) group so that a search touches only the rows of one group.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from faker import Faker

from toolgym.simulators.places import CITIES, City, find_city
from toolgym.simulators.seeding import stable_rng

BUY_HOME_TYPES: tuple[str, ...] = (
    "House",
    "Townhouse",
    "Condo",
    "Land",
    "Multi-family",
    "Mobile",
    "Co-op",
)
"""Home types that can be bought (the original API's list)."""

RENT_HOME_TYPES: tuple[str, ...] = ("House", "Townhouse", "Condo", "Apartment")
"""Home types that can be rented (the original API's list)."""

ALL_HOME_TYPES: tuple[str, ...] = (*BUY_HOME_TYPES, "Apartment")
_TYPE_CODE: dict[str, int] = {t.lower(): i for i, t in enumerate(ALL_HOME_TYPES)}

# Relative frequency of each home type among generated listings.
_BUY_TYPE_P = np.array([0.36, 0.14, 0.2, 0.04, 0.1, 0.06, 0.1])
_RENT_TYPE_P = np.array([0.2, 0.15, 0.2, 0.45])
_MULTI_STOREY = {"condo", "apartment", "co-op"}

NUMERIC_FIELDS: tuple[str, ...] = (
    "price",
    "beds",
    "baths",
    "square_feet",
    "garages",
    "swimming_pools",
    "balconies",
    "floor",
    "commute_minutes",
)


@dataclass(frozen=True, slots=True)
class Listing:
    """One listing, as returned by a search."""

    listing_id: str
    address: str
    city: str
    state: str
    zipcode: str
    buy_or_rent: str
    home_type: str
    price: int
    beds: int
    baths: float
    square_feet: int
    garages: int
    swimming_pools: int
    balconies: int
    floor: int
    commute_minutes: int
    year_built: int
    agent: str

    def to_text(self) -> str:
        """One line describing the listing, for observations."""
        price = f"${self.price:,}/mo" if self.buy_or_rent == "rent" else f"${self.price:,}"
        return (
            f"{self.listing_id} | {self.address}, {self.city}, {self.state} {self.zipcode} | "
            f"{self.buy_or_rent} | {self.home_type} | {price} | {self.beds} bd | "
            f"{self.baths:g} ba | {self.square_feet:,} sqft | {self.garages} garage | "
            f"{self.swimming_pools} pool | {self.balconies} balcony | floor {self.floor} | "
            f"{self.commute_minutes} min commute | built {self.year_built}"
        )


@dataclass(frozen=True, slots=True)
class HomeQuery:
    """Typed search criteria. ``None`` means "no constraint".

    Counts (beds, baths, garages, pools, balconies) are minimums, ``floor`` is exact, prices and
    square feet are inclusive ranges, ``max_commute`` is an inclusive maximum in minutes.
    """

    city: str
    buy_or_rent: str
    home_types: frozenset[str] | None = None
    min_price: float | None = None
    max_price: float | None = None
    min_square_feet: float | None = None
    max_square_feet: float | None = None
    beds: float | None = None
    baths: float | None = None
    garages: float | None = None
    swimming_pools: float | None = None
    balconies: float | None = None
    floor: float | None = None
    max_commute: float | None = None


class _Group:
    """Column arrays of the listings of one (city, buy/rent) group."""

    __slots__ = ("cols", "rows", "type_code")

    def __init__(self, rows: np.ndarray, columns: dict[str, np.ndarray], type_code: np.ndarray):
        self.rows = rows
        self.cols = {name: col[rows] for name, col in columns.items()}
        self.type_code = type_code[rows]


class ListingDatabase:
    """A seeded listing database with a criteria search.

    Args:
        seed: the world seed; the same seed gives the same listings on every machine with the same
            NumPy and Faker versions.
        listings_per_city: listings per city, split evenly between buy and rent.

    >>> db = get_listing_database()
    >>> len(db) >= 5000 and len(db.cities) >= 50
    True
    >>> q = HomeQuery(city="Austin", buy_or_rent="rent", beds=2, max_price=3000)
    >>> all(x.beds >= 2 and x.price <= 3000 for x in db.search(q))
    True
    """

    def __init__(self, seed: int = 0, listings_per_city: int = 96) -> None:
        if listings_per_city < 2:
            raise ValueError(f"listings_per_city must be at least 2; got {listings_per_city}")
        self.seed = seed
        self.listings_per_city = listings_per_city
        self.cities: tuple[City, ...] = CITIES
        self._listings: list[Listing] = []
        columns: dict[str, list[float]] = {name: [] for name in NUMERIC_FIELDS}
        type_codes: list[int] = []
        pools = _NamePools.build(seed, {c.state for c in CITIES})
        rng = stable_rng("listings", seed)
        for city in self.cities:
            for mode in ("buy", "rent"):
                count = (
                    listings_per_city // 2
                    if mode == "buy"
                    else listings_per_city - listings_per_city // 2
                )
                start = len(self._listings)
                for listing in self._generate(rng, pools, city, mode, count, start):
                    self._listings.append(listing)
                    for name in NUMERIC_FIELDS:
                        columns[name].append(getattr(listing, name))
                    type_codes.append(_TYPE_CODE[listing.home_type.lower()])
        arrays = {name: np.asarray(values, dtype=np.float64) for name, values in columns.items()}
        type_code = np.asarray(type_codes, dtype=np.int8)
        index: dict[tuple[str, str], list[int]] = {}
        for i, listing in enumerate(self._listings):
            index.setdefault((listing.city.lower(), listing.buy_or_rent), []).append(i)
        self._groups = {
            key: _Group(np.asarray(rows, dtype=np.int32), arrays, type_code)
            for key, rows in index.items()
        }

    def __len__(self) -> int:
        return len(self._listings)

    def __getitem__(self, i: int) -> Listing:
        return self._listings[i]

    def __iter__(self) -> Iterator[Listing]:
        return iter(self._listings)

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        # Pickle as "the database of this seed": rebuilt (and shared) in the receiving process.
        return (get_listing_database, (self.seed, self.listings_per_city))

    @staticmethod
    def _generate(
        rng: np.random.Generator, pools: _NamePools, city: City, mode: str, count: int, start: int
    ) -> list[Listing]:
        types = BUY_HOME_TYPES if mode == "buy" else RENT_HOME_TYPES
        # Draw every random column of the group at once (far faster than per-listing draws).
        type_idx = rng.choice(
            len(types), size=count, p=_BUY_TYPE_P if mode == "buy" else _RENT_TYPE_P
        )
        beds_draw = rng.choice(
            [1, 2, 3, 4, 5, 6], size=count, p=[0.14, 0.27, 0.3, 0.18, 0.07, 0.04]
        )
        bath_extra = rng.integers(0, 4, size=count)
        sqft_noise = rng.normal(0, 160, size=count)
        land_sqft = rng.integers(40, 400, size=count) * 100
        floors = rng.integers(1, 25, size=count)
        garages_draw = rng.choice([0, 1, 2, 3], size=count, p=[0.4, 0.35, 0.2, 0.05])
        pools_draw = rng.choice([0, 1, 2], size=count, p=[0.7, 0.26, 0.04])
        balconies_draw = rng.choice([0, 1, 2, 3, 4], size=count, p=[0.35, 0.35, 0.18, 0.08, 0.04])
        price_noise = rng.lognormal(0.0, 0.22 if mode == "buy" else 0.15, size=count)
        commute = rng.integers(5, 91, size=count)
        built = rng.integers(1900, 2026, size=count)
        numbers = rng.integers(10, 9990, size=count)
        streets = rng.integers(0, len(pools.streets), size=count)
        units = rng.integers(1, 40, size=count)
        agents = rng.integers(0, len(pools.people), size=count)
        zips = rng.integers(0, len(pools.zipcodes[city.state]), size=count)
        out = []
        for n in range(count):
            home_type = types[int(type_idx[n])]
            key = home_type.lower()
            multi = key in _MULTI_STOREY
            if key == "land":
                beds, baths, garages, pools_n, balconies, floor = 0, 0.0, 0, 0, 0, 0
                sqft = int(land_sqft[n])
            else:
                beds = int(beds_draw[n])
                if multi or key == "apartment":
                    beds = min(beds, 4)
                baths = float(max(1.0, min(5.0, beds * 0.5 + 0.5 * int(bath_extra[n]))))
                sqft = max(250, int(round((450 + 380 * beds + sqft_noise[n]) / 10.0) * 10))
                floor = int(floors[n]) if multi else 1
                garages = min(int(garages_draw[n]), 1) if multi else int(garages_draw[n])
                pools_n = int(pools_draw[n])
                balconies = int(balconies_draw[n])
            if mode == "buy":
                per_sqft = 210.0 * city.price_level * float(price_noise[n])
                value = sqft * per_sqft * (0.35 if key == "land" else 1.0)
                price = int(round(max(25_000.0, value), -3))
            else:
                price = int(
                    round((650 + 0.95 * sqft) * city.price_level * float(price_noise[n]), -1)
                )
            address = f"{int(numbers[n])} {pools.streets[int(streets[n])]}"
            if multi:
                address += f" Unit {int(floors[n])}{chr(65 + int(units[n]) % 8)}"
            out.append(
                Listing(
                    listing_id=f"L{start + n:05d}",
                    address=address,
                    city=city.name,
                    state=city.state,
                    zipcode=pools.zipcodes[city.state][int(zips[n])],
                    buy_or_rent=mode,
                    home_type=home_type,
                    price=price,
                    beds=beds,
                    baths=baths,
                    square_feet=sqft,
                    garages=garages,
                    swimming_pools=pools_n,
                    balconies=balconies,
                    floor=floor,
                    commute_minutes=int(commute[n]),
                    year_built=int(built[n]),
                    agent=pools.people[int(agents[n])],
                )
            )
        return out

    def group(self, city: str, buy_or_rent: str) -> list[Listing]:
        """All listings of one city and mode, in database order."""
        group = self._groups.get((city.lower(), buy_or_rent))
        return [] if group is None else [self._listings[i] for i in group.rows]

    def search(self, query: HomeQuery) -> list[Listing]:
        """Return the listings that satisfy ``query``, cheapest first (ties by listing id)."""
        group = self._groups.get((" ".join(query.city.split()).lower(), query.buy_or_rent))
        if group is None:
            return []
        cols = group.cols
        mask = np.ones(len(group.rows), dtype=bool)
        for column, bound, is_min in (
            ("price", query.min_price, True),
            ("price", query.max_price, False),
            ("square_feet", query.min_square_feet, True),
            ("square_feet", query.max_square_feet, False),
            ("beds", query.beds, True),
            ("baths", query.baths, True),
            ("garages", query.garages, True),
            ("swimming_pools", query.swimming_pools, True),
            ("balconies", query.balconies, True),
            ("commute_minutes", query.max_commute, False),
        ):
            if bound is not None:
                mask &= (cols[column] >= bound) if is_min else (cols[column] <= bound)
        if query.floor is not None:
            mask &= cols["floor"] == query.floor
        if query.home_types is not None:
            wanted = np.zeros(len(_TYPE_CODE), dtype=bool)  # np.isin, by a table of the codes
            wanted[[_TYPE_CODE[t] for t in query.home_types if t in _TYPE_CODE]] = True
            mask &= wanted[group.type_code]
        hits = group.rows[mask]
        order = np.argsort(group.cols["price"][mask], kind="stable")
        return [self._listings[i] for i in hits[order]]


@dataclass(frozen=True)
class _NamePools:
    """Street names, people and zip codes drawn once from Faker and then sampled with NumPy."""

    streets: tuple[str, ...]
    people: tuple[str, ...]
    zipcodes: dict[str, tuple[str, ...]]

    @classmethod
    def build(cls, seed: int, states: set[str]) -> _NamePools:
        faker = Faker("en_US")
        faker.seed_instance(seed)
        streets = tuple(faker.street_name() for _ in range(600))
        people = tuple(faker.name() for _ in range(300))
        zipcodes = {
            state: tuple(_zipcode(faker, state) for _ in range(12)) for state in sorted(states)
        }
        return cls(streets, people, zipcodes)


def _zipcode(faker: Faker, state: str) -> str:
    try:
        return str(faker.zipcode_in_state(state))
    except (AttributeError, ValueError, KeyError):  # a state Faker has no zip range for
        return str(faker.zipcode())


def get_listing_database(seed: int = 0, listings_per_city: int = 96) -> ListingDatabase:
    """Return the (process-wide, cached) listing database for ``seed``."""
    return _cached_database(int(seed), int(listings_per_city))


@functools.lru_cache(maxsize=4)
def _cached_database(seed: int, listings_per_city: int) -> ListingDatabase:
    return ListingDatabase(seed, listings_per_city)


def known_city(name: str) -> City | None:
    """Return the gazetteer city for ``name`` if the database has listings there."""
    return find_city(name)
