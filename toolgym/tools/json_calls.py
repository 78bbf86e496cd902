r"""JSON tool calls, for agents that speak OpenAI-style function calling.

In ``call`` mode an action may be one JSON object instead of a line of code::

    {"name": "set_location", "arguments": {"value": "Austin"}}
    {"type": "function", "function": {"name": "set_origin", "arguments": "{\\"origin\\": \\"Ontario\\"}"}}

``arguments`` may be an object or a JSON-encoded string (as OpenAI returns it). Parameters whose
type is a value class are converted: a ``Loc`` from a city string, a ``Date`` from
``{"month", "day", "year"}`` or an ISO ``"YYYY-MM-DD"`` string. The call then runs exactly as the
equivalent program line would.
"""

from __future__ import annotations

import json
from typing import Any

from toolgym.tools.api import ToolSession
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_ARGUMENTS, ToolCallError


def looks_like_json_call(action: str) -> bool:
    """Whether the action is meant as a JSON object (starts with ``{``)."""
    return action.lstrip().startswith("{")


def run_json_call(action: str, session: ToolSession) -> Any:
    """Run one JSON tool call in ``session`` and return its result."""
    try:
        payload = json.loads(action)
    except json.JSONDecodeError as e:
        raise ToolCallError(NON_EXECUTABLE, f"not valid JSON ({e.msg} at char {e.pos})") from None
    if isinstance(payload, dict) and isinstance(payload.get("function"), dict):
        payload = payload["function"]
    if not isinstance(payload, dict) or not isinstance(payload.get("name"), str):
        raise ToolCallError(
            NON_EXECUTABLE,
            'a JSON call must be {"name": <function>, "arguments": {...}}; '
            f"got {str(action)[:80]!r}",
        )
    arguments = payload.get("arguments", {})
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as e:
            raise ToolCallError(NON_EXECUTABLE, f"arguments are not valid JSON ({e.msg})") from None
    if not isinstance(arguments, dict):
        raise ToolCallError(WRONG_ARGUMENTS, f"arguments must be an object; got {arguments!r}")
    name = payload["name"].removeprefix(f"{session.api_name}.")
    owner = None if name in session.constructors else session.api_name
    fn = session.resolve(owner, name)
    kwargs = {}
    for key, value in arguments.items():
        param = next((p for p in fn.params if p.name == key), None)
        if param is not None and param.type in session.constructors:
            value = _construct(session, param.type, value)
        kwargs[key] = value
    return session.invoke(fn, [], kwargs)


def _construct(session: ToolSession, type_name: str, value: Any) -> Any:
    constructor = session.constructors[type_name]
    if isinstance(value, dict):
        return session.invoke(constructor.function, [], value)
    if type_name == "Date" and isinstance(value, str):
        try:
            year, month, day = (int(p) for p in value.split("-"))
        except ValueError:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f'a Date must be {{"month", "day", "year"}} or "YYYY-MM-DD"; got {value!r}',
            ) from None
        return session.invoke(constructor.function, [month, day, year], {})
    return session.invoke(constructor.function, [value], {})
