"""The multi-turn backend: one conversation of a BFCL multi-turn entry, turn after turn.

An entry's setup names the classes it involves and their starting state, the functions shown
to the model, those held back until a later turn (``miss_func``) and the user's turns. The
backend holds the entry's backends (:class:`.multi_turn.Backends`, fresh at every reset), runs
the calls of each step on them, and keeps the answer as BFCL's evaluation reads it: per turn,
the execution texts of each step that made calls. A turn ends when the model replies without
calls; the next turn's user message then comes, with the held-back functions where the entry
gives them at that turn (added to the tools, and listed in the message for a prompt-mode model,
as BFCL does). A turn of more than :data:`MAXIMUM_STEP_LIMIT` steps with calls ends the whole
conversation (BFCL's forced quit).
"""

from __future__ import annotations

import copy
import functools
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from toolgym.errors import TaskFileError
from toolgym.families.bfcl import prompt
from toolgym.families.bfcl.multi_turn import CLASSES, Backends, is_long_context
from toolgym.families.bfcl.tools import BfclTool, tool_set
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import short_repr
from toolgym.tools.errors import TIMEOUT, ToolCallError
from toolgym.tools.tool import ToolSet

MAXIMUM_STEP_LIMIT = 20
"""BFCL's limit of steps with calls in one turn (``MAXIMUM_STEP_LIMIT``): one more quits."""

SETUP_KEYS = frozenset(
    {"category", "involved_classes", "initial_config", "functions", "missed_function", "turns"}
)
"""What a multi-turn task's setup holds."""

NO_REQUEST = "(no request)"


@functools.cache
def _additional_prompts() -> tuple[str, str]:
    import bfcl_eval.constants.default_prompts as prompts

    return (
        prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC,
        prompts.DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING,
    )


def additional_function_message(docs: Sequence[Mapping[str, Any]], fc: bool) -> str:
    """BFCL's user message of a turn that offers held-back functions.

    A function-calling model gets the new functions as tools and BFCL's one sentence; a
    prompt-mode model gets the functions' docs (as Python writes the list) before it.
    """
    fc_text, prompting = _additional_prompts()
    return fc_text if fc else prompting.format(functions=list(docs))


def user_text(messages: Sequence[Mapping[str, Any]]) -> str:
    """A turn's user messages, joined."""
    said = [str(m.get("content", "")) for m in messages if m.get("role") == "user"]
    return "\n".join(said).strip()


def check_setup(
    setup: Mapping[str, Any],
    known: Sequence[str] = tuple(CLASSES),
    keys: frozenset[str] = SETUP_KEYS,
) -> None:
    """Refuse a setup that is not a multi-turn entry's (over the ``known`` classes).

    Raises:
        TaskFileError: keys not among ``keys``, unknown classes, or turns that are not lists of
            messages.
    """
    unknown = set(setup) - keys
    if unknown:
        raise TaskFileError(
            f"a BFCL multi-turn setup holds {', '.join(sorted(keys))}; got {sorted(unknown)}"
        )
    classes = setup.get("involved_classes")
    if not isinstance(classes, list) or not classes or not set(classes) <= set(known):
        raise TaskFileError(
            f"'involved_classes' is a non-empty list of {', '.join(known)}; got "
            f"{short_repr(classes, 80)}"
        )
    turns = setup.get("turns")
    if not isinstance(turns, list) or not turns or not all(isinstance(t, list) for t in turns):
        raise TaskFileError(
            f"'turns' is a non-empty list of turns (lists of messages); got {short_repr(turns, 80)}"
        )
    if not isinstance(setup.get("initial_config", {}), dict):
        raise TaskFileError("'initial_config' is an object of each class's starting state")


