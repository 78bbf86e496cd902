"""The Trip Booking world: ticket offers on routes between cities and hotel rooms.

Nothing is stored up front. Every offer is a pure function of the request (origin, destination,
date, means of transport) or of (city, check-in date) and the world seed, so the inventory is the
same in every process, covers any city a user names (gazetteer cities get real distances, others a
stable pseudo-distance), and costs no memory until asked. Hotel catalogues are cached per city.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass

from faker import Faker

from toolgym.simulators.places import City, distance_km, find_city
from toolgym.simulators.seeding import stable_rng, stable_seed

TRANSPORT_MODES: tuple[str, ...] = ("flight", "train", "bus", "cruise")
"""Means of transportation of the original API."""

ROOM_TYPES: tuple[str, ...] = ("King Bed", "Queen Bed", "Double", "Luxury")
"""Room types documented by the original API."""

_CARRIERS: dict[str, tuple[str, ...]] = {
    "flight": ("Skyward Air", "Bluejay Airlines", "Meridian Air", "Pinecrest Airways"),
    "train": ("Continental Rail", "Liberty Line", "Coastline Express"),
    "bus": ("Greyline Coaches", "Metro Express Bus", "RoadRunner Bus"),
    "cruise": ("Harborline Cruises", "Bluewater Voyages"),
}
# (km per hour, fixed minutes, base fare, fare per km, offers per day (low, high))
_MODE_MODEL: dict[str, tuple[float, int, float, float, tuple[int, int]]] = {
    "flight": (760.0, 75, 59.0, 0.105, (4, 8)),
    "train": (105.0, 15, 22.0, 0.085, (2, 5)),
    "bus": (78.0, 10, 12.0, 0.055, (3, 6)),
    "cruise": (34.0, 120, 149.0, 0.21, (1, 3)),
}
_ROOM_FACTOR = {"Double": 1.0, "Queen Bed": 1.15, "King Bed": 1.3, "Luxury": 2.3}
_HOTEL_SUFFIXES = ("Inn", "Suites", "Hotel", "Lodge", "Grand Hotel", "Plaza", "Residences")


@dataclass(frozen=True, slots=True)
class TicketOffer:
    """One ticket offer: a departure on a route by one means of transportation."""

    offer_id: str
    mode: str
    carrier: str
    origin: str
    destination: str
    date: dt.date
    depart: str
    arrive: str
    duration_minutes: int
    price: float
    child_price: float
    seats_left: int

    def to_text(self) -> str:
        """One line describing the offer, for observations."""
        hours, minutes = divmod(self.duration_minutes, 60)
        return (
            f"{self.offer_id} | {self.mode} | {self.carrier} | {self.origin} -> {self.destination} | "
            f"{self.date.isoformat()} {self.depart} -> {self.arrive} ({hours}h{minutes:02d}m) | "
            f"${self.price:,.2f} per adult, ${self.child_price:,.2f} per child | "
            f"{self.seats_left} seats left"
        )


@dataclass(frozen=True, slots=True)
class Hotel:
    """A hotel: its rooms types and their base nightly prices."""

    hotel_id: str
    name: str
    address: str
    city: str
    stars: int
    base_prices: tuple[tuple[str, float], ...]


@dataclass(frozen=True, slots=True)
class HotelOffer:
    """Rooms of one type in one hotel for a stay."""

    offer_id: str
    hotel: str
    address: str
    city: str
    stars: int
    room_type: str
    checkin: dt.date
    checkout: dt.date
    nightly_price: float
    rooms_left: int

    @property
    def nights(self) -> int:
        """Number of nights of the stay."""
        return (self.checkout - self.checkin).days

    def to_text(self, rooms: int = 1) -> str:
        """One line describing the offer for ``rooms`` rooms, for observations."""
        total = self.nightly_price * self.nights * rooms
        return (
            f"{self.offer_id} | {self.hotel} ({self.stars}*) | {self.address}, {self.city} | "
            f"{self.room_type} | ${self.nightly_price:,.2f}/night | {self.nights} nights x "
            f"{rooms} room(s) = ${total:,.2f} | {self.rooms_left} rooms left"
        )


@dataclass(frozen=True, slots=True)
class TicketQuery:
    """Typed ticket search; prices bound the adult fare, seats must cover every traveller."""

    origin: str
    destination: str
    mode: str
    date: dt.date
    travellers: int = 1
    min_price: float | None = None
    max_price: float | None = None


@dataclass(frozen=True, slots=True)
class HotelQuery:
    """Typed hotel search; prices bound the nightly price of one room."""

    city: str
    checkin: dt.date
    checkout: dt.date
    rooms: int = 1
    room_type: str | None = None
    min_price: float | None = None
    max_price: float | None = None


def _canon(city: str) -> str:
    return " ".join(city.split()).lower()


def _display(city: str) -> str:
    known = find_city(city)
    return known.name if known else " ".join(city.split()).title()


class TravelInventory:
    """Seeded ticket and hotel inventory with searches.

    >>> inv = get_travel_inventory()
    >>> offers = inv.search_tickets(TicketQuery("Austin", "Denver", "flight", dt.date(2026, 5, 1)))
    >>> len(offers) > 0 and all(o.mode == "flight" for o in offers)
    True
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (get_travel_inventory, (self.seed,))

    # -- tickets -------------------------------------------------------------------------------
    def route_km(self, origin: str, destination: str) -> float:
        """Distance of a route: real for gazetteer cities, a stable pseudo-distance otherwise."""
        a, b = find_city(origin), find_city(destination)
        if a is not None and b is not None:
            return max(40.0, distance_km(a, b))
        pair = sorted((_canon(origin), _canon(destination)))
        return 150.0 + stable_seed("route", *pair) % 3500

    def tickets(self, origin: str, destination: str, date: dt.date, mode: str) -> list[TicketOffer]:
        """Every offer of one day on one route by one means of transport, by departure time."""
        return list(self._tickets(_canon(origin), _canon(destination), date, mode))

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - inventories live for the whole process
    def _tickets(
        self, origin: str, destination: str, date: dt.date, mode: str
    ) -> tuple[TicketOffer, ...]:
        if mode not in _MODE_MODEL or origin == destination:
            return ()
        speed, fixed, base, per_km, (lo, hi) = _MODE_MODEL[mode]
        km = self.route_km(origin, destination)
        rng = stable_rng("tickets", self.seed, origin, destination, date.isoformat(), mode)
        count = int(rng.integers(lo, hi + 1))
        season = 1.18 if date.month in (6, 7, 8, 12) else 1.0
        weekend = 1.12 if date.weekday() >= 4 else 1.0
        departures = sorted(int(m) for m in rng.integers(5 * 60, 22 * 60, size=count) // 5 * 5)
        offers = []
        for i, depart in enumerate(departures):
            duration = int(fixed + km / speed * 60 * float(rng.uniform(0.9, 1.25)))
            arrive = depart + duration
            price = round(
                (base + per_km * km) * season * weekend * float(rng.lognormal(0, 0.25)), 2
            )
            day_note = f" (+{arrive // 1440}d)" if arrive >= 1440 else ""
            carrier = _CARRIERS[mode][int(rng.integers(len(_CARRIERS[mode])))]
            offers.append(
                TicketOffer(
                    offer_id=f"{mode[0].upper()}{stable_seed(origin, destination, date, mode, i) % 10**6:06d}",
                    mode=mode,
                    carrier=carrier,
                    origin=_display(origin),
                    destination=_display(destination),
                    date=date,
                    depart=f"{depart // 60:02d}:{depart % 60:02d}",
                    arrive=f"{arrive % 1440 // 60:02d}:{arrive % 60:02d}{day_note}",
                    duration_minutes=duration,
                    price=price,
                    child_price=round(price * 0.75, 2),
                    seats_left=int(rng.integers(0, 40)),
                )
            )
        return tuple(offers)

    def search_tickets(self, query: TicketQuery) -> list[TicketOffer]:
        """Offers that match ``query``, cheapest first."""
        hits = [
            o
            for o in self._tickets(
                _canon(query.origin), _canon(query.destination), query.date, query.mode
            )
            if o.seats_left >= query.travellers
            and (query.min_price is None or o.price >= query.min_price)
            and (query.max_price is None or o.price <= query.max_price)
        ]
        return sorted(hits, key=lambda o: (o.price, o.offer_id))

    # -- hotels --------------------------------------------------------------------------------
    def hotels(self, city: str) -> tuple[Hotel, ...]:
        """The hotels of a city (generated once per city and cached)."""
        return self._hotels(_canon(city))

    @functools.lru_cache(maxsize=512)  # noqa: B019
    def _hotels(self, city: str) -> tuple[Hotel, ...]:
        known: City | None = find_city(city)
        level = known.price_level if known else 1.0
        rng = stable_rng("hotels", self.seed, city)
        faker = _faker()
        faker.seed_instance(stable_seed("hotel-names", self.seed, city))
        hotels = []
        for i in range(int(rng.integers(6, 11))):
            stars = int(rng.choice([2, 3, 4, 5], p=[0.15, 0.4, 0.32, 0.13]))
            kinds = [t for t in ROOM_TYPES if rng.random() < 0.8] or ["Double"]
            base = 55.0 * level * (1 + 0.35 * stars) * float(rng.lognormal(0, 0.15))
            name = f"{faker.last_name()} {_HOTEL_SUFFIXES[int(rng.integers(len(_HOTEL_SUFFIXES)))]}"
            hotels.append(
                Hotel(
                    hotel_id=f"H{stable_seed('hotel', self.seed, city, i) % 10**6:06d}",
                    name=name,
                    address=faker.street_address(),
                    city=_display(city),
                    stars=stars,
                    base_prices=tuple((k, round(base * _ROOM_FACTOR[k], 2)) for k in kinds),
                )
            )
        return tuple(hotels)

    def rooms(self, city: str, checkin: dt.date, checkout: dt.date) -> list[HotelOffer]:
        """Every room offer in a city for a stay (average nightly price over the stay)."""
        return list(self._rooms(_canon(city), checkin, checkout))

    @functools.lru_cache(maxsize=4096)  # noqa: B019
    def _rooms(self, city: str, checkin: dt.date, checkout: dt.date) -> tuple[HotelOffer, ...]:
        nights = (checkout - checkin).days
        if nights <= 0:
            return ()
        offers = []
        for hotel in self.hotels(city):
            rng = stable_rng("rooms", self.seed, hotel.hotel_id, checkin.isoformat(), nights)
            for kind, base in hotel.base_prices:
                factors = [
                    (1.15 if day.weekday() >= 4 else 1.0)
                    * (1.2 if day.month in (6, 7, 8, 12) else 1.0)
                    for day in (checkin + dt.timedelta(days=k) for k in range(nights))
                ]
                nightly = round(base * sum(factors) / nights * float(rng.uniform(0.92, 1.08)), 2)
                offers.append(
                    HotelOffer(
                        offer_id=f"{hotel.hotel_id}-{kind.split()[0][:2].upper()}",
                        hotel=hotel.name,
                        address=hotel.address,
                        city=hotel.city,
                        stars=hotel.stars,
                        room_type=kind,
                        checkin=checkin,
                        checkout=checkout,
                        nightly_price=nightly,
                        rooms_left=int(rng.integers(0, 13)),
                    )
                )
        return tuple(offers)

    def search_hotels(self, query: HotelQuery) -> list[HotelOffer]:
        """Room offers that match ``query``, cheapest first."""
        room_type = query.room_type.lower() if query.room_type else None
        hits = [
            o
            for o in self._rooms(_canon(query.city), query.checkin, query.checkout)
            if o.rooms_left >= query.rooms
            and (room_type is None or o.room_type.lower() == room_type)
            and (query.min_price is None or o.nightly_price >= query.min_price)
            and (query.max_price is None or o.nightly_price <= query.max_price)
        ]
        return sorted(hits, key=lambda o: (o.nightly_price, o.offer_id))


@functools.lru_cache(maxsize=1)
def _faker() -> Faker:
    return Faker("en_US")


def get_travel_inventory(seed: int = 0) -> TravelInventory:
    """Return the (process-wide, cached) travel inventory for ``seed``."""
    return _cached_inventory(int(seed))


@functools.lru_cache(maxsize=4)
def _cached_inventory(seed: int) -> TravelInventory:
    return TravelInventory(seed)
