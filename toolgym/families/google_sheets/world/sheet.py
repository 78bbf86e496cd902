"""The spreadsheet model: sheets of typed cells, formulas evaluated, values read and written.

A :class:`Spreadsheet` holds :class:`Worksheet` grids (1000 x 26 by default) whose cells keep what
was entered (a number, text, a logical value, or a formula ``=...``) and a format. Reads and
writes follow the Sheets API's values semantics:

* ``valueInputOption``: ``RAW`` stores values as given (``"=1+1"`` is text); ``USER_ENTERED``
  parses text as the UI would: ``=...`` is a formula (:class:`Formula`), a leading ``'`` forces
  text, numbers (``1,234.5``, ``-3``, ``12%``, ``$5``, ``007``), ``TRUE``/``FALSE``;
* ``valueRenderOption``: ``FORMATTED_VALUE`` (text, as displayed: a cell's ``numberFormat``
  pattern applies, :mod:`.number_format`), ``UNFORMATTED_VALUE``
  (numbers and logical values), ``FORMULA`` (the formula text where there is one);
* ``majorDimension`` ``ROWS`` or ``COLUMNS``;
* answers trim trailing empty cells and rows and leave ``values`` out when nothing is left;
  writes outside the grid are refused (``exceeds grid limits``).

Formulas are evaluated when read (:mod:`.formulas`), with a per-version cache and circular
references reported as ``#REF!``. Errors raise :class:`SheetsError` carrying the API's status,
code and message.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from toolgym.families.google_sheets.world.a1 import A1Error, A1Range, column_letters, parse_a1
from toolgym.families.google_sheets.world.dates import (
    format_date,
    implied_format,
    is_date_pattern,
    parse_date_time,
)
from toolgym.families.google_sheets.world.formulas import REF, CellError, Value, evaluate
from toolgym.families.google_sheets.world.number_format import format_with_pattern
from toolgym.tools.deadline import check_deadline

DEFAULT_ROWS = 1000
DEFAULT_COLUMNS = 26


class Formula(str):
    """Entered text that is a formula (``=SUM(A1:A3)``); plain ``str`` cells are text."""


Entered = float | int | str | bool | Formula | None


class SheetsError(Exception):
    """An error answer of the API: HTTP status, status name, message and what else it sends.

    Args:
        code: the HTTP status.
        status: the status name (``INVALID_ARGUMENT``).
        message: the message.
        details: ``error.details`` (``google.rpc`` messages), when the API sends them.
        errors: Drive v3's ``error.errors`` list (its older error form), when it sends one.
    """

    def __init__(
        self,
        code: int,
        status: str,
        message: str,
        details: list[dict[str, Any]] | None = None,
        errors: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(message)
        self.code, self.status, self.message = code, status, message
        self.details, self.errors = details, errors

    def body(self) -> dict[str, Any]:
        """The API's error body."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors is not None:
            error["errors"] = self.errors
        if self.status:
            error["status"] = self.status
        if self.details is not None:
            error["details"] = self.details
        return {"error": error}


def field_violation(field: str, message: str) -> SheetsError:
    """A 400 for a value the request's JSON cannot hold where it is, with its ``BadRequest``."""
    violation = {"field": field, "description": message}
    detail = {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [violation]}
    return SheetsError(400, "INVALID_ARGUMENT", message, [detail])


def quota_exceeded(message: str, metric: str) -> SheetsError:
    """A 429 ``RESOURCE_EXHAUSTED`` with the ``ErrorInfo`` the API sends with it."""
    detail = {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": "RATE_LIMIT_EXCEEDED",
        "domain": "googleapis.com",
        "metadata": {"service": "sheets.googleapis.com", "quota_metric": metric},
    }
    return SheetsError(429, "RESOURCE_EXHAUSTED", message, [detail])


def bad_request(message: str) -> SheetsError:
    """A 400 ``INVALID_ARGUMENT``."""
    return SheetsError(400, "INVALID_ARGUMENT", message)


