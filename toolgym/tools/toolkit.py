"""The toolkit: a family's agent-facing parts over one world.

A :class:`Toolkit` is what the environment builds from a family's declaration: the tools of the
world, the action language agents write in, and fresh backends. Its keyword-only constructor
arguments are the family's own options (``max_results``, ``extraction``, ...): the environment
passes them through and refuses any other, so every option is declared in one place.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping
from typing import Any, Protocol, TypeVar

from toolgym.tools.backend import Backend
from toolgym.tools.language import ActionLanguage
from toolgym.tools.tool import ToolSet

Tasks = TypeVar("Tasks")
"""A split's task set (``toolgym.benchmarks.tasks.TaskSet``, a layer above this one)."""


class TaskTools(Protocol):
    """What :meth:`Toolkit.task_tools` reads of a task (a :class:`toolgym.benchmarks.tasks.Task`)."""

    @property
    def tools(self) -> Collection[str] | None:
        """The names of the tools it offers; ``None``: all."""

    @property
    def setup(self) -> Mapping[str, Any] | None:
        """Its starting state."""


class Toolkit(ABC):
    """The tools, language and backends of a family over the world of ``world_seed``.

    Subclasses build :attr:`tools` in ``__init__`` and implement :meth:`language` and
    :meth:`new_backend`. Options are keyword-only ``__init__`` arguments, of the class or of its
    bases (a subclass may pass them on with ``**options``).

    Args:
        world_seed: seed of the simulated world.
    """

    tools: ToolSet
    user_world: bool = False
    """Whether the world comes from the user's files (a tool library, a product catalogue)
    rather than from the seed: the stored splits and the generated train tasks do not belong
    to it, and an env over it plays a task file's tasks or tasks given at reset."""

    def __init__(self, world_seed: int = 0) -> None:
        if not isinstance(world_seed, int) or isinstance(world_seed, bool) or world_seed < 0:
            raise ValueError(f"world_seed must be a non-negative int; got {world_seed!r}")
        self.world_seed = world_seed

    @abstractmethod
    def language(self) -> ActionLanguage:
        """The action language, configured with the options."""

    @abstractmethod
    def new_backend(self) -> Backend:
        """A backend over this world, ready for :meth:`Backend.reset`."""

    def task_tools(self, task: TaskTools) -> ToolSet:
        """The tools an episode of ``task`` offers and documents: those the task names.

        A toolkit whose documents must differ per task (a conversation's, which hides the
        examples that would tell a held-back value) overrides this.
        """
        return self.tools.subset(task.tools)

    def select_tasks(self, tasks: Tasks) -> Tasks:
        """The tasks of a fixed split an env with these options plays (default: all of them).

        A family whose options pick part of a split (BFCL's ``category``) narrows it here; a
        task file and the ``train`` split are played whole.
        """
        return tasks

    def api_names(self) -> frozenset[str]:
        """The family's APIs: the set ``D`` of the API complexity score.

        They are every tool's qualified name (``API.search``, ``worksheet.update``,
        ``put_first_on_second``).
        """
        return frozenset(tool.qualname for tool in self.tools)

    def api_calls(self, action: str) -> tuple[str, ...]:
        """The APIs ``action`` (a gold label, a demonstration) calls, in order, repeats kept.

        Each is a name of :meth:`api_names`; the language reads them
        (:meth:`~toolgym.tools.language.ActionLanguage.api_calls`). A family that counts its
        APIs otherwise overrides this.
        """
        return tuple(self.language().api_calls(action, self.tools))

    @classmethod
    def options(cls) -> dict[str, Any]:
        """The family's options and their defaults.

        They are the keyword-only ``__init__`` arguments of the class and its bases (the most
        derived class's default wins).
        """
        found: dict[str, Any] = {}
        for klass in cls.__mro__:
            init = klass.__dict__.get("__init__")
            if init is None:
                continue
            for p in inspect.signature(init).parameters.values():
                if p.kind is inspect.Parameter.KEYWORD_ONLY:
                    found.setdefault(p.name, p.default)
        return found
