"""Ctrl-C between two steps that must go together: the interrupt waits until both are done.

A run saves a record and then counts it; an interrupt landing between the two would leave a
record on disk that the interrupt message does not count. :func:`interrupts_deferred` holds a
``SIGINT`` that arrives inside its block and raises it (as :class:`KeyboardInterrupt`, or through
the handler that was installed) as soon as the block ends.

>>> with interrupts_deferred():
...     saved = 1
>>> saved
1
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Run the block whole: a ``SIGINT`` inside it is delivered when it ends.

    Outside the main thread (where Python delivers no signals) or when ``SIGINT`` is ignored,
    the block runs as is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous in (signal.SIG_IGN, None):
        yield
        return
    held: list[tuple[int, FrameType | None]] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append((signum, frame))

    signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held:
            _deliver(previous, *held[0])


def _deliver(handler: Any, signum: int, frame: FrameType | None) -> None:
    if handler is signal.SIG_DFL or handler is signal.default_int_handler:
        raise KeyboardInterrupt
    if callable(handler):
        handler(signum, frame)
