"""Unmodified gspread and gspread-dataframe code against the simulated Sheets service."""

from __future__ import annotations

import json
from typing import Any

import gspread
import gspread_dataframe as gd
import pytest

from toolgym.families.google_sheets.client import sheets_client
from toolgym.families.google_sheets.world.service import SheetsApp
from toolgym.simulators.http import Request, Response


class Recording(SheetsApp):
    """The service, keeping every request it answered."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Request] = []

    def handle(self, request: Request) -> Response:
        self.seen.append(request)
        return super().handle(request)


@pytest.fixture
def env() -> tuple[Any, Recording]:
    app = Recording()
    return sheets_client(app), app


def _body(request: Request) -> Any:
    return json.loads(request.body) if request.body else None


def test_create_open_and_metadata(env: tuple[Any, Recording]) -> None:
    client, app = env
    sheet = client.create("Budget")
    create = app.seen[0]
    assert (create.method, create.host, create.path) == (
        "POST",
        "www.googleapis.com",
        "/drive/v3/files",
    )
    assert _body(create)["mimeType"] == "application/vnd.google-apps.spreadsheet"
    assert len(sheet.id) == 44 and sheet.title == "Budget"
    assert client.open("Budget").id == sheet.id
    assert client.open_by_key(sheet.id).sheet1.title == "Sheet1"
    with pytest.raises(gspread.SpreadsheetNotFound):
        client.open("Nope")
    with pytest.raises(gspread.SpreadsheetNotFound):  # gspread's word for the API's 404
        client.open_by_key("missing")


def test_values_round_trip(env: tuple[Any, Recording]) -> None:
    client, app = env
    ws = client.create("B").sheet1
    reply = ws.update([["item", "price", "qty"], ["beef", 10, 2], ["milk", 2.5, 4]], "A1")
    put = app.seen[-1]
    assert put.method == "PUT" and put.params["valueInputOption"] == "RAW"
    assert reply["updatedRange"] == "Sheet1!A1:C3" and reply["updatedCells"] == 9
    assert ws.get_all_values() == [
        ["item", "price", "qty"],
        ["beef", "10", "2"],
        ["milk", "2.5", "4"],
    ]
    assert ws.get_all_records() == [
        {"item": "beef", "price": 10, "qty": 2},
        {"item": "milk", "price": 2.5, "qty": 4},
    ]
    assert ws.acell("B3").value == "2.5" and ws.cell(2, 1).value == "beef"
    assert ws.row_values(1) == ["item", "price", "qty"]
    assert ws.col_values(1) == ["item", "beef", "milk"]
    assert ws.get("A1:B2") == [["item", "price"], ["beef", "10"]]


def test_formulas_through_user_entered(env: tuple[Any, Recording]) -> None:
    client, _ = env
    ws = client.create("F").sheet1
    ws.update([[1], [2], [3]], "A1")
    ws.update_acell("A4", "=SUM(A1:A3)")
    assert ws.acell("A4").value == "6"
    assert ws.acell("A4", value_render_option="FORMULA").value == "=SUM(A1:A3)"
    ws.update_cell(1, 1, 10)
    assert ws.acell("A4").value == "15"


def test_append_insert_delete(env: tuple[Any, Recording]) -> None:
    client, _ = env
    ws = client.create("R").sheet1
    ws.update([["item", "qty"], ["beef", 2], ["milk", 4]], "A1")
    ws.append_row(["eggs", 12])
    ws.insert_row(["bread", 1], index=2)
    assert ws.col_values(1) == ["item", "bread", "beef", "milk", "eggs"]
    ws.delete_rows(3)
    assert ws.col_values(1) == ["item", "bread", "milk", "eggs"]
    ws.insert_cols([["note", "x"]], col=1)
    assert ws.row_values(1) == ["note", "item", "qty"]
    ws.delete_columns(1)
    assert ws.row_values(1) == ["item", "qty"]


def test_worksheets_and_errors(env: tuple[Any, Recording]) -> None:
    client, _ = env
    sheet = client.create("W")
    stats = sheet.add_worksheet("Stats", rows=10, cols=5)
    assert [w.title for w in sheet.worksheets()] == ["Sheet1", "Stats"]
    assert (stats.row_count, stats.col_count) == (10, 5)
    with pytest.raises(gspread.exceptions.APIError, match="already exists"):
        sheet.add_worksheet("Stats", rows=1, cols=1)
    stats.update_title("Summary")
    assert sheet.worksheet("Summary").id == stats.id
    with pytest.raises(gspread.WorksheetNotFound):
        sheet.worksheet("Stats")
    with pytest.raises(gspread.exceptions.APIError, match="exceeds grid limits"):
        stats.update([["x"] * 6], "A1")
    sheet.del_worksheet(stats)
    assert [w.title for w in sheet.worksheets()] == ["Sheet1"]
    client.del_spreadsheet(sheet.id)
    with pytest.raises(gspread.SpreadsheetNotFound):
        client.open("W")


def test_dataframes_round_trip(env: tuple[Any, Recording]) -> None:
    client, _ = env
    ws = client.create("D").sheet1
    ws.update([["item", "price"], ["beef", 10], ["milk", 2.5]], "A1")
    df = gd.get_as_dataframe(ws)
    assert list(df.columns) == ["item", "price"] and list(df["price"]) == [10, 2.5]
    df["price"] = (df["price"] * 1.1).round(2)
    gd.set_with_dataframe(ws, df)
    assert ws.get_all_values() == [["item", "price"], ["beef", "11"], ["milk", "2.75"]]


def test_clear_and_batch(env: tuple[Any, Recording]) -> None:
    client, _ = env
    ws = client.create("C").sheet1
    ws.batch_update(
        [{"range": "A1:B1", "values": [["a", "b"]]}, {"range": "A2", "values": [["c"]]}]
    )
    assert ws.batch_get(["A1:B1", "A2"]) == [[["a", "b"]], [["c"]]]
    ws.batch_clear(["A2"])
    assert ws.get_all_values() == [["a", "b"]]
    ws.clear()
    assert ws.get_all_values() in ([], [[]])


def test_layout_requests(env: tuple[Any, Recording]) -> None:
    client, app = env
    sheet = client.create("L")
    ws = sheet.sheet1
    ws.update(
        [["item", "price"], ["milk", 2.5], [None, None], ["beef", 10], ["apple", "n/a"]], "A1"
    )
    ws.sort((2, "asc"), range="A2:B5")
    assert ws.col_values(1) == ["item", "milk", "beef", "apple"]  # numbers, text, blanks last
    ws.sort((1, "des"), range="A2:B5")
    assert ws.col_values(1) == ["item", "milk", "beef", "apple"]
    ws.merge_cells("A1:B1")
    assert ws.acell("B1").value is None  # a merge keeps the top-left value
    ws.format("A1:B1", {"textFormat": {"bold": True}})
    request = _body(app.seen[-1])["requests"][0]["repeatCell"]
    assert request["fields"] == "userEnteredFormat(textFormat)"
    book = next(iter(app.books.values()))
    assert book.sheets[0].formats[(0, 0)] == {"textFormat": {"bold": True}}
    ws.set_basic_filter("A1:B5")
    ws.add_protected_range("A1:B1", description="header")
    ws.freeze(rows=1)
    meta = sheet.fetch_sheet_metadata()["sheets"][0]
    assert meta["merges"][0]["endColumnIndex"] == 2
    assert meta["basicFilter"]["range"]["endRowIndex"] == 5
    assert meta["protectedRanges"][0]["description"] == "header"
    assert meta["properties"]["gridProperties"]["frozenRowCount"] == 1
    ws.unmerge_cells("A1:B1")
    ws.clear_basic_filter()
    meta = sheet.fetch_sheet_metadata()["sheets"][0]
    assert "merges" not in meta and "basicFilter" not in meta


def test_state_as_plain_data_round_trips(env: tuple[Any, Recording]) -> None:
    client, app = env
    sheet = client.create("P")
    sheet.sheet1.update([["a", 1], ["b", "=B1*2"]], "A1", raw=False)
    sheet.sheet1.merge_cells("A3:B3")
    data = json.loads(json.dumps(app.to_data()))  # plain JSON
    again = SheetsApp()
    again.load_data(data)
    assert again.to_data() == data
    ws = sheets_client(again).open_by_key(sheet.id).sheet1
    assert ws.get_all_values() == [["a", "1"], ["b", "2"]]
    assert ws.acell("B2", value_render_option="FORMULA").value == "=B1*2"


def test_a_gspread_program_in_the_sandbox(env: tuple[Any, Recording]) -> None:
    from toolgym.tools.sandbox import Sandbox

    client, app = env
    sheet = client.create("Shop")
    sheet.sheet1.update([["item", "price"], ["beef", 10], ["milk", 2]], "A1")
    state = {"app": app.to_data(), "spreadsheet": sheet.id}
    program = (
        "cell = worksheet.find('beef')\n"
        "price = float(worksheet.cell(cell.row, 2).value)\n"
        "worksheet.update_cell(cell.row, 2, round(price * 1.1, 2))\n"
        "print(worksheet.acell('B2').value)\n"
    )
    with Sandbox(adapter="toolgym.families.google_sheets.adapter:adapter") as box:
        result = box.run(program, state)
        assert result.error is None and result.stdout == "11\n"
        after = SheetsApp()
        after.load_data(result.state["app"])
        assert sheets_client(after).open_by_key(sheet.id).sheet1.col_values(2) == [
            "price",
            "11",
            "2",
        ]
        escape = box.run("client.http_client.session.get('http://example.com')", state)
        assert escape.error is not None  # no network from the sandbox


def test_service_account_clients_work_offline(tmp_path: Any) -> None:
    """``gspread.service_account`` with a locally made key: the token endpoint answers too."""
    serialization = pytest.importorskip("cryptography.hazmat.primitives.serialization")
    rsa = pytest.importorskip("cryptography.hazmat.primitives.asymmetric.rsa")
    from toolgym.tools.requests_transport import simulated_requests

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    key_file = tmp_path / "key.json"
    key_file.write_text(
        json.dumps(
            {
                "type": "service_account",
                "project_id": "toolgym",
                "private_key_id": "1",
                "private_key": pem,
                "client_email": "agent@toolgym.iam.gserviceaccount.com",
                "client_id": "1",
                "token_uri": "https://oauth2.googleapis.com/token",
            }
        )
    )
    app = Recording()
    with simulated_requests(app):
        client = gspread.service_account(filename=str(key_file))
        client.create("Keyed").sheet1.update([[1, 2]], "A1")
        assert client.open("Keyed").sheet1.get_all_values() == [["1", "2"]]
    token, create = app.seen[0], app.seen[1]
    assert (token.method, token.host, token.path) == ("POST", "oauth2.googleapis.com", "/token")
    assert create.header("authorization") == "Bearer toolgym-token"


def test_the_service_holds_a_bounded_number_of_spreadsheets(
    env: tuple[Any, Recording], monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolgym.families.google_sheets.world import service

    client, app = env
    monkeypatch.setattr(service, "MAX_SPREADSHEETS", len(app.books) + 2)
    first = client.create("one")
    client.create("two")
    with pytest.raises(gspread.exceptions.APIError) as refused:
        client.create("three")
    assert refused.value.response.status_code == 429
    assert "at most" in str(refused.value)
    client.del_spreadsheet(first.id)
    assert client.create("three").title == "three"


def _drive(app: SheetsApp, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body)
    reply = app.handle(Request.build(method, f"https://www.googleapis.com{path}", body=data))
    return reply.status, reply.json() if reply.body else None


def test_drive_answers_the_fields_asked_for_and_its_defaults(env: tuple[Any, Recording]) -> None:
    client, app = env
    made = _drive(app, "POST", "/drive/v3/files", {"name": "A", "mimeType": SPREADSHEET})[1]
    assert set(made) == {"kind", "id", "name", "mimeType"}  # the defaults, nothing unasked
    book = made["id"]
    assert _drive(app, "GET", f"/drive/v3/files/{book}?fields=id,name")[1] == {
        "id": book,
        "name": "A",
    }
    listing = _drive(app, "GET", "/drive/v3/files")[1]
    assert listing == {"kind": "drive#fileList", "incompleteSearch": False, "files": [made]}
    asked = _drive(app, "GET", "/drive/v3/files?fields=files(id,modifiedTime)")[1]
    assert set(asked) == {"files"} and set(asked["files"][0]) == {"id", "modifiedTime"}
    assert _drive(app, "GET", f"/drive/v3/files/{book}?fields=files(id")[0] == 400
    # gspread's own calls get what they ask for
    meta = client.get_file_drive_metadata(book)
    assert set(meta) == {"id", "name", "createdTime", "modifiedTime"}


def test_modified_time_moves_when_the_spreadsheet_changes(env: tuple[Any, Recording]) -> None:
    client, app = env
    sheet = client.create("Budget")
    before = client.get_file_drive_metadata(sheet.id)["modifiedTime"]
    sheet.sheet1.get_all_values()  # a read changes nothing
    assert client.get_file_drive_metadata(sheet.id)["modifiedTime"] == before
    sheet.sheet1.update([["x"]], "A1")
    after = client.get_file_drive_metadata(sheet.id)["modifiedTime"]
    assert after > before == client.get_file_drive_metadata(sheet.id)["createdTime"]
    sheet.add_worksheet("More", 5, 5)
    assert client.get_file_drive_metadata(sheet.id)["modifiedTime"] > after
    state = app.to_data()
    fresh = SheetsApp()
    fresh.load_data(state)
    assert fresh.to_data() == state  # the times are part of the state


SPREADSHEET = "application/vnd.google-apps.spreadsheet"


def test_requests_behave_as_the_real_api(env: tuple[Any, Recording]) -> None:
    client, app = env
    book = client.create("Rules")
    ws = book.sheet1
    # merging over a merge it covers replaces it; a partial overlap is still refused
    ws.merge_cells("A1:B2")
    ws.merge_cells("A1:B2")
    ws.merge_cells("A1:C3")
    merges = book.fetch_sheet_metadata()["sheets"][0]["merges"]
    assert [(m["endRowIndex"], m["endColumnIndex"]) for m in merges] == [(3, 3)]
    with pytest.raises(gspread.exceptions.APIError, match="overlapping merges"):
        ws.merge_cells("C3:D4")
    # updateNamedRange renames and moves a range
    added = book.batch_update(
        {
            "requests": [
                {
                    "addNamedRange": {
                        "namedRange": {
                            "name": "prices",
                            "range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 2},
                        }
                    }
                }
            ]
        }
    )
    range_id = added["replies"][0]["addNamedRange"]["namedRange"]["namedRangeId"]
    book.batch_update(
        {
            "requests": [
                {
                    "updateNamedRange": {
                        "namedRange": {
                            "namedRangeId": range_id,
                            "name": "costs",
                            "range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 5},
                        },
                        "fields": "*",
                    }
                }
            ]
        }
    )
    (named,) = book.fetch_sheet_metadata()["namedRanges"]
    assert named["name"] == "costs" and named["range"]["endRowIndex"] == 5
    with pytest.raises(gspread.exceptions.APIError, match="fields is required"):
        book.batch_update(
            {"requests": [{"updateNamedRange": {"namedRange": {"namedRangeId": range_id}}}]}
        )
    # the only visible sheet cannot be hidden
    with pytest.raises(gspread.exceptions.APIError, match="hide all the sheets"):
        ws.hide()
    book.add_worksheet("Other", 5, 5)
    ws.hide()
    # cells sent as null are left alone and not counted
    reply = book.values_update(
        "Other!A1", {"valueInputOption": "RAW"}, {"values": [["a", None], [None, None], ["b", "c"]]}
    )
    assert (reply["updatedCells"], reply["updatedRows"], reply["updatedColumns"]) == (3, 2, 2)


def test_bodies_have_the_real_structure(env: tuple[Any, Recording]) -> None:
    """proto3 on the wire: defaults left out; colours with their Style twins; theme and sizes."""
    client, app = env
    book = client.create("Wire")
    ws = book.sheet1
    ws.merge_cells("A1:B2")
    ws.update_tab_color("#FF0000")
    ws.update([["a", "b"], ["c", "d"], ["e", "f"]], "A4")
    book.batch_update(
        {
            "requests": [
                {
                    "updateDimensionProperties": {
                        "range": {
                            "sheetId": 0,
                            "dimension": "ROWS",
                            "startIndex": 4,
                            "endIndex": 5,
                        },
                        "properties": {"hiddenByUser": True},
                        "fields": "hiddenByUser",
                    }
                }
            ]
        }
    )
    meta = book.fetch_sheet_metadata()
    props = meta["properties"]
    assert props["defaultFormat"]["textFormat"]["fontFamily"] == "arial,sans,sans-serif"
    theme = props["spreadsheetTheme"]
    assert theme["primaryFontFamily"] == "Arial"
    accent = next(c for c in theme["themeColors"] if c["colorType"] == "ACCENT1")
    assert accent["color"]["rgbColor"] == {
        "red": 0.25882354,
        "green": 0.52156866,
        "blue": 0.95686275,
    }
    sheet = meta["sheets"][0]
    assert sheet["properties"]["sheetId"] == 0  # a sheet's own id stays
    assert sheet["merges"] == [
        {"startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 2}
    ]
    assert sheet["properties"]["tabColor"] == {"red": 1}
    assert sheet["properties"]["tabColorStyle"] == {"rgbColor": {"red": 1}}
    grid = book.fetch_sheet_metadata({"includeGridData": "true", "ranges": "Sheet1!A4:B6"})
    (data,) = grid["sheets"][0]["data"]
    assert data["rowMetadata"] == [
        {"pixelSize": 21},
        {"pixelSize": 21, "hiddenByUser": True},
        {"pixelSize": 21},
    ]
    assert data["columnMetadata"] == [{"pixelSize": 100}, {"pixelSize": 100}]
    whole = book.fetch_sheet_metadata({"includeGridData": "true"})["sheets"][0]["data"][0]
    assert len(whole["rowMetadata"]) == 1000 and len(whole["columnMetadata"]) == 26
    cell = data["rowData"][0]["values"][0]["effectiveFormat"]
    assert cell["textFormat"]["foregroundColor"] == {}  # black: every channel left out


def test_drive_copies_exports_imports_and_comments(env: tuple[Any, Recording]) -> None:
    import io
    import zipfile
    from xml.etree import ElementTree

    from gspread.utils import ExportFormat

    client, app = env
    book = client.create("Budget")
    book.sheet1.update([["item", "price"], ["beef", 10]], "A1")
    book.add_worksheet("Notes", 5, 5)
    copied = client.copy(book.id, title="Budget 2")
    assert copied.id != book.id and copied.sheet1.get_all_values() == [
        ["item", "price"],
        ["beef", "10"],
    ]
    assert [w.title for w in copied.worksheets()] == ["Sheet1", "Notes"]
    assert client.copy(book.id).title == "Copy of Budget"
    assert client.export(book.id, ExportFormat.CSV) == b"item,price\r\nbeef,10\r\n"
    assert client.export(book.id, ExportFormat.TSV) == b"item\tprice\r\nbeef\t10\r\n"
    assert client.export(book.id, ExportFormat.PDF).startswith(b"%PDF-1.4")
    for kind in (ExportFormat.EXCEL, ExportFormat.OPEN_OFFICE_SHEET, ExportFormat.ZIPPED_HTML):
        archive = zipfile.ZipFile(io.BytesIO(client.export(book.id, kind)))
        for name in archive.namelist():
            if name.endswith(".xml"):
                ElementTree.fromstring(archive.read(name))  # well-formed
    reply = app.handle(
        Request.build(
            "GET", f"https://www.googleapis.com/drive/v3/files/{book.id}/export?mimeType=x"
        )
    )
    assert reply.status == 400
    url = f"https://www.googleapis.com/drive/v3/files/{book.id}/comments"
    made = app.handle(
        Request.build("POST", url + "?fields=id", body=json.dumps({"content": "check"}))
    )
    assert set(made.json()) == {"id"}
    assert [c["content"] for c in app.handle(Request.build("GET", url)).json()["comments"]] == [
        "check"
    ]
    client.import_csv(book.id, "a,b\n1,2\n")  # the v2 upload: first sheet replaced, others gone
    again = client.open_by_key(book.id)
    assert [w.title for w in again.worksheets()] == ["Sheet1"]
    assert again.sheet1.get_all_values() == [["a", "b"], ["1", "2"]]


def test_a_whole_sheet_filter_reports_its_bounds(env: tuple[Any, Recording]) -> None:
    client, _ = env
    book = client.create("Filter")
    book.sheet1.set_basic_filter()  # no range: the whole sheet
    (sheet,) = book.fetch_sheet_metadata()["sheets"]
    assert sheet["basicFilter"]["range"] == {
        "startRowIndex": 0,
        "endRowIndex": 1000,
        "startColumnIndex": 0,
        "endColumnIndex": 26,
    }


def test_hostile_masks_and_csv_uploads_get_400s(env: tuple[Any, Recording]) -> None:
    client, app = env
    book = client.create("Hostile")
    drive = "https://www.googleapis.com/drive/v3/files"
    for mask in ("(" * 5000, "a(" * 40, "x" * 10_000):
        assert app.handle(Request.build("GET", f"{drive}?fields={mask}")).status == 400
    upload = f"https://www.googleapis.com/upload/drive/v2/files/{book.id}?uploadType=media"
    assert app.handle(Request.build("PUT", upload, body="a" * 200_000)).status == 400
    assert not any(client.open_by_key(book.id).sheet1.get_all_values()[0])  # nothing changed


def test_grid_properties_left_out_when_default(env: tuple[Any, Recording]) -> None:
    """Gridlines and group-control flags: sent when set, left out when false (the default)."""
    client, _ = env
    sheet = client.create("Grid")
    ws = sheet.sheet1
    ws.hide_gridlines()
    assert client.open_by_key(sheet.id).sheet1.is_gridlines_hidden
    body = {
        "requests": [
            {
                "updateSheetProperties": {
                    "properties": {
                        "sheetId": ws.id,
                        "gridProperties": {"rowGroupControlAfter": True, "frozenRowCount": 1},
                    },
                    "fields": "gridProperties",
                }
            }
        ]
    }
    sheet.batch_update(body)
    grid = sheet.fetch_sheet_metadata()["sheets"][0]["properties"]["gridProperties"]
    assert grid["rowGroupControlAfter"] is True and grid["frozenRowCount"] == 1
    assert "columnGroupControlAfter" not in grid
    ws.show_gridlines()
    grid = sheet.fetch_sheet_metadata()["sheets"][0]["properties"]["gridProperties"]
    assert "hideGridlines" not in grid


def test_batch_update_totals_count_each_cell_once(env: tuple[Any, Recording]) -> None:
    """Totals are over the whole request: rows, columns and cells written, once each."""
    client, _ = env
    sheet = client.create("Totals")
    sheet.add_worksheet("Other", 10, 5)
    reply = sheet.values_batch_update(
        {
            "valueInputOption": "RAW",
            "data": [
                {"range": "Sheet1!A1:B2", "values": [["a", "b"], ["c", "d"]]},
                {"range": "Sheet1!B2:C2", "values": [["e", "f"]]},  # B2 again
                {"range": "Other!A1", "values": [[None, None]]},  # nulls write nothing
            ],
        }
    )
    assert reply["totalUpdatedCells"] == 5 and reply["totalUpdatedRows"] == 2
    assert reply["totalUpdatedColumns"] == 3 and reply["totalUpdatedSheets"] == 1
    assert [r["updatedCells"] for r in reply["responses"]][:2] == [4, 2]


def test_error_bodies_carry_what_the_api_sends(env: tuple[Any, Recording]) -> None:
    """A bad value names its field (``BadRequest``); Drive's 404 is its own older form."""
    client, _ = env
    sheet = client.create("Errors")
    with pytest.raises(gspread.exceptions.APIError) as caught:
        sheet.values_update("Sheet1!A1", {"valueInputOption": "RAW"}, {"values": "x"})
    error = caught.value.response.json()["error"]
    assert error["status"] == "INVALID_ARGUMENT"
    (detail,) = error["details"]
    assert detail["@type"] == "type.googleapis.com/google.rpc.BadRequest"
    assert detail["fieldViolations"][0]["field"] == "data.values"
    with pytest.raises(gspread.exceptions.APIError) as caught:
        client.del_spreadsheet("missing-id")
    error = caught.value.response.json()["error"]
    assert caught.value.code == 404 and error["message"] == "File not found: missing-id."
    assert error["errors"][0]["reason"] == "notFound" and "status" not in error
    with pytest.raises(gspread.SpreadsheetNotFound):  # Sheets' own 404 is unchanged
        client.open_by_key("missing-id")


def test_sheet_properties_that_are_not_objects_are_a_400(env: tuple[Any, Recording]) -> None:
    client, _ = env
    sheet = client.create("Props")
    for props in ([1], {"sheetId": 0, "gridProperties": [1]}):
        request = {"updateSheetProperties": {"properties": props, "fields": "gridProperties"}}
        with pytest.raises(gspread.exceptions.APIError) as caught:
            sheet.batch_update({"requests": [request]})
        assert caught.value.code == 400
