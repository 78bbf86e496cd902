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
from toolgym.families.seal_tools.world import load_seal_instances, load_seal_tools
from toolgym.simulators.seeding import stable_rng

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


def load_instance_tasks(
    tool_file: str | os.PathLike[str], instance_file: str | os.PathLike[str]
) -> list[Task]:
    """Seal-Tools instances as tasks that offer their gold tools (known ones, in call order).

    Each task's id is the instance's, its prompt the query, its gold the calling list as given
    and its ``kind`` the one its gold is (``single``, ``multiple`` or ``nested``). Play them in
    an env over the same tools: ``gym.make("toolbench/SealTools-v0", tool_file=tool_file)``,
    then ``env.reset(options={"task": task})``.

    Raises:
        TaskFileError: a file that cannot be read.
    """
    try:
        tools = load_seal_tools(tool_file)
        instances = load_seal_instances(instance_file, tools)
    except OSError as e:
        raise TaskFileError(f"cannot read Seal-Tools files: {e}") from e
    tasks = []
    for instance in instances:
        calls = [call.to_json() for call in instance.calling]
        offered = tuple(dict.fromkeys(c["api"] for c in calls if c["api"] in tools))
        meta = {"kind": kind_of(calls), **instance.extra}
        task = Task(instance.id, instance.query.strip(), (calling_text(calls),), meta, offered)
        tasks.append(SUITE.bind(task))
    return tasks
