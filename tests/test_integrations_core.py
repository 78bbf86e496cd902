"""The core every protocol adapter serves: ``ToolEpisode`` and ``SessionPool``."""

from __future__ import annotations

import dataclasses
import json
import keyword
import math
import random

import gymnasium as gym
import pytest

from toolgym.errors import UserInputError
from toolgym.integrations import (
    SessionError,
    SessionLimitError,
    SessionPool,
    ToolEpisode,
    UnknownSessionError,
)
from toolgym.integrations.episode import (
    EPISODE_ENDED,
    CallResult,
    _dumps_plain,
    _plain_arguments,
)
from toolgym.tools.errors import CATEGORIES
from toolgym.tools.json_calls import JsonCallText

HOME = "toolbench/HomeSearch-v0"


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_episode_scores_as_the_env_steps() -> None:
    episode = ToolEpisode(HOME)
    env = gym.make(HOME, action_mode="call")
    start = episode.reset(seed=3, task_id="test-004")
    _, info = env.reset(seed=3, options={"task_id": "test-004"})
    assert start.tools == info["tools"]
    calls = episode.oracle_calls()
    assert calls
    for call in calls:
        result = episode.call(call["name"], call["arguments"])
        obs, reward, terminated, _, step_info = env.step(env.unwrapped.native_action([call]))
        assert (result.observation, result.reward, result.done) == (obs, reward, terminated)
    assert result.metrics == step_info["metrics"]
    assert episode.state()["done"] and episode.reward == 1.0


def _variants(call: dict) -> list[dict]:
    """The call, then wrong ones: an unknown argument, no arguments, another type's value."""
    name, arguments = call["name"], dict(call["arguments"])
    out = [call, {"name": name, "arguments": {**arguments, "bogus": 1}}, {"name": name}]
    for key, value in list(arguments.items())[:1]:
        other = "not a value" if not isinstance(value, str) else [value]
        out.append({"name": name, "arguments": {**arguments, key: other}})
        out.append({"name": name, "arguments": {key: 1e20}})  # past the number budget
        out.append({"name": name, "arguments": {"\uff56" + key[1:]: value}})  # NFKC: the key
        out.append({"name": name, "arguments": {**arguments, "class": 1}})  # a keyword
        out.append({"name": f"API.{name}", "arguments": arguments})  # the qualified name
    return out


@pytest.mark.parametrize("env_id", ["toolbench/HomeSearch-v0", "toolbench/TodoList-v0"])
def test_a_json_call_plays_as_the_call_written_in_the_language(env_id: str) -> None:
    """Where the language reads JSON calls, ToolEpisode steps with the JSON: same answers."""
    episode = ToolEpisode(env_id)
    env = gym.make(env_id, action_mode="call")
    assert env.unwrapped.language.reads_json_calls
    for task in ("test-001", "test-005", "test-009"):
        episode.reset(seed=1, task_id=task)
        env.reset(seed=1, options={"task_id": task})
        calls = episode.oracle_calls()
        assert calls
        spare = (env.spec.max_episode_steps or 100) - len(calls)  # wrong calls within the limit
        for gold in calls:
            wrong = _variants(gold)[1:] if len(_variants(gold)) <= spare + 1 else []
            wrong = [] if gold is calls[-1] else wrong  # the last one ends the episode
            spare -= len(wrong)
            for call in [*wrong, gold]:
                result = episode.call(call["name"], call.get("arguments"))
                action = env.unwrapped.native_action([call])
                obs, reward, terminated, truncated, info = env.step(action)
                assert (result.reward, result.done) == (reward, terminated or truncated)
                if info["error"] is None:
                    assert result.error is None and result.observation == obs
                else:  # the rendered program's message names its line; the JSON's has none
                    assert result.error is not None, action
                    assert result.error["category"] == info["error"]["category"]
                    line = " (line 1)"
                    assert result.observation.replace(line, "") == obs.replace(line, "")
        assert result.done  # (a wrong call may have changed the search: both alike)


