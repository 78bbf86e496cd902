"""Exceptions raised to *programmers* (bad kwargs, unknown task ids, missing extras).

Mistakes made by *agents* never raise: they come back as observations with ``info["error"]``.
"""

from __future__ import annotations


class ToolgymError(Exception):
    """Base class of every exception toolgym raises on purpose."""


class TaskNotFoundError(ToolgymError, KeyError):
    """A task id that is not in the environment's task set."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable.
        return str(self.args[0]) if self.args else ""


class TaskFileError(ToolgymError, ValueError):
    """A task file that cannot be read or whose gold program does not execute."""


class TaskFileWarning(UserWarning):
    """A line of a task file that cannot be played as written.

    Its gold does not run, its gold's answer is empty, or the line is not a task. The message names
    the file, the line and why.
    """


class DependencyNotInstalled(ToolgymError, ImportError):
    """An optional dependency is missing; the message names the pip command."""


class InfrastructureError(ToolgymError):
    """What an evaluation relies on failed, not the agent.

    A model server that cannot be reached or keeps failing after its retries, a model backend
    that crashed or cannot load.

    The runner stops on it and records nothing for the episodes in flight, so a resumed run plays
    them again.
    """


class UserInputError(ToolgymError, ValueError):
    """An input of the user's that cannot work.

    A missing file, a model that is not there, a task file for another env: the command line
    prints it as one line and exits with status 2.
    """


class RowError(UserInputError):
    """A dataset row (or a request's fields) that an integration cannot start an episode from.

    TRL's ``reset(**row)``, the verifiers harness and OpenEnv's ``reset`` raise it; the message
    names the row (its task id, else its fields), the field, what was expected and what came.

    Attributes:
        row: how the row is named in the message.
        field: the field that was wrong.
        expected: what the field must hold.
        got: what it held.
    """

    def __init__(self, row: str, field: str, expected: str, got: object) -> None:
        super().__init__(row, field, expected, got)  # args, so the error pickles
        self.row, self.field, self.expected, self.got = row, field, expected, got

    def __str__(self) -> str:
        try:
            shown = repr(self.got)
        except ValueError:  # an int past Python's digit limit for text
            shown = f"<an int of {self.got.bit_length()} bits>"  # type: ignore[attr-defined]
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        return (
            f"row {self.row}: {self.field!r} must be {self.expected}; "
            f"got {shown} ({type(self.got).__name__})"
        )
