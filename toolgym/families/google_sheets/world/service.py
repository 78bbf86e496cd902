"""The simulated Sheets API v4, and the Drive v3 and OAuth endpoints gspread uses, as one HttpApp.

Routes (``S`` = ``https://sheets.googleapis.com/v4/spreadsheets``,
``D`` = ``https://www.googleapis.com/drive/v3/files``):

* ``GET S/{id}`` (metadata), ``POST S/{id}:batchUpdate`` (``addSheet``, ``deleteSheet``,
  ``updateSheetProperties``, ``insertDimension``, ``deleteDimension``, and the layout requests
  of :mod:`.structure`);
* ``GET|PUT S/{id}/values/{range}``, ``POST S/{id}/values/{range}:append`` and ``:clear``,
  ``GET S/{id}/values:batchGet``, ``POST S/{id}/values:batchUpdate`` and ``:batchClear``;
* ``POST D`` (create a spreadsheet), ``GET D`` (list, ``q`` with ``name = '...'``),
  ``GET D/{id}``, ``DELETE D/{id}``;
* ``POST https://oauth2.googleapis.com/token`` (a service account's token).

Answers and errors have the real API's shapes (:mod:`.sheet`); ids are drawn from the seed, so a
run reproduces. The whole state is a mapping of spreadsheets that :meth:`snapshot` copies.
"""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import unquote

from toolgym.families.google_sheets.world import drive
from toolgym.families.google_sheets.world.dimensions import shift_columns, shift_rows, values_append
from toolgym.families.google_sheets.world.editing import EDITING_REQUESTS
from toolgym.families.google_sheets.world.fields import apply_fields, parse_fields
from toolgym.families.google_sheets.world.grid_data import (
    DEFAULT_FORMAT,
    GRID_REQUESTS,
    grid_data,
)
from toolgym.families.google_sheets.world.sheet import (
    SheetsError,
    Spreadsheet,
    Worksheet,
    bad_request,
    oriented_rows,
    quota_exceeded,
    values_clear,
)
from toolgym.families.google_sheets.world.state import MAX_GRID_CELLS, book_from_data, book_to_data
from toolgym.families.google_sheets.world.structure import REQUESTS, sheet_of
from toolgym.families.google_sheets.world.wire import SPREADSHEET_THEME, wire
from toolgym.simulators.http import HttpApp, Request, Response
from toolgym.simulators.seeding import stable_rng

SHEETS_HOST = "sheets.googleapis.com"
DRIVE_HOST = "www.googleapis.com"
OAUTH_HOST = "oauth2.googleapis.com"
_ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

MAX_SPREADSHEETS = 100
"""The most spreadsheets one service holds (then 429 until one is deleted)."""


