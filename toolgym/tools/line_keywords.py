r"""A keyword that opens a line (``Action:``, ``Action Input:``), found from the keyword itself.

ReAct and ToolBench text mark a call by ``Action:`` at the start of a line, blank lines and
spaces before it allowed: ``(?:^|\n)\s*Action\s*:``. A regular expression search of that form
tries each new line of the text as a start and reads the whitespace after it to its end, so a
run of ``n`` blank lines costs ``n²/2`` steps (16,384 new lines: seconds for one search, and a
RapidAPI step searches once for each of up to 64 calls). :class:`LineKeyword` finds the same
matches from the keyword: it finds the keywords alone (a literal, which the engine finds at
once), looks back over the whitespace before each for a new line (or the text's start), and
reads the match the pattern itself gives from that new line, the first of the run, where the
pattern's leftmost match starts. Its answers are the pattern's: the same spans and groups
(``tests/test_line_keywords.py`` compares them on random texts).

>>> action = LineKeyword(r"Action\s*:\s*(.*)")
>>> found = action.search("Thought: x\n\n  Action: f\nAction Input: {}")
>>> found.span(), found.group(1)
((10, 23), 'f')
>>> action.search("I think Action: is next") is None
True
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import NamedTuple

SHORT_CHARS = 256
"""A text this short is searched with the pattern itself: reading its keywords first costs more
(3.6 µs a ReAct action, a third of its reading) than the runs of blank lines it could hold."""


class _Index(NamedTuple):
    """Where a text's keywords are, each with the whitespace before it (read once a text)."""

    text: str
    starts: list[int]
    """Where each keyword starts."""
    runs: list[int]
    """Where the whitespace before each starts (its start itself where there is none)."""
    opening: list[int]
    """The keywords (their indices) that open a line: a new line in the whitespace before them,
    or (where the text's start opens a line) nothing but whitespace back to the start."""
    newlines: list[int]
    """For each of those, where the first new line of its whitespace is (``-1``: none)."""


class LineKeyword:
    r"""``(?:^|\n)\s*<keyword><rest>``, searched from the keyword (see the module docstring).

    The keywords of a text are found once (the text last searched is kept), and each search is
    then a binary search: a step searches again from each call it reads.

    Args:
        keyword: the keyword's pattern. It opens with a character no whitespace matches and no
            match of it holds another (``Action\s*:``), so the whitespace before one is the
            pattern's ``\s*`` and one pass finds them all.
        rest: what follows it, a pattern that matches wherever the keyword does (``\s*(.*)``);
            the groups of both are the pattern's.
        flags: ``re`` flags for both.
        at_start: whether the text's start opens a line too (``(?:^|\n)``); else only a new
            line does (``\n\s*Action Input:``, after an ``Action:`` line).
    """

    def __init__(self, keyword: str, rest: str = "", flags: int = 0, at_start: bool = True) -> None:
        self.keyword = re.compile(keyword, flags)
        opening = r"(?:^|\n)" if at_start else r"\n"
        self.pattern = re.compile(rf"{opening}\s*(?:{keyword})(?:{rest})", flags)
        self.at_start = at_start
        self._index: _Index | None = None

    def _indexed(self, text: str) -> _Index:
        index = self._index  # (read once: another thread may replace it)
        if index is not None and index.text is text:
            return index
        starts: list[int] = []
        runs: list[int] = []
        opening: list[int] = []
        newlines: list[int] = []
        for hit in self.keyword.finditer(text):
            start = run = hit.start()
            while run > 0 and text[run - 1].isspace():  # (str.isspace is what \s matches)
                run -= 1
            newline = text.find("\n", run, start)
            if (run == 0 and self.at_start) or newline >= 0:
                opening.append(len(starts))
                newlines.append(newline)
            starts.append(start)
            runs.append(run)
        index = _Index(text, starts, runs, opening, newlines)
        self._index = index
        return index

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        """``self.pattern.search(text, pos)``, in logarithmic time once the text is read."""
        if len(text) <= SHORT_CHARS:  # the pattern itself, at most SHORT_CHARS² / 2 steps
            return self.pattern.search(text, pos)
        index = self._indexed(text)
        first = bisect.bisect_left(index.starts, pos)
        if first == len(index.starts):
            return None
        if index.runs[first] < pos:  # its whitespace reaches back past pos: only a new line
            newline = text.find("\n", pos, index.starts[first])  # from pos on opens the line
            if newline >= 0:
                return self.pattern.match(text, newline)
            first += 1  # (the whitespace before a later keyword starts after this one)
        at = bisect.bisect_left(index.opening, first)
        if at == len(index.opening):
            return None
        newline = index.newlines[at]
        if self.at_start and index.runs[index.opening[at]] == 0 and pos == 0:  # "^"
            return self.pattern.match(text, 0)
        return self.pattern.match(text, newline)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """``self.pattern.finditer(text)`` (the keyword takes text: no match is empty)."""
        pos = 0
        while (found := self.search(text, pos)) is not None:
            yield found
            pos = found.end()
