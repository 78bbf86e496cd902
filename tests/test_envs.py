"""The Gymnasium contract, determinism, state, pickling and the oracle, over every registered env."""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

from toolgym.agents import OracleAgent, RandomAgent
from toolgym.evaluation.runner import run_episode
from toolgym.envs.program_env import ProgramEnv
from toolgym.tools.errors import NON_EXECUTABLE, PRECONDITION, WRONG_API, WRONG_ARGUMENTS

MODES = ("program", "call")


@pytest.mark.parametrize("mode", MODES)
def test_check_env_passes(env_id: str, mode: str) -> None:
    env = gym.make(env_id, action_mode=mode)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    messages = [str(w.message) for w in caught]
    assert not [m for m in messages if "env_checker" in m or "WARN" in m], messages


def test_spaces_admit_real_text(env_id: str) -> None:
    env = gym.make(env_id)
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space
    program = env.unwrapped.oracle_actions()[0]
    assert program in env.action_space
    obs, *_ = env.step(program)
    assert obs in env.observation_space
    assert '{"a": "b c"}\n' in env.action_space


def rollout(env: gym.Env, seed: int, mode: str, episodes: int = 4) -> list:
    agent = RandomAgent(seed)
    trace = []
    for k in range(episodes):
        obs, info = env.reset(seed=seed + k)
        trace.append((obs, info["task_id"]))
        done = False
        while not done:
            action = agent.act(obs, info)
            obs, reward, terminated, truncated, step_info = env.step(action)
            trace.append((action, obs, reward, terminated, truncated, step_info.get("error")))
            done = terminated or truncated
    return trace


@pytest.mark.parametrize("mode", MODES)
def test_same_seed_same_trajectory(env_id: str, mode: str) -> None:
    a = rollout(gym.make(env_id, action_mode=mode), 7, mode)
    b = rollout(gym.make(env_id, action_mode=mode), 7, mode)
    assert a == b
    c = rollout(gym.make(env_id, action_mode=mode), 8, mode)
    assert a != c


def test_seeded_reset_picks_the_same_task(env_id: str) -> None:
    env = gym.make(env_id)
    first = [env.reset(seed=s)[1]["task_id"] for s in range(10)]
    again = [env.reset(seed=s)[1]["task_id"] for s in range(10)]
    assert first == again and len(set(first)) > 3


@pytest.mark.parametrize("split", ["test", "demo"])
@pytest.mark.parametrize("mode", MODES)
def test_oracle_scores_one_on_every_task(env_id: str, split: str, mode: str) -> None:
    env = gym.make(env_id, split=split, action_mode=mode)
    ids = env.unwrapped.task_ids
    assert ids
    agent = OracleAgent(env)
    for task_id in ids:
        record = run_episode(env, agent, task_id=task_id)
        assert record["terminated"] and not record["truncated"], record
        assert record["reward"] == 1.0, record
        assert record["metrics"]["success"] is True
        assert record["error"] is None


def test_train_split_is_unlimited_and_reproducible(env_id: str) -> None:
    env = gym.make(env_id, split="train")
    assert env.unwrapped.task_ids == ()
    ids = [env.reset(seed=s)[1]["task_id"] for s in range(5)]
    assert len(set(ids)) == 5
    obs, info = env.reset(options={"task_id": ids[2]})
    assert info["task_id"] == ids[2]
    agent = OracleAgent(env)
    assert run_episode(env, agent, task_id=ids[2])["reward"] == 1.0


def test_state_round_trip(env_id: str) -> None:
    env = gym.make(env_id, action_mode="call")
    env.reset(seed=3)
    actions = env.unwrapped.oracle_actions()
    env.step(actions[0])
    state = env.unwrapped.get_state()
    rest = [env.step(a)[:4] for a in actions[1:]]
    env.unwrapped.set_state(state)
    again = [env.step(a)[:4] for a in actions[1:]]
    assert rest == again
    assert rest[-1][1] == 1.0 and rest[-1][2] is True
    # restoring into a fresh env of the same id continues the episode there
    other = gym.make(env_id, action_mode="call")
    other.reset(seed=99)
    other.unwrapped.set_state(state)
    assert [other.step(a)[:4] for a in actions[1:]] == rest


