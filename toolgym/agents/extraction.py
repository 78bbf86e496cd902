"""Turning a generation into an action, per action language (recorded next to the raw text)."""

from __future__ import annotations

import re

from toolgym.tools.language import EXTRACTIONS, AgentHints, language_class
from toolgym.tools.line_keywords import LineKeyword

_FENCE_LINE = re.compile(r"^\s*```")
_ACTION_INPUT = LineKeyword(r"Action Input:", r"\s*", at_start=False)
"""``Action Input:`` on a line of its own after the action's (found from the keyword: a run of
blank lines costs its length, not its square)."""
_THOUGHT = re.compile(r"^\s*Thought:\s*")
_ACTION_LINE = re.compile(r"^[ \t]*Action:", re.M)


def extract_action(
    text: str, action_language: str, extraction: str = "strict", hints: AgentHints | None = None
) -> str:
    """The action in a single-step generation, by the rule of its action language.

    * ``curl``: the first line that starts with ``curl`` (the original rule), else the whole text.
    * ``api_program``, ``strict``: the whole stripped generation (the original rule: prose or a
      Markdown fence make it non-executable). ``lenient``: the first fenced block, leading prose
      dropped, cut after a terminal call (``hints.terminal_calls``).

    Args:
        text: the generation.
        action_language: ``info["action_language"]``.
        extraction: ``"strict"`` or ``"lenient"``.
        hints: the env's hints (default: none beyond the language).

    >>> extract_action("Here:\\ncurl -X GET 'https://a/b'\\nok", "curl")
    "curl -X GET 'https://a/b'"
    >>> extract_action(" API.search() \\n", "api_program")
    'API.search()'
    """
    if extraction not in EXTRACTIONS:
        raise ValueError(f"extraction must be one of {EXTRACTIONS}; got {extraction!r}")
    language = language_class(action_language)
    return language.extract(text, hints or language.default_hints(), extraction)


def extract_react(text: str) -> tuple[str, str]:
    """(thought, action) of a ReAct turn; the action is what follows the first ``Action:``.

    >>> extract_react(" look it up\\nAction: API.set_location('A')\\nObservation: x")
    ('look it up', "API.set_location('A')")
    >>> extract_react("Action:\\n```\\nfinish\\n```")
    ('', 'finish')
    >>> extract_react("I think Action: is next.\\nAction: API.search()")
    ('I think Action: is next.', 'API.search()')

    ToolBench's two-line form keeps its arguments (as many lines as the JSON takes):

    >>> extract_react('go\\nAction: f\\nAction Input: {"q": 1}\\nObservation: x')
    ('go', 'f\\nAction Input: {"q": 1}')
    """
    text = _THOUGHT.sub("", text, count=1)  # the prompt ends with "Thought:" already
    at_line = _ACTION_LINE.search(text)  # a thought may mention "Action:" itself
    if at_line is not None:
        thought, marker, rest = text[: at_line.start()], "Action:", text[at_line.end() :]
    else:
        thought, marker, rest = text.partition("Action:")
    if not marker:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return "", lines[0] if lines else ""
    found = _ACTION_INPUT.search(rest)
    if found is not None:  # ToolBench's "Action: <name>" then "Action Input: <JSON>"
        name = rest[: found.start()].strip().strip("`").strip()
        arguments = rest[found.end() :].split("\nObservation", 1)[0].strip()
        return thought.strip(), f"{name}\nAction Input: {arguments}"
    lines = [line for line in rest.splitlines() if not _FENCE_LINE.match(line)]
    lines = [line.strip().strip("`").strip() for line in lines]
    action = next((line for line in lines if line and not line.startswith("Observation")), "")
    return thought.strip(), action
