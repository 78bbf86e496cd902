"""Answers: what an agent's action says, read as calls; and the gold answer of an entry.

An action is read as BFCL reads the two kinds of model it scores:

* JSON calls, as function-calling models make them: ``{"name": ..., "arguments": {...}}``
  (``arguments`` may be a JSON string, and OpenAI's ``{"type": "function", "function": ...}``
  wrapper is taken off), a list of them, or BFCL's own decoded form ``[{name: {...}}, ...]``;
* anything else as a prompt-mode model's Python calls, ``[f(a=1), g(b='x')]``, decoded as BFCL
  decodes them (:func:`.decoding.decode_python_calls`: nothing is evaluated); a Java or
  JavaScript entry's reply by BFCL's own parsers of those languages (:func:`source_calls`).

Java and JavaScript values are source text in both (``"new ArrayList<>(Arrays.asList(1, 2))"``),
as BFCL asks of models; its converters read them when the answer is scored.

The gold of an entry is its possible answer with each parameter at its first accepted value
(optional ones left out), written as Python calls; Java and JavaScript values are written as the
source text BFCL's converters read back to that value (:func:`java_source`, :func:`js_source`).
"""

from __future__ import annotations

import importlib
import json
import keyword
import math
from collections.abc import Mapping, Sequence
from typing import Any

from toolgym.errors import DependencyNotInstalled
from toolgym.families.bfcl.bounded import TooSlowToConvert, convert_bounded
from toolgym.families.bfcl.data import TREE_SITTER_INSTALL
from toolgym.families.bfcl.decoding import DecodeError, decode_python_calls, render_python_calls
from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError
from toolgym.tools.json_calls import load_json

Call = dict[str, dict[str, Any]]
"""One call as BFCL decodes it: ``{function: {parameter: value}}``."""


REPLY_FORMATS = ("any", "prompt", "fc")
"""How replies are read: both ways, as a prompt-mode model's only, as a function-calling one's."""


def read_answer(
    text: str,
    budgets: Budgets = DEFAULT_BUDGETS,
    language: str = "python",
    reply_format: str = "any",
) -> list[Call]:
    """The calls of an answer (see the module docstring); ``[]`` for an empty list.

    Args:
        text: the reply.
        budgets: the limits of JSON values.
        language: a Java or JavaScript entry's Python calls are read by BFCL's own Java or
            JavaScript parser (:func:`source_calls`), which keeps each value's source text.
        reply_format: ``"any"`` (JSON calls, else Python calls), ``"prompt"`` (Python calls
            only, as BFCL reads a prompt-mode model: JSON is not calls) or ``"fc"`` (JSON calls
            only, as a function-calling model's tool calls; any other text is words).

    Raises:
        ToolCallError: ``non_executable`` when the text is not calls (BFCL's decoder fails on
            it), ``resource_limit`` for JSON beyond the budgets.
    """
    stripped = text.strip()
    if reply_format != "prompt" and stripped[:1] in ("[", "{"):
        try:
            value = load_json(stripped, budgets, "the answer")
        except ToolCallError as e:
            if e.category != NON_EXECUTABLE:
                raise
        else:
            calls = json_calls(value, budgets)
            if calls is not None:
                return calls
    if reply_format == "fc":
        raise DecodeError("not JSON calls: a reply in words")
    if language in ("java", "javascript"):
        return source_calls(text, language)
    return decode_python_calls(text)


SOURCE_PARSERS = {
    "java": ("bfcl_eval.model_handler.parser.java_parser", "parse_java_function_call"),
    "javascript": ("bfcl_eval.model_handler.parser.js_parser", "parse_javascript_function_call"),
}
"""BFCL's readers of a Java or JavaScript entry's reply (tree-sitter grammars, pinned by it)."""
PARSE_AT_ONCE_CHARS = 2048
"""The longest reply BFCL's Java or JavaScript parser reads in the step's own process.

Tree-sitter's error recovery grows faster than the text on some replies (``a<`` repeated, a run
of quotes): 15-29 ms at 2,000 characters, 53-83 ms at 4,000, one to three seconds at the
16,384 an action may hold. A longer reply is parsed in a forked child, stopped past
:data:`~toolgym.families.bfcl.bounded.TIME_LIMIT_S` (:func:`~.bounded.convert_bounded`); a reply
that takes longer does not decode."""


