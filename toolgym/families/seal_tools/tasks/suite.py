"""The Seal-Tools task suite: the code the package :mod:`toolgym.families.seal_tools.tasks` describes."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolgym.benchmarks.score import Checker
from toolgym.benchmarks.suite import FixedSplits, TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.families.seal_tools.calls import calling_text
from toolgym.families.seal_tools.checker import KINDS, CallingListCheck, gold_calls, kind_of
from toolgym.families.seal_tools.world import SealTool, load_seal_instances, load_seal_tools
from toolgym.simulators.seeding import stable_rng
from toolgym.simulators.tool_library.retriever import ApiRetriever

DATA_DIR = str(Path(__file__).resolve().parents[1] / "data")
"""The family's stored splits."""

FAMILY = "seal_tools"
VERSION = 0
SPLITS = {"test": 200, "demo": 20}
"""The fixed splits and their sizes per kind."""


def _splits() -> dict[str, tuple[Task, ...]]:
    from toolgym.families.seal_tools.tasks.generation import make_task  # the generator, when needed

    out: dict[str, tuple[Task, ...]] = {}
    seen: set[str] = set()
    for split, per_kind in SPLITS.items():
        tasks: list[Task] = []
        n = 0
        while len(tasks) < per_kind * len(KINDS):
            kind = KINDS[len(tasks) % len(KINDS)]
            parts = (FAMILY, VERSION, split, n)
            task = make_task(f"{split}-{len(tasks):03d}", kind, 0, stable_rng(*parts), parts)
            n += 1
            if task.instruction not in seen:
                seen.add(task.instruction)
                tasks.append(task)
        out[split] = tuple(tasks)
    return out


_FIXED = FixedSplits("Seal-Tools", _splits)


def generate_split(split: str) -> list[Task]:
    """The tasks of a fixed split."""
    return _FIXED.tasks(split)


def train_task(k: int, world_seed: int = 0) -> Task:
    """Task ``train-<k>``: of kind ``KINDS[k % 3]``, in the world of ``world_seed``."""
    from toolgym.families.seal_tools.tasks.generation import make_task  # the generator, when needed

    kind = KINDS[k % len(KINDS)]

    def draw(attempt: int) -> Task:
        parts = (FAMILY, "train", k, world_seed, attempt)
        return make_task(f"train-{k}", kind, world_seed, stable_rng(*parts), parts)

    return _FIXED.unseen(draw)


_CHECKER = CallingListCheck()


def checker_for(task: Task) -> Checker:
    """Every Seal-Tools task is scored the same way."""
    return _CHECKER


def setup_for(task: Task) -> Mapping[str, Any]:
    """The offered tools: the task's ``tools``, else the APIs its gold calls (in call order)."""
    if task.tools is not None:
        return {"api_list": list(task.tools)}
    calls = gold_calls(task.gold[0]) if task.gold else None
    apis = [c.get("api") for c in calls or () if isinstance(c, dict)]
    return {"api_list": list(dict.fromkeys(a for a in apis if isinstance(a, str)))}


SUITE = TaskSuite(
    FAMILY,
    VERSION,
    ("test", "demo"),
    generate_split,
    train_task,
    checker_for,
    setup_for=setup_for,
    data_dir=DATA_DIR,
)


OFFERS = ("retrieved", "gold")
"""How :func:`load_instance_tasks` picks the offered tools."""


def _retriever(tools: Mapping[str, SealTool]) -> tuple[ApiRetriever, list[str]]:
    names = list(tools)
    documents = [
        f"{t.api_name} {t.field.replace('/', ' ')} {t.api_description}" for t in tools.values()
    ]
    return ApiRetriever(documents), names


def retrieve_tools(
    tools: Mapping[str, SealTool], query: str, top_k: int = 5, *, index: Any = None
) -> tuple[str, ...]:
    """The ``top_k`` tools that best match ``query``: BM25 over name, field and description.

    When fewer than ``top_k`` tools share a word with the query, the rest are tools of the best
    hit's field, then the others, in the file's order.

    Args:
        tools: the tools, by name.
        query: the user's query.
        top_k: how many.
        index: a ``(retriever, names)`` pair built once for ``tools`` (built here when ``None``).
    """
    retriever, names = index if index is not None else _retriever(tools)
    found = [names[i] for i in retriever.search(query, top_k)]
    if len(found) < top_k:  # few words matched: the best hit's field, then the file's order
        field = tools[found[0]].field if found else None
        rest = [n for n in names if n not in found]
        rest.sort(key=lambda n: tools[n].field != field)
        found += rest[: top_k - len(found)]
    return tuple(found)


def load_instance_tasks(
    tool_file: str | os.PathLike[str],
    instance_file: str | os.PathLike[str],
    *,
    offer: str = "retrieved",
    top_k: int = 5,
) -> list[Task]:
    """Seal-Tools instances as tasks, offering retrieved tools as the benchmark's prompts do.

    Each task's id is the instance's, its prompt the query, its gold the calling list as given
    and its ``kind`` the one its gold is (``single``, ``multiple`` or ``nested``). With
    ``offer="retrieved"`` (the default, as Seal-Tools' prompts: five retrieved tools, other
    tools among them) a task offers the ``top_k`` tools BM25 ranks first for its query over the
    whole tool file; gold tools the retrieval misses are not offered, as in the benchmark, and
    are listed in ``meta["retrieval_missed"]``. With ``offer="gold"`` it offers only the gold's
    tools, in call order (an easier tool choice). Play them in an env over the same tools:
    ``gym.make("toolbench/SealTools-v0", tool_file=tool_file)``, then
    ``env.reset(options={"task": task})``.

    Raises:
        TaskFileError: a file that cannot be read.
        ValueError: an unknown ``offer`` or a ``top_k`` below 1.
    """
    if offer not in OFFERS:
        raise ValueError(f"offer must be one of {OFFERS}; got {offer!r}")
    if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
        raise ValueError(f"top_k must be an int of at least 1; got {top_k!r}")
    try:
        tools = load_seal_tools(tool_file)
        instances = load_seal_instances(instance_file, tools)
    except OSError as e:
        raise TaskFileError(f"cannot read Seal-Tools files: {e}") from e
    index = _retriever(tools) if offer == "retrieved" else None
    tasks = []
    for instance in instances:
        calls = [call.to_json() for call in instance.calling]
        gold = tuple(dict.fromkeys(c["api"] for c in calls if c["api"] in tools))
        meta: dict[str, Any] = {"kind": kind_of(calls), **instance.extra}
        offered = gold
        if index is not None:
            offered = retrieve_tools(tools, instance.query, top_k, index=index)
            meta["retrieval_missed"] = [name for name in gold if name not in offered]
        task = Task(instance.id, instance.query.strip(), (calling_text(calls),), meta, offered)
        tasks.append(SUITE.bind(task))
    return tasks
