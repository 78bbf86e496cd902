"""Trip Booking goals in words: phrases for every field of a trip, and the goal templates.

Each template writes a goal for one booking type, mentioning every field of the trip once; a
:class:`Say` records the order of the mentions, which is the order of the gold program.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from toolgym.benchmarks import phrasing
from toolgym.benchmarks.phrasing import count, pick
from toolgym.families.trip_booking.tasks.trip import Trip
from toolgym.families.trip_booking.toolkit import BOOKING_TYPES

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


def _same_form(t: Trip, kind: str, write: Callable[[], str]) -> str:
    """Write a value with ``write`` (a phrasing helper) in the form this goal already uses."""
    text = write()
    for _ in range(300):
        if t.shapes.setdefault(kind, _shape(text)) == _shape(text):
            break
        text = write()
    return text


def _day(rng: np.random.Generator, t: Trip, day: dt.date) -> str:
    return _same_form(t, "date", lambda: phrasing.date(rng, day))


def _money(rng: np.random.Generator, t: Trip, amount: int) -> str:
    return _same_form(t, "money", lambda: phrasing.money(rng, amount))


def _city(step: str, name: str | None) -> _Bit:
    assert name is not None
    return _Bit(name, (step,))


def _date(rng: np.random.Generator, t: Trip, step: str) -> _Bit:
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


def _party(rng: np.random.Generator, trip: Trip, *, personal: bool = True) -> _Bit:
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


def _rooms(rng: np.random.Generator, trip: Trip) -> _Bit:
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


def _stay(rng: np.random.Generator, trip: Trip, forms: tuple[str, ...] = _STAY_FORMS) -> _Bit:
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


def _return(rng: np.random.Generator, trip: Trip, *, relative: bool = True) -> _Bit:
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


def _bounds(trip: Trip, kind: str) -> tuple[int | None, int | None]:
    lo_key, hi_key = _PRICE_KEYS[kind]
    return getattr(trip, lo_key), getattr(trip, hi_key)


def _has_price(trip: Trip, kind: str) -> bool:
    return _bounds(trip, kind) != (None, None)


def _price(rng: np.random.Generator, trip: Trip, kind: str) -> _Bit:
    """A price clause: "under $200 a night", "between 80 and 120 USD per ticket"..."""
    lo, hi = _bounds(trip, kind)
    unit = pick(rng, _UNITS[kind])
    lo_key, hi_key = _PRICE_KEYS[kind]
    if lo is not None and hi is not None:
        a, b = _money(rng, trip, lo), _money(rng, trip, hi)
        forms: tuple[str, ...] = (f"between {a} and {b} {unit}", f"priced {a} to {b} {unit}")
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


def _price_sentence(rng: np.random.Generator, trip: Trip, kind: str) -> _Bit:
    """A price as a sentence of its own: "Keep it under $90 a ticket."..."""
    lo, hi = _bounds(trip, kind)
    unit = pick(rng, _UNITS[kind][:2])
    lo_key, hi_key = _PRICE_KEYS[kind]
    thing = "the tickets" if kind == "ticket" else "the room"
    if lo is not None and hi is not None:
        a, b = _money(rng, trip, lo), _money(rng, trip, hi)
        forms: tuple[str, ...] = (
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


_Render = Callable[[np.random.Generator, Trip], _Say]


@dataclass(frozen=True)
class Template:
    """A way of phrasing a goal; ``force`` turns optional parts of the trip on (True) or off."""

    template_id: str
    booking_type: str
    render: _Render
    force: Mapping[str, bool]


TEMPLATES: dict[str, list[Template]] = {bt: [] for bt in BOOKING_TYPES}


def _template(template_id: str, booking_type: str, **force: bool) -> Callable[[_Render], _Render]:
    def register(render: _Render) -> _Render:
        TEMPLATES[booking_type].append(Template(template_id, booking_type, render, force))
        return render

    return register


def _opt(prefix: str, bit: _Bit | None, suffix: str = "") -> list[str | _Bit]:
    return [] if bit is None else [prefix, bit, suffix]


def _party_opt(rng: np.random.Generator, t: Trip, prefix: str = " for ") -> list[str | _Bit]:
    return _opt(prefix, _party(rng, t) if t.adults else None)


def _ret_opt(rng: np.random.Generator, t: Trip, prefix: str = ", ") -> list[str | _Bit]:
    return _opt(prefix, _return(rng, t) if t.return_date else None)


def _price_opt(
    rng: np.random.Generator, t: Trip, kind: str, prefix: str = ", "
) -> list[str | _Bit]:
    return _opt(prefix, _price(rng, t, kind) if _has_price(t, kind) else None)


def _price_sentence_opt(rng: np.random.Generator, t: Trip, kind: str) -> list[str | _Bit]:
    return _opt(" ", _price_sentence(rng, t, kind) if _has_price(t, kind) else None)


@_template("tickets_need", "trip tickets")
def _tickets_need(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("I need ", "I'd like ", "I want ")), _mode(rng, _TICKETS, t.mode))
    s(*_party_opt(rng, t), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    return s(*_ret_opt(rng, t), *_price_opt(rng, t, "ticket"), ".")


@_template("tickets_book", "trip tickets")
def _tickets_book(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Book ", "Please book ", "Book me ")), _mode(rng, _TRIP, t.mode), " from ")
    s(_city("origin", t.origin), " to ", _city("destination", t.destination), *_party_opt(rng, t))
    s(", ", pick(rng, ("leaving ", "departing on ", "going out on ")))
    s(_date(rng, t, "departure"), *_ret_opt(rng, t), ".")
    return s(*_price_sentence_opt(rng, t, "ticket"))


@_template("tickets_question", "trip tickets")
def _tickets_question(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Can you find ", "Could you look up ", "Are there any ", "Can you check for ")))
    s(_mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    s(*_party_opt(rng, t), *_ret_opt(rng, t), *_price_opt(rng, t, "ticket"), "?")
    return s


@_template("tickets_we_travel", "trip tickets", party=True, group=True)
def _tickets_we_travel(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("We're ", _mode(rng, _GOING, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    s(*_ret_opt(rng, t, " and "), pick(rng, (" — ", ": ", ", ")), _party(rng, t), ".")
    return s(*_price_sentence_opt(rng, t, "ticket"))


@_template("tickets_plan", "trip tickets")
def _tickets_plan(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("I'm planning a trip to ", _city("destination", t.destination), " from ")
    s(_city("origin", t.origin), ". Please look for ", _mode(rng, _TICKETS, t.mode))
    s(*_party_opt(rng, t), " departing ", _date(rng, t, "departure"))
    return s(*_ret_opt(rng, t), *_price_opt(rng, t, "ticket"), ".")


@_template("tickets_round_trip", "trip tickets", return_date=True)
def _tickets_round_trip(rng: np.random.Generator, t: Trip) -> _Say:
    assert t.return_date is not None
    s = _Say()
    s(pick(rng, ("Round-trip ", "Round trip ")), _mode(rng, _TICKETS, t.mode), ", ")
    s(_city("origin", t.origin), " to ", _city("destination", t.destination), ", leaving ")
    s(_date(rng, t, "departure"), " and returning ")
    s(_date(rng, t, "return_date"), *_party_opt(rng, t, ", for "))
    return s(*_price_opt(rng, t, "ticket"), ".")


@_template("tickets_one_way", "trip tickets", return_date=False)
def _tickets_one_way(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Looking for one-way ", "I'm looking for one-way ", "Find one-way ")))
    s(_mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    return s(*_party_opt(rng, t), *_price_opt(rng, t, "ticket"), ".")


@_template("tickets_budget_first", "trip tickets", ticket_price=True)
def _tickets_budget_first(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s(_price_sentence(rng, t, "ticket"), " ", pick(rng, ("Find me ", "Search for ", "Show me ")))
    s(_mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    return s(*_party_opt(rng, t), *_ret_opt(rng, t), ".")


@_template("tickets_group_first", "trip tickets", party=True, group=True)
def _tickets_group_first(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("There will be ", _party(rng, t, personal=False), " travelling. We want to ")
    s(_mode(rng, _GO, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " on ", _date(rng, t, "departure"))
    return s(*_ret_opt(rng, t), ".", *_price_sentence_opt(rng, t, "ticket"))


@_template("tickets_date_first", "trip tickets")
def _tickets_date_first(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("On ", _date(rng, t, "departure"), " I'll be ", _mode(rng, _GOING, t.mode))
    s(" from ", _city("origin", t.origin), " to ", _city("destination", t.destination))
    s(*_ret_opt(rng, t), ". Please find tickets", *_party_opt(rng, t))
    return s(*_price_opt(rng, t, "ticket"), ".")


@_template("hotels_book", "hotels")
def _hotels_book(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Book me ", "Please book ", "Reserve ")), _rooms(rng, t), " in ")
    s(_city("hotel", t.hotel), " ", _stay(rng, t, ("from_to", "until")))
    return s(*_price_opt(rng, t, "room"), ".")


@_template("hotels_look_for", "hotels")
def _hotels_look_for(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Look for ", "Search for ")), _rooms(rng, t), " to stay in ")
    s(_city("hotel", t.hotel), " ", _stay(rng, t, ("between", "from_to", "nights_from_to")))
    return s(".", *_price_sentence_opt(rng, t, "room"))


@_template("hotels_question", "hotels")
def _hotels_question(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s(pick(rng, ("Can you find ", "Could you check for ", "Is there availability for ")))
    s(_rooms(rng, t), " in ", _city("hotel", t.hotel), " ", _stay(rng, t))
    return s(*_price_opt(rng, t, "room"), "?")


@_template("hotels_nights", "hotels")
def _hotels_nights(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("I'll be in ", _city("hotel", t.hotel), " ", _stay(rng, t, ("nights_start",)), ". ")
    s(pick(rng, ("I need ", "Please find me ", "I want ")), _rooms(rng, t))
    return s(*_price_opt(rng, t, "room"), ".")


@_template("hotels_terse", "hotels")
def _hotels_terse(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("Hotel in ", _city("hotel", t.hotel), ", check-in ", _date(rng, t, "checkin"))
    s(", check-out ", _date(rng, t, "checkout"), ", ", _rooms(rng, t))
    return s(*_price_opt(rng, t, "room"), ".")


@_template("hotels_budget_first", "hotels", room_price=True)
def _hotels_budget_first(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s(_price_sentence(rng, t, "room"), " Please search for ", _rooms(rng, t), " in ")
    return s(_city("hotel", t.hotel), " ", _stay(rng, t), ".")


@_template("hotels_occasion", "hotels")
def _hotels_occasion(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("I'm going to ", _city("hotel", t.hotel), f" for {pick(rng, _OCCASIONS)} ")
    s(_stay(rng, t, ("from_to", "until")), ". Can you find ", _rooms(rng, t))
    return s(*_price_opt(rng, t, "room"), "?")


@_template("hotels_group", "hotels", rooms=True)
def _hotels_group(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("We need ", _rooms(rng, t), " in ", _city("hotel", t.hotel), ", arriving ")
    s(_date(rng, t, "checkin"), " and leaving ", _date(rng, t, "checkout"), ".")
    return s(*_price_sentence_opt(rng, t, "room"))


@_template("hotels_find_until", "hotels")
def _hotels_find_until(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("Find a hotel in ", _city("hotel", t.hotel), " ", _stay(rng, t, ("until", "from_to")), ".")
    if t.rooms is not None or t.room_type is not None:
        s(pick(rng, (" We'd like ", " I want ", " We need ")), _rooms(rng, t), ".")
    return s(*_price_sentence_opt(rng, t, "room"))


@_template("both_rooms_then_tickets", "both")
def _both_rooms_then_tickets(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("Look for ", _rooms(rng, t), " to stay in ", _city("hotel", t.hotel), " ")
    s(_stay(rng, t, ("between", "from_to")), *_price_opt(rng, t, "room"), ". Also search for ")
    s(_mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), *_party_opt(rng, t))
    return s(*_price_opt(rng, t, "ticket"), ".")


@_template("both_plan", "both")
def _both_plan(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("I'm planning a trip from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), " and need to book ", _mode(rng, _TICKETS, t.mode))
    s(*_party_opt(rng, t), *_price_opt(rng, t, "ticket"), ". Can you also help me find ")
    s(_rooms(rng, t), " in ", _city("hotel", t.hotel), " ", _stay(rng, t))
    return s(*_price_opt(rng, t, "room"), "?")


@_template("both_two_parts", "both")
def _both_two_parts(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("Two things: ", _mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), *_party_opt(rng, t), *_price_opt(rng, t, "ticket"))
    s(", and ", _rooms(rng, t), " in ", _city("hotel", t.hotel), " ", _stay(rng, t))
    return s(*_price_opt(rng, t, "room"), ".")


@_template("both_package", "both")
def _both_package(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("Help me plan a trip: I want to ", _mode(rng, _GO, t.mode), " from ")
    s(_city("origin", t.origin), " to ", _city("destination", t.destination), " and need ")
    s(_rooms(rng, t), _Bit(" there", ("hotel",)), " ", _stay(rng, t), ".")
    s(*_party_opt(rng, t, " The tickets are for "), "." if t.adults else "")
    return s(*_price_sentence_opt(rng, t, "ticket"), *_price_sentence_opt(rng, t, "room"))


@_template("both_we_travel", "both", party=True, group=True)
def _both_we_travel(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("We're ", _mode(rng, _GOING, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), pick(rng, (" — ", ": ")), _party(rng, t), ". ")
    s("We'll need ", _rooms(rng, t), _Bit(" there", ("hotel",)), ", ")
    s(_stay(rng, t, ("in_out", "from_to", "nights_from_to")), ".")
    return s(*_price_sentence_opt(rng, t, "room"), *_price_sentence_opt(rng, t, "ticket"))


@_template("both_explicit_dates", "both", departure=True)
def _both_explicit_dates(rng: np.random.Generator, t: Trip) -> _Say:
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
def _both_question(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("Can you find me ", _rooms(rng, t), " in ", _city("hotel", t.hotel), " ")
    s(_stay(rng, t, ("nights_start", "from_to")), ", plus ", _mode(rng, _TICKETS, t.mode))
    s(_Bit(" to get there", ("destination",)), " from ", _city("origin", t.origin))
    s(*_party_opt(rng, t), "?")
    return s(*_price_sentence_opt(rng, t, "room"), *_price_sentence_opt(rng, t, "ticket"))


@_template("both_tickets_then_hotel", "both")
def _both_tickets_then_hotel(rng: np.random.Generator, t: Trip) -> _Say:
    s = _Say()
    s("I'd like ", _mode(rng, _TICKETS, t.mode), " from ", _city("origin", t.origin), " to ")
    s(_city("destination", t.destination), *_party_opt(rng, t), *_price_opt(rng, t, "ticket"))
    s(". While you're at it, show me ", _rooms(rng, t), " in ", _city("hotel", t.hotel), " ")
    return s(_stay(rng, t, ("from_to", "between")), *_price_opt(rng, t, "room"), ".")
