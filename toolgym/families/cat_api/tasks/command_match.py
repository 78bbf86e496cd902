"""The original's rule for deleting a favourite: the command is compared as text, not executed.

A ``compare_string_only`` task succeeds when the agent's request line, normalised as the original
evaluator normalises it, equals a gold line. A request sent by a ``requests`` program (the
``python`` action language) has no curl line: its method and URL are compared with the gold's. The checker also reports ``state_success``: whether
the favourite the gold deletes is really gone from the agent's service afterwards, so a correct
request written differently can be told apart from a wrong one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.families.cat_api.toolkit import CatApiToolkit
from toolgym.families.cat_api.world import CatApiApp
from toolgym.tools.backend import Attempt
from toolgym.tools.curl import parse_curl
from toolgym.tools.errors import WRONG_ARGUMENTS, ToolCallError


def normalize_command(text: str) -> str:
    r"""The original's normalisation of a prediction compared as a string.

    >>> normalize_command("  curl  -X\tDELETE 'u'\n\n")
    "curl -X DELETE 'u'"
    """
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r"\n+", "\n", text)
    return text.strip(" \n")


def _method_url(line: str) -> str:
    try:
        command = parse_curl(line)
    except ToolCallError:
        return ""
    return f"{command.method} {command.url}"


def _request_key(text: str) -> str:
    """``METHOD URL`` with the key placeholder in one spelling (``requests`` quotes braces)."""
    return (
        text.strip()
        .replace("%7BAPI_KEY%7D", "{API_KEY}")
        .replace(CatApiToolkit.api_key, "{API_KEY}")
    )


class CommandMatch(Checker):
    """Success when the request line equals a gold line (see the module docstring)."""

    runs_gold = False

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Compare the request text; report the state check beside it."""
        if attempt.text.lstrip().startswith("curl") or not attempt.text:
            match = normalize_command(attempt.text) in task.gold
        else:
            match = _request_key(attempt.text) in {_request_key(_method_url(g)) for g in task.gold}
        value = 1.0 if match else 0.0
        state = (
            None
            if attempt.backend is None
            else CatApiToolkit.favourite_gone(attempt.backend, task.gold[0])
        )
        metrics = {
            "precision": value,
            "recall": value,
            "f1": value,
            "closest_label": 0,
            "state_success": state,
        }
        executable = attempt.error is None and attempt.outcome is not None
        error = None
        if not match:
            error = (
                attempt.error.to_info()
                if attempt.error is not None
                else {
                    "category": WRONG_ARGUMENTS,
                    "message": "the command differs from the expected one",
                }
            )
        return Score(value, match, executable, metrics, error, None)

    def validate(self, task: Task, golds: Sequence[Attempt]) -> None:
        """Each gold must be a well-formed request to the service (it is not run)."""
        for line in task.gold:
            try:
                parse_curl(line.replace("{API_KEY}", CatApiToolkit.api_key), CatApiApp.hosts)
            except ToolCallError as e:
                raise TaskFileError(
                    f"the gold request of task {task.task_id!r} is not a valid request: {e}\n{line}"
                ) from None
