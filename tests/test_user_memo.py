"""Patterns whose answers a reply keeps give the answers of the patterns themselves."""

from __future__ import annotations

import json
import re
from pathlib import Path

from toolgym.simulators.user import phrases, rewrites, text
from toolgym.simulators.user.memo import KEPT, TASKS_KEPT, Remembered, forget_messages, per_task
from toolgym.simulators.user.slots import CACHED_CHARS, Slot, normalize

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


def test_per_task_keeps_an_answer_for_the_tuple_itself_and_only_while_it_is_held() -> None:
    calls: list[tuple[str, ...]] = []

    @per_task
    def kinds(slots: tuple[str, ...]) -> tuple[str, ...]:
        calls.append(slots)
        return tuple(sorted(slots))

    task = ("size", "color")
    assert kinds(task) == kinds(task) == ("color", "size") and len(calls) == 1
    equal = tuple(["size", "color"])  # equal, another object: read anew (no hash of the slots)
    assert equal is not task and kinds(equal) == ("color", "size") and len(calls) == 2
    assert kinds(["size", "color"]) == ("color", "size") and len(calls) == 3  # a list: never kept
    for i in range(TASKS_KEPT + 5):  # bounded: the kept answers are dropped, then read anew
        kinds((f"kind{i}",))
    assert len(calls) == 3 + TASKS_KEPT + 5
    kinds(task)
    assert len(calls) == 3 + TASKS_KEPT + 6


def test_a_task_with_a_short_code_reads_one_tuple_per_codes_dropped() -> None:
    from toolgym.simulators.user.shapes import _cased

    slots = (
        Slot("country", "IT", "IT", ("Italy",)),
        Slot("query", "pasta", "pasta"),
        Slot("language", "US", "US"),
    )
    assert _cased(slots, "Pictures from IT and US?") is slots  # both written as codes
    dropped = _cased(slots, "is it for us?")  # both only as words: neither is a value
    assert dropped is _cased(slots, "What about it, for us?")  # kept for the task
    assert isinstance(dropped, tuple)
    assert [s.value for s in dropped] == [None, "pasta", None]
    assert dropped[0].text == "the code IT" and dropped[0].aliases == ("Italy",)
    one = _cased(slots, "IT, for us?")
    assert [s.value for s in one] == ["IT", "pasta", None] and one[0] is slots[0]
    assert one is not dropped and one is _cased(slots, "IT?")
    assert _cased(list(slots), "is it for us?") == dropped  # a list: read each time
