"""The to-do family, installed as a package: found through its entry point, played to reward 1."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import toolgym  # noqa: F401  (registers the envs)
from toolgym.envs import ENTRY_POINT_GROUP, family, plugin_families, register_family

ENV_ID = "toolbench/TodoList-v0"


def _installed() -> bool:
    """Whether a fresh process, outside this checkout, can import the example package."""
    code = "import importlib.util as u; print(u.find_spec('todo_family') is not None)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd="/"
    )
    return done.stdout.strip() == "True"


installed = _installed()
needs_install = pytest.mark.skipif(
    not installed,
    reason="the example package is not installed (pip install -e examples/todo_family)",
)


@needs_install
def test_the_entry_point_adds_the_family_with_no_call() -> None:
    assert any(p.value == "todo_family.spec:SPEC" for p in entry_points(group=ENTRY_POINT_GROUP))
    assert "todo_list" in [s.name for s in plugin_families()]
    assert family("todo_list").env_name == "TodoList"
    # a fresh process finds it too: nothing but importing toolgym registers it
    code = "import gymnasium as gym, toolgym; print(gym.spec('toolbench/TodoList-v0').id)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd="/"
    )
    assert done.stdout.strip() == ENV_ID, done.stderr[-2000:]


@needs_install
def test_it_is_listed(capsys: pytest.CaptureFixture) -> None:
    from toolgym.cli import main

    assert main(["list"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith(ENV_ID))
    assert " 3 " in line and "json_calls" in line


def test_the_env_passes_check_env_and_the_oracle_scores_one() -> None:
    if ENV_ID not in gym.registry:  # not installed: add it to this process from its folder
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from todo_family.spec import SPEC

        register_family(SPEC)
    env = gym.make(ENV_ID)
    check_env(env.unwrapped, skip_render_check=True)
    base = env.unwrapped
    for task_id in base.task_ids[:5]:
        env.reset(options={"task_id": task_id})
        for action in base.oracle_actions():
            _, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        assert reward == 1.0, json.dumps(info, default=str)[:500]
    env.close()