@dataclass
class Worksheet:
    """One sheet (tab): its properties and its cells, keyed by 0-based (row, column)."""

    sheet_id: int
    title: str
    index: int
    rows: int = DEFAULT_ROWS
    cols: int = DEFAULT_COLUMNS
    cells: dict[tuple[int, int], Entered] = field(default_factory=dict)
    formats: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    merges: list[dict[str, Any]] = field(default_factory=list)
    basic_filter: dict[str, Any] | None = None
    protected: list[dict[str, Any]] = field(default_factory=list)
    frozen_rows: int = 0
    frozen_cols: int = 0
    notes: dict[tuple[int, int], str] = field(default_factory=dict)
    pivots: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    """Kept but not computed: ``hidden``, ``tabColorStyle``, ``hideGridlines``,
    ``row/columnGroupControlAfter``, row and column
    metadata and groups, data validation rules."""

    def properties(self) -> dict[str, Any]:
        """The sheet's ``properties`` as ``spreadsheets.get`` answers them."""
        grid: dict[str, Any] = {"rowCount": self.rows, "columnCount": self.cols}
        if self.frozen_rows:
            grid["frozenRowCount"] = self.frozen_rows
        if self.frozen_cols:
            grid["frozenColumnCount"] = self.frozen_cols
        for key in ("hideGridlines", "rowGroupControlAfter", "columnGroupControlAfter"):
            if self.extra.get(key):  # false is the default, which the API leaves out
                grid[key] = True
        out = {
            "sheetId": self.sheet_id,
            "title": self.title,
            "index": self.index,
            "sheetType": "GRID",
            "gridProperties": grid,
        }
        if self.extra.get("hidden"):
            out["hidden"] = True
        for key in ("tabColor", "tabColorStyle"):
            if self.extra.get(key):
                out[key] = self.extra[key]
        return out

    def metadata(self) -> dict[str, Any]:
        """The sheet as ``spreadsheets.get`` lists it (properties, merges, filter, protection)."""
        out: dict[str, Any] = {"properties": self.properties()}
        if self.merges:
            out["merges"] = list(self.merges)
        if self.basic_filter is not None:
            out["basicFilter"] = dict(self.basic_filter)
        if self.protected:
            out["protectedRanges"] = list(self.protected)
        for key in ("rowGroups", "columnGroups"):
            if self.extra.get(key):
                out[key] = list(self.extra[key])
        return out

    def extent(self) -> tuple[int, int]:
        """(rows, columns) up to the last non-empty cell."""
        if not self.cells:
            return 0, 0
        return max(r for r, _ in self.cells) + 1, max(c for _, c in self.cells) + 1


_NUMBER = re.compile(r"^([-+]?)\$?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)([eE][-+]?\d+)?(%?)$")


def parse_entered(value: Any) -> Entered:
    """A value written with ``USER_ENTERED``: text parsed as the UI parses it."""
    if not isinstance(value, str):
        return value
    if value.startswith("'"):
        return value[1:]
    if value.startswith("=") and len(value) > 1:
        return Formula(value)
    text = value.strip()
    if text.upper() in ("TRUE", "FALSE"):
        return text.upper() == "TRUE"
    match = _NUMBER.match(text)
    if match is None:
        parsed = parse_date_time(text)
        return value if parsed is None else parsed[0]
    sign, digits, exponent, percent = match.groups()
    number = float(sign + digits.replace(",", "") + (exponent or ""))
    if percent:
        number /= 100.0
    return int(number) if number.is_integer() and abs(number) < 2**53 and not percent else number


def format_number(x: float) -> str:
    """A number as the default ("automatic") format displays it."""
    if isinstance(x, bool):
        return "TRUE" if x else "FALSE"
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    text = f"{x:.10g}"
    return text if "e" not in text else f"{x:.2E}".replace("E+0", "E+").replace("E-0", "E-")


MAX_CELL_CHARS = 50_000
"""The longest text one cell may hold (the real service's limit)."""

MAX_CELL_READS = 1_000_000
"""The most work a spreadsheet's formulas do between two writes, in cells read (then
``#ERROR!`` for the formulas past it): a text read counts one more cell per 64 characters, and
evaluating a formula counts :data:`FORMULA_CHAR_COST` cells per character of its text (an upper
bound of its parse and of the operators it evaluates, which cost several cell reads each). So
reading every value of a sheet costs at most about a second, whatever its formulas."""

FORMULA_CHAR_COST = 4


class _TooManyReads(Exception):
    """The formulas have read more cells than :data:`MAX_CELL_READS`."""


