"""Trip Booking as a conversation: the user holds back some of the booking criteria.

The slots of a task are the criteria its gold sets, read from the gold program with :mod:`ast`
(variables bound to ``Loc(...)``/``Date(...)`` resolved to their values): the means of
transportation, origin, destination, dates, numbers of travellers and rooms, room type, price
bounds and the hotel's city. The booking type opens the request (it is no slot); up to three
criteria are held back. A criterion whose value another one already carries is no slot of its
own: in a combined booking the hotel is at the destination ("a hotel there"), and a
departure on the check-in day or a return on the check-out day is what ``API.search()`` fills in.

A step of variables (``checkin_date = Date(11, 17, 2027)``) is not read as tool calls, so the
guess check looks for a held value in its text: a date's forms include the way code writes it
(``11 17 2027``, ``2027-11-17``, ``month 11 day 17 year 2027``), a city's its name.
"""

from __future__ import annotations

import ast
import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolgym.benchmarks.tasks import Task
from toolgym.conversation.opening import compose_opening
from toolgym.conversation.tasks import ChatProfile, chat_suite
from toolgym.conversation.toolkit import ChatToolkit
from toolgym.families.trip_booking.toolkit import TripBookingToolkit
from toolgym.simulators.user import Slot, SlotKind, Vocabulary
from toolgym.simulators.user.date_forms import MONTHS, date_forms
from toolgym.simulators.user.rule_user import join


def _words(text: str) -> tuple[str, ...]:
    """The comma-separated words of a slot kind, most natural first."""
    return tuple(w.strip() for w in text.split(",") if w.strip())


_CITY = (  # not "city" alone: it is part of Kansas City
    "which city, what city, which cities, what cities, the city, the cities, city name, location, "
    "where do you want to go, where would you like to go, where will you go, where do you want to "
    "stay, where would you like to stay, where will you stay, where should i book, "
    "place, from and to, to and from, origin and destination, airport, "
    "airports, station, stations, which airport, what airport, which station, what station"
)
_FROM = _words("from, leaving, departing, depart, origin, start, starting, coming from")
_TO = _words("going, go, headed, heading, destination, arriving, arrive, into, visit, visiting")
_HOTEL = _words("hotel, stay, staying, room, rooms, sleep, accommodation")
_DATE = "date, dates, when, what day, which day, what night, which night, travel date, travel dates"
_OUT = _words("departure, depart, departing, leave, leaving, outbound, out, go, going, travel")
_BACK = _words("return, returning, back, inbound, home")
_IN = _words(
    "check in, check-in, checkin, checking in, arrive, arriving, arrival, get in, getting in, start, stay, "
    "staying"
)
_OFF = _words("check out, check-out, checkout, checking out, end, nights, stay, staying")
_STAY = "check in and out, checking in and out, in and out, stay dates, dates of your stay"
_PORT = "which port, what port, which ports, what ports"
"""A cruise's end named by its port (either end: ``From which port to which port?``)."""
_PEOPLE = (
    "people, person, travellers, travelers, passengers, party, group, tickets for how many, "
    "how many tickets, number of tickets, how many people, how many of you, who is travelling, "
    "who is traveling, who's travelling, who's traveling, who is coming, who's coming, alone, "
    "on your own, by yourself, just you, solo, anyone coming, anyone else, coming along, "
    "coming with you, travelling with you, traveling with you, joining you, party size, "
    "how many travelling, how many traveling, how many going, how many are going"
)
_PRICE = "price, prices, price range, cost, costs, how much, pay, spend, amount"
_TICKET = (
    "ticket price, ticket prices, ticket price range, price per ticket, price of the tickets, "
    "price of a ticket, ticket cost, cost per ticket, fare, fares, per ticket, each ticket"
)
_ROOM = (
    "room price, room prices, room price range, room rate, room rates, nightly rate, "
    "nightly price, price per night, cost per night, rate per night, per night, a night, "
    "hotel price, hotel prices, hotel rate, rate, rates"
)
_LEAST = _words(
    "minimum, min, at least, least, lowest, lower, low, bottom, floor, starting, above, no less than, "
    "not less than, no cheaper than, nothing cheaper than, nothing under, nothing below"
)
_MOST = _words(
    "maximum, max, at most, most, highest, upper, top, up to, under, below, no more than, "
    "not more than, cap, limit, ceiling, budget, no more expensive than, nothing over, "
    "nothing above, no pricier than"
)
_MODES = {"flight": "plane", "train": "train", "bus": "bus", "cruise": "cruise ship"}
_TICKETS = {"flight": "plane tickets", "train": "train tickets", "bus": "bus tickets",
            "cruise": "cruise tickets"}  # fmt: skip


