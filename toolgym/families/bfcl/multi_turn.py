"""BFCL's multi-turn categories: its backends driven by calls, and its verdict on a conversation.

An entry (``multi_turn_base``, ``multi_turn_miss_func``, ``multi_turn_miss_param``,
``multi_turn_long_context``) names the classes it involves (``GorillaFileSystem``,
``TwitterAPI``, ...) and their starting state (``initial_config``). Its answer is, for each user
turn, the calls of each step (``[["cd(folder='document')", "mkdir(dir_name='temp')"], ...]``),
and its possible answer is the calls of each turn. BFCL scores it as follows, and so does
:func:`multi_turn_verdict`:

* the model's calls and the possible answer's run on two sets of the entry's backends (fresh
  instances, ``long_context`` ones for the long-context category), turn after turn;
* a turn whose possible answer has calls needs at least one step with calls, then the backends'
  public attributes must be equal on both sides (``multi_turn:instance_state_mismatch``), and every
  result of the possible answer's calls of that turn must be among the results of all the
  model's calls so far, as a multiset (``multi_turn:execution_response_mismatch``);
* a turn whose possible answer is empty (where the missing function or parameter leaves the
  model unable to act) is not checked, but its calls still run;
* an answer with another number of turns fails (``multi_turn:force_terminated``).

The backends are BFCL's own classes (:data:`CLASSES`, imported from ``bfcl-eval``; they use the
standard library, and ``mpmath`` for ``MathAPI``). BFCL runs a call by ``eval`` of its text;
here the text is parsed, its arguments read as literals (numbers, strings, lists, tuples, dicts,
sets, negative numbers and arithmetic, computed node by node) or as nested calls of the same
backends, and the public method it names is called. A result becomes text as BFCL makes it (a
dict as JSON, anything else by ``str``), and a failure becomes ``Error during execution:
<message>``.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import decimal
import functools
import importlib
import inspect
import json
import math
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from toolgym.families.bfcl.checker import PASS, Verdict
from toolgym.families.bfcl.decoding import DecodeError, arithmetic
from toolgym.tools.ast_parse import parse
from toolgym.tools.deadline import check_deadline

MULTI_TURN = (
    "multi_turn_base",
    "multi_turn_miss_func",
    "multi_turn_miss_param",
    "multi_turn_long_context",
)
"""The multi-turn categories."""

_BACKENDS = "bfcl_eval.eval_checker.multi_turn_eval.func_source_code"
CLASSES = {
    "GorillaFileSystem": f"{_BACKENDS}.gorilla_file_system",
    "MathAPI": f"{_BACKENDS}.math_api",
    "MessageAPI": f"{_BACKENDS}.message_api",
    "TwitterAPI": f"{_BACKENDS}.posting_api",
    "TicketAPI": f"{_BACKENDS}.ticket_api",
    "TradingBot": f"{_BACKENDS}.trading_bot",
    "TravelAPI": f"{_BACKENDS}.travel_booking",
    "VehicleControlAPI": f"{_BACKENDS}.vehicle_control",
}
"""The multi-turn backends' classes and the ``bfcl-eval`` modules that define them."""
STATELESS = frozenset({"MathAPI"})
"""Classes without a starting state."""
FORBIDDEN = frozenset({"kill", "exit", "quit", "remove", "unlink", "popen", "Popen", "run"})
"""Method names BFCL refuses to call."""
MAX_CALL_CHARS = 16_384
"""A longer call's text is refused."""


