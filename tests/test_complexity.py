"""The API complexity score (the paper's Appendix D).

The formula, each family's API sets, the score of every env's stored splits, and the
``complexity`` command.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from functools import cache
from typing import Any

import gymnasium as gym
import pytest

import toolgym  # noqa: F401  (registers the envs)
from toolgym.benchmarks.complexity import (
    ComplexityResult,
    api_complexity,
    case_complexity,
    case_distance,
    complexity_of,
    paper_complexity,
    pool_tasks,
    split_complexity,
)
from toolgym.cli.complexity import (
    add_parser,
    complexity_rows,
    default_env_ids,
    parse_base,
    resolve_env,
)
from toolgym.envs import family_of, latest_env_ids
from toolgym.envs.protocol import task_env
from toolgym.errors import UserInputError
from toolgym.tools.toolkit import Toolkit

pytestmark = pytest.mark.filterwarnings("ignore:.*is out of date.*")  # the older versions

LN2 = math.log(2)


# -- the formula ---------------------------------------------------------------------------------
def test_a_label_inside_the_demo_costs_only_the_demos_apis() -> None:
    assert case_distance({"a"}, {"a", "b"}, 10) == pytest.approx(2 * LN2)
    assert case_distance({"a"}, {"a", "b"}, 10, base=2) == pytest.approx(2.0)


def test_disjoint_sets_pay_for_the_demo_and_every_missing_api() -> None:
    # |e| = 1, |t \ e| = 2, |D| = 8: log 2 + 2 log 8 = 7 log 2
    assert case_distance({"a", "b"}, {"c"}, 8) == pytest.approx(7 * LN2)
    assert case_distance({"a", "b"}, {"c"}, 8, base=2) == pytest.approx(7.0)


def test_an_empty_demo_draws_every_api_from_d() -> None:
    assert case_distance({"a", "b", "c"}, set(), 4) == pytest.approx(3 * math.log(4))
    assert case_distance({"a", "b", "c"}, (), 4, base=2) == pytest.approx(6.0)
    assert case_distance(set(), set(), 4) == 0.0


def test_a_partial_overlap() -> None:
    # e = {a, b, c}, t = {a, d}: 3 log 2 + 1 log 5
    assert case_distance({"a", "d"}, {"a", "b", "c"}, 5) == pytest.approx(3 * LN2 + math.log(5))


def test_sets_ignore_repeats_and_multisets_count_them() -> None:
    test, demo = ["a", "a", "b"], ["a", "a", "a"]
    # sets: |e| = 1, t \ e = {b}
    assert case_distance(test, demo, 16, base=2) == pytest.approx(1 + 4)
    # multisets: |e| = 3, t \ e = {b} (both a's are matched)
    assert case_distance(test, demo, 16, base=2, multiset=True) == pytest.approx(3 + 4)
    # one a in the demo: the second a of the label is missing
    assert case_distance(test, ["a"], 16, base=2, multiset=True) == pytest.approx(1 + 2 * 4)


def test_the_score_is_the_mean_of_the_closest_demos() -> None:
    tests = [{"a"}, {"a", "b"}, {"c"}]
    demos = [{"a"}, {"a", "b"}]
    # a: {a} -> 1 bit; {a, b}: {a, b} -> 2 bits, {a} -> 1 + 3 = 4; c: {a} -> 1 + 3 = 4
    assert api_complexity(tests, demos, 8, base=2) == pytest.approx((1 + 2 + 4) / 3)
    nats = api_complexity(tests, demos, 8)
    assert nats == pytest.approx(api_complexity(tests, demos, 8, base=2) * LN2)


def test_a_case_with_alternative_labels_takes_the_closest() -> None:
    assert case_complexity([{"x"}, {"a"}], [{"a"}], 8, base=2) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: api_complexity([], [{"a"}], 2), "no test case"),
        (lambda: api_complexity([{"a"}], [], 2), "pool is empty"),
        (lambda: case_complexity([], [{"a"}], 2), "at least one label"),
        (lambda: case_distance({"a"}, set(), 0), "num_apis"),
        (lambda: case_distance({"a"}, set(), 3, base=1), "log base"),
        (lambda: case_distance({"a"}, set(), 3, base=-2.0), "log base"),
    ],
)
def test_bad_inputs_are_refused(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# -- what each family counts as its APIs ---------------------------------------------------------
@cache
def toolkit(env_id: str, **options: Any) -> Toolkit:
    return task_env(gym.make(env_id, **options)).toolkit


PAPER_API_COUNTS = {
    "toolbench/HomeSearch-v0": 15,
    "toolbench/TripBooking-v0": 20,
    "toolbench/OpenWeather-v1": 9,
    "toolbench/CatAPI-v1": 6,
    "toolbench/GoogleSheets-v0": 108,
    "toolbench/VirtualHome-v0": 40,
    "toolbench/WebShop-v1": 2,
    "toolbench/Tabletop-v0": 32,
}
"""The paper's API counts (|D|), which the families' tool sets have."""


@pytest.mark.parametrize(("env_id", "count"), PAPER_API_COUNTS.items())
def test_d_is_the_familys_tools(env_id: str, count: int) -> None:
    kit = toolkit(env_id)
    assert kit.api_names() == frozenset(t.qualname for t in kit.tools)
    assert len(kit.api_names()) == count


CURL = "curl -X {} 'https://{}'"

GOLDS: list[tuple[str, str, tuple[str, ...]]] = [
    (
        "toolbench/HomeSearch-v0",
        'API.set_location("Austin")\nAPI.set_buy_or_rent("rent")\nAPI.set_num_beds(2)\n'
        "API.search()",
        ("API.set_location", "API.set_buy_or_rent", "API.set_num_beds", "API.search"),
    ),
    (
        "toolbench/TripBooking-v0",
        'API.select_booking_type("hotels")\nloc = Loc("Ontario")\nAPI.set_hotel_location(loc)\n'
        "API.set_checkin_date(Date(4, 10, 2022))\nAPI.search()",
        (
            "API.select_booking_type",
            "Loc",
            "API.set_hotel_location",
            "API.set_checkin_date",
            "Date",
            "API.search",
        ),
    ),
    (
        "toolbench/OpenWeather-v1",
        CURL.format("GET", "api.openweathermap.org/data/2.5/weather?q=kabul&appid={API_KEY}"),
        ("current_weather_city",),
    ),
    (
        "toolbench/OpenWeather-v1",
        CURL.format("GET", "api.openweathermap.org/data/2.5/weather?zip=94957&appid={API_KEY}"),
        ("current_weather_zipcode",),
    ),
    (
        "toolbench/OpenWeather-v1",
        CURL.format(
            "GET", "api.openweathermap.org/data/2.5/forecast?lat=1.5&lon=2.0&appid={API_KEY}"
        ),
        ("forecast_weather_lat_lon",),
    ),
    (
        "toolbench/OpenWeather-v0",
        CURL.format(
            "GET", "api.openweathermap.org/data/2.5/air_pollution/forecast?lat=1&lon=2&appid=k"
        ),
        ("forecast_air_pollution",),
    ),
    (
        "toolbench/CatAPI-v1",
        CURL.format("POST", "api.thecatapi.com/v1/votes")
        + ' --data \'{"image_id":"LE3bcO9aB", "value":-1}\'',
        ("vote_down",),
    ),
    (
        "toolbench/CatAPI-v1",
        CURL.format("POST", "api.thecatapi.com/v1/votes")
        + ' --data \'{"image_id":"LE3bcO9aB", "value":1}\'',
        ("vote_up",),
    ),
    (
        "toolbench/CatAPI-v0",
        CURL.format("DELETE", "api.thecatapi.com/v1/favourites/dv0"),
        ("delete_favourite",),
    ),
    (
        "toolbench/CatAPI-v1",
        CURL.format("GET", "api.thecatapi.com/v1/images/search?&size=small&order=ASC"),
        ("search_images",),
    ),
    (
        "toolbench/GoogleSheets-v0",
        "worksheet.update('D1', 'Difference')\nworksheet.update_cell(2, 4, 3)\n"
        "worksheet.update('D2', '=C2-B2', raw=False)",
        ("worksheet.update", "worksheet.update_cell", "worksheet.update"),
    ),
    (
        "toolbench/GoogleSheets-v0",
        "df = get_as_dataframe(worksheet)\ndf = df.sort_values('Salary')\nworksheet.clear()\n"
        "set_with_dataframe(worksheet, df, include_index=False)\n"
        "sheet.batch_update({'requests': []})",
        ("get_as_dataframe", "worksheet.clear", "set_with_dataframe", "sheet.batch_update"),
    ),
    (
        "toolbench/VirtualHome-v0",
        "Agent.WalkTo(kitchen)\nAgent.Find(coffee_cup)\nAgent.Grab(coffee_cup)\n"
        "Agent.WalkTo(dishwasher)\nAgent.PutIn(coffee_cup, dishwasher)",
        ("Agent.WalkTo", "Agent.Find", "Agent.Grab", "Agent.WalkTo", "Agent.PutIn"),
    ),
    (
        "toolbench/WebShop-v1",
        "search[herbal tea that is organic]\nclick[next >]\nclick[b0479ca65d]\nclick[buy now]",
        ("search", "click", "click", "click"),
    ),
    (
        "toolbench/Tabletop-v0",
        "block_names = [name for name in get_obj_names() if 'block' in name]\n"
        "for name in block_names:\n    put_first_on_second(name, 'top side')\n",
        ("get_obj_names", "put_first_on_second"),
    ),
    (
        "toolbench/Tabletop-v0",
        "put_first_on_second('brown block', 'yellow block')\n",
        ("put_first_on_second",),
    ),
]


@pytest.mark.parametrize(
    ("env_id", "gold", "calls"),
    GOLDS,
    ids=[f"{env_id[10:]}-{k}" for k, (env_id, _, _) in enumerate(GOLDS)],
)
def test_each_family_reads_the_apis_of_a_gold(
    env_id: str, gold: str, calls: tuple[str, ...]
) -> None:
    assert toolkit(env_id).api_calls(gold) == calls


def test_a_rest_family_in_python_reads_its_curl_golds() -> None:
    kit = toolkit("toolbench/CatAPI-v1", action_language="python")
    line = CURL.format("GET", "api.thecatapi.com/v1/favourites")
    assert kit.api_calls(line) == ("list_favourites",)


@pytest.mark.parametrize(
    "env_id", ["toolbench/RapidAPI-v1", "toolbench/SealTools-v0"], ids=lambda i: i[10:]
)
def test_function_calling_families_count_the_named_functions(env_id: str) -> None:
    env = task_env(gym.make(env_id))
    task = next(iter(env.suite.load("demo").values()))
    calls = json.loads(task.gold[0])
    names = tuple(c.get("name", c.get("api")) for c in calls)
    assert env.toolkit.api_calls(task.gold[0]) == names
    assert env.toolkit.api_calls("not a call at all") == ()


def scored(env_id: str) -> str:
    """``env_id``, or a skip when the score does not apply to it (no demonstration pool)."""
    if "demo" not in task_env(gym.make(env_id)).suite.splits:
        pytest.skip(
            f"the API complexity score compares a test split with a demonstration pool over the "
            f"family's API set; {env_id} has neither (each task brings its own functions)"
        )
    return env_id


@pytest.mark.parametrize("env_id", latest_env_ids())
def test_every_gold_calls_only_the_familys_apis(env_id: str) -> None:
    env = task_env(gym.make(scored(env_id)))
    names = env.toolkit.api_names()
    for task in env.suite.load("test").values():
        for gold in task.gold:
            calls = env.toolkit.api_calls(gold)
            assert calls, f"{env_id} {task.task_id}: no API found in {gold[:200]!r}"
            assert set(calls) <= names


# -- the score of the stored splits --------------------------------------------------------------
@cache
def result(env_id: str) -> ComplexityResult:
    return split_complexity(env_id)


@pytest.mark.parametrize("env_id", latest_env_ids())
def test_split_complexity_of_every_env(env_id: str) -> None:
    got = result(scored(env_id))
    env = task_env(gym.make(env_id))
    assert got.env_id == env_id and got.split == "test" and got.pool == "demo"
    assert got.num_apis == len(env.toolkit.api_names())
    assert got.test_cases == len(env.suite.load("test"))
    assert got.demos == len(pool_tasks(env.suite, "demo"))
    assert len(got.distances) == got.test_cases
    assert got.score == pytest.approx(sum(got.distances) / got.test_cases)
    # the closest demonstration costs at least log 2 per API it calls: never below 0, and a
    # covered case costs nothing for missing APIs
    assert all(d >= 0 for d in got.distances)
    assert 0 <= got.covered <= 1 and got.mean_test_apis > 0
    tasks_ref = family_of(env_id).latest.tasks
    assert got.paper == paper_complexity(tasks_ref)
    if env_id in PAPER_API_COUNTS:
        assert got.paper is not None
    # recomputed from the first labels when every case has one label
    tests = list(env.suite.load("test").values())
    if all(len(t.gold) == 1 for t in tests):
        first = [env.toolkit.api_calls(t.gold[0]) for t in tests]
        demos = [env.toolkit.api_calls(t.gold[0]) for t in pool_tasks(env.suite, "demo")]
        assert got.score == pytest.approx(api_complexity(first, demos, got.num_apis))


def test_base_two_is_the_score_in_bits() -> None:
    nats = result("toolbench/HomeSearch-v0")
    bits = split_complexity("toolbench/HomeSearch-v0", base=2)
    assert bits.score == pytest.approx(nats.score / LN2)
    assert bits.base == 2.0


def test_with_two_apis_every_call_costs_log_2() -> None:
    sets = result("toolbench/WebShop-v1")
    multi = split_complexity("toolbench/WebShop-v1", multiset=True)
    # two APIs: d = (|e| + |t \ e|) log 2 >= |t| log 2, so the score is at least mean |t| log 2
    assert sets.score == pytest.approx(2 * LN2)
    assert multi.score == pytest.approx(multi.mean_test_apis * LN2)
    assert multi.score > sets.score


def test_an_unknown_split_or_pool_is_refused() -> None:
    env = task_env(gym.make("toolbench/HomeSearch-v0"))
    with pytest.raises(ValueError, match="fixed splits"):
        complexity_of(env.suite, env.toolkit, split="train")
    with pytest.raises(ValueError, match="demonstration pool"):
        complexity_of(env.suite, env.toolkit, pool="nope")


def test_another_pool_is_that_splits_tasks() -> None:
    env = task_env(gym.make("toolbench/HomeSearch-v0"))
    against_itself = complexity_of(env.suite, env.toolkit, split="demo", pool="demo")
    # each demonstration is its own closest demonstration at best
    assert against_itself.covered == 1.0


# -- the command ---------------------------------------------------------------------------------
def run_command(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="toolgym")
    add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["complexity", *argv])
    return int(args.func(args))


def test_the_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_command(["--env", "toolbench/HomeSearch-v0", "--env", "SealTools"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "log base e" in lines[0] and "API sets" in lines[0]
    assert lines[1].split() == [
        "env",
        "|D|",
        "test",
        "cases",
        "demos",
        "score",
        "paper",
        "gap",
        "%",
    ]
    home = next(line for line in lines if line.startswith("toolbench/HomeSearch-v0"))
    want = result("toolbench/HomeSearch-v0")
    assert home.split()[1:6] == ["15", "100", str(want.demos), f"{want.score:.2f}", "7.30"]
    assert home.split()[6] == f"{100 * (want.score - 7.3) / 7.3:+.0f}%"
    seal = next(line for line in lines if line.startswith("toolbench/SealTools-v0"))
    assert len(seal.split()) == 5  # no paper value, no gap


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_command(["--env", "HomeSearch", "--json", "--base", "2", "--multiset"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["env_id"] == "toolbench/HomeSearch-v0" and row["base"] == 2.0
    assert row["multiset"] is True and row["paper"] == 7.3
    assert row["score"] == pytest.approx(result("toolbench/HomeSearch-v0").score / LN2)


def test_the_command_refuses_what_it_cannot_score() -> None:
    with pytest.raises(UserInputError, match="registered env id or a family name"):
        run_command(["--env", "toolbench/Nope-v0"])
    with pytest.raises(UserInputError, match="demonstration pool"):
        run_command(["--env", "HomeSearch", "--pool", "nope"])
    with pytest.raises(SystemExit):
        run_command(["--base", "one"])


def test_the_command_defaults() -> None:
    ids = default_env_ids()
    assert set(latest_env_ids()) <= set(ids)
    assert "toolbench/WebShop-v0" in ids  # a paper column of its own
    assert resolve_env("virtual_home") == "toolbench/VirtualHome-v0"
    assert parse_base("e") == math.e and parse_base("2") == 2.0
    with pytest.raises(argparse.ArgumentTypeError, match="positive number"):
        parse_base("1")


def test_report_rows_leave_out_what_cannot_be_scored() -> None:
    rows = complexity_rows(["toolbench/HomeSearch-v0", "toolbench/Nope-v0"])
    assert [r["env"] for r in rows] == ["toolbench/HomeSearch-v0"]
    assert rows[0]["paper"] == 7.3 and rows[0]["|D|"] == 15
    assert complexity_rows(["toolbench/HomeSearch-v0"], pool="train") == []
