"""The Seal-Tools toolkit: the world's tools, the calling-list language and the answer backend.

A task's setup names the tools it offers, in the order the prompt lists them:
``{"api_list": ["searchLoanOffers", "getLoanOfferDetails", ...]}``. The episode's first
observation is the benchmark's prompt over those tools (:mod:`.prompt`); the agent answers with
one calling list (in ``call`` mode, a calling list per step, added up until ``finish``), which
the backend reads with Seal-Tools' parser and keeps as the attempt's outcome. Nothing is
executed: the answer is what is scored. Each call of a read answer is still sent to the
simulated service once, so that service faults (see :class:`toolgym.wrappers.FaultInjection`)
reach the family's calls like any other's.
"""

from __future__ import annotations

import os

from toolgym.families.seal_tools.backend import SealToolsBackend
from toolgym.families.seal_tools.convert import file_world, generated_world
from toolgym.families.seal_tools.language import CallingListLanguage
from toolgym.tools.tool import ToolSet
from toolgym.tools.toolkit import Toolkit


class SealToolsToolkit(Toolkit):
    """The Seal-Tools family's parts over the tools of ``world_seed`` or of a tool file.

    Args:
        world_seed: seed of the world (its generated tool library).
        tool_file: a Seal-Tools ``tool.jsonl`` whose tools replace the generated ones (the
            stored splits offer generated tools: use it with tasks of your own, such as
            :func:`toolgym.families.seal_tools.tasks.load_instance_tasks`).

    Raises:
        TaskFileError: a tool file that cannot be read or holds no tool.
    """

    name = "seal_tools"

    def __init__(self, world_seed: int = 0, *, tool_file: str | os.PathLike[str] | None = None):
        super().__init__(world_seed)
        self.tool_file = None if tool_file is None else str(tool_file)
        self.user_world = tool_file is not None
        self.world = generated_world(world_seed) if tool_file is None else file_world(tool_file)

    @property
    def tools(self) -> ToolSet:  # type: ignore[override]
        """The world's documented tools."""
        return self.world.tools

    def language(self) -> CallingListLanguage:
        """The calling-list language over the world's tools."""
        return CallingListLanguage(self.world.seal)

    def new_backend(self) -> SealToolsBackend:
        """A backend over the world's tools."""
        return SealToolsBackend(self.world)
