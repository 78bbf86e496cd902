"""Home Search tasks: user goals phrased like real people, gold programs built from real listings.

Every task starts from one listing of the listing database (:func:`get_listing_database`, seed 0,
the database :class:`~toolgym.families.home_search.toolkit.HomeSearchToolkit` searches by default): the
generator picks buy or rent, a set of optional setters, a city and a listing of that city that can
satisfy them, then derives round, human criteria the listing meets (a maximum price rounded up to a
nice figure, a minimum rounded down, a commute rounded up to a multiple of five minutes, ...). The
gold program therefore always finds at least that listing.

The goal is written by one of about thirty sentence templates (statements, questions, requests,
lists, several sentences) that mention every criterion once, in some order, and nothing else; the
gold program sets the criteria in the order the goal mentions them, after ``set_location`` and
``set_buy_or_rent`` and before ``search``, exactly like the original benchmark::

    API.set_location("Austin")
    API.set_buy_or_rent("buy")
    API.set_num_beds(3)
    API.select_home_type(["House"])
    API.set_max_price(450000)
    API.search()

Splits:

* ``test`` (100 tasks): 53 to buy, 47 to rent, and each optional setter used by exactly as many
  tasks as in the original test set (``num_beds`` 83, ``max_price`` 63, ...).
* ``demo`` (10 tasks): the few-shot demonstrations. Like the original, they never use
  ``set_num_swimming_pools``, ``set_floor_number`` or ``set_max_commute_time``, and no test task
  calls exactly the same set of functions as a demonstration.
* train: an unlimited stream (:func:`train_pairs`, :func:`train_task`) that samples setters with the
  test frequencies and never repeats a test or demo goal.

Everything is drawn from NumPy generators seeded with :func:`stable_seed`, so the splits are the
same on every machine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from toolgym.benchmarks.checkers import CriteriaF1
from toolgym.benchmarks.phrasing import pick
from toolgym.benchmarks.suite import FixedSplits, TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.families.home_search.tasks.criteria import (
    BUY_SHARE,
    DEMO_EXCLUDED_SETTERS,
    MAX_SETTERS,
    OPTIONAL_SETTERS,
    SETTER_FREQUENCIES,
    Spec,
    choose_listing,
    derive_values,
)
from toolgym.families.home_search.tasks.phrasing.templates import TEMPLATE_BY_ID, TEMPLATES
from toolgym.families.home_search.tasks.phrasing.writer import Writer
from toolgym.simulators.seeding import stable_seed

DATA_DIR = str(Path(__file__).resolve().parents[1] / "data")
"""The family's stored splits."""

FAMILY = "home_search"
PAPER_COMPLEXITY = 7.3
"""The paper's API complexity score of the task (its Table 4), which
``toolgym complexity`` shows next to the score of the stored splits."""
VERSION = 0
SPLITS: dict[str, int] = {"test": 100, "demo": 10}
_TEST_BUY = 53


def _literal(value: Any) -> str:
    if isinstance(value, list):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def _program(spec: Spec, order: list[str]) -> str:
    lines = [
        f"API.set_location({json.dumps(spec.city)})",
        f"API.set_buy_or_rent({json.dumps(spec.mode)})",
    ]
    lines += [f"API.{name}({_literal(spec.values[name])})" for name in order]
    lines.append("API.search()")
    return "\n".join(lines)


def _normalize_setters(setters: frozenset[str] | set[str]) -> frozenset[str]:
    out = set()
    for name in setters:
        full = name if name in SETTER_FREQUENCIES else f"set_{name}"
        if full not in SETTER_FREQUENCIES:
            raise ValueError(
                f"unknown Home Search setter {name!r}; known: {list(OPTIONAL_SETTERS)}"
            )
        out.add(full)
    if not 1 <= len(out) <= MAX_SETTERS:
        raise ValueError(f"a task uses 1 to {MAX_SETTERS} optional setters; got {sorted(out)}")
    return frozenset(out)


