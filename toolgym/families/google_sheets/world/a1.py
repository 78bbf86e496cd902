"""A1 notation as the Google Sheets API reads and writes it.

A range is an optional sheet part and an optional cell part:

* ``Sheet1!A1:C6``, ``'My Sheet'!B2``, ``'It''s'!A:A`` (a title with characters other than
  letters, digits and ``_``, or one that reads like a cell, is quoted; a quote inside is doubled);
* cells ``A1``, rectangles ``A1:C6`` (either corner first), whole columns ``A:C``, whole rows
  ``2:5``, and open ranges ``A5:A`` (column A from row 5 down) or ``A1:C`` (columns A to C from
  row 1 down); ``$`` markers are ignored and letters may be lower case;
* a sheet part alone (``Sheet1``) is the whole sheet; a cell part alone is on the first sheet.
  A text that is both a title and a cell reference names the sheet, as in the real API.

Positions are 0-based and half-open, like the API's ``GridRange``: ``A1:C6`` is rows 0..6 and
columns 0..3, and an open side is ``None``. Malformed text raises :class:`A1Error`, whose message
is the API's (``Unable to parse range: ...``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

MAX_COLUMNS = 18_278
"""Columns A to ZZZ, the most a sheet has."""
MAX_ROWS = 10_000_000
"""The most cells (and so rows) a spreadsheet holds."""

_CELL = re.compile(r"^\$?([A-Za-z]{1,3})?\$?([0-9]{1,8})?$")
_PLAIN_TITLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class A1Error(ValueError):
    """Text that is not a range; the message is the API's."""


def column_letters(index: int) -> str:
    """The letters of a 0-based column (``0`` is ``A``, ``26`` is ``AA``).

    >>> column_letters(0), column_letters(25), column_letters(26), column_letters(701)
    ('A', 'Z', 'AA', 'ZZ')
    """
    if not 0 <= index < MAX_COLUMNS:
        raise ValueError(f"a column index is 0 to {MAX_COLUMNS - 1}; got {index}")
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def column_index(letters: str) -> int:
    """The 0-based index of column letters (case-insensitive).

    >>> column_index("A"), column_index("aa"), column_index("ZZZ")
    (0, 26, 18277)
    """
    value = 0
    for c in letters.upper():
        if not "A" <= c <= "Z":
            raise ValueError(f"column letters are A to Z; got {letters!r}")
        value = value * 26 + ord(c) - 64
    return value - 1


@dataclass(frozen=True)
class A1Range:
    """A parsed range: the sheet title (``None``: the first sheet) and 0-based half-open bounds.

    Attributes:
        sheet: the sheet's title as written, unquoted.
        start_row: first row, or ``None`` from the first.
        end_row: row after the last, or ``None`` to the end.
        start_col: first column, or ``None`` from the first.
        end_col: column after the last, or ``None`` to the end.
    """

    sheet: str | None
    start_row: int | None = None
    end_row: int | None = None
    start_col: int | None = None
    end_col: int | None = None

    def bounded(self, rows: int, cols: int) -> tuple[int, int, int, int]:
        """(start_row, end_row, start_col, end_col) within a sheet of ``rows`` x ``cols``."""
        r0 = self.start_row or 0
        c0 = self.start_col or 0
        r1 = rows if self.end_row is None else min(self.end_row, rows)
        c1 = cols if self.end_col is None else min(self.end_col, cols)
        return r0, max(r0, r1), c0, max(c0, c1)

    def grid_range(self, sheet_id: int) -> dict[str, Any]:
        """The API's ``GridRange`` (open sides left out)."""
        out: dict[str, Any] = {"sheetId": sheet_id}
        for key, value in (
            ("startRowIndex", self.start_row),
            ("endRowIndex", self.end_row),
            ("startColumnIndex", self.start_col),
            ("endColumnIndex", self.end_col),
        ):
            if value is not None:
                out[key] = value
        return out

    def cells(self) -> str:
        """The cell part in A1 notation (``A1:C6``, ``A:C``, ``2:5``; empty for a whole sheet)."""
        r0, r1, c0, c1 = self.start_row, self.end_row, self.start_col, self.end_col
        if r0 is None and r1 is None and c0 is None and c1 is None:
            return ""
        start = ("" if c0 is None and c1 is None else column_letters(c0 or 0)) + (
            "" if r0 is None and r1 is None else str((r0 or 0) + 1)
        )
        end = ("" if c1 is None else column_letters(c1 - 1)) + ("" if r1 is None else str(r1))
        if r1 is not None and c1 is not None and r1 - (r0 or 0) == 1 and c1 - (c0 or 0) == 1:
            return start  # one cell
        return f"{start}:{end}"

    def to_a1(self, sheet: str | None = None) -> str:
        """The range as the API writes it (``Sheet1!A1:C6``, ``'My Sheet'!B2``)."""
        title = self.sheet if sheet is None else sheet
        cells = self.cells()
        if title is None:
            return cells
        return quote_title(title) + (f"!{cells}" if cells else "")