@pytest.mark.parametrize(
    "value",
    [
        {"name": "search", "arguments": {}},
        {"name": "set", "arguments": {"value": 'Tulsa \u00e9\u2028"q"\\', "n": -3, "x": 2.5}},
        {"name": "f", "arguments": {"a": [1, 1e-7, True, None, {"b": "\x00"}], "c": 123456789.125}},
        {"name": "f", "arguments": {"empty": [], "nested": {"k": {"j": [0.1, -0.0]}}}},
    ],
)
def test_a_call_is_written_as_json_dumps_writes_it(value: dict) -> None:
    assert _plain_arguments(value["arguments"])
    assert _dumps_plain(value) == json.dumps(value)


def _reference_plain(arguments: dict) -> bool:
    """What a plain call is, walked in full: identifier keys, values of JSON's own types."""

    def plain(value: object, depth: int) -> bool:
        if value is None or isinstance(value, bool | str):
            return True
        if isinstance(value, int):
            return abs(value) < 1e15  # (an int past a float's range compares all the same)
        if isinstance(value, float):
            return math.isfinite(value) and abs(value) < 1e15
        if depth >= 3:
            return False
        if isinstance(value, list):
            return len(value) <= 100 and all(plain(v, depth + 1) for v in value)
        if isinstance(value, dict):
            return len(value) <= 100 and all(
                isinstance(k, str) and plain(v, depth + 1) for k, v in value.items()
            )
        return False

    return all(
        isinstance(k, str) and k.isascii() and k.isidentifier() and not keyword.iskeyword(k)
        for k in arguments
    ) and all(plain(v, 0) for v in arguments.values())


def _shape(value: object) -> object:
    """The value with each item's exact type beside it (``==`` says 1 == 1.0 == True)."""
    if isinstance(value, dict):
        return type(value), [(type(k), k, _shape(v)) for k, v in value.items()]
    if isinstance(value, list):
        return type(value), [_shape(v) for v in value]
    return type(value), repr(value)


class _Text(str):
    pass


def _random_value(rng: random.Random, depth: int = 0) -> object:
    pick = rng.randrange(16 if depth < 3 else 12)
    if pick < 2:
        return rng.choice([None, True, False, _Text("sub")])
    if pick < 6:
        return rng.choice(
            [rng.randint(-(10**16), 10**16), rng.randint(-9, 9), 10**15 - 1, 10**15, -(10**400)]
        )
    if pick < 9:
        return rng.choice(
            [
                rng.uniform(-1e16, 1e16),
                rng.random(),
                -0.0,
                1e15,
                999999999999999.9,
                math.inf,
                math.nan,
                1e-300,
                float(rng.randint(-99, 99)),
            ]
        )
    if pick < 12:  # ASCII, any code point, and surrogates: a pair, or one alone
        pieces = ["\ud83d\ude00", "\udc00", "\ud800", "\U0001f600"]
        return "".join(
            rng.choice([chr(rng.randrange(32, 127)), chr(rng.randrange(0x110000)), *pieces])
            for _ in range(rng.randrange(6))
        )
    if pick < 14:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["a", "b", "é", "1"]): _random_value(rng, depth + 1) for _ in range(3)}


def test_plain_arguments_agree_with_the_full_walk_and_a_flat_call_carries_its_value() -> None:
    """The in-line check agrees with the full walk on 20,000 random argument sets.

    A flat call's text carries the value ``json.loads`` reads from it: the same types, and no
    list or dict shared with the client's arguments.
    """
    episode = ToolEpisode(HOME)
    episode.reset(seed=0, task_id="test-000")
    keys = ["value", "q", "class", "n2", "\uff56alue", "2x", "_", "a b", 3, None]
    rng = random.Random(7)
    carried = 0
    for _ in range(20_000):
        arguments = {rng.choice(keys): _random_value(rng) for _ in range(rng.randrange(4))}
        plain = _plain_arguments(arguments)
        assert (plain is not None) == _reference_plain(arguments), arguments
        text = episode._json_action("set_num_beds", arguments)
        assert (text is not None) == (plain is not None)
        if text is None:
            continue
        assert text == json.dumps({"name": "set_num_beds", "arguments": arguments})
        if isinstance(text, JsonCallText):
            carried += 1
            assert plain == "flat"
            value = text.take()
            assert _shape(value) == _shape(json.loads(text))
            assert value["arguments"] is not arguments
        else:
            assert type(text) is str and plain == "nested"
    assert carried > 2_000


