"""The Sheets service's state as plain data (JSON), and back.

What crosses process boundaries (the sandbox worker) and what a task's ``setup`` holds is plain
data: spreadsheets with their sheets, cells (``{"f": "=SUM(A1:A3)"}`` for a formula, the value
otherwise), formats, merges, filters, protected ranges and frozen rows and columns.
"""

from __future__ import annotations

from typing import Any

from toolgym.simulators.google_sheets.sheet import Formula, Spreadsheet, Worksheet


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
    book.created = int(data.get("created", 0))  # type: ignore[attr-defined]
    return book
