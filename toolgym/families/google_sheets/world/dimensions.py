"""Rows and columns: inserting and deleting them, and appending rows after a table.

:func:`shift` moves cells, formats and notes, resizes the grid, and rewrites what points at the
moved cells: formulas in every sheet (:mod:`.references`), merges, the filter, protected and named
ranges. :func:`values_append` is ``spreadsheets.values.append``, which inserts rows when asked.
"""

from __future__ import annotations

from typing import Any

from toolgym.families.google_sheets.world.a1 import A1Range
from toolgym.families.google_sheets.world.references import shift_formula
from toolgym.families.google_sheets.world.sheet import (
    Formula,
    Spreadsheet,
    Worksheet,
    bad_request,
    rows_of,
)


def values_append(
    book: Spreadsheet,
    text: str,
    values: Any,
    value_input_option: str,
    insert_data_option: str = "OVERWRITE",
    major_dimension: str | None = None,
) -> dict[str, Any]:
    """``spreadsheets.values.append``: write after the last row of the table the range finds.

    For a single cell, the table is the run of non-empty rows from that cell's row, in the
    columns from it on. For a wider range (a sheet name: the whole sheet), it is the block of
    touching non-empty cells (diagonals included) in the range's columns that holds the last
    one, by rows then columns, as the real API finds it: after a row ``x1, "", x3`` the table is
    ``C1`` and the new row goes to ``C2`` (gspread's ``append_row`` indentation). With
    ``majorDimension=COLUMNS`` the same is done along columns (the values are columns, written
    after the table's last column). ``INSERT_ROWS`` inserts rows for the new data,
    ``OVERWRITE`` writes over what follows; the grid grows when the data goes past its end.
    """
    if insert_data_option not in ("OVERWRITE", "INSERT_ROWS"):
        raise bad_request(f"Invalid insertDataOption: {insert_data_option}")
    rows = rows_of(values)
    by_columns = (major_dimension or "ROWS") == "COLUMNS"
    ws, ref = book.resolve(text)
    r0, c0 = ref.start_row or 0, ref.start_col or 0
    single = ref.end_row == r0 + 1 and ref.end_col == c0 + 1
    # Along rows (a, b = row, column) or along columns (a, b = column, row).
    a0, b0 = (c0, r0) if by_columns else (r0, c0)
    b_end = ref.end_row if by_columns else ref.end_col
    b1 = (ws.rows if by_columns else ws.cols) if b_end is None or single else b_end
    cells = [((c, r) if by_columns else (r, c)) for (r, c) in ws.cells]
    inside = [(a, b) for (a, b) in cells if b0 <= b < b1 and a >= a0]
    if single or not inside:
        filled = {a for (a, b) in inside}
        first = last = a0
        while last in filled:
            last += 1
        bs = [b for (a, b) in inside if first <= a < last]
    else:
        found = _last_table(inside)
        first, last = min(a for a, _ in found), max(a for a, _ in found) + 1
        bs = [b for _, b in found]
    reply: dict[str, Any] = {"spreadsheetId": book.spreadsheet_id}
    if last > first:
        table = (
            A1Range(ws.title, min(bs), max(bs) + 1, first, last)
            if by_columns
            else A1Range(ws.title, first, last, min(bs), max(bs) + 1)
        )
        reply["tableRange"] = table.to_a1()
        start_a, start_b = last, min(bs)
    else:
        start_a, start_b = first, b0
    count = len(rows)
    if insert_data_option == "INSERT_ROWS":
        (shift_columns if by_columns else shift_rows)(book, ws, start_a, count)
    if by_columns:
        ws.cols = max(ws.cols, start_a + count)
        row, col = start_b, start_a
    else:
        ws.rows = max(ws.rows, start_a + count)
        row, col = start_a, start_b
    reply["updates"] = book.values_update(
        A1Range(ws.title, row, row + 1, col, col + 1).to_a1(),
        rows,
        value_input_option,
        major_dimension,
    )
    return reply


