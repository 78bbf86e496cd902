"""The Drive endpoints gspread uses, over the service's spreadsheets.

* ``files``: create (a spreadsheet), list (``q`` by name), get, delete; ``fields`` honoured
  (:mod:`.drive_fields`);
* ``files/{id}/copy``: a copy with a new id, named ``Copy of <title>`` unless named;
* ``files/{id}/export?mimeType=...``: the spreadsheet as CSV or TSV (its first sheet, as Drive
  exports it), XLSX, ODS, zipped HTML or PDF (:mod:`.exports`), with that content type;
* ``files/{id}/comments``: list and add comments (kept with the spreadsheet);
* ``upload/drive/v2/files/{id}?uploadType=media&convert=true``: ``import_csv``, which replaces
  the first sheet's contents with the CSV and removes the other sheets.
"""

from __future__ import annotations

import copy
import csv
import io
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from toolgym.families.google_sheets.world.drive_fields import (
    FILE_LIST_DEFAULT,
    drive_fields,
    drive_time,
)
from toolgym.families.google_sheets.world.exports import EXPORTS, export
from toolgym.families.google_sheets.world.sheet import (
    SheetsError,
    Spreadsheet,
    bad_request,
    parse_entered,
)
from toolgym.families.google_sheets.world.state import MAX_GRID_CELLS
from toolgym.simulators.http import Request, Response

if TYPE_CHECKING:  # the service passes itself; no import cycle at run time
    from toolgym.families.google_sheets.world.service import SheetsApp

SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
MAX_COMMENTS = 1000
"""The most comments one spreadsheet keeps (a long-running service's memory stays bounded)."""
MAX_COMMENT_CHARS = 30_000


def not_found() -> SheetsError:
    """Sheets' 404 (and any path neither API has)."""
    return SheetsError(404, "NOT_FOUND", "Requested entity was not found.")


def file_not_found(file_id: str) -> SheetsError:
    """Drive v3's 404 for a file id: its message and its older ``errors`` form, no status."""
    message = f"File not found: {file_id[:100]}."
    reason = {
        "message": message,
        "domain": "global",
        "reason": "notFound",
        "location": "fileId",
        "locationType": "parameter",
    }
    return SheetsError(404, "", message, errors=[reason])


def drive_file(book: Spreadsheet) -> dict[str, Any]:
    """The Drive file resource of a spreadsheet, every field the service knows."""
    created = getattr(book, "created", 0)
    return {
        "kind": "drive#file",
        "id": book.spreadsheet_id,
        "name": book.title,
        "mimeType": SPREADSHEET_MIME,
        "createdTime": drive_time(created),
        "modifiedTime": drive_time(getattr(book, "modified", created)),
    }


def files(app: SheetsApp, request: Request, rest: str) -> Response:
    """``drive/v3/files[/{id}[/copy|/export|/comments]]``."""
    fields = request.params.get("fields")
    if not rest:
        if request.method == "POST":
            body = json_body(request)
            if body.get("mimeType") != SPREADSHEET_MIME:
                raise bad_request("Only spreadsheets can be created here")
            made = app.create(str(body.get("name", "Untitled spreadsheet")))
            return Response.json_body(200, drive_fields(drive_file(made), fields))
        if request.method == "GET":
            wanted = _name_filter(request.params.get("q", ""))
            listed = [drive_file(b) for b in app.books.values() if wanted in (None, b.title)]
            listing = {"kind": "drive#fileList", "incompleteSearch": False, "files": listed}
            return Response.json_body(200, drive_fields(listing, fields, FILE_LIST_DEFAULT))
        raise SheetsError(405, "METHOD_NOT_ALLOWED", "Method not allowed")
    file_id, _, sub = rest.partition("/")
    book = app.books.get(unquote(file_id))
    if book is None:
        raise file_not_found(unquote(file_id))
    if sub == "copy" and request.method == "POST":
        return Response.json_body(200, drive_fields(drive_file(_copy(app, book, request)), fields))
    if sub == "export" and request.method == "GET":
        mime = request.params.get("mimeType", "")
        if mime not in EXPORTS:
            raise bad_request(f"Export only supports these formats: {', '.join(EXPORTS)}")
        return Response(200, {"Content-Type": mime}, export(book, mime))
    if sub == "comments":
        return Response.json_body(200, _comments(book, request))
    if sub:
        raise not_found()
    if request.method == "DELETE":
        del app.books[book.spreadsheet_id]
        return Response(204, {}, b"")
    if request.method == "GET":
        return Response.json_body(200, drive_fields(drive_file(book), fields))
    raise SheetsError(405, "METHOD_NOT_ALLOWED", "Method not allowed")


