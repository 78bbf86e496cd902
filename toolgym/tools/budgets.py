"""Budgets: how much an action may build, render and spend, in every action language.

Agent text is untrusted. Every language checks what an action asks for against a
:class:`Budgets`: the size and depth of the values it builds (shared references counted each time
they are used, since that is what rendering and copying them costs), the numbers it writes, and
the wall-clock time it runs. Exceeding one is an agent mistake of its own category,
``resource_limit`` (or ``timeout`` for time), never an exception out of ``step`` or a hang.
Everything an action's values are rendered into (warnings, observations) goes through
:func:`short_repr`, so no single value can flood an observation.

>>> measure([[1, 2], [3, [4]]])
(8, 3)
>>> shared = [0] * 10
>>> measure([shared] * 10)  # ten references to one list cost ten lists
(111, 2)
"""

from __future__ import annotations

import math
import reprlib
import time
from dataclasses import dataclass
from typing import Any

from toolgym.tools.errors import TIMEOUT, ToolCallError, register_category

RESOURCE_LIMIT = register_category(
    "resource_limit",
    "The action asked for more than a budget allows: values too large or too deep, a number out "
    "of range, too much output.",
)


@dataclass(frozen=True)
class Budgets:
    """Limits of one action.

    Attributes:
        max_action_chars: the longest action text.
        max_value_items: the most items one value may hold, nested items counted (a scalar is 1,
            a container 1 plus its items; a list used twice counts twice).
        max_value_depth: the deepest nesting of one value.
        max_action_items: the most items all the values of one action may hold together.
        max_number: the largest magnitude of a number an action writes or computes.
        max_seconds: the wall-clock time an action may run.
    """

    max_action_chars: int = 16_384
    max_value_items: int = 1_000
    max_value_depth: int = 16
    max_action_items: int = 10_000
    max_number: float = 1e18
    max_seconds: float = 5.0


DEFAULT_BUDGETS = Budgets()


def measure(
    value: Any, max_items: int | None = None, max_depth: int | None = None
) -> tuple[int, int]:
    """(items, depth) of ``value``: a scalar is 1 item at depth 0, a container 1 plus its items.

    Walks without recursion and stops as soon as a limit is passed (the counts returned then
    exceed it), so measuring costs at most the budget, whatever the value.
    """
    items, deepest = 0, 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        current, depth = stack.pop()
        items += 1
        if isinstance(current, dict):
            children: Any = [*current.keys(), *current.values()]
        elif isinstance(current, list | tuple | set | frozenset):
            children = current
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if (max_items is not None and items > max_items) or (
            max_depth is not None and depth > max_depth
        ):
            break
        stack.extend((child, depth) for child in children)
    return items, deepest


def check_value(value: Any, budgets: Budgets, what: str = "a value") -> int:
    """The items of ``value``, or ``resource_limit`` if it is too large or too deep."""
    items, depth = measure(value, budgets.max_value_items, budgets.max_value_depth)
    if depth > budgets.max_value_depth:
        raise ToolCallError(
            RESOURCE_LIMIT,
            f"{what} is nested more than {budgets.max_value_depth} levels deep",
        )
    if items > budgets.max_value_items:
        raise ToolCallError(
            RESOURCE_LIMIT,
            f"{what} holds more than {budgets.max_value_items} items (nested items and repeated "
            "references counted)",
        )
    return items


def check_number(value: Any, budgets: Budgets) -> None:
    """``resource_limit`` for a number that is not finite or whose magnitude is too large."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return
    if isinstance(value, float) and not math.isfinite(value):
        raise ToolCallError(RESOURCE_LIMIT, f"the number {value!r} is not finite")
    try:
        too_large = abs(value) > budgets.max_number
    except OverflowError:
        too_large = True
    if too_large:
        raise ToolCallError(
            RESOURCE_LIMIT, f"a number larger than {budgets.max_number:g} in magnitude"
        )


class Deadline:
    """The wall-clock budget of one action.

    Args:
        seconds: how long the action may run.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def check(self) -> None:
        """``timeout`` once the time is spent."""
        if time.monotonic() > self.end:
            raise ToolCallError(TIMEOUT, f"the action ran past its {self.seconds:g} s budget")


_REPR = reprlib.Repr()
_REPR.maxstring = 80
_REPR.maxother = 80
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 8
_REPR.maxlevel = 4


def short_repr(value: Any, limit: int = 200) -> str:
    """``repr(value)`` cut to a readable size (long strings, long or deep containers elided).

    >>> short_repr(list(range(100)))
    '[0, 1, 2, 3, 4, 5, 6, 7, ...]'
    """
    try:
        text = _REPR.repr(value)
    except Exception:  # a value whose own repr fails
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
