"""The VirtualHome task suite: the code the package :mod:`toolgym.families.virtual_home.tasks` describes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgym.benchmarks.score import Checker
from toolgym.benchmarks.suite import FixedSplits, TaskSuite
from toolgym.benchmarks.tasks import Task, TaskIssue
from toolgym.errors import TaskFileError
from toolgym.families.virtual_home.backend import household
from toolgym.families.virtual_home.checker import HouseholdCheck
from toolgym.families.virtual_home.tasks.activities import Activity, activity_keys, make_activity
from toolgym.families.virtual_home.world import (
    HOMES,
    ScriptError,
    parse_plan,
    presupposed_states,
    program_steps,
)
from toolgym.families.virtual_home.world.conditions import describe
from toolgym.simulators.seeding import stable_rng

DATA_DIR = str(Path(__file__).resolve().parents[1] / "data")
"""The family's stored splits."""

FAMILY = "virtual_home"
PAPER_COMPLEXITY = 12.3
"""The paper's API complexity score of the task (its Table 4), which
``toolgym complexity`` shows next to the score of the stored splits."""
VERSION = 0
SPLITS = {"test": 100, "demo": 83}
"""The fixed splits and their sizes (the paper's 100 tests and 83 demonstrations)."""


def _task(task_id: str, activity: Activity) -> Task:
    goal = "; ".join(describe(c) for c in activity.conditions)
    meta = {
        "description": f"{activity.title}: done when {goal}.",
        "conditions": activity.conditions,
        "activity": activity.key,
    }
    setup = {"home": activity.home, "states": activity.states}
    return Task(task_id, activity.title, activity.gold, meta, None, setup)


def _splits() -> dict[str, tuple[Task, ...]]:
    keys = activity_keys()
    order = stable_rng(FAMILY, VERSION, "order").permutation(len(keys))
    homes = [household(0, h) for h in range(HOMES)]
    made: list[Task] = []
    titles: set[str] = set()
    total = sum(SPLITS.values())
    for n, index in enumerate(order):
        template, fill = keys[int(index)]
        title = template.title(fill)
        if title in titles:
            continue
        for shift in range(HOMES):
            home = (n + shift) % HOMES
            activity = make_activity(template, fill, home, homes[home])
            if activity is not None:
                titles.add(title)
                made.append(_task("", activity))
                break
        if len(made) == total:
            break
    if len(made) < total:
        raise RuntimeError(f"only {len(made)} activities can be made; the splits need {total}")
    out: dict[str, tuple[Task, ...]] = {}
    start = 0
    for split, size in SPLITS.items():
        out[split] = tuple(
            Task(f"{split}-{k:03d}", t.instruction, t.gold, t.meta, None, t.setup)
            for k, t in enumerate(made[start : start + size])
        )
        start += size
    return out


_FIXED = FixedSplits("VirtualHome", _splits)


def generate_split(split: str) -> list[Task]:
    """The tasks of a fixed split."""
    return _FIXED.tasks(split)


def generate_task(k: int, world_seed: int, attempt: int) -> Task | None:
    """One activity in one home of ``world_seed``, drawn from ``(k, attempt)``.

    ``None`` when the draw cannot be done in that home.
    """
    keys = activity_keys()
    rng = stable_rng(FAMILY, "train", k, world_seed, attempt)
    template, fill = keys[int(rng.integers(len(keys)))]
    home = int(rng.integers(HOMES))
    activity = make_activity(template, fill, home, household(world_seed, home))
    return None if activity is None else _task(f"train-{k}", activity)


def train_task(k: int, world_seed: int = 0) -> Task:
    """Task ``train-<k>``: an activity that is not a test or demo activity, in a home of the world."""

    def draw(attempt: int) -> Task:
        while True:
            task = generate_task(k, world_seed, attempt)
            if task is not None:
                return task
            attempt += 10_000

    return _FIXED.unseen(draw)


def checker_for(task: Task) -> Checker:
    """Every household task is scored the same way."""
    return _CHECKER


_CHECKER = HouseholdCheck()


def setup_for(task: Task) -> Mapping[str, Any] | None:
    """Home 0, with the states the task's first gold presupposes (for tasks from files)."""
    try:
        steps = program_steps(task.gold[0])
    except ScriptError:
        return {"home": 0, "states": {}}
    return {"home": 0, "states": presupposed_states(steps)}


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


@dataclass
class PlanSet:
    """Plans read from a file: the tasks, and the plans that could not be read."""

    tasks: list[Task] = field(default_factory=list)
    issues: list[TaskIssue] = field(default_factory=list)


def load_plans(path: str | Path) -> PlanSet:
    """Language-planner plans as tasks (ids are positions in the file).

    Each plan's title is the prompt and its steps, as ``Agent`` lines, the gold; the setup is
    home 0 with the states the plan presupposes. A plan with a step that matches no template is
    skipped and reported (:attr:`PlanSet.issues`).

    Raises:
        TaskFileError: the file cannot be read or is not a JSON list of strings.
    """
    source = Path(path)
    try:
        plans = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise TaskFileError(f"cannot read plans from {source}: {e}") from e
    if not isinstance(plans, list):
        raise TaskFileError(f"{source} must hold a JSON list of plan strings")
    out = PlanSet()
    for k, text in enumerate(plans):
        try:
            if not isinstance(text, str):
                raise ScriptError(f"a plan is a string; got {type(text).__name__}")
            plan = parse_plan(text)
            if not plan.steps:
                raise ScriptError("the plan has no step")
        except ScriptError as e:
            out.issues.append(TaskIssue(str(source), k + 1, str(e)))
            continue
        setup = {"home": 0, "states": presupposed_states(plan.steps)}
        out.tasks.append(SUITE.bind(Task(k, plan.title, (plan.program(),), {}, None, setup)))
    return out
