"""The sandbox worker: one agent program, run in its own confined process.

Each program runs in a fresh child of the warm sandbox process (:mod:`.zygote`), forked before the
program arrives, so that imports are done once and nothing one program does (a changed library
setting, a hijacked descriptor, a thread left running) reaches the next. The child talks only to
the zygote, over two private pipes; it never sees the parent's channel or its nonces:

* in: one line ``{"code": str, "state": <plain data>, "cpu_s": float, "wall_s": float,
  "output": int}``;
* out: one line ``{"state": <plain data> | null, "stdout": str, "error": {"category",
  "message"} | null}``.

While the program runs it may ask the parent for what the worker does not hold (an HTTP request to
a simulated service that lives in the parent): :func:`host_call` writes ``{"call": <plain data>}``
and reads ``{"answer": <plain data>, "error": ...}``, which the zygote relays.

The adapter (``module:attribute``, chosen by the parent, never by agent code) turns the state into
the names the program sees and reads the new state back (:mod:`.adapters`). Time limits raise in
the program (CPU time through ``RLIMIT_CPU``'s ``SIGXCPU``, wall clock through ``SIGALRM``); a
program that outlives them is killed by the zygote.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import signal
import time
from typing import Any

MAX_STATE_CHARS = 8_000_000
"""The largest new state a program may leave (as JSON text)."""


class _Timeout(BaseException):
    """Raised into the program when its time is up.

    A ``BaseException``, so that ``except Exception`` in agent code does not swallow it.
    """


_RAN_OUT: list[str] = []
"""The limits the running program ran out of (a program that catches the exception that says
so still fails: the worker checks this after the program)."""

RETRY_S = 0.05
"""After the first, the time-limit exception is raised again this often, so a program that
catches it cannot go on for long."""


_RUNNING = [False]
"""Whether the program (not the worker's own code around it) is running."""


def _ran_out(limit: str) -> None:
    _RAN_OUT.append(limit)
    if _RUNNING[0]:
        signal.setitimer(signal.ITIMER_REAL, RETRY_S)
        raise _Timeout(limit)


def _on_alarm(signum: int, frame: Any) -> None:
    _ran_out("wall clock")


def _on_cpu(signum: int, frame: Any) -> None:
    _ran_out("CPU time")


def _run_program(code: Any, namespace: dict[str, Any]) -> None:
    _RUNNING[0] = True
    try:
        # The one place agent text runs: compiled by RestrictedPython (policy.compile_program),
        # with the guarded names only, in this confined child that dies after its answer.
        exec(code, namespace)
    finally:
        _RUNNING[0] = False


class HostCallError(Exception):
    """The parent refused or failed a host call (the message says why)."""


_CHANNEL: dict[str, Any] = {}


def host_call(payload: Any) -> Any:
    """Ask the parent for something during a program, and wait for its answer.

    Raises:
        HostCallError: outside a program, or the parent refused or failed the call.
    """
    out, answers = _CHANNEL.get("out"), _CHANNEL.get("in")
    if out is None or answers is None:
        raise HostCallError("host calls are only possible while a program runs")
    out.write(json.dumps({"call": payload}, ensure_ascii=True) + "\n")
    out.flush()
    line = answers.readline()
    if not line:
        raise HostCallError("the channel closed")
    reply = json.loads(line)
    if reply.get("error"):
        raise HostCallError(str(reply["error"]))
    return reply.get("answer")


def _load(ref: str) -> Any:
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


def _warm_imports() -> None:
    from toolgym.tools.sandbox.policy import ALLOWED_MODULES

    for name in ALLOWED_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            continue


def run_job(job: dict[str, Any], adapter: Any, limits: bool = True) -> dict[str, Any]:
    """Run one program (see the module docstring); never raises.

    Args:
        job: the program and its state and limits.
        adapter: builds the program's names and reads its state back.
        limits: whether to set the job's CPU and wall-clock limits (off for a warm-up run,
            whose limits would otherwise stay for the real job).
    """
    from toolgym.tools.errors import ToolCallError
    from toolgym.tools.sandbox.policy import (
        Forbidden,
        OutputLimit,
        compile_program,
        make_printer,
        restricted_globals,
    )

    printer = make_printer(int(job.get("output", 20_000)))
    out: dict[str, Any] = {"state": None, "stdout": "", "error": None}
    try:
        source = str(job["code"])
        source.encode("utf-8")
        code = compile_program(source)
    except UnicodeEncodeError:
        out["error"] = {
            "category": "non_executable",
            "message": "the program holds text that is not valid Unicode (a lone surrogate)",
        }
        return out
    except SyntaxError as e:
        out["error"] = {"category": "non_executable", "message": str(e)}
        return out
    names = adapter.setup(job.get("state"))
    namespace = restricted_globals(printer, names)
    if limits:
        used = resource.getrusage(resource.RUSAGE_SELF)
        cpu_now = used.ru_utime + used.ru_stime
        soft = int(cpu_now + float(job.get("cpu_s", 5.0))) + 1
        # SIGXCPU at the soft limit raises in the program; past the hard one the kernel kills it
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 1))
        signal.setitimer(signal.ITIMER_REAL, float(job.get("wall_s", 5.0)))
    _RAN_OUT.clear()
    try:
        _run_program(code, namespace)
        if _RAN_OUT:  # the program caught the time limit's exception and went on
            raise _Timeout(_RAN_OUT[0])
        out["state"] = adapter.collect(namespace)
    except _Timeout as e:
        out["error"] = {"category": "timeout", "message": f"the program ran out of {e}"}
    except OutputLimit as e:
        out["error"] = {"category": "resource_limit", "message": str(e)}
    except MemoryError:
        out["error"] = {"category": "resource_limit", "message": "the program ran out of memory"}
    except RecursionError:
        out["error"] = {"category": "resource_limit", "message": "the program recursed too deep"}
    except Forbidden as e:
        out["error"] = {"category": "forbidden", "message": str(e)}
    except PermissionError as e:
        out["error"] = {
            "category": "forbidden",
            "message": f"the system refused an operation ({e.strerror or e})",
        }
    except ToolCallError as e:  # a family's primitive refused its arguments or its moment
        category = e.category if e.category in PROGRAM_CATEGORIES else "runtime_error"
        out["error"] = {"category": category, "message": f"{e.message}{_where(e)}"}
    except Exception as e:
        out["error"] = {
            "category": "runtime_error",
            "message": f"{type(e).__name__}: {e}{_where(e)}",
        }
    except BaseException as e:  # SystemExit, KeyboardInterrupt, a program's own class
        out["error"] = {
            "category": "runtime_error",
            "message": f"{type(e).__name__} stopped the program: {e}{_where(e)}",
        }
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if _RAN_OUT and (out["error"] is None or out["error"]["category"] != "timeout"):
        out["state"] = None
        out["error"] = {"category": "timeout", "message": f"the program ran out of {_RAN_OUT[0]}"}
    out["stdout"] = "".join(printer.parts)  # every scope's prints (functions' too)
    return out


