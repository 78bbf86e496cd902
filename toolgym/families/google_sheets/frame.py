"""A worksheet read as the original benchmark reads it: ``get_as_dataframe(ws, evaluate_formulas=True)``.

Two readers of the same rows, with the same result:

* :func:`sheet_frame`, the DataFrame itself, through pandas' ``TextParser`` as gspread_dataframe
  does (its type inference decides what a column is: numbers stored as text read as numbers, an
  empty cell makes an integer column float);
* :func:`plain_table`, the same frame's columns, dtypes, index and rows as plain data, computed
  directly for sheets whose every value leaves the parser no choice (integers, numbers, or text
  that no reading could take for a number, a logical value or a missing one); it gives ``None``
  for any other sheet, which is then read through :func:`sheet_frame`.

:func:`frame_table` uses the second where it can (a Sheets step reads its outcome in about a
tenth of the time) and the first otherwise; ``tests/test_google_sheets_frame.py`` compares them on
every gold sheet and on random tables.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from toolgym.families.google_sheets.world.a1 import quote_title
from toolgym.families.google_sheets.world.sheet import Spreadsheet, Worksheet

INT64 = 1 << 63
"""Integers at or past this magnitude are not an ``int64`` column's."""

_LOGICAL_WORDS = frozenset({"true", "false"})


def sheet_rows(book: Spreadsheet, ws: Worksheet) -> tuple[list[list[Any]], list[int]]:
    """The rows gspread_dataframe parses (the header first, each padded) and the data rows' numbers.

    gspread_dataframe pads to the whole grid and parses every row. A row with nothing in it only
    adds empty values to each column (one does the same to the dtypes as many) and is dropped
    again, so the empty rows but one are left out, and the rows kept keep their numbers; one
    empty column past the used ones stands for the rest. A grid of one column is read as the
    parser reads it: rows with no value (or blank text) are skipped, the others numbered in order.
    """
    values = book.values_get(
        quote_title(ws.title), "UNFORMATTED_VALUE", "ROWS", "FORMATTED_STRING"
    ).get("values", [])
    used_rows, used_cols = book.used(ws)
    width = min(ws.cols, used_cols + 1)
    header, body = (values[0], values[1:]) if values else ([], [])
    rows: list[list[Any]] = []
    numbers: list[int] = []
    blank_kept = False
    for i in range(min(ws.rows, max(used_rows, 1) + 1) - 1):
        row = body[i] if i < len(body) else []
        if any(v != "" for v in row):
            rows.append(row)
            numbers.append(i)
        elif not blank_kept:
            rows.append([])
            numbers.append(i)
            blank_kept = True
    width = max(width, 1, *(len(r) for r in (header, *rows)))
    if width == 1:
        # One column: the parser skips every row whose one value is empty or blank text (the
        # header's too: the first row it keeps names the column), and numbers the rows it reads.
        filled = [
            list(r) for r in (header, *body) if r and (not isinstance(r[0], str) or r[0].strip())
        ]
        return filled, list(range(max(len(filled) - 1, 0)))
    return [list(r) + [""] * (width - len(r)) for r in (header, *rows)], numbers


def sheet_frame(book: Spreadsheet, ws: Worksheet) -> Any:
    """``get_as_dataframe(worksheet, evaluate_formulas=True)``, computed from the model.

    The same values, padding to the grid, parser and drops as gspread_dataframe 4, without its
    per-cell objects (a test compares the two on gold sheets).
    """
    return parsed_frame(*sheet_rows(book, ws))


def parsed_frame(padded: list[list[Any]], numbers: list[int]) -> Any:
    """:func:`sheet_frame` of the rows :func:`sheet_rows` gave."""
    import pandas as pd
    from gspread_dataframe import UNNAMED_COLUMN_NAME_PATTERN
    from pandas.io.parsers import TextParser

    try:
        frame = TextParser(padded).read(None)
    except pd.errors.EmptyDataError:  # nothing in the sheet (gspread_dataframe raises this too)
        return pd.DataFrame()
    frame.index = pd.Index(numbers, dtype="int64")
    missing = frame.isna()  # computed once: dropna(how="all") and the empty columns below
    kept = ~missing.all(axis=1).to_numpy()
    if not kept.all():
        frame, missing = frame[kept], missing[kept]
    empty = missing.all(axis=0).to_numpy()
    empty_unnamed = [
        label
        for label, blank in zip(frame.columns.to_numpy(), empty, strict=True)
        if blank and isinstance(label, str) and UNNAMED_COLUMN_NAME_PATTERN.search(label)
    ]
    if empty_unnamed:
        frame = frame.drop(labels=empty_unnamed, axis=1)
    assert isinstance(frame, pd.DataFrame)
    return frame


