"""Tasks, task sets and the loader for the original benchmark's task files.

A task carries what the user asks (its instruction), the tools it exposes, its gold (the actions
the oracle plays, which also produce the reference outcome) and the checker that scores an
attempt against that gold.

A task file holds one JSON object per line in the original format,
``{"prompt": str, "completion": [program, ...]}``; any other keys are kept in ``Task.meta``, an
optional ``"tools"`` list names the tools the task exposes, and an optional ``"setup"`` object is
the task's own starting state. Tasks read from a user's file are
addressed by their 0-based line number; toolgym's own generated sets (in each family's
``data/`` folder) carry an ``"id"`` such as ``"test-017"``.

Task files load whatever their contents: a line that is not a task is skipped and reported as a
:class:`TaskIssue` (in ``TaskSet.issues``); only a file that cannot be read, or that has no task
at all, is refused.
"""

from __future__ import annotations

import dataclasses
import json
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolgym.errors import TaskFileError, TaskFileWarning, TaskNotFoundError, ToolgymError

if TYPE_CHECKING:
    from toolgym.benchmarks.score import Checker, Score
    from toolgym.tools.backend import Attempt

TaskId = int | str


@dataclass(frozen=True)
class Task:
    """One task: what the user asks, the tools it offers, its gold and how it is checked.

    Attributes:
        task_id: the id used in ``reset(options={"task_id": ...})``.
        instruction: the user's goal (the original ``prompt``), stripped.
        gold: the gold actions (the original ``completion``: one or more alternative programs or
            requests); the oracle plays the first, and the best-matching one scores a prediction.
        meta: other fields of the record (e.g. the template that phrased the goal).
        tools: names of the tools the task exposes, or ``None`` for all of the family's.
        setup: the task's own starting state, for families whose tasks start differently (a
            table, a home, a scene); ``None`` starts from the world's state.
        checker: scores an attempt (set by the family's task suite, see ``TaskSuite.bind``).
    """

    task_id: TaskId
    instruction: str
    gold: tuple[str, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)
    tools: tuple[str, ...] | None = None
    setup: Mapping[str, Any] | None = None
    checker: Checker | None = field(default=None, compare=False, repr=False)

    def with_checker(self, checker: Checker) -> Task:
        """The same task, scored by ``checker``."""
        return dataclasses.replace(self, checker=checker)

    def check(self, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Score ``attempt`` against the outcomes of this task's gold (``golds``)."""
        if self.checker is None:
            raise ToolgymError(
                f"task {self.task_id!r} has no checker; bind it with its family's TaskSuite.bind"
            )
        return self.checker.check(self, attempt, golds)

    @classmethod
    def from_record(cls, record: Mapping[str, Any], default_id: TaskId) -> Task:
        """Build a task from an original-format record (``prompt``, ``completion``)."""
        if not isinstance(record, Mapping):
            raise TaskFileError(f"a task must be a JSON object; got {type(record).__name__}")
        prompt, completion = record.get("prompt"), record.get("completion")
        if not isinstance(prompt, str) or not prompt.strip():
            raise TaskFileError(f"a task needs a non-empty string 'prompt'; got {prompt!r}")
        if isinstance(completion, str):
            completion = [completion]
        if (
            not isinstance(completion, list)
            or not completion
            or not all(isinstance(c, str) for c in completion)
        ):
            raise TaskFileError(
                f"a task needs 'completion': a non-empty list of program strings; got {completion!r}"
            )
        tools = record.get("tools")
        if tools is not None and (
            not isinstance(tools, list) or not all(isinstance(t, str) for t in tools)
        ):
            raise TaskFileError(f"'tools' must be a list of tool names; got {tools!r}")
        setup = record.get("setup")
        if setup is not None and not isinstance(setup, Mapping):
            raise TaskFileError(f"'setup' must be a JSON object; got {setup!r}")
        reserved = ("prompt", "completion", "id", "tools", "setup")
        meta = {k: v for k, v in record.items() if k not in reserved}
        return cls(
            record.get("id", default_id),
            prompt.strip(),
            tuple(completion),
            meta,
            None if tools is None else tuple(tools),
            setup,
        )

    def to_record(self) -> dict[str, Any]:
        """The original-format record (plus ``id``, meta fields and ``tools`` when set)."""
        record = {
            "id": self.task_id,
            "prompt": self.instruction,
            "completion": list(self.gold),
            **self.meta,
        }
        if self.tools is not None:
            record["tools"] = list(self.tools)
        if self.setup is not None:
            record["setup"] = dict(self.setup)
        return record


@dataclass(frozen=True)
class TaskIssue:
    """Why a line of a task file cannot be played as written.

    Attributes:
        source: the file.
        line: the 1-based line number (0: about the whole file).
        reason: what is wrong, in one sentence.
        task_id: the task kept for the line (its 0-based line number), or ``None`` when the line
            is not a task and was skipped.
        kind: ``"skipped"`` (not a task), ``"marked"`` (kept, scores 0) or ``"partial"``
            (played against the gold alternatives that run); by default from ``task_id``.
    """

    source: str
    line: int
    reason: str
    task_id: TaskId | None = None
    kind: str = ""

    def __post_init__(self) -> None:
        if not self.kind:
            object.__setattr__(self, "kind", "skipped" if self.task_id is None else "marked")

    def __str__(self) -> str:
        if not self.line:  # about the whole file
            return f"{self.source}: {self.reason}"
        what = {
            "skipped": "skipped",
            "marked": f"task {self.task_id!r} kept and marked",
            "partial": f"task {self.task_id!r} played",
        }.get(self.kind, self.kind)
        return f"{self.source}:{self.line}: {what}: {self.reason}"

    def to_info(self) -> dict[str, Any]:
        """The issue as plain data (``info["task_issue"]``)."""
        return {"line": self.line, "reason": self.reason}


_REPORTED: set[tuple[str, int, str]] = set()


def report_issue(issue: TaskIssue) -> None:
    """Warn about ``issue`` with :class:`~toolgym.errors.TaskFileWarning`, once per process."""
    key = (issue.source, issue.line, issue.reason)
    if key not in _REPORTED:
        _REPORTED.add(key)
        warnings.warn(str(issue), TaskFileWarning, stacklevel=3)


class TaskSet(Mapping[TaskId, Task]):
    """An ordered, immutable collection of tasks keyed by id.

    Args:
        tasks: the tasks, in order; ids must be unique.
        name: a label for error messages (a file path or ``home_search-v0/test``).
        issues: the lines of the source file that are not tasks (see :class:`TaskIssue`).
    """

    def __init__(self, tasks: list[Task], name: str, issues: Sequence[TaskIssue] = ()) -> None:
        self.name = name
        self.issues: tuple[TaskIssue, ...] = tuple(issues)
        self._tasks: dict[TaskId, Task] = {}
        for task in tasks:
            if task.task_id in self._tasks:
                raise TaskFileError(f"{name}: duplicate task id {task.task_id!r}")
            self._tasks[task.task_id] = task
        self.ids: tuple[TaskId, ...] = tuple(self._tasks)

    def __getitem__(self, task_id: TaskId) -> Task:
        try:
            return self._tasks[task_id]
        except KeyError:
            shown = ", ".join(map(repr, self.ids[:5])) + (", ..." if len(self.ids) > 5 else "")
            raise TaskNotFoundError(
                f"no task {task_id!r} in {self.name} ({len(self.ids)} tasks: {shown})"
            ) from None

    def __iter__(self) -> Iterator[TaskId]:
        return iter(self.ids)

    def __len__(self) -> int:
        return len(self.ids)

    def __repr__(self) -> str:
        return f"TaskSet({self.name!r}, {len(self)} tasks)"


def load_task_file(path: str | Path) -> TaskSet:
    """Read an original-format JSONL task file; tasks get their 0-based line number as id.

    A line that is not a task (not JSON, no ``prompt`` or ``completion``) is skipped and reported
    once as a :class:`~toolgym.errors.TaskFileWarning`, and listed in ``TaskSet.issues``.

    Raises:
        TaskFileError: the file cannot be read, or no line of it is a task (the message names the
            first line's problem).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark is not part of line 1
    except OSError as e:
        raise TaskFileError(f"cannot read task file {str(path)!r}: {e.strerror}") from e
    except UnicodeDecodeError as e:
        raise TaskFileError(
            f"task file {str(path)!r} is not UTF-8 text (byte {e.start}); expected JSON lines"
        ) from e
    tasks = []
    issues = []
    # Lines end at "\n" only (an "\r" before it is whitespace to JSON): str.splitlines would
    # also break a record at a U+2028 or U+0085 inside one of its strings.
    for number, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        try:
            task = Task.from_record(json.loads(line), number)
        except json.JSONDecodeError as e:
            issues.append(TaskIssue(str(path), number + 1, f"not valid JSON ({e.msg})"))
            continue
        except TaskFileError as e:
            issues.append(TaskIssue(str(path), number + 1, str(e)))
            continue
        except (RecursionError, ValueError) as e:  # nested too deep, an integer too long
            issues.append(TaskIssue(str(path), number + 1, f"not a task record ({e})"))
            continue
        # Lines are addressed by number even if the record has an "id" of its own.
        tasks.append(dataclasses.replace(task, task_id=number))
    if not tasks:
        first = f" (line {issues[0].line}: {issues[0].reason})" if issues else ""
        raise TaskFileError(f"task file {str(path)!r} has no tasks{first}")
    for issue in issues:
        report_issue(issue)
    return TaskSet(tasks, str(path), issues)


def load_packaged(data_dir: str | Path, family: str, version: int, split: str) -> TaskSet:
    """Load one of a family's generated task sets (``<data_dir>/<family>-v<version>-<split>.jsonl``)."""
    path = Path(data_dir) / f"{family}-v{version}-{split}.jsonl"
    if not path.exists():
        raise TaskFileError(f"toolgym has no {split!r} split for {family}-v{version} ({path})")
    tasks = [
        Task.from_record(json.loads(line), i)
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines())
        if line.strip()
    ]
    return TaskSet(tasks, f"{family}-v{version}/{split}")


def write_task_file(tasks: list[Task], path: str | Path) -> None:
    """Write tasks as JSONL (original format plus ``id`` and meta), one per line."""
    with open(path, "w", encoding="utf-8") as f:
        for task in tasks:
            f.write(json.dumps(task.to_record(), ensure_ascii=False) + "\n")
