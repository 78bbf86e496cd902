"""Episode records as ToolBench answers: StableToolBench's converted format and raw messages."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import pytest

from toolgym.agents.backends.base import Prompt
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.llm_agent import LLMAgent
from toolgym.envs.protocol import task_env
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.runner import run_dfsdt, run_episode
from toolgym.families.rapid_api.answers import (
    INVALID_NAME,
    action_calls,
    answer_method,
    converted_answer,
    converted_answers,
    solution_path,
    toolbench_messages,
)

ENV_ID = "toolbench/RapidAPI-v1"
TASK = "G1-000"
GIVE_UP = {"return_type": "give_up_and_restart"}


def reply(name: str, arguments: dict[str, Any], thought: str = "Next.") -> str:
    """A reply in ToolBench's text."""
    return f"Thought: {thought}\nAction: {name}\nAction Input: {json.dumps(arguments)}"


def replay(gold: list[dict[str, Any]], before: tuple[str, ...] = ()) -> Callable[[Prompt], str]:
    """Replies that replay the gold's calls with their concrete values, after ``before``."""
    script = [*before, *(reply(c["name"], c["arguments"], f"Call {c['name']}.") for c in gold)]

    def answer(prompt: Prompt) -> str:
        text = prompt[-1]["content"] if isinstance(prompt, list) else prompt
        return script[min(text.count("\nObservation: "), len(script) - 1)]

    return answer


@pytest.fixture(scope="module")
def played() -> tuple[EpisodeRecord, list[dict[str, Any]], list[dict[str, Any]]]:
    """A scripted ReAct episode (an unknown function, then the gold), its tools and gold calls."""
    env = gym.make(ENV_ID)
    _, info = env.reset(options={"task_id": TASK})
    task = task_env(env).task
    assert task is not None
    gold = json.loads(task.gold[0])
    wrong = reply("search_datasets", {"task": "text-generation"}, "Search first.")
    backend = ScriptedBackend(replay(gold, (wrong,)))
    agent = LLMAgent.for_env(env, backend, strategy="react", shots=0)
    record = run_episode(env, agent, task_id=TASK)
    assert record.reward == 1.0 and record.steps == 1 + len(gold)
    return record, info["tools"], gold


