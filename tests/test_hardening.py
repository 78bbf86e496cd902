"""Budgets and the crash classes found by attacking the envs: each is now an error, never more."""

from __future__ import annotations

import json
import time
from pathlib import Path

import gymnasium as gym
import pytest

from toolgym.agents.base import Agent
from toolgym.envs.protocol import task_env
from toolgym.evaluation.runner import run_episode
from toolgym.families.home_search.toolkit import HomeSearchToolkit
from toolgym.tools.api_program import ApiProgramLanguage
from toolgym.tools.budgets import RESOURCE_LIMIT, Budgets, measure, short_repr
from toolgym.tools.errors import NON_EXECUTABLE, RUNTIME_ERROR, TIMEOUT

HOME = "toolbench/HomeSearch-v0"
TRIP = "toolbench/TripBooking-v0"
WEATHER = "toolbench/OpenWeather-v0"
CAT = "toolbench/CatAPI-v0"
PREFIX = 'API.set_location("Austin")\nAPI.set_buy_or_rent("rent")\n'


def step(env_id: str, action: str, mode: str = "program") -> tuple[str, float, dict]:
    env = gym.make(env_id, action_mode=mode)
    env.reset(seed=0)
    start = time.perf_counter()
    obs, reward, _, _, info = env.step(action)
    assert time.perf_counter() - start < 10.0, "an action must not hang"  # generous: CI is loaded
    assert obs in env.observation_space
    return obs, reward, info


def test_shared_references_cannot_multiply_a_value() -> None:
    # ~1,100 characters that used to build 10^8 items through shared references
    items = ", ".join(["1"] * 100)
    program = (
        f"a = [{items}]\n"
        f"b = [{', '.join(['a'] * 100)}]\n"
        f"c = [{', '.join(['b'] * 100)}]\n"
        f"d = [{', '.join(['c'] * 100)}]\n" + PREFIX + "API.set_num_beds(d)\nAPI.search()"
    )
    obs, reward, info = step(HOME, program)
    assert info["error"]["category"] == RESOURCE_LIMIT and reward == 0.0
    assert "more than 1000 items" in obs


def test_deep_nesting_through_variables_is_refused() -> None:
    lines = ["v0 = [1]", *(f"v{i} = [v{i - 1}]" for i in range(1, 40))]
    obs, _, info = step(HOME, "\n".join(lines) + "\n" + PREFIX + "API.set_num_beds(v39)")
    assert info["error"]["category"] == RESOURCE_LIMIT and "levels deep" in obs


def test_many_medium_values_hit_the_action_budget() -> None:
    items = ", ".join(["1"] * 900)
    program = f"a = [{items}]\n" + "\n".join(f"v{i} = [a]" for i in range(12))
    obs, _, info = step(HOME, program)
    assert info["error"]["category"] == RESOURCE_LIMIT and "in all" in obs


@pytest.mark.parametrize(
    "program",
    [
        PREFIX + f"API.set_max_price({'9' * 309} / 1.5)",
        PREFIX + f"API.set_max_price({'9' * 309} * 1.5)",
        PREFIX + "API.set_max_price(1e999)",
        PREFIX + "x = 1000000000 * 1000000000 * 1000000000\nAPI.set_max_price(x)",
    ],
)
def test_numbers_out_of_range_are_resource_limits(program: str) -> None:
    obs, reward, info = step(HOME, program)
    assert info["error"]["category"] == RESOURCE_LIMIT and reward == 0.0


@pytest.mark.parametrize("value", ["'nan'", "'inf'", "'-inf'", "'1e999'"])
def test_non_finite_counts_are_stored_and_ignored_by_the_search(value: str) -> None:
    obs, _, info = step(HOME, PREFIX + f"API.set_num_beds({value})\nAPI.search()")
    assert info["error"] is None or info["error"]["category"] != RUNTIME_ERROR
    assert "not a number; filter ignored" in obs
    program = (
        'API.select_booking_type("hotels")\nAPI.set_hotel_location(Loc("Austin"))\n'
        "API.set_checkin_date(Date(5, 1, 2026))\nAPI.set_checkout_date(Date(5, 3, 2026))\n"
        f"API.set_num_rooms({value})\nAPI.search()"
    )
    obs, _, info = step(TRIP, program)
    assert info["error"] is None or info["error"]["category"] != RUNTIME_ERROR


