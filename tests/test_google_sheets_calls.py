"""Sixty-odd gspread calls against the simulated service: the request each sends, the answer's shape.

Each case runs one call of the real gspread (6.x) or gspread-dataframe on a spreadsheet holding a
small table, then checks the request that did the work (method, path, query, body) and the
answer the service gave it (status and fields), as the real Sheets API v4 and Drive v3 answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import gspread
import gspread_dataframe as gd
import pytest

from toolgym.families.google_sheets.client import compat_spreadsheet, sheets_client
from toolgym.families.google_sheets.world.service import SheetsApp
from toolgym.simulators.http import Request, Response

TABLE = [["Name", "Qty", "Price"], ["pens", 3, 2], ["ink", 1, 9], ["tape", 5, 4]]


class Recording(SheetsApp):
    """The service, keeping every request and answer."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[Request, Response]] = []

    def handle(self, request: Request) -> Response:
        response = super().handle(request)
        self.seen.append((request, response))
        return response


@dataclass
class Ctx:
    client: Any
    sheet: Any
    ws: Any
    other: Any
    app: Recording


@pytest.fixture
def ctx() -> Ctx:
    app = Recording()
    client = sheets_client(app)
    sheet = compat_spreadsheet(client.create("Book"))
    ws = sheet.sheet1
    ws.update(TABLE, "A1")
    other = sheet.add_worksheet("Other Data", rows=20, cols=5)
    app.seen.clear()
    return Ctx(client, sheet, ws, other, app)


@dataclass(frozen=True)
class Case:
    """One call and what its main request and answer must look like.

    Attributes:
        call: runs the call.
        where: ``"METHOD path"`` of the request that does the work (``{id}`` for the
            spreadsheet id, the path unquoted); the last such request is checked.
        params: query parameters it must carry.
        body: keys (dotted into nested dicts, ``[0]`` into lists) and the values they hold.
        answer: fields the answer must have.
        status: the answer's status.
    """

    call: Callable[[Ctx], Any]
    where: str
    params: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=dict)
    answer: tuple[str, ...] = ()
    status: int = 200


V = "GET /v4/spreadsheets/{id}/values/"
PUT = "PUT /v4/spreadsheets/{id}/values/"
BATCH = "POST /v4/spreadsheets/{id}:batchUpdate"
META = "GET /v4/spreadsheets/{id}"
REPLIES = ("spreadsheetId", "replies")
UPDATED = ("spreadsheetId", "updatedRange", "updatedRows", "updatedColumns", "updatedCells")
RANGE = ("range", "majorDimension", "values")

