"""Calling lists: their text, their placeholders, and what a list gets wrong about the tools.

A calling list is ``[{"api": name, "parameters": {...}, "responses": ["API_call_0", ...]}]``.
Seal-Tools numbers placeholders across the list in call order, one per response field of each
call's tool (:func:`numbering`), and a later call passes a placeholder, as the whole value, to
use that output.

:func:`calling_text` writes a list so that Seal-Tools' parser reads it back unchanged: the
parser turns every ``'`` into ``"`` and balances every square bracket, even inside strings, so
those three characters are written as JSON escapes inside strings (``\\u0027``, ``\\u005b``,
``\\u005d``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from toolgym.families.seal_tools.world import SealTool, is_irregular_reference, is_reference
from toolgym.tools.budgets import short_repr

MAX_PROBLEMS = 10
"""The most problems :func:`call_problems` reports for one list."""

_ESCAPES = {"'": "\\u0027", "[": "\\u005b", "]": "\\u005d"}


def _string(text: str) -> str:
    out = json.dumps(text, ensure_ascii=False)
    for char, escape in _ESCAPES.items():
        out = out.replace(char, escape)
    return out


def _dumps(value: Any) -> str:
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, Mapping):
        items = (f"{_string(str(k))}: {_dumps(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_dumps(v) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps(str(value))
    return json.dumps(value)


def calling_text(calls: Sequence[Mapping[str, Any]]) -> str:
    """A calling list as one line of JSON that Seal-Tools' parser reads back as it is.

    >>> calling_text([{"api": "f", "parameters": {"who": "O'Hara"}, "responses": ["API_call_0"]}])
    '[{"api": "f", "parameters": {"who": "O\\\\u0027Hara"}, "responses": ["API_call_0"]}]'
    """
    return _dumps(list(calls))


def numbering(counts: Sequence[int]) -> list[list[str]]:
    """The placeholders of calls with ``counts`` response fields, numbered as Seal-Tools does.

    >>> numbering([1, 2, 1])
    [['API_call_0'], ['API_call_1', 'API_call_2'], ['API_call_3']]
    """
    out, start = [], 0
    for count in counts:
        out.append([f"API_call_{start + j}" for j in range(count)])
        start += count
    return out


def is_call(item: Any) -> bool:
    """Whether a parsed item is a well-formed call.

    An object with a string ``api``, an object ``parameters`` and a list of strings
    ``responses``.
    """
    return (
        isinstance(item, Mapping)
        and isinstance(item.get("api"), str)
        and isinstance(item.get("parameters"), Mapping)
        and isinstance(item.get("responses"), list)
        and all(isinstance(r, str) for r in item["responses"])
    )


def is_numbered(calls: Sequence[Mapping[str, Any]]) -> bool:
    """Whether each call's ``responses`` are the next placeholders of Seal-Tools' numbering.

    The numbering follows the lists' own lengths: ``API_call_0`` onward, in call order.
    """
    lists = [list(c.get("responses") or []) for c in calls]
    return lists == numbering([len(r) for r in lists])


def call_problems(
    calls: Sequence[Any], tools: Mapping[str, SealTool], offered: Sequence[str] = ()
) -> list[str]:
    """What a parsed calling list gets wrong about the tools (at most :data:`MAX_PROBLEMS`).

    Items that are not calls, APIs that are unknown or not offered, undeclared parameters,
    missing required ones, placeholder counts other than the tool's response fields, a
    numbering other than Seal-Tools', and placeholders no earlier call produced.
    """
    problems: list[str] = []
    produced: set[str] = set()
    offered_names = set(offered)
    for k, item in enumerate(calls):
        if not is_call(item):
            problems.append(
                f"item {k} is not a call (an object with a string api, an object parameters "
                f"and a list responses); got {short_repr(item, 80)}"
            )
            continue
        api = item["api"]
        tool = tools.get(api)
        if tool is None:
            problems.append(f"call {k}: unknown api {short_repr(api, 60)}")
        elif offered_names and api not in offered_names:
            problems.append(f"call {k}: {api} is not in the task's api_list")
        params: Mapping[Any, Any] = item["parameters"]
        if tool is not None:
            unknown = [str(n) for n in params if n not in tool.parameters]
            if unknown:
                problems.append(f"call {k} ({api}): undeclared parameters {short_repr(unknown)}")
            missing = [n for n in tool.required if n not in params]
            if missing:
                problems.append(f"call {k} ({api}): missing required parameters {missing}")
            if len(item["responses"]) != len(tool.responses):
                problems.append(
                    f"call {k} ({api}): expected {len(tool.responses)} response placeholders "
                    f"(one per response field), got {len(item['responses'])}"
                )
        for name, value in params.items():
            where = f"call {k}: {short_repr(name, 40)} = {short_repr(value, 60)}"
            if is_reference(value) and value not in produced:
                problems.append(f"{where} is not a placeholder of an earlier call")
            elif is_irregular_reference(value):
                problems.append(f"{where} holds a placeholder but is not one (the whole value)")
        produced.update(item["responses"])
    if all(is_call(c) for c in calls) and not is_numbered(calls):
        problems.append(
            "the responses are not numbered API_call_0, API_call_1, ... across the calls in order"
        )
    return problems[:MAX_PROBLEMS]
