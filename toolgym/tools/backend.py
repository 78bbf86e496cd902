"""Backends: where an episode's calls run, and what an episode's answer is.

A :class:`Backend` holds the state of one episode over a family's simulated world: the API object
of a program session, a REST service and the requests made to it, a spreadsheet, a scene. It
starts episodes, runs tool calls, saves and restores its state (for tree search, and so that a
failed call leaves no trace), and reports the :class:`Attempt` that a checker scores.

The environment keeps two backends: the agent's, and one on which it runs the task's gold from
the same starting state, so rewards are always computed on copies and never by replaying actions
through the live episode.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np

from toolgym.tools.errors import ToolCallError
from toolgym.tools.faults import FaultPlan
from toolgym.tools.json_calls import ToolCall


@dataclass(frozen=True, slots=True)
class Attempt:
    """What an episode produced, as a checker sees it.

    Attributes:
        outcome: the value that is scored (the search criteria, the response of the last request,
            a final state); ``None`` when nothing ran.
        calls: the tools the attempt called, in order (``API.set_location``, ``GET /v1/votes``).
        error: the agent mistake that stopped the attempt, if any (it then scores as a program
            that does not run).
        text: the action text the outcome came from (the request line of a REST attempt).
        backend: the backend the attempt ran on, for checkers that look at the final state; it is
            ``None`` in the gold attempts the environment caches.
    """

    outcome: Any
    calls: tuple[str, ...] = ()
    error: ToolCallError | None = None
    text: str = ""
    backend: Backend | None = None

    def detached(self) -> Attempt:
        """The same attempt without its backend (safe to cache and to pickle)."""
        return self if self.backend is None else replace(self, backend=None)


class Backend(ABC):
    """The state of one episode over a family's world (see the module docstring).

    Attributes:
        faults: the service faults this backend's calls meet (see :mod:`toolgym.tools.faults`),
            or ``None``; only the agent's backend ever has a plan, set with :meth:`set_faults`.
    """

    faults: FaultPlan | None = None
    handles_faults: ClassVar[bool] = False
    """Whether the backend applies :attr:`faults` itself, finer than whole JSON calls (to each
    HTTP request, to each API method); otherwise :meth:`run_call` applies them to each call."""

    def set_faults(self, plan: FaultPlan | None) -> None:
        """Make this backend's tool calls meet the faults of ``plan`` (``None``: none)."""
        self.faults = plan

    def run_call(self, call: ToolCall) -> str:
        """:meth:`call`, meeting the service faults of :attr:`faults` (what languages run).

        Raises:
            ToolCallError: the call is wrong, or a fault failed it (``service_error``).
        """
        if self.faults is None or self.handles_faults:
            return self.call(call)
        return str(self.faults.around_call(call.name, lambda: self.call(call)))

    @abstractmethod
    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """Start a new episode from the world's initial state.

        Args:
            rng: the episode's generator, for what varies per episode (a simulated clock);
                ``None`` starts from the world's canonical state (used to check gold labels).
            setup: the task's own starting state, when its family gives tasks one (a table to
                edit, a home, objects on a table); ``None`` for the world's.
        """

    def start_key(self) -> Hashable | None:
        """A key of the starting state after :meth:`reset`, or ``None`` if it varies.

        Gold attempts are cached by it (with the task's gold): two episodes with equal keys must
        start from identical states, so a backend whose start depends on the task's setup puts
        the setup in the key. The default, ``None``, runs the gold again in every episode.
        """
        return None

    def opening(self, instruction: str) -> str:
        """The first observation of an episode.

        By default the user's instruction; a web shop shows its search page, which holds it.
        """
        return instruction

    def system_prompt(self) -> str | None:
        """The benchmark's own system prompt for a model that writes its calls as text.

        ``None`` (the default): the agent's. A benchmark that prompts each task its own way
        (BFCL lists the task's functions in it) gives it here; the env passes it on as
        ``info["system_prompt"]`` at reset, and a single-step agent prompting in text uses it
        with the first observation as the user's message.
        """
        return None

    def system_message(self) -> str | None:
        """The benchmark's own system message for a model that calls tools natively.

        ``None`` (the default): none. BFCL gives a function-calling model the entry's own system
        messages alone (a memory question's instructions and memory, a web search question's
        answer format), where a prompt-mode model gets them inside :meth:`system_prompt`; the
        env passes it on as ``info["system_message"]`` at reset, and an agent calling tools
        natively puts it after its own system prompt.
        """
        return None

    def opening_info(self) -> dict[str, Any]:
        """What the env adds to ``info`` at reset, beyond its own keys.

        By default the benchmark's own prompts, where the backend has them
        (``system_prompt``, ``system_message``). An episode of several conversations (BFCL's
        memory categories) also says which one opens: ``{"conversation": 0,
        "conversation_id": ...}``; each later one is announced the same way in the ``info`` of
        the step that opens it, with its ``system_prompt``, and an agent starts a new history
        there.
        """
        prompts = {"system_prompt": self.system_prompt(), "system_message": self.system_message()}
        return {key: text for key, text in prompts.items() if text is not None}

    @abstractmethod
    def snapshot(self) -> Any:
        """A copy of the episode state that :meth:`restore` accepts."""

    @abstractmethod
    def restore(self, state: Any) -> None:
        """Return to a state returned by :meth:`snapshot` (the argument is not kept)."""

    @abstractmethod
    def attempt(self) -> Attempt:
        """The attempt as it stands, if the episode ended now (after a truncation)."""

    def checkpoint(self) -> Any:
        """A mark that :meth:`rollback` returns to and :meth:`calls_since` reads (one step's undo).

        Unlike a :meth:`snapshot`, a mark is only good for undoing what comes after it, in this
        episode, before any earlier mark is rolled back to; so a backend whose episode grows
        (its calls logged) can mark it without copying all of it. The default is a snapshot.
        """
        return self.snapshot()

    def rollback(self, mark: Any) -> None:
        """Return to the :meth:`checkpoint` ``mark`` (the default: :meth:`restore` it)."""
        self.restore(mark)

    def calls_since(self, state: Any) -> Sequence[ToolCall] | None:
        """What the service was asked to do since ``state``, as it ran it.

        ``state`` is a :meth:`snapshot` or a :meth:`checkpoint` mark.

        Each call is named and its arguments read as the service reads them, after the action
        was parsed and its arguments evaluated (``API.set_num_beds(2 + 2)``, a JSON call with a
        prefixed name and a curl line with ``LIMIT=4`` all become the same call): a conversation
        env checks these for guessed details (:mod:`toolgym.conversation`). Calls that the
        service refused before running them are left out. The default, ``None``, means the
        backend cannot tell; families with conversation envs implement it.
        """
        return None

    def call(self, call: ToolCall) -> str:
        """Run one JSON tool call and describe its result (for the JSON-call language).

        Raises:
            ToolCallError: the call is wrong; the backend is left as it was.
        """
        raise NotImplementedError(f"{type(self).__name__} does not take JSON tool calls")
