"""The answer language of BFCL's single-turn categories: calls, as JSON or as Python calls.

* ``program`` mode (BFCL's protocol): the action is the model's whole reply. It is read as calls
  (:func:`.answers.read_answer`: JSON calls, or Python calls decoded as BFCL decodes a
  prompt-mode model's reply) or, failing that, as a reply in words; the episode ends and BFCL's
  verdict scores it. A reply in words is an ``info["error"]`` (``non_executable``) only where
  BFCL wants calls.
* ``call`` mode: each step adds its calls to the answer; a call of a function the entry does not
  offer, or a step that is not calls, is refused and adds nothing (``wrong_api``,
  ``non_executable``). ``finish`` submits the answer (with no call at all: a reply in words).

Native tool calls reach it as JSON calls (:meth:`render_calls`). A name with ``_`` for each
``.`` (function-calling APIs refuse dots) is read as the offered function it stands for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from toolgym.families.bfcl.answers import Call, gold_text, prompt_text, read_answer
from toolgym.families.bfcl.backend import SingleTurnBackend
from toolgym.families.bfcl.data import IRRELEVANCE, RELEVANCE
from toolgym.families.bfcl.grammar import reply_grammar
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.backend_language import BackendLanguage
from toolgym.tools.budgets import DEFAULT_BUDGETS, RESOURCE_LIMIT, Budgets
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_API, ToolCallError
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.language import AgentHints, Execution, register_language
from toolgym.tools.tool import Tool, ToolSet


def _gold_calls(gold: str) -> list[Call] | None:
    """A gold's calls, or ``None`` for a gold in words.

    Golds are JSON calls or Python calls (Java and JavaScript values quoted).
    """
    try:
        return read_answer(gold, Budgets(max_action_chars=len(gold) + 1))
    except ToolCallError:
        return None


def _python_text(call: Call) -> bool:
    """Whether Python's decoder reads the call written as Python back to itself."""
    return _gold_calls(gold_text([call])) == [call]


def _names(calls: Sequence[Call]) -> str:
    shown = [next(iter(c), "?")[:60] for c in calls[:10]]
    return ", ".join(shown) + (", ..." if len(calls) > 10 else "")


