"""Generating RapidAPI tasks with gold call graphs: G1, G2 and G3, solvable and not.

A task is planned over the library of its world:

* **G1** uses one tool; **G2** two or three tools of one category; **G3** two or three tools of
  one collection (from at least two categories when the collection has them).
* Each tool gets a chain of one or two calls. A two-call chain is nested: a list or search API
  first, then an API that takes the ``<entity>_id`` of the first result. In G2 and G3 a later
  step may also take a value an earlier step returned (a ``city``, a ``symbol``) instead of one
  the instruction gives.
* Every call runs on the world's service while the task is built, so the gold holds the real
  values (the ids it passes on, the facts it reports), and the task states which fields to
  report: their values are the task's ``key_values``.
* The task offers every API of its tools, the APIs of one distractor tool of the same category
  or collection, ``retrieve_apis`` and ``Finish``.
* An **unsolvable** variant marks one API of the gold as down (``setup["down"]``): it answers
  ``API not working error...``, and the gold tries it and gives up.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from toolgym.benchmarks.tasks import Task
from toolgym.families.rapid_api.checker import is_id
from toolgym.families.rapid_api.functions import FINISH, GIVE_ANSWER, GIVE_UP, RETRIEVE, ApiTool
from toolgym.families.rapid_api.tasks.phrasing import answer, first_sentence, instruction, step_text
from toolgym.simulators.seeding import stable_rng
from toolgym.simulators.tool_library.canonical import coerce_for_kind
from toolgym.simulators.tool_library.model import ApiDoc, ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.values import sample_argument
from toolgym.tools.tool import ToolSet

GROUPS = ("G1", "G2", "G3")
_NAME_KEYS = ("name", "title", "full_name", "display_name", "model", "label", "headline")
_SKIP_KEYS = ("url", "link", "image", "href", "thumbnail", "avatar", "logo", "icon")


class PlanError(Exception):
    """A draw that cannot make a task (another draw is tried)."""


@dataclass
class Step:
    """One planned call and what the instruction says about it."""

    fn: ApiTool
    tool: ToolDoc
    arguments: dict[str, Any]
    stated: list[tuple[str, Any]]
    response: Any = None
    report: list[tuple[str, Any]] = field(default_factory=list)
    of_first: bool = False
    after: str | None = None


def focus(response: Any) -> tuple[dict[str, Any] | None, bool]:
    """The object a step reports on: the first item of the response's list, or the response."""
    if isinstance(response, list):
        first = response[0] if response else None
        return (first, True) if isinstance(first, dict) else (None, False)
    if not isinstance(response, dict):
        return None, False
    for value in response.values():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            return value[0], True
    return response, False


def _scalars(obj: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        (k, v)
        for k, v in obj.items()
        if isinstance(v, str | int | float) and not isinstance(v, bool) and str(v).strip()
    ]


def pick_report(
    obj: dict[str, Any], used: Sequence[Any], rng: np.random.Generator, count: int
) -> list[tuple[str, Any]]:
    """Up to ``count`` fields worth reporting: a name first, never ids, links or long texts."""
    shown = {json.dumps(v) for v in used}
    pool = [
        (k, v)
        for k, v in _scalars(obj)
        if not is_id(k)
        and not any(s in k.lower() for s in _SKIP_KEYS)
        and len(str(v)) <= 60
        and json.dumps(v) not in shown
    ]
    if not pool:
        return []
    names = [kv for kv in pool if kv[0].lower() in _NAME_KEYS]
    chosen = names[:1]
    rest = [kv for kv in pool if kv not in chosen]
    while rest and len(chosen) < count:
        chosen.append(rest.pop(int(rng.integers(len(rest)))))
    return chosen


