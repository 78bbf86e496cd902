"""The warm sandbox process: it forks one confined child per program and relays for it.

Started by :class:`toolgym.tools.sandbox.Sandbox` as ``python -I -c <boot> <root> <adapter>
<memory_bytes>``. It imports what agent code may import and warms the adapter (once: every child
finds them ready), confines itself (:mod:`.confine`: resource limits, files readable only under
Python's own folders, a system-call filter), says ``{"ready": ..., "confinement": ...}`` and then
answers one JSON line per job line it reads from the parent:

* in: ``{"code", "state", "cpu_s", "wall_s", "output", "nonce"}``;
* out: ``{"state", "stdout", "error", "seconds", "nonce"}``, and while the program runs,
  ``{"nonce", "call"}`` lines that the parent answers with ``{"nonce", "answer", "error"}``.

Each job goes to a child forked ahead of time (:func:`spawn`; :data:`SPARE_CHILDREN` wait, so a
job sent right after another never waits for a fork), which confines itself further (no
processes, its own signals only) and talks to the zygote over two private pipes. The zygote
parses what the child sends, adds the nonce and passes it on; it kills the child after its answer,
or when the answer does not come in time, and reports ``timeout`` or ``resource_limit`` itself.
So a program cannot reach the parent's channel, cannot answer for another job, and leaves nothing
behind for the next program.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import io
import json
import os
import select
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from toolgym.tools.sandbox.worker import (
    _load,
    _on_alarm,
    _on_cpu,
    _warm_imports,
    run_job,
    serve_one,
)


def warm_up(adapter: Any) -> None:
    """Run a trivial program once (in a child, before its job: its pages are then its own)."""
    with contextlib.suppress(Exception):
        run_job({"code": "x = 1", "state": None, "output": 100}, adapter, limits=False)


MAX_CHILD_LINE = 16_000_000
"""The longest line a child may send (an answer or a host call)."""

MAX_CALL_CHARS = 1_000_000
"""The longest host call a child may send."""

SPARE_CHILDREN = 3
"""Children forked ahead of time, each waiting for one job."""

SPARES_AT_ONCE = 2
"""Below this many spare children, one is forked while a program runs (the zygote is otherwise
idle then, and on a second core the fork costs the program nothing); up to
:data:`SPARE_CHILDREN`, only once the parent is quiet (:data:`REFILL_IDLE_S`). Jobs sent back
to back then always find a child forked at least one job earlier, warmed up, and the fork (2 ms
for a warm process of 150 MB) never holds up a job's arrival or its answer's relay."""

GRACE_S = 0.5
"""How long past its wall-clock limit a child may take to report its own timeout."""


@dataclass
class Child:
    """A forked child waiting for its job: its pid and the zygote's ends of its pipes."""

    pid: int
    job_out: int
    answer_in: int
    buffer: bytes = b""


def spawn(adapter: Any, devnull: int, prepared: Any = None) -> Child:
    """Fork a child that confines itself, warms up and waits for one job.

    Args:
        adapter: the family's adapter (warm in this process).
        devnull: a descriptor on ``/dev/null`` (the child's stdin and stdout).
        prepared: the children's filter, built once (:func:`~.confine.child_filter`).
    """
    from toolgym.tools.sandbox.confine import confine_child

    job_in, job_out = os.pipe()
    answer_in, answer_out = os.pipe()
    gc.freeze()  # the objects already there are not scanned (and not copied) in the child
    try:
        pid = os.fork()
    except OSError:
        for fd in (job_in, job_out, answer_in, answer_out):
            os.close(fd)
        raise
    if pid == 0:  # the child: never returns
        try:
            gc.disable()  # a child lives for one program: its garbage goes with it
            os.close(job_out)
            os.close(answer_in)
            os.dup2(devnull, 0)  # the parent's channel is not the child's
            os.dup2(devnull, 1)
            _close_all_but(job_in, answer_out)
            confine_child(prepared)
            warm_up(adapter)  # touch what a program touches while no program waits
            serve_one(job_in, answer_out, adapter)
        finally:
            os._exit(0)
    os.close(job_in)
    os.close(answer_out)
    return Child(pid, job_out, answer_in)


def _close_all_but(*keep: int) -> None:
    """Close every descriptor above 2 except ``keep`` (a few ``close_range`` calls)."""
    start = 3
    for fd in sorted(set(keep)):
        if fd >= start:
            os.closerange(start, fd)
            start = fd + 1
    os.closerange(start, max(FD_CEILING, start))


