"""Chat-with-tools examples from the oracle's calls: playable, train tasks only, every call-mode env."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolgym.agents.native_prompting import TOOL_CALL_SYSTEM_PROMPT
from toolgym.cli import main
from toolgym.errors import UserInputError
from toolgym.integrations.episode import ToolEpisode
from toolgym.training.sft_data import held_out_goals, same_goal
from toolgym.training.tool_call_data import tool_call_env_ids, tool_call_examples

CHAT = "toolbench/HomeSearchChat-v0"


@pytest.fixture(scope="module")
def examples() -> list[dict]:
    return list(tool_call_examples([CHAT, "toolbench/CatAPI-v1"], 3))


def test_an_example_is_a_tool_calling_conversation(examples: list[dict]) -> None:
    assert [e["env_id"] for e in examples] == [CHAT] * 3 + ["toolbench/CatAPI-v1"] * 3
    for example in examples:
        roles = [m["role"] for m in example["messages"]]
        assert roles[:2] == ["system", "user"] and len(roles) % 2 == 0
        assert roles[2:] == ["assistant", "tool"] * ((len(roles) - 2) // 2)
        names = {t["function"]["name"] for t in example["tools"]}
        for turn in example["messages"][2::2]:
            (call,) = turn["tool_calls"]
            assert call["function"]["name"] in names and isinstance(
                call["function"]["arguments"], dict
            )
        assert example["reward"] == 1.0 and example["task_id"].startswith("train-")
    chat = examples[0]["messages"]
    assert chat[2]["tool_calls"][0]["function"]["name"] == "message_user"  # asking is a call


def test_an_example_opens_as_a_rollout_does(examples: list[dict]) -> None:
    """The system message is the one GRPO's rollouts get, not the text protocol's."""
    from toolgym.agents.prompting import SYSTEM_PROMPT as TEXT_PROTOCOL

    system = examples[0]["messages"][0]["content"]
    assert system == TOOL_CALL_SYSTEM_PROMPT and system != TEXT_PROTOCOL
    assert (
        examples[0]["messages"][1]["content"]
        == ToolEpisode(CHAT, split="train")
        .reset(seed=0, task_id=examples[0]["task_id"])
        .observation
    )


def test_an_example_replays_to_the_same_answers_and_reward(examples: list[dict]) -> None:
    for example in examples[:2]:
        episode = ToolEpisode(example["env_id"], split="train")
        start = episode.reset(seed=0, task_id=example["task_id"])
        assert start.observation == example["messages"][1]["content"]
        for turn, answer in zip(example["messages"][2::2], example["messages"][3::2], strict=True):
            call = turn["tool_calls"][0]["function"]
            result = episode.call(call["name"], call["arguments"])
            assert result.observation == answer["content"]
        assert result.done and result.reward == 1.0


def test_no_example_is_a_test_task(examples: list[dict]) -> None:
    episode = ToolEpisode(CHAT, split="test")
    held_out = held_out_goals(episode.env.unwrapped.suite)
    for example in examples:
        assert same_goal(example["messages"][1]["content"]) not in held_out


def test_golds_that_are_programs_give_none() -> None:
    assert list(tool_call_examples(["toolbench/GoogleSheetsChat-v0"], 2)) == []


def test_golds_that_name_values_give_the_calls_that_use_them() -> None:
    """Trip Booking's golds bind ``Loc``/``Date`` values to names; the calls carry the values."""
    examples = list(tool_call_examples(["toolbench/TripBookingChat-v0"], 3))
    assert len(examples) == 3 and all(e["reward"] == 1.0 for e in examples)
    calls = [
        c["function"]
        for e in examples
        for m in e["messages"]
        if m["role"] == "assistant"
        for c in m["tool_calls"]
    ]
    dates = [c["arguments"]["date"] for c in calls if c["name"].endswith("_date")]
    assert dates and all(set(d) == {"month", "day", "year"} for d in dates), dates
    places = [c["arguments"] for c in calls if c["name"] in ("set_origin", "set_hotel_location")]
    assert places and all(isinstance(v, str) for a in places for v in a.values()), places


