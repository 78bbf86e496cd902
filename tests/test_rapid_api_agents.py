"""The LLM agent on RapidAPI, end to end: ReAct and DFSDT with scripted models, no downloads.

The scripted model answers in ToolBench's text (``Thought:`` / ``Action:`` / ``Action Input:``)
and replays a task's gold calls. Values the instruction states are replayed as the gold writes
them; an id the gold passes that the instruction does not state (a nested call) is read from the
observations in the prompt, by its field name, so the script only knows what a model would.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import pytest

from toolgym.agents.backends.base import Prompt
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.llm_agent import LLMAgent
from toolgym.benchmarks.tasks import Task
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.runner import run_dfsdt, run_episode
from toolgym.families.rapid_api.checker import is_id
from toolgym.tools.errors import GOAL_NOT_MET, WRONG_API

ENV_ID = "toolbench/RapidAPI-v1"
GIVE_UP = {"return_type": "give_up_and_restart"}


# -- the scripted model ------------------------------------------------------------------------
def user_text(prompt: Prompt) -> str:
    """The text of a prompt (its last message for a chat prompt)."""
    return prompt[-1]["content"] if isinstance(prompt, list) else prompt


def observations(text: str) -> list[str]:
    """The observations a ReAct prompt shows, in order."""
    return [part.split("\nThought:", 1)[0] for part in text.split("\nObservation: ")[1:]]


def toolbench_reply(name: str, arguments: dict[str, Any], thought: str = "Next step.") -> str:
    """A reply in ToolBench's text, with an observation the model made up (cut by the stops)."""
    return (
        f"Thought: {thought}\nAction: {name}\nAction Input: {json.dumps(arguments)}\n"
        "Observation: {}"
    )


class GoldReplay:
    """Replies that replay a task's gold calls, one per turn (see the module docstring).

    Args:
        task: the task.
        before: replies given first, each on its own turn (the gold follows them).
        give_up: ``(turn index, observations so far) -> bool``: give up on that turn instead.
    """

    def __init__(
        self,
        task: Task,
        before: tuple[str, ...] = (),
        give_up: Callable[[int, list[str]], bool] | None = None,
    ) -> None:
        self.task = task
        self.calls = json.loads(task.gold[0])
        self.before = before
        self.give_up = give_up
        self.turns = 0
        self.ids_read: list[Any] = []

    def argument(self, name: str, value: Any, seen: list[str]) -> Any:
        """The gold's value, or for an id the instruction does not state, the observed one."""
        if not is_id(name) or str(value) in self.task.instruction:
            return value
        for observation in reversed(seen):
            found = re.search(rf'"{re.escape(name)}": ("[^"]*"|-?\d+)', observation)
            if found is not None:
                self.ids_read.append(json.loads(found.group(1)))
                return self.ids_read[-1]
        return "<an id never observed>"

    def __call__(self, prompt: Prompt) -> str:
        seen = observations(user_text(prompt))
        turn, self.turns = self.turns, self.turns + 1
        if self.give_up is not None and self.give_up(turn, seen):
            return toolbench_reply("Finish", GIVE_UP, "I give up and restart.")
        step = len(seen) - len(self.before)
        if step < 0:
            return self.before[len(seen)]
        call = self.calls[min(step, len(self.calls) - 1)]
        arguments = {k: self.argument(k, v, seen) for k, v in call["arguments"].items()}
        return toolbench_reply(call["name"], arguments, f"Step {step + 1} of the plan.")


# -- helpers -----------------------------------------------------------------------------------
def make_env() -> tuple[gym.Env[Any, Any], list[dict[str, Any]]]:
    """A fresh env and the list its step infos are appended to (every step, also DFSDT's)."""
    env = gym.make(ENV_ID)
    base: Any = env.unwrapped  # run_dfsdt steps the unwrapped env: spy on it there
    infos: list[dict[str, Any]] = []
    step = base.step

    def spy(action: str) -> tuple[Any, ...]:
        out = step(action)
        infos.append(out[-1])
        return out

    base.step = spy
    return env, infos


def task_of(env: gym.Env[Any, Any], task_id: str) -> Task:
    """The task ``task_id`` of the env's split."""
    task: Task = env.unwrapped.get_task(task_id)  # type: ignore[attr-defined]
    return task


def react(env: gym.Env[Any, Any], script: Callable[[Prompt], str]) -> tuple[LLMAgent, Any]:
    """A zero-shot ReAct agent over a scripted model, and the model."""
    backend = ScriptedBackend(script)
    return LLMAgent.for_env(env, backend, strategy="react", shots=0, top_k_api=32), backend


def dfsdt(env: gym.Env[Any, Any], script: Callable[[Prompt], str]) -> tuple[LLMAgent, Any]:
    """A zero-shot DFSDT agent over a scripted model, and the model."""
    backend = ScriptedBackend(script)
    return LLMAgent.for_env(env, backend, strategy="dfsdt", shots=0, top_k_api=32), backend