class BfclCallLanguage(BackendLanguage[SingleTurnBackend]):
    """Single-turn answers on a BFCL backend (see the module docstring).

    Args:
        reply_format: how the env reads replies (:data:`.answers.REPLY_FORMATS`); the oracle's
            actions are written so.
        budgets: the action's limits.
    """

    backend_type = SingleTurnBackend

    name = "bfcl_calls"
    step_description = "the calls of the answer"
    finish_word = "finish"

    def __init__(self, reply_format: str = "any", budgets: Budgets = DEFAULT_BUDGETS) -> None:
        super().__init__(budgets)
        self.reply_format = reply_format

    def _read(self, backend: SingleTurnBackend, text: str) -> list[Call] | None:
        """The calls of ``text`` with offered names restored, or ``None`` for words.

        Raises:
            ToolCallError: a reply past the budgets (``resource_limit``).
        """
        try:
            calls = backend.read(text, self.budgets)
        except ToolCallError as e:
            if e.category == RESOURCE_LIMIT:
                raise
            return None
        out = []
        for call in calls:
            ((name, arguments),) = call.items() if len(call) == 1 else (("", {}),)
            if not name:
                return None
            out.append({backend.offered(name) or name: arguments})
        return out

    def run_program(self, text: str, backend: Backend) -> Execution:
        """Read the whole reply; the episode ends and the verdict scores it."""
        bfcl = self.on(backend)
        try:
            calls = self._read(bfcl, text)
            if calls is not None:
                bfcl.send(calls)
        except ToolCallError as e:
            bfcl.answer(text, None, e)
            return Execution(e.observation(), e, True, bfcl.attempt())
        if calls is None:
            wants_calls = bfcl.category not in IRRELEVANCE + RELEVANCE
            error = (
                ToolCallError(
                    NON_EXECUTABLE,
                    "the reply is not calls: expected JSON calls or Python calls such as "
                    "[func(a=1), other(b='x')]",
                )
                if wants_calls
                else None
            )
            bfcl.answer(text, None, error)
            observation = error.observation() if error else "Reply read: no call."
            return Execution(observation, error, True, bfcl.attempt())
        bfcl.answer(text, calls, None)
        observation = f"Reply read: {len(calls)} call(s): {_names(calls)}."
        return Execution(observation, None, True, bfcl.attempt())

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Add one step's calls to the answer (a step that is not calls is refused)."""
        bfcl = self.on(backend)
        try:
            calls = self._read(bfcl, text)
            if calls is None:
                raise ToolCallError(
                    NON_EXECUTABLE,
                    "a step holds calls (JSON calls, or Python calls such as [func(a=1)]); say "
                    f"{self.finish_word} to submit the answer (with no call: a reply in words)",
                )
            unknown = [next(iter(c)) for c in calls if bfcl.offered(next(iter(c))) is None]
            if unknown:
                offered = ", ".join(f["name"] for f in bfcl.functions)
                raise ToolCallError(
                    WRONG_API,
                    f"no function {unknown[0][:80]!r} is offered; the functions are {offered}",
                )
            bfcl.send(calls)
        except ToolCallError as e:
            return Execution(e.observation(), e)
        bfcl.add(text, calls)
        total = len(bfcl.calls or ())
        observation = (
            f"Added {len(calls)} call(s): {_names(calls)}. The answer has {total} call(s); say "
            f"{self.finish_word} to submit it."
        )
        return Execution(observation)

    def finish(self, backend: Backend) -> Execution:
        """Submit the answer built so far (no call: a reply in words)."""
        bfcl = self.on(backend)
        if bfcl.calls is None:
            bfcl.answer("", None, None)
            return Execution("Submitted a reply in words (no call).", None, True, bfcl.attempt())
        return Execution(f"Submitted {len(bfcl.calls)} call(s).", None, True, bfcl.attempt())

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Read a gold answer (words or calls)."""
        bfcl = self.on(backend)
        calls = self._read(bfcl, gold)
        bfcl.answer(gold, calls, None)
        return bfcl.attempt()

    def gold_action(self, gold: str) -> str:
        """The gold as a reply in the env's reply format (tool calls as JSON for ``"fc"``)."""
        if self.reply_format == "any":
            return gold
        calls = _gold_calls(gold)
        return gold if calls is None else self._written(calls)

    def gold_steps(self, gold: str) -> list[str]:
        """One step per gold call, then ``finish`` (a gold in words: ``finish`` alone)."""
        calls = _gold_calls(gold)
        if calls is None:
            return [self.finish_word]
        return [*(self._written([c]) for c in calls), self.finish_word]

    def _written(self, calls: list[Call]) -> str:
        """Calls as a reply in the env's reply format (JSON, unless it is ``"prompt"``)."""
        if self.reply_format != "prompt":
            return json.dumps([{"name": n, "arguments": a} for c in calls for n, a in c.items()])
        values = [v for c in calls for a in c.values() for v in a.values()]
        if all(isinstance(v, str) and not any(q in v for q in '"\\\n') for v in values):
            return prompt_text(calls, "java")  # read alike as Python, Java and JavaScript
        if all(isinstance(v, str) for v in values) and not all(_python_text(c) for c in calls):
            return prompt_text(calls, "java")  # source text with quotes in it, as it is
        return gold_text(calls)

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """``{"name": ..., "arguments": {...}}``."""
        return json.dumps({"name": tool.name, "arguments": dict(arguments)})

    def render_calls(
        self, calls: Sequence[ToolCall], tools: ToolSet, backend: Backend | None = None
    ) -> str:
        """A JSON list of the calls."""
        return json.dumps([{"name": c.name, "arguments": dict(c.arguments)} for c in calls])

    def tool_calls(self, action: str, tools: ToolSet) -> list[ToolCall] | None:
        """The action's calls, when it is calls of ``tools`` only."""
        try:
            calls = read_answer(action, self.budgets)
        except ToolCallError:
            return None
        known = {tool.name for tool in tools}
        out = [ToolCall(n, a) for c in calls for n, a in c.items()]
        return out if out and all(c.name in known for c in out) else None

    def api_calls(self, action: str, tools: ToolSet) -> list[str]:
        """The offered functions the action calls, in order."""
        calls = self.tool_calls(action, tools) or []
        return [c.name for c in calls]

    @classmethod
    def signature(cls, action: str) -> frozenset[str]:
        """The functions called and their parameters' names."""
        try:
            calls = read_answer(action)
        except ToolCallError:
            return frozenset()
        return frozenset(n for c in calls for name, a in c.items() for n in (name, *a))

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """The reply as it is (BFCL reads the whole of it)."""
        return generation.strip()

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar | None:
        """Calls of the entry's functions as the env reads them, or ``[]`` (no call)."""
        return reply_grammar(tools, self.on(backend).language, mode, self.reply_format)


register_language(BfclCallLanguage.name, "toolgym.families.bfcl.language:BfclCallLanguage")
