"""An agent's answer read as BFCL reads a prompt-mode model's: a list of Python calls.

BFCL's prompt asks for ``[func_name1(param=value, ...), func_name2(...)]``. Its reader strips
backticks, line breaks and spaces from both ends, adds a missing ``[`` or ``]``, drops quotes
around the whole, and parses the text as a Python expression: one call, or a list of calls.
Each call becomes ``{name: {keyword: value}}`` (a dotted name joined; positional arguments
dropped), and each value is read from its syntax: literals, negative numbers, lists, tuples,
dicts, a bare name as its text, a call without keywords as its text and one with keywords as a
nested call, a subscript as its text.

BFCL evaluates arithmetic in an argument (``2 * 3``) with Python's ``eval``. Agent text is never
evaluated here: arithmetic is computed node by node over numbers, strings and lists (``+``,
``-``, ``*``, ``/``, ``//``, ``%``, ``**``), within toolgym's value budgets, and anything else
fails to read. Everything is bounded: the text's length, the tree's depth, the values' size.

>>> decode_python_calls("```\\n[func(a=1, b='x'), g.h(c=[1, 2], d={'k': 2.5})]\\n```")
[{'func': {'a': 1, 'b': 'x'}}, {'g.h': {'c': [1, 2], 'd': {'k': 2.5}}}]
>>> decode_python_calls("area(r=2 * 3.5, unit=meters)")
[{'area': {'r': 7.0, 'unit': 'meters'}}]
>>> decode_python_calls("[]")
[]
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from typing import Any

from toolgym.tools.ast_parse import parse
from toolgym.tools.budgets import DEFAULT_BUDGETS, check_number, check_value
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError

MAX_DEPTH = 32
"""Deeper nesting of an answer's values fails to read."""
MAX_POWER_EXPONENT = 64
"""The largest exponent ``**`` takes (a larger one fails to read, as a huge number would)."""

_ARITHMETIC: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}


class DecodeError(ToolCallError):
    """The answer cannot be read as calls (a ``non_executable`` error)."""

    def __init__(self, message: str) -> None:
        super().__init__(NON_EXECUTABLE, message)


