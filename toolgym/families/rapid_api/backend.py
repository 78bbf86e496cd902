"""The backend of a RapidAPI episode: the task's functions, the calls made and the answer given.

An episode offers the task's functions (its relevant tools' APIs, distractors, ``Finish`` and
``retrieve_apis``); ``retrieve_apis`` makes the functions it finds callable too. A call to an API
goes to the library's :class:`~toolgym.simulators.tool_library.service.ToolService`, which
checks the arguments as the API would and answers from its fixtures or its synthesizer. A task
may mark APIs as down (its unsolvable variants): they answer ``API not working error...``.

Every step has ToolBench's status code (:mod:`toolgym.families.rapid_api.status`). Agent mistakes
(an unknown function, wrong arguments, a malformed ``Finish``) raise ``ToolCallError`` with the
reply the agent sees; an API that is down answers normally with its error. Service faults
(:class:`~toolgym.tools.faults.FaultPlan`) fail API calls with ToolBench's texts and codes:
a timeout is code 5, a 429 code 9, a 5xx code 12; ``Finish`` and ``retrieve_apis`` never meet
faults (they run in the agent's process).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgym.families.rapid_api.functions import FINISH, GIVE_ANSWER, GIVE_UP, RETRIEVE, ApiTool
from toolgym.families.rapid_api.status import code_of_error, observation
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.faults import FAILING_KINDS, SERVICE_ERROR
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.tool import ToolSet

RETRIEVE_CHARS = 4096
"""The cut of a ``retrieve_apis`` observation (function summaries are longer than answers)."""
MAX_TOP_K = 10


@dataclass(frozen=True, slots=True)
class Step:
    """What one call did: its observation, code, the error that stopped it and whether it ended."""

    observation: str
    code: int
    error: ToolCallError | None = None
    finished: bool = False


def _reply(error: str, response: Any = "") -> dict[str, Any]:
    return {"error": error, "response": response}


class RapidApiBackend(Backend):
    """An episode over the library (see the module docstring).

    Args:
        service: the library's service (``call(tool, api, arguments, ...)`` → reply).
        tools: every function of the library.
        retrieve: ``(query, top_k) -> function names``, the library-wide retriever.
        observation_chars: the cut of an API's observation.
    """

    handles_faults = True

    def __init__(
        self,
        service: Any,
        tools: ToolSet,
        retrieve: Callable[[str, int], list[str]],
        observation_chars: int = 1024,
    ) -> None:
        self.service = service
        self.tools = tools
        self.retrieve = retrieve
        self.observation_chars = observation_chars
        self.offered: frozenset[str] | None = None
        self.broken: frozenset[tuple[str, str]] = frozenset()
        self.unlocked: tuple[str, ...] = ()
        self.calls: list[dict[str, Any]] = []
        self.finish: dict[str, Any] | None = None
        self._setup_key: Hashable = None

    # -- episode state ---------------------------------------------------------------------------
    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """Start an episode.

        ``setup["functions"]`` are the functions offered (all when absent); the APIs of
        ``setup["down"]`` (``[tool, api]`` pairs) answer that they do not work.
        """
        setup = setup or {}
        functions = setup.get("functions")
        self.offered = None if functions is None else frozenset(functions)
        self.broken = frozenset((str(t), str(a)) for t, a in setup.get("down", ()))
        self.unlocked = ()
        self.calls = []
        self.finish = None
        self._setup_key = json.dumps(dict(setup), sort_keys=True, default=str)

    def start_key(self) -> Hashable:
        """Episodes with one setup start alike."""
        return self._setup_key

    def snapshot(self) -> Any:
        """The calls so far, the answer, what was unlocked."""
        finish = None if self.finish is None else dict(self.finish)
        return (self.offered, self.broken, self.unlocked, list(self.calls), finish, self._setup_key)

    def restore(self, state: Any) -> None:
        """Return to a snapshot."""
        offered, broken, unlocked, calls, finish, key = state
        self.offered, self.broken, self.unlocked = offered, broken, unlocked
        self.calls = list(calls)
        self.finish = None if finish is None else dict(finish)
        self._setup_key = key

    def attempt(self) -> Attempt:
        """The calls made and the ``Finish`` given (``None`` when the agent never finished)."""
        names = tuple(c["function"] for c in self.calls)
        outcome = {"calls": tuple(self.calls), "finish": self.finish}
        return Attempt(outcome, names, backend=self)

    def calls_since(self, state: Any) -> list[ToolCall]:
        """The calls run since the snapshot ``state`` (a name no function has ran nothing).

        A call's arguments are those the API ran with: an optional parameter left out has its
        documented default, which the API applies.
        """
        done = len(state[3]) if isinstance(state, tuple) and len(state) > 3 else 0
        return [
            ToolCall(c["function"], self._with_defaults(c["function"], dict(c["arguments"])))
            for c in self.calls[done:]
            if c["code"] != 1 and isinstance(c["arguments"], dict)
        ]

    def _with_defaults(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """``arguments`` with the documented defaults of the optional parameters left out."""
        tool = self.tools.get(name)
        if not isinstance(tool, ApiTool):
            return arguments
        defaults = {doc.name: doc.default for doc in tool.docs if doc.default not in (None, "")}
        for param in tool.params:
            api_name = tool.param_names.get(param.name, param.name)
            if not param.required and param.name not in arguments and api_name in defaults:
                arguments[param.name] = defaults[api_name]
        return arguments

    def callable(self, name: str) -> bool:
        """Whether the episode offers the function ``name``."""
        if name not in self.tools:
            return False
        return self.offered is None or name in self.offered or name in self.unlocked

    # -- calls -----------------------------------------------------------------------------------
    def call(self, call: ToolCall) -> str:
        """Run one call; a mistake raises (for gold labels and the generic JSON language)."""
        step = self.execute(call)
        if step.error is not None:
            raise step.error
        return step.observation

    def execute(self, call: ToolCall) -> Step:
        """Run one call and report its step (agent mistakes in ``Step.error``, never raised)."""
        if call.name == FINISH and self.callable(FINISH):
            return self._finish(call)
        if not self.callable(call.name):
            return self._unknown(call)
        if call.name == RETRIEVE:
            return self._retrieve(call)
        tool = self.tools.get(call.name)
        assert isinstance(tool, ApiTool)
        return self._api(tool, call)

    def _record(self, call: ToolCall, code: int, reply: dict[str, Any], **extra: Any) -> None:
        self.calls.append(
            {
                "function": call.name,
                "arguments": call.arguments,
                "code": code,
                "error": reply.get("error", ""),
                "response": reply.get("response", ""),
                **extra,
            }
        )

    def _unknown(self, call: ToolCall) -> Step:
        reply = _reply(f"No such function name: {call.name}")
        self._record(call, 1, reply)
        hint = ""
        lower = call.name.lower()
        near = next(
            (n for n in self._names() if n.lower() == lower and self.callable(n)),
            None,
        )
        if near is not None:
            hint = f" (names match exactly: did you mean {near!r}?)"
        error = ToolCallError(
            WRONG_API, f"no function called {call.name[:80]!r} in this task{hint}"
        )
        return Step(observation(reply), 1, error)

    def _names(self) -> list[str]:
        if self.offered is None:
            return list(self.tools.names)
        return sorted({*self.offered, *self.unlocked})

    def _finish(self, call: ToolCall) -> Step:
        kind = call.arguments.get("return_type")
        answer = call.arguments.get("final_answer")
        if kind == GIVE_UP:
            reply = {"response": "chose to give up and restart"}
            self.finish = {"return_type": GIVE_UP, "final_answer": str(answer or "")}
            self._record(call, 4, reply)
            return Step(observation(reply), 4, finished=True)
        if kind == GIVE_ANSWER and isinstance(answer, str) and answer.strip():
            reply = {"response": "successfully giving the final answer."}
            self.finish = {"return_type": GIVE_ANSWER, "final_answer": answer}
            self._record(call, 3, reply)
            return Step(observation(reply), 3, finished=True)
        if kind == GIVE_ANSWER:
            message = "Finish with give_answer needs a non-empty final_answer string"
        else:
            message = (
                f"Finish needs return_type {GIVE_ANSWER!r} or {GIVE_UP!r}; got {str(kind)[:60]!r}"
            )
        reply = _reply(message)
        self._record(call, 2, reply)
        return Step(observation(reply), 2, ToolCallError(WRONG_ARGUMENTS, message))

    def _retrieve(self, call: ToolCall) -> Step:
        query, top_k = call.arguments.get("query"), call.arguments.get("top_k", 5)
        unknown = sorted(set(call.arguments) - {"query", "top_k"})
        problem = None
        if unknown:
            problem = f"{RETRIEVE}() got an unexpected keyword argument '{unknown[0]}'"
        elif not isinstance(query, str) or not query.strip():
            problem = f"{RETRIEVE}() needs a non-empty query string; got {str(query)[:60]!r}"
        elif isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
            problem = f"{RETRIEVE}() takes top_k from 1 to {MAX_TOP_K}; got {str(top_k)[:20]!r}"
        if problem is not None:
            reply = _reply(problem)
            self._record(call, 12, reply)
            return Step(observation(reply), 12, ToolCallError(WRONG_ARGUMENTS, problem))
        assert isinstance(query, str), "a query that is not a string is a problem above"
        found = [n for n in self.retrieve(query, top_k) if n in self.tools]
        self.unlocked = tuple(dict.fromkeys([*self.unlocked, *found]))
        summaries = []
        for name in found:
            tool = self.tools.get(name)
            assert isinstance(tool, ApiTool)
            summaries.append(
                {
                    "name": name,
                    "description": tool.api_description[:160],
                    "required": [p.name for p in tool.params if p.required],
                    "optional": [p.name for p in tool.params if not p.required],
                }
            )
        reply = _reply("", summaries)
        self._record(call, 0, reply)
        return Step(observation(reply, RETRIEVE_CHARS), 0)

    def _api(self, tool: ApiTool, call: ToolCall) -> Step:
        if (tool.tool_name, tool.api_name) in self.broken:
            reply = _reply("API not working error...")
            self._record(call, 6, reply, tool=tool.tool_name, api=tool.api_name)
            return Step(observation(reply), 6)
        fault = None if self.faults is None else self.faults.draw(tool.name)
        if fault is not None and fault.kind in FAILING_KINDS:
            if fault.kind == "timeout":
                code, text = 5, "Timeout error..."
            elif fault.kind == "rate_limit":
                code, text = 9, "Too many requests error..."
            else:
                code, text = 12, f"Error sending the request: HTTP {fault.status}"
            reply = _reply(text)
            self._record(call, code, reply, tool=tool.tool_name, api=tool.api_name)
            message = f"{tool.name}: {text} The call had no effect; try it again."
            return Step(observation(reply), code, ToolCallError(SERVICE_ERROR, message))
        answer = self.service.call(
            tool.tool_name,
            tool.api_name,
            call.arguments,
            function_name=tool.name,
            param_names=tool.param_names,
        )
        reply = answer.envelope()
        if answer.problem is not None:
            self._record(call, 12, reply, tool=tool.tool_name, api=tool.api_name)
            error = ToolCallError(WRONG_ARGUMENTS, answer.problem.message)
            return Step(observation(reply, self.observation_chars), 12, error)
        code = code_of_error(str(reply.get("error") or ""))
        self._record(call, code, reply, tool=tool.tool_name, api=tool.api_name)
        text = observation(reply, self.observation_chars)
        if fault is not None:  # truncated or malformed: the reply arrives broken
            text = fault.corrupt_text(text)
            if fault.kind == "malformed":
                code = 12
        return Step(text, code)
