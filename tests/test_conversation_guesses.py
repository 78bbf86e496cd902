"""Guesses in the families whose held-back details no tool argument carries."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

from toolgym.conversation.guesses import ValueForms, guessed_kinds
from toolgym.conversation.messages import is_message
from toolgym.envs.protocol import task_env
from toolgym.simulators.user import Slot, SlotKind
from toolgym.tools.json_calls import ToolCall

SHOP = "toolbench/WebShopChat-v0"
RAPID = "toolbench/RapidAPIChat-v0"


def _shop_task_holding_an_option(env: gym.Env) -> tuple[str, str]:
    base = task_env(env)
    for task_id in base.task_ids:
        conversation = base.get_task(task_id).setup["conversation"]
        held = [k for k in conversation["held"] if k != "price"]
        if held:
            return str(task_id), held[0]
    raise AssertionError("no WebShopChat test task holds an option back")


def test_choosing_any_option_of_an_untold_group_is_a_guess() -> None:
    env = gym.make(SHOP)
    task_id, group = _shop_task_holding_an_option(env)
    base = task_env(env)
    env.reset(options={"task_id": task_id})
    steps = [s for s in base.language.gold_steps(base.task.gold[0]) if not is_message(s)]
    for step in steps:  # up to the product page
        env.step(step)
        session = base._backend.inner.session
        if session.page == "item":
            break
    product = session.product
    assert product is not None and group in product.options
    slot = next(s for s in base._backend.conversation.slots if s.kind == group)
    other = next(v for v in product.options[group] if str(v).lower() != str(slot.value).lower())
    _, reward, terminated, _, info = env.step(f"click[{other}]")
    assert info["error"]["category"] == "guessed_slot" and info["guessed"] == [group]
    session = base._backend.inner.session  # the step was undone
    assert session.options.get(group) is None and not terminated and reward == 0.0
    as_json = json.dumps({"name": "click", "arguments": {"target": str(other)}})
    _, _, _, _, info = env.step(as_json)  # the same click as a JSON call
    assert info["error"]["category"] == "guessed_slot" and info["guessed"] == [group]
    question = base.toolkit.vocabulary[group].ask()
    env.step(f'message_user("{question}")')
    _, _, _, _, info = env.step(f"click[{other}]")  # told now: a wrong choice, not a guess
    session = base._backend.inner.session
    assert info.get("error") is None and session.options.get(group) == other


def _rapid_task_with_a_shared_argument(env: gym.Env) -> tuple[str, Slot, dict, dict]:
    """A test task holding a value of one API's argument that another of its calls also takes."""
    base = task_env(env)
    for task_id in base.task_ids:
        task = base.get_task(task_id)
        conversation = task.setup["conversation"]
        steps = [s for s in base.language.gold_steps(task.gold[0]) if not is_message(s)]
        calls = [json.loads(s) for s in steps]
        for record in conversation["slots"]:
            slot = Slot.from_record(record)
            if slot.kind not in conversation["held"] or slot.call is None:
                continue
            own = next(c for c in calls if c["name"] == slot.call)
            other = next(
                (c for c in calls if c["name"] != slot.call and slot.argument in c["arguments"]),
                None,
            )
            if other is not None:
                return str(task_id), slot, own, other
    raise AssertionError("no RapidAPIChat test task holds an argument another call also takes")


def test_a_rapid_api_slot_is_guessed_by_its_api_with_any_value() -> None:
    env = gym.make(RAPID)
    task_id, slot, own, other = _rapid_task_with_a_shared_argument(env)
    env.reset(options={"task_id": task_id})
    assert slot.argument is not None
    wrong = {**own, "arguments": {**own["arguments"], slot.argument: "zzz made up"}}
    _, _, _, _, info = env.step(json.dumps(wrong))
    assert info["error"]["category"] == "guessed_slot"
    # another API's own value for the same argument, given in the request, is no guess
    _, _, _, _, info = env.step(json.dumps(other))
    assert (info.get("error") or {}).get("category") != "guessed_slot"
    base = task_env(env)
    env.step(f'message_user("{base.toolkit.vocabulary[slot.kind].ask()}")')
    _, _, _, _, info = env.step(json.dumps(wrong))  # told now: a wrong value, not a guess
    assert (info.get("error") or {}).get("category") != "guessed_slot"