FD_CEILING = 1024
"""Descriptors below this are closed in a new child. The zygote starts with 0, 1 and 2 only (its
parent closes the rest) and holds about ten; a higher bound would cost a kernel without
``close_range`` one ``close`` per number."""


def _read_line(child: Child, deadline: float) -> bytes | None:
    """The child's next line; ``None`` past the deadline, at its end, or past the size limit."""
    while b"\n" not in child.buffer:
        left = deadline - time.monotonic()
        if left <= 0 or len(child.buffer) > MAX_CHILD_LINE:
            return None
        ready, _, _ = select.select([child.answer_in], [], [], left)
        if not ready:
            return None
        chunk = os.read(child.answer_in, 1 << 20)
        if not chunk:
            return None
        child.buffer += chunk
    line, _, child.buffer = child.buffer.partition(b"\n")
    return line


def _write(fd: int, data: bytes, deadline: float) -> bool:
    """Write all of ``data`` before the deadline (``False``: the child is not reading)."""
    view = memoryview(data)
    while view:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        _, ready, _ = select.select([], [fd], [], left)
        if not ready:
            return False
        try:
            view = view[os.write(fd, view[: 1 << 16]) :]
        except OSError:
            return False
    return True


def _failure(category: str, message: str) -> dict[str, Any]:
    return {"state": None, "stdout": "", "error": {"category": category, "message": message}}


def _ended(child: Child) -> str:
    """Why a child stopped answering (it is killed and reaped here)."""
    with contextlib.suppress(OSError):
        os.kill(child.pid, signal.SIGKILL)
    try:
        _, status = os.waitpid(child.pid, 0)
    except ChildProcessError:
        return "was stopped"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number in (signal.SIGKILL, signal.SIGXCPU):
            return "was killed (it ran out of memory or CPU time)"
        return f"crashed ({signal.Signals(number).name})"
    return "ended without an answer"


class ParentLines:
    """The parent's lines on a descriptor, read unbuffered so that waiting for one can time out.

    Python's buffered ``sys.stdin`` may hold a whole line that ``select`` cannot see; this
    reader keeps its own buffer and looks at it first.
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = b""

    def ready(self, timeout: float) -> bool:
        """Whether a line has begun (or the input ended), or begins within ``timeout`` seconds."""
        if self.buffer:
            return True
        readable, _, _ = select.select([self.fd], [], [], timeout)
        return bool(readable)

    def readline(self) -> bytes | None:
        """The next line without its newline (a last line without one as it is); ``None`` at the end."""
        parts: list[bytes] = []
        while True:
            cut = self.buffer.find(b"\n")
            if cut >= 0:
                parts.append(self.buffer[:cut])
                self.buffer = self.buffer[cut + 1 :]
                return b"".join(parts)
            parts.append(self.buffer)
            self.buffer = os.read(self.fd, 1 << 20)
            if not self.buffer:
                return b"".join(parts) or None


PARENT = ParentLines(0)
"""The parent's channel in (its jobs and its answers to host calls)."""

REFILL_IDLE_S = 0.005
"""How long the parent must be quiet before a spare child is forked (see :data:`SPARES_AT_ONCE`).

A fork of the warm process and the new child's warm-up take a core for a few milliseconds; run
right after an answer, they compete with the parent reading it (on two cores the answer took
2.2 ms longer to arrive), so they wait until the parent is quiet: while it works on the answer,
or while its agent thinks."""


