"""Seal-Tools' metrics over predicted and gold function-call lists, plus a one-to-one variant.

A call is ``{"api": name, "parameters": {name: value}, "responses": ["API_call_0", ...]}``; a
*calling list* is a list of calls, one instance's answer.

**Parsing** (:func:`parse_calling_list`, as Seal-Tools parses a model's output): replace every
``'`` with ``"``, drop every ``\\n``, find the first ``[ { "api"`` (whitespace allowed between
the three tokens), take the span from that ``[`` to the bracket that balances it (every ``[`` and
``]`` counts, even inside strings), require the substrings ``api``, ``parameters`` and
``responses`` in it, and parse it as JSON. Any failure makes the output unparsable (``None``).
On top of Seal-Tools, text longer than :data:`MAX_TEXT_CHARS` and JSON nested deeper than
:data:`MAX_DEPTH` are unparsable, and nothing raises.

**Counting** (:func:`count_calls`, one instance; :class:`CallCounts` add up over a split). Always:
``instances += 1``, ``gold_api += len(gold)``, ``gold_param +=`` the gold calls' parameter
counts. An unparsable prediction (``None``) adds nothing else: it hurts recall, not precision.
A parsed one adds ``correct_format += 1``, and every predicted item that is an object with the
key ``"api"`` adds ``predict_api += 1`` and ``predict_param += len(parameters)`` (0 when its
``parameters`` is missing or not an object); other items are ignored. Then:

* ``matching="first"`` (Seal-Tools verbatim): each counted item is compared with the FIRST gold
  call of the same api, if any: ``correct_api += 1``, and ``correct_param += 1`` for each of its
  parameters whose name is in that gold call's parameters with ``str(value) == str(gold)``. No
  one-to-one assignment: a duplicated predicted call matches the same gold call again and counts
  twice, and when the gold calls an api twice every prediction is compared with the first.
* ``matching="one_to_one"`` (stricter): per api, each gold call is matched to at most one
  predicted call and vice versa. Among the assignments matching as many calls as possible
  (``min(#predicted, #gold)`` for that api), the one with the most correct parameters is chosen;
  ties go to the predicted calls in order, each taking the earliest gold call that still allows
  an optimum. The search is exact when an api has at most :data:`EXACT_GOLD_LIMIT` gold and
  :data:`EXACT_PREDICTED_LIMIT` predicted calls; beyond, pairs are taken greedily by (most
  correct parameters, predicted position, gold position). A matched pair adds
  ``correct_api += 1`` and its correct parameters; an unmatched prediction adds to
  ``predict_*`` only.

Caveats kept from Seal-Tools (both variants): the order of calls is ignored; nested placeholders
(``"API_call_1"``) are compared as literal strings, so the numbering convention matters (see
``resolve`` below); ``responses`` are not scored; values compare by ``str()``, so ``16.7`` and
``"16.7"`` are equal but ``"16.70"`` is not (a value whose ``str()`` fails equals nothing).

**References.** Seal-Tools numbers one placeholder per response field of each call's tool, across
the instance in call order (``API_call_0``, ``API_call_1``, ...), and a nested call passes a
placeholder as a parameter value. ``count_calls(..., resolve=True)`` first rewrites both lists
with :func:`resolve_references`, so that a reference compares by what it points at (the
producing call's api and field) and a prediction that numbers its placeholders differently but
wires the same outputs still matches.

**Scores** (:func:`scores`): ``format_acc = correct_format / instances``, ``tool_p =
correct_api / predict_api``, ``tool_r = correct_api / gold_api``, ``param_p`` and ``param_r``
likewise, F1 = 2PR/(P+R). Seal-Tools reports a metric only when its numerator and denominators
are > 0. Here a ratio whose denominator is 0 is ``None``; one whose numerator is 0 is ``0.0``; an
F1 is ``None`` when P or R is, ``0.0`` when P + R is 0. Wherever Seal-Tools reports a value, the
values agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from toolgym.tools.calling_list import (  # the parser, re-exported with the metrics
    MAX_DEPTH as MAX_DEPTH,
)
from toolgym.tools.calling_list import (
    MAX_TEXT_CHARS as MAX_TEXT_CHARS,
)
from toolgym.tools.calling_list import (
    parse_calling_list as parse_calling_list,
)

EXACT_GOLD_LIMIT = 8  # one-to-one is exact up to this many gold calls of an api...
EXACT_PREDICTED_LIMIT = 64  # ...and this many predicted ones; beyond, greedy
MATCHINGS = ("first", "one_to_one")  # the values of count_calls' `matching`

_REFERENCE = re.compile(r"API_call_\d+")
_Call = tuple[Any, Mapping[Any, Any]]  # (api, parameters)


@dataclass(frozen=True, slots=True)
class CallCounts:
    """Seal-Tools' counters over one instance or a split (add them up with ``+`` or ``sum``).

    Attributes:
        instances: instances counted.
        correct_format: instances whose prediction parsed.
        gold_api: gold calls.
        predict_api: predicted calls (items with the key ``"api"``).
        correct_api: predicted calls matched to a gold call of the same api.
        gold_param: parameters of the gold calls.
        predict_param: parameters of the predicted calls.
        correct_param: parameters of matched calls equal (by ``str``) to the gold's.
    """

    instances: int = 0
    correct_format: int = 0
    gold_api: int = 0
    predict_api: int = 0
    correct_api: int = 0
    gold_param: int = 0
    predict_param: int = 0
    correct_param: int = 0

    def __add__(self, other: object) -> CallCounts:
        if not isinstance(other, CallCounts):
            return NotImplemented
        return CallCounts(
            *(getattr(self, f.name) + getattr(other, f.name) for f in fields(CallCounts))
        )

    def __radd__(self, other: object) -> CallCounts:
        if other == 0:  # sum() without a start value starts from 0
            return self
        return NotImplemented

    @classmethod
    def total(cls, counts: Iterable[CallCounts]) -> CallCounts:
        """The sum of ``counts`` (all zero for none)."""
        result = cls()
        for item in counts:
            result += item
        return result


def count_calls(
    predicted: Sequence[Any] | None,
    gold: Sequence[Mapping[str, Any]],
    matching: str = "first",
    *,
    resolve: bool = False,
    response_fields: Callable[[str], Sequence[str] | None] | None = None,
) -> CallCounts:
    """Seal-Tools' counters for one instance (see the module docstring).

    Args:
        predicted: the parsed prediction (:func:`parse_calling_list`), ``None`` if unparsable.
        gold: the gold calls (objects with a string ``"api"`` and an object ``"parameters"``).
        matching: ``"first"`` (Seal-Tools) or ``"one_to_one"``.
        resolve: compare references by what they point at (:func:`resolve_references`), not as
            literal placeholders.
        response_fields: with ``resolve``, the response fields of a tool (see
            :func:`resolve_references`).

    Returns:
        The counters, with ``instances == 1``.

    Raises:
        ValueError: for an unknown ``matching`` or a malformed gold call.
        TypeError: when ``predicted`` is neither ``None`` nor a list.
    """
    if matching not in MATCHINGS:
        raise ValueError(f"matching must be one of {MATCHINGS}, got {matching!r}")
    gold_calls = [_gold_call(call, i) for i, call in enumerate(gold)]
    gold_param = sum(len(params) for _, params in gold_calls)
    base = CallCounts(instances=1, gold_api=len(gold_calls), gold_param=gold_param)
    if predicted is None:
        return base
    if isinstance(predicted, str | bytes) or not isinstance(predicted, Sequence):
        raise TypeError(
            f"predicted must be a list of calls or None, got {type(predicted).__name__}"
        )
    if resolve:
        predicted = resolve_references(predicted, response_fields)
        gold_calls = [(c["api"], _params(c)) for c in resolve_references(gold, response_fields)]
    calls = [(item["api"], _params(item)) for item in predicted if _is_call(item)]
    predict_param = sum(len(params) for _, params in calls)
    match = _first_match if matching == "first" else _one_to_one
    correct_api, correct_param = match(calls, gold_calls)
    # (instances, correct_format, gold_api, predict_api, correct_api, gold_param, predict_param, ...)
    return base + CallCounts(0, 1, 0, len(calls), correct_api, 0, predict_param, correct_param)


def _gold_call(call: Any, index: int) -> tuple[str, Mapping[Any, Any]]:
    """``(api, parameters)`` of a gold call, checked."""
    if not isinstance(call, Mapping) or not isinstance(call.get("api"), str):
        raise ValueError(
            f"gold call {index} must be an object with a string 'api', got {call!r:.200}"
        )
    params = call.get("parameters", {})
    if not isinstance(params, Mapping):
        raise ValueError(
            f"gold call {index} ({call['api']}) must have object 'parameters', "
            f"got {type(params).__name__}"
        )
    return call["api"], params


def _is_call(item: Any) -> bool:
    """Whether a predicted item counts: an object with the key ``"api"``."""
    return isinstance(item, Mapping) and "api" in item


def _params(call: Mapping[str, Any]) -> Mapping[Any, Any]:
    """A call's parameters, empty when missing or not an object."""
    params = call.get("parameters")
    return params if isinstance(params, Mapping) else {}