@pytest.mark.parametrize(
    "record",
    [
        {"kind": "query", "value": "x", "text": "x", "call": 3},
        {"kind": "query", "value": "x", "text": "x", "argument": "q"},
        {"kind": "query", "value": "x", "text": "x", "call": "", "argument": "q"},
    ],
)
def test_a_slot_record_with_a_bad_call_is_refused(record: dict) -> None:
    with pytest.raises(ValueError, match="slot's"):
        Slot.from_record(record)


def test_a_slot_with_its_call_round_trips() -> None:
    slot = Slot("query", "coffee", 'query "coffee"', ('q "coffee"',), "search_for_api", "q")
    assert Slot.from_record(json.loads(json.dumps(slot.to_record()))) == slot
    assert "call" not in Slot("query", "coffee", "coffee").to_record()


def _task_holding(env: gym.Env, kind: str, given: str | None = None) -> str:
    base = task_env(env)
    for task_id in base.task_ids:
        conversation = base.get_task(task_id).setup["conversation"]
        kinds = {s["kind"] for s in conversation["slots"]}
        if kind in conversation["held"] and (
            given is None or given in kinds - set(conversation["held"])
        ):
            return str(task_id)
    raise AssertionError(f"no test task holds {kind!r} back")


def _play_given(env: gym.Env, n: int) -> None:
    """The first ``n`` steps of the task's gold that are not questions."""
    base = task_env(env)
    steps = [s for s in base.language.gold_steps(base.task.gold[0]) if not is_message(s)]
    for step in steps[:n]:
        _, _, _, _, info = env.step(step)
        assert info.get("error") is None, info["error"]


@pytest.mark.parametrize(
    "step",
    [
        '{"name": "set_num_beds", "arguments": {"value": 4}}',  # the JSON form
        '{"name": "API.set_num_beds", "arguments": {"value": 4}}',  # with the object's prefix
        '{"type": "function", "function": {"name": "set_num_beds", "arguments": "{\\"value\\": 4}"}}',
        "API.set_num_beds(2 + 2)",  # a computed argument
        "API.set_num_beds(value=8 // 2)",
        "n = 4;API.set_num_beds(n)",  # a variable, after a variable of an earlier step
    ],
)
def test_a_guess_in_any_form_the_family_runs_is_refused(step: str) -> None:
    env = gym.make("toolbench/HomeSearchChat-v0")
    env.reset(options={"task_id": _task_holding(env, "num_beds")})
    _play_given(env, 2)  # the location and buy or rent, given in the request
    if ";" in step:
        first, step = step.split(";")
        env.step(first)
    _, _, _, _, info = env.step(step)
    assert info["error"]["category"] == "guessed_slot" and info["guessed"] == ["bedrooms"]
    criteria = task_env(env)._backend.inner.session.api.outcome()
    assert "num_beds" not in criteria  # the step was undone


def test_a_step_that_runs_no_call_sets_nothing() -> None:
    """A JSON list is no Home Search step: it runs nothing, so it guesses nothing."""
    env = gym.make("toolbench/HomeSearchChat-v0")
    env.reset(options={"task_id": _task_holding(env, "num_beds")})
    _play_given(env, 2)
    _, _, _, _, info = env.step('[{"name": "set_num_beds", "arguments": {"value": 4}}]')
    assert "num_beds" not in task_env(env)._backend.inner.session.api.outcome()


_PRICE_AND_SIZE = ("max_price", "max_square_feet")


