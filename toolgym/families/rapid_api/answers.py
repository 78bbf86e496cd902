"""Episode records as ToolBench answers: StableToolBench's converted format and raw messages.

StableToolBench's evaluators read a *converted answer* per query::

    {<query_id>: {"query": ..., "available_tools": [<function>, ...],
                  "answer": {"method": "CoT@1" | "DFS_woFilter_w2", "total_steps": <nodes>,
                             "final_answer": <the Finish call's arguments, a JSON string>,
                             "answer_details": [<system node>]}}}

where ``answer_details`` is a single chain of nodes ``{"role", "message", "next": [<node>]}``:
a ``system`` node, a ``user`` node (both with an empty ``message``, as the upstream converter
writes them), then one ``tool`` node per call, whose message is
``{"name", "arguments", "response"}`` (``response`` is the observation the call got, ``""`` for
``Finish``). A step that ran no call (a reply that could not be read) is an ``assistant`` node
with the reply's text. :func:`toolbench_messages` gives the same solution path as ToolBench's
message list (``train_messages``) in the current ``tool_calls`` shape: an ``assistant`` message per
step with its thought and ``tool_calls``, then one ``role: tool`` message per call holding the
observation exactly as the env gave it.

The solution path is the record's steps for a ReAct episode; for a DFSDT episode (a record with
``search`` events) it is the branch that led to the outcome: the answer that ended the search, or,
when none was found, the first give-up (the runner's outcome), or else the last branch played.

The calls of a step are the step info's ``calls`` when the record kept them (a turn's ``calls``,
or ``info["calls"]``, with each call's ``code``), and otherwise are read back from the action:
a JSON call (``{"name", "arguments"}``, OpenAI's ``function_call``/``tool_calls`` shapes) or
ToolBench's ``Action: <name>`` / ``Action Input: {...}`` text. A call's response is its line of
the step's observation (the env writes one JSON line per call it ran, and stops at the first
mistake). As ToolBench does, a call to a function that does not exist (status code 1) is renamed
``invalid_hallucination_function_name``.

>>> import json
>>> from toolgym.evaluation.records import EpisodeRecord
>>> record = EpisodeRecord("q1", "Say hi.", strategy="react")
>>> finish = {"return_type": "give_answer", "final_answer": "hi"}
>>> action = json.dumps({"name": "Finish", "arguments": finish})
>>> record.log_step(action, {}, '{"response": "successfully giving the final answer."}', 1.0, {})
>>> answer = converted_answer(record)["q1"]["answer"]
>>> answer["method"], answer["total_steps"], answer["final_answer"]
('CoT@1', 3, '{"return_type": "give_answer", "final_answer": "hi"}')
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgym.agents.extraction import extract_react
from toolgym.evaluation.records import EpisodeRecord
from toolgym.families.rapid_api.actions import ACTION, ACTION_INPUT
from toolgym.tools.budgets import RESOURCE_LIMIT
from toolgym.tools.errors import NON_EXECUTABLE

FINISH = "Finish"
"""ToolBench's function that ends an episode (its response is left out of converted answers)."""
GIVE_ANSWER = "give_answer"
INVALID_NAME = "invalid_hallucination_function_name"
"""The name ToolBench gives a call to a function that does not exist."""
NO_SUCH_FUNCTION = 1
"""The status code of a call to a function that does not exist."""
FINAL_ANSWER = 3
"""The status code of ``Finish`` with an answer."""

METHODS = {"react": "CoT@1", "dfsdt": "DFS_woFilter_w{width}"}
"""ToolBench's method name of each strategy (DFSDT's with its width)."""

DEFAULT_SYSTEM = (
    "You can call functions to handle the user's query, one step at a time: write a short "
    "thought, then call a function and read its result. Always end with Finish: return_type "
    "give_answer with a final_answer that holds everything the user asked for, or "
    "give_up_and_restart when the calls keep failing.\nThe functions: {functions}"
)
"""The system message of :func:`toolbench_messages` (``{functions}``: the functions' JSON)."""

_NO_SUCH_FUNCTION = '{"error": "No such function name:'
_UNREAD = (NON_EXECUTABLE, RESOURCE_LIMIT)
"""Error categories of an action that could not be read: it ran no call."""


