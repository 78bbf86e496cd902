"""The task suites: every entry of a group's categories, one task each, under BFCL's ids.

A task's setup is the entry as a model meets it (``category``, ``language``, ``functions``,
``messages``); its ``meta`` holds the ``category`` and the possible answer
(``ground_truth``), which the checker scores against. The gold is the possible answer with each
parameter at its first accepted value (:func:`.answers.gold_calls`), a call of the first
function for ``live_relevance``, and ``[]`` (no call) for the irrelevance categories. An entry
that no answer passes (its possible answer contradicts its doc, or accepts nothing for a
required parameter; BFCL's checker fails every answer to it too) is kept, so that counts and
accuracies stay BFCL's, and marked ``meta["unanswerable"]`` with the check that fails.

Tasks from a task file or given at reset are BFCL tasks once :func:`prepare` has made them so:
one with only a prompt and a gold gets functions and a possible answer derived from its gold
calls (each value accepted exactly; a gold in words makes an irrelevance task).

The entries come from the installed ``bfcl-eval`` (:mod:`.data`); there is no ``train`` split
(BFCL's single-turn questions cannot be generated) and no ``demo`` split.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toolgym.benchmarks.score import Checker
from toolgym.benchmarks.suite import TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.families.bfcl import data
from toolgym.families.bfcl.answers import Call, any_call, gold_calls, gold_text, read_answer
from toolgym.families.bfcl.scoring import BfclVerdict, entry_verdict
from toolgym.tools.errors import ToolCallError

GROUPS: dict[str, tuple[str, ...]] = {
    "simple": ("simple_python", "simple_java", "simple_javascript"),
    "multiple": ("multiple",),
    "parallel": ("parallel",),
    "parallel_multiple": ("parallel_multiple",),
    "irrelevance": ("irrelevance",),
    "live": (
        "live_simple",
        "live_multiple",
        "live_parallel",
        "live_parallel_multiple",
        "live_irrelevance",
        "live_relevance",
    ),
}
"""The single-turn categories of each env, in BFCL's order."""

_CHECKER = BfclVerdict()


NO_CALL = "[]"
"""The gold reply of an irrelevance entry: no call (BFCL reads an empty list as none)."""


def instruction_of(messages: Sequence[Mapping[str, Any]]) -> str:
    """What the user asks: the user messages of the turn, joined."""
    said = [str(m.get("content", "")) for m in messages if m.get("role") == "user"]
    return "\n".join(said).strip() or "(no request)"


def entry_task(entry: Mapping[str, Any], category: str) -> Task:
    """The task of one single-turn entry (see the module docstring)."""
    language = data.language_of(category)
    functions = entry["function"]
    messages = entry["question"][0]
    possible = data.answers(category).get(entry["id"])
    if category in data.IRRELEVANCE:
        gold = NO_CALL
    elif category in data.RELEVANCE:
        gold = gold_text(any_call(functions, language), language)
    else:
        gold = gold_text(gold_calls(possible or [], functions, language), language)
    setup = {
        "category": category,
        "language": language,
        "functions": functions,
        "messages": messages,
    }
    meta: dict[str, Any] = {"category": category, "ground_truth": possible}
    task = Task(entry["id"], instruction_of(messages), (gold,), meta, setup=setup)
    verdict = entry_verdict(task, _read(gold, language))
    if not verdict.valid:
        meta["unanswerable"] = f"{verdict.error_type}: {verdict.message}"
    return task


def _read(text: str, language: str = "python") -> list[Call] | None:
    try:
        return read_answer(text, language=language)
    except ToolCallError:
        return None


@functools.cache
def group_tasks(group: str) -> tuple[Task, ...]:
    """Every task of a group, category by category, in file order."""
    return tuple(entry_task(e, c) for c in GROUPS[group] for e in data.entries(c))


# -- tasks from files and given at reset -----------------------------------------------------------

_GORILLA = {
    bool: "boolean",
    int: "integer",
    float: "float",
    str: "string",
    list: "array",
    dict: "dict",
}


