"""The backend of families whose episode state is plain data that programs change in the sandbox.

A Sheets spreadsheet, a tabletop scene: the state is JSON-like data. Every program gets a copy in
the sandbox worker (:mod:`toolgym.tools.sandbox`), where the family's adapter turns it into the
names the program sees (a ready gspread client, robot primitives) and reads the new state back.
The environment's process never runs agent code; it keeps the state and computes the outcome that
is scored from it.

A step's wall clock is bounded: the sandbox stops the program at its limit (``wall_s``), and what
this process then does with the state (checking it, drawing the view, reading the outcome) runs
under a :func:`~toolgym.tools.deadline.deadline` of :data:`STEP_MARGIN_S` past that limit,
counted from the program's start. Work that checks it (a family's formula evaluation) is cut off
there and the step reports ``timeout``.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import time
from abc import abstractmethod
from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

import numpy as np

from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.deadline import DeadlineExceeded, deadline
from toolgym.tools.errors import RUNTIME_ERROR, TIMEOUT, ToolCallError
from toolgym.tools.faults import FAILING_KINDS, SERVICE_ERROR, Fault
from toolgym.tools.python_language import CodeRun, sandbox_error
from toolgym.tools.sandbox import HostRefusal, SandboxLimits, shared_sandbox

STEP_MARGIN_S = 1.5
"""How long past a program's wall-clock limit (counted from its start) a step may take: the
sandbox's own slack for a program to report its timeout (1 s) and stopping a worker that did
not, then the step's work on the result (checking the state, the view, the outcome), which is
cut off here (``timeout``)."""


class SandboxBackend(Backend):
    """An episode over plain-data state changed by sandboxed programs (see the module docstring).

    Subclasses set :attr:`adapter` and implement :meth:`initial_state` and :meth:`outcome`; they
    may override :meth:`view`.

    Args:
        limits: the sandbox limits of every program.
    """

    adapter: ClassVar[str]
    """Import path of the sandbox adapter (``module:attribute``) that runs in the worker."""
    handles_faults = True
    """Service faults are drawn here and applied in the worker: with a plan, the state sent
    carries ``"faults": true`` and the adapter asks before each request (see
    :func:`~toolgym.tools.sandbox.remote_http.consult_faults`)."""

    def __init__(self, limits: SandboxLimits | None = None) -> None:
        self.limits = limits or SandboxLimits()
        self.state: Any = None
        self.programs: list[str] = []
        self._setup_key: Hashable = None
        self._failed_by: Fault | None = None

    @abstractmethod
    def initial_state(self, setup: Mapping[str, Any] | None) -> Any:
        """The plain-data state an episode starts from (the task's setup, or the world's)."""

    @abstractmethod
    def outcome(self, state: Any) -> Any:
        """What is scored of ``state``."""

    def view(self, state: Any) -> str:
        """``state`` as the agent sees it after a program (default: nothing)."""
        return ""

    def state_problem(self, state: Any) -> str | None:
        """Why a state a program left cannot be kept (default: any plain data can).

        The program may have changed its copy of the world in any way the language allows, so
        a family checks what comes back against what its world can hold.
        """
        return None

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """The starting state of the task's setup; no program has run."""
        self.state = self.initial_state(setup)
        self.programs = []
        self._setup_key = json.dumps(setup, sort_keys=True, default=repr)

    def start_key(self) -> Hashable | None:
        """The setup: two episodes with the same setup start from the same state."""
        return ("sandbox", type(self).__qualname__, self._setup_key)

    def snapshot(self) -> dict[str, Any]:
        """A copy of the state and the programs run so far."""
        return {"state": copy.deepcopy(self.state), "programs": list(self.programs)}

    def restore(self, state: Any) -> None:
        """Return to a snapshot."""
        self.state = copy.deepcopy(state["state"])
        self.programs = list(state["programs"])

    def _draw_fault(self, payload: Any) -> dict[str, Any] | None:
        if self.faults is None or not isinstance(payload, dict):
            raise HostRefusal("this program may not ask for anything")
        fault = self.faults.draw(str(payload.get("fault", ""))[:200])
        if fault is not None and fault.kind in FAILING_KINDS:
            self._failed_by = fault
        return None if fault is None else dataclasses.asdict(fault)

    def run_code(self, code: str) -> CodeRun:
        """Run ``code`` in the sandbox on a copy of the state; keep the new state if it ran.

        A program that fails after a service fault failed one of its requests fails with
        ``service_error`` (trying again may succeed).
        """
        self._failed_by = None
        with deadline(self.step_deadline()):
            return self._run_code(code)

    def step_deadline(self) -> float:
        """When a step starting now must be done by, as a ``time.monotonic()`` time.

        The program's wall-clock limit and :data:`STEP_MARGIN_S`.
        """
        return time.monotonic() + self.limits.wall_s + STEP_MARGIN_S

    def _run_code(self, code: str) -> CodeRun:
        if self.faults is None:
            result = shared_sandbox(self.adapter, self.limits).run(code, self.state)
        else:
            state = {**self.state, "faults": True}
            result = shared_sandbox(self.adapter, self.limits).run(code, state, self._draw_fault)
        error = sandbox_error(result.error)
        if error is None:
            try:
                problem = self.state_problem(result.state)
            except DeadlineExceeded:
                problem = None
                error = _late("checking the state it left")
            if problem is not None:
                error = ToolCallError(
                    RUNTIME_ERROR, f"the program left a state that cannot be kept: {problem}"
                )
        if error is not None and self._failed_by is not None:
            fault = self._failed_by
            error = ToolCallError(
                SERVICE_ERROR, f"a request failed ({fault.kind} on {fault.call}): {error.message}"
            )
        if error is None:
            self.state = result.state
            self.programs.append(code)
        try:
            view = self.view(self.state)
        except DeadlineExceeded:
            view = "(the state is not shown: drawing it ran past the step's time limit)"
        except Exception as e:  # the same for the view
            view = f"(the state cannot be shown: {type(e).__name__})"
        return CodeRun(result.stdout, error, view)

    def attempt(self) -> Attempt:
        """The outcome of the state as it stands (a state it cannot be read from is an error)."""
        text = "\n".join(self.programs)
        try:
            with deadline(self.step_deadline()):  # within a program's step, its deadline holds
                outcome = self.outcome(self.state)
        except DeadlineExceeded:
            return Attempt(None, error=_late("reading what it left"), text=text, backend=self)
        except Exception as e:  # what a program left, read by the family's code: never raises
            error = ToolCallError(
                RUNTIME_ERROR, f"what the program left cannot be read back ({type(e).__name__})"
            )
            return Attempt(None, error=error, text=text, backend=self)
        return Attempt(outcome, text=text, backend=self)


def _late(what: str) -> ToolCallError:
    return ToolCallError(
        TIMEOUT,
        f"the step ran past its time limit while {what} (the program's limit and "
        f"{STEP_MARGIN_S:g} s); the work was cut off",
    )


def program_limits(timeout_s: Any, memory_mb: Any, max_output_chars: Any) -> SandboxLimits:
    """The sandbox limits of a family's ``timeout_s``, ``memory_mb`` and ``max_output_chars``.

    Raises:
        ValueError: an option out of range (the message names it and its range).
    """
    if not isinstance(timeout_s, int | float) or not 0 < timeout_s <= 60:
        raise ValueError(f"timeout_s must be a number of seconds in (0, 60]; got {timeout_s!r}")
    if not isinstance(memory_mb, int) or not 64 <= memory_mb <= 8192:
        raise ValueError(f"memory_mb must be an int from 64 to 8192; got {memory_mb!r}")
    if not isinstance(max_output_chars, int) or max_output_chars < 1:
        raise ValueError(f"max_output_chars must be at least 1; got {max_output_chars!r}")
    return SandboxLimits(cpu_s=float(timeout_s), wall_s=float(timeout_s), memory_mb=memory_mb)