def source_calls(text: str, language: str) -> list[Call]:
    """A Java or JavaScript entry's reply read by BFCL's own parser, as BFCL's decoder reads it.

    Values are their source text (a string literal without its quotes); like BFCL's reader it
    takes the first call only.

    Raises:
        DecodeError: the text does not parse, or holds no call.
        DependencyNotInstalled: the tree-sitter grammars are not installed.
    """
    module, name = SOURCE_PARSERS[language]
    try:
        parse = getattr(importlib.import_module(module), name)
    except ImportError as e:
        raise DependencyNotInstalled(
            f"reading a {language} reply needs BFCL's tree-sitter grammars: {TREE_SITTER_INSTALL}"
        ) from e
    body = text.strip("`\n ")
    if not body.startswith("["):
        body = "[" + body
    if not body.endswith("]"):
        body = body + "]"
    try:  # a long reply is parsed in a child stopped past a second (see PARSE_AT_ONCE_CHARS)
        calls = convert_bounded(parse, body[1:-1], at_once=PARSE_AT_ONCE_CHARS)
    except TooSlowToConvert:
        raise DecodeError(f"not {language} calls: the reply took too long to parse") from None
    except Exception as e:  # the parser's SyntaxError, or what it meets in odd trees
        raise DecodeError(f"not {language} calls: {type(e).__name__}") from None
    if not isinstance(calls, list) or not all(
        type(c) is dict and len(c) == 1 and type(next(iter(c.values()))) is dict for c in calls
    ):
        raise DecodeError(f"no {language} call found")
    return calls


def json_calls(value: Any, budgets: Budgets = DEFAULT_BUDGETS) -> list[Call] | None:
    """JSON calls as BFCL's decoded form, or ``None`` when ``value`` is not calls.

    >>> json_calls([{"name": "f", "arguments": '{"a": 1}'}, {"g": {"b": 2}}])
    [{'f': {'a': 1}}, {'g': {'b': 2}}]
    """
    items = value if isinstance(value, list) else [value]
    out: list[Call] = []
    for item in items:
        call = _json_call(item, budgets)
        if call is None:
            return None
        out.append(call)
    return out


def _json_call(item: Any, budgets: Budgets) -> Call | None:
    if not isinstance(item, dict):
        return None
    if isinstance(item.get("function"), dict) and "name" in item["function"]:
        item = item["function"]
    if isinstance(item.get("name"), str) and set(item) <= {"name", "arguments", "id", "type"}:
        arguments = item.get("arguments") or {}
        if isinstance(arguments, str):
            arguments = load_json(arguments, budgets, "the arguments") if arguments.strip() else {}
        return {item["name"]: arguments} if isinstance(arguments, dict) else None
    if len(item) == 1:
        ((name, arguments),) = item.items()
        if isinstance(arguments, dict):
            return {name: arguments}
    return None


# -- gold answers ---------------------------------------------------------------------------------


def first_value(value: Any) -> Any:
    """A possible answer's value with each nested dict's keys at their first accepted value."""
    if isinstance(value, list):
        return [first_value(item) for item in value]
    if isinstance(value, dict):
        return {
            key: first_value(accepted[0] if isinstance(accepted, list) else accepted)
            for key, accepted in value.items()
            if not (isinstance(accepted, list) and "" in accepted)
        }
    return value


def gold_calls(
    possible: Sequence[Mapping[str, Any]], functions: Sequence[Mapping[str, Any]], language: str
) -> list[Call]:
    """Each expected call with each parameter at its first accepted value.

    A parameter that may be left out (it accepts ``""``) is, unless the doc requires it. Java
    and JavaScript values are written as source text (:func:`source_text`).
    """
    docs = {f["name"]: f for f in functions}
    calls: list[Call] = []
    for expected in possible:
        ((name, params),) = expected.items()
        doc = docs.get(name, {}).get("parameters", {})
        required = set(doc.get("required", ()))
        properties = doc.get("properties", {})
        arguments: dict[str, Any] = {}
        for param, accepted in params.items():
            values = [v for v in accepted if v != ""] or accepted  # [""]: the empty string
            if not values or ("" in accepted and param not in required):
                continue
            value = first_value(values[0])
            details = properties.get(param)
            if language != "python" and isinstance(details, Mapping):
                value = source_text(value, details, language)
            arguments[param] = value
        order = {param: k for k, param in enumerate(properties)}  # the doc's order
        ordered = sorted(arguments, key=lambda p: order.get(p, len(order)))
        calls.append({name: {param: arguments[param] for param in ordered}})
    return calls


def gold_text(calls: list[Call], language: str = "python") -> str:
    """The calls written as a prompt-mode model writes them.

    Java and JavaScript values are written as string literals (:func:`prompt_text`), which
    BFCL's parsers of those languages and Python's read alike. As JSON calls when that cannot
    hold them (a parameter called ``from``, a value with a quote in it).

    >>> gold_text([{"f": {"from": "a"}}])
    '[{"name": "f", "arguments": {"from": "a"}}]'
    """
    python = all(_python_name(p) for call in calls for p in next(iter(call.values())))
    if python and language == "python":
        return render_python_calls(calls)
    quotable = all(
        isinstance(v, str) and not any(c in v for c in '"\\\n')
        for call in calls
        for v in next(iter(call.values())).values()
    )
    if python and quotable:
        return prompt_text(calls, language)
    items = [{"name": n, "arguments": a} for call in calls for n, a in call.items()]
    return json.dumps(items, ensure_ascii=False)


