"""The Seal-Tools backend: one answer (its calling lists), read against the world's tools."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from toolgym.errors import TaskFileError
from toolgym.families.seal_tools.calls import CallTally
from toolgym.families.seal_tools.convert import World
from toolgym.families.seal_tools.prompt import opening_prompt
from toolgym.families.seal_tools.world import SealTool
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import RESOURCE_LIMIT, Budgets, short_repr
from toolgym.tools.calling_list import parse_calling_list as read_calling_list
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError

UNREADABLE = (
    'expected an API-calling list, [{"api": ..., "parameters": {...}, "responses": [...]}, '
    "...], read as Seal-Tools reads it (every ' taken for \", no line breaks, the first list "
    'whose first object starts with "api", holding api, parameters and responses); '
)


def _api_list(setup: Mapping[str, Any] | None) -> tuple[str, ...]:
    if setup is None:
        return ()
    unknown = set(setup) - {"api_list"}
    if unknown:
        raise TaskFileError(f"a Seal-Tools setup has only 'api_list'; got {sorted(unknown)}")
    names = setup.get("api_list", [])
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise TaskFileError(f"'api_list' must be a list of api names; got {names!r:.200}")
    return tuple(names)


class SealToolsBackend(Backend):
    """One episode: the offered tools, and the answer once it is read.

    Args:
        world: the world's tools.
    """

    handles_faults = True

    def __init__(self, world: World) -> None:
        self.world = world
        self.api_list: tuple[str, ...] = ()
        self.text = ""
        self.calls: list[Any] | None = None
        self.error: ToolCallError | None = None
        self.tally = CallTally()

    @property
    def tools(self) -> Mapping[str, SealTool]:
        """The world's Seal-Tools tools by ``api_name``."""
        return self.world.seal

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """Offer the task's tools (``setup["api_list"]``); no answer yet.

        Names the world does not have are left out of the prompt.

        Raises:
            TaskFileError: a setup that is not ``{"api_list": [names]}``.
        """
        self.api_list = _api_list(setup)
        self.text, self.calls, self.error = "", None, None
        self.tally = CallTally(self.api_list)

    def start_key(self) -> Hashable:
        """The offered tools."""
        return self.api_list

    def opening(self, instruction: str) -> str:
        """The benchmark's prompt over the offered tools, with the query."""
        tools = [self.tools[n] for n in self.api_list if n in self.tools]
        return opening_prompt(tools, instruction)

    def snapshot(self) -> dict[str, Any]:
        """The offered tools and the answer so far."""
        return {
            "api_list": self.api_list,
            "text": self.text,
            "calls": self.calls,
            "error": self.error,
            "tally": self.tally.copy(),
        }

    def restore(self, state: Any) -> None:
        """Back to a :meth:`snapshot`."""
        self.api_list = tuple(state["api_list"])
        self.text = state["text"]
        self.calls = state["calls"]
        self.error = state["error"]
        tally = state.get("tally")
        if tally is None:  # a state saved without one: read the answer again
            tally = CallTally(self.api_list).add(self.calls or (), self.tools)
        self.tally = tally.copy()

    def read(self, text: str, budgets: Budgets) -> list[Any]:
        """The calling list in ``text``, read as Seal-Tools reads it (nothing is kept).

        Raises:
            ToolCallError: a text over the budget (``resource_limit``) or no calling list that
                parses (``non_executable``).
        """
        if len(text) > budgets.max_action_chars:
            raise ToolCallError(
                RESOURCE_LIMIT,
                f"the answer has {len(text)} characters; at most {budgets.max_action_chars}",
            )
        calls = read_calling_list(text)
        if calls is None:
            raise ToolCallError(NON_EXECUTABLE, UNREADABLE + f"got {short_repr(text, 120)}")
        return calls

    def send(self, calls: list[Any]) -> None:
        """Send each call to the simulated service once (nothing runs; faults may fail it).

        Raises:
            ToolCallError: a call a service fault failed (``service_error``).
        """
        if self.faults is None:
            return
        for item in calls:
            api = item.get("api") if isinstance(item, dict) else None
            name = api[:80] if isinstance(api, str) else short_repr(api, 40)
            self.faults.around_call(name, lambda: None)

    def answer(self, text: str, calls: list[Any] | None, error: ToolCallError | None) -> None:
        """Keep a whole answer: its text, the list read from it and what stopped it."""
        self.text, self.calls, self.error = text, calls, error
        self.tally = CallTally(self.api_list).add(calls or (), self.tools)

    def add(self, text: str, calls: list[Any]) -> None:
        """Add the calls of one step to the answer (``call`` mode)."""
        self.text = f"{self.text}\n{text}" if self.text else text
        self.calls = [*(self.calls or ()), *calls]
        self.tally.add(calls, self.tools)

    def problems(self) -> list[str]:
        """What the answer so far gets wrong about the tools (see :class:`CallTally`)."""
        return self.tally.problems()

    def next_placeholder(self) -> int:
        """The number of the next response placeholder, after the answer's calls."""
        return self.tally.placeholders

    def attempt(self) -> Attempt:
        """The calling list read (``None`` when none was), the APIs it names and its text.

        In ``call`` mode, the calls of every step so far, in order.
        """
        names = tuple(
            item["api"]
            for item in self.calls or ()
            if isinstance(item, dict) and isinstance(item.get("api"), str)
        )
        return Attempt(self.calls, names, self.error, self.text, self)
