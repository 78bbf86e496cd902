"""The loader for the original task files, on the shared samples (skipped when absent)."""

import json
import warnings
from pathlib import Path

import gymnasium as gym
import pytest
from conftest import samples_dir

from toolgym.agents import OracleAgent
from toolgym.benchmarks.tasks import load_task_file
from toolgym.errors import TaskFileError, TaskFileWarning
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
    bad.write_text('{"prompt": "x"}\n')
    with pytest.raises(TaskFileError, match=r"has no tasks .line 1: .*completion"):
        load_task_file(bad)
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"prompt": "x", "completion": ["API.set_num_beds(2)"]}\n')
    with pytest.raises(
        TaskFileError, match=r"no task of .* can be played.*gold of task 0 does not"
    ):
        gym.make("toolbench/HomeSearch-v0", task_file=broken)


GOOD = '{"prompt": "Rent in Boston", "completion": ["API.set_location(\\"Boston\\")\\nAPI.set_buy_or_rent(\\"rent\\")\\nAPI.search()"]}'


def test_a_file_loads_whatever_its_lines(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    lines = [
        GOOD,
        "not json",
        '{"prompt": "x", "completion": ["API.set_num_beds(2)"]}',
        '{"prompt": "no completion"}',
        GOOD.replace("Boston", "Denver"),
    ]
    path.write_text("\n".join(lines) + "\n")
    with pytest.warns(TaskFileWarning) as caught:
        env = gym.make("toolbench/HomeSearch-v0", task_file=path)
    messages = [str(w.message) for w in caught]
    assert any("mixed.jsonl:2: skipped: not valid JSON" in m for m in messages)
    assert any("mixed.jsonl:3: task 2 kept and marked" in m for m in messages)
    u = env.unwrapped
    assert u.task_ids == (0, 2, 4)
    assert [(i.line, i.task_id) for i in u.file_issues] == [(2, None), (3, 2), (4, None)]
    # A marked task is played and scores 0, with the reason; the others score as usual.
    _, info = env.reset(options={"task_id": 2})
    assert info["task_issue"]["line"] == 3
    _, reward, terminated, _, info = env.step('API.set_location("Boston")\nAPI.search()')
    assert (reward, terminated, info["error"]["category"]) == (0.0, True, "invalid_task")
    env.reset(options={"task_id": 4})
    _, reward, *_ = env.step(u.oracle_actions()[0])
    assert reward == 1.0
    # Reported once per process: a second env of the same file does not warn again.
    with warnings.catch_warnings():
        warnings.simplefilter("error", TaskFileWarning)
        gym.make("toolbench/HomeSearch-v0", task_file=path).close()


STORED_V0 = {
    "cat_api-v0-demo.jsonl": "1af6eee00aa79364bc734656d13c81a3c1c55158f36f182619be05f134b3be5d",
    "cat_api-v0-test.jsonl": "a84e34c7d2635d33f88cbcbe39d9f232383035247d4a52cf15241c80055c16e6",
    "home_search-v0-demo.jsonl": "7be0fa666d3c84f27915274b1dfdcfa136748ad98b45416b51c06ff6e7dd52f0",
    "home_search-v0-test.jsonl": "7fd623ed8f81faffff4351ed8e91addf21ef594d182cce9f346c3f17c8684cb7",
    "openweather-v0-demo.jsonl": "0afa49274e21231f15bfe02a9bbf603d3cecc8e169147e11e35245eec18798d9",
    "openweather-v0-test.jsonl": "e67a281b2017e5010e60b00a389980e2a781b50d52dc0292f540632d668b52c6",
    "trip_booking-v0-demo.jsonl": "90dcd68c5d0ed04e0ee529fc8cf4e3c00d8e412268166dfd4811af4a2b10c767",
    "trip_booking-v0-test.jsonl": "3a74d2bd9714d1fd0673964c2e3a929613d4ccbb97c256f8e4a0a3189fcfdca6",
}
"""The v0 task sets are data: a change to them is a new env version, never an edit."""


@pytest.mark.parametrize("name", sorted(STORED_V0))
def test_v0_task_sets_are_pinned(name: str) -> None:
    import hashlib

    import toolgym

    family = name.split("-v")[0]
    path = Path(toolgym.__file__).parent / "families" / family / "data" / name
    assert hashlib.sha256(path.read_bytes()).hexdigest() == STORED_V0[name]


def test_every_family_generator_reproduces_its_stored_sets(capsys: pytest.CaptureFixture) -> None:
    from toolgym.cli import main

    assert main(["build-tasks", "--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_a_byte_order_mark_and_odd_line_breaks_inside_strings(tmp_path: Path) -> None:
    path = tmp_path / "odd.jsonl"
    second = GOOD.replace("Rent in Boston", "Rent\u2028in\u0085Denver").replace("Boston", "Denver")
    path.write_text("\ufeff" + GOOD + "\r\n" + second + "\r\n", encoding="utf-8")
    tasks = load_task_file(path)
    assert tasks.ids == (0, 1) and tasks.issues == ()
    assert tasks[1].instruction == "Rent\u2028in\u0085Denver"