class SheetsApp(HttpApp):
    """The simulated Sheets, Drive and token endpoints (see the module docstring).

    Args:
        seed: seeds the ids of new spreadsheets and sheets.
        api_key: unused (the service accepts any bearer token), for the common constructor.
    """

    name = "google_sheets"
    hosts = (SHEETS_HOST, DRIVE_HOST, OAUTH_HOST)

    def __init__(self, seed: int = 0, api_key: str | None = None) -> None:
        self.seed = seed
        self.books: dict[str, Spreadsheet] = {}
        self._rng = stable_rng("google-sheets-ids", seed)
        self._clock = 0

    # -- state ------------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """A deep copy of every spreadsheet and the id generator."""
        return {
            "books": copy.deepcopy(self.books),
            "rng": copy.deepcopy(self._rng.bit_generator.state),
            "clock": self._clock,
        }

    def restore(self, state: Any) -> None:
        """Return to a state returned by :meth:`snapshot` (copied)."""
        self.books = copy.deepcopy(state["books"])
        self._rng.bit_generator.state = copy.deepcopy(state["rng"])
        self._clock = int(state["clock"])

    def to_data(self) -> dict[str, Any]:
        """The whole state as plain data (JSON), for the sandbox and task setups."""
        return {
            "books": [book_to_data(b) for b in self.books.values()],
            "rng": self._rng.bit_generator.state,
            "clock": self._clock,
        }

    def load_data(self, data: dict[str, Any]) -> None:
        """Replace the state with one from :meth:`to_data`."""
        self.books = {}
        for item in data.get("books", []):
            book = book_from_data(item)
            self.books[book.spreadsheet_id] = book
        if "rng" in data:
            self._rng.bit_generator.state = copy.deepcopy(data["rng"])
        self._clock = int(data.get("clock", 0))

    def new_id(self, length: int = 44) -> str:
        """A new spreadsheet id (44 characters, like the real ones)."""
        return "".join(_ID_CHARS[int(i)] for i in self._rng.integers(len(_ID_CHARS), size=length))

    def create(self, title: str) -> Spreadsheet:
        """A new spreadsheet with one 1000 x 26 sheet called ``Sheet1``.

        Raises:
            SheetsError: 429 ``RESOURCE_EXHAUSTED`` when the service holds
                :data:`MAX_SPREADSHEETS` already (a long-running service's memory stays bounded;
                deleting one makes room).
        """
        if len(self.books) >= MAX_SPREADSHEETS:
            raise quota_exceeded(
                f"This service holds at most {MAX_SPREADSHEETS} spreadsheets; delete one first.",
                "sheets.googleapis.com/spreadsheets",
            )
        book = Spreadsheet(self.new_id(), title)
        self._clock += 1
        book.created = self._clock  # type: ignore[attr-defined]
        book.modified = self._clock  # type: ignore[attr-defined]
        self.books[book.spreadsheet_id] = book
        return book

    # -- dispatch ---------------------------------------------------------------------------------
    def handle(self, request: Request) -> Response:
        """Answer one request; never raises."""
        try:
            return self._route(request)
        except SheetsError as e:
            return Response.json_body(e.code, e.body())
        except (ValueError, TypeError, KeyError) as e:
            return Response.json_body(400, bad_request(f"Invalid request: {e}").body())
        except Exception as e:
            error = SheetsError(500, "INTERNAL", f"Internal error encountered ({type(e).__name__})")
            return Response.json_body(500, error.body())

    def host_for(self, path: str) -> str:
        """The host of a path when Sheets, Drive and OAuth answer on one port (``toolgym serve``).

        Drive's paths (``/drive/...``, ``/upload/drive/...``) go to Drive, ``/token`` to OAuth,
        everything else to Sheets.
        """
        clean = "/" + path.lstrip("/")
        if clean.startswith(("/drive/", "/upload/drive/")):
            return DRIVE_HOST
        if clean.rstrip("/") in ("/token", "/oauth2/v4/token"):
            return OAUTH_HOST
        return SHEETS_HOST

    def _route(self, request: Request) -> Response:
        if request.host == OAUTH_HOST:
            return Response.json_body(
                200, {"access_token": "toolgym-token", "expires_in": 3599, "token_type": "Bearer"}
            )
        path = request.url.split("?", 1)[0].split("://", 1)[-1].split("/", 1)[-1]
        if request.host == DRIVE_HOST and path.startswith("drive/v3/files"):
            return drive.files(self, request, path[len("drive/v3/files") :].strip("/"))
        if request.host == DRIVE_HOST and path.startswith("upload/drive/v2/files/"):
            return drive.import_csv(self, request, path[len("upload/drive/v2/files/") :])
        if request.host != SHEETS_HOST or not path.startswith("v4/spreadsheets"):
            raise drive.not_found()
        rest = path[len("v4/spreadsheets") :].lstrip("/")
        if not rest:
            if request.method != "POST":
                raise SheetsError(405, "METHOD_NOT_ALLOWED", "Method not allowed")
            body = drive.json_body(request)
            title = (body.get("properties") or {}).get("title", "Untitled spreadsheet")
            return Response.json_body(200, self._metadata(self.create(str(title))))
        book_id, _, tail = rest.partition("/")
        book_id, _, action = unquote(book_id).partition(":")
        book = self.books.get(book_id)
        if book is None:
            raise drive.not_found()
        if not tail:
            if action == "batchUpdate" and request.method == "POST":
                reply = wire(self._batch_update(book, drive.json_body(request)))
                self._touch(book)
                return Response.json_body(200, reply)
            if not action and request.method == "GET":
                return Response.json_body(200, self._get(book, request))
            raise drive.not_found()
        if not tail.startswith("values"):
            raise drive.not_found()
        reply = self._values(book, request, tail[len("values") :])
        if request.method != "GET" and not tail.endswith(":batchGet"):
            self._touch(book)
        return Response.json_body(200, reply)

    def _touch(self, book: Spreadsheet) -> None:
        """A write went through: the file's ``modifiedTime`` moves on."""
        self._clock += 1
        book.modified = self._clock  # type: ignore[attr-defined]

    # -- values -----------------------------------------------------------------------------------
    def _values(self, book: Spreadsheet, request: Request, tail: str) -> dict[str, Any]:
        params = request.params
        many = request.query
        if tail.startswith(":"):
            action = tail[1:]
            if action == "batchGet" and request.method == "GET":
                ranges = [v for k, v in many if k == "ranges"]
                return {
                    "spreadsheetId": book.spreadsheet_id,
                    "valueRanges": [
                        book.values_get(
                            r,
                            params.get("valueRenderOption", "FORMATTED_VALUE"),
                            params.get("majorDimension", "ROWS"),
                            params.get("dateTimeRenderOption", "SERIAL_NUMBER"),
                        )
                        for r in ranges
                    ],
                }
            body = drive.json_body(request)
            if action == "batchUpdate" and request.method == "POST":
                option = body.get("valueInputOption", "")
                shown = {
                    k: str(v)
                    for k, v in body.items()
                    if k.startswith(("include", "response")) and v is not None
                }
                replies = [
                    _with_values(
                        book,
                        book.values_update(
                            d["range"], d.get("values", []), option, d.get("majorDimension")
                        ),
                        shown,
                    )
                    for d in body.get("data", [])
                ]
                return {
                    "spreadsheetId": book.spreadsheet_id,
                    **_totals(book, body.get("data", [])),
                    "responses": replies,
                }
            if action == "batchClear" and request.method == "POST":
                cleared = [values_clear(book, r)["clearedRange"] for r in body.get("ranges", [])]
                return {"spreadsheetId": book.spreadsheet_id, "clearedRanges": cleared}
            raise drive.not_found()
        text = unquote(tail.lstrip("/"))
        for suffix in (":append", ":clear"):
            if text.endswith(suffix) and request.method == "POST":
                target = text[: -len(suffix)]
                if suffix == ":clear":
                    return values_clear(book, target)
                body = drive.json_body(request)
                before = book_to_data(book)
                try:
                    reply = values_append(
                        book,
                        target,
                        body.get("values", []),
                        params.get("valueInputOption", ""),
                        params.get("insertDataOption", "OVERWRITE"),
                        body.get("majorDimension"),
                    )
                    _check_grid(book)
                except Exception:
                    self.books[book.spreadsheet_id] = book_from_data(before)
                    raise
                _with_values(book, reply["updates"], params)
                return reply
        if request.method == "GET":
            return book.values_get(
                text,
                params.get("valueRenderOption", "FORMATTED_VALUE"),
                params.get("majorDimension", "ROWS"),
                params.get("dateTimeRenderOption", "SERIAL_NUMBER"),
            )
        if request.method == "PUT":
            body = drive.json_body(request)
            reply = book.values_update(
                text,
                body.get("values", []),
                params.get("valueInputOption", ""),
                body.get("majorDimension"),
            )
            return _with_values(book, reply, params)
        raise SheetsError(405, "METHOD_NOT_ALLOWED", "Method not allowed")

    # -- spreadsheets -----------------------------------------------------------------------------
    def _metadata(self, book: Spreadsheet) -> dict[str, Any]:
        return {
            "spreadsheetId": book.spreadsheet_id,
            "properties": {
                "title": book.title,
                "locale": book.properties.get("locale", "en_US"),
                "autoRecalc": "ON_CHANGE",
                "timeZone": book.properties.get("timeZone", "Etc/GMT"),
                "defaultFormat": copy.deepcopy(DEFAULT_FORMAT),
                "spreadsheetTheme": copy.deepcopy(SPREADSHEET_THEME),
            },
            "sheets": [ws.metadata() for ws in book.sheets],
            **({"namedRanges": list(book.named_ranges)} if book.named_ranges else {}),
            "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{book.spreadsheet_id}/edit",
        }

    def _get(self, book: Spreadsheet, request: Request) -> dict[str, Any]:
        """``spreadsheets.get``: metadata, grid data when asked, masked by ``fields``."""
        params = request.params
        ranges = [v for k, v in request.query if k == "ranges"]
        answer = self._metadata(book)
        fields = params.get("fields", "")
        if params.get("includeGridData", "false").lower() == "true" or "data" in fields:
            answer = grid_data(book, answer, ranges)
        elif ranges:  # metadata of the sheets the ranges name
            titles = {book.resolve(r)[0].title for r in ranges}
            answer["sheets"] = [s for s in answer["sheets"] if s["properties"]["title"] in titles]
        answer = wire(answer)
        if fields:
            answer = apply_fields(answer, parse_fields(fields))
        return answer

    def _batch_update(self, book: Spreadsheet, body: dict[str, Any]) -> dict[str, Any]:
        """Apply every request, or none.

        A failing request (or a grid past the cell limit) leaves the spreadsheet as it was, as
        the real service does.
        """
        before = book_to_data(book)
        try:
            reply = self._apply_requests(book, body)
            _check_grid(book)
        except Exception:
            self.books[book.spreadsheet_id] = book_from_data(before)
            raise
        return reply

    def _apply_requests(self, book: Spreadsheet, body: dict[str, Any]) -> dict[str, Any]:
        replies: list[dict[str, Any]] = []
        for i, item in enumerate(body.get("requests", [])):
            if not isinstance(item, dict) or len(item) != 1:
                raise bad_request(f"Invalid requests[{i}]: exactly one kind of request expected")
            kind, spec = next(iter(item.items()))
            handler = (
                getattr(self, f"_req_{kind}", None)
                or REQUESTS.get(kind)
                or GRID_REQUESTS.get(kind)
                or EDITING_REQUESTS.get(kind)
            )
            if handler is None or not isinstance(spec, dict):
                raise bad_request(f"Invalid requests[{i}]: unknown request {kind!r}")
            replies.append(handler(book, spec))
        book.changed()
        return {"spreadsheetId": book.spreadsheet_id, "replies": replies}

    def _req_addSheet(self, book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
        props = spec.get("properties", {})
        title = props.get("title") or f"Sheet{len(book.sheets) + 1}"
        if any(ws.title == title for ws in book.sheets):
            raise bad_request(
                f'Invalid requests[0].addSheet: A sheet with the name "{title}" already exists. '
                "Please enter another name."
            )
        grid = props.get("gridProperties", {})
        sheet_id = props.get("sheetId", int(self._rng.integers(1, 2**31 - 1)))
        index = min(int(props.get("index", len(book.sheets))), len(book.sheets))
        ws = Worksheet(
            sheet_id,
            str(title),
            index,
            int(grid.get("rowCount", 1000)),
            int(grid.get("columnCount", 26)),
        )
        book.sheets.insert(index, ws)
        for k, sheet in enumerate(book.sheets):
            sheet.index = k
        return {"addSheet": {"properties": ws.properties()}}

    def _req_deleteSheet(self, book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
        ws = sheet_of(book, spec.get("sheetId"))
        if len(book.sheets) == 1:
            raise bad_request(
                "Invalid requests[0].deleteSheet: You can't remove all the sheets in a document."
            )
        book.sheets.remove(ws)
        for k, sheet in enumerate(book.sheets):
            sheet.index = k
        return {}

    def _req_updateSheetProperties(self, book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
        props = spec.get("properties", {})
        grid = props.get("gridProperties", {}) if isinstance(props, dict) else None
        if not isinstance(grid, dict):
            raise bad_request(
                "Invalid requests[0].updateSheetProperties: properties and gridProperties must "
                "be objects"
            )
        ws = sheet_of(book, props.get("sheetId", 0))
        fields = [
            f.strip().replace(".", "/") for f in str(spec.get("fields", "")).split(",") if f.strip()
        ]
        if "*" in fields:
            fields = [f for f in fields if f != "*"] + [k for k in props if k != "sheetId"]
        if "gridProperties" in fields:  # the whole message: each of its fields that was sent
            fields.remove("gridProperties")
            fields += [f"gridProperties/{k}" for k in grid]
        for name in fields:
            if name == "title":
                ws.title = str(props.get("title", ws.title))
            elif name == "gridProperties/rowCount":
                ws.rows = int(grid["rowCount"])
            elif name == "gridProperties/columnCount":
                ws.cols = int(grid["columnCount"])
            elif name == "gridProperties/frozenRowCount":
                ws.frozen_rows = int(grid.get("frozenRowCount", 0))
            elif name == "gridProperties/frozenColumnCount":
                ws.frozen_cols = int(grid.get("frozenColumnCount", 0))
            elif name in (
                "gridProperties/hideGridlines",
                "gridProperties/rowGroupControlAfter",
                "gridProperties/columnGroupControlAfter",
            ):
                key = name.split("/")[1]
                ws.extra[key] = bool(grid.get(key, False))
            elif name in ("hidden", "tabColor", "tabColorStyle"):
                if (
                    name == "hidden"
                    and props.get("hidden")
                    and all(s is ws or s.extra.get("hidden") for s in book.sheets)
                ):
                    raise bad_request(
                        "Invalid requests[0].updateSheetProperties: You can't hide all the "
                        "sheets in a document."
                    )
                ws.extra[name] = props.get(name)
            elif name == "index":
                book.sheets.remove(ws)
                book.sheets.insert(min(int(props.get("index", 0)), len(book.sheets)), ws)
                for k, sheet in enumerate(book.sheets):
                    sheet.index = k
            else:
                raise bad_request(
                    f"Invalid requests[0].updateSheetProperties: unsupported field {name!r}"
                )
        return {}

    def _dimension(
        self, book: Spreadsheet, spec: dict[str, Any]
    ) -> tuple[Worksheet, str, int, int]:
        span = spec.get("range", {})
        ws = sheet_of(book, span.get("sheetId", 0))
        start, end = int(span.get("startIndex", 0)), int(span.get("endIndex", 0))
        if end <= start:
            raise bad_request("Invalid requests[0]: the range must end after it starts")
        return ws, str(span.get("dimension", "ROWS")), start, end

    def _req_insertDimension(self, book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
        ws, dimension, start, end = self._dimension(book, spec)
        (shift_rows if dimension == "ROWS" else shift_columns)(book, ws, start, end - start)
        return {}

    def _req_deleteDimension(self, book: Spreadsheet, spec: dict[str, Any]) -> dict[str, Any]:
        ws, dimension, start, end = self._dimension(book, spec)
        (shift_rows if dimension == "ROWS" else shift_columns)(book, ws, start, start - end)
        return {}

    # -- drive ------------------------------------------------------------------------------------


def _check_grid(book: Spreadsheet) -> None:
    """400 when the spreadsheet's sheets hold more cells than the service allows."""
    cells = sum(ws.rows * ws.cols for ws in book.sheets)
    if cells > MAX_GRID_CELLS:
        raise bad_request(
            "This action would increase the number of cells in the workbook above the limit "
            f"of {MAX_GRID_CELLS} cells."
        )


def _with_values(
    book: Spreadsheet, reply: dict[str, Any], params: dict[str, str]
) -> dict[str, Any]:
    """``reply`` with ``updatedData`` when ``includeValuesInResponse`` asks for it."""
    if str(params.get("includeValuesInResponse", "false")).lower() == "true":
        reply["updatedData"] = book.values_get(
            reply["updatedRange"],
            params.get("responseValueRenderOption", "FORMATTED_VALUE"),
            "ROWS",
            params.get("responseDateTimeRenderOption", "SERIAL_NUMBER"),
        )
    return reply


def _totals(book: Spreadsheet, data: list[dict[str, Any]]) -> dict[str, int]:
    """``values:batchUpdate``'s totals, as the API defines them over the whole request.

    The rows, columns and cells where at least one cell was written (a null writes nothing;
    ranges that overlap count once), and the sheets where at least one cell was.
    """
    cells: set[tuple[int, int, int]] = set()
    for entry in data:
        rows = oriented_rows(entry.get("values", []), entry.get("majorDimension"))
        ws, ref = book.resolve(entry["range"])
        r0, c0 = ref.start_row or 0, ref.start_col or 0
        for i, row in enumerate(rows):
            cells.update(
                (ws.sheet_id, r0 + i, c0 + j) for j, item in enumerate(row) if item is not None
            )
    return {
        "totalUpdatedRows": len({(s, r) for s, r, _ in cells}),
        "totalUpdatedColumns": len({(s, c) for s, _, c in cells}),
        "totalUpdatedCells": len(cells),
        "totalUpdatedSheets": len({s for s, _, _ in cells}),
    }
