"""The JSON-call action language: function calling without any other syntax.

An action is one JSON tool call, ``{"name": ..., "arguments": {...}}`` (OpenAI's nested
``{"type": "function", "function": {...}}`` form works too), or, in ``program`` mode, a JSON list
of them, run in order until one fails. In ``call`` mode each step is one call, and the episode
ends at a terminal tool or when the agent says ``finish``. Every backend that implements
:meth:`~toolgym.tools.backend.Backend.call` can be driven this way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError
from toolgym.tools.grammar import ActionGrammar, json_call, json_list, one_of
from toolgym.tools.json_calls import JsonCallText, ToolCall, load_json, parse_json_call
from toolgym.tools.language import ActionLanguage, AgentHints, Execution
from toolgym.tools.tool import Tool, ToolSet


def parse_json_calls(text: Any, budgets: Budgets = DEFAULT_BUDGETS) -> list[ToolCall]:
    """The calls of an action: one JSON call, or a JSON list of calls.

    Raises:
        ToolCallError: ``non_executable`` for anything else.

    >>> [c.name for c in parse_json_calls('[{"name": "a"}, {"name": "b", "arguments": {}}]')]
    ['a', 'b']
    """
    if not isinstance(text, str):
        raise ToolCallError(
            NON_EXECUTABLE, f"an action must be a string; got {type(text).__name__}"
        )
    stripped = text if type(text) is JsonCallText else text.strip()  # (code's call: stripped)
    if not stripped.startswith("["):
        return [parse_json_call(stripped, budgets)]
    items = load_json(stripped, budgets, "the list of calls")
    if not isinstance(items, list) or not items:
        raise ToolCallError(NON_EXECUTABLE, "expected a non-empty JSON list of calls")
    return [parse_json_call(json.dumps(item), budgets) for item in items]


def json_calls_text(calls: Sequence[ToolCall]) -> str:
    """One call as its JSON object, several as a JSON list of them.

    >>> json_calls_text([ToolCall("a", {"x": 1})])
    '{"name": "a", "arguments": {"x": 1}}'
    >>> json_calls_text([ToolCall("a"), ToolCall("b")])
    '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]'
    """
    items = [{"name": c.name, "arguments": dict(c.arguments)} for c in calls]
    return json.dumps(items[0] if len(items) == 1 else items)


class JsonCallsSyntax(ActionLanguage):
    """What every language whose action is a list of tool calls shares: reading and writing calls.

    An action parses into :class:`~toolgym.tools.json_calls.ToolCall` objects
    (:meth:`parse_calls`; by default one JSON call or a JSON list of them); calls are written as
    JSON, the tools an action calls and its signature come from the parsed calls, and the action
    in a generation is its first JSON value. :class:`JsonCallLanguage` and the function-calling
    languages of families build on it.
    """

    @classmethod
    def parse_calls(cls, text: Any, budgets: Budgets = DEFAULT_BUDGETS) -> list[ToolCall]:
        """The calls of an action.

        Raises:
            ToolCallError: the action is not calls in this syntax.
        """
        return parse_json_calls(text, budgets)

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """``{"name": ..., "arguments": {...}}``."""
        return json.dumps({"name": tool.name, "arguments": dict(arguments)})

    def render_calls(
        self, calls: Sequence[ToolCall], tools: ToolSet, backend: Backend | None = None
    ) -> str:
        """One call as its JSON object, several as a JSON list (names kept as they are).

        >>> tools = ToolSet([Tool("add", "")])
        >>> JsonCallLanguage(tools).render_calls([ToolCall("add", {"x": 1}), ToolCall("?")], tools)
        '[{"name": "add", "arguments": {"x": 1}}, {"name": "?", "arguments": {}}]'
        """
        return json_calls_text(calls)

    def api_calls(self, action: str, tools: ToolSet) -> list[str]:
        """The tools the action's calls name, in order (none when it does not parse).

        >>> tools = ToolSet([Tool("add", ""), Tool("done", "")])
        >>> JsonCallLanguage(tools).api_calls('[{"name": "add"}, {"name": "add"}]', tools)
        ['add', 'add']
        """
        try:
            calls = self.parse_calls(action, self.budgets)
        except ToolCallError:
            return []
        known = {tool.name: tool.qualname for tool in tools}
        return [known[c.name] for c in calls if c.name in known]

    def tool_calls(self, action: str, tools: ToolSet) -> list[ToolCall] | None:
        """The action's calls, when it parses and calls only ``tools``.

        >>> tools = ToolSet([Tool("add", "")])
        >>> JsonCallLanguage(tools).tool_calls('{"name": "add", "arguments": {"x": 1}}', tools)
        [ToolCall(name='add', arguments={'x': 1})]
        """
        try:
            calls = self.parse_calls(action, self.budgets)
        except ToolCallError:
            return None
        known = {tool.name for tool in tools}
        return calls if calls and all(c.name in known for c in calls) else None

    @classmethod
    def signature(cls, action: str) -> frozenset[str]:
        """The names of the tools called and of their arguments.

        >>> sorted(JsonCallLanguage.signature('{"name": "add", "arguments": {"text": "x"}}'))
        ['add', 'text']
        """
        try:
            calls = cls.parse_calls(action)
        except ToolCallError:
            return frozenset()
        return frozenset(n for c in calls for n in (c.name, *c.arguments))

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """The first JSON object or list in the generation, else the stripped text.

        >>> JsonCallLanguage.extract('Sure: {"name": "a"} done', AgentHints("json_calls"))
        '{"name": "a"}'
        """
        decoder = json.JSONDecoder()
        for i, char in enumerate(generation):
            if char in "{[":
                try:
                    _, end = decoder.raw_decode(generation, i)
                except ValueError:
                    continue
                return generation[i:end]
        return generation.strip()


class JsonCallLanguage(JsonCallsSyntax):
    """JSON tool calls on any backend that takes them.

    Args:
        tools: the family's tools (terminal tools end a multi-step episode).
    """

    name = "json_calls"
    reads_json_calls = True
    step_description = "one JSON tool call"
    finish_word = "finish"

    def __init__(self, tools: ToolSet, budgets: Budgets = DEFAULT_BUDGETS) -> None:
        self.tools = tools
        self.budgets = budgets

    def _is_terminal(self, call: ToolCall) -> bool:
        tool = self.tools.get(call.name)
        return tool is not None and tool.terminal

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar | None:
        """One JSON call of a task's tool (a list of them in program mode), or ``finish``."""
        calls = [json_call(t) for t in tools]
        if not calls:
            return None
        call = one_of(calls)
        if mode == "program":
            return ActionGrammar(one_of([call, json_list(call)]))
        return ActionGrammar(one_of([call, '"finish"']))

    def run_program(self, text: str, backend: Backend) -> Execution:
        """Run the calls in order; the first failing one stops the action; the episode ends."""
        observations: list[str] = []
        error: ToolCallError | None = None
        try:
            for call in parse_json_calls(text, self.budgets):
                observations.append(backend.run_call(call))
        except ToolCallError as e:
            error = e
            observations.append(e.observation())
        return Execution(
            "\n".join(observations),
            error,
            finished=True,
            attempt=replace(backend.attempt(), error=error),
        )

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Run one call; a terminal tool ends the episode."""
        try:
            calls = parse_json_calls(text, self.budgets)
            if len(calls) != 1:
                raise ToolCallError(
                    NON_EXECUTABLE, f"call mode takes one call per step; got {len(calls)}"
                )
            observation = backend.run_call(calls[0])
        except ToolCallError as e:
            return Execution(e.observation(), e)
        if self._is_terminal(calls[0]):
            return Execution(observation, finished=True, attempt=backend.attempt())
        return Execution(observation)

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Run the gold calls; the first failure raises."""
        for call in parse_json_calls(gold):
            backend.call(call)
        return backend.attempt()

    def gold_steps(self, gold: str) -> list[str]:
        """One call per step, then ``finish`` unless the last call is terminal."""
        calls = parse_json_calls(gold)
        steps = [json.dumps({"name": c.name, "arguments": c.arguments}) for c in calls]
        if not self._is_terminal(calls[-1]):
            steps.append("finish")
        return steps