class Spreadsheet:
    """A spreadsheet: its id, title and sheets, and the values API over them.

    Args:
        spreadsheet_id: the id in URLs.
        title: the title.
    """

    def __init__(self, spreadsheet_id: str, title: str) -> None:
        self.spreadsheet_id = spreadsheet_id
        self.title = title
        self.sheets: list[Worksheet] = [Worksheet(0, "Sheet1", 0)]
        self.named_ranges: list[dict[str, Any]] = []
        self.properties: dict[str, Any] = {"locale": "en_US", "timeZone": "Etc/GMT"}
        self._version = 0
        self._cache: dict[tuple[int, int, int], Value] = {}
        self._evaluating: set[tuple[int, int, int]] = set()
        self._extents: dict[int, tuple[int, int]] = {}
        self._anchors: dict[int, dict[tuple[int, int], dict[str, Any]]] = {}
        self._reads = 0

    # -- sheets -----------------------------------------------------------------------------------
    def sheet(self, title: str | None) -> Worksheet:
        """The sheet called ``title`` (``None``: the first)."""
        if title is None:
            return self.sheets[0]
        for ws in self.sheets:
            if ws.title == title:
                return ws
        raise bad_request(f"Unable to parse range: {title}")

    def resolve(self, text: str) -> tuple[Worksheet, A1Range]:
        """The sheet and range of an A1 text (``'Sheet 2'!A1:B2``, ``Sheet1``, ``A1``)."""
        name = text.strip().rpartition("!")[2]  # 'Sheet1'!Block names Block too
        named = next((n for n in self.named_ranges if n.get("name") == name), None)
        if named is not None and all(ws.title != text.strip() for ws in self.sheets):
            grid = named.get("range", {})
            ws = next((w for w in self.sheets if w.sheet_id == grid.get("sheetId", 0)), None)
            if ws is not None:
                return ws, A1Range(
                    ws.title,
                    grid.get("startRowIndex"),
                    grid.get("endRowIndex"),
                    grid.get("startColumnIndex"),
                    grid.get("endColumnIndex"),
                )
        try:
            ref = parse_a1(text, [ws.title for ws in self.sheets])
        except A1Error as e:
            raise bad_request(str(e)) from None
        ws = self.sheet(ref.sheet)
        return ws, A1Range(ws.title, ref.start_row, ref.end_row, ref.start_col, ref.end_col)

    def changed(self) -> None:
        """Forget computed values (after any write)."""
        self._version += 1
        self._cache.clear()
        self._extents.clear()
        self._anchors.clear()
        self._reads = 0

    # -- values -----------------------------------------------------------------------------------
    def value(self, ws: Worksheet, row: int, col: int) -> Value:
        """The computed value of a cell (formulas evaluated)."""
        entered = ws.cells.get((row, col))
        if not isinstance(entered, Formula):
            return entered
        key = (ws.sheet_id, row, col)
        if key in self._cache:
            return self._cache[key]
        if key in self._evaluating:
            return REF  # a circular dependency
        self._evaluating.add(key)
        try:
            self._charge(FORMULA_CHAR_COST * len(entered))
            result = evaluate(entered, self._read_range, ws.title)
        except _TooManyReads:
            result = CellError("#ERROR!")
        finally:
            self._evaluating.discard(key)
        self._cache[key] = result
        return result

    def pivot_anchors(self, ws: Worksheet) -> dict[tuple[int, int], dict[str, Any]]:
        """The sheet's pivot tables by anchor cell, kept until the next write."""
        anchors = self._anchors.get(ws.sheet_id)
        if anchors is None:
            anchors = self._anchors[ws.sheet_id] = {(p["row"], p["col"]): p for p in ws.pivots}
        return anchors

    def used(self, ws: Worksheet) -> tuple[int, int]:
        """:meth:`Worksheet.extent`, kept until the next write."""
        extent = self._extents.get(ws.sheet_id)
        if extent is None:
            extent = self._extents[ws.sheet_id] = ws.extent()
        return extent

    def _read_range(self, ref: A1Range) -> list[list[Value]]:
        """A range's values for a formula.

        The rows and columns past the last used ones are left out: they are empty, and no
        function here counts empty cells, so the results are the same (and ``SUM(A1:Z1000000)``
        costs what the data costs). A spreadsheet whose formulas read more than
        :data:`MAX_CELL_READS` cells in all gets ``#ERROR!`` for the formulas past that.
        """
        ws = self.sheet(ref.sheet)
        r0, r1, c0, c1 = ref.bounded(ws.rows, ws.cols)
        used_rows, used_cols = self.used(ws)
        r1, c1 = min(r1, max(used_rows, r0)), min(c1, max(used_cols, c0))
        self._charge((r1 - r0) * (c1 - c0))
        cells = ws.cells
        grid: list[list[Value]] = []
        texts = 0  # long texts cost what reading them costs
        for r in range(r0, r1):
            row: list[Value] = []
            for c in range(c0, c1):
                value: Value = cells.get((r, c))
                if isinstance(value, Formula):
                    value = self.value(ws, r, c)
                if isinstance(value, str):
                    texts += len(value) >> 6
                row.append(value)
            grid.append(row)
        self._charge(texts)
        return grid

    def _charge(self, cells: int) -> None:
        """Count ``cells`` of formula work; :class:`_TooManyReads` past :data:`MAX_CELL_READS`.

        Raises:
            DeadlineExceeded: the thread's deadline has passed (a step's reading of what its
                program left, cut off; :mod:`toolgym.tools.deadline`).
        """
        self._reads += cells
        if self._reads > MAX_CELL_READS:
            raise _TooManyReads
        check_deadline()

    def rendered(
        self, ws: Worksheet, row: int, col: int, option: str, date_time: str = "SERIAL_NUMBER"
    ) -> Any:
        """A cell as ``valueRenderOption`` renders it (``None`` for an empty cell).

        A number under a date or time format renders as its formatted text for
        ``FORMATTED_VALUE``, and for the other options too when ``date_time`` (the API's
        ``dateTimeRenderOption``) is ``FORMATTED_STRING``.
        """
        entered = ws.cells.get((row, col))
        if option == "FORMULA" and isinstance(entered, Formula):
            return str(entered)
        value = self.value(ws, row, col)
        if value is None:
            return None
        if isinstance(value, CellError):
            return str(value)
        pattern = ((ws.formats.get((row, col)) or {}).get("numberFormat") or {}).get("pattern")
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        dates = option == "FORMATTED_VALUE" or date_time == "FORMATTED_STRING"
        if numeric and pattern and dates and is_date_pattern(pattern):
            shown = format_date(float(value), pattern)
            if shown is not None:
                return shown
        if option == "FORMATTED_VALUE":
            if isinstance(value, bool):
                return format_number(value)
            if isinstance(value, int | float):
                shown = format_with_pattern(float(value), pattern) if pattern else None
                return shown if shown is not None else format_number(value)
            return value
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
            return int(value)
        return value

    def values_get(
        self,
        text: str,
        value_render_option: str = "FORMATTED_VALUE",
        major_dimension: str = "ROWS",
        date_time_render_option: str = "SERIAL_NUMBER",
    ) -> dict[str, Any]:
        """``spreadsheets.values.get``: the values of a range, trimmed as the API trims them."""
        option = value_render_option or "FORMATTED_VALUE"
        if option not in ("FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"):
            raise bad_request(f"Invalid value for valueRenderOption: {option}")
        major = major_dimension or "ROWS"
        if major not in ("ROWS", "COLUMNS"):
            raise bad_request(f"Invalid value for majorDimension: {major}")
        date_time = date_time_render_option or "SERIAL_NUMBER"
        if date_time not in ("SERIAL_NUMBER", "FORMATTED_STRING"):
            raise bad_request(f"Invalid value for dateTimeRenderOption: {date_time}")
        ws, ref = self.resolve(text)
        r0, r1, c0, c1 = ref.bounded(ws.rows, ws.cols)
        # Only the cells that hold something are visited: empty ones come back as "" inside a
        # row and are trimmed at the ends of rows and of the range, as the API trims them.
        present: dict[int, dict[int, Any]] = {}
        for r, c in list(ws.cells):
            if r0 <= r < r1 and c0 <= c < c1:
                value = self.rendered(ws, r, c, option, date_time)
                if value is None or value == "":
                    continue
                line, place = (r - r0, c - c0) if major == "ROWS" else (c - c0, r - r0)
                present.setdefault(line, {})[place] = value
        out: dict[str, Any] = {
            "range": A1Range(ws.title, r0, r1, c0, c1).to_a1(),
            "majorDimension": major,
        }
        if present:
            out["values"] = [
                [cells.get(k, "") for k in range(max(cells) + 1)] if cells else []
                for cells in (present.get(line, {}) for line in range(max(present) + 1))
            ]
        return out

    def values_update(
        self,
        text: str,
        values: Any,
        value_input_option: str,
        major_dimension: str | None = None,
    ) -> dict[str, Any]:
        """``spreadsheets.values.update``: write a rectangle from the range's top-left cell."""
        if value_input_option not in ("RAW", "USER_ENTERED"):
            raise bad_request(
                "Invalid valueInputOption: expected RAW or USER_ENTERED; "
                f"got {value_input_option!r}"
            )
        rows = oriented_rows(values, major_dimension)
        ws, ref = self.resolve(text)
        r0, c0 = ref.start_row or 0, ref.start_col or 0
        height, width = len(rows), max((len(r) for r in rows), default=0)
        single = ref.end_row == r0 + 1 and ref.end_col == c0 + 1  # a start cell: data may spill
        if (
            not single
            and ref.end_row is not None
            and ref.end_col is not None
            and (height > ref.end_row - r0 or width > ref.end_col - c0)
        ):
            beyond = (
                f"row [{ref.end_row + 1}]"
                if height > ref.end_row - r0
                else f"column [{column_letters(ref.end_col)}]"
            )
            raise bad_request(
                f"Requested writing within range [{ref.to_a1()}], but tried writing to {beyond}"
            )
        if r0 + height > ws.rows or c0 + width > ws.cols:
            raise bad_request(
                f"Range ({ws.title}!{A1Range(None, r0, r0 + height, c0, c0 + width).cells()}) "
                f"exceeds grid limits. Max rows: {ws.rows}, max columns: {ws.cols}"
            )
        parse = parse_entered if value_input_option == "USER_ENTERED" else _raw
        for i, row in enumerate(rows):
            for j, item in enumerate(row):
                if item is None:
                    continue  # a null leaves the cell as it is
                if isinstance(item, str) and len(item) > MAX_CELL_CHARS:
                    raise bad_request(
                        f"Your input contains more than the maximum of {MAX_CELL_CHARS} "
                        "characters in a single cell."
                    )
                entered = parse(item)
                at = (r0 + i, c0 + j)
                if entered == "" or entered is None:
                    ws.cells.pop(at, None)
                    continue
                ws.cells[at] = entered
                if parse is parse_entered and isinstance(item, str) and item[:1] not in "'=":
                    implied = implied_format(item)  # "10%", "$5", "2024-01-15" keep their look
                    if implied is not None and not (ws.formats.get(at) or {}).get("numberFormat"):
                        ws.formats[at] = {**ws.formats.get(at, {}), "numberFormat": implied}
        self.changed()
        written = A1Range(ws.title, r0, r0 + max(height, 1), c0, c0 + max(width, 1))
        sent = [
            (i, j) for i, row in enumerate(rows) for j, item in enumerate(row) if item is not None
        ]
        return {  # a cell sent as null is left alone and, as the API counts, not updated
            "spreadsheetId": self.spreadsheet_id,
            "updatedRange": written.to_a1(),
            "updatedRows": len({i for i, _ in sent}),
            "updatedColumns": len({j for _, j in sent}),
            "updatedCells": len(sent),
        }


