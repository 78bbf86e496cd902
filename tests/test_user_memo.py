"""Patterns whose answers a reply keeps give the answers of the patterns themselves."""

from __future__ import annotations

import json
import re
from pathlib import Path

from toolgym.simulators.user import phrases, rewrites, text
from toolgym.simulators.user.memo import KEPT, Remembered, forget_messages
from toolgym.simulators.user.slots import CACHED_CHARS, normalize

QUESTIONS = Path(__file__).parent / "data" / "user_questions.jsonl"
REMEMBERED = {
    "_CONFIRM": phrases._CONFIRM,
    "_TAG": phrases._TAG,
    "_CHECK_TAG": phrases._CHECK_TAG,
    "_PERSONAL": phrases._PERSONAL,
    "_ENUMERATOR": text._ENUMERATOR,
    "_SENTENCE": text._SENTENCE,
    "_DATE": text._DATE,
    "_INTERJECTION": rewrites._INTERJECTION,
}


def _span(found: re.Match[str] | None) -> tuple[int, int] | None:
    return None if found is None else found.span()


def test_kept_answers_are_the_patterns_answers() -> None:
    messages = [json.loads(line)["message"] for line in QUESTIONS.read_text().splitlines()][:400]
    texts = messages + [normalize(m) for m in messages] + ["x " * (CACHED_CHARS + 1) + "right"]
    for name, kept in REMEMBERED.items():
        assert isinstance(kept, Remembered), name
        pattern = kept.compiled
        for _ in range(2):  # answered, then answered again from what was kept
            for t in texts:
                assert _span(kept.search(t)) == _span(pattern.search(t)), (name, t)
                assert _span(kept.match(t)) == _span(pattern.match(t)), (name, t)
                assert kept.sub("", t) == pattern.sub("", t), (name, t)
                assert kept.sub("", t, 1) == pattern.sub("", t, 1), (name, t)
                assert kept.split(t) == pattern.split(t), (name, t)
        assert kept.pattern == pattern.pattern and kept.flags == pattern.flags


def test_a_kept_split_is_a_new_list_and_forgetting_empties_every_cache() -> None:
    kept = Remembered(re.compile(r"\s+"))
    first = kept.split("a b c")
    first.append("changed")
    assert kept.split("a b c") == ["a", "b", "c"]
    assert kept.sub(lambda m: "_", "a b") == "a_b"  # a function: answered, not kept
    forget_messages()
    assert kept._search.cache_info().currsize == 0 and kept._split.cache_info().currsize == 0
    for i in range(KEPT + 10):
        kept.search(f"text {i}")
    assert kept._search.cache_info().currsize == KEPT  # bounded


def test_caches_of_text_keep_no_long_message() -> None:
    # a long message (an agent may send 16,384 characters) is read anew, and held by no cache
    from toolgym.simulators.user import acknowledgement
    from toolgym.simulators.user.text import _phrase, _phrase_short

    caches = (acknowledgement._request_words_short, _phrase_short)
    for cache in caches:
        cache.cache_clear()
    long = "Could you confirm the budget and the dates of the trip? " * 40
    assert len(long) > CACHED_CHARS
    assert "budget" in acknowledgement.request_words(long)
    assert _phrase(long) == text._canonical(normalize(long))
    assert [c.cache_info().currsize for c in caches] == [0, 0]
    assert acknowledgement.request_words("the trip's budget") == {"trip's", "budget"}
    assert _phrase("a two-bedroom") == "a 2 bedroom"
    assert [c.cache_info().currsize for c in caches] == [1, 1]  # short texts are kept
