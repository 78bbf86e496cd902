"""Argument checks: Python's own messages for names, clear ones for types, no exceptions ever."""

from __future__ import annotations

from typing import Any

import pytest

from toolgym.simulators.tool_library.model import ApiDoc, ParamDoc, ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.service import ToolService
from toolgym.simulators.tool_library.validation import missing_message, validate_call

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
    template={"temp": "float", "units": "str"},
)
STATION = ApiDoc("Station", required=(ParamDoc("id", "NUMBER"),), template={"id": "int"})
MULTI = ApiDoc(
    "Multi",
    required=(ParamDoc("a"), ParamDoc("b"), ParamDoc("c"), ParamDoc("d")),
    template={"ok": "bool"},
)
WEATHER = ToolDoc(
    "Weather Now", "weather_now_forecast", "Weather.", "Weather", (CURRENT, STATION, MULTI)
)


@pytest.fixture
def service() -> ToolService:
    return ToolService(ToolLibrary([WEATHER]))


def message(service: ToolService, api: str, arguments: Any, **kwargs: Any) -> str:
    reply = service.call("weather_now_forecast", api, arguments, **kwargs)
    assert reply.source == "invalid" and reply.response == ""
    assert reply.problem is not None and reply.error == reply.problem.message
    return reply.error


def test_python_messages_for_names(service: ToolService) -> None:
    assert (
        message(service, "Current", {"q": "x", "city": "y"}, function_name="current_for_weather")
        == "current_for_weather() got an unexpected keyword argument 'city'"
    )
    assert message(service, "Multi", {"a": 1, "b": 2, "c": 3}) == (
        "multi() missing 1 required positional argument: 'd'"
    )
    assert message(service, "Multi", {"a": 1, "c": 3}) == (
        "multi() missing 2 required positional arguments: 'b' and 'd'"
    )
    assert message(service, "Multi", {"d": 1}) == (
        "multi() missing 3 required positional arguments: 'a', 'b', and 'c'"
    )
    assert message(service, "Multi", {}) == (
        "multi() missing 4 required positional arguments: 'a', 'b', 'c', and 'd'"
    )
    unknown_first = message(service, "Multi", {"zz": 1})
    assert unknown_first == "multi() got an unexpected keyword argument 'zz'"


def test_renamed_parameters(service: ToolService) -> None:
    names = {"is_id": "id"}
    ok = service.call("weather_now_forecast", "Station", {"is_id": "42"}, param_names=names)
    assert ok.error == "" and ok.response["id"] == 42
    assert message(service, "Station", {"id": 42}, function_name="f", param_names=names) == (
        "f() got an unexpected keyword argument 'id'"
    )
    assert message(service, "Station", {}, function_name="f", param_names=names) == (
        "f() missing 1 required positional argument: 'is_id'"
    )


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("days", "ten", "expected INTEGER, got 'ten'"),
        ("days", 3.5, "expected INTEGER, got 3.5"),
        ("days", True, "expected INTEGER, got True"),
        ("days", float("nan"), "expected INTEGER, got nan"),
        ("alerts", "yes", "expected BOOLEAN, got 'yes'"),
        ("units", "kelvin", "expected one of 'metric', 'imperial', got 'kelvin'"),
        ("date", "2024/01/02", "expected DATE (YYYY-MM-DD), got '2024/01/02'"),
        ("date", "2024-02-30", "expected DATE (YYYY-MM-DD), got '2024-02-30'"),
        ("at", "25:00", "expected TIME (HH:MM), got '25:00'"),
        ("fields", {"a": 1}, "expected ARRAY, got {'a': 1}"),
        ("filters", "not json", "expected OBJECT, got 'not json'"),
        ("filters", "[1, 2]", "expected OBJECT, got '[1, 2]'"),
        ("q", {"a": 1}, "expected STRING, got {'a': 1}"),
        ("q", [1], "expected STRING, got [1]"),
        ("q", None, "expected STRING, got None"),
    ],
)
def test_wrong_types(service: ToolService, name: str, value: Any, expected: str) -> None:
    arguments = {"q": "Paris", name: value}
    assert (
        message(service, "Current", arguments)
        == f"Invalid value for parameter '{name}': {expected}"
    )


def test_accepted_forms_are_converted(service: ToolService) -> None:
    check = validate_call(
        CURRENT,
        {
            "q": 75001,
            "units": "METRIC",
            "days": "3",
            "alerts": "True",
            "fields": "temp,wind",
            "filters": '{"min": 1}',
            "date": "2025-06-01",
            "at": "07:30",
        },
        function_name="current",
    )
    assert check.ok and check.problem is None
    assert check.arguments == {
        "alerts": True,
        "at": "07:30",
        "date": "2025-06-01",
        "days": 3,
        "fields": "temp,wind",
        "filters": {"min": 1},
        "q": "75001",
        "units": "metric",
    }
    assert validate_call(CURRENT, {"q": 1.0}, function_name="f").arguments["q"] == "1"
    same = service.call("weather_now_forecast", "Current", {"q": "Paris", "units": "Metric"})
    assert same.response == service.call("weather_now_forecast", "Current", {"q": "Paris"}).response


class Odd:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_size_guards_and_never_raising(service: ToolService) -> None:
    long = message(service, "Current", {"q": "x" * 10_001})
    assert long == (
        "Invalid value for parameter 'q': a string of 10,001 characters is longer than the "
        "limit of 10,000"
    )
    deep: Any = "leaf"
    for _ in range(21):
        deep = [deep]
    assert message(service, "Current", {"q": "x", "fields": deep}).endswith(
        "it nests deeper than 20 levels"
    )
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    wide = {"q": "x", "fields": list(range(20_000))}
    for arguments in (
        {"q": "x", "fields": cyclic},
        wide,
        {"q": {1, 2}},
        {"q": Odd()},
        {"q": b"bytes"},
        {"q": "x", "filters": {"k": deep}},
        {3: "x"},
        ["not", "a", "mapping"],
    ):
        reply = service.call("weather_now_forecast", "Current", arguments)  # type: ignore[arg-type]
        assert reply.source == "invalid" and reply.error


def test_missing_message_forms() -> None:
    assert missing_message("f", ["a"]) == "f() missing 1 required positional argument: 'a'"
    assert (
        missing_message("f", ["a", "b"])
        == "f() missing 2 required positional arguments: 'a' and 'b'"
    )


@pytest.mark.parametrize(
    ("value", "expected"), [("1", True), ("0", False), (1, True), ("true", True)]
)
def test_a_boolean_takes_its_documented_string_forms(value: Any, expected: bool) -> None:
    check = validate_call(CURRENT, {"q": "Paris", "alerts": value}, function_name="current")
    assert check.ok and check.arguments["alerts"] is expected
