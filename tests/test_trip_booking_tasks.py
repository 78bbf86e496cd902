"""Tests of the generated Trip Booking tasks (toolgym.families.trip_booking.tasks)."""

from __future__ import annotations

import collections
import re

import numpy as np
import pytest

from toolgym.benchmarks.tasks import Task
from toolgym.families.trip_booking import tasks as tb
from toolgym.families.trip_booking.toolkit import TripBookingAPI, TripBookingToolkit
from toolgym.tools.program import run_program

TOOLKIT = TripBookingToolkit()
VARIABLES = {
    "location_from",
    "location_to",
    "hotel_location",
    "departure_date",
    "return_date",
    "checkin_date",
    "checkout_date",
}


def run_gold(task: Task) -> TripBookingAPI:
    session = TOOLKIT.new_session()
    run_program(task.gold[0], session)
    api = session.api
    assert isinstance(api, TripBookingAPI)
    return api


def check_offers(task: Task) -> None:
    api = run_gold(task)
    result = api.last_search
    assert result is not None, task.task_id
    kind = task.meta["booking_type"]
    assert result.criteria["booking_type"] == kind
    if kind in ("trip tickets", "both"):
        assert result.outbound, f"{task.task_id}: no outbound tickets"
        if "return_date" in result.criteria:
            assert result.inbound, f"{task.task_id}: no return tickets"
    if kind in ("hotels", "both"):
        assert result.rooms, f"{task.task_id}: no rooms"


def check_program_shape(task: Task) -> None:
    lines = task.gold[0].split("\n")
    kind = task.meta["booking_type"]
    assert len(task.gold) == 1
    assert lines[0] == f'API.select_booking_type("{kind}")'
    assert lines[-1] == "API.search()"
    calls = sorted(set(re.findall(r"^API\.(\w+)\(", task.gold[0], re.M)))
    assert calls == task.meta["calls"]
    assert len(calls) == sum(line.startswith("API.") for line in lines), "a call is repeated"
    assigned = set(re.findall(r"^(\w+) = ", task.gold[0], re.M))
    assert assigned <= VARIABLES
    if kind == "both":
        hotel = re.search(r'hotel_location = Loc\("([^"]+)"\)', task.gold[0])
        dest = re.search(r'location_to = Loc\("([^"]+)"\)', task.gold[0])
        assert hotel and dest and hotel.group(1) == dest.group(1)
    assert task.instruction == task.instruction.strip() and task.instruction[-1] in ".?"


@pytest.fixture(scope="module")
def splits() -> dict[str, list[Task]]:
    return {split: tb.generate_split(split) for split in tb.SPLITS}


def test_splits_match_packaged_files(splits: dict[str, list[Task]]) -> None:
    for split, tasks in splits.items():
        assert len(tasks) == tb.SPLITS[split]
        assert [t.task_id for t in tasks] == [f"{split}-{i:03d}" for i in range(len(tasks))]
        packaged = tb.SUITE.stored_split(split)
        assert list(packaged.values()) == tasks
        assert tb.generate_split(split) == tasks


def test_unknown_split() -> None:
    with pytest.raises(ValueError, match="unknown Trip Booking split"):
        tb.generate_split("train")


def test_generate_task_is_deterministic() -> None:
    for booking_type in ("trip tickets", "hotels", "both", None):
        a = tb.generate_task(np.random.default_rng(7), "x", booking_type=booking_type)
        b = tb.generate_task(np.random.default_rng(7), "x", booking_type=booking_type)
        assert a == b and a.task_id == "x"
        if booking_type is not None:
            assert a.meta["booking_type"] == booking_type
    with pytest.raises(ValueError):
        tb.generate_task(np.random.default_rng(0), "x", booking_type="cars")


def test_gold_programs_run_and_find_offers(splits: dict[str, list[Task]]) -> None:
    for tasks in splits.values():
        for task in tasks:
            check_program_shape(task)
            check_offers(task)


def test_test_split_mix(splits: dict[str, list[Task]]) -> None:
    tasks = splits["test"]
    bookings = collections.Counter(t.meta["booking_type"] for t in tasks)
    assert bookings == {"trip tickets": 44, "hotels": 44, "both": 32}
    modes = collections.Counter(t.meta["transportation"] for t in tasks)
    assert modes == {None: 44, "bus": 25, "flight": 20, "train": 17, "cruise": 14}
    rooms = collections.Counter(t.meta["room_type"] for t in tasks)
    assert {"King Bed", "Queen Bed", "Double", "Luxury"} <= set(rooms)
    assert max(rooms[r] for r in ("King Bed", "Queen Bed", "Double", "Luxury")) <= 16
    templates = {t.meta["template"] for t in tasks}
    assert len(templates) >= 20
    for kind in bookings:
        assert len({t.meta["template"] for t in tasks if t.meta["booking_type"] == kind}) >= 6
    assert len({t.instruction for t in tasks}) == len(tasks)
    # Most combined requests leave the ticket dates to default to the hotel dates.
    both = [t for t in tasks if t.meta["booking_type"] == "both"]
    explicit = [t for t in both if "set_departure_date" in t.meta["calls"]]
    assert len(explicit) < len(both) / 3


def test_demo_split_covers_everything(splits: dict[str, list[Task]]) -> None:
    tasks = splits["demo"]
    assert len(tasks) == 11
    assert {t.meta["booking_type"] for t in tasks} == {"trip tickets", "hotels", "both"}
    assert {t.meta["transportation"] for t in tasks} >= {"bus", "flight", "train", "cruise"}
    assert {t.meta["room_type"] for t in tasks} >= {"King Bed", "Queen Bed", "Double", "Luxury"}


def test_gold_values_appear_in_goal(splits: dict[str, list[Task]]) -> None:
    for task in splits["test"]:
        criteria = run_gold(task).search_criteria
        for key in ("location_from", "location_to", "location", "room_type"):
            if key in criteria:
                assert criteria[key] in task.instruction, (task.task_id, key)
        for key in ("means_of_transportation",):
            words = {"flight": ("fly", "flight", "plane", "airline"), "cruise": ("cruise",)}
            mode = criteria.get(key)
            if mode is not None:
                assert any(w in task.instruction for w in words.get(mode, (mode,))), task.task_id


def test_train_pairs(splits: dict[str, list[Task]]) -> None:
    first = list(tb.SUITE.train_pairs(50))
    assert first == list(tb.SUITE.train_pairs(50))
    assert [t.task_id for t in first] == [f"train-{k}" for k in range(50)]
    held_out = {t.instruction for tasks in splits.values() for t in tasks}
    assert not held_out & {t.instruction for t in first}
    assert tb.train_task(17) == first[17]
    assert next(tb.SUITE.train_pairs(1, seed=1)).task_id == f"train-{2**32}"
    assert len(list(tb.SUITE.train_pairs(0))) == 0
    for task in first:
        check_program_shape(task)
        check_offers(task)


def test_sample_train_task() -> None:
    a = tb.SUITE.sample_train_task(np.random.default_rng(3))
    b = tb.SUITE.sample_train_task(np.random.default_rng(3))
    assert a == b
    k = int(str(a.task_id).removeprefix("train-"))
    assert tb.train_task(k) == a
    check_offers(a)
