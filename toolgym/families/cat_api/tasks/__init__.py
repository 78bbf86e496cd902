"""The Cat API tasks: user goals phrased like real people, gold curl lines that succeed offline.

Every task is one request to the simulated service :class:`~toolgym.families.cat_api.world.CatApiApp`
(seed 0, in the catalogue version of the task set's version: :data:`VERSIONS`), written as one
curl line in the original benchmark's format::

    curl -X GET 'https://api.thecatapi.com/v1/images/search?&size=small&order=ASC&breeds=chee,sphy'
    curl -X GET 'https://api.thecatapi.com/v1/favourites'
    curl -X POST 'https://api.thecatapi.com/v1/favourites' --data '{"image_id":"abc123"}'
    curl -X DELETE 'https://api.thecatapi.com/v1/favourites/dv0'
    curl -X POST 'https://api.thecatapi.com/v1/votes' --data '{"image_id":"alp", "value":1}'

Call types (:data:`CALL_TYPES`): ``search`` (optional size, mime types, order, limit and breeds,
in that order in the query string, each only when the goal asks for it; the goal names breeds by
id, ``"chee, sphy or kuri cats"``, or by name, ``"Norwegian Forest Cats"``, and the gold always
uses ids), ``list_favourites``, ``add_favourite`` (an image of the catalogue that is not a
favourite in the seeded state), ``delete_favourite`` (a favourite of the seeded state, named by its
image id, which the simulator accepts as a favourite reference), ``vote_up`` and ``vote_down``.
In version 1 the catalogue's ids, and so the ids of these tasks, come in the real formats
(``dv0``, ``tF_6-Beo_``, ``MTY3ODIyMQ``).
Every record carries ``compare_string_only`` (true exactly for ``delete_favourite``, as in the
original) and the meta keys ``call_type`` and ``template``.

Splits:

* ``test`` (100 tasks): 36 searches, 30 votes (15 up, 15 down), 14 favourites POST, 12 favourites
  GET and 8 favourites DELETE, as the original test set.
* ``demo`` (12 tasks): two of each call type.
* train: an unlimited stream (:func:`train_task`, :func:`train_task_v1`) with the test mix that
  never repeats a test or demo goal of its version, built on the catalogue and account of any
  world.

Version 0 is :data:`SUITE`, version 1 :data:`SUITE_V1`; one generator builds both
(:func:`generate_task` with ``version``). Tasks from files get the starting state their gold
needs (:mod:`toolgym.families.cat_api.tasks.setup`).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from toolgym.benchmarks.checkers import ResponseF1
from toolgym.benchmarks.phrasing import pick
from toolgym.benchmarks.score import Checker
from toolgym.benchmarks.suite import FixedSplits, TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.families.cat_api.tasks.command_match import CommandMatch
from toolgym.families.cat_api.tasks.phrasing import (
    ID_TEMPLATES,
    LIST_TEMPLATES,
    SEARCH_TEMPLATES,
    Search,
)
from toolgym.families.cat_api.tasks.setup import setup_for, setup_for_v1
from toolgym.families.cat_api.world import BREEDS, CatApiApp
from toolgym.simulators.http import Request
from toolgym.simulators.seeding import stable_seed

DATA_DIR = str(Path(__file__).resolve().parents[1] / "data")
"""The family's stored splits."""


@functools.lru_cache(maxsize=8)
def world_app(world_seed: int, version: int) -> CatApiApp:
    """The seeded service of a world and catalogue version, shared: read or search it only."""
    return CatApiApp(seed=world_seed, catalog_version=version)


FAMILY = "cat_api"
PAPER_COMPLEXITY = 1.4
"""The paper's API complexity score of the task (its Table 4), which
``toolgym complexity`` shows next to the score of the stored splits."""


VERSION = 0
"""The version of :data:`SUITE` (``CatAPI-v0``)."""

VERSIONS: tuple[int, ...] = (0, 1)
"""The task set versions; version ``N`` is built in the world of catalogue version ``N``."""

SPLITS: dict[str, int] = {"test": 100, "demo": 12}


