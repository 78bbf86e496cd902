"""Scoring a tabletop episode: the template's check on where the objects ended up.

The check needs no gold run (``runs_gold = False``): each task keeps its template and the facts of
its starting scene (``instruction_vars_dict``), and the final positions are read from the scene
the program left. A task without them is matched against the templates by its instruction; one
written in none (an inline task, "my goal") succeeds when every object ends within the threshold
of where its gold program leaves it, and the robot says what the gold says. A program that raised, was refused or ran out of a limit fails (the original's
crash). Besides ``success``, the metrics give the template (for the per-template table) and
``original_success``: the same check with the original's half-plane test for a diagonal line.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.families.tabletop.metrics import BREAKDOWN
from toolgym.families.tabletop.tasks.checks import THRESHOLD, check, original_diagonal
from toolgym.families.tabletop.tasks.templates import BY_ID, OBJECT_FIELDS, match_template
from toolgym.families.tabletop.world.scene import object_positions
from toolgym.tools.backend import Attempt
from toolgym.tools.errors import GOAL_NOT_MET


def task_template(task: Task) -> tuple[str, Mapping[str, Any]] | None:
    """A task's template id and attributes, or ``None`` for a task written in no template.

    The task's meta names them (``template`` or the original's ``tester_id``, and
    ``instruction_vars_dict``), or its instruction is matched against the templates, and the
    facts of its starting scene the check needs are computed.

    Raises:
        TaskFileError: the meta names an unknown template, or has no attributes.
    """
    template = task.meta.get("template", task.meta.get("tester_id"))
    if template is not None:
        variables = task.meta.get("instruction_vars_dict")
        if template not in BY_ID or not isinstance(variables, Mapping):
            raise TaskFileError(
                f"a Tabletop task names its template ('template': one of {', '.join(BY_ID)}) "
                f"and its 'instruction_vars_dict'; task {task.task_id!r} has {template!r}"
            )
        return str(template), variables
    found = match_template(task.instruction)
    if found is None or not task.setup:
        return None
    matched, variables = found
    names = set(object_names(task.setup))
    wanted = [v for k, v in variables.items() if k in OBJECT_FIELDS]
    if not set(wanted) <= names:
        return None
    if matched.facts is not None:
        from toolgym.families.tabletop.toolkit import starting_scene

        variables = matched.facts(variables, object_positions(starting_scene(task.setup)), False)
    return matched.template_id, variables


def object_names(setup: Mapping[str, Any]) -> list[str]:
    """The objects of a scene config."""
    return [*setup.get("block_list", []), *setup.get("bowl_list", [])]


class SceneCheck(Checker):
    """The template's check on the final scene (see the module docstring)."""

    runs_gold = False
    accepts_others = True

    def needs_gold(self, task: Task) -> bool:
        """Only a task written in no template: it is scored against its gold's scene."""
        return task_template(task) is None

    def validate(self, task: Task, golds: Sequence[Attempt]) -> None:
        """The task has a scene, and a template or a gold that ran."""
        if not task.setup:
            raise TaskFileError(f"Tabletop task {task.task_id!r} has no scene setup")
        if task_template(task) is None and not golds:
            raise TaskFileError(
                f"Tabletop task {task.task_id!r} is in no template and has no gold that runs"
            )

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Score the scene the program left."""
        resolved = task_template(task)
        template = resolved[0] if resolved is not None else "gold"
        metrics: dict[str, Any] = {BREAKDOWN: template, "original_success": False}
        if attempt.error is not None or not isinstance(attempt.outcome, dict):
            error = attempt.error.to_info() if attempt.error is not None else None
            return Score(0.0, False, False, metrics, error)
        positions = attempt.outcome["positions"]
        said = attempt.outcome.get("said", ())
        if resolved is None:
            done, why = _like_gold(positions, said, golds)
        else:
            try:
                done, why = check(template, positions, resolved[1], said)
            except (KeyError, ValueError, TypeError) as e:
                raise TaskFileError(
                    f"Tabletop task {task.task_id!r} cannot be checked: {type(e).__name__}: {e}"
                ) from None
        original = done
        if template == "UI_5" and resolved is not None and resolved[1].get("line") == "diagonal":
            original = original_diagonal(positions)
        metrics["original_success"] = original
        error = None if done else {"category": GOAL_NOT_MET, "message": why}
        prediction = {name: [round(v, 4) for v in xyz] for name, xyz in positions.items()}
        return Score(float(done), done, True, metrics, error, prediction)


def _like_gold(
    positions: Mapping[str, Sequence[float]], said: Sequence[str], golds: Sequence[Attempt]
) -> tuple[bool, str]:
    """Whether the scene is the one a gold leaves.

    Every object is within the threshold of where the gold left it, and the same things are said.
    """
    why = "no gold to compare with"
    for gold in golds:
        if not isinstance(gold.outcome, dict):
            continue
        target = gold.outcome["positions"]
        if set(target) != set(positions):
            why = "the scene holds other objects than the gold's"
            continue
        far = [n for n in target if math.dist(positions[n][:2], target[n][:2]) >= THRESHOLD]
        if far:
            why = f"the {far[0]} is not where the gold program leaves it"
            continue
        if list(gold.outcome.get("said", [])) != list(said):
            why = "the robot did not say what the gold program says"
            continue
        return True, ""
    return False, why
