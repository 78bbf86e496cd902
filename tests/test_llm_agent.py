"""The LLM agent, batched rollouts, ReAct, DFSDT and resumable runs, with scripted backends."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

from toolgym.agents.backends.base import Generation, PromptRejected
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.llm_agent import LLMAgent
from toolgym.agents.prompting import SYSTEM_PROMPT
from toolgym.envs.protocol import task_env
from toolgym.errors import InfrastructureError
from toolgym.evaluation.runner import evaluate, run_dfsdt, run_episode

HOME = "toolbench/HomeSearch-v0"
CAT = "toolbench/CatAPI-v0"


def gold_replier(env_holder: dict):
    """A backend that answers with the gold of the task named in the prompt."""

    def reply(prompt) -> str:
        text = prompt[-1]["content"] if isinstance(prompt, list) else prompt
        query = text.rsplit("Task: ", 1)[1].split("\n")[0]
        env = env_holder["env"]
        for task_id in env.unwrapped.task_ids:
            task = env.unwrapped.get_task(task_id)
            if task.instruction == query:
                return task.gold[0] + "\n-------------\nTask: more"
        return "nothing"

    return reply


def test_agent_builds_the_paper_prompt_with_retrieved_docs_and_demos() -> None:
    env = gym.make(HOME)
    backend = ScriptedBackend(["API.search()"], cycle=True)
    agent = LLMAgent.for_env(env, backend, shots=3)
    obs, info = env.reset(options={"task_id": "test-000"})
    agent.reset(obs, info)
    action, record = agent.act_with_info(obs, info)
    system, user = backend.prompts[0]
    assert system == {"role": "system", "content": SYSTEM_PROMPT}
    text = user["content"]
    assert text.startswith("I have the following set of API:\n\n# ")
    assert text.count("\nActions:\n") == 3  # three retrieved demonstrations
    assert text.endswith(f"Task: {obs}\nAction:\n")
    assert text.count("API.") >= 15 + 3  # every Home Search doc (top_k_api = 15) and the demos
    assert action == "API.search()" and record["generation"] == "API.search()"


def test_zero_shot_and_oracle_shot() -> None:
    env = gym.make(CAT)
    backend = ScriptedBackend(["finish"], cycle=True)
    zero = LLMAgent.for_env(env, backend, shots=0, system_prompt=None)
    obs, info = env.reset(options={"task_id": "test-000"})
    zero.reset(obs, info)
    zero.act(obs, info)
    assert "set of examples" not in backend.prompts[-1]
    oracle = LLMAgent.for_env(env, backend, shots="oracle", system_prompt=None)
    task = env.unwrapped.task
    oracle.reset(obs, info)
    oracle.act(obs, info)
    prompt = backend.prompts[-1]
    assert prompt.count("\nAction:\n") == 2  # one demo + the task
    gold_path = task.gold[0].split("'")[1].split("?")[0]
    assert gold_path in prompt.split("I have the following set of examples")[1]


@pytest.mark.parametrize("env_id", [HOME, CAT])
def test_batched_equals_sequential(env_id: str, tmp_path: Path) -> None:
    holder: dict = {"env": gym.make(env_id)}
    results = []
    for batch in (1, 4):
        backend = ScriptedBackend(gold_replier(holder))
        res = evaluate(
            env_id,
            lambda e, b=backend: LLMAgent.for_env(e, b),
            limit=6,
            batch_size=batch,
            progress=False,
        )
        assert res.summary["success"] == 1.0
        calls = backend.calls
        results.append([(r.task_id, r.action, r.reward) for r in res.records])
        if batch == 4:
            assert calls == 2  # 6 tasks in batches of 4: two batched generations
        else:
            assert calls == 6
    assert results[0] == results[1]


def test_react_in_call_mode() -> None:
    env = gym.make(HOME, action_mode="call")
    env.reset(options={"task_id": "test-003"})
    lines = env.unwrapped.oracle_actions()
    replies = [f" step {i}\nAction: {line}\nObservation: made up" for i, line in enumerate(lines)]
    backend = ScriptedBackend(replies)
    agent = LLMAgent.for_env(env, backend, strategy="react", system_prompt=None)
    record = run_episode(env, agent, task_id="test-003")
    assert record.reward == 1.0 and record.steps == len(lines)
    last_prompt = backend.prompts[-1]
    assert f"Action: {lines[0]}\nObservation: OK: API.set_location" in last_prompt
    assert "made up" not in last_prompt  # the model's invented observation was cut by the stop


def test_dfsdt_backtracks_with_a_scripted_llm() -> None:
    env = gym.make(HOME, action_mode="call")
    env.reset(options={"task_id": "test-003"})
    lines = env.unwrapped.oracle_actions()
    # root: a failing call, then the right first call; then a failing call at depth 1, then the rest
    script = [
        "bad\nAction: API.fly_away()",
        f"ok\nAction: {lines[0]}",
        "bad\nAction: API.set_num_beds(2)",  # before set_buy_or_rent: a precondition error
        *[f"ok\nAction: {line}" for line in lines[1:]],
    ]
    backend = ScriptedBackend(script)
    agent = LLMAgent.for_env(env, backend, strategy="dfsdt", system_prompt=None)
    record = run_dfsdt(env, agent, task_id="test-003", width=2, max_depth=20)
    assert record.reward == 1.0 and record.terminated
    assert record.actions[:3] == ["API.fly_away()", lines[0], "API.set_num_beds(2)"]
    # the retry at the root was told what failed there, and its history did not keep the failure
    assert "already tried at this point, which failed: API.fly_away()" in backend.prompts[1]
    assert "Action: API.fly_away()" not in backend.prompts[2]


def test_dfsdt_gives_up_within_its_budget() -> None:
    env = gym.make(HOME, action_mode="call")
    backend = ScriptedBackend(["x\nAction: API.nope()"], cycle=True)
    agent = LLMAgent.for_env(env, backend, strategy="dfsdt", system_prompt=None)
    record = run_dfsdt(env, agent, task_id="test-000", width=3, max_depth=4)
    assert not record.terminated and record.steps == 3
    assert record.search[-1]["event"] == "backtrack"
    assert record.metrics["success"] is False


class Interrupt(KeyboardInterrupt):
    pass


def test_an_interrupted_run_resumes_to_the_same_results(tmp_path: Path) -> None:
    holder: dict = {"env": gym.make(CAT)}
    reply = gold_replier(holder)
    full = evaluate(
        CAT,
        lambda e: LLMAgent.for_env(e, ScriptedBackend(reply)),
        limit=6,
        progress=False,
        label="run",
    )
    count = {"n": 0}

    def flaky(prompt):
        count["n"] += 1
        if count["n"] == 4:
            raise Interrupt  # Ctrl-C in the middle of the fourth episode
        return reply(prompt)

    with pytest.raises(Interrupt):
        evaluate(
            CAT,
            lambda e: LLMAgent.for_env(e, ScriptedBackend(flaky)),
            limit=6,
            out_dir=tmp_path,
            progress=False,
            label="run",
        )
    path = next(tmp_path.glob("*.jsonl"))
    assert len(path.read_text().splitlines()) == 3
    with open(path, "a") as f:
        f.write('{"task_id": "test-00')  # a line cut by the interrupt
    resumed = evaluate(
        CAT,
        lambda e: LLMAgent.for_env(e, ScriptedBackend(reply)),
        limit=6,
        out_dir=tmp_path,
        progress=False,
        label="run",
    )
    assert resumed.resumed == 3
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["task_id"] for r in lines] == [f"test-{i:03d}" for i in range(6)]
    strip = lambda rs: [(r.task_id, r.action, r.reward, r.metrics) for r in rs]  # noqa: E731
    assert strip(resumed.records) == strip(full.records)
    assert resumed.summary == full.summary
    again = evaluate(
        CAT,
        lambda e: LLMAgent.for_env(e, ScriptedBackend([])),
        limit=6,
        out_dir=tmp_path,
        progress=False,
        label="run",
    )
    assert again.resumed == 6 and strip(again.records) == strip(full.records)


def test_a_rejected_prompt_is_the_agents_error_and_is_recorded() -> None:
    def reject(prompt):
        raise PromptRejected("the prompt is longer than the model's context")

    res = evaluate(
        HOME,
        lambda e: LLMAgent.for_env(e, ScriptedBackend(reject)),
        limit=2,
        batch_size=2,
        progress=False,
    )
    assert all(r.error_category == "agent_error" for r in res.records)
    res = evaluate(
        HOME, lambda e: LLMAgent.for_env(e, ScriptedBackend(reject)), limit=1, progress=False
    )
    assert "longer than the model's context" in res.records[0].error["message"]


@pytest.mark.parametrize("batch_size", [1, 2])
def test_a_crashed_backend_stops_the_run_and_records_nothing(tmp_path, batch_size) -> None:
    def boom(prompt):
        raise RuntimeError("model crashed")

    with pytest.raises(InfrastructureError, match="model crashed"):
        evaluate(
            HOME,
            lambda e: LLMAgent.for_env(e, ScriptedBackend(boom)),
            limit=2,
            batch_size=batch_size,
            progress=False,
            out_dir=tmp_path,
            label="crashy",
        )
    (path,) = tmp_path.glob("*crashy*.jsonl")
    assert path.read_text() == ""  # nothing was recorded as the agent's result


def test_a_generation_cut_at_the_token_limit_is_recorded_as_truncated() -> None:
    env = gym.make("toolbench/HomeSearch-v0")
    cut = 'API.set_location("Austin")\nAPI.set_num_beds(2)\nAPI.set'
    backend = ScriptedBackend([Generation(cut, "length", completion_tokens=128)])
    record = run_episode(env, LLMAgent.for_env(env, backend), task_id="test-000")
    assert record.turns[0]["finish_reason"] == "length"
    assert record.error is not None and record.error["category"] == "truncated_generation"
    assert "token limit (128 tokens)" in record.error["message"]
    assert record.error["cause"]["category"] != "truncated_generation"
    assert record.gold == list(task_env(env).task.gold) and record.gold[0].endswith("search()")
    # The same text ending on its own keeps the action's own error, and the gold is recorded
    whole = run_episode(env, LLMAgent.for_env(env, ScriptedBackend([cut])), task_id="test-000")
    assert whole.error is not None and whole.error["category"] != "truncated_generation"
    assert whole.to_dict()["gold"] == record.gold


def test_the_scripted_backend_cuts_replies_longer_than_the_budget() -> None:
    backend = ScriptedBackend(["a b c d e", "a b"])
    long, short = backend.generate(["q", "q"], max_new_tokens=3)
    assert (long.text, long.finish_reason, long.completion_tokens) == ("a b c ", "length", 3)
    assert (short.text, short.finish_reason) == ("a b", "stop")