PROGRAM_CATEGORIES = frozenset({"wrong_arguments", "precondition", "runtime_error"})
"""The categories a family's primitives may raise into a program (as a ``ToolCallError``)."""


def _where(error: BaseException) -> str:
    """`` (line N)``: the program's line the error came from, when it came from the program."""
    line = None
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == "<agent>":
            line = trace.tb_lineno
        trace = trace.tb_next
    return "" if line is None else f" (line {line})"


MAX_STATE_ITEMS = 1_000_000
MAX_STATE_DEPTH = 64
_SCALARS = (str, int, float, bool, type(None))


def plain_problem(value: Any) -> str | None:
    """Why ``value`` is not plain data (exact dicts with string keys, lists, scalars), or None.

    Exact types only: a subclass could run code while it is read. Bounded in depth and size.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > MAX_STATE_ITEMS:
            return f"more than {MAX_STATE_ITEMS:,} values"
        if depth > MAX_STATE_DEPTH:
            return f"nested deeper than {MAX_STATE_DEPTH}"
        kind = type(item)
        if kind in _SCALARS:
            if kind is float and (item != item or item in (float("inf"), float("-inf"))):
                return "a NaN or infinite number"
            continue
        if kind is list or kind is tuple:
            stack.extend((x, depth + 1) for x in item)
        elif kind is dict:
            for key, x in item.items():
                if type(key) is not str:
                    return f"a key of type {type(key).__name__} (keys are strings)"
                stack.append((x, depth + 1))
        else:
            return f"a value of type {kind.__name__}"
    return None


def encode(out: dict[str, Any]) -> str:
    """A program's answer as one JSON line: plain data only, bounded in size."""
    problem = plain_problem(out.get("state"))
    if problem is not None:
        out["state"] = None
        out["error"] = {
            "category": "resource_limit" if "more than" in problem else "runtime_error",
            "message": f"the program left a state that is not plain data: {problem}",
        }
    try:
        text = json.dumps(out, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError, MemoryError) as e:
        text = json.dumps(
            {
                "state": None,
                "stdout": "",
                "error": {
                    "category": "runtime_error",
                    "message": f"the answer cannot be sent ({e})",
                },
            }
        )
    if len(text) > MAX_STATE_CHARS:
        text = json.dumps(
            {
                "state": None,
                "stdout": "",
                "error": {
                    "category": "resource_limit",
                    "message": f"the program left more than {MAX_STATE_CHARS:,} characters of state",
                },
            }
        )
    return text


def serve_one(job_in: int, answer_out: int, adapter: Any) -> None:
    """In a fresh child: read one job, run it, write its answer (then the child exits)."""
    import random

    answers = os.fdopen(job_in, "r", encoding="utf-8")
    out = os.fdopen(answer_out, "w", encoding="utf-8")
    line = answers.readline()
    if not line:
        return
    _CHANNEL["in"], _CHANNEL["out"] = answers, out
    started = time.perf_counter()
    try:
        job = json.loads(line)
        random.seed(0)  # programs that draw numbers draw the same ones every time
        try:
            import numpy

            numpy.random.seed(0)
        except ImportError:
            pass
        result = run_job(job, adapter)
    except _Timeout:
        result = {"state": None, "stdout": "", "error": {"category": "timeout", "message": "late"}}
    except Exception as e:
        result = {
            "state": None,
            "stdout": "",
            "error": {"category": "runtime_error", "message": f"bad job: {type(e).__name__}: {e}"},
        }
    result["seconds"] = time.perf_counter() - started
    out.write(encode(result) + "\n")
    out.flush()