def steps_of(record: EpisodeRecord) -> list[tuple[str, int]]:
    """The search events as ``(event, depth)`` pairs."""
    assert record.search is not None
    return [(e["event"], e["depth"]) for e in record.search]


# -- ReAct -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("task_id", "nested_ids"), [("G1-000", 1), ("G2-001", 1), ("G3-001", 3), ("G3-002", 0)]
)
def test_react_replaying_the_gold_in_toolbench_text_solves_the_task(
    task_id: str, nested_ids: int
) -> None:
    env, infos = make_env()
    task = task_of(env, task_id)
    script = GoldReplay(task)
    agent, backend = react(env, script)
    record = run_episode(env, agent, task_id=task_id)
    gold = json.loads(task.gold[0])
    assert record.reward == 1.0 and record.terminated and record.error is None
    assert record.steps == len(gold) and infos[-1]["code"] == 3
    assert [i["code"] for i in infos[:-1]] == [0] * (len(gold) - 1)
    assert len(script.ids_read) == nested_ids
    assert "<an id never observed>" not in json.dumps(record.actions)
    # the actions keep ToolBench's arguments, and the made-up observation was cut by the stops
    assert record.actions[0] == (
        f"{gold[0]['name']}\nAction Input: {json.dumps(gold[0]['arguments'])}"
    )
    prompts = [user_text(p) for p in backend.prompts]
    assert all("Observation: {}" not in p for p in prompts)
    # every prompt documents every function of the task (its docs fit top_k_api)
    assert task.tools is not None
    for prompt in prompts:
        docs = prompt.split(f"\nTask: {task.instruction}", 1)[0]
        assert all(name in docs for name in task.tools), task_id
    # each observation is shown to the model on the next turn, as the env gave it
    for turn, prompt in zip(record.turns, prompts[1:], strict=False):
        assert f"Observation: {turn['observation']}" in prompt


@pytest.mark.parametrize("task_id", ["G2-043", "G3-045", "G3-118"])
def test_the_prompt_documents_every_function_of_the_largest_tasks(task_id: str) -> None:
    env = gym.make(ENV_ID)
    task = task_of(env, task_id)
    assert task.tools is not None and len(task.tools) >= 25  # the test split's largest
    agent, backend = react(env, lambda prompt: toolbench_reply("Finish", GIVE_UP))
    obs, info = env.reset(options={"task_id": task_id})
    agent.reset(obs, info)
    agent.act(obs, info)
    docs = user_text(backend.prompts[0]).split(f"\nTask: {task.instruction}", 1)[0]
    assert [name for name in task.tools if name not in docs] == []


def test_react_made_up_answer_fails_the_task() -> None:
    env, infos = make_env()
    answer = {"return_type": "give_answer", "final_answer": "The name is Quiet Meadow, MIT."}
    agent, _ = react(env, lambda prompt: toolbench_reply("Finish", answer, "I know this."))
    record = run_episode(env, agent, task_id="G1-000")
    assert record.reward == 0.0 and record.terminated and record.steps == 1
    assert infos[-1]["code"] == 3
    assert record.error is not None and record.error["category"] == GOAL_NOT_MET
    assert record.metrics is not None
    assert record.metrics["precheck"] is True  # a judge would read this answer
    assert record.metrics["success"] is False and record.metrics["calls_ok"] is False


def test_react_recovers_from_an_unknown_function() -> None:
    env, infos = make_env()
    task = task_of(env, "G1-000")
    wrong = toolbench_reply("search_datasets", {"task": "text-generation"}, "Search first.")
    agent, backend = react(env, GoldReplay(task, before=(wrong,)))
    record = run_episode(env, agent, task_id="G1-000")
    assert record.reward == 1.0 and record.terminated
    assert infos[0]["code"] == 1 and infos[0]["error"]["category"] == WRONG_API
    assert json.loads(record.turns[0]["observation"]) == {
        "error": "No such function name: search_datasets",
        "response": "",
    }
    assert [i["code"] for i in infos] == [1, 0, 0, 3]
    assert record.metrics is not None and record.metrics["tool_f1"] < 1.0
    assert "No such function name: search_datasets" in user_text(backend.prompts[1])


