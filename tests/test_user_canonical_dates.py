"""``writes_date`` skips the canonical rewrites for a text without a month's first letters.

It relies on the rewrites writing a month's name only where the text holds one already: these
tests compare it with the rewrites run in full, on the question set's messages and on texts made
of what each rewrite reads (number and day words, chat spellings, contractions, ordinals, money,
rooms, ranges, fractions, symbols), joined in every way the rewrites split or join words.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from toolgym.simulators.user.chat_words import _CHAT
from toolgym.simulators.user.date_forms import _DAY_WORDS, MONTHS
from toolgym.simulators.user.number_words import _NUMBER_WORDS
from toolgym.simulators.user.slots import normalize
from toolgym.simulators.user.text import (
    _DATE,
    _MONTH_STEM,
    _canonical,
    writes_date,
)

QUESTIONS = Path(__file__).parent / "data" / "user_questions.jsonl"
_READ = [
    "1st", "2nd", "3rd", "4th", "21st", "12", "30", "2026", "'27", "5k", "$1.2m", "2m", "$950k",
    "3bd", "2ba", "1br/2ba", "br/ba", "in/out", "from/to", "#4", "no.", "3+", "a & b", "half",
    "quarter", "third", "two and a half", "a lot of", "lots", "how much time", "how many room",
    "at the most", "not above", "not below", "never more than", "63 wide by 42 long", "floor of $9",
    "$900 as your floor", "one", "you two", "don't", "you'd", "what's", "we're", "they'll", "the",
    "of", "to", "through", "and", "or", "-", "/", "'", "$", "usd", "bucks", "eur", "be", "will be",
    "you prefer", "would you rather", "at the house", "how are you planning to", "million",
]  # fmt: skip
"""What the rewrites read, none holding a month's first three letters."""
_JOINS = [" ", " ", " ", "-", "/", ", ", "'", "", ".", " & ", " + "]


def _slow(text: str) -> bool:
    return _DATE.search(_canonical(text)) is not None


def _texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    words = [*_READ, *_CHAT, *_NUMBER_WORDS, *_DAY_WORDS]
    words = [w for w in words if not _MONTH_STEM.search(w)]
    months = [m.lower() for m in MONTHS] + ["sept", "dec", "nov"]
    out = []
    for _ in range(count):
        parts = [rng.choice(words) for _ in range(rng.randint(1, 9))]
        if rng.random() < 0.3:  # some with a month, so the texts hold dates too
            parts.insert(rng.randrange(len(parts) + 1), rng.choice(months))
        text = parts[0]
        for part in parts[1:]:
            text += rng.choice(_JOINS) + part
        out.append(normalize(text))
    return out


def test_the_question_set_reads_the_same_dates_with_and_without_the_shortcut() -> None:
    messages = [json.loads(line)["message"] for line in QUESTIONS.read_text().splitlines()]
    dated = 0
    for message in messages:
        text = normalize(message)
        assert writes_date(text) == _slow(text), message
        dated += _slow(text)
    assert dated > 50  # the set has dates to find


def test_texts_made_of_what_the_rewrites_read_hold_no_date_without_a_month() -> None:
    texts = _texts(20_000, seed=5)
    dated = 0
    for text in texts:
        slow = _slow(text)
        assert writes_date(text) == slow, (text, _canonical(text))
        dated += slow
    assert dated > 500  # the months put in make dates, so both answers are compared


def test_a_rewrite_that_wrote_a_month_would_be_caught(monkeypatch) -> None:
    # were a chat word written out as a date ("ides": "march 15"), the texts above would show it
    from toolgym.simulators.user import text

    expand = text.expand_chat
    monkeypatch.setitem(_CHAT, "ides", "march 15")
    monkeypatch.setattr(text, "expand_chat", lambda t: expand(t).replace("ides", "march 15"))
    text._canonical_short.cache_clear()
    try:
        texts = _texts(2_000, seed=5)
        assert any(writes_date(t) != _slow(t) for t in texts)
    finally:
        text._canonical_short.cache_clear()
