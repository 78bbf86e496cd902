"""The action language of a conversation env: the family's language plus messages to the user.

:class:`ChatLanguage` wraps the family's language. A step that is a message
(:mod:`toolgym.conversation.messages`) goes to the user; any other step is run by the family's
language on the family's backend, and then checked for guesses (:mod:`.guesses`): a step whose
service calls set a held-back detail the user has not told yet is undone, and refused with the
category ``guessed_slot``. Agents read actions as the family's language does: ``info["action_language"]`` is its
name.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from toolgym.conversation.backend import ChatBackend
from toolgym.conversation.guesses import TooManyValues
from toolgym.conversation.messages import (
    GUESSED_SLOT,
    MESSAGE_TOOL,
    MESSAGE_TOOL_NAME,
    USER_FAILED,
    inner_gold,
    is_message,
    read_message_action,
    render_message,
    split_gold,
)
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import RESOURCE_LIMIT
from toolgym.tools.errors import NON_EXECUTABLE, RUNTIME_ERROR, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.json_calls import ToolCall, load_json, parse_json_call
from toolgym.tools.language import ActionLanguage, AgentHints, Execution
from toolgym.tools.tool import Tool, ToolSet


def _chat(backend: Backend) -> ChatBackend:
    if not isinstance(backend, ChatBackend):
        raise TypeError(
            f"a conversation language runs on a ChatBackend; got {type(backend).__name__}"
        )
    return backend


def _on(execution: Execution, backend: ChatBackend) -> Execution:
    """``execution`` with its attempt on the conversation backend."""
    if execution.attempt is not None and execution.attempt.backend is not None:
        execution.attempt = replace(execution.attempt, backend=backend)
    return execution


class ChatLanguage(ActionLanguage):
    """A family's language with a user channel (see the module docstring).

    Args:
        inner: the family's language.
        tools: the family's tools (to read an action's calls for the guess check).
    """

    def __init__(self, inner: ActionLanguage, tools: ToolSet) -> None:
        self.inner = inner
        self.inner_tools = tools
        # the family's name, finish word and refusal keys, per instance (class-level elsewhere):
        # agents read actions as the family's language does
        vars(self).update(
            name=getattr(inner, "name", type(inner).__name__),
            finish_word=inner.finish_word,
            refusal_info=inner.refusal_info,
            may_block=inner.may_block,
        )
        self.budgets = inner.budgets

    # -- what agents read ------------------------------------------------------------------------
    def hints(self, tools: ToolSet) -> AgentHints:
        """The family's hints, with the user channel in the description of a step."""
        hints = self.inner.hints(_family_tools(tools))
        step = (
            f"{hints.step_description}, or a message to the user written "
            f'{MESSAGE_TOOL_NAME}("...") (the request may leave details out: ask for them, '
            "never guess one; the reply is the observation)"
        )
        return replace(hints, step_description=step, free_text=True)

    def api_calls(self, action: str, tools: ToolSet) -> list[str]:
        """The family's APIs ``action`` calls (messages and questions are not APIs)."""
        rest = inner_gold(action)
        if not rest.strip() or is_message(rest):
            return []
        return self.inner.api_calls(rest, _family_tools(tools))

    def tool_calls(self, action: str, tools: ToolSet) -> list[ToolCall] | None:
        """A message as a ``message_user`` call, any other action as the family reads it."""
        if is_message(action):
            try:
                return [ToolCall(MESSAGE_TOOL_NAME, {"text": read_message_action(action)})]
            except ToolCallError:
                return None
        return self.inner.tool_calls(action, _family_tools(tools))

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar | None:
        """No grammar: a step may be a message in free text."""
        return None

    # -- what runs actions -----------------------------------------------------------------------
    def refusal(self, error: ToolCallError, backend: Backend, program: bool) -> Execution:
        """The family's refusal, on the conversation backend."""
        chat = _chat(backend)
        return _on(self.inner.refusal(error, chat.inner, program), chat)

    def run_program(self, text: str, backend: Backend) -> Execution:
        """A conversation is played one step at a time: a whole program is refused."""
        error = ToolCallError(
            NON_EXECUTABLE,
            "a conversation env plays one step at a time (action_mode='call'): the user answers "
            "between steps",
        )
        return self.refusal(error, backend, True)

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Send a message to the user, or run a family step that guesses nothing."""
        chat = _chat(backend)
        listed = _json_calls(text, self) if text.lstrip().startswith("[") else None
        if listed and any(c.name == MESSAGE_TOOL_NAME for c in listed):
            if len(listed) > 1:
                error = ToolCallError(
                    WRONG_ARGUMENTS,
                    f"a step sends one message ({MESSAGE_TOOL_NAME}) or calls tools; this list "
                    f"holds {len(listed)} calls",
                )
                return self.refusal(error, backend, False)
            text = json.dumps({"name": MESSAGE_TOOL_NAME, "arguments": listed[0].arguments})
        if is_message(text):
            return self._message(text, chat)
        if not chat.untold():  # nothing left to guess: the family's step as it is
            return _on(self.inner.run_call(text, chat.inner), chat)
        before = chat.inner.checkpoint()
        failure: Exception | None = None
        try:
            execution = self.inner.run_call(text, chat.inner)
        except Exception as e:  # the family's own failure: what the step did is checked too
            failure = e
        try:
            calls = chat.inner.calls_since(before)
            if calls is None:  # a backend that cannot tell: the calls as the step writes them
                calls = (
                    self.inner.tool_calls(text, self.inner_tools) or _json_calls(text, self) or []
                )
            guessed = chat.guessed(calls)
        except Exception as e:  # what cannot be checked is not kept (the check fails closed)
            chat.inner.rollback(before)
            return self._unchecked(e)
        if not guessed:
            if failure is not None:
                raise failure
            return _on(execution, chat)
        chat.inner.rollback(before)  # the step is undone: a guess has no effect
        chat.record_guess(guessed)
        titles = ", ".join(chat.vocabulary[k].title for k in guessed)
        error = ToolCallError(
            GUESSED_SLOT,
            f"this step sets {titles}, which the user has not told you: ask the user "
            f"({MESSAGE_TOOL_NAME}) before acting on it; the step was undone",
        )
        info = copy.deepcopy(dict(self.refusal_info))
        info["guessed"] = [chat.vocabulary[k].title for k in guessed]
        return Execution(error.observation(), error, info=info)

    def _unchecked(self, error: Exception) -> Execution:
        """The refusal of a step whose effect the guess check could not read (undone)."""
        if isinstance(error, TooManyValues):
            refusal = ToolCallError(RESOURCE_LIMIT, f"{error}; the step was undone")
        else:
            refusal = ToolCallError(
                RUNTIME_ERROR,
                "what this step did could not be checked against the details the user has not "
                f"told yet ({type(error).__name__}); the step was undone",
            )
        return Execution(
            refusal.observation(), refusal, info=copy.deepcopy(dict(self.refusal_info))
        )

    def _message(self, text: str, chat: ChatBackend) -> Execution:
        try:
            message = read_message_action(text)
        except ToolCallError as e:
            info = copy.deepcopy(dict(self.refusal_info))
            return Execution(e.observation(), e, info=info)
        try:
            turn = chat.converse(message)
        except ToolCallError as e:  # a user that cannot answer (a replay left its recording)
            return Execution(e.observation(), e, info=copy.deepcopy(dict(self.refusal_info)))
        except Exception as e:  # the user's model failed (a server down): not the agent's doing
            failed = ToolCallError(
                USER_FAILED,
                f"the simulated user could not answer: {type(e).__name__}: {str(e)[:200]}",
            )
            info = copy.deepcopy(dict(self.refusal_info))
            return Execution(failed.observation(), failed, info=info)
        said: dict[str, Any] = {"user": {"kind": turn.kind, "turn": len(chat.turns)}}
        if turn.ended:
            return Execution(turn.reply, finished=True, attempt=chat.attempt(), info=said)
        return Execution(turn.reply, info=said)

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """The family's gold (after the questions) on the family's backend."""
        return self.inner.run_gold(inner_gold(gold), _chat(backend).inner)

    def gold_action(self, gold: str) -> str:
        """The family's whole action (a conversation is not played in program mode)."""
        return self.inner.gold_action(inner_gold(gold))

    def gold_steps(self, gold: str) -> list[str]:
        """The questions, one message each, then the family's steps."""
        questions, rest = split_gold(gold)
        return [render_message(q) for q in questions] + self.inner.gold_steps(rest)

    def is_finish(self, text: Any) -> bool:
        """The family's finish word."""
        return self.inner.is_finish(text)

    def finish(self, backend: Backend) -> Execution:
        """The family's finish, on the conversation backend."""
        chat = _chat(backend)
        return _on(self.inner.finish(chat.inner), chat)

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """A message as ``message_user("...")``; any other call as the family writes it."""
        if tool.name == MESSAGE_TOOL_NAME:
            text = arguments.get("text")
            return render_message(text if isinstance(text, str) else str(text))
        return self.inner.render_call(tool, arguments)

    def render_calls(
        self, calls: Sequence[ToolCall], tools: ToolSet, backend: Backend | None = None
    ) -> str:
        """One message alone, or the family's calls (a message among calls cannot be a step)."""
        messages = [c for c in calls if c.name == MESSAGE_TOOL_NAME]
        if messages and len(calls) == 1:
            if not isinstance(calls[0].arguments.get("text"), str):  # refused as the JSON form is
                return json.dumps({"name": MESSAGE_TOOL_NAME, "arguments": calls[0].arguments})
            return self.render_call(MESSAGE_TOOL, calls[0].arguments)
        if messages:
            return "\n".join(render_message(str(c.arguments.get("text", ""))) for c in calls)
        inner = backend.inner if isinstance(backend, ChatBackend) else backend
        return self.inner.render_calls(calls, _family_tools(tools), inner)


def _family_tools(tools: ToolSet) -> ToolSet:
    """``tools`` without ``message_user``."""
    if tools.get(MESSAGE_TOOL_NAME) is None:
        return tools
    return ToolSet([t for t in tools if t.name != MESSAGE_TOOL_NAME])


def _json_calls(text: str, language: ActionLanguage) -> list[ToolCall] | None:
    """The calls of a step written as a JSON call or a list of them, or ``None``."""
    if not text.lstrip().startswith(("{", "[")):
        return None
    try:
        payload = load_json(text, language.budgets, "the step")
        items = payload if isinstance(payload, list) else [payload]
        return [parse_json_call(json.dumps(item), language.budgets) for item in items] or None
    except ToolCallError:
        return None
