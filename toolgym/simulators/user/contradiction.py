"""A restated request: confirmed where it is the user's, answered no where it is not.

A tagged restatement that names only what the request itself states (``You want the title of
the first result, correct?``) is confirmed (:func:`told_in_request`).

An agent that checks its plan before acting (``So you want me to delete all your favourites,
correct?``, ``I'll clear the Planned amount for Utilities - correct?``) may restate the request
wrongly in ways no slot holds: the action itself, or a row or column of a table the request
shows. The user says no and restates the request (never a held-back detail: the request is what
the opening said).

Readings, each from the request alone (no family is named):

* **actions**: the verbs of the check (``delete``, ``add``, ``show`` ...), put to the user as
  what the agent will do, fall in classes none of which the request's verbs fall in, where one
  side deletes, adds, votes, sorts or freezes;
* **a table's names**, where the request shows a table (markdown rows, ``| a | b |``): the check
  writes one of its column headers or row labels in place of the one the request writes (a
  swap, not a name given as context); narrows a request for the whole table to one name
  (``just the Salary column``); puts a column where the request has a row (``the first
  column``); or names another calculation (``average`` for ``total``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.memo import TASKS_KEPT
from toolgym.simulators.user.phrases import CHECK
from toolgym.simulators.user.reading import Reading
from toolgym.simulators.user.slots import Slot, Vocabulary, contains_phrase, normalize

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

_PLAN = compiled(
    r"\b(?:you(?: want| would like|'d like| need)(?: me)? to|you're asking (?:me )?to|"
    r"i(?: will|'ll| am going to|'m going to))"
    r" (?:just |simply |go ahead and |now )?([a-z]+(?: [a-z]+)?)"
)
"""What the agent says it will do: the verb after ``you want me to``, ``I'll``."""

_TABLE_ROW = compiled(r"^\s*\|(.+)\|\s*$")
_SEPARATOR = compiled(r"^[\s|:-]+$")
_SMALL = compiled(
    r"^(hi|hello|hey|thanks|thank you|appreciate it|cheers|please|quick one|thanks a lot)$"
)


@functools.lru_cache(maxsize=TASKS_KEPT)
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
    if any(tables) and (_swaps_scope(text, said, tables) or _swaps(text, said, _CALCULATIONS)):
        return True  # "just the Salary column" where the request filters the whole table
    if any(_swaps(text, said, classes) for classes in _OBJECTS):
        return True  # "you want your favourite dog images?" where the request's are cats
    planned = " ".join(m.group(1) for m in _PLAN.finditer(text))
    if not planned:
        return False
    theirs, ours = _classes(planned), _request_actions(request)
    return bool(theirs and ours) and not theirs & ours and bool((theirs | ours) & _FIRM)


_WHOLE = compiled(r"\b(whole|entire|all|every|each)\b")
_ONLY = compiled(r"\b(just|only)\b( (for|on|to|in))?( the)? ([a-z0-9' ]+)")


def _swaps_scope(text: str, said: str, tables: tuple[tuple[str, ...], ...]) -> bool:
    """Whether a check narrows the request's scope or turns its rows into columns.

    ``just the Salary column`` where the request filters the whole table; ``freeze the first
    column`` where it freezes the first row.
    """
    names = [n for group in tables for n in group]
    if _WHOLE.search(said) and not any(contains_phrase(said, n) for n in names):
        for match in _ONLY.finditer(text):
            if any(match.group(5).startswith(n) for n in names):
                return True
    ours = {(m.group(1), m.group(2)) for m in _PLACED.finditer(said)}
    kinds = {what for _, what in ours}
    swapped = {"row": "column", "column": "row"}
    return any(
        (place, swapped[what]) in ours and what not in kinds
        for place, what in ((m.group(1), m.group(2)) for m in _PLACED.finditer(text))
    )


_PLACED = compiled(r"\b(first|last|top|bottom|second|third|\d+(?:st|nd|rd|th)?) (row|column)s?\b")
"""A row or column named by its place (``the first row``, ``column 3``)."""


_OBJECTS = (
    (
        ("favourite", "favourites", "favorite", "favorites", "favourited", "favorited", "saved"),
        ("upload", "uploads", "uploaded"),
        ("vote", "votes", "voted", "upvotes", "downvotes", "upvoted", "downvoted"),
    ),
    (("cat", "cats", "kitten", "kittens"), ("dog", "dogs", "puppy", "puppies")),
)
"""What a request is about, in kinds of things one is not the other: a user's favourites,
uploads or votes; cats or dogs."""

_CALCULATIONS = (
    ("total", "sum"),
    ("average", "mean"),
    ("count", "number of"),
    ("maximum", "highest", "largest"),
    ("minimum", "lowest", "smallest"),
)
"""What a calculation over a table's column does: one for another is another request."""


def _swaps(text: str, said: str, classes: tuple[tuple[str, ...], ...]) -> bool:
    """Whether ``text`` writes a word of a class ``said`` has none of, and none of its class."""
    ours = {i for i, words in enumerate(classes) if any(contains_phrase(said, w) for w in words)}
    theirs = {i for i, words in enumerate(classes) if any(contains_phrase(text, w) for w in words)}
    return bool(ours and theirs) and not ours & theirs


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


def told_in_request(
    kinds: Sequence[str], slots: Sequence[Slot], vocabulary: Vocabulary, opening: str
) -> bool:
    """Whether the request itself states every one of ``kinds`` (its value, or its word).

    A tagged restatement that names them (``You want the title of the first result, correct?``
    where the request asks for the title) restates the request: the user confirms it.
    """
    said = normalize(opening)
    by_kind = {s.kind: s for s in slots}

    def told(kind: str) -> bool:
        slot = by_kind.get(kind)
        if slot is not None:
            return any(len(f) >= 3 and contains_phrase(said, f) for f in slot.forms())
        return any(contains_phrase(said, normalize(w)) for w in vocabulary[kind].words)

    return bool(kinds) and all(told(k) for k in kinds)