def chain(details: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The nodes of a single-chain ``answer_details``, in order (each without ``next``)."""
    assert len(details) == 1
    nodes, node = [], details[0]
    while True:
        nodes.append({k: v for k, v in node.items() if k != "next"})
        assert len(node["next"]) <= 1
        if not node["next"]:
            return nodes
        node = node["next"][0]


def upstream_nodes(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The nodes StableToolBench's converter makes of a message list (``tool_calls`` shape)."""
    nodes = []
    for index, message in enumerate(messages[2:], start=2):
        if message["role"] != "assistant":
            continue
        if not message.get("tool_calls"):
            nodes.append({"role": "assistant", "message": message["content"]})
            continue
        for call in message["tool_calls"]:
            name, arguments = call["function"]["name"], call["function"]["arguments"]
            if name == "Finish":
                nodes.append(
                    {
                        "role": "tool",
                        "message": {"name": name, "arguments": arguments, "response": ""},
                    }
                )
                break
            response = next(
                m["content"]
                for m in messages[index + 1 :]
                if m["role"] == "tool" and m["tool_call_id"] == call["id"]
            )
            nodes.append(
                {
                    "role": "tool",
                    "message": {"name": name, "arguments": arguments, "response": response},
                }
            )
    return nodes


def test_converted_answer_of_a_react_episode(played: Any) -> None:
    record, tools, gold = played
    converted = converted_answer(record, tools=tools)
    assert list(converted) == [TASK]
    entry = converted[TASK]
    assert entry["query"] == record.instruction
    assert [f["name"] for f in entry["available_tools"]] == [t["function"]["name"] for t in tools]
    assert set(entry["available_tools"][0]) == {"name", "description", "parameters"}
    answer = entry["answer"]
    assert answer["method"] == "CoT@1" == answer_method(record)
    nodes = chain(answer["answer_details"])
    assert answer["total_steps"] == len(nodes) == 2 + 1 + len(gold)
    assert nodes[:2] == [{"role": "system", "message": ""}, {"role": "user", "message": ""}]
    tool_nodes = [n["message"] for n in nodes[2:]]
    assert all(n["role"] == "tool" for n in nodes[2:])
    assert [m["name"] for m in tool_nodes] == [INVALID_NAME, *(c["name"] for c in gold)]
    assert [json.loads(m["arguments"]) for m in tool_nodes[1:]] == [c["arguments"] for c in gold]
    # each call's response is the observation the env gave; Finish's is empty
    observations = [t["observation"] for t in record.turns]
    assert [m["response"] for m in tool_nodes] == [*observations[:-1], ""]
    assert json.loads(tool_nodes[0]["response"])["error"].startswith("No such function name")
    final = json.loads(answer["final_answer"])
    assert final == gold[-1]["arguments"] and final["return_type"] == "give_answer"
    json.dumps(converted)  # JSON all the way down


def test_messages_of_a_react_episode(played: Any) -> None:
    record, tools, gold = played
    messages = toolbench_messages(record, tools=tools)
    assert [m["role"] for m in messages] == ["system", "user", *["assistant", "tool"] * 4]
    assert messages[1]["content"] == f"\n{record.instruction}\nBegin!\n"
    assert gold[0]["name"] in messages[0]["content"]  # the functions are listed
    assistants = [m for m in messages if m["role"] == "assistant"]
    assert [a["content"] for a in assistants] == [
        "Search first.",
        *(f"Call {c['name']}." for c in gold),
    ]
    for assistant, answer in zip(assistants, messages[3::2], strict=True):
        (call,) = assistant["tool_calls"]
        assert answer["tool_call_id"] == call["id"] and answer["name"] == call["function"]["name"]
    assert [m["content"] for m in messages[3::2]] == [t["observation"] for t in record.turns]
    assert assistants[0]["tool_calls"][0]["function"]["name"] == INVALID_NAME
    assert (
        json.loads(assistants[1]["tool_calls"][0]["function"]["arguments"]) == gold[0]["arguments"]
    )
    assert toolbench_messages(record, system="Be brief.")[0] == {
        "role": "system",
        "content": "Be brief.",
    }


def test_the_two_formats_agree(played: Any) -> None:
    record, tools, _ = played
    messages = toolbench_messages(record, tools=tools)
    nodes = chain(converted_answer(record, tools=tools)[TASK]["answer"]["answer_details"])
    assert upstream_nodes(messages) == nodes[2:]


def test_a_record_read_back_converts_alike(played: Any) -> None:
    record, tools, _ = played
    again = EpisodeRecord.from_dict(json.loads(json.dumps(record.to_dict())))
    assert converted_answer(again, tools=tools) == converted_answer(record, tools=tools)
    assert toolbench_messages(again) == toolbench_messages(record)


def test_dfsdt_answers_keep_the_branch_of_the_outcome() -> None:
    env = gym.make(ENV_ID)
    env.reset(options={"task_id": TASK})
    task = task_env(env).task
    assert task is not None
    gold = json.loads(task.gold[0])
    turns = {"n": 0}

    def script(prompt: Prompt) -> str:
        text = prompt[-1]["content"] if isinstance(prompt, list) else prompt
        depth = text.count("\nObservation: ")
        turns["n"] += 1
        if turns["n"] == 2:  # the first branch gives up after the search
            return reply("Finish", GIVE_UP, "I give up and restart.")
        call = gold[min(depth, len(gold) - 1)]
        return reply(call["name"], call["arguments"])

    agent = LLMAgent.for_env(env, ScriptedBackend(script), strategy="dfsdt", shots=0)
    record = run_dfsdt(env, agent, task_id=TASK, width=2, max_depth=12)
    assert record.reward == 1.0 and record.steps == 5
    assert solution_path(record) == [2, 3, 4]
    answer = converted_answer(record)[TASK]["answer"]
    assert answer["method"] == "DFS_woFilter_w2"
    assert converted_answer(record, width=3)[TASK]["answer"]["method"] == "DFS_woFilter_w3"
    names = [n["message"]["name"] for n in chain(answer["answer_details"])[2:]]
    assert names == [c["name"] for c in gold]
    assert len(toolbench_messages(record)) == 2 + 2 * len(gold)

    # every branch gives up: the first give-up is the outcome, and its branch the answer
    def giving_up(prompt: Prompt) -> str:
        text = prompt[-1]["content"] if isinstance(prompt, list) else prompt
        if "\nObservation: " in text:
            return reply("Finish", GIVE_UP, "I give up and restart.")
        return reply(gold[0]["name"], gold[0]["arguments"])

    agent = LLMAgent.for_env(env, ScriptedBackend(giving_up), strategy="dfsdt", shots=0)
    record = run_dfsdt(env, agent, task_id=TASK, width=2, max_depth=12)
    assert record.steps == 4 and solution_path(record) == [0, 1]
    answer = converted_answer(record)[TASK]["answer"]
    assert json.loads(answer["final_answer"]) == GIVE_UP
    assert [n["message"]["name"] for n in chain(answer["answer_details"])[2:]] == [
        gold[0]["name"],
        "Finish",
    ]


def test_kept_step_calls_and_unread_replies() -> None:
    record = EpisodeRecord("q1", "Find it.", strategy="react")
    lines = ['{"error": "", "response": {"a": 1}}', '{"error": "", "response": {"b": 2}}']
    record.log_step(
        "several calls",
        {"generation": "Two at once.\nAction: several calls"},
        "\n".join(lines),
        0.0,
        {},
    )
    record.turns[-1]["calls"] = [
        {"name": "f", "arguments": {"x": 1}, "code": 0},
        {"name": "g", "arguments": {}, "code": 0},
    ]
    record.log_step(
        "I am not sure.",
        {"generation": "I am not sure."},
        "expected a JSON call",
        0.0,
        {"error": {"category": "non_executable", "message": "expected a JSON call"}},
    )
    finish = {"return_type": "give_answer", "final_answer": "It is 1."}
    record.log_step(
        json.dumps({"name": "Finish", "arguments": finish}),
        {},
        '{"response": "successfully giving the final answer."}',
        1.0,
        {},
    )
    nodes = chain(converted_answer(record)["q1"]["answer"]["answer_details"])
    assert nodes[2:] == [
        {"role": "tool", "message": {"name": "f", "arguments": '{"x": 1}', "response": lines[0]}},
        {"role": "tool", "message": {"name": "g", "arguments": "{}", "response": lines[1]}},
        {"role": "assistant", "message": "I am not sure."},
        {
            "role": "tool",
            "message": {"name": "Finish", "arguments": json.dumps(finish), "response": ""},
        },
    ]
    messages = toolbench_messages(record)
    assert [m["role"] for m in messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "user",
        "assistant",
        "tool",
    ]
    assert [c["function"]["name"] for c in messages[2]["tool_calls"]] == ["f", "g"]
    assert messages[2]["content"] == "Two at once."
    assert messages[6]["content"] == "expected a JSON call"
    assert upstream_nodes(messages) == nodes[2:]
    with_thoughts = converted_answer(record, thoughts=True)["q1"]["answer"]
    assert chain(with_thoughts["answer_details"])[2] == {
        "role": "assistant",
        "message": "Two at once.",
    }
    assert with_thoughts["total_steps"] == 7


def test_methods_and_many_records() -> None:
    single = EpisodeRecord("q1", "Find it.", strategy="single")
    with pytest.raises(ValueError, match="expected a record of strategy react or dfsdt"):
        converted_answer(single)
    assert converted_answer(single, method="CoT@1")["q1"]["answer"]["method"] == "CoT@1"
    assert answer_method(EpisodeRecord("q", "x", search=[])) == "DFS_woFilter_w2"
    other = EpisodeRecord(7, "Find that.", strategy="react")
    tools = {"7": [{"type": "function", "function": {"name": "f"}}]}
    both = converted_answers([EpisodeRecord("q1", "Find it.", strategy="react"), other], tools)
    assert list(both) == ["q1", "7"] and both["7"]["available_tools"] == [{"name": "f"}]
    assert both["q1"]["answer"]["final_answer"] == "" and both["q1"]["answer"]["total_steps"] == 2
    with pytest.raises(ValueError, match="expected one record per task"):
        converted_answers([other, other])


def test_action_calls_reads_every_shape() -> None:
    assert action_calls('f\nAction Input: {"q": 1}') == [("f", {"q": 1})]
    assert action_calls('Thought: x\nAction: f\nAction Input: {"q": 1}\nObservation: y') == [
        ("f", {"q": 1})
    ]
    assert action_calls('{"role": "assistant", "function_call": {"name": "f", "arguments": "{}"}}')
    assert action_calls(
        '{"tool_calls": [{"type": "function", "function": {"name": "a", "arguments": "{}"}},'
        ' {"type": "function", "function": {"name": "b", "arguments": {"k": 2}}}]}'
    ) == [("a", {}), ("b", {"k": 2})]
    assert action_calls("not a call") == [] and action_calls("{broken") == []
