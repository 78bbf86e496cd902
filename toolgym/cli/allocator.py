"""The memory allocator of a session server's process: ``--allocator system|python``.

A server that opens and abandons thousands of sessions (``toolgym mcp --transport http``,
``toolgym serve-env``) frees their objects when they are reclaimed, but CPython's own small-object
allocator keeps a 1 MiB arena as long as one object in it lives, and the few objects that outlive
a burst (the spare envs, the SDK's and the event loop's bookkeeping) are spread over the arenas
the burst took: the process stays at its high-water mark. Under the C library's allocator a live
object holds its page, not its arena, and ``malloc_trim`` hands the rest back (measured by
``scripts/bench_server_memory.py``; see ``docs/results.md``).

The allocator is chosen when the interpreter starts (``PYTHONMALLOC``), so :func:`use_allocator`
starts the command again, once, in place of the running process (same process id, interpreter
options, arguments and standard streams) with the variable set (on POSIX systems only); the new process then removes it from its environment, so
the processes it starts (sandbox workers) keep Python's default.
"""

from __future__ import annotations

import argparse
import os
import sys

ALLOCATORS = ("system", "python")
"""``system``: the C library's ``malloc`` (``PYTHONMALLOC=malloc``); ``python``: CPython's own."""

DEFAULT_ALLOCATOR = "system"
"""The session servers' allocator by default."""

_MARK = "TOOLGYM_ALLOCATOR_SET"
"""Set in the started-again process; its value is the ``PYTHONMALLOC`` to restore (or empty)."""


def use_allocator(choice: str, argv: list[str]) -> None:
    """Run this command under ``choice``'s allocator, starting it again if it is not.

    It starts again only when the process was started from the command line with ``argv``
    (``sys.argv[1:]``, ``--debug`` aside): a program that called :func:`toolgym.cli.main` itself
    keeps its allocator. A ``PYTHONMALLOC`` set by the user wins over ``choice``.

    Raises:
        ValueError: ``choice`` is not one of :data:`ALLOCATORS`.
    """
    if choice not in ALLOCATORS:
        raise ValueError(f"allocator is one of {', '.join(ALLOCATORS)}; got {choice!r}")
    mark = os.environ.pop(_MARK, None)
    if mark is not None:  # started again: the children get the environment of before
        if mark:
            os.environ["PYTHONMALLOC"] = mark
        else:
            os.environ.pop("PYTHONMALLOC", None)
        return
    if choice == "python" or "PYTHONMALLOC" in os.environ or os.name != "posix":
        return
    if [a for a in sys.argv[1:] if a != "--debug"] != argv:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    env = {**os.environ, "PYTHONMALLOC": "malloc", _MARK: ""}
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)


def add_allocator_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """Add ``--allocator`` to a session server's command (``what``: when it applies)."""
    parser.add_argument(
        "--allocator",
        choices=ALLOCATORS,
        default=DEFAULT_ALLOCATOR,
        help=f"{what}the process's memory allocator: system (default: the C library's, which "
        "hands the memory of a burst of abandoned sessions back once they are reclaimed) or "
        "python (CPython's own, which keeps its high-water mark); a PYTHONMALLOC you set wins",
    )


__all__ = ["ALLOCATORS", "DEFAULT_ALLOCATOR", "add_allocator_argument", "use_allocator"]