class Planner:
    """Plans tasks over a world (see the module docstring).

    Args:
        library: the world's library.
        functions: its functions.
        call: ``(function, arguments) -> (error text, response)`` on the world's service.
    """

    def __init__(
        self,
        library: ToolLibrary,
        functions: ToolSet,
        call: Callable[[ApiTool, dict[str, Any]], tuple[str, Any]],
    ) -> None:
        self.library = library
        self.call = call
        self.by_api: dict[tuple[str, str], ApiTool] = {
            (t.tool_name, t.api_name): t for t in functions if isinstance(t, ApiTool)
        }

    def fn(self, tool: ToolDoc, api: ApiDoc) -> ApiTool:
        """The function of ``api``."""
        return self.by_api[(tool.standard_name, api.name)]

    # -- calls -----------------------------------------------------------------------------------
    def _arguments(
        self,
        fn: ApiTool,
        rng: np.random.Generator,
        key: tuple[Any, ...],
        given: dict[str, Any],
    ) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
        arguments: dict[str, Any] = {}
        stated: list[tuple[str, Any]] = []
        for k, (param, doc) in enumerate(zip(fn.params, fn.docs, strict=True)):
            if param.name in given:
                arguments[param.name] = given[param.name]
                continue
            if not param.required and (is_id(param.name) or rng.random() > 0.25):
                continue
            if is_id(param.name):
                raise PlanError(f"{fn.name} needs an id nobody gave")
            if doc.enum or doc.default in (None, "") or rng.random() < 0.3:
                value = sample_argument(doc, (*key, k))
            else:  # the documented example, in the form the API expects
                value = coerce_for_kind(doc.default, doc.kind)
            arguments[param.name] = value
            stated.append((param.name, value))
        return arguments, stated

    def _run(self, step: Step) -> Step:
        error, response = self.call(step.fn, step.arguments)
        if error:
            raise PlanError(f"{step.fn.name} answered {error[:80]!r}")
        step.response = response
        return step

    def chain(
        self,
        tool: ToolDoc,
        rng: np.random.Generator,
        key: tuple[Any, ...],
        earlier: Sequence[Step],
        nested: bool,
    ) -> list[Step]:
        """One or two steps with ``tool``; nested (list, then details of the first) if asked."""
        simple = [a for a in tool.apis if not any(is_id(p.name) for p in a.required)]
        if not simple:
            raise PlanError(f"{tool.standard_name} has no API callable without an id")
        if nested:
            consumers = [(a, p.name) for a in tool.apis for p in a.required if is_id(p.name)]
            order: np.ndarray | list[int] = rng.permutation(len(consumers)) if consumers else []
            for i in order:
                api, id_name = consumers[int(i)]
                if sum(is_id(p.name) for p in api.required) != 1:
                    continue
                producers = [a for a in simple if id_name in json.dumps(a.template)]
                if not producers:
                    continue
                producer = producers[int(rng.integers(len(producers)))]
                first = self._simple(tool, producer, rng, (*key, "p"), earlier)
                obj, of_first = focus(first.response)
                if obj is None or obj.get(id_name) in (None, ""):
                    continue
                fn = self.fn(tool, api)
                param = next(
                    p.name for p, d in zip(fn.params, fn.docs, strict=True) if d.name == id_name
                )
                arguments, stated = self._arguments(fn, rng, (*key, "c"), {param: obj[id_name]})
                where = "for the first result" if of_first else "for that result"
                second = self._run(Step(fn, tool, arguments, stated, after=where))
                return [first, second]
        api = simple[int(rng.integers(len(simple)))]
        return [self._simple(tool, api, rng, key, earlier)]

    def _simple(
        self,
        tool: ToolDoc,
        api: ApiDoc,
        rng: np.random.Generator,
        key: tuple[Any, ...],
        earlier: Sequence[Step],
    ) -> Step:
        fn = self.fn(tool, api)
        given: dict[str, Any] = {}
        after = None
        for param, doc in zip(fn.params, fn.docs, strict=True):
            if not param.required or is_id(param.name) or rng.random() > 0.5:
                continue
            for step in reversed(earlier):
                obj, of_first = focus(step.response)
                value = None if obj is None else obj.get(doc.name)
                if isinstance(value, str | int | float) and not isinstance(value, bool):
                    given[param.name] = value
                    where = "of the first result" if of_first else "it returned"
                    after = f"using the {doc.name.replace('_', ' ')} {where}"
                    break
            if given:
                break
        arguments, stated = self._arguments(fn, rng, key, given)
        return self._run(Step(fn, tool, arguments, stated, after=after))

    # -- tasks -----------------------------------------------------------------------------------
    def tools_for(self, group: str, rng: np.random.Generator) -> tuple[list[ToolDoc], ToolDoc]:
        """The task's tools and a distractor tool."""
        tools = self.library.tools
        if group == "G1":
            tool = tools[int(rng.integers(len(tools)))]
            pool = [t for t in self.library.categories[tool.category] if t is not tool]
            chosen = [tool]
        elif group == "G2":
            categories = [c for c, ts in self.library.categories.items() if len(ts) >= 4]
            category = categories[int(rng.integers(len(categories)))]
            members = list(self.library.categories[category])
            picks = rng.permutation(len(members))[: 2 + int(rng.integers(2)) + 1]
            chosen = [members[int(i)] for i in picks[:-1]]
            pool = [members[int(picks[-1])]]
        else:
            names = [c for c, ts in self.library.collections.items() if len(ts) >= 4]
            name = names[int(rng.integers(len(names)))]
            members = list(self.library.collections[name])
            order = [members[int(i)] for i in rng.permutation(len(members))]
            first = order[0]
            other = [t for t in order[1:] if t.category != first.category] or order[1:]
            size = 1 + int(rng.integers(2))
            chosen = [first, *other[:size]]
            pool = [t for t in order if t not in chosen]
        if not pool:
            raise PlanError("no distractor tool")
        return chosen, pool[int(rng.integers(len(pool)))]

    def plan(self, group: str, rng: np.random.Generator, key: tuple[Any, ...]) -> list[Step]:
        """The steps of a task of ``group``, with their responses and reported fields."""
        chosen, distractor = self.tools_for(group, rng)
        steps: list[Step] = []
        for k, tool in enumerate(chosen):
            nested = rng.random() < (0.5 if group == "G1" else 0.35)
            steps += self.chain(tool, rng, (*key, k), steps, nested)
        for k, step in enumerate(steps):
            last_of_chain = k + 1 == len(steps) or steps[k + 1].tool is not step.tool
            if not last_of_chain:
                continue
            obj, of_first = focus(step.response)
            if obj is None:
                continue
            used = [v for _, v in step.stated] + list(step.arguments.values())
            step.report = pick_report(obj, used, rng, 1 + int(rng.integers(2)))
            step.of_first = of_first
        if not any(s.report for s in steps):
            raise PlanError("nothing to report")
        self.distractor = distractor
        self.chosen = chosen
        return steps


