"""Dates and times as Sheets keeps them, and the format that typed input implies.

A date is a serial number: days since 1899-12-30, the time of day as the fraction. Typed input
(``USER_ENTERED``) that reads as a date or a time becomes such a number and, where the cell has
no number format yet, gets the format it was typed in (``2024-01-15`` shows as ``yyyy-mm-dd``,
``1/15/2024`` as ``M/d/yyyy``), as percentages (``10%``), amounts (``$5.00``) and grouped numbers
(``1,200``) get theirs. Date patterns (``yyyy``, ``mmmm``, ``mmm``, ``mm``, ``m``, ``dddd``,
``ddd``, ``dd``, ``d``, ``hh``, ``h``, ``ss``, ``AM/PM``; ``m`` after an hour or before seconds is
minutes) display such numbers.

>>> serial, fmt = parse_date_time("2024-01-15")
>>> serial, fmt["pattern"], format_date(serial, fmt["pattern"])
(45306.0, 'yyyy-mm-dd', '2024-01-15')
>>> format_date(45306.75, "dddd, mmmm d, yyyy h:mm AM/PM")
'Monday, January 15, 2024 6:00 PM'
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

EPOCH = dt.datetime(1899, 12, 30)
"""Day 0 of Sheets' serial dates."""

_DATE_FORMS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$"), "ymd", "yyyy-mm-dd"),
    (re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})$"), "ymd", "yyyy/mm/dd"),
    (re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$"), "mdy", "M/d/yyyy"),
)
_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp][Mm]))?$")
_TOKENS = re.compile(
    r'"[^"]*"|\\.|AM/PM|am/pm|A/P|a/p|yyyy|yy|mmmmm|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s|\.0+'
    r"|[^\"\\ymdhsAaP.]+|.",
    re.IGNORECASE,
)


def to_serial(moment: dt.datetime) -> float:
    """The serial number of a date and time."""
    delta = moment - EPOCH
    return delta.days + delta.seconds / 86400 + delta.microseconds / 86_400_000_000


def from_serial(serial: float) -> dt.datetime:
    """The date and time of a serial number (to the nearest second)."""
    return EPOCH + dt.timedelta(seconds=round(serial * 86400))


def _time_of(text: str) -> tuple[int, int, int] | None:
    match = _TIME.match(text)
    if match is None:
        return None
    hour, minute, second = int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)
    half = (match.group(4) or "").lower()
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "pm" else 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    return hour, minute, second


def parse_date_time(text: str) -> tuple[float, dict[str, str]] | None:
    """The serial number and implied ``numberFormat`` of a typed date, time or both, else ``None``.

    >>> parse_date_time("13:30")[0], parse_date_time("1/2/2024 9:05")[1]["type"]
    (0.5625, 'DATE_TIME')
    """
    text = text.strip()
    day_text, _, time_text = text.partition(" ")
    for pattern, order, shown in _DATE_FORMS:
        match = pattern.match(day_text)
        if match is None:
            continue
        a, b, c = (int(g) for g in match.groups())
        year, month, day = (a, b, c) if order == "ymd" else (c, a, b)
        try:
            moment = dt.datetime(year, month, day)
        except ValueError:
            return None
        if not time_text:
            return to_serial(moment), {"type": "DATE", "pattern": shown}
        clock = _time_of(time_text.strip())
        if clock is None:
            return None
        moment = moment.replace(hour=clock[0], minute=clock[1], second=clock[2])
        return to_serial(moment), {"type": "DATE_TIME", "pattern": f"{shown} H:mm:ss"}
    clock = _time_of(text)
    if clock is not None:
        hour, minute, second = clock
        fmt = "h:mm:ss AM/PM" if re.search(r"[AaPp][Mm]$", text) else "H:mm:ss"
        return (hour * 3600 + minute * 60 + second) / 86400, {"type": "TIME", "pattern": fmt}
    return None


