"""Scoring a calling list: Seal-Tools' metrics, pooled over a split, and an exact success.

Each episode reports Seal-Tools' counters for its answer (:func:`~toolgym.benchmarks.
call_metrics.count_calls` with its first-match rule, as ``n_instances``, ``n_correct_format``,
``n_gold_api``, ``n_predict_api``, ``n_correct_api``, ``n_gold_param``, ``n_predict_param``,
``n_correct_param``), the one-to-one variant's ``n_correct_api_1to1`` and
``n_correct_param_1to1``, its own values of every metric, and ``kind`` (``single``: one gold
call; ``nested``: a gold argument is a placeholder; ``multiple``: the rest). Summaries pool the
counters, so a split's ``tool_p``, ``tool_r``, ``tool_f1``, ``param_p``, ``param_r`` and
``param_f1`` are Seal-Tools' numbers for the split (F1 pooled as ``2 correct / (predicted +
gold)``, which is ``2PR / (P + R)``), ``format_acc`` the share of answers that parsed, and
``tool_f1_1to1`` and ``param_f1_1to1`` the same F1s with each gold call matched at most once.
A ratio whose denominator is 0 counts 0 (Seal-Tools leaves such a metric out).

``success`` (the reward) holds when the answer is the gold calling list:

1. it parses, and every item is a call: an object with a string ``api``, an object
   ``parameters`` and a list of strings ``responses``;
2. its placeholders are numbered as Seal-Tools numbers them: the calls' ``responses`` are
   ``API_call_0``, ``API_call_1``, ... in call order (waived for a gold that is not numbered
   so itself);
3. with every placeholder in an argument replaced by the call and response field it names
   (:func:`~toolgym.benchmarks.call_metrics.resolve_references`), the calls and the gold calls
   pair up one to one, in any order: the same API, as many response placeholders, the same
   parameter names (none missing, none extra) and equal values, by ``str()`` as Seal-Tools
   compares them (``16.7`` and ``"16.7"`` are equal, ``"16.70"`` is not);
4. nothing stopped it (a service fault fails the answer, though its text is still counted).

An answer with no parameters matches a gold call with none. The error is ``non_executable``
(no calling list), ``wrong_api`` (other APIs than the gold's) or ``wrong_arguments``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgym.benchmarks.call_metrics import (
    count_calls,
    episode_metrics,
    parse_calling_list,
    resolve_references,
    scores,
)
from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.envs.gold_cache import LRUCache
from toolgym.errors import TaskFileError
from toolgym.families.seal_tools.calls import is_call, is_numbered
from toolgym.families.seal_tools.metrics import BREAKDOWN
from toolgym.families.seal_tools.world import is_reference
from toolgym.tools.backend import Attempt
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_API, WRONG_ARGUMENTS

KINDS = ("single", "multiple", "nested")
"""The kinds of task: one call, independent calls, calls that take earlier responses."""


def gold_calls(text: str) -> list[Any] | None:
    """The calling list of a gold text: JSON as stored, else read as an answer would be."""
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    return parsed if isinstance(parsed, list) else parse_calling_list(text)


def kind_of(calls: Sequence[Mapping[str, Any]]) -> str:
    """``nested`` when an argument is a placeholder, ``single`` for one call, else ``multiple``."""
    params = (c.get("parameters") for c in calls)
    if any(is_reference(v) for p in params if isinstance(p, Mapping) for v in p.values()):
        return "nested"
    return "single" if len(calls) == 1 else "multiple"


def _text(value: Any) -> str | None:
    try:
        return str(value)
    except Exception:  # a value whose str() fails equals nothing
        return None


def _keys(calls: Sequence[Mapping[str, Any]]) -> Counter[tuple[Any, ...]]:
    """Each resolved call as (api, placeholder count, sorted (name, str(value)) pairs)."""
    resolved = resolve_references(calls)
    return Counter(
        (
            call["api"],
            len(original["responses"]),
            tuple(sorted((str(n), _text(v)) for n, v in call["parameters"].items())),
        )
        for call, original in zip(resolved, calls, strict=True)
    )


def exact_match(
    predicted: Sequence[Any],
    gold: Sequence[Mapping[str, Any]],
    gold_keys: Counter[tuple[Any, ...]] | None = None,
) -> tuple[str, str]:
    """``("", "")`` when the answer is the gold calling list, else (category, why).

    See the module docstring for the rule (the parsed answer; nothing stopped it).
    ``gold_keys``, the gold's resolved calls as ``_keys`` reads them, saves reading them again.
    """
    if not all(is_call(item) for item in predicted):
        bad = next(k for k, item in enumerate(predicted) if not is_call(item))
        return WRONG_ARGUMENTS, (
            f"item {bad} of the answer is not a call (an object with a string api, an object "
            "parameters and a list of strings responses)"
        )
    if Counter(c["api"] for c in predicted) != Counter(c["api"] for c in gold):
        apis = ", ".join(c["api"][:60] for c in predicted[:6]) or "nothing"
        return WRONG_API, f"the answer calls {apis}: not the APIs the task needs"
    if not is_numbered(predicted) and is_numbered(gold):
        return WRONG_ARGUMENTS, (
            "the responses are not numbered API_call_0, API_call_1, ... across the calls in order"
        )
    if _keys(predicted) != (_keys(gold) if gold_keys is None else gold_keys):
        return WRONG_ARGUMENTS, (
            "the right APIs, but other arguments or response counts than the task needs"
        )
    return "", ""


class CallingListCheck(Checker):
    """Seal-Tools' counters and the exact success of an answer (see the module docstring)."""

    runs_gold = False

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Score the calling list the answer holds against the task's gold."""
        known = _gold_of(task)
        gold = known.calls
        outcome = attempt.outcome
        predicted = outcome if isinstance(outcome, list) else None
        first = count_calls(predicted, gold, "first")
        one = count_calls(predicted, gold, "one_to_one")
        one_scores = scores(one)
        metrics: dict[str, Any] = {
            **episode_metrics(first),
            "tool_f1_1to1": one_scores["tool_f1"] or 0.0,
            "param_f1_1to1": one_scores["param_f1"] or 0.0,
            "n_correct_api_1to1": one.correct_api,
            "n_correct_param_1to1": one.correct_param,
            BREAKDOWN: known.kind,
        }
        error: dict[str, str] | None = None
        if attempt.error is not None:
            error = attempt.error.to_info()
        elif predicted is None:
            error = {
                "category": NON_EXECUTABLE,
                "message": "no API-calling list was read from the answer",
            }
        else:
            category, why = exact_match(predicted, gold, known.keys)
            if category:
                error = {"category": category, "message": why}
        success = error is None
        executable = predicted is not None and attempt.error is None
        return Score(float(success), success, executable, metrics, error, predicted)

    def validate(self, task: Task, golds: Sequence[Attempt]) -> None:
        """Refuse a gold that is not a calling list of well-formed calls."""
        _gold_of(task)


