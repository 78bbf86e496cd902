"""Generated Trip Booking tasks: user goals and gold programs, as in ToolBench's ``booking/v0``.

Each task is one request for ticket offers (``"trip tickets"``), hotel rooms (``"hotels"``) or both,
written the way a traveller would ask, with one correct program in the original format::

    API.select_booking_type("trip tickets")
    API.select_transportation("flight")
    location_from = Loc("Austin")
    API.set_origin(location_from)
    ...
    API.search()

``select_booking_type`` comes first, the other calls follow the order in which the goal mentions
them, and ``API.search()`` comes last. Everything the goal mentions is set and nothing else, so the
gold program is unambiguous. Prices are chosen from the travel inventory so that the gold search
always returns offers (tickets with enough seats for the party, rooms of the requested type with
enough rooms left).

Splits are fixed: ``test`` (120 tasks, mixed like the original: 44 ticket, 44 hotel and 32 combined
requests) and ``demo`` (11 tasks for few-shot prompts). Training tasks come from
:func:`train_task`, which rebuilds task ``train-<k>`` from ``k`` alone; none repeats a test or demo
goal.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from toolgym.benchmarks.checkers import CriteriaF1
from toolgym.benchmarks.phrasing import pick
from toolgym.benchmarks.suite import FixedSplits, TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.families.trip_booking.tasks.phrasing import TEMPLATES, Template
from toolgym.families.trip_booking.tasks.trip import (
    CALLS,
    CITY_NAMES,
    PAIRS,
    Trip,
    price_bounds,
    price_kind,
    program_lines,
    random_day,
    room_legs,
    search_finds_offers,
    ticket_legs,
)
from toolgym.families.trip_booking.toolkit import BOOKING_TYPES
from toolgym.families.trip_booking.world import ROOM_TYPES
from toolgym.simulators.seeding import stable_seed

DATA_DIR = str(Path(__file__).resolve().parents[1] / "data")
"""The family's stored splits."""

FAMILY = "trip_booking"
PAPER_COMPLEXITY = 11.1
"""The paper's API complexity score of the task (its Table 4), which
``toolgym complexity`` shows next to the score of the stored splits."""


VERSION = 0


SPLITS: dict[str, int] = {"test": 120, "demo": 11}
"""Fixed splits and their sizes."""


# Exact mixes of the fixed splits. Ticket-using tasks (tickets and both) get the transport modes,
# hotel-using tasks (hotels and both) the room types (None: no room type mentioned).
_MIX: dict[str, dict[str, dict[str | None, int]]] = {
    "test": {
        "booking": {"trip tickets": 44, "hotels": 44, "both": 32},
        "modes": {"bus": 25, "flight": 20, "train": 17, "cruise": 14},
        "rooms": {"Double": 16, "Queen Bed": 15, "King Bed": 15, "Luxury": 12, None: 18},
    },
    "demo": {
        "booking": {"trip tickets": 4, "hotels": 4, "both": 3},
        "modes": {"bus": 2, "flight": 2, "train": 2, "cruise": 1},
        "rooms": {"King Bed": 2, "Queen Bed": 2, "Double": 1, "Luxury": 1, None: 1},
    },
}


_BOOKING_WEIGHTS = {"trip tickets": 44, "hotels": 44, "both": 32}


_MODE_WEIGHTS = {"bus": 25, "flight": 20, "train": 17, "cruise": 14}


_ROOM_TYPE_P = 0.76


def _want(rng: np.random.Generator, tpl: Template, feature: str, p: float) -> bool:
    draw = bool(rng.random() < p)
    return tpl.force.get(feature, draw)


