"""Service faults: each kind as a client sees it, seeds, validation, and the side-by-side report."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

from toolgym.cli import main
from toolgym.envs.protocol import task_env
from toolgym.evaluation.runner import evaluate
from toolgym.tools.faults import FAULT_KINDS, FaultPlan
from toolgym.wrappers import FaultInjection

OW = "toolbench/OpenWeather-v0"
CAT = "toolbench/CatAPI-v0"
HOME = "toolbench/HomeSearch-v0"


def first_step(env: gym.Env, task_index: int = 0) -> tuple[str, float, dict]:
    task_id = task_env(env).task_ids[task_index]
    env.reset(seed=0, options={"task_id": task_id})
    obs, reward, _, _, info = env.step(task_env(env).oracle_actions()[0])
    return obs, reward, info


def only(kind: str, env_id: str = OW, **kwargs) -> gym.Env:
    return FaultInjection(gym.make(env_id, **kwargs), rate=1.0, kinds=(kind,), seed=0)


def test_rate_limit_is_a_429_with_retry_after() -> None:
    env = only("rate_limit")
    obs, reward, info = first_step(env)
    assert obs.startswith("HTTP 429") and reward == 0.0
    assert info["error"]["category"] == "service_error"
    (fault,) = info["faults"]
    assert fault["status"] == 429 and 1 <= fault["retry_after"] <= 5
    exchange = task_env(env)._backend.exchanges[-1]
    assert exchange.response.headers["Retry-After"] == str(fault["retry_after"])
    assert json.loads(exchange.response.text)["retry_after"] == fault["retry_after"]


def test_server_errors_are_5xx() -> None:
    env = only("server_error")
    statuses = set()
    for i in range(12):
        obs, _, info = first_step(env, i)
        statuses.add(info["faults"][0]["status"])
        assert obs.startswith(f"HTTP {info['faults'][0]['status']}")
    assert statuses <= {500, 502, 503, 504} and len(statuses) > 1


def test_timeouts_never_reach_the_service() -> None:
    env = only("timeout", CAT)
    obs, _, info = first_step(env)
    assert "curl: (28) Operation timed out" in obs
    assert info["error"]["category"] == "service_error"
    assert task_env(env)._backend.exchanges[-1].response is None


@pytest.mark.parametrize("kind", ["truncated", "malformed"])
def test_broken_bodies_are_service_errors(kind: str) -> None:
    clean_obs, _, _ = first_step(gym.make(OW))
    obs, reward, info = first_step(only(kind))
    assert reward == 0.0 and info["error"]["category"] == "service_error"
    body = obs.split("\n", 1)[1]
    if kind == "truncated":
        assert clean_obs.split("\n", 1)[1].startswith(body.split("\nError")[0])
    else:
        assert "<html>" in body and "502 Bad Gateway" in body


def test_slow_answers_are_right_and_report_their_delay() -> None:
    env = FaultInjection(gym.make(OW), rate=1.0, kinds=("slow",), slow_s=(2.0, 3.0))
    _, reward, info = first_step(env)
    assert reward == 1.0 and 2.0 <= info["faults"][0]["delay_s"] <= 3.0


def test_slow_answers_can_really_take_their_time() -> None:
    import time

    env = FaultInjection(
        gym.make(OW), rate=1.0, kinds=("slow",), slow_s=(0.2, 0.2), real_delays=True
    )
    start = time.perf_counter()
    first_step(env)
    assert time.perf_counter() - start >= 0.2


def test_program_calls_fail_with_no_effect_and_say_so() -> None:
    env = only("rate_limit", HOME, action_mode="call")
    env.reset(options={"task_id": task_env(env).task_ids[0]})
    before = task_env(env).get_state()
    obs, _, _, _, info = env.step(task_env(env).oracle_actions()[0])
    assert "HTTP 429 Too Many Requests" in obs and "try it again" in obs
    assert task_env(env).get_state()["episode"]["backend"] == before["episode"]["backend"]


def test_an_episodes_faults_depend_on_the_seed_and_task_only() -> None:
    def faults(seed: int, order: list[int]) -> dict[int, list]:
        env = FaultInjection(gym.make(HOME, action_mode="call"), rate=0.5, seed=seed)
        out = {}
        for i in order:
            env.reset(options={"task_id": task_env(env).task_ids[i]})
            met = []
            for action in task_env(env).oracle_actions():
                *_, info = env.step(action)
                met.append(info["faults"])
            out[i] = met
        return out

    forward = faults(0, [0, 1, 2, 3])
    assert faults(0, [3, 1, 0, 2]) == forward
    assert faults(1, [0, 1, 2, 3]) != forward
    assert any(any(step) for steps in forward.values() for step in steps)


def test_rate_zero_changes_nothing() -> None:
    clean = evaluate(CAT, "random", limit=15, progress=False)
    wrapped = evaluate(CAT, "random", limit=15, progress=False, faults=0.0)
    assert [r.turns for r in wrapped.records] == [r.turns for r in clean.records]
    assert wrapped.summary["agent"] == "random@faults=0"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rate": 1.5}, "rate must be a probability"),
        ({"rate": float("nan")}, "rate must be a probability"),
        ({"rate": 0.1, "kinds": ("gremlins",)}, "kinds must be a non-empty subset"),
        ({"rate": 0.1, "kinds": ()}, "kinds must be a non-empty subset"),
        ({"rate": 0.1, "slow_s": (3.0, 1.0)}, "slow_s must be a range"),
    ],
)
def test_bad_plans_say_what_was_expected(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FaultPlan(**kwargs)


def test_the_wrapper_refuses_other_envs() -> None:
    with pytest.raises(TypeError, match="expected a toolgym environment"):
        FaultInjection(gym.make("CartPole-v1"))


def test_every_kind_is_documented() -> None:
    import toolgym.tools.faults as faults

    for kind in FAULT_KINDS:
        assert f"``{kind}``" in (faults.__doc__ or "")


def test_cli_reports_success_with_and_without_faults(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", "--agent", "oracle", "--env", OW, "--env", HOME, "--limit", "20"]
    argv += ["--faults", "0.3", "--no-progress", "--out", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    table = out.split("with and without service faults (rate 0.3, seed 0):")[1]
    header, _, *rows = table.strip().splitlines()[:4]
    assert "success w/ faults" in header and "faults met" in header
    for row in rows:
        cells = row.split()
        assert cells[3] == "100.0%"  # the oracle without faults
        assert float(cells[4].rstrip("%")) < 100.0  # ... and with them
    names = sorted(p.name for p in tmp_path.glob("*.jsonl"))
    assert len(names) == 4 and sum("faults=0.3" in n for n in names) == 2
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "--agent", "oracle", "--faults", "2"])
    assert exit_info.value.code == 2
    assert "--faults: expected a rate from 0 to 1, got '2'" in capsys.readouterr().err
