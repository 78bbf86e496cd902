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

import copy
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


class CallTally:
    """What a calling list gets wrong about the tools, read a step's calls at a time.

    In ``call`` mode an answer grows by a few calls a step; each step reads only its own calls
    and keeps what later calls need (the placeholders produced, the numbering so far), so a
    step costs the same late in an episode as early. :func:`call_problems` reads a whole list
    at once with the same result.

    A tally holds no tools (each :meth:`add` is given them), so a snapshot that holds one
    stays small to copy and to send.

    Args:
        offered: the task's ``api_list`` (empty: any known API may be called).
    """

    def __init__(self, offered: Sequence[str] = ()) -> None:
        self.offered = frozenset(offered)
        self.items = 0
        self.placeholders = 0
        """The answer's next placeholder number: the responses of every object read so far."""
        self.numbering = 0
        """The next placeholder in Seal-Tools' numbering: the responses of the calls so far."""
        self.numbered = True
        """Whether every call so far holds the next placeholders of that numbering."""
        self.all_calls = True
        """Whether every item so far is a call."""
        self.produced: set[str] = set()
        """The placeholders the calls so far produce."""
        self.item_problems: list[str] = []
        """The first problems of single items, at most :data:`MAX_PROBLEMS`."""

    def copy(self) -> CallTally:
        """An independent copy (for a backend's snapshot)."""
        out = copy.copy(self)
        out.produced = set(self.produced)
        out.item_problems = list(self.item_problems)
        return out

    def add(self, calls: Sequence[Any], tools: Mapping[str, SealTool]) -> CallTally:
        """Read the next calls of the list against ``tools`` (by ``api_name``); returns itself."""
        for item in calls:
            self._read(self.items, item, tools)
            self.items += 1
        return self

    def problems(self) -> list[str]:
        """The problems of the list so far (at most :data:`MAX_PROBLEMS`)."""
        problems = list(self.item_problems)
        if self.all_calls and not self.numbered:
            problems.append(
                "the responses are not numbered API_call_0, API_call_1, ... across the calls "
                "in order"
            )
        return problems[:MAX_PROBLEMS]

    def _note(self, problem: str) -> None:
        if len(self.item_problems) < MAX_PROBLEMS:
            self.item_problems.append(problem)

    def _read(self, k: int, item: Any, tools: Mapping[str, SealTool]) -> None:
        responses = item.get("responses") if isinstance(item, dict) else None
        if isinstance(responses, list):
            self.placeholders += len(responses)
        if not is_call(item):
            self.all_calls = False
            self._note(
                f"item {k} is not a call (an object with a string api, an object parameters "
                f"and a list responses); got {short_repr(item, 80)}"
            )
            return
        responses = item["responses"]
        start, self.numbering = self.numbering, self.numbering + len(responses)
        if self.numbered:
            self.numbered = responses == [f"API_call_{start + j}" for j in range(len(responses))]
        api = item["api"]
        tool = tools.get(api)
        if tool is None:
            self._note(f"call {k}: unknown api {short_repr(api, 60)}")
        elif self.offered and api not in self.offered:
            self._note(f"call {k}: {api} is not in the task's api_list")
        params: Mapping[Any, Any] = item["parameters"]
        if tool is not None:
            unknown = [str(n) for n in params if n not in tool.parameters]
            if unknown:
                self._note(f"call {k} ({api}): undeclared parameters {short_repr(unknown)}")
            missing = [n for n in tool.required if n not in params]
            if missing:
                self._note(f"call {k} ({api}): missing required parameters {missing}")
            if len(item["responses"]) != len(tool.responses):
                self._note(
                    f"call {k} ({api}): expected {len(tool.responses)} response placeholders "
                    f"(one per response field), got {len(item['responses'])}"
                )
        for name, value in params.items():
            if is_reference(value) and value not in self.produced:
                problem = "is not a placeholder of an earlier call"
            elif is_irregular_reference(value):
                problem = "holds a placeholder but is not one (the whole value)"
            else:
                continue
            self._note(f"call {k}: {short_repr(name, 40)} = {short_repr(value, 60)} {problem}")
        self.produced.update(item["responses"])


def call_problems(
    calls: Sequence[Any], tools: Mapping[str, SealTool], offered: Sequence[str] = ()
) -> list[str]:
    """What a parsed calling list gets wrong about the tools (at most :data:`MAX_PROBLEMS`).

    Items that are not calls, APIs that are unknown or not offered, undeclared parameters,
    missing required ones, placeholder counts other than the tool's response fields, a
    numbering other than Seal-Tools', and placeholders no earlier call produced.
    """
    return CallTally(offered).add(calls, tools).problems()
