"""Turning a generation into an action, per action language (recorded next to the raw text)."""

from __future__ import annotations

import re

from toolgym.tools.curl import first_curl_line
from toolgym.tools.program import extract_program

EXTRACTIONS = ("strict", "lenient")
_FENCE_LINE = re.compile(r"^\s*```")


def extract_action(text: str, action_language: str, extraction: str = "strict") -> str:
    """The action in a single-step generation.

    * ``curl``: the first line that starts with ``curl`` (the original rule), else the whole text.
    * ``api_program``, ``strict``: the whole stripped generation (the original rule: prose or a
      Markdown fence make it non-executable). ``lenient``: the first fenced block, leading prose
      dropped, cut after the terminal call.

    >>> extract_action("Here:\\ncurl -X GET 'https://a/b'\\nok", "curl")
    "curl -X GET 'https://a/b'"
    >>> extract_action(" API.search() \\n", "api_program")
    'API.search()'
    """
    if extraction not in EXTRACTIONS:
        raise ValueError(f"extraction must be one of {EXTRACTIONS}; got {extraction!r}")
    if action_language == "curl":
        return first_curl_line(text)
    if extraction == "lenient":
        return extract_program(text)
    return text.strip()


def extract_react(text: str) -> tuple[str, str]:
    """(thought, action) of a ReAct turn; the action is what follows the first ``Action:``.

    >>> extract_react(" look it up\\nAction: API.set_location('A')\\nObservation: x")
    ('look it up', "API.set_location('A')")
    >>> extract_react("Action:\\n```\\nfinish\\n```")
    ('', 'finish')
    """
    thought, marker, rest = text.partition("Action:")
    if not marker:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return "", lines[0] if lines else ""
    lines = [line for line in rest.splitlines() if not _FENCE_LINE.match(line)]
    lines = [line.strip().strip("`").strip() for line in lines]
    action = next((line for line in lines if line and not line.startswith("Observation")), "")
    return thought.strip(), action
