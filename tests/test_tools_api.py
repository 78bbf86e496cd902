import copy
import inspect
import json
import pickle

import pytest

from toolgym.families.home_search.toolkit import TOOLS as HOME_TOOLS
from toolgym.families.home_search.toolkit import HomeSearchToolkit
from toolgym.families.trip_booking.toolkit import ALL_TOOLS as TRIP_TOOLS
from toolgym.families.trip_booking.toolkit import Date, Loc, TripBookingToolkit
from toolgym.tools.api import ToolApi, ToolSession
from toolgym.tools.budgets import Budgets, measure
from toolgym.tools.errors import PRECONDITION, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.json_calls import (
    JsonCallText,
    carrying,
    load_json,
    parse_json_call,
    within_value_budgets,
)
from toolgym.tools.plain_copy import plain_deepcopy
from toolgym.tools.program import run_program
from toolgym.tools.tool import Param, Tool

HOME = HomeSearchToolkit()
TRIP = TripBookingToolkit()


def test_function_counts_match_the_original() -> None:
    assert len(HOME_TOOLS) == 15
    assert len(TRIP_TOOLS) == 20
    assert {t.name for t in TRIP_TOOLS if t.owner is None} == {"Loc", "Date"}


@pytest.mark.parametrize("toolkit", [HOME, TRIP], ids=["home", "trip"])
def test_docs_and_schemas_come_from_one_source(toolkit) -> None:
    for tool in toolkit.tools:
        assert tool.toolbench_doc() in toolkit.tools.api_docs
        assert tool.toolbench_doc().startswith(f"# {tool.description}\n{tool.qualname}(")
    schemas = toolkit.tools.openai_schemas
    names = [t["function"]["name"] for t in schemas]
    assert names == [t.name for t in toolkit.tools if t.owner is not None]
    for schema in schemas:
        json.dumps(schema)
        params = schema["function"]["parameters"]
        tool = toolkit.tools.get(schema["function"]["name"])
        method = getattr(toolkit.new_session().api, tool.name)
        assert list(params["properties"]) == [p for p in inspect.signature(method).parameters]


def test_signature_drift_fails_at_class_definition() -> None:
    with pytest.raises(TypeError, match="documents"):

        class Drifted(ToolApi):
            TOOLS = (Tool("f", "d", (Param("value", "int", "v"),), owner="API"),)

            def f(self, other: int) -> None: ...

    with pytest.raises(TypeError, match="annotated str but its Tool documents int"):

        class WrongType(ToolApi):
            TOOLS = (Tool("f", "d", (Param("value", "int", "v"),), owner="API"),)

            def f(self, value: str) -> None: ...

    with pytest.raises(TypeError, match="optional in the code"):

        class WrongDefault(ToolApi):
            TOOLS = (Tool("f", "d", (Param("value", "int", "v"),), owner="API"),)

            def f(self, value: int = 1) -> None: ...


def criteria(source: str, toolkit=HOME) -> dict:
    session = toolkit.new_session()
    run_program(source, session)
    return session.api.search_criteria


def test_home_types_are_case_and_order_insensitive() -> None:
    a = criteria(
        'API.set_location("A")\nAPI.set_buy_or_rent("buy")\nAPI.select_home_type(["Co-op", "house"])'
    )
    b = criteria(
        'API.set_location("A")\nAPI.set_buy_or_rent("buy")\nAPI.select_home_type(["HOUSE", "co-op"])'
    )
    assert a == b == {"location": "A", "buy_or_rent": "buy", "home_type": "co-op,house"}


@pytest.mark.parametrize(
    ("program", "category", "message"),
    [
        ('API.set_buy_or_rent("buy")', PRECONDITION, "must be the second call"),
        ('API.set_location("A")\nAPI.set_buy_or_rent("lease")', WRONG_ARGUMENTS, '"buy" or "rent"'),
        (
            'API.set_location("A")\nAPI.set_buy_or_rent("rent")\nAPI.select_home_type(["Land"])',
            WRONG_ARGUMENTS,
            "Apartment",
        ),
        (
            'API.set_location("A")\nAPI.set_buy_or_rent("buy")\nAPI.select_home_type("House")',
            WRONG_ARGUMENTS,
            "must be a list",
        ),
        ('API.set_location("A")\nAPI.select_home_type(["House"])', PRECONDITION, "set_buy_or_rent"),
    ],
)
def test_home_rules(program: str, category: str, message: str) -> None:
    with pytest.raises(ToolCallError, match=message) as e:
        criteria(program)
    assert e.value.category == category


def test_values_are_stored_raw_with_a_warning() -> None:
    session = HOME.new_session()
    run_program(
        'API.set_location("Austin")\nAPI.set_buy_or_rent("rent")\nAPI.set_num_beds("2")\nAPI.search()',
        session,
    )
    assert session.api.search_criteria["num_beds"] == "2"
    assert any("set_num_beds" in w and "should be int" in w for w in session.warnings)
    assert session.api.last_search.listings, "a numeric string still filters the search"