def _gorilla_type(value: Any) -> dict[str, Any]:
    kind = _GORILLA.get(type(value), "string")
    out: dict[str, Any] = {"type": kind, "description": ""}
    if kind == "array":
        out["items"] = {"type": _GORILLA.get(type(value[0]), "string") if value else "string"}
    return out


def derived_entry(calls: Sequence[Call]) -> tuple[list[dict[str, Any]], list[Call]]:
    """Function docs and a possible answer read off gold calls (every value accepted exactly)."""
    docs: dict[str, dict[str, Any]] = {}
    possible: list[Call] = []
    for call in calls:
        ((name, arguments),) = call.items()
        doc = docs.setdefault(
            name,
            {
                "name": name,
                "description": "",
                "parameters": {"type": "dict", "properties": {}, "required": []},
            },
        )
        parameters = doc["parameters"]
        for param, value in arguments.items():
            parameters["properties"].setdefault(param, _gorilla_type(value))
            if param not in parameters["required"]:
                parameters["required"].append(param)
        possible.append({name: {param: [value] for param, value in arguments.items()}})
    return list(docs.values()), possible


def prepare(task: Task) -> Task:
    """A task of a file or given at reset made a BFCL task (see the module docstring)."""
    setup = dict(task.setup or {})
    meta = dict(task.meta)
    if "functions" in setup and "category" in setup:
        category = str(setup["category"])
        if category in data.IRRELEVANCE + data.RELEVANCE or "ground_truth" in meta:
            return (
                task
                if "category" in meta
                else dataclasses.replace(task, meta={**meta, "category": category})
            )
    calls = _read(task.gold[0]) if task.gold else None
    if not calls:
        functions = list(setup.get("functions", ()))
        category = str(setup.get("category", "irrelevance"))
        possible: list[Call] | None = None
    else:
        derived, possible = derived_entry(calls)
        functions = list(setup.get("functions", derived))
        category = str(setup.get("category", "parallel" if len(calls) > 1 else "simple_python"))
    setup = {
        "category": category,
        "language": data.language_of(category),
        "functions": functions,
        "messages": list(setup.get("messages", [{"role": "user", "content": task.instruction}])),
    }
    meta = {**meta, "category": category, "ground_truth": meta.get("ground_truth", possible)}
    return dataclasses.replace(task, setup=setup, meta=meta)


def bfcl_suite(
    family: str,
    tasks: Callable[[], Sequence[Task]],
    checker: Checker,
    train_task: Callable[[int, int], Task] | None = None,
    prepare: Callable[[Task], Task] | None = None,
) -> TaskSuite:
    """A suite of BFCL's entries: one ``test`` split of ``tasks()``, each scored by ``checker``.

    Args:
        family: the family's name.
        tasks: the entries' tasks, in BFCL's order.
        checker: the verdict that scores every task.
        train_task: generated training tasks, where the family has them.
        prepare: what makes a task of a file or given at reset the family's own.
    """
    return TaskSuite(
        family=family,
        version=0,
        splits=("test",),
        generate_split=functools.partial(_test_split, tasks),
        train_task=train_task,
        checker_for=functools.partial(_the_checker, checker),
        prepare=prepare,
    )


def _test_split(tasks: Callable[[], Sequence[Task]], name: str) -> list[Task]:
    if name != "test":
        raise ValueError(f"BFCL's splits are 'test'; got {name!r}")
    return list(tasks())


def _the_checker(checker: Checker, task: Task) -> Checker:
    return checker


def _suite(group: str) -> TaskSuite:
    return bfcl_suite(
        f"bfcl_{group}", functools.partial(group_tasks, group), _CHECKER, prepare=prepare
    )


SIMPLE = _suite("simple")
MULTIPLE = _suite("multiple")
PARALLEL = _suite("parallel")
PARALLEL_MULTIPLE = _suite("parallel_multiple")
IRRELEVANCE = _suite("irrelevance")
LIVE = _suite("live")
