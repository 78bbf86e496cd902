"""BFCL's Java and JavaScript value converters, run so that no value can stall a step.

BFCL reads a Java or JavaScript value's source text with regular expressions, some of which
backtrack without bound on text made to defeat them (a ``HashMap`` of 100 spaces takes 0.55 s,
one of 15,000 more than two minutes; an unclosed JavaScript array of 64 characters 0.36 s, a
longer one far more). A value the agent wrote is short
enough to convert at once (:data:`AT_ONCE_CHARS`), or it is converted in a forked child process
that is killed past :data:`TIME_LIMIT_S`; the child hands back the converter's result, or the
exception it raised, unchanged. Python's regular expressions cannot be interrupted in this
process, hence the child.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from typing import Any

from toolgym.tools.deadline import seconds_left

AT_ONCE_CHARS = 32
"""Values this short convert in microseconds whatever they hold."""
TIME_LIMIT_S = 1.0
"""How long a longer value may take to convert (and all of one verdict's, :data:`VERDICT_S`)."""
VERDICT_S = 3.0
"""How long the conversions of one answer may take together."""


class TooSlowToConvert(Exception):
    """A value took longer than :data:`TIME_LIMIT_S` to convert (its converter backtracks)."""


def convert_bounded(
    convert: Callable[..., Any], value: str, *types: Any, at_once: int = AT_ONCE_CHARS
) -> Any:
    """``convert(value, *types)``, stopped past :data:`TIME_LIMIT_S`.

    Args:
        convert: what reads the value (its result and exceptions must pickle).
        value: the text it reads.
        types: its other arguments.
        at_once: a value of at most this many characters is read here, with no child.

    Raises:
        TooSlowToConvert: the conversion did not end in time.
        Exception: what the converter raised.
    """
    if len(value) <= at_once or not hasattr(os, "fork"):
        return convert(value, *types)
    limit = TIME_LIMIT_S
    left = seconds_left()  # a verdict's values share its deadline
    if left is not None:
        limit = min(limit, left)
        if limit <= 0:
            raise TooSlowToConvert("the answer's values took too long to convert")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: convert, hand the outcome back, and leave at once
        os.close(read)
        try:
            try:
                outcome: tuple[str, Any] = ("value", convert(value, *types))
            except Exception as e:
                outcome = ("raised", e)
            try:
                data = pickle.dumps(outcome)
            except Exception as e:
                data = pickle.dumps(("raised", TypeError(f"unpicklable outcome: {e}")))
            with os.fdopen(write, "wb") as out:
                out.write(data)
        finally:
            os._exit(0)
    os.close(write)
    chunks: list[bytes] = []
    ends = time.monotonic() + limit
    try:
        while True:
            left = ends - time.monotonic()
            if left <= 0 or not select.select([read], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                raise TooSlowToConvert(f"the value took over {limit:g} s to convert")
            chunk = os.read(read, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    kind, result = pickle.loads(b"".join(chunks))
    if kind == "raised":
        raise result
    return result
