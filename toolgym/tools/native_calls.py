"""A model's native tool calls as an action of an env's own language.

Chat models with function calling answer with tool calls instead of text: OpenAI's
``{"id", "type": "function", "function": {"name", "arguments": "<JSON text>"}}``, or the plainer
``{"name", "arguments"}`` with an object or a JSON string (``parameters`` is read as
``arguments``, as Llama writes it). :func:`read_native_calls` reads them as untrusted model
output, within the action budgets; :func:`native_action` turns them into the text the env's action
language runs (:meth:`~toolgym.tools.language.ActionLanguage.render_calls`), so a call is scored
exactly as the same call written in that language. Calls that cannot be read become text that
no language runs (``Unreadable tool calls (<why>): <their JSON>``), so the env reports them as a
``non_executable`` action and the model sees why.

>>> from toolgym.tools.json_language import JsonCallLanguage
>>> from toolgym.tools.tool import Tool, ToolSet
>>> tools = ToolSet([Tool("search", "")])
>>> call = {"id": "call_0", "type": "function",
...         "function": {"name": "search", "arguments": '{"q": "tabby"}'}}
>>> native_action([call], JsonCallLanguage(tools), tools)
'{"name": "search", "arguments": {"q": "tabby"}}'
>>> native_action([{"name": "search", "arguments": "{oops"}], JsonCallLanguage(tools), tools)
... # doctest: +ELLIPSIS
'Unreadable tool calls (not valid JSON (...)): [{"name": "search", "arguments": "{oops"}]'
"""

from __future__ import annotations

import json
from typing import Any

from toolgym.tools.backend import Backend
from toolgym.tools.budgets import DEFAULT_BUDGETS, RESOURCE_LIMIT, Budgets, check_value
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError
from toolgym.tools.json_calls import ToolCall, parse_json_call
from toolgym.tools.language import ActionLanguage
from toolgym.tools.tool import ToolSet

MAX_NATIVE_CALLS = 64
"""The most tool calls one reply may make."""


def read_native_calls(tool_calls: Any, budgets: Budgets = DEFAULT_BUDGETS) -> list[ToolCall]:
    """The calls of a model's reply, checked against ``budgets``.

    Raises:
        ToolCallError: ``non_executable`` for anything but a non-empty list of calls by name,
            ``wrong_arguments`` for arguments that are not an object, ``resource_limit`` for too
            many calls or values beyond the budgets.

    >>> read_native_calls([{"name": "a", "parameters": {"x": 1}}])
    [ToolCall(name='a', arguments={'x': 1})]
    """
    if not isinstance(tool_calls, list | tuple) or not tool_calls:
        raise ToolCallError(
            NON_EXECUTABLE,
            f"expected a non-empty list of tool calls; got {_kind(tool_calls)}",
        )
    if len(tool_calls) > MAX_NATIVE_CALLS:
        raise ToolCallError(
            RESOURCE_LIMIT,
            f"a reply makes at most {MAX_NATIVE_CALLS} tool calls; got {len(tool_calls)}",
        )
    calls = []
    for k, item in enumerate(tool_calls, 1):
        check_value(item, budgets, f"tool call {k}")
        payload = item.get("function") if isinstance(item, dict) else None
        if not isinstance(payload, dict):
            payload = item
        if not isinstance(payload, dict):
            raise ToolCallError(
                NON_EXECUTABLE,
                f'tool call {k} must be {{"name": ..., "arguments": ...}}; got {_kind(item)}',
            )
        arguments = payload.get("arguments", payload.get("parameters"))
        try:
            text = json.dumps({"name": payload.get("name"), "arguments": arguments})
        except (TypeError, ValueError) as e:  # values that are not JSON
            raise ToolCallError(
                NON_EXECUTABLE, f"tool call {k} is not JSON ({str(e)[:80]})"
            ) from None
        calls.append(parse_json_call(text, budgets))
    return calls


FINISH_TOOL = "finish"
"""The tool call that ends an episode whose language ends it with a word (``finish``)."""