class Backends:
    """One side's instances of an entry's classes, fresh from its ``initial_config``.

    Args:
        entry: the multi-turn entry (``involved_classes``, ``initial_config``).
        long_context: load the long-context scenarios (the long-context category).
        makers: a class of toolgym's own for some of the entry's classes, by name (the web
            search category's ``WebSearchAPI``, over a user's search backend).
    """

    def __init__(
        self,
        entry: Mapping[str, Any],
        long_context: bool = False,
        makers: Mapping[str, Callable[[], Any]] | None = None,
    ) -> None:
        config = entry.get("initial_config") or {}
        self.instances: dict[str, Any] = {}
        self._methods: dict[str, Any] = {}
        for name in entry["involved_classes"]:
            if makers and name in makers:
                instance = makers[name]()
            else:
                instance = getattr(importlib.import_module(CLASSES[name]), name)()
            if name not in STATELESS:
                instance._load_scenario(
                    copy.deepcopy(config.get(name, {})), long_context=long_context
                )
            self.instances[name] = instance
            for method_name, method in inspect.getmembers(instance, predicate=inspect.ismethod):
                if not method_name.startswith("_"):
                    self._methods[method_name] = method

    def run(self, calls: Sequence[str]) -> list[str]:
        """Run each call's text; its result, or its failure, as text."""
        return [self.run_one(call) for call in calls]

    def run_one(self, call: str) -> str:
        """One call's result as BFCL writes it (never raises).

        The call runs with its own decimal context and ``mpmath`` precision (``MathAPI`` sets
        them, and BFCL leaves them set for the whole process), and its result is written before
        they are put back, as BFCL writes it.
        """
        with decimal.localcontext(), _mpmath_precision():
            try:
                return _result_text(self._call_text(call))
            except Exception as e:
                return f"Error during execution: {e}"

    def keyword_text(self, call: str) -> str:
        """A possible answer's call with its positional arguments named, as BFCL writes calls.

        BFCL's possible answers sometimes pass arguments by position (``sort('report.pdf')``),
        which its readers of a model's reply drop; the oracle writes them by name, each value
        written with ``repr`` (``sort(file_name='report.pdf')``).

        Raises:
            ValueError: the call is not one of the backends' methods with literal arguments.
        """
        node = parse(call, "<possible answer>", mode="eval").body
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            raise ValueError(f"not a call of a method: {call!r}")
        method = self._methods.get(node.func.id)
        if method is None:
            raise ValueError(f"no method {node.func.id!r} in {sorted(self.instances)}")
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
        bound = inspect.signature(method).bind(*args, **kwargs)
        written = ", ".join(f"{k}={v!r}" for k, v in bound.arguments.items())
        return f"{node.func.id}({written})"

    def _call_text(self, text: str) -> Any:
        if not isinstance(text, str) or len(text) > MAX_CALL_CHARS:
            raise ValueError("a call is text of at most 16,384 characters")
        check_deadline()
        head = text.split("(")[0] if "(" in text else text
        if "." in head:
            head = head.split(".")[1]
        if head in FORBIDDEN:
            raise PermissionError(f"Function call {head} is not allowed.")
        try:
            tree = parse(text, "<string>", mode="eval")
        except (ValueError, RecursionError, MemoryError) as e:
            raise SyntaxError(str(e)) from None
        return self._evaluate(tree.body, 0)

    def _evaluate(self, node: ast.expr, depth: int) -> Any:
        """A call of a backend's method, or a literal value (never anything else)."""
        if depth > 32:
            raise RecursionError("the call is nested too deeply")
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name):
                raise NameError(f"name {ast.unparse(node.func)!r} is not defined")
            method = self._methods.get(node.func.id)
            if method is None:
                raise NameError(f"name {node.func.id!r} is not defined")
            args = [
                self._evaluate(a, depth + 1) for a in node.args if not isinstance(a, ast.Starred)
            ]
            kwargs = {k.arg: self._evaluate(k.value, depth + 1) for k in node.keywords if k.arg}
            if any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords
            ):
                raise TypeError("* and ** arguments are not taken")
            _check_cost(node.func.id, method, args, kwargs)
            return method(*args, **_fresh_defaults(method, len(args), kwargs))
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.List):
            return [self._evaluate(v, depth + 1) for v in node.elts]
        if isinstance(node, ast.Tuple):
            return tuple(self._evaluate(v, depth + 1) for v in node.elts)
        if isinstance(node, ast.Set):
            return {self._evaluate(v, depth + 1) for v in node.elts}
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                raise TypeError("** in a dict is not taken")
            return {
                self._evaluate(k, depth + 1): self._evaluate(v, depth + 1)  # type: ignore[arg-type]
                for k, v in zip(node.keys, node.values, strict=True)
            }
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            value = self._evaluate(node.operand, depth + 1)
            return -value if isinstance(node.op, ast.USub) else +value
        if isinstance(node, ast.BinOp):
            left, right = (
                self._evaluate(node.left, depth + 1),
                self._evaluate(node.right, depth + 1),
            )
            try:
                return arithmetic(node.op, left, right)
            except DecodeError as e:
                raise ValueError(e.message) from None
        if isinstance(node, ast.Name):
            raise NameError(f"name {node.id!r} is not defined")
        raise TypeError(f"{type(node).__name__} is not taken in a call's arguments")

    def state(self) -> dict[str, dict[str, Any]]:
        """Each instance's public attributes (what the state check compares)."""
        return {
            name: {k: v for k, v in vars(instance).items() if not k.startswith("_")}
            for name, instance in self.instances.items()
        }


def _fresh_defaults(method: Any, given: int, kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with a fresh copy of each mutable default a call leaves out.

    A backend method's list default is one object for the whole process (``TwitterAPI``'s
    ``post_tweet(content, tags=[], mentions=[])`` keeps it in the tweet, and ``mention`` extends
    it), so an episode could change what every later ``post_tweet`` holds. Each call gets its
    own copy, as a fresh process would give it.
    """
    function = getattr(method, "__func__", None)  # a bound method: its function, after self
    mutable = _mutable_defaults(method, 0) if function is None else _mutable_defaults(function, 1)
    if not mutable:
        return kwargs
    out = dict(kwargs)
    for position, name, default in mutable:
        if position >= given and name not in out:
            out[name] = copy.deepcopy(default)
    return out


@functools.cache
def _mutable_defaults(function: Any, skip: int) -> tuple[tuple[int, str, Any], ...]:
    """The parameters whose default is a list, dict or set: (position, name, default).

    Positions count from the first parameter after the ``skip`` first (``self``).
    """
    parameters = list(inspect.signature(function).parameters.values())[skip:]
    return tuple(
        (k, p.name, p.default)
        for k, p in enumerate(parameters)
        if isinstance(p.default, list | dict | set)
    )


def _result_text(result: Any) -> str:
    """A result as BFCL writes it: text as it is, a dict as JSON (else ``str``), else ``str``."""
    if type(result) is str:
        return result
    if type(result) is dict:
        try:
            return json.dumps(result)
        except (TypeError, ValueError):
            return str(result)
    return str(result)


@contextlib.contextmanager
def _mpmath_precision() -> Iterator[None]:
    """Put ``mpmath``'s precision back afterwards (when ``mpmath`` is loaded)."""
    mpmath = sys.modules.get("mpmath")
    if mpmath is None:
        yield
        return
    saved = mpmath.mp.dps
    try:
        yield
    finally:
        mpmath.mp.dps = saved


