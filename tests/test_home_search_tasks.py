"""Tests of the generated Home Search tasks (toolgym.families.home_search.tasks)."""

from __future__ import annotations

import ast
import collections
import re

import numpy as np
import pytest

from toolgym.benchmarks.tasks import Task
from toolgym.families.home_search import tasks as hs
from toolgym.families.home_search.toolkit import HomeSearchAPI, HomeSearchToolkit
from toolgym.families.home_search.world import BUY_HOME_TYPES, RENT_HOME_TYPES
from toolgym.tools.program import run_program

TOOLKIT = HomeSearchToolkit()
TEST = hs.generate_split("test")
DEMO = hs.generate_split("demo")
BUY_WORDS = re.compile(r"\b(buy|buying|purchase|sale)\b", re.IGNORECASE)
RENT_WORDS = re.compile(r"\b(rent|renting|rentals?|lease)\b", re.IGNORECASE)


def run_gold(task: Task) -> HomeSearchAPI:
    session = TOOLKIT.new_session()
    run_program(task.gold[0], session)
    api = session.api
    assert isinstance(api, HomeSearchAPI)
    return api


def calls(task: Task) -> list[tuple[str, list[object]]]:
    """(function, literal arguments) of each line of the gold program."""
    out = []
    for line in task.gold[0].splitlines():
        node = ast.parse(line, mode="eval").body
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
        out.append((node.func.attr, [ast.literal_eval(a) for a in node.args]))
    return out


def check_task(task: Task) -> None:
    """The gold program's shape, its search results, and the goal's buy/rent words."""
    api = run_gold(task)
    assert api.last_search is not None and api.last_search.listings, task.task_id
    program = calls(task)
    names = [name for name, _ in program]
    assert names[:2] == ["set_location", "set_buy_or_rent"] and names[-1] == "search"
    assert sorted(names[2:-1]) == task.meta["setters"]
    assert 1 <= len(task.meta["setters"]) <= hs.MAX_SETTERS
    city, mode = program[0][1][0], program[1][1][0]
    assert mode == task.meta["buy_or_rent"]
    assert city in task.instruction
    if mode == "buy":
        assert BUY_WORDS.search(task.instruction) and not RENT_WORDS.search(task.instruction)
    else:
        assert RENT_WORDS.search(task.instruction) and not BUY_WORDS.search(task.instruction)
    allowed = BUY_HOME_TYPES if mode == "buy" else RENT_HOME_TYPES
    for name, args in program:
        if name == "select_home_type":
            assert isinstance(args[0], list) and set(args[0]) <= set(allowed)
        elif name == "set_num_baths":
            assert isinstance(args[0], int | float) and args[0] * 2 == int(args[0] * 2)
        elif name.startswith("set_") and name not in ("set_location", "set_buy_or_rent"):
            assert isinstance(args[0], int) and args[0] > 0, (task.task_id, name)


def test_split_sizes_and_ids() -> None:
    assert len(TEST) == hs.SPLITS["test"] == 100
    assert len(DEMO) == hs.SPLITS["demo"] == 10
    assert [t.task_id for t in TEST] == [f"test-{i:03d}" for i in range(100)]
    assert [t.task_id for t in DEMO] == [f"demo-{i:03d}" for i in range(10)]
    with pytest.raises(ValueError, match="unknown Home Search split"):
        hs.generate_split("validation")


@pytest.mark.parametrize("split", ["test", "demo"])
def test_split_is_deterministic_and_matches_the_data_file(split: str) -> None:
    generated = hs.generate_split(split)
    again = hs.generate_split(split)
    assert [t.to_record() for t in generated] == [t.to_record() for t in again]
    packaged = hs.SUITE.stored_split(split)
    assert [t.to_record() for t in packaged.values()] == [t.to_record() for t in generated]


@pytest.mark.parametrize("task", TEST + DEMO, ids=lambda t: str(t.task_id))
def test_gold_programs_run_and_find_listings(task: Task) -> None:
    check_task(task)


