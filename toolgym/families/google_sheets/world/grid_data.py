"""Cell data: ``includeGridData`` read-back, ``updateCells``, field masks, pivot tables.

* :func:`cell_data` is a cell as the API's ``CellData``: ``userEnteredValue``, ``effectiveValue``,
  ``formattedValue``, ``userEnteredFormat``, ``effectiveFormat`` (the sheet's default format with
  the cell's own on top) and ``note``.
* :func:`grid_data` answers ``spreadsheets.get`` with ``includeGridData=true`` (or ``ranges``):
  each sheet carries ``data``, one ``GridData`` per requested range, with ``startRow``,
  ``startColumn`` and ``rowData`` (empty trailing cells and rows left out, as the API does).
* field masks (``sheets.data.rowData.values.note``,
  ``sheets(properties(title,sheetId))``), for any answer.
* :func:`update_cells` is the ``updateCells`` request: values, formats, notes and pivot tables
  (stored with the sheet, rendered as values at their anchor cell).
"""

from __future__ import annotations

import copy
import json
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from toolgym.families.google_sheets.world.a1 import column_letters, looks_like_cells
from toolgym.families.google_sheets.world.formulas import CellError
from toolgym.families.google_sheets.world.sheet import (
    Formula,
    Spreadsheet,
    Worksheet,
    bad_request,
    format_number,
)
from toolgym.families.google_sheets.world.structure import grid_bounds, sheet_of
from toolgym.families.google_sheets.world.wire import (
    COLUMN_PIXELS,
    ROW_PIXELS,
    Wired,
    dimension_metadata,
    wire,
)

DEFAULT_FORMAT: dict[str, Any] = {
    "backgroundColor": {"red": 1, "green": 1, "blue": 1},
    "padding": {"top": 2, "right": 3, "bottom": 2, "left": 3},
    "verticalAlignment": "BOTTOM",
    "wrapStrategy": "OVERFLOW_CELL",
    "textFormat": {
        "foregroundColor": {},
        "fontFamily": "arial,sans,sans-serif",
        "fontSize": 10,
        "bold": False,
        "italic": False,
        "strikethrough": False,
        "underline": False,
        "foregroundColorStyle": {"rgbColor": {}},
    },
    "backgroundColorStyle": {"rgbColor": {"red": 1, "green": 1, "blue": 1}},
}
"""The effective format of a cell nobody formatted (the API's default for a new spreadsheet)."""


def _merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def effective_format(ws: Worksheet, row: int, col: int) -> dict[str, Any]:
    """The format a cell shows: the default with the cell's own format on top.

    A colour the cell sets without its ``...Style`` twin (or the reverse) replaces the
    default's twin too; the service writes the twin back from the one set.
    """
    own = ws.formats.get((row, col)) or {}
    out = _merge(DEFAULT_FORMAT, own)
    for part, mine in ((out, own), (out.get("textFormat") or {}, own.get("textFormat") or {})):
        for key in mine:
            if key.endswith("Color") and f"{key}Style" not in mine:
                part.pop(f"{key}Style", None)
            if key.endswith("ColorStyle") and key[: -len("Style")] not in mine:
                part.pop(key[: -len("Style")], None)
    return out


def _typed(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int | float):
        return {"numberValue": value}
    if isinstance(value, CellError):
        return {"errorValue": {"type": "ERROR", "message": f"{value} error"}}
    return {"stringValue": str(value)}


class _Formats:
    """Each distinct format of one answer, rendered once.

    The rendering (:class:`~.wire.Wired`) is shared by the cells that have the format: most
    cells of a sheet have the default.
    """

    def __init__(self) -> None:
        self._effective: dict[str, Wired] = {}
        self._entered: dict[str, Wired] = {}

    def effective(self, ws: Worksheet, row: int, col: int) -> Wired:
        own = ws.formats.get((row, col))
        key = _key(own)
        found = self._effective.get(key)
        if found is None:
            found = self._effective[key] = Wired(wire(effective_format(ws, row, col)))
        return found

    def entered(self, own: dict[str, Any]) -> Wired:
        key = _key(own)
        found = self._entered.get(key)
        if found is None:
            found = self._entered[key] = Wired(wire(own))
        return found


def _key(format_: dict[str, Any] | None) -> str:
    """A format's identity as text (equal formats, equal keys)."""
    return json.dumps(format_, sort_keys=True, default=repr) if format_ else ""