@dataclass(frozen=True)
class Call:
    """One call a step ran.

    Attributes:
        name: the function called (as the agent wrote it).
        arguments: its arguments.
        response: the observation it got (its line of the step's observation).
        code: its status code, when known.
    """

    name: str
    arguments: Any
    response: str
    code: int | None = None

    @property
    def shown_name(self) -> str:
        """The name ToolBench records: ``invalid_hallucination_function_name`` for code 1."""
        return INVALID_NAME if self.code == NO_SUCH_FUNCTION else self.name

    @property
    def arguments_text(self) -> str:
        """The arguments as the JSON string a ``function_call`` carries."""
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments, ensure_ascii=False)


@dataclass(frozen=True)
class Step:
    """One step of a solution path.

    Attributes:
        thought: the reasoning before the action (``""`` when there was none).
        text: the agent's reply (its raw generation, else its action).
        calls: the calls the step ran (none for a reply that could not be read).
        observation: what the env answered.
    """

    thought: str
    text: str
    calls: tuple[Call, ...]
    observation: str


# -- reading a record ----------------------------------------------------------------------------
def _payload_calls(payload: Any) -> list[tuple[str, Any]]:
    """The ``(name, arguments)`` pairs of a JSON action (the shapes of the module docstring)."""
    if isinstance(payload, list):
        return [c for item in payload for c in _payload_calls(item)]
    if not isinstance(payload, dict):
        return []
    if isinstance(payload.get("tool_calls"), list):
        return _payload_calls(payload["tool_calls"])
    for key in ("function_call", "function"):
        if isinstance(payload.get(key), dict):
            payload = payload[key]
            break
    name = payload.get("name")
    if not isinstance(name, str):
        return []
    arguments = payload.get("arguments", {})
    if isinstance(arguments, str):
        with contextlib.suppress(ValueError):  # else kept as written
            arguments = json.loads(arguments) if arguments.strip() else {}
    return [(name, arguments)]


def _text_calls(text: str) -> list[tuple[str, Any]]:
    """The ``(name, arguments)`` pairs of ToolBench's ``Action``/``Action Input`` text."""
    if ACTION.search(text) is None and ACTION_INPUT.search(text) is not None:
        text = f"Action: {text}"  # "<name>" then "Action Input: ...", as ReAct agents keep it
    decoder = json.JSONDecoder()
    calls: list[tuple[str, Any]] = []
    for match in ACTION.finditer(text):
        name = match.group(1).strip()
        if name.lower().startswith("input"):
            continue  # an "Action Input:" line
        found = ACTION_INPUT.search(text, match.end())  # (as in the rest of the text: it
        arguments: Any = {}  # starts at the line's end, where the input's new line is)
        if found is not None:
            following = text[found.end() :].lstrip()
            try:
                arguments, _ = decoder.raw_decode(following)
            except ValueError:
                arguments = following.split("\n", 1)[0]
        calls.append((name, arguments))
    return calls


def action_calls(action: str) -> list[tuple[str, Any]]:
    """The ``(name, arguments)`` pairs an action writes, in order (``[]`` when it holds none).

    >>> action_calls('search_for_x\\nAction Input: {"q": "a"}')
    [('search_for_x', {'q': 'a'})]
    >>> action_calls('{"name": "Finish", "arguments": {"return_type": "give_answer"}}')
    [('Finish', {'return_type': 'give_answer'})]
    """
    text = action.strip()
    if text[:1] in ("{", "["):
        try:
            return _payload_calls(json.loads(text))
        except ValueError:
            return []
    return _text_calls(text)