def prompt_text(calls: list[Call], language: str = "python") -> str:
    """The calls as a prompt-mode model writes them for BFCL (Python calls, Java or JavaScript).

    Java and JavaScript values (source text) are written as string literals, which BFCL's
    parsers read back to the text inside the quotes and Python's reads alike; a value holding a
    quote or a backslash is written as it is.

    >>> prompt_text([{"f": {"a": "new int[]{1}", "b": "x y"}}], "java")
    '[f(a="new int[]{1}", b="x y")]'
    """
    return render_python_calls(calls, repr if language == "python" else _source_value)


def _source_value(value: Any) -> str:
    if not isinstance(value, str):
        return json.dumps(value)
    if '"' in value or "\\" in value or "\n" in value:
        return value
    return f'"{value}"'


def _python_name(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name)


_PLACEHOLDERS = {
    "string": "example",
    "integer": 1,
    "float": 1.0,
    "boolean": True,
    "array": [],
    "tuple": [],
    "dict": {},
}


def any_call(functions: Sequence[Mapping[str, Any]], language: str) -> list[Call]:
    """A call of the first function, its required parameters at placeholders of their types.

    ``live_relevance`` asks only that some function be called; this is such an answer. An
    entry that offers none gets a call of a function it does not have.
    """
    if not functions:
        return [{"no_function_offered": {}}]
    doc = functions[0]
    parameters = doc.get("parameters", {})
    properties = parameters.get("properties", {})
    arguments: dict[str, Any] = {}
    for param in parameters.get("required", ()):
        kind = properties.get(param, {}).get("type", "string")
        value = _PLACEHOLDERS.get(kind, "example") if language == "python" else "example"
        arguments[param] = value
    return [{doc["name"]: arguments}]


def source_text(value: Any, details: Mapping[str, Any], language: str) -> Any:
    """``value`` as the source text BFCL's Java or JavaScript converter reads back to it.

    A value of another type than the doc's (a variable's name standing for it) is its text.
    """
    kind = details.get("type")
    item = details.get("items", {}).get("type") if isinstance(details.get("items"), dict) else None
    if language == "java":
        return java_source(value, kind, item)
    return js_source(value, kind, item)


def _java_literal(value: Any) -> str:
    """A value as ``parse_java_value`` reads it (a HashMap's values, untyped list items)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def java_source(value: Any, kind: Any, item: Any = None) -> str:
    """Java source text that BFCL's ``java_type_converter`` reads as ``value``.

    >>> java_source([1, 2], "ArrayList", "integer"), java_source(5, "long")
    ('new ArrayList<>(Arrays.asList(1, 2))', '5L')
    """
    if isinstance(value, bool) and kind == "boolean":
        return "true" if value else "false"
    if isinstance(value, int) and not isinstance(value, bool):
        if kind == "long":
            return f"{value}L"
        if kind == "float":
            return f"{value}f"
        if kind == "double":
            return f"{float(value)}"
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return f"{value}f" if kind == "float" else repr(value)
    if isinstance(value, list) and kind == "Array":
        items = [java_source(v, item) if item else _java_literal(v) for v in value]
        return "new Object[]{" + ", ".join(items) + "}"
    if isinstance(value, list) and kind == "ArrayList":
        if not value:
            return "new ArrayList<>()"
        items = [
            f'"{v}"'
            if item in ("String", "char")
            else java_source(v, item)
            if item
            else _java_literal(v)
            for v in value
        ]
        return "new ArrayList<>(Arrays.asList(" + ", ".join(items) + "))"
    if isinstance(value, dict) and kind == "HashMap":
        if not value:
            return "new HashMap<>()"
        puts = " ".join(f'put("{k}", {_java_literal(v)});' for k, v in value.items())
        return "new HashMap<String, Object>() {{ " + puts + " }}"
    return value if isinstance(value, str) else json.dumps(value)


def _js_literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, list):
        return "[" + ", ".join(_js_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_js_literal(v)}" for k, v in value.items()) + "}"
    return str(value)


def js_source(value: Any, kind: Any, item: Any = None) -> str:
    """JavaScript source text that BFCL's ``js_type_converter`` reads as ``value``.

    >>> js_source(["a", "b"], "array", "String"), js_source(7, "Bigint")
    ("['a', 'b']", '7n')
    """
    if isinstance(value, bool) and kind == "Boolean":
        return "true" if value else "false"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value}n" if kind == "Bigint" else str(value)
    if isinstance(value, float) and math.isfinite(value):
        return repr(value)
    if isinstance(value, list) and kind == "array":
        return _js_literal(value)
    if isinstance(value, dict) and kind == "dict":
        return _js_literal(value)
    return value if isinstance(value, str) else json.dumps(value)