BASE_URL = "https://api.thecatapi.com/v1"


CALL_TYPES: tuple[str, ...] = (
    "search",
    "list_favourites",
    "add_favourite",
    "delete_favourite",
    "vote_up",
    "vote_down",
)


TEST_MIX: dict[str, int] = {
    "search": 36,
    "vote_up": 15,
    "vote_down": 15,
    "add_favourite": 14,
    "list_favourites": 12,
    "delete_favourite": 8,
}
"""Tasks of each call type in the test split (the original's mix)."""


SEARCH_PARAM_RATES: dict[str, float] = {
    "size": 0.45,
    "mime_types": 0.3,
    "order": 0.75,
    "limit": 0.35,
    "breeds": 0.75,
}
"""Chance that a search goal asks for each parameter (at least one is always asked)."""


@functools.lru_cache(maxsize=8)
def _pools(world_seed: int, version: int) -> dict[str, tuple[str, ...]]:
    """Image ids the POST and DELETE tasks draw from."""
    app = world_app(world_seed, version)
    favourite_images = {f["image_id"] for f in app.favourites}
    images = [im.image_id for im in app.catalog.images]
    return {
        "favourites": tuple(sorted(favourite_images)),
        "not_favourite": tuple(i for i in images if i not in favourite_images),
        "all": tuple(images),
    }


def _search_hits(query: str, world_seed: int, version: int) -> int:
    request = Request.build("GET", f"{BASE_URL}/images/search?{query}", {"x-api-key": "k"})
    response = world_app(world_seed, version).handle(request)
    return len(response.json()) if response.status == 200 else 0


def _gold(call_type: str, *, query: str = "", image_id: str = "") -> str:
    if call_type == "search":
        return f"curl -X GET '{BASE_URL}/images/search?{query}'"
    if call_type == "list_favourites":
        return f"curl -X GET '{BASE_URL}/favourites'"
    if call_type == "add_favourite":
        return f"""curl -X POST '{BASE_URL}/favourites' --data '{{"image_id":"{image_id}"}}'"""
    if call_type == "delete_favourite":
        return f"curl -X DELETE '{BASE_URL}/favourites/{image_id}'"
    value = 1 if call_type == "vote_up" else -1
    return (
        f"curl -X POST '{BASE_URL}/votes' "
        f"""--data '{{"image_id":"{image_id}", "value":{value}}}'"""
    )


def _search_params(rng: np.random.Generator, world_seed: int, version: int) -> dict[str, object]:
    """Parameters of a search whose gold finds at least one image."""
    while True:
        keys = [k for k, p in SEARCH_PARAM_RATES.items() if rng.random() < p]
        if not keys:
            continue
        params: dict[str, object] = {}
        if "size" in keys:
            params["size"] = pick(rng, ("small", "small", "med", "full", "full", "thumb"))
        if "mime_types" in keys:
            n = 1 if rng.random() < 0.6 else 2
            params["mime_types"] = [str(m) for m in rng.choice(["jpg", "png", "gif"], n, False)]
        if "order" in keys:
            params["order"] = pick(rng, ("ASC", "DESC"))
        if "limit" in keys:
            params["limit"] = int(rng.integers(2, 15))
        if "breeds" in keys:
            n = int(rng.choice([1, 2, 3, 4], p=[0.35, 0.3, 0.2, 0.15]))
            params["breeds"] = [str(b) for b in rng.choice(list(BREEDS), n, replace=False)]
        if _search_hits(_query(params), world_seed, version) >= 1:
            return params


def _query(params: dict[str, object]) -> str:
    parts = [""]
    for key in ("size", "mime_types", "order", "limit", "breeds"):
        if key in params:
            value = params[key]
            text = ",".join(value) if isinstance(value, list) else str(value)
            parts.append(f"{key}={text}")
    return "&".join(parts)


def _tidy(text: str) -> str:
    text = " ".join(text.split())
    return text[0].upper() + text[1:]