def test_a_given_value_in_the_json_form_is_no_guess() -> None:
    """A given price equal to a held-back size is the price's (it was read as the size)."""
    env = gym.make("toolbench/HomeSearchChat-v0")
    base = task_env(env)
    same = [
        task_id
        for task_id in base.task_ids
        if "max_square_feet" in (c := base.get_task(task_id).setup["conversation"])["held"]
        and "max_price" not in c["held"]
        and len(pair := [s["value"] for s in c["slots"] if s["kind"] in _PRICE_AND_SIZE]) == 2
        and pair[0] == pair[1]
    ]
    assert same, "no test task holds a size back equal to its given price"
    env.reset(options={"task_id": same[0]})
    conversation = base.task.setup["conversation"]
    price = next(s["value"] for s in conversation["slots"] if s["kind"] == "max_price")
    for step in [s for s in base.language.gold_steps(base.task.gold[0]) if not is_message(s)][:2]:
        env.step(step)  # the location and buy or rent, given in the request
    _, _, _, _, info = env.step(f'{{"name": "set_max_price", "arguments": {{"value": {price}}}}}')
    assert info.get("error") is None, info.get("error")


@pytest.mark.parametrize(
    "url",
    [
        "https://api.thecatapi.com/v1/images/search?LIMIT=8",  # services read names in any case
        "https://api.thecatapi.com//v1/images/search?limit=8",  # and "//" as "/"
    ],
)
def test_a_cat_api_guess_written_as_the_service_reads_it_is_refused(url: str) -> None:
    env = gym.make("toolbench/CatAPIChat-v0")
    env.reset(options={"task_id": _task_holding(env, "limit")})
    _, _, _, _, info = env.step(f"curl -X GET '{url}'")
    assert info["error"]["category"] == "guessed_slot"


def test_a_trip_booking_guess_with_a_computed_argument_is_refused() -> None:
    env = gym.make("toolbench/TripBookingChat-v0")
    env.reset(options={"task_id": _task_holding(env, "num_adults")})
    _play_given(env, 1)  # the booking type
    _, _, _, _, info = env.step("API.set_num_adults(2 + 1)")
    assert info["error"]["category"] == "guessed_slot"


def test_a_number_in_any_notation_writes_the_value() -> None:
    forms = ValueForms(Slot("value", 20.4, "20.4"), short=True)
    assert forms.written_in(20.4) and forms.written_in("20.40") and forms.written_in(2.04e1)
    assert forms.written_in(17 * 1.2)  # 20.399999999999998, as a program computes it
    assert not forms.written_in(20.41) and not forms.written_in(True)


def test_short_values_count_only_whole_and_only_for_kinds_no_call_carries() -> None:
    slot = Slot("adults", 2, "2 adults")
    assert ValueForms(slot, short=True).written_in(2)
    assert not ValueForms(slot, short=False).written_in(2)  # another API's page=2
    assert not ValueForms(Slot("value", 15, "15"), short=True).written_in("cell A15")
    assert ValueForms(Slot("city", "Paris", "Paris"), short=False).written_in("weather in paris")


def test_a_carried_kind_is_set_by_its_call_whatever_the_value() -> None:
    kind = SlotKind("max_price", ("budget",), call="set_max_price", argument="value")
    slot = Slot("max_price", 1550, "1550 dollars")
    assert guessed_kinds([ToolCall("SET_MAX_PRICE", {"VALUE": 1}), ToolCall("x")], [(kind, slot)])
    assert not guessed_kinds([ToolCall("set_min_price", {"value": 1550})], [(kind, slot)])


def _sheets_at(task_id: str) -> gym.Env:
    env = gym.make("toolbench/GoogleSheetsChat-v0")
    env.reset(options={"task_id": task_id})
    return env


def _sheet_cell(env: gym.Env, row: int, col: int) -> object:
    from toolgym.families.google_sheets.toolkit import load_service

    state = task_env(env)._backend.inner.state
    book = load_service(state).books[state["spreadsheet"]]
    return book.rendered(book.sheets[-1], row - 1, col - 1, "UNFORMATTED_VALUE")


