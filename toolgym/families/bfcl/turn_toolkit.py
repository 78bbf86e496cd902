"""The multi-turn toolkit: an entry's functions as its tools, its conversation as the backend.

``category`` picks one of BFCL's multi-turn categories (``"multi_turn_miss_func"``); by default
the env plays all four.
"""

from __future__ import annotations

from toolgym.families.bfcl.multi_turn import MULTI_TURN
from toolgym.families.bfcl.toolkit import BfclToolkit, check_options
from toolgym.families.bfcl.tools import tool_set
from toolgym.families.bfcl.turn_language import BfclTurnLanguage, gold_turns, read_step
from toolgym.families.bfcl.turns import MultiTurnBackend
from toolgym.tools.budgets import DEFAULT_BUDGETS
from toolgym.tools.errors import ToolCallError
from toolgym.tools.tool import ToolSet
from toolgym.tools.toolkit import TaskTools


class BfclMultiTurnToolkit(BfclToolkit):
    """The multi-turn categories' parts.

    Args:
        world_seed: unused by BFCL's fixed entries (kept for the shared contract).
        category: one BFCL multi-turn category, or ``None`` for all four.
        reply_format: how replies are read: ``"any"`` (JSON calls, else Python calls),
            ``"prompt"`` (Python calls only) or ``"fc"`` (JSON calls only; held-back functions
            come as BFCL gives them to a function-calling model).

    Raises:
        ValueError: a category that is not a multi-turn BFCL category, or an unknown reply
            format.
    """

    name = "bfcl_multi_turn"

    def __init__(
        self, world_seed: int = 0, *, category: str | None = None, reply_format: str = "any"
    ) -> None:
        check_options(category, MULTI_TURN, "multi-turn", reply_format)
        super().__init__(world_seed, reply_format=reply_format)
        self.category = category

    def task_tools(self, task: TaskTools) -> ToolSet:
        """The functions the entry shows at first (held-back ones come at their turn)."""
        return tool_set(list((task.setup or {}).get("functions", ())), "python")

    def api_calls(self, action: str) -> tuple[str, ...]:
        """The functions a gold (turns of calls) or a reply calls, in order."""
        turns = gold_turns(action)
        try:
            texts = [c for t in turns for c in t] if turns else read_step(action, DEFAULT_BUDGETS)
        except ToolCallError:
            return ()
        return tuple(text.split("(", 1)[0].strip() for text in texts)

    def language(self) -> BfclTurnLanguage:
        """Replies, a step at a time: calls that run, or words that end the turn."""
        return BfclTurnLanguage(self.reply_format)

    def new_backend(self) -> MultiTurnBackend:  # type: ignore[override]
        """A conversation; the task's setup gives it the entry."""
        return MultiTurnBackend(self.reply_format)
