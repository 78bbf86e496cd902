"""Scoring a household program four ways: the original two, and two from running it.

* ``executable``: the original's lexical executability (every line a known action with allowed
  objects; :mod:`.grounding`);
* ``lcs``: the original's line LCS against the closest gold program (the reward);
* ``strict_executable``: every line ran, all preconditions holding, in the task's home;
* ``goal``: the activity's end conditions hold in the final state.

``success`` is strict executability and the goal together. A task without end conditions (one
read from a file) counts its goal as reached when the program matches a gold program line for
line (LCS 1). The LCS is kept for programs that stop early or do not ground, as the original
keeps it. A program that a service fault (see :class:`toolgym.wrappers.FaultInjection`) stopped
scores 0: it did not run to its end, and its text says nothing about how it would have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.envs.gold_cache import LRUCache
from toolgym.errors import TaskFileError
from toolgym.families.virtual_home.language import program_lines
from toolgym.families.virtual_home.objects import valid_object_lists
from toolgym.families.virtual_home.tasks.grounding import best_lcs, ground
from toolgym.families.virtual_home.world import ScriptError, from_call
from toolgym.families.virtual_home.world.conditions import describe, problem, unmet
from toolgym.tools.backend import Attempt
from toolgym.tools.errors import GOAL_NOT_MET
from toolgym.tools.faults import SERVICE_ERROR

_LABELS: LRUCache[list[list[str]]] = LRUCache(4_096)
"""The gold programs' grounded lines, by the golds' texts (the same at every check of a task)."""


def _labels(
    gold: Sequence[str], lists: Mapping[str, Mapping[str, Sequence[str]]]
) -> list[list[str]]:
    """The grounded lines of each gold program (kept for the default lists; do not change them)."""
    key = tuple(gold)
    kept = _LABELS.get(key) if lists is valid_object_lists() else None
    if kept is None:
        kept = [ground(g, lists).lines for g in gold]
        if lists is valid_object_lists():
            _LABELS.put(key, kept)
    return kept


_VALID_GOLDS: LRUCache[bool] = LRUCache(4_096)
"""Gold program texts whose lines all read as actions (checked at every reset otherwise)."""


class HouseholdCheck(Checker):
    """The four scores of a household program (see the module docstring)."""

    runs_gold = False

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Score the lines the agent wrote and the state they left."""
        lists = valid_object_lists()
        text = attempt.text if isinstance(attempt.outcome, dict) else ""
        grounding = ground(text, lists)
        labels = _labels(task.gold, lists)
        lcs, closest = best_lcs(grounding.lines, labels)
        if attempt.error is not None and attempt.error.category == SERVICE_ERROR:
            lcs = 0.0  # the service failed it: the program did not run to its end
        outcome: dict[str, Any] = attempt.outcome if isinstance(attempt.outcome, dict) else {}
        strict = bool(outcome.get("strict_executable")) and attempt.error is None
        conditions = task.meta.get("conditions")
        missing: list[Any] = []
        if conditions:
            house = getattr(attempt.backend, "house", None)
            missing = list(conditions) if house is None else unmet(house, conditions)
            goal = not missing
        else:
            goal = lcs == 1.0
        success = strict and goal
        metrics = {
            "lcs": lcs,
            "strict_executable": strict,
            "goal": goal,
            "closest_label": closest,
            "non_executable_lines": list(grounding.non_executable),
        }
        error = None
        if attempt.error is not None:
            error = attempt.error.to_info()
        elif not goal:
            unmet_text = (
                "; ".join(describe(c) for c in missing[:5]) or "it differs from every gold program"
            )
            error = {"category": GOAL_NOT_MET, "message": f"the task is not done: {unmet_text}"}
        return Score(lcs, success, grounding.executable, metrics, error, grounding.lines)

    def validate(self, task: Task, golds: Sequence[Attempt]) -> None:
        """Refuse a gold that is not lines of known actions, or malformed end conditions.

        Objects outside the allowed lists are fine in a gold: the lists are toolgym's own.
        """
        for gold in task.gold:
            if _VALID_GOLDS.get(gold):
                continue
            lines = [line for line in program_lines(gold) if line]
            if not lines:
                raise TaskFileError(f"a gold program of task {task.task_id!r} has no line")
            for line in lines:
                try:
                    from_call(line)
                except ScriptError as e:
                    raise TaskFileError(f"a gold program of task {task.task_id!r}: {e}") from None
            _VALID_GOLDS.put(gold, True)
        conditions = task.meta.get("conditions")
        if conditions is not None and not isinstance(conditions, list):
            raise TaskFileError(f"task {task.task_id!r}: 'conditions' must be a list")
        for condition in conditions or ():
            why = problem(condition)
            if why is not None:
                raise TaskFileError(f"task {task.task_id!r}: {why}")
