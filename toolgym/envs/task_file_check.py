"""Which tasks of a user's task file an env can play: every gold run once, when the env is made.

A stored split's gold must run (its failure raises); a task file's task whose gold cannot be
played here is kept, marked and scored 0, and one some of whose gold alternatives fail is
played against the others. This module decides which is which and reports it.
"""

from __future__ import annotations

from collections.abc import Callable

from toolgym.benchmarks.tasks import Task, TaskId, TaskIssue, TaskSet, report_issue
from toolgym.envs.spec import FamilySpec
from toolgym.errors import TaskFileError
from toolgym.tools.backend import Attempt


def describe_error(error: BaseException, limit: int = 200) -> str:
    """``Type: message`` of an exception, cut to ``limit`` characters."""
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_task_file(
    tasks: TaskSet,
    task_file: str,
    check_gold: Callable[[Task], tuple[Attempt, ...]],
    env_id: str,
    family: FamilySpec,
    version: int,
) -> tuple[dict[TaskId, TaskIssue], dict[TaskId, TaskIssue]]:
    """The task file's tasks that cannot be played, and those played with alternatives dropped.

    Args:
        tasks: the file's tasks.
        task_file: its path, for the issues.
        check_gold: runs a task's gold alternatives from its start (the env's), raising
            :class:`~toolgym.errors.TaskFileError` when none runs.
        env_id: the env, for messages.
        family: its family (a newer version is suggested when tasks cannot be played).
        version: the env's version.

    Returns:
        ``(issues, notes)``: by task id, the tasks marked unplayable and the partial ones.

    Raises:
        TaskFileError: no task of the file can be played.
    """
    issues: dict[TaskId, TaskIssue] = {}
    notes: dict[TaskId, TaskIssue] = {}
    for task in tasks.values():
        line = int(task.task_id) + 1 if isinstance(task.task_id, int) else 0
        try:
            golds = check_gold(task)
        except TaskFileError as e:
            reason = str(e).splitlines()[0]
        except Exception as e:  # a family's failure on an unforeseen label: marked too
            reason = f"the gold of task {task.task_id!r} cannot be checked: {describe_error(e)}"
        else:
            failed = [k + 1 for k, a in enumerate(golds) if a.error is not None]
            if failed:
                first = golds[failed[0] - 1].error
                notes[task.task_id] = TaskIssue(
                    task_file,
                    line,
                    f"alternative(s) {failed} of {len(golds)} of the gold do not run "
                    f"({first}); the task is scored against the others",
                    task.task_id,
                    kind="partial",
                )
            continue
        issues[task.task_id] = TaskIssue(task_file, line, reason, task.task_id)
    if issues and len(issues) == len(tasks):
        first_issue = next(iter(issues.values()))
        raise TaskFileError(
            f"no task of {task_file} can be played in {env_id} "
            f"(line {first_issue.line}: {first_issue.reason})"
        )
    for issue in (*issues.values(), *notes.values()):
        report_issue(issue)
    newest = family.versions[-1].version
    if issues and version < newest:
        report_issue(
            TaskIssue(
                task_file,
                0,
                f"{len(issues)} of {len(tasks)} tasks cannot be played in "
                f"{env_id}; {family.env_id(newest)} may play them (a newer world)",
            )
        )
    return issues, notes
