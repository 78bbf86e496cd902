"""What one step may hand back: the observation, the error and the info, each within one cap.

Agent text decides much of what a step returns: an exception's message (``raise
ValueError('x' * 7_000_000)``), the state a program leaves (a sheet of 78,000 cells), the answer
of a service. Everything leaves ``step`` through :func:`bound_text` and :func:`bound_info`, so
no observation, error message or info value is longer than :data:`MAX_OBSERVATION_CHARS` (and a
results file, which records them, holds no more).

>>> bound_text("abc", 10)
'abc'
>>> bound_text("x" * 40, 30)
'xxxxxxxxxxxxxxx\\n...[truncated]'
>>> bound_info({"error": {"category": "runtime_error", "message": "y" * 40}, "step": 1}, 30)
{'error': {'category': 'runtime_error', 'message': 'yyyyyyyyyyyyyyy\\n...[truncated]'}, 'step': 1}
>>> bound_info({"prediction": [["z"] * 20]}, 30)["prediction"]
'[["z", "z", "z"\\n...[truncated]'
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from typing import Any

from toolgym.simulators.json_text import fits
from toolgym.tools.budgets import measure, short_repr

MAX_OBSERVATION_CHARS = 65_536
"""The longest observation, error message or rendered info value one step returns."""

TRUNCATED = "\n...[truncated]"


def bound_text(text: str, cap: int = MAX_OBSERVATION_CHARS) -> str:
    """``text``, or its start and a ``...[truncated]`` mark in ``cap`` characters."""
    if len(text) <= cap:
        return text
    return text[: max(cap - len(TRUNCATED), 0)] + TRUNCATED


_CONTAINERS = (dict, list, tuple, set, frozenset)
_ENCODER = json.JSONEncoder(default=str, ensure_ascii=False)
"""One-shot ``encode`` runs in C (the ``iterencode`` that :func:`_json` stops early is Python)."""


def _few_items(value: Any, budget: int) -> bool:
    """Whether ``value`` and the containers directly in it hold at most ``budget`` items.

    A cheap guard (two levels, stopping at ``budget``) before one C-level encoding of the whole
    value: a value past it takes the walk that stops at the cap instead.
    """
    if not isinstance(value, _CONTAINERS):
        return True
    count = len(value)
    if count > budget:
        return False
    for child in value.values() if isinstance(value, dict) else value:
        if isinstance(child, _CONTAINERS):
            count += len(child)
            if count > budget:
                return False
    return True


def bound_value(value: Any, cap: int = MAX_OBSERVATION_CHARS) -> Any:
    """``value`` when its JSON text fits in ``cap`` characters, else that text, truncated.

    Texts are cut as texts. A container with few items is encoded once, in C (by orjson where
    its length bounds json's, :func:`~toolgym.simulators.json_text.fits`); one with many is
    measured first (walking at most ``cap`` items), so a value of any size costs at most what its
    first ``cap`` characters cost to render. A value JSON cannot render (keys that are not text,
    a cycle) becomes its elided ``repr``.
    """
    if isinstance(value, str):
        return bound_text(value, cap)
    if value is None or isinstance(value, bool | int | float):
        return value
    if _few_items(value, cap):
        if fits(value, cap):  # orjson's length bounds json's: no json encoding needed
            return value
        try:
            text = _ENCODER.encode(value)
        except (TypeError, ValueError, RecursionError):
            return short_repr(value, cap)
        return value if len(text) <= cap else bound_text(text, cap)
    return _bound_walked(value, cap)


def _bound_walked(value: Any, cap: int) -> Any:
    """:func:`bound_value` for a container of many items: measured, then rendered up to ``cap``."""
    try:
        items, _ = measure(value, max_items=cap)
        if items > cap:  # every item renders to at least one character
            return bound_text(_json(value, cap), cap)
        text = _json(value, cap + 1)
    except (TypeError, ValueError, RecursionError):  # not JSON (keys that are not text, a cycle)
        return short_repr(value, cap)  # its repr, elided: a value that cannot be measured
    return value if len(text) <= cap else bound_text(text, cap)


def _json(value: Any, cap: int) -> str:
    """The JSON text of ``value``, stopped once it passes ``cap`` characters."""
    out: list[str] = []
    size = 0
    for chunk in json.JSONEncoder(default=str, ensure_ascii=False).iterencode(value):
        out.append(chunk)
        size += len(chunk)
        if size > cap:
            break
    return "".join(out)


def _as_json_reads(info: Any) -> Any:
    """``info`` as :mod:`json` reads it, for :func:`~toolgym.simulators.json_text.fits`.

    A ``dict`` subclass whose ``items`` is ``dict``'s (an :class:`~toolgym.envs.spaces.InfoDict`)
    as a plain ``dict``; anything else as it is.
    """
    if type(info) is not dict and isinstance(info, dict) and type(info).items is dict.items:
        return dict(dict.items(info))
    return info


def bound_info(
    info: MutableMapping[str, Any], cap: int = MAX_OBSERVATION_CHARS
) -> MutableMapping[str, Any]:
    """``info`` with each value within ``cap`` (in place): the error's message cut as text.

    An error keeps its ``{"category", "message"}`` shape (and any other field, bounded alike);
    any other value too long is replaced by its JSON text, truncated. An info whose whole JSON
    text fits in ``cap`` is returned as it is after one C-level encoding (orjson's, where its
    length bounds :mod:`json`'s: :func:`~toolgym.simulators.json_text.fits`): every value in it
    fits too.
    """
    if _few_items(info, cap):
        if fits(_as_json_reads(info), cap):
            return info
        try:
            if len(_ENCODER.encode(info)) <= cap:
                return info
        except (TypeError, ValueError, RecursionError):
            pass  # a value JSON cannot render: bounded one by one below
    for key, value in info.items():
        if key == "error" and isinstance(value, dict):
            info[key] = {k: bound_value(v, cap) for k, v in value.items()}
        else:
            info[key] = bound_value(value, cap)
    return info
