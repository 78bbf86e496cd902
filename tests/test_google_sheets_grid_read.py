"""``spreadsheets.get`` with grid data: each distinct format rendered once, the answer unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolgym.families.google_sheets.world import grid_data as grid_module
from toolgym.families.google_sheets.world.service import SheetsApp
from toolgym.simulators.http import Request

SHEETS = "https://sheets.googleapis.com/v4/spreadsheets/"


def _call(app: SheetsApp, method: str, path: str, body: Any = None) -> Any:
    data = json.dumps(body).encode() if body is not None else b""
    reply = app.handle(Request.build(method, SHEETS + path, {}, data))
    assert reply.status == 200, reply.body[:300]
    return json.loads(reply.body)


@pytest.fixture
def book() -> tuple[SheetsApp, str]:
    app = SheetsApp()
    book_id = app.create("grid").spreadsheet_id
    rows: list[list[Any]] = [[f"=ROW()*{c}" if c == 2 else f"h{c}" for c in range(6)]]
    rows += [[r * 10 + c for c in range(6)] for r in range(1, 40)]
    _call(
        app,
        "PUT",
        f"{book_id}/values/Sheet1!A1:F40?valueInputOption=USER_ENTERED",
        {"values": rows},
    )

    def repeat(r0: int, r1: int, c0: int, c1: int, fmt: dict[str, Any]) -> dict[str, Any]:
        grid = {"sheetId": 0, "startRowIndex": r0, "endRowIndex": r1}
        grid |= {"startColumnIndex": c0, "endColumnIndex": c1}
        cell = {"userEnteredFormat": fmt}
        return {"repeatCell": {"range": grid, "cell": cell, "fields": "userEnteredFormat"}}

    requests = [
        repeat(0, 3, 0, 4, {"backgroundColor": {"red": 0.5}, "textFormat": {"bold": True}}),
        repeat(5, 7, 0, 2, {"textFormat": {"foregroundColorStyle": {"rgbColor": {"blue": 1}}}}),
        {
            "updateCells": {
                "range": {"sheetId": 0, "startRowIndex": 9, "endRowIndex": 10},
                "rows": [{"values": [{"note": "checked"}]}],
                "fields": "note",
            }
        },
    ]
    _call(app, "POST", f"{book_id}:batchUpdate", {"requests": requests})
    return app, book_id


QUERIES = (
    "?includeGridData=true",
    "?includeGridData=true&fields=sheets.data.rowData.values.effectiveFormat",
    "?ranges=Sheet1!A1:D12&includeGridData=true",
    "?fields=sheets(data(rowData(values(formattedValue,note))))",
)


@pytest.mark.parametrize("query", QUERIES)
def test_the_answer_is_the_one_each_cell_rendered_alone_gives(
    book: tuple[SheetsApp, str], query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, book_id = book
    shared = _call(app, "GET", book_id + query)
    monkeypatch.setattr(grid_module, "_Formats", lambda: None)  # every cell on its own
    alone = _call(app, "GET", book_id + query)
    assert shared == alone
    assert json.dumps(shared) != json.dumps(_call(app, "GET", book_id))  # grid data was there


def test_cells_of_one_format_share_one_rendering_that_nothing_changes(
    book: tuple[SheetsApp, str],
) -> None:
    app, book_id = book
    bookobj = app.books[book_id]
    ws = bookobj.sheets[0]
    metadata = app._metadata(bookobj)
    answer = grid_module.grid_data(bookobj, metadata, [])
    rows = answer["sheets"][0]["data"][0]["rowData"]
    plain = [rows[r]["values"][c]["effectiveFormat"] for r in (12, 20) for c in (1, 4)]
    assert all(p is plain[0] for p in plain)  # one rendering for the default format
    bold = rows[0]["values"][0]["effectiveFormat"]
    assert bold is rows[2]["values"][3]["effectiveFormat"] and bold is not plain[0]
    assert bold["textFormat"]["bold"] is True and plain[0]["textFormat"]["bold"] is False
    before = json.dumps(_call(app, "GET", book_id + "?includeGridData=true"))
    _call(app, "GET", book_id + "?includeGridData=true&fields=sheets.data.rowData.values.note")
    assert json.dumps(_call(app, "GET", book_id + "?includeGridData=true")) == before
    assert ws.formats.get((12, 1)) is None  # the sheet's own formats were not touched
