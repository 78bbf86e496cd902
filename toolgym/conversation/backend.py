"""The backend of a conversation episode: the family's backend plus the simulated user.

:class:`ChatBackend` wraps a family's backend. The family's calls run on it unchanged; the
conversation (the task's slots, the turns so far, the guesses refused) is the rest of the
episode's state, saved and restored with it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from toolgym.errors import TaskFileError
from toolgym.simulators.user import Conversation, UserSimulator, UserTurn, Vocabulary, told
from toolgym.simulators.user.slots import contains_phrase, normalize
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.faults import FaultPlan
from toolgym.tools.json_calls import ToolCall

MIN_GUESS_CHARS = 3
"""A value shorter than this is not looked for in an action's text (``1`` is everywhere)."""


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
            self.conversation = Conversation.from_record(setup["conversation"])
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
        return (key, json.dumps(self.conversation.to_record(), sort_keys=True))

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

    def guessed(
        self,
        calls: Sequence[ToolCall] | None,
        action: str,
        called: Mapping[str, frozenset[str]] | None = None,
    ) -> list[str]:
        """The held-back kinds, not told yet, that ``action`` sets (its ``calls`` when read).

        A kind carried by a tool's argument is set by a call of that tool with that argument,
        whatever the value (names and arguments in any case); one that is not, or any when the
        action cannot be read as calls, is set when the action writes its value (a number in
        any notation: ``20.40`` writes ``20.4``). An action not read as calls still sets a kind
        carried by a tool it calls, by any or by a required argument (``called``: the tools it
        calls, lower-cased, with their required arguments: ``API.set_num_beds(n)``). A slot
        that names its own call (a task's API) is set by a call of it with its argument, and by
        an action that writes its value anywhere.
        """
        assert self.conversation is not None, "reset() starts the conversation"
        text = normalize(action)
        found = []
        for kind_name in self.untold():
            kind = self.vocabulary[kind_name]
            slot = self.conversation.slot(kind_name)
            own = slot is not None and slot.call is not None
            call, argument = kind.call, kind.argument
            if slot is not None and slot.call is not None:
                call, argument = slot.call, slot.argument
            required = (called or {}).get(call.lower()) if call is not None else None
            by_call = call is not None and (
                _sets(calls, call, argument)
                if calls is not None
                else required is not None and (argument is None or argument.lower() in required)
            )
            by_text = (
                slot is not None
                and (own or kind.call is None or calls is None)
                and (
                    any(
                        len(f) >= MIN_GUESS_CHARS and contains_phrase(text, f) for f in slot.forms()
                    )
                    or _writes_number(action, slot.value)
                )
            )
            if by_call or by_text:
                found.append(kind_name)
        return found

    def record_guess(self, kinds: Sequence[str]) -> None:
        """Count a refused step that guessed ``kinds``."""
        self.guesses = (*self.guesses, *kinds)


def _sets(calls: Sequence[ToolCall], call: str, argument: str | None) -> bool:
    """Whether one of ``calls`` calls ``call`` with ``argument`` (any argument when ``None``).

    Names are compared in any case: services that take ``LIMIT`` for ``limit`` exist.
    """
    return any(
        c.name.lower() == call.lower()
        and (argument is None or argument.lower() in {str(a).lower() for a in c.arguments})
        for c in calls
    )


_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")


def _writes_number(action: str, value: object) -> bool:
    """Whether ``action`` writes the number ``value`` in any notation (``20.40``, ``2.04e1``).

    Numbers of fewer than :data:`MIN_GUESS_CHARS` characters (``1``, ``15``) are everywhere.
    """
    if not isinstance(value, int | float) or isinstance(value, bool):
        return False
    if len(json.dumps(value)) < MIN_GUESS_CHARS:
        return False
    return any(float(m.group()) == float(value) for m in _NUMBER.finditer(action))
