"""The ways a date is written: by people (``November 17, 2027``, ``17/11/2027``) and by code.

A family whose slots hold days gives each the forms of :func:`date_forms` as aliases, so a
check that writes the day in any of them reads as that day, and a step of code that writes it
(``Date(11, 17, 2027)``, ``2027-11-17``) is seen to carry it. The other way, a message's dates
said in words or as ranges (``november fourth``, ``23 to 29 of september 2027``, ``nov 4
'27``) are written out the way those forms are (:func:`said_days`, :func:`day_ranges`,
:func:`short_years`), as part of a message's canonical text.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re

from toolgym.simulators.user.first_chars import compiled

MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def date_forms(day: dt.date) -> tuple[str, ...]:
    """Every written form of ``day`` a slot's aliases list, the most natural first.

    Month first as spoken (``November 17 2027``, ``Nov 17``), day first (``17 November 2027``);
    numbers month first (``11/17/2027``, ``11/17/27``), day first where the day cannot be a
    month (``17/11/2027``) or written with dots (``17.11.2027``, which is day first), year
    first (``2027-11-17``); and code's ``month 11 day 17 year 2027`` in every order.

    >>> forms = date_forms(dt.date(2027, 11, 17))
    >>> forms[0], "17/11/2027" in forms, "11/17/27" in forms, "17.11.2027" in forms
    ('November 17 2027', True, True, True)
    >>> "11/5/2027" in date_forms(dt.date(2027, 5, 11))  # May 11: 11/5 would be November 5
    False
    """
    m, d, y = day.month, day.day, day.year
    month, yy = MONTHS[m - 1], f"{y % 100:02d}"
    said = (f"{month} {d} {y}", f"{month[:3]} {d} {y}", f"{d} {month} {y}", f"{month} {d}",
            f"{month[:3]} {d}", f"{d} {month}")  # fmt: skip
    code = [f"{a} {b} {c} {e} {f} {g}" for (a, b), (c, e), (f, g) in
            itertools.permutations((("month", m), ("day", d), ("year", y)))]  # fmt: skip
    numeric = (f"{m} {d} {y}", f"{m}/{d}/{y}", f"{m:02d}/{d:02d}/{y}", f"{m}-{d}-{y}",
               f"{y}/{m:02d}/{d:02d}", f"{y}-{m}-{d}", f"{y}/{m}/{d}")  # fmt: skip
    short = (f"{m}/{d}/{yy}", f"{m:02d}/{d:02d}/{yy}", f"{month} {d} '{yy}")
    dotted = (f"{d}.{m}.{y}", f"{d:02d}.{m:02d}.{y}")
    day_first = (f"{d}/{m}/{y}", f"{d}/{m:02d}/{y}", f"{d}/{m}/{yy}") if d > 12 else ()
    return (*said, *numeric, *code, *short, *dotted, *day_first)


# -- a message's dates, written as the forms above write them ------------------------------
_FULL_MONTH = (
    "january|february|march|april|may|june|july|august|september|october|november|december"
)
_ANY_FULL_MONTH = compiled(_FULL_MONTH)
_DAY_FIRST = compiled(rf"(?<![0-9a-z])(\d{{1,2}}) (?:of )?({_FULL_MONTH})(?![a-z])")
"""A day before its month (``24 april 2024``), written month first as the task's dates are."""
_MONTH_BEFORE = compiled(rf"(?:{_FULL_MONTH}) $")
_DAYS_OF_MONTH = compiled(
    rf"(?<![0-9a-z])(\d{{1,2}}) (?:(?:to|through|until|till|and|-|\u2013) )?(?:the )?(\d{{1,2}})"
    rf"(?: of)? ({_FULL_MONTH})(?: (\d{{4}}))?(?![0-9a-z])"
)
_MONTH_DAYS = compiled(
    rf"(?<![0-9a-z])({_FULL_MONTH}) (\d{{1,2}}) ?(?:to|through|until|till|-|\u2013) ?(\d{{1,2}})"
    rf"(?: (\d{{4}}))?(?![0-9a-z]| ({_FULL_MONTH})\b)"
)
_YEAR_AFTER = compiled(
    rf"(?<![0-9a-z])({_FULL_MONTH}) (\d{{1,2}}) (?:(to|through|until|till|and|-|\u2013) )?"
    rf"({_FULL_MONTH}) (\d{{1,2}}) (\d{{4}})(?![0-9a-z])"
)


_DAY_WORDS = {
    w: n
    for n, w in enumerate(
        [
            "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
            "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
            "seventeenth", "eighteenth", "nineteenth", "twentieth",
        ],
        1,
    )
}  # fmt: skip
_DAY_WORDS.update({f"twenty {w}": 20 + n for w, n in list(_DAY_WORDS.items())[:9]})
_DAY_WORDS.update({"thirtieth": 30, "thirty first": 31})
_DAY_WORD = "|".join(sorted(_DAY_WORDS, key=len, reverse=True))
_MONTH_NAMES = f"{_FULL_MONTH}|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec"
_SAID_DAY = compiled(
    rf"(?<![0-9a-z'])(?:((?:{_MONTH_NAMES.replace('may|', '')}) (?:the )?)({_DAY_WORD})(?![0-9a-z'])"
    rf"|(?:the )?({_DAY_WORD})( (?:of )?(?:{_MONTH_NAMES})(?![0-9a-z'])))"
)
"""A day said as an ordinal beside its month (``november fourth``, ``the 4th of november``): not
``may first`` (a verb)."""


def said_days(text: str) -> str:
    """``text`` with the days its ordinals say beside a month in digits (``november 4``)."""
    return _SAID_DAY.sub(
        lambda m: f"{m[1]}{_DAY_WORDS[m[2]]}" if m[1] else f"{_DAY_WORDS[m[3]]}{m[4]}", text
    )


_SHORT_YEAR = compiled(rf"((?:{_FULL_MONTH}) \d{{1,2}} )'(\d\d)(?![0-9a-z])")
"""A year's last two digits after a date (``november 4 '27``)."""


def short_years(text: str) -> str:
    """``text`` with a year written by its last two digits after a date written in full."""
    return _SHORT_YEAR.sub(r"\g<1>20\2", text)


def day_ranges(text: str) -> str:
    """Two days of one month, or a year after the second date, written out for each date.

    ``23 to 29 of september 2027`` and ``september 23-29 2027``: ``september 23 2027 to
    september 29 2027``; ``february 5 to february 12 2026``: the year is the first's too.
    """
    if _ANY_FULL_MONTH.search(text) is None:
        return text

    def year(value: str | None) -> str:
        return f" {value}" if value else ""

    text = _DAYS_OF_MONTH.sub(
        lambda m: f"{m[3]} {m[1]}{year(m[4])} to {m[3]} {m[2]}{year(m[4])}", text
    )

    def month_first(m: re.Match[str]) -> str:  # not the day of a month before it
        return m[0] if _MONTH_BEFORE.search(m.string, 0, m.start()) else f"{m[2]} {m[1]}"

    text = _DAY_FIRST.sub(month_first, text)
    text = _MONTH_DAYS.sub(
        lambda m: f"{m[1]} {m[2]}{year(m[4])} to {m[1]} {m[3]}{year(m[4])}", text
    )
    return _YEAR_AFTER.sub(
        lambda m: f"{m[1]} {m[2]} {m[6]} {m[3] or 'to'} {m[4]} {m[5]} {m[6]}", text
    )
