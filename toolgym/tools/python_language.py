"""The sandboxed-Python action language: agent programs run in the sandbox worker.

An action is a Python program (gspread and pandas code, ``requests`` calls, robot primitives). It
never runs in the environment's process: the backend sends it to a confined worker
(:mod:`toolgym.tools.sandbox`) with a copy of the episode's state, or with a channel to the
simulated services that live in the environment's process, and keeps what comes back.

* ``program`` mode: the program runs whole and the episode ends; a program that raises, is
  refused or runs out of a limit scores as a program that does not run.
* ``call`` mode: each step is one code cell that sees the state the earlier cells left; a cell that
  fails changes nothing, and ``finish`` ends the episode.

A backend that runs code implements :class:`CodeBackend`. A family whose gold labels are written in
another language (the REST families' curl lines) passes that language as ``gold_language``: golds
run in it, and :meth:`PythonLanguage.gold_action` turns a gold into the program the oracle plays.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from toolgym.tools.api_program import python_literal
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import RESOURCE_LIMIT
from toolgym.tools.deadline import deadline
from toolgym.tools.errors import (
    FORBIDDEN,
    NON_EXECUTABLE,
    PRECONDITION,
    RUNTIME_ERROR,
    TIMEOUT,
    WRONG_ARGUMENTS,
    ToolCallError,
)
from toolgym.tools.language import ActionLanguage, AgentHints, Execution
from toolgym.tools.tool import Tool, ToolSet

MAX_OUTPUT_CHARS = 4000
"""How much of a program's printed output an observation shows by default."""

_FENCE = re.compile(r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)


@dataclass(frozen=True)
class CodeRun:
    """What one program or code cell did.

    Attributes:
        stdout: what it printed (already cut to the sandbox's output budget).
        error: why it failed (``forbidden``, ``timeout``, ``resource_limit``, ...), if it did.
        view: the state it left, as the agent sees it (a table; empty when there is none).
    """

    stdout: str = ""
    error: ToolCallError | None = None
    view: str = ""


@runtime_checkable
class CodeBackend(Protocol):
    """A backend that runs agent programs in the sandbox."""

    def run_code(self, code: str) -> CodeRun:
        """Run ``code`` on the episode's state; a failed program leaves the state as it was."""
        ...  # pragma: no cover

    def attempt(self) -> Attempt:
        """The attempt as it stands."""
        ...  # pragma: no cover