def cell_data(
    book: Spreadsheet, ws: Worksheet, row: int, col: int, formats: _Formats | None = None
) -> dict[str, Any]:
    """A cell as the API's ``CellData`` (empty dict for an empty, unformatted cell).

    With ``formats`` (one per answer), its formats are the shared, already written renderings.
    """
    out: dict[str, Any] = {}
    entered = ws.cells.get((row, col))
    if entered is not None:
        if isinstance(entered, Formula):
            out["userEnteredValue"] = {"formulaValue": str(entered)}
        else:
            out["userEnteredValue"] = _typed(entered)
        value = book.value(ws, row, col)
        if value is not None:
            out["effectiveValue"] = _typed(value)
            shown = book.rendered(ws, row, col, "FORMATTED_VALUE")
            out["formattedValue"] = shown if isinstance(shown, str) else format_number(shown)
    own = ws.formats.get((row, col))
    if own:
        out["userEnteredFormat"] = copy.deepcopy(own) if formats is None else formats.entered(own)
    if entered is not None or own:
        out["effectiveFormat"] = (
            effective_format(ws, row, col) if formats is None else formats.effective(ws, row, col)
        )
    note = ws.notes.get((row, col))
    if note:
        out["note"] = note
    pivot = None
    if ws.pivots:
        anchors = book.pivot_anchors(ws)
        pivot = anchors.get((row, col))
    if pivot is not None:
        out["pivotTable"] = copy.deepcopy(pivot["pivotTable"])
    elif formats is not None:  # typed values, text and written formats: already the wire form
        return Wired(out)
    return out


