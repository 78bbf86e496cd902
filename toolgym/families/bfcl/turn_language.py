"""The action language of BFCL's multi-turn categories: each step's reply, as BFCL reads it.

The env is played in ``call`` mode, one model reply per step, as BFCL's inference loop plays
an entry:

* a reply with calls (JSON calls, or Python calls as BFCL's prompt asks for them) runs them on
  the entry's backends, in order; the observation is their results, one per call, as BFCL
  writes them (a dict as JSON, a failure as ``Error during execution: ...``);
* a reply without calls (words, ``[]``, text BFCL cannot decode, or ``finish``) ends the turn;
  the observation is the next turn's user message, and after the last turn the episode ends
  and is scored;
* a turn's 21st step with calls ends the episode (BFCL's forced quit after 20 steps).

Calls are written as BFCL writes a decoded reply before it runs it
(:func:`.decoding.execution_texts`): keyword arguments only (positional ones are dropped by its
decoder), values by ``repr``. A call of a method the entry's classes have runs even while its
function is held back, as it does in BFCL.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Sequence

from toolgym.families.bfcl.answers import json_calls, read_answer
from toolgym.families.bfcl.decoding import DecodeError, decode_python_calls, execution_texts
from toolgym.families.bfcl.language import BfclCallLanguage
from toolgym.families.bfcl.turns import MAXIMUM_STEP_LIMIT, MultiTurnBackend
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import RESOURCE_LIMIT, Budgets
from toolgym.tools.errors import (
    NON_EXECUTABLE,
    RUNTIME_ERROR,
    WRONG_API,
    WRONG_ARGUMENTS,
    ToolCallError,
)
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.json_calls import ToolCall, load_json
from toolgym.tools.language import Execution, register_language
from toolgym.tools.tool import ToolSet


def read_step(text: str, budgets: Budgets, reply_format: str = "any") -> list[str]:
    """A reply's calls as execution texts; ``[]`` for a reply without calls.

    Raises:
        ToolCallError: JSON past the budgets (``resource_limit``).
    """
    stripped = text.strip()
    if reply_format != "prompt" and stripped[:1] in ("[", "{"):
        try:
            calls = json_calls(load_json(stripped, budgets, "the reply"), budgets)
        except ToolCallError as e:
            if e.category != NON_EXECUTABLE:
                raise
        else:
            if calls is not None:
                return execution_texts(calls, from_json=True)
    if reply_format == "fc":
        return []
    try:
        return execution_texts(decode_python_calls(text))
    except DecodeError:
        return []


def _step_text(calls: Sequence[str], reply_format: str) -> str:
    """Gold calls (``name(k=v, ...)`` each) as one reply in the env's reply format."""
    python = f"[{', '.join(calls)}]"
    if reply_format == "prompt":
        return python
    written = []
    try:
        for call in calls:
            node = ast.parse(call, mode="eval").body
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or node.args:
                raise ValueError(call)
            arguments = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
            written.append({"name": node.func.id, "arguments": arguments})
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return python  # not calls the oracle writes: as they are
    return json.dumps(written[0] if len(written) == 1 else written)


