"""BFCL's web search tools over a search backend the user supplies (toolgym reaches no network).

BFCL's ``WebSearchAPI`` searches with SerpAPI and fetches pages with ``requests``, live. Here its
two functions, ``search_engine_query`` and ``fetch_url_content``, give the same results in the
same shapes, and get them from a :class:`SearchBackend` the user passes to the env
(``search_backend=``: an object, or the ``"module:attribute"`` path of one): a live search API,
a cache of recorded pages, an offline corpus. Without one the env is refused.

A backend has two methods:

* ``search(keywords, max_results, region)``: the results, a list of ``{"title", "href",
  "body"}`` (``body`` the snippet), best first;
* ``fetch(url, mode)``: the page at ``url`` as text, in ``mode`` (``"raw"`` HTML,
  ``"markdown"`` or ``"truncate"``: its text without scripts and styles, as BFCL's modes are).

What either raises becomes the error result BFCL gives for a failed search or fetch.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from toolgym.errors import UserInputError

MODES = ("raw", "markdown", "truncate")
"""``fetch_url_content``'s modes."""


@runtime_checkable
class SearchBackend(Protocol):
    """What the web search env searches and fetches with (see the module docstring)."""

    def search(self, keywords: str, max_results: int, region: str) -> list[dict[str, Any]]:
        """The results for ``keywords``: ``{"title", "href", "body"}`` each, best first."""
        ...

    def fetch(self, url: str, mode: str) -> str:
        """The page at ``url`` as text, in ``mode`` (one of :data:`MODES`)."""
        ...


def load_backend(backend: Any) -> SearchBackend:
    """A search backend: the object itself, or the one a ``"module:attribute"`` path names.

    Raises:
        UserInputError: no backend, a path that does not import, or an object without
            ``search`` and ``fetch``.
    """
    if backend is None:
        raise UserInputError(
            "BFCL's web search needs a search backend of yours (toolgym reaches no network): "
            "gym.make(..., search_backend=obj) with obj.search(keywords, max_results, region) -> "
            '[{"title", "href", "body"}] and obj.fetch(url, mode) -> text, or '
            "search_backend='module:attribute' naming one"
        )
    if isinstance(backend, str):
        module, _, attribute = backend.partition(":")
        try:
            backend = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError, ValueError) as e:
            raise UserInputError(f"search_backend {backend!r} does not import: {e}") from e
    if not isinstance(backend, SearchBackend):
        raise UserInputError(
            "a search backend has search(keywords, max_results, region) and fetch(url, mode); "
            f"got {type(backend).__name__}"
        )
    return backend


class WebSearchAPI:
    """BFCL's ``WebSearchAPI`` over a :class:`SearchBackend` (results in BFCL's shapes).

    Args:
        backend: where searches and pages come from.
    """

    def __init__(self, backend: SearchBackend) -> None:
        self._backend = backend
        self.show_snippet = True

    def _load_scenario(self, initial_config: Mapping[str, Any], long_context: bool = False) -> None:
        self.show_snippet = bool(initial_config.get("show_snippet", True))

    def __deepcopy__(self, memo: dict[int, Any]) -> WebSearchAPI:
        """A copy that searches with the same backend (a client is not copied)."""
        copied = WebSearchAPI(self._backend)
        copied.show_snippet = self.show_snippet
        return copied

    def search_engine_query(
        self, keywords: str, max_results: int | None = 10, region: str | None = "wt-wt"
    ) -> Any:
        """Search the web for ``keywords``.

        Returns:
            ``[{"title", "href", "body"}]`` (no ``body`` without snippets), or
            ``{"error": ...}``.
        """
        try:
            found = self._backend.search(str(keywords), int(max_results or 10), str(region))
            results = []
            for result in list(found)[: int(max_results or 10)]:
                item = {"title": str(result["title"]), "href": str(result["href"])}
                if self.show_snippet:
                    item["body"] = str(result.get("body", ""))
                results.append(item)
        except Exception as e:  # the backend's failure, as BFCL reports SerpAPI's
            return {"error": str(e)}
        return results

    def fetch_url_content(self, url: str, mode: str = "raw") -> Any:
        """The page at ``url`` in ``mode``: ``{"content": ...}``, or ``{"error": ...}``."""
        if not str(url).startswith(("http://", "https://")):
            raise ValueError(f"Invalid URL: {url}")
        if mode not in MODES:
            return {"error": f"An error occurred while fetching {url}: Unsupported mode: {mode}"}
        try:
            return {"content": str(self._backend.fetch(str(url), mode))}
        except Exception as e:  # as BFCL reports a failed request
            return {"error": f"An error occurred while fetching {url}: {e}"}
