"""The trip behind a Trip Booking goal: routes, dates, prices that the inventory can serve.

A :class:`Trip` is what the user asks for. Its cities come from the real US cities of
:mod:`toolgym.simulators.places` along routes each mode serves; its prices are chosen from the
offers of the world's travel inventory (:func:`price_bounds`) so that the gold search finds
offers (:func:`search_finds_offers`). :func:`program_lines` writes a field as the original's
program lines.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from toolgym.benchmarks.phrasing import pick
from toolgym.families.trip_booking.toolkit import (
    TripBookingAPI,
    TripBookingToolkit,
    TripSearchResult,
)
from toolgym.families.trip_booking.world import TRANSPORT_MODES, get_travel_inventory
from toolgym.simulators.places import CITIES, distance_km
from toolgym.tools.program import run_program

_FIRST_DAY = dt.date(2026, 1, 4)


_LAST_DAY = dt.date(2027, 12, 8)  # leaves room for returns and check-outs inside 2027


_WEST_PORTS = ("Los Angeles", "San Diego", "San Francisco", "Seattle", "Portland", "Honolulu")


_EAST_PORTS = (
    "New York",
    "Boston",
    "Baltimore",
    "Jacksonville",
    "Savannah",
    "Miami",
    "Tampa",
    "New Orleans",
    "Houston",
)


_REMOTE_STATES = ("AK", "HI")


def _route_pairs() -> dict[str, tuple[tuple[str, str], ...]]:
    pairs: dict[str, list[tuple[str, str]]] = {mode: [] for mode in TRANSPORT_MODES}
    ports = [set(_WEST_PORTS), set(_EAST_PORTS)]
    for a in CITIES:
        for b in CITIES:
            if a.name == b.name:
                continue
            km = distance_km(a, b)
            if km >= 300:
                pairs["flight"].append((a.name, b.name))
            overland = a.state not in _REMOTE_STATES and b.state not in _REMOTE_STATES
            if overland and 80 <= km <= 1300:
                pairs["train"].append((a.name, b.name))
                pairs["bus"].append((a.name, b.name))
            if km >= 150 and any(a.name in group and b.name in group for group in ports):
                pairs["cruise"].append((a.name, b.name))
    return {mode: tuple(p) for mode, p in pairs.items()}


PAIRS = _route_pairs()


CITY_NAMES = tuple(c.name for c in CITIES)


@dataclass
class Trip:
    """What the user asks for; a field is None when the goal does not mention it."""

    booking_type: str
    mode: str | None = None
    origin: str | None = None
    destination: str | None = None
    departure: dt.date | None = None
    return_date: dt.date | None = None
    adults: int | None = None
    children: int | None = None
    min_ticket: int | None = None
    max_ticket: int | None = None
    hotel: str | None = None
    checkin: dt.date | None = None
    checkout: dt.date | None = None
    rooms: int | None = None
    room_type: str | None = None
    min_room: int | None = None
    max_room: int | None = None
    shapes: dict[str, str] = field(default_factory=dict)
    """The written form used so far for dates and for money, kept the same within a goal."""

    def mentioned(self) -> set[str]:
        """Names of the fields the goal must mention (every field that is set)."""
        return {
            f.name
            for f in fields(self)
            if f.name not in ("booking_type", "shapes") and getattr(self, f.name) is not None
        }


# Program lines and API function of each field, in the original's variable names.
CALLS: dict[str, str] = {
    "mode": "select_transportation",
    "origin": "set_origin",
    "destination": "set_destination",
    "departure": "set_departure_date",
    "return_date": "set_return_date",
    "adults": "set_num_adults",
    "children": "set_num_children",
    "min_ticket": "set_min_ticket_price",
    "max_ticket": "set_max_ticket_price",
    "hotel": "set_hotel_location",
    "checkin": "set_checkin_date",
    "checkout": "set_checkout_date",
    "rooms": "set_num_rooms",
    "room_type": "select_room_type",
    "min_room": "set_min_room_price",
    "max_room": "set_max_room_price",
}


_VARIABLES: dict[str, str] = {
    "origin": "location_from",
    "destination": "location_to",
    "hotel": "hotel_location",
    "departure": "departure_date",
    "return_date": "return_date",
    "checkin": "checkin_date",
    "checkout": "checkout_date",
}


def program_lines(trip: Trip, step: str) -> list[str]:
    """The program lines that set the trip's field ``step`` (a variable first for Loc and Date)."""
    value = getattr(trip, step)
    call = CALLS[step]
    if isinstance(value, dt.date):
        var = _VARIABLES[step]
        return [f"{var} = Date({value.month}, {value.day}, {value.year})", f"API.{call}({var})"]
    if step in ("origin", "destination", "hotel"):
        var = _VARIABLES[step]
        return [f'{var} = Loc("{value}")', f"API.{call}({var})"]
    if isinstance(value, str):
        return [f'API.{call}("{value}")']
    return [f"API.{call}({value})"]


