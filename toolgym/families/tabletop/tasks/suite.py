"""The Tabletop task suite: the code the package :mod:`toolgym.families.tabletop.tasks` describes."""

from __future__ import annotations

import ast
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from toolgym.benchmarks.score import Checker
from toolgym.benchmarks.suite import FixedSplits, TaskSuite
from toolgym.benchmarks.tasks import Task, TaskSet
from toolgym.errors import TaskFileError
from toolgym.families.tabletop.checker import SceneCheck
from toolgym.families.tabletop.tasks.checks import check
from toolgym.families.tabletop.tasks.golds import gold_program
from toolgym.families.tabletop.tasks.templates import (
    BY_ID,
    DEMO_TEMPLATES,
    SEEN,
    TEMPLATES,
    Reject,
    Template,
)
from toolgym.families.tabletop.world.layouts import sample_setup
from toolgym.families.tabletop.world.scene import MAX_OBJECTS, SceneSetup, object_positions
from toolgym.families.tabletop.world.workspace import COLORS, TASK_COLORS
from toolgym.simulators.seeding import stable_rng

DATA_DIR = str(Path(__file__).resolve().parents[1] / "data")
"""The family's stored splits."""

FAMILY = "tabletop"
PAPER_COMPLEXITY = 4.6
"""The paper's API complexity score of the task (its Table 4), which
``toolgym complexity`` shows next to the score of the stored splits."""
SETUPS_PER_TEMPLATE = 7
DEMOS_PER_SEEN = 7
DEMOS_PER_EXTRA = 6
MAX_DRAWS = 200


def query(names: list[str], instruction: str) -> str:
    """The top-level query as Code as Policies writes it.

    >>> print(query(["red block", "blue bowl"], "Stack all the blocks"))
    objects = ['red block', 'blue bowl']
    # stack all the blocks.
    """
    text = instruction.strip().rstrip(".")
    return f"objects = {names!r}\n# {text[:1].lower()}{text[1:]}."


def _colors(rng: np.random.Generator, n: int) -> list[str]:
    return [str(c) for c in rng.permutation(TASK_COLORS)[:n]]


def _draw(template: Template, rng: np.random.Generator) -> tuple[SceneSetup, dict[str, Any]]:
    n_blocks = int(rng.integers(template.blocks[0], template.blocks[1] + 1))
    n_bowls = int(rng.integers(template.bowls[0], template.bowls[1] + 1))
    block_colors = _colors(rng, n_blocks)
    bowl_colors = (
        [str(c) for c in rng.permutation(block_colors)]
        if template.same_colors
        else _colors(rng, n_bowls)
    )
    blocks = [f"{c} block" for c in block_colors]
    bowls = [f"{c} bowl" for c in bowl_colors]
    variables = template.draw(rng, blocks, bowls)
    return sample_setup(rng, tuple(blocks), tuple(bowls)), variables


MIN_GAP = 0.1
"""The least distance between two objects of a task's scene (the layout rule's 15 cm may fail
after its 100 tries; closer than this, a block would spawn inside a bowl's wall)."""


def _crowded(setup: SceneSetup) -> bool:
    points = [p[:2] for p in (*setup.block_pos, *setup.bowl_pos)]
    return any(math.dist(a, b) < MIN_GAP for i, a in enumerate(points) for b in points[i + 1 :])


def make_task(
    template: Template,
    task_id: str,
    rng: np.random.Generator,
    configs_id: int,
    parsed: bool = False,
) -> Task:
    """A task of ``template`` in a scene drawn from ``rng`` whose gold passes its check.

    With ``parsed``, the gold reads the scene through the parsers where the template has such a
    gold (the demonstrations).
    """
    from toolgym.families.tabletop.toolkit import TabletopToolkit, starting_scene

    backend = TabletopToolkit().new_backend()
    for _ in range(MAX_DRAWS):
        setup, variables = _draw(template, rng)
        if _crowded(setup):
            continue
        scene = starting_scene(setup.to_config())
        try:
            if template.facts is not None:
                variables = template.facts(variables, object_positions(scene), True)
        except Reject:
            continue
        gold = gold_program(
            template.template_id, variables, list(setup.blocks), list(setup.bowls), parsed
        )
        backend.reset(None, setup.to_config())
        run = backend.run_code(gold)
        if run.error is not None:
            continue
        outcome = backend.outcome(backend.state)
        done, _ = check(template.template_id, outcome["positions"], variables, outcome["said"])
        if not done:
            continue
        instruction = template.instruction(variables)
        meta = {
            "template": template.template_id,
            "configs_id": configs_id,
            "instruction": instruction,
            "instruction_vars_dict": variables,
        }
        names = [*setup.blocks, *setup.bowls]
        return Task(task_id, query(names, instruction), (gold,), meta, None, setup.to_config())
    raise RuntimeError(f"no clear {template.template_id} task in {MAX_DRAWS} draws")


