"""Argument checks as a real API's Python stub makes them, with Python's own error messages.

ToolBench calls a generated stub ``def api(required, ..., optional=None, ...)`` with the call's
arguments as keywords, so a wrong name fails as Python fails: ``"f() got an unexpected keyword
argument 'x'"``; a missing required argument as ``"f() missing 1 required positional argument:
'q'"``. :func:`validate_call` reproduces both messages exactly and adds the type checks the real
API would make (``"Invalid value for parameter 'limit': expected NUMBER, got 'ten'"``), and it never
raises, whatever the arguments hold.

>>> from toolgym.simulators.tool_library.model import ApiDoc, ParamDoc
>>> api = ApiDoc("search", required=(ParamDoc("q"),), optional=(ParamDoc("limit", "NUMBER"),))
>>> validate_call(api, {"q": "tea", "limit": "5"}, function_name="search").arguments
{'limit': 5, 'q': 'tea'}
>>> validate_call(api, {"limit": 5}, function_name="search").problem.message
"search() missing 1 required positional argument: 'q'"
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolgym.simulators.tool_library.canonical import as_number, canonical_arguments
from toolgym.simulators.tool_library.model import ApiDoc, ParamDoc

__all__ = [
    "MAX_DEPTH",
    "MAX_ELEMENTS",
    "MAX_STRING_CHARS",
    "PROBLEM_KINDS",
    "CallCheck",
    "CallProblem",
    "missing_message",
    "validate_call",
]

PROBLEM_KINDS = ("unknown_argument", "missing_argument", "wrong_type")
"""What can be wrong with a call's arguments."""

MAX_STRING_CHARS = 10_000
"""The longest string an argument may hold (anywhere inside it)."""

MAX_DEPTH = 20
"""How deep an argument's lists and objects may nest."""

MAX_ELEMENTS = 10_000
"""How many values (list items, object entries) one argument may hold in all."""

_LABELS = {
    "string": "STRING",
    "number": "NUMBER",
    "integer": "INTEGER",
    "boolean": "BOOLEAN",
    "date": "DATE (YYYY-MM-DD)",
    "time": "TIME (HH:MM)",
    "array": "ARRAY",
    "object": "OBJECT",
    "enum": "ENUM",
}
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?$")
_SHOWN_CHARS = 80


@dataclass(frozen=True, slots=True)
class CallProblem:
    """What is wrong with a call.

    Attributes:
        kind: one of :data:`PROBLEM_KINDS`.
        message: the error text the caller sees.
        argument: the argument concerned, by the caller's name (the first one, for several).
    """

    kind: str
    message: str
    argument: str = ""


@dataclass(frozen=True, slots=True)
class CallCheck:
    """The outcome of :func:`validate_call`.

    Attributes:
        arguments: the arguments by the API's parameter names, converted to their kinds and in
            canonical form (defaults filled); what could be read even when there is a problem.
        problem: what is wrong, or ``None``.
    """

    arguments: dict[str, Any]
    problem: CallProblem | None = None

    @property
    def ok(self) -> bool:
        """Whether the call is valid."""
        return self.problem is None


def missing_message(function_name: str, names: list[str]) -> str:
    """Python's message for missing required positional arguments.

    >>> missing_message("f", ["a", "b", "c"])
    "f() missing 3 required positional arguments: 'a', 'b', and 'c'"
    """
    quoted = [f"'{name}'" for name in names]
    if len(quoted) == 1:
        return f"{function_name}() missing 1 required positional argument: {quoted[0]}"
    if len(quoted) == 2:
        listed = " and ".join(quoted)
    else:
        listed = ", ".join(quoted[:-1]) + ", and " + quoted[-1]
    return f"{function_name}() missing {len(quoted)} required positional arguments: {listed}"


def _show(value: Any) -> str:
    """A short ``repr`` of a value for a message (never raises)."""
    try:
        text = repr(value)
    except Exception:  # a value whose repr fails is shown by its type
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


