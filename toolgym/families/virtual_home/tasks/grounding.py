"""The benchmark's own VirtualHome metrics: lexical executability and line LCS, unchanged.

Grounding reads a program line by line (split on ``\n``, each stripped): it stops at the first
line starting with ``Task:``, skips empty lines, removes ``"``, ``'`` and ``;`` and a leading ``3.``
numbering, and then checks each line against the allowed-object lists:

* the API is the text before the first ``(`` (not stripped); an unknown API is not executable;
* the arguments are the content of the first ``(...)``, split on ``,``: two arguments must be
  the action's ``object1`` and ``object2`` and each in its list; one must be in the ``object``
  list; empty parentheses suit only an action without objects; no parentheses, or three
  arguments or more, are not executable.

Every cleaned line is kept, executable or not (a line that cleans to nothing is not executable),
and the LCS counts the non-empty ones with exact string equality (``Agent.Put(a,b)`` is not ``Agent.Put(a, b)``):
``LCS(pred, label) / max(len(pred), len(label))``, best over the gold programs.

>>> lists = {"Agent.Find": {"object": ["cup"]}, "Agent.StandUp": {}}
>>> g = ground("1. Agent.Find('cup')\\nAgent.Find(bowl)\\nAgent.StandUp()", lists)
>>> g.lines, g.non_executable
(['Agent.Find(cup)', 'Agent.Find(bowl)', 'Agent.StandUp()'], ['Agent.Find(bowl)'])
>>> lcs_score(["a", "b", "c"], ["a", "c"])
0.6666666666666666
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from toolgym.families.virtual_home.language import program_lines


@dataclass
class Grounding:
    """A grounded program.

    Attributes:
        lines: its non-empty cleaned lines (what the LCS compares).
        non_executable: the lines that fail the check (a line that cleans to nothing is one).
    """

    lines: list[str] = field(default_factory=list)
    non_executable: list[str] = field(default_factory=list)

    @property
    def executable(self) -> bool:
        """Whether no line fails the check (an empty program does not crash, as in the original)."""
        return not self.non_executable


def line_executable(line: str, lists: Mapping[str, Mapping[str, Sequence[str]]]) -> bool:
    """Whether one cleaned line is a known action with allowed objects.

    ``lists`` is read once, as it is at the first call with it (its lists become sets): do not
    change it afterwards.
    """
    api = line.split("(", 1)[0]
    entry = _as_sets(lists).get(api)
    start = line.find("(")
    end = line.find(")", start + 1)
    if entry is None or start < 0 or end < 0:
        return False
    inside = line[start + 1 : end]
    if not inside.strip():
        return not entry
    args = [a.strip() for a in inside.split(",")]
    if len(args) == 2:
        return (
            entry.keys() == {"object1", "object2"}
            and args[0] in entry["object1"]
            and args[1] in entry["object2"]
        )
    if len(args) == 1:
        return "object" in entry and args[0] in entry["object"]
    return False


_sets: tuple[object, dict[str, dict[str, frozenset[str]]]] | None = None
"""The last allowed-object lists read, and their sets (one membership test each, not a scan)."""


def _as_sets(
    lists: Mapping[str, Mapping[str, Sequence[str]]],
) -> Mapping[str, Mapping[str, frozenset[str]]]:
    global _sets
    known = _sets
    if known is None or known[0] is not lists:
        sets = {api: {k: frozenset(v) for k, v in entry.items()} for api, entry in lists.items()}
        known = _sets = (lists, sets)
    return known[1]


def ground(text: str, lists: Mapping[str, Mapping[str, Sequence[str]]]) -> Grounding:
    """Ground a program's text (see the module docstring)."""
    grounding = Grounding()
    for line in program_lines(text):
        if line:
            grounding.lines.append(line)
        if not line_executable(line, lists):
            grounding.non_executable.append(line)
    return grounding


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """The length of the longest common subsequence of two lists of lines."""
    if not a or not b:
        return 0
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def lcs_score(prediction: Sequence[str], label: Sequence[str]) -> float:
    """``LCS / max(len(prediction), len(label))``; 0 when both are empty."""
    longest = max(len(prediction), len(label))
    return lcs_length(prediction, label) / longest if longest else 0.0


def best_lcs(prediction: Sequence[str], labels: Sequence[Sequence[str]]) -> tuple[float, int]:
    """The best LCS score over the labels, and the index of the closest label."""
    scores = [lcs_score(prediction, label) for label in labels]
    best = max(range(len(scores)), key=lambda k: (scores[k], -k))
    return scores[best], best
