"""Canonical JSON of a call: the key of the fixture cache and the seed of synthesized responses.

Two calls that a real API would treat alike get one key: keys sorted, numbers in one form
(``1.0`` is ``1``; a numeric string given for a number parameter is that number), booleans from
``"true"``/``"false"`` for boolean parameters, strings stripped, and the documented defaults of
optional parameters filled in when the call leaves them out. StableToolBench keys its cache by
``str(dict)`` of the raw input instead, where key order, ``1`` against ``"1"`` and missing
defaults all make different keys.

>>> canonical_key("weather", "current", {"units": "metric", "q": " Paris "})
'["weather","current",{"q":"Paris","units":"metric"}]'
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from toolgym.simulators.tool_library.model import ApiDoc

_NUMBER_KINDS = frozenset({"number", "integer"})


def normalize_value(value: Any) -> Any:
    """A JSON value in canonical form (see the module docstring), recursively."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) < 2**53:
            return int(value)
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, Mapping):
        return {
            str(k): normalize_value(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))
        }
    if isinstance(value, list | tuple):
        return [normalize_value(v) for v in value]
    return str(value)


def as_number(text: str) -> int | float | None:
    """The finite number a text writes, in canonical form, or ``None``."""
    try:
        number = float(text)
    except ValueError:
        return None
    if not math.isfinite(number):
        return None
    return normalize_value(number)


def coerce_for_kind(value: Any, kind: str) -> Any:
    """``value`` as a parameter of ``kind`` reads it (numeric and boolean strings converted)."""
    if isinstance(value, str):
        text = value.strip()
        if kind in _NUMBER_KINDS:
            number = as_number(text)
            return text if number is None else number
        if kind == "boolean" and text.lower() in ("true", "false"):
            return text.lower() == "true"
    return normalize_value(value)


def canonical_arguments(arguments: Mapping[str, Any], api: ApiDoc | None = None) -> dict[str, Any]:
    """The arguments in canonical form; with the API's doc, defaults filled and kinds applied."""
    out = {str(k): normalize_value(v) for k, v in arguments.items()}
    if api is None:
        return dict(sorted(out.items()))
    for param in api.params:
        if param.name in out:
            out[param.name] = coerce_for_kind(out[param.name], param.kind)
        elif param.default not in (None, "") and param in api.optional:
            out[param.name] = coerce_for_kind(param.default, param.kind)
    return dict(sorted(out.items()))


def canonical_key(
    tool: str, api_name: str, arguments: Mapping[str, Any], api: ApiDoc | None = None
) -> str:
    """``[tool, api, arguments]`` as compact, sorted JSON (see the module docstring)."""
    return json.dumps(
        [tool, api_name, canonical_arguments(arguments, api)],
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
