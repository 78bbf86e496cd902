"""Reading numbers out of the raw values agents pass (the APIs store values as given)."""

from __future__ import annotations

import math
from typing import Any


def as_number(value: Any) -> float | None:
    """``value`` as a finite float when it is a number or a numeric string (``"1,200"``, ``"$950"``).

    Infinities, NaN and numbers too large for a float are not numbers here.

    >>> as_number(3), as_number("1,200"), as_number("$9.5"), as_number("four"), as_number(True)
    (3.0, 1200.0, 9.5, None, None)
    >>> as_number("inf"), as_number(float("nan")), as_number(10**400)
    (None, None, None)
    """
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, int | float):
            number = float(value)
        elif isinstance(value, str):
            number = float(value.replace(",", "").replace("$", "").strip())
        else:
            return None
    except (ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None