class MultiTurnBackend(Backend):
    """One multi-turn conversation (see the module docstring).

    Args:
        reply_format: how replies are read (:data:`.answers.REPLY_FORMATS`); ``"fc"`` gives
            held-back functions as BFCL gives them to a function-calling model.
        makers: classes of toolgym's own by name, for entries that involve them (the web
            search category's ``WebSearchAPI``, over the user's search backend).
    """

    handles_faults = True
    setup_keys = SETUP_KEYS
    """What a setup may hold."""

    def __init__(
        self, reply_format: str = "any", makers: Mapping[str, Callable[[], Any]] | None = None
    ) -> None:
        self.reply_format = reply_format
        self.makers = dict(makers or {})
        self.words: str | None = None
        self.setup: dict[str, Any] = {}
        self.backends: Backends | None = None
        self.functions: list[dict[str, Any]] = []
        self.turn = 0
        self.count = 0
        self.answer: list[list[list[str]]] = [[]]
        self.forced = False
        self.ended = False
        self.pending: str | None = None
        """The message that opens the episode's next conversation after a forced quit ended
        one (:class:`.memory_turns.MemoryBackend`); ``None`` otherwise."""

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """A fresh conversation over the entry's backends (``setup``).

        Raises:
            TaskFileError: a setup that is not a multi-turn entry's.
        """
        if not setup:
            raise TaskFileError("a BFCL multi-turn task has a setup: its entry")
        check_setup(setup, (*CLASSES, *self.makers), self.setup_keys)
        self.setup = dict(setup)
        entry = {
            "involved_classes": setup["involved_classes"],
            "initial_config": setup.get("initial_config") or {},
        }
        self.backends = Backends(entry, is_long_context(self.category), self.makers)
        self.functions = list(setup.get("functions") or ())
        self.turn, self.count, self.answer = 0, 0, [[]]
        self.forced = self.ended = False
        self.words = None
        self.pending = None

    @property
    def category(self) -> str:
        """The entry's category."""
        return str(self.setup.get("category", "multi_turn_base"))

    @property
    def turns(self) -> list[list[dict[str, Any]]]:
        """The user's turns (each a list of messages; a held-back function's turn is empty)."""
        return list(self.setup.get("turns") or [[]])

    @property
    def tools(self) -> ToolSet:
        """The functions offered so far."""
        return tool_set(self.functions, "python")

    def opening(self, instruction: str) -> str:
        """The first turn's request."""
        return user_text(self.turns[0]) or instruction

    def system_prompt(self) -> str | None:
        """BFCL's system prompt for a prompt-mode model, over the functions offered at first."""
        docs = [tool.doc for tool in self.tools if isinstance(tool, BfclTool) and tool.doc]
        return prompt.system_prompt(docs, self.system_message())

    def system_message(self) -> str | None:
        """The entry's own system message (what a function-calling model gets), if any."""
        own = [m.get("content") for m in self.turns[0] if m.get("role") == "system"]
        return str(own[0]) if own else None

    def turn_info(self, opened: bool = False) -> dict[str, Any]:
        """What ``info`` tells of where the episode is, beyond the turn (nothing here).

        Args:
            opened: the step opened one of the episode's conversations.
        """
        return {}

    def run(
        self, texts: Sequence[str], seconds: float | None = None
    ) -> tuple[list[str], list[ToolCallError]]:
        """Run one step's calls (execution texts): their results, and the faults that failed any.

        The step joins the answer.

        A service fault (:class:`toolgym.wrappers.FaultInjection`) fails a call before it runs,
        as a failing service would: its result is the fault's error, and it is left out of the
        answer (it never reached the backends). A call not started within ``seconds`` of the
        step's start (toolgym's time budget; each call is bounded on its own) is not run either:
        a ``timeout`` fault.
        """
        assert self.backends is not None, "reset() first"
        results: list[str] = []
        ran: list[str] = []
        faults: list[ToolCallError] = []
        end = None if seconds is None else time.monotonic() + seconds
        for text in texts:
            if end is not None and time.monotonic() > end:
                late = ToolCallError(
                    TIMEOUT, f"not run: the reply's calls ran past the step's {seconds:g} s budget"
                )
                results.append(f"Error during execution: {late.message}")
                faults.append(late)
                continue
            if self.faults is None:
                results.append(self.backends.run_one(text))
                ran.append(text)
                continue
            name = text.split("(", 1)[0][:80]
            try:
                results.append(
                    str(self.faults.around_call(name, functools.partial(self._run, text)))
                )
                ran.append(text)
            except ToolCallError as e:
                results.append(f"Error during execution: {e.message}")
                faults.append(e)
        if ran:
            self.answer[-1].append(ran)
        self.count += 1
        if self.count > MAXIMUM_STEP_LIMIT:
            self.forced = self.ended = True
        return results, faults

    def _run(self, text: str) -> str:
        assert self.backends is not None
        return self.backends.run_one(text)

    def end_turn(self, words: str | None = None) -> str | None:
        """End the current turn on a reply without calls (``words``, kept as the last such).

        Returns:
            The next turn's user message, or ``None`` after the last turn.
        """
        if words is not None:
            self.words = words
        if self.ended:
            return None
        if self.turn + 1 >= len(self.turns):
            self.ended = True
            return None
        self.turn += 1
        self.count = 0
        self.answer.append([])
        held = (self.setup.get("missed_function") or {}).get(str(self.turn))
        if held:
            self.functions = [*self.functions, *held]
            return additional_function_message(held, self.reply_format == "fc")
        return user_text(self.turns[self.turn]) or NO_REQUEST

    def snapshot(self) -> dict[str, Any]:
        """The whole conversation (its backends copied)."""
        return copy.deepcopy(
            {
                "setup": self.setup,
                "backends": self.backends,
                "functions": self.functions,
                "turn": self.turn,
                "count": self.count,
                "answer": self.answer,
                "forced": self.forced,
                "ended": self.ended,
                "words": self.words,
            }
        )

    def restore(self, state: Any) -> None:
        """Back to a :meth:`snapshot`."""
        state = copy.deepcopy(state)
        self.setup = state["setup"]
        self.backends = state["backends"]
        self.functions = state["functions"]
        self.turn, self.count, self.answer = state["turn"], state["count"], state["answer"]
        self.forced, self.ended = state["forced"], state["ended"]
        self.words = state.get("words")

    def attempt(self) -> Attempt:
        """The answer so far: per turn, the execution texts of each step with calls.

        Its text is the last reply without calls (an agentic entry's final answer).
        """
        answer = [[list(step) for step in turn] for turn in self.answer]
        names = tuple(text.split("(", 1)[0] for turn in answer for step in turn for text in step)
        return Attempt(answer, names, None, self.words or "", self)
