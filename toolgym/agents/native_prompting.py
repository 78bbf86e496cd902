"""Prompts for native tool calling: chat messages, the tools offered beside them.

With native tool calling the model gets the task's tools as function schemas (which carry their
docs) and answers with tool calls. The prompt is then chat messages: the system prompt, a user
message with the retrieved demonstrations (the paper's examples block) and the task, and, in a
multi-step episode, each turn as OpenAI writes it: an assistant message with its ``tool_calls``
(ids ``call_<k>``), then one ``tool`` message per call with the observation. A turn the model
answered with text instead is kept as text, and its observation comes back as a user message.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolgym.agents.backends.base import Message
from toolgym.agents.prompting import EXAMPLE_HEADER, _clip, block
from toolgym.tools.budgets import DEFAULT_BUDGETS, check_value
from toolgym.tools.errors import ToolCallError
from toolgym.tools.language import AgentHints

NATIVE_SYSTEM_PROMPT = (
    "You are an assistant that operates software tools by calling them. Do the task with calls "
    "of the tools you are given, with the arguments their schemas describe; the examples show, "
    "in another notation, the calls that similar tasks needed. Reply with tool calls, without "
    "explanation."
)
"""The system prompt of native tool calling (the text protocol's asks for written actions)."""

TOOL_CALL_SYSTEM_PROMPT = (
    "You solve the user's task by calling the tools you are given. Call one tool at a time and "
    "read its answer before the next call. Use only values the task states or a tool returned. "
    "The episode ends when a tool says so."
)
"""The system message of an episode played by tool calls through TRL's environments: GRPO's
rollouts, their test episodes and the supervised tool-call examples (the task itself is the
user's message)."""

SINGLE_INSTRUCTION = "Make every call this task needs, in order, in this reply."
MAX_HISTORY_CALLS = 64
"""The most tool calls of one turn kept in the history."""
SHARED_RESULT = "(The result of this turn's calls is in the result of its first call.)"


@dataclass
class NativeTurn:
    """One multi-step turn as the model wrote it.

    Attributes:
        text: the generation's text (its thought, or the action it wrote as text).
        tool_calls: its tool calls as the history shows them (``None``: it answered with text).
        observation: what the env answered (``None`` until the next turn's prompt).
    """

    text: str
    tool_calls: list[dict[str, Any]] | None
    observation: str | None = None


def history_calls(tool_calls: Sequence[Any], first_id: int) -> list[dict[str, Any]]:
    """A model's tool calls in OpenAI's format, numbered ``call_<first_id>`` on.

    The calls are untrusted: names that are not text are written out, arguments that are not
    JSON text are written as JSON (values too large or deep are left out), and at most
    :data:`MAX_HISTORY_CALLS` are kept.

    >>> history_calls([{"name": "f", "arguments": {"x": 1}}], 3)
    [{'id': 'call_3', 'type': 'function', 'function': {'name': 'f', 'arguments': '{"x": 1}'}}]
    """
    out: list[dict[str, Any]] = []
    if not isinstance(tool_calls, list | tuple):  # not calls at all: nothing to show
        return out
    left = DEFAULT_BUDGETS.max_action_chars  # for the turn's arguments together
    for k, call in enumerate(list(tool_calls)[:MAX_HISTORY_CALLS]):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            function = call if isinstance(call, dict) else {}
        name = function.get("name")
        arguments = _arguments_text(function.get("arguments", function.get("parameters", {})), left)
        left -= len(arguments)
        out.append(
            {
                "id": f"call_{first_id + k}",
                "type": "function",
                "function": {
                    "name": name[:200] if isinstance(name, str) else json.dumps(str(name)[:200]),
                    "arguments": arguments,
                },
            }
        )
    return out


def _arguments_text(arguments: Any, limit: int = DEFAULT_BUDGETS.max_action_chars) -> str:
    """Arguments as JSON text, cut at ``limit`` characters (``"{}"`` when they are not JSON)."""
    if isinstance(arguments, str):
        return arguments[:limit]
    try:
        check_value(arguments, DEFAULT_BUDGETS, "the arguments")
        return json.dumps(arguments)[:limit]
    except (ToolCallError, TypeError, ValueError, RecursionError):
        return "{}"


def native_messages(
    system: str | None,
    query: str,
    demos: Sequence[str],
    turns: Sequence[NativeTurn] | None,
    hints: AgentHints,
    avoid: Sequence[str] = (),
    tool_names: Sequence[str] = (),
) -> list[Message]:
    """The chat messages of a native tool-calling prompt.

    Args:
        system: the system prompt (``None``: none).
        query: the task.
        demos: the rendered demonstrations (the examples block; no docs block: the tools carry
            the docs).
        turns: the episode's turns so far, for a multi-step strategy; ``None`` for a single
            generation.
        hints: how the episode ends (its finish action).
        avoid: actions already tried here that failed (DFSDT), noted after the history.
        tool_names: the names of the tools offered (a finish action that is one of them is
            called; one that is not is said as a word).

    >>> hints = AgentHints("curl", finish_action="finish")
    >>> turn = NativeTurn("", [{"name": "f", "arguments": "{}"}], "HTTP 200")
    >>> [m["role"] for m in native_messages("Be brief.", "Find a cat", [], [turn], hints)]
    ['system', 'user', 'assistant', 'tool']
    """
    task = f"{block(EXAMPLE_HEADER, demos)}\nTask: {query.strip()}".lstrip("\n")
    if turns is None:
        task += f"\n{SINGLE_INSTRUCTION}"
    else:
        task += f"\n{_step_instruction(hints, tool_names)}"
    messages: list[Message] = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": task})
    next_id = 0
    for turn in turns or ():
        if turn.tool_calls:
            calls = [
                {**call, "id": f"call_{next_id + k}"} for k, call in enumerate(turn.tool_calls)
            ]
            next_id += len(calls)
            messages.append({"role": "assistant", "content": turn.text, "tool_calls": calls})
            if turn.observation is not None:
                for k, call in enumerate(calls):
                    content = _clip(turn.observation) if k == 0 else SHARED_RESULT
                    messages.append(
                        {"role": "tool", "tool_call_id": call["id"], "content": content}
                    )
        else:
            messages.append({"role": "assistant", "content": turn.text})
            if turn.observation is not None:
                observation = f"Observation: {_clip(turn.observation)}"
                messages.append({"role": "user", "content": observation})
    if avoid:
        note = (
            f"(Actions already tried at this point, which failed: {'; '.join(avoid)}. "
            "Try something different.)"
        )
        if messages[-1]["role"] == "user":
            messages[-1] = {**messages[-1], "content": f"{messages[-1]['content']}\n{note}"}
        else:
            messages.append({"role": "user", "content": note})
    return messages


def _step_instruction(hints: AgentHints, tool_names: Sequence[str]) -> str:
    """How a multi-step episode goes, and how it ends.

    >>> hints = AgentHints("function_calls", finish_action="Finish")
    >>> _step_instruction(hints, ["Finish"]).endswith("The last call is Finish, which submits the answer.")
    True
    """
    text = "Solve the task step by step: call one tool at a time; you will then see its result."
    finish = (hints.finish_action or "").strip().splitlines()
    if finish and finish[0] in tool_names:
        return f"{text} The last call is {finish[0]}, which submits the answer."
    if finish and finish[0].isidentifier():
        return f"{text} When the task is done, reply with the word {finish[0]} and no tool call."
    if finish:
        return f"{text} The last call submits the answer ({finish[0]})."
    return text