def test_client_input_never_raises() -> None:
    episode = ToolEpisode(HOME)
    episode.reset(seed=0, task_id="test-000")
    for name, arguments in [
        ("no_such_tool", {}),
        ("set_num_beds", "{not json"),
        ("set_num_beds", ["a", "list"]),
        ("set_num_beds", {"value": "x" * 200_000}),
        (None, None),
        (12, {"value": 1}),
        ("set_num_beds", {"value": 10**400}),  # past a float's range: no float to check
        ("set_num_beds", {"value": [10**400]}),
        ("set_num_beds", {"value": {"a": -(10**400)}}),
    ]:
        result = episode.call(name, arguments)
        assert result.error is not None and result.error["category"] in CATEGORIES
        assert not result.done
    result = episode.call("search", {})
    assert result.done
    after = episode.call("search", {})
    assert after.error is not None and after.error["category"] == EPISODE_ENDED
    assert after.metrics == result.metrics


def test_programmer_misuse_raises_with_what_was_expected() -> None:
    with pytest.raises(UserInputError, match="registered env id"):
        ToolEpisode(None)
    with pytest.raises(UserInputError, match="action_mode='call'"):
        ToolEpisode(HOME, action_mode="program")
    episode = ToolEpisode(HOME)
    with pytest.raises(gym.error.ResetNeeded):
        episode.call("search", {})
    for seed in (-1, 1.5, True, "3"):
        with pytest.raises(UserInputError, match="seed"):
            episode.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(UserInputError, match="task id"):
        episode.reset(task_id=["test-000"])
    with pytest.raises(UserInputError, match="cannot start task"):
        episode.reset(task_id="no-such-task")
    with pytest.raises(UserInputError, match="at most"):
        episode.reset(task_id="x" * 1000)


def test_sessions_are_isolated_bounded_and_reclaimed() -> None:
    clock = Clock()
    pool = SessionPool(HOME, max_sessions=2, idle_timeout_s=10, spare_envs=1, clock=clock)
    a, first = pool.open()
    b, second = pool.open()
    assert a != b and first is not second
    first.reset(seed=0, task_id="test-000")
    second.reset(seed=0, task_id="test-001")
    assert pool.run(a, lambda e: e.state()["task_id"]) == "test-000"
    assert pool.run(b, lambda e: e.state()["task_id"]) == "test-001"
    with pytest.raises(SessionLimitError, match="max_sessions"):
        pool.open()
    clock.now = 5
    pool.get(a)  # used: a stays
    clock.now = 12
    c, _ = pool.open()  # b idled past the timeout and was reclaimed for it
    assert b not in pool and a in pool and c in pool
    assert pool.stats()["reclaimed"] == 1
    with pytest.raises(UnknownSessionError, match="reclaimed after idling"):
        pool.get(b)
    with pytest.raises(SessionError, match="session id"):
        pool.open("\x00bad")
    with pytest.raises(SessionError, match="open already"):
        pool.open(a)
    assert pool.close(a) and not pool.close(a)
    pool.close_all()
    assert len(pool) == 0


def test_a_reused_env_forgets_the_last_session() -> None:
    pool = SessionPool(HOME, spare_envs=4)
    sid, episode = pool.open()
    episode.reset(seed=0, task_id="test-000")
    pool.close(sid)
    for _ in range(50):
        sid, again = pool.open()
        with pytest.raises(gym.error.ResetNeeded):
            again.call("search", {})
        pool.close(sid)
    assert pool.stats()["envs_made"] <= 2
    assert again.state()["task_id"] is None


@pytest.mark.parametrize(
    "bad",
    [{"max_sessions": 0}, {"idle_timeout_s": 0}, {"spare_envs": -1}, {"max_sessions": True}],
)
def test_pool_limits_are_checked(bad: dict) -> None:
    with pytest.raises(UserInputError):
        SessionPool(HOME, **bad)


