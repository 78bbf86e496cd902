import subprocess
import sys

import gymnasium as gym
import pytest

import toolgym
from toolgym.envs import env_entries, env_ids, latest_env_ids


def test_every_table_row_is_registered() -> None:
    assert env_ids()[:4] == [
        "toolbench/HomeSearch-v0",
        "toolbench/TripBooking-v0",
        "toolbench/OpenWeather-v0",
        "toolbench/OpenWeather-v1",
    ]
    assert latest_env_ids()[:4] == [
        "toolbench/HomeSearch-v0",
        "toolbench/TripBooking-v0",
        "toolbench/OpenWeather-v1",
        "toolbench/CatAPI-v1",
    ]
    assert [e.id for e in toolgym.ENV_TABLE] == env_ids()  # the table is derived, not kept
    for entry in env_entries():
        spec = gym.spec(entry.id)
        assert spec.max_episode_steps == entry.max_episode_steps
        assert isinstance(spec.entry_point, str)


@pytest.mark.parametrize("latest", latest_env_ids())
def test_make_without_version(latest: str) -> None:
    name = latest.rsplit("-v", 1)[0]
    env = gym.make(name)  # the newest version, as Gymnasium resolves it
    assert env.spec is not None and env.spec.id == latest
    obs, info = env.reset(seed=1)
    # the instruction, or a first page that shows it (or an earlier conversation: BFCL's memory)
    opens_with_question = info.get("conversation_id", "question") == "question"
    assert (info["instruction"] in obs) == opens_with_question


def test_register_is_idempotent() -> None:
    toolgym.register_envs()
    toolgym.register_envs()
    assert gym.spec("toolbench/HomeSearch-v0")


def test_module_prefix_without_prior_import() -> None:
    code = (
        "import gymnasium as gym\n"
        "env = gym.make('toolgym:toolbench/HomeSearch-v0')\n"
        "obs, info = env.reset(seed=0)\n"
        "print(type(env.unwrapped).__name__, info['task_id'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.startswith("HomeSearchEnv test-")


def test_import_does_not_load_heavy_modules() -> None:
    code = "import sys, toolgym; print(sorted(m for m in ('torch', 'transformers', 'openai') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
