"""The multi-turn task suite: every entry of BFCL's multi-turn categories, and its verdict.

A task is one entry under BFCL's id (``multi_turn_base_0``). Its setup is the entry as the model
meets it (``category``, ``involved_classes``, ``initial_config``, the ``functions`` shown at
first, the ``missed_function`` docs by turn, the user's ``turns``); its ``meta`` holds the
category and BFCL's possible answer (``ground_truth``: per turn, its calls). Its gold is that
answer with positional arguments named (:meth:`.multi_turn.Backends.keyword_text`), as a JSON
list of turns, so that a model's reply written like it is read as BFCL reads it.

A task from a file or given at reset with only a request and a gold (a JSON list of turns of
calls) becomes an entry of one turn: the request, the classes whose methods the gold calls in
their default state, all their functions, and the gold's calls as the possible answer.

:class:`MultiTurnVerdict` scores an episode with BFCL's verdict (:func:`.multi_turn_verdict`).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import json
from collections.abc import Sequence
from typing import Any

from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.families.bfcl import data
from toolgym.families.bfcl.checker import Verdict
from toolgym.families.bfcl.multi_turn import (
    CLASSES,
    MULTI_TURN,
    Backends,
    is_long_context,
    multi_turn_verdict,
)
from toolgym.families.bfcl.tasks import bfcl_suite
from toolgym.families.bfcl.turn_language import gold_turns
from toolgym.families.bfcl.turn_train import train_task
from toolgym.families.bfcl.turns import NO_REQUEST, user_text
from toolgym.tools.backend import Attempt
from toolgym.tools.errors import GOAL_NOT_MET


@functools.cache
def _methods(classes: tuple[str, ...]) -> Backends:
    """Backends of ``classes`` in their default state (for their methods' signatures)."""
    return Backends({"involved_classes": list(classes), "initial_config": {}})


def entry_task(entry: dict[str, Any], category: str) -> Task:
    """The task of one multi-turn entry (see the module docstring)."""
    backends = _methods(tuple(entry["involved_classes"]))
    gold = [[backends.keyword_text(call) for call in turn] for turn in entry["ground_truth"]]
    setup = {
        "category": category,
        "involved_classes": list(entry["involved_classes"]),
        "initial_config": entry.get("initial_config") or {},
        "functions": entry["function"],
        "missed_function": entry.get("missed_function") or {},
        "turns": entry["question"],
    }
    meta = {"category": category, "ground_truth": entry["ground_truth"]}
    instruction = user_text(entry["question"][0]) or NO_REQUEST
    return Task(entry["id"], instruction, (json.dumps(gold),), meta, setup=setup)


@functools.cache
def all_tasks() -> tuple[Task, ...]:
    """Every multi-turn task, category by category, in file order."""
    return tuple(entry_task(e, c) for c in MULTI_TURN for e in data.multi_turn_entries(c))


def _classes_calling(names: Sequence[str]) -> list[str]:
    """The classes whose methods ``names`` are, in :data:`CLASSES` order.

    Raises:
        TaskFileError: a name no class has.
    """
    found: list[str] = []
    for name in names:
        owner = next(
            (c for c in CLASSES if name in dict(inspect.getmembers(_class(c), inspect.isfunction))),
            None,
        )
        if owner is None or name.startswith("_"):
            raise TaskFileError(f"no BFCL multi-turn class has a method {name!r}")
        if owner not in found:
            found.append(owner)
    return [c for c in CLASSES if c in found]


def _class(name: str) -> type:
    found: type = getattr(importlib.import_module(CLASSES[name]), name)
    return found


def prepare(task: Task) -> Task:
    """A task of a file or given at reset made a multi-turn task (see the module docstring).

    Raises:
        TaskFileError: a gold that is not a list of turns of calls of the classes' methods.
    """
    if task.setup and "involved_classes" in task.setup:
        if "category" in task.meta and "ground_truth" in task.meta:
            return task
        category = str(task.setup.get("category", "multi_turn_base"))
        truth = gold_turns(task.gold[0]) if task.gold else []
        meta = {"category": category, "ground_truth": truth, **task.meta}
        return dataclasses.replace(task, meta=meta)
    turns = gold_turns(task.gold[0]) if task.gold else []
    if not turns:
        raise TaskFileError(
            "a BFCL multi-turn task's gold is a JSON list of turns of calls, such as "
            '[["cd(folder=\'docs\')", "ls()"]]'
        )
    calls = [call for turn in turns for call in turn]
    classes = _classes_calling([call.split("(", 1)[0].strip() for call in calls])
    setup = {
        "category": "multi_turn_base",
        "involved_classes": classes,
        "initial_config": {},
        "functions": [doc for c in classes for doc in data.class_docs(c)],
        "missed_function": {},
        "turns": [[{"role": "user", "content": task.instruction}]],
    }
    meta = {**task.meta, "category": "multi_turn_base", "ground_truth": [calls]}
    return dataclasses.replace(task, gold=(json.dumps([calls]),), setup=setup, meta=meta)


class MultiTurnVerdict(Checker):
    """BFCL's verdict on a conversation: its state and response checks at each turn."""

    runs_gold = False
    accepts_others = True  # any calls that leave the same state and results pass

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """1 when BFCL's multi-turn checker passes the answer, else 0."""
        setup = task.setup or {}
        category = str(setup.get("category", "multi_turn_base"))
        answer = attempt.outcome
        if attempt.error is not None or not isinstance(answer, list):
            verdict = Verdict(False, "multi_turn:force_terminated", "the episode made no answer")
        else:
            try:
                verdict = multi_turn_verdict(
                    setup, answer, task.meta.get("ground_truth", []), is_long_context(category)
                )
            except Exception as e:  # a backend that fails on the answer: not a pass
                verdict = Verdict(False, "multi_turn:raised", f"{type(e).__name__}: {e}")
        metrics: dict[str, Any] = {"category": category, "error_type": verdict.error_type}
        if verdict.valid:
            return Score(1.0, True, True, metrics, None, answer)
        error = {
            "category": GOAL_NOT_MET,
            "message": f"{verdict.error_type}: {verdict.message}",
        }
        return Score(0.0, False, True, metrics, error, answer)


MULTI_TURN_SUITE = bfcl_suite(
    "bfcl_multi_turn", all_tasks, MultiTurnVerdict(), train_task=train_task, prepare=prepare
)
"""BFCL's multi-turn categories (base, miss_func, miss_param, long_context), and generated
conversations for training (:mod:`.turn_train`)."""
