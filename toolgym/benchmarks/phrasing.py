"""Ways people write numbers, money and dates, for generating goals that read like real users.

Every function takes a NumPy generator and picks one written form at random; the value it denotes
is always exactly the argument, so a goal generated with these forms has one correct program.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

T = TypeVar("T")

_SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_ORDINALS = (
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
)
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def pick(rng: np.random.Generator, options: Sequence[T]) -> T:
    """One element of ``options``, uniformly."""
    return options[int(rng.integers(len(options)))]


def count(rng: np.random.Generator, n: int) -> str:
    """A small count as a digit or a word (``3`` or ``three``)."""
    if 0 <= n < len(_SMALL) and rng.random() < 0.4:
        return _SMALL[n]
    return str(n)


def ordinal(rng: np.random.Generator, n: int) -> str:
    """An ordinal as a word or with a suffix (``third`` or ``3rd``)."""
    if 0 < n < len(_ORDINALS) and rng.random() < 0.6:
        return _ORDINALS[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def money(rng: np.random.Generator, amount: int) -> str:
    """A dollar amount in one of several forms (``$450,000``, ``450k``, ``$1.25M``, ``450000 dollars``).

    >>> rng = np.random.default_rng(0)
    >>> sorted({money(rng, 1250000) for _ in range(200)})[:3]
    ['$1,250,000', '$1.25 million', '$1.25M']
    """
    forms = [f"${amount:,}", f"${amount}", f"{amount:,} dollars", f"{amount} USD"]
    if amount >= 1_000_000 and amount % 10_000 == 0:
        m = f"{amount / 1_000_000:.2f}".rstrip("0").rstrip(".")
        forms += [f"${m}M", f"${m} million", f"{m} million dollars"]
    elif amount >= 10_000 and amount % 1_000 == 0:
        forms += [f"${amount // 1000}k", f"{amount // 1000}K"]
    return pick(rng, forms)


def number(rng: np.random.Generator, value: int) -> str:
    """A plain quantity with or without a thousands separator (``1,200`` or ``1200``)."""
    return f"{value:,}" if value >= 1000 and rng.random() < 0.5 else str(value)


def date(rng: np.random.Generator, day: dt.date) -> str:
    """A date in one of several unambiguous written forms (month names or ISO-like order).

    >>> rng = np.random.default_rng(1)
    >>> len({date(rng, dt.date(2026, 4, 10)) for _ in range(300)}) >= 8
    True
    """
    month = _MONTHS[day.month - 1]
    forms = [
        f"{month} {day.day}, {day.year}",
        f"{month} {day.day:02d}, {day.year}",
        f"{month[:3]} {day.day} {day.year}",
        f"{month[:3]} {day.day:02d} {day.year}",
        f"{day.day} {month} {day.year}",
        f"the {ordinal(rng, day.day)} of {month} {day.year}",
        f"{day.year}/{day.month:02d}/{day.day:02d}",
        f"{day.year}-{day.month:02d}-{day.day:02d}",
        f"{month} {ordinal(rng, day.day)}, {day.year}",
        f"{day.month}/{day.day}/{day.year}",
    ]
    return pick(rng, forms)


def join(items: Sequence[str], conj: str = "and") -> str:
    """English list: ``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conj} {items[-1]}"
