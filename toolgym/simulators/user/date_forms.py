"""The ways a date is written: by people (``November 17, 2027``, ``17/11/2027``) and by code.

A family whose slots hold days gives each the forms of :func:`date_forms` as aliases, so a
check that writes the day in any of them reads as that day, and a step of code that writes it
(``Date(11, 17, 2027)``, ``2027-11-17``) is seen to carry it.
"""

from __future__ import annotations

import datetime as dt
import itertools

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
    >>> forms[0], "17/11/2027" in forms, "11/17/27" in forms, "5/11/2027" in date_forms(dt.date(2027, 5, 11))
    ('November 17 2027', True, True, False)
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