def test_pickle_round_trip(env_id: str) -> None:
    env = gym.make(env_id, action_mode="call")
    env.reset(seed=5)
    first = env.unwrapped.oracle_actions()[0]
    env.step(first)
    clone = pickle.loads(pickle.dumps(env))
    rest = env.unwrapped.oracle_actions()[1:]
    assert [env.step(a)[:4] for a in rest] == [clone.step(a)[:4] for a in rest]
    fresh = pickle.loads(pickle.dumps(gym.make(env_id)))
    obs, info = fresh.reset(seed=1)
    assert obs == info["instruction"]


def test_reset_info_and_errors(env_id: str) -> None:
    env = gym.make(env_id)
    obs, info = env.reset(seed=0)
    assert set(info) >= {"task_id", "instruction", "api_docs", "tools", "action_mode"}
    assert info["tools"] and all(t["type"] == "function" for t in info["tools"])
    assert ("API.search()" in info["api_docs"]) or ("curl -X" in info["api_docs"])
    with pytest.raises(KeyError, match="no task 'nope'"):
        env.reset(options={"task_id": "nope"})
    assert info["action_language"] in ("api_program", "curl")
    with pytest.raises(ValueError, match="action_mode must be one of"):
        gym.make(env_id, action_mode="chat")
    with pytest.raises(ValueError, match="split must be one of"):
        gym.make(env_id, split="validation")


def test_inline_task(env_id: str) -> None:
    env = gym.make(env_id)
    _, info = env.reset(seed=0)
    program = env.unwrapped.oracle_actions()[0]
    obs, info = env.reset(options={"task": {"prompt": "  my goal ", "completion": [program]}})
    assert obs == "my goal" and info["task_id"] == "inline"
    assert env.step(program)[1] == 1.0


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
    for task_id in env.unwrapped.task_ids:
        env.reset(options={"task_id": task_id})
        program = env.unwrapped.oracle_actions()[0]
        lines = program.splitlines()
        try:
            _optional_line(lines), _number_line(lines)
        except AssertionError:
            continue
        swapped_ok = "select_booking_type" in lines[0] or "set_location" in lines[0]
        if swapped_ok and "API." in lines[1]:
            return task_id
    raise AssertionError("no suitable task")


def program_env(env_id: str, **kwargs) -> gym.Env:
    if not isinstance(gym.make(env_id).unwrapped, ProgramEnv):
        pytest.skip(f"{env_id} is not an API-program env (its own tests cover its action language)")
    return gym.make(env_id, **kwargs)


def test_perturbed_gold_programs_get_the_right_category(env_id: str) -> None:
    env = program_env(env_id)
    task_id = _task_with_optional_setter(env)
    env.reset(options={"task_id": task_id})
    gold = env.unwrapped.oracle_actions()[0]
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


def test_lenient_extraction_accepts_prose_and_fences(env_id: str) -> None:
    env = program_env(env_id, extraction="lenient")
    env.reset(seed=0)
    gold = env.unwrapped.oracle_actions()[0]
    obs, reward, *_ = env.step(f"Sure! Here it is:\n```python\n{gold}\n```\nAnything else?")
    assert reward == 1.0, obs


def test_call_mode_errors_leave_state_unchanged(env_id: str) -> None:
    env = gym.make(env_id, action_mode="call")
    env.reset(seed=0)
    actions = env.unwrapped.oracle_actions()
    env.step(actions[0])
    before = env.unwrapped.get_state()["episode"]
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
    assert env.unwrapped.get_state()["episode"] == before
    results = [env.step(a) for a in actions[1:]]
    assert results[-1][1] == 1.0 and results[-1][2]


def test_call_mode_truncates_at_the_registered_budget(env_id: str) -> None:
    env = gym.make(env_id, action_mode="call")
    env.reset(seed=0)
    limit = env.spec.max_episode_steps
    steps = 0
    truncated = terminated = False
    while not (truncated or terminated):
        _, _, terminated, truncated, _ = env.step("API.nope()")
        steps += 1
    assert truncated and not terminated and steps == limit


def test_render_ansi(env_id: str) -> None:
    env = gym.make(env_id, render_mode="ansi")
    env.reset(seed=0)
    assert "Task " in env.render()
    plain = gym.make(env_id)
    plain.reset(seed=0)
    assert plain.render() is None
