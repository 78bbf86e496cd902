"""The RapidAPI tasks: G1, G2 and G3 instructions with gold call graphs, over the world's library.

Splits (world 0, the default 4,000-API library):

* ``test``: 200 solvable tasks per group and 40 labelled unsolvable variants per group (720);
* ``demo``: 20 solvable tasks and 5 unsolvable ones per group (75), for retrieved
  demonstrations;
* ``train``: unlimited, in any world: task ``train-<k>`` is of group ``G1``, ``G2``, ``G3`` for
  ``k % 3`` = 0, 1, 2, and unsolvable when ``k % 8 == 7``.

See :mod:`.generation` for how tasks are planned and :mod:`.checker` for how they are scored.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Any

from toolgym.benchmarks.suite import TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.families.rapid_api.checker import PassRate
from toolgym.families.rapid_api.functions import ApiTool
from toolgym.families.rapid_api.tasks.generation import GROUPS, Planner, build_task
from toolgym.families.rapid_api.tasks.queries import read_task_file
from toolgym.families.rapid_api.toolkit import DEFAULT_NUM_APIS, RapidApiToolkit

DATA_DIR = str(Path(__file__).resolve().parents[1] / "data")
"""The family's stored splits."""

FAMILY = "rapid_api"
TEST_PER_GROUP = 200
TEST_UNSOLVABLE_PER_GROUP = 40
DEMO_PER_GROUP = 20
DEMO_UNSOLVABLE_PER_GROUP = 5

__all__ = ["SUITE", "planner"]


@functools.lru_cache(maxsize=4)
def planner(world_seed: int = 0) -> Planner:
    """The task planner over the world's default library and service."""
    toolkit = RapidApiToolkit(world_seed, num_apis=DEFAULT_NUM_APIS)

    def call(fn: ApiTool, arguments: dict[str, Any]) -> tuple[str, Any]:
        reply = toolkit.service.call(
            fn.tool_name,
            fn.api_name,
            arguments,
            function_name=fn.name,
            param_names=fn.param_names,
        )
        problem = reply.problem.message if reply.problem is not None else ""
        return problem or str(reply.error or ""), reply.response

    return Planner(toolkit.library, toolkit.tools, call)


def _split(prefix: str, per_group: int, unsolvable: int, world_seed: int = 0) -> list[Task]:
    plan = planner(world_seed)
    tasks = []
    for group in GROUPS:
        for k in range(per_group):
            key: tuple[str | int, ...] = (prefix, group, k, world_seed)
            tasks.append(build_task(plan, f"{prefix}{group}-{k:03d}", group, key))
        for k in range(unsolvable):
            key = (prefix, group, "unsolvable", k, world_seed)
            task_id = f"{prefix}{group}-u{k:02d}"
            tasks.append(build_task(plan, task_id, group, key, solvable=False))
    return tasks


def generate_split(split: str) -> list[Task]:
    """The ``test`` or ``demo`` tasks of world 0."""
    if split == "test":
        return _split("", TEST_PER_GROUP, TEST_UNSOLVABLE_PER_GROUP)
    if split == "demo":
        return _split("demo-", DEMO_PER_GROUP, DEMO_UNSOLVABLE_PER_GROUP)
    raise ValueError(f"the RapidAPI splits are 'test' and 'demo'; got {split!r}")


def train_task(k: int, world_seed: int = 0) -> Task:
    """Task ``train-<k>`` in the world of ``world_seed``."""
    group = GROUPS[k % 3]
    key = ("train", k, world_seed)
    return build_task(planner(world_seed), f"train-{k}", group, key, solvable=k % 8 != 7)


CHECKER = PassRate("one_to_one")
CHECKER_V0 = PassRate("first")


def checker_for(task: Task) -> PassRate:
    """Every task is scored by :class:`PassRate` (one-to-one F1s)."""
    return CHECKER


def checker_for_v0(task: Task) -> PassRate:
    """v0 scores every task by :class:`PassRate` with Seal-Tools' first-match F1s."""
    return CHECKER_V0


def setup_for(task: Task) -> dict[str, Any] | None:
    """A task from a file offers its listed functions."""
    return None if task.tools is None else {"functions": list(task.tools)}


SUITE_V0 = TaskSuite(
    FAMILY,
    0,
    ("test", "demo"),
    generate_split,
    train_task,
    checker_for_v0,
    setup_for=setup_for,
    read_file=read_task_file,
    data_dir=DATA_DIR,
)
"""RapidAPI-v0's task suite (first-match F1s)."""
SUITE = dataclasses.replace(SUITE_V0, version=1, checker_for=checker_for, data_version=0)
"""The RapidAPI task suite (v1: v0's tasks, one-to-one F1s)."""
