"""The Sheets service's state as plain data (JSON), and back.

What crosses process boundaries (the sandbox worker) and what a task's ``setup`` holds is plain
data: spreadsheets with their sheets, cells (``{"f": "=SUM(A1:A3)"}`` for a formula, the value
otherwise), formats, merges, filters, protected ranges and frozen rows and columns.
"""

from __future__ import annotations

from typing import Any

from toolgym.families.google_sheets.world.sheet import Formula, Spreadsheet, Worksheet


def _cell_out(value: Any) -> Any:
    return {"f": str(value)} if isinstance(value, Formula) else value


def _cell_in(value: Any) -> Any:
    if isinstance(value, dict):
        return Formula(str(value["f"]))
    return value


def sheet_to_data(ws: Worksheet) -> dict[str, Any]:
    """One sheet as plain data."""
    return {
        "sheetId": ws.sheet_id,
        "title": ws.title,
        "index": ws.index,
        "rows": ws.rows,
        "cols": ws.cols,
        "cells": [[r, c, _cell_out(v)] for (r, c), v in sorted(ws.cells.items())],
        "formats": [[r, c, f] for (r, c), f in sorted(ws.formats.items())],
        "merges": ws.merges,
        "basicFilter": ws.basic_filter,
        "protectedRanges": ws.protected,
        "frozenRows": ws.frozen_rows,
        "frozenCols": ws.frozen_cols,
        "notes": [[r, c, n] for (r, c), n in sorted(ws.notes.items())],
        "pivots": ws.pivots,
        "extra": ws.extra,
    }


def sheet_from_data(data: dict[str, Any]) -> Worksheet:
    """A sheet from :func:`sheet_to_data`."""
    return Worksheet(
        int(data["sheetId"]),
        str(data["title"]),
        int(data["index"]),
        int(data.get("rows", 1000)),
        int(data.get("cols", 26)),
        {(int(r), int(c)): _cell_in(v) for r, c, v in data.get("cells", [])},
        {(int(r), int(c)): dict(f) for r, c, f in data.get("formats", [])},
        list(data.get("merges", [])),
        data.get("basicFilter"),
        list(data.get("protectedRanges", [])),
        int(data.get("frozenRows", 0)),
        int(data.get("frozenCols", 0)),
        {(int(r), int(c)): str(n) for r, c, n in data.get("notes", [])},
        list(data.get("pivots", [])),
        dict(data.get("extra", {})),
    )


def book_to_data(book: Spreadsheet) -> dict[str, Any]:
    """A spreadsheet as plain data."""
    return {
        "id": book.spreadsheet_id,
        "title": book.title,
        "created": getattr(book, "created", 0),
        "modified": getattr(book, "modified", getattr(book, "created", 0)),
        "sheets": [sheet_to_data(ws) for ws in book.sheets],
        "namedRanges": book.named_ranges,
        "properties": book.properties,
    }


def book_from_data(data: dict[str, Any]) -> Spreadsheet:
    """A spreadsheet from :func:`book_to_data`."""
    book = Spreadsheet(str(data["id"]), str(data["title"]))
    book.sheets = [sheet_from_data(s) for s in data.get("sheets", [])]
    book.named_ranges = list(data.get("namedRanges", []))
    book.properties.update(data.get("properties", {}))
    created = int(data.get("created", 0))
    book.created = created  # type: ignore[attr-defined]
    book.modified = int(data.get("modified", created))  # type: ignore[attr-defined]
    return book


MAX_GRID_CELLS = 10_000_000
"""The most cells (rows times columns, all sheets) a spreadsheet may have, as in Google Sheets."""

MAX_CELL_CHARS = 50_000
"""The longest text or formula a cell may hold, as in Google Sheets."""

MAX_FILLED_CELLS = 500_000
"""The most cells with a value, a format or a note a simulated spreadsheet holds."""

MAX_PARTS = 10_000
"""The most merges, protected ranges, pivot tables (per sheet), sheets and named ranges."""

MAX_NESTING = 16
"""How deep a format, a range or a stored property may nest."""


def _shallow(value: Any, budget: list[int], depth: int = 0) -> bool:
    """Whether ``value`` nests at most :data:`MAX_NESTING` deep within the shared ``budget``."""
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_NESTING:
        return False
    if isinstance(value, dict):
        return all(_shallow(v, budget, depth + 1) for v in value.values())
    if isinstance(value, list):
        return all(_shallow(v, budget, depth + 1) for v in value)
    return True


def _is_int(value: Any, low: int = 0, high: int = MAX_GRID_CELLS) -> bool:
    return type(value) is int and low <= value <= high


def _cell_problem(value: Any) -> str | None:
    if isinstance(value, dict):
        if set(value) != {"f"} or type(value["f"]) is not str:
            return "a formula cell is {'f': <text>}"
        value = value["f"]
    if type(value) is str:
        return (
            None if len(value) <= MAX_CELL_CHARS else f"a cell holds over {MAX_CELL_CHARS:,} chars"
        )
    if value is None or type(value) in (bool, int):
        return None
    if type(value) is float:
        return None if value == value and abs(value) != float("inf") else "a cell holds NaN or inf"
    return f"a cell holds a {type(value).__name__}"