def _text(value: Any) -> str | None:
    """``str(value)``, ``None`` when it fails (huge integers, deep nesting)."""
    try:
        return str(value)
    except Exception:
        return None


def _correct(params: Mapping[Any, Any], gold: Mapping[Any, Any]) -> int:
    """How many of ``params`` are in ``gold`` with the same ``str()``."""
    correct = 0
    for name, value in params.items():
        if name in gold:
            text = _text(value)
            correct += text is not None and text == _text(gold[name])
    return correct


def _first_match(calls: Sequence[_Call], gold: Sequence[_Call]) -> tuple[int, int]:
    """(correct_api, correct_param) with Seal-Tools' rule: the first gold call of the api."""
    first: dict[str, Mapping[Any, Any]] = {}
    for api, params in gold:
        first.setdefault(api, params)
    correct_api = correct_param = 0
    for api, params in calls:
        if isinstance(api, str) and api in first:
            correct_api += 1
            correct_param += _correct(params, first[api])
    return correct_api, correct_param


def _one_to_one(calls: Sequence[_Call], gold: Sequence[_Call]) -> tuple[int, int]:
    """(correct_api, correct_param) with each gold call matched at most once."""
    by_api: dict[str, tuple[list[Mapping[Any, Any]], list[Mapping[Any, Any]]]] = {}
    for api, params in gold:
        by_api.setdefault(api, ([], []))[1].append(params)
    for api, params in calls:
        if isinstance(api, str) and api in by_api:
            by_api[api][0].append(params)
    correct_api = correct_param = 0
    for predicted, golds in by_api.values():
        if not predicted:
            continue
        score = [[_correct(p, g) for g in golds] for p in predicted]
        pairs = _assign(score)
        correct_api += len(pairs)
        correct_param += sum(score[i][j] for i, j in pairs)
    return correct_api, correct_param


