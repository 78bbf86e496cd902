"""Formula references that follow the cells they point at, as the real service rewrites them.

* Inserting rows or columns moves every reference at or past the insertion (``=SUM(A1:A5)``
  becomes ``=SUM(A1:A6)`` when a row is inserted at row 3), in every sheet that points there.
* Deleting them shrinks ranges that lose rows, and turns a reference whose cells are all gone
  into ``#REF!``.
* Copying a formula moves its relative parts by the copy's offset (``$``-anchored parts stay);
  a reference pushed off the grid becomes ``#REF!``.

Text inside string literals, function names (``LOG10(``) and names that are not references are
left alone.

>>> shift_formula("=SUM(A1:A5)+B2+B4", "Sheet1", "Sheet1", axis=0, at=2, count=1)
'=SUM(A1:A6)+B2+B5'
>>> shift_formula("=A3+'My data'!B1", "Sheet1", "Sheet1", axis=0, at=2, count=-1)
"=#REF!+'My data'!B1"
>>> offset_formula("=A1*$B$1", 2, 1)
'=B3*$B$1'
"""

from __future__ import annotations

import re
from collections.abc import Callable

from toolgym.families.google_sheets.world.a1 import MAX_COLUMNS, column_index, column_letters

_REF = re.compile(
    r"""(?P<string>"(?:[^"]|"")*")
    |(?<![\w.$])
     (?P<sheet>(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!)?
     (?:
        (?P<c1>\$?[A-Za-z]{1,3})(?P<r1>\$?\d+)(?::(?P<c2>\$?[A-Za-z]{1,3})(?P<r2>\$?\d+))?
       |(?P<cc1>\$?[A-Za-z]{1,3}):(?P<cc2>\$?[A-Za-z]{1,3})
       |(?P<rr1>\$?\d+):(?P<rr2>\$?\d+)
     )
     (?![\w(!])""",
    re.VERBOSE,
)

REF_ERROR = "#REF!"


def _sheet_name(prefix: str | None, own: str) -> str:
    if not prefix:
        return own
    name = prefix[:-1]
    return name[1:-1].replace("''", "'") if name.startswith("'") else name


def _split(part: str) -> tuple[bool, str]:
    return (True, part[1:]) if part.startswith("$") else (False, part)


def _rewrite(text: str, own: str, change: Callable[[re.Match[str]], str | None]) -> str:
    def replace(match: re.Match[str]) -> str:
        if match.group("string") is not None:
            return match.group(0)
        new = change(match)
        return match.group(0) if new is None else new

    return _REF.sub(replace, text)


def _move(index: int, at: int, count: int) -> int | None:
    """A 0-based index after inserting (``count > 0``) or deleting ``-count`` at ``at``."""
    if index < at:
        return index
    if count < 0 and index < at - count:
        return None
    return index + count


def shift_formula(text: str, own: str, target: str, axis: int, at: int, count: int) -> str:
    """A formula of sheet ``own`` after rows or columns of sheet ``target`` moved.

    Args:
        text: the formula.
        own: the title of the sheet the formula is on (unprefixed references point there).
        target: the title of the sheet whose rows (``axis=0``) or columns (``1``) moved.
        axis: 0 for rows, 1 for columns.
        at: the 0-based index of the first row or column inserted or deleted.
        count: how many were inserted (positive) or deleted (negative).
    """

    def change(m: re.Match[str]) -> str | None:
        if _sheet_name(m.group("sheet"), own) != target:
            return None
        prefix = m.group("sheet") or ""
        if m.group("c1") is not None:
            corners = [(m.group("c1"), m.group("r1"))]
            if m.group("c2") is not None:
                corners.append((m.group("c2"), m.group("r2")))
            parsed = []
            for col, row in corners:
                col_abs, letters = _split(col)
                row_abs, digits = _split(row)
                parsed.append([col_abs, column_index(letters.upper()), row_abs, int(digits) - 1])
            key = 3 if axis == 0 else 1
            if len(parsed) == 1:
                moved = _move(parsed[0][key], at, count)
                if moved is None:
                    return REF_ERROR
                parsed[0][key] = moved
            else:
                lo, hi = sorted((parsed[0][key], parsed[1][key]))
                new_lo = _move(lo, at, count)
                new_hi = _move(hi, at, count)
                if new_lo is None:
                    new_lo = at if count < 0 else lo
                if new_hi is None:
                    new_hi = at - 1
                if new_hi < new_lo:
                    return REF_ERROR
                first = 0 if parsed[0][key] <= parsed[1][key] else 1
                parsed[first][key], parsed[1 - first][key] = new_lo, new_hi
            try:
                cells = [
                    f"{'$' if ca else ''}{column_letters(c)}{'$' if ra else ''}{r + 1}"
                    for ca, c, ra, r in parsed
                ]
            except ValueError:  # pushed past the last column
                return REF_ERROR
            return prefix + ":".join(cells)
        whole, first_key, second_key = (
            ("rows", "rr1", "rr2") if m.group("rr1") is not None else ("cols", "cc1", "cc2")
        )
        if (whole == "rows") != (axis == 0):
            return None
        ends = [_split(m.group(first_key)), _split(m.group(second_key))]
        if whole == "rows":
            numbers = [int(v) - 1 for _, v in ends]
        else:
            numbers = [column_index(v.upper()) for _, v in ends]
        lo, hi = min(numbers), max(numbers)
        new_lo, new_hi = _move(lo, at, count), _move(hi, at, count)
        if new_lo is None:
            new_lo = at
        if new_hi is None:
            new_hi = at - 1
        if new_hi < new_lo:
            return REF_ERROR
        show = (lambda i: str(i + 1)) if whole == "rows" else column_letters
        return (
            f"{prefix}{'$' if ends[0][0] else ''}{show(new_lo)}:"
            f"{'$' if ends[1][0] else ''}{show(new_hi)}"
        )

    return _rewrite(text, own, change)


def offset_formula(text: str, rows: int, cols: int) -> str:
    """``text`` copied ``rows`` down and ``cols`` right: relative references move with it."""

    def cell(col: str, row: str) -> str | None:
        col_abs, letters = _split(col)
        row_abs, digits = _split(row)
        c = column_index(letters.upper()) + (0 if col_abs else cols)
        r = int(digits) - 1 + (0 if row_abs else rows)
        if c < 0 or r < 0 or c >= MAX_COLUMNS:
            return None
        return f"{'$' if col_abs else ''}{column_letters(c)}{'$' if row_abs else ''}{r + 1}"

    def change(m: re.Match[str]) -> str | None:
        if m.group("c1") is None:
            return None  # whole rows and columns: moved only by their own axis, kept here
        first = cell(m.group("c1"), m.group("r1"))
        if first is None:
            return REF_ERROR
        if m.group("c2") is None:
            return (m.group("sheet") or "") + first
        second = cell(m.group("c2"), m.group("r2"))
        if second is None:
            return REF_ERROR
        return f"{m.group('sheet') or ''}{first}:{second}"

    return _rewrite(text, "", change)
