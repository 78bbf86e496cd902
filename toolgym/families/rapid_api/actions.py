r"""Reading an agent's action: JSON function calls or ToolBench's ``Action``/``Action Input`` text.

One step's action may be written as

* a JSON call, ``{"name": ..., "arguments": {...}}`` (``arguments`` an object or a JSON string);
* OpenAI's shapes: ``{"type": "function", "function": {...}}``, an assistant message with
  ``function_call`` (the older API, as ToolBench's published answers write it) or with
  ``tool_calls`` (the current one);
* ToolBench's text, as ToolLLaMA and completion models write it::

      Thought: I should look the hotel up.
      Action: search_hotels_for_staysearch
      Action Input: {"city": "Lisbon"}

  read by the positions of ``Action:`` and ``Action Input:`` (the thought is optional, and what
  follows the JSON arguments, such as an ``Observation:`` the model made up, is ignored).

A whole-episode action (``program`` mode) is a JSON list of calls, a message with several
``tool_calls``, or several ``Action``/``Action Input`` blocks.

>>> [c.name for c in parse_actions('Thought: hi\nAction: Finish\nAction Input: {"return_type": "give_up_and_restart"}')]
['Finish']
>>> parse_actions('{"role": "assistant", "function_call": {"name": "a", "arguments": "{}"}}')[0]
ToolCall(name='a', arguments={})
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolgym.tools.budgets import DEFAULT_BUDGETS, RESOURCE_LIMIT, Budgets
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError
from toolgym.tools.json_calls import ToolCall, load_json, parse_json_call
from toolgym.tools.line_keywords import LineKeyword

ACTION = LineKeyword(r"Action\s*:", r"\s*(.*)")
"""``Action: <function>`` (group 1: the rest of the line, the function's name)."""
ACTION_INPUT = LineKeyword(r"Action\s+Input\s*:", r"\s*", re.IGNORECASE)
"""``Action Input:`` (its JSON arguments follow)."""
MAX_CALLS = 64
"""The most calls one action may make."""


def _from_payload(payload: Any, budgets: Budgets) -> list[ToolCall]:
    """The calls of a parsed JSON value (any of the shapes in the module docstring)."""
    if isinstance(payload, list):
        if not payload:
            raise ToolCallError(NON_EXECUTABLE, "expected at least one call; got an empty list")
        if len(payload) > MAX_CALLS:
            raise ToolCallError(
                RESOURCE_LIMIT, f"an action makes at most {MAX_CALLS} calls; got {len(payload)}"
            )
        return [c for item in payload for c in _from_payload(item, budgets)]
    if not isinstance(payload, dict):
        raise ToolCallError(
            NON_EXECUTABLE,
            f'a call is {{"name": <function>, "arguments": {{...}}}}; got {type(payload).__name__}',
        )
    if isinstance(payload.get("tool_calls"), list):
        return _from_payload(payload["tool_calls"], budgets)
    if isinstance(payload.get("function_call"), dict):
        payload = payload["function_call"]
    return [parse_json_call(json.dumps(payload), budgets)]


def _text_calls(text: str, budgets: Budgets) -> list[ToolCall]:
    """The calls of ToolBench's ``Action:``/``Action Input:`` text."""
    calls: list[ToolCall] = []
    decoder = json.JSONDecoder()
    for match in ACTION.finditer(text):
        name = match.group(1).strip()
        if name.lower().startswith("input"):
            continue  # an "Action Input:" line
        if len(calls) >= MAX_CALLS:
            raise ToolCallError(
                RESOURCE_LIMIT, f"an action makes at most {MAX_CALLS} calls; got more"
            )
        following_action = ACTION.search(text, match.end())
        found = ACTION_INPUT.search(text, match.end())
        if (
            found is not None
            and following_action is not None
            and found.start() > following_action.start()
        ):
            found = None  # this call has no input of its own
        arguments: Any = {}
        if found is not None:
            following = text[found.end() : found.end() + budgets.max_action_chars].lstrip()
            if following.startswith("{"):
                try:
                    arguments, _ = decoder.raw_decode(following)
                except (ValueError, RecursionError):
                    raise ToolCallError(
                        NON_EXECUTABLE,
                        f"the Action Input of {name[:60]!r} is not a JSON object: "
                        f"{following[:80]!r}",
                    ) from None
            elif following and not following.startswith("Action"):
                line = following.splitlines()[0]
                raise ToolCallError(
                    NON_EXECUTABLE,
                    f"the Action Input of {name[:60]!r} should be a JSON object; got {line[:80]!r}",
                )
        payload = {"name": name, "arguments": arguments}
        calls.append(parse_json_call(json.dumps(payload), budgets))
    return calls


def parse_actions(text: Any, budgets: Budgets = DEFAULT_BUDGETS) -> list[ToolCall]:
    """The calls an action writes, in order (see the module docstring).

    Raises:
        ToolCallError: ``non_executable`` for text that holds no call, ``wrong_arguments`` for
            arguments that are not an object, ``resource_limit`` beyond the budgets.
    """
    if not isinstance(text, str):
        raise ToolCallError(
            NON_EXECUTABLE, f"an action must be a string; got {type(text).__name__}"
        )
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        return _from_payload(load_json(stripped, budgets, "the action"), budgets)
    if ACTION.search(stripped) is None and ACTION_INPUT.search(stripped) is not None:
        stripped = f"Action: {stripped}"  # "<name>" then "Action Input: ...", as agents keep it
    calls = _text_calls(stripped, budgets)
    if not calls:
        raise ToolCallError(
            NON_EXECUTABLE,
            'expected a JSON call {"name": ..., "arguments": {...}} or "Action: <function>" '
            f'and "Action Input: {{...}}" lines; got {stripped[:80]!r}',
        )
    return calls
