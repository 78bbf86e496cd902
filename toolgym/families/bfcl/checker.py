"""BFCL's verdict on a single-turn answer: its AST check, and relevance and irrelevance.

An answer is a list of calls as BFCL decodes them, ``[{function: {parameter: value}}, ...]``.
The verdict follows BFCL v4's rules, with its error types (``value_error:string``,
``simple_function_checker:missing_required``, ...):

* the category decides the shape: ``parallel`` categories match every expected call to a
  distinct call of the answer, in any order, and need as many calls as expected; ``multiple``
  ones need exactly one call, checked against the expected function's doc; the rest (simple)
  need exactly one call, checked against the first function offered;
* a call names the function, has every required parameter and no parameter that is not in
  both the doc and the possible answer; each value has the doc's type (Python: ``int`` is taken
  for ``float``, a tuple for a list; Java and JavaScript: values are their source text,
  converted by BFCL's own converters) and is one of the accepted values: strings compared
  without case, spaces and ``,./-_*^``, lists and dicts item by item (dict keys missing from the
  answer must be optional), lists of dicts in order; a parameter of the possible answer left out
  must accept ``""``;
* a value whose type is the possible answer's rather than the doc's (the name of a variable,
  say) is compared as it is, without the string, list or dict rules;
* ``irrelevance`` and ``live_irrelevance`` pass when the answer holds no call, and
  ``live_relevance`` when it holds one (its arguments are not checked).

The Java and JavaScript converters come from ``bfcl-eval`` (they import nothing but the standard
library); the rest is written here and tested against BFCL's checker on every possible answer
and on perturbed answers (``tests/test_bfcl_checker.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from toolgym.families.bfcl.bounded import TooSlowToConvert, convert_bounded

PYTHON_TYPES: dict[str, type] = {
    "string": str,
    "integer": int,
    "float": float,
    "boolean": bool,
    "array": list,
    "tuple": list,
    "dict": dict,
    "any": str,
}
"""A Python parameter's type by its doc's type name."""
_PYTHON_NESTED = ("array", "tuple")
_CONVERTED_NESTED = ("Array", "ArrayList", "array")
_NOISE = re.compile(r"[ ,./\-_*^]")

Call = Mapping[str, Any]
"""One call as BFCL decodes it: ``{function: {parameter: value}}``."""


@dataclass(frozen=True)
class Verdict:
    """Whether an answer passes, and if not, BFCL's error type and what was wrong.

    Attributes:
        valid: the answer passes.
        error_type: BFCL's error type (``None`` when it passes).
        message: what was wrong, for a person.
    """

    valid: bool
    error_type: str | None = None
    message: str = ""


PASS = Verdict(True)


def _fail(error_type: str, message: str) -> Verdict:
    return Verdict(False, error_type, message)


def ast_verdict(
    functions: Sequence[Mapping[str, Any]],
    calls: Sequence[Call],
    possible: Sequence[Call],
    *,
    language: str,
    category: str,
) -> Verdict:
    """BFCL's AST verdict on ``calls`` for an entry of ``category``.

    Args:
        functions: the entry's function docs (``{"name", "parameters": {"properties",
            "required"}}``).
        calls: the answer, ``[{function: {parameter: value}}, ...]``.
        possible: the entry's possible answer (its ``ground_truth``).
        language: ``"python"``, ``"java"`` or ``"javascript"`` (:func:`.data.language_of`).
        category: the entry's category (``parallel``/``multiple`` in its name decide the shape).
    """
    if "parallel" in category:
        return _any_order(functions, calls, possible, language)
    if "multiple" in category:
        if len(calls) != len(possible):
            return _fail("multiple_function_checker:wrong_count", "Wrong number of functions.")
        name = next(iter(possible[0]))
        return check_call(_doc(functions, name), calls[0], possible[0], language)
    if len(calls) != 1:
        return _fail("simple_function_checker:wrong_count", "Wrong number of functions.")
    return check_call(functions[0], calls[0], possible[0], language)


def relevance_verdict(category: str, calls: Sequence[Call] | None) -> Verdict:
    """The verdict of ``irrelevance``, ``live_irrelevance`` or ``live_relevance``.

    ``calls`` is the answer read as calls, or ``None`` when it could not be read as calls.

    >>> relevance_verdict("irrelevance", None).valid, relevance_verdict("live_relevance", []).valid
    (True, False)
    """
    called = calls is not None and has_call(calls)
    if "irrelevance" in category:
        if called:
            return _fail(
                "irrelevance_error:decoder_success",
                "Valid syntax. Successfully decode AST when it should not.",
            )
        return PASS
    if not called:
        return _fail(
            "relevance_error:decoder_failed",
            "Invalid syntax. Failed to decode AST when it should have.",
        )
    return PASS


def is_call_list(calls: Any) -> bool:
    """Whether ``calls`` has the shape of an answer: a list of one-key dicts of dicts."""
    return isinstance(calls, list) and all(
        type(c) is dict and len(c) == 1 and type(next(iter(c.values()))) is dict for c in calls
    )


def has_call(calls: Any) -> bool:
    """Whether a read answer holds a call (``[]``, ``[{}]`` or not an answer: no).

    >>> has_call([{"f": {}}]), has_call([{}]), has_call("text")
    (True, False, False)
    """
    if not is_call_list(calls) or not calls:
        return False
    return not (len(calls) == 1 and len(calls[0]) == 0)


def _doc(functions: Sequence[Mapping[str, Any]], name: str) -> Mapping[str, Any] | None:
    for doc in functions:
        if doc["name"] == name:
            return doc
    return None


def _any_order(
    functions: Sequence[Mapping[str, Any]],
    calls: Sequence[Call],
    possible: Sequence[Call],
    language: str,
) -> Verdict:
    """Each expected call matched to a distinct call of the answer, the first that passes."""
    if len(calls) != len(possible):
        return _fail("parallel_function_checker_no_order:wrong_count", "Wrong number of functions.")
    used: set[int] = set()
    for k, expected in enumerate(possible):
        doc = _doc(functions, next(iter(expected)))
        found = False
        for index, call in enumerate(calls):
            if index in used:
                continue
            if check_call(doc, call, expected, language).valid:
                used.add(index)
                found = True
                break
        if not found:
            return _fail(
                "parallel_function_checker_no_order:cannot_find_match",
                f"No call of the answer matches expected call {k} ({next(iter(expected))}).",
            )
    return PASS


def check_call(doc: Mapping[str, Any] | None, call: Call, expected: Call, language: str) -> Verdict:
    """One call against one expected call and its function's doc (BFCL's simple check)."""
    if doc is None:
        return _fail("simple_function_checker:wrong_func_name", "The expected function has no doc.")
    accepted_by_param = next(iter(expected.values()))
    name = doc["name"]
    properties = doc["parameters"]["properties"]
    if name not in call:
        return _fail(
            "simple_function_checker:wrong_func_name",
            f"Function name {name!r} not found in the answer.",
        )
    arguments = call[name]
    for param in doc["parameters"]["required"]:
        if param not in arguments:
            return _fail(
                "simple_function_checker:missing_required", f"Missing required parameter {param!r}."
            )
    for param, value in arguments.items():
        if param not in properties or param not in accepted_by_param:
            return _fail(
                "simple_function_checker:unexpected_param", f"Unexpected parameter {param!r}."
            )
        verdict = _check_argument(
            param, value, properties[param], accepted_by_param[param], language
        )
        if not verdict.valid:
            return verdict
    for param, accepted in accepted_by_param.items():
        if param not in arguments and "" not in accepted:
            return _fail(
                "simple_function_checker:missing_optional",
                f"Parameter {param!r} left out, and it is not optional.",
            )
    return PASS


def _converters() -> tuple[
    dict[str, type], dict[str, type], Callable[..., Any], Callable[..., Any]
]:
    """BFCL's Java and JavaScript type tables and converters (from ``bfcl-eval``)."""
    from bfcl_eval.constants.type_mappings import JAVA_TYPE_CONVERSION, JS_TYPE_CONVERSION
    from bfcl_eval.eval_checker.ast_eval.type_convertor.java_type_converter import (
        java_type_converter,
    )
    from bfcl_eval.eval_checker.ast_eval.type_convertor.js_type_converter import (
        js_type_converter,
    )

    return JAVA_TYPE_CONVERSION, JS_TYPE_CONVERSION, java_type_converter, js_type_converter


