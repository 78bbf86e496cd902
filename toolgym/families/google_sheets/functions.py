"""The 108 documented functions of Google Sheets programs, from one list.

A Sheets program calls methods of ``worksheet`` (a gspread ``Worksheet``) and ``sheet`` (its
``Spreadsheet``), and the two gspread_dataframe functions. :data:`FUNCTIONS` names them; each
doc is built from the installed library's own signature and the first sentence of its docstring,
so the docs cannot drift from the code that runs. The four functions the original benchmark
documents keep its gspread 5.8 signatures and descriptions (:data:`ORIGINAL_DOCS`), which the
environment accepts (:class:`~toolgym.families.google_sheets.client.CompatWorksheet`).
"""

from __future__ import annotations

import functools
import inspect
import re
from typing import Any

from toolgym.tools.tool import Tool

WORKSHEET_METHODS: tuple[str, ...] = (
    "acell", "add_cols", "add_dimension_group_columns", "add_dimension_group_rows",
    "add_protected_range", "add_rows", "add_validation", "append_row", "append_rows",
    "batch_clear", "batch_format", "batch_get", "batch_merge", "batch_update", "cell", "clear",
    "clear_basic_filter", "clear_note", "clear_notes", "clear_tab_color", "col_values",
    "columns_auto_resize", "copy_range", "copy_to", "cut_range", "define_named_range",
    "delete_columns", "delete_dimension", "delete_dimension_group_columns",
    "delete_dimension_group_rows", "delete_named_range", "delete_protected_range", "delete_rows",
    "duplicate", "expand", "find", "findall", "format", "freeze", "get", "get_all_cells",
    "get_all_records", "get_all_values", "get_note", "get_notes", "get_tab_color", "get_values",
    "hide", "hide_columns", "hide_gridlines", "hide_rows", "insert_cols", "insert_note",
    "insert_notes", "insert_row", "insert_rows", "list_dimension_group_columns",
    "list_dimension_group_rows", "merge_cells", "range", "resize", "row_values",
    "rows_auto_resize", "set_basic_filter", "show", "show_gridlines", "sort", "unhide_columns",
    "unhide_rows", "unmerge_cells", "update", "update_acell", "update_cell", "update_cells",
    "update_index", "update_note", "update_notes", "update_tab_color", "update_title",
)  # fmt: skip
"""The ``Worksheet`` methods (79)."""

SPREADSHEET_METHODS: tuple[str, ...] = (
    "add_worksheet", "batch_update", "del_worksheet", "del_worksheet_by_id", "duplicate_sheet",
    "fetch_sheet_metadata", "get_lastUpdateTime", "get_worksheet", "get_worksheet_by_id",
    "list_named_ranges", "list_protected_ranges", "named_range", "reorder_worksheets", "share",
    "update_drive_metadata", "update_locale", "update_timezone", "update_title", "values_append",
    "values_batch_clear", "values_batch_get", "values_batch_update", "values_clear", "values_get",
    "values_update", "worksheet", "worksheets",
)  # fmt: skip
"""The ``Spreadsheet`` methods (27; ownership transfer, permissions lists and export are left out)."""

DATAFRAME_FUNCTIONS: tuple[str, ...] = ("get_as_dataframe", "set_with_dataframe")
"""The gspread_dataframe functions (2)."""

ORIGINAL_DOCS: dict[str, tuple[str, str]] = {
    "update": (
        "Sets values in a cell range of the sheet; a single value is written to one cell, and "
        "raw=False makes Sheets parse the input as if typed (formulas)",
        "range_name, values=None, **kwargs",
    ),
    "update_cell": ("Updates the value of a cell (1-based row and column)", "row, col, value"),
    "delete_columns": (
        "Deletes multiple columns from the worksheet at the specified index",
        "start_index, end_index=None",
    ),
    "delete_rows": (
        "Deletes multiple rows from the worksheet at the specified index",
        "start_index, end_index=None",
    ),
}
"""The four functions the original documents: (description, signature) as gspread 5.8 has them."""


def _summary(obj: Any) -> str:
    doc = inspect.getdoc(obj) or ""
    if doc.lstrip().startswith(":"):  # the docstring starts with its parameters
        return obj.__name__.replace("_", " ").capitalize()
    first = doc.strip().split("\n\n")[0].replace("\n", " ")
    sentence = re.split(r"(?<=[.!?])\s", first, maxsplit=1)[0].rstrip(".")
    sentence = re.sub(r":\w+:`~?([^`]+)`", r"\1", sentence)  # :class:`gspread.Cell`
    sentence = re.sub(r"`([^`<]*?)\s*<[^>]+>`_", r"\1", sentence)  # `text <url>`_
    sentence = sentence.replace("``", "").replace("`", "")
    return sentence.strip() or "No description"


def _arguments(obj: Any) -> str:
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return "..."
    parts = []
    for name, param in signature.parameters.items():
        if name == "self":
            continue
        if param.kind is param.VAR_POSITIONAL:
            parts.append(f"*{name}")
        elif param.kind is param.VAR_KEYWORD:
            parts.append(f"**{name}")
        elif param.default is param.empty:
            parts.append(name)
        else:
            default = getattr(param.default, "value", param.default)  # enums show their value
            parts.append(f"{name}={default!r}")
    return ", ".join(parts)


def _tool(owner: str | None, name: str, target: Any) -> Tool:
    description, arguments = ORIGINAL_DOCS.get(name, ("", "")) if owner == "worksheet" else ("", "")
    return Tool(
        name,
        description or _summary(target),
        owner=owner,
        doc_signature=arguments or _arguments(target),
        offered=False,
    )


@functools.cache
def sheet_tools() -> tuple[Tool, ...]:
    """The 108 documented functions as tools (docs only: programs call gspread itself)."""
    import gspread
    import gspread_dataframe

    tools = [_tool("worksheet", n, getattr(gspread.Worksheet, n)) for n in WORKSHEET_METHODS]
    tools += [_tool("sheet", n, getattr(gspread.Spreadsheet, n)) for n in SPREADSHEET_METHODS]
    tools += [_tool(None, n, getattr(gspread_dataframe, n)) for n in DATAFRAME_FUNCTIONS]
    return tuple(tools)
