"""Conversations: a family's env with a simulated user who holds back part of the goal.

A family adds its conversation env with a :class:`~toolgym.conversation.tasks.ChatProfile` (its
slot kinds, a task's slots, the opening request), a
:class:`~toolgym.conversation.toolkit.ChatToolkit` subclass and
:func:`~toolgym.conversation.spec.chat_spec`; the env is then a
:class:`~toolgym.envs.tool_env.ToolEnv` like any other, and runs through the contract suite and
every integration. The package imports nothing itself, so that a family's spec can name
``chat_spec`` without loading the tools.

* ``messages``: the ``message_user`` tool and how a message is written as an action;
* ``backend``: :class:`ChatBackend`, the family's backend with the user;
* ``language``: :class:`ChatLanguage`, the family's language with the user channel and the
  guess check;
* ``toolkit``: :class:`ChatToolkit`; ``tasks``: conversation tasks, their suite and checker;
  ``metrics``; ``opening``; ``spec``.
"""

import importlib
from typing import Any

_NAMES = {
    "ChatBackend": "backend",
    "ChatLanguage": "language",
    "ChatToolkit": "toolkit",
    "ChatChecker": "tasks",
    "ChatProfile": "tasks",
    "chat_suite": "tasks",
    "chat_task": "tasks",
    "inner_task": "tasks",
    "CONVERSATION_METRICS": "metrics",
    "GUESSED_SLOT": "messages",
    "MESSAGE_TOOL": "messages",
    "MESSAGE_TOOL_NAME": "messages",
    "is_message": "messages",
    "render_message": "messages",
    "compose_opening": "opening",
    "chat_spec": "spec",
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> Any:
    # the package's names load their module on first use (a spec names chat_spec cheaply)
    module = _NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'toolgym.conversation' has no attribute {name!r}")
    return getattr(importlib.import_module(f"toolgym.conversation.{module}"), name)
