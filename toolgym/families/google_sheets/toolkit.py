"""The Google Sheets toolkit: a spreadsheet per episode, gspread programs in the sandbox.

An episode starts as the original benchmark's evaluator starts every program: a spreadsheet
whose first sheet is ``Sheet1`` (empty), and a worksheet ``sheet_1`` (1000 x 26) holding the
task's table, written as typed input (``USER_ENTERED``). Programs run in the sandbox
(:mod:`.adapter`); what is scored is read back as the original reads it: the **last** worksheet
through ``get_as_dataframe(worksheet, evaluate_formulas=True)``, with the rows and columns that
are entirely empty dropped (:class:`SheetOutcome`), the effective formats of the cells the
original checks, and the layout (merges, filter, frozen rows and columns, pivot tables).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from toolgym.errors import TaskFileError
from toolgym.families.google_sheets.changes import sheet_changes
from toolgym.families.google_sheets.frame import frame_table
from toolgym.families.google_sheets.functions import sheet_tools
from toolgym.families.google_sheets.world.grid_data import DEFAULT_FORMAT, effective_format
from toolgym.families.google_sheets.world.service import SheetsApp
from toolgym.families.google_sheets.world.sheet import Worksheet
from toolgym.families.google_sheets.world.state import data_problem
from toolgym.tools.deadline import check_deadline
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.plain_copy import PlainSnapshot, plain_deepcopy
from toolgym.tools.python_language import MAX_OUTPUT_CHARS, PythonLanguage
from toolgym.tools.sandbox import SandboxLimits
from toolgym.tools.sandbox_backend import SandboxBackend, program_limits
from toolgym.tools.tool import ToolSet
from toolgym.tools.toolkit import Toolkit

TABLE_SHEET = "sheet_1"
"""The worksheet that holds the task's table (the original's name)."""

MAX_TABLE_CELLS = 20_000
"""The largest starting table a task may give."""

VIEW_ROWS, VIEW_COLUMNS = 40, 15
"""How much of the sheet an observation shows."""


def check_table(table: Any) -> list[list[Any]]:
    """A task's table (rows of JSON scalars), or ``TaskFileError`` naming what is wrong."""
    if not isinstance(table, list) or not all(isinstance(row, list) for row in table):
        raise TaskFileError(
            f"a Sheets setup's 'table' is a list of rows (lists); got {table!r:.80}"
        )
    if sum(len(row) for row in table) > MAX_TABLE_CELLS:
        raise TaskFileError(f"a Sheets table has at most {MAX_TABLE_CELLS:,} cells")
    for row in table:
        for value in row:
            if value is not None and not isinstance(value, str | int | float | bool):
                raise TaskFileError(
                    f"a Sheets table cell is text, a number or a logical value; got {value!r:.40}"
                )
            if isinstance(value, float) and not math.isfinite(value):
                raise TaskFileError(f"a Sheets table cell is a finite number; got {value!r}")
    return table


@functools.lru_cache(maxsize=512)
def _starting_state(setup_json: str) -> Any:
    """The spreadsheet a setup starts from, kept as a :class:`PlainSnapshot` (copied per episode)."""
    setup = json.loads(setup_json)
    table = check_table(setup.get("table", []))
    app = SheetsApp()
    book = app.create("toolgym")
    book.sheets.append(Worksheet(1, TABLE_SHEET, 1))
    if table:
        width = max(len(row) for row in table)
        rows = [
            [("" if v is None else v) for v in row] + [""] * (width - len(row)) for row in table
        ]
        book.values_update(f"'{TABLE_SHEET}'!A1", rows, "USER_ENTERED")
    return PlainSnapshot.of({"app": app.to_data(), "spreadsheet": book.spreadsheet_id})


def starting_state(setup: Mapping[str, Any] | None) -> dict[str, Any]:
    """The state an episode starts from: ``Sheet1`` and ``sheet_1`` holding ``setup["table"]``.

    Raises:
        TaskFileError: the setup's table is not rows of scalars, or is too large.
    """
    return plain_deepcopy(
        _starting_state(json.dumps(dict(setup or {}), sort_keys=True))
    )  # (read back from the kept snapshot)


