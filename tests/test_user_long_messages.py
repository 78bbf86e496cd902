"""A long message is read with the same answers as before, by searches that do not grow with it.

The reader asks of each kind word in a message which words stand before and after it, whether a
sentence that asks holds it, and whether the message capitalizes, quotes or sets the word beside
it. Those answers now come from indexes made once a message (``positions.py``) and from answers
kept for the message (``word_reads.MessageReads``); each test compares them with the plain reading
they replace, on random texts and on the question set.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from toolgym.simulators.user import word_reads
from toolgym.simulators.user.accuracy import load_family
from toolgym.simulators.user.matcher import read_message
from toolgym.simulators.user.positions import WordIndex, spans_cover
from toolgym.simulators.user.slots import normalize

QUESTIONS = Path(__file__).parent / "data" / "user_questions.jsonl"
_PIECES = ("a", "the", "an", "rent", "price", "-", "/", "1,200", "x" * 70, "Size", ":", "=", "'")


def _random_text(rng: random.Random, words: int) -> str:
    return "".join(rng.choice(_PIECES) + rng.choice(" " * 6 + "\t-/") for _ in range(words))


def test_the_word_index_answers_as_a_walk_over_the_words() -> None:
    rng = random.Random(5)
    for _ in range(300):
        text = _random_text(rng, rng.randint(0, 40))
        index = WordIndex(text)
        words = [m.span() for m in re.finditer(r"[^\s\-/]+", text)]
        assert index.words == words
        for _ in range(20):
            at, end, count = rng.randint(-2, len(text) + 2), rng.randint(-2, len(text) + 2), 3
            assert index.before(at, count) == [w for w in words if w[1] <= at][-count:]
            assert index.after(at, count) == [w for w in words if w[0] >= at][:count]
            assert index.within(at, end) == [w for w in words if at <= w[0] and w[1] <= end]
            assert index.between(at, end) == len(index.within(at, end))


def test_spans_cover_an_offset_as_any_span_holds_it() -> None:
    rng = random.Random(7)
    for _ in range(500):
        spans = [(a, a + rng.randint(-3, 12)) for a in (rng.randint(0, 60) for _ in range(6))]
        inside = spans_cover(spans)
        for at in range(-2, 80):
            assert inside(at) == any(s <= at < e for s, e in spans), (spans, at)


def test_the_word_before_a_place_is_the_one_a_search_of_all_the_text_before_it_finds() -> None:
    rng = random.Random(11)
    texts = [normalize(json.loads(line)["message"]) for line in QUESTIONS.read_text().splitlines()]
    texts = texts[:300] + [_random_text(rng, rng.randint(1, 80)) for _ in range(300)]
    for text in texts:
        for end in [m.end() for m in re.finditer(" ", text)] + [0, len(text)]:
            found = word_reads.word_before(text, end)
            plain = word_reads._WORD_BEFORE.search(text[:end])
            assert (found and (found.span(), found.group(1))) == (
                plain and (plain.span(), plain.group(1))
            ), (text, end)


def test_a_message_s_kept_reads_are_the_plain_ones() -> None:
    messages = [json.loads(line)["message"] for line in QUESTIONS.read_text().splitlines()][::7]
    messages += ["Size: 'Medium', colour = Blue Marlin, the 'big one' US", "size:x " * 300]
    for message in messages:
        read = word_reads.MessageReads(message)
        for word in {w for w in normalize(message).split()[:12]} | {"size", "us", "medium"}:
            for _ in range(2):  # read, then read again from what was kept
                assert read.capitalized(word) == word_reads._capitalized(word, message)
                assert read.quoted(word) == any(
                    normalize(m.group(1)).split()[:1] == [word]
                    for m in word_reads._QUOTE.finditer(message)
                )
                assert read.upper_case(word) == (
                    re.search(rf"(?<![\w'])({re.escape(word.upper())})(?![\w'])", message)
                    is not None
                )
                for written in ("size", "colour", "the big"):
                    expected = word_reads._assigning(written, word).search(message) is not None
                    assert read.assigned(written, word) == expected, (message, written, word)


def test_a_long_message_that_sets_no_word_compiles_no_pattern_for_its_words() -> None:
    vocabulary, conversations = load_family("toolgym.families.rapid_api.chat:PROFILE")
    conversation = next(iter(conversations.values()))
    words = sorted({w for kind in vocabulary for w in kind.words})[:60]
    rng = random.Random(3)
    values = ["".join(rng.choice("bcdfgkmpvz") for _ in range(6)) for _ in words]
    message = " ".join(f"So the {w} {v}, right?" for w, v in zip(words, values, strict=True))
    assert len(message) <= 4000 and "=" not in message and ":" not in message
    before, asked = word_reads._assigning.cache_info(), word_reads._setting.cache_info()
    read_message(message, vocabulary, conversation.slots, conversation.opening)
    after = word_reads._setting.cache_info()
    assert after.hits + after.misses > asked.hits + asked.misses  # the words were asked about
    assert word_reads._assigning.cache_info().misses == before.misses


_OLD_PATTERNS = {  # the patterns as they were, before the runs of spaces were read from their start
    "table_rule": r"[ \t]*\|?(?:[ \t]*:?-{2,}:?[ \t]*\|)+(?:[ \t]*:?-{2,}:?[ \t]*)?",
    "dash": r"\s+(?:\u2014|\u2013|--?)\s+",
    "arrow": r"\s*(?:\u2192|->|=>|\u27f6)\s*",
    "sentence_break": r"\s*\n\s*",
    "at_most": r"\s*(?:<=|\u2264|=<)\s*(?=[$\u20ac\u00a3]?\d)",
    "at_least": r"\s*(?:>=|\u2265)\s*(?=[$\u20ac\u00a3]?\d)",
}
_MARK_PIECES = (
    *(" ", "  ", "\t", "\n", " \n ", "\xa0", "|", "--", "-", ":", "\u2014", "\u2013", "->", "=>"),
    *("\u2192", "x", "Ab", "What", "? ", ". ", "3.", "!", "\U0001f44d"),
    *("<=", ">=", "=<", "\u2264", "\u2265", "<", ">", "=", "$", "7"),
)


def test_runs_of_spaces_read_from_their_start_match_as_before() -> None:
    from toolgym.simulators.user import layout, rewrites, text

    old = {name: re.compile(p) for name, p in _OLD_PATTERNS.items()}
    old_sentence = re.compile(
        text._SENTENCE.compiled.pattern.replace(r"|(?<!\s)\s*\n\s*", r"|\s*\n\s*")
    )
    assert old_sentence.pattern != text._SENTENCE.compiled.pattern
    rng = random.Random(13)
    for _ in range(4000):
        t = "".join(rng.choice(_MARK_PIECES) for _ in range(rng.randint(0, 24)))
        assert bool(layout._TABLE_RULE.fullmatch(t)) == bool(old["table_rule"].fullmatch(t)), t
        new_dash, old_dash = rewrites._DASH_AT.search(t), old["dash"].search(t)
        assert (new_dash and new_dash.span()) == (old_dash and old_dash.span()), t
        assert text._ARROW.sub(" to ", t) == old["arrow"].sub(" to ", t), t
        assert text._SENTENCE.compiled.split(t) == old_sentence.split(t), t
        for (pattern, words), name in zip(
            layout._SYMBOLS[:2], ("at_most", "at_least"), strict=True
        ):
            assert pattern.sub(words, t) == old[name].sub(words, t), t
