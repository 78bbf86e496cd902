"""The sandbox: agent-written Python run in a confined, persistent worker process.

Agent text is untrusted, and general Python needs more than a language guard (a whitelisted
library's internals reach ``os``), so the sandbox defends in depth:

1. **the language** (:mod:`.policy`): RestrictedPython's compilation rules, imports from a
   whitelist that return module proxies, guarded attribute access and writes, capped output;
2. **the process** (:mod:`.worker`, :mod:`.confine`): a separate, warm worker with an address-space
   limit, no new processes, a seccomp filter against programs, processes, sockets and file writes,
   and per-program CPU and wall-clock limits;
3. **the parent** (:class:`Sandbox`): plain-data state in and out as JSON (never pickles), a
   wall-clock deadline after which the worker is killed, and a transparent restart.

A program's failures come back as :class:`SandboxResult` errors with a category (``forbidden``,
``timeout``, ``resource_limit``, ``non_executable``, ``runtime_error``); nothing it does raises
in the parent, and the next program runs in a working worker.

Example:
    >>> with Sandbox() as box:
    ...     result = box.run("state['n'] += 1\\nprint('done')", {"n": 1})
    >>> result.state, result.stdout, result.error
    ({'n': 2}, 'done\\n', None)
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolgym.tools.errors import FORBIDDEN

MAX_REPLY_CHARS = 16_000_000
"""The longest answer line read from a worker."""

MAX_HOST_CALLS = 256
"""The most host calls (requests to services in the parent) one program may make."""

MAX_HOST_CALL_CHARS = 1_000_000
"""The longest host call a worker may send (as JSON text)."""

MAX_HOST_TOTAL_CHARS = 8_000_000
"""The most host-call text one program may send in all."""

HostHandler = Callable[[Any], Any]
"""Answers a program's host call (plain data in, plain data out); raising ``HostRefusal``
refuses it with a message the program sees."""


class HostRefusal(Exception):
    """A host handler's refusal of a call; the program gets the message as an error."""


class SandboxWarning(UserWarning):
    """The sandbox runs with less confinement than it would like (said once per process)."""


@dataclass(frozen=True)
class SandboxLimits:
    """What one program may use.

    Attributes:
        cpu_s: CPU seconds.
        wall_s: wall-clock seconds (the worker is killed and replaced one second after).
        memory_mb: memory beyond what the warm worker holds.
        output_chars: characters of printed output.
    """

    cpu_s: float = 5.0
    wall_s: float = 5.0
    memory_mb: int = 512
    output_chars: int = 20_000


@dataclass
class SandboxResult:
    """What a program did.

    Attributes:
        state: the new state (plain data), or ``None`` when the program failed.
        stdout: what it printed (up to the output limit).
        error: ``{"category", "message"}`` when it failed, else ``None``.
        seconds: wall-clock seconds of the round trip.
        restarted: whether the worker had to be started (or restarted) for it.
    """

    state: Any
    stdout: str = ""
    error: dict[str, str] | None = None
    seconds: float = 0.0
    restarted: bool = False


_WARNED: set[str] = set()
_WARN_LOCK = threading.Lock()


def _warn_once(message: str) -> None:
    with _WARN_LOCK:
        if message in _WARNED:
            return
        _WARNED.add(message)
    warnings.warn(message, SandboxWarning, stacklevel=3)


