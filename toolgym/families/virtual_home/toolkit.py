"""The household toolkit: the 40 ``Agent`` tools, their backend and their options.

A task's setup says which home the episode plays in and what the home presupposes:
``{"home": 3, "states": {"floor_lamp": "ON"}}`` (home 3 of the world, its floor lamps on). Homes
``0`` to ``6`` of world 0 are the benchmark's; another ``world_seed`` gives other homes from the
same templates.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from toolgym.families.virtual_home.backend import (
    VirtualHomeBackend,
)
from toolgym.families.virtual_home.language import AgentActionLanguage
from toolgym.families.virtual_home.objects import valid_object_lists
from toolgym.families.virtual_home.world import (
    ACTIONS,
)
from toolgym.tools.tool import Param, Tool, ToolSet
from toolgym.tools.toolkit import Toolkit


def _doc(description: str, allowed: Mapping[str, list[str]], call: str) -> str:
    lists = "".join(f"'{param}' can only be: {names}. " for param, names in allowed.items())
    head = f"# {description} {lists}" if lists else f"# {description}"
    return f"{head}\n{call}\n"


@functools.lru_cache(maxsize=1)
def household_tools() -> ToolSet:
    """The 40 tools, documented in the benchmark's format with their allowed objects."""
    lists = valid_object_lists()
    tools = []
    for action in ACTIONS:
        allowed = lists[action.qualname]
        params = tuple(
            Param(
                p,
                str,
                f"The {'object' if action.arity == 1 else ('first' if k == 0 else 'second') + ' object'}.",
                enum=tuple(allowed[p]),
            )
            for k, p in enumerate(action.params)
        )
        call = f"{action.qualname}({', '.join(action.params)})"
        tools.append(
            Tool(
                action.name,
                action.description,
                params,
                owner="Agent",
                doc_signature=", ".join(action.params),
                text_doc=_doc(action.description, allowed, call),
            )
        )
    return ToolSet(tools)


class VirtualHomeToolkit(Toolkit):
    """The household family's parts over the homes of ``world_seed``.

    Args:
        world_seed: seed of the world (its homes).
        max_visible: how many nearby objects an observation lists (default 12).
    """

    name = "virtual_home"

    def __init__(self, world_seed: int = 0, *, max_visible: int = 12) -> None:
        super().__init__(world_seed)
        if not isinstance(max_visible, int) or isinstance(max_visible, bool) or max_visible < 1:
            raise ValueError(f"max_visible must be a positive int; got {max_visible!r}")
        self.max_visible = max_visible
        self.tools = household_tools()

    def language(self) -> AgentActionLanguage:
        """The ``Agent`` line language."""
        return AgentActionLanguage(self.tools)

    def new_backend(self) -> VirtualHomeBackend:
        """A backend in this world."""
        return VirtualHomeBackend(self.world_seed, self.max_visible)