def _build_task(
    rng: np.random.Generator,
    task_id: str,
    call_type: str,
    template: str | None = None,
    world_seed: int = 0,
    version: int = VERSION,
) -> Task:
    meta: dict[str, object] = {}
    if call_type == "search":
        params = _search_params(rng, world_seed, version)
        fits = [t for t in SEARCH_TEMPLATES if set(t.needs) <= set(params)]
        chosen = next((t for t in fits if t.tid == template), None) or pick(rng, fits)
        breeds = params.get("breeds", [])
        by_name = bool(breeds) and len(breeds) <= 2 and rng.random() < 0.4  # type: ignore[arg-type]
        writer = Search(rng, params, by_name)
        text = chosen.render(writer)
        text += writer.sentences()
        tid = chosen.tid
        query = _query(params)
        gold = _gold(call_type, query=query)
        meta["params"] = params
        meta["breeds_named"] = by_name
    elif call_type == "list_favourites":
        options = dict(LIST_TEMPLATES)
        tid = template if template in options else pick(rng, list(options))
        text = pick(rng, options[tid])
        lead = pick(rng, ("", "", "", "Hi! ", "Hey, ", "Quick one: ", "Hello. "))
        tail = pick(rng, ("", "", "", " Thanks!", " Thank you.", " Appreciate it.", " Cheers!"))
        text = lead + (text[0].lower() + text[1:] if lead.endswith(", ") else text) + tail
        gold = _gold(call_type)
    elif call_type in ID_TEMPLATES:
        options = dict(ID_TEMPLATES[call_type])
        tid = template if template in options else pick(rng, list(options))
        pools = _pools(world_seed, version)
        pool = {
            "add_favourite": pools["not_favourite"],
            "delete_favourite": pools["favourites"],
        }.get(call_type, pools["all"])
        image_id = pick(rng, pool)
        text = pick(rng, options[tid]).format(id=image_id)
        gold = _gold(call_type, image_id=image_id)
        meta["image_id"] = image_id
    else:
        raise ValueError(f"unknown Cat API call type {call_type!r}; known: {list(CALL_TYPES)}")
    meta = {
        "call_type": call_type,
        "template": tid,
        **meta,
        "compare_string_only": call_type == "delete_favourite",
    }
    return Task(task_id, _tidy(text), (gold,), meta)


def _templates_of(call_type: str) -> list[str]:
    if call_type == "search":
        return [t.tid for t in SEARCH_TEMPLATES]
    if call_type == "list_favourites":
        return [t for t, _ in LIST_TEMPLATES]
    return [t for t, _ in ID_TEMPLATES[call_type]]


def _sample_call_type(rng: np.random.Generator) -> str:
    names = list(TEST_MIX)
    weights = np.array([TEST_MIX[n] for n in names], dtype=float)
    return names[int(rng.choice(len(names), p=weights / weights.sum()))]


def generate_task(
    rng: np.random.Generator,
    task_id: str,
    *,
    call_type: str | None = None,
    world_seed: int = 0,
    version: int = VERSION,
) -> Task:
    """Generate one task with ``rng``.

    Args:
        rng: the generator every choice is drawn from.
        task_id: the id of the task.
        call_type: one of :data:`CALL_TYPES`; by default drawn with the test mix.
        world_seed: the world whose catalogue and account the task is built on.
        version: the task set version (one of :data:`VERSIONS`), which picks the catalogue.

    Returns:
        A task whose gold curl line succeeds on a fresh
        ``CatApiApp(seed=world_seed, catalog_version=version)``.

    Raises:
        ValueError: an unknown call type or version.
    """
    if version not in VERSIONS:
        raise ValueError(f"the Cat API task versions are {list(VERSIONS)}; got {version!r}")
    if call_type is None:
        call_type = _sample_call_type(rng)
    if call_type not in CALL_TYPES:
        raise ValueError(f"unknown Cat API call type {call_type!r}; known: {list(CALL_TYPES)}")
    return _build_task(rng, task_id, call_type, world_seed=world_seed, version=version)


def _task_rng(version: int, *parts: object) -> np.random.Generator:
    return np.random.default_rng(stable_seed(FAMILY, version, *parts))


