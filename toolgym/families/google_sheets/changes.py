"""What a program did to the task's spreadsheet, as the calls a conversation's guess check reads.

A Sheets program is Python that may compute anything before it writes, so its effect is read
from the spreadsheet it leaves, compared with the one it started from
(:meth:`SheetsBackend.calls_since`). Each change is a call of the service:

* ``write_cell``: a cell now shows a value it did not show before, which the spreadsheet now
  holds more often than it did (moving rows or cells around writes nothing). Its arguments are
  the ``value`` as the cell shows it (formulas evaluated), and ``at`` (``"3 4 15"``: row, column
  and value) and ``a1`` (``"D3 15"``), the ways a conversation slot writes a cell of the gold;
* ``format_cells``: a cell format the spreadsheet holds more often than before (``format``);
* ``sort_rows``: the rows of the scored sheet, read as the checker reads them (empty cells left
  out, numbers written as text read as numbers), are now in order by a ``column``, ``asc`` or
  ``des`` (``order``), and were not before;
* ``add_pivot_table``: a pivot table added or changed (its ``anchor``);
* ``rename_sheet`` and ``rename_spreadsheet``: a new ``title``.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Hashable, Mapping
from typing import Any

from toolgym.families.google_sheets.world.a1 import column_letters
from toolgym.families.google_sheets.world.grid_data import effective_format
from toolgym.families.google_sheets.world.service import SheetsApp
from toolgym.families.google_sheets.world.sheet import Spreadsheet, Worksheet
from toolgym.tools.json_calls import ToolCall

MIN_SORTED_ROWS = 3
"""Rows a column needs before its order says anything (two rows are always in some order)."""


def _key(value: Any) -> Hashable:
    """A shown value as a key: numbers by value, text as it is."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        try:
            return float(value)
        except OverflowError:  # an int too large for a float: itself
            return ("int", value)
    return str(value)


def _text(value: Any) -> str:
    """A shown value as a slot writes it (``34``, ``20.4``, ``Total``)."""
    if isinstance(value, float) and not isinstance(value, bool):
        return f"{value:.12g}"
    if isinstance(value, int) and value.bit_length() > 128:
        return "(a number of more than 38 digits)"
    return str(value)


def _shown(book: Spreadsheet, ws: Worksheet) -> dict[tuple[int, int], Any]:
    """Every non-empty cell of ``ws`` as it shows (formulas evaluated)."""
    out = {}
    for row, col in list(ws.cells):
        value = book.rendered(ws, row, col, "UNFORMATTED_VALUE")
        if value not in (None, ""):
            out[(row, col)] = value
    return out


def _formats(ws: Worksheet) -> dict[tuple[int, int], str]:
    """Each formatted cell's effective format, as JSON text."""
    return {
        cell: json.dumps(effective_format(ws, *cell), sort_keys=True, default=str)
        for cell in ws.formats
    }


def _comparable(column: list[Any]) -> list[Any]:
    """A column's values as one type: numbers when every one reads as a number, else text."""
    values = [_text(v) for v in column if v is not None and v != ""]
    try:
        return [float(v.lstrip("'").replace(",", "")) for v in values]
    except ValueError:
        return [v.strip().lower() for v in values]


def _order(column: list[Any]) -> str | None:
    """``asc`` or ``des`` when the column's values (empty ones left out) are in that order."""
    keys = _comparable(column)
    if len(keys) < MIN_SORTED_ROWS or len(set(keys)) < 2:
        return None
    pairs = list(itertools.pairwise(keys))
    if all(a <= b for a, b in pairs):
        return "asc"
    if all(a >= b for a, b in pairs):
        return "des"
    return None


def _sorted_by(frame: Mapping[str, Any]) -> dict[str, str]:
    """The columns a scored frame's rows are in order by (by label), and which order."""
    columns, rows = frame.get("columns") or [], frame.get("rows") or []
    orders = {}
    for j, label in enumerate(columns):
        order = _order([row[j] if j < len(row) else None for row in rows])
        if order is not None:
            orders[str(label)] = order
    return orders


def sheet_changes(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    app: SheetsApp | None = None,
    frames: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None,
    old_app: SheetsApp | None = None,
) -> list[ToolCall]:
    """The changes from the Sheets state ``before`` to ``after`` (see the module docstring).

    Args:
        before: the state a program started from (``{"app", "spreadsheet"}``).
        after: the state it left.
        app: ``after``'s service, when it is loaded already.
        frames: the scored frames of ``before`` and ``after`` (``{"columns", "rows"}``, as the
            checker reads the sheet), for the order of the rows; without them no order is read.
        old_app: ``before``'s service, when it is loaded already.
    """
    if old_app is None:
        old_app = SheetsApp()
        old_app.load_data(before["app"])
    if app is None:
        app = SheetsApp()
        app.load_data(after["app"])
    old_book = old_app.books.get(before["spreadsheet"])
    book = app.books.get(after["spreadsheet"])
    if old_book is None or book is None:
        return []
    calls: list[ToolCall] = []
    if book.title != old_book.title:
        calls.append(ToolCall("rename_spreadsheet", {"title": book.title}))
    old_sheets = {ws.sheet_id: ws for ws in old_book.sheets}
    old_shown = {ws.sheet_id: _shown(old_book, ws) for ws in old_book.sheets}
    shown = {ws.sheet_id: _shown(book, ws) for ws in book.sheets}
    counts_before = Counter(_key(v) for cells in old_shown.values() for v in cells.values())
    counts_after = Counter(_key(v) for cells in shown.values() for v in cells.values())
    formats_before = Counter(f for ws in old_book.sheets for f in _formats(ws).values())
    for ws in book.sheets:
        old = old_sheets.get(ws.sheet_id)
        if old is None or old.title != ws.title:
            calls.append(ToolCall("rename_sheet", {"title": ws.title}))
        was = old_shown.get(ws.sheet_id, {})
        for (row, col), value in shown[ws.sheet_id].items():
            key = _key(value)
            previous = was.get((row, col))
            if previous is not None and _key(previous) == key:
                continue
            if counts_after[key] <= counts_before[key]:
                continue
            a1 = f"{column_letters(col + 1)}{row + 1}"
            calls.append(
                ToolCall(
                    "write_cell",
                    {
                        "sheet": ws.title,
                        "cell": a1,
                        "value": value,
                        "at": f"{row + 1} {col + 1} {_text(value)}",
                        "a1": f"{a1} {_text(value)}",
                    },
                )
            )
        formats = _formats(ws)
        old_formats = _formats(old) if old is not None else {}
        new = Counter(formats.values())
        for cell, fmt in formats.items():
            if old_formats.get(cell) != fmt and new[fmt] > formats_before[fmt]:
                a1 = f"{column_letters(cell[1] + 1)}{cell[0] + 1}"
                calls.append(ToolCall("format_cells", {"cell": a1, "format": json.loads(fmt)}))
                break  # one call says the format changed
        old_pivots = [] if old is None else old.pivots
        for pivot in ws.pivots:
            if pivot not in old_pivots:
                a1 = f"{column_letters(int(pivot['col']) + 1)}{int(pivot['row']) + 1}"
                calls.append(ToolCall("add_pivot_table", {"sheet": ws.title, "anchor": a1}))
    if frames is not None:
        then, now = _sorted_by(frames[0]), _sorted_by(frames[1])
        for label, order in now.items():
            if then.get(label) != order:
                calls.append(ToolCall("sort_rows", {"column": label, "order": order}))
    return calls