def _step_phrase(step: Step, name_tool: bool) -> str:
    return step_text(
        first_sentence(step.fn.api_description or step.fn.api_name),
        step.stated,
        [k for k, _ in step.report],
        tool=step.tool.name if name_tool else None,
        after=step.after,
        of_first=step.of_first,
    )


def build_task(
    planner: Planner,
    task_id: str,
    group: str,
    key: tuple[Any, ...],
    *,
    solvable: bool = True,
    attempts: int = 40,
) -> Task:
    """A task of ``group`` drawn from ``key`` (the first draw that plans)."""
    for attempt in range(attempts):
        rng = stable_rng("rapid-task", *key, attempt)
        try:
            steps = planner.plan(group, rng, (*key, attempt))
        except PlanError:
            continue
        return _task(planner, task_id, group, steps, rng, solvable)
    raise RuntimeError(f"no {group} task could be planned for {key} in {attempts} draws")


def _task(
    planner: Planner,
    task_id: str,
    group: str,
    steps: list[Step],
    rng: np.random.Generator,
    solvable: bool,
) -> Task:
    name_tool = group != "G1" or rng.random() < 0.5
    phrases = []
    seen_tools: set[str] = set()
    for step in steps:
        named = name_tool and step.tool.standard_name not in seen_tools
        seen_tools.add(step.tool.standard_name)
        phrases.append(_step_phrase(step, named))
    text = instruction(phrases, rng)
    facts = []
    for step in steps:
        what = step.fn.api_name + (" (first result)" if step.of_first else "")
        facts += [(what, k, v) for k, v in step.report]
    calls = [{"name": s.fn.name, "arguments": s.arguments} for s in steps]
    functions = sorted(
        {planner.fn(t, a).name for t in (*planner.chosen, planner.distractor) for a in t.apis}
        | {FINISH, RETRIEVE}
    )
    relevant = [[s.tool.standard_name, s.fn.api_name] for s in steps]
    meta: dict[str, Any] = {"group": group, "solvable": solvable, "relevant": relevant}
    setup: dict[str, Any] = {"functions": functions}
    if solvable:
        final = {"return_type": GIVE_ANSWER, "final_answer": answer(facts)}
        meta["key_values"] = [json.dumps(v) if not isinstance(v, str) else v for _, _, v in facts]
    else:
        down = steps[int(rng.integers(len(steps)))]
        calls = calls[: steps.index(down) + 1]
        final = {"return_type": GIVE_UP, "final_answer": ""}
        setup["down"] = [[down.tool.standard_name, down.fn.api_name]]
        meta["down_function"] = down.fn.name
    calls.append({"name": FINISH, "arguments": final})
    gold = json.dumps(calls, ensure_ascii=False)
    return Task(task_id, text, (gold,), meta, tuple(functions), setup)