MAX_PRECISION = 1_000
"""The most digits ``MathAPI`` computes to (BFCL sets no limit: a larger one runs for hours)."""
MAX_POWER_BITS = 1 << 16
"""The largest integer power ``MathAPI.power`` computes, in bits."""


def _check_cost(name: str, method: Any, args: Sequence[Any], kwargs: Mapping[str, Any]) -> None:
    """Refuse a ``MathAPI`` call whose cost has no bound (a precision or power past the limits).

    BFCL computes whatever is asked, which for ``logarithm(..., precision=10**9)`` or
    ``power(base=7, exponent=10**12)`` means hours and gigabytes; such a call fails here, as a
    call that raises does (``Error during execution: ...``).

    Raises:
        ValueError: the call is past :data:`MAX_PRECISION` or :data:`MAX_POWER_BITS`.
    """
    if type(getattr(method, "__self__", None)).__name__ != "MathAPI":
        return
    try:
        bound = inspect.signature(method).bind(*args, **kwargs).arguments
    except TypeError:
        return  # the call itself raises the same TypeError
    precision = bound.get("precision")
    if isinstance(precision, int | float) and abs(precision) > MAX_PRECISION:
        raise ValueError(f"precision is at most {MAX_PRECISION} digits here; got {precision:.3g}")
    if name == "power":
        base, exponent = bound.get("base"), bound.get("exponent")
        if isinstance(base, int | float) and isinstance(exponent, int | float):
            bits = abs(exponent) * max(1.0, math.log2(abs(base) or 1))
            if isinstance(base, int) and isinstance(exponent, int) and bits > MAX_POWER_BITS:
                raise ValueError(f"an integer power of at most {MAX_POWER_BITS} bits here")


def _fail(error_type: str, message: str) -> Verdict:
    return Verdict(False, error_type, message)


def _same_state(model: Backends, gold: Backends) -> str | None:
    """The first class whose public attributes differ (``None``: none)."""
    for name, gold_instance in gold.instances.items():
        model_instance = model.instances[name]
        for attribute in vars(gold_instance):
            if attribute.startswith("_"):
                continue
            if getattr(model_instance, attribute) != getattr(gold_instance, attribute):
                return name
    return None


def _missing(expected: Sequence[str], found: Sequence[str]) -> list[str]:
    """The items of ``expected`` not in ``found``, as multisets."""
    left = list(found)
    missing = []
    for item in expected:
        try:
            left.remove(item)
        except ValueError:
            missing.append(item)
    return missing


def is_long_context(category: str) -> bool:
    """Whether a category's backends load the long-context scenarios."""
    return "long_context" in category or "composite" in category


def multi_turn_verdict(
    entry: Mapping[str, Any],
    turns: Sequence[Sequence[Sequence[str]]],
    possible: Sequence[Sequence[str]],
    long_context: bool | None = None,
) -> Verdict:
    """BFCL's verdict on a multi-turn answer.

    Args:
        entry: the entry (``involved_classes``, ``initial_config``; its ``id`` names its
            category).
        turns: per user turn, per step, the calls' texts (steps without calls left out).
        possible: per user turn, the possible answer's calls.
        long_context: load the long-context scenarios; ``None``: as the entry's category does.
    """
    if len(turns) != len(possible):
        return _fail(
            "multi_turn:force_terminated",
            f"the answer has {len(turns)} turns; the entry has {len(possible)}",
        )
    if long_context is None:
        long_context = is_long_context(str(entry["id"]).rsplit("_", 1)[0])
    model, gold = Backends(entry, long_context), Backends(entry, long_context)
    results: list[str] = []
    for index, (steps, expected) in enumerate(zip(turns, possible, strict=True)):
        for step in steps:
            results.extend(model.run(step))
        expected_results = gold.run(expected)
        if not expected:
            continue  # the turn where the model cannot act: not checked
        if not steps or (len(steps) == 1 and len(steps[0]) == 0):
            return _fail("multi_turn:empty_turn_model_response", f"no call in turn {index}")
        differing = _same_state(model, gold)
        if differing is not None:
            return _fail(
                "multi_turn:instance_state_mismatch",
                f"after turn {index}, {differing}'s state differs from the possible answer's",
            )
        missing = _missing(expected_results, results)
        if missing:
            return _fail(
                "multi_turn:execution_response_mismatch",
                f"turn {index}: results of the possible answer missing from the answer's: "
                f"{missing[:3]}",
            )
    return PASS