def _check_argument(
    param: str, value: Any, details: Mapping[str, Any], accepted: list[Any], language: str
) -> Verdict:
    type_name = details["type"]
    nested: type | None = None
    if language in ("java", "javascript"):
        java_types, js_types, java_convert, js_convert = _converters()
        table, convert = (
            (java_types, java_convert) if language == "java" else (js_types, js_convert)
        )
        expected_type = table[type_name]
        if type(value) is not str:
            return _fail(
                f"type_error:{'java' if language == 'java' else 'js'}",
                f"Parameter {param!r} should be source text; got {type(value).__name__}.",
            )
        try:
            if type_name in _CONVERTED_NESTED:
                item_type = details["items"]["type"]
                nested = table[item_type]
                value = convert_bounded(convert, value, type_name, item_type)
            else:
                value = convert_bounded(convert, value, type_name)
        except TooSlowToConvert as e:
            return _fail(
                f"type_error:{'java' if language == 'java' else 'js'}",
                f"Parameter {param!r}: {e} (BFCL's converter backtracks on it).",
            )
    else:
        expected_type = PYTHON_TYPES[type_name]
        if type_name in _PYTHON_NESTED:
            nested = PYTHON_TYPES[details["items"]["type"]]
    if type_name == "tuple" and type(value) is tuple:
        value = list(value)
    if language == "python" and type_name == "float" and type(value) is int:
        value = float(value)
    typed = _type_verdict(param, value, accepted, type_name, expected_type, nested)
    if not typed.valid:
        return typed
    if not _is_variable(accepted, expected_type):
        if expected_type is dict:
            return _dict_verdict(value, accepted)
        if expected_type is list and nested is dict:
            return _list_of_dicts_verdict(value, accepted)
        if expected_type is str:
            return _string_verdict(param, value, accepted)
        if expected_type is list:
            return _list_verdict(param, value, accepted)
    if value not in accepted:
        return _fail("value_error:others", f"Invalid value for parameter {param!r}: {value!r}.")
    return PASS


