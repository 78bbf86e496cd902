"""The literal texts a pattern cannot match without: a cheap test before a regex search.

The reader tries long lists of patterns on every message (injections, requests for the whole
list, farewells). Most messages match none of them, and a search of a large alternation visits
every position of the text. :func:`any_match` first asks which patterns could match at all: a
pattern whose every branch begins with a literal word (``\\bignore\\b...``) or a group of literal
words (``\\b(system|developer) prompt``) needs one of those words somewhere in the text. Only
the patterns that pass are searched, so the answer is the same as a search of the whole
alternation. The literals a text holds are found by one pattern of them all, written as a trie
(:func:`literal_finder`), searched from each place a literal starts: a text that holds none
(most of them) costs one scan, not a test of each literal.

A lookaround takes no text, so the literals after it are still needed. A branch the analysis
cannot read (a character class or an optional group first, a flag) needs nothing: its pattern is
always searched.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from toolgym.simulators.user.first_chars import compiled as guarded_compile

_META = frozenset(".^$*+?{}[]\\|()")
_OPTIONAL = frozenset("?*{")


def _structure(pattern: str) -> list[tuple[int, str, int]] | None:
    """The unescaped ``(``, ``)`` and ``|`` outside classes, each with the depth after it.

    ``None`` when the brackets do not balance.
    """
    marks, depth, i, in_class = [], 0, 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "^":
                i += 1
            if pattern[i + 1 : i + 2] == "]":  # "[]...]" and "[^]...]": that "]" is a member
                i += 1
        elif char in "()|":
            depth += {"(": 1, ")": -1, "|": 0}[char]
            if depth < 0:
                return None
            marks.append((i, char, depth))
        i += 1
    return None if depth or in_class else marks


def _split_top(pattern: str) -> list[str] | None:
    """``pattern``'s branches at depth 0 (``None`` when its brackets cannot be followed)."""
    marks = _structure(pattern)
    if marks is None:
        return None
    cuts = [i for i, char, depth in marks if char == "|" and depth == 0]
    return [pattern[s + 1 : e] for s, e in zip([-1, *cuts], [*cuts, len(pattern)], strict=True)]


def _literal_run(text: str) -> tuple[str, int]:
    """The literal characters ``text`` opens with, and how many pattern characters they took."""
    run, i = [], 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            escaped = text[i + 1 : i + 2]
            if not escaped or escaped.isalnum() or escaped == "_":
                break  # \b, \d, \s, \1: no literal
            run.append(escaped)
            i += 2
            continue
        if char in _META:
            break
        run.append(char)
        i += 1
    if run and text[i : i + 1] in _OPTIONAL:
        run.pop()  # "instructions?": the last character may be absent
    return "".join(run), i


def _branch_needs(branch: str) -> tuple[str, ...] | None:
    """Literals one of which a match of ``branch`` holds, or ``None`` when it needs none.

    The branch's elements are read in order while they can be (literal runs, groups, ``\\b``
    and ``^``); each required one gives a set of literals, and the set whose shortest literal
    is longest is kept (``(first|\\d+th) (details|values)`` needs one of its second group's).
    """
    best: tuple[str, ...] | None = None
    while branch:
        while branch.startswith(("\\b", "^")):
            branch = branch[2:] if branch.startswith("\\b") else branch[1:]
        if not branch:
            break
        if branch.startswith(("(?=", "(?!", "(?<=", "(?<!")):  # an assertion takes no text:
            end = _closing(branch)  # what follows it is still needed ("(?<!to )\\bfrom\\b")
            if end < 0 or branch[end + 1 : end + 2] in ("?", "*", "+", "{"):
                break
            branch = branch[end + 1 :]
            continue
        if branch.startswith("(?:"):
            branch = "(" + branch[3:]
        elif branch.startswith("(?"):
            break  # a flag or a named group: nothing read from here
        if branch.startswith("("):
            end = _closing(branch)
            if end < 0:
                break
            after = branch[end + 1 : end + 2]
            if after in ("?", "*"):
                branch = branch[end + 2 :].removeprefix("?")  # an optional group: what follows
                continue
            if after == "{":
                break
            found = _one_of(_split_top(branch[1:end]))
            branch = branch[end + 1 :].removeprefix("+").removeprefix("?")
        else:
            run, used = _literal_run(branch)
            if not run and used == 0:
                break  # a class, a dot, an escape such as \\d: its length is not followed
            found = (run,) if run else None
            branch = branch[used:]
            if branch[:1] in _OPTIONAL:
                if branch[:1] == "{":
                    break
                branch = branch[1:].removeprefix("?")  # the optional last character
            elif branch[:1] == "+":
                branch = branch[1:].removeprefix("?")
        if found and (best is None or min(map(len, found)) > min(map(len, best))):
            best = found
    return best


def _one_of(branches: list[str] | None) -> tuple[str, ...] | None:
    """Literals one of which a match of any of ``branches`` holds (``None``: one needs none)."""
    if branches is None:
        return None
    literals: list[str] = []
    for branch in branches:
        found = _branch_needs(branch)
        if not found:
            return None
        literals.extend(found)
    return tuple(dict.fromkeys(literals))


def _closing(branch: str) -> int:
    """The index of the parenthesis that closes the one ``branch`` opens with (-1: none)."""
    marks = _structure(branch) or []
    return next((i for i, char, depth in marks if char == ")" and depth == 0), -1)


