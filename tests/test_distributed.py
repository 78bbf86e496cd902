"""Episodes played on a local Ray instance: the same records as a local run, each recorded once."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

ray = pytest.importorskip("ray", reason="distributed evaluation needs Ray (toolgym[ray])")

from toolgym.agents import OracleAgent  # noqa: E402
from toolgym.agents.backends.base import LLMBackend  # noqa: E402
from toolgym.agents.backends.scripted import ScriptedBackend  # noqa: E402
from toolgym.agents.llm_agent import LLMAgent  # noqa: E402
from toolgym.envs.protocol import task_env  # noqa: E402
from toolgym.errors import DependencyNotInstalled, InfrastructureError  # noqa: E402
from toolgym.evaluation.distributed import (  # noqa: E402
    AgentRecipe,
    connect_ray,
    play_on_ray,
    ray_status,
    ray_status_line,
    release_models,
    require_ray,
)
from toolgym.evaluation.records import EpisodeRecord  # noqa: E402
from toolgym.evaluation.runner import evaluate  # noqa: E402

# The workers cannot import this file (it is not in a package): its functions travel by value.
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])

HOME = "toolbench/HomeSearch-v0"
WEATHER = "toolbench/OpenWeather-v1"
TASKS = 6
CALLER_FIELDS = ("env_id", "agent", "split", "strategy", "time_s")
"""Fields the caller sets (the first four) or that measure time."""


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[str]:
    """One local Ray instance with 2 CPUs for the module; what starting it printed on stdout."""
    with tempfile.TemporaryFile("w+") as sink:
        saved = os.dup(1)
        sys.stdout.flush()
        os.dup2(sink.fileno(), 1)
        try:
            with contextlib.redirect_stdout(sink):
                connect_ray(num_cpus=2)
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        sink.seek(0)
        printed = sink.read()
    yield printed
    ray.shutdown()


def comparable(record: EpisodeRecord) -> dict[str, Any]:
    """A record's JSON form without what the caller sets and without timings."""
    data = {k: v for k, v in record.to_dict().items() if k not in CALLER_FIELDS}
    data["turns"] = [
        {k: v for k, v in turn.items() if not k.endswith("_s")} for turn in data["turns"]
    ]
    return data


def local_records(env_id: str, agent: Any, **kwargs: Any) -> list[dict[str, Any]]:
    """The records of a local run of the first :data:`TASKS` test tasks."""
    result = evaluate(env_id, agent, limit=TASKS, progress=False, **kwargs)
    return [comparable(r) for r in result.records]


def play(env_id: str, agent: Any, **kwargs: Any) -> tuple[list[dict[str, Any]], list[int]]:
    """The records of the first :data:`TASKS` test tasks played on Ray, and the recording order.

    The records are in task order; the indexes in the order ``on_record`` received them.
    """
    ids = task_env(gym.make(env_id)).task_ids[:TASKS]
    seen: list[int] = []
    records: dict[int, EpisodeRecord] = {}

    def keep(index: int, record: EpisodeRecord) -> None:
        seen.append(index)
        records[index] = record

    todo = [(i, task_id, i) for i, task_id in enumerate(ids)]
    play_on_ray(env_id, agent, todo, env_kwargs={"split": "test"}, on_record=keep, **kwargs)
    return [comparable(records[i]) for i in sorted(records)], seen


@pytest.mark.parametrize(
    ("env_id", "agent", "faults"),
    [(HOME, "oracle", None), (WEATHER, "random", 0.3)],
)
def test_records_equal_the_local_run(
    ray_instance: str, env_id: str, agent: str, faults: float | None
) -> None:
    records, seen = play(env_id, agent, faults=faults)
    assert sorted(seen) == list(range(TASKS))
    assert records == local_records(env_id, agent, faults=faults)
    if faults:
        assert any(turn.get("faults") for record in records for turn in record["turns"])


def test_ray_starts_quietly_and_reports_its_resources(ray_instance: str) -> None:
    assert ray_instance == ""
    status = ray_status()
    assert (status["nodes"], status["cpus"]) == (1, 2)
    assert ray_status_line(status).endswith(": 1 node, 2 CPUs, 0 GPUs")


class CrashingOracle(OracleAgent):
    """The oracle, except that its process dies the first time it meets ``task``."""

    def __init__(self, env: gym.Env[Any, Any], marker: str, task: Any) -> None:
        super().__init__(env)
        self.marker, self.task = Path(marker), task

    def reset(self, observation: str, info: dict[str, Any]) -> None:
        """Die (once: the marker file says it happened) on ``task``."""
        if info["task_id"] == self.task and not self.marker.exists():
            self.marker.touch()
            os._exit(1)
        super().reset(observation, info)