def _sample(
    rng: np.random.Generator,
    tpl: Template,
    mode: str | None,
    room_type: str | None,
    world_seed: int,
) -> Trip | None:
    """One candidate trip for ``tpl``; None when the inventory cannot serve it."""
    bt = tpl.booking_type
    t = Trip(bt)
    tickets, hotel = bt in ("trip tickets", "both"), bt in ("hotels", "both")
    if tickets:
        assert mode is not None
        t.mode = mode
        pairs = PAIRS[mode]
        t.origin, t.destination = pairs[int(rng.integers(len(pairs)))]
    if hotel:
        t.hotel = t.destination or pick(rng, CITY_NAMES)
        t.checkin = random_day(rng)
        t.checkout = t.checkin + dt.timedelta(days=int(rng.integers(1, 11)))
        t.room_type = room_type
        if _want(rng, tpl, "rooms", 0.4):
            t.rooms = int(rng.integers(2, 6))
    if bt == "trip tickets":
        t.departure = random_day(rng)
        if _want(rng, tpl, "return_date", 0.5):
            t.return_date = t.departure + dt.timedelta(days=int(rng.integers(2, 15)))
    elif bt == "both" and _want(rng, tpl, "departure", False):
        assert t.checkin is not None and t.checkout is not None
        t.departure = t.checkin - dt.timedelta(days=int(rng.integers(0, 2)))
        if rng.random() < 0.5:
            t.return_date = t.checkout + dt.timedelta(days=int(rng.integers(0, 2)))
    if tickets:
        if _want(rng, tpl, "party", 0.55 if bt == "trip tickets" else 0.45):
            t.adults = pick(rng, (1, 2, 2, 2, 3, 4, 5))
            if rng.random() < 0.35:
                t.children = int(rng.integers(1, 4))
            if tpl.force.get("group") and t.adults + (t.children or 0) < 2:
                t.adults = int(rng.integers(2, 5))
        if _want(rng, tpl, "ticket_price", 0.45 if bt == "trip tickets" else 0.25):
            bounds = price_bounds(rng, ticket_legs(t, world_seed), price_kind(rng))
            if bounds is None:
                return None
            t.min_ticket, t.max_ticket = bounds
        elif not all(ticket_legs(t, world_seed)):
            return None
    if hotel:
        if _want(rng, tpl, "room_price", 0.5 if bt == "hotels" else 0.35):
            bounds = price_bounds(rng, room_legs(t, world_seed), price_kind(rng))
            if bounds is None:
                return None
            t.min_room, t.max_room = bounds
        elif not all(room_legs(t, world_seed)):
            return None
    return t


def _render(rng: np.random.Generator, tpl: Template, t: Trip) -> tuple[str, str, list[str]]:
    """The goal, the gold program and the sorted API functions it calls."""
    say = tpl.render(rng, t)
    if sorted(say.steps) != sorted(t.mentioned()):
        raise AssertionError(
            f"template {tpl.template_id} mentions {sorted(say.steps)}; "
            f"the trip sets {sorted(t.mentioned())}"
        )
    lines = [f'API.select_booking_type("{t.booking_type}")']
    for step in say.steps:
        lines += program_lines(t, step)
    lines.append("API.search()")
    calls = sorted({"select_booking_type", "search", *(CALLS[s] for s in say.steps)})
    return say.text, "\n".join(lines), calls


def _make_task(
    rng: np.random.Generator,
    task_id: str,
    tpl: Template,
    mode: str | None,
    room_type: str | None,
    world_seed: int = 0,
) -> Task:
    for _ in range(200):
        trip = _sample(rng, tpl, mode, room_type, world_seed)
        if trip is None:
            continue
        instruction, program, calls = _render(rng, tpl, trip)
        if not search_finds_offers(program, world_seed):
            continue
        meta = {
            "template": tpl.template_id,
            "booking_type": tpl.booking_type,
            "calls": calls,
            "transportation": trip.mode,
            "room_type": trip.room_type,
        }
        return Task(task_id, instruction, (program,), meta)
    raise RuntimeError(f"could not build a searchable task for template {tpl.template_id}")


def _weighted(rng: np.random.Generator, weights: Mapping[str, int]) -> str:
    keys = list(weights)
    p = np.array([weights[k] for k in keys], dtype=float)
    return keys[int(rng.choice(len(keys), p=p / p.sum()))]


