"""A restated request that is not the user's: another action, or another name of its table.

An agent that checks its plan before acting (``So you want me to delete all your favourites,
correct?``, ``I'll clear the Planned amount for Utilities - correct?``) may restate the request
wrongly in ways no slot holds: the action itself, or a row or column of a table the request
shows. The user says no and restates the request (never a held-back detail: the request is what
the opening said).

Two readings, each from the request alone (no family is named):

* **actions**: the verbs of the check (``delete``, ``add``, ``show`` ...), put to the user as
  what the agent will do, fall in classes none of which the request's verbs fall in;
* **table names**: the request's text shows a table (markdown rows, ``| a | b |``), and the
  check writes one of its column headers or row labels that the request's own words do not.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence

from toolgym.simulators.user.phrases import CHECK
from toolgym.simulators.user.reading import Reading
from toolgym.simulators.user.slots import Slot, contains_phrase, normalize

_ACTIONS: dict[str, tuple[str, ...]] = {
    "remove": (
        "delete", "remove", "erase", "clear", "drop", "unfavourite", "unfavorite", "get rid of",
        "take off", "take out", "wipe",
    ),
    "add": ("add", "create", "insert", "upload", "append", "post", "submit"),
    "show": (
        "show", "list", "see", "view", "display", "fetch", "pull up", "retrieve", "look at",
        "review", "go through", "browse", "get", "search", "find", "look up", "look for",
        "tell me", "give me",
    ),
    "vote": ("vote", "upvote", "downvote"),
    "change": (
        "change", "update", "set", "replace", "edit", "modify", "increase", "decrease",
        "raise", "lower", "rename", "add", "bump", "overwrite",
    ),
    "sort": ("sort", "order", "rank"),
    "freeze": ("freeze", "pin", "keep visible", "keep the first row visible"),
    "filter": ("filter", "filtering"),
}  # fmt: skip
"""Verb classes: two requests whose verbs share no class ask for different things."""

_FIRM = frozenset({"remove", "add", "vote", "sort", "freeze"})
"""The classes no other is read as: a search is set up, filtered, looked for and shown alike,
but nothing deleted is added, and nothing shown is voted on."""

_PLAN = re.compile(
    r"\b(?:you(?: want| would like|'d like| need)(?: me)? to|you're asking (?:me )?to|"
    r"i(?: will|'ll| am going to|'m going to))"
    r" (?:just |simply |go ahead and |now )?([a-z]+(?: [a-z]+)?)"
)
"""What the agent says it will do: the verb after ``you want me to``, ``I'll``."""

_TABLE_ROW = re.compile(r"^\s*\|(.+)\|\s*$")
_SEPARATOR = re.compile(r"^[\s|:-]+$")
_SMALL = re.compile(
    r"^(hi|hello|hey|thanks|thank you|appreciate it|cheers|please|quick one|thanks a lot)$"
)


@functools.lru_cache(maxsize=256)
def _request(opening: str) -> tuple[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """The request's own text (its table lines out), and its table's headers and row labels."""
    text: list[str] = []
    headers: list[str] = []
    labels: list[str] = []
    header = True
    for line in opening.splitlines():
        row = _TABLE_ROW.match(line)
        if row is None:
            text.append(line)
            continue
        if _SEPARATOR.fullmatch(line):
            continue
        cells = [c.strip() for c in row.group(1).split("|")]
        if header:  # the first column's header names the labels, not a column one changes
            headers.extend(normalize(c) for c in cells[1:])
            header = False
        elif cells and not re.fullmatch(r"[\d.,$%\s-]*", cells[0]):
            labels.append(normalize(cells[0]))
    names = (tuple(n for n in headers if n), tuple(n for n in labels if n))
    return " ".join(text).strip(), names


@functools.lru_cache(maxsize=1)
def _class_patterns() -> dict[str, re.Pattern[str]]:
    """Each class's verbs, inflected (``delete``, ``deleted``, ``deleting``, ``pulls up``)."""

    def inflected(phrase: str) -> str:
        first, _, rest = phrase.partition(" ")
        stem = first[:-1] if first.endswith("e") else first
        forms = {first, first + "s", first + "es", first + "d", first + "ed", stem + "ing"}
        words = "|".join(sorted(map(re.escape, forms)))
        return rf"(?:{words})" + (rf" {re.escape(rest)}" if rest else "")

    return {
        name: re.compile(rf"\b(?:{'|'.join(inflected(w) for w in words)})\b")
        for name, words in _ACTIONS.items()
    }


def _classes(verbs: str) -> set[str]:
    return {name for name, pattern in _class_patterns().items() if pattern.search(verbs)}


def _request_actions(request: str) -> set[str]:
    text = normalize(request)
    found = _classes(text)
    if not found and re.search(r"\b(which|what)\b", text):
        found = {"show"}  # "Which images are in my favourites?"
    return found


def contradicts_request(message: str, opening: str) -> bool:
    """Whether a check ``message`` restates the request ``opening`` as something it is not."""
    request, tables = _request(opening)
    if not request:
        return False
    text = normalize(message)
    said = normalize(request)
    for names in tables:  # a header for the request's header, a row for its row
        ours = {n for n in names if contains_phrase(said, n)}
        theirs = {n for n in names if contains_phrase(text, n)}
        if theirs - ours and ours - theirs:
            return True  # "clear the Planned amount" where the request clears the actual
    planned = " ".join(m.group(1) for m in _PLAN.finditer(text))
    if not planned:
        return False
    theirs, ours = _classes(planned), _request_actions(request)
    return bool(theirs and ours) and not theirs & ours and bool((theirs | ours) & _FIRM)


def restated(opening: str) -> str:
    """The request as the user restates it: its own text, greetings and thanks left out."""
    request, _ = _request(opening)
    sentences = re.split(r"(?<=[.!?])\s+", request)
    kept = [s for s in sentences if not _SMALL.fullmatch(normalize(s))]
    return " ".join(kept or sentences).strip()


def with_contradiction(
    reading: Reading, message: str, slots: Sequence[Slot], opening: str
) -> Reading:
    """``reading``, marked as contradicting the request where a check it would confirm does."""
    if reading.kind != CHECK or not opening:
        return reading
    present = {s.kind for s in slots}
    wrong = [
        k
        for k in reading.kinds
        if k in present
        and k not in reading.asked
        and k not in reading.stated
        and (reading.valued is None or k in reading.valued)
    ]
    if wrong or not contradicts_request(message, opening):
        return reading
    return dataclasses.replace(reading, contradicted=True)
