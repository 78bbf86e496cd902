r"""Tool calls in a local model's text, in the formats chat templates teach.

A model served through its chat template with ``tools`` writes its calls as text; this module
finds them and returns them as OpenAI tool calls (``{"id", "type": "function", "function":
{"name", "arguments": "<JSON text>"}}``), with the text that was outside them. The formats:

* Hermes, Qwen 2.5/3 and most fine-tunes: ``<tool_call>{"name": ..., "arguments": {...}}
  </tool_call>``, one block per call (a last block that the generation ended inside is read too);
* Mistral: ``[TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]``, or the newer
  ``[TOOL_CALLS]name[ARGS]{...}`` per call;
* Llama 3.x: ``<|python_tag|>{"name": ..., "parameters": {...}}`` (calls may be separated by
  ``;``), or a reply that is a bare JSON call (or a list of calls) with ``name`` and
  ``parameters`` or ``arguments``.

The other way, :func:`template_message` hands a chat template a message's earlier tool calls
as it takes them (arguments as objects).

The text is untrusted: JSON is decoded with Python's decoder only (nothing is evaluated), values
are checked against the action budgets, and anything that does not read as a call stays text.
Every call found is returned (how many a reply may make is the env's budget to enforce).

>>> text, calls = parse_tool_calls('Let me look.<tool_call>\n{"name": "search", '
...                                '"arguments": {"q": "tabby"}}\n</tool_call>')
>>> text, calls[0]["function"]
('Let me look.', {'name': 'search', 'arguments': '{"q": "tabby"}'})
>>> parse_tool_calls('[TOOL_CALLS][{"name": "a", "arguments": {}}, {"name": "b"}]')[1][1]["id"]
'call_1'
>>> parse_tool_calls('<|python_tag|>{"name": "f", "parameters": {"x": 1}}')[1][0]["function"]
{'name': 'f', 'arguments': '{"x": 1}'}
>>> parse_tool_calls("No call here: {not json}")
('No call here: {not json}', [])
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets, check_value
from toolgym.tools.errors import ToolCallError
from toolgym.tools.json_calls import load_json

_HERMES = re.compile(r"<tool_call>(.*?)(?:</tool_call>|$)", re.DOTALL)
_MISTRAL = "[TOOL_CALLS]"
_MISTRAL_ARGS = re.compile(r"\s*([A-Za-z_][\w.\-]{0,200})\[ARGS\]")
_PYTHON_TAG = "<|python_tag|>"
_SEPARATORS = re.compile(r"[\s;]*")
_DECODER = json.JSONDecoder()


def parse_tool_calls(
    text: str, budgets: Budgets = DEFAULT_BUDGETS
) -> tuple[str, list[dict[str, Any]]]:
    """The text outside the tool calls, and the calls in OpenAI's format (ids ``call_<k>``).

    Args:
        text: the generated text, special tokens kept (``[TOOL_CALLS]``, ``<|python_tag|>``).
        budgets: limits of the JSON read (its length, its values' size and depth).

    Returns:
        ``(text, calls)``: ``calls`` is empty, and ``text`` unchanged, when the text holds none.
    """
    if len(text) > budgets.max_action_chars * 4:  # far beyond any action: read as text
        return text, []
    for reader in (_hermes, _mistral, _python_tag, _bare):
        found = reader(text, budgets)
        if found is not None and found[1]:
            outside, calls = found
            return outside.strip(), [_openai(call, k) for k, call in enumerate(calls)]
    return text, []


def _hermes(text: str, budgets: Budgets) -> tuple[str, list[dict[str, Any]]] | None:
    """``<tool_call>{...}</tool_call>`` blocks (a block that does not read stays text)."""
    if "<tool_call>" not in text:
        return None
    calls, kept, last = [], [], 0
    for match in _HERMES.finditer(text):
        found = _calls_in(match.group(1).strip(), budgets)
        if not found:
            continue
        kept.append(text[last : match.start()])
        last = match.end()
        calls.extend(found)
    kept.append(text[last:])
    return "".join(kept), calls


def _mistral(text: str, budgets: Budgets) -> tuple[str, list[dict[str, Any]]] | None:
    """``[TOOL_CALLS]`` then a JSON list of calls, or ``name[ARGS]{...}`` calls."""
    at = text.find(_MISTRAL)
    if at < 0:
        return None
    rest = text[at + len(_MISTRAL) :]
    decoded = _decode(rest, len(rest) - len(rest.lstrip()), budgets)
    if decoded is not None:
        calls = _as_calls(decoded[0])
        if calls:
            return text[:at] + rest[decoded[1] :], calls
    calls, position = [], 0
    while True:
        named = _MISTRAL_ARGS.match(rest, position)
        if named is None:
            break
        arguments = _decode(rest, named.end(), budgets)
        if arguments is None or not isinstance(arguments[0], dict):
            break
        calls.append({"name": named.group(1), "arguments": arguments[0]})
        position = arguments[1]
        following = rest.find(_MISTRAL, position)
        if following >= 0 and not rest[position:following].strip():
            position = following + len(_MISTRAL)
    if not calls:
        return None
    return text[:at] + rest[position:], calls


def _python_tag(text: str, budgets: Budgets) -> tuple[str, list[dict[str, Any]]] | None:
    """``<|python_tag|>`` then JSON calls, separated by ``;``."""
    at = text.find(_PYTHON_TAG)
    if at < 0:
        return None
    rest = text[at + len(_PYTHON_TAG) :]
    calls: list[dict[str, Any]] = []
    position = 0
    while True:
        separators = _SEPARATORS.match(rest, position)
        position = separators.end() if separators else position
        decoded = _decode(rest, position, budgets)
        found = _as_calls(decoded[0]) if decoded is not None else []
        if decoded is None or not found:
            break
        calls.extend(found)
        position = decoded[1]
    return (text[:at] + rest[position:], calls) if calls else None


def _bare(text: str, budgets: Budgets) -> tuple[str, list[dict[str, Any]]] | None:
    """A reply that starts with a JSON call, or a JSON list of calls."""
    start = len(text) - len(text.lstrip())
    if not text[start:].startswith(("{", "[")):
        return None
    decoded = _decode(text, start, budgets)
    if decoded is None:
        return None
    calls = _as_calls(decoded[0], with_arguments=True)
    return (text[decoded[1] :], calls) if calls else None


def _calls_in(text: str, budgets: Budgets) -> list[dict[str, Any]]:
    """The calls of a text that is wholly one JSON call or list of calls."""
    decoded = _decode(text, 0, budgets)
    if decoded is None or text[decoded[1] :].strip():
        return []
    return _as_calls(decoded[0])


def _decode(text: str, start: int, budgets: Budgets) -> tuple[Any, int] | None:
    """The JSON value starting at ``start`` and where it ends, or ``None``."""
    try:
        value, end = _DECODER.raw_decode(text, start)
        check_value(value, budgets, "a tool call")
    except (ValueError, RecursionError, ToolCallError):
        return None
    if end - start > budgets.max_action_chars:
        return None
    return value, end


def _as_calls(value: Any, with_arguments: bool = False) -> list[dict[str, Any]]:
    """``value`` as calls ``{"name", "arguments"}`` (empty unless it is a call or a list of them).

    Args:
        value: decoded JSON.
        with_arguments: count only objects that name their arguments (``arguments`` or
            ``parameters``), for JSON that no tool-call marker announced.
    """
    items = value if isinstance(value, list) else [value]
    calls = []
    for item in items:
        payload = item.get("function", item) if isinstance(item, dict) else None
        if not isinstance(payload, dict) or not isinstance(payload.get("name"), str):
            return []
        if with_arguments and not ("arguments" in payload or "parameters" in payload):
            return []
        arguments = payload.get("arguments", payload.get("parameters", {}))
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict | str):
            return []
        calls.append({"name": payload["name"], "arguments": arguments})
    return calls


def _openai(call: dict[str, Any], k: int) -> dict[str, Any]:
    """A call in OpenAI's format: arguments as JSON text (a string given is kept as it is)."""
    arguments = call["arguments"]
    return {
        "id": f"call_{k}",
        "type": "function",
        "function": {
            "name": call["name"],
            "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
        },
    }


def template_message(message: dict[str, Any]) -> dict[str, Any]:
    """A message as chat templates take it: tool-call arguments as objects, not JSON text.

    OpenAI's messages carry arguments as JSON text; templates write them with ``tojson``, which
    would quote the text again. Arguments that do not read as a JSON object stay text.
    """
    calls = message.get("tool_calls")
    if not calls:
        return message
    converted = []
    for call in calls:
        function = call.get("function") if isinstance(call, dict) else None
        arguments = function.get("arguments") if isinstance(function, dict) else None
        if isinstance(function, dict) and isinstance(arguments, str):  # a str only from a dict
            try:
                value = load_json(arguments) if arguments.strip() else {}
            except ToolCallError:
                value = None
            if isinstance(value, dict):
                call = {**call, "function": {**function, "arguments": value}}
        converted.append(call)
    return {**message, "tool_calls": converted}
