"""Cell values as formulas see them: errors, coercions and the comparison rules.

An empty cell is 0 in arithmetic and "" in text, text that reads as a number takes part in
arithmetic, ``TRUE`` is 1; comparisons order numbers before text before logical values and compare
text without case. An error value (:class:`CellError`) propagates through what uses it
(:class:`Propagate` carries it out of the expression).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class CellError:
    """An error value (``#DIV/0!``); it propagates through what uses it."""

    code: str

    def __str__(self) -> str:
        return self.code


DIV0 = CellError("#DIV/0!")
VALUE = CellError("#VALUE!")
REF = CellError("#REF!")
NAME = CellError("#NAME?")
NA = CellError("#N/A")
NUM = CellError("#NUM!")
PARSE = CellError("#ERROR!")

Value = float | int | str | bool | CellError | None


class Propagate(Exception):
    """An error value on its way out of the formula that met it."""

    def __init__(self, error: CellError) -> None:
        self.error = error


OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq, "<>": operator.ne, "<": operator.lt, ">": operator.gt, "<=": operator.le,
    ">=": operator.ge,
}  # fmt: skip


def to_number(value: Value) -> float:
    """A value in arithmetic (empty is 0, TRUE is 1, numeric text its number)."""
    if isinstance(value, CellError):
        raise Propagate(value)
    if value is None or value == "":
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).strip().replace(",", ""))
    except ValueError:
        raise Propagate(VALUE) from None


def to_text(value: Value) -> str:
    """A value as text (numbers without a trailing ``.0``)."""
    if isinstance(value, CellError):
        raise Propagate(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    return str(value)


def to_bool(value: Value) -> bool:
    """A value as a condition."""
    if isinstance(value, CellError):
        raise Propagate(value)
    if isinstance(value, str):
        if value.upper() in ("TRUE", "FALSE"):
            return value.upper() == "TRUE"
        if value == "":
            return False
        raise Propagate(VALUE)
    return bool(to_number(value))


def rank(value: Value) -> int:
    """The order of kinds in a comparison: numbers, then text, then logical values."""
    if isinstance(value, bool):
        return 2
    if isinstance(value, str):
        return 1
    return 0


def compare(op: str, a: Value, b: Value) -> bool:
    """``a op b`` as Sheets compares (kinds first, text without case); errors propagate."""
    for v in (a, b):
        if isinstance(v, CellError):
            raise Propagate(v)
    a = 0.0 if a is None and not isinstance(b, str) else ("" if a is None else a)
    b = 0.0 if b is None and not isinstance(a, str) else ("" if b is None else b)
    ka: Any
    kb: Any
    if rank(a) != rank(b):
        ka, kb = rank(a), rank(b)
    elif isinstance(a, str):
        ka, kb = a.lower(), str(b).lower()
    else:
        ka, kb = float(a), float(b)  # type: ignore[arg-type]
    return OPS[op](ka, kb)


def against(key: Value) -> Callable[[str, Value], bool]:
    """``safe_compare(op, v, key)`` for many ``v``, with a text ``key`` lowered once.

    A 50,000-character key is then not lowered again for every cell it meets.
    """
    if not isinstance(key, str):
        return lambda op, v: safe_compare(op, v, key)
    lowered = key.lower()

    def against_key(op: str, v: Value) -> bool:
        if v is None or isinstance(v, str):  # text against text (an empty cell is "")
            return OPS[op]((v or "").lower(), lowered)
        return safe_compare(op, v, key)

    return against_key


def safe_compare(op: str, a: Value, b: Value) -> bool:
    """:func:`compare`, with ``False`` where an error would propagate."""
    try:
        return compare(op, a, b)
    except Propagate:
        return False