def _size_problem(value: Any) -> str | None:
    """Why a value is too big to accept (a long string, deep nesting, too many values), or None."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    count = 0
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > MAX_ELEMENTS:
            return f"it holds more than {MAX_ELEMENTS:,} values"
        if isinstance(item, str):
            if len(item) > MAX_STRING_CHARS:
                return (
                    f"a string of {len(item):,} characters is longer than the limit of "
                    f"{MAX_STRING_CHARS:,}"
                )
        elif isinstance(item, Mapping | list | tuple):
            if depth >= MAX_DEPTH:
                return f"it nests deeper than {MAX_DEPTH} levels"
            if count + len(stack) + len(item) > MAX_ELEMENTS:
                return f"it holds more than {MAX_ELEMENTS:,} values"
            children = [*item.keys(), *item.values()] if isinstance(item, Mapping) else item
            stack.extend((child, depth + 1) for child in children)
    return None


_MAX_DIGITS = 300
"""Longer integers are not numbers an API takes (and past 4,300 digits Python cannot print them)."""


def _number(value: Any) -> float | int | None:
    """A finite number from a number or a numeric string, else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value.bit_length() <= _MAX_DIGITS * 4 else None
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"[+-]?\d+", text):
            return int(text) if len(text) <= _MAX_DIGITS else None
        number = as_number(text)
        return None if number is None else float(number)
    return None


def _read(value: Any, param: ParamDoc, kind: str) -> tuple[bool, Any]:
    """``(True, value as the kind reads it)``, or ``(False, None)`` when it is the wrong type."""
    if kind in ("number", "integer"):
        number = _number(value)
        if number is None:
            return False, None
        if kind == "integer":
            if isinstance(number, float) and not number.is_integer():
                return False, None
            return True, int(number)
        return True, number
    if kind == "boolean":
        if isinstance(value, bool):
            return True, value
        if isinstance(value, int) and value in (0, 1):
            return True, bool(value)
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
            # "1" and "0" too: documented defaults of BOOLEAN parameters are often those strings
            return True, value.strip().lower() in ("true", "1")
        return False, None
    if kind == "enum":
        ok, text = _read(value, param, "string")
        if not ok or not param.enum:
            return ok, text
        folded = text.strip().lower()
        found = next((e for e in param.enum if str(e).lower() == folded), None)
        return (True, found) if found is not None else (False, None)
    if kind == "date":
        if isinstance(value, str) and _DATE.match(value.strip()):
            try:
                dt.date.fromisoformat(value.strip())
            except ValueError:
                return False, None
            return True, value.strip()
        return False, None
    if kind == "time":
        match = _TIME.match(value.strip()) if isinstance(value, str) else None
        if match and int(match[1]) < 24 and int(match[2]) < 60 and int(match[3] or 0) < 60:
            return True, value.strip()
        return False, None
    if kind == "array":
        if isinstance(value, list | tuple):
            return True, list(value)
        return (True, value) if isinstance(value, str) else (False, None)
    if kind == "object":
        if isinstance(value, Mapping):
            return True, dict(value)
        if isinstance(value, str):
            try:
                parsed = json.loads(value)
            except (ValueError, RecursionError):
                return False, None
            if isinstance(parsed, dict) and _size_problem(parsed) is None:
                return True, parsed
        return False, None
    if isinstance(value, str):
        return True, value
    if isinstance(value, bool):
        return True, "true" if value else "false"
    number = _number(value)
    if number is None:
        return False, None
    if isinstance(number, float) and number.is_integer() and abs(number) < 2**53:
        number = int(number)
    return True, str(number)


def _expected(param: ParamDoc) -> str:
    if param.kind == "enum" and param.enum:
        return "one of " + ", ".join(f"'{e}'" for e in param.enum)
    return _LABELS.get(param.kind, "STRING")


def _wrong(name: str, message: str) -> CallProblem:
    return CallProblem("wrong_type", f"Invalid value for parameter '{name}': {message}", name)


