"""How RapidAPI tasks are worded: requests built from the APIs' own descriptions, and answers.

An instruction opens with a reason, then asks for one step per chain of calls, in the words of
the API's description (its first sentence, an imperative verb phrase) with the values to use,
and names the fields to report. A nested step refers to what an earlier one returned ("for the
first result"). The gold answer states each reported field with the value the service returned.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

OPENERS = (
    "I need some help with a few lookups.",
    "I'm putting together a short report and need some data.",
    "Could you help me with something?",
    "I'm working on a project and need a hand.",
    "My team asked me to check a few things.",
    "I'm preparing for a meeting and need some facts.",
    "Please help me gather some information.",
    "I have a quick research task for you.",
)
"""The first sentence of an instruction."""

_SENTENCE = re.compile(r"^(.*?[.!?])(\s|$)")
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def first_sentence(description: str) -> str:
    """The description's first sentence as a verb phrase: lower-case start, no final period.

    >>> first_sentence("Search for hotels in a city. Results are paged.")
    'search for hotels in a city'
    """
    text = " ".join(description.split())
    match = _SENTENCE.match(text)
    sentence = (match.group(1) if match else text).rstrip(".!? ")
    if sentence[:1].isupper() and not sentence[1:2].isupper():
        sentence = sentence[:1].lower() + sentence[1:]
    return sentence


def words(key: str) -> str:
    """A field name as words (``release_date`` → ``release date``, ``fansNum`` → ``fans num``)."""
    found = _WORDS.findall(key)
    if not found:
        return key
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in found)


def value_text(value: Any) -> str:
    """A value as the instruction and the answer write it (strings bare, the rest as JSON)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def arguments_text(arguments: Sequence[tuple[str, Any]]) -> str:
    """``city "Lisbon", limit 5`` for the values a step must use."""
    parts = []
    for name, value in arguments:
        shown = f'"{value}"' if isinstance(value, str) else value_text(value)
        parts.append(f"{words(name)} {shown}")
    return ", ".join(parts)


def fields_text(keys: Sequence[str]) -> str:
    """``the name and the price``."""
    names = [f"the {words(k)}" for k in keys]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def step_text(
    verb_phrase: str,
    arguments: Sequence[tuple[str, Any]],
    report: Sequence[str],
    *,
    tool: str | None,
    after: str | None,
    of_first: bool,
) -> str:
    """One step of an instruction.

    Args:
        verb_phrase: what the API does (:func:`first_sentence` of its description).
        arguments: the values to pass that the instruction states.
        report: the fields whose values the answer must give.
        tool: the tool's name, when the step names it.
        after: how the step uses an earlier result ("for the first result"), for nested steps.
        of_first: whether the reported fields are those of the first item of a list.
    """
    text = verb_phrase
    if tool:
        text = f"use {tool} to {text}"
    if after:
        text = f"{after}, {text}"
    if arguments:
        text += f" ({arguments_text(arguments)})"
    if report:
        where = " of the first result" if of_first else ""
        text += f" and tell me {fields_text(report)}{where}"
    return text


def instruction(steps: Sequence[str], rng: np.random.Generator) -> str:
    """The whole request: an opener, then the steps as sentences."""
    opener = OPENERS[int(rng.integers(len(OPENERS)))]
    sentences = []
    for k, step in enumerate(steps):
        lead = (
            "Please"
            if k == 0
            else ("Then" if k == 1 else "Finally" if k == len(steps) - 1 else "Next")
        )
        sentences.append(f"{lead} {step}.")
    return " ".join([opener, *sentences])


def answer(facts: Sequence[tuple[str, str, Any]]) -> str:
    """The gold answer: ``<what>: the <field> is <value>.`` per fact ``(what, field, value)``."""
    lines = [f"{what}: the {words(field)} is {value_text(value)}." for what, field, value in facts]
    return " ".join(lines) if lines else "Done."