def test_a_date_with_a_twenty_digit_year_is_noted_not_raised() -> None:
    program = (
        'API.select_booking_type("hotels")\nAPI.set_hotel_location(Loc("Austin"))\n'
        'API.set_checkin_date(Date(5, 1, "99999999999999999999"))\n'
        "API.set_checkout_date(Date(5, 3, 2026))\nAPI.search()"
    )
    obs, _, info = step(TRIP, program)
    assert "not a real date" in obs
    obs, _, info = step(TRIP, program.replace('"99999999999999999999"', "9" * 20))
    assert info["error"]["category"] == RESOURCE_LIMIT


@pytest.mark.parametrize("env_id", [HOME, WEATHER, CAT])
@pytest.mark.parametrize(
    ("arguments", "category"),
    [
        ("[" * 3000 + "]" * 3000, RESOURCE_LIMIT),
        ("9" * 4400, NON_EXECUTABLE),
        (json.dumps([[1] * 100] * 100), RESOURCE_LIMIT),
    ],
)
def test_json_calls_beyond_reason_are_errors(env_id: str, arguments: str, category: str) -> None:
    action = '{"name": "x", "arguments": {"value": ' + arguments + "}}"
    obs, reward, info = step(env_id, action, "call")
    assert info["error"]["category"] == category, obs


@pytest.mark.parametrize(
    "line",
    [
        "curl -X GET 'http://[::1'",
        "curl -X GET 'https://api.openweathermap.org\uff20evil.com/data/2.5/weather?q=x'",
        "curl -X POST 'https://api.thecatapi.com/v1/votes' --data '{\"image_id\": \"\ud800\"}'",
    ],
)
@pytest.mark.parametrize("env_id", [WEATHER, CAT])
@pytest.mark.parametrize("mode", ["program", "call"])
def test_curl_lines_urllib_rejects_are_errors(env_id: str, line: str, mode: str) -> None:
    obs, reward, info = step(env_id, line, mode)
    assert info["error"]["category"] == NON_EXECUTABLE, obs


def test_a_lone_surrogate_in_a_json_call_is_an_error() -> None:
    obs, _, info = step(CAT, '{"name": "search_images", "arguments": {"size": "\\ud800"}}')
    assert info["error"]["category"] in (NON_EXECUTABLE, "wrong_arguments"), obs


@pytest.mark.parametrize("env_id", [HOME, CAT])
def test_non_string_actions_are_a_programming_error(env_id: str) -> None:
    env = gym.make(env_id)
    env.reset(seed=0)
    with pytest.raises(TypeError, match="an action is text"):
        env.step(123)  # type: ignore[arg-type]


def test_syntax_errors_quote_the_source_not_a_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "<unknown>").write_text("SECRET FILE CONTENT\n" * 3)
    obs, _, info = step(HOME, "API.set_location('Austin'\nAPI.search(")
    assert "SECRET" not in obs and "SECRET" not in info["error"]["message"]
    assert info["error"]["category"] == NON_EXECUTABLE


def test_the_time_budget_ends_a_program() -> None:
    toolkit = HomeSearchToolkit()
    language = ApiProgramLanguage(toolkit.tools, budgets=Budgets(max_seconds=0.0))
    backend = toolkit.new_backend()
    execution = language.run_program(PREFIX + "API.search()", backend)
    assert execution.error.category == TIMEOUT and execution.attempt.outcome is None


def test_rendered_values_are_short() -> None:
    assert len(short_repr("x" * 10_000)) < 100
    assert len(short_repr([[list(range(50))] * 50] * 50)) <= 200
    assert measure(list(range(10)), max_items=3)[0] > 3  # stops early, past the limit


class PoisonedGold(Agent):
    """Plays the gold program with one poisoned call appended (it must score 0, not the F1)."""

    def __init__(self, env: gym.Env, poison: str) -> None:
        self.env, self.poison = env, poison

    def act(self, observation: str, info: dict) -> str:
        return task_env(self.env).oracle_actions()[0] + "\n" + self.poison