# -- DFSDT -------------------------------------------------------------------------------------
def test_dfsdt_backtracks_after_a_give_up_and_then_succeeds() -> None:
    env, infos = make_env()
    task = task_of(env, "G1-000")
    # the first branch gives up after the search; the next attempt replays the gold
    agent, backend = dfsdt(env, GoldReplay(task, give_up=lambda turn, seen: turn == 1))
    record = run_dfsdt(env, agent, task_id="G1-000", width=2, max_depth=12)
    assert record.reward == 1.0 and record.terminated and record.error is None
    assert [i["code"] for i in infos] == [0, 4, 0, 0, 3]
    # the give-up abandons the node it was given from: the root tries another action
    assert steps_of(record) == [
        ("step", 1),
        ("step", 2),
        ("give_up", 2),
        ("step", 1),
        ("step", 2),
        ("step", 3),
    ]
    retry = user_text(backend.prompts[2])
    assert "Actions already tried at this point, which failed: searchdatasets_for_modelzone" in (
        retry
    )
    assert observations(retry) == []  # the abandoned branch left the history
    assert record.prediction["finish"]["return_type"] == "give_answer"
    assert [c[0] for c in record.prediction["calls"]] == [
        "searchdatasets_for_modelzone",
        "getdatasetdetails_for_modelzone",
        "Finish",
    ]


def always_giving_up(env: gym.Env[Any, Any]) -> EpisodeRecord:
    """DFSDT where every branch searches and then gives up."""
    task = task_of(env, "G1-000")
    agent, _ = dfsdt(env, GoldReplay(task, give_up=lambda turn, seen: len(seen) >= 1))
    return run_dfsdt(env, agent, task_id="G1-000", width=2, max_depth=12)


def test_dfsdt_that_always_gives_up_ends_on_the_first_give_up() -> None:
    runs = []
    for _ in range(2):
        env, infos = make_env()
        runs.append((always_giving_up(env), infos))
    record, infos = runs[0]
    assert record.terminated and not record.truncated and record.reward == 0.0
    assert [i["code"] for i in infos] == [0, 4, 0, 4]
    assert steps_of(record) == [
        ("step", 1),
        ("step", 2),
        ("give_up", 2),
        ("step", 1),
        ("step", 2),
        ("give_up", 2),
        ("backtrack", 0),
    ]
    assert record.metrics is not None and record.metrics["success"] is False
    assert record.error is not None and record.error["category"] == GOAL_NOT_MET
    assert record.prediction["finish"] == {"return_type": "give_up_and_restart", "final_answer": ""}
    # deterministic: a second run plays and records the same
    other = runs[1][0]
    assert other.actions == record.actions and other.search == record.search
    assert [t["observation"] for t in other.turns] == [t["observation"] for t in record.turns]
    assert (other.metrics, other.prediction, other.error) == (
        record.metrics,
        record.prediction,
        record.error,
    )


def test_dfsdt_give_up_at_the_root_ends_the_search() -> None:
    env, infos = make_env()
    agent, _ = dfsdt(env, lambda prompt: toolbench_reply("Finish", GIVE_UP, "No idea."))
    record = run_dfsdt(env, agent, task_id="G1-000", width=2, max_depth=12)
    assert record.terminated and record.steps == 1 and record.reward == 0.0
    assert [i["code"] for i in infos] == [4]
    assert steps_of(record) == [("step", 1), ("give_up", 1)]


def test_dfsdt_on_an_unsolvable_task_tries_the_api_that_is_down_and_gives_up() -> None:
    env, infos = make_env()
    task = task_of(env, "G1-u00")
    down = task.meta["down_function"]

    def script(prompt: Prompt) -> str:
        if observations(user_text(prompt)):
            return toolbench_reply("Finish", GIVE_UP, "The API does not work; I give up.")
        return toolbench_reply(down, {}, "List them first.")

    agent, _ = dfsdt(env, script)
    record = run_dfsdt(env, agent, task_id="G1-u00", width=2, max_depth=12)
    assert record.reward == 1.0 and record.terminated and record.error is None
    assert infos[0]["code"] == 6 and infos[1]["code"] == 4
    assert json.loads(record.turns[0]["observation"]) == {
        "error": "API not working error...",
        "response": "",
    }
    assert record.metrics is not None and record.metrics["success"] is True
    assert record.metrics["group"] == "G1 unsolvable"


def test_dfsdt_reward_is_the_outcome_of_the_first_give_up() -> None:
    env, _ = make_env()
    task = task_of(env, "G1-u00")
    down = task.meta["down_function"]

    def script(prompt: Prompt) -> str:
        text = user_text(prompt)
        if observations(text):
            return toolbench_reply("Finish", GIVE_UP, "I give up.")
        if "already tried" in text:  # the second branch tries the API that is down
            return toolbench_reply(down, {}, "List them.")
        return toolbench_reply("retrieve_apis", {"query": "chemical elements"}, "Look around.")

    agent, _ = dfsdt(env, script)
    record = run_dfsdt(env, agent, task_id="G1-u00", width=2, max_depth=12)
    # the outcome is the first give-up, which never tried the API that is down
    assert record.metrics is not None and record.metrics["success"] is False
    assert record.reward == 0.0
