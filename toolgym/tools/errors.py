"""Error categories for agent mistakes, and the exception tools raise for them.

The categories follow the error analysis of the ToolBench paper (non-executable generation, wrong
API selection, wrong argument values) plus ``precondition`` for calls made out of order.
"""

from __future__ import annotations

NON_EXECUTABLE = "non_executable"
"""The action could not be run at all: not a program, a forbidden construct, a syntax error."""
WRONG_API = "wrong_api"
"""An unknown function, or (when the action ran) a different set of functions than the task needs."""
WRONG_ARGUMENTS = "wrong_arguments"
"""A known function with missing, extra or invalid arguments, or (when it ran) wrong values."""
PRECONDITION = "precondition"
"""A call made in the wrong order or before what it depends on (e.g. ``search()`` without a location)."""

CATEGORIES: tuple[str, ...] = (NON_EXECUTABLE, WRONG_API, WRONG_ARGUMENTS, PRECONDITION)


class ToolCallError(Exception):
    """An agent mistake found while parsing or running an action.

    Args:
        category: one of :data:`CATEGORIES`.
        message: what was expected and what came, written for the agent.
        line: the 1-based line of the action where it happened, when known.
    """

    def __init__(self, category: str, message: str, line: int | None = None) -> None:
        if category not in CATEGORIES:
            raise ValueError(f"category must be one of {CATEGORIES}; got {category!r}")
        super().__init__(message)
        self.category = category
        self.message = message
        self.line = line

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line is not None else ""
        return f"{self.message}{where}"

    def to_info(self) -> dict[str, str]:
        """The ``info["error"]`` dict of this error."""
        return {"category": self.category, "message": str(self)}