def validate_call(
    api: ApiDoc,
    arguments: Mapping[str, Any],
    *,
    function_name: str,
    param_names: Mapping[str, str] | None = None,
) -> CallCheck:
    """Check a call's arguments against the API's parameters, as its stub would.

    The checks come in Python's order: an unexpected keyword first, then missing required
    arguments, then each argument's type (in the API's parameter order). An optional argument
    given as ``None`` or ``""`` counts as left out (the stubs send only truthy optional
    arguments), so its documented default applies.

    Args:
        api: the API.
        arguments: the call's arguments, by the caller's names.
        function_name: the function's name, for Python's messages.
        param_names: caller's name -> the API's parameter name (ToolBench renames ``id`` to
            ``is_id``); parameters it does not rename keep their own names. ``None``: the API's
            names.

    Returns:
        The arguments by the API's parameter names (canonical, defaults filled) and the first
        problem found, if any.
    """
    params, required, identity = _signature(api)
    if param_names is None:
        accepted = identity
    else:
        accepted = {str(k): v for k, v in param_names.items() if v in params}
        renamed = set(accepted.values())
        accepted.update({name: name for name in params if name not in renamed})
    if not isinstance(arguments, Mapping):
        message = f"{function_name}() arguments must be a JSON object, got {_show(arguments)}"
        return CallCheck({}, CallProblem("wrong_type", message))
    given: dict[str, Any] = {}
    callers: dict[str, str] = {}
    for key, value in arguments.items():
        name = key if isinstance(key, str) else str(key)
        target = accepted.get(name)
        if target is None:
            message = f"{function_name}() got an unexpected keyword argument '{name}'"
            return CallCheck({}, CallProblem("unknown_argument", message, name))
        given[target] = value
        callers[target] = name
    missing = [name for name in required if name not in given]
    if missing:
        caller_of: dict[str, str] = {}
        for caller, name in accepted.items():
            caller_of.setdefault(name, caller)
        shown = [caller_of[name] for name in missing]
        return CallCheck(
            {}, CallProblem("missing_argument", missing_message(function_name, shown), shown[0])
        )
    out: dict[str, Any] = {}
    for name, (param, kind, needed) in params.items():
        if name not in given:
            continue
        value = given[name]
        if not needed and (value is None or (isinstance(value, str) and value == "")):
            continue
        if not (isinstance(value, str) and len(value) <= MAX_STRING_CHARS):
            too_big = _size_problem(value)
            if too_big is not None:
                return CallCheck(_canonical(out, api), _wrong(callers[name], too_big))
        ok, read = _read(value, param, kind)
        if not ok:
            problem = _wrong(callers[name], f"expected {_expected(param)}, got {_show(value)}")
            return CallCheck(_canonical(out, api), problem)
        out[name] = read
    return CallCheck(_canonical(out, api))


_Signature = tuple[dict[str, tuple[ParamDoc, str, bool]], tuple[str, ...], dict[str, str]]
_signatures: dict[int, tuple[ApiDoc, _Signature]] = {}


def _signature(api: ApiDoc) -> _Signature:
    """An API's parameters by name ``(doc, kind, required)``, its required names, identity names.

    Cached by the document's identity (the cache keeps the document, so the identity is not
    reused while the entry lives).
    """
    found = _signatures.get(id(api))
    if found is not None and found[0] is api:
        return found[1]
    required = tuple(p.name for p in api.required)
    params = {p.name: (p, p.kind, p.name in required) for p in api.params}
    signature = (params, required, {name: name for name in params})
    if len(_signatures) >= 4096:
        _signatures.clear()
    _signatures[id(api)] = (api, signature)
    return signature


def _canonical(arguments: dict[str, Any], api: ApiDoc) -> dict[str, Any]:
    """Canonical arguments (never raises: a value too deep to normalise is kept as text)."""
    try:
        return canonical_arguments(arguments, api)
    except RecursionError:
        return {k: _show(v) for k, v in sorted(arguments.items())}
