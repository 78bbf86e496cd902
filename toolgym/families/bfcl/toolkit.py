"""The BFCL toolkit: an entry's functions as its tools, the answer language and backends.

Every entry offers its own functions (:meth:`BfclToolkit.task_tools`); the family has no
world of tools of its own. ``category`` picks one of the env's categories (BFCL's name, such as
``"live_parallel"``); by default the env plays all of them.
"""

from __future__ import annotations

from typing import cast

from toolgym.benchmarks.tasks import TaskSet
from toolgym.families.bfcl.answers import REPLY_FORMATS, read_answer
from toolgym.families.bfcl.backend import SingleTurnBackend
from toolgym.families.bfcl.data import SINGLE_TURN, language_of
from toolgym.families.bfcl.language import BfclCallLanguage
from toolgym.families.bfcl.tools import tool_set
from toolgym.tools.errors import ToolCallError
from toolgym.tools.tool import ToolSet
from toolgym.tools.toolkit import Tasks, TaskTools, Toolkit


def check_options(
    category: str | None, categories: tuple[str, ...], kind: str, reply_format: str
) -> None:
    """Refuse a category the env does not play, or an unknown reply format.

    Raises:
        ValueError: naming what was expected.
    """
    if reply_format not in REPLY_FORMATS:
        raise ValueError(f"reply_format must be one of {REPLY_FORMATS}; got {reply_format!r}")
    if category is not None and category not in categories:
        raise ValueError(
            f"category must be a BFCL {kind} category ({', '.join(categories)}); got {category!r}"
        )


class BfclToolkit(Toolkit):
    """The single-turn categories' parts.

    Args:
        world_seed: unused by BFCL's fixed entries (kept for the shared contract).
        category: one BFCL category of the env's, or ``None`` for every one of them.
        reply_format: how replies are read: ``"any"`` (JSON calls, else Python calls),
            ``"prompt"`` (as BFCL reads a prompt-mode model: Python calls only) or ``"fc"`` (as
            it reads a function-calling model: JSON calls only, any other text is words).

    Raises:
        ValueError: a category that is not a single-turn BFCL category, or an unknown
            reply format.
    """

    name = "bfcl"

    def __init__(
        self, world_seed: int = 0, *, category: str | None = None, reply_format: str = "any"
    ) -> None:
        super().__init__(world_seed)
        check_options(category, SINGLE_TURN, "single-turn", reply_format)
        self.reply_format = reply_format
        self.category = category
        self.tools = ToolSet([])

    def task_tools(self, task: TaskTools) -> ToolSet:
        """The entry's own functions, documented as BFCL documents them to a model."""
        setup = task.setup or {}
        category = str(setup.get("category", "simple_python"))
        return tool_set(list(setup.get("functions", ())), language_of(category))

    def select_tasks(self, tasks: Tasks) -> Tasks:
        """The tasks of :attr:`category` (all of them when it is ``None``).

        Raises:
            ValueError: a category the env does not play.
        """
        if self.category is None or not isinstance(tasks, TaskSet):
            return tasks
        chosen = [t for t in tasks.values() if t.meta.get("category") == self.category]
        if not chosen:
            played = sorted({str(t.meta.get("category")) for t in tasks.values()})
            raise ValueError(
                f"this env plays the categories {', '.join(played)}; got category={self.category!r}"
            )
        return cast(Tasks, TaskSet(chosen, f"{tasks.name}/{self.category}"))

    def api_calls(self, action: str) -> tuple[str, ...]:
        """The functions an answer calls, in order (none for words)."""
        try:
            calls = read_answer(action)
        except ToolCallError:
            return ()
        return tuple(name for call in calls for name in call)

    def language(self) -> BfclCallLanguage:
        """Answers as calls (JSON, or Python calls as BFCL's prompt asks for them)."""
        return BfclCallLanguage(self.reply_format)

    def new_backend(self) -> SingleTurnBackend:
        """A backend; the task's setup gives it the entry."""
        return SingleTurnBackend(self.reply_format)