def _copy(app: SheetsApp, book: Spreadsheet, request: Request) -> Spreadsheet:
    body = json_body(request)
    name = body.get("name") or f"Copy of {book.title}"
    new = app.create(str(name))
    new.sheets = copy.deepcopy(book.sheets)
    new.named_ranges = copy.deepcopy(book.named_ranges)
    new.properties.update(copy.deepcopy(book.properties))
    return new


def _comments(book: Spreadsheet, request: Request) -> dict[str, Any]:
    kept: list[dict[str, Any]] = book.properties.setdefault("comments", [])
    fields = request.params.get("fields")
    if request.method == "GET":
        listing = {"kind": "drive#commentList", "comments": copy.deepcopy(kept)}
        return drive_fields(listing, fields, "kind,comments(kind,id,content,anchor)")
    if request.method != "POST":
        raise SheetsError(405, "METHOD_NOT_ALLOWED", "Method not allowed")
    body = json_body(request)
    content = body.get("content")
    if not isinstance(content, str) or not content or len(content) > MAX_COMMENT_CHARS:
        raise bad_request(f"A comment needs its content (1 to {MAX_COMMENT_CHARS} characters)")
    if len(kept) >= MAX_COMMENTS:
        raise SheetsError(429, "RESOURCE_EXHAUSTED", f"At most {MAX_COMMENTS} comments a file")
    comment = {"kind": "drive#comment", "id": f"AAAA{len(kept) + 1:06d}", "content": content}
    if isinstance(body.get("anchor"), str):
        comment["anchor"] = body["anchor"]
    kept.append(comment)
    return drive_fields(comment, fields, "kind,id,content,anchor")


def import_csv(app: SheetsApp, request: Request, file_id: str) -> Response:
    """``upload/drive/v2/files/{id}``: the CSV replaces the first sheet; other sheets go."""
    book = app.books.get(unquote(file_id))
    if book is None:
        raise file_not_found(unquote(file_id))
    if request.method != "PUT":
        raise SheetsError(405, "METHOD_NOT_ALLOWED", "Method not allowed")
    try:
        text = request.body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise bad_request("The CSV is not UTF-8 text") from None
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as e:
        raise bad_request(f"The CSV cannot be read: {e}") from None
    width = max((len(r) for r in rows), default=0)
    if len(rows) * width > MAX_GRID_CELLS:
        raise bad_request(f"The CSV holds more than the {MAX_GRID_CELLS} cells a sheet may hold")
    first = book.sheets[0]
    book.sheets = [first]
    first.cells.clear()
    first.formats.clear()
    first.merges.clear()
    first.notes.clear()
    first.pivots.clear()
    first.rows = max(first.rows, len(rows))
    first.cols = max(first.cols, width)
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value != "":
                first.cells[(r, c)] = parse_entered(value)
    book.changed()
    return Response.json_body(
        200,
        {
            "kind": "drive#file",
            "id": book.spreadsheet_id,
            "title": book.title,
            "mimeType": SPREADSHEET_MIME,
        },
    )


def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (400 for anything else; an empty body is ``{}``)."""
    import json

    if not request.body:
        return {}
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise bad_request("Invalid JSON payload received.") from None
    if not isinstance(body, dict):
        raise bad_request("Invalid JSON payload received. Expected an object.")
    return body


def _name_filter(query: str) -> str | None:
    """The name a Drive ``q`` asks for (``name = 'Budget' and mimeType = ...``), if any."""
    marker = "name = '"
    at = query.find(marker)
    if at < 0:
        return None
    rest = query[at + len(marker) :]
    out, i = [], 0
    while i < len(rest):
        if rest[i] == "\\" and i + 1 < len(rest):
            out.append(rest[i + 1])
            i += 2
            continue
        if rest[i] == "'":
            break
        out.append(rest[i])
        i += 1
    return "".join(out)
