"""The toolkit of a conversation env: a family's toolkit with the ``message_user`` tool.

A family's conversation toolkit is a subclass naming the family's toolkit and vocabulary::

    class HomeSearchChatToolkit(ChatToolkit):
        inner_class = HomeSearchToolkit
        vocabulary = VOCABULARY

Its options are the family's, plus ``user``: what plays the user (the rule-based user by
default; any object with the :class:`~toolgym.simulators.user.UserSimulator` method, such as
:class:`toolgym.agents.llm_user.LLMUser`), and ``user_replay``: the path of a recording to replay
exactly (:class:`~toolgym.conversation.recording.ReplayUser`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from toolgym.conversation.backend import ChatBackend
from toolgym.conversation.language import ChatLanguage
from toolgym.conversation.messages import MESSAGE_TOOL, inner_gold, is_message
from toolgym.conversation.recording import ReplayUser
from toolgym.conversation.shared import conversation_of
from toolgym.simulators.user import RuleUser, UserSimulator, Vocabulary
from toolgym.simulators.user.slots import value_key
from toolgym.tools.language import ActionLanguage
from toolgym.tools.tool import ToolSet
from toolgym.tools.toolkit import TaskTools, Toolkit


class ChatToolkit(Toolkit):
    """A family's toolkit with a user to talk to (see the module docstring).

    Args:
        world_seed: seed of the simulated world.
        user: what plays the user; ``None``: the rule-based user.
        user_replay: a recording (JSONL) whose replies the user gives, exactly; a conversation
            it does not hold gets the error ``user_replay_miss``.
        **options: the family's own options.

    Raises:
        TypeError: a ``user`` that is a class, or has no ``reply`` method.
        ValueError: both ``user`` and ``user_replay``.
        FileNotFoundError: a ``user_replay`` that is not a file.
    """

    inner_class: ClassVar[type[Toolkit]]
    vocabulary: ClassVar[Vocabulary]

    def __init__(
        self,
        world_seed: int = 0,
        *,
        user: UserSimulator | None = None,
        user_replay: str | None = None,
        **options: Any,
    ):
        super().__init__(world_seed)
        if user is not None and (
            isinstance(user, type) or not callable(getattr(user, "reply", None))
        ):
            raise TypeError(
                "user plays the user: an object with reply(conversation, vocabulary, history, "
                "message) (toolgym.simulators.user.UserSimulator), an instance such as "
                f"RuleUser(); got {user!r:.80}"
            )
        if user is not None and user_replay is not None:
            raise ValueError(
                "give user (who plays the user) or user_replay (a recording), not both"
            )
        self.user: UserSimulator = (
            ReplayUser(user_replay)
            if user_replay is not None
            else RuleUser()
            if user is None
            else user
        )
        self.inner = self.inner_class(world_seed=world_seed, **options)
        self.user_world = self.inner.user_world
        self.tools = ToolSet([*self.inner.tools, MESSAGE_TOOL])

    def language(self) -> ActionLanguage:
        """The family's language with messages to the user."""
        return ChatLanguage(self.inner.language(), self.inner.tools)

    def new_backend(self) -> ChatBackend:
        """The family's backend with the user."""
        return ChatBackend(self.inner.new_backend(), self.vocabulary, self.user)

    def task_tools(self, task: TaskTools) -> ToolSet:
        """The family's tools for ``task``, with no example that tells a held-back value.

        A document that shows a held-back value as a parameter's example (RapidAPI's docs
        often do: the task's value was drawn from them) would tell the agent what to ask for.
        """
        tools = super().task_tools(task)
        setup = task.setup if isinstance(task.setup, Mapping) else {}
        try:
            conversation = conversation_of(setup.get("conversation", {}))
        except ValueError:
            return tools  # reset() reports a task without its conversation
        held = {
            value_key(s.value)
            for s in conversation.slots
            if s.kind in conversation.held and s.value not in (None, "")
        }
        hidden = [t.without_examples(held) for t in tools]
        return tools if all(a is b for a, b in zip(hidden, tools, strict=True)) else ToolSet(hidden)

    def api_names(self) -> frozenset[str]:
        """The family's APIs."""
        return self.inner.api_names()

    def api_calls(self, action: str) -> tuple[str, ...]:
        """The family's APIs a gold calls (its questions are not APIs)."""
        rest = inner_gold(action)
        return () if not rest.strip() or is_message(rest) else self.inner.api_calls(rest)

    @classmethod
    def options(cls) -> dict[str, Any]:
        """The family's options, ``user`` and ``user_replay``."""
        return {**cls.inner_class.options(), "user": None, "user_replay": None}
