"""Generated Trip Booking tasks: user goals and gold programs, as in ToolBench's ``booking/v0``.

Each task is one request for ticket offers (``"trip tickets"``), hotel rooms (``"hotels"``) or both,
written the way a traveller would ask, with one correct program in the original format::

    API.select_booking_type("trip tickets")
    API.select_transportation("flight")
    location_from = Loc("Austin")
    API.set_origin(location_from)
    ...
    API.search()

``select_booking_type`` comes first, the other calls follow the order in which the goal mentions
them, and ``API.search()`` comes last. Everything the goal mentions is set and nothing else, so the
gold program is unambiguous. Prices are chosen from the travel inventory so that the gold search
always returns offers (tickets with enough seats for the party, rooms of the requested type with
enough rooms left).

Splits are fixed: ``test`` (120 tasks, mixed like the original: 44 ticket, 44 hotel and 32 combined
requests) and ``demo`` (11 tasks for few-shot prompts). Training tasks come from
:func:`train_task`, which rebuilds task ``train-<k>`` from ``k`` alone; none repeats a test or demo
goal.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields

import numpy as np

from toolgym.benchmarks import phrasing
from toolgym.benchmarks.phrasing import count, pick
from toolgym.benchmarks.suite import first_unseen, sample_train, train_stream
from toolgym.benchmarks.tasks import Task
from toolgym.simulators.places import CITIES, distance_km
from toolgym.simulators.seeding import stable_seed
from toolgym.simulators.travel import ROOM_TYPES, TRANSPORT_MODES, get_travel_inventory
from toolgym.tools.program import run_program
from toolgym.tools.trip_booking import BOOKING_TYPES, TripBookingAPI, TripBookingToolkit

FAMILY = "trip_booking"
VERSION = 0
SPLITS: dict[str, int] = {"test": 120, "demo": 11}
"""Fixed splits and their sizes."""

# Exact mixes of the fixed splits. Ticket-using tasks (tickets and both) get the transport modes,
# hotel-using tasks (hotels and both) the room types (None: no room type mentioned).
_MIX: dict[str, dict[str, dict[str | None, int]]] = {
    "test": {
        "booking": {"trip tickets": 44, "hotels": 44, "both": 32},
        "modes": {"bus": 25, "flight": 20, "train": 17, "cruise": 14},
        "rooms": {"Double": 16, "Queen Bed": 15, "King Bed": 15, "Luxury": 12, None: 18},
    },
    "demo": {
        "booking": {"trip tickets": 4, "hotels": 4, "both": 3},
        "modes": {"bus": 2, "flight": 2, "train": 2, "cruise": 1},
        "rooms": {"King Bed": 2, "Queen Bed": 2, "Double": 1, "Luxury": 1, None: 1},
    },
}
_BOOKING_WEIGHTS = {"trip tickets": 44, "hotels": 44, "both": 32}
_MODE_WEIGHTS = {"bus": 25, "flight": 20, "train": 17, "cruise": 14}
_ROOM_TYPE_P = 0.76

_FIRST_DAY = dt.date(2026, 1, 4)
_LAST_DAY = dt.date(2027, 12, 8)  # leaves room for returns and check-outs inside 2027

# -- cities ------------------------------------------------------------------------------------

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


_PAIRS = _route_pairs()
_CITY_NAMES = tuple(c.name for c in CITIES)

# -- words -------------------------------------------------------------------------------------

_TICKETS = {
    "flight": ("flight tickets", "plane tickets", "airline tickets"),
    "train": ("train tickets",),
    "bus": ("bus tickets",),
    "cruise": ("cruise tickets",),
}
_GOING = {
    "flight": ("flying",),
    "train": ("taking the train", "going by train"),
    "bus": ("taking the bus", "going by bus"),
    "cruise": ("taking a cruise", "going on a cruise"),
}
_GO = {
    "flight": ("fly",),
    "train": ("take the train", "go by train"),
    "bus": ("take the bus", "go by bus"),
    "cruise": ("take a cruise", "go on a cruise"),
}
_TRIP = {
    "flight": ("a flight",),
    "train": ("a train trip", "a train ride"),
    "bus": ("a bus trip", "a bus ride"),
    "cruise": ("a cruise",),
}
_OCCASIONS = (
    "a conference",
    "a wedding",
    "a family visit",
    "work",
    "a concert",
    "a friend's graduation",
    "a short vacation",
)

# -- the trip behind a goal --------------------------------------------------------------------


@dataclass
class _Trip:
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
_CALLS: dict[str, str] = {
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


def _program_lines(trip: _Trip, step: str) -> list[str]:
    value = getattr(trip, step)
    call = _CALLS[step]
    if isinstance(value, dt.date):
        var = _VARIABLES[step]
        return [f"{var} = Date({value.month}, {value.day}, {value.year})", f"API.{call}({var})"]
    if step in ("origin", "destination", "hotel"):
        var = _VARIABLES[step]
        return [f'{var} = Loc("{value}")', f"API.{call}({var})"]
    if isinstance(value, str):
        return [f'API.{call}("{value}")']
    return [f"API.{call}({value})"]


# -- phrases -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Bit:
    """A piece of the goal and the trip fields it mentions."""

    text: str
    steps: tuple[str, ...] = ()


@dataclass
class _Say:
    """Builds a goal from strings and bits, recording the order in which fields are mentioned."""

    parts: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)

    def __call__(self, *items: str | _Bit | None) -> _Say:
        for item in items:
            if item is None:
                continue
            if isinstance(item, str):
                self.parts.append(item)
            else:
                self.parts.append(item.text)
                self.steps.extend(item.steps)
        return self

    @property
    def text(self) -> str:
        return " ".join("".join(self.parts).split())


_MONTH_WORDS = re.compile(
    r"\b(January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b"
)
_ORDINAL_WORDS = re.compile(
    r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d+(st|nd|rd|th))\b"
)


def _shape(text: str) -> str:
    """The written form of a date or an amount, without its values ("M 9, Y", "$9", "9 USD")."""
    text = _ORDINAL_WORDS.sub("O", _MONTH_WORDS.sub("M", text))
    text = re.sub(r"\b\d{4}\b", "Y", text)
    return re.sub(r"\d+(,\d{3})*", "9", text)


def _same_form(t: _Trip, kind: str, write: Callable[[], str]) -> str:
    """Write a value with ``write`` (a phrasing helper) in the form this goal already uses."""
    text = write()
    for _ in range(300):
        if t.shapes.setdefault(kind, _shape(text)) == _shape(text):
            break
        text = write()
    return text


def _day(rng: np.random.Generator, t: _Trip, day: dt.date) -> str:
    return _same_form(t, "date", lambda: phrasing.date(rng, day))


def _money(rng: np.random.Generator, t: _Trip, amount: int) -> str:
    return _same_form(t, "money", lambda: phrasing.money(rng, amount))


def _city(step: str, name: str | None) -> _Bit:
    assert name is not None
    return _Bit(name, (step,))


def _date(rng: np.random.Generator, t: _Trip, step: str) -> _Bit:
    day = getattr(t, step)
    assert isinstance(day, dt.date)
    return _Bit(_day(rng, t, day), (step,))


def _mode(rng: np.random.Generator, table: Mapping[str, tuple[str, ...]], mode: str | None) -> _Bit:
    assert mode is not None
    return _Bit(pick(rng, table[mode]), ("mode",))


def _kids(rng: np.random.Generator, n: int) -> str:
    if n == 1:
        return pick(rng, ("a child", "a kid", "one child", "1 child"))
    return f"{count(rng, n)} {pick(rng, ('children', 'kids'))}"


def _party(rng: np.random.Generator, trip: _Trip, *, personal: bool = True) -> _Bit:
    """Who travels: "2 adults and a kid", "one adult", "my partner and me" (2 adults)..."""
    adults, children = trip.adults, trip.children
    assert adults is not None
    steps = ("adults", "children") if children else ("adults",)
    adult_text = (
        pick(rng, ("one adult", "1 adult")) if adults == 1 else f"{count(rng, adults)} adults"
    )
    if not children:
        if personal and adults == 2 and rng.random() < 0.25:
            return _Bit(pick(rng, ("my partner and me", "me and my partner")), steps)
        return _Bit(adult_text, steps)
    if personal and adults == 1 and rng.random() < 0.3:
        kids = pick(rng, ("kid", "child")) if children == 1 else _kids(rng, children)
        return _Bit(f"me and my {kids}", steps)
    if personal and adults == 2 and rng.random() < 0.3:
        kids = pick(rng, ("kid", "child")) if children == 1 else _kids(rng, children)
        return _Bit(f"my partner, me and our {kids}", steps)
    return _Bit(f"{adult_text} and {_kids(rng, children)}", steps)


def _rooms(rng: np.random.Generator, trip: _Trip) -> _Bit:
    """The rooms wanted: "a room", "a Luxury room", "3 King Bed rooms"..."""
    n, kind = trip.rooms, trip.room_type
    steps = tuple(s for s in ("rooms", "room_type") if getattr(trip, s) is not None)
    if n is None and kind is None:
        return _Bit(pick(rng, ("a room", "a hotel room")))
    if n is None:
        forms = [f"a {kind} room"] + ([f"a room with a {kind}"] if "Bed" in str(kind) else [])
        return _Bit(pick(rng, forms), steps)
    if kind is None:
        return _Bit(f"{count(rng, n)} {pick(rng, ('rooms', 'hotel rooms'))}", steps)
    return _Bit(f"{count(rng, n)} {kind} rooms", steps)


def _nights(rng: np.random.Generator, n: int) -> str:
    if n == 1:
        return pick(rng, ("one night", "1 night", "a single night"))
    return f"{count(rng, n)} nights"


_STAY_FORMS = ("from_to", "between", "in_out", "nights_start", "nights_from_to", "until")


def _stay(rng: np.random.Generator, trip: _Trip, forms: tuple[str, ...] = _STAY_FORMS) -> _Bit:
    """When the hotel stay is: "from A to B", "for 3 nights starting A"..."""
    assert trip.checkin is not None and trip.checkout is not None
    ci, co = _day(rng, trip, trip.checkin), _day(rng, trip, trip.checkout)
    nights = _nights(rng, (trip.checkout - trip.checkin).days)
    text = {
        "from_to": f"from {ci} to {co}",
        "between": f"between {ci} and {co}",
        "in_out": f"checking in on {ci} and checking out on {co}",
        "nights_start": f"for {nights} starting {ci}",
        "nights_from_to": f"for {nights}, from {ci} to {co}",
        "until": f"from {ci} until {co}",
    }[pick(rng, forms)]
    return _Bit(text, ("checkin", "checkout"))


def _return(rng: np.random.Generator, trip: _Trip, *, relative: bool = True) -> _Bit:
    """The way back: "returning on B", "coming back 5 days later"..."""
    assert trip.departure is not None and trip.return_date is not None
    days = (trip.return_date - trip.departure).days
    when = _day(rng, trip, trip.return_date)
    forms = [f"returning on {when}", f"coming back on {when}"]
    if relative:
        later = {7: "a week later", 14: "two weeks later"}.get(
            days, f"{count(rng, days)} days later"
        )
        forms += [f"returning {later}", f"coming back {later}"]
    return _Bit(pick(rng, forms), ("return_date",))


_UNITS = {
    "ticket": ("per ticket", "a ticket", "each"),
    "room": ("per night", "a night", "per room per night"),
}
_PRICE_KEYS = {"ticket": ("min_ticket", "max_ticket"), "room": ("min_room", "max_room")}


def _bounds(trip: _Trip, kind: str) -> tuple[int | None, int | None]:
    lo_key, hi_key = _PRICE_KEYS[kind]
    return getattr(trip, lo_key), getattr(trip, hi_key)


def _has_price(trip: _Trip, kind: str) -> bool:
    return _bounds(trip, kind) != (None, None)


def _price(rng: np.random.Generator, trip: _Trip, kind: str) -> _Bit:
    """A price clause: "under $200 a night", "between 80 and 120 USD per ticket"..."""
    lo, hi = _bounds(trip, kind)
    unit = pick(rng, _UNITS[kind])
    lo_key, hi_key = _PRICE_KEYS[kind]
    if lo is not None and hi is not None:
        a, b = _money(rng, trip, lo), _money(rng, trip, hi)
        forms = (f"between {a} and {b} {unit}", f"priced {a} to {b} {unit}")
        return _Bit(pick(rng, forms), (lo_key, hi_key))
    if hi is not None:
        m = _money(rng, trip, hi)
        forms = (
            f"under {m} {unit}",
            f"at most {m} {unit}",
            f"no more than {m} {unit}",
            f"less than {m} {unit}",
            f"with a maximum of {m} {unit}",
        )
        return _Bit(pick(rng, forms), (hi_key,))
    assert lo is not None
    m = _money(rng, trip, lo)
    forms = (f"above {m} {unit}", f"at least {m} {unit}", f"no less than {m} {unit}")
    return _Bit(pick(rng, forms), (lo_key,))


def _price_sentence(rng: np.random.Generator, trip: _Trip, kind: str) -> _Bit:
    """A price as a sentence of its own: "Keep it under $90 a ticket."..."""
    lo, hi = _bounds(trip, kind)
    unit = pick(rng, _UNITS[kind][:2])
    lo_key, hi_key = _PRICE_KEYS[kind]
    thing = "the tickets" if kind == "ticket" else "the room"
    if lo is not None and hi is not None:
        a, b = _money(rng, trip, lo), _money(rng, trip, hi)
        forms = (
            f"My budget is between {a} and {b} {unit}.",
            f"Prices should be between {a} and {b} {unit}.",
            f"I'm looking to spend {a} to {b} {unit}.",
        )
        return _Bit(pick(rng, forms), (lo_key, hi_key))
    if hi is not None:
        m = _money(rng, trip, hi)
        forms = (
            f"Keep it under {m} {unit}.",
            f"My budget is {m} {unit} at most.",
            f"I don't want to pay more than {m} {unit}.",
            f"Nothing over {m} {unit}, please.",
        )
        return _Bit(pick(rng, forms), (hi_key,))
    assert lo is not None
    m = _money(rng, trip, lo)
    forms = (
        f"I'd like {thing} to cost at least {m} {unit}.",
        f"Please only show options above {m} {unit}.",
        f"Nothing cheaper than {m} {unit}, please.",
    )
    return _Bit(pick(rng, forms), (lo_key,))


# -- templates ---------------------------------------------------------------------------------

_Render = Callable[[np.random.Generator, _Trip], _Say]


@dataclass(frozen=True)
class _Template:
    """A way of phrasing a goal; ``force`` turns optional parts of the trip on (True) or off."""

    template_id: str
    booking_type: str
    render: _Render
    force: Mapping[str, bool]


_TEMPLATES: dict[str, list[_Template]] = {bt: [] for bt in BOOKING_TYPES}


def _template(template_id: str, booking_type: str, **force: bool) -> Callable[[_Render], _Render]:
    def register(render: _Render) -> _Render:
        _TEMPLATES[booking_type].append(_Template(template_id, booking_type, render, force))
        return render

    return register


def _opt(prefix: str, bit: _Bit | None, suffix: str = "") -> list[str | _Bit]:
    return [] if bit is None else [prefix, bit, suffix]


def _party_opt(rng: np.random.Generator, t: _Trip, prefix: str = " for ") -> list[str | _Bit]:
    return _opt(prefix, _party(rng, t) if t.adults else None)


def _ret_opt(rng: np.random.Generator, t: _Trip, prefix: str = ", ") -> list[str | _Bit]:
    return _opt(prefix, _return(rng, t) if t.return_date else None)


def _price_opt(
    rng: np.random.Generator, t: _Trip, kind: str, prefix: str = ", "
) -> list[str | _Bit]:
    return _opt(prefix, _price(rng, t, kind) if _has_price(t, kind) else None)


def _price_sentence_opt(rng: np.random.Generator, t: _Trip, kind: str) -> list[str | _Bit]:
    return _opt(" ", _price_sentence(rng, t, kind) if _has_price(t, kind) else None)


# Trip tickets.


@_template("tickets_need", "trip tickets")
def _tickets_need(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("I need ", "I'd like ", "I want ")), _mode(rng, _TICKETS, t.mode))
    s(*_party_opt(rng, t), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    return s(*_ret_opt(rng, t), *_price_opt(rng, t, "ticket"), ".")


@_template("tickets_book", "trip tickets")
def _tickets_book(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Book ", "Please book ", "Book me ")), _mode(rng, _TRIP, t.mode), " from ")
    s(_city("origin", t.origin), " to ", _city("destination", t.destination), *_party_opt(rng, t))
    s(", ", pick(rng, ("leaving ", "departing on ", "going out on ")))
    s(_date(rng, t, "departure"), *_ret_opt(rng, t), ".")
    return s(*_price_sentence_opt(rng, t, "ticket"))


@_template("tickets_question", "trip tickets")
def _tickets_question(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Can you find ", "Could you look up ", "Are there any ", "Can you check for ")))
    s(_mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    s(*_party_opt(rng, t), *_ret_opt(rng, t), *_price_opt(rng, t, "ticket"), "?")
    return s


@_template("tickets_we_travel", "trip tickets", party=True, group=True)
def _tickets_we_travel(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("We're ", _mode(rng, _GOING, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    s(*_ret_opt(rng, t, " and "), pick(rng, (" — ", ": ", ", ")), _party(rng, t), ".")
    return s(*_price_sentence_opt(rng, t, "ticket"))


@_template("tickets_plan", "trip tickets")
def _tickets_plan(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("I'm planning a trip to ", _city("destination", t.destination), " from ")
    s(_city("origin", t.origin), ". Please look for ", _mode(rng, _TICKETS, t.mode))
    s(*_party_opt(rng, t), " departing ", _date(rng, t, "departure"))
    return s(*_ret_opt(rng, t), *_price_opt(rng, t, "ticket"), ".")


@_template("tickets_round_trip", "trip tickets", return_date=True)
def _tickets_round_trip(rng: np.random.Generator, t: _Trip) -> _Say:
    assert t.return_date is not None
    s = _Say()
    s(pick(rng, ("Round-trip ", "Round trip ")), _mode(rng, _TICKETS, t.mode), ", ")
    s(_city("origin", t.origin), " to ", _city("destination", t.destination), ", leaving ")
    s(_date(rng, t, "departure"), " and returning ")
    s(_date(rng, t, "return_date"), *_party_opt(rng, t, ", for "))
    return s(*_price_opt(rng, t, "ticket"), ".")


@_template("tickets_one_way", "trip tickets", return_date=False)
def _tickets_one_way(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Looking for one-way ", "I'm looking for one-way ", "Find one-way ")))
    s(_mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    return s(*_party_opt(rng, t), *_price_opt(rng, t, "ticket"), ".")


@_template("tickets_budget_first", "trip tickets", ticket_price=True)
def _tickets_budget_first(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s(_price_sentence(rng, t, "ticket"), " ", pick(rng, ("Find me ", "Search for ", "Show me ")))
    s(_mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    return s(*_party_opt(rng, t), *_ret_opt(rng, t), ".")


@_template("tickets_group_first", "trip tickets", party=True, group=True)
def _tickets_group_first(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("There will be ", _party(rng, t, personal=False), " travelling. We want to ")
    s(_mode(rng, _GO, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    return s(*_ret_opt(rng, t), ".", *_price_sentence_opt(rng, t, "ticket"))


@_template("tickets_date_first", "trip tickets")
def _tickets_date_first(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("On ", _date(rng, t, "departure"), " I'll be ", _mode(rng, _GOING, t.mode))
    s(" from ", _city("origin", t.origin), " to ", _city("destination", t.destination))
    s(*_ret_opt(rng, t), ". Please find tickets", *_party_opt(rng, t))
    return s(*_price_opt(rng, t, "ticket"), ".")


# Hotels.


@_template("hotels_book", "hotels")
def _hotels_book(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Book me ", "Please book ", "Reserve ")), _rooms(rng, t), " in ")
    s(_city("hotel", t.hotel), " ", _stay(rng, t, ("from_to", "until")))
    return s(*_price_opt(rng, t, "room"), ".")


@_template("hotels_look_for", "hotels")
def _hotels_look_for(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Look for ", "Search for ")), _rooms(rng, t), " to stay in ")
    s(_city("hotel", t.hotel), " ", _stay(rng, t, ("between", "from_to", "nights_from_to")))
    return s(".", *_price_sentence_opt(rng, t, "room"))


@_template("hotels_question", "hotels")
def _hotels_question(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Can you find ", "Could you check for ", "Is there availability for ")))
    s(_rooms(rng, t), " in ", _city("hotel", t.hotel), " ", _stay(rng, t))
    return s(*_price_opt(rng, t, "room"), "?")


@_template("hotels_nights", "hotels")
def _hotels_nights(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("I'll be in ", _city("hotel", t.hotel), " ", _stay(rng, t, ("nights_start",)), ". ")
    s(pick(rng, ("I need ", "Please find me ", "I want ")), _rooms(rng, t))
    return s(*_price_opt(rng, t, "room"), ".")


@_template("hotels_terse", "hotels")
def _hotels_terse(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("Hotel in ", _city("hotel", t.hotel), ", check-in ", _date(rng, t, "checkin"))
    s(", check-out ", _date(rng, t, "checkout"), ", ", _rooms(rng, t))
    return s(*_price_opt(rng, t, "room"), ".")


@_template("hotels_budget_first", "hotels", room_price=True)
def _hotels_budget_first(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s(_price_sentence(rng, t, "room"), " Please search for ", _rooms(rng, t), " in ")
    return s(_city("hotel", t.hotel), " ", _stay(rng, t), ".")


@_template("hotels_occasion", "hotels")
def _hotels_occasion(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("I'm going to ", _city("hotel", t.hotel), f" for {pick(rng, _OCCASIONS)} ")
    s(_stay(rng, t, ("from_to", "until")), ". Can you find ", _rooms(rng, t))
    return s(*_price_opt(rng, t, "room"), "?")


@_template("hotels_group", "hotels", rooms=True)
def _hotels_group(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("We need ", _rooms(rng, t), " in ", _city("hotel", t.hotel), ", arriving ")
    s(_date(rng, t, "checkin"), " and leaving ", _date(rng, t, "checkout"), ".")
    return s(*_price_sentence_opt(rng, t, "room"))


@_template("hotels_find_until", "hotels")
def _hotels_find_until(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("Find a hotel in ", _city("hotel", t.hotel), " ", _stay(rng, t, ("until", "from_to")), ".")
    if t.rooms is not None or t.room_type is not None:
        s(pick(rng, (" We'd like ", " I want ", " We need ")), _rooms(rng, t), ".")
    return s(*_price_sentence_opt(rng, t, "room"))


# Both tickets and hotel.


@_template("both_rooms_then_tickets", "both")
def _both_rooms_then_tickets(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("Look for ", _rooms(rng, t), " to stay in ", _city("hotel", t.hotel), " ")
    s(_stay(rng, t, ("between", "from_to")), *_price_opt(rng, t, "room"), ". Also search for ")
    s(_mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), *_party_opt(rng, t))
    return s(*_price_opt(rng, t, "ticket"), ".")


@_template("both_plan", "both")
def _both_plan(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("I'm planning a trip from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " and need to book ", _mode(rng, _TICKETS, t.mode))
    s(*_party_opt(rng, t), *_price_opt(rng, t, "ticket"), ". Can you also help me find ")
    s(_rooms(rng, t), " in ", _city("hotel", t.hotel), " ", _stay(rng, t))
    return s(*_price_opt(rng, t, "room"), "?")


@_template("both_two_parts", "both")
def _both_two_parts(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("Two things: ", _mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), *_party_opt(rng, t), *_price_opt(rng, t, "ticket"))
    s(", and ", _rooms(rng, t), " in ", _city("hotel", t.hotel), " ", _stay(rng, t))
    return s(*_price_opt(rng, t, "room"), ".")


@_template("both_package", "both")
def _both_package(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("Help me plan a trip: I want to ", _mode(rng, _GO, t.mode), " from ")
    s(_city("origin", t.origin), " to ", _city("destination", t.destination), " and need ")
    s(_rooms(rng, t), _Bit(" there", ("hotel",)), " ", _stay(rng, t), ".")
    s(*_party_opt(rng, t, " The tickets are for "), "." if t.adults else "")
    return s(*_price_sentence_opt(rng, t, "ticket"), *_price_sentence_opt(rng, t, "room"))


@_template("both_we_travel", "both", party=True, group=True)
def _both_we_travel(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("We're ", _mode(rng, _GOING, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), pick(rng, (" — ", ": ")), _party(rng, t), ". ")
    s("We'll need ", _rooms(rng, t), _Bit(" there", ("hotel",)), ", ")
    s(_stay(rng, t, ("in_out", "from_to", "nights_from_to")), ".")
    return s(*_price_sentence_opt(rng, t, "room"), *_price_sentence_opt(rng, t, "ticket"))


@_template("both_explicit_dates", "both", departure=True)
def _both_explicit_dates(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("I'm ", _mode(rng, _GOING, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    s(" and need ", _rooms(rng, t), _Bit(" there", ("hotel",)), " ")
    s(_stay(rng, t, ("from_to", "until", "between")), ".")
    if t.return_date is not None:
        s(" I'll head back on ", _date(rng, t, "return_date"), ".")
    s(*_party_opt(rng, t, " The tickets are for "), "." if t.adults else "")
    return s(*_price_sentence_opt(rng, t, "ticket"), *_price_sentence_opt(rng, t, "room"))


@_template("both_question", "both")
def _both_question(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("Can you find me ", _rooms(rng, t), " in ", _city("hotel", t.hotel), " ")
    s(_stay(rng, t, ("nights_start", "from_to")), ", plus ", _mode(rng, _TICKETS, t.mode))
    s(_Bit(" to get there", ("destination",)), " from ", _city("origin", t.origin))
    s(*_party_opt(rng, t), "?")
    return s(*_price_sentence_opt(rng, t, "room"), *_price_sentence_opt(rng, t, "ticket"))


@_template("both_tickets_then_hotel", "both")
def _both_tickets_then_hotel(rng: np.random.Generator, t: _Trip) -> _Say:
    s = _Say()
    s("I'd like ", _mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), *_party_opt(rng, t), *_price_opt(rng, t, "ticket"))
    s(". While you're at it, show me ", _rooms(rng, t), " in ", _city("hotel", t.hotel), " ")
    return s(_stay(rng, t, ("from_to", "between")), *_price_opt(rng, t, "room"), ".")


# -- sampling ----------------------------------------------------------------------------------


def _random_day(rng: np.random.Generator) -> dt.date:
    span = (_LAST_DAY - _FIRST_DAY).days
    return _FIRST_DAY + dt.timedelta(days=int(rng.integers(span + 1)))


def _want(rng: np.random.Generator, tpl: _Template, feature: str, p: float) -> bool:
    draw = bool(rng.random() < p)
    return tpl.force.get(feature, draw)


def _price_kind(rng: np.random.Generator) -> str:
    return pick(rng, ("max", "max", "max", "max", "max", "range", "range", "range", "min", "min"))


def _step(value: float) -> int:
    return 5 if value < 60 else 10 if value < 300 else 25 if value < 1000 else 50


def _round_up(value: float) -> int:
    step = _step(value)
    return (math.floor(value / step) + 1) * step


def _round_down(value: float) -> int:
    step = _step(value)
    return (math.ceil(value / step) - 1) * step


def _price_bounds(
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


def _ticket_legs(t: _Trip) -> list[list[float]]:
    """Adult fares of the offers with enough seats, per leg (outbound, then return if any)."""
    assert t.mode and t.origin and t.destination
    inv = get_travel_inventory()
    travellers = (t.adults or 1) + (t.children or 0)
    out = t.departure or t.checkin
    back = t.return_date or (t.checkout if t.booking_type == "both" else None)
    legs = [(t.origin, t.destination, out)] + ([(t.destination, t.origin, back)] if back else [])
    return [
        [o.price for o in inv.tickets(a, b, day, t.mode) if o.seats_left >= travellers]
        for a, b, day in legs
        if day is not None
    ]


def _room_legs(t: _Trip) -> list[list[float]]:
    """Nightly prices of the room offers of the right type with enough rooms left."""
    assert t.hotel and t.checkin and t.checkout
    rooms = get_travel_inventory().rooms(t.hotel, t.checkin, t.checkout)
    need = t.rooms or 1
    kind = t.room_type
    return [
        [
            o.nightly_price
            for o in rooms
            if o.rooms_left >= need and (kind is None or o.room_type == kind)
        ]
    ]


def _sample(
    rng: np.random.Generator, tpl: _Template, mode: str | None, room_type: str | None
) -> _Trip | None:
    """One candidate trip for ``tpl``; None when the inventory cannot serve it."""
    bt = tpl.booking_type
    t = _Trip(bt)
    tickets, hotel = bt in ("trip tickets", "both"), bt in ("hotels", "both")
    if tickets:
        assert mode is not None
        t.mode = mode
        pairs = _PAIRS[mode]
        t.origin, t.destination = pairs[int(rng.integers(len(pairs)))]
    if hotel:
        t.hotel = t.destination or pick(rng, _CITY_NAMES)
        t.checkin = _random_day(rng)
        t.checkout = t.checkin + dt.timedelta(days=int(rng.integers(1, 11)))
        t.room_type = room_type
        if _want(rng, tpl, "rooms", 0.4):
            t.rooms = int(rng.integers(2, 6))
    if bt == "trip tickets":
        t.departure = _random_day(rng)
        if _want(rng, tpl, "return_date", 0.5):
            t.return_date = t.departure + dt.timedelta(days=int(rng.integers(2, 15)))
    elif bt == "both" and _want(rng, tpl, "departure", False):
        assert t.checkin is not None and t.checkout is not None
        t.departure = t.checkin - dt.timedelta(days=int(rng.integers(0, 2)))
        if rng.random() < 0.5:
            t.return_date = t.checkout + dt.timedelta(days=int(rng.integers(0, 2)))
    if tickets:
        if _want(rng, tpl, "party", 0.55 if bt == "trip tickets" else 0.45):
            t.adults = pick(rng, (1, 2, 2, 2, 3, 4, 5))
            if rng.random() < 0.35:
                t.children = int(rng.integers(1, 4))
            if tpl.force.get("group") and t.adults + (t.children or 0) < 2:
                t.adults = int(rng.integers(2, 5))
        if _want(rng, tpl, "ticket_price", 0.45 if bt == "trip tickets" else 0.25):
            bounds = _price_bounds(rng, _ticket_legs(t), _price_kind(rng))
            if bounds is None:
                return None
            t.min_ticket, t.max_ticket = bounds
        elif not all(_ticket_legs(t)):
            return None
    if hotel:
        if _want(rng, tpl, "room_price", 0.5 if bt == "hotels" else 0.35):
            bounds = _price_bounds(rng, _room_legs(t), _price_kind(rng))
            if bounds is None:
                return None
            t.min_room, t.max_room = bounds
        elif not all(_room_legs(t)):
            return None
    return t


def _render(rng: np.random.Generator, tpl: _Template, t: _Trip) -> tuple[str, str, list[str]]:
    """The goal, the gold program and the sorted API functions it calls."""
    say = tpl.render(rng, t)
    if sorted(say.steps) != sorted(t.mentioned()):
        raise AssertionError(
            f"template {tpl.template_id} mentions {sorted(say.steps)}; "
            f"the trip sets {sorted(t.mentioned())}"
        )
    lines = [f'API.select_booking_type("{t.booking_type}")']
    for step in say.steps:
        lines += _program_lines(t, step)
    lines.append("API.search()")
    calls = sorted({"select_booking_type", "search", *(_CALLS[s] for s in say.steps)})
    return say.text, "\n".join(lines), calls


@functools.lru_cache(maxsize=1)
def _toolkit() -> TripBookingToolkit:
    return TripBookingToolkit()


def search_finds_offers(program: str) -> bool:
    """Whether ``program`` runs and its search returns offers for every part of the request.

    Ticket searches need outbound offers (and return offers when a return date is set or implied);
    hotel searches need room offers.

    Args:
        program: a Trip Booking program ending with ``API.search()``.

    Returns:
        True when every searched list is non-empty.
    """
    session = _toolkit().new_session()
    run_program(program, session)
    api = session.api
    assert isinstance(api, TripBookingAPI)
    result = api.last_search
    if result is None:
        return False
    kind = result.criteria["booking_type"]
    lists = []
    if kind in ("trip tickets", "both"):
        lists.append(result.outbound)
        if "return_date" in result.criteria:
            lists.append(result.inbound)
    if kind in ("hotels", "both"):
        lists.append(result.rooms)
    return all(lists)


def _make_task(
    rng: np.random.Generator,
    task_id: str,
    tpl: _Template,
    mode: str | None,
    room_type: str | None,
) -> Task:
    for _ in range(200):
        trip = _sample(rng, tpl, mode, room_type)
        if trip is None:
            continue
        instruction, program, calls = _render(rng, tpl, trip)
        if not search_finds_offers(program):
            continue
        meta = {
            "template": tpl.template_id,
            "booking_type": tpl.booking_type,
            "calls": calls,
            "transportation": trip.mode,
            "room_type": trip.room_type,
        }
        return Task(task_id, instruction, (program,), meta)
    raise RuntimeError(f"could not build a searchable task for template {tpl.template_id}")


def _weighted(rng: np.random.Generator, weights: Mapping[str, int]) -> str:
    keys = list(weights)
    p = np.array([weights[k] for k in keys], dtype=float)
    return keys[int(rng.choice(len(keys), p=p / p.sum()))]


# -- public interface --------------------------------------------------------------------------


def generate_task(
    rng: np.random.Generator, task_id: str, *, booking_type: str | None = None
) -> Task:
    """Draw one task: a booking type (unless given), a template, the trip and the gold program.

    Args:
        rng: the generator every choice is drawn from.
        task_id: the id of the task.
        booking_type: ``"trip tickets"``, ``"hotels"`` or ``"both"``; drawn with the test mix
            (44/44/32) when None.

    Returns:
        The task; its gold search returns offers.

    Raises:
        ValueError: ``booking_type`` is not one of the API's booking types.
    """
    if booking_type is None:
        booking_type = _weighted(rng, _BOOKING_WEIGHTS)
    if booking_type not in _TEMPLATES:
        raise ValueError(f"booking_type must be one of {list(_TEMPLATES)}; got {booking_type!r}")
    templates = _TEMPLATES[booking_type]
    tpl = templates[int(rng.integers(len(templates)))]
    mode = _weighted(rng, _MODE_WEIGHTS) if booking_type != "hotels" else None
    room_type = None
    if booking_type != "trip tickets" and rng.random() < _ROOM_TYPE_P:
        room_type = pick(rng, ROOM_TYPES)
    return _make_task(rng, task_id, tpl, mode, room_type)


def _expand(rng: np.random.Generator, counts: Mapping[str | None, int]) -> list[str | None]:
    items = [key for key, n in counts.items() for _ in range(n)]
    return [items[int(i)] for i in rng.permutation(len(items))]


@functools.lru_cache(maxsize=len(SPLITS))
def _split(split: str) -> tuple[Task, ...]:
    mix = _MIX[split]
    rng = np.random.default_rng(stable_seed(FAMILY, VERSION, split))
    bookings = _expand(rng, mix["booking"])
    modes = iter(_expand(rng, mix["modes"]))
    room_types = iter(_expand(rng, mix["rooms"]))
    orders = {
        bt: [group[int(i)] for i in rng.permutation(len(group))] for bt, group in _TEMPLATES.items()
    }
    seen = dict.fromkeys(BOOKING_TYPES, 0)
    tasks = []
    for i, bt in enumerate(bookings):
        assert bt is not None
        tpl = orders[bt][seen[bt] % len(orders[bt])]
        seen[bt] += 1
        mode = next(modes) if bt != "hotels" else None
        room_type = next(room_types) if bt != "trip tickets" else None
        task_rng = np.random.default_rng(stable_seed(FAMILY, VERSION, split, i))
        tasks.append(_make_task(task_rng, f"{split}-{i:03d}", tpl, mode, room_type))
    return tuple(tasks)


def generate_split(split: str) -> list[Task]:
    """The fixed tasks of ``split`` (``"test"``: 120, ``"demo"``: 11), always the same.

    Args:
        split: ``"test"`` or ``"demo"``.

    Returns:
        The tasks, with ids ``f"{split}-{i:03d}"``.

    Raises:
        ValueError: ``split`` is not a fixed split.
    """
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r} for {FAMILY}-v{VERSION}; known: {list(SPLITS)}")
    return list(_split(split))


@functools.lru_cache(maxsize=1)
def _held_out() -> frozenset[str]:
    return frozenset(task.instruction for split in SPLITS for task in _split(split))


def train_task(k: int) -> Task:
    """The training task ``f"train-{k}"``, rebuilt from ``k`` alone.

    Its goal never equals a test or demo goal (a clash is redrawn).

    Args:
        k: a non-negative task number.

    Returns:
        The task with id ``f"train-{k}"``.
    """
    rng = np.random.default_rng(stable_seed(FAMILY, VERSION, "train", k))
    return first_unseen(lambda _: generate_task(rng, f"train-{k}"), _held_out())


def train_pairs(n: int | None = 1800, seed: int = 0) -> Iterator[Task]:
    """Training tasks ``train-k`` for ``k = seed * 2**32 + 0, 1, 2, ...``.

    Args:
        n: how many tasks; None for an endless stream.
        seed: which stream (streams of different seeds do not overlap).

    Yields:
        Tasks built by :func:`train_task`.
    """
    return train_stream(train_task, n, seed)


def sample_train_task(rng: np.random.Generator) -> Task:
    """One training task: ``train_task(k)`` with ``k`` drawn from ``rng`` in ``[0, 2**31)``.

    Args:
        rng: the generator ``k`` is drawn from.

    Returns:
        The task ``f"train-{k}"``.
    """
    return sample_train(train_task, rng)
