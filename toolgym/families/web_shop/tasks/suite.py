"""The WebShop task suite: the code the package :mod:`toolgym.families.web_shop.tasks` describes."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolgym.benchmarks.score import Checker
from toolgym.benchmarks.suite import FixedSplits, TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.families.web_shop.backend import goal_of, purchase_of
from toolgym.families.web_shop.checker import PurchaseReward
from toolgym.families.web_shop.tasks.expert import ExpertFailed, play
from toolgym.families.web_shop.toolkit import DEFAULT_PRODUCTS, goals_for, shop_for
from toolgym.families.web_shop.world.goals import GoalSpec
from toolgym.families.web_shop.world.reward import get_reward
from toolgym.families.web_shop.world.shop import Session, Shop
from toolgym.simulators.seeding import stable_rng

DATA_DIR = str(Path(__file__).resolve().parents[1] / "data")
"""The family's stored splits."""

FAMILY = "web_shop"
PAPER_COMPLEXITY = 0.0
"""The paper's API complexity score of the task (its Table 4), which
``toolgym complexity`` shows next to the score of the stored splits."""
TEST_SIZE = 100
LONG_DEMOS = 1500
SHORT_DEMOS = 200


def _task(task_id: str, shop: Shop, goal: GoalSpec) -> Task | None:
    """The goal's task, or ``None`` if the expert cannot reach a reward of 1 on it.

    That happens when its product is not found, or when WebShop's matching quirks cost it
    ("peppermint" is normalised to the colour "mint").
    """
    try:
        trajectory = play(shop, goal)
    except ExpertFailed:
        return None
    bought = purchase_of(shop.by_asin[goal.asin], goal.goal_options)
    if get_reward(bought, goal.goal).reward < 1.0:
        return None
    setup = {"goal": {"asin": goal.asin, "options": dict(goal.goal_options)}}
    return Task(task_id, goal.instruction_text, ("\n".join(trajectory.actions),), {}, None, setup)


@functools.lru_cache(maxsize=1)
def _made() -> tuple[tuple[Task, ...], tuple[Task, ...]]:
    shop = shop_for(0, DEFAULT_PRODUCTS)
    tests: list[Task] = []
    demos: list[Task] = []
    seen: set[str] = set()
    for goal in goals_for(0, DEFAULT_PRODUCTS):
        if goal.instruction_text in seen:
            continue
        seen.add(goal.instruction_text)
        wanted = tests if len(tests) < TEST_SIZE else demos
        prefix = "test" if wanted is tests else "demo"
        task = _task(
            f"{prefix}-{len(wanted):04d}" if prefix == "demo" else f"test-{len(wanted):03d}",
            shop,
            goal,
        )
        if task is not None:
            wanted.append(task)
        if len(demos) == LONG_DEMOS:
            break
    return tuple(tests), tuple(demos)


def _short(demos: tuple[Task, ...]) -> list[Task]:
    ranked = sorted(demos, key=lambda t: (len(t.gold[0].split("\n")), t.task_id))[:SHORT_DEMOS]
    keep = {t.task_id for t in ranked}
    short = [t for t in demos if t.task_id in keep]
    return [
        Task(f"demo-{k:03d}", t.instruction, t.gold, {"pruned": True}, None, t.setup)
        for k, t in enumerate(short)
    ]


def _splits_long() -> dict[str, tuple[Task, ...]]:
    tests, demos = _made()
    return {"test": tests, "demo": demos}


def _splits_short() -> dict[str, tuple[Task, ...]]:
    tests, demos = _made()
    return {"test": tests, "demo": tuple(_short(demos))}


_LONG = FixedSplits("WebShop", _splits_long)
_SHORT = FixedSplits("WebShop", _splits_short)


def generate_split(split: str) -> list[Task]:
    """The tasks of a fixed split, with the long demonstrations."""
    return _LONG.tasks(split)


