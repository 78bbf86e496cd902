"""One household step in three spellings: ToolBench calls, VirtualHome script lines, plan steps.

The mapping is fixed by :data:`~toolgym.families.virtual_home.world.actions.ACTIONS` and works both
ways; an object keeps its class name (snake_case) in calls and script lines, and is written with
spaces in plan steps:

=====================================  ==================================  ===========================
ToolBench call                         VirtualHome script line             language-planner step
=====================================  ==================================  ===========================
``Agent.WalkTo(home_office)``          ``[Walk] <home_office> (1)``        ``Walk to home office``
``Agent.Put(cup, table)``              ``[PutBack] <cup> (1) <table> (1)`` ``Put cup on table``
``Agent.PutBack(cup)``                 ``[PutObjBack] <cup> (1)``          ``Put back cup``
``Agent.TakeOff(shoes)``               ``[PutOff] <shoes> (1)``            ``Take off shoes``
``Agent.StandUp()``                    ``[StandUp]``                       ``Stand up``
=====================================  ==================================  ===========================

Script instance ids (``(1)``) are written as 1 and read but not kept: an object is resolved against
the home when the step runs (the instance held, then one close by, then one in the same room).
A plan step is matched against the templates with ``put on <x>`` (wearing) tried before
``put <x> on <y>``, as the language-planner vocabulary requires.

>>> step = from_phrase("Put dish soap on dishwasher")
>>> to_call(step), to_script(step)
('Agent.Put(dish_soap, dishwasher)', '[PutBack] <dish_soap> (1) <dishwasher> (1)')
>>> to_phrase(from_script("[PutOff] <clothes_jacket> (2)"))
'Take off clothes jacket'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolgym.families.virtual_home.world.actions import ACTIONS, BY_NAME, BY_SCRIPT, ActionTemplate


class ScriptError(ValueError):
    """A line that is not a step in the expected spelling (the message says what was expected)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One action on zero, one or two objects (class names in snake_case)."""

    action: ActionTemplate
    objects: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.objects) != self.action.arity:
            shown = ", ".join(self.objects)
            shown = shown if len(shown) <= 80 else shown[:77] + "..."
            raise ScriptError(
                f"{self.action.qualname} takes {self.action.arity} object(s); "
                f"got {len(self.objects)}: [{shown}]"
            )


def object_name(text: str) -> str:
    """An object as a class name: lower case, spaces and hyphens as ``_``.

    >>> object_name(" Home Office ")
    'home_office'
    """
    return re.sub(r"[\s\-]+", "_", text.strip().lower()).strip("_")


# -- ToolBench calls -----------------------------------------------------------------------------

_CALL = re.compile(r"^\s*Agent\.(\w+)\s*\((.*)\)\s*$")


def to_call(step: Step) -> str:
    """``Agent.<Name>(a, b)``, the canonical spelling (one space after each comma)."""
    return f"{step.action.qualname}({', '.join(step.objects)})"


def from_call(line: str) -> Step:
    """The step of an ``Agent.<Name>(...)`` line (arguments unquoted or quoted).

    Raises:
        ScriptError: not a call of a known action with its number of objects.
    """
    step = _STEPS.get(line)
    if step is None:
        step = _from_call(line)
        if len(line) <= _STEP_LINE_CHARS:
            if len(_STEPS) >= _STEP_LINES:
                _STEPS.clear()
            _STEPS[line] = step
    return step


_STEPS: dict[str, Step] = {}
"""Lines read so far (a program's lines are read when it runs and when it is scored)."""
_STEP_LINES = 4_096
_STEP_LINE_CHARS = 200


def _from_call(line: str) -> Step:
    match = _CALL.match(line)
    if match is None:
        raise ScriptError(f"expected a call like Agent.WalkTo(kitchen); got {line.strip()[:80]!r}")
    name, inside = match.groups()
    action = BY_NAME.get(name)
    if action is None:
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise ScriptError(f"unknown action Agent.{shown}; actions: {', '.join(BY_NAME)}")
    args = (
        [object_name(a.strip().strip("'\"")) for a in inside.split(",")] if inside.strip() else []
    )
    return Step(action, tuple(args))


# -- VirtualHome script lines --------------------------------------------------------------------

_SCRIPT = re.compile(r"^\s*\[(\w+)\]((?:\s*<[^<>]+>\s*\(\s*[\d.]+\s*\))*)\s*$")
_SCRIPT_ARG = re.compile(r"<([^<>]+)>\s*\(\s*([\d.]+)\s*\)")


def to_script(step: Step) -> str:
    """``[Action] <a> (1) <b> (1)``."""
    args = "".join(f" <{o}> (1)" for o in step.objects)
    return f"[{step.action.script}]{args}"


def from_script(line: str) -> Step:
    """The step of a script line (the action's name in any case; instance ids read, not kept).

    Raises:
        ScriptError: not a script line, an unknown action or a wrong number of objects.
    """
    match = _SCRIPT.match(line)
    if match is None:
        raise ScriptError(
            f"expected a script line like [Walk] <kitchen> (1); got {line.strip()[:80]!r}"
        )
    name, rest = match.groups()
    action = BY_SCRIPT.get(name.lower())
    if action is None:
        raise ScriptError(f"unknown script action [{name}]")
    return Step(action, tuple(object_name(o) for o, _ in _SCRIPT_ARG.findall(rest)))


# -- language-planner steps ----------------------------------------------------------------------


def _phrase_pattern(action: ActionTemplate) -> re.Pattern[str]:
    parts = re.split(r"(\{\d\})", action.phrase)
    body = "".join("(.+?)" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(rf"^{body}$".replace("(.+?)$", "(.+)$"))


def _phrase_order() -> tuple[ActionTemplate, ...]:
    # fixed prefixes first ("put on x", "put back x"), then two objects, then the rest
    def key(action: ActionTemplate) -> tuple[int, int]:
        fixed = action.phrase.split("{")[0]
        return (action.arity == 2, -len(fixed))

    return tuple(sorted(ACTIONS, key=key))


_PHRASES = tuple((a, _phrase_pattern(a)) for a in _phrase_order())
_STEP_PREFIX = re.compile(r"^\s*(?:step\s*\d+\s*[:.]|\d+\s*[.:)])\s*", re.IGNORECASE)


def to_phrase(step: Step, spaces: bool = True) -> str:
    """``Put cup on table`` (objects with spaces).

    ``spaces=False`` gives the action-string form of ``available_actions.json``
    (``put cup on table``, lower case, objects in snake_case).
    """
    objects = [o.replace("_", " ") if spaces else o for o in step.objects]
    text = step.action.phrase.format(*objects)
    return text[:1].upper() + text[1:] if spaces else text


def from_phrase(text: str) -> Step:
    """The step of a natural-language step (``Step 3: Put cup on table`` or ``put cup on table``).

    Raises:
        ScriptError: the text matches none of the 40 templates.
    """
    body = _STEP_PREFIX.sub("", text).strip().rstrip(".").lower()
    body = re.sub(r"\s+", " ", body)
    for action, pattern in _PHRASES:
        match = pattern.match(body)
        if match is not None and all(g.strip() for g in match.groups()):
            return Step(action, tuple(object_name(g) for g in match.groups()))
    raise ScriptError(f"a plan step matches none of the 40 action templates: {text.strip()[:80]!r}")


@dataclass(frozen=True)
class Plan:
    """A language-planner plan: its task title and its steps."""

    title: str
    steps: tuple[Step, ...]

    def program(self) -> str:
        """The plan as ``Agent`` calls, one per line."""
        return "\n".join(to_call(s) for s in self.steps)

    def text(self) -> str:
        """The plan in language-planner form (``Task: ...`` then ``Step k: ...``)."""
        lines = [f"Task: {self.title}"]
        lines += [f"Step {k}: {to_phrase(s)}" for k, s in enumerate(self.steps, 1)]
        return "\n".join(lines)


def parse_plan(text: str) -> Plan:
    """A ``Task: <title>\\nStep 1: ...`` plan.

    Raises:
        ScriptError: no ``Task:`` line, or a step that matches no template (naming it).
    """
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines or not lines[0].lower().startswith("task:"):
        raise ScriptError(f"a plan starts with 'Task: <title>'; got {text.strip()[:60]!r}")
    title = lines[0].split(":", 1)[1].strip()
    steps = []
    for k, line in enumerate(lines[1:], 2):
        try:
            steps.append(from_phrase(line))
        except ScriptError as e:
            raise ScriptError(f"line {k} of plan {title!r}: {e}") from None
    return Plan(title, tuple(steps))


def program_steps(program: str) -> list[Step]:
    """The steps of a program of ``Agent`` calls, one per non-empty line.

    Raises:
        ScriptError: a line that is not a call (naming its number).
    """
    steps = []
    for k, line in enumerate(program.splitlines(), 1):
        if line.strip():
            try:
                steps.append(from_call(line))
            except ScriptError as e:
                raise ScriptError(f"line {k}: {e}") from None
    return steps