class Sandbox:
    """A persistent worker process that runs agent programs (see the module docstring).

    Args:
        adapter: import path (``module:attribute``) of the adapter that builds the program's names
            from the state and reads it back (:mod:`.adapters`).
        limits: the limits of every program.

    Raises:
        ValueError: a malformed adapter path.
    """

    def __init__(
        self,
        adapter: str = "toolgym.tools.sandbox.adapters:plain",
        limits: SandboxLimits | None = None,
    ) -> None:
        module, sep, attr = adapter.partition(":")
        if not sep or not module or not attr:
            raise ValueError(
                f"an adapter path looks like 'package.module:attribute'; got {adapter!r}"
            )
        self.adapter = adapter
        self.limits = limits or SandboxLimits()
        self.confinement: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._pid = os.getpid()
        self._buffer = b""
        self._lock = threading.Lock()
        self._host_calls = 0

    # -- the worker --------------------------------------------------------------------------------
    def _start(self) -> None:
        # A minimal environment: nothing of the parent's (keys, tokens) reaches agent code.
        env = {
            "PATH": "/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONHASHSEED": "0",  # the same set order in every run
        }
        boot = (
            "import sys; sys.path.insert(0, sys.argv.pop(1)); "
            "from toolgym.tools.sandbox.zygote import main; sys.exit(main(sys.argv[1:]))"
        )
        command = [
            sys.executable,
            "-I",  # no environment variables, user site or current folder on the path
            "-c",
            boot,
            _package_root(),
            self.adapter,
            str(self.limits.memory_mb * 1024 * 1024),
        ]
        self._pid = os.getpid()
        self._process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd="/",
        )
        self._buffer = b""
        hello = self._read_line(60.0)
        if hello is None:
            code = None if self._process is None else self._process.poll()
            self._kill()
            if code is not None:
                raise RuntimeError(
                    f"the sandbox worker exited with status {code} while it started (adapter "
                    f"{self.adapter!r}: it could not be loaded or its process could not be set up)"
                )
            raise RuntimeError("the sandbox worker did not start (no answer within 60 s)")
        info = json.loads(hello)
        self.confinement = info.get("confinement")
        if self.confinement:
            _warn_once(
                f"the sandbox runs without its system-call filter: {self.confinement}. Still "
                "enforced: the restricted language, whitelisted imports behind proxies, the "
                "memory and process limits and the time limits"
            )

    def _kill(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        try:
            process.kill()
            process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def _read_line(self, timeout: float) -> str | None:
        """One answer line, or ``None`` past the deadline, at the end, or past the size limit."""
        process = self._process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or len(self._buffer) > MAX_REPLY_CHARS:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def _send(self, message: str) -> None:
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.write(message.encode() + b"\n")
        self._process.stdin.flush()

    def _exchange(self, nonce: str, deadline: float, handler: HostHandler | None) -> str | None:
        """Answer the program's host calls until its reply line (``None`` past the deadline).

        Host-call lines start with the nonce (replies put it last). Every one is answered, so
        the sandbox never waits for an answer that does not come: one too large, or past the
        program's budget of calls or bytes, is answered with a refusal.
        """
        calls = size = 0
        while True:
            line = self._read_line(max(0.0, deadline - time.monotonic()))
            if line is None or not line.startswith('{"nonce"'):
                return line
            try:
                message = json.loads(line)
            except (ValueError, RecursionError):
                message = None
            if not (isinstance(message, dict) and message.get("nonce") == nonce):
                return line  # not a host call: the caller decides what it is
            if "call" not in message:
                return line
            calls += 1
            size += len(line)
            self._host_calls = calls
            if len(line) > MAX_HOST_CALL_CHARS or size > MAX_HOST_TOTAL_CHARS:
                answer = {
                    "answer": None,
                    "error": f"host calls are limited to {MAX_HOST_CALL_CHARS:,} characters each "
                    f"and {MAX_HOST_TOTAL_CHARS:,} in all",
                }
            else:
                answer = _host_answer(message, handler, calls)
            try:
                text = json.dumps({"nonce": nonce, **answer}, ensure_ascii=True)
            except (TypeError, ValueError):
                text = json.dumps({"nonce": nonce, "answer": None, "error": "unanswerable"})
            self._send(text)

    def close(self) -> None:
        """Stop the worker (a later :meth:`run` starts a new one)."""
        with self._lock:
            self._kill()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self._kill()

    # -- programs ---------------------------------------------------------------------------------
    def run(
        self, code: str, state: Any = None, handler: HostHandler | None = None
    ) -> SandboxResult:
        """Run ``code`` on a copy of ``state`` and return the new state, its output and its error.

        Args:
            code: the agent's program.
            state: plain data the adapter turns into the program's names.
            handler: answers the program's host calls (requests to a service that lives in this
                process); without one, every host call is refused. At most
                :data:`MAX_HOST_CALLS` per program; the wall-clock limit covers them.

        Raises:
            TypeError: ``code`` is not a string, or ``state`` is not plain data (a programmer's
                mistake: agent code never reaches here).
        """
        if not isinstance(code, str):
            raise TypeError(f"a program is a string; got {type(code).__name__}")
        limits = self.limits
        nonce = os.urandom(8).hex()
        job = json.dumps(
            {
                "code": code,
                "state": state,
                "cpu_s": limits.cpu_s,
                "wall_s": limits.wall_s,
                "output": limits.output_chars,
                "nonce": nonce,
            },
            ensure_ascii=True,
        )
        started = time.perf_counter()
        with self._lock:
            restarted = False
            if self._pid != os.getpid():  # a forked copy: the worker belongs to the parent
                self._process, self._buffer = None, b""
            if self._process is None or self._process.poll() is not None:
                self._kill()
                self._start()
                restarted = True
            assert self._process is not None and self._process.stdin is not None
            deadline = time.monotonic() + limits.wall_s + 1.0
            self._host_calls = 0
            try:
                self._send(job)
                line = self._exchange(nonce, deadline, handler)
            except (BrokenPipeError, OSError, ValueError):
                line = None
            reply = _decode(line, nonce)
            if reply is None:
                try:
                    died = self._process.wait(timeout=0.2) is not None
                except subprocess.TimeoutExpired:
                    died = False
                if line is not None and not died:  # an answer that is not one: start afresh
                    self._kill()
                    error = {
                        "category": "runtime_error",
                        "message": "the program broke the worker's answer; the worker was replaced",
                    }
                    return SandboxResult(None, "", error, time.perf_counter() - started, restarted)
                self._kill()
                error = (
                    {"category": "resource_limit", "message": "the program's worker was killed "
                     "(it ran out of memory or was stopped by the system)"}
                    if died
                    else {"category": "timeout", "message": f"the program ran past its "
                          f"{limits.wall_s:g} s and was stopped"}
                )  # fmt: skip
                return SandboxResult(None, "", error, time.perf_counter() - started, restarted)
        new_state: Any = reply.get("state")
        failure: dict[str, str] | None = reply.get("error")
        if self._host_calls > MAX_HOST_CALLS and failure is None:  # the program caught the refusal
            new_state = None
            failure = {
                "category": "resource_limit",
                "message": f"the program made more than {MAX_HOST_CALLS} host calls",
            }
        return SandboxResult(
            new_state,
            str(reply.get("stdout", "")),
            failure,
            time.perf_counter() - started,
            restarted,
        )


_SHARED: dict[tuple[str, SandboxLimits], Sandbox] = {}
_SHARED_LOCK = threading.Lock()


def shared_sandbox(adapter: str, limits: SandboxLimits | None = None) -> Sandbox:
    """The process's sandbox for ``adapter`` and ``limits`` (one warm worker, shared by envs).

    Every program gets its own copy of its state, so sharing a worker shares nothing between
    episodes; the sandbox's lock runs one program at a time.
    """
    key = (adapter, limits or SandboxLimits())
    with _SHARED_LOCK:
        box = _SHARED.get(key)
        if box is None:
            box = _SHARED[key] = Sandbox(adapter, key[1])
        return box


def _host_answer(message: Any, handler: HostHandler | None, calls: int) -> dict[str, Any]:
    """The answer to one host call (never raises: refusals and failures are answers)."""
    if handler is None:
        return {"answer": None, "error": "this sandbox offers no host calls"}
    if calls > MAX_HOST_CALLS:
        return {"answer": None, "error": f"more than {MAX_HOST_CALLS} host calls in one program"}
    try:
        return {"answer": handler(message.get("call")), "error": None}
    except HostRefusal as e:
        return {"answer": None, "error": str(e) or "refused"}
    except Exception as e:  # a failure of the parent's service: the program sees it, we go on
        return {"answer": None, "error": f"the host call failed ({type(e).__name__})"}


def _decode(line: str | None, nonce: str) -> dict[str, Any] | None:
    """The worker's answer to the job with ``nonce``, or ``None`` if the line is not one."""
    if line is None:
        return None
    try:
        reply = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if not isinstance(reply, dict) or reply.get("nonce") != nonce:
        return None
    error = reply.get("error")
    if error is not None and not (
        isinstance(error, dict) and isinstance(error.get("category"), str)
    ):
        return None
    return reply


def _package_root() -> str:
    """The folder that holds the ``toolgym`` package (the worker imports it from there)."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))


__all__ = [
    "FORBIDDEN",
    "MAX_HOST_CALLS",
    "HostRefusal",
    "Sandbox",
    "SandboxLimits",
    "SandboxResult",
    "SandboxWarning",
    "shared_sandbox",
]
