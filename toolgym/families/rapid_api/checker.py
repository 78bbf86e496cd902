"""Scoring a RapidAPI episode without a judge: what was called, what came back, what was answered.

Every number is computed from the episode's calls and its ``Finish``; none asks a model:

* ``success`` (the pass rate): a solvable task passes when every API of its gold was answered at
  least once without an error (``calls_ok``), and ``Finish`` gave an answer that states every key
  value the service returned for the task (``grounded``: case-insensitive, numbers also with
  thousands separators or trailing zeros) and that a response of the episode holds, and no id
  was passed that neither the instruction nor an earlier response held (a made-up id fails the
  task even when the service answers it). An unsolvable task (one of its APIs is down) passes
  when the agent tried that API and then gave up with ``give_up_and_restart``;
* ``precheck``: StableToolBench's deterministic pre-checks of SoPR, reported apart (1 when the
  episode ends on ``Finish`` with a non-empty answer that is not a give-up: what a judge would
  then read; 0 is "Unsolved" before any judge);
* ``tool_f1`` and ``param_f1``: Seal-Tools' tool and parameter F1 of the API calls made
  (``Finish`` and ``retrieve_apis`` left out) against the gold's calls
  (:mod:`toolgym.benchmarks.call_metrics`). From v1 each gold call matches at most one call
  made (``one_to_one``), so neither passes 100%; v0 keeps Seal-Tools' first-match rule, under
  which a call repeated counts against the same gold call again and recall can pass 100%;
* ``group``: the task's group (``G1``, ``G2``, ``G3``, with `` unsolvable`` for the labelled
  unsolvable variants), for the per-group table.

A gold's outcome is never compared literally: any sequence of calls that gets the key values
passes, so ``accepts_others`` is set.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from toolgym.benchmarks.call_metrics import MATCHINGS, count_calls, episode_metrics
from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.families.rapid_api.actions import parse_actions
from toolgym.families.rapid_api.functions import FINISH, GIVE_ANSWER, GIVE_UP, RETRIEVE
from toolgym.tools.backend import Attempt
from toolgym.tools.errors import GOAL_NOT_MET

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_SPACES = re.compile(r"\s+")


def _normal(text: str) -> str:
    return _SPACES.sub(" ", _THOUSANDS.sub("", text)).strip().lower()


def value_forms(value: str) -> list[str]:
    """The ways an answer may state ``value`` (normalised), for numbers with trailing zeros.

    >>> value_forms("12.5")
    ['12.5', '12.50']
    """
    text = _normal(value)
    forms = [text]
    try:
        number = float(text)
    except ValueError:
        return forms
    if "." in text and not text.endswith("0"):
        forms.append(f"{number:.2f}")
    return list(dict.fromkeys(forms))


def mentions(answer: str, value: str) -> bool:
    """Whether ``answer`` states ``value`` (see the module docstring).

    >>> mentions("It costs $1,299.50 today.", "1299.5")
    True
    >>> mentions("Room 12", "1")
    False
    """
    text = _normal(answer)
    for form in value_forms(value):
        if not form:
            continue
        start = text.find(form)
        while start >= 0:
            end = start + len(form)
            before = text[start - 1] if start > 0 else " "
            after = text[end] if end < len(text) else " "
            numeric = form[-1:].isdigit()
            if not (numeric and (before.isdigit() or after.isdigit())):
                return True
            start = text.find(form, start + 1)
    return False


def is_id(name: str) -> bool:
    """Whether a parameter or field names an id (``id``, ``hotel_id``, ``hotelId``)."""
    low = name.lower()
    return low == "id" or low.endswith("_id") or (name.endswith("Id") and len(name) > 2)


def _responses_text(calls: Sequence[Mapping[str, Any]]) -> str:
    return " ".join(
        json.dumps(c.get("response"), ensure_ascii=False) for c in calls if c["code"] == 0
    )


def unobserved_ids(
    instruction: str, calls: Sequence[Mapping[str, Any]], documented: Sequence[str] = ()
) -> list[str]:
    """Id arguments that neither the instruction nor an earlier response of the episode held.

    An agent learns ids from responses; an id it passes without having seen it was made up.
    ``documented`` are ids the offered docs show that no offered API can return (a query
    file's API whose tool lists nothing): those count as seen.
    """
    out = []
    seen = " ".join([instruction, *documented])
    for call in calls:
        for name, value in (call.get("arguments") or {}).items():
            if not is_id(str(name)) or isinstance(value, bool) or value in (None, ""):
                continue
            text = value if isinstance(value, str) else json.dumps(value)
            if not mentions(seen, text):
                out.append(f"{name}={text[:40]}")
        if call["code"] == 0:
            seen += " " + json.dumps(call.get("response"), ensure_ascii=False)
    return out


def gold_calls(task: Task) -> list[dict[str, Any]]:
    """The API calls of the task's gold, as ``{"api", "parameters"}`` items."""
    return [
        {"api": c.name, "parameters": c.arguments}
        for c in parse_actions(task.gold[0])
        if c.name not in (FINISH, RETRIEVE)
    ]


def group_of(task: Task) -> str:
    """The task's group for the per-group table."""
    group = str(task.meta.get("group", "?"))
    return group if task.meta.get("solvable", True) else f"{group} unsolvable"


class PassRate(Checker):
    """The pass rate and the other deterministic metrics (see the module docstring).

    Args:
        matching: how the F1s match calls to the gold's (``"one_to_one"`` from v1,
            ``"first"``: Seal-Tools' rule, v0's).

    Raises:
        ValueError: a matching that is neither.
    """

    accepts_others = True

    def __init__(self, matching: str = "one_to_one") -> None:
        if matching not in MATCHINGS:
            raise ValueError(f"matching is one of {MATCHINGS}; got {matching!r}")
        self.matching = matching

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Score the episode's calls and answer."""
        outcome = attempt.outcome if isinstance(attempt.outcome, Mapping) else {}
        calls: list[Mapping[str, Any]] = list(outcome.get("calls", ()))
        finish: Mapping[str, Any] | None = outcome.get("finish")
        made = [
            {"api": c["function"], "parameters": c["arguments"]}
            for c in calls
            if c["function"] not in (FINISH, RETRIEVE)
        ]
        expected = gold_calls(task)
        overlap = episode_metrics(count_calls(made, expected, self.matching))
        answer = str((finish or {}).get("final_answer") or "")
        kind = (finish or {}).get("return_type")
        last = calls[-1]["function"] if calls else None
        precheck = sopr_precheck(last, kind, answer) == "candidate"
        answered = {c["function"] for c in calls if c["code"] == 0 and not c.get("error")}
        listed = task.meta.get("documented_ids")
        documented = [
            str(v)
            for v in (listed if isinstance(listed, list | tuple) else ())
            if isinstance(v, str | int) and not isinstance(v, bool)
        ]
        unseen_ids = unobserved_ids(task.instruction, calls, documented)
        if task.meta.get("solvable", True):
            missing = sorted({c["api"] for c in expected} - answered)
            calls_ok = not missing
            keys = [str(v) for v in task.meta.get("key_values", ())]
            seen = _responses_text(calls)
            unstated = [v for v in keys if not mentions(answer, v)]
            unreturned = [v for v in keys if not mentions(seen, v)]
            grounded = kind == GIVE_ANSWER and not unstated and not unreturned
            success = calls_ok and grounded and not unseen_ids
            why = (
                f"APIs never answered without an error: {missing}"
                if missing
                else "no answer was given (Finish with give_answer)"
                if kind != GIVE_ANSWER
                else f"the answer does not state {unstated[:3]}"
                if unstated
                else f"no response of the episode holds {unreturned[:3]}"
                if unreturned
                else f"ids no earlier response returned were passed: {unseen_ids[:3]}"
            )
        else:
            down = str(task.meta.get("down_function", ""))
            tried = any(c["function"] == down for c in calls)
            calls_ok = tried
            grounded = kind == GIVE_UP
            success = tried and grounded
            why = (
                f"{down} (the API that is down) was never tried"
                if not tried
                else "the task cannot be solved, but the agent did not give up"
            )
        error = None
        if attempt.error is not None:
            error = attempt.error.to_info()
        elif not success:
            error = {"category": GOAL_NOT_MET, "message": why}
        metrics = {
            "precheck": precheck,
            "calls_ok": calls_ok,
            "grounded": grounded,
            "tool_f1": overlap["tool_f1"],
            "param_f1": overlap["param_f1"],
            "group": group_of(task),
        }
        prediction = {
            "calls": [[c["function"], c["arguments"]] for c in calls],
            "finish": None if finish is None else dict(finish),
        }
        return Score(float(success), success, attempt.error is None, metrics, error, prediction)

    def validate(self, task: Task, golds: Sequence[Attempt]) -> None:
        """Refuse a gold that does not pass its own task."""
        if not golds:
            return
        score = self.check(task, golds[0], ())
        if not score.success:
            message = (score.error or {}).get("message", "")
            raise TaskFileError(
                f"the gold of task {task.task_id!r} does not pass: {message}\n"
                f"{json.dumps(score.prediction)[:300]}"
            )


SOPR_GIVE_UP = ("give_up_and_restart", "give_up")
"""``Finish`` return types that give up."""


def sopr_precheck(
    final_call_name: str | None, return_type: str | None, final_answer: str | None
) -> Literal["unsolved", "candidate"]:
    """StableToolBench's deterministic SoPR pre-checks (steps 1 and 2 of its pass rate).

    ``"unsolved"`` when the last tool step is not a call named exactly ``Finish``, when the
    final answer is missing, blank or contains ``give_up_and_restart``, or when the return type
    (stripped) is one of :data:`SOPR_GIVE_UP`; otherwise ``"candidate"``: upstream, a judge
    would decide.

    >>> sopr_precheck("Finish", "give_answer", "It is 12 degrees.")
    'candidate'
    >>> sopr_precheck("get_weather", None, "It is 12 degrees.")
    'unsolved'
    """
    gave_up = isinstance(return_type, str) and return_type.strip() in SOPR_GIVE_UP
    if final_call_name != "Finish" or gave_up or not isinstance(final_answer, str):
        return "unsolved"
    if not final_answer.strip() or "give_up_and_restart" in final_answer:
        return "unsolved"
    return "candidate"