def generate_split_short(split: str) -> list[Task]:
    """The tasks of a fixed split, with the short demonstrations."""
    return _SHORT.tasks(split)


def train_task(k: int, world_seed: int = 0) -> Task:
    """Task ``train-<k>``: a goal of the world's catalog drawn by weight, not a test or demo goal."""
    goals = goals_for(world_seed, DEFAULT_PRODUCTS)
    weights = [g.weight for g in goals]
    total = sum(weights)
    shop = shop_for(world_seed, DEFAULT_PRODUCTS)

    def draw(attempt: int) -> Task:
        while True:
            rng = stable_rng(FAMILY, "train", k, world_seed, attempt)
            goal = goals[int(rng.choice(len(goals), p=[w / total for w in weights]))]
            task = _task(f"train-{k}", shop, goal)
            if task is not None:
                return task
            attempt += 10_000

    return _LONG.unseen(draw)


_CHECKER = PurchaseReward()


def checker_for(task: Task) -> Checker:
    """Every shopping task is scored by its purchase."""
    return _CHECKER


def setup_for(task: Task) -> Mapping[str, Any] | None:
    """The goal of a task without one (from a file): what its gold buys.

    It is asked for with the task's instruction, the product's attributes and no price cap. A
    task whose gold buys nothing (or that has no gold: an instruction alone) gets no goal, and
    the env refuses it when it is played (a task file marks it), rather than scoring it against
    a goal it does not name.
    """
    if not task.gold:
        return None
    shop = shop_for(0, DEFAULT_PRODUCTS)
    session = Session(shop, task.instruction)
    for line in task.gold[0].split("\n"):
        if line.strip() and session.step(line).done:
            break
    if session.bought is None:
        return None
    asin, options = session.bought
    product = shop.by_asin[asin]
    return {
        "goal": {
            "asin": asin,
            "instruction_text": task.instruction,
            "name": product.title,
            "query": product.query,
            "product_category": product.product_category,
            "attributes": list(product.instruction_attributes or product.attributes[:2]),
            "goal_options": dict(options),
            "price_upper": 1_000_000.0,
            "nouns": None if product.nouns is None else list(product.nouns),
        }
    }


def demo_steps(task: Task, shop: Shop | None = None) -> list[tuple[str, str]]:
    """The (page, action) pairs of a demonstration, as the paper's prompts show them.

    For a short demonstration (``meta["pruned"]``), each results page lists only the product the
    expert opens.
    """
    shop = shop or shop_for(0, DEFAULT_PRODUCTS)
    goal = goal_of(shop, dict(task.setup or {}).get("goal"))
    session = Session(shop, goal.instruction_text)
    pairs = []
    actions = [line for line in task.gold[0].split("\n") if line.strip()]
    for k, action in enumerate(actions):
        page = session.observation()
        if task.meta.get("pruned") and session.page == "results":
            page = _pruned(session, actions[k:])
        pairs.append((page, action))
        session.step(action)
    return pairs


def _pruned(session: Session, rest: list[str]) -> str:
    opened = next((a[6:-1] for a in rest if a.startswith("click[b")), None)
    nodes = session.nodes()
    out = []
    skip = 0
    for kind, text in nodes:
        if skip:
            skip -= 1
            continue
        fixed = ("back to search", "next >", "< prev")
        if kind == "button" and text.lower() not in fixed and text.lower() != opened:
            skip = 2
            continue
        out.append(text)
    return " [SEP] ".join(out)


SUITE = TaskSuite(
    FAMILY,
    0,
    ("test", "demo"),
    generate_split,
    train_task,
    checker_for,
    setup_for=setup_for,
    demo_steps=demo_steps,
    data_dir=DATA_DIR,
)
SUITE_SHORT = TaskSuite(
    FAMILY,
    1,
    ("test", "demo"),
    generate_split_short,
    train_task,
    checker_for,
    setup_for=setup_for,
    demo_steps=demo_steps,
    data_dir=DATA_DIR,
)