class PythonLanguage(ActionLanguage):
    """Agent programs in sandboxed Python (see the module docstring).

    Args:
        gold_language: the language the family's gold labels are written in, when it is not
            Python (the curl lines of the REST families).
        to_program: turns such a gold into the Python program that does the same (for the oracle
            and for demonstrations).
        max_output_chars: how much printed output an observation shows.
    """

    name = "python"
    may_block = True
    step_description = "one Python code cell"
    demo_label = "Actions:"
    finish_word = "finish"

    def __init__(
        self,
        gold_language: ActionLanguage | None = None,
        to_program: Callable[[str], str] | None = None,
        max_output_chars: int = MAX_OUTPUT_CHARS,
    ) -> None:
        if (gold_language is None) != (to_program is None):
            raise ValueError("gold_language and to_program are given together, or not at all")
        self.gold_language = gold_language
        self.to_program = to_program
        self.max_output_chars = max_output_chars

    def _observe(self, run: CodeRun) -> str:
        parts = []
        out = run.stdout
        if len(out) > self.max_output_chars:
            out = out[: self.max_output_chars] + f"...[{len(run.stdout)} chars]"
        if out.strip():
            parts.append(out.rstrip("\n"))
        if run.error is not None:
            parts.append(run.error.observation())
        if run.view:
            parts.append(run.view)
        return "\n".join(parts) if parts else "(no output)"

    def run_program(self, text: str, backend: Backend) -> Execution:
        """Run the whole program; the episode ends and the state it left is scored."""
        code_backend = _code_backend(backend)
        step_deadline = getattr(code_backend, "step_deadline", None)
        with deadline(step_deadline() if step_deadline is not None else None):
            run = code_backend.run_code(text)  # one bound for the program and its outcome
            attempt = code_backend.attempt() if run.error is None else None
        if attempt is None:
            attempt = Attempt(None, error=run.error, text=text, backend=backend)
        elif attempt.error is not None and attempt.error.category == TIMEOUT:
            # it ran, but what it left could not be read in the step's time: say so
            run = CodeRun(run.stdout, attempt.error, run.view)
        return Execution(self._observe(run), run.error, finished=True, attempt=attempt)

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Run one code cell; a cell that fails leaves the state as it was."""
        code_backend = _code_backend(backend)
        before = backend.snapshot()
        run = code_backend.run_code(text)
        if run.error is not None:
            backend.restore(before)
        return Execution(self._observe(run), run.error)

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Run a gold program (or a gold in the family's own language)."""
        if self.gold_language is not None:
            return self.gold_language.run_gold(gold, backend)
        code_backend = _code_backend(backend)
        run = code_backend.run_code(gold)
        if run.error is not None:
            raise run.error
        return code_backend.attempt()

    def gold_action(self, gold: str) -> str:
        """The program the oracle plays for ``gold``."""
        return gold if self.to_program is None else self.to_program(gold)

    def gold_steps(self, gold: str) -> list[str]:
        """The gold program as one code cell, then ``finish``."""
        return [self.gold_action(gold), "finish"]

    def api_calls(self, action: str, tools: ToolSet) -> list[str]:
        """The tools a program calls (see :meth:`ActionLanguage.api_calls`).

        A gold in the family's own language (a curl line) is read by that language.
        """
        if self.gold_language is not None:
            found = self.gold_language.api_calls(action, tools)
            if found:
                return found
        return super().api_calls(action, tools)

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """A program that calls ``tool`` (a ``requests`` call for an endpoint)."""
        route = getattr(tool, "route", None)
        if route is not None and self.to_program is not None:
            return self.to_program(route.to_curl(tool, arguments))
        args = ", ".join(f"{k}={python_literal(v)}" for k, v in arguments.items())
        return f"{tool.qualname}({args})"

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """The program: the first fenced code block if there is one, else the whole text.

        >>> PythonLanguage.extract("Here:\\n```python\\nx = 1\\n```\\nDone.", AgentHints("python"))
        'x = 1'
        """
        fenced = _FENCE.search(generation)
        text = fenced.group(1) if fenced else generation
        if extraction == "lenient" and not fenced:
            # stop at the first line that starts a new example ("Task: ...")
            text = re.split(r"(?m)^\s*Task:", text, maxsplit=1)[0]
        return text.strip("\n").rstrip()


def _code_backend(backend: Backend) -> CodeBackend:
    if not isinstance(backend, CodeBackend):
        raise TypeError(
            f"the python language runs on a backend with run_code(); got {type(backend).__name__}"
        )
    return backend


def refused(message: str) -> CodeRun:
    """The run of a program that was refused before it ran."""
    return CodeRun(error=ToolCallError(NON_EXECUTABLE, message))


def sandbox_error(error: Mapping[str, Any] | None) -> ToolCallError | None:
    """A sandbox result's ``{"category", "message"}`` as the error an observation shows."""
    if error is None:
        return None
    category = str(error.get("category", RUNTIME_ERROR))
    message = str(error.get("message", ""))
    if category not in _SANDBOX_CATEGORIES:  # a category the worker should not send
        return ToolCallError(RUNTIME_ERROR, f"{category}: {message}")
    return ToolCallError(category, message)


_SANDBOX_CATEGORIES = frozenset(
    {
        FORBIDDEN,
        TIMEOUT,
        RESOURCE_LIMIT,
        NON_EXECUTABLE,
        RUNTIME_ERROR,
        WRONG_ARGUMENTS,
        PRECONDITION,
    }
)
