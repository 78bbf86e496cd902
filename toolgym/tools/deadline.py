"""A wall-clock deadline that long work in this process checks as it goes.

A sandboxed program is stopped at its limit by the sandbox; what a step does with the program's
result afterwards (a family reading the state it left, evaluating formulas, drawing the view)
runs here, in the env's process. :func:`deadline` sets the moment that work must be done by, for
the current thread; loops whose length the agent decides (formula evaluation, say) call
:func:`check_deadline`, which raises :class:`DeadlineExceeded` past it. The caller turns that into
a ``timeout`` error: the step returns, the work is cut off, and nothing else is changed.

>>> import time
>>> with deadline(time.monotonic() + 60):
...     check_deadline()  # in time: nothing happens
>>> with deadline(time.monotonic() - 1):
...     try:
...         check_deadline()
...     except DeadlineExceeded as e:
...         print("cut off")
cut off
>>> check_deadline()  # no deadline set: nothing happens
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class DeadlineExceeded(BaseException):
    """The current thread's deadline (:func:`deadline`) has passed.

    Like :class:`asyncio.CancelledError`, it is not an :class:`Exception`: code that turns
    failures into answers (a service's ``except Exception``: a 500) lets it through to whoever
    set the deadline, who reports the timeout.
    """


_LOCAL = threading.local()


@contextmanager
def deadline(at: float | None) -> Iterator[None]:
    """Within the block, :func:`check_deadline` raises past ``at`` (a ``time.monotonic()`` time).

    Nested deadlines keep the earlier one; ``None`` sets none (an enclosing one still holds).
    """
    before: float | None = getattr(_LOCAL, "at", None)
    if at is not None:
        _LOCAL.at = at if before is None else min(before, at)
    try:
        yield
    finally:
        _LOCAL.at = before


def check_deadline() -> None:
    """Raise :class:`DeadlineExceeded` if the current thread's deadline has passed."""
    at = getattr(_LOCAL, "at", None)
    if at is not None and time.monotonic() > at:
        raise DeadlineExceeded


def seconds_left() -> float | None:
    """Seconds until the current thread's deadline (``None``: no deadline)."""
    at = getattr(_LOCAL, "at", None)
    return None if at is None else at - time.monotonic()