def decode_python_calls(text: str) -> list[dict[str, Any]]:
    """The calls of a prompt-mode answer, as BFCL decodes them.

    Raises:
        DecodeError: the text is not one call or a list of calls (prose, bad syntax, an
            unsupported value), or it is past the budgets.
    """
    if not isinstance(text, str):
        raise DecodeError(f"an answer is text; got {type(text).__name__}")
    if len(text) > DEFAULT_BUDGETS.max_action_chars:
        raise DecodeError(
            f"the answer is longer than {DEFAULT_BUDGETS.max_action_chars} characters"
        )
    body = text.strip("`\n ")
    if not body.startswith("["):
        body = "[" + body
    if not body.endswith("]"):
        body = body + "]"
    body = body.strip().strip("'")
    try:
        tree = parse(body, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        raise DecodeError(f"not Python calls: {type(e).__name__}") from None
    try:
        if isinstance(tree.body, ast.Call):
            calls = [_call(tree.body, 0)]
        elif isinstance(tree.body, ast.List | ast.Tuple | ast.Set):
            calls = []
            for element in tree.body.elts:
                if not isinstance(element, ast.Call):
                    raise DecodeError("every item of the list must be a call")
                calls.append(_call(element, 0))
        else:
            raise DecodeError("the answer must be a call or a list of calls")
        check_value(calls, DEFAULT_BUDGETS, "the answer")
    except RecursionError:
        raise DecodeError("the answer is nested too deeply") from None
    except ToolCallError as e:
        if isinstance(e, DecodeError):
            raise
        raise DecodeError(e.message) from None
    return calls


def render_python_calls(calls: list[dict[str, Any]], value: Callable[[Any], str] = repr) -> str:
    """Calls written as BFCL's prompt asks for them (the inverse of :func:`decode_python_calls`).

    ``value`` writes each argument (Python's ``repr`` by default).

    >>> render_python_calls([{"f": {"a": 1, "b": "x"}}, {"g.h": {}}])
    "[f(a=1, b='x'), g.h()]"
    """
    written = []
    for call in calls:
        ((name, arguments),) = call.items()
        inner = ", ".join(f"{key}={value(v)}" for key, v in arguments.items())
        written.append(f"{name}({inner})")
    return "[" + ", ".join(written) + "]"


def _name(node: ast.expr) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _call(node: ast.Call, depth: int) -> dict[str, Any]:
    arguments: dict[str, Any] = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            raise DecodeError("**kwargs in a call")
        arguments[keyword.arg] = _value(keyword.value, depth + 1)
    return {_name(node.func): arguments}


def _value(node: ast.expr, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise DecodeError(f"values nested more than {MAX_DEPTH} deep")
    if isinstance(node, ast.Constant):
        return "..." if node.value is Ellipsis else node.value
    if isinstance(node, ast.UnaryOp):
        operand = node.operand
        if isinstance(operand, ast.Constant) and isinstance(operand.value, int | float | complex):
            return -operand.value  # BFCL reads any unary operator as a minus (``not True``: -1)
        raise DecodeError("a unary operator on anything but a number")
    if isinstance(node, ast.List):
        return [_value(v, depth + 1) for v in node.elts]
    if isinstance(node, ast.Tuple):
        return tuple(_value(v, depth + 1) for v in node.elts)
    if isinstance(node, ast.Dict):
        out = {}
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                raise DecodeError("** in a dict")
            read = _value(key, depth + 1)
            try:
                out[read] = _value(value, depth + 1)
            except TypeError:
                raise DecodeError("a dict key that cannot be a key") from None
        return out
    if isinstance(node, ast.BinOp):
        return _arithmetic(node, depth)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        if not node.keywords:
            return ast.unparse(node)
        return _call(node, depth)
    if isinstance(node, ast.Subscript):
        return ast.unparse(node.value) + "[" + ast.unparse(node.slice) + "]"
    raise DecodeError(f"unsupported value syntax: {type(node).__name__}")


def _number(value: Any) -> bool:
    return isinstance(value, int | float | complex) and not isinstance(value, bool)


def _arithmetic(node: ast.BinOp, depth: int) -> Any:
    """``left op right`` of an answer's values."""
    return arithmetic(node.op, _value(node.left, depth + 1), _value(node.right, depth + 1))


def arithmetic(op: ast.operator, left: Any, right: Any) -> Any:
    """``left op right`` computed without ``eval``, within the value budgets.

    Raises:
        DecodeError: an operator or operands it does not take, a failure, or a result past the
            budgets.

    >>> arithmetic(ast.Mult(), "ab", 2), arithmetic(ast.Pow(), 2, 10)
    ('abab', 1024)
    """
    operation = _ARITHMETIC.get(type(op))
    if operation is None:
        raise DecodeError(f"the operator {type(op).__name__}")
    if isinstance(op, ast.Pow) and not (
        _number(left)
        and _number(right)
        and abs(right) <= MAX_POWER_EXPONENT
        and abs(left) <= DEFAULT_BUDGETS.max_number
    ):
        raise DecodeError(f"** needs numbers and an exponent of at most {MAX_POWER_EXPONENT}")
    if isinstance(op, ast.Mult) and (isinstance(left, str | list) or isinstance(right, str | list)):
        times = right if isinstance(left, str | list) else left
        size = len(left if isinstance(left, str | list) else right)
        if not isinstance(times, int) or times * size > DEFAULT_BUDGETS.max_action_chars:
            raise DecodeError("a repeated string or list past the value budget")
    try:
        result = operation(left, right)
    except (TypeError, ZeroDivisionError, OverflowError, ValueError) as e:
        raise DecodeError(f"arithmetic that fails: {type(e).__name__}") from None
    if isinstance(result, float) and not math.isfinite(result):
        raise DecodeError("arithmetic past the numbers a value may hold")
    try:
        if _number(result) and not isinstance(result, complex):
            check_number(result, DEFAULT_BUDGETS)
        check_value(result, DEFAULT_BUDGETS, "an argument")
    except ToolCallError as e:
        raise DecodeError(e.message) from None
    return result


# -- calls as the multi-turn backends run them -----------------------------------------------------


def execution_texts(calls: list[dict[str, Any]], from_json: bool = False) -> list[str]:
    """Decoded calls written as BFCL writes them before running them on the multi-turn backends.

    A prompt-mode reply's calls (``from_json`` false) are written as BFCL's prompt-mode
    handlers write them: each value by ``repr``, except that a dict whose values are all dicts
    is written as a nested call of its first key and other dicts key by key (an empty dict
    fails, as it does in BFCL, which then reads the reply as no calls). A function-calling
    model's calls (``from_json``) are written as its handlers write tool calls: ``repr`` of
    each value, joined by commas without spaces.

    Raises:
        DecodeError: a value BFCL's writer fails on (an empty dict in a prompt-mode reply).

    >>> execution_texts([{"cd": {"folder": "docs"}}, {"ls": {}}])
    ["cd(folder='docs')", 'ls()']
    >>> execution_texts([{"mv": {"source": "a", "destination": "b"}}], from_json=True)
    ["mv(source='a',destination='b')"]
    >>> execution_texts([{"f": {"x": {"g": {"y": 1}}, "z": {"k": [1]}}}])
    ["f(x=g(y=1), z={'k': [1]})"]
    """
    out = []
    for call in calls:
        for name, arguments in call.items():
            if from_json:
                out.append(f"{name}({','.join(f'{k}={v!r}' for k, v in arguments.items())})")
            else:
                written = ", ".join(f"{k}={_nested(v)}" for k, v in arguments.items())
                out.append(f"{name}({written})")
    return out


def _nested(value: Any) -> str:
    """One value as BFCL's prompt-mode handlers write it (see :func:`execution_texts`)."""
    if not isinstance(value, dict):
        return repr(value)
    if all(isinstance(v, dict) for v in value.values()):
        if not value:
            raise DecodeError("an empty dict in a call (BFCL reads the reply as no calls)")
        name = next(iter(value))
        return f"{name}(" + ", ".join(f"{k}={_nested(v)}" for k, v in value[name].items()) + ")"
    return "{" + ", ".join(f"'{k}': {_nested(v)}" for k, v in value.items()) + "}"