def sheet_problem(data: Any) -> str | None:
    """Why one sheet's plain data is not a sheet the service can hold (``None``: it is)."""
    if not isinstance(data, dict):
        return "a sheet is an object"
    if not (_is_int(data.get("sheetId"), 0, 2**31 - 1) and _is_int(data.get("index"), 0, 200)):
        return "a sheet's id and index are small non-negative integers"
    if type(data.get("title")) is not str or not 0 < len(data["title"]) <= 100:
        return "a sheet's title is text of 1 to 100 characters"
    rows, cols = data.get("rows", 1000), data.get("cols", 26)
    if not (_is_int(rows, 1) and _is_int(cols, 1, 18_278)):
        return "a sheet has 1 or more rows and 1 to 18,278 columns"
    for key in ("cells", "formats", "notes"):
        if not isinstance(data.get(key, []), list):
            return f"a sheet's {key} are a list"
        for item in data.get(key, []):
            if not (isinstance(item, list) and len(item) == 3):
                return f"each of a sheet's {key} is [row, column, value]"
            r, c, value = item
            if not (_is_int(r, 0, rows - 1) and _is_int(c, 0, cols - 1)):
                return f"a sheet's {key} lie inside its grid ({rows} x {cols})"
            if key == "cells":
                problem = _cell_problem(value)
                if problem:
                    return problem
            elif key == "formats" and not isinstance(value, dict):
                return "a cell format is an object"
            elif key == "notes" and (type(value) is not str or len(value) > MAX_CELL_CHARS):
                return "a note is text"
    for key in ("merges", "protectedRanges", "pivots"):
        if not isinstance(data.get(key, []), list) or not all(
            isinstance(x, dict) for x in data.get(key, [])
        ):
            return f"a sheet's {key} are a list of objects"
        if len(data.get(key, [])) > MAX_PARTS:
            return f"a sheet has over {MAX_PARTS:,} {key}"
    for pivot in data.get("pivots", []):
        if not (_is_int(pivot.get("row"), 0, rows) and _is_int(pivot.get("col"), 0, cols)):
            return "a pivot table's anchor lies inside the grid"
        if not isinstance(pivot.get("pivotTable"), dict):
            return "a pivot table is an object"
    for key in ("frozenRows", "frozenCols"):
        if not _is_int(data.get(key, 0), 0, rows if key == "frozenRows" else cols):
            return f"a sheet's {key} is a count inside its grid"
    if data.get("basicFilter") is not None and not isinstance(data["basicFilter"], dict):
        return "a sheet's basic filter is an object"
    if not isinstance(data.get("extra", {}), dict):
        return "a sheet's extra properties are an object"
    return None


def data_problem(data: Any) -> str | None:
    """Why the service's plain data (:meth:`SheetsApp.to_data`) cannot be loaded, or ``None``.

    Programs in the sandbox may change the simulated service freely; what they leave is checked
    against the limits the real service keeps (10 million cells per spreadsheet, 50,000
    characters per cell) and the shapes :func:`book_from_data` reads.
    """
    if not isinstance(data, dict) or not isinstance(data.get("books", []), list):
        return "the service's state is an object with a list of spreadsheets"
    if not _is_int(data.get("clock", 0), 0, 2**53):
        return "the service's clock is a non-negative integer"
    for book in data.get("books", []):
        if not isinstance(book, dict) or type(book.get("id")) is not str:
            return "a spreadsheet is an object with a text id"
        if type(book.get("title")) is not str or not isinstance(book.get("sheets"), list):
            return "a spreadsheet has a text title and a list of sheets"
        if not book["sheets"]:
            return "a spreadsheet has at least one sheet"
        if not isinstance(book.get("namedRanges", []), list):
            return "named ranges are a list of objects"
        if len(book["sheets"]) > MAX_PARTS or len(book.get("namedRanges", [])) > MAX_PARTS:
            return f"a spreadsheet has over {MAX_PARTS:,} sheets or named ranges"
        filled = sum(
            len(sh.get("cells", [])) + len(sh.get("formats", [])) + len(sh.get("notes", []))
            for sh in book["sheets"]
            if isinstance(sh, dict)
            and all(isinstance(sh.get(k, []), list) for k in ("cells", "formats", "notes"))
        )
        if filled > MAX_FILLED_CELLS:
            return f"a spreadsheet fills over {MAX_FILLED_CELLS:,} cells"
        budget = [2_000_000]
        shallow = _shallow(book.get("namedRanges", []), budget) and _shallow(
            book.get("properties", {}), budget
        )
        for sheet in book["sheets"]:
            if isinstance(sheet, dict):
                for key in ("merges", "protectedRanges", "pivots", "basicFilter", "extra"):
                    shallow = shallow and _shallow(sheet.get(key), budget)
                for item in (
                    sheet.get("formats", []) if isinstance(sheet.get("formats"), list) else []
                ):
                    shallow = shallow and _shallow(item, budget)
        if not shallow:
            return f"a spreadsheet's formats and properties nest over {MAX_NESTING} deep, or are too many"
        cells = 0
        titles: set[str] = set()
        ids: set[int] = set()
        for sheet in book["sheets"]:
            problem = sheet_problem(sheet)
            if problem:
                return problem
            cells += sheet.get("rows", 1000) * sheet.get("cols", 26)
            titles.add(sheet["title"])
            ids.add(sheet["sheetId"])
        if cells > MAX_GRID_CELLS:
            return f"a spreadsheet has {cells:,} cells, over the limit of {MAX_GRID_CELLS:,}"
        if len(titles) < len(book["sheets"]) or len(ids) < len(book["sheets"]):
            return "a spreadsheet's sheets have different titles and ids"
        named = book.get("namedRanges", [])
        if not isinstance(named, list) or not all(isinstance(n, dict) for n in named):
            return "named ranges are a list of objects"
        if not isinstance(book.get("properties", {}), dict):
            return "a spreadsheet's properties are an object"
    return None
