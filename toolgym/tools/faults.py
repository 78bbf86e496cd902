"""Service faults: tool calls that fail the way real services do, at a seeded rate.

A :class:`FaultPlan` decides, call by call, whether the simulated service misbehaves and how:

==============  ==================================================================================
``rate_limit``  HTTP 429 with a ``Retry-After`` header; the call has no effect.
``server_error``  HTTP 500, 502, 503 or 504; the call has no effect.
``timeout``     no answer at all (curl's error 28; ``TimeoutError`` for API programs).
``truncated``   the answer is cut short (a dropped connection).
``malformed``   the answer is an HTML error page from a proxy instead of the service's JSON.
``slow``        the right answer, late: the delay is reported (and slept with ``real_delays``).
==============  ==================================================================================

Backends consult their plan (``Backend.faults``) at each tool call: REST backends through
:meth:`FaultPlan.around_request`, API programs through :meth:`FaultPlan.around_call`. The agent
sees the failure (an HTTP status, a broken body, an error in the observation) and may retry; a
fault the episode ends on is scored like any failure, with the ``service_error`` category. The
plan is reseeded for every episode (:meth:`FaultPlan.reseed`), so an episode's faults depend on
the seed and the task only. The environment's gold labels never see faults.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgym.simulators.http import Request, Response
from toolgym.simulators.seeding import stable_rng
from toolgym.tools.errors import ToolCallError, register_category

SERVICE_ERROR = register_category(
    "service_error",
    "The simulated service failed the call as real ones do (injected faults: 429, 5xx, "
    "timeouts, broken bodies); trying again may succeed.",
)

FAULT_KINDS: tuple[str, ...] = (
    "rate_limit",
    "server_error",
    "timeout",
    "truncated",
    "malformed",
    "slow",
)
"""Every kind of fault, in the order they are documented."""

FAILING_KINDS = frozenset({"rate_limit", "server_error", "timeout"})
"""Faults that stop the call before the service runs it."""

SERVER_STATUSES = (500, 502, 503, 504)
TIMEOUT_S = 10
"""The client timeout a ``timeout`` fault reports."""

_REASONS = {
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


@dataclass(frozen=True, slots=True)
class Fault:
    """One injected fault.

    Attributes:
        kind: one of :data:`FAULT_KINDS`.
        call: the call it hit (``GET /data/2.5/weather``, ``API.search``).
        status: the HTTP status of ``rate_limit`` and ``server_error`` faults.
        retry_after: the seconds a ``rate_limit`` fault asks the client to wait.
        delay_s: the extra latency of a ``slow`` fault.
        keep: the fraction of the answer a ``truncated`` fault keeps.
    """

    kind: str
    call: str
    status: int | None = None
    retry_after: int | None = None
    delay_s: float = 0.0
    keep: float = 1.0

    def to_info(self) -> dict[str, Any]:
        """The fault as ``info["faults"]`` lists it."""
        out: dict[str, Any] = {"kind": self.kind, "call": self.call}
        if self.status is not None:
            out["status"] = self.status
        if self.retry_after is not None:
            out["retry_after"] = self.retry_after
        if self.kind == "slow":
            out["delay_s"] = round(self.delay_s, 3)
        return out

    def error_response(self) -> Response:
        """The answer of a ``rate_limit`` or ``server_error`` fault."""
        status = self.status or 503
        payload: dict[str, Any] = {"status": status, "message": _REASONS.get(status, "Error")}
        if self.retry_after is not None:
            payload["retry_after"] = self.retry_after
        response = Response.json_body(status, payload)
        if self.retry_after is not None:
            response.headers["Retry-After"] = str(self.retry_after)
        return response

    def corrupt(self, response: Response) -> Response:
        """The service's real answer as a ``truncated`` or ``malformed`` fault delivers it."""
        if self.kind == "truncated":
            keep = max(0, min(len(response.body) - 1, int(len(response.body) * self.keep)))
            return Response(response.status, dict(response.headers), response.body[:keep])
        if self.kind == "malformed":
            page = (
                "<html><head><title>502 Bad Gateway</title></head>"
                "<body><center><h1>502 Bad Gateway</h1></center><hr></body></html>"
            )
            return Response.text_body(200, page, "text/html")
        return response

    def corrupt_text(self, text: str) -> str:
        """A text result as a ``truncated`` or ``malformed`` fault delivers it."""
        if self.kind == "truncated":
            return text[: max(0, min(len(text) - 1, int(len(text) * self.keep)))]
        if self.kind == "malformed":
            return "<html><body><h1>502 Bad Gateway</h1></body></html>"
        return text

    def program_error(self) -> ToolCallError:
        """The error a failing fault raises out of an API-program call."""
        if self.kind == "timeout":
            message = f"TimeoutError: {self.call}() got no answer within {TIMEOUT_S} s"
        else:
            status = self.status or 503
            message = f"the service answered HTTP {status} {_REASONS.get(status, 'Error')}"
            if self.retry_after is not None:
                message += f" (retry after {self.retry_after} s)"
            message = f"{self.call}(): {message}"
        return ToolCallError(SERVICE_ERROR, message + "; the call had no effect, try it again")

    def curl_error(self) -> ToolCallError:
        """The error of a ``timeout`` fault on a curl request."""
        return ToolCallError(
            SERVICE_ERROR,
            f"curl: (28) Operation timed out after {TIMEOUT_S * 1000} milliseconds "
            "with 0 bytes received",
        )