@dataclass(frozen=True)
class _Gold:
    """What a check reads from a task's gold alone: its calls, kind and resolved calls' keys."""

    calls: list[Mapping[str, Any]]
    kind: str
    keys: Counter[tuple[Any, ...]]


_GOLDS: LRUCache[_Gold] = LRUCache(4_096)
"""Golds read so far, by their text: every step of a task reads the same (nothing changes them)."""


def _gold_of(task: Task) -> _Gold:
    """The task's gold calls, kind and keys, read once per gold text.

    Raises:
        TaskFileError: as :func:`_checked_gold`.
    """
    text = task.gold[0] if task.gold else None
    known = _GOLDS.get(text) if isinstance(text, str) else None
    if known is None:
        calls = _checked_gold(task)
        known = _Gold(calls, kind_of(calls), _keys(calls))
        if isinstance(text, str):
            _GOLDS.put(text, known)
    return known


def _checked_gold(task: Task) -> list[Mapping[str, Any]]:
    """The task's gold calls.

    Raises:
        TaskFileError: a gold that is not a list of calls (``api``, ``parameters``,
            ``responses``).
    """
    calls = gold_calls(task.gold[0]) if task.gold else None
    if calls is None:
        raise TaskFileError(f"the gold of task {task.task_id!r} is not an API-calling list")
    for k, call in enumerate(calls):
        if not is_call(call):
            raise TaskFileError(
                f"call {k} of the gold of task {task.task_id!r} must be an object with a string "
                f"api, an object parameters and a list of strings responses; got {call!r:.200}"
            )
    return calls
