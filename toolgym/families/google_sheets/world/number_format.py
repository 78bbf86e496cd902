"""Number formats: how a number is displayed under a cell's ``numberFormat`` pattern.

The common patterns of the Sheets UI and API: digits and decimals (``0``, ``0.00``, ``#,##0``),
thousands separators, a currency or other literal before or after (``$#,##0.00``,
``"€"#,##0``, ``0.0 "kg"``), percentages (``0%``, ``0.00%``), scientific notation (``0.00E+00``)
and the ``;`` section for negative numbers (``#,##0;(#,##0)``). Rounding is half away from zero,
as in Sheets. A pattern this does not understand leaves the default display.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

_NUMBER_PART = re.compile(r"[#0,.]*[0#][#0,.]*(?:[eE][+-]0+)?")


@dataclass(frozen=True)
class _Section:
    prefix: str
    suffix: str
    decimals: int
    min_decimals: int
    min_integer: int
    grouping: bool
    percent: bool
    exponent: int  # digits of the exponent, 0 for none


def _literal(text: str) -> str:
    return re.sub(
        r'"([^"]*)"|\\(.)', lambda m: m.group(1) if m.group(1) is not None else m.group(2), text
    )


@functools.lru_cache(maxsize=1024)
def _sections(pattern: str) -> tuple[_Section, ...] | None:
    out = []
    for part in pattern.split(";")[:2]:
        match = _NUMBER_PART.search(part)
        if match is None:
            return None
        number = match.group(0)
        mantissa = number.split("E")[0].split("e")[0]
        exponent = len(number) - len(mantissa) - 2 if ("E" in number or "e" in number) else 0
        integer, _, fraction = mantissa.partition(".")
        out.append(
            _Section(
                _literal(part[: match.start()]),
                _literal(part[match.end() :]),
                fraction.count("0") + fraction.count("#"),
                fraction.count("0"),
                integer.count("0"),
                "," in integer,
                "%" in part,
                exponent,
            )
        )
    return tuple(out)


def _round(x: float, digits: int) -> float:
    factor = 10.0**digits
    return math.copysign(math.floor(abs(x) * factor + 0.5) / factor, x)


def _body(x: float, s: _Section) -> str:
    if s.exponent:
        if x == 0:
            mantissa, power = 0.0, 0
        else:
            power = math.floor(math.log10(abs(x)))
            mantissa = _round(x / 10.0**power, s.decimals)
            if abs(mantissa) >= 10:
                mantissa, power = mantissa / 10, power + 1
        sign = "+" if power >= 0 else "-"
        return f"{abs(mantissa):.{s.decimals}f}E{sign}{abs(power):0{s.exponent}d}"
    value = _round(abs(x), s.decimals)
    text = f"{value:,.{s.decimals}f}" if s.grouping else f"{value:.{s.decimals}f}"
    integer, dot, fraction = text.partition(".")
    while len(fraction) > s.min_decimals and fraction.endswith("0"):
        fraction = fraction[:-1]  # "#" places show only digits that count
    if integer.replace(",", "") == "0" and s.min_integer == 0:
        integer = ""
    return integer + (dot if fraction else "") + fraction


def format_with_pattern(x: float, pattern: str) -> str | None:
    """``x`` displayed under ``pattern``, or ``None`` when the pattern is not understood.

    >>> format_with_pattern(1234.5, "$#,##0.00"), format_with_pattern(0.125, "0.0%")
    ('$1,234.50', '12.5%')
    >>> format_with_pattern(-1234, "#,##0;(#,##0)"), format_with_pattern(12345, "0.00E+00")
    ('(1,234)', '1.23E+04')
    """
    if len(pattern) > 200:  # a pattern past any real one shows the default display
        return None
    sections = _sections(pattern)
    if not sections:
        return None
    negative = x < 0
    section = sections[1] if negative and len(sections) > 1 else sections[0]
    value = x * 100 if section.percent else x
    try:
        body = _body(value, section)
    except (OverflowError, ValueError):  # a number too large for the pattern's digits
        return None
    sign = "-" if negative and len(sections) == 1 and body.strip("0.,E+-") else ""
    return f"{sign}{section.prefix}{body}{section.suffix}"