def test_envs_are_checked() -> None:
    with pytest.raises(UserInputError, match="no env"):
        tool_call_env_ids(["toolbench/Nope-v0"])
    assert CHAT in tool_call_env_ids()


def test_the_command_writes_jsonl(tmp_path: Path) -> None:
    out = tmp_path / "calls.jsonl"
    assert main(["data", "--tool-calls", "--env", CHAT, "--n", "2", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 2 and {r["env_id"] for r in rows} == {CHAT}
    with pytest.raises(UserInputError, match="--tool-calls takes --env"):
        main(["data", "--tool-calls", "--family", "home_search", "--debug"])


@pytest.mark.model
def test_a_conversation_is_encoded_with_the_loss_on_the_calls_only(examples: list[dict]) -> None:
    """The labels are the assistant's turns as the rollout's template renders them, nothing else."""
    pytest.importorskip("transformers")
    from toolgym.agents.backends.hf import HFBackend
    from toolgym.training.encoding import IGNORE_INDEX, encode_tool_conversation
    from toolgym.training.grpo_env import tool_chat_template

    tokenizer = HFBackend(num_threads=1).tokenizer
    tool_chat_template(tokenizer)
    example = examples[0]
    encoded = encode_tool_conversation(example["messages"], example["tools"], tokenizer)
    ids, labels = encoded["input_ids"], encoded["labels"]
    assert len(ids) == len(labels)
    learned = tokenizer.decode(
        [t for t, label in zip(ids, labels, strict=True) if label != IGNORE_INDEX]
    )
    calls = [m["tool_calls"][0]["function"]["name"] for m in example["messages"][2::2]]
    assert all(name in learned for name in calls)
    for answer in example["messages"][3::2]:  # the tool answers are read, never learned
        assert answer["content"][:30] not in learned
    assert example["messages"][1]["content"][:30] not in learned


@pytest.mark.model
@pytest.mark.slow
def test_finetune_on_tool_calls(tiny_model: Path, tmp_path: Path) -> None:
    """Two steps on tool-calling conversations: finite losses, the record says what it was."""
    pytest.importorskip("peft")
    import math

    from toolgym.training.finetune import RESULT_FILE, FinetuneConfig, train_adapter

    config = FinetuneConfig(
        model=str(tiny_model),
        envs=(CHAT,),
        n=2,
        max_steps=2,
        batch_size=1,
        num_threads=1,
        out=str(tmp_path / "adapter"),
        progress=False,
        tool_calls=True,
    )
    result = train_adapter(config)
    assert result.steps == 2 and result.examples == 2 and result.env_ids == [CHAT]
    assert all(math.isfinite(x) for x in result.losses)
    assert all(t.startswith("train-") for t in result.task_ids[CHAT])
    summary = json.loads((Path(config.out) / RESULT_FILE).read_text())
    assert summary["config"]["tool_calls"] is True
    assert "--tool-calling native" in result.eval_command
    # The template the calls were trained in travels with the adapter: a backend loading the
    # adapter renders tools (the base model's plain ChatML does not).
    from toolgym.agents.backends.hf import HFBackend

    assert (Path(config.out) / "chat_template.jinja").is_file()
    assert not HFBackend(str(tiny_model), num_threads=1, chat=True).native_tool_calling
    loaded = HFBackend(str(tiny_model), num_threads=1, chat=True, adapter=config.out)
    assert loaded.native_tool_calling
    tool = {"type": "function", "function": {"name": "find_cat", "parameters": {}}}
    assert "find_cat" in loaded._render("hi", [tool])


def test_train_rl_start_adapter_is_for_whole_episodes(tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match="--adapter starts whole-episode"):
        main(
            ["train-rl", "--env", "toolbench/OpenWeather-v1", "--adapter", str(tmp_path), "--debug"]
        )
