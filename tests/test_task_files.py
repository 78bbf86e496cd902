"""The loader for the original task files, on the shared samples (skipped when absent)."""

import json
from pathlib import Path

import gymnasium as gym
import pytest
from conftest import samples_dir

from toolgym.agents import OracleAgent
from toolgym.benchmarks.tasks import load_task_file
from toolgym.errors import TaskFileError
from toolgym.evaluation.runner import run_episode

FILES = {
    "toolbench/HomeSearch-v0": "sambanova/home_search/v0/test.jsonl",
    "toolbench/TripBooking-v0": "sambanova/booking/v0/test.jsonl",
    "toolbench/OpenWeather-v0": "sambanova/open_weather/v0/test.jsonl",
    "toolbench/CatAPI-v0": "sambanova/the_cat_api/v0/test.jsonl",
}


@pytest.mark.parametrize(("env_id", "relative"), FILES.items())
def test_original_files_evaluate_with_the_oracle(env_id: str, relative: str) -> None:
    path = samples_dir() / relative
    env = gym.make(env_id, task_file=path)
    lines = path.read_text().splitlines()
    assert env.unwrapped.task_ids == tuple(range(len(lines)))
    obs, info = env.reset(options={"task_id": 3})
    assert obs == json.loads(lines[3])["prompt"].strip() and info["task_id"] == 3
    agent = OracleAgent(env)
    for task_id in env.unwrapped.task_ids:
        record = run_episode(env, agent, task_id=task_id)
        assert record.reward == 1.0, record
    with pytest.raises(KeyError, match="no task 99"):
        env.reset(options={"task_id": 99})


def test_home_sample_label_dict() -> None:
    path = samples_dir() / FILES["toolbench/HomeSearch-v0"]
    env = gym.make("toolbench/HomeSearch-v0", task_file=path)
    env.reset(options={"task_id": 0})
    _, reward, _, _, info = env.step(env.unwrapped.oracle_actions()[0])
    assert info["prediction"] == {
        "location": "Washington",
        "buy_or_rent": "rent",
        "floor_number": 1,
        "num_balconies": 4,
        "min_price": 0,
        "min_square_feet": 0,
    }


def test_loader_errors(tmp_path: Path) -> None:
    with pytest.raises(TaskFileError, match="cannot read"):
        load_task_file(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"prompt": "x", "completion": ["API.search()"]}\nnot json\n')
    with pytest.raises(TaskFileError, match=r"bad.jsonl:2: not valid JSON"):
        load_task_file(bad)
    bad.write_text('{"prompt": "x"}\n')
    with pytest.raises(TaskFileError, match="completion"):
        load_task_file(bad)
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"prompt": "x", "completion": ["API.set_num_beds(2)"]}\n')
    with pytest.raises(TaskFileError, match="gold of task 0 does not execute"):
        gym.make("toolbench/HomeSearch-v0", task_file=broken)
