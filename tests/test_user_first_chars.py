"""A pattern guarded by its first characters gives every answer the pattern itself gives."""

from __future__ import annotations

import importlib
import json
import pkgutil
import random
import re
from pathlib import Path

import pytest

import toolgym.simulators.user as user_package
from toolgym.simulators.user import first_chars, text
from toolgym.simulators.user.first_chars import compiled, guarded
from toolgym.simulators.user.memo import Remembered
from toolgym.simulators.user.slots import normalize, standalone, whole_words

QUESTIONS = Path(__file__).parent / "data" / "user_questions.jsonl"
_GUARD = re.compile(
    r"(?P<anchors>\(\?:(?:\^\||\\A\|)+)?\(\?=\[(?P<first>(?:\\.|[^\]\\])*)\]\)\)?"
    r"\(\?:(?P<body>.*)\)",
    re.S,
)
"""The forms :func:`guarded` writes: ``(?=[first characters])(?:the pattern)``, and
``(?:^|(?=[first characters]))(?:the pattern)`` where a branch starts at ``^``."""
_ODD = "KſİıẞΣς\u2019\u201c\u201d\u2014→👍\u00a0"
"""Characters that fold, or that the reader rewrites: ``K`` (Kelvin) matches ``k`` case-blind."""


def _unguarded(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """The pattern :func:`guarded` was given to make ``pattern``, or ``None``: no guard of its."""
    found = _GUARD.fullmatch(pattern.pattern)
    if found is None:
        return None
    if bool(found["anchors"]) != pattern.pattern.startswith("(?:"):
        return None
    original = re.compile(found["body"], pattern.flags)
    return original if guarded(original).pattern == pattern.pattern else None


def _reader_patterns() -> dict[str, re.Pattern[str]]:
    out: dict[str, re.Pattern[str]] = {}
    for info in pkgutil.iter_modules(user_package.__path__):
        module = importlib.import_module(f"{user_package.__name__}.{info.name}")
        for name, value in vars(module).items():
            found = [value]  # a pattern, or patterns in a tuple or list (with their replacements)
            if isinstance(value, tuple | list):
                found = [v for item in value for v in (item if isinstance(item, tuple) else [item])]
            for i, item in enumerate(found):
                item = item.compiled if isinstance(item, Remembered) else item
                if isinstance(item, re.Pattern) and isinstance(item.pattern, str):
                    out.setdefault(
                        f"{info.name}.{name}" + (f"[{i}]" if len(found) > 1 else ""), item
                    )
    return out


PATTERNS = _reader_patterns()
GUARDED = sorted(name for name, p in PATTERNS.items() if _unguarded(p) is not None)


def _texts() -> list[str]:
    messages = [json.loads(line)["message"] for line in QUESTIONS.read_text().splitlines()]
    rng = random.Random(11)
    picked = rng.sample(messages, 500)
    texts = picked + [normalize(m) for m in picked]
    alphabet = "abkrsty ABKRST\n\t.,?!;:'\"()-/$%#*0123456789" + _ODD
    for _ in range(400):  # noise, and messages cut and spliced with it
        texts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))))
    for message in rng.sample(messages, 300):
        cut = rng.randint(0, len(message))
        texts.append(message[:cut] + rng.choice(_ODD + "\n?.,") + message[cut:])
        texts.append(message.upper())
    return texts


TEXTS = _texts()


def _answers(pattern: re.Pattern[str], text: str) -> tuple[object, ...]:
    middle, end = min(3, len(text)), max(len(text) - 2, 0)
    return (
        [(m.span(), m.groups()) for m in pattern.finditer(text)],
        pattern.findall(text),
        pattern.split(text),
        pattern.sub("<\\g<0>>", text),
        None if (m := pattern.search(text)) is None else m.span(),
        None if (m := pattern.search(text, middle, end)) is None else m.span(),
        [m.span() for m in pattern.finditer(text, middle)],
        None if (m := pattern.match(text)) is None else m.span(),
        None if (m := pattern.match(text, middle)) is None else m.span(),
        pattern.fullmatch(text) is not None,
    )


def test_the_readers_scanning_patterns_are_guarded() -> None:
    if first_chars._sre is None:
        pytest.skip("this Python's re has no parser to read first characters from")
    assert len(GUARDED) >= 100, f"only {len(GUARDED)} of {len(PATTERNS)} patterns are guarded"
    assert "text._SENTENCE" in GUARDED and "text._COMMA" in GUARDED


