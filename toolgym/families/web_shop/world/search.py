"""Search: BM25 over the catalog, as WebShop's engine ranks, built once and cached on disk.

Each product is one document (:meth:`~.catalog.Product.search_text`: title, description, first
bullet point and options, lower case). Text is split into words, Lucene's English stop words are
dropped and the rest Porter-stemmed (PyStemmer); scores are BM25 with Lucene's formula and
pyserini's defaults ``k1 = 0.9``, ``b = 0.4`` (``bm25s``). A query keeps the 50 best hits, ties
broken by ASIN; documents that share no word with the query are never hits.

The index of a catalog is saved in the cache folder under a key made of the catalog's content
and :data:`INDEX_VERSION`, and loaded from there next time.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from toolgym.simulators.cache import cache_root
from toolgym.simulators.stop_words import LUCENE_STOP_WORDS

INDEX_VERSION = 1
"""Bumped whenever indexing changes, so that old cached indexes are not reused."""

SEARCH_RETURN_N = 50
"""Hits kept per search (WebShop's ``SEARCH_RETURN_N``)."""

K1, B = 0.9, 0.4
"""pyserini's BM25 defaults."""

_WORD = re.compile(r"[a-z0-9]+")


class Analyzer:
    """Lower case, words of letters and digits, no stop words, Porter stems."""

    def __init__(self) -> None:
        import Stemmer

        self._stemmer = Stemmer.Stemmer("porter")

    def __getstate__(self) -> dict[str, object]:
        return {}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__init__()  # type: ignore[misc]

    def __call__(self, text: str) -> list[str]:
        """The terms of ``text``."""
        words = [w for w in _WORD.findall(text.lower()) if w not in LUCENE_STOP_WORDS]
        return self._stemmer.stemWords(words)


class SearchIndex:
    """BM25 over a list of documents (see the module docstring).

    Args:
        documents: one text per document.
        ids: the document ids (ASINs), for ties.
    """

    def __init__(self, documents: Sequence[str], ids: Sequence[str]) -> None:
        import bm25s
        from bm25s.tokenization import Tokenized

        self.analyzer = Analyzer()
        self.ids = list(ids)
        vocab: dict[str, int] = {}
        token_ids = []
        for text in documents:
            token_ids.append([vocab.setdefault(t, len(vocab)) for t in self.analyzer(text)])
        self._retriever = bm25s.BM25(method="lucene", k1=K1, b=B)
        self._retriever.index(Tokenized(ids=token_ids, vocab=vocab), show_progress=False)
        self._tie_rank = np.argsort(np.argsort(np.array(self.ids, dtype=object)))

    @classmethod
    def _loaded(cls, retriever: object, ids: list[str]) -> SearchIndex:
        index = cls.__new__(cls)
        index.analyzer = Analyzer()
        index.ids = ids
        index._retriever = retriever
        index._tie_rank = np.argsort(np.argsort(np.array(ids, dtype=object)))
        return index

    def __len__(self) -> int:
        return len(self.ids)

    def search(self, query: str, k: int = SEARCH_RETURN_N) -> list[str]:
        """The ids of the ``k`` best documents for ``query``, best first."""
        tokens = [t for t in self.analyzer(query) if t in self._retriever.vocab_dict]
        if not tokens:
            return []
        scores = np.asarray(self._retriever.get_scores(tokens), dtype=np.float64)
        hits = np.flatnonzero(scores > 0)
        if len(hits) > k:
            floor = np.partition(scores[hits], len(hits) - k)[len(hits) - k]
            hits = hits[scores[hits] >= floor]
        order = np.lexsort((self._tie_rank[hits], -scores[hits]))
        best = hits[order][:k].tolist()  # (a list indexed by NumPy integers is slower)
        ids = self.ids
        return [ids[i] for i in best]

    # -- the cache ---------------------------------------------------------------------------------
    def save(self, folder: Path) -> None:
        """Write the index to ``folder`` (replaced atomically)."""
        partial = folder.with_name(folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        self._retriever.save(str(partial))
        (partial / "toolgym_ids.json").write_text(json.dumps(self.ids))
        shutil.rmtree(folder, ignore_errors=True)
        partial.rename(folder)

    @classmethod
    def load(cls, folder: Path) -> SearchIndex:
        """An index written by :meth:`save`."""
        import bm25s

        retriever = bm25s.BM25.load(str(folder))
        ids = json.loads((folder / "toolgym_ids.json").read_text())
        return cls._loaded(retriever, ids)


def cached_index(
    documents: Sequence[str] | Callable[[], tuple[Sequence[str], Sequence[str]]],
    ids: Sequence[str] | None,
    key: str,
) -> SearchIndex:
    """The index of these documents: loaded from the cache folder, else built and saved there.

    ``documents`` may be a function returning ``(documents, ids)``, called only when the index
    has to be built (making a large catalog's texts is the slow part).
    """
    folder = cache_root() / "web_shop" / f"index-v{INDEX_VERSION}-{key}"
    if (folder / "toolgym_ids.json").exists():
        try:
            return SearchIndex.load(folder)
        except Exception:  # a damaged cache entry is rebuilt
            shutil.rmtree(folder, ignore_errors=True)
    if callable(documents):
        documents, ids = documents()
    assert ids is not None, "ids go with documents"
    index = SearchIndex(documents, ids)
    folder.parent.mkdir(parents=True, exist_ok=True)
    index.save(folder)
    return index