def _kept_calls(turn: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    """The step info's ``calls``, when the record kept them."""
    info = turn.get("info")
    for source in (turn, info if isinstance(info, Mapping) else {}):
        calls = source.get("calls")
        if isinstance(calls, list):
            return calls
    return None


def _thought(turn: Mapping[str, Any]) -> str:
    generation = turn.get("generation")
    if not isinstance(generation, str) or "Action:" not in generation:
        return ""
    thought = extract_react(generation)[0]
    while thought.startswith("Thought:"):
        thought = thought[len("Thought:") :].strip()
    return thought


def step_of(turn: Mapping[str, Any]) -> Step:
    """One recorded turn as a :class:`Step` (see the module docstring for how calls are read)."""
    action = str(turn.get("action") or "")
    observation = str(turn.get("observation") or "")
    generation = turn.get("generation")
    text = generation if isinstance(generation, str) and generation else action
    lines = observation.split("\n")
    kept = _kept_calls(turn)
    pairs: list[tuple[str, Any, int | None]]
    if kept is not None:
        pairs = [
            (str(c.get("name", "")), c.get("arguments", {}), c.get("code"))
            for c in kept
            if isinstance(c, Mapping)
        ]
    else:
        error = turn.get("error")
        unread = isinstance(error, Mapping) and error.get("category") in _UNREAD
        pairs = [] if unread else [(n, a, None) for n, a in action_calls(action)]
    calls = []
    for (name, arguments, code), line in zip(pairs, lines, strict=False):
        if code is None and line.startswith(_NO_SUCH_FUNCTION):
            code = NO_SUCH_FUNCTION
        calls.append(Call(name, arguments, line, code))
    return Step(_thought(turn), text, tuple(calls), observation)


def _answered(step: Step) -> bool:
    """Whether the step ended the episode with an answer (``Finish`` with ``give_answer``)."""
    for call in step.calls:
        if call.name != FINISH:
            continue
        if call.code is not None:
            return call.code == FINAL_ANSWER
        arguments = call.arguments if isinstance(call.arguments, Mapping) else {}
        answer = arguments.get("final_answer")
        return (
            arguments.get("return_type") == GIVE_ANSWER
            and isinstance(answer, str)
            and bool(answer.strip())
            and call.response.startswith('{"response"')
        )
    return False


def solution_path(record: EpisodeRecord) -> list[int]:
    """The indices of the turns on the record's solution path (see the module docstring).

    Raises:
        ValueError: a DFSDT record whose ``search`` steps do not match its turns.
    """
    if record.search is None:
        return list(range(len(record.turns)))
    path: list[int] = []
    first_give_up: list[int] | None = None
    played = 0
    for event in record.search:
        if event.get("event") == "step":
            depth = int(event["depth"])
            path = [*path[: depth - 1], played]
            played += 1
        elif event.get("event") == "give_up" and first_give_up is None:
            first_give_up = list(path)
    if played != len(record.turns):
        raise ValueError(
            f"expected one search step per turn; got {played} steps for "
            f"{len(record.turns)} turns in the record of task {record.task_id!r}"
        )
    if path and _answered(step_of(record.turns[path[-1]])):
        return path
    return first_give_up if first_give_up is not None else path


def solution_steps(record: EpisodeRecord) -> list[Step]:
    """The steps of the record's solution path."""
    return [step_of(record.turns[i]) for i in solution_path(record)]


def answer_method(record: EpisodeRecord, width: int = 2) -> str:
    """ToolBench's method name for the record's strategy (``CoT@1``, ``DFS_woFilter_w2``).

    A record without a strategy (played by ``run_episode`` or ``run_dfsdt`` directly) is DFSDT's
    when it has ``search`` events, else ReAct's.

    Raises:
        ValueError: a strategy ToolBench has no method for (``single``).
    """
    strategy = record.strategy or ("dfsdt" if record.search is not None else "react")
    if strategy not in METHODS:
        raise ValueError(
            f"expected a record of strategy {' or '.join(METHODS)} (or pass method=...); "
            f"got {strategy!r}"
        )
    return METHODS[strategy].format(width=width)


def _functions(tools: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Function schemas as ToolBench lists them: bare ``{"name", "description", "parameters"}``."""
    out = []
    for tool in tools:
        function = tool.get("function")
        out.append(dict(function) if isinstance(function, Mapping) else dict(tool))
    return out


def _final_answer(steps: Sequence[Step]) -> str:
    for step in reversed(steps):
        for call in reversed(step.calls):
            if call.name == FINISH:
                return call.arguments_text
    return ""


# -- the two formats ------------------------------------------------------------------------------
def toolbench_messages(
    record: EpisodeRecord,
    *,
    tools: Iterable[Mapping[str, Any]] = (),
    system: str | None = None,
) -> list[dict[str, Any]]:
    """The solution path as ToolBench's message list, in the ``tool_calls`` shape.

    Args:
        record: the episode.
        tools: the functions offered (the episode's ``info["tools"]``), for the system message.
        system: the system message (default: :data:`DEFAULT_SYSTEM` with the functions).

    Returns:
        ``system`` and ``user`` (``"\\n<query>\\nBegin!\\n"``) messages, then per step an
        ``assistant`` message (its thought as ``content``, its calls as ``tool_calls`` with ids
        ``call_<step>_<k>``) and one ``tool`` message per call; a step that ran no call is an
        ``assistant`` message with the reply's text and a ``user`` message with the env's answer.
    """
    functions = _functions(tools)
    if system is None:
        system = DEFAULT_SYSTEM.format(functions=json.dumps(functions, ensure_ascii=False))
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": system},
        {"role": "user", "content": f"\n{record.instruction}\nBegin!\n"},
    ]
    for number, step in enumerate(solution_steps(record)):
        if not step.calls:
            messages.append({"role": "assistant", "content": step.text})
            messages.append({"role": "user", "content": step.observation})
            continue
        ids = [f"call_{number}_{k}" for k in range(len(step.calls))]
        messages.append(
            {
                "role": "assistant",
                "content": step.thought,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": call.shown_name, "arguments": call.arguments_text},
                    }
                    for call_id, call in zip(ids, step.calls, strict=True)
                ],
            }
        )
        for call_id, call in zip(ids, step.calls, strict=True):
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call_id,
                    "name": call.shown_name,
                    "content": call.response,
                }
            )
    return messages


def _chain(nodes: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Nodes linked into one chain through their ``next`` lists: ``[first]``."""
    linked = [{**node, "next": []} for node in nodes]
    for node, following in itertools.pairwise(linked):
        node["next"].append(following)
    return linked[:1]


def converted_answer(
    record: EpisodeRecord,
    *,
    tools: Iterable[Mapping[str, Any]] = (),
    method: str | None = None,
    width: int = 2,
    thoughts: bool = False,
) -> dict[str, dict[str, Any]]:
    """The record as StableToolBench's converted answer: ``{query_id: {...}}``.

    Args:
        record: the episode.
        tools: the functions offered (the episode's ``info["tools"]``): ``available_tools``.
        method: the method's name (default: :func:`answer_method`'s).
        width: DFSDT's width, for the default method name.
        thoughts: also an ``assistant`` node with each step's thought before its calls (as the
            upstream converter writes unfinished runs); by default only the calls, as it writes
            finished ones.

    Returns:
        One entry, keyed by the task id as a string (see the module docstring).
    """
    steps = solution_steps(record)
    nodes: list[dict[str, Any]] = [
        {"role": "system", "message": ""},
        {"role": "user", "message": ""},
    ]
    for step in steps:
        if not step.calls:
            nodes.append({"role": "assistant", "message": step.text})
            continue
        if thoughts and step.thought:
            nodes.append({"role": "assistant", "message": step.thought})
        for call in step.calls:
            response = "" if call.name == FINISH else call.response
            message = {
                "name": call.shown_name,
                "arguments": call.arguments_text,
                "response": response,
            }
            nodes.append({"role": "tool", "message": message})
    answer = {
        "method": method or answer_method(record, width),
        "total_steps": len(nodes),
        "final_answer": _final_answer(steps),
        "answer_details": _chain(nodes),
    }
    entry = {"query": record.instruction, "available_tools": _functions(tools), "answer": answer}
    return {str(record.task_id): entry}


def converted_answers(
    records: Iterable[EpisodeRecord],
    tools: Mapping[str, Iterable[Mapping[str, Any]]] | None = None,
    **options: Any,
) -> dict[str, dict[str, Any]]:
    """Many records as one converted-answer file's contents.

    Args:
        records: the episodes (one per task).
        tools: each task's functions, by task id as a string.
        **options: :func:`converted_answer`'s ``method``, ``width`` and ``thoughts``.

    Raises:
        ValueError: two records of one task.
    """
    out: dict[str, dict[str, Any]] = {}
    for record in records:
        key = str(record.task_id)
        if key in out:
            raise ValueError(f"expected one record per task; got a second one of task {key!r}")
        out.update(converted_answer(record, tools=(tools or {}).get(key, ()), **options))
    return out
