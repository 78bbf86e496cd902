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
