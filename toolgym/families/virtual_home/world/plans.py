"""Running a whole program, and the starting states a plan presupposes.

:func:`run_steps` executes steps in order and stops at the first that fails, as VirtualHome's
executor does. :func:`presupposed_states` reads what a plan takes for granted about the home
(VirtualHome's recorded programs carry such preconditions with them: a plan that starts by
switching a lamp off was written in a home where the lamp was on), and :func:`prepare` makes the
home so before the plan runs. It only looks at the first step that touches an object's state:
switching off presupposes on, closing presupposes open, opening closed, plugging in unplugged
(and the other way round), taking clothes off that they are worn; and the first posture step
says how the character starts: standing up presupposes sitting, waking up or sleeping lying.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from toolgym.families.virtual_home.world.classes import CLASSES, canonical
from toolgym.families.virtual_home.world.executor import execute
from toolgym.families.virtual_home.world.graph import CHARACTER
from toolgym.families.virtual_home.world.household import ActionFailed, Household
from toolgym.families.virtual_home.world.script import Step

_PRESUPPOSES: dict[str, tuple[str, str]] = {
    "SwitchOff": ("ON", "OFF"),
    "SwitchOn": ("OFF", "ON"),
    "Close": ("OPEN", "CLOSED"),
    "Open": ("CLOSED", "OPEN"),
    "PlugIn": ("PLUGGED_OUT", "PLUGGED_IN"),
    "PlugOut": ("PLUGGED_IN", "PLUGGED_OUT"),
}
"""Action → (the state it presupposes, the state it replaces)."""

_POSTURES = {"StandUp": "SITTING", "WakeUp": "LYING", "Sleep": "LYING", "SitOn": "", "LieOn": ""}
"""Posture action → the character's posture it presupposes when it is the plan's first ("": none)."""

CHARACTER_CLASS = "character"
WORN = "WORN"
"""The presupposed state of clothes a plan takes off before it puts them on."""


@dataclass
class RunResult:
    """What running steps did.

    Attributes:
        messages: what each executed step did.
        failed_at: the 0-based index of the step that failed, or ``None``.
        failure: why it failed.
    """

    messages: list[str] = field(default_factory=list)
    failed_at: int | None = None
    failure: ActionFailed | None = None

    @property
    def executed(self) -> int:
        """How many steps ran."""
        return len(self.messages)

    @property
    def ok(self) -> bool:
        """Whether every step ran."""
        return self.failure is None


def run_steps(house: Household, steps: Sequence[Step], bind: bool = True) -> RunResult:
    """Execute ``steps`` in order in ``house``; the first failure stops the run.

    With ``bind`` (a whole program known in advance), class names are first bound to the
    instances that suit the program (:meth:`Household.bind`).
    """
    if bind:
        house.bind([o for step in steps for o in step.objects])
    result = RunResult()
    for k, step in enumerate(steps):
        try:
            result.messages.append(execute(house, step))
        except ActionFailed as e:
            result.failed_at, result.failure = k, e
            break
    return result


def presupposed_states(steps: Sequence[Step]) -> dict[str, str]:
    """``{class: state}`` the plan takes for granted (see the module docstring).

    >>> from toolgym.families.virtual_home.world.script import from_phrase
    >>> presupposed_states([from_phrase("switch off floor lamp"), from_phrase("close fridge")])
    {'floor_lamp': 'ON', 'fridge': 'OPEN'}
    >>> presupposed_states([from_phrase("stand up"), from_phrase("take off shoes")])
    {'character': 'SITTING', 'shoes': 'WORN'}
    """
    found: dict[str, str] = {}
    touched: set[object] = set()
    posture_seen = False
    for step in steps:
        name = step.action.name
        if name in _POSTURES and not posture_seen:
            posture_seen = True
            if _POSTURES[name]:
                found[CHARACTER_CLASS] = _POSTURES[name]
        if not step.objects:
            continue
        obj = step.objects[0]
        if name in ("TakeOff", "PutOn") and ("wear", obj) not in touched:
            touched.add(("wear", obj))
            if name == "TakeOff" and _is_clothes(obj):
                found[obj] = WORN
        rule = _PRESUPPOSES.get(name)
        if rule is not None and obj not in touched:
            found[obj] = rule[0]
        if rule is not None:
            touched.add(obj)
    return found


_OPPOSITE = {
    "ON": "OFF",
    "OFF": "ON",
    "OPEN": "CLOSED",
    "CLOSED": "OPEN",
    "PLUGGED_IN": "PLUGGED_OUT",
    "PLUGGED_OUT": "PLUGGED_IN",
    "DIRTY": "CLEAN",
    "CLEAN": "DIRTY",
}


def prepare(house: Household, states: dict[str, str]) -> None:
    """Put the objects of each class in ``states`` in the given state.

    Names the home lacks are placed first; unknown names are left to fail when the plan names
    them.
    """
    for name, state in states.items():
        try:
            cls = house.class_of(name)
        except ActionFailed:
            continue
        if cls == CHARACTER_CLASS:
            if state in ("SITTING", "LYING"):
                character = house.graph.nodes[CHARACTER]
                character.states.difference_update(("SITTING", "LYING"))
                character.states.add(state)
            continue
        ids = house.graph.of_class(cls) or [house.place(cls)]
        if state == WORN:
            if "CLOTHES" in CLASSES[cls].properties:
                _wear(house, house.resolve(cls))
            continue
        for node_id in ids:
            node = house.graph.nodes[node_id]
            node.states.discard(_OPPOSITE.get(state, ""))
            node.states.add(state)
            if state == "ON":
                node.states.discard("PLUGGED_OUT")
                if "HAS_PLUG" in node.properties:
                    node.states.add("PLUGGED_IN")


def _is_clothes(name: str) -> bool:
    cls = canonical(name)
    return cls is not None and "CLOTHES" in CLASSES[cls].properties


def _wear(house: Household, node_id: int) -> None:
    """Put clothes on the character, from wherever they are, before a plan starts."""
    g = house.graph
    g.remove_from(node_id, ("ON", "INSIDE", "CLOSE"))
    g.remove_to(node_id, ("CLOSE", "ON"))
    g.add_edge(node_id, "ON", CHARACTER)
    g.add_edge(node_id, "INSIDE", house.room)