def gold_replies(calls: Sequence[str]) -> list[list[str]]:
    """A turn's gold calls as the calls of each reply.

    One call a reply, or, where that would pass BFCL's step limit, as few calls a reply as keep
    within it.
    """
    size = max(1, -(-len(calls) // MAXIMUM_STEP_LIMIT))
    return [list(calls[k : k + size]) for k in range(0, len(calls), size)]


def gold_turns(gold: str) -> list[list[str]]:
    """A multi-turn gold: per turn, its calls' texts (``[]`` for a gold that is not that)."""
    try:
        turns = json.loads(gold)
    except (ValueError, RecursionError):
        return []
    if not isinstance(turns, list) or not all(
        isinstance(t, list) and all(isinstance(c, str) for c in t) for t in turns
    ):
        return []
    return turns


FAILED = "Error during execution: "
"""How BFCL writes the result of a call that raised."""


def failed_call(results: Sequence[str]) -> ToolCallError | None:
    """The first call of a step that raised, as toolgym's error (``None``: none did).

    The call still counts, as it does in BFCL (its result is the error's text): the error only
    tells the agent, in ``info["error"]``, what kind of mistake it was.
    """
    message = next((r[len(FAILED) :] for r in results if r.startswith(FAILED)), None)
    if message is None:
        return None
    if "is not defined" in message or "is not allowed" in message:
        category = WRONG_API
    elif "argument" in message:
        category = WRONG_ARGUMENTS
    else:
        category = RUNTIME_ERROR
    return ToolCallError(category, f"a call failed: {message[:500]}")


class BfclTurnLanguage(BfclCallLanguage):
    """Replies in a multi-turn conversation (see the module docstring).

    Args:
        reply_format: how the env reads replies (:data:`.answers.REPLY_FORMATS`).
        budgets: the action's limits.
    """

    backend_type = MultiTurnBackend  # type: ignore[assignment]

    name = "bfcl_turns"
    step_description = "one reply: calls to run, or words that end the turn"
    finish_word = "finish"
    finish_words = True  # any reply without calls ends the turn; an agentic entry's is its answer
    step_limit = MAXIMUM_STEP_LIMIT

    def is_finish(self, text: object) -> bool:
        """Only ``finish`` itself (or ``finish()``) is the finish word.

        Any other reply without calls ends the turn as words, which an agentic entry's verdict
        reads whole (``"Finish: your name is Michael."`` is an answer, not the word).
        """
        return isinstance(text, str) and text.strip().lower() in ("finish", "finish()")

    def _turns(self, backend: Backend) -> MultiTurnBackend:
        return self.on(backend)  # type: ignore[return-value]

    def run_program(self, text: str, backend: Backend) -> Execution:
        """Not a protocol of this env (it is played a reply at a time)."""
        error = ToolCallError(
            NON_EXECUTABLE, "a BFCL multi-turn env is played in call mode, a reply at a time"
        )
        return Execution(error.observation(), error, True, Attempt(None, error=error))

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Run a reply's calls, or end the turn on a reply without any."""
        turns = self._turns(backend)
        try:
            texts = read_step(text, self.budgets, self.reply_format)
        except ToolCallError as e:
            if e.category != RESOURCE_LIMIT:
                raise
            return Execution(e.observation(), e)
        if not texts:
            return self._end_turn(turns, "The reply holds no call", text)
        results, faults = turns.run(texts, self.budgets.max_seconds)
        pairs = enumerate(zip(texts, results, strict=True), 1)
        shown = (
            results[0]
            if len(results) == 1
            else "\n".join(f"[{k}] {call}: {result}" for k, (call, result) in pairs)
        )
        info = {"calls": texts, "turn": turns.turn}
        error = faults[0] if faults else failed_call(results)
        if turns.forced:
            note = f"\nForced to quit after {MAXIMUM_STEP_LIMIT} steps with calls in one turn."
            return Execution(shown + note, error, True, turns.attempt(), info)
        if turns.pending is not None:  # the forced quit ended a conversation, the next opens
            message, turns.pending = turns.pending, None
            info = {**info, "turn": turns.turn, "forced_quit": True, **turns.turn_info(True)}
            return Execution(message, error, False, None, info)
        return Execution(shown, error, False, None, info)

    def refusal(self, error: ToolCallError, backend: Backend, program: bool) -> Execution:
        """A reply refused before it was read: the turn goes on (its number in ``info``)."""
        execution = super().refusal(error, backend, program)
        turns = self._turns(backend)
        execution.info.update({"turn": turns.turn, **turns.turn_info()})
        return execution

    def finish(self, backend: Backend) -> Execution:
        """End the turn (the model replies to the user)."""
        return self._end_turn(self._turns(backend), "Turn ended", self.finish_word)

    def _end_turn(self, turns: MultiTurnBackend, why: str, words: str | None) -> Execution:
        before = len(turns.functions)
        message = turns.end_turn(words)
        if message is None:
            note = f"{why}: the conversation is over."
            return Execution(note, None, True, turns.attempt(), {"turn": turns.turn})
        tools = turns.tools if len(turns.functions) != before else None
        # a turn 0 after a turn ends is a conversation's first: another of the episode opened
        info = {"turn": turns.turn, **turns.turn_info(opened=turns.turn == 0)}
        return Execution(message, None, False, None, info, tools)

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Play a gold (per turn, its calls) from the backend's state.

        Raises:
            ToolCallError: the gold is not a list of turns of calls.
        """
        turns = self._turns(backend)
        parsed = gold_turns(gold)
        if not parsed:
            raise ToolCallError(
                NON_EXECUTABLE, "a multi-turn gold is a JSON list of turns of calls"
            )
        for calls in parsed:
            for reply in gold_replies(calls):
                turns.run(reply)
            turns.end_turn()
        return turns.attempt()

    def gold_action(self, gold: str) -> str:
        """The gold (this env has no whole-episode action)."""
        return gold

    def gold_steps(self, gold: str) -> list[str]:
        """Per turn, one reply per gold call, then ``finish`` (which ends the turn)."""
        parsed = gold_turns(gold)
        if not parsed:
            return [gold]
        steps: list[str] = []
        for calls in parsed:
            steps.extend(_step_text(reply, self.reply_format) for reply in gold_replies(calls))
            steps.append(self.finish_word)
        return steps

    def tool_calls(self, action: str, tools: ToolSet) -> list[ToolCall] | None:
        """The reply's calls, whatever they name (a held-back function is called by name too)."""
        try:
            calls = read_answer(action, self.budgets)
        except ToolCallError:
            return None
        return [ToolCall(n, a) for c in calls for n, a in c.items()] or None

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar | None:
        """Calls of the functions offered so far, or ``finish`` (the end of the turn)."""
        from toolgym.families.bfcl.grammar import reply_grammar

        return reply_grammar(tools, "python", "call", self.reply_format)


register_language(BfclTurnLanguage.name, "toolgym.families.bfcl.turn_language:BfclTurnLanguage")