@pytest.mark.parametrize("name", GUARDED)
def test_a_guarded_pattern_answers_as_the_pattern_does(name: str) -> None:
    pattern = PATTERNS[name]
    original = _unguarded(pattern)
    assert original is not None and original.groups == pattern.groups
    assert original.groupindex == pattern.groupindex
    for sample in TEXTS:
        assert _answers(pattern, sample) == _answers(original, sample), (name, sample)


@pytest.mark.parametrize(
    ("pattern", "flags", "guard"),
    [
        (r"(?<=[a-z]{3}[.])\s+(?=[A-Z])|(?<=[!?;:])\s+|\s*\n\s*", 0, r"\s\x0a"),
        (r"(?<=\S)(?<![0-9]),\s+|(?<=[0-9]),\s+(?!(?:19|20)[0-9]{2}\b)", 0, r"\,"),
        (r"\b(right|correct)\b", 0, "rc"),
        (r"(?<![0-9a-z])(?:jan|feb) \d{1,2}|\d{1,2} (?:jan|feb)", 0, r"jf\d"),
        (r"\b(ok|yes)?[?!]", 0, r"oy\?\!"),  # an optional part: what follows it can come first
        (r"(?m)(?<=x)[-*\u2022]|\bfoo", 0, r"\-\*\u2022f"),  # the flags stay in front
        (r"\b(kelvin|size)\b", re.I, "ks"),  # read case-blind, as the pattern's own letters are
        (r"(?m)^[ \t]*\d+[.)] |(?<=[a-z] )\(\d\)", 0, r"\("),  # a branch at a line's start
    ],
)
def test_the_guard_holds_the_first_characters(pattern: str, flags: int, guard: str) -> None:
    if first_chars._sre is None:
        pytest.skip("this Python's re has no parser to read first characters from")
    made = compiled(pattern, flags)
    found = _GUARD.fullmatch(made.pattern)
    assert found is not None and found["first"] == guard
    assert made.flags == re.compile(pattern, flags).flags


@pytest.mark.parametrize(
    "pattern",
    [
        r"right|wrong",  # the engine scans for its literals itself
        r"\s+-\s+",  # a class first: scanned by the engine
        r"^(?:the|an?) ",  # anchored: tried at the start only
        r"(?m)^\d+[.)] ",  # tried at line starts only
        r"^\d+[.)] |\A(?<=x)y",  # every branch anchored
        r"\b(a|b)?",  # can match the empty text
        r"\b\w+ing\b",  # any word character can start it
        r"(?<![0-9])[a-z]+",  # a wide range
        r"(?<!x)(?i:k)",  # a flag group
        r"(?<!x).b",  # any character first
        r"(?<!x)[^ab]c",  # a negated class first
    ],
)
def test_no_guard_where_it_would_not_pay_or_could_not_be_read(pattern: str) -> None:
    assert compiled(pattern).pattern == pattern


def test_a_branch_at_a_lines_start_is_kept_in_the_guard() -> None:
    source = r"(?m)^[ \t]*\d+[.)] |(?<=[a-z] )\(\d\) "
    pattern = compiled(source)
    assert pattern.pattern.startswith("(?:^|(?=[\\(]))")
    sample = "Two things:\n 1. city\n2) budget, and (3) dates"
    spans = [m.span() for m in pattern.finditer(sample)]
    assert spans == [m.span() for m in re.compile(source).finditer(sample)]
    assert spans == [(12, 16), (21, 24), (36, 40)]


@pytest.mark.parametrize(
    ("pattern", "flags"),
    [(r"(?#c)(?i)(?<=a)b", 0), (r"(?x) (?i) (?<=a) b", 0), (r" (?i) (?<=a) b", re.X)],
)
def test_a_global_flag_after_a_comment_leaves_the_pattern_as_it_is(
    pattern: str, flags: int
) -> None:
    # Python takes such a flag as global; moved into the guarded group it would not compile
    made = compiled(pattern, flags)
    assert made.pattern == pattern and made.search("xAB") is not None


def test_a_verbose_patterns_last_comment_stays_a_comment() -> None:
    pattern = compiled(r"(?x) (?<![a-z]) (?: cat | dog )  # a pet, as a whole word", 0)
    assert pattern.flags & re.VERBOSE
    assert [m.span() for m in pattern.finditer("a cat, a dog, hotdog")] == [(2, 5), (9, 12)]


