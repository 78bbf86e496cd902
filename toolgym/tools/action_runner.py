"""What runs actions: an action language's execution side.

An :class:`ActionRunner` runs an agent's text on a backend in the two protocols every environment
offers:

* :meth:`~ActionRunner.run_program`: the whole action in one step (the paper's protocol); the
  episode ends and the :class:`~toolgym.tools.backend.Attempt` is scored;
* :meth:`~ActionRunner.run_call`: one call per step; the episode ends when the call submits (a
  terminal tool such as ``API.search()``) or when the agent says the language's finish word.

It also plays golds (:meth:`~ActionRunner.run_gold`, :meth:`~ActionRunner.gold_steps`) and writes
calls as actions (:meth:`~ActionRunner.render_calls`, how a model's native tool calls become an
action). Agent mistakes never raise out of a runner: they come back in :attr:`Execution.error`.
"""

from __future__ import annotations

import copy
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets
from toolgym.tools.errors import ToolCallError
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.tool import Tool, ToolSet


@dataclass(slots=True)
class Execution:
    """What running one action did.

    Attributes:
        observation: the text the agent sees next.
        error: the mistake that stopped the action, if any.
        finished: whether the episode ends (always in ``program`` mode).
        attempt: when finished, what is scored.
        info: entries the language adds to the step's ``info`` (``calls``, ``warnings``, ...).
        tools: the tools offered from this step on, when the step changed them (a conversation
            that offers more functions mid-episode); ``None``: unchanged.
    """

    observation: str
    error: ToolCallError | None = None
    finished: bool = False
    attempt: Attempt | None = None
    info: dict[str, Any] = field(default_factory=dict)
    tools: ToolSet | None = None


class ActionRunner(ABC):
    """Runs actions on a backend (see the module docstring)."""

    finish_word: ClassVar[str | None] = None
    """A word that ends a multi-step episode (``finish``), when the language has one."""
    budgets: Budgets = DEFAULT_BUDGETS
    """The limits of one action; ``max_action_chars`` is also the env's action space's length,
    and a longer action is refused before any of it is read."""
    step_limit: ClassVar[int | None] = None
    """A limit of the language's own on the steps an episode may take in a row (BFCL's 20
    replies with calls in one turn): the step past it ends the episode, which fails. ``None``:
    only the env's ``max_episode_steps`` (a truncation) limits an episode."""
    finish_words: ClassVar[bool] = False
    """Whether an agent may end a turn with words of its own instead of the finish word (BFCL's
    multi-turn and agentic categories: any reply without calls ends the user's turn, and the
    last one is the final answer). A tool-calling client's finish tool then takes a
    ``message``, played as that reply."""
    reads_json_calls: ClassVar[bool] = False
    """Whether a step of one JSON tool call (``{"name": ..., "arguments": {...}}``) runs as the
    same call written in the language does. Tool-calling clients then step with the JSON
    itself instead of the call rendered in the language and read back."""
    may_block: ClassVar[bool] = False
    """Whether a step may wait on another process (a sandbox worker) for up to its time limit.
    Servers run the steps of a language that never blocks on their event loop, and the others
    in a worker thread, so one client's long step holds no other client's."""
    refusal_info: ClassVar[Mapping[str, Any]] = {}
    """The info keys of a step that ran nothing (:meth:`refusal`), as the language's own failed
    steps report them (``{"calls": []}``)."""

    def refusal(self, error: ToolCallError, backend: Backend, program: bool) -> Execution:
        """What an action refused before it ran (too long) gives.

        ``error``, and in program mode the end of the episode with nothing done. A language
        whose steps show a page (and infos) overrides it to show them as its own failed steps do.
        """
        info = copy.deepcopy(dict(self.refusal_info))
        if program:
            attempt = Attempt(None, error=error, backend=backend)
            return Execution(error.observation(), error, True, attempt, info)
        return Execution(error.observation(), error, info=info)

    @abstractmethod
    def run_program(self, text: str, backend: Backend) -> Execution:
        """Run a whole action; the episode ends (``execution.attempt`` is set)."""

    @abstractmethod
    def run_call(self, text: str, backend: Backend) -> Execution:
        """Run one step of a multi-step episode; a failed step leaves the backend as it was."""

    @abstractmethod
    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Run a gold label from the backend's current state.

        Raises:
            ToolCallError: the gold does not run.
        """

    def gold_action(self, gold: str) -> str:
        """The action the oracle plays for ``gold`` in ``program`` mode (default: the gold)."""
        return gold

    def gold_steps(self, gold: str) -> list[str]:
        """The gold label as the actions of a multi-step episode (default: one action)."""
        steps = [gold]
        if self.finish_word is not None:
            steps.append(self.finish_word)
        return steps

    def episode_gold_steps(self, gold: str, backend: Backend) -> list[str]:
        """The gold's actions for the episode the backend is in (default: :meth:`gold_steps`).

        A language whose gold takes as many steps as the episode has turns, and whose turns
        depend on more than the task (BFCL's memory categories: the conversations a snapshot
        skips), counts them on the backend.
        """
        return self.gold_steps(gold)

    def is_finish(self, text: Any) -> bool:
        """Whether ``text`` is the finish word."""
        return (
            self.finish_word is not None
            and isinstance(text, str)
            and re.match(rf"^\s*{re.escape(self.finish_word)}\b", text, re.IGNORECASE) is not None
        )

    def finish(self, backend: Backend) -> Execution:
        """End a multi-step episode on the agent's word: the attempt as it stands is scored."""
        return Execution("Finished.", finished=True, attempt=backend.attempt())

    @abstractmethod
    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """The action that calls ``tool`` with ``arguments`` (JSON values) in this language."""

    @abstractmethod
    def render_calls(
        self, calls: Sequence[ToolCall], tools: ToolSet, backend: Backend | None = None
    ) -> str:
        """The action that makes ``calls``, in order, in this language.

        Args:
            calls: the calls, in order.
            tools: the task's tools.
            backend: the episode's backend, for languages whose next action depends on its
                state (the numbering of a calling list's placeholders); ``None``: a fresh one.
        """
