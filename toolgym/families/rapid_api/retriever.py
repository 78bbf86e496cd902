"""A top-k API retriever over the whole library: BM25 on each function's words.

Each function is one document: its tool's name and category, the API's name and description and
its parameter names. Words are lower-cased, split on non-letters (``snake_case`` and
``camelCase`` names too), stop words dropped and the rest Porter-stemmed (PyStemmer). Scores are
BM25 (``k1 = 1.2``, ``b = 0.75``) from an inverted index of NumPy arrays, so a top-5 query over
16,000 functions costs a few posting lists, not a pass over every document; ties go to the
earlier function in library order.

>>> r = ApiRetriever(["weather forecast for a city", "currency exchange rates", "city hotels"])
>>> r.search("hotels in a city", 2)
[2, 0]
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from toolgym.simulators.stop_words import LUCENE_STOP_WORDS

K1, B = 1.2, 0.75

_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_STOP = LUCENE_STOP_WORDS | frozenset(["from", "get", "you", "your", "api", "apis", "tool"])


def _stemmer() -> Any:  # PyStemmer has no type hints
    import Stemmer

    return Stemmer.Stemmer("english")


class ApiRetriever:
    """BM25 over documents (see the module docstring).

    Args:
        documents: one text per function, in library order.
    """

    def __init__(self, documents: Sequence[str]) -> None:
        self._stem = _stemmer().stemWord
        self._cache: dict[str, str] = {}
        postings: dict[str, dict[int, int]] = {}
        lengths = np.zeros(len(documents), dtype=np.float64)
        for i, text in enumerate(documents):
            words = self.tokenize(text)
            lengths[i] = len(words)
            for word in words:
                row = postings.setdefault(word, {})
                row[i] = row.get(i, 0) + 1
        self.size = len(documents)
        average = float(lengths.mean()) if len(documents) else 1.0
        norm = K1 * (1 - B + B * lengths / max(average, 1e-9))
        self._index: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for word, row in postings.items():
            docs = np.fromiter(row.keys(), dtype=np.int64, count=len(row))
            tf = np.fromiter(row.values(), dtype=np.float64, count=len(row))
            idf = math.log(1 + (self.size - len(row) + 0.5) / (len(row) + 0.5))
            self._index[word] = (docs, idf * tf * (K1 + 1) / (tf + norm[docs]))

    def tokenize(self, text: str) -> list[str]:
        """The stemmed content words of ``text``."""
        out = []
        cache = self._cache
        for raw in _WORD.findall(text):
            word = raw.lower()
            if word in _STOP:
                continue
            stem = cache.get(word)
            if stem is None:
                stem = cache[word] = self._stem(word)
            out.append(stem)
        return out

    def search(self, query: str, top_k: int = 5) -> list[int]:
        """The positions of the ``top_k`` best documents for ``query`` (only those sharing a word)."""
        words = dict.fromkeys(self.tokenize(query[:2000]))
        hits = [self._index[w] for w in words if w in self._index]
        if not hits or top_k <= 0:
            return []
        docs = np.concatenate([h[0] for h in hits])
        weights = np.concatenate([h[1] for h in hits])
        unique, inverse = np.unique(docs, return_inverse=True)
        scores = np.zeros(len(unique))
        np.add.at(scores, inverse, weights)
        k = min(top_k, len(unique))
        # highest score first, then the earlier document
        order = np.lexsort((unique, -scores))[:k]
        return [int(unique[i]) for i in order]
