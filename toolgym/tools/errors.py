"""Error categories of agent mistakes (one open, documented set) and the exception tools raise.

Every mistake an agent makes comes back as ``info["error"] = {"category", "message"}``. The
categories start with the error analysis of the ToolBench paper (non-executable generation, wrong
API selection, wrong argument values), plus ``precondition`` for calls made out of order, and grow
with the families: a module that needs a new kind of mistake registers it once with
:func:`register_category`, and reports count it from then on.

>>> [c in CATEGORIES for c in ("non_executable", "wrong_api", "precondition")]
[True, True, True]
>>> ToolCallError(WRONG_API, "unknown function 'x'").to_info()
{'category': 'wrong_api', 'message': "unknown function 'x'"}
"""

from __future__ import annotations

import re

CATEGORIES: dict[str, str] = {}
"""Every registered category and what it means, in registration order."""

UNSCORED_CATEGORIES: set[str] = set()
"""The categories of failures that are not the agent's (a simulated user that could not answer):
an episode in which one happens is not scored for the agent (see :func:`is_unscored`)."""

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def register_category(name: str, description: str, *, unscored: bool = False) -> str:
    """Add an error category to :data:`CATEGORIES` (idempotent) and return its name.

    Args:
        name: the category, snake_case.
        description: what it means.
        unscored: whether it is a failure that is not the agent's, after which the episode is
            not scored for the agent (:data:`UNSCORED_CATEGORIES`).

    Raises:
        ValueError: ``name`` is not snake_case, or it is registered with another description.
    """
    if not _NAME.match(name):
        raise ValueError(f"an error category is a snake_case name; got {name!r}")
    known = CATEGORIES.get(name)
    if known is not None and known != description:
        raise ValueError(f"error category {name!r} is registered already as {known!r}")
    CATEGORIES[name] = description
    if unscored:
        UNSCORED_CATEGORIES.add(name)
    return name


def is_unscored(error: object) -> bool:
    """Whether ``error`` (an ``info["error"]`` dict or a category) leaves its episode unscored.

    >>> is_unscored({"category": "wrong_api", "message": "..."}), is_unscored(None)
    (False, False)
    """
    category = error.get("category") if isinstance(error, dict) else error
    return isinstance(category, str) and category in UNSCORED_CATEGORIES


NON_EXECUTABLE = register_category(
    "non_executable",
    "The action could not be run at all: not a program, a forbidden construct, a syntax error.",
)
WRONG_API = register_category(
    "wrong_api",
    "An unknown function or endpoint, or (when the action ran) other functions than the task needs.",
)
WRONG_ARGUMENTS = register_category(
    "wrong_arguments",
    "A known function with missing, extra or invalid arguments, or (when it ran) wrong values.",
)
PRECONDITION = register_category(
    "precondition",
    "A call made in the wrong order or before what it depends on (search() without a location).",
)
TIMEOUT = register_category(
    "timeout",
    "The step budget ran out before the episode ended, or an action ran past its time limit.",
)
RUNTIME_ERROR = register_category(
    "runtime_error",
    "The action started but failed while it ran (an exception raised inside executed code).",
)
AGENT_ERROR = register_category(
    "agent_error",
    "The agent produced no action: an exception in the agent or its model backend.",
)
TRUNCATED_GENERATION = register_category(
    "truncated_generation",
    "The model's generation reached its token limit before the action was complete, and the cut "
    "action failed (the error it gave is kept as the cause).",
)

INVALID_TASK = register_category(
    "invalid_task",
    "The task (from a task file) cannot be scored here: its gold does not run, or its answer is "
    "empty. Not the agent's mistake; the task is kept so that it can be seen.",
)

FORBIDDEN = register_category(
    "forbidden",
    "The program tried something the sandbox does not allow: an import outside the whitelist, a "
    "private attribute, a file write, a process, a socket.",
)

GOAL_NOT_MET = register_category(
    "goal_not_met",
    "The actions ran, but what the task asked for is not the case in the end (its end conditions "
    "do not hold, or nothing was bought).",
)

REPORTED_CATEGORIES: tuple[str, ...] = (NON_EXECUTABLE, WRONG_API, WRONG_ARGUMENTS, PRECONDITION)
"""The categories the summary tables show as columns; every other one is counted as other_errors."""


class ToolCallError(Exception):
    """An agent mistake found while parsing or running an action.

    Args:
        category: a registered category (see :data:`CATEGORIES`).
        message: what was expected and what came, written for the agent.
        line: the 1-based line of the action where it happened, when known.

    Raises:
        ValueError: ``category`` is not registered (a programming error).
    """

    def __init__(self, category: str, message: str, line: int | None = None) -> None:
        if category not in CATEGORIES:
            raise ValueError(
                f"category must be a registered error category ({', '.join(CATEGORIES)}); "
                f"got {category!r}"
            )
        super().__init__(message)
        self.category = category
        self.message = message
        self.line = line

    def __str__(self) -> str:
        where = f" (line {self.line})" if self.line is not None else ""
        return f"{self.message}{where}"

    def __reduce__(self) -> tuple[type[ToolCallError], tuple[str, str, int | None]]:
        return (type(self), (self.category, self.message, self.line))

    def to_info(self) -> dict[str, str]:
        """The ``info["error"]`` dict of this error."""
        return {"category": self.category, "message": str(self)}

    def observation(self) -> str:
        """The observation an agent gets for this error: ``Error (<category>): <message>``."""
        return f"Error ({self.category}): {self}"
