"""The guess check: which held-back details a step set before the user told them.

A step is judged by what it did, not by how it was written. The family's backend runs it, then
reports the calls its service ran (:meth:`~toolgym.tools.backend.Backend.calls_since`): each by
the name the service knows it by, with its arguments as the service read them, after the action
was parsed and its arguments evaluated. A JSON call with a prefixed name, a keyword or a
positional argument, a value computed in code (``0xf``, ``int('1' '5')``, an f-string, a variable
of an earlier step) all come out as the same call. A step that set a held-back detail not told
yet is then undone and refused (:mod:`toolgym.conversation.language`).

A call *sets* a detail in one of two ways:

* **By its carrier.** A kind carried by a tool's argument (:attr:`SlotKind.call` and
  :attr:`SlotKind.argument`, or a task's own :attr:`Slot.call`) is set by any call of that tool
  that passes that argument, whatever the value (names in any case). A wrong value is a guess
  too: the agent acted on a detail it was not given.
* **By its value.** A kind that no argument carries (a cell's new value in a spreadsheet, an
  image id, a price cap) is set by a call that passes its value: an argument equal to one of the
  slot's written forms (numbers equal in any notation, text compared normalized), or text that
  holds one of its forms of :data:`MIN_GUESS_CHARS` characters or more as whole words. A slot of
  a task's own call is checked this way too (its value written in another call). A wrong value
  here is not refused: it only loses reward.

Short values (``2``, ``US``) are matched by equality alone, and only for kinds that no call
carries: in a RapidAPI task, another API's ``page=2`` is not a guess of a held-back ``adults=2``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

from toolgym.simulators.user.slots import Slot, SlotKind, contains_phrase, normalize
from toolgym.tools.json_calls import ToolCall

MIN_GUESS_CHARS = 3
"""A form shorter than this is not looked for inside longer text (``1`` is everywhere)."""

MAX_LEAVES = 10_000
"""The most argument values of one step that are compared with the held-back slots; a step that
passes more is refused (:class:`TooManyValues`) rather than let through unchecked."""


MAX_DEPTH = 32
"""The deepest argument value the guess check reads; a deeper one is refused like too many."""


class TooManyValues(Exception):
    """A step passed more values (or deeper ones) than the guess check compares."""


def sets_by_carrier(calls: Sequence[ToolCall], call: str, argument: str | None) -> bool:
    """Whether one of ``calls`` calls ``call`` with ``argument`` (any argument when ``None``).

    Names are compared in any case: services that read ``LIMIT`` as ``limit`` exist.
    """
    name = call.lower()
    wanted = None if argument is None else argument.lower()
    return any(
        c.name.lower() == name
        and (wanted is None or wanted in {str(a).lower() for a in c.arguments})
        for c in calls
    )


def leaves(value: Any, depth: int = 0) -> Iterator[Any]:
    """The scalar values inside an argument (lists, tuples and dicts opened; others as text).

    >>> list(leaves({"a": [1, "x"], "b": {"c": 2.5}}))
    [1, 'x', 2.5]
    """
    if depth > MAX_DEPTH:
        raise TooManyValues(
            f"this step passed a value nested deeper than {MAX_DEPTH} levels while the user has "
            "not told every detail: ask the user first"
        )
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item, depth + 1)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from leaves(item, depth + 1)
    elif value is None or isinstance(value, str | int | float | bool):
        yield value
    else:  # a value object of the family (a Loc, a Date): what it prints
        try:
            yield str(value)[:10_000]
        except Exception:  # a value that cannot print: it writes nothing a slot holds
            yield None


def _number(value: Any) -> float | None:
    """``value`` as a finite number (text that reads as one included), else ``None``.

    A number too large for a float (``10**330``) is none of a slot's values: ``None``.
    """
    if isinstance(value, bool) or (isinstance(value, int) and value.bit_length() > 128):
        return None
    try:
        if isinstance(value, int | float):
            number = float(value)
        elif isinstance(value, str):
            text = value.strip().replace(",", "")
            if not text or len(text) > 40:
                return None
            number = float(text)
        else:
            return None
    except (ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


class ValueForms:
    """How a slot's value may be written, prepared for comparing argument values with it.

    Args:
        slot: the held-back slot.
        short: whether forms shorter than :data:`MIN_GUESS_CHARS` count when a whole value
            equals them (for kinds no call carries).
    """

    def __init__(self, slot: Slot, short: bool) -> None:
        values = list(leaves(slot.value))
        forms = {*slot.forms(), *(normalize(str(v)) for v in values if not isinstance(v, bool))}
        forms.discard("")
        self.short = short
        self.whole = frozenset(f for f in forms if short or len(f) >= MIN_GUESS_CHARS)
        self.inner = tuple(sorted((f for f in forms if len(f) >= MIN_GUESS_CHARS), key=len))
        numbers = {_number(v) for v in values} | {_number(f) for f in forms}
        self.numbers = frozenset(
            n for n in numbers if n is not None and (short or len(f"{n:g}") >= MIN_GUESS_CHARS)
        )

    def written_in(self, value: Any) -> bool:
        """Whether the argument value ``value`` writes the slot's value."""
        if isinstance(value, bool) or value is None:
            return False
        number = _number(value)
        if number is not None and any(
            math.isclose(number, n, rel_tol=1e-9, abs_tol=1e-12) for n in self.numbers
        ):
            return True
        if isinstance(value, int) and value.bit_length() > 128:
            return False  # no slot's value: a number this long is written only to get past
        if isinstance(value, int | float):
            return normalize(str(value)) in self.whole
        text = normalize(value)
        if text in self.whole:
            return True
        return any(contains_phrase(text, form) for form in self.inner)


def sets_by_value(calls: Sequence[ToolCall], forms: ValueForms) -> bool:
    """Whether one of ``calls`` passes the value ``forms`` describe, in any argument."""
    seen = 0
    for call in calls:
        for value in leaves(call.arguments):
            seen += 1
            if seen > MAX_LEAVES:
                raise TooManyValues(
                    f"this step passed more than {MAX_LEAVES:,} values while the user has not "
                    "told every detail: ask the user first, or do it in smaller steps"
                )
            if forms.written_in(value):
                return True
    return False


def guessed_kinds(
    calls: Sequence[ToolCall], untold: Sequence[tuple[SlotKind, Slot | None]]
) -> list[str]:
    """The kinds among ``untold`` (each with the task's slot) that ``calls`` set.

    See the module docstring for the two ways a call sets a kind.
    """
    found = []
    for kind, slot in untold:
        own = slot is not None and slot.call is not None
        call, argument = kind.call, kind.argument
        if slot is not None and slot.call is not None:
            call, argument = slot.call, slot.argument
        by_carrier = call is not None and sets_by_carrier(calls, call, argument)
        by_value = (
            slot is not None
            and (own or call is None)
            and sets_by_value(calls, ValueForms(slot, short=call is None))
        )
        if by_carrier or by_value:
            found.append(kind.name)
    return found