@pytest.mark.parametrize(
    ("row", "field", "got"),
    [
        ({"task_id": "test-000", "seed": "abc"}, "seed", "'abc' (str)"),
        ({"task_id": "test-000", "seed": [1]}, "seed", "[1] (list)"),
        ({"task_id": "test-000", "seed": 2.7}, "seed", "2.7 (float)"),
        ({"task_id": "test-000", "seed": -1}, "seed", "-1 (int)"),
        ({"task_id": "test-000", "seed": True}, "seed", "True (bool)"),
        ({"task_id": 5}, "task_id", "5 (int)"),
        ({"task_id": "no-such-task"}, "task_id", "'no-such-task' (str)"),
    ],
)
def test_a_bad_dataset_row_names_its_field(row: dict, field: str, got: str) -> None:
    from toolgym.errors import RowError
    from toolgym.integrations.trl import environment_class

    env = environment_class(HOME)()
    with pytest.raises(RowError) as caught:
        env.reset(**row)
    error = caught.value
    assert error.field == field and f"'{field}' must be" in str(error) and got in str(error)
    assert str(error).startswith("row ")
    assert isinstance(error, UserInputError) and isinstance(error, ValueError)
    import pickle

    assert str(pickle.loads(pickle.dumps(error))) == str(error)  # crosses process pools


def test_a_good_row_with_a_whole_float_seed_starts_and_a_tool_before_reset_says_so() -> None:
    from toolgym.integrations.trl import environment_class

    cls = environment_class(HOME)
    with pytest.raises(gym.error.ResetNeeded, match=r"reset\(\*\*row\)"):
        cls().search()  # type: ignore[attr-defined]
    env = cls()
    assert env.reset(task_id="test-000", seed=2.0) == env.reset(task_id="test-000", seed=2)


def test_an_openenv_reset_with_a_bad_seed_names_the_field() -> None:
    from toolgym.errors import RowError
    from toolgym.integrations.openenv_session import EpisodeSession
    from toolgym.integrations.sessions import SessionPool

    pool = SessionPool(HOME, max_sessions=2)
    try:
        session = EpisodeSession(pool)
        with pytest.raises(RowError, match=r"'seed' must be a whole number"):
            session.reset(seed=2.7)
        start, _ = session.reset(seed=3.0, task_id="test-000")
        assert start.task_id == "test-000"
    finally:
        pool.close_all()


def test_spare_envs_past_the_floor_are_closed_once_a_burst_ends() -> None:
    from toolgym.integrations.sessions import SPARE_FLOOR, release_memory

    clock = Clock()
    pool = SessionPool(HOME, max_sessions=20, idle_timeout_s=10, spare_envs=16, clock=clock)
    burst = [pool.open()[0] for _ in range(12)]
    for sid in burst:
        pool.close(sid)
    assert pool.stats()["spare_envs"] == 12  # kept for the next burst
    clock.now = 5
    pool.reap()
    assert pool.stats()["spare_envs"] == 12 and pool.spares_closed == 0  # not idle long enough
    clock.now = 11
    pool.reap()
    assert pool.stats()["spare_envs"] == SPARE_FLOOR and pool.spares_closed == 12 - SPARE_FLOOR
    sid, episode = pool.open()  # what is left is still served
    assert episode.reset(seed=0, task_id="test-000").task_id == "test-000"
    pool.close_all()
    release_memory()  # safe to call anywhere, on any C library


def test_a_full_collection_runs_once_a_burst_of_sessions_is_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import toolgym.integrations.sessions as sessions

    collected: list[int] = []
    monkeypatch.setattr(sessions.gc, "collect", lambda *a: collected.append(1) or 0)
    monkeypatch.setattr(sessions, "BURST_SESSIONS", 6)
    clock = Clock()
    pool = SessionPool(HOME, max_sessions=20, idle_timeout_s=10, spare_envs=2, clock=clock)
    memory = sessions.MemoryReturn(pool)
    try:
        burst = [pool.open()[0] for _ in range(8)]
        memory.tick(0)
        for sid in burst[:5]:
            pool.close(sid)
        clock.now = 9
        memory.tick(0)
        assert collected == []  # sessions were opened less than the idle timeout ago
        clock.now = 11
        memory.tick(5)
        assert collected == []  # this tick ended sessions: only a trim
        memory.tick(0)
        assert collected == []  # 3 of 8 still open: more than a quarter
        pool.close(burst[5])
        pool.close(burst[6])
        memory.tick(0)
        assert collected == [1] and memory.collections == 1  # over: 1 of 8 open
        clock.now = 30
        memory.tick(0)
        assert collected == [1]  # once per burst
        few = [pool.open()[0] for _ in range(3)]
        for sid in few:
            pool.close(sid)
        memory.tick(0)
        clock.now = 50
        memory.tick(0)
        assert collected == [1]  # 3 sessions are no burst
        for _ in range(3):  # sessions that keep coming: no pause for them
            clock.now += 5
            for sid in [pool.open()[0] for _ in range(4)]:
                pool.close(sid)
            memory.tick(0)
        assert collected == [1]
        clock.now += 10  # they stopped
        memory.tick(0)
        assert collected == [1, 1]
    finally:
        pool.close_all()