def _raw(value: Any) -> Entered:
    return value


def rows_of(values: Any) -> list[list[Entered]]:
    """The rows of a request's ``values`` (400, as the API answers, for anything else)."""
    if not isinstance(values, list) or not all(isinstance(r, list) for r in values):
        raise field_violation(
            "data.values",
            "Invalid value at 'data.values' (type.googleapis.com/google.protobuf.ListValue), \""
            f'{str(values)[:200]}"',
        )
    for row in values:
        for item in row:
            if isinstance(item, dict | list):
                raise bad_request(f"Invalid values: a cell value cannot be {type(item).__name__}")
            if isinstance(item, float) and not math.isfinite(item):
                raise bad_request("Invalid values: NaN and infinite numbers cannot be written")
    return values


def oriented_rows(values: Any, major_dimension: str | None) -> list[list[Any]]:
    """A request's values as rows (``majorDimension=COLUMNS`` lists columns: transposed)."""
    rows = rows_of(values)
    if (major_dimension or "ROWS") == "COLUMNS":
        width = max((len(r) for r in rows), default=0)
        rows = [[r[i] if i < len(r) else None for r in rows] for i in range(width)]
    return rows


def values_clear(book: Spreadsheet, text: str) -> dict[str, Any]:
    """``spreadsheets.values.clear``: remove the values of a range (formats stay)."""
    ws, ref = book.resolve(text)
    r0, r1, c0, c1 = ref.bounded(ws.rows, ws.cols)
    for key in [k for k in ws.cells if r0 <= k[0] < r1 and c0 <= k[1] < c1]:
        del ws.cells[key]
    book.changed()
    cleared = A1Range(ws.title, r0, r1, c0, c1)
    return {"spreadsheetId": book.spreadsheet_id, "clearedRange": cleared.to_a1()}
