r"""A keyword that opens a line (``Action:``, ``Action Input:``), found from the keyword itself.

ToolBench's text marks a call by ``Action:`` at the start of a line, blank lines and spaces
before it allowed: ``(?:^|\n)\s*Action\s*:``. A regular expression search of that form tries each
new line of the text as a start and reads the whitespace after it to its end, so a run of
``n`` blank lines costs ``n²/2`` steps (16,384 new lines: seconds for one search, and a step
searches once for each of up to 64 calls). :class:`LineKeyword` finds the same matches from the
keyword: it searches for the keyword alone (a literal, which the engine finds at once), looks back
over the whitespace before it for a new line (or the text's start), and reads the match the
pattern itself gives from that new line, the first of the run, where the pattern's leftmost match
starts. Its answers are the pattern's: the same spans and groups (``tests/test_rapid_api_line_keywords.py``
compares them on random texts).

>>> action = LineKeyword(r"Action\s*:\s*(.*)")
>>> found = action.search("Thought: x\n\n  Action: f\nAction Input: {}")
>>> found.span(), found.group(1)
((10, 23), 'f')
>>> action.search("I think Action: is next") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator


class LineKeyword:
    r"""``(?:^|\n)\s*<keyword>``, searched from the keyword (see the module docstring).

    Args:
        keyword: the keyword's pattern (its groups are the pattern's groups); it must open with a
            character no whitespace matches (``Action``), so that the whitespace before it is the
            pattern's ``\s*``.
        flags: ``re`` flags for both.
    """

    def __init__(self, keyword: str, flags: int = 0) -> None:
        self.keyword = re.compile(keyword, flags)
        self.pattern = re.compile(rf"(?:^|\n)\s*(?:{keyword})", flags)

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        """``self.pattern.search(text, pos)``, in time linear in the text."""
        at = pos
        while (hit := self.keyword.search(text, at)) is not None:
            start = run = hit.start()
            while run > pos and text[run - 1].isspace():  # (str.isspace is what \s matches)
                run -= 1
            if run == 0:  # nothing but whitespace before it: "^" (a search from the start)
                return self.pattern.match(text, 0)
            newline = text.find("\n", run, start)
            if newline >= 0:  # the first new line of the run, where the leftmost match starts
                return self.pattern.match(text, newline)
            at = start + 1  # a keyword inside a line ("I think Action: is next")
        return None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """``self.pattern.finditer(text)`` (the keyword takes text: no match is empty)."""
        pos = 0
        while (found := self.search(text, pos)) is not None:
            yield found
            pos = found.end()


ACTION = LineKeyword(r"Action\s*:\s*(.*)")
"""``Action: <function>`` (group 1: the rest of the line, the function's name)."""
ACTION_INPUT = LineKeyword(r"Action\s+Input\s*:\s*", re.IGNORECASE)
"""``Action Input:`` (its JSON arguments follow)."""