_KINDS_TABLE = (  # name, call, argument, phrase, question, qualifiers, words
    ("transportation", "select_transportation", "transportation_type", "to travel by {text}",
     "How would you like to travel: by plane, train, bus or cruise?", (),
     "transportation, means of transportation, mode of transportation, mode of transport, "
     "means of travel, mode of travel, "
     "transport, how do you want to travel, how would you like to travel, how will you travel, "
     "how are you travelling, how are you traveling, travel by, way to travel, kind of ticket, "
     "how you would like to travel, how you want to travel, how you will travel, "
     "how are you getting, how will you get, how do you get, how you are getting, "
     "how are you getting there, how will you get there, how do you want to get there, "
     "how would you like to get there, how will you be getting there, "
     "type of ticket, kind of tickets, type of tickets"),
    ("origin", "set_origin", "origin", "from {text}", "Which city are you leaving from?", _FROM,
     "origin, origin city, departure city, city of departure, starting city, starting point, "
     "leaving from, departing from, travelling from, traveling from, flying from, coming from, "
     "going from, start from, starting from, from where, where from, sailing from, sail from, "
     "flying out of, fly out of, leaving out of, departing out of, out of where, depart from, "
     "departure airport, departure station, departure point, airport of departure, "
     f"departure port, port of departure, {_PORT}, {_CITY}"),
    ("destination", "set_destination", "destination", "to {text}", "What is your destination?",
     _TO, "destination, destination city, arrival city, where to, to where, travelling to, "
     "traveling to, fly to, travel to, "
     "flying to, flying into, fly into, arriving in, arriving at, heading to, headed to, "
     f"sailing to, sail to, arrival port, port of arrival, {_PORT}, arrival airport, arrival station, "
     "going to, get to, take you, taking you, bring you, bringing you, end up, "
     "final stop, last stop, end point, "
     "where are you going, where you are going, "
     "where are you headed, where you are headed, "
     "where are you going, where are you headed, where are "
     f"you heading, where are you travelling, where are you traveling, {_CITY}"),
    ("hotel_location", "set_hotel_location", "location", "in {text}",
     "Which city should I book the hotel in?", _HOTEL,
     "hotel location, hotel city, city of the hotel, location of the hotel, where to stay, "
     "where are you staying, where will you stay, where you are staying, where you will stay, "
     f"stay in, staying in, where is the hotel, {_CITY}"),
    ("departure_date", "set_departure_date", "date", "to leave on {text}",
     "What is your departure date?", _OUT,
     "departure date, date of departure, departure day, departure, depart, departing, leave, "
     f"leaving, outbound date, outbound, {_DATE}"),
    ("return_date", "set_return_date", "date", "to come back on {text}",
     "What is your return date?", _BACK,
     "return date, date of return, return day, return, returning, come back, coming back, "
     "round trip, round-trip, one way, one-way, "
     f"way back, head back, heading back, inbound, {_DATE}"),
    ("checkin_date", "set_checkin_date", "date", "to check in on {text}",
     "What is your check-in date?", _IN,
     "check-in date, check in date, checkin date, check-in, check in, checkin, checking in, "
     "check into, checking into, "
     f"arrival date, first night, {_STAY}, {_DATE}"),
    ("checkout_date", "set_checkout_date", "date", "to check out on {text}",
     "What is your check-out date?", _OFF,
     "check-out date, check out date, checkout date, check-out, check out, checkout, checking "
     "out, leave the hotel, leaving the hotel, how many nights, number of nights, length of "
     "stay, how long will you stay, how long are you staying, how long do you want to stay, "
     f"last night, {_STAY}, {_DATE}"),
    ("num_adults", "set_num_adults", "value", "{text}", "How many adults are travelling?", (),
     f"number of adults, adults, adult, how many adults, grown-ups, grownups, {_PEOPLE}"),
    ("num_children", "set_num_children", "value", "{text}", "How many children are travelling?",
     (), "number of children, children, child, kids, kid, minors, how many children, little ones, "
     f"little one, youngsters, toddlers, infants, babies, {_PEOPLE}"),
    ("min_ticket_price", "set_min_ticket_price", "value", "a minimum ticket price of {text}",
     "What is your minimum ticket price?", _LEAST,
     "minimum ticket price, min ticket price, lowest ticket price, minimum fare, lowest fare, "
     f"{_TICKET}, {_PRICE}"),
    ("max_ticket_price", "set_max_ticket_price", "value", "a maximum ticket price of {text}",
     "What is your maximum ticket price?", _MOST,
     "maximum ticket price, max ticket price, highest ticket price, maximum fare, highest fare, "
     f"ticket budget, budget, afford, {_TICKET}, {_PRICE}"),
    ("num_rooms", "set_num_rooms", "value", "{text}", "How many rooms do you need?", (),
     "number of rooms, rooms, how many rooms, how many hotel rooms, hotel rooms, room count, "
     "one room, more than one room, multiple rooms"),
    ("room_type", "select_room_type", "room_type", "the {text} room type",
     "Which room type would you like: King Bed, Queen Bed, Double or Luxury?", (),
     "room type, type of room, kind of room, sort of room, room category, bed type, type of "
     "bed, kind of bed, which bed, what bed, bed size, beds, bed, room types"),
    ("min_room_price", "set_min_room_price", "value", "a minimum room price of {text} a night",
     "What is your minimum room price?", _LEAST,
     "minimum room price, min room price, lowest room price, minimum nightly rate, minimum "
     f"rate, {_ROOM}, {_PRICE}"),
    ("max_room_price", "set_max_room_price", "value", "a maximum room price of {text} a night",
     "What is your maximum room price?", _MOST,
     "maximum room price, max room price, highest room price, maximum nightly rate, maximum "
     f"rate, hotel budget, room budget, budget, afford, {_ROOM}, {_PRICE}"),
)  # fmt: skip
_VALUES = {
    "transportation": (
        ("flight", "flights", "fly", "flying", "plane", "airplane", "airline"),
        ("train", "trains", "rail"),
        ("bus", "buses", "coach"),
        ("cruise", "cruises", "cruise ship", "ship", "boat"),
    ),
    "room_type": (  # "double" alone is no value: "double-check"
        ("King Bed", "king", "king bed", "king-size", "king size", "king-sized"),
        ("Queen Bed", "queen", "queen bed", "queen-size", "queen size", "queen-sized"),
        ("double room", "double rooms", "double bed", "double or", "or double", "or a double"),
        ("Luxury", "luxury room", "luxury rooms", "luxury"),
    ),
}