Table = tuple[list[Any], list[str], list[int], list[list[Any]]]
"""A frame as plain data: its column labels, dtypes (as text), index and rows (NaN as ``None``),
the columns that are entirely empty left out."""


def frame_table(book: Spreadsheet, ws: Worksheet) -> Table:
    """The worksheet's frame as plain data, its entirely empty columns left out (see the module)."""
    rows = sheet_rows(book, ws)  # read once (formulas evaluated once) for either reader
    fast = plain_rows(*rows)
    return fast if fast is not None else table_of(parsed_frame(*rows))


def table_of(frame: Any) -> Table:
    """A DataFrame as plain data, its entirely empty columns left out."""
    empty = frame.isna().all(axis=0)
    if empty.any():  # dropna(axis=1, how="all"), without its cost when nothing goes
        frame = frame.loc[:, ~empty.to_numpy()]
    return (
        [_plain(c) for c in frame.columns],
        [str(t) for t in frame.dtypes],
        [_plain(i) for i in frame.index],
        [[_plain(v) for v in row] for row in frame.itertuples(index=False)],
    )


def _plain(value: Any) -> Any:
    """A DataFrame cell as JSON (NaN as ``None``; numpy scalars as Python ones)."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def plain_table(book: Spreadsheet, ws: Worksheet) -> Table | None:
    """The frame as plain data where no value leaves the parser a choice; else ``None``.

    A column is read here when its values (the kept empty row's included, as the parser sees
    them) are all integers (``int64``; with an empty cell, ``float64``), all numbers
    (``float64``), or all :func:`settled_text` (the parser's text dtype); an empty cell is NaN
    (``None``). The header must be such text, or empty (``Unnamed: i``), with no two alike.
    """
    return plain_rows(*sheet_rows(book, ws))


def plain_rows(padded: list[list[Any]], numbers: list[int]) -> Table | None:
    """:func:`plain_table` of the rows :func:`sheet_rows` gave."""
    if len(padded) < 2 or len(padded[0]) < 2:  # one column: the parser's blank-row rules apply
        return None
    labels: list[str] = []
    for i, name in enumerate(padded[0]):
        if name == "":
            labels.append(f"Unnamed: {i}")
        elif type(name) is str and settled_text(name):
            labels.append(name)
        else:
            return None
    if len(set(labels)) != len(labels):
        return None
    body = padded[1:]
    kept_rows = [k for k, row in enumerate(body) if any(v != "" for v in row)]
    columns: list[str] = []
    dtypes: list[str] = []
    cells: list[list[Any]] = []
    for i, label in enumerate(labels):
        values = [row[i] for row in body]
        filled = [v for v in values if v != ""]
        if not filled:
            continue  # entirely empty: left out
        kinds = {type(v) for v in filled}
        if kinds == {int} and all(-INT64 <= v < INT64 for v in filled):
            if len(filled) == len(values):
                dtype, column = "int64", values
            else:
                dtype, column = "float64", [None if v == "" else float(v) for v in values]
        elif kinds <= {int, float} and all(abs(v) < INT64 and math.isfinite(v) for v in filled):
            dtype, column = "float64", [None if v == "" else float(v) for v in values]
        elif kinds == {str} and all(settled_text(v) for v in filled):
            dtype, column = _text_dtype(), [None if v == "" else v for v in values]
        else:
            return None
        columns.append(label)
        dtypes.append(dtype)
        cells.append(column)
    rows = [[column[k] for column in cells] for k in kept_rows]
    return columns, dtypes, [numbers[k] for k in kept_rows], rows


def settled_text(text: str) -> bool:
    """Whether the parser can only read ``text`` as itself.

    Not when it could be a number (anything ``float`` reads, which includes more than the
    parser does), a logical value, a missing value (pandas' NA words), or has space at either
    end.
    """
    if not text or text != text.strip() or text in _na_words():
        return False
    if text.lower() in _LOGICAL_WORDS:
        return False
    try:
        float(text)
    except ValueError:
        return True
    return False


@functools.cache
def _na_words() -> frozenset[str]:
    from pandas._libs.parsers import STR_NA_VALUES

    return frozenset(STR_NA_VALUES)


@functools.cache
def _text_dtype() -> str:
    """The dtype the parser gives a column of text (``str`` in pandas 3, ``object`` before)."""
    from pandas.io.parsers import TextParser

    return str(TextParser([["a"], ["b"]]).read(None).dtypes.iloc[0])
