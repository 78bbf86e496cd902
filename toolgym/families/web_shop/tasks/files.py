"""WebShop's own files as a shop and as tasks: its products, its synthetic and human goals.

:func:`file_shop` builds the shop of WebShop's product file (``items_shuffle*.json``) and its
attribute file (``items_ins_v2*.json``), once per process. :func:`load_goal_tasks` makes tasks of
the goals WebShop plays in that shop: its human instructions (``items_human_ins.json``: a product
id to the instructions people wrote for it, with the attributes and options they ask for), or
its synthetic goals (made from the attribute file's instructions). ``human_goals.json`` (the
baseline's list of human instruction strings) picks and orders them. Each task's setup is its
whole goal; its gold is the expert's trajectory when the expert reaches the product by search,
else empty (the task still plays and is scored by its purchase).

Play them in an env made over the same files::

    env = gym.make("toolbench/WebShop-v1", product_file=..., attribute_file=...)
    env.reset(options={"task": task})
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Mapping
from typing import Any

from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.families.web_shop.tasks.expert import ExpertFailed, play
from toolgym.families.web_shop.world.catalog import load_human_goals, load_products
from toolgym.families.web_shop.world.goals import GoalSpec, human_goals, make_goals
from toolgym.families.web_shop.world.shop import Shop

GOAL_KINDS = ("human", "synthetic")
"""The goals :func:`load_goal_tasks` makes tasks of."""


def _read(path: str | os.PathLike[str], what: str) -> Any:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError) as e:
        raise TaskFileError(f"cannot read WebShop's {what} {os.fspath(path)!r}: {e}") from e


@functools.lru_cache(maxsize=2)
def file_shop(product_file: str, attribute_file: str | None = None, seed: int = 0) -> Shop:
    """The shop of WebShop's product file and, when given, its attribute file (cached).

    Raises:
        TaskFileError: a file that cannot be read, or one with no usable product.
    """
    from toolgym.families.web_shop.toolkit import build_shop  # the toolkit imports this module

    items = _read(product_file, "product file")
    if not isinstance(items, list):
        raise TaskFileError(f"{product_file} must hold a JSON list of product records")
    attributes = _read(attribute_file, "attribute file") if attribute_file else {}
    if not isinstance(attributes, Mapping):
        raise TaskFileError(f"{attribute_file} must hold a JSON object keyed by product id")
    loaded = load_products([r for r in items if isinstance(r, Mapping)], attributes)
    if not loaded.products:
        raise TaskFileError(f"{product_file} holds no usable product ({loaded.repairs[:3]})")
    return build_shop(loaded.products, seed)


def _human_records(data: Any, source: Any) -> dict[str, list[dict[str, Any]]]:
    """``items_human_ins.json`` checked: product id -> list of instruction records."""
    if not isinstance(data, Mapping):
        raise TaskFileError(f"{os.fspath(source)} must hold a JSON object keyed by product id")
    out: dict[str, list[dict[str, Any]]] = {}
    for asin, items in data.items():
        if not isinstance(items, list) or not all(isinstance(i, Mapping) for i in items):
            raise TaskFileError(
                f"{os.fspath(source)}: product {str(asin)[:20]!r} must map to a list of "
                f"instruction records; got {str(items)[:80]!r}"
            )
        for item in items:
            for key in ("instruction_attributes", "instruction_options"):
                if not isinstance(item.get(key) or [], list):
                    raise TaskFileError(
                        f"{os.fspath(source)}: {key} of product {str(asin)[:20]!r} must be a "
                        f"list; got {str(item.get(key))[:80]!r}"
                    )
        out[str(asin)] = [dict(i) for i in items]
    return out


def _normal(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def _pick(goals: list[GoalSpec], instructions: list[str]) -> list[GoalSpec]:
    """The goals whose instruction is one of ``instructions``, in that list's order."""
    by_text: dict[str, GoalSpec] = {}
    for goal in goals:
        text = _normal(goal.instruction_text.split(", and price lower than")[0])
        by_text.setdefault(text, goal)
    return [by_text[key] for key in map(_normal, instructions) if key in by_text]


def load_goal_tasks(
    product_file: str | os.PathLike[str],
    attribute_file: str | os.PathLike[str] | None = None,
    *,
    human_file: str | os.PathLike[str] | None = None,
    instruction_file: str | os.PathLike[str] | None = None,
    goals: str = "human",
    limit: int | None = None,
    world_seed: int = 0,
) -> list[Task]:
    """Tasks of the goals WebShop plays over its own files (see the module docstring).

    Args:
        product_file: ``items_shuffle*.json``.
        attribute_file: ``items_ins_v2*.json`` (attributes and synthetic instructions).
        human_file: ``items_human_ins.json`` (needed for ``goals="human"``).
        instruction_file: ``human_goals.json``: keep the goals whose instruction it lists, in
            its order.
        goals: ``"human"`` or ``"synthetic"``.
        limit: at most this many tasks (the first ones).
        world_seed: the seed of price caps and goal order (the env's ``world_seed``).

    Returns:
        Tasks with ids ``0, 1, ...``; ``meta["asin"]`` is the product, ``meta["expert"]``
        whether the gold is the expert's trajectory.

    Raises:
        TaskFileError: a file that cannot be read, or nothing to make goals from.
        ValueError: an unknown ``goals``.
    """
    if goals not in GOAL_KINDS:
        raise ValueError(f"goals must be one of {GOAL_KINDS}; got {goals!r}")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise ValueError(f"limit must be a non-negative int or None; got {limit!r}")
    shop = file_shop(
        os.fspath(product_file),
        None if attribute_file is None else os.fspath(attribute_file),
        world_seed,
    )
    if goals == "human":
        if human_file is None:
            raise TaskFileError("human goals need WebShop's items_human_ins.json (human_file=)")
        records = _human_records(_read(human_file, "human instruction file"), human_file)
        specs = human_goals(shop.products, records, shop.seed)
    else:
        specs = make_goals(shop.products, shop.seed)
    if instruction_file is not None:
        try:
            specs = _pick(specs, load_human_goals(os.fspath(instruction_file)))
        except (OSError, ValueError) as e:
            raise TaskFileError(f"cannot read {os.fspath(instruction_file)!r}: {e}") from e
    if not specs:
        raise TaskFileError("no goal could be made: check that the files belong together")
    tasks = []
    for k, spec in enumerate(specs[:limit] if limit is not None else specs):
        try:
            gold: tuple[str, ...] = ("\n".join(play(shop, spec).actions),)
        except ExpertFailed:
            gold = ()
        meta = {"asin": spec.asin, "expert": bool(gold)}
        setup = {"goal": spec.to_data()}
        tasks.append(Task(k, spec.instruction_text, gold, meta, None, setup))
    return tasks