def random_day(rng: np.random.Generator) -> dt.date:
    """A day between the first and the last travel day of the generated tasks."""
    span = (_LAST_DAY - _FIRST_DAY).days
    return _FIRST_DAY + dt.timedelta(days=int(rng.integers(span + 1)))


def price_kind(rng: np.random.Generator) -> str:
    """Which price bounds a goal gives: ``max`` (most often), ``range`` or ``min``."""
    return pick(rng, ("max", "max", "max", "max", "max", "range", "range", "range", "min", "min"))


def _step(value: float) -> int:
    return 5 if value < 60 else 10 if value < 300 else 25 if value < 1000 else 50


def _round_up(value: float) -> int:
    step = _step(value)
    return (math.floor(value / step) + 1) * step


def _round_down(value: float) -> int:
    step = _step(value)
    return (math.ceil(value / step) - 1) * step


def price_bounds(
    rng: np.random.Generator, legs: list[list[float]], kind: str
) -> tuple[int | None, int | None] | None:
    """Round (min, max) prices that keep at least one offer of every leg; None if impossible."""
    if not legs or not all(legs):
        return None
    if kind == "max":
        anchors = [min(leg) for leg in legs]
    else:
        anchors = [leg[int(rng.integers(len(leg)))] for leg in legs]
    lo = hi = None
    if kind in ("min", "range"):
        lo = _round_down(min(anchors) * float(rng.uniform(0.6, 0.95)))
        if lo <= 0:
            return None
    if kind in ("max", "range"):
        hi = _round_up(max(anchors) * float(rng.uniform(1.0, 1.5)))
    return lo, hi


def ticket_legs(t: Trip, world_seed: int = 0) -> list[list[float]]:
    """Adult fares of the offers with enough seats, per leg (outbound, then return if any)."""
    assert t.mode and t.origin and t.destination
    inv = get_travel_inventory(world_seed)
    travellers = (t.adults or 1) + (t.children or 0)
    out = t.departure or t.checkin
    back = t.return_date or (t.checkout if t.booking_type == "both" else None)
    legs = [(t.origin, t.destination, out)] + ([(t.destination, t.origin, back)] if back else [])
    return [
        [o.price for o in inv.tickets(a, b, day, t.mode) if o.seats_left >= travellers]
        for a, b, day in legs
        if day is not None
    ]


def room_legs(t: Trip, world_seed: int = 0) -> list[list[float]]:
    """Nightly prices of the room offers of the right type with enough rooms left."""
    assert t.hotel and t.checkin and t.checkout
    rooms = get_travel_inventory(world_seed).rooms(t.hotel, t.checkin, t.checkout)
    need = t.rooms or 1
    kind = t.room_type
    return [
        [
            o.nightly_price
            for o in rooms
            if o.rooms_left >= need and (kind is None or o.room_type == kind)
        ]
    ]


@functools.lru_cache(maxsize=4)
def _toolkit(world_seed: int) -> TripBookingToolkit:
    return TripBookingToolkit(world_seed)


def search_finds_offers(program: str, world_seed: int = 0) -> bool:
    """Whether ``program`` runs and its search returns offers for every part of the request.

    Ticket searches need outbound offers (and return offers when a return date is set or implied);
    hotel searches need room offers.

    Args:
        program: a Trip Booking program ending with ``API.search()``.
        world_seed: the world whose travel inventory is searched.

    Returns:
        True when every searched list is non-empty.
    """
    session = _toolkit(world_seed).new_session()
    run_program(program, session)
    api = session.api
    assert isinstance(api, TripBookingAPI)
    result = api.last_search
    if not isinstance(result, TripSearchResult):
        return False
    kind = result.criteria["booking_type"]
    lists: list[list[Any]] = []
    if kind in ("trip tickets", "both"):
        lists.append(result.outbound)
        if "return_date" in result.criteria:
            lists.append(result.inbound)
    if kind in ("hotels", "both"):
        lists.append(result.rooms)
    return all(lists)
