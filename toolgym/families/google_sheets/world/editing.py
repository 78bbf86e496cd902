"""``spreadsheets.batchUpdate`` requests that copy, move and annotate, and sheet properties.

``copyPaste`` (values, formats or both, tiled over the destination; copied formulas move their
relative references) and ``cutPaste`` (formulas moved as they are),
``duplicateSheet``, ``updateSpreadsheetProperties``, ``updateDimensionProperties`` (hidden rows and
columns, sizes), ``autoResizeDimensions``, ``addDimensionGroup``/``deleteDimensionGroup`` and
``setDataValidation``. What the service keeps but a read does not compute (sizes, groups, rules)
is stored with the sheet and shown in its metadata as the API shows it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from toolgym.families.google_sheets.world.references import offset_formula
from toolgym.families.google_sheets.world.sheet import Formula, Spreadsheet, Worksheet, bad_request
from toolgym.families.google_sheets.world.structure import grid_bounds, sheet_of


def _paste(book: Spreadsheet, spec: dict[str, Any], cut: bool) -> dict[str, Any]:
    src, r0, r1, c0, c1 = grid_bounds(book, spec.get("source", {}))
    kind = spec.get("pasteType", "PASTE_NORMAL")
    if kind not in ("PASTE_NORMAL", "PASTE_VALUES", "PASTE_FORMAT", "PASTE_NO_BORDERS"):
        raise bad_request(f"Unsupported pasteType: {kind}")
    if cut:
        anchor = spec.get("destination", {})
        dst = sheet_of(book, anchor.get("sheetId", 0))
        d0, e0 = int(anchor.get("rowIndex", 0)), int(anchor.get("columnIndex", 0))
        d1, e1 = d0 + (r1 - r0), e0 + (c1 - c0)
    else:
        dst, d0, d1, e0, e1 = grid_bounds(book, spec.get("destination", {}))
    height, width = r1 - r0, c1 - c0
    if height == 0 or width == 0:
        return {}
    if spec.get("pasteOrientation", "NORMAL") == "TRANSPOSE":
        height, width = width, height
    d1, e1 = max(d1, d0 + height), max(e1, e0 + width)
    if d1 > dst.rows or e1 > dst.cols:
        raise bad_request("Invalid requests[0]: the paste exceeds the grid limits")
    values = kind in ("PASTE_NORMAL", "PASTE_VALUES", "PASTE_NO_BORDERS")
    formats = kind in ("PASTE_NORMAL", "PASTE_FORMAT", "PASTE_NO_BORDERS")
    taken = {}
    for r in range(r0, r1):
        for c in range(c0, c1):
            taken[(r - r0, c - c0)] = (src.cells.get((r, c)), src.formats.get((r, c)))
    if cut:
        for r in range(r0, r1):
            for c in range(c0, c1):
                src.cells.pop((r, c), None)
                src.formats.pop((r, c), None)
    transpose = spec.get("pasteOrientation", "NORMAL") == "TRANSPOSE"
    for r in range(d0, d1):
        for c in range(e0, e1):
            i, j = (r - d0) % height, (c - e0) % width
            si, sj = (j, i) if transpose else (i, j)
            value, fmt = taken[(si, sj)]
            if isinstance(value, Formula) and not cut:  # relative references move with a copy
                value = Formula(offset_formula(value, r - (r0 + si), c - (c0 + sj)))
            if values:
                if value is None:
                    dst.cells.pop((r, c), None)
                else:
                    dst.cells[(r, c)] = value
            if formats:
                if fmt:
                    dst.formats[(r, c)] = copy.deepcopy(fmt)
                else:
                    dst.formats.pop((r, c), None)
    return {}


def copy_paste(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``copyPaste``: the source tiled over the destination range."""
    return _paste(book, spec, cut=False)