def test_the_allocator_is_chosen_only_for_the_command_line_and_restored_for_children(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os
    import sys

    from toolgym.cli import allocator

    execs: list[tuple[str, list[str], dict[str, str]]] = []
    monkeypatch.setattr(allocator.os, "execve", lambda *a: execs.append(a))
    monkeypatch.delenv("PYTHONMALLOC", raising=False)
    monkeypatch.delenv(allocator._MARK, raising=False)
    argv = ["mcp", HOME, "--transport", "http"]
    monkeypatch.setattr(sys, "argv", ["toolgym", *argv])
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, "/bin/toolgym", *argv])
    allocator.use_allocator("python", argv)
    allocator.use_allocator("system", ["serve-env", HOME])  # main() called by a program
    assert execs == []
    allocator.use_allocator("system", argv)
    ((exe, args, env),) = execs
    assert args == [sys.executable, "/bin/toolgym", *argv]
    assert env["PYTHONMALLOC"] == "malloc" and env[allocator._MARK] == ""
    monkeypatch.setenv(allocator._MARK, "")  # the process started again
    monkeypatch.setenv("PYTHONMALLOC", "malloc")
    allocator.use_allocator("system", argv)
    assert len(execs) == 1 and "PYTHONMALLOC" not in os.environ  # its children: the default
    assert allocator._MARK not in os.environ
    monkeypatch.setenv("PYTHONMALLOC", "debug")  # the user's own choice wins
    allocator.use_allocator("system", argv)
    assert len(execs) == 1
    with pytest.raises(ValueError, match="allocator is one of system, python; got 'jemalloc'"):
        allocator.use_allocator("jemalloc", argv)


def test_every_env_of_a_family_shares_its_tool_schemas_and_docs() -> None:
    from toolgym.integrations.episode import ToolEpisode

    one, two = ToolEpisode(HOME), ToolEpisode(HOME)
    try:
        first, second = one.env.unwrapped.tools, two.env.unwrapped.tools  # type: ignore[attr-defined]
        assert first.openai_schemas[0] is second.openai_schemas[0]
        assert first.api_docs is second.api_docs
        assert first.openai_schemas[0] == first[0].openai_schema()  # the same schema as made anew
        handed = one.reset(task_id="test-000").tools
        handed[0]["function"]["name"] = "changed"  # a client's copy: the shared one is untouched
        assert first.openai_schemas[0]["function"]["name"] != "changed"
        assert one.env_id == HOME
    finally:
        one.close()
        two.close()


def test_a_call_result_is_frozen_and_reads_as_a_dataclass() -> None:
    result = CallResult("ok", 0.5, True, metrics={"success": True}, step=2)
    assert result == CallResult("ok", 0.5, True, False, None, {"success": True}, 2)
    assert result.to_dict() == {
        "observation": "ok",
        "reward": 0.5,
        "done": True,
        "truncated": False,
        "error": None,
        "metrics": {"success": True},
        "step": 2,
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.done = False  # type: ignore[misc]
    assert CallResult("x") == CallResult("x", 0.0, False, False, None, None, 0)


def test_a_call_results_dict_is_asdicts_and_owns_its_dicts() -> None:
    values = [None, "x", "\ud800", 1, 2**70, -0.0, math.inf, True, 1.5, {"a": 1}, [1], (2,)]
    rng = random.Random(7)
    for _ in range(2_000):
        error = rng.choice(
            [None, {"category": "c", "message": rng.choice(values)}, rng.choice(values)]
        )
        metrics = rng.choice([None, {"score": rng.choice(values), 3: "x"}, {"a": {"b": 1}}])
        result = CallResult(
            "obs", rng.choice([0.0, 1.0]), rng.random() < 0.5, False, error, metrics
        )
        as_dict = result.to_dict()
        assert repr(as_dict) == repr(dataclasses.asdict(result))
        for key in ("error", "metrics"):
            if isinstance(as_dict[key], dict):
                assert as_dict[key] is not getattr(result, key)  # a copy, as asdict's