def test_case_blind_guards_fold_as_the_pattern_folds() -> None:
    pattern = compiled(r"(?<![a-z])(k|s)(?![a-z])", re.I)
    plain = re.compile(r"(?<![a-z])(k|s)(?![a-z])", re.I)
    for sample in ("K", "\u212a", "\u017f", "S", "x k", "ss", "\u212a \u017f"):
        assert _answers(pattern, sample) == _answers(plain, sample), sample


def test_phrase_patterns_find_what_the_lookbehind_form_finds() -> None:
    rng = random.Random(5)
    words = ["cat", "cats", "tomcat", "a", "1", "1.5", "it's", "$9", "new york", "-", "k"]
    for _ in range(3000):
        phrase = rng.choice(words)
        sample = " ".join(rng.choice([*words, ".", ",", "x", "\u212a"]) for _ in range(6))
        sample = sample.replace(" ", rng.choice(["", " ", "  "]), rng.randint(0, 2))
        literal = re.escape(phrase)
        expected = re.compile(rf"(?<![0-9a-z]){literal}(?![0-9a-z])")
        got = [m.span() for m in whole_words(phrase).finditer(sample)]
        assert got == [m.span() for m in expected.finditer(sample)], (phrase, sample)
        alone = re.compile(rf"(?<!\w){literal}(?!\w)")
        got = [m.span() for m in standalone(phrase).finditer(sample)]
        assert got == [m.span() for m in alone.finditer(sample)], (phrase, sample)


def test_the_sentence_splitter_is_unchanged_in_effect() -> None:
    message = "Got it. What breed? 1. Size 2. Colour\nAnd how many, for 2026, please!"
    plain = re.compile(_GUARD.fullmatch(text._SENTENCE.compiled.pattern)["body"])
    assert text._SENTENCE.split(message) == plain.split(message)
    assert len(text._SENTENCE.split(message)) >= 3


_ATOMS = [
    *"abksKi. -#$",
    "\u212a",
    "\u017f",
    "\u0130",
    "\u0131",
    "\u00df",
    r"\d",
    r"\s",
    r"\w",
    r"\n",
    r"\.",
    "[ab]",
    "[a-c]",
    "[k-s]",
    "[^a]",
    r"[\d.]",
    r"[\s,]",
    r"(?i:k)",
    r"\1",
    "(?(1)a|b)",
    "(?#note)",
]
_ASSERTIONS = ["(?<=a)", "(?<!b)", "(?=a)", "(?!k)", r"\b", r"\B", "$", r"\Z", "^", r"\A"]
_QUANTIFIERS = ["", "", "", "?", "*", "+", "{2}", "{0,2}", "*?", "++", "?+"]


def _random_pattern(rng: random.Random, depth: int = 0) -> str:
    branches = []
    for _ in range(rng.randint(1, 3)):
        parts = []
        for _ in range(rng.randint(1, 3)):
            roll = rng.random()
            if roll < 0.2:
                parts.append(rng.choice(_ASSERTIONS))
                continue
            if roll < 0.45 and depth < 2:
                opener = rng.choice(["(", "(?:", "(?>", f"(?P<g{rng.randint(0, 99)}>"])
                atom = f"{opener}{_random_pattern(rng, depth + 1)})"
            else:
                atom = rng.choice(_ATOMS)
            parts.append(atom + rng.choice(_QUANTIFIERS))
        branches.append("".join(parts))
    return "|".join(branches)


def test_random_patterns_answer_as_their_guarded_forms() -> None:
    # assertions, anchors and back references in branches and repeats, case folding, flags
    rng = random.Random(17)
    flags = [0, re.I, re.M, re.S, re.A, re.I | re.M, re.I | re.A, re.X]
    alphabet = "abkKs\u017f\u212a\n .-1\u00e9\u0130\u0131\u00dfiI$#"
    guards = 0
    for _ in range(3000):
        source = rng.choice(_ASSERTIONS[:4]) * rng.randint(0, 1) + _random_pattern(rng)
        try:
            original = re.compile(source, rng.choice(flags))
        except (re.error, OverflowError):
            continue
        made = guarded(original)
        if made is original:
            continue
        guards += 1
        assert (made.groups, made.groupindex, made.flags) == (
            original.groups,
            original.groupindex,
            original.flags,
        )
        for _ in range(8):
            sample = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
            assert _answers(made, sample) == _answers(original, sample), (source, sample)
    assert guards >= 300, f"only {guards} random patterns took a guard"
