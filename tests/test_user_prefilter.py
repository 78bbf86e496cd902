"""The reader's literal prefilter gives the answers of a search of the whole alternation."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from toolgym.simulators.user import phrases
from toolgym.simulators.user.prefilter import alternation, any_match, needs
from toolgym.simulators.user.slots import normalize

QUESTIONS = Path(__file__).parent / "data" / "user_questions.jsonl"
LISTS = sorted(
    name
    for name in dir(phrases)
    if name.startswith("_")
    and name.isupper()
    and isinstance(getattr(phrases, name), (list, tuple))
    and getattr(phrases, name)
    and all(isinstance(p, str) for p in getattr(phrases, name))
)


def _texts() -> list[str]:
    messages = [json.loads(line)["message"] for line in QUESTIONS.read_text().splitlines()]
    texts = [normalize(m) for m in messages] + [m.lower() for m in messages]
    rng = random.Random(7)
    words = [w for t in texts for w in t.split()]
    for name in LISTS:  # texts built from the literals the patterns need, joined at random
        literals = [lit for p in getattr(phrases, name) for lit in needs(p) or ()]
        for _ in range(200):
            picked = rng.sample(literals, min(3, len(literals))) + rng.sample(words, 4)
            rng.shuffle(picked)
            texts.append(" ".join(picked))
    return texts


TEXTS = _texts()


def test_the_reader_has_pattern_lists() -> None:
    assert {"_INJECTION", "_GENERIC", "_LIST", "_END", "_FORGED", "_MORE"} <= set(LISTS)


@pytest.mark.parametrize("name", LISTS)
def test_prefiltered_search_agrees_with_the_whole_alternation(name: str) -> None:
    patterns = getattr(phrases, name)
    whole = alternation(tuple(patterns))
    found = 0
    for text in TEXTS:
        expected = whole.search(text) is not None
        assert any_match(patterns, text) == expected, (name, text)
        found += expected
    assert found, f"no text matches {name}: the comparison would prove nothing"


@pytest.mark.parametrize(
    ("pattern", "literals"),
    [
        (r"\bignore\b.{0,40}\b(rules|prompt)\b", ("ignore",)),
        (
            r"\b(system|developer) (prompt|message)\b|\bjailbreak\b",
            ("system", "developer", "jailbreak"),
        ),
        (r"\b(the )?(full|whole) (list|set)\b", ("full", "whole")),
        (r"\binstructions?\b", ("instruction",)),
        (r"\bgood ?bye\b", ("good",)),
        (r"\bsummari[sz]e\b", ("summari",)),
        (r"\[inst\]|<<sys>>", ("[inst]", "<<sys>>")),
        (r"\b(have a (good|nice) day|bye)\b", ("have a ", "bye")),
        (r"\b(\d+|full) points?\b", (" point",)),  # the group needs nothing; what follows does
        (r"\b(the )?(first|\d+th) (details?|values?)\b", ("detail", "value")),
        (r"\bignore\b.{0,40}\b(rules|orders)\b", ("ignore",)),  # the longest shortest is kept
        (r"ab+c", ("ab",)),
        (r"(?<!that )\bwhat you want", ("what you want",)),  # an assertion takes no text
        (r"(?<!\bto )(?<!from )\b(all|every) (of )?items\b", ("items",)),
        (r"ab(?=c)(?!cd)c", ("ab",)),
    ],
)
def test_needs_reads_the_literals_a_match_holds(pattern: str, literals: tuple[str, ...]) -> None:
    assert needs(pattern) == literals


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?P<x>a)b",  # a named group first
        r"(?i)abc",  # a flag
        r"\b(the )?\w+ list",  # nothing literal after the optional group
        r"[ab]c",  # a class first
        r"(a|b){0,2}c",  # a group that may be absent
        r"ab|",  # an empty branch matches anything
        r"(ab",  # unbalanced
        r"\.(?#c)*",  # a quantifier after a comment binds to the "." before it
        r"(a)x\1",  # a backreference
    ],
)
def test_needs_reads_nothing_it_cannot_be_sure_of(pattern: str) -> None:
    assert needs(pattern) is None


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (r"(z[^])(]y)?abc", "abc"),  # a class that holds ")(" and "]"
        (r"(z[])(]y)?abc", "abc"),
        (r"\.(?#c)*q", "q"),
    ],
)
def test_classes_and_comments_do_not_hide_a_match(pattern: str, text: str) -> None:
    assert re.search(pattern, text) is not None
    assert any_match([pattern], text)


def test_the_literal_finder_finds_every_literal_a_text_holds() -> None:
    from toolgym.simulators.user.prefilter import _candidates, _plan

    rng = random.Random(13)
    pieces = ["ab", "abc", "bc", "c", "you are", "you", "are you", "a.b", "(x)", "x", "\u212a"]
    pieces += ["a\\b", "\n", "x*", "?y", "[z]", "a|b", "$1", "^c"]
    for _ in range(300):
        chosen = rng.sample(pieces, rng.randint(1, len(pieces)))
        patterns = tuple(re.escape(p) + rng.choice(["", r"\b", "s?"]) for p in chosen)
        plan = _plan(patterns)
        for _ in range(20):
            sample = "".join(
                rng.choice([*pieces, " ", "q", "b"]) for _ in range(rng.randint(0, 30))
            )
            expected = {i for literal, own in plan.literals if literal in sample for i in own}
            assert _candidates(plan, sample) == expected | set(plan.always), (patterns, sample)
    for starts in (15, 16, 17):  # around the number of starts read one by one
        plan = _plan((r"\bcat\b", r"\bdog\b", r"\bemu\b"))
        sample = "cat " * (starts - 1) + "dog"
        assert _candidates(plan, sample) == {0, 1}, starts
    long = "you " * 500 + "are"  # literals start at many places: read literal by literal
    plan = _plan((r"\byou are\b", r"\bare\b", r"\bzebra\b"))
    assert _candidates(plan, long) == {0, 1}