VOCABULARY = Vocabulary(
    [
        SlotKind(name, _words(words), phrase, call, argument, question, _VALUES.get(name, ()), q)
        for name, call, argument, phrase, question, q, words in _KINDS_TABLE
    ],
    topic="booking a trip",
    pairs=(
        ("origin", "destination"),
        ("departure_date", "return_date"),
        ("checkin_date", "checkout_date"),
    ),
    stand_ins=(  # a hotel-only booking's dates and city, asked with a trip's words
        ("departure_date", "checkout_date"),
        ("return_date", "checkout_date"),
        ("destination", "hotel_location"),
    ),
)

_KINDS = {kind.call: kind.name for kind in VOCABULARY}
_SAME = {"hotel_location": "destination", "departure_date": "checkin_date",
         "return_date": "checkout_date"}  # fmt: skip
"""A kind that is no slot when its value is the value of the other kind (a combined booking)."""
_COUNTS = {"num_adults": ("adult", "adults"), "num_children": ("child", "children"),
           "num_rooms": ("room", "rooms")}  # fmt: skip
_CONSTRUCTORS = {"Loc", "Date"}
_LEAD = ("transportation", "num_adults", "num_children", "origin", "destination", "hotel_location")
"""The kinds the opening's first sentence states (the others follow: ``I'd like ...``)."""


def _value(node: ast.expr | None, names: dict[str, Any]) -> Any:
    """A gold argument's value: a literal, a bound variable, or ``Loc(...)``/``Date(...)``."""
    try:
        if node is None or isinstance(node, ast.Name):
            return None if node is None else names.get(node.id)
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in _CONSTRUCTORS):
                return None
            keys = ("month", "day", "year") if node.func.id == "Date" else ("location",)
            given = [
                *zip(keys, node.args, strict=False),
                *((k.arg, k.value) for k in node.keywords),
            ]
            args = {k: ast.literal_eval(v) for k, v in given}
            if node.func.id == "Date":
                return dt.date(int(args["year"]), int(args["month"]), int(args["day"]))
            return args.get("location")
        return ast.literal_eval(node)
    except (ValueError, TypeError, KeyError, SyntaxError):  # not a value the gold spells out
        return None