CASES: dict[str, Case] = {
    # values: reads
    "get_all_values": Case(lambda c: c.ws.get_all_values(), V + "'Sheet1'", answer=RANGE),
    "get_all_records": Case(lambda c: c.ws.get_all_records(), V + "'Sheet1'", answer=RANGE),
    "get": Case(lambda c: c.ws.get("A1:B2"), V + "'Sheet1'!A1:B2", answer=RANGE),
    "get_values": Case(lambda c: c.ws.get_values("B2:C3"), V + "'Sheet1'!B2:C3", answer=RANGE),
    "acell": Case(
        lambda c: c.ws.acell("B2"),
        V + "'Sheet1'!B2",
        {"valueRenderOption": "FORMATTED_VALUE"},
        answer=RANGE,
    ),
    "cell": Case(lambda c: c.ws.cell(3, 2), V + "'Sheet1'!B3", answer=RANGE),
    "row_values": Case(lambda c: c.ws.row_values(2), V + "'Sheet1'!A2:2", answer=RANGE),
    "col_values": Case(
        lambda c: c.ws.col_values(3),
        V + "'Sheet1'!C1:C",
        {"majorDimension": "COLUMNS"},
        answer=RANGE,
    ),
    "range": Case(lambda c: c.ws.range("A1:C2"), V + "'Sheet1'!A1:C2", answer=RANGE),
    "get_all_cells": Case(lambda c: c.ws.get_all_cells(), V + "'Sheet1'", answer=RANGE),
    "find": Case(lambda c: c.ws.find("ink"), V + "'Sheet1'", answer=RANGE),
    "findall": Case(lambda c: c.ws.findall("pens"), V + "'Sheet1'", answer=RANGE),
    "batch_get": Case(
        lambda c: c.ws.batch_get(["A1:A2", "C1"]),
        "GET /v4/spreadsheets/{id}/values:batchGet",
        answer=("spreadsheetId", "valueRanges"),
    ),
    "values_get": Case(
        lambda c: c.sheet.values_get("'Other Data'!A1"), V + "'Other Data'!A1", answer=("range",)
    ),
    "get_unformatted": Case(
        lambda c: c.ws.get("B2", value_render_option="UNFORMATTED_VALUE"),
        V + "'Sheet1'!B2",
        {"valueRenderOption": "UNFORMATTED_VALUE"},
        answer=RANGE,
    ),
    "get_formula": Case(
        lambda c: c.ws.get("A1", value_render_option="FORMULA"),
        V + "'Sheet1'!A1",
        {"valueRenderOption": "FORMULA"},
        answer=RANGE,
    ),
    "get_as_dataframe": Case(
        lambda c: gd.get_as_dataframe(c.ws, evaluate_formulas=True),
        V + "'Sheet1'",
        {"valueRenderOption": "UNFORMATTED_VALUE", "dateTimeRenderOption": "FORMATTED_STRING"},
        answer=RANGE,
    ),
    "get_as_dataframe_formulas": Case(
        lambda c: gd.get_as_dataframe(c.ws),
        V + "'Sheet1'",
        {"valueRenderOption": "FORMULA"},
        answer=RANGE,
    ),
    # values: writes
    "update_6x": Case(
        lambda c: c.ws.update([[7]], "B2"),
        PUT + "'Sheet1'!B2",
        {"valueInputOption": "RAW"},
        {"values": [[7]]},
        UPDATED,
    ),
    "update_5x_scalar": Case(
        lambda c: c.ws.update("B2", 7),
        PUT + "'Sheet1'!B2",
        {"valueInputOption": "RAW"},
        {"values": [[7]]},
        UPDATED,
    ),
    "update_user_entered": Case(
        lambda c: c.ws.update("D2", "=B2*C2", raw=False),
        PUT + "'Sheet1'!D2",
        {"valueInputOption": "USER_ENTERED"},
        {"values": [["=B2*C2"]]},
        UPDATED,
    ),
    "update_with_values_in_response": Case(
        lambda c: c.ws.update([[2, "=B2*2"]], "D2", raw=False, include_values_in_response=True),
        PUT + "'Sheet1'!D2",
        {"includeValuesInResponse": "True"},
        answer=(*UPDATED, "updatedData"),
    ),
    "update_range": Case(
        lambda c: c.ws.update("A5:C5", [["glue", 2, 3]]),
        PUT + "'Sheet1'!A5:C5",
        body={"values": [["glue", 2, 3]]},
        answer=UPDATED,
    ),
    "update_acell": Case(
        lambda c: c.ws.update_acell("C2", "5"),
        PUT + "'Sheet1'!C2",
        {"valueInputOption": "USER_ENTERED"},
        answer=UPDATED,
    ),
    "update_cell": Case(
        lambda c: c.ws.update_cell(2, 2, 8),
        PUT + "'Sheet1'!B2",
        {"valueInputOption": "USER_ENTERED"},
        {"values": [[8]]},
        UPDATED,
    ),
    "update_cells": Case(
        lambda c: c.ws.update_cells([gspread.Cell(1, 1, "N"), gspread.Cell(2, 2, "9")]),
        PUT + "'Sheet1'!A1:B2",
        {"valueInputOption": "RAW"},
        answer=UPDATED,
    ),
    "batch_update_values": Case(
        lambda c: c.ws.batch_update([{"range": "D1:E1", "values": [["x", "y"]]}]),
        "POST /v4/spreadsheets/{id}/values:batchUpdate",
        body={"valueInputOption": "RAW", "data[0].range": "'Sheet1'!D1:E1"},
        answer=("spreadsheetId", "totalUpdatedCells", "responses"),
    ),
    "values_update": Case(
        lambda c: c.sheet.values_update(
            "'Other Data'!A1", params={"valueInputOption": "RAW"}, body={"values": [[1]]}
        ),
        PUT + "'Other Data'!A1",
        answer=UPDATED,
    ),
    "append_row": Case(
        lambda c: c.ws.append_row(["glue", 2, 3]),
        "POST /v4/spreadsheets/{id}/values/'Sheet1':append",
        {"valueInputOption": "RAW"},
        {"values": [["glue", 2, 3]]},
        ("spreadsheetId", "tableRange", "updates"),
    ),
    "append_rows": Case(
        lambda c: c.ws.append_rows([["a", 1, 1], ["b", 2, 2]], value_input_option="USER_ENTERED"),
        "POST /v4/spreadsheets/{id}/values/'Sheet1':append",
        {"valueInputOption": "USER_ENTERED"},
        answer=("spreadsheetId", "updates"),
    ),
    "values_append": Case(
        lambda c: c.sheet.values_append(
            "'Other Data'!A1", {"valueInputOption": "RAW"}, {"values": [[1, 2]]}
        ),
        "POST /v4/spreadsheets/{id}/values/'Other Data'!A1:append",
        answer=("spreadsheetId", "updates"),
    ),
    "set_with_dataframe": Case(
        lambda c: gd.set_with_dataframe(c.other, gd.get_as_dataframe(c.ws)),
        PUT + "'Other Data'!A1:C4",
        {"valueInputOption": "USER_ENTERED"},
        answer=UPDATED,
    ),
    # clearing
    "clear": Case(
        lambda c: c.ws.clear(),
        "POST /v4/spreadsheets/{id}/values/'Sheet1':clear",
        answer=("spreadsheetId", "clearedRange"),
    ),
    "batch_clear": Case(
        lambda c: c.ws.batch_clear(["A2:A3"]),
        "POST /v4/spreadsheets/{id}/values:batchClear",
        body={"ranges": ["'Sheet1'!A2:A3"]},
        answer=("spreadsheetId", "clearedRanges"),
    ),
    "values_clear": Case(
        lambda c: c.sheet.values_clear("'Sheet1'!B2"),
        "POST /v4/spreadsheets/{id}/values/'Sheet1'!B2:clear",
        answer=("spreadsheetId", "clearedRange"),
    ),
    # rows and columns
    "insert_row": Case(
        lambda c: c.ws.insert_row(["x", 1, 1], 2),
        "POST /v4/spreadsheets/{id}/values/'Sheet1'!A2:append",
        body={"majorDimension": "ROWS"},
        answer=("spreadsheetId", "updates"),
    ),
    "insert_rows": Case(
        lambda c: c.ws.insert_rows([["x"], ["y"]], 3),
        BATCH,
        body={"requests[0].insertDimension.range.startIndex": 2},
        answer=REPLIES,
    ),
    "insert_cols": Case(
        lambda c: c.ws.insert_cols([["h", 1]], 1),
        BATCH,
        body={"requests[0].insertDimension.range.dimension": "COLUMNS"},
        answer=REPLIES,
    ),
    "delete_rows": Case(
        lambda c: c.ws.delete_rows(2, 3),
        BATCH,
        body={
            "requests[0].deleteDimension.range.startIndex": 1,
            "requests[0].deleteDimension.range.endIndex": 3,
        },
        answer=REPLIES,
    ),
    "delete_columns": Case(
        lambda c: c.ws.delete_columns(2),
        BATCH,
        body={"requests[0].deleteDimension.range.dimension": "COLUMNS"},
        answer=REPLIES,
    ),
    "add_rows": Case(
        lambda c: c.ws.add_rows(5),
        BATCH,
        body={"requests[0].updateSheetProperties.properties.gridProperties.rowCount": 1005},
        answer=REPLIES,
    ),
    "add_cols": Case(lambda c: c.ws.add_cols(2), BATCH, answer=REPLIES),
    "resize": Case(
        lambda c: c.ws.resize(10, 4),
        BATCH,
        body={
            "requests[0].updateSheetProperties.fields": "gridProperties/rowCount,gridProperties/columnCount"
        },
        answer=REPLIES,
    ),
    "hide_rows": Case(
        lambda c: c.ws.hide_rows(1, 2),
        BATCH,
        body={"requests[0].updateDimensionProperties.properties.hiddenByUser": True},
        answer=REPLIES,
    ),
    "columns_auto_resize": Case(lambda c: c.ws.columns_auto_resize(0, 2), BATCH, answer=REPLIES),
    "add_dimension_group_rows": Case(
        lambda c: c.ws.add_dimension_group_rows(1, 3), BATCH, answer=REPLIES
    ),
    # layout and formats
    "sort": Case(
        lambda c: c.ws.sort((2, "des"), range="A2:C4"),
        BATCH,
        body={"requests[0].sortRange.sortSpecs[0].sortOrder": "DESCENDING"},
        answer=REPLIES,
    ),
    "merge_cells": Case(
        lambda c: c.ws.merge_cells("A1:B1"),
        BATCH,
        body={"requests[0].mergeCells.mergeType": "MERGE_ALL"},
        answer=REPLIES,
    ),
    "unmerge_cells": Case(lambda c: c.ws.unmerge_cells("A1:B1"), BATCH, answer=REPLIES),
    "format": Case(
        lambda c: c.ws.format("A1:C1", {"textFormat": {"bold": True}}),
        BATCH,
        body={"requests[0].repeatCell.fields": "userEnteredFormat(textFormat)"},
        answer=REPLIES,
    ),
    "batch_format": Case(
        lambda c: c.ws.batch_format(
            [{"range": "B2:B4", "format": {"numberFormat": {"type": "NUMBER", "pattern": "0.00"}}}]
        ),
        BATCH,
        answer=REPLIES,
    ),
    "set_basic_filter": Case(
        lambda c: c.ws.set_basic_filter("A1:C4"),
        BATCH,
        body={"requests[0].setBasicFilter.filter.range.endRowIndex": 4},
        answer=REPLIES,
    ),
    "clear_basic_filter": Case(lambda c: c.ws.clear_basic_filter(), BATCH, answer=REPLIES),
    "freeze": Case(
        lambda c: c.ws.freeze(rows=1),
        BATCH,
        body={"requests[0].updateSheetProperties.properties.gridProperties.frozenRowCount": 1},
        answer=REPLIES,
    ),
    "add_protected_range": Case(
        lambda c: c.ws.add_protected_range("A1:C1"),
        BATCH,
        body={"requests[0].addProtectedRange.protectedRange.range.endRowIndex": 1},
        answer=REPLIES,
    ),
    "define_named_range": Case(
        lambda c: c.ws.define_named_range("A1:C4", "Stock"),
        BATCH,
        body={"requests[0].addNamedRange.namedRange.name": "Stock"},
        answer=REPLIES,
    ),
    "insert_note": Case(
        lambda c: c.ws.insert_note("A1", "checked"),
        BATCH,
        body={"requests[0].updateCells.fields": "note"},
        answer=REPLIES,
    ),
    "get_note": Case(
        lambda c: c.ws.get_note("A1"),
        META,
        {"fields": "sheets/data/rowData/values/note", "ranges": "'Sheet1'!A1"},
        answer=(),
    ),
    "copy_range": Case(
        lambda c: c.ws.copy_range("A1:A2", "E1"),
        BATCH,
        body={"requests[0].copyPaste.pasteType": "PASTE_NORMAL"},
        answer=REPLIES,
    ),
    "update_tab_color": Case(lambda c: c.ws.update_tab_color("#00ff00"), BATCH, answer=REPLIES),
    "add_validation": Case(
        lambda c: c.ws.add_validation(
            "B2:B4", gspread.utils.ValidationConditionType.number_greater, [0]
        ),
        BATCH,
        body={"requests[0].setDataValidation.rule.condition.type": "NUMBER_GREATER"},
        answer=REPLIES,
    ),
    # worksheets and the spreadsheet
    "add_worksheet": Case(
        lambda c: c.sheet.add_worksheet("New", rows=5, cols=3),
        BATCH,
        body={"requests[0].addSheet.properties.title": "New"},
        answer=REPLIES,
    ),
    "del_worksheet": Case(lambda c: c.sheet.del_worksheet(c.other), BATCH, answer=REPLIES),
    "duplicate_sheet": Case(
        lambda c: c.sheet.duplicate_sheet(0, new_sheet_name="Copy"),
        BATCH,
        body={"requests[0].duplicateSheet.newSheetName": "Copy"},
        answer=REPLIES,
    ),
    "update_title": Case(
        lambda c: c.ws.update_title("Main"),
        BATCH,
        body={"requests[0].updateSheetProperties.fields": "title"},
        answer=REPLIES,
    ),
    "update_index": Case(lambda c: c.other.update_index(0), BATCH, answer=REPLIES),
    "hide": Case(lambda c: c.other.hide(), BATCH, answer=REPLIES),
    "sheet_update_title": Case(
        lambda c: c.sheet.update_title("Renamed"),
        BATCH,
        body={"requests[0].updateSpreadsheetProperties.fields": "title"},
        answer=REPLIES,
    ),
    "update_locale": Case(lambda c: c.sheet.update_locale("de_DE"), BATCH, answer=REPLIES),
    "worksheets": Case(
        lambda c: c.sheet.worksheets(), META, answer=("spreadsheetId", "properties", "sheets")
    ),
    "worksheet": Case(lambda c: c.sheet.worksheet("Other Data"), META, answer=("sheets",)),
    "fetch_sheet_metadata": Case(
        lambda c: c.sheet.fetch_sheet_metadata(), META, answer=("spreadsheetUrl", "sheets")
    ),
    "list_named_ranges": Case(lambda c: c.sheet.list_named_ranges(), META, answer=()),
    "open_by_key": Case(lambda c: c.client.open_by_key(c.sheet.id), META, answer=("sheets",)),
    "open": Case(
        lambda c: c.client.open("Book"),
        "GET /drive/v3/files",
        {"pageSize": "1000", "supportsAllDrives": "True"},
        answer=("kind", "files"),
    ),
    "openall": Case(lambda c: c.client.openall(), "GET /drive/v3/files", answer=("files",)),
    "create": Case(
        lambda c: c.client.create("Fresh"),
        "POST /drive/v3/files",
        body={"name": "Fresh", "mimeType": "application/vnd.google-apps.spreadsheet"},
        answer=("kind", "id", "name", "mimeType"),
    ),
    "del_spreadsheet": Case(
        lambda c: c.client.del_spreadsheet(c.sheet.id), "DELETE /drive/v3/files/{id}", status=204
    ),
    "get_lastUpdateTime": Case(
        lambda c: c.sheet.get_lastUpdateTime(), "GET /drive/v3/files/{id}", answer=("modifiedTime",)
    ),
}


