"""The calling-list language: the answer's calls in Seal-Tools' format, read as Seal-Tools does.

An action holds a JSON list of calls ``[{"api": ..., "parameters": {...}, "responses":
["API_call_0", ...]}, ...]`` anywhere in its text, read with Seal-Tools' parser
(:mod:`.parsing`).

* ``program`` mode (the benchmark's protocol): the action is the model's whole answer; it is
  read and the episode ends, whatever it holds. An answer that does not parse is scored as
  Seal-Tools scores it (a format failure) and reported as ``non_executable``.
* ``call`` mode: each step adds the calls of one calling list (usually of one call) to the
  answer, and ``finish`` submits the answer. Placeholders keep Seal-Tools' numbering across the
  whole answer; the observation says where the next call's start. A step that does not parse
  (or that a service fault stops) adds nothing.

Read calls are checked against the tools (unknown APIs, undeclared or missing parameters,
placeholder counts and numbering, references to nothing); what is found is reported in
``info["call_problems"]`` and in the observation, and never changes the score.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from toolgym.families.seal_tools.backend import SealToolsBackend
from toolgym.families.seal_tools.calls import calling_text, is_call, numbering
from toolgym.families.seal_tools.world import SealTool
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.backend_language import BackendLanguage
from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets
from toolgym.tools.calling_list import parse_calling_list as read_calling_list
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError
from toolgym.tools.grammar import ActionGrammar, json_arguments, json_object, literal, one_of
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.language import Execution, register_language
from toolgym.tools.tool import Tool, ToolSet

_API = re.compile(r'"api"\s*:\s*"([^"]{1,200})"')


class CallingListLanguage(BackendLanguage[SealToolsBackend]):
    """Answers as calling lists on a Seal-Tools backend (see the module docstring).

    Args:
        tools: the world's Seal-Tools tools by ``api_name`` (for rendering calls).
        budgets: the action's limits (its length).
    """

    backend_type = SealToolsBackend

    name = "calling_list"
    step_description = "one API-calling list"
    demo_label = "Output:"
    finish_word = "finish"

    def __init__(self, tools: Mapping[str, SealTool], budgets: Budgets = DEFAULT_BUDGETS) -> None:
        self.tools = tools
        super().__init__(budgets)

    def _notes(self, backend: SealToolsBackend, calls: list[Any]) -> tuple[str, dict[str, Any]]:
        """What the calls read are, and what the answer so far gets wrong about the tools."""
        problems = backend.problems()
        names = [c["api"][:60] if is_call(c) else "?" for c in calls]
        shown = ", ".join(names[:10]) + (", ..." if len(names) > 10 else "")
        text = f"{len(calls)} call(s): {shown}."
        if problems:
            text += "\nNotes:\n" + "\n".join(f"- {p}" for p in problems)
        return text, {"calls": len(calls), "call_problems": problems}

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar | None:
        """A calling list of the task's tools: ``[{"api", "parameters", "responses"}, ...]``.

        Arguments take values of their types or ``API_call_k`` placeholders (nested calls).
        """
        if not len(tools):
            return None
        placeholder = '"\\"API_call_" [0-9]{1,3} "\\""'
        responses = f'"[" ws ({placeholder} ("," ws {placeholder}){{0,30}})? ws "]"'
        calls = [
            json_object(
                [
                    ("api", literal(json.dumps(t.name)), True),
                    ("parameters", json_arguments(t.params, placeholder), True),
                    ("responses", responses, False),
                ]
            )
            for t in tools
        ]
        call = one_of(calls)
        answer = f'"[" ws {call} ("," ws {call}){{0,20}} ws "]"'
        return ActionGrammar(answer if mode == "program" else one_of([answer, '"finish"']))

    def run_program(self, text: str, backend: Backend) -> Execution:
        """Read the whole answer; the episode ends (an unreadable answer is scored too)."""
        seal = self.on(backend)
        try:
            calls = seal.read(text, self.budgets)
        except ToolCallError as e:
            seal.answer(text, None, e)
            return Execution(e.observation(), e, True, seal.attempt())
        try:
            seal.send(calls)
        except ToolCallError as e:
            seal.answer(text, calls, e)
            return Execution(e.observation(), e, True, seal.attempt())
        seal.answer(text, calls, None)
        notes, info = self._notes(seal, calls)
        return Execution(f"Answer read: {notes}", None, True, seal.attempt(), info)

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Add the calls of one calling list to the answer; one that does not parse adds none."""
        seal = self.on(backend)
        try:
            calls = seal.read(text, self.budgets)
            seal.send(calls)
        except ToolCallError as e:
            return Execution(e.observation(), e)
        seal.add(text, calls)
        notes, info = self._notes(seal, calls)
        total = len(seal.calls or ())
        observation = (
            f"Added {notes}\nThe answer has {total} call(s); the next call's responses start at "
            f"API_call_{seal.next_placeholder()}. Say {self.finish_word} to submit it."
        )
        return Execution(observation, None, False, None, info)

    def finish(self, backend: Backend) -> Execution:
        """Submit the answer built so far (none: a format failure)."""
        seal = self.on(backend)
        if seal.calls is None:
            error = ToolCallError(NON_EXECUTABLE, "finish before any calling list was read")
            seal.answer(seal.text, None, error)
            return Execution(error.observation(), error, True, seal.attempt())
        return Execution(f"Submitted {len(seal.calls)} call(s).", None, True, seal.attempt())

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Read a gold answer.

        Raises:
            ToolCallError: the gold does not parse (``non_executable``).
        """
        seal = self.on(backend)
        seal.answer(gold, seal.read(gold, Budgets(max_action_chars=len(gold) + 1)), None)
        return seal.attempt()

    def gold_steps(self, gold: str) -> list[str]:
        """One step per gold call (its own placeholders kept), then ``finish``."""
        calls = _gold_calls(gold)
        return [*(calling_text([c]) for c in calls), "finish"] if calls else [gold, "finish"]

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """A calling list of the one call, its placeholders numbered from ``API_call_0``."""
        known = self.tools.get(tool.name)
        count = len(known.responses) if known is not None else 1
        call = {"api": tool.name, "parameters": dict(arguments), "responses": numbering([count])[0]}
        return calling_text([call])

    def render_calls(
        self, calls: Sequence[ToolCall], tools: ToolSet, backend: Backend | None = None
    ) -> str:
        """One calling list of all the calls, its placeholders numbered after the answer's.

        Each call gets as many placeholders as its tool has response fields (one for a name
        that is no tool), numbered across the list as :meth:`render_call` numbers one call's,
        from the episode's next placeholder (``API_call_0`` without a backend, or in a fresh
        episode): in ``call`` mode, a step's calls continue the numbering of the answer so far.

        >>> calls = [ToolCall("getA", {"q": 1}), ToolCall("getB", {"a": "API_call_0"})]
        >>> print(CallingListLanguage({}).render_calls(calls, ToolSet([])))
        [{"api": "getA", "parameters": {"q": 1}, "responses": ["API_call_0"]}, \
{"api": "getB", "parameters": {"a": "API_call_0"}, "responses": ["API_call_1"]}]
        """
        start = 0
        if backend is not None and hasattr(backend, "next_placeholder"):
            start = self.on(backend).next_placeholder()
        counts = [start]  # the answer's placeholders so far, dropped below
        for call in calls:
            known = self.tools.get(call.name)
            counts.append(len(known.responses) if known is not None else 1)
        return calling_text(
            [
                {"api": call.name, "parameters": dict(call.arguments), "responses": responses}
                for call, responses in zip(calls, numbering(counts)[1:], strict=True)
            ]
        )

    def api_calls(self, action: str, tools: ToolSet) -> list[str]:
        """The APIs of an answer's calling list, in order (none if it holds none).

        >>> tools = ToolSet([Tool("getA", ""), Tool("getB", "")])
        >>> answer = '[{"api": "getB", "parameters": {}, "responses": []}, {"api": "getA"}]'
        >>> CallingListLanguage({}).api_calls(answer, tools)
        ['getB', 'getA']
        """
        calls = _gold_calls(action) or []
        known = {tool.name: tool.qualname for tool in tools}
        names = [c.get("api") for c in calls if isinstance(c, dict)]
        return [known[n] for n in names if isinstance(n, str) and n in known]

    @classmethod
    def signature(cls, action: str) -> frozenset[str]:
        """The APIs an answer calls.

        >>> sorted(CallingListLanguage.signature("[{'api': 'getA', 'parameters': {}}]"))
        ['getA']
        """
        return frozenset(_API.findall(action.replace("'", '"')))


def _gold_calls(gold: str) -> list[Any] | None:
    """The calls of a gold text: JSON as stored, else read as an answer."""
    try:
        calls = json.loads(gold)
    except ValueError:
        calls = None
    return calls if isinstance(calls, list) else read_calling_list(gold)


register_language(
    CallingListLanguage.name, "toolgym.families.seal_tools.language:CallingListLanguage"
)
