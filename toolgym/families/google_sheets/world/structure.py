"""``spreadsheets.batchUpdate`` requests that change a sheet's layout rather than its values.

``sortRange`` (blanks last, numbers before text before logical values in ascending order, stable),
``mergeCells``/``unmergeCells`` (``MERGE_ALL`` keeps the top-left value only), ``repeatCell``
(formats, field by field), ``setBasicFilter``/``clearBasicFilter``, ``addProtectedRange`` and
``deleteProtectedRange``. Each takes the spreadsheet and the request's body and returns its reply;
ranges are the API's ``GridRange`` (0-based, half-open, open sides left out).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from toolgym.families.google_sheets.world.formulas import CellError
from toolgym.families.google_sheets.world.sheet import Spreadsheet, Worksheet, bad_request


def sheet_of(book: Spreadsheet, sheet_id: Any) -> Worksheet:
    """The sheet with this id (400 when there is none, as the API answers)."""
    for ws in book.sheets:
        if ws.sheet_id == sheet_id:
            return ws
    raise bad_request(f"No grid with id: {sheet_id}")


def grid_bounds(book: Spreadsheet, grid: dict[str, Any]) -> tuple[Worksheet, int, int, int, int]:
    """The sheet and (start_row, end_row, start_col, end_col) of a ``GridRange``."""
    ws = sheet_of(book, grid.get("sheetId", 0))
    r0, c0 = int(grid.get("startRowIndex", 0)), int(grid.get("startColumnIndex", 0))
    r1 = int(grid.get("endRowIndex", ws.rows))
    c1 = int(grid.get("endColumnIndex", ws.cols))
    if not (0 <= r0 <= r1 <= ws.rows and 0 <= c0 <= c1 <= ws.cols):
        raise bad_request(
            f"Invalid range: rows {r0}..{r1}, columns {c0}..{c1} are outside the grid "
            f"({ws.rows} x {ws.cols})"
        )
    return ws, r0, r1, c0, c1


def _sort_key(value: Any) -> tuple[int, Any]:
    if value is None or value == "":
        return (3, 0)
    if isinstance(value, bool):
        return (2, value)
    if isinstance(value, int | float):
        return (0, float(value))
    if isinstance(value, CellError):
        return (2, str(value))
    return (1, str(value).lower())


def sort_range(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``sortRange``: reorder the rows of a range by one or more columns."""
    ws, r0, r1, c0, c1 = grid_bounds(book, spec.get("range", {}))
    rows = list(range(r0, r1))
    keys = {r: {c: book.value(ws, r, c) for c in range(c0, c1)} for r in rows}
    for sort in reversed(spec.get("sortSpecs", [])):
        column = int(sort.get("dimensionIndex", 0))
        descending = sort.get("sortOrder", "ASCENDING") == "DESCENDING"
        present = [r for r in rows if _sort_key(keys[r].get(column))[0] != 3]
        blank = [r for r in rows if _sort_key(keys[r].get(column))[0] == 3]
        present.sort(key=lambda r: _sort_key(keys[r].get(column)), reverse=descending)
        rows = present + blank  # blanks last in both orders
    moved = {
        (r0 + i, c): ws.cells[(old, c)]
        for i, old in enumerate(rows)
        for c in range(c0, c1)
        if (old, c) in ws.cells
    }
    for r in range(r0, r1):
        for c in range(c0, c1):
            ws.cells.pop((r, c), None)
    ws.cells.update(moved)
    return {}


