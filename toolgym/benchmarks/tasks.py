"""Tasks, task sets and the loader for the original benchmark's task files.

A task file holds one JSON object per line in the original format,
``{"prompt": str, "completion": [program, ...]}``; any other keys are kept in ``Task.meta``. Tasks
read from a user's file are addressed by their 0-based line number; toolgym's own generated sets
(in ``toolgym/benchmarks/data/``) carry an ``"id"`` such as ``"test-017"``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgym.errors import TaskFileError, TaskNotFoundError

TaskId = int | str

DATA_DIR = Path(__file__).resolve().parent / "data"
"""Where the generated task sets are stored, one JSONL file per (family, version, split)."""


@dataclass(frozen=True)
class Task:
    """One task: what the user asks and the gold program(s) that solve it.

    Attributes:
        task_id: the id used in ``reset(options={"task_id": ...})``.
        instruction: the user's goal (the original ``prompt``), stripped.
        completions: gold programs; the best-matching one scores a prediction.
        meta: other fields of the record (e.g. the template that phrased the goal).
    """

    task_id: TaskId
    instruction: str
    completions: tuple[str, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)

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
        meta = {k: v for k, v in record.items() if k not in ("prompt", "completion", "id")}
        return cls(record.get("id", default_id), prompt.strip(), tuple(completion), meta)

    def to_record(self) -> dict[str, Any]:
        """The original-format record (plus ``id`` and meta fields)."""
        return {
            "id": self.task_id,
            "prompt": self.instruction,
            "completion": list(self.completions),
            **self.meta,
        }


class TaskSet(Mapping[TaskId, Task]):
    """An ordered, immutable collection of tasks keyed by id.

    Args:
        tasks: the tasks, in order; ids must be unique.
        name: a label for error messages (a file path or ``home_search-v0/test``).
    """

    def __init__(self, tasks: list[Task], name: str) -> None:
        self.name = name
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

    Raises:
        TaskFileError: the file is missing or a line is not a valid task (the message names it).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise TaskFileError(f"cannot read task file {str(path)!r}: {e.strerror}") from e
    tasks = []
    for number, line in enumerate(text.splitlines()):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as e:
            raise TaskFileError(f"{path}:{number + 1}: not valid JSON ({e.msg})") from e
        try:
            task = Task.from_record(record, number)
        except TaskFileError as e:
            raise TaskFileError(f"{path}:{number + 1}: {e}") from e
        # Lines are addressed by number even if the record has an "id" of its own.
        tasks.append(Task(number, task.instruction, task.completions, task.meta))
    if not tasks:
        raise TaskFileError(f"task file {str(path)!r} has no tasks")
    return TaskSet(tasks, str(path))


def load_packaged(family: str, version: int, split: str) -> TaskSet:
    """Load one of toolgym's generated task sets (``data/<family>-v<version>-<split>.jsonl``)."""
    path = DATA_DIR / f"{family}-v{version}-{split}.jsonl"
    if not path.exists():
        raise TaskFileError(f"toolgym has no {split!r} split for {family}-v{version} ({path.name})")
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