def implied_format(text: str) -> dict[str, str] | None:
    """The ``numberFormat`` typed text implies: percentages, amounts, grouping, dates, times.

    >>> implied_format("12.5%"), implied_format("$1,200"), implied_format("42")
    ({'type': 'PERCENT', 'pattern': '0.00%'}, {'type': 'CURRENCY', 'pattern': '"$"#,##0'}, None)
    """
    text = text.strip()
    if text.endswith("%"):
        return {"type": "PERCENT", "pattern": "0.00%" if "." in text else "0%"}
    if text.lstrip("+-").startswith("$"):
        decimals = ".00" if "." in text else ""
        return {"type": "CURRENCY", "pattern": f'"$"#,##0{decimals}'}
    if re.fullmatch(r"[-+]?\d{1,3}(,\d{3})+(\.\d*)?", text):
        return {"type": "NUMBER", "pattern": "#,##0" + (".00" if "." in text else "")}
    parsed = parse_date_time(text)
    return None if parsed is None else parsed[1]


def is_date_pattern(pattern: str) -> bool:
    """Whether a pattern displays dates or times (it has y, d, h or s outside quotes).

    >>> is_date_pattern("yyyy-mm-dd"), is_date_pattern("0.00"), is_date_pattern('"days"0')
    (True, False, False)
    """
    bare = re.sub(r'"[^"]*"|\\.', "", pattern)
    return bool(re.search(r"[ydhsYDHS]", bare))


_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


MAX_PATTERN = 200
"""The longest format pattern shown as written; a longer one shows the default display."""


def format_date(serial: float, pattern: str) -> str | None:
    """A serial number displayed under a date or time pattern (``None``: it cannot be).

    A serial outside the years 1 to 9999, or a pattern longer than :data:`MAX_PATTERN`, cannot.
    """
    if len(pattern) > MAX_PATTERN or not -693_593 <= serial <= 2_958_465:
        return None
    moment = from_serial(serial)
    tokens = _TOKENS.findall(pattern)
    twelve = any(t.lower() in ("am/pm", "a/p") for t in tokens)
    meaningful = [i for i, t in enumerate(tokens) if t.strip(" :")]
    before: dict[int, str] = {}
    after: dict[int, str] = {}
    for k, i in enumerate(meaningful):
        before[i] = tokens[meaningful[k - 1]].lower() if k else ""
        after[i] = tokens[meaningful[k + 1]].lower() if k + 1 < len(meaningful) else ""
    out: list[str] = []
    for i, token in enumerate(tokens):
        low = token.lower()
        prev, nxt = before.get(i, ""), after.get(i, "")
        minutes = low in ("m", "mm") and (prev.startswith("h") or nxt.startswith("s"))
        hour = moment.hour % 12 or 12 if twelve else moment.hour
        value: Any
        if token.startswith('"'):
            value = token[1:-1]
        elif token.startswith("\\"):
            value = token[1:]
        elif minutes:
            value = f"{moment.minute:02d}" if low == "mm" else str(moment.minute)
        elif low == "yyyy":
            value = f"{moment.year:04d}"
        elif low == "yy":
            value = f"{moment.year % 100:02d}"
        elif low == "mmmmm":
            value = _MONTHS[moment.month - 1][0]
        elif low == "mmmm":
            value = _MONTHS[moment.month - 1]
        elif low == "mmm":
            value = _MONTHS[moment.month - 1][:3]
        elif low == "mm":
            value = f"{moment.month:02d}"
        elif low == "m":
            value = str(moment.month)
        elif low == "dddd":
            value = _DAYS[moment.weekday()]
        elif low == "ddd":
            value = _DAYS[moment.weekday()][:3]
        elif low == "dd":
            value = f"{moment.day:02d}"
        elif low == "d":
            value = str(moment.day)
        elif low == "hh":
            value = f"{hour:02d}"
        elif low == "h":
            value = str(hour)
        elif low == "ss":
            value = f"{moment.second:02d}"
        elif low == "s":
            value = str(moment.second)
        elif low in ("am/pm", "a/p"):
            value = ("AM" if moment.hour < 12 else "PM")[: 1 if low == "a/p" else 2]
            value = value if token[0].isupper() else value.lower()
        else:
            value = token
        out.append(str(value))
    return "".join(out)
