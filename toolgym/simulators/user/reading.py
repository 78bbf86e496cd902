"""What the reader makes of an agent's message: a :class:`Reading`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    """What a message to the user is.

    Attributes:
        kind: one of :data:`KINDS`.
        kinds: the slot kinds it names, in the vocabulary's order.
        stated: the task's slots whose values it writes, by kind.
        question: whether it is a question (as opposed to a statement).
        asked: the kinds it asks about: those it names without writing a value (in a check,
            the others it names are checked).
        acknowledged: whether it opens by restating the user's request (``Got it, the crab
            row. Which colour?``): a check the user confirms, beside what it asks.
        valued: in a check, the kinds it writes a value of, right or wrong (``None``: every
            kind it names and does not ask); a kind it names with no value (``renaming the
            'Item' column, yes?``) is neither confirmed nor corrected.
        contradicted: in a check, whether it restates the request as something it is not
            (another action, another row or column of its table): the user says no.
    """

    kind: str
    kinds: tuple[str, ...] = ()
    stated: tuple[str, ...] = ()
    question: bool = False
    asked: tuple[str, ...] = ()
    acknowledged: bool = False
    valued: tuple[str, ...] | None = None
    contradicted: bool = False