def generate_task(
    rng: np.random.Generator,
    task_id: str,
    *,
    booking_type: str | None = None,
    world_seed: int = 0,
) -> Task:
    """Draw one task: a booking type (unless given), a template, the trip and the gold program.

    Args:
        rng: the generator every choice is drawn from.
        task_id: the id of the task.
        booking_type: ``"trip tickets"``, ``"hotels"`` or ``"both"``; drawn with the test mix
            (44/44/32) when None.
        world_seed: the world whose travel inventory the task is built from.

    Returns:
        The task; its gold search returns offers.

    Raises:
        ValueError: ``booking_type`` is not one of the API's booking types.
    """
    if booking_type is None:
        booking_type = _weighted(rng, _BOOKING_WEIGHTS)
    if booking_type not in TEMPLATES:
        raise ValueError(f"booking_type must be one of {list(TEMPLATES)}; got {booking_type!r}")
    templates = TEMPLATES[booking_type]
    tpl = templates[int(rng.integers(len(templates)))]
    mode = _weighted(rng, _MODE_WEIGHTS) if booking_type != "hotels" else None
    room_type = None
    if booking_type != "trip tickets" and rng.random() < _ROOM_TYPE_P:
        room_type = pick(rng, ROOM_TYPES)
    return _make_task(rng, task_id, tpl, mode, room_type, world_seed)


def _expand(rng: np.random.Generator, counts: Mapping[str | None, int]) -> list[str | None]:
    items = [key for key, n in counts.items() for _ in range(n)]
    return [items[int(i)] for i in rng.permutation(len(items))]


def _split(split: str) -> tuple[Task, ...]:
    mix = _MIX[split]
    rng = np.random.default_rng(stable_seed(FAMILY, VERSION, split))
    bookings = _expand(rng, mix["booking"])
    modes = iter(_expand(rng, mix["modes"]))
    room_types = iter(_expand(rng, mix["rooms"]))
    orders = {
        bt: [group[int(i)] for i in rng.permutation(len(group))] for bt, group in TEMPLATES.items()
    }
    seen = dict.fromkeys(BOOKING_TYPES, 0)
    tasks = []
    for i, bt in enumerate(bookings):
        assert bt is not None
        tpl = orders[bt][seen[bt] % len(orders[bt])]
        seen[bt] += 1
        mode = next(modes) if bt != "hotels" else None
        room_type = next(room_types) if bt != "trip tickets" else None
        task_rng = np.random.default_rng(stable_seed(FAMILY, VERSION, split, i))
        tasks.append(_make_task(task_rng, f"{split}-{i:03d}", tpl, mode, room_type))
    return tuple(tasks)


_FIXED = FixedSplits("Trip Booking", lambda: {split: _split(split) for split in SPLITS})


def generate_split(split: str) -> list[Task]:
    """The fixed tasks of ``split`` (``"test"``: 120, ``"demo"``: 11), always the same.

    Args:
        split: ``"test"`` or ``"demo"``.

    Returns:
        The tasks, with ids ``f"{split}-{i:03d}"``.

    Raises:
        ValueError: ``split`` is not a fixed split.
    """
    return _FIXED.tasks(split)


def train_task(k: int, world_seed: int = 0) -> Task:
    """The training task ``f"train-{k}"`` in the world of ``world_seed``, rebuilt from ``k``.

    Its goal never equals a test or demo goal (a clash is redrawn).

    Args:
        k: a non-negative task number.
        world_seed: the world whose travel inventory the task is built from.

    Returns:
        The task with id ``f"train-{k}"``.
    """
    rng = np.random.default_rng(stable_seed(FAMILY, VERSION, "train", k))
    return _FIXED.unseen(lambda _: generate_task(rng, f"train-{k}", world_seed=world_seed))


def checker_for(task: Task) -> CriteriaF1:
    """Every Trip Booking task is scored by the dict F1 of its criteria."""
    return CriteriaF1()


SUITE = TaskSuite(
    FAMILY, VERSION, tuple(SPLITS), generate_split, train_task, checker_for, data_dir=DATA_DIR
)
"""The Trip Booking tasks: ``test``, ``demo`` and ``train``, scored by the criteria's dict F1."""
