"""The action language of RapidAPI episodes: function calls, as JSON or ToolBench's text.

In ``call`` mode (the benchmark's protocol) each step runs the calls of one reply (usually one;
several when a model makes parallel tool calls), and ``Finish`` ends the episode. In ``program``
mode the action is the whole episode: every call in order, up to the first mistake or
``Finish``. Each step's ``info`` carries ToolBench's status code (``info["code"]``) and the
calls it ran (``info["calls"]``). See :mod:`toolgym.families.rapid_api.actions` for what an action
may look like.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from toolgym.families.rapid_api.actions import parse_actions
from toolgym.families.rapid_api.backend import RapidApiBackend, Step
from toolgym.families.rapid_api.functions import FINISH, GIVE_ANSWER, GIVE_UP
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.backend_language import BackendLanguage
from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets
from toolgym.tools.errors import ToolCallError
from toolgym.tools.grammar import ActionGrammar, json_call, json_list, one_of
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.json_language import JsonCallsSyntax
from toolgym.tools.language import AgentHints, Execution, register_language
from toolgym.tools.tool import ToolSet

GIVE_UP_ACTION = json.dumps({"name": FINISH, "arguments": {"return_type": GIVE_UP}})
"""The action that ends an episode without an answer."""
FINISH_ACTION = (
    f'{FINISH}\nAction Input: {{"return_type": "{GIVE_ANSWER}", "final_answer": "<the answer>"}}'
)
"""The last action of an episode, as agents are told it (ToolBench's text form)."""


class FunctionCallLanguage(JsonCallsSyntax, BackendLanguage[RapidApiBackend]):
    """Function calls on the library (see the module docstring).

    Calls are read by :func:`~toolgym.families.rapid_api.actions.parse_actions` (JSON, OpenAI's
    messages or ToolBench's text) and written, counted and signed as JSON calls are.

    Args:
        budgets: limits on an action's size and nesting.
    """

    refusal_info: ClassVar[Mapping[str, Any]] = {"code": 2, "calls": []}  # input error
    backend_type = RapidApiBackend

    name = "function_calls"
    step_description = "one function call"
    demo_label = "Action:"

    @classmethod
    def parse_calls(cls, text: Any, budgets: Budgets = DEFAULT_BUDGETS) -> list[ToolCall]:
        """Every call shape an agent may write (:mod:`toolgym.families.rapid_api.actions`)."""
        return parse_actions(text, budgets)

    def _run(self, calls: list[ToolCall], backend: RapidApiBackend) -> tuple[list[Step], str]:
        steps: list[Step] = []
        for call in calls:
            step = backend.execute(call)
            steps.append(step)
            if step.error is not None or step.finished:
                break
        return steps, "\n".join(s.observation for s in steps)

    @staticmethod
    def _info(steps: list[Step], calls: list[ToolCall]) -> dict[str, Any]:
        return {
            "code": steps[-1].code,
            "calls": [
                {"name": c.name, "arguments": c.arguments, "code": s.code}
                for c, s in zip(calls, steps, strict=False)
            ],
        }

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar | None:
        """One JSON call of the task's functions; a list in program mode.

        The functions are the task's (``Finish`` among them) and those ``retrieve_apis``
        unlocked in the episode.

        A ReAct turn writes its thought before the call: the agent puts this grammar behind one
        (:meth:`~toolgym.tools.grammar.ActionGrammar.after_thought`).
        """
        offered = list(tools)
        if isinstance(backend, RapidApiBackend):  # and what retrieve_apis unlocked since
            names = {t.name for t in offered}
            found = (backend.tools.get(n) for n in backend.unlocked if n not in names)
            offered += [t for t in found if t is not None]
        calls = [json_call(t) for t in offered]
        if not calls:
            return None
        call = one_of(calls)
        return ActionGrammar(json_list(call) if mode == "program" else call)

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Run one reply's calls; ``Finish`` ends the episode; a mistake stops the reply."""
        rapid = self.on(backend)
        try:
            calls = self.parse_calls(text, self.budgets)
        except ToolCallError as e:
            return Execution(e.observation(), e, info={"code": 2, "calls": []})
        steps, text_out = self._run(calls, rapid)
        last = steps[-1]
        info = self._info(steps, calls)
        if last.finished:
            return Execution(text_out, finished=True, attempt=rapid.attempt(), info=info)
        return Execution(text_out, last.error, info=info)

    def run_program(self, text: str, backend: Backend) -> Execution:
        """Run every call in order, up to the first mistake or ``Finish``; the episode ends."""
        rapid = self.on(backend)
        try:
            calls = self.parse_calls(text, self.budgets)
        except ToolCallError as e:
            attempt = Attempt(None, error=e, backend=rapid)
            return Execution(e.observation(), e, True, attempt, {"code": 2, "calls": []})
        steps, text_out = self._run(calls, rapid)
        error = steps[-1].error
        attempt = rapid.attempt()
        if error is not None:
            attempt = Attempt(attempt.outcome, attempt.calls, error, backend=rapid)
        return Execution(text_out, error, True, attempt, self._info(steps, calls))

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Run a gold's calls; a mistake raises."""
        rapid = self.on(backend)
        for call in self.parse_calls(gold):
            step = rapid.execute(call)
            if step.error is not None:
                raise step.error
        return rapid.attempt()

    def gold_steps(self, gold: str) -> list[str]:
        """One call per step (the gold ends with ``Finish``)."""
        return [
            json.dumps({"name": c.name, "arguments": c.arguments}) for c in self.parse_calls(gold)
        ]

    def hints(self, tools: ToolSet) -> AgentHints:
        """Agents end an episode with ``Finish`` (in ToolBench's text form)."""
        return AgentHints(
            action_language=self.name,
            finish_action=FINISH_ACTION,
            terminal_calls=(f'"name": "{FINISH}"', f"Action: {FINISH}"),
            step_description=self.step_description,
            demo_label=self.demo_label,
        )

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """A model's reply as an action: its ``Action``/``Action Input`` text, else its first JSON.

        >>> FunctionCallLanguage.extract('Sure {"name": "a"} ok', AgentHints("function_calls"))
        '{"name": "a"}'
        >>> sorted(FunctionCallLanguage.signature('Action: a\\nAction Input: {"q": 1}'))
        ['a', 'q']
        """
        text = generation.strip()
        if "Action:" in text:
            return text
        return super().extract(text, hints, extraction)


register_language(
    FunctionCallLanguage.name, "toolgym.families.rapid_api.language:FunctionCallLanguage"
)