def _last_table(cells: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The cells of the block of touching cells (8 neighbours) that holds the last cell."""
    filled = set(cells)
    start = max(filled)
    block = {start}
    todo = [start]
    while todo:
        a, b = todo.pop()
        for da in (-1, 0, 1):
            for db in (-1, 0, 1):
                near = (a + da, b + db)
                if near in filled and near not in block:
                    block.add(near)
                    todo.append(near)
    return list(block)


def _shift(ws: Worksheet, axis: int, at: int, count: int) -> None:
    """Move cells and formats whose ``axis`` index (0 rows, 1 columns) is ``at`` or more."""
    for store in (ws.cells, ws.formats, ws.notes):
        moved: dict[tuple[int, int], Any] = {}
        for key, value in store.items():
            index = key[axis]
            if index >= at and count < 0 and index < at - count:
                continue  # a deleted row or column
            if index >= at:
                key = (index + count, key[1]) if axis == 0 else (key[0], index + count)
            moved[key] = value
        store.clear()
        store.update(moved)
    for pivot in ws.pivots:
        name = "row" if axis == 0 else "col"
        if pivot[name] >= at:
            pivot[name] = max(at, pivot[name] + count)


def _shift_grid(grid: dict[str, Any], axis: int, at: int, count: int) -> bool:
    """Move a ``GridRange`` in place; ``False`` when every row (or column) of it was deleted."""
    start, end = (
        ("startRowIndex", "endRowIndex") if axis == 0 else ("startColumnIndex", "endColumnIndex")
    )
    lo, hi = grid.get(start, 0), grid.get(end)
    new_lo = lo if lo < at else (at if count < 0 and lo < at - count else lo + count)
    if hi is not None:
        new_hi = hi if hi <= at else (at if count < 0 and hi <= at - count else hi + count)
        if new_hi <= new_lo:
            return False
        grid[end] = new_hi
    if start in grid or new_lo:
        grid[start] = new_lo
    return True


def shift(book: Spreadsheet, ws: Worksheet, axis: int, at: int, count: int) -> None:
    """Insert (``count > 0``) or delete (``count < 0``) rows (``axis=0``) or columns at ``at``.

    Cells, formats and notes move; the grid grows or shrinks; formulas in every sheet that point
    at the moved cells are rewritten (:mod:`.references`), as are merges, the filter, protected
    and named ranges of the sheet (those whose cells are all deleted go).
    """
    _shift(ws, axis, at, count)
    if axis == 0:
        ws.rows = max(1, ws.rows + count)
    else:
        ws.cols = max(1, ws.cols + count)
    for sheet in book.sheets:
        for key, value in sheet.cells.items():
            if isinstance(value, Formula):
                sheet.cells[key] = Formula(
                    shift_formula(value, sheet.title, ws.title, axis, at, count)
                )
    ws.merges = [m for m in ws.merges if _shift_grid(m, axis, at, count)]
    ws.protected = [p for p in ws.protected if _shift_grid(p.get("range", {}), axis, at, count)]
    if ws.basic_filter is not None and not _shift_grid(
        ws.basic_filter.setdefault("range", {}), axis, at, count
    ):
        ws.basic_filter = None
    book.named_ranges = [
        n
        for n in book.named_ranges
        if n.get("range", {}).get("sheetId", 0) != ws.sheet_id
        or _shift_grid(n.setdefault("range", {}), axis, at, count)
    ]
    book.changed()


def shift_rows(book: Spreadsheet, ws: Worksheet, at: int, count: int) -> None:
    """:func:`shift` of rows."""
    shift(book, ws, 0, at, count)


def shift_columns(book: Spreadsheet, ws: Worksheet, at: int, count: int) -> None:
    """:func:`shift` of columns."""
    shift(book, ws, 1, at, count)
