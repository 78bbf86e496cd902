"""Queries in words: a request per call, written from the API's description and its arguments.

Every argument value appears in the query exactly as its ``str()`` is (strings with spaces or
commas in single quotes, booleans as ``true``/``false``), so an answer that copies it matches
the gold by Seal-Tools' ``str()`` comparison. A nested call names the response it takes by its
field and the step that returns it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from toolgym.benchmarks.phrasing import join, ordinal, pick

ALIASES = {
    "q": "search query",
    "query": "search query",
    "lang": "language",
    "sort": "sort order",
    "limit": "maximum number of results",
    "page": "page number",
    "from_date": "start date",
    "to_date": "end date",
}
"""Words for parameter names that say little on their own."""

_SENTENCE_END = re.compile(r"\.\s")
_SPLIT = re.compile(r"([a-z0-9])([A-Z])|[^A-Za-z0-9]+")


def name_words(name: str) -> str:
    """A parameter or field name in words (``country_code``: ``country code``).

    >>> name_words("country_code"), name_words("q"), name_words("minRating")
    ('country code', 'search query', 'min rating')
    """
    if name in ALIASES:
        return ALIASES[name]
    spaced = _SPLIT.sub(lambda m: f"{m.group(1)} {m.group(2)}" if m.group(1) else " ", name)
    return " ".join(spaced.lower().split()) or name


def value_text(value: Any) -> str:
    """An argument value as the query writes it.

    >>> value_text(True), value_text(12.5), value_text("New York"), value_text("US")
    ('true', '12.5', "'New York'", 'US')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    if isinstance(value, str) and (" " in text or "," in text or not text):
        return f"'{text}'"
    return text


def clause(description: str) -> str:
    """What an API does, as a clause to ask for (``look up loan offers by amount``).

    The first sentence, up to an ``optionally ...`` tail, with a lower-case first word.

    >>> clause("Look up offers by amount, optionally filtered by country. Each has an id.")
    'look up offers by amount'
    """
    text = _SENTENCE_END.split(description.strip(), maxsplit=1)[0].rstrip(". ")
    text = text.split(", optionally")[0].strip()
    if len(text) > 1 and text[1].islower():
        text = text[0].lower() + text[1:]
    return text or "make the call"


def _arguments(arguments: Sequence[tuple[str, Any]], style: int) -> str:
    if style == 0:
        parts = [f"{name_words(n)} {value_text(v)}" for n, v in arguments]
    elif style == 1:
        parts = [f"the {name_words(n)} {value_text(v)}" for n, v in arguments]
    else:
        parts = [f"{name_words(n)} set to {value_text(v)}" for n, v in arguments]
    return join(parts)


def request(
    rng: np.random.Generator,
    description: str,
    arguments: Sequence[tuple[str, Any]],
    uses: str = "",
    opener: str = "",
) -> str:
    """One sentence asking for one call.

    Args:
        rng: what picks the wording.
        description: the API's description.
        arguments: ``(name, value)`` of the arguments the query gives.
        uses: for a nested call, the response it takes (``the loan offer id from step 1``).
        opener: words that start the sentence (``Then``); the sentence is capitalized.
    """
    what = clause(description)
    style = int(rng.integers(3))
    given = _arguments(arguments, style) if arguments else ""
    if uses:
        what = f"{what}, using {uses}"
    form = pick(rng, ("{w} with {a}", "{w}; use {a}", "{w}, for {a}")) if given else "{w}"
    body = form.format(w=what, a=given)
    if opener:
        sentence = f"{opener} {body}"
    else:
        sentence = pick(rng, ("please {b}", "I need to {b}", "I want to {b}", "{b}", "can you {b}"))
        sentence = sentence.format(b=body)
    end = "?" if sentence.startswith("can you") else "."
    return sentence[:1].upper() + sentence[1:] + end


def reference(field: str, step: int, rng: np.random.Generator) -> str:
    """The response a nested call takes: its field and the step (1-based) that returns it.

    >>> reference("loan_offer_id", 1, np.random.default_rng(0))
    'the loan offer id from the first step'
    """
    which = "first" if step == 1 else ordinal(rng, step)
    return f"the {name_words(field)} from the {which} step"


def opener(index: int, count: int, nested: bool, rng: np.random.Generator) -> str:
    """The opener of call ``index`` (0-based) of ``count``: none for the first."""
    if index == 0:
        return "First," if nested and rng.random() < 0.5 else ""
    if index == count - 1 and count > 2:
        return "Finally,"
    return pick(rng, ("Then", "After that,", "Next,") if nested else ("Also,", "In addition,"))