def finish_tool_name(tools: ToolSet) -> str:
    """The finish tool's name beside ``tools``.

    ``finish``, or ``finish_episode`` (and so on) when a tool already has that name.
    """
    names = {tool.name for tool in tools}
    name = FINISH_TOOL
    while name in names:
        name = f"{name}_episode"
    return name


def native_action(
    tool_calls: Any,
    language: ActionLanguage,
    tools: ToolSet,
    budgets: Budgets = DEFAULT_BUDGETS,
    backend: Backend | None = None,
    finish: tuple[str, str] | None = None,
) -> str:
    """The action of ``language`` that makes ``tool_calls``; never raises for bad calls.

    ``backend`` is the episode's, for languages whose next action depends on its state
    (:meth:`~toolgym.tools.language.ActionLanguage.render_calls`). ``finish`` is ``(tool name,
    word)``: a call to that tool alone is the language's finish word, or its ``message`` where
    the language ends turns on words (``finish_words``).

    Calls that cannot be read come back as :func:`unreadable_calls_text`: their JSON after a
    line that no action language runs, so the env reports a ``non_executable`` action that says
    what was wrong. (The bare JSON is not enough: a list literal is a Python statement that runs
    and does nothing.)
    """
    try:
        calls = read_native_calls(tool_calls, budgets)
        if finish is not None and len(calls) == 1 and calls[0].name == finish[0]:
            # the finish tool, as oracle_calls writes it; with words where the language takes
            # them (``finish_words``: BFCL's turns end on a reply in words)
            said = calls[0].arguments.get("message")
            if getattr(language, "finish_words", False) and isinstance(said, str) and said.strip():
                return said.strip()
            return finish[1]
        return language.render_calls(calls, tools, backend)
    except ToolCallError as e:  # unreadable, or not writable in the language (a bad name)
        return unreadable_calls_text(tool_calls, e.message, budgets)


def gold_calls(
    actions: list[str],
    language: ActionLanguage,
    tools: ToolSet,
    finish_word: str | None,
    finish_tool: str | None,
) -> list[dict[str, Any]] | None:
    """A gold's actions as native tool calls (``{"name", "arguments"}``), one per step, in order.

    The finish word is a call to ``finish_tool`` with no arguments. A step that only names a
    value (``x = Loc("Austin")``) is no call: the value goes into the later calls that use the
    name. ``None`` when an action is more than calls (loops, a call whose result is kept).
    """
    out: list[dict[str, Any]] = []
    named: list[str] = []  # the steps that name values, read again before each later step
    for action in actions:
        if finish_word is not None and action.strip() == finish_word:
            out.append({"name": finish_tool, "arguments": {}})
            continue
        calls = language.tool_calls(action, tools)
        if calls is None and named:
            calls = language.tool_calls("\n".join([*named, action]), tools)
        if calls is None:
            return None
        if not calls:
            named.append(action)
        out.extend({"name": c.name, "arguments": dict(c.arguments)} for c in calls)
    return out


def unreadable_calls_text(tool_calls: Any, why: str, budgets: Budgets = DEFAULT_BUDGETS) -> str:
    """Text for tool calls that cannot be read: why, then their JSON (never raises).

    The JSON is cut to the action budget; a value that is not JSON, or too large to write out,
    is described instead.

    >>> unreadable_calls_text("not a list", "expected a list")
    'Unreadable tool calls (expected a list): "not a list"'
    """
    try:
        check_value(tool_calls, budgets, "the tool calls")
        raw = json.dumps(tool_calls)
    except (ToolCallError, TypeError, ValueError, RecursionError):
        raw = json.dumps(f"<{_kind(tool_calls)} that is not JSON or too large>")
    reason = " ".join(why.split())[:200]
    return f"Unreadable tool calls ({reason}): {raw}"[: budgets.max_action_chars]


def _kind(value: Any) -> str:
    """What ``value`` is, for messages: its type and length."""
    size = f" of {len(value)} items" if isinstance(value, list | tuple | dict) else ""
    return f"{type(value).__name__}{size}"
