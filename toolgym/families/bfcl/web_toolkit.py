"""The web search toolkit: BFCL's ``WebSearchAPI`` over the user's search backend.

``search_backend`` is required (toolgym reaches no network; see :mod:`.web`); ``category`` picks
``web_search_base`` or ``web_search_no_snippet`` (search results without their snippets).
"""

from __future__ import annotations

from typing import Any

from toolgym.families.bfcl.data import WEB_SEARCH
from toolgym.families.bfcl.toolkit import check_options
from toolgym.families.bfcl.turn_toolkit import BfclMultiTurnToolkit
from toolgym.families.bfcl.turns import MultiTurnBackend
from toolgym.families.bfcl.web import WebSearchAPI, load_backend


class BfclWebSearchToolkit(BfclMultiTurnToolkit):
    """The web search categories' parts.

    Args:
        world_seed: unused (kept for the shared contract).
        category: ``"web_search_base"``, ``"web_search_no_snippet"`` or ``None`` for both.
        reply_format: how replies are read (``"any"``, ``"prompt"`` or ``"fc"``).
        search_backend: where searches and pages come from: an object with ``search`` and
            ``fetch``, or the ``"module:attribute"`` path of one (:mod:`.web`).

    Raises:
        UserInputError: no search backend, or one without ``search`` and ``fetch``.
        ValueError: another category, or an unknown reply format.
    """

    name = "bfcl_web_search"

    def __init__(
        self,
        world_seed: int = 0,
        *,
        category: str | None = None,
        reply_format: str = "any",
        search_backend: Any = None,
    ) -> None:
        check_options(category, WEB_SEARCH, "web search", reply_format)
        self.search_backend = load_backend(search_backend)
        super().__init__(world_seed, reply_format=reply_format)
        self.category = category

    def new_backend(self) -> MultiTurnBackend:  # type: ignore[override]
        """A conversation whose ``WebSearchAPI`` searches with the user's backend."""
        backend = self.search_backend
        return MultiTurnBackend(self.reply_format, {"WebSearchAPI": lambda: WebSearchAPI(backend)})