def test_demos_leave_out_three_setters_and_test_call_sets_differ() -> None:
    demo_sets = {frozenset(t.meta["setters"]) for t in DEMO}
    assert len(demo_sets) == len(DEMO)
    for task in DEMO:
        assert not set(task.meta["setters"]) & hs.DEMO_EXCLUDED_SETTERS
    assert {t.meta["buy_or_rent"] for t in DEMO} == {"buy", "rent"}
    assert len(set().union(*demo_sets)) >= 6
    for task in TEST:
        assert frozenset(task.meta["setters"]) not in demo_sets, task.task_id


def test_test_split_statistics() -> None:
    assert len({t.meta["template"] for t in TEST}) >= 20
    assert len({t.instruction for t in TEST}) == len(TEST)
    assert not {t.instruction for t in TEST} & {t.instruction for t in DEMO}
    counts = collections.Counter(s for t in TEST for s in t.meta["setters"])
    for name, target in hs.SETTER_FREQUENCIES.items():
        assert abs(100 * counts[name] / len(TEST) - target) <= 12, (name, counts[name])
    buy = sum(t.meta["buy_or_rent"] == "buy" for t in TEST) / len(TEST)
    assert 0.40 <= buy <= 0.65


def test_goal_mentions_the_program_numbers() -> None:
    # Spot check: every count, price or size of the program appears in the goal in some form.
    words = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    for task in TEST:
        text = task.instruction.replace(",", "")
        for name, args in calls(task)[2:-1]:
            value = args[0]
            if name in ("set_num_beds", "set_num_garages", "set_num_balconies"):
                options = {str(value)} | ({words[value - 1], "a "} if value <= 10 else set())
            elif name in ("set_min_price", "set_max_price") and value >= 10_000:
                options = {str(value), f"{value // 1000}", f"{value / 1e6:g}"}
            elif name in ("set_min_square_feet", "set_max_square_feet", "set_min_price"):
                options = {str(value)}
            else:
                continue
            assert any(o in text for o in options), (task.task_id, name, value)


def test_train_pairs_are_deterministic_and_held_out() -> None:
    first = list(hs.SUITE.train_pairs(50))
    again = list(hs.SUITE.train_pairs(50))
    assert [t.to_record() for t in first] == [t.to_record() for t in again]
    assert [t.task_id for t in first] == [f"train-{k}" for k in range(50)]
    held_out = {t.instruction for t in TEST + DEMO}
    assert not {t.instruction for t in first} & held_out
    assert hs.train_task(17).to_record() == first[17].to_record()
    for task in first:
        check_task(task)
    other = next(hs.SUITE.train_pairs(1, seed=1))
    assert other.task_id == f"train-{2**32}"
    assert sum(1 for _ in hs.SUITE.train_pairs(3)) == 3


def test_sample_train_task_and_generate_task() -> None:
    a = hs.SUITE.sample_train_task(np.random.default_rng(5))
    b = hs.SUITE.sample_train_task(np.random.default_rng(5))
    assert a.to_record() == b.to_record()
    k = int(str(a.task_id).removeprefix("train-"))
    assert hs.train_task(k).to_record() == a.to_record()
    chosen = frozenset({"set_floor_number", "num_swimming_pools", "set_max_commute_time"})
    task = hs.generate_task(np.random.default_rng(3), "x", setters=chosen)
    assert task.meta["setters"] == [
        "set_floor_number",
        "set_max_commute_time",
        "set_num_swimming_pools",
    ]
    check_task(task)
    with pytest.raises(ValueError, match="unknown Home Search setter"):
        hs.generate_task(np.random.default_rng(3), "x", setters=frozenset({"set_color"}))
    with pytest.raises(ValueError, match="1 to 6"):
        hs.generate_task(np.random.default_rng(3), "x", setters=frozenset())
