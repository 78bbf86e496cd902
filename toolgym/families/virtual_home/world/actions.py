"""The 40 household action templates, and their three spellings.

Every action has one entry in :data:`ACTIONS`, which holds the three ways the same step is written:

* the ToolBench call, ``Agent.Put(cup, table)``;
* the VirtualHome script line, ``[PutBack] <cup> (1) <table> (1)``;
* the language-planner step, ``Put cup on table`` (a plan is ``Task: ...`` then ``Step k: ...``).

:mod:`toolgym.families.virtual_home.world.script` converts between them, both ways. The table follows
the template list of the benchmark (natural-language template, script action and its arity,
ToolBench function); the names marked "inferred" there (``SwitchOff``, ``PlugIn``, ``PlugOut``,
``Eat``, ``Cut``, ``Touch``, ``Greet``, ``Pour``, ``Drop``, ``Sleep``, ``WakeUp``) follow the same
naming pattern.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ActionTemplate:
    """One action.

    Attributes:
        name: the ToolBench function name (``Agent.<name>``).
        script: the VirtualHome script action (``[<script>]``).
        phrase: the natural-language template; ``{0}`` and ``{1}`` stand for the objects.
        arity: how many objects it takes (0, 1 or 2).
        description: the one-line doc agents read (``# <description> ...``).
    """

    name: str
    script: str
    phrase: str
    arity: int
    description: str

    @property
    def qualname(self) -> str:
        """``Agent.<name>``."""
        return f"Agent.{self.name}"

    @property
    def params(self) -> tuple[str, ...]:
        """The parameter names of the call: ``()``, ``("object",)`` or ``("object1", "object2")``."""
        return {0: (), 1: ("object",), 2: ("object1", "object2")}[self.arity]


def _a(name: str, script: str, phrase: str, description: str) -> ActionTemplate:
    return ActionTemplate(name, script, phrase, phrase.count("{"), description)


ACTIONS: tuple[ActionTemplate, ...] = (
    _a("WalkTo", "Walk", "walk to {0}", "Walk to a room or an object."),
    _a("RunTo", "Run", "run to {0}", "Run to a room or an object."),
    _a("Find", "Find", "find {0}", "Find an object and go close to it."),
    _a("Grab", "Grab", "grab {0}", "Take an object in a free hand."),
    _a("Open", "Open", "open {0}", "Open an object."),
    _a("Close", "Close", "close {0}", "Close an object."),
    _a("Put", "PutBack", "put {0} on {1}", "Put an object you hold on another object."),
    _a("PutIn", "PutIn", "put {0} in {1}", "Put an object you hold inside another object."),
    _a("PutBack", "PutObjBack", "put back {0}", "Put an object back where you took it from."),
    _a("PutOn", "PutOn", "put on {0}", "Put on a piece of clothing you hold."),
    _a("TakeOff", "PutOff", "take off {0}", "Take off a piece of clothing you wear."),
    _a("SwitchOn", "SwitchOn", "switch on {0}", "Switch an object on."),
    _a("SwitchOff", "SwitchOff", "switch off {0}", "Switch an object off."),
    _a("PlugIn", "PlugIn", "plug in {0}", "Plug an object in."),
    _a("PlugOut", "PlugOut", "plug out {0}", "Unplug an object."),
    _a("Drink", "Drink", "drink {0}", "Drink from an object you hold."),
    _a("Eat", "Eat", "eat {0}", "Eat an object."),
    _a("Cut", "Cut", "cut {0}", "Cut an object with a knife you hold."),
    _a("LookAt", "LookAt", "look at {0}", "Look at an object you face."),
    _a("PointAt", "PointAt", "point at {0}", "Point at an object you face."),
    _a("TurnTo", "TurnTo", "turn to {0}", "Turn to face an object."),
    _a("Watch", "Watch", "watch {0}", "Watch an object."),
    _a("Touch", "Touch", "touch {0}", "Touch an object."),
    _a("Read", "Read", "read {0}", "Read an object you hold."),
    _a("Greet", "Greet", "greet {0}", "Greet a person."),
    _a("Pour", "Pour", "pour {0} into {1}", "Pour an object you hold into another object."),
    _a("Push", "Push", "push {0}", "Push an object."),
    _a("Pull", "Pull", "pull {0}", "Pull an object."),
    _a("Wash", "Wash", "wash {0}", "Wash an object."),
    _a("Rinse", "Rinse", "rinse {0}", "Rinse an object."),
    _a("Scrub", "Scrub", "scrub {0}", "Scrub an object."),
    _a("Wipe", "Wipe", "wipe {0}", "Wipe an object with something you hold."),
    _a("Squeeze", "Squeeze", "squeeze {0}", "Squeeze an object."),
    _a("Drop", "Drop", "drop {0}", "Let go of an object you hold."),
    _a("SitOn", "Sit", "sit on {0}", "Sit on an object."),
    _a("LieOn", "Lie", "lie on {0}", "Lie on an object."),
    _a("TypeOn", "Type", "type on {0}", "Type on an object."),
    _a("Sleep", "Sleep", "sleep", "Sleep."),
    _a("StandUp", "StandUp", "stand up", "Stand up."),
    _a("WakeUp", "WakeUp", "wake up", "Wake up."),
)
"""The 40 actions, in the order of the benchmark's template table."""

BY_NAME: dict[str, ActionTemplate] = {a.name: a for a in ACTIONS}
"""Actions by ToolBench function name (``"Put"``)."""

BY_SCRIPT: dict[str, ActionTemplate] = {a.script.lower(): a for a in ACTIONS}
"""Actions by lower-case script action (``"putback"``); ``release`` and ``move`` are aliases."""
BY_SCRIPT["release"] = BY_NAME["Drop"]
BY_SCRIPT["move"] = BY_NAME["Push"]
BY_SCRIPT["lookat_short"] = BY_NAME["LookAt"]
BY_SCRIPT["lookat_long"] = BY_NAME["LookAt"]

assert len(ACTIONS) == 40 and len(BY_NAME) == 40