def _sample_setters(
    rng: np.random.Generator, allowed: tuple[str, ...] = OPTIONAL_SETTERS
) -> frozenset[str]:
    """Each setter with its test frequency, redrawn until 1 to ``MAX_SETTERS`` are chosen."""
    while True:
        chosen = frozenset(s for s in allowed if rng.random() < SETTER_FREQUENCIES[s] / 100)
        if 1 <= len(chosen) <= MAX_SETTERS:
            return chosen


def _build_task(
    rng: np.random.Generator,
    task_id: str,
    setters: frozenset[str],
    mode: str,
    template: str | None = None,
    world_seed: int = 0,
) -> Task:
    """The task for a given setter set and mode (``template``: an id, else a random fitting one)."""
    if template is None:
        template = pick(rng, [t.tid for t in TEMPLATES if t.fits(setters, mode)])
    listing = choose_listing(rng, mode, setters, world_seed)
    spec = Spec(listing.city, mode, derive_values(rng, listing, setters), listing.listing_id)
    writer = Writer(rng, spec)
    text = TEMPLATE_BY_ID[template].render(writer)
    if writer.pending:  # pragma: no cover - every template renders every group
        text += writer.sentences()
    meta = {
        "template": template,
        "buy_or_rent": mode,
        "setters": sorted(setters),
        "city": spec.city,
        "listing_id": spec.listing_id,
    }
    text = " ".join(text.split()).replace("..", ".")  # "... 900 sq. ft.." -> "sq. ft."
    return Task(task_id, text, (_program(spec, writer.order),), meta)


def generate_task(
    rng: np.random.Generator,
    task_id: str,
    *,
    setters: frozenset[str] | None = None,
    world_seed: int = 0,
) -> Task:
    """Generate one task with ``rng``.

    Args:
        rng: the generator every choice is drawn from (buy/rent, setters, city, listing, words).
        task_id: the id of the task.
        setters: the optional setters the gold program must call (API names such as
            ``"set_num_beds"``, or without ``set_``); by default drawn with the test frequencies.
        world_seed: the world whose listings the task is built from.

    Returns:
        A task whose gold program finds at least the listing it was built from.

    Raises:
        ValueError: an unknown setter, or not 1 to ``MAX_SETTERS`` of them.
    """
    mode = "buy" if rng.random() < BUY_SHARE else "rent"
    chosen = _sample_setters(rng) if setters is None else _normalize_setters(setters)
    return _build_task(rng, task_id, chosen, mode, world_seed=world_seed)


def _task_rng(*parts: object) -> np.random.Generator:
    return np.random.default_rng(stable_seed(FAMILY, VERSION, *parts))


def _call_set(task: Task) -> frozenset[str]:
    return frozenset(task.meta["setters"])


def _demo_tasks() -> list[Task]:
    rng = _task_rng("demo")
    allowed = tuple(s for s in OPTIONAL_SETTERS if s not in DEMO_EXCLUDED_SETTERS)
    n = SPLITS["demo"]
    while True:
        sets = [_sample_setters(rng, allowed) for _ in range(n)]
        covered = set().union(*sets)
        if len(set(sets)) == n and covered == set(allowed) and max(map(len, sets)) >= 4:
            break
    modes = [["buy", "rent"][i % 2] for i in rng.permutation(n)]
    unused = [TEMPLATES[int(i)].tid for i in rng.permutation(len(TEMPLATES))]
    tasks = []
    for i in range(n):
        tid = next(t for t in unused if TEMPLATE_BY_ID[t].fits(sets[i], modes[i]))
        unused.remove(tid)
        tasks.append(_build_task(_task_rng("demo", i), f"demo-{i:03d}", sets[i], modes[i], tid))
    return tasks


def _valid_set(s: set[str], forbidden: set[frozenset[str]]) -> bool:
    return 1 <= len(s) <= MAX_SETTERS and frozenset(s) not in forbidden


