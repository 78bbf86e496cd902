"""The Trip Booking API: the original 18 ``API`` functions plus ``Loc`` and ``Date``.

Setters accumulate ``search_criteria`` exactly as the original mock does (``select_booking_type``
first, ``Loc``/``Date`` arguments checked by type and stored as strings, numbers stored as given,
dates unpadded ``"m-d-yyyy"``); :meth:`TripBookingAPI.search` fills the original defaults, enforces
the required fields, and also searches the travel inventory for tickets and rooms.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Self

from toolgym.families.trip_booking.world import (
    ROOM_TYPES,
    TRANSPORT_MODES,
    HotelOffer,
    HotelQuery,
    TicketOffer,
    TicketQuery,
    TravelInventory,
    get_travel_inventory,
)
from toolgym.tools.api import Constructor, construct_from_json
from toolgym.tools.criteria_api import CriteriaApi, SearchToolkit
from toolgym.tools.errors import PRECONDITION, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.tool import Param, Tool
from toolgym.tools.values import as_number

BOOKING_TYPES: tuple[str, ...] = ("hotels", "trip tickets", "both")
"""Allowed values of ``select_booking_type``."""


class _Value:
    """A constructor's value, which nothing changes once built.

    A program cannot set attributes, so a copy of one, as a session's checkpoint takes, is the
    value itself.
    """

    __slots__ = ()

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


class Loc(_Value):
    """A location value: ``Loc("Austin")``; the API stores ``loc.location``."""

    __slots__ = ("location",)

    def __init__(self, location: Any) -> None:
        self.location = location

    def __repr__(self) -> str:
        return f"Loc({self.location!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Loc) and other.location == self.location

    def __hash__(self) -> int:
        return hash(("Loc", repr(self.location)))

    def __getstate__(self) -> dict[str, Any]:
        return {"location": self.location}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.location = state["location"]


class Date(_Value):
    """A date value: ``Date(month, day, year)``; the API stores ``date.date`` = ``"m-d-yyyy"``."""

    __slots__ = ("date", "day", "month", "year")

    def __init__(self, month: Any, day: Any, year: Any) -> None:
        self.month, self.day, self.year = month, day, year
        self.date = f"{month}-{day}-{year}"

    def __repr__(self) -> str:
        return f"Date({self.month!r}, {self.day!r}, {self.year!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Date) and other.date == self.date

    def __hash__(self) -> int:
        return hash(("Date", self.date))

    def __getstate__(self) -> dict[str, Any]:
        return {"month": self.month, "day": self.day, "year": self.year}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["month"], state["day"], state["year"])  # type: ignore[misc]


_LOC_SCHEMA = {"type": "string"}
_DATE_SCHEMA = {
    "type": "object",
    "properties": {
        "month": {"type": "integer"},
        "day": {"type": "integer"},
        "year": {"type": "integer"},
    },
    "required": ["month", "day", "year"],
}


def _loc_setter(name: str, description: str, pname: str) -> Tool:
    return Tool(
        name,
        description,
        (Param(pname, Loc, 'A Loc, e.g. Loc("Austin").', json_schema=_LOC_SCHEMA),),
        owner="API",
        doc_signature="Loc",
    )


def _date_setter(name: str, description: str, pname: str) -> Tool:
    return Tool(
        name,
        description,
        (Param(pname, Date, "A Date, e.g. Date(4, 10, 2026).", json_schema=_DATE_SCHEMA),),
        owner="API",
        doc_signature="Date",
    )


def _num_setter(name: str, description: str, pname: str = "value", type_: str = "int") -> Tool:
    return Tool(
        name,
        description,
        (Param(pname, type_, description),),
        owner="API",
        doc_signature="value",
    )


LOC = Tool(
    "Loc",
    "To define a location object from a city name. Use it as the argument of the location setters.",
    (Param("location", "string", 'A city name, e.g. "Austin".'),),
    doc_signature="location",
    offered=False,
)
DATE = Tool(
    "Date",
    "To define a date object from a month, a day and a year (integers). "
    "Use it as the argument of the date setters.",
    (
        Param("month", "int", "Month, 1-12."),
        Param("day", "int", "Day of the month."),
        Param("year", "int", "Four-digit year."),
    ),
    doc_signature="month, day, year",
    offered=False,
)

TOOLS: tuple[Tool, ...] = (
    Tool(
        "select_booking_type",
        'To select the booking type: "hotels", "trip tickets" or "both". '
        "This function must be called first.",
        (Param("booking_type", "str", "The booking type.", enum=BOOKING_TYPES),),
        owner="API",
        doc_signature="booking_type",
    ),
    Tool(
        "select_transportation",
        'To select the means of transportation: "flight", "train", "bus" or "cruise".',
        (
            Param(
                "transportation_type", "str", "The means of transportation.", enum=TRANSPORT_MODES
            ),
        ),
        owner="API",
        doc_signature="transportation_type",
    ),
    _loc_setter("set_origin", "To set the origin of the trip (a Loc).", "origin"),
    _loc_setter("set_destination", "To set the destination of the trip (a Loc).", "destination"),
    _num_setter(
        "set_min_ticket_price", "To set the minimum ticket price in dollars.", type_="number"
    ),
    _num_setter(
        "set_max_ticket_price", "To set the maximum ticket price in dollars.", type_="number"
    ),
    _num_setter("set_num_adults", "To set the number of adult travellers."),
    _num_setter("set_num_children", "To set the number of child travellers."),
    _date_setter("set_departure_date", "To set the departure date of the trip (a Date).", "date"),
    _date_setter("set_return_date", "To set the return date of the trip (a Date).", "date"),
    _loc_setter("set_hotel_location", "To set the location of the hotel (a Loc).", "location"),
    _date_setter("set_checkin_date", "To set the hotel check-in date (a Date).", "date"),
    _date_setter("set_checkout_date", "To set the hotel check-out date (a Date).", "date"),
    _num_setter("set_num_rooms", "To set the number of hotel rooms."),
    Tool(
        "select_room_type",
        'To select the hotel room type: "King Bed", "Queen Bed", "Double" or "Luxury".',
        (Param("room_type", "str", "The room type.", enum=ROOM_TYPES),),
        owner="API",
        doc_signature="room_type",
    ),
    _num_setter(
        "set_min_room_price", "To set the minimum room price per night in dollars.", type_="number"
    ),
    _num_setter(
        "set_max_room_price", "To set the maximum room price per night in dollars.", type_="number"
    ),
    Tool(
        "search",
        "Submit the criterion to get the search results. This function should be called last.",
        owner="API",
        terminal=True,
    ),
)

ALL_TOOLS: tuple[Tool, ...] = (*TOOLS, LOC, DATE)
"""The 20 documented functions: 18 on ``API`` plus the ``Loc`` and ``Date`` constructors."""

_REQUIRED: dict[str, tuple[str, ...]] = {
    "trip tickets": ("means_of_transportation", "location_from", "location_to", "departure_date"),
    "hotels": ("location", "checkin_date", "checkout_date"),
    "both": (
        "means_of_transportation",
        "location_from",
        "location_to",
        "location",
        "checkin_date",
        "checkout_date",
    ),
}


@dataclass
class TripSearchResult:
    """What ``API.search()`` returns: the criteria, ticket offers and room offers."""

    criteria: dict[str, Any]
    outbound: list[TicketOffer] = field(default_factory=list)
    inbound: list[TicketOffer] = field(default_factory=list)
    rooms: list[HotelOffer] = field(default_factory=list)
    num_rooms: int = 1
    shown: int = 5
    notes: list[str] = field(default_factory=list)

    def to_text(self) -> str:
        """The observation text of the search."""
        lines = [f"search() criteria: {self.criteria}"]
        lines += [f"Note: {n}" for n in self.notes]
        kind = self.criteria.get("booking_type")
        if kind in ("trip tickets", "both"):
            lines += self._block("Outbound tickets", self.outbound, lambda o: o.to_text())
            if "return_date" in self.criteria:
                lines += self._block("Return tickets", self.inbound, lambda o: o.to_text())
        if kind in ("hotels", "both"):
            lines += self._block("Hotel rooms", self.rooms, lambda o: o.to_text(self.num_rooms))
        return "\n".join(lines)

    def _block(self, title: str, offers: list[Any], render: Any) -> list[str]:
        if not offers:
            return [f"{title}: none match these criteria."]
        more = f", showing the {self.shown} cheapest" if len(offers) > self.shown else ""
        return [f"{title}: {len(offers)} found{more}:"] + [
            f"{i}. {render(o)}" for i, o in enumerate(offers[: self.shown], 1)
        ]


def _check_type(name: str, value: Any, kind: type, example: str) -> None:
    if type(value) is not kind:
        raise ToolCallError(
            WRONG_ARGUMENTS,
            f"API.{name}() expects a {kind.__name__}, e.g. API.{name}({example}); "
            f"got {type(value).__name__} {value!r}",
        )


def _make_value_setter(name: str, key: str) -> Any:
    tool = next(t for t in TOOLS if t.name == name)

    def setter(self: TripBookingAPI, value: Any) -> None:
        self._require_booking_type(name)
        self.search_criteria[key] = value

    setter.__name__ = name
    setter.__doc__ = f"Store ``{key}`` as given (the original API does not check types)."
    setter.__annotations__ = {"value": tool.params[0].annotation, "return": None}
    return setter


def _make_loc_setter(name: str, key: str, pname: str) -> Any:
    def setter(self: TripBookingAPI, **kwargs: Any) -> None:
        self._require_booking_type(name)
        loc = kwargs[pname]
        _check_type(name, loc, Loc, 'Loc("Austin")')
        self.search_criteria[key] = loc.location

    setter.__name__ = name
    return setter


def _make_date_setter(name: str, key: str) -> Any:
    def setter(self: TripBookingAPI, date: Date) -> None:
        self._require_booking_type(name)
        _check_type(name, date, Date, "Date(4, 10, 2026)")
        self.search_criteria[key] = date.date

    setter.__name__ = name
    setter.__doc__ = f"Store ``{key}`` from a ``Date``."
    return setter


class TripBookingAPI(CriteriaApi):
    """The ``API`` object of Trip Booking programs.

    >>> api = TripBookingAPI()
    >>> api.select_booking_type("hotels"); api.set_hotel_location(location=Loc("Durham"))
    >>> api.set_checkin_date(Date(5, 10, 2026)); api.set_checkout_date(Date(5, 13, 2026))
    >>> sorted(api.search().criteria.items())[:3]
    [('booking_type', 'hotels'), ('checkin_date', '5-10-2026'), ('checkout_date', '5-13-2026')]
    """

    TOOLS = TOOLS

    def __init__(self, inventory: TravelInventory | None = None, max_results: int = 5) -> None:
        super().__init__()
        self.inventory = inventory if inventory is not None else get_travel_inventory()
        self.max_results = max_results

    def select_booking_type(self, booking_type: str) -> None:
        """Choose hotels, trip tickets or both; must be the first call."""
        if self.search_criteria:
            raise ToolCallError(
                PRECONDITION,
                "API.select_booking_type() must be the first call; criteria already hold "
                f"{sorted(self.search_criteria)}",
            )
        if booking_type not in BOOKING_TYPES:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"booking_type must be one of {', '.join(map(repr, BOOKING_TYPES))}; got {booking_type!r}",
            )
        self.search_criteria["booking_type"] = booking_type

    def select_transportation(self, transportation_type: str) -> None:
        """Choose flight, train, bus or cruise."""
        self._require_booking_type("select_transportation")
        if transportation_type not in TRANSPORT_MODES:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"transportation_type must be one of {', '.join(map(repr, TRANSPORT_MODES))}; "
                f"got {transportation_type!r}",
            )
        self.search_criteria["means_of_transportation"] = transportation_type

    def set_origin(self, origin: Loc) -> None:
        """Set the trip origin (a ``Loc``)."""
        _LOC_SETTERS["set_origin"](self, origin=origin)

    def set_destination(self, destination: Loc) -> None:
        """Set the trip destination (a ``Loc``)."""
        _LOC_SETTERS["set_destination"](self, destination=destination)

    def set_hotel_location(self, location: Loc) -> None:
        """Set the hotel city (a ``Loc``)."""
        _LOC_SETTERS["set_hotel_location"](self, location=location)

    set_min_ticket_price = _make_value_setter("set_min_ticket_price", "min_price_ticket")
    set_max_ticket_price = _make_value_setter("set_max_ticket_price", "max_price_ticket")
    set_num_adults = _make_value_setter("set_num_adults", "num_adults")
    set_num_children = _make_value_setter("set_num_children", "num_children")
    set_departure_date = _make_date_setter("set_departure_date", "departure_date")
    set_return_date = _make_date_setter("set_return_date", "return_date")
    set_checkin_date = _make_date_setter("set_checkin_date", "checkin_date")
    set_checkout_date = _make_date_setter("set_checkout_date", "checkout_date")
    set_num_rooms = _make_value_setter("set_num_rooms", "num_rooms")
    set_min_room_price = _make_value_setter("set_min_room_price", "min_price_room")
    set_max_room_price = _make_value_setter("set_max_room_price", "max_price_room")

    def select_room_type(self, room_type: str) -> None:
        """Choose the room type (stored as given, as in the original)."""
        self._require_booking_type("select_room_type")
        self.search_criteria["room_type"] = room_type

    def search(self) -> TripSearchResult:
        """Fill the defaults, check the required fields, and search tickets and rooms."""
        c = self.search_criteria
        c.setdefault("min_price_ticket", 0)
        c.setdefault("min_price_room", 0)
        kind = c.get("booking_type")
        if kind is None:
            raise ToolCallError(PRECONDITION, "API.search() needs API.select_booking_type() first")
        missing = [k for k in _REQUIRED[kind] if k not in c]
        if missing:
            raise ToolCallError(
                PRECONDITION,
                f"API.search() for booking type {kind!r} needs {', '.join(_REQUIRED[kind])}; "
                f"missing: {', '.join(missing)}",
            )
        if kind in ("hotels", "both"):
            c.setdefault("num_rooms", 1)
        if kind == "both":
            c.setdefault("departure_date", c["checkin_date"])
            c.setdefault("return_date", c["checkout_date"])
        result = TripSearchResult(dict(c), shown=self.max_results)
        if kind in ("trip tickets", "both"):
            self._search_tickets(result)
        if kind in ("hotels", "both"):
            self._search_rooms(result)
        self.last_search = result
        return result

    def _search_tickets(self, result: TripSearchResult) -> None:
        c = self.search_criteria
        notes = result.notes
        travellers = _int(c.get("num_adults", 1), "num_adults", notes, 1) + _int(
            c.get("num_children", 0), "num_children", notes, 0
        )
        lo = _num(c.get("min_price_ticket"), "min_price_ticket", notes)
        hi = _num(c.get("max_price_ticket"), "max_price_ticket", notes)
        origin, dest = str(c["location_from"]), str(c["location_to"])
        mode = c["means_of_transportation"]
        out_date = _date(c["departure_date"], "departure_date", notes)
        if out_date is not None:
            q = TicketQuery(origin, dest, mode, out_date, max(travellers, 1), lo, hi)
            result.outbound = self.inventory.search_tickets(q)
        if "return_date" in c:
            back = _date(c["return_date"], "return_date", notes)
            if back is not None:
                q = TicketQuery(dest, origin, mode, back, max(travellers, 1), lo, hi)
                result.inbound = self.inventory.search_tickets(q)

    def _search_rooms(self, result: TripSearchResult) -> None:
        c = self.search_criteria
        notes = result.notes
        checkin = _date(c["checkin_date"], "checkin_date", notes)
        checkout = _date(c["checkout_date"], "checkout_date", notes)
        rooms = max(_int(c.get("num_rooms", 1), "num_rooms", notes, 1), 1)
        result.num_rooms = rooms
        if checkin is None or checkout is None:
            return
        if checkout <= checkin:
            notes.append("checkout_date must be after checkin_date; no rooms searched")
            return
        room_type = c.get("room_type")
        if room_type is not None and str(room_type).lower() not in {r.lower() for r in ROOM_TYPES}:
            notes.append(f"unknown room type {room_type!r}; no room has it")
        q = HotelQuery(
            str(c["location"]),
            checkin,
            checkout,
            rooms,
            str(room_type) if room_type is not None else None,
            _num(c.get("min_price_room"), "min_price_room", notes),
            _num(c.get("max_price_room"), "max_price_room", notes),
        )
        result.rooms = self.inventory.search_hotels(q)

    def _require_booking_type(self, name: str) -> None:
        if "booking_type" not in self.search_criteria:
            raise ToolCallError(
                PRECONDITION, f"API.{name}() needs API.select_booking_type() to be called first"
            )


_LOC_SETTERS = {
    "set_origin": _make_loc_setter("set_origin", "location_from", "origin"),
    "set_destination": _make_loc_setter("set_destination", "location_to", "destination"),
    "set_hotel_location": _make_loc_setter("set_hotel_location", "location", "location"),
}


def _num(value: Any, key: str, notes: list[str]) -> float | None:
    if value is None:
        return None
    number = as_number(value)
    if number is None:
        notes.append(f"{key}={value!r} is not a number; filter ignored")
    return number


def _int(value: Any, key: str, notes: list[str], default: int) -> int:
    number = _num(value, key, notes)
    return default if number is None else int(number)


def _date(value: Any, key: str, notes: list[str]) -> dt.date | None:
    try:
        month, day, year = (int(p) for p in str(value).split("-"))
        return dt.date(year, month, day)
    except (ValueError, OverflowError):
        notes.append(f"{key}={value!r} is not a real date (month-day-year); not searched")
        return None


def _date_from_json(value: Any) -> tuple[list[Any], dict[str, Any]]:
    """``Date`` arguments from a JSON value: ``{"month", "day", "year"}``, a list or ``"YYYY-MM-DD"``."""
    if isinstance(value, str):
        try:
            year, month, day = (int(p) for p in value.split("-"))
        except ValueError:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f'a Date must be {{"month", "day", "year"}} or "YYYY-MM-DD"; got {value!r}',
            ) from None
        return [month, day, year], {}
    return construct_from_json(value)


class TripBookingToolkit(SearchToolkit):
    """Trip Booking programs over the travel inventory of ``world_seed``, with ``Loc`` and ``Date``.

    Args:
        world_seed: seed of the travel inventory.
        extraction: ``"strict"`` or ``"lenient"`` (see :mod:`toolgym.tools.program`).
        max_results: offers shown per list.
    """

    api_class = TripBookingAPI
    constructors = (Constructor(LOC, Loc), Constructor(DATE, Date, _date_from_json))

    def __init__(self, world_seed: int = 0, **options: Any) -> None:
        super().__init__(world_seed, **options)
        self.inventory = get_travel_inventory(world_seed)

    def make_api(self) -> TripBookingAPI:
        """A fresh ``API`` object with empty criteria."""
        return TripBookingAPI(self.inventory, self.max_results)
