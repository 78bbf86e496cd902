"""API-program families: error categories of perturbed programs, extraction, call-mode rollback."""

from __future__ import annotations

import gymnasium as gym
import pytest
from conftest import INSTALLED_BUILTIN_IDS

from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.tools.errors import NON_EXECUTABLE, PRECONDITION, WRONG_API, WRONG_ARGUMENTS

PROGRAM_IDS = [
    i
    for i in INSTALLED_BUILTIN_IDS
    if "program" in family_of(i).action_modes  # a conversation is played in call mode only
    and task_env(gym.make(i)).language.name == "api_program"
]


@pytest.fixture(params=PROGRAM_IDS)
def program_env_id(request: pytest.FixtureRequest) -> str:
    return request.param


def _optional_line(lines: list[str]) -> int:
    optional = ("set_num_", "set_max_", "set_min_", "select_room_type", "select_home_type")
    for i, line in enumerate(lines):
        if any(f"API.{name}" in line for name in optional) and "=" not in line.split("(")[0]:
            return i
    raise AssertionError("no optional setter in the gold")


def _number_line(lines: list[str]) -> int:
    for i, line in enumerate(lines):
        inside = line[line.find("(") + 1 : line.rfind(")")]
        if inside.isdigit():
            return i
    raise AssertionError("no numeric argument")


def perturbations(program: str) -> dict[str, tuple[str, str]]:
    lines = program.splitlines()
    n = _number_line(lines)
    wrong_value = lines.copy()
    head, _, tail = wrong_value[n].partition("(")
    wrong_value[n] = f"{head}({int(tail.rstrip(')')) + 1})"
    missing = lines.copy()
    del missing[_optional_line(lines)]
    swapped = lines.copy()
    swapped[0], swapped[1] = swapped[1], swapped[0]
    return {
        "wrong argument": ("\n".join(wrong_value), WRONG_ARGUMENTS),
        "missing call": ("\n".join(missing), WRONG_API),
        "out of order": ("\n".join(swapped), PRECONDITION),
        "prose around": (f"Here is the program:\n{program}\nHope it helps!", NON_EXECUTABLE),
        "markdown fence": (f"```python\n{program}\n```", NON_EXECUTABLE),
        "unknown function": ("\n".join([*lines[:-1], "API.book_now()", lines[-1]]), WRONG_API),
        "import": (f"__import__('os')\n{program}", NON_EXECUTABLE),
        "dunder attribute": (f"{program}\nAPI.__class__", NON_EXECUTABLE),
        "private method": (f"API._require_booking_type('x')\n{program}", NON_EXECUTABLE),
    }


def _task_with_optional_setter(env: gym.Env) -> str:
    base = task_env(env)
    for task_id in base.task_ids:
        env.reset(options={"task_id": task_id})
        lines = base.oracle_actions()[0].splitlines()
        try:
            _optional_line(lines), _number_line(lines)
        except AssertionError:
            continue
        swapped_ok = "select_booking_type" in lines[0] or "set_location" in lines[0]
        if swapped_ok and "API." in lines[1]:
            return task_id
    raise AssertionError("no suitable task")


def test_perturbed_gold_programs_get_the_right_category(program_env_id: str) -> None:
    env = gym.make(program_env_id)
    task_id = _task_with_optional_setter(env)
    env.reset(options={"task_id": task_id})
    gold = task_env(env).oracle_actions()[0]
    for name, (program, expected) in perturbations(gold).items():
        env.reset(options={"task_id": task_id})
        obs, reward, terminated, truncated, info = env.step(program)
        assert terminated and reward < 1.0, name
        assert info["error"]["category"] == expected, (name, info["error"])
        if expected in (NON_EXECUTABLE, PRECONDITION):
            assert obs.startswith(f"Error ({expected})"), (name, obs)
            assert info["metrics"]["executable"] is False and reward == 0.0
        # the env keeps working: the gold still scores 1
        env.reset(options={"task_id": task_id})
        assert env.step(gold)[1] == 1.0, name


def test_lenient_extraction_accepts_prose_and_fences(program_env_id: str) -> None:
    env = gym.make(program_env_id, extraction="lenient")
    env.reset(seed=0)
    gold = task_env(env).oracle_actions()[0]
    obs, reward, *_ = env.step(f"Sure! Here it is:\n```python\n{gold}\n```\nAnything else?")
    assert reward == 1.0, obs


def test_call_mode_errors_leave_state_unchanged(program_env_id: str) -> None:
    env = gym.make(program_env_id, action_mode="call")
    env.reset(seed=0)
    base = task_env(env)
    actions = base.oracle_actions()
    env.step(actions[0])
    before = base.get_state()["episode"]
    for bad in (
        "API.search()\nAPI.search()",
        "import os",
        "API.nope()",
        "API.__dict__",
        "{bad json",
    ):
        obs, reward, terminated, truncated, info = env.step(bad)
        assert obs.startswith("Error (") and reward == 0.0 and not terminated
        assert info["error"]["category"] in (NON_EXECUTABLE, WRONG_API)
    assert base.get_state()["episode"] == before
    results = [env.step(a) for a in actions[1:]]
    assert results[-1][1] == 1.0 and results[-1][2]


def test_hints_name_the_terminal_call(program_env_id: str) -> None:
    hints = task_env(gym.make(program_env_id)).hints
    assert hints.action_language == "api_program"
    assert hints.finish_action == "API.search()"
    assert hints.terminal_calls == ("API.search(",)
    assert hints.demo_label == "Actions:"