def test_a_dead_worker_is_replaced_and_every_episode_is_recorded_once(
    ray_instance: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "crashed"
    victim = task_env(gym.make(HOME)).task_ids[3]
    factory = functools.partial(CrashingOracle, marker=str(marker), task=victim)
    records, seen = play(HOME, factory)
    assert marker.exists()  # the worker did die
    assert sorted(seen) == list(range(TASKS))  # every episode once, none twice
    assert records == local_records(HOME, "oracle")
    out = ""
    for _ in range(20):  # Ray reports the death asynchronously: on stderr, never stdout
        captured = capfd.readouterr()
        out += captured.out
        if "died" in captured.err:
            break
        time.sleep(0.1)
    assert "died" not in out


def test_an_episode_whose_worker_always_dies_stops_the_run(
    ray_instance: str, tmp_path: Path
) -> None:
    class AlwaysCrashing(CrashingOracle):
        def reset(self, observation: str, info: dict[str, Any]) -> None:
            if info["task_id"] == self.task:
                os._exit(1)
            super().reset(observation, info)

    victim = task_env(gym.make(HOME)).task_ids[0]
    factory = functools.partial(AlwaysCrashing, marker=str(tmp_path / "m"), task=victim)
    with pytest.raises(
        InfrastructureError, match="died 1 time; an episode is sent again at most 0 times"
    ):
        play(HOME, factory, workers=1, max_retries=0)


def gold_backend(env_id: str, loads: str) -> LLMBackend:
    """A scripted backend answering with the gold of the task in the prompt; it notes each load."""
    with Path(loads).open("a") as handle:
        handle.write(f"{os.getpid()}\n")
    env: Any = gym.make(env_id).unwrapped
    golds = {}
    for task_id in env.task_ids:
        task = env.get_task(task_id)
        golds[task.instruction] = task.gold[0]

    def reply(prompt: Any) -> str:
        text = prompt[-1]["content"] if isinstance(prompt, list) else prompt
        query = text.rsplit("Task: ", 1)[1].split("\n")[0]
        return golds.get(query, "nothing") + "\n-------------\nTask: more"

    return ScriptedBackend(reply)


def llm_agent(env: gym.Env[Any, Any], backend: LLMBackend) -> LLMAgent:
    """The LLM agent with its defaults."""
    return LLMAgent.for_env(env, backend)


def test_llm_agents_share_one_model_actor_per_node(ray_instance: str, tmp_path: Path) -> None:
    loads = tmp_path / "loads.txt"
    recipe = AgentRecipe(functools.partial(gold_backend, HOME, str(loads)), llm_agent)
    records, seen = play(HOME, recipe, batch_size=2)
    assert sorted(seen) == list(range(TASKS))
    backend = gold_backend(HOME, str(tmp_path / "local.txt"))
    expected = local_records(HOME, lambda env: llm_agent(env, backend), batch_size=2)
    assert records == expected
    assert all(r["metrics"]["success"] == 1.0 for r in records)
    assert len(loads.read_text().split()) == 1  # one model for the node's two workers
    again, _ = play(HOME, recipe, batch_size=2)  # the next env of a run: the model stays loaded
    assert again == records and len(loads.read_text().split()) == 1
    release_models()
    play(HOME, recipe, batch_size=2)
    assert len(loads.read_text().split()) == 2  # released: loaded again
    release_models()


class BrokenBackend(LLMBackend):
    """A model server that is down."""

    name = "broken"

    def generate(self, prompts: Any, **kwargs: Any) -> list[Any]:
        raise InfrastructureError("the model server is down")


@pytest.mark.parametrize("shared", [True, False])
def test_a_failing_model_stops_the_run_and_records_nothing(ray_instance: str, shared: bool) -> None:
    # shared: the model actor's error reaches the driver through the worker; not shared: each
    # worker builds its own backend (a client of a served model), which fails in the worker
    recipe = AgentRecipe(BrokenBackend, llm_agent, shared=shared)
    with pytest.raises(InfrastructureError, match="the model server is down"):
        play(HOME, recipe, workers=1)


def test_a_worker_error_is_raised_as_it_was_raised(ray_instance: str) -> None:
    with pytest.raises(ValueError, match="agent must be one of"):
        play(HOME, "nobody", workers=1)


def test_without_ray_the_pip_command_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(DependencyNotInstalled, match=r'pip install "toolgym\[ray\]"'):
        require_ray()
