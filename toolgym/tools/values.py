"""Reading numbers out of the raw values agents pass (the APIs store values as given)."""

from __future__ import annotations

from typing import Any


def as_number(value: Any) -> float | None:
    """``value`` as a float when it is a number or a numeric string (``"1,200"``, ``"$950"``).

    >>> as_number(3), as_number("1,200"), as_number("$9.5"), as_number("four"), as_number(True)
    (3.0, 1200.0, 9.5, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.replace(",", "").replace("$", "").strip())
        except ValueError:
            return None
    return None
