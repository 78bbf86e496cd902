"""The memory toolkit: a memory class's functions, and a question after its conversations.

``category`` picks ``memory_kv``, ``memory_vector`` or ``memory_rec_sum`` (all three by
default); ``snapshots`` is a folder of scenarios' memory snapshots in BFCL's layout
(:mod:`.memory_turns`).
"""

from __future__ import annotations

from pathlib import Path

from toolgym.families.bfcl.data import MEMORY
from toolgym.families.bfcl.memory_tasks import longest_episode
from toolgym.families.bfcl.memory_turns import MemoryBackend
from toolgym.families.bfcl.toolkit import check_options
from toolgym.families.bfcl.turn_language import BfclTurnLanguage
from toolgym.families.bfcl.turn_toolkit import BfclMultiTurnToolkit
from toolgym.tools.backend import Backend
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.language import register_language
from toolgym.tools.tool import ToolSet


class BfclMemoryLanguage(BfclTurnLanguage):
    """Replies in a memory episode: as in the multi-turn categories, over several conversations.

    The oracle's gold is the final answer, given as the reply to every turn (it has no call,
    so it ends each turn; the last one ends the episode).
    """

    name = "bfcl_memory"

    def gold_steps(self, gold: str) -> list[str]:
        """The gold as the reply to each turn, for as many turns as an episode can have."""
        return [gold] * longest_episode()

    def episode_gold_steps(self, gold: str, backend: Backend) -> list[str]:
        """The gold as the reply to each turn the episode has left."""
        episode = backend
        if not isinstance(episode, MemoryBackend):
            return self.gold_steps(gold)
        left = sum(len(turns) for turns in episode.conversations[episode.conversation :])
        return [gold] * (left - episode.turn)

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar | None:
        """Calls of the offered functions, ``finish``, or a final answer in words."""
        from toolgym.families.bfcl.grammar import reply_grammar

        return reply_grammar(tools, "python", "call", self.reply_format, answers=True)


register_language(
    BfclMemoryLanguage.name, "toolgym.families.bfcl.memory_toolkit:BfclMemoryLanguage"
)


class BfclMemoryToolkit(BfclMultiTurnToolkit):
    """The memory categories' parts.

    Args:
        world_seed: unused by BFCL's fixed entries (kept for the shared contract).
        category: one memory category, or ``None`` for all three.
        reply_format: how replies are read (``"any"``, ``"prompt"`` or ``"fc"``).
        snapshots: a folder of memory snapshots in BFCL's layout, read and written (a scenario
            with one skips its conversations); ``None`` plays them in every episode.

    Raises:
        ValueError: another category, or an unknown reply format.
    """

    name = "bfcl_memory"

    def __init__(
        self,
        world_seed: int = 0,
        *,
        category: str | None = None,
        reply_format: str = "any",
        snapshots: str | Path | None = None,
    ) -> None:
        check_options(category, MEMORY, "memory", reply_format)
        super().__init__(world_seed, reply_format=reply_format)
        self.category = category
        self.snapshots = None if snapshots is None else Path(snapshots)

    def language(self) -> BfclMemoryLanguage:
        """Replies, a step at a time, over the episode's conversations."""
        return BfclMemoryLanguage(self.reply_format)

    def new_backend(self) -> MemoryBackend:  # type: ignore[override]
        """A memory episode; the task's setup gives it the question and its conversations."""
        return MemoryBackend(self.reply_format, self.snapshots)