@functools.lru_cache(maxsize=4096)
def needs(pattern: str) -> tuple[str, ...] | None:
    """Literals one of which any match of ``pattern`` holds; ``None`` when it needs none.

    >>> needs(r"\\bignore\\b.{0,40}\\b(rules|prompt)\\b")
    ('ignore',)
    >>> needs(r"\\b(system|developer) (prompt|message)\\b|\\bjailbreak\\b")
    ('system', 'developer', 'jailbreak')
    >>> needs(r"(?<!that )\\bwhat you want")
    ('what you want',)
    >>> needs(r"[a-z]+ing\\b|\\bjailbreak\\b") is None
    True
    """
    if "(?#" in pattern or re.search(r"\\[1-9]|\(\?P=", pattern):
        return None  # a comment (a quantifier after it binds before it), a backreference
    return _one_of(_split_top(pattern))


@functools.lru_cache(maxsize=1024)
def alternation(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled alternation of ``patterns``."""
    return re.compile("|".join(f"(?:{p})" for p in patterns))


def any_match(patterns: Sequence[str], text: str) -> bool:
    """Whether any of ``patterns`` is found in ``text`` (the answer of one search of their alternation).

    >>> any_match([r"\\bignore\\b.{0,9}\\brules\\b", r"\\bjailbreak\\b"], "please ignore the rules")
    True
    >>> any_match([r"\\bignore\\b.{0,9}\\brules\\b"], "the rules are fine")
    False
    """
    plan = _plan(tuple(patterns))
    if plan.anchored:  # each tried at the start alone: the whole alternation is cheapest
        return alternation(plan.patterns).search(text) is not None
    found = _candidates(plan, text)
    if not found:
        return False
    if 2 * len(found) > len(plan.patterns):  # most of them: one search of the alternation
        return alternation(plan.patterns).search(text) is not None
    return any(plan.compiled[i].search(text) is not None for i in sorted(found))


_MOST_HITS = 16
"""Literal starts read one by one before the literals are looked for one by one instead."""


def _candidates(plan: _Plan, text: str) -> set[int]:
    """The patterns whose needed literals ``text`` holds (and those that need none).

    One search of :attr:`_Plan.finder` finds the first place a literal starts and the longest
    one there; every literal that starts there too is a prefix of it, so its owners are read
    from :attr:`_Plan.reached`. The search goes on from the next character, so overlapping
    literals are found too. A text where literals start in many places is read literal by
    literal instead (its cost then bounded by the number of literals).
    """
    found = set(plan.always)
    if plan.finder is None:  # no literal, or too many nested ones for one pattern
        found.update(i for literal, owners in plan.literals if literal in text for i in owners)
        return found
    search = plan.finder.search
    hit = search(text)
    for _ in range(_MOST_HITS):
        if hit is None:
            return found
        found.update(plan.reached[hit.group()])
        hit = search(text, hit.start() + 1)
    found.update(i for literal, owners in plan.literals if literal in text for i in owners)
    return found


def literal_finder(literals: Sequence[str]) -> re.Pattern[str]:
    """A pattern that matches, at a place, the longest of ``literals`` that starts there.

    The literals as a trie (``ab(?:c|d)?`` for ``ab``, ``abc`` and ``abd``): a place is tried
    down one path of the trie, not against each literal, and the engine jumps to the places
    that hold a literal's first character. The greedy ``?`` keeps the longest literal.

    >>> [m.group() for m in literal_finder(["ab", "abc", "b", "xy"]).finditer("abcb xab")]
    ['abc', 'b', 'ab']
    """
    trie: dict[str, Any] = {}
    for literal in literals:
        node = trie
        for char in literal:
            node = node.setdefault(char, {})
        node[""] = {}
    return re.compile(_trie_pattern(trie))


def _trie_pattern(node: dict[str, Any]) -> str:
    ends_here = "" in node
    branches = [re.escape(char) + _trie_pattern(node[char]) for char in sorted(node) if char]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 and not ends_here else f"(?:{'|'.join(branches)})"
    return body + "?" if ends_here else body


@dataclass(frozen=True)
class _Plan:
    patterns: tuple[str, ...]
    literals: tuple[tuple[str, tuple[int, ...]], ...]
    """Each literal some pattern needs, with the indices of the patterns that need it."""
    always: tuple[int, ...]
    """The patterns that need no literal."""
    anchored: bool
    """Whether every pattern is tried at the start of the text only (``^`` first)."""
    compiled: tuple[re.Pattern[str], ...]
    """Each pattern compiled alone (a subset is searched one by one, never compiled anew)."""
    finder: re.Pattern[str] | None
    """:func:`literal_finder` of the literals (``None``: no pattern needs one)."""
    reached: dict[str, tuple[int, ...]]
    """For each literal, the patterns that need it or one of its prefixes (found with it)."""


@functools.lru_cache(maxsize=256)
def _plan(patterns: tuple[str, ...]) -> _Plan:
    owners: dict[str, list[int]] = {}
    always = []
    for i, pattern in enumerate(patterns):
        literals = needs(pattern)
        if literals is None:
            always.append(i)
        for literal in literals or ():
            owners.setdefault(literal, []).append(i)
    always += owners.pop("", [])  # (no pattern needs the empty text, but it would be held)
    pairs = tuple((lit, tuple(own)) for lit, own in owners.items())
    anchored = all(p.startswith("^") and _split_top(p) == [p] for p in patterns)
    compiled = tuple(guarded_compile(p) for p in patterns)
    reached = {
        literal: tuple(
            sorted({i for prefix, own in pairs if literal.startswith(prefix) for i in own})
        )
        for literal in owners
    }
    try:
        finder = literal_finder(list(owners)) if owners else None
    except (re.error, RecursionError, OverflowError):  # a trie nested past the engine's limits
        finder = None
    return _Plan(patterns, pairs, tuple(sorted(always)), anchored, compiled, finder, reached)