def test_search_filters_listings() -> None:
    session = HOME.new_session()
    run_program(
        'API.set_location("Austin")\nAPI.set_buy_or_rent("buy")\nAPI.select_home_type(["House"])\n'
        "API.set_num_beds(3)\nAPI.set_max_price(900000)\nAPI.search()",
        session,
    )
    result = session.api.last_search
    assert result.listings
    for x in result.listings:
        assert x.city == "Austin" and x.buy_or_rent == "buy" and x.home_type == "House"
        assert x.beds >= 3 and x.price <= 900000
    assert [x.price for x in result.listings] == sorted(x.price for x in result.listings)
    assert "Found" in result.to_text()


def test_unknown_city_gives_an_empty_result_with_a_note() -> None:
    session = HOME.new_session()
    run_program('API.set_location("Atlantis")\nAPI.set_buy_or_rent("buy")\nAPI.search()', session)
    assert session.api.last_search.listings == []
    assert "no listings in 'Atlantis'" in session.api.last_search.to_text()


def test_booking_defaults_and_required_fields() -> None:
    c = criteria(
        'API.select_booking_type("both")\nAPI.select_transportation("bus")\n'
        'API.set_origin(Loc("Boston"))\nAPI.set_destination(Loc("Denver"))\n'
        'API.set_hotel_location(Loc("Denver"))\nAPI.set_checkin_date(Date(4, 7, 2026))\n'
        "API.set_checkout_date(Date(4, 9, 2026))\nAPI.search()",
        TRIP,
    )
    assert c["departure_date"] == "4-7-2026" and c["return_date"] == "4-9-2026"
    assert c["num_rooms"] == 1 and c["min_price_ticket"] == 0 and c["min_price_room"] == 0
    with pytest.raises(ToolCallError, match="missing: departure_date") as e:
        criteria(
            'API.select_booking_type("trip tickets")\nAPI.select_transportation("bus")\n'
            'API.set_origin(Loc("Boston"))\nAPI.set_destination(Loc("Denver"))\nAPI.search()',
            TRIP,
        )
    assert e.value.category == PRECONDITION


def test_booking_type_checks() -> None:
    with pytest.raises(ToolCallError, match="expects a Loc") as e:
        criteria('API.select_booking_type("hotels")\nAPI.set_hotel_location("Denver")', TRIP)
    assert e.value.category == WRONG_ARGUMENTS
    with pytest.raises(ToolCallError, match="expects a Date"):
        criteria('API.select_booking_type("hotels")\nAPI.set_checkin_date("2026-04-07")', TRIP)
    with pytest.raises(ToolCallError, match="transportation_type must be one of"):
        criteria('API.select_booking_type("trip tickets")\nAPI.select_transportation("car")', TRIP)
    # room type is not validated in the original: stored as given
    assert (
        criteria('API.select_booking_type("hotels")\nAPI.select_room_type("Suite")', TRIP)[
            "room_type"
        ]
        == "Suite"
    )


def test_booking_search_returns_offers() -> None:
    session = TRIP.new_session()
    run_program(
        'API.select_booking_type("both")\nAPI.select_transportation("flight")\n'
        'API.set_origin(Loc("Boston"))\nAPI.set_destination(Loc("Denver"))\nAPI.set_num_rooms(2)\n'
        'API.set_hotel_location(Loc("Denver"))\nAPI.set_checkin_date(Date(5, 1, 2026))\n'
        "API.set_checkout_date(Date(5, 4, 2026))\nAPI.search()",
        session,
    )
    result = session.api.last_search
    assert result.outbound and result.inbound and result.rooms
    assert all(o.origin == "Boston" and o.mode == "flight" for o in result.outbound)
    assert all(o.rooms_left >= 2 and o.nights == 3 for o in result.rooms)
    text = result.to_text()
    assert "Outbound tickets" in text and "Return tickets" in text and "Hotel rooms" in text


def test_invalid_date_is_stored_and_noted() -> None:
    session = TRIP.new_session()
    run_program(
        'API.select_booking_type("hotels")\nAPI.set_hotel_location(Loc("Denver"))\n'
        "API.set_checkin_date(Date(2, 30, 2026))\nAPI.set_checkout_date(Date(3, 2, 2026))\nAPI.search()",
        session,
    )
    assert session.api.search_criteria["checkin_date"] == "2-30-2026"
    assert "not a real date" in session.api.last_search.to_text()