@pytest.mark.parametrize(
    "step",
    [
        # a number too large for a float beside the guess: the check fails closed
        'sheet.sheet1.update_acell("Z1", 10**330)\nworksheet.update_cell(3, 4, 15)',
        # more values than the check compares beside the guess: refused, not let through
        'sheet.sheet1.update("A1:C667", [["x"] * 3] * 667)\nworksheet.update_cell(3, 4, 15)',
    ],
)
def test_a_step_the_check_cannot_read_is_undone(step: str) -> None:
    env = _sheets_at("test-000")  # the new value, 15, is held back
    _, _, _, _, info = env.step(step)
    assert info["error"]["category"] in ("guessed_slot", "runtime_error", "resource_limit")
    assert _sheet_cell(env, 3, 4) == 11  # undone


def test_a_cell_that_held_false_is_changed_to_a_held_zero() -> None:
    env = _sheets_at("test-018")  # the held value is 0 (the quantity below 179 goes to 0)
    conversation = task_env(env).task.setup["conversation"]
    assert next(s["value"] for s in conversation["slots"] if s["kind"] == "value") == 0
    env.step("worksheet.update_cell(5, 4, False)")
    _, _, _, _, info = env.step("worksheet.update_cell(5, 4, 0)")
    assert info["error"]["category"] == "guessed_slot"


def test_a_search_while_a_filter_is_held_back_is_a_guess_whatever_it_sends() -> None:
    """The service searches with every filter; left out, it has the service's own value."""
    env = gym.make("toolbench/CatAPIChat-v0")
    env.reset(options={"task_id": _task_holding(env, "breeds")})
    url = "https://api.thecatapi.com/v1/images/search?order=DESC&limit=1&page=32"
    _, _, _, _, info = env.step(f"curl -X GET '{url}'")
    assert info["error"]["category"] == "guessed_slot" and info["guessed"] == ["breeds"]


def test_a_decoy_call_with_a_huge_number_does_not_carry_a_guess_through() -> None:
    env = gym.make(RAPID)
    task_id, slot, own, _ = _rapid_task_with_a_shared_argument(env)
    env.reset(options={"task_id": task_id})
    decoy = {"name": own["name"], "arguments": {**own["arguments"], "zz": 10**330}}
    _, _, _, _, info = env.step(json.dumps([decoy, own]))
    assert info["error"]["category"] == "guessed_slot"
    assert not task_env(env)._backend.inner.calls  # undone: neither call is kept
    assert slot.kind in task_env(env)._backend.untold()


@pytest.mark.parametrize(
    ("env_id", "task_id", "step"),
    [
        ("toolbench/GoogleSheetsChat-v0", "test-000", "print(worksheet.get_all_values())"),
        ("toolbench/GoogleSheetsChat-v0", "test-002", 'worksheet.append_row(["pork"])'),
        (
            "toolbench/CatAPIChat-v0",
            "test-001",
            "curl -X GET 'https://api.thecatapi.com/v1/favourites'",
        ),
    ],
)
def test_a_step_that_sets_no_held_back_detail_runs(env_id: str, task_id: str, step: str) -> None:
    """Reading, or writing what the request gave, is no guess (the check refuses only guesses)."""
    env = gym.make(env_id)
    env.reset(options={"task_id": task_id})
    assert task_env(env)._backend.untold()
    _, _, _, _, info = env.step(step)
    assert info.get("error") is None, info.get("error")


def test_a_value_nested_past_the_checks_depth_is_refused_not_skipped() -> None:
    from toolgym.conversation.guesses import MAX_DEPTH, TooManyValues, leaves

    value: object = "Paris"
    for _ in range(MAX_DEPTH + 2):
        value = [value]
    with pytest.raises(TooManyValues):
        list(leaves(value))
