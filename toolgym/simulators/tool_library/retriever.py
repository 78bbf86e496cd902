"""A top-k API retriever over the whole library: BM25 on each function's words.

Each function is one document: its tool's name and category, the API's name and description and
its parameter names. Words are lower-cased, split on non-letters (``snake_case`` and
``camelCase`` names too), stop words dropped and the rest Porter-stemmed (PyStemmer). Scores are
BM25 (``k1 = 1.2``, ``b = 0.75``) from an inverted index of NumPy arrays: a query adds its words'
posting lists into one dense score array and takes the top k with a partial sort; ties go to the
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
SPARSE_RATIO = 32
"""A query whose posting lists hold fewer than ``size / SPARSE_RATIO`` entries merges them."""

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
        """The positions of the ``top_k`` best documents for ``query`` (only those sharing a word).

        A query whose posting lists are short next to the library (a few rare words) merges
        them; a longer one (a task's instruction) adds them into one dense score array and takes
        the best with a partial sort. Either way each document's score is summed word by word
        in query order, so both give the same scores and the same ranking: highest score first,
        then the earlier document.
        """
        return self.rank(self.tokenize(query[:2000]), top_k)

    def rank(self, words: Sequence[str], top_k: int = 5) -> list[int]:
        """:meth:`search` for a query already tokenized (its stemmed words, repeats ignored)."""
        hits = [self._index[w] for w in dict.fromkeys(words) if w in self._index]
        if not hits or top_k <= 0:
            return []
        if sum(len(docs) for docs, _ in hits) * SPARSE_RATIO < self.size:
            return self._merge(hits, top_k)
        scores = np.zeros(self.size)
        for docs, weights in hits:  # a posting list holds each document once
            scores[docs] += weights
        matched = int(np.count_nonzero(scores))
        if matched > top_k:  # every document tied with the k-th best is kept, then ordered
            threshold = np.partition(scores, self.size - top_k)[self.size - top_k]
            candidates = np.flatnonzero(scores >= threshold)
        else:
            candidates = np.flatnonzero(scores)
        order = np.lexsort((candidates, -scores[candidates]))[:top_k]
        return [int(candidates[i]) for i in order]

    @staticmethod
    def _merge(hits: list[tuple[np.ndarray, np.ndarray]], top_k: int) -> list[int]:
        docs = np.concatenate([h[0] for h in hits])
        weights = np.concatenate([h[1] for h in hits])
        unique, inverse = np.unique(docs, return_inverse=True)
        scores = np.zeros(len(unique))
        np.add.at(scores, inverse, weights)
        order = np.lexsort((unique, -scores))[:top_k]
        return [int(unique[i]) for i in order]
