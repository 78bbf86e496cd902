"""The single-turn backend: one entry's functions, and the answer once it is read.

Nothing runs: BFCL scores a single-turn answer by what it says. The backend keeps the entry's
category, language and function docs (the task's setup), the answer's text and the calls read
from it (``None`` while it is not calls), and what stopped it being read. Each call of an answer
is still sent to the simulated service once, so that service faults
(:class:`toolgym.wrappers.FaultInjection`) reach the family's calls like any other's.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from toolgym.errors import TaskFileError
from toolgym.families.bfcl import prompt
from toolgym.families.bfcl.answers import Call, read_answer
from toolgym.families.bfcl.tools import BfclTool, tool_set
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import Budgets, short_repr
from toolgym.tools.errors import ToolCallError
from toolgym.tools.tool import ToolSet

SETUP_KEYS = frozenset({"category", "language", "functions", "messages"})
"""What a single-turn task's setup holds."""


def check_setup(setup: Mapping[str, Any]) -> None:
    """Refuse a setup that is not a single-turn entry's.

    Raises:
        TaskFileError: unknown keys, or functions that are not a list of docs with names.
    """
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise TaskFileError(
            f"a BFCL setup holds {', '.join(sorted(SETUP_KEYS))}; got {sorted(unknown)}"
        )
    functions = setup.get("functions")
    if not isinstance(functions, list) or not all(
        isinstance(f, dict) and isinstance(f.get("name"), str) for f in functions
    ):
        raise TaskFileError(
            f"a BFCL setup's 'functions' is a list of function docs; got {short_repr(functions, 80)}"
        )


class SingleTurnBackend(Backend):
    """One single-turn episode (see the module docstring).

    Args:
        reply_format: how replies are read (:data:`.answers.REPLY_FORMATS`).
    """

    handles_faults = True

    def __init__(self, reply_format: str = "any") -> None:
        self.reply_format = reply_format
        self.category = "simple_python"
        self.language = "python"
        self.functions: list[dict[str, Any]] = []
        self.messages: list[dict[str, Any]] = []
        self.text = ""
        self.calls: list[Call] | None = None
        self.error: ToolCallError | None = None

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """Offer the entry's functions (``setup``); no answer yet.

        Raises:
            TaskFileError: a setup that is not a BFCL entry's.
        """
        setup = setup or {}
        if setup:
            check_setup(setup)
        self.category = str(setup.get("category", "simple_python"))
        self.language = str(setup.get("language", "python"))
        self.functions = list(setup.get("functions", ()))
        self.messages = list(setup.get("messages", ()))
        self.text, self.calls, self.error = "", None, None

    @property
    def tools(self) -> ToolSet:
        """The entry's functions as the model sees them."""
        return tool_set(self.functions, self.language)

    def start_key(self) -> Hashable:
        """The entry's category and functions (every episode starts from them alone)."""
        return (self.category, repr(self.functions))

    def opening(self, instruction: str) -> str:
        """The user's request (the entry's system message is in :meth:`system_prompt`)."""
        return instruction

    def system_prompt(self) -> str | None:
        """BFCL's system prompt for a prompt-mode model, over the entry's functions."""
        docs = [tool.doc for tool in self.tools if isinstance(tool, BfclTool) and tool.doc]
        return prompt.system_prompt(docs, self.system_message())

    def system_message(self) -> str | None:
        """The entry's own system message (what a function-calling model gets), if any."""
        own = [m.get("content") for m in self.messages if m.get("role") == "system"]
        return str(own[0]) if own else None

    def snapshot(self) -> dict[str, Any]:
        """The entry and the answer so far."""
        return {
            "category": self.category,
            "language": self.language,
            "functions": self.functions,
            "messages": self.messages,
            "text": self.text,
            "calls": self.calls,
            "error": self.error,
        }

    def restore(self, state: Any) -> None:
        """Back to a :meth:`snapshot`."""
        self.category = state["category"]
        self.language = state["language"]
        self.functions = list(state["functions"])
        self.messages = list(state["messages"])
        self.text = state["text"]
        self.calls = None if state["calls"] is None else list(state["calls"])
        self.error = state["error"]

    def read(self, text: str, budgets: Budgets) -> list[Call]:
        """The calls of ``text`` (nothing is kept).

        Raises:
            ToolCallError: the text is not calls (``non_executable``), or past the budgets.
        """
        return read_answer(text, budgets, self.language, self.reply_format)

    def offered(self, name: str) -> str | None:
        """The offered function ``name`` stands for (``a_b`` for ``a.b`` too), else ``None``."""
        names = [f["name"] for f in self.functions]
        if name in names:
            return name
        dotted = [n for n in names if n.replace(".", "_") == name]
        return dotted[0] if len(dotted) == 1 else None

    def send(self, calls: Sequence[Call]) -> None:
        """Send each call to the simulated service once (nothing runs; faults may fail it).

        Raises:
            ToolCallError: a call a service fault failed (``service_error``).
        """
        if self.faults is None:
            return
        for call in calls:
            name = next(iter(call), "?")
            self.faults.around_call(name[:80], lambda: None)

    def answer(self, text: str, calls: list[Call] | None, error: ToolCallError | None) -> None:
        """Keep a whole answer: its text, the calls read from it and what stopped it."""
        self.text, self.calls, self.error = text, calls, error

    def add(self, text: str, calls: list[Call]) -> None:
        """Add the calls of one step to the answer (``call`` mode)."""
        self.text = f"{self.text}\n{text}" if self.text else text
        self.calls = [*(self.calls or ()), *calls]

    def attempt(self) -> Attempt:
        """The calls read (``None`` when the answer is not calls), their names and the text."""
        names = tuple(next(iter(c)) for c in self.calls or () if c)
        return Attempt(self.calls, names, self.error, self.text, self)