def _format_delta(effective: dict[str, Any] | None, base: Any = DEFAULT_FORMAT) -> Any:
    """An effective format as what differs from the default (``{}``: the default itself).

    Two cells have equal effective formats exactly when their deltas are equal; ``None`` (an
    empty, unformatted cell, which has no effective format) stays ``None``.
    """
    if effective is None:
        return None
    if not isinstance(effective, dict) or not isinstance(base, dict):
        return effective
    out = {}
    for key, value in effective.items():
        if key not in base:
            out[key] = value
        elif value != base[key]:
            out[key] = _format_delta(value, base[key]) if isinstance(value, dict) else value
    return out


def load_service(state: Mapping[str, Any]) -> SheetsApp:
    """The simulated service a Sheets state describes."""
    app = SheetsApp()
    app.load_data(state["app"])
    return app


def read_outcome(state: Mapping[str, Any], app: SheetsApp | None = None) -> dict[str, Any]:
    """What is scored of a Sheets state (see the module docstring).

    Returns:
        ``{"columns", "dtypes", "index", "rows", "formats", "layout"}``: the DataFrame of the
        last worksheet as plain data (its column labels, dtypes as text, index and cells), the
        effective formats of the cells the original checks (``[row, column, what differs from
        the default]`` for each cell that has a value or a format; an empty, unformatted cell has
        none), and the sheet's layout.
    """
    app = app if app is not None else load_service(state)
    book = app.books[state["spreadsheet"]]
    ws = book.sheets[-1]
    check_deadline()  # a step past its time reads nothing more (formulas check as they go)
    columns, dtypes, index, rows = frame_table(book, ws)  # empty rows and columns dropped
    n_rows, n_cols = len(rows), len(columns)
    # The effective format of A1 .. (the original's window: as many rows as the frame has, the
    # header row counting, so its last row is not checked), as what differs from the default,
    # listed for the cells that have one (a value or a format of their own).
    formats = sorted(
        [r, c, _format_delta(effective_format(ws, r, c)) if (r, c) in ws.formats else {}]
        for r, c in {*ws.cells, *ws.formats}
        if r < n_rows and c < n_cols
    )
    layout = {
        "merges": sorted(json.dumps(m, sort_keys=True) for m in ws.merges),
        "basicFilter": None if ws.basic_filter is None else ws.basic_filter.get("range"),
        "frozenRows": ws.frozen_rows,
        "frozenColumns": ws.frozen_cols,
        "pivots": [{"at": [p["row"], p["col"]], **p["pivotTable"]} for p in ws.pivots],
    }
    return {
        "columns": columns,
        "dtypes": dtypes,
        "index": index,
        "rows": rows,
        "formats": formats,
        "layout": layout,
    }


def render_table(state: Mapping[str, Any], app: SheetsApp | None = None) -> str:
    """The last worksheet as the pipe table the prompts use (formatted values, trimmed)."""
    app = app if app is not None else load_service(state)
    book = app.books.get(state.get("spreadsheet") or "")
    if book is None:
        return "(no spreadsheet)"
    ws = book.sheets[-1]
    rows, cols = ws.extent()
    if not rows:
        return f"Worksheet {ws.title!r} is empty."
    shown = [
        [book.rendered(ws, r, c, "FORMATTED_VALUE") for c in range(min(cols, VIEW_COLUMNS))]
        for r in range(min(rows, VIEW_ROWS))
    ]
    lines = [f"Worksheet {ws.title!r} ({rows} rows x {cols} columns):"]
    lines += ["| " + " | ".join("" if v is None else str(v) for v in row) + " |" for row in shown]
    if rows > VIEW_ROWS or cols > VIEW_COLUMNS:
        lines.append(f"... ({rows} x {cols} in all)")
    return "\n".join(lines)


