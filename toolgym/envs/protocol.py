"""What runners and agents may read from an environment, as a typed protocol.

Gymnasium wrappers do not forward attributes, so code that needs more than ``reset``/``step``
reaches the unwrapped environment; :func:`task_env` does it once, checks that the environment is a
toolgym one, and returns it typed as :class:`TaskEnv`. That surface is all that upper layers
(agents, evaluation, training, the command line) use: the task, its tools and the hints, the
oracle's actions, calls written as actions, grammars, scores, state and faults; never the env's
toolkit, backend or action language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

import gymnasium as gym

from toolgym.benchmarks.score import Score
from toolgym.benchmarks.suite import TaskSuite
from toolgym.benchmarks.tasks import Task, TaskId, TaskIssue
from toolgym.envs.spec import FamilySpec
from toolgym.tools.errors import ToolCallError
from toolgym.tools.faults import FaultPlan
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.language import AgentHints
from toolgym.tools.tool import Tool, ToolSet


@runtime_checkable
class TaskEnv(Protocol):
    """The surface of a toolgym environment beyond the Gymnasium API."""

    family: FamilySpec
    version: int
    suite: TaskSuite

    @property
    def task_ids(self) -> tuple[TaskId, ...]:
        """The ids of the split's tasks (empty for the unlimited ``train`` split)."""
        ...

    @property
    def task(self) -> Task | None:
        """The current task."""
        ...

    @property
    def file_issues(self) -> tuple[TaskIssue, ...]:
        """The task file's lines that cannot be played as written, by line (empty without one)."""
        ...

    @property
    def tools(self) -> ToolSet:
        """The tools the current task exposes (all of the family's before the first reset)."""
        ...

    @property
    def hints(self) -> AgentHints:
        """How to act: the language, what ends an episode, how demonstrations are labelled."""
        ...

    @property
    def finish_word(self) -> str | None:
        """The word that ends a multi-step episode (``finish``), if the language has one."""
        ...

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """The action that calls ``tool`` with ``arguments`` in the env's action language."""
        ...

    def action_grammar(self) -> ActionGrammar | None:
        """The grammar of the next action (constrained decoding), ``None`` when there is none."""
        ...

    def native_action(self, tool_calls: list[dict[str, Any]]) -> str:
        """The action that makes a model's native tool calls (never raises for bad calls)."""
        ...

    def oracle_actions(self) -> list[str]:
        """The gold actions of the current task in the current action mode."""
        ...

    @property
    def finish_tool(self) -> str | None:
        """The tool call that stands for the finish word (``finish``), if the language has one."""
        ...

    @property
    def finish_words(self) -> bool:
        """Whether a turn may end on words of the agent's (the finish tool then takes them)."""
        ...

    def oracle_calls(self) -> list[dict[str, Any]] | None:
        """The gold as native tool calls, one per step (the finish word as :attr:`finish_tool`)."""
        ...

    def score(self, error: ToolCallError | None = None) -> Score:
        """The score of the episode as if it ended now (with ``error``: as a failed action)."""
        ...

    def get_state(self) -> dict[str, Any]:
        """Everything needed to continue the episode later."""
        ...

    def set_faults(self, plan: FaultPlan | None) -> None:
        """Make the agent's tool calls meet the service faults of ``plan`` (``None``: none)."""
        ...

    def set_state(self, state: Mapping[str, Any]) -> None:
        """Return to a state returned by :meth:`get_state`."""
        ...


def task_env(env: gym.Env[Any, Any]) -> TaskEnv:
    """``env`` unwrapped, typed as a :class:`TaskEnv`.

    Raises:
        TypeError: ``env`` is not a toolgym environment.
    """
    base = env.unwrapped
    if not isinstance(base, TaskEnv):
        raise TypeError(
            "expected a toolgym environment (from gym.make('toolbench/...')); "
            f"got {type(base).__name__}"
        )
    return base