def _answer_type(accepted: Sequence[Any]) -> type | None:
    """The type of the first accepted value that is not ``""`` (the optional mark)."""
    for value in accepted:
        if value != "":
            return type(value)
    return None


def _is_variable(accepted: Sequence[Any], expected_type: type) -> bool:
    """The possible answer's values are not of the doc's type: a name stands for the value."""
    found = _answer_type(accepted)
    return found is not None and found != expected_type


def _type_verdict(
    param: str,
    value: Any,
    accepted: Sequence[Any],
    type_name: str,
    expected_type: type,
    nested: type | None,
) -> Verdict:
    """The value's type: the doc's (its items' too, one level), or the possible answer's."""
    if type(value) is expected_type:
        if nested is None:
            return PASS
        items: list[Any] = list(cast("Iterable[Any]", value))  # a list: the doc says so
        for option in accepted:
            if type(option) is list and not all(
                _type_verdict(param, item, option, str(nested), nested, None).valid
                for item in items
            ):
                continue
            return PASS
        return _fail(  # the possible answer's type does not excuse wrong items
            "type_error:nested",
            f"Parameter {param!r}: expected {type_name} of {nested.__name__}; got {value!r}.",
        )
    answer_type = _answer_type(accepted)
    if answer_type is not None and type(value) is answer_type:
        return PASS  # the possible answer's type: a variable's name, say
    return _fail(
        "type_error:simple",
        f"Parameter {param!r}: expected {type_name}; got {type(value).__name__}.",
    )


def standardize(text: str) -> str:
    """A string as BFCL compares it: no spaces or ``,./-_*^``, lower case, ``'`` as ``"``.

    >>> standardize("April 1, 2024") == standardize("april 1 2024")
    True
    """
    return _NOISE.sub("", text).lower().replace("'", '"')


def _plain(value: Any) -> Any:
    return standardize(value) if type(value) is str else value


def _string_verdict(param: str, value: str, accepted: Sequence[Any]) -> Verdict:
    if standardize(value) not in [standardize(a) for a in accepted if type(a) is str]:
        return _fail("value_error:string", f"Invalid value for parameter {param!r}: {value!r}.")
    return PASS


def _list_verdict(param: str, value: list[Any], accepted: Sequence[Any]) -> Verdict:
    mine = [_plain(item) for item in value]
    if mine not in [[_plain(item) for item in option] for option in accepted]:
        return _fail("value_error:list/tuple", f"Invalid value for parameter {param!r}: {value!r}.")
    return PASS


def _dict_verdict(value: dict[str, Any], accepted: Sequence[Any]) -> Verdict:
    """A dict against each accepted dict; the last failure's reason when none passes."""
    failure = _fail("dict_checker:unclear", "No accepted dict.")
    for option in accepted:
        if option == "":
            continue
        failure = _one_dict(value, option)
        if failure.valid:
            return PASS
    return failure


def _one_dict(value: dict[str, Any], option: Mapping[str, Any]) -> Verdict:
    """The first wrong key or value; a required key left out is reported over either."""
    verdict = PASS
    for key, item in value.items():
        if key not in option:
            verdict = _fail("value_error:dict_key", f"Unexpected dict key {key!r}.")
            break
        if _plain(item) not in [_plain(a) for a in option[key]]:
            verdict = _fail(
                "value_error:dict_value", f"Invalid value for dict key {key!r}: {item!r}."
            )
            break
    for key, allowed in option.items():
        if key not in value and "" not in allowed:
            return _fail("value_error:dict_key", f"Missing dict key {key!r}.")
    return verdict


def _list_of_dicts_verdict(value: list[Any], accepted: Sequence[Any]) -> Verdict:
    """The dicts in order, against each accepted list of dicts."""
    failure = _fail("list_dict_checker:unclear", "No accepted list of dicts.")
    for option in accepted:
        if len(value) != len(option):
            failure = _fail("value_error:list_dict_count", "Wrong number of dictionaries.")
            continue
        for item, wanted in zip(value, option, strict=True):
            failure = _dict_verdict(item, [wanted])
            if not failure.valid:
                break
        else:
            return PASS
    return failure