def serve(
    child: Child,
    job: dict[str, Any],
    channel: TextIO,
    while_running: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Run ``job`` in ``child``, relaying its host calls; its answer (never raises).

    ``while_running`` is called once the child has its job (the zygote's own work meanwhile).
    """
    nonce = job.get("nonce")
    wall = float(job.get("wall_s", 5.0))
    deadline = time.monotonic() + wall + GRACE_S
    task = {k: v for k, v in job.items() if k != "nonce"}
    if not _write(child.job_out, (json.dumps(task, ensure_ascii=True) + "\n").encode(), deadline):
        return _failure("runtime_error", f"the program's process {_ended(child)}")
    if while_running is not None:
        while_running()
    while True:
        line = _read_line(child, deadline)
        if line is None:
            if time.monotonic() >= deadline:
                _ended(child)
                return _failure("timeout", f"the program ran past its {wall:g} s and was stopped")
            return _failure("resource_limit", f"the program's process {_ended(child)}")
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            message = None
        if not isinstance(message, dict):
            _ended(child)
            return _failure("runtime_error", "the program broke its process's answer")
        if "call" not in message:
            return message
        if len(line) > MAX_CALL_CHARS:  # refused here: the parent never sees it
            answer = {"answer": None, "error": f"a host call is at most {MAX_CALL_CHARS:,} chars"}
        else:
            channel.write(json.dumps({"nonce": nonce, "call": message["call"]}) + "\n")
            channel.flush()
            answer = _parent_answer(nonce)
        if not _write(child.job_out, (json.dumps(answer) + "\n").encode(), deadline):
            _ended(child)
            return _failure("timeout", f"the program ran past its {wall:g} s and was stopped")


def _parent_answer(nonce: Any) -> dict[str, Any]:
    """The parent's answer to the current host call (other lines are skipped)."""
    while True:
        line = PARENT.readline()
        if line is None:
            return {"answer": None, "error": "the parent closed the channel"}
        try:
            reply = json.loads(line)
        except ValueError:
            continue
        if isinstance(reply, dict) and reply.get("nonce") == nonce and "answer" in reply:
            return {"answer": reply["answer"], "error": reply.get("error")}


def _reap() -> None:
    """Collect children that have exited (they are killed after their answers)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass


def top_up(ready: collections.deque[Child], fork: Callable[[], Child]) -> None:
    """Fork one more spare child while a program runs, if fewer than :data:`SPARES_AT_ONCE` wait.

    No child is reaped here (the running child's end is its job's to read), and a fork that
    fails is not the program's failure: it is skipped, and the zygote forks again once the
    answer is sent.
    """
    if len(ready) < SPARES_AT_ONCE:
        with contextlib.suppress(OSError):
            ready.append(fork())


def main(argv: list[str]) -> int:
    """Serve jobs on stdin/stdout until stdin closes."""
    from toolgym.tools.sandbox.confine import (
        child_filter,
        drop_capabilities,
        install_filter,
        limit_resources,
        restrict_files,
    )
    from toolgym.tools.sandbox.host_facts import mask_host_facts

    adapter_ref, memory = argv[0], int(argv[1])
    channel = sys.stdout
    sys.stdout = io.StringIO()  # stray writes never reach the channel
    adapter = _load(adapter_ref)
    _warm_imports()
    warm = getattr(adapter, "warm", None)
    if callable(warm):
        # a warm-up that fails costs speed, not the worker: programs then meet the failure
        # themselves, with its message, in their own answers
        with contextlib.suppress(Exception):
            warm()
    signal.signal(signal.SIGALRM, _on_alarm)  # inherited by every child
    signal.signal(signal.SIGXCPU, _on_cpu)
    limit_resources(memory)
    with contextlib.suppress(ImportError):
        import pyseccomp  # noqa: F401  (it looks for libc with tools no sandbox process may run)
    devnull = os.open(os.devnull, os.O_RDWR)
    problems = [p for p in (drop_capabilities(), restrict_files(), install_filter()) if p]
    mask_host_facts()  # what libraries read of the host, fixed for every program
    channel.write(json.dumps({"ready": True, "confinement": "; ".join(problems) or None}) + "\n")
    channel.flush()
    prepared = child_filter()
    # Children wait, warmed up: a job sent right after another finds one ready while the next
    # is forked.
    ready = collections.deque(spawn(adapter, devnull, prepared) for _ in range(SPARE_CHILDREN))

    def refill() -> None:
        _reap()
        ready.append(spawn(adapter, devnull, prepared))

    def refill_while_running() -> None:
        top_up(ready, lambda: spawn(adapter, devnull, prepared))

    while True:
        while len(ready) < SPARE_CHILDREN and (not ready or not PARENT.ready(REFILL_IDLE_S)):
            refill()  # ready for the next jobs
        line = PARENT.readline()
        if line is None:
            break
        try:
            job = json.loads(line)
        except ValueError:
            continue
        if not isinstance(job, dict) or "answer" in job:
            continue  # not a job (an answer to a host call that came too late)
        child = ready.popleft() if ready else spawn(adapter, devnull, prepared)
        started = time.perf_counter()
        try:
            out = serve(child, job, channel, refill_while_running)
        finally:
            with contextlib.suppress(OSError):
                os.kill(child.pid, signal.SIGKILL)
            for fd in (child.job_out, child.answer_in):
                with contextlib.suppress(OSError):
                    os.close(fd)
        out["seconds"] = time.perf_counter() - started
        out["nonce"] = job.get("nonce")
        channel.write(json.dumps(out, ensure_ascii=True) + "\n")
        channel.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
