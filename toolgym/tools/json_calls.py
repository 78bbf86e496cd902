r"""JSON tool calls, for agents that speak OpenAI-style function calling.

An action may be one JSON object instead of a line of code or a curl command::

    {"name": "set_location", "arguments": {"value": "Austin"}}
    {"type": "function", "function": {"name": "set_origin", "arguments": "{\\"origin\\": \\"Ontario\\"}"}}

``arguments`` may be an object or a JSON-encoded string (as OpenAI returns it), and may be left
out. :func:`parse_json_call` turns the text into a :class:`ToolCall`; the backend of the family
then runs it exactly as the equivalent line of its own action language would.

>>> parse_json_call('{"name": "search", "arguments": "{\\"q\\": 1}"}')
ToolCall(name='search', arguments={'q': 1})
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from toolgym.tools.budgets import DEFAULT_BUDGETS, RESOURCE_LIMIT, Budgets, check_value
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_ARGUMENTS, ToolCallError


@dataclass(frozen=True)
class ToolCall:
    """A call by name with keyword arguments, as function-calling agents write it."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


class JsonCallText(str):
    """The text of one JSON call, written by code, that carries the value it encodes.

    Code that writes a call's JSON from values it has checked (``ToolEpisode`` does, for a
    client's tool call) hands the env the text as usual (made by :func:`carrying`), and :func:`load_json` takes the value
    from here instead of parsing the text again. The writer vouches that ``value`` is what
    ``json.loads(text)`` gives: equal, of the same exact types, and sharing no list or dict
    with anything else. The value is given once; a second read of the same text parses it.
    Agent text is never of this type (an env receives it only from code), and any copy, slice
    or pickle of it is a plain ``str``.
    """

    value: Any

    def take(self) -> Any:
        """The carried value the first time (``None`` after that)."""
        return self.__dict__.pop("value", None)

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return str, (str(self),)  # pickled and copied as the plain text


def carrying(text: str, value: Any) -> JsonCallText:
    """``text`` as a :class:`JsonCallText` that carries ``value`` (``json.loads(text)``)."""
    made = JsonCallText(text)
    made.value = value
    return made


def looks_like_json_call(action: Any) -> bool:
    """Whether the action is meant as a JSON object (a string starting with ``{``)."""
    return isinstance(action, str) and action.lstrip().startswith("{")


def load_json(text: str, budgets: Budgets = DEFAULT_BUDGETS, what: str = "the JSON") -> Any:
    """``json.loads(text)``, with every failure an agent mistake and the value within budgets.

    Raises:
        ToolCallError: ``non_executable`` for text that is not JSON (nesting too deep to parse
            and integers too long to convert included), ``resource_limit`` for a value beyond
            the budgets.
    """
    if len(text) > budgets.max_action_chars:
        raise ToolCallError(
            RESOURCE_LIMIT,
            f"{what} has {len(text)} characters; at most {budgets.max_action_chars}",
        )
    value = text.take() if type(text) is JsonCallText else None
    try:
        value = json.loads(text) if value is None else value
    except json.JSONDecodeError as e:
        raise ToolCallError(NON_EXECUTABLE, f"not valid JSON ({e.msg} at char {e.pos})") from None
    except RecursionError:
        raise ToolCallError(RESOURCE_LIMIT, f"{what} is nested too deep to read") from None
    except ValueError as e:  # e.g. an integer of more digits than Python converts
        raise ToolCallError(NON_EXECUTABLE, f"not valid JSON ({str(e)[:120]})") from None
    if not within_value_budgets(text, budgets):
        check_value(value, budgets, what)
    return value


def within_value_budgets(text: str, budgets: Budgets) -> bool:
    """Whether any value parsed from the JSON ``text`` is surely within the value budgets.

    Every item of a parsed value takes characters of its own in the text, and every level of
    nesting an opening bracket, so a short text with few brackets needs no walk of its value
    (:func:`~toolgym.tools.budgets.check_value`). ``False`` means only that the value must be
    measured.

    >>> within_value_budgets('{"name": "search", "arguments": {"q": [1, 2]}}', DEFAULT_BUDGETS)
    True
    >>> within_value_budgets("[" * 17 + "]" * 17, DEFAULT_BUDGETS)
    False
    """
    return (
        len(text) <= budgets.max_value_items
        and text.count("[") + text.count("{") <= budgets.max_value_depth
    )


def parse_json_call(action: str, budgets: Budgets = DEFAULT_BUDGETS) -> ToolCall:
    """The call written in ``action``.

    Raises:
        ToolCallError: ``non_executable`` for text that is not such a JSON object,
            ``wrong_arguments`` for arguments that are not an object, ``resource_limit`` for a
            call beyond the budgets.
    """
    payload = load_json(action, budgets, "the JSON call")
    if isinstance(payload, dict) and isinstance(payload.get("function"), dict):
        payload = payload["function"]
    if not isinstance(payload, dict) or not isinstance(payload.get("name"), str):
        raise ToolCallError(
            NON_EXECUTABLE,
            'a JSON call must be {"name": <function>, "arguments": {...}}; '
            f"got {str(action)[:80]!r}",
        )
    arguments = payload.get("arguments") or {}
    if isinstance(arguments, str):
        arguments = load_json(arguments, budgets, "the arguments") if arguments.strip() else {}
    if not isinstance(arguments, dict):
        raise ToolCallError(
            WRONG_ARGUMENTS, f"arguments must be an object; got {str(arguments)[:80]!r}"
        )
    return ToolCall(payload["name"], arguments)