def _split_tasks(
    version: int, split: str, types: list[str], seen: set[str], used_ids: set[str]
) -> list[Task]:
    """Tasks of ``types`` in order, cycling through each type's templates, with unique goals."""
    rng = _task_rng(version, split, "decks")
    decks = {
        c: [_templates_of(c)[int(i)] for i in rng.permutation(len(_templates_of(c)))]
        for c in CALL_TYPES
    }
    tasks = []
    for i, call_type in enumerate(types):
        deck = decks[call_type]
        tid = deck.pop(0)
        deck.append(tid)
        attempt = 0
        while True:
            rng = _task_rng(version, split, i, attempt)
            task = _build_task(rng, f"{split}-{i:03d}", call_type, tid, version=version)
            image_id = task.meta.get("image_id")
            if task.instruction not in seen and image_id not in used_ids:
                break
            attempt += 1
        seen.add(task.instruction)
        if isinstance(image_id, str) and call_type in ("add_favourite", "delete_favourite"):
            used_ids.add(image_id)
        tasks.append(task)
    return tasks


def _splits(version: int) -> dict[str, tuple[Task, ...]]:
    seen: set[str] = set()
    used: set[str] = set()
    demo_types = [c for c in CALL_TYPES for _ in range(2)]
    order = _task_rng(version, "demo", "order").permutation(len(demo_types))
    demos = _split_tasks(version, "demo", [demo_types[int(i)] for i in order], seen, used)
    test_types = [c for c, n in TEST_MIX.items() for _ in range(n)]
    order = _task_rng(version, "test", "order").permutation(len(test_types))
    tests = _split_tasks(version, "test", [test_types[int(i)] for i in order], seen, used)
    return {"demo": tuple(demos), "test": tuple(tests)}


_FIXED: dict[int, FixedSplits] = {
    v: FixedSplits(f"Cat API v{v}" if v else "Cat API", functools.partial(_splits, v))
    for v in VERSIONS
}


def _train_task(version: int, k: int, world_seed: int) -> Task:
    return _FIXED[version].unseen(
        lambda attempt: generate_task(
            _task_rng(version, "train", k, attempt),
            f"train-{k}",
            world_seed=world_seed,
            version=version,
        ),
    )


def generate_split(split: str) -> list[Task]:
    """Generate the tasks of a version 0 fixed split (``"test"``, ``"demo"``), alike everywhere.

    Raises:
        ValueError: an unknown split.
    """
    return _FIXED[0].tasks(split)


def generate_split_v1(split: str) -> list[Task]:
    """Generate the tasks of a version 1 fixed split (see :func:`generate_split`)."""
    return _FIXED[1].tasks(split)


def train_task(k: int, world_seed: int = 0) -> Task:
    """The train task with id ``f"train-{k}"`` in the world of ``world_seed``, rebuilt from ``k``.

    A draw whose goal equals a test or demo goal is replaced by the next draw for the same ``k``.
    """
    return _train_task(0, k, world_seed)


def train_task_v1(k: int, world_seed: int = 0) -> Task:
    """The version 1 train task ``f"train-{k}"`` (see :func:`train_task`)."""
    return _train_task(1, k, world_seed)


def checker_for(task: Task) -> Checker:
    """Deleting a favourite is compared as text (``compare_string_only``), the rest by F1."""
    if task.meta.get("compare_string_only"):
        return CommandMatch()
    return ResponseF1()


SUITE = TaskSuite(
    FAMILY,
    VERSION,
    tuple(SPLITS),
    generate_split,
    train_task,
    checker_for,
    setup_for=setup_for,
    data_dir=DATA_DIR,
)
"""The Cat API tasks of ``CatAPI-v0``: ``test``, ``demo`` and ``train``."""

SUITE_V1 = TaskSuite(
    FAMILY,
    1,
    tuple(SPLITS),
    generate_split_v1,
    train_task_v1,
    checker_for,
    setup_for=setup_for_v1,
    data_dir=DATA_DIR,
)
"""The Cat API tasks of ``CatAPI-v1``, in the world of catalogue version 1."""