def cut_paste(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``cutPaste``: the source moved to the destination anchor cell."""
    return _paste(book, spec, cut=True)


def duplicate_sheet(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``duplicateSheet``: a copy of a sheet, with a new id, title and index."""
    source = sheet_of(book, spec.get("sourceSheetId"))
    title = spec.get("newSheetName") or f"Copy of {source.title}"
    if any(ws.title == title for ws in book.sheets):
        raise bad_request(f'A sheet with the name "{title}" already exists.')
    taken = {ws.sheet_id for ws in book.sheets}
    sheet_id = spec.get("newSheetId")
    if sheet_id is None:
        sheet_id = next(i for i in range(source.sheet_id + 1, 2**31) if i not in taken)
    elif sheet_id in taken:
        raise bad_request(f"A sheet with the id {sheet_id} already exists.")
    copied = copy.deepcopy(source)
    copied.sheet_id, copied.title = int(sheet_id), str(title)
    index = spec.get("insertSheetIndex")
    index = len(book.sheets) if index is None else min(int(index), len(book.sheets))
    book.sheets.insert(index, copied)
    for k, ws in enumerate(book.sheets):
        ws.index = k
    return {"duplicateSheet": {"properties": copied.properties()}}


def update_spreadsheet_properties(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``updateSpreadsheetProperties``: title, locale, time zone (the ``fields`` named)."""
    props = spec.get("properties", {})
    fields = [f.strip() for f in str(spec.get("fields", "")).split(",") if f.strip()]
    if not fields:
        raise bad_request("Invalid requests[0].updateSpreadsheetProperties: fields is required")
    for name in fields:
        if name == "title":
            book.title = str(props.get("title", book.title))
        elif name in ("locale", "timeZone", "autoRecalc"):
            book.properties[name] = props.get(name)
    return {}


def _dimension_store(ws: Worksheet, dimension: str) -> dict[str, dict[str, Any]]:
    key = "rowMetadata" if dimension == "ROWS" else "columnMetadata"
    return ws.extra.setdefault(key, {})


def update_dimension_properties(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``updateDimensionProperties``: hide, show or size rows or columns."""
    span = spec.get("range", {})
    ws = sheet_of(book, span.get("sheetId", 0))
    dimension = span.get("dimension", "ROWS")
    store = _dimension_store(ws, dimension)
    props = spec.get("properties", {})
    names = [f.strip() for f in str(spec.get("fields", "")).split(",") if f.strip()]
    limit = ws.rows if dimension == "ROWS" else ws.cols
    start, end = int(span.get("startIndex", 0)), int(span.get("endIndex", limit))
    if not 0 <= start < end <= limit:
        raise bad_request(f"Invalid requests[0]: {dimension} {start}..{end} is outside the grid")
    for index in range(start, end):
        entry = store.setdefault(str(index), {})
        for name in names:
            if name in props:
                entry[name] = props[name]
    return {}


def auto_resize_dimensions(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``autoResizeDimensions``: sizes are not simulated; the range must be valid."""
    span = spec.get("dimensions", {})
    ws = sheet_of(book, span.get("sheetId", 0))
    limit = ws.rows if span.get("dimension", "ROWS") == "ROWS" else ws.cols
    if not 0 <= int(span.get("startIndex", 0)) <= int(span.get("endIndex", limit)) <= limit:
        raise bad_request("Invalid requests[0].autoResizeDimensions: outside the grid")
    return {}


def add_dimension_group(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``addDimensionGroup``: the reply lists the sheet's groups."""
    span = dict(spec.get("range", {}))
    ws = sheet_of(book, span.get("sheetId", 0))
    key = "rowGroups" if span.get("dimension", "ROWS") == "ROWS" else "columnGroups"
    groups = ws.extra.setdefault(key, [])
    groups.append({"range": span, "depth": 1, "collapsed": False})
    return {"addDimensionGroup": {"dimensionGroups": copy.deepcopy(groups)}}


def delete_dimension_group(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``deleteDimensionGroup``: the reply lists the groups left."""
    span = dict(spec.get("range", {}))
    ws = sheet_of(book, span.get("sheetId", 0))
    key = "rowGroups" if span.get("dimension", "ROWS") == "ROWS" else "columnGroups"
    groups = ws.extra.get(key, [])
    kept = [g for g in groups if g["range"] != span]
    if len(kept) == len(groups):
        raise bad_request("Invalid requests[0].deleteDimensionGroup: no such group")
    ws.extra[key] = kept
    return {"deleteDimensionGroup": {"dimensionGroups": copy.deepcopy(kept)}}


def set_data_validation(book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
    """``setDataValidation``: the rule is kept with each cell of the range (none clears it)."""
    ws, r0, r1, c0, c1 = grid_bounds(book, spec.get("range", {}))
    rules = ws.extra.setdefault("dataValidation", {})
    for r in range(r0, r1):
        for c in range(c0, c1):
            if spec.get("rule"):
                rules[f"{r},{c}"] = copy.deepcopy(spec["rule"])
            else:
                rules.pop(f"{r},{c}", None)
    return {}


EDITING_REQUESTS: dict[str, Callable[[Spreadsheet, dict[str, Any]], dict[str, Any]]] = {
    "copyPaste": copy_paste,
    "cutPaste": cut_paste,
    "duplicateSheet": duplicate_sheet,
    "updateSpreadsheetProperties": update_spreadsheet_properties,
    "updateDimensionProperties": update_dimension_properties,
    "autoResizeDimensions": auto_resize_dimensions,
    "addDimensionGroup": add_dimension_group,
    "deleteDimensionGroup": delete_dimension_group,
    "setDataValidation": set_data_validation,
}
"""The copy, move, annotation and property requests by name."""