def _repair(rng: np.random.Generator, sets: list[set[str]], forbidden: set[frozenset[str]]) -> None:
    """Move setters between tasks (keeping every count) until each set is valid."""
    n = len(sets)
    for i in range(n):
        for _ in range(1000):
            if _valid_set(sets[i], forbidden):
                break
            j = int(rng.integers(n))
            if j == i:
                continue
            moves = [(i, j, s) for s in sorted(sets[i] - sets[j])]
            moves += [(j, i, s) for s in sorted(sets[j] - sets[i])]
            for k in rng.permutation(len(moves)):
                src, dst, name = moves[int(k)]
                a, b = sets[src] - {name}, sets[dst] | {name}
                if _valid_set(a, forbidden) and _valid_set(b, forbidden):
                    sets[src], sets[dst] = a, b
                    break
        else:  # pragma: no cover
            raise RuntimeError("could not repair the test setter sets")


def _test_setter_sets(
    rng: np.random.Generator, forbidden: set[frozenset[str]]
) -> list[frozenset[str]]:
    """Setter sets for the test split: each setter used by exactly its target share of tasks."""
    n = SPLITS["test"]
    while True:
        sets: list[set[str]] = [set() for _ in range(n)]
        for name in OPTIONAL_SETTERS:
            k = SETTER_FREQUENCIES[name] * n // 100
            eligible = [i for i in range(n) if len(sets[i]) < MAX_SETTERS]
            if len(eligible) < k:  # pragma: no cover - never with the target frequencies
                break
            weights = np.array([MAX_SETTERS + 1 - len(sets[i]) for i in eligible], dtype=float)
            for i in rng.choice(eligible, size=k, replace=False, p=weights / weights.sum()):
                sets[int(i)].add(name)
        else:
            _repair(rng, sets, forbidden)
            if all(_valid_set(s, forbidden) for s in sets):
                return [frozenset(s) for s in sets]


def _test_tasks(demos: list[Task]) -> list[Task]:
    rng = _task_rng("test")
    n = SPLITS["test"]
    forbidden = {_call_set(t) for t in demos}
    sets = _test_setter_sets(rng, forbidden)
    modes = ["buy" if int(i) < _TEST_BUY else "rent" for i in rng.permutation(n)]
    deck = [TEMPLATES[int(i)].tid for i in rng.permutation(len(TEMPLATES))]
    seen = {t.instruction for t in demos}
    tasks = []
    for i in range(n):
        tid = next(t for t in deck if TEMPLATE_BY_ID[t].fits(sets[i], modes[i]))
        deck.remove(tid)
        deck.append(tid)
        attempt = 0
        while True:
            task = _build_task(
                _task_rng("test", i, attempt), f"test-{i:03d}", sets[i], modes[i], tid
            )
            if task.instruction not in seen:
                break
            attempt += 1  # pragma: no cover - a repeated goal
        seen.add(task.instruction)
        tasks.append(task)
    return tasks


def _splits() -> dict[str, tuple[Task, ...]]:
    demos = _demo_tasks()
    return {"demo": tuple(demos), "test": tuple(_test_tasks(demos))}


_FIXED = FixedSplits("Home Search", _splits)


def generate_split(split: str) -> list[Task]:
    """Generate the tasks of a fixed split (``"test"`` or ``"demo"``), the same on every machine.

    Raises:
        ValueError: an unknown split.
    """
    return _FIXED.tasks(split)


def train_task(k: int, world_seed: int = 0) -> Task:
    """The train task with id ``f"train-{k}"`` in the world of ``world_seed``, rebuilt from ``k``.

    A draw whose goal equals a test or demo goal is replaced by the next draw for the same ``k``.
    """
    return _FIXED.unseen(
        lambda attempt: generate_task(
            _task_rng("train", k, attempt), f"train-{k}", world_seed=world_seed
        ),
    )


def checker_for(task: Task) -> CriteriaF1:
    """Every Home Search task is scored by the dict F1 of its criteria."""
    return CriteriaF1()


SUITE = TaskSuite(
    FAMILY, VERSION, tuple(SPLITS), generate_split, train_task, checker_for, data_dir=DATA_DIR
)
"""The Home Search tasks: ``test``, ``demo`` and ``train``, scored by the criteria's dict F1."""
