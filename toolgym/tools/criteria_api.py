"""API objects that accumulate search criteria and submit them (the SambaNova program tools).

Home Search and Trip Booking programs call setters that store criteria, then one terminal call
(``API.search()``) that fills defaults, checks them and searches. What is scored is the dict of
criteria, as in the original benchmark; the search results are what the agent reads.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from toolgym.tools.api import ToolApi
from toolgym.tools.program_backend import ProgramToolkit


class SearchResult(Protocol):
    """The result of the terminal call."""

    def to_text(self) -> str:
        """The observation text of the search."""
        ...


class CriteriaApi(ToolApi):
    """An API whose state is ``search_criteria`` and the ``last_search`` result."""

    STATE_ATTRS: ClassVar[tuple[str, ...]] = ("search_criteria", "last_search")
    SHARED_STATE_ATTRS: ClassVar[frozenset[str]] = frozenset({"last_search"})
    """A search builds a new result and never changes it once kept; an agent's program can only
    call the API's functions, so nothing else can change it either."""

    def __init__(self) -> None:
        self.search_criteria: dict[str, Any] = {}
        self.last_search: SearchResult | None = None

    def outcome(self) -> dict[str, Any]:
        """The accumulated search criteria (what the original scores)."""
        return dict(self.search_criteria)

    def status(self) -> str:
        """The criteria so far."""
        return f"Criteria: {self.outcome()}"

    def result_text(self) -> str:
        """The search results, or what is missing if the terminal call was not made."""
        if self.last_search is None:
            terminal = next((t.qualname for t in self.TOOLS if t.terminal), "the terminal call")
            return (
                f"{terminal}() was not called, so nothing was searched. "
                f"Criteria: {self.search_criteria}"
            )
        return self.last_search.to_text()


class SearchToolkit(ProgramToolkit):
    """The toolkit of a search-criteria family: programs, and how many results a search shows.

    Args:
        world_seed: seed of the simulated world.
        extraction: ``"strict"`` or ``"lenient"`` (see :mod:`toolgym.tools.program`).
        max_results: how many results a search shows.
    """

    def __init__(
        self, world_seed: int = 0, *, extraction: str = "strict", max_results: int = 5
    ) -> None:
        super().__init__(world_seed, extraction=extraction)
        if not isinstance(max_results, int) or max_results < 1:
            raise ValueError(f"max_results must be at least 1; got {max_results!r}")
        self.max_results = max_results
