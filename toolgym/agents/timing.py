"""Where a run's time goes: named stopwatches a process adds to, read by ``toolgym bench``.

The model backend adds the time it spends reading prompts (``prefill``), stepping the model on
new tokens (``decode``) and choosing tokens (``choose``: grammar masks and sampling); the
episode loop adds ``env_step`` (the env's steps, scoring included). Each addition is one
``perf_counter`` pair, cheap beside what it times, and the stopwatches are off unless a bench
turns them on (:func:`recording`), so a run pays nothing for them.

>>> with recording() as clock:
...     with timed("env_step"):
...         pass
>>> sorted(clock.seconds), clock.calls["env_step"]
(['env_step'], 1)
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

PHASES = ("prefill", "decode", "choose", "env_step")
"""The phases the instrumented code reports, in the order tables show them."""


@dataclass
class Clock:
    """Seconds and calls per phase (see the module docstring)."""

    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    calls: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def add(self, phase: str, seconds: float) -> None:
        """Add ``seconds`` spent in ``phase``."""
        with _LOCK:
            self.seconds[phase] += seconds
            self.calls[phase] += 1


_LOCK = threading.Lock()
_ACTIVE: list[Clock] = []


@contextlib.contextmanager
def recording() -> Iterator[Clock]:
    """Turn the stopwatches on for the ``with`` block; the clock they add to."""
    clock = Clock()
    _ACTIVE.append(clock)
    try:
        yield clock
    finally:
        _ACTIVE.remove(clock)


@contextlib.contextmanager
def timed(phase: str) -> Iterator[None]:
    """Add the ``with`` block's time to ``phase`` of every clock recording (none: nothing)."""
    if not _ACTIVE:
        yield
        return
    started = time.perf_counter()
    try:
        yield
    finally:
        spent = time.perf_counter() - started
        for clock in list(_ACTIVE):
            clock.add(phase, spent)