def test_json_calls() -> None:
    backend = TRIP.new_backend()

    def run(text: str) -> None:
        backend.run_json(parse_json_call(text))

    run('{"name": "select_booking_type", "arguments": {"booking_type": "hotels"}}')
    run('{"name": "set_hotel_location", "arguments": "{\\"location\\": \\"Denver\\"}"}')
    run(
        '{"type": "function", "function": {"name": "set_checkin_date", '
        '"arguments": {"date": {"month": 5, "day": 1, "year": 2026}}}}'
    )
    run('{"name": "API.set_checkout_date", "arguments": {"date": "2026-05-03"}}')
    assert backend.session.api.search_criteria == {
        "booking_type": "hotels",
        "location": "Denver",
        "checkin_date": "5-1-2026",
        "checkout_date": "5-3-2026",
    }
    with pytest.raises(ToolCallError, match="no parameter 'city'"):
        run('{"name": "set_num_rooms", "arguments": {"city": 1}}')
    with pytest.raises(ToolCallError, match="YYYY-MM-DD"):
        run('{"name": "set_return_date", "arguments": {"date": "next tuesday"}}')


def test_a_json_value_that_skips_the_walk_is_within_the_value_budgets() -> None:
    import random

    rng = random.Random(7)

    def value(depth: int) -> object:
        roll = rng.random()
        if roll < 0.05:  # many items behind one bracket
            return [0] * rng.randrange(80)
        if depth < 20 and roll < 0.3:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        if depth < 20 and roll < 0.55:
            return {rng.choice(["", "a", "key", "[{"]): value(depth + 1) for _ in range(3)}
        return rng.choice([0, -1, 2.5, True, None, "", "x", "[[{", "\u00e9"])

    budgets = Budgets(max_value_items=60, max_value_depth=4)
    skipped = 0
    for _ in range(4000):
        text = json.dumps(value(0), separators=rng.choice([(",", ":"), (", ", ": ")]))
        items, depth = measure(json.loads(text))
        fits = items <= budgets.max_value_items and depth <= budgets.max_value_depth
        if within_value_budgets(text, budgets):
            skipped += 1
            assert fits, text
        if fits:
            load_json(text, budgets)
        else:
            with pytest.raises(ToolCallError, match=r"nested|holds more"):
                load_json(text, budgets)
    assert skipped > 500  # the shortcut is taken for short values


def test_values_pickle_and_compare() -> None:
    import pickle

    assert pickle.loads(pickle.dumps(Loc("A"))) == Loc("A")
    d = pickle.loads(pickle.dumps(Date(1, 2, 2026)))
    assert d == Date(1, 2, 2026) and d.date == "1-2-2026"
    assert repr(d) == "Date(1, 2, 2026)"


def test_session_state_round_trip() -> None:
    session: ToolSession = HOME.new_session()
    run_program('API.set_location("Austin")', session)
    state = session.get_state()
    run_program('API.set_buy_or_rent("buy")', session)
    session.set_state(state)
    assert session.api.search_criteria == {"location": "Austin"}
    assert len(session.calls) == 1


def test_a_saved_api_state_is_a_deep_copy_whatever_the_criteria_hold() -> None:
    import copy

    shared = ["condo"]
    for criteria in (
        {"location": "Austin", "num_beds": 2, "max_price": 1.5, "pool": None, "new": True},
        {"home_types": ["condo", "co-op"], "location": "Austin"},
        {"home_types": shared, "also": shared},  # one list twice stays one list
        {"nested": {"a": [1]}, "tuple": (1, [2])},
        {1: "x", "dates": [["5-1-2026"]]},
    ):
        copied = plain_deepcopy(criteria)
        assert copied == copy.deepcopy(criteria) and copied is not criteria
        for key, value in criteria.items():
            if isinstance(value, list | dict):
                assert copied[key] is not value  # nothing the api may change is shared
        if "also" in criteria:
            assert copied["home_types"] is copied["also"]
    session: ToolSession = HOME.new_session()
    session.api.search_criteria = {"home_types": ["condo"]}
    state = session.get_state()
    state["api"]["search_criteria"]["home_types"].append("townhouse")
    assert session.api.search_criteria == {"home_types": ["condo"]}
    session.set_state(state)
    state["api"]["search_criteria"]["home_types"].clear()
    assert session.api.search_criteria == {"home_types": ["condo", "townhouse"]}


def test_a_json_call_text_gives_its_value_once_and_stays_within_the_budgets() -> None:
    value = {"name": "search", "arguments": {"q": "x"}}
    text = carrying(json.dumps(value), value)
    assert isinstance(text, JsonCallText)
    assert load_json(text) is value  # taken, not parsed
    again = load_json(text)  # a second read parses the text
    assert again == value and again is not value
    for plain in (text.strip(), text[:], copy.copy(text), pickle.loads(pickle.dumps(text))):
        assert type(plain) is str and plain == text
    long = json.dumps({"name": "f", "arguments": {"q": "x" * 50}})
    with pytest.raises(ToolCallError) as e:  # the text's length is read first, as ever
        load_json(carrying(long, json.loads(long)), Budgets(max_action_chars=40))
    assert e.value.category == "resource_limit"
    many = json.dumps({"name": "f", "arguments": {"q": list(range(30))}})
    with pytest.raises(ToolCallError):  # a value past the item budget is measured, as ever
        load_json(carrying(many, json.loads(many)), Budgets(max_value_items=20))