@pytest.mark.parametrize("poison", ["API.nope()", "import os", "API.set_num_beds([[1] * 2000])"])
def test_a_crash_never_scores(poison: str) -> None:
    env = gym.make(HOME)
    agent = PoisonedGold(env, poison)
    for task_id in task_env(env).task_ids[:10]:
        record = run_episode(env, agent, task_id=task_id)
        assert record.reward == 0.0 and record.metrics["executable"] is False, record
        assert record.metrics["f1"] == 0.0 and record.metrics["success"] is False


class BrokenEnvStep(gym.Wrapper):
    def step(self, action: str):
        raise RuntimeError("a bug in the environment")


def test_an_exception_out_of_step_scores_as_an_action_that_failed() -> None:
    env = gym.make(HOME)

    class Oracle(Agent):
        def act(self, observation: str, info: dict) -> str:
            return task_env(env).oracle_actions()[0]

    record = run_episode(BrokenEnvStep(env), Oracle(), task_id="test-000")
    assert record.error["category"] == RUNTIME_ERROR
    assert record.metrics["executable"] is False and record.metrics["success"] is False


def test_an_unsubmitted_episode_is_never_a_success() -> None:
    env = gym.make(HOME, action_mode="call")
    env.reset(options={"task_id": "test-000"})
    for line in task_env(env).oracle_actions()[:-1]:  # everything but API.search()
        env.step(line)
    score = task_env(env).score()
    assert score.success is False


class Fixed(Agent):
    def __init__(self, action: str) -> None:
        self.action = action

    def act(self, observation: str, info: dict) -> str:
        return self.action


@pytest.mark.parametrize("env_id", ["toolbench/GoogleSheets-v0", "toolbench/Tabletop-v0"])
def test_an_error_message_is_as_long_as_an_observation_at_most(env_id: str) -> None:
    from toolgym.envs.bounds import MAX_OBSERVATION_CHARS

    env = gym.make(env_id)
    env.reset(seed=0)
    obs, _, _, _, info = env.step("raise ValueError('x' * 7000000)")
    assert info["error"]["category"] == RUNTIME_ERROR
    assert len(info["error"]["message"]) <= MAX_OBSERVATION_CHARS
    assert info["error"]["message"].endswith("...[truncated]")
    # and what a run records of it is bounded: the step's observation and error, each kept in its
    # turn and at the top of the record
    record = run_episode(env, Fixed("raise ValueError('x' * 7000000)"), seed=0)
    assert len(json.dumps(record.to_dict())) < 5 * MAX_OBSERVATION_CHARS


def test_a_large_outcome_comes_back_within_the_info_cap() -> None:
    """A program that leaves a huge sheet: the step's info stays within the cap.

    The formulas it wrote are evaluated within their work budget.
    """
    from toolgym.envs.bounds import MAX_OBSERVATION_CHARS

    env = gym.make("toolbench/GoogleSheets-v0")
    env.reset(seed=0)
    program = (
        "worksheet.resize(3000, 26)\n"
        "f = '=' + '+'.join(['1'] * 30)\n"
        "worksheet.update([[f] * 26 for _ in range(3000)], 'A1:Z3000', "
        "value_input_option='USER_ENTERED')"
    )
    obs, reward, terminated, _, info = env.step(program)
    assert terminated and reward == 0.0 and obs in env.observation_space
    for key, value in info.items():
        text = value if isinstance(value, str) else json.dumps(value, default=str)
        assert len(text) <= MAX_OBSERVATION_CHARS + 2_000, key  # JSON escapes aside
    assert isinstance(info["prediction"], str) and info["prediction"].endswith("...[truncated]")


def test_info_values_json_cannot_render_are_bounded_not_raised() -> None:
    from toolgym.envs.bounds import bound_info

    cycle: list = []
    cycle.append(cycle)
    info = bound_info({"a": {(1, 2): "x" * 100_000}, "b": cycle, "c": [1, 2]})
    assert isinstance(info["a"], str) and len(info["a"]) <= 65_536
    assert isinstance(info["b"], str) and info["c"] == [1, 2]
