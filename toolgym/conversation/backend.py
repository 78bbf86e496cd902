"""The backend of a conversation episode: the family's backend plus the simulated user.

:class:`ChatBackend` wraps a family's backend. The family's calls run on it unchanged; the
conversation (the task's slots, the turns so far, the guesses refused) is the rest of the
episode's state, saved and restored with it.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from toolgym.conversation.guesses import guessed_kinds
from toolgym.conversation.shared import conversation_of, record_text
from toolgym.errors import TaskFileError
from toolgym.simulators.user import Conversation, UserSimulator, UserTurn, Vocabulary, told
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.faults import FaultPlan
from toolgym.tools.json_calls import ToolCall


class ChatBackend(Backend):
    """A family's backend with a user to talk to (see the module docstring).

    Args:
        inner: the family's backend.
        vocabulary: the family's slot kinds.
        user: what plays the user.
    """

    def __init__(self, inner: Backend, vocabulary: Vocabulary, user: UserSimulator) -> None:
        self.inner = inner
        self.vocabulary = vocabulary
        self.user = user
        self.conversation: Conversation | None = None
        self.turns: tuple[UserTurn, ...] = ()
        self.guesses: tuple[str, ...] = ()

    handles_faults = True
    """Faults are the family backend's to apply (the user never fails)."""

    def set_faults(self, plan: FaultPlan | None) -> None:
        """The family backend's calls meet the faults of ``plan``."""
        self.faults = plan
        self.inner.set_faults(plan)

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """Start the family's episode and the conversation of ``setup["conversation"]``.

        Raises:
            TaskFileError: the setup holds no conversation.
        """
        if not isinstance(setup, Mapping) or "conversation" not in setup:
            raise TaskFileError(
                "a conversation task's setup is {'conversation': {...}, 'inner': ...}; "
                f"got {setup!r:.200}"
            )
        try:
            self.conversation = conversation_of(setup["conversation"])
        except ValueError as e:
            raise TaskFileError(f"the task's conversation cannot be read: {e}") from None
        inner = setup.get("inner")
        self.inner.reset(rng, inner if isinstance(inner, Mapping) else None)
        self.turns = ()
        self.guesses = ()

    def start_key(self) -> Hashable | None:
        """The family backend's key with the conversation (gold attempts are cached by it)."""
        key = self.inner.start_key()
        if key is None or self.conversation is None:
            return None
        return (key, record_text(self.conversation))

    def opening(self, instruction: str) -> str:
        """The family's first observation of the opening request."""
        return self.inner.opening(instruction)

    def snapshot(self) -> Any:
        """The family's state and the conversation's."""
        return (self.inner.snapshot(), self.conversation, self.turns, self.guesses)

    def restore(self, state: Any) -> None:
        """Return to a :meth:`snapshot`."""
        inner, self.conversation, self.turns, self.guesses = state
        self.inner.restore(inner)

    def attempt(self) -> Attempt:
        """The family's attempt, on this backend (the checker reads the conversation)."""
        return replace(self.inner.attempt(), backend=self)

    def call(self, call: ToolCall) -> str:
        """A JSON call, run by the family's backend (meeting its faults)."""
        return self.inner.run_call(call)

    def __getattr__(self, name: str) -> Any:
        # what a family's backend offers beyond Backend (render_text, render_rgb, ...)
        if name.startswith("__") or name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    # -- the conversation ------------------------------------------------------------------------
    def converse(self, message: str) -> UserTurn:
        """The user's reply to ``message``, recorded as a turn."""
        assert self.conversation is not None, "reset() starts the conversation"
        turn = self.user.reply(self.conversation, self.vocabulary, self.turns, message)
        self.turns = (*self.turns, turn)
        return turn

    def told(self) -> set[str]:
        """The slot kinds the agent has been told."""
        assert self.conversation is not None, "reset() starts the conversation"
        return told(self.conversation, self.turns)

    def untold(self) -> list[str]:
        """The held-back slot kinds not told yet."""
        assert self.conversation is not None, "reset() starts the conversation"
        known = self.told()
        return [k for k in self.conversation.held if k not in known]

    def guessed(self, calls: Sequence[ToolCall]) -> list[str]:
        """The held-back kinds, not told yet, that ``calls`` set (the calls a step's service ran).

        See :mod:`toolgym.conversation.guesses`: a kind is set by a call of the tool and argument
        that carry it, whatever the value, or, when no argument carries it, by a call that
        passes its value.
        """
        assert self.conversation is not None, "reset() starts the conversation"
        untold = [(self.vocabulary[k], self.conversation.slot(k)) for k in self.untold()]
        return guessed_kinds(calls, untold)

    def record_guess(self, kinds: Sequence[str]) -> None:
        """Count a refused step that guessed ``kinds``."""
        self.guesses = (*self.guesses, *kinds)
