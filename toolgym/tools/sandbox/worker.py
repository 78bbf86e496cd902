"""The sandbox worker: a persistent, confined process that runs agent programs.

Started by :class:`toolgym.tools.sandbox.Sandbox` as ``python -I -m toolgym.tools.sandbox.worker
<adapter> <memory_bytes>``. It imports what agent code may import (once: later programs find them
warm), confines itself (:mod:`.confine`), then says ``{"ready": ..., "confinement": ...}`` and
answers one JSON line per JSON line it reads:

* in: ``{"code": str, "state": <plain data>, "cpu_s": float, "wall_s": float, "output": int}``;
* out: ``{"state": <plain data> | null, "stdout": str, "error": {"category", "message"} | null}``.

While a program runs, it may ask the parent for something the worker does not hold (an HTTP
request to a simulated service that lives in the parent): :func:`host_call` writes
``{"nonce", "call": <plain data>}`` and reads the parent's ``{"nonce", "answer": <plain data>}``.
An answer that arrives after its program ended is skipped.

The adapter (``module:attribute``, chosen by the parent, never by agent code) turns the state into
the names the program sees and reads the new state back (:mod:`.adapters`). Time limits raise in
the program (CPU time through ``RLIMIT_CPU``'s ``SIGXCPU``, wall clock through ``SIGALRM``), so the
worker survives them; the parent kills a worker that does not answer in time and starts another.
"""

from __future__ import annotations

import importlib
import io
import json
import resource
import signal
import sys
import time
from typing import Any

MAX_STATE_CHARS = 8_000_000
"""The largest new state a program may leave (as JSON text)."""


class _Timeout(BaseException):
    """Raised into the program when its time is up.

    A ``BaseException``, so that ``except Exception`` in agent code does not swallow it.
    """


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Timeout("wall clock")


def _on_cpu(signum: int, frame: Any) -> None:
    raise _Timeout("CPU time")


class HostCallError(Exception):
    """The parent refused or failed a host call (the message says why)."""


_CHANNEL: dict[str, Any] = {}


def host_call(payload: Any) -> Any:
    """Ask the parent for something during a program, and wait for its answer.

    Raises:
        HostCallError: outside a job, or the parent answered with an error.
    """
    channel, nonce = _CHANNEL.get("out"), _CHANNEL.get("nonce")
    if channel is None or nonce is None:
        raise HostCallError("host calls are only possible while a program runs")
    channel.write(json.dumps({"nonce": nonce, "call": payload}, ensure_ascii=True) + "\n")
    channel.flush()
    while True:
        line = sys.stdin.readline()
        if not line:
            raise HostCallError("the parent closed the channel")
        try:
            reply = json.loads(line)
        except ValueError:
            continue
        if isinstance(reply, dict) and reply.get("nonce") == nonce and "answer" in reply:
            break
    if reply.get("error"):
        raise HostCallError(str(reply["error"]))
    return reply["answer"]


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


def run_job(job: dict[str, Any], adapter: Any) -> dict[str, Any]:
    """Run one program (see the module docstring); never raises."""
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
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu_now = used.ru_utime + used.ru_stime
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = int(cpu_now + float(job.get("cpu_s", 5.0))) + 1
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    signal.setitimer(signal.ITIMER_REAL, float(job.get("wall_s", 5.0)))
    try:
        exec(code, namespace)
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
    except Exception as e:
        out["error"] = {"category": "runtime_error", "message": f"{type(e).__name__}: {e}"}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, hard))
    collector = namespace.get("_print")
    if collector is not None and hasattr(collector, "parts"):
        out["stdout"] = "".join(collector.parts)
    return out


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


def _encode(out: dict[str, Any], nonce: Any) -> str:
    problem = plain_problem(out.get("state"))
    if problem is not None:
        out["state"] = None
        out["error"] = {
            "category": "resource_limit" if "more than" in problem else "runtime_error",
            "message": f"the program left a state that is not plain data: {problem}",
        }
    out["nonce"] = nonce
    try:
        text = json.dumps(out, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError, MemoryError) as e:
        out = {
            "state": None,
            "stdout": "",
            "error": {"category": "runtime_error", "message": f"the answer cannot be sent ({e})"},
            "nonce": nonce,
        }
        text = json.dumps(out)
    if len(text) > MAX_STATE_CHARS:
        out = {
            "state": None,
            "stdout": "",
            "error": {
                "category": "resource_limit",
                "message": f"the program left more than {MAX_STATE_CHARS:,} characters of state",
            },
            "nonce": nonce,
        }
        text = json.dumps(out)
    return text


def main(argv: list[str]) -> int:
    """Serve jobs on stdin/stdout until stdin closes."""
    from toolgym.tools.sandbox.confine import install_filter, limit_resources

    adapter_ref, memory = argv[0], int(argv[1])
    channel = sys.stdout
    _CHANNEL["out"] = channel
    sys.stdout = io.StringIO()  # stray writes never reach the channel
    adapter = _load(adapter_ref)
    _warm_imports()
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.signal(signal.SIGXCPU, _on_cpu)
    limit_resources(memory)
    problem = install_filter()
    channel.write(json.dumps({"ready": True, "confinement": problem}) + "\n")
    channel.flush()
    for line in sys.stdin:
        started = time.perf_counter()
        job: Any = None
        try:
            job = json.loads(line)
            if isinstance(job, dict) and "answer" in job:
                continue  # the answer to a host call of a program that has ended
            _CHANNEL["nonce"] = job.get("nonce") if isinstance(job, dict) else None
            out = run_job(job, adapter)
        except _Timeout:
            out = {"state": None, "stdout": "", "error": {"category": "timeout", "message": "late"}}
        except Exception as e:
            out = {
                "state": None,
                "stdout": "",
                "error": {"category": "runtime_error", "message": f"bad job: {e}"},
            }
        _CHANNEL["nonce"] = None
        out["seconds"] = time.perf_counter() - started
        nonce = job.get("nonce") if isinstance(job, dict) else None
        sys.stdout = io.StringIO()
        channel.write(_encode(out, nonce) + "\n")
        channel.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