class FaultPlan:
    """Seeded decisions of which tool calls fail, and how (see the module docstring).

    Args:
        rate: the probability that a call meets a fault, from 0 to 1.
        kinds: the kinds to draw from (uniformly); default every kind.
        seed: the base seed; :meth:`reseed` derives each episode's generator from it.
        slow_s: the range of a ``slow`` fault's delay in seconds.
        real_delays: sleep through ``slow`` delays (off: they are only reported).

    Raises:
        ValueError: a rate outside [0, 1], an unknown kind, or an empty or inverted delay range.
    """

    def __init__(
        self,
        rate: float,
        kinds: Sequence[str] = FAULT_KINDS,
        *,
        seed: int = 0,
        slow_s: tuple[float, float] = (1.0, 8.0),
        real_delays: bool = False,
    ) -> None:
        if not isinstance(rate, int | float) or not 0.0 <= float(rate) <= 1.0:
            raise ValueError(f"rate must be a probability from 0 to 1; got {rate!r}")
        unknown = [k for k in kinds if k not in FAULT_KINDS]
        if unknown or not kinds:
            raise ValueError(
                f"kinds must be a non-empty subset of {', '.join(FAULT_KINDS)}; got {list(kinds)!r}"
            )
        if not 0.0 <= slow_s[0] <= slow_s[1]:
            raise ValueError(
                f"slow_s must be a range (low, high) with 0 <= low <= high; got {slow_s}"
            )
        self.rate = float(rate)
        self.kinds = tuple(dict.fromkeys(kinds))
        self.seed = seed
        self.slow_s = slow_s
        self.real_delays = real_delays
        self.rng: np.random.Generator = stable_rng("faults", seed)
        self.events: list[Fault] = []

    def reseed(self, *parts: object) -> None:
        """Start an episode: a generator from the base seed and ``parts`` (the task), no events."""
        self.rng = stable_rng("faults", self.seed, *parts)
        self.events = []

    def take_events(self) -> list[Fault]:
        """The faults injected since the last call (for the step's ``info``)."""
        events, self.events = self.events, []
        return events

    def draw(self, call: str) -> Fault | None:
        """Whether ``call`` meets a fault, and which.

        Every call draws the same number of values, so one call's fault never shifts the next's.
        """
        hit, pick, status, retry, delay, keep = self.rng.random(6)
        if hit >= self.rate:
            return None
        kind = self.kinds[int(pick * len(self.kinds))]
        fault = Fault(kind, call)
        if kind == "rate_limit":
            fault = Fault(kind, call, status=429, retry_after=1 + int(retry * 5))
        elif kind == "server_error":
            fault = Fault(kind, call, status=SERVER_STATUSES[int(status * len(SERVER_STATUSES))])
        elif kind == "slow":
            low, high = self.slow_s
            fault = Fault(kind, call, delay_s=low + (high - low) * float(delay))
        elif kind == "truncated":
            fault = Fault(kind, call, keep=0.1 + 0.8 * float(keep))
        self.events.append(fault)
        if kind == "slow" and self.real_delays:
            time.sleep(fault.delay_s)
        return fault

    def around_request(
        self, request: Request, handle: Callable[[Request], Response]
    ) -> tuple[Response, Fault | None]:
        """Send ``request`` through ``handle`` unless a fault intervenes; the answer and the fault.

        Raises:
            ToolCallError: a ``timeout`` fault (``service_error``, curl's error 28).
        """
        fault = self.draw(f"{request.method} {request.path}")
        if fault is None or fault.kind == "slow":
            return handle(request), fault
        if fault.kind == "timeout":
            raise fault.curl_error()
        if fault.kind in FAILING_KINDS:
            return fault.error_response(), fault
        return fault.corrupt(handle(request)), fault

    def around_call(self, name: str, call: Callable[[], Any]) -> Any:
        """Run an API-program call unless a fault intervenes; its (possibly corrupted) result.

        Only a text result can come back truncated or malformed: such a fault on a call whose
        result is not text leaves it untouched (and is not reported).

        Raises:
            ToolCallError: a failing fault (``service_error``); the call did not run.
        """
        fault = self.draw(name)
        if fault is None or fault.kind == "slow":
            return call()
        if fault.kind in FAILING_KINDS:
            raise fault.program_error()
        result = call()
        if isinstance(result, str):
            return fault.corrupt_text(result)
        self.events.remove(fault)  # nothing textual to corrupt: the call went through untouched
        return result
