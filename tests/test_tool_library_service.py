"""The tool library's service: deterministic synthesis, argument checks, fixtures, the server."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import timeit
from pathlib import Path
from typing import Any

import pytest

from toolgym.simulators.http import Request
from toolgym.simulators.tool_library.model import ApiDoc, ParamDoc, ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.service import (
    Reply,
    ResponseCache,
    ToolService,
    VirtualApiApp,
)
from toolgym.simulators.tool_library.synthesis import MAX_LIST_LENGTH, synthesize

HOTEL_FIELDS = {
    "hotel_id": "str",
    "name": "str",
    "city": "str",
    "country": "str",
    "lat": "float",
    "lon": "float",
    "price": "float",
    "currency": "str",
    "rating": "float",
    "image_url": "str",
}
SEARCH = ApiDoc(
    "Search Hotels",
    required=(ParamDoc("city", "STRING", default="Lisbon"),),
    optional=(
        ParamDoc("limit", "NUMBER", default="5"),
        ParamDoc("currency", "STRING", default="EUR"),
        ParamDoc("sort", "ENUM", enum=("price", "rating")),
    ),
    template={"count": "int", "hotels": [{**HOTEL_FIELDS, "_list_length": 8}]},
)
DETAILS = ApiDoc(
    "Get Hotel Details",
    required=(ParamDoc("hotel_id", "STRING"),),
    template={
        "hotel_id": "str",
        "name": "str",
        "price": "float",
        "rating": "float",
        "description": "str",
        "address": "str",
        "email": "str",
        "amenities": ["list of str with length 4"],
        "manager": {"first_name": "str", "last_name": "str", "email": "str"},
    },
)
REVIEWS = ApiDoc(
    "hotels/get-reviews",
    required=(ParamDoc("hotel_id", "STRING"),),
    optional=(ParamDoc("page", "NUMBER", default=1),),
    template={
        "page": "int",
        "reviews": [{"review_id": "str", "author": "str", "stars": "int", "_list_length": 25}],
        "tags": [{"tag": "str", "_list_length": 3}],
    },
)
BY_ID = ApiDoc(
    "Hotel By Id",
    required=(ParamDoc("hotel_id", "STRING"),),
    template={"data": {"id": "str", "name": "str", "price": "float", "rating": "float"}},
)
HOTELS = ToolDoc(
    "Hotels Finder", "hotels_finder", "Find hotels.", "Travel", (SEARCH, DETAILS, REVIEWS, BY_ID)
)

CURRENT_TEMPLATE = {"location": {"city": "str", "country": "str"}, "temp": "float", "units": "str"}
CURRENT = ApiDoc(
    "Current",
    required=(ParamDoc("q", "STRING", default="Paris"),),
    optional=(
        ParamDoc("units", "ENUM", enum=("metric", "imperial"), default="metric"),
        ParamDoc("date", "DATE (YYYY-MM-DD)"),
        ParamDoc("at", "TIME (24-hour HH:MM)"),
        ParamDoc("days", "INTEGER"),
        ParamDoc("alerts", "BOOLEAN"),
        ParamDoc("fields", "ARRAY"),
        ParamDoc("filters", "OBJECT"),
    ),
    template=json.dumps(CURRENT_TEMPLATE),
)
CURRENT_DICT = ApiDoc("Current Dict", required=CURRENT.required, template=CURRENT_TEMPLATE)
RAW = ApiDoc("Get Raw Alerts", required=(ParamDoc("q"),), template=None)
ODD = ApiDoc(
    "Odd",
    template={
        "gone": "NoneType",
        "maybe": "str or null",
        "nothing": "empty list",
        "tags": "list",
        "extra": "dict",
        "posters": ["list of str with length 3"],
        "pair": ["str", "int"],
        "": "str",
        "_list_length": 4,
    },
)
LISTED = ApiDoc("Listed", template=[{"id": "int", "name": "str", "_list_length": 2}])
BROKEN = ApiDoc("Broken", template='{"a": "str", "b": [')
DEEP: Any = "str"
for _ in range(70):
    DEEP = {"next": DEEP}
ODDER = ApiDoc(
    "Odder",
    template={"item_id": "list of int with length 2", "gone_id": "NoneType", "name": "str"},
)
FORECAST = ApiDoc("3 Day Forecast", required=(ParamDoc("q"),), template={"days": [{"date": "str"}]})
WEATHER = ToolDoc(
    "Weather Now | Forecast",
    "weather_now_forecast",
    "Weather.",
    "Weather",
    (CURRENT, CURRENT_DICT, RAW, ODD, LISTED, BROKEN, FORECAST, ODDER),
)


def make_library() -> ToolLibrary:
    """The small library every test here uses."""
    return ToolLibrary([HOTELS, WEATHER])


@pytest.fixture
def service() -> ToolService:
    return ToolService(make_library(), seed=7)


def leaves(value: Any) -> int:
    if isinstance(value, dict):
        return sum(leaves(v) for v in value.values())
    if isinstance(value, list):
        return sum(leaves(v) for v in value)
    return 1


# ------------------------------------------------------------------------------ determinism


def test_same_call_same_response_and_seed_matters(service: ToolService) -> None:
    first = service.call("hotels_finder", "Search Hotels", {"city": "Lisbon"})
    again = service.call("Hotels Finder", "search_hotels", {"city": "Lisbon"})
    assert first.source == again.source == "synthesized" and first.error == ""
    assert first.response == again.response
    other = ToolService(make_library(), seed=8).call(
        "hotels_finder", "Search Hotels", {"city": "Lisbon"}
    )
    assert other.response != first.response


def test_same_response_in_another_process(service: ToolService) -> None:
    here = json.dumps(
        [service.call("hotels_finder", api, args).response for api, args in CALLS], sort_keys=True
    )
    code = (
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('t', {str(Path(__file__))!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "s = m.ToolService(m.make_library(), seed=7)\n"
        "print(json.dumps([s.call('hotels_finder', a, k).response for a, k in m.CALLS], "
        "sort_keys=True))\n"
    )
    env = {"PYTHONHASHSEED": "12345", "PATH": ""}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == here


CALLS = [
    ("Search Hotels", {"city": "Lisbon", "limit": 3}),
    ("Get Hotel Details", {"hotel_id": "htl_123abc"}),
    ("hotels/get-reviews", {"hotel_id": "htl_123abc", "page": 2}),
]


@pytest.mark.parametrize(
    "arguments",
    [
        {"limit": "5", "city": " Lisbon "},
        {"city": "Lisbon", "limit": 5.0},
        {"city": "Lisbon", "currency": "EUR", "limit": 5},
        {"city": "Lisbon"},
        {"city": "Lisbon", "sort": None},
        {"city": "Lisbon", "sort": ""},
    ],
)
def test_equivalent_calls_collapse(service: ToolService, arguments: dict[str, Any]) -> None:
    base = service.call("hotels_finder", "Search Hotels", {"city": "Lisbon", "limit": 5})
    assert service.call("hotels_finder", "Search Hotels", arguments).response == base.response
    assert synthesize(HOTELS, SEARCH, arguments, seed=7) == base.response


# ------------------------------------------------------------------------------ coherence


def test_arguments_are_echoed_and_places_agree(service: ToolService) -> None:
    reply = service.call("hotels_finder", "Search Hotels", {"city": "Lisbon", "currency": "USD"})
    hotels = reply.response["hotels"]
    assert hotels and all(h["city"] == "Lisbon" and h["currency"] == "USD" for h in hotels)
    assert all(h["country"] == "Portugal" for h in hotels)
    assert all(abs(h["lat"] - 38.7) < 1 and abs(h["lon"] + 9.2) < 1 for h in hotels)
    details = service.call("hotels_finder", "Get Hotel Details", {"hotel_id": "htl_00beef"})
    assert details.response["hotel_id"] == "htl_00beef"
    reviews = service.call("hotels_finder", "hotels/get-reviews", {"hotel_id": "x", "page": "3"})
    assert reviews.response["page"] == 3  # echoed as the leaf's type


def test_entities_are_stable_between_list_and_details(service: ToolService) -> None:
    hotels = service.call("hotels_finder", "Search Hotels", {"city": "Oslo"}).response["hotels"]
    ids = [h["hotel_id"] for h in hotels]
    assert len(set(ids)) == len(ids) and all(re.fullmatch(r"htl_[0-9a-f]{6}", i) for i in ids)
    for hotel in hotels:
        details = service.call(
            "hotels_finder", "Get Hotel Details", {"hotel_id": hotel["hotel_id"]}
        )
        for key in ("name", "price", "rating"):
            assert details.response[key] == hotel[key]
        by_id = service.call("hotels_finder", "Hotel By Id", {"hotel_id": hotel["hotel_id"]})
        data = by_id.response["data"]
        assert data["id"] == hotel["hotel_id"]
        assert (data["name"], data["price"]) == (hotel["name"], hotel["price"])
    other = service.call("hotels_finder", "Search Hotels", {"city": "Bergen"})
    assert not {h["hotel_id"] for h in other.response["hotels"]} & set(ids)


def test_values_look_real(service: ToolService) -> None:
    hotel = service.call("hotels_finder", "Get Hotel Details", {"hotel_id": "htl_1"}).response
    assert isinstance(hotel["price"], float) and round(hotel["price"], 2) == hotel["price"]
    assert 3.0 <= hotel["rating"] <= 5.0
    manager = hotel["manager"]
    expected = f"{manager['first_name'].lower()}.{manager['last_name'].lower()}@"
    assert manager["email"].startswith(expected)
    hotels = service.call("hotels_finder", "Search Hotels", {"city": "Rome"}).response["hotels"]
    assert all(h["image_url"].startswith("https://") for h in hotels)


def test_list_lengths_are_honoured_capped_and_limited(service: ToolService) -> None:
    reviews = service.call("hotels_finder", "hotels/get-reviews", {"hotel_id": "h"}).response
    assert len(reviews["reviews"]) == MAX_LIST_LENGTH == 10  # _list_length 25, capped
    assert len(reviews["tags"]) == 3
    assert all("_list_length" not in r for r in reviews["reviews"])
    details = service.call("hotels_finder", "Get Hotel Details", {"hotel_id": "h"}).response
    assert len(details["amenities"]) == 4 and all(isinstance(a, str) for a in details["amenities"])
    for limit in (0, 2, 7, 50):
        found = service.call("hotels_finder", "Search Hotels", {"city": "Rome", "limit": limit})
        assert len(found.response["hotels"]) == min(limit, 8)


def test_odd_templates(service: ToolService) -> None:
    from_string = service.call("weather_now_forecast", "Current", {"q": "Paris"}).response
    from_dict = service.call("weather_now_forecast", "Current Dict", {"q": "Paris"}).response
    assert set(from_string) == set(from_dict) == {"location", "temp", "units"}
    assert set(from_string["location"]) == {"city", "country"}
    odd = service.call("weather_now_forecast", "Odd", {}).response
    assert odd["gone"] is None and isinstance(odd["maybe"], str) and odd["nothing"] == []
    assert isinstance(odd["tags"], list) and odd["extra"] == {} and len(odd["posters"]) == 3
    assert isinstance(odd["pair"][0], str) and isinstance(odd["pair"][1], int)
    assert "_list_length" not in odd and "" in odd
    listed = service.call("weather_now_forecast", "Listed", {}).response
    assert isinstance(listed, list) and len(listed) == 2 and isinstance(listed[0]["id"], int)
    for api in ("Get Raw Alerts", "Broken"):
        args = {"q": "storm"} if api == "Get Raw Alerts" else {}
        generic = service.call("weather_now_forecast", api, args).response
        assert generic["status"] == "success" and isinstance(generic["data"], dict)
    odder = service.call("weather_now_forecast", "Odder", {}).response
    assert (
        len(odder["item_id"]) == 2 and odder["gone_id"] is None and isinstance(odder["name"], str)
    )
    deep = ApiDoc("Deep", template=DEEP)
    assert synthesize(WEATHER, deep, {})["status"] == "success"  # too deep: the generic answer
    assert synthesize(WEATHER, ApiDoc("Text", template="str"), {}) != ""
    assert synthesize(WEATHER, ApiDoc("Empty", template=[]), {}) == []
    raw = service.call("weather_now_forecast", "Get Raw Alerts", {"q": "storm"}).response
    assert raw["data"]["q"] == "storm" and len(raw["data"]["alerts"]) == 3


# ------------------------------------------------------------------------------ names, fixtures


def test_names_resolve_and_unknown_ones_are_errors(service: ToolService) -> None:
    expected = service.call("weather_now_forecast", "3 Day Forecast", {"q": "Oslo"}).response
    for api in ("get_3_day_forecast", "get_3_day_forecast_for_weather_now_forecast"):
        assert service.call("Weather Now | Forecast", api, {"q": "Oslo"}).response == expected
    missing_tool = service.call("no_such_tool", "x", {})
    assert missing_tool.error.startswith("API not working error...")
    assert missing_tool.source == "invalid" and missing_tool.response == ""
    missing_api = service.call("hotels_finder", "Book Hotel", {})
    assert (
        missing_api.error.startswith("API not working error...")
        and "Search Hotels" in missing_api.error
    )
    chat = service.call("anything", "chat_with_user", {})
    assert chat.envelope() == {"error": "", "response": "Chat with user."}


def test_fixtures_win_over_synthesis() -> None:
    cache = ResponseCache()
    key = cache.put("hotels_finder", "Search Hotels", {"city": "Lisbon"}, {"hotels": []}, SEARCH)
    cache.put(
        "hotels_finder",
        "Get Hotel Details",
        {"hotel_id": "h1"},
        Reply("Rate limit", "", None, "fixture"),
        DETAILS,
    )
    service = ToolService(make_library(), fixtures=cache)
    reply = service.call("hotels_finder", "Search Hotels", {"limit": "5", "city": "Lisbon"})
    assert reply.source == "fixture" and reply.envelope() == {
        "error": "",
        "response": {"hotels": []},
    }
    reply.response["hotels"].append("mutated")
    assert service.call("hotels_finder", "Search Hotels", {"city": "Lisbon"}).response == {
        "hotels": []
    }
    assert (
        service.call("hotels_finder", "Get Hotel Details", {"hotel_id": "h1"}).error == "Rate limit"
    )
    assert service.call("hotels_finder", "Search Hotels", {"city": "Rome"}).source == "synthesized"
    plain = ToolService(make_library(), fixtures={key: {"error": "", "response": "stored"}})
    assert plain.call("hotels_finder", "Search Hotels", {"city": "Lisbon"}).response == "stored"


def test_response_cache_round_trip(tmp_path: Path) -> None:
    cache = ResponseCache()
    cache.put(
        "hotels_finder", "Search Hotels", {"city": "Oslo"}, {"hotels": [{"name": "Å"}]}, SEARCH
    )
    cache.put("t", "a", {"x": 1.0}, "plain text")
    assert len(cache) == 2
    path = tmp_path / "cache.json"
    cache.save(path)
    loaded = ResponseCache.load(path)
    assert len(loaded) == 2 and loaded.entries == cache.entries
    assert loaded.get("t", "a", {"x": 1}) == {"error": "", "response": "plain text"}
    assert loaded.get("hotels_finder", "Search Hotels", {"city": "Oslo", "limit": 5}, SEARCH) == {
        "error": "",
        "response": {"hotels": [{"name": "Å"}]},
    }
    assert loaded.get("t", "a", {"x": 2}) is None
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"k": {"error": "", "response": 1}}), encoding="utf-8")
    assert "k" in ResponseCache.load(plain)
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(ValueError, match="expected a JSON object"):
        ResponseCache.load(bad)
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(ValueError, match="expected a response cache"):
        ResponseCache.load(bad)


# ------------------------------------------------------------------------------ the server


def post(app: VirtualApiApp, body: Any) -> tuple[int, Any]:
    data = body if isinstance(body, str) else json.dumps(body)
    response = app.handle(Request.build("POST", "http://localhost:8080/virtual", {}, data))
    return response.status, response.json()


def test_virtual_server_contract() -> None:
    app = VirtualApiApp(make_library(), seed=7)
    service = ToolService(make_library(), seed=7)
    expected = service.call("hotels_finder", "Search Hotels", {"city": "Lisbon"}).envelope()
    body = {
        "category": "Travel",
        "tool_name": "hotels_finder_for_Travel",
        "api_name": "search_hotels_for_hotels_finder",
        "tool_input": '{"city": "Lisbon"}',
        "strip": "truncate",
        "toolbench_key": "",
    }
    assert post(app, body) == (200, expected)
    assert post(app, {**body, "tool_name": "Hotels Finder", "api_name": "Search Hotels"}) == (
        200,
        expected,
    )
    assert post(app, {**body, "tool_input": {"city": "Lisbon"}}) == (200, expected)
    status, reply = post(app, {**body, "tool_input": ""})
    assert (
        status == 200
        and reply["error"] == "search_hotels() missing 1 required positional argument: 'city'"
    )
    assert post(app, {**body, "tool_input": "{city: Lisbon"}) == (
        200,
        {"error": "Tool input parse error...\n", "response": ""},
    )
    assert post(app, {**body, "api_name": "chat_with_user"}) == (
        200,
        {"error": "", "response": "Chat with user."},
    )
    status, reply = post(app, {**body, "tool_name": "nope_for_Travel"})
    assert status == 200 and reply["error"].startswith("API not working error...")
    weather = {
        "category": "Weather",
        "tool_name": "weather_now_forecast_for_Weather",
        "api_name": "get_3_day_forecast_for_weather_now_forecast",
        "tool_input": '{"q": "Oslo"}',
    }
    forecast = service.call("weather_now_forecast", "3 Day Forecast", {"q": "Oslo"}).envelope()
    assert post(app, weather) == (200, forecast)
    assert post(app, "not json")[1]["error"].startswith("Request body parse error")


def test_virtual_server_routes_and_key() -> None:
    app = VirtualApiApp(make_library(), api_key="secret")
    listing = app.handle(Request.build("GET", "http://localhost/tools")).json()
    assert listing["count"] == 2 and {t["standard_name"]: t["apis"] for t in listing["tools"]} == {
        "hotels_finder": 4,
        "weather_now_forecast": 8,
    }
    missing = app.handle(Request.build("GET", "http://localhost/other"))
    assert missing.status == 404 and "POST /virtual" in missing.json()["error"]
    body = {
        "category": "Weather",
        "tool_name": "weather_now_forecast",
        "api_name": "odd",
        "tool_input": "",
    }
    assert post(app, body)[1]["error"].startswith("Unauthorized error")
    status, reply = post(app, {**body, "toolbench_key": "secret"})
    assert status == 200 and reply["error"] == "" and "gone" in reply["response"]


# ------------------------------------------------------------------------------ timing


def test_synthesis_time() -> None:
    template = {
        "status": "str",
        "total": "int",
        "data": {
            "id": "str",
            "name": "str",
            "email": "str",
            "city": "str",
            "country": "str",
            "price": "float",
            "currency": "str",
            "created_at": "str",
            "rating": "float",
            "url": "str",
        },
        "items": [
            {
                "id": "str",
                "title": "str",
                "price": "float",
                "image": "str",
                "date": "str",
                "_list_length": 4,
            }
        ],
    }
    api = ApiDoc("Typical", required=(ParamDoc("q"),), template=template)
    args = {"q": "paris"}
    n = 300
    seconds = min(timeit.repeat(lambda: synthesize(HOTELS, api, args), number=n, repeat=20)) / n
    service = ToolService(make_library())
    call = (
        min(
            timeit.repeat(
                lambda: service.call("hotels_finder", "Search Hotels", {"city": "Lisbon"}),
                number=n,
                repeat=20,
            )
        )
        / n
    )
    print(
        f"\nsynthesize: {leaves(synthesize(HOTELS, api, args))} leaves in {seconds * 1e6:.1f} us; "
        f"ToolService.call (Search Hotels, 5 hotels): {call * 1e6:.1f} us"
    )