def _calls(gold: str) -> list[tuple[str, Any]]:
    """The ``API`` calls of a gold program, each with its argument's value (None: none)."""
    names: dict[str, Any] = {}
    calls: list[tuple[str, Any]] = []
    for statement in ast.parse(gold).body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name):
                names[target.id] = _value(statement.value, names)
        elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            call = statement.value
            first = [*call.args, *(k.value for k in call.keywords)][:1]
            if isinstance(call.func, ast.Attribute) and call.func.attr not in _CONSTRUCTORS:
                calls.append((call.func.attr, _value(first[0] if first else None, names)))
    return calls


def _date_slot(kind: str, day: dt.date) -> Slot:
    """A date as the user says it, with the forms code and requests write it in."""
    return Slot(
        kind, day.isoformat(), f"{MONTHS[day.month - 1]} {day.day}, {day.year}", date_forms(day)
    )


def _slot(kind: str, value: Any) -> Slot:
    """How the user says ``value`` of ``kind``."""
    if isinstance(value, dt.date):
        return _date_slot(kind, value)
    if kind == "transportation":
        return Slot(kind, value, _MODES.get(str(value), str(value)))
    if kind in ("origin", "destination", "hotel_location"):
        saint = ("St Louis", "Saint Louis") if value == "St. Louis" else ()
        return Slot(kind, value, str(value), saint)
    if kind in _COUNTS:
        one, many = _COUNTS[kind]
        return Slot(kind, value, f"{value} {one if value == 1 else many}", (str(value),))
    if kind == "room_type":
        return Slot(kind, value, str(value), (f"{value} room", f"{value} rooms"))
    return Slot(kind, value, f"{value} dollars", (f"${value}", f"{value:,}", str(value)))


def slots(task: Task) -> list[Slot]:
    """The criteria the task's gold sets, in the gold's order (see the module docstring)."""
    found: dict[str, Slot] = {}
    for call, value in _calls(task.gold[0]):
        kind = _KINDS.get(call)
        if kind is not None and value is not None:
            found[kind] = _slot(kind, value)
    return [
        s
        for s in found.values()
        if not (s.kind in _SAME and getattr(found.get(_SAME[s.kind]), "value", None) == s.value)
    ]


def _booking_type(task: Task) -> str:
    return next((str(v) for c, v in _calls(task.gold[0]) if c == "select_booking_type"), "")


def opening(task: Task, given: Sequence[Slot]) -> str:
    """The opening request: ``I need bus tickets from Tulsa to Omaha. I'd like to leave on ...``.

    In a combined booking the hotel is ``there`` (at the destination), or ``at my destination``
    while the destination is held back.
    """
    kinds = {s.kind: s for s in given}
    booking = _booking_type(task)
    parts = []
    if booking != "hotels":
        mode = kinds.get("transportation")
        parts.append(f"I need {_TICKETS.get(str(mode.value), 'tickets') if mode else 'tickets'}")
        party = [kinds[k].text for k in ("num_adults", "num_children") if k in kinds]
        parts += [f"for {join(party)}"] if party else []
        parts += [VOCABULARY.state(kinds[k]) for k in ("origin", "destination") if k in kinds]
    if booking != "trip tickets":
        where = VOCABULARY.state(kinds["hotel_location"]) if "hotel_location" in kinds else ""
        if booking == "both":
            where = where or ("there" if "destination" in kinds else "at my destination")
        parts.append(f"{'and' if booking == 'both' else 'I need'} a hotel {where}".strip())
    rest = [s for s in given if s.kind not in _LEAD]
    return compose_opening(" ".join(parts), rest, VOCABULARY)


PROFILE = ChatProfile(
    name="trip_booking_chat",
    inner_tasks="toolgym.families.trip_booking.tasks:SUITE",
    vocabulary=VOCABULARY,
    slots=slots,
    opening=opening,
    data_dir=str(Path(__file__).parent / "data"),
)


class TripBookingChatToolkit(ChatToolkit):
    """Trip Booking's toolkit with the user channel."""

    inner_class = TripBookingToolkit
    vocabulary = VOCABULARY


SUITE = chat_suite("toolgym.families.trip_booking.chat:PROFILE")