def _grid(
    book: Spreadsheet,
    ws: Worksheet,
    r0: int,
    r1: int,
    c0: int,
    c1: int,
    shape: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """One ``GridData``: the cells of rows ``r0:r1`` and columns ``c0:c1``, with metadata.

    The rows' and columns' metadata cover ``shape`` (the ``(rows, columns)`` a whole sheet
    reports) when given, else the same rows and columns.
    """
    rows: list[dict[str, Any]] = []
    formats = _Formats()
    for r in range(r0, r1):
        values = [cell_data(book, ws, r, c, formats) for c in range(c0, c1)]
        while values and not values[-1]:
            values.pop()
        rows.append({"values": values} if values else {})
    while rows and not rows[-1]:
        rows.pop()
    out: dict[str, Any] = {}
    if r0:
        out["startRow"] = r0
    if c0:
        out["startColumn"] = c0
    if rows:
        out["rowData"] = rows
    end_row, end_col = shape or (r1, c1)
    out["rowMetadata"] = dimension_metadata(
        ws.extra.get("rowMetadata", {}), r0, end_row, ROW_PIXELS
    )
    out["columnMetadata"] = dimension_metadata(
        ws.extra.get("columnMetadata", {}), c0, end_col, COLUMN_PIXELS
    )
    return out


def grid_data(book: Spreadsheet, metadata: dict[str, Any], ranges: list[str]) -> dict[str, Any]:
    """``metadata`` with each sheet's ``data`` for ``ranges`` (every sheet whole if none)."""
    wanted: dict[int, list[dict[str, Any]]] = defaultdict(list)
    if ranges:
        for text in ranges:
            ws, ref = book.resolve(text)
            r0, r1, c0, c1 = ref.bounded(ws.rows, ws.cols)
            wanted[ws.sheet_id].append(_grid(book, ws, r0, r1, c0, c1))
    else:
        for ws in book.sheets:
            rows, cols = ws.extent()
            wanted[ws.sheet_id].append(_grid(book, ws, 0, rows, 0, cols, (ws.rows, ws.cols)))
    sheets = []
    for entry, ws in zip(metadata["sheets"], book.sheets, strict=True):
        if ws.sheet_id in wanted:
            sheets.append({**entry, "data": wanted[ws.sheet_id]})
        elif not ranges:
            sheets.append(entry)
    return {**metadata, "sheets": sheets}


# -- updateCells and pivot tables -----------------------------------------------------------------
def _entered(value: dict[str, Any]) -> Any:
    if "formulaValue" in value:
        return Formula(str(value["formulaValue"]))
    for key in ("numberValue", "boolValue", "stringValue"):
        if key in value:
            return value[key]
    return None


def update_cells(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``updateCells``: write ``rows`` of ``CellData`` from ``start`` (or over ``range``)."""
    fields = str(spec.get("fields", ""))
    if not fields:
        raise bad_request("Invalid requests[0].updateCells: fields is required")
    names = {f.strip().split(".")[0].split("(")[0] for f in fields.split(",")}
    everything = "*" in names
    if "start" in spec:
        start = spec["start"]
        ws = sheet_of(book, start.get("sheetId", 0))
        r0, c0 = int(start.get("rowIndex", 0)), int(start.get("columnIndex", 0))
        r1 = c1 = None
    else:
        ws, r0, r1, c0, c1 = grid_bounds(book, spec.get("range", {}))
    rows = spec.get("rows", [])
    height = len(rows) if r1 is None else r1 - r0
    width = max((len(r.get("values", [])) for r in rows), default=0) if c1 is None else c1 - c0
    if r0 + height > ws.rows or c0 + width > ws.cols:
        raise bad_request(
            f"Invalid requests[0].updateCells: the data exceeds the grid limits "
            f"({ws.rows} x {ws.cols})"
        )
    for i in range(height):
        values = rows[i].get("values", []) if i < len(rows) else []
        for j in range(width):
            cell = values[j] if j < len(values) else {}
            at = (r0 + i, c0 + j)
            if everything or "userEnteredValue" in names:
                entered = _entered(cell.get("userEnteredValue") or {})
                if entered is None:
                    ws.cells.pop(at, None)
                else:
                    ws.cells[at] = entered
            if everything or "userEnteredFormat" in names:
                fmt = cell.get("userEnteredFormat")
                if fmt:
                    ws.formats[at] = copy.deepcopy(fmt)
                else:
                    ws.formats.pop(at, None)
            if everything or "note" in names:
                if cell.get("note"):
                    ws.notes[at] = str(cell["note"])
                else:
                    ws.notes.pop(at, None)
            if everything or "pivotTable" in names:
                ws.pivots = [p for p in ws.pivots if (p["row"], p["col"]) != at]
                if cell.get("pivotTable"):
                    _add_pivot(book, ws, at, copy.deepcopy(cell["pivotTable"]))
    book.changed()
    return {}


_SUMMARIES: dict[str, Callable[[list[Any]], Any]] = {
    "SUM": lambda xs: sum(x for x in xs if _is_number(x)),
    "COUNTA": lambda xs: sum(1 for x in xs if x not in (None, "")),
    "COUNT": lambda xs: sum(1 for x in xs if _is_number(x)),
    "AVERAGE": lambda xs: (
        sum(n) / len(n) if (n := [x for x in xs if _is_number(x)]) else CellError("#DIV/0!")
    ),
    "MAX": lambda xs: max((x for x in xs if _is_number(x)), default=0),
    "MIN": lambda xs: min((x for x in xs if _is_number(x)), default=0),
    "COUNTUNIQUE": lambda xs: len({x for x in xs if x not in (None, "")}),
}


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _add_pivot(
    book: Spreadsheet, ws: Worksheet, at: tuple[int, int], pivot: dict[str, Any]
) -> None:
    """Store a pivot table at ``at`` and write what it shows there (row groups, values)."""
    source, r0, r1, c0, c1 = grid_bounds(book, pivot.get("source", {}))
    if pivot.get("columns"):
        raise bad_request("Pivot tables with column groups are not supported by this simulator")
    groups = pivot.get("rows", [])
    values = pivot.get("values", [])
    if not values:
        raise bad_request("Invalid pivot table: at least one value is required")
    header = [book.value(source, r0, c0 + i) for i in range(c1 - c0)]
    records = [[book.value(source, r, c) for c in range(c0, c1)] for r in range(r0 + 1, r1)]
    records = [rec for rec in records if any(v not in (None, "") for v in rec)]
    for spec in (*groups, *values):
        offset = int(spec.get("sourceColumnOffset", -1))
        if not 0 <= offset < c1 - c0:
            raise bad_request(f"Invalid pivot table: sourceColumnOffset {offset} is outside")
    for spec in values:
        if spec.get("summarizeFunction", "SUM") not in _SUMMARIES:
            raise bad_request(f"Unsupported summarizeFunction {spec.get('summarizeFunction')!r}")
    buckets: dict[tuple[Any, ...], list[list[Any]]] = defaultdict(list)
    for rec in records:
        buckets[tuple(rec[int(g["sourceColumnOffset"])] for g in groups)].append(rec)
    keys = sorted(
        buckets,
        key=lambda k: tuple(
            (v is None, str(v) if not _is_number(v) else "", v if _is_number(v) else 0) for v in k
        ),
    )
    if groups and groups[0].get("sortOrder") == "DESCENDING":
        keys.reverse()
    titles = [str(header[int(g["sourceColumnOffset"])] or "") for g in groups]
    for spec in values:
        function = spec.get("summarizeFunction", "SUM")
        name = header[int(spec["sourceColumnOffset"])]
        titles.append(str(spec.get("name") or f"{function} of {name}"))
    out: list[list[Any]] = [titles]
    for key in keys:
        row = list(key)
        for spec in values:
            column = [rec[int(spec["sourceColumnOffset"])] for rec in buckets[key]]
            row.append(_SUMMARIES[spec.get("summarizeFunction", "SUM")](column))
        out.append(row)
    if not groups or groups[0].get("showTotals", True):
        total: list[Any] = ["Grand Total"] + [None] * (len(groups) - 1) if groups else []
        for spec in values:
            column = [rec[int(spec["sourceColumnOffset"])] for rec in records]
            total.append(_SUMMARIES[spec.get("summarizeFunction", "SUM")](column))
        if groups:
            out.append(total)
        else:
            out[1:] = [total]
    row0, col0 = at
    if row0 + len(out) > ws.rows or col0 + len(titles) > ws.cols:
        raise bad_request(f"The pivot table at {column_letters(col0)}{row0 + 1} exceeds the grid")
    for i, line in enumerate(out):
        for j, value in enumerate(line):
            if value is None:
                ws.cells.pop((row0 + i, col0 + j), None)
            else:
                ws.cells[(row0 + i, col0 + j)] = value
    ws.pivots.append({"row": row0, "col": col0, "pivotTable": pivot})


def add_named_range(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``addNamedRange``: the reply carries the range with its new ``namedRangeId``."""
    named = copy.deepcopy(spec.get("namedRange", {}))
    _check_name(book, str(named.get("name", "")), None)
    grid_bounds(book, named.get("range", {}))
    named.setdefault("namedRangeId", f"nr{len(book.named_ranges) + 1:08d}")
    book.named_ranges.append(named)
    return {"addNamedRange": {"namedRange": named}}


def _check_name(book: Spreadsheet, name: str, own_id: Any) -> None:
    """400 for a name a named range may not take (``own_id``: the range being renamed)."""
    if not name or not (name[0].isalpha() or name[0] == "_") or " " in name:
        raise bad_request(f"Invalid namedRange name: {name!r}")
    if any(n["name"] == name and n.get("namedRangeId") != own_id for n in book.named_ranges):
        raise bad_request(f"A named range with the name {name!r} already exists")
    if any(ws.title == name for ws in book.sheets) or looks_like_cells(name):
        raise bad_request(f"Invalid namedRange name: {name!r} names a sheet or a cell range")


def update_named_range(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``updateNamedRange``: change the ``fields`` (``name``, ``range`` or ``*``) of one range.

    The range is the one whose ``namedRangeId`` the request's ``namedRange`` gives; the fields
    take that object's values.
    """
    given = spec.get("namedRange") or {}
    wanted = given.get("namedRangeId")
    fields = str(spec.get("fields", "")).replace(" ", "")
    if not fields:
        raise bad_request("Invalid requests[0].updateNamedRange: fields is required")
    chosen = {"name", "range"} if fields == "*" else set(fields.split(","))
    unknown = chosen - {"name", "range", "namedRangeId"}
    if unknown:
        raise bad_request(f"Invalid field mask for updateNamedRange: {sorted(unknown)}")
    for named in book.named_ranges:
        if named.get("namedRangeId") == wanted:
            if "name" in chosen:
                _check_name(book, str(given.get("name", "")), wanted)
            if "range" in chosen:
                grid_bounds(book, given.get("range", {}))
            for key in chosen - {"namedRangeId"}:
                named[key] = copy.deepcopy(given.get(key))
            return {}
    raise bad_request(f"No named range with id: {wanted}")


def delete_named_range(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``deleteNamedRange``."""
    wanted = spec.get("namedRangeId")
    for named in book.named_ranges:
        if named.get("namedRangeId") == wanted:
            book.named_ranges.remove(named)
            return {}
    raise bad_request(f"No named range with id: {wanted}")


GRID_REQUESTS: dict[str, Callable[[Spreadsheet, dict[str, Any]], dict[str, Any]]] = {
    "updateCells": update_cells,
    "addNamedRange": add_named_range,
    "updateNamedRange": update_named_range,
    "deleteNamedRange": delete_named_range,
}
"""The cell-data and named-range requests by name."""
