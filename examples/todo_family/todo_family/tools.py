"""The to-do tools, the backend that runs them, and the toolkit the environment builds."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from todo_family.simulator import TodoList
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.json_calls import ToolCall
from toolgym.tools.json_language import JsonCallLanguage
from toolgym.tools.tool import Param, Tool, ToolSet
from toolgym.tools.toolkit import Toolkit

TOOLS = (
    Tool("add_item", "Add an open item to the to-do list.", (Param("text", str, "What to do."),)),
    Tool(
        "complete_item",
        "Mark an item of the to-do list as done.",
        (Param("item_id", int, "The number of the item."),),
    ),
    Tool(
        "remove_item",
        "Delete an item from the to-do list.",
        (Param("item_id", int, "The number of the item."),),
    ),
)


class TodoBackend(Backend):
    """An episode on the to-do list of a world."""

    def __init__(self, world_seed: int) -> None:
        self.world_seed = world_seed
        self.start: tuple[str, ...] | None = None
        self.todo = TodoList(world_seed)
        self.calls: list[str] = []

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """The task's starting list (its setup's ``items``), else the world's."""
        self.start = None if setup is None else tuple(setup["items"])
        self.todo = TodoList(self.world_seed, self.start)
        self.calls = []

    def start_key(self) -> Hashable:
        """Episodes with the same starting list start alike."""
        return self.start

    def snapshot(self) -> dict[str, Any]:
        """The list and the calls made."""
        return {"todo": self.todo.snapshot(), "calls": list(self.calls)}

    def restore(self, state: Any) -> None:
        """Return to a snapshot."""
        self.todo.restore(state["todo"])
        self.calls = list(state["calls"])

    def attempt(self) -> Attempt:
        """The list as it stands."""
        return Attempt(self.todo.state(), tuple(self.calls), backend=self)

    def call(self, call: ToolCall) -> str:
        """Check the arguments against the tool's schema, then change the list."""
        tool = next((t for t in TOOLS if t.name == call.name), None)
        if tool is None:
            names = ", ".join(t.name for t in TOOLS)
            raise ToolCallError(WRONG_API, f"unknown tool {call.name!r}; the tools are {names}")
        expected = [p.name for p in tool.params]
        if sorted(call.arguments) != sorted(expected):
            raise ToolCallError(
                WRONG_ARGUMENTS, f"{tool.name} takes {expected}; got {sorted(call.arguments)}"
            )
        for param in tool.params:
            problem = param.problem(call.arguments[param.name])
            if problem is not None:
                raise ToolCallError(WRONG_ARGUMENTS, f"{tool.name}: {param.name} {problem}")
        try:
            if tool.name == "add_item":
                item = self.todo.add(call.arguments["text"])
            elif tool.name == "complete_item":
                item = self.todo.complete(call.arguments["item_id"])
            else:
                item = self.todo.remove(call.arguments["item_id"])
        except KeyError:
            raise ToolCallError(
                WRONG_ARGUMENTS, f"there is no item {call.arguments['item_id']} on the list"
            ) from None
        self.calls.append(tool.name)
        return f"OK: {tool.name} item {item.item_id} ({item.text!r}). List: {self.todo.state()}"


class TodoToolkit(Toolkit):
    """The to-do family over the list of ``world_seed`` (it has no options)."""

    def __init__(self, world_seed: int = 0) -> None:
        super().__init__(world_seed)
        self.tools = ToolSet(TOOLS)

    def language(self) -> JsonCallLanguage:
        """JSON tool calls."""
        return JsonCallLanguage(self.tools)

    def new_backend(self) -> TodoBackend:
        """A backend on this world's list."""
        return TodoBackend(self.world_seed)