def _assign(score: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """Pairs (predicted, gold) of a maximum matching with the most points (module docstring)."""
    n, m = len(score), len(score[0]) if score else 0
    if m > EXACT_GOLD_LIMIT or n > EXACT_PREDICTED_LIMIT:
        order = sorted((-score[i][j], i, j) for i in range(n) for j in range(m))
        used_p, used_g, pairs = set[int](), set[int](), list[tuple[int, int]]()
        for _, i, j in order:
            if i not in used_p and j not in used_g:
                used_p.add(i)
                used_g.add(j)
                pairs.append((i, j))
        return sorted(pairs)
    # best[i][mask]: (matches, points) reachable from predicted call i with gold calls `mask` used
    full = 1 << m
    best = [[(0, 0)] * full for _ in range(n + 1)]
    for i in reversed(range(n)):
        row, after = best[i], best[i + 1]
        for mask in range(full):
            top = after[mask]
            for j in range(m):
                if not mask >> j & 1:
                    matches, points = after[mask | 1 << j]
                    top = max(top, (matches + 1, points + score[i][j]))
            row[mask] = top
    pairs, mask = [], 0
    for i in range(n):
        for j in range(m):
            if not mask >> j & 1:
                matches, points = best[i + 1][mask | 1 << j]
                if (matches + 1, points + score[i][j]) == best[i][mask]:
                    pairs.append((i, j))
                    mask |= 1 << j
                    break
    return pairs


def is_reference(value: Any) -> bool:
    """Whether ``value`` is a placeholder: exactly ``API_call_<n>`` once stripped.

    >>> is_reference(" API_call_1 "), is_reference("API_call_0 response"), is_reference(1)
    (True, False, False)
    """
    return isinstance(value, str) and _REFERENCE.fullmatch(value.strip()) is not None


def contains_reference(value: Any) -> bool:
    """Whether ``value`` is a string containing ``API_call_<n>`` (references included).

    >>> contains_reference("API_call_0 response"), contains_reference("the 1st call")
    (True, False)
    """
    return isinstance(value, str) and _REFERENCE.search(value) is not None


def resolve_references(
    calls: Sequence[Any], response_fields: Callable[[str], Sequence[str] | None] | None = None
) -> list[Any]:
    """The calls with references replaced by what they point at.

    Each call (an object with ``"api"``; other items are kept as they are) produces one output
    per response field. The placeholder naming its ``j``-th output is the ``j``-th string of
    its own ``responses`` list when that holds a placeholder; any other call falls back on
    Seal-Tools' global numbering (one ``API_call_<k>`` per response field, counted across the
    calls in order), which needs ``response_fields``. A placeholder declared by several calls
    names the first one's output.

    In the result, each call's ``responses`` is Seal-Tools' global numbering, and in every
    string parameter value each known placeholder (a whole value, whitespace-stripped, or a
    part of one such as ``"API_call_0 response"``) becomes ``"<api>.<field>"``: the producing
    call's api and the field's name from ``response_fields``, or its index. Unknown
    placeholders and non-string values stay as they are. The input is not modified.

    Args:
        calls: a calling list (gold, or a parsed prediction).
        response_fields: the names of a tool's response fields, in order, or ``None`` for an
            unknown tool; without it the number of fields is the length of the call's
            ``responses`` and fields are named by index.

    Returns:
        The rewritten list.

    >>> resolve_references([
    ...     {"api": "a", "parameters": {}, "responses": ["API_call_7"]},
    ...     {"api": "b", "parameters": {"x": "API_call_7"}, "responses": []},
    ... ])[1]["parameters"]
    {'x': '<a>.<0>'}
    """
    producers: dict[str, str] = {}
    numbering: list[list[str] | None] = []
    counter = 0
    for call in calls:
        if not _is_call(call):
            numbering.append(None)
            continue
        api = call["api"]
        names = (
            response_fields(api) if response_fields is not None and isinstance(api, str) else None
        )
        declared = call.get("responses")
        declared = list(declared) if isinstance(declared, list) else []
        count = len(names) if names is not None else len(declared)
        own = [f"API_call_{counter + j}" for j in range(count)]
        counter += count
        numbering.append(own)
        label = api if isinstance(api, str) else _text(api)
        for j, placeholder in enumerate(declared if any(map(is_reference, declared)) else own):
            if is_reference(placeholder):
                field = names[j] if names is not None and j < len(names) else str(j)
                producers.setdefault(placeholder.strip(), f"<{label}>.<{field}>")

    def rewrite(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        if is_reference(value) and value.strip() in producers:
            return producers[value.strip()]
        return _REFERENCE.sub(lambda m: producers.get(m.group(), m.group()), value)

    result: list[Any] = []
    for call, numbers in zip(calls, numbering, strict=True):
        if numbers is None:
            result.append(call)
            continue
        rewritten = dict(call)
        rewritten["responses"] = numbers
        if isinstance(call.get("parameters"), Mapping):
            rewritten["parameters"] = {k: rewrite(v) for k, v in call["parameters"].items()}
        result.append(rewritten)
    return result


def _ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator > 0 else None


def _f1(precision: float | None, recall: float | None) -> float | None:
    if precision is None or recall is None:
        return None
    total = precision + recall
    return 2 * precision * recall / total if total > 0 else 0.0


def scores(counts: CallCounts) -> dict[str, float | None]:
    """Format accuracy and tool/parameter P, R, F1 (``None`` where undefined; module docstring).

    >>> scores(CallCounts(2, 1, 4, 2, 2, 8, 4, 3))["param_f1"]
    0.5
    """
    result: dict[str, float | None] = {
        "format_acc": _ratio(counts.correct_format, counts.instances)
    }
    for name, kind in (("tool", "api"), ("param", "param")):
        correct = getattr(counts, f"correct_{kind}")
        precision = _ratio(correct, getattr(counts, f"predict_{kind}"))
        recall = _ratio(correct, getattr(counts, f"gold_{kind}"))
        result |= {
            f"{name}_p": precision,
            f"{name}_r": recall,
            f"{name}_f1": _f1(precision, recall),
        }
    return result


def episode_metrics(counts: CallCounts) -> dict[str, float]:
    """One instance's metrics for ``info["metrics"]``.

    :func:`scores` with 0.0 for ``None``, then the counters: ``n_instances``,
    ``n_correct_format``, ``n_gold_api``, ``n_predict_api``, ... (ints).

    >>> episode_metrics(CallCounts(1, 0, 2, 0, 0, 3, 0, 0))["tool_r"]
    0.0
    """
    metrics: dict[str, float] = {k: v or 0.0 for k, v in scores(counts).items()}
    metrics.update({f"n_{f.name}": getattr(counts, f.name) for f in fields(CallCounts)})
    return metrics
