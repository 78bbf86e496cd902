"""The one tool model: JSON Schemas from Python types, docs, type checks, tool sets, endpoints."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest
from typing_extensions import TypedDict

from toolgym.simulators.http import Request
from toolgym.tools.errors import WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.rest import RestRoute, endpoint
from toolgym.tools.tool import Param, Tool, ToolSet


class Address(TypedDict):
    city: str
    zip: int


class Order(pydantic.BaseModel):
    item: str
    quantity: int = 1
    ship_to: Address


def test_nested_objects_arrays_enums_and_defaults() -> None:
    tool = Tool(
        "place_order",
        "Place an order.",
        (
            Param("order", Order, "What to order."),
            Param("tags", list[str], "Labels.", enum=("gift", "rush"), required=False),
            Param("priority", int, "1 (low) to 3 (high).", required=False, default=1),
            Param("notes", dict[str, list[int]] | None, "Free notes.", required=False),
        ),
    )
    schema = tool.openai_schema()["function"]["parameters"]
    assert schema["required"] == ["order"] and schema["additionalProperties"] is False
    order = schema["properties"]["order"]
    assert order["type"] == "object" and order["required"] == ["item", "ship_to"]
    assert order["properties"]["ship_to"]["properties"]["zip"] == {"type": "integer"}
    assert order["properties"]["quantity"]["default"] == 1
    assert "$ref" not in str(schema) and "title" not in str(schema)
    assert schema["properties"]["tags"] == {
        "type": "array",
        "items": {"type": "string", "enum": ["gift", "rush"]},
        "description": "Labels.",
    }
    assert schema["properties"]["priority"]["default"] == 1
    assert "anyOf" in schema["properties"]["notes"]


def test_type_checks_are_strict_and_say_what_came() -> None:
    assert Param("n", "int", "").problem(3) is None
    assert Param("n", "int", "").problem(True) == "should be int; got bool True"
    assert Param("x", "float", "").problem(3) is None  # an int is a float
    assert Param("t", "List[str]", "").problem(["a", 1]).startswith("should be List[str]")
    order = {"item": "pen", "ship_to": {"city": "Oslo", "zip": 150}}
    assert Param("o", Order, "").problem(order) is None
    assert Param("o", Order, "").problem({"item": "pen"}).startswith("should be Order")
    assert len(Param("s", "str", "").problem(12345678901234567890 * 10**80) or "") < 120


def test_docs_render_the_original_way() -> None:
    tool = Tool(
        "set_num_beds", "To set the number of bedrooms.", (Param("value", "int", "n"),), owner="API"
    )
    assert (
        tool.toolbench_doc() == "# To set the number of bedrooms.\nAPI.set_num_beds(value: int)\n"
    )
    loc = Tool(
        "set_origin",
        "Origin.",
        (Param("origin", "Loc", "a Loc"),),
        owner="API",
        doc_signature="Loc",
    )
    assert loc.signature() == "API.set_origin(Loc)"
    with pytest.raises(ValueError, match="declares a parameter twice"):
        Tool("f", "d", (Param("a", "int", ""), Param("a", "int", "")))


def test_tool_sets_look_up_subset_and_cache() -> None:
    a = Tool("a", "A.", owner="API")
    b = Tool("b", "B.", terminal=True, owner="API")
    c = Tool("C", "C.", offered=False)
    tools = ToolSet([a, b, c])
    assert tools.get("a") is a and tools.get("API.b") is b and tools.get("z") is None
    assert tools.terminal == frozenset({"API.b"})
    assert [s["function"]["name"] for s in tools.openai_schemas] == ["a", "b"]
    assert tools.api_docs == "\n".join(tools.api_doc_list)
    sub = tools.subset(["b", "a"])
    assert list(sub) == [a, b] and tools.subset(["a", "b"]) is sub and tools.subset(None) is tools
    with pytest.raises(ValueError, match="two tools are called"):
        ToolSet([a, Tool("a", "again")])


def test_endpoints_are_tools() -> None:
    route = RestRoute("POST", "https://svc.test", "/v1/items/{item_id}", body=("note",))
    tool = endpoint(
        "annotate",
        "Annotate an item.",
        route,
        "curl -X POST 'https://svc.test/v1/items/{item_id}' --data '{\"note\":\"{note}\"}'",
        (Param("item_id", "string", "The item."), Param("note", "string", "The note.")),
    )
    assert tool.toolbench_doc().startswith("# Annotate an item.\ncurl -X POST")
    assert "Parameters:\nitem_id: (required) The item." in tool.toolbench_doc()
    line = route.to_curl(tool, {"item_id": "a b", "note": "it's"})
    assert line == "curl -X POST 'https://svc.test/v1/items/a%20b' --data '{\"note\":\"it%27s\"}'"
    assert route.matches(Request.build("POST", "https://svc.test/v1/items/42"))
    assert not route.matches(Request.build("GET", "https://svc.test/v1/items/42"))
    with pytest.raises(ToolCallError) as e:
        route.to_curl(tool, {"item_id": "1", "colour": "red"})
    assert e.value.category == WRONG_ARGUMENTS and "colour" in str(e.value)
    with pytest.raises(ValueError, match="path parameter 'item_id' is not declared"):
        endpoint("bad", "d", route, "curl", ())


def test_any_typed_parameter_accepts_anything() -> None:
    param: Any = Param("v", Any, "anything")
    assert param.problem(object()) is None and param.schema()["type"] == "string"


def test_the_json_call_language_runs_on_any_backend() -> None:
    from toolgym.families.home_search.toolkit import HomeSearchToolkit
    from toolgym.tools.json_language import JsonCallLanguage, parse_json_calls

    toolkit = HomeSearchToolkit()
    language = JsonCallLanguage(toolkit.tools)
    backend = toolkit.new_backend()
    program = (
        '[{"name": "set_location", "arguments": {"value": "Austin"}},'
        ' {"name": "set_buy_or_rent", "arguments": {"value": "rent"}},'
        ' {"name": "search"}]'
    )
    execution = language.run_program(program, backend)
    assert execution.finished and execution.error is None
    assert execution.attempt.outcome["location"] == "Austin"
    assert language.gold_steps(program)[-1] == '{"name": "search", "arguments": {}}'  # terminal
    backend.reset(None)
    step = language.run_call('{"name": "set_buy_or_rent", "arguments": {"value": "buy"}}', backend)
    assert step.error is not None and step.error.category == "precondition"
    assert backend.session.calls == []  # a failed call leaves no trace
    assert [c.name for c in parse_json_calls('[{"name": "a"}]')] == ["a"]
    broken = language.run_program("[{]", backend)
    assert broken.finished and broken.error.category == "non_executable"


def test_rest_backends_take_json_calls() -> None:
    from toolgym.families.cat_api.toolkit import CatApiToolkit
    from toolgym.tools.json_calls import ToolCall

    backend = CatApiToolkit().new_backend()
    backend.reset(None)
    assert backend.call(ToolCall("list_favourites")).startswith("HTTP 200")
    assert backend.attempt().calls == ("GET /v1/favourites",)
    with pytest.raises(ToolCallError):
        backend.call(ToolCall("teleport"))


def test_a_tool_set_copied_or_pickled_still_takes_subsets() -> None:
    import copy
    import pickle

    tools = ToolSet([Tool("a", ""), Tool("b", ""), Tool("c", "")])
    assert tools.subset(["a"]).names == ("a",)  # its id-keyed positions are cached now
    for copied in (pickle.loads(pickle.dumps(tools)), copy.deepcopy(tools)):
        assert copied.subset(["b", "c"]).names == ("b", "c")


def test_a_failed_statement_undoes_its_inner_calls_and_keeps_the_earlier_ones() -> None:
    import gymnasium as gym

    from toolgym.envs.protocol import task_env

    env = gym.make("toolbench/HomeSearch-v0", action_mode="call")
    env.reset(options={"task_id": "test-000"})
    base = task_env(env)
    for action in base.oracle_actions()[:2]:
        env.step(action)
    before = base.get_state()["episode"]["backend"]
    # the inner call runs (and warns of its text), then the outer one fails: neither stays
    observation, *_, info = env.step('API.set_location(API.set_num_baths("two"))')
    assert info["error"]["category"] == "precondition" and "num_baths" in observation
    assert base.get_state()["episode"]["backend"] == before
    session = base._backend.session
    assert [c.tool.name for c in session.calls] == ["set_location", "set_buy_or_rent"]
    assert session.warnings == [] and "num_baths" not in session.api.search_criteria
    *_, info = env.step("API.set_num_baths(2)")  # the next call's info holds it alone
    assert info["error"] is None and [c["name"] for c in info["calls"]] == ["API.set_num_baths"]
    env.close()


def test_a_failed_statement_after_a_search_brings_back_the_earlier_result() -> None:
    """A checkpoint holds the search result as it is and the criteria as a copy."""
    from toolgym.families.trip_booking.toolkit import Date, TripBookingToolkit

    toolkit = TripBookingToolkit()
    language, backend = toolkit.language(), toolkit.new_backend()
    backend.reset(None)
    for text in [
        'API.select_booking_type("trip tickets")',
        'API.select_transportation("bus")',
        'API.set_origin(Loc("Albuquerque"))',
        'API.set_destination(Loc("Kansas City"))',
        "day = Date(10, 31, 2026)",
        "API.set_departure_date(day)",
        "found = API.search()",
    ]:
        execution = language.run_call(text, backend)
        assert execution.error is None, execution.observation
    session = backend.session
    first, criteria = session.api.last_search, dict(session.api.search_criteria)
    assert first is not None and session.variables["found"] is first
    # the inner search runs and keeps a new result, then the outer call fails: both undone
    execution = language.run_call('API.set_num_adults(API.search(), Loc("Reno"))', backend)
    assert execution.error is not None and execution.error.category == "wrong_arguments"
    assert session.api.last_search is first and session.api.search_criteria == criteria
    assert session.variables["day"] == Date(10, 31, 2026)
    state = session.get_state()
    assert state["api"]["last_search"] is first  # shared, not copied
    assert language.run_call('API.set_destination(Loc("Reno"))', backend).error is None
    assert state["api"]["search_criteria"] == criteria  # copied: later calls leave it be
