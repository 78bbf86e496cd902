"""The memory task suite: BFCL's memory questions over its three backends, and its verdict.

A task is one question under BFCL's id (``memory_kv_0-customer-0``): the question, with BFCL's
system message asking for the final answer as ``{'answer': ..., 'context': ...}``, the memory
class's functions, the scenario, and the scenario's earlier conversations (``prereq``: their
ids and user turns) that the episode plays first (:mod:`.memory_turns`). Its meta holds the
possible answers (``ground_truth``) and the scenario; BFCL's agentic verdict
(:class:`.web_tasks.AgenticVerdict`) scores the final answer. The gold names the first possible
answer; played by the oracle, it is also the reply to every earlier turn (it makes no call, so
it ends each turn), and the memory is not used.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
from typing import Any

from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.families.bfcl import data
from toolgym.families.bfcl.tasks import bfcl_suite
from toolgym.families.bfcl.turns import NO_REQUEST, user_text
from toolgym.families.bfcl.web_tasks import AgenticVerdict, response_format


def entry_task(
    entry: dict[str, Any], category: str, prereq: list[dict[str, Any]] | None = None
) -> Task:
    """The task of one memory question (see the module docstring).

    ``prereq`` (``{"id", "turns"}`` each) stands in for the scenario's conversations; the
    memory is then the task's own, never shared through snapshots (``shared_memory``), which
    only BFCL's questions over the scenario's own conversations are.
    """
    scenario = str(entry["scenario"])
    shared = prereq is None
    if prereq is None:
        prereq = [
            {"id": p["id"], "turns": p["question"]} for p in data.memory_prereqs(category, scenario)
        ]
    turns = [[{"role": "system", "content": response_format()}, *entry["question"][0]]]
    setup = {
        "category": category,
        "scenario": scenario,
        "involved_classes": list(entry["involved_classes"]),
        "initial_config": {},
        "functions": entry["function"],
        "missed_function": {},
        "turns": turns,
        "prereq": prereq,
        "shared_memory": shared,
    }
    truth = list(entry["ground_truth"])
    meta = {"category": category, "scenario": scenario, "ground_truth": truth}
    gold = str({"answer": truth[0]})  # BFCL's format (its context is optional here)
    return Task(entry["id"], user_text(turns[0]) or NO_REQUEST, (gold,), meta, setup=setup)


@functools.cache
def all_tasks() -> tuple[Task, ...]:
    """Every memory task, category by category, in file order."""
    return tuple(entry_task(e, c) for c in data.MEMORY for e in data.memory_entries(c))


def answer_of(gold: str) -> str:
    """The answer a gold gives: its ``'answer'`` when it is BFCL's format, else its text.

    >>> answer_of("{'answer': 'Seattle', 'context': 'you said so'}"), answer_of(" Seattle ")
    ('Seattle', 'Seattle')
    """
    try:
        said = ast.literal_eval(gold.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return gold.strip()
    if isinstance(said, dict) and "answer" in said:
        return str(said["answer"])
    return gold.strip()


def prepare(task: Task) -> Task:
    """A task of a file or given at reset made a memory question.

    One with a setup is played as it is (its ``ground_truth`` from its gold when its meta has
    none), on a memory of its own (never a scenario's snapshot) unless its setup says
    ``"shared_memory": true``. One with only a request and a gold becomes a question of the key-value memory in the
    customer scenario, with no earlier conversation; the gold's answer is the possible answer.

    Raises:
        TaskFileError: a task without a gold.
    """
    if not task.gold:
        raise TaskFileError("a BFCL memory task has a gold: its answer")
    truth = task.meta.get("ground_truth") or [answer_of(task.gold[0])]
    if task.setup and "scenario" in task.setup:
        category = str(task.setup.get("category", "memory_kv"))
        return dataclasses.replace(
            task,
            meta={"category": category, **task.meta, "ground_truth": truth},
            # its own conversations, unless it says it is a question of BFCL's scenario's
            setup={"shared_memory": False, **task.setup},
        )
    category = "memory_kv"
    entry = {
        "scenario": "customer",
        "question": [[{"role": "user", "content": task.instruction}]],
        "involved_classes": [data.memory_class(category)],
        "function": list(data.class_docs(data.memory_class(category))),
        "ground_truth": truth,
    }
    made = entry_task(entry | {"id": task.task_id}, category, prereq=[])
    return dataclasses.replace(
        made, gold=task.gold, meta={**task.meta, **made.meta}, checker=task.checker
    )


@functools.cache
def longest_episode() -> int:
    """The most user turns of any memory episode (its conversations' and the question's)."""
    return 1 + max(
        sum(len(p["question"]) for p in data.memory_prereqs(data.MEMORY[0], scenario))
        for scenario in data.MEMORY_SCENARIOS
    )


def train_task(index: int, world_seed: int = 0) -> Task:
    """A generated memory question (:mod:`.memory_train`)."""
    from toolgym.families.bfcl.memory_train import train_task as generated

    return generated(index, world_seed)


MEMORY_SUITE = bfcl_suite(
    "bfcl_memory", all_tasks, AgenticVerdict(), train_task=train_task, prepare=prepare
)
"""BFCL's memory categories (kv, vector, rec_sum), and generated questions for training
(:mod:`.memory_train`)."""