def _dig(value: Any, path: str) -> Any:
    for part in path.replace("]", "").replace("[", ".").split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


@pytest.mark.parametrize("name", list(CASES))
def test_gspread_call(ctx: Ctx, name: str) -> None:
    case = CASES[name]
    case.call(ctx)
    book = ctx.sheet.id
    matching = [
        (req, res)
        for req, res in ctx.app.seen
        if f"{req.method} {unquote(req.path).replace(book, '{id}')}" == case.where
    ]
    seen = [f"{r.method} {unquote(r.path)}" for r, _ in ctx.app.seen]
    assert matching, f"no {case.where}; requests: {seen}"
    request, response = matching[-1]
    for key, value in case.params.items():
        assert request.params.get(key) == value, (key, request.params)
    body = json.loads(request.body) if request.body else {}
    for key, value in case.body.items():
        assert _dig(body, key) == value, (key, body)
    assert response.status == case.status, response.text
    if case.status == 204:
        assert response.body == b""
        return
    answer = json.loads(response.body)
    for key in case.answer:
        assert key in answer, (key, sorted(answer))


def test_there_are_at_least_sixty_calls() -> None:
    assert len(CASES) >= 60


def test_bad_ranges_and_unknown_sheets_answer_as_the_api(ctx: Ctx) -> None:
    with pytest.raises(gspread.exceptions.APIError) as bad:
        ctx.sheet.values_get("'Sheet1'!A1:B2:C3")
    assert bad.value.response.status_code == 400
    assert bad.value.response.json()["error"]["status"] == "INVALID_ARGUMENT"
    with pytest.raises(gspread.exceptions.APIError) as missing:
        ctx.client.http_client.values_get("no-such-id", "A1")
    assert missing.value.response.status_code == 404
    assert missing.value.response.json()["error"]["status"] == "NOT_FOUND"
    with pytest.raises(gspread.WorksheetNotFound):
        ctx.sheet.worksheet("Nope")