def quote_title(title: str) -> str:
    """A sheet title as a range writes it: quoted when it must be.

    >>> quote_title("Sheet1"), quote_title("My Sheet"), quote_title("It's"), quote_title("A1")
    ('Sheet1', "'My Sheet'", "'It''s'", "'A1'")
    """
    if _PLAIN_TITLE.match(title) and not _is_cells(title):
        return title
    return "'" + title.replace("'", "''") + "'"


def looks_like_cells(text: str) -> bool:
    """Whether ``text`` reads as cells (``A1``, ``B2:C3``, ``A:A``, ``1:2``).

    >>> looks_like_cells("AB12"), looks_like_cells("Prices")
    (True, False)
    """
    return _is_cells(text)


def _is_cells(text: str) -> bool:
    try:
        _parse_cells(text, text)
    except A1Error:
        return False
    return True


def _parse_corner(part: str, whole: str) -> tuple[int | None, int | None]:
    match = _CELL.match(part)
    if match is None or not part.replace("$", ""):
        raise A1Error(f"Unable to parse range: {whole}")
    letters, digits = match.groups()
    col = None if letters is None else column_index(letters)
    row = None if digits is None else int(digits) - 1
    if row is not None and not 0 <= row < MAX_ROWS:
        raise A1Error(f"Unable to parse range: {whole}")
    return row, col


def _span(a: int | None, b: int | None) -> tuple[int | None, int | None]:
    """0-based half-open bounds from two optional corners (either order; one may be open)."""
    if a is not None and b is not None:
        return min(a, b), max(a, b) + 1
    if a is not None:
        return a, None  # "A5:A": from row 5 on
    if b is not None:
        return None, b + 1
    return None, None


def _parse_cells(text: str, whole: str) -> A1Range:
    first, colon, second = text.partition(":")
    if ":" in second:
        raise A1Error(f"Unable to parse range: {whole}")
    r0, c0 = _parse_corner(first, whole)
    if not colon:
        if r0 is None or c0 is None:  # "A" or "5" alone are not ranges
            raise A1Error(f"Unable to parse range: {whole}")
        return A1Range(None, r0, r0 + 1, c0, c0 + 1)
    r1, c1 = _parse_corner(second, whole)
    if (c0 is None) != (c1 is None) and (r0 is None or r1 is None):
        raise A1Error(f"Unable to parse range: {whole}")  # "A:5", "5:A"
    start_row, end_row = _span(r0, r1)
    start_col, end_col = _span(c0, c1)
    return A1Range(None, start_row, end_row, start_col, end_col)


def parse_a1(text: str, sheet_titles: Iterable[str] = ()) -> A1Range:
    """Parse a range (see the module docstring).

    Args:
        text: the range, as a client sends it (already URL-decoded).
        sheet_titles: the spreadsheet's sheet titles; a text without ``!`` that is one of them
            names that whole sheet.

    Raises:
        A1Error: the text is not a range.

    >>> parse_a1("'My Sheet'!A1:C6")
    A1Range(sheet='My Sheet', start_row=0, end_row=6, start_col=0, end_col=3)
    >>> parse_a1("Sheet1!B:B"), parse_a1("A5:A").start_row
    (A1Range(sheet='Sheet1', start_row=None, end_row=None, start_col=1, end_col=2), 4)
    """
    if not isinstance(text, str) or not text.strip():
        raise A1Error(f"Unable to parse range: {text}")
    raw = text.strip()
    titles = set(sheet_titles)
    sheet: str | None
    if raw.startswith("'"):
        end, i = None, 1
        while i < len(raw):
            if raw[i] == "'":
                if i + 1 < len(raw) and raw[i + 1] == "'":
                    i += 2
                    continue
                end = i
                break
            i += 1
        if end is None:
            raise A1Error(f"Unable to parse range: {text}")
        sheet = raw[1:end].replace("''", "'")
        rest = raw[end + 1 :]
        if not rest:
            return A1Range(sheet)
        if not rest.startswith("!"):
            raise A1Error(f"Unable to parse range: {text}")
        cells = rest[1:]
    elif "!" in raw:
        sheet, _, cells = raw.rpartition("!")
        if not sheet:
            raise A1Error(f"Unable to parse range: {text}")
    else:
        if raw in titles:
            return A1Range(raw)
        return _parse_cells(raw, text)
    if not cells:
        return A1Range(sheet)
    parsed = _parse_cells(cells, text)
    return A1Range(sheet, parsed.start_row, parsed.end_row, parsed.start_col, parsed.end_col)
