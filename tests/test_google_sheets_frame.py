"""The worksheet read as plain data directly is the frame pandas' parser reads, or it steps aside."""

from __future__ import annotations

import random
from typing import Any

import pytest

from toolgym.families.google_sheets.frame import (
    plain_table,
    settled_text,
    sheet_frame,
    table_of,
)
from toolgym.families.google_sheets.tasks import generate_split, train_task
from toolgym.families.google_sheets.toolkit import SheetsToolkit, load_service
from toolgym.families.google_sheets.world.service import SheetsApp
from toolgym.families.google_sheets.world.sheet import Worksheet

TASKS = generate_split("test") + generate_split("demo") + [train_task(k) for k in range(40)]


def _both(app: SheetsApp, key: str) -> tuple[Any, Any]:
    book = app.books[key]
    ws = book.sheets[-1]
    return plain_table(book, ws), table_of(sheet_frame(book, ws))


def test_every_gold_sheet_reads_the_same_both_ways_and_mostly_directly() -> None:
    backend = SheetsToolkit().new_backend()
    direct = 0
    states = 0
    for task in TASKS:
        for program in (None, *task.gold):  # the starting sheet, then each gold's
            backend.reset(None, task.setup)
            if program is not None:
                assert backend.run_code(program).error is None, (task.task_id, program)
            fast, slow = _both(load_service(backend.state), backend.state["spreadsheet"])
            states += 1
            if fast is not None:
                direct += 1
                assert fast == slow, (task.task_id, program)
    assert direct >= 0.8 * states, f"only {direct} of {states} sheets read directly"


UNSETTLED = (
    "NA", "nan", "None", "null", "#N/A", "N/A", "-nan", "True", "false", "TRUE", " x", "y ",
    "1e5", "12", "-3.5", ".5", "inf", "Infinity", "1_000", "١٢", "  ",
)  # fmt: skip
SETTLED = ("apple", "x\ny", "Unnamed: 1", "0x10", "1,000", "€5", "3 apples", "a", "b")
TRICKY_TEXT = UNSETTLED + SETTLED


NAMES = ("Name", "Count", "Price", "Total", "Region", "Month", "Units")


def _value(rng: random.Random, kind: str) -> Any:
    if rng.random() < 0.1:
        return ""
    if kind == "int":
        return rng.choice([rng.randint(-1000, 1000), rng.randint(-(1 << 70), 1 << 70)])
    if kind == "number":
        return rng.choice([rng.randint(-50, 50), rng.uniform(-1e6, 1e6), 0.5])
    if kind == "text":
        return rng.choice(["apple", "pear", "Fig tree", "x-1", "Q3 total", "a", "b"])
    if kind == "lookalike":  # text the parser reads as a number, a logical or a missing value
        return rng.choice([*UNSETTLED, "apple", "7", "2.5"])
    if kind == "settled":  # text that looks like something else but is not to the parser
        return rng.choice(SETTLED)
    return rng.choice(
        [*TRICKY_TEXT, True, False, 7, 2.5, rng.randint(-(1 << 70), 1 << 70)]
    )  # anything


def _random_sheet(rng: random.Random) -> tuple[SheetsApp, str]:
    app = SheetsApp()
    book = app.create("random")
    width, height = rng.randint(1, 6), rng.randint(0, 8)
    narrow = width == 1 and rng.random() < 0.5  # a grid of one column: the parser skips more
    book.sheets.append(Worksheet(1, "sheet_1", 1, 20, 1) if narrow else Worksheet(1, "sheet_1", 1))
    if rng.random() < 0.6:  # distinct plain names, some left empty
        header = [n if rng.random() < 0.85 else "" for n in rng.sample(NAMES, width)]
    else:  # names the parser may read otherwise, or twice
        header = [rng.choice(["Name", "Price", "", "2020", "NA", "True"]) for _ in range(width)]
    kinds = [
        rng.choice(["int", "number", "text", "settled", "lookalike", "any"]) for _ in range(width)
    ]
    rows = [header] + [[_value(rng, k) for k in kinds] for _ in range(height)]
    if rng.random() < 0.3 and height:  # a gap inside the table
        rows[rng.randint(1, height)] = [""] * width
    book.values_update("'sheet_1'!A1", rows, "RAW")
    return app, book.spreadsheet_id


def test_random_sheets_read_the_same_both_ways() -> None:
    rng = random.Random(7)
    direct = stepped_aside = 0
    for _ in range(1000):
        app, key = _random_sheet(rng)
        try:
            fast, slow = _both(app, key)
        except Exception as e:  # an empty sheet: the parser raises (EmptyDataError)
            assert "EmptyData" in type(e).__name__ or "No columns" in str(e)
            assert plain_table(app.books[key], app.books[key].sheets[-1]) is None
            continue
        if fast is None:
            stepped_aside += 1
        else:
            direct += 1
            assert fast == slow
    assert direct > 100 and stepped_aside > 100  # both kinds of sheet were drawn


@pytest.mark.parametrize("text", UNSETTLED)
def test_text_the_parser_could_read_otherwise_is_not_settled(text: str) -> None:
    assert not settled_text(text)


@pytest.mark.parametrize("text", SETTLED)
def test_plain_words_are_settled(text: str) -> None:
    assert settled_text(text)


ONE_COLUMN = (
    [["a"], [1], [2]],
    [["a"], [1], [""], [2]],
    [[""], ["x"], ["y"], [""], [3]],
    [["a"], ["  "], [3], [4.5]],
    [["a"]],
    [[""], [""], ["n"], [5], [True]],
    [["name"], ["x"], [2], ["NA"]],
)


@pytest.mark.parametrize("rows", ONE_COLUMN, ids=range(len(ONE_COLUMN)))
def test_a_one_column_grid_reads_as_gspread_dataframe_reads_it(rows: list[list[Any]]) -> None:
    """The parser skips a one-column row with no value, the header's too, and renumbers."""
    from gspread_dataframe import get_as_dataframe

    from toolgym.families.google_sheets.client import sheets_client

    app = SheetsApp()
    book = app.create("one column")
    book.sheets.append(Worksheet(1, "narrow", 1, 10, 1))
    book.values_update("'narrow'!A1", rows, "RAW")
    ws = book.sheets[-1]
    real = get_as_dataframe(
        sheets_client(app).open_by_key(book.spreadsheet_id).worksheets()[-1],
        evaluate_formulas=True,
    )
    ours = sheet_frame(book, ws)
    assert real.equals(ours) and list(real.dtypes) == list(ours.dtypes)
    assert list(real.columns) == list(ours.columns) and list(real.index) == list(ours.index)
    assert plain_table(book, ws) is None  # the direct reader leaves these to the parser