def merge_cells(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``mergeCells``: ``MERGE_ALL`` one block, ``MERGE_ROWS``/``MERGE_COLUMNS`` one per line.

    A merge the new one covers (the same range again, or a smaller one inside it) is replaced,
    as the real API does; one it only partly overlaps is a 400.
    """
    ws, r0, r1, c0, c1 = grid_bounds(book, spec.get("range", {}))
    kind = spec.get("mergeType", "MERGE_ALL")
    if kind == "MERGE_ALL":
        blocks = [(r0, r1, c0, c1)]
    elif kind == "MERGE_ROWS":
        blocks = [(r, r + 1, c0, c1) for r in range(r0, r1)]
    elif kind == "MERGE_COLUMNS":
        blocks = [(r0, r1, c, c + 1) for c in range(c0, c1)]
    else:
        raise bad_request(f"Invalid mergeType: {kind}")
    for a0, a1, b0, b1 in blocks:
        kept = []
        for m in ws.merges:
            inside = (
                a0 <= m["startRowIndex"]
                and m["endRowIndex"] <= a1
                and b0 <= m["startColumnIndex"]
                and m["endColumnIndex"] <= b1
            )
            apart = (
                a1 <= m["startRowIndex"]
                or m["endRowIndex"] <= a0
                or b1 <= m["startColumnIndex"]
                or m["endColumnIndex"] <= b0
            )
            if not inside and not apart:
                raise bad_request(
                    "Invalid requests[0].mergeCells: You can't merge overlapping merges"
                )
            if apart:
                kept.append(m)
        ws.merges = kept  # a merge the new one covers is replaced by it
        for r in range(a0, a1):
            for c in range(b0, b1):
                if (r, c) != (a0, b0):
                    ws.cells.pop((r, c), None)  # a merge keeps its top-left value
        ws.merges.append(
            {
                "sheetId": ws.sheet_id,
                "startRowIndex": a0,
                "endRowIndex": a1,
                "startColumnIndex": b0,
                "endColumnIndex": b1,
            }
        )
    return {}


def unmerge_cells(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``unmergeCells``: remove the merges that lie within the range."""
    ws, r0, r1, c0, c1 = grid_bounds(book, spec.get("range", {}))
    ws.merges = [
        m
        for m in ws.merges
        if not (
            r0 <= m["startRowIndex"]
            and m["endRowIndex"] <= r1
            and c0 <= m["startColumnIndex"]
            and m["endColumnIndex"] <= c1
        )
    ]
    return {}


_FIELDS = re.compile(r"^userEnteredFormat(?:\((.*)\))?$")


def repeat_cell(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``repeatCell``: set the listed ``userEnteredFormat`` fields on every cell of the range."""
    ws, r0, r1, c0, c1 = grid_bounds(book, spec.get("range", {}))
    fmt = (spec.get("cell") or {}).get("userEnteredFormat", {})
    match = _FIELDS.match(str(spec.get("fields", "")).replace(" ", ""))
    if match is None:
        raise bad_request(
            f"Invalid requests[0].repeatCell: unsupported fields {spec.get('fields')!r}"
        )
    names = None if match.group(1) is None else [f for f in match.group(1).split(",") if f]
    for r in range(r0, r1):
        for c in range(c0, c1):
            current = dict(ws.formats.get((r, c), {}))
            for key in names if names is not None else list(fmt):
                top = key.split(".")[0]
                if top in fmt:
                    current[top] = fmt[top]
                else:
                    current.pop(top, None)
            if names is None:
                current = dict(fmt)
            if current:
                ws.formats[(r, c)] = current
            else:
                ws.formats.pop((r, c), None)
    return {}


def set_basic_filter(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``setBasicFilter``: the sheet's one filter (replacing any).

    The range is kept with its bounds, as the API reports them: a whole-sheet filter (only a
    ``sheetId``) covers the sheet's rows and columns.
    """
    filt = dict(spec.get("filter", {}))
    ws, r0, r1, c0, c1 = grid_bounds(book, filt.get("range", {}))
    filt["range"] = {
        "sheetId": ws.sheet_id,
        "startRowIndex": r0,
        "endRowIndex": r1,
        "startColumnIndex": c0,
        "endColumnIndex": c1,
    }
    ws.basic_filter = filt
    return {}


def clear_basic_filter(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``clearBasicFilter``."""
    sheet_of(book, spec.get("sheetId", 0)).basic_filter = None
    return {}


def add_protected_range(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``addProtectedRange``: the reply carries the new ``protectedRangeId``."""
    protected = dict(spec.get("protectedRange", {}))
    ws, *_ = grid_bounds(book, protected.get("range", {}))
    taken = {p["protectedRangeId"] for s in book.sheets for p in s.protected}
    protected["protectedRangeId"] = next(i for i in range(1_000_000, 10**9) if i not in taken)
    protected.setdefault("warningOnly", False)
    ws.protected.append(protected)
    return {"addProtectedRange": {"protectedRange": protected}}


def delete_protected_range(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``deleteProtectedRange``."""
    wanted = spec.get("protectedRangeId")
    for ws in book.sheets:
        for p in ws.protected:
            if p["protectedRangeId"] == wanted:
                ws.protected.remove(p)
                return {}
    raise bad_request(f"No protected range with id: {wanted}")


REQUESTS: dict[str, Callable[[Spreadsheet, dict[str, Any]], dict[str, Any]]] = {
    "sortRange": sort_range,
    "mergeCells": merge_cells,
    "unmergeCells": unmerge_cells,
    "repeatCell": repeat_cell,
    "setBasicFilter": set_basic_filter,
    "clearBasicFilter": clear_basic_filter,
    "addProtectedRange": add_protected_range,
    "deleteProtectedRange": delete_protected_range,
}
"""The layout requests by name."""