def _build() -> dict[str, list[Task]]:
    tests = [
        make_task(
            t,
            f"test-{i * SETUPS_PER_TEMPLATE + k:03d}",
            stable_rng(FAMILY, "test", t.template_id, k),
            k,
        )
        for i, t in enumerate(TEMPLATES)
        for k in range(SETUPS_PER_TEMPLATE)
    ]
    plan = [(BY_ID[s], DEMOS_PER_SEEN) for s in SEEN] + [
        (t, DEMOS_PER_EXTRA) for t in DEMO_TEMPLATES
    ]
    demos = [
        make_task(t, "", stable_rng(FAMILY, "demo", t.template_id, k), k, parsed=k % 2 == 0)
        for t, n in plan
        for k in range(n)
    ]
    demos = [
        Task(f"demo-{k:03d}", d.instruction, d.gold, d.meta, None, d.setup)
        for k, d in enumerate(demos)
    ]
    return {"test": tests, "demo": demos}


_SPLITS = FixedSplits("Tabletop", _build)


def generate_split(split: str) -> list[Task]:
    """The tasks of a fixed split (``test``, ``demo``)."""
    return _SPLITS.tasks(split)


def train_task(k: int, world_seed: int = 0) -> Task:
    """Task ``train-<k>``: one of the 15 templates in a scene drawn from ``k`` and the world seed."""
    rng = stable_rng(FAMILY, "train", world_seed, k)
    template = TEMPLATES[int(rng.integers(len(TEMPLATES)))]
    return make_task(template, f"train-{k}", rng, k)


_CHECKER = SceneCheck()


def checker_for(task: Task) -> Checker:
    """Every tabletop task is scored by its template's check."""
    return _CHECKER


_NAME = re.compile(rf"\b({'|'.join(COLORS)}) (block|bowl)\b")


def setup_for(task: Task) -> Mapping[str, Any]:
    """The scene of a task that brings none (an inline task, a file's record).

    Its objects are those of the query's ``objects = [...]`` line, else the objects its
    instruction and gold name, else a red and a blue block and a green bowl; they are laid out by
    a generator seeded with the instruction, so the same task always gets the same scene.
    """
    names = _listed_objects(task.instruction)
    if not names:
        text = " ".join((task.instruction, *task.gold))
        names = list(dict.fromkeys(m.group(0) for m in _NAME.finditer(text)))[:MAX_OBJECTS]
    if not names:
        names = ["red block", "blue block", "green bowl"]
    blocks = tuple(n for n in names if n.endswith(" block"))
    bowls = tuple(n for n in names if n.endswith(" bowl"))
    rng = stable_rng(FAMILY, "setup", task.instruction)
    return sample_setup(rng, blocks, bowls).to_config()


def _listed_objects(instruction: str) -> list[str]:
    """The names of a query's ``objects = [...]`` line that are objects (``[]``: no line)."""
    for line in instruction.splitlines()[:5]:
        head, sep, listed = line.partition("=")
        if head.strip() == "objects" and sep and len(listed) < 2000:
            try:
                value = ast.literal_eval(listed.strip())
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                return []
            if isinstance(value, list | tuple):
                found = [v for v in value if isinstance(v, str) and _NAME.fullmatch(v)]
                return list(dict.fromkeys(found))[:MAX_OBJECTS]
    return []


def load_tests(path: str | Path) -> TaskSet:
    """Tasks from the original's test file (one ``{"tester_id", "configs_id", "configs"}`` per line).

    The original's records carry no program; each task gets this library's gold for its
    template, so the oracle can play it. A line that cannot be read raises.

    Raises:
        TaskFileError: a line that is not such a record (the message names the line and field).
    """
    tasks = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8-sig").split("\n")):
        if not line.strip():
            continue
        try:
            tasks.append(_original_task(json.loads(line), number))
        except (json.JSONDecodeError, ValueError, KeyError, TypeError) as e:
            raise TaskFileError(
                f"{path}, line {number + 1}: not a Tabletop test record ({e})"
            ) from None
    if not tasks:
        raise TaskFileError(f"{path} has no Tabletop test records")
    return TaskSet(tasks, str(path))


def _original_task(record: Mapping[str, Any], number: int) -> Task:
    template_id = str(record["tester_id"])
    if template_id not in BY_ID:
        raise ValueError(f"unknown tester_id {template_id!r}")
    configs = record["configs"]
    setup = SceneSetup.from_config(configs)
    variables = dict(configs.get("instruction_vars_dict") or {})
    template = BY_ID[template_id]
    if template.facts is not None:
        from toolgym.families.tabletop.toolkit import starting_scene

        scene = object_positions(starting_scene(setup.to_config()))
        # the record's own facts (computed by the original from its layout) win
        variables = {**template.facts(variables, scene, False), **variables}
    instruction = str(configs.get("instruction") or template.instruction(variables))
    gold = gold_program(template_id, variables, list(setup.blocks), list(setup.bowls))
    meta = {
        "template": template_id,
        "configs_id": record.get("configs_id", number),
        "instruction": instruction,
        "instruction_vars_dict": variables,
    }
    names = [*setup.blocks, *setup.bowls]
    return Task(number, query(names, instruction), (gold,), meta, None, setup.to_config())


SUITE = TaskSuite(
    FAMILY,
    0,
    ("test", "demo"),
    generate_split,
    train_task,
    checker_for,
    setup_for=setup_for,
    data_dir=DATA_DIR,
)
