"""Reading a calling list out of a model's answer, as Seal-Tools reads it.

The steps: replace every ``'`` with ``"``, drop every line break, find the first ``[ { "api"``
(whitespace allowed between the three tokens), take the span from that ``[`` to the bracket that
balances it (every ``[`` and ``]`` counts, even inside strings), require the substrings ``api``,
``parameters`` and ``responses`` in it, and parse it as JSON. Any failure means the answer is
unparsable (``None``); text longer than :data:`MAX_TEXT_CHARS` and JSON nested deeper than
:data:`MAX_DEPTH` are unparsable too, and nothing raises. Action languages read answers with it,
and :mod:`toolgym.benchmarks.call_metrics` scores what it reads.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_TEXT_CHARS = 200_000
"""Longer text is unparsable (bounds the work on any input)."""
MAX_DEPTH = 100
"""JSON nested deeper than this (counting ``[`` and ``{`` outside strings) is unparsable."""

_START = re.compile(r'\[\s*\{\s*"api"')
_SQUARE = re.compile(r"[\[\]]")
_TOKENS = re.compile(r'\\.|["\[\]{}]', re.DOTALL)


def parse_calling_list(text: str) -> list[Any] | None:
    """The calling list in a model's output, or ``None`` if unparsable (see the module docstring).

    Never raises. The items are returned as parsed (usually objects, not checked).

    >>> parse_calling_list("Sure: [{'api': 'f', 'parameters': {'x': 1}, 'responses': []}] done")
    [{'api': 'f', 'parameters': {'x': 1}, 'responses': []}]
    >>> parse_calling_list('[{"api": "f", "parameters": {}}]') is None  # no "responses"
    True
    """
    try:
        if not isinstance(text, str) or len(text) > MAX_TEXT_CHARS:
            return None
        text = text.replace("'", '"').replace("\n", "")
        start = _START.search(text)
        if start is None:
            return None
        end = _balancing_bracket(text, start.start())
        if end is None:
            return None
        span = text[start.start() : end + 1]
        if "api" not in span or "parameters" not in span or "responses" not in span:
            return None
        if span.count("[") + span.count("{") > MAX_DEPTH and _depth(span) > MAX_DEPTH:
            return None  # (no more brackets than the cap in all: no deeper either)
        parsed = json.loads(span)
    except Exception:  # any failure (bad JSON, huge integers, recursion) means unparsable
        return None
    return parsed if isinstance(parsed, list) else None


def _balancing_bracket(text: str, start: int) -> int | None:
    """Index of the ``]`` balancing the ``[`` at ``start`` (brackets in strings count too)."""
    depth = 0
    for match in _SQUARE.finditer(text, start):
        depth += 1 if match.group() == "[" else -1
        if depth == 0:
            return match.start()
    return None


def _depth(span: str) -> int:
    """Deepest nesting of ``[``/``{`` outside JSON strings (one linear pass, stops past the cap)."""
    depth = deepest = 0
    in_string = False
    for match in _TOKENS.finditer(span):
        token = match.group()
        if token == '"':
            in_string = not in_string
        elif in_string or token[0] == "\\":
            continue  # an escape, or a bracket inside a string
        elif token in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
        else:
            depth -= 1
    return deepest