class SheetsBackend(SandboxBackend):
    """An episode over one spreadsheet (see the module docstring)."""

    adapter = "toolgym.families.google_sheets.adapter:adapter"

    def __init__(self, limits: SandboxLimits, show_sheet: bool = True) -> None:
        super().__init__(limits)
        self.show_sheet = show_sheet
        self._loaded: tuple[Any, SheetsApp] = (None, SheetsApp())

    def initial_state(self, setup: Mapping[str, Any] | None) -> dict[str, Any]:
        """The spreadsheet with the task's table in ``sheet_1``."""
        return starting_state(setup)

    def outcome(self, state: Any) -> dict[str, Any]:
        """The last worksheet as the original reads it (:func:`read_outcome`)."""
        return read_outcome(state, self._service(state))

    def view(self, state: Any) -> str:
        """The last worksheet as a table."""
        return render_table(state, self._service(state)) if self.show_sheet else ""

    def _service(self, state: Any) -> SheetsApp:
        """The service of ``state``, loaded once for the view and the outcome of one step."""
        if self._loaded[0] is not state:
            self._loaded = (state, load_service(state))
        return self._loaded[1]

    def calls_since(self, state: Any) -> list[ToolCall]:
        """What the programs run since the snapshot ``state`` changed, as service calls.

        Read from the spreadsheet itself (:func:`~.changes.sheet_changes`): what a program
        computed before it wrote does not matter, what it wrote does.
        """
        if not isinstance(state, Mapping) or not isinstance(state.get("state"), Mapping):
            return []
        if state["state"] is self.state or state["state"] == self.state:
            return []
        before = state["state"]
        old_app, app = load_service(before), self._service(self.state)
        frames = None
        try:
            frames = (read_outcome(before, old_app), read_outcome(self.state, app))
        except Exception:  # a state the checker cannot read: no order to tell
            frames = None
        return sheet_changes(before, self.state, app, frames, old_app)

    def state_problem(self, state: Any) -> str | None:
        """What the real service could not hold (``data_problem``), or a missing spreadsheet."""
        if not isinstance(state, dict) or set(state) != {"app", "spreadsheet"}:
            return "a Sheets state is {'app', 'spreadsheet'}"
        problem = data_problem(state["app"])
        if problem is not None:
            return problem
        books = {b["id"] for b in state["app"].get("books", [])}
        if state["spreadsheet"] not in books:
            return "the task's spreadsheet is gone"
        return None


class SheetsToolkit(Toolkit):
    """The Google Sheets family's tools (108 documented functions), language and backends.

    Args:
        world_seed: unused by this family's world (tasks carry their tables); kept for the
            contract.
        timeout_s: the wall-clock and CPU limit of one program, in seconds.
        memory_mb: the memory a program may use beyond the warm worker's.
        max_output_chars: how much printed output an observation shows.
        show_sheet: whether observations show the sheet after each program or cell.
    """

    def __init__(
        self,
        world_seed: int = 0,
        *,
        timeout_s: float = 5.0,
        memory_mb: int = 512,
        max_output_chars: int = MAX_OUTPUT_CHARS,
        show_sheet: bool = True,
    ) -> None:
        super().__init__(world_seed)
        self.limits = program_limits(timeout_s, memory_mb, max_output_chars)
        self.max_output_chars = max_output_chars
        self.show_sheet = bool(show_sheet)
        self.tools = ToolSet(sheet_tools())

    def language(self) -> PythonLanguage:
        """Sandboxed Python."""
        return PythonLanguage(max_output_chars=self.max_output_chars)

    def new_backend(self) -> SheetsBackend:
        """A backend over a fresh spreadsheet."""
        return SheetsBackend(self.limits, self.show_sheet)


def table_rows(table: Sequence[Sequence[Any]]) -> str:
    """A table as the prompts show it: one ``| a | b |`` line per row.

    >>> print(table_rows([["Product", "Cost"], ["beef", 1]]))
    | Product | Cost |
    | beef | 1 |
    """
    return "\n".join(
        "| " + " | ".join("" if v is None else str(v) for v in row) + " |" for row in table
    )
