"""The 40 actions' preconditions and effects on a :class:`Household`.

:func:`execute` runs one :class:`~toolgym.families.virtual_home.world.script.Step`: it resolves the
step's objects, checks the action's preconditions in the order of the table below, and applies its
effects; a step that fails raises :class:`ActionFailed` and changes nothing but the objects it
placed (an object a home lacks is placed before the checks, as a plan naming it presupposes it).
A step whose object is in the wrong state (on already, closed already) runs on another instance
of the class when one close to the character or in its room allows it (a plan names classes,
not instances); finding, walking to and grabbing prefer an instance the character does not hold.
The rules are the evolving graph's; ``docs/virtual_home.md`` tables them, action by action.

Two rules are this simulator's own: sitting and lying down need a free hand (a full pair of hands
cannot steady the character), and only people count against a seat's capacity (couch 4, bed 4,
love seat 2, sofa 4, bench 2, piano bench 2, anything else 1 for sitting; bed 3, couch 2,
bathtub 2, love seat 2, sofa 2, anything else 1 for lying), not the pillows lying on it.
"""

from __future__ import annotations

from collections.abc import Callable

from toolgym.families.virtual_home.world import checks
from toolgym.families.virtual_home.world.graph import CHARACTER
from toolgym.families.virtual_home.world.household import HANDS, ActionFailed, Household
from toolgym.families.virtual_home.world.script import Step, to_call

SQUEEZABLE = frozenset(
    [
        "cleaning_solution",
        "tooth_paste",
        "shampoo",
        "food_peanut_butter",
        "dish_soap",
        "soap",
        "towel",
        "rag",
        "paper",
        "sponge",
        "food_lemon",
        "check",
    ]
)
SIT_CAPACITY = {
    "couch": 4,
    "bed": 4,
    "chair": 1,
    "love_seat": 2,
    "sofa": 4,
    "toilet": 1,
    "piano_bench": 2,
    "bench": 2,
}
LIE_CAPACITY = {"couch": 2, "bathtub": 2, "bed": 3, "love_seat": 2, "sofa": 2, "bench": 1}
POUR_TARGETS = frozenset({"hands_both", "sponge", "face"})
PUSHABLE = frozenset({"button", "chair", "curtain"})

Rule = Callable[[Household, list[int]], str]
_LOOKING_FOR = frozenset({"WalkTo", "RunTo", "Find", "Grab"})
"""Actions whose object is not one the character holds, when another instance exists."""
_ALTERNATIVES = 8
"""How many other instances of a class a failed step tries."""


def execute(house: Household, step: Step) -> str:
    """Run ``step`` in ``house`` and describe what happened.

    Raises:
        ActionFailed: an unknown object, an object the action does not take, or a precondition
            that does not hold (the message names it).
    """
    avoid_held = step.action.name in _LOOKING_FOR
    ids = [house.resolve(name, avoid_held=avoid_held) for name in step.objects]
    checks.need(
        CHARACTER not in ids,
        "not_allowed",
        f"{step.action.qualname} acts on objects; the character is the one acting",
    )
    rule = RULES[step.action.name]
    try:
        message = rule(house, ids)
    except checks.WrongState as error:
        ids, message = _another_instance(house, step, ids, error)
    house.graph.history.append((step.action.name, *(house.name(i) for i in ids)))
    return message


def _another_instance(
    house: Household, step: Step, ids: list[int], error: ActionFailed
) -> tuple[list[int], str]:
    """Run the step on another instance of its first object's class, close or in the room.

    A plan names classes, not instances: "switch on light" in a room whose light is on already
    may mean another light, "open drawer" another drawer. The first
    other instance, in :meth:`Household.ranked` order, for which the step runs is taken; when
    none does, the first instance's failure stands.
    """
    room = house.room
    for other in house.ranked(step.objects[0])[:_ALTERNATIVES]:
        if other == ids[0] or not (house.close(other) or house.graph.room_of(other) == room):
            continue
        trial = [other, *ids[1:]]
        if CHARACTER in trial:
            continue
        try:
            return trial, RULES[step.action.name](house, trial)
        except ActionFailed:
            continue
    raise error


# -- checks ------------------------------------------------------------------------------------


def _walk(house: Household, ids: list[int]) -> str:
    (x,) = ids
    checks.need_upright(house)
    g = house.graph
    node = g.nodes[x]
    room = g.room_of(x)
    checks.need(room is not None, "precondition", f"the {node.class_name} is in no room")
    assert room is not None
    g.remove_from(CHARACTER, ("INSIDE", "CLOSE", "FACING"))
    g.add_edge(CHARACTER, "INSIDE", room)
    checks.carry(house, room)
    if node.category == "Rooms":
        return f"You walk to the {node.class_name}."
    g.add_edge(CHARACTER, "CLOSE", x)
    for support in g.targets(x, "ON"):
        g.add_edge(CHARACTER, "CLOSE", support)
    if "CAN_OPEN" in node.properties or "CONTAINERS" in node.properties:
        for inside in g.sources(x, "INSIDE"):
            g.add_edge(CHARACTER, "CLOSE", inside)
    return f"You walk to the {node.class_name}."


def _find(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    if g.nodes[x].category == "Rooms":
        _walk(house, ids)
        return f"You find the {house.name(x)}."
    special = house.posture() is not None or house.close(x)
    if special:
        checks.need_close(house, x)
    else:
        _walk(house, ids)
    g.remove_from(CHARACTER, ("FACING",))
    g.add_edge(CHARACTER, "CLOSE", x)
    return f"You find the {house.name(x)}."


def _grab(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    checks.need_property(house, x, "GRABBABLE", "something to grab", frozenset({"water", "child"}))
    checks.need(
        not house.holding(x), "precondition", f"the character holds the {house.name(x)} already"
    )
    checks.need(
        not g.has(CHARACTER, "ON", x),
        "precondition",
        f"the character is on the {house.name(x)}; stand up first",
    )
    checks.need_close(house, x)
    checks.need_reachable(house, x)
    hand = checks.need_free_hand(house, "grabbing")
    supports = [("ON", s) for s in g.targets(x, "ON")]
    supports += [("INSIDE", s) for s in g.targets(x, "INSIDE") if g.nodes[s].category != "Rooms"]
    g.remove_from(x, ("ON", "INSIDE", "CLOSE"))
    g.remove_to(x, ("CLOSE", "ON", *HANDS))
    g.add_edge(CHARACTER, hand, x)
    g.add_edge(x, "INSIDE", house.room)
    if supports:
        relation, support = min(supports, key=lambda s: (s[0] != "INSIDE", s[1]))
        g.supports[x] = (relation, support)
        g.add_edge(CHARACTER, "CLOSE", support)
    side = "right" if hand == "HOLDS_RH" else "left"
    return f"You grab the {house.name(x)} with your {side} hand."


def _open(house: Household, ids: list[int]) -> str:
    (x,) = ids
    checks.need_property(
        house, x, "CAN_OPEN", "something that opens", frozenset({"desk", "window"})
    )
    checks.need_close(house, x)
    checks.need_free_hand(house, "opening")
    checks.need_state(house, x, "CLOSED", "is not closed")
    checks.need(
        "ON" not in house.graph.nodes[x].states,
        "precondition",
        f"the {house.name(x)} is switched on; switch it off first",
    )
    checks.set_state(house, x, "CLOSED", "OPEN")
    return f"You open the {house.name(x)}."


def _shut(house: Household, ids: list[int]) -> str:
    (x,) = ids
    checks.need_property(
        house, x, "CAN_OPEN", "something that opens", frozenset({"desk", "window"})
    )
    checks.need_close(house, x)
    checks.need_state(house, x, "OPEN", "is not open")
    checks.set_state(house, x, "OPEN", "CLOSED")
    return f"You close the {house.name(x)}."


def _put(relation: str) -> Rule:
    word = "on" if relation == "ON" else "in"

    def rule(house: Household, ids: list[int]) -> str:
        x, y = ids
        g = house.graph
        checks.need(
            g.nodes[y].category != "Rooms",
            "not_allowed",
            f"put the {house.name(x)} {word} something in the {house.name(y)}, or drop it",
        )
        checks.need(
            not checks.within(house, y, x),
            "precondition",
            f"the {house.name(x)} cannot go {word} the {house.name(y)}, which is on or in it",
        )
        checks.need_holding(house, x)
        checks.need_close(house, y)
        if relation == "INSIDE" and "CAN_OPEN" in g.nodes[y].properties:
            checks.need_state(house, y, "OPEN", "is closed; open it first")
        checks.release(house, x)
        g.add_edge(CHARACTER, "CLOSE", y)
        g.add_close(x, y)
        g.add_edge(x, relation, y)
        return f"You put the {house.name(x)} {word} the {house.name(y)}."

    return rule


def _put_back(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    checks.need_holding(house, x)
    remembered = g.supports.get(x)
    checks.need(
        remembered is not None,
        "precondition",
        f"the {house.name(x)} was not taken from anywhere; put it on something instead",
    )
    assert remembered is not None
    relation, support = remembered
    checks.need_close(house, support)
    if relation == "INSIDE" and "CAN_OPEN" in g.nodes[support].properties:
        checks.need_state(house, support, "OPEN", "is closed; open it first")
    checks.release(house, x)
    g.add_close(x, support)
    g.add_edge(x, relation, support)
    word = "on" if relation == "ON" else "in"
    return f"You put the {house.name(x)} back {word} the {house.name(support)}."


def _switch(on: bool) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        (x,) = ids
        checks.need_property(house, x, "HAS_SWITCH", "something with a switch")
        checks.need_close(house, x)
        states = house.graph.nodes[x].states
        if on:
            checks.need_state(house, x, "OFF", "is on already")
            checks.need(
                "PLUGGED_OUT" not in states,
                "precondition",
                f"the {house.name(x)} is unplugged; plug it in first",
            )
            checks.set_state(house, x, "OFF", "ON")
        else:
            checks.need_state(house, x, "ON", "is off already")
            checks.set_state(house, x, "ON", "OFF")
        return f"You switch {'on' if on else 'off'} the {house.name(x)}."

    return rule


def _plug(plug_in: bool) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        (x,) = ids
        checks.need_property(house, x, "HAS_PLUG", "something with a plug")
        checks.need_close(house, x)
        checks.need_free_hand(house, "plugging")
        if plug_in:
            checks.need_state(house, x, "PLUGGED_OUT", "is plugged in already")
            checks.set_state(house, x, "PLUGGED_OUT", "PLUGGED_IN")
        else:
            checks.need_state(house, x, "PLUGGED_IN", "is unplugged already")
            checks.set_state(house, x, "PLUGGED_IN", "PLUGGED_OUT")
        return f"You plug {'in' if plug_in else 'out'} the {house.name(x)}."

    return rule


def _drink(house: Household, ids: list[int]) -> str:
    (x,) = ids
    checks.need_property(house, x, "DRINKABLE RECIPIENT", "something to drink from")
    checks.need_holding(house, x)
    return f"You drink from the {house.name(x)}."


def _eat(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    checks.need_close(house, x)
    food = "EATABLE" in g.nodes[x].properties or any(
        "EATABLE" in g.nodes[o].properties for o in g.sources(x, "ON")
    )
    checks.need(food, "not_allowed", f"the {house.name(x)} is not food and holds no food")
    return f"You eat the {house.name(x)}."


def _cut(house: Household, ids: list[int]) -> str:
    (x,) = ids
    node = house.graph.nodes[x]
    checks.need(
        {"EATABLE", "CUTTABLE"} <= node.properties,
        "not_allowed",
        f"the {node.class_name} cannot be cut",
    )
    checks.need_close(house, x)
    checks.need_free_hand(house, "cutting")
    checks.need(
        any("knife" in house.name(o) for o in house.held()),
        "precondition",
        f"cutting the {node.class_name} needs a knife in hand",
    )
    return f"You cut the {node.class_name}."


def _turn(house: Household, ids: list[int]) -> str:
    (x,) = ids
    house.graph.remove_from(CHARACTER, ("FACING",))
    house.graph.add_edge(CHARACTER, "FACING", x)
    return f"You turn to the {house.name(x)}."


def _look(verb: str) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        (x,) = ids
        checks.need(
            house.facing(x),
            "precondition",
            f"the character does not face the {house.name(x)}; turn to it first",
        )
        return f"You {verb} the {house.name(x)}."

    return rule


def _watch(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    checks.need_property(house, x, "LOOKABLE", "something to watch")
    checks.need(
        g.room_of(x) == house.room, "precondition", f"the {house.name(x)} is in another room"
    )
    checks.need(
        house.facing(x),
        "precondition",
        f"the character does not face the {house.name(x)}; turn to it first",
    )
    if house.posture() is not None and house.name(x) != "computer":
        checks.need(
            g.has(CHARACTER, "FACING", x),
            "precondition",
            f"seated, the character must face the {house.name(x)} itself; turn to it first",
        )
    return f"You watch the {house.name(x)}."


def _touch(house: Household, ids: list[int]) -> str:
    (x,) = ids
    checks.need_close(house, x)
    checks.need_reachable(house, x)
    return f"You touch the {house.name(x)}."


def _read(house: Household, ids: list[int]) -> str:
    (x,) = ids
    checks.need_property(house, x, "READABLE", "something to read")
    checks.need_holding(house, x)
    return f"You read the {house.name(x)}."


def _greet(house: Household, ids: list[int]) -> str:
    (x,) = ids
    checks.need_property(house, x, "PERSON", "a person")
    return f"You greet the {house.name(x)}."


def _pour(house: Household, ids: list[int]) -> str:
    x, y = ids
    checks.need_property(house, x, "POURABLE DRINKABLE", "something to pour")
    # a container takes a pour as a recipient does (detergent into the washing machine)
    checks.need_property(house, y, "RECIPIENT CONTAINERS", "something to pour into", POUR_TARGETS)
    checks.need(x != y, "precondition", f"the {house.name(x)} cannot be poured into itself")
    checks.need_holding(house, x)
    checks.need_close(house, y)
    house.graph.add_edge(x, "INSIDE", y)
    return f"You pour the {house.name(x)} into the {house.name(y)}."


def _move(verb: str) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        (x,) = ids
        # what can be picked up can be pushed or pulled too (a remote control, a book)
        checks.need_property(house, x, "MOVABLE GRABBABLE", "something that moves", PUSHABLE)
        checks.need_close(house, x)
        checks.need_reachable(house, x)
        checks.need_free_hand(house, f"{verb}ing")
        return f"You {verb} the {house.name(x)}."

    return rule


def _clean(verb: str, needs_tool: bool = False) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        (x,) = ids
        checks.need_close(house, x)
        if needs_tool:
            checks.need(
                bool(house.held()),
                "precondition",
                f"wiping the {house.name(x)} needs something in hand",
            )
        checks.set_state(house, x, "DIRTY", "CLEAN")
        return f"You {verb} the {house.name(x)}."

    return rule


def _squeeze(house: Household, ids: list[int]) -> str:
    (x,) = ids
    checks.need_property(house, x, "CLOTHES", "something to squeeze", SQUEEZABLE)
    checks.need_close(house, x)
    checks.need_free_hand(house, "squeezing")
    return f"You squeeze the {house.name(x)}."


def _drop(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    checks.need_holding(house, x)
    checks.release(house, x)
    floors = [f for f in g.of_class("floor") if g.room_of(f) == house.room]
    if floors:
        g.add_edge(x, "ON", floors[0])
    return f"You drop the {house.name(x)}."


def _wear(house: Household, ids: list[int]) -> str:
    (x,) = ids
    checks.need_property(house, x, "CLOTHES", "something to wear")
    checks.need_holding(house, x)
    checks.release(house, x)
    house.graph.add_edge(x, "ON", CHARACTER)
    return f"You put on the {house.name(x)}."


def _take_off(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    checks.need_property(house, x, "CLOTHES", "something to wear")
    checks.need(
        g.has(x, "ON", CHARACTER),
        "precondition",
        f"the character does not wear the {house.name(x)}",
    )
    g.remove_edge(x, "ON", CHARACTER)
    g.add_close(x, CHARACTER)
    return f"You take off the {house.name(x)}."


def _rest(posture: str, prop: str, capacity: dict[str, int]) -> Rule:
    word = "sit" if posture == "SITTING" else "lie"

    def rule(house: Household, ids: list[int]) -> str:
        (x,) = ids
        g = house.graph
        checks.need_property(house, x, prop, f"something to {word} on")
        checks.need_close(house, x)
        checks.need(
            house.posture() != posture,
            "precondition",
            f"the character is {posture.lower()} already",
        )
        checks.need(
            not house.holding(x),
            "precondition",
            f"the character holds the {house.name(x)}; put it down first",
        )
        checks.need_free_hand(house, "sitting down" if word == "sit" else "lying down")
        people = [
            o for o in g.sources(x, "ON") if "PERSON" in g.nodes[o].properties and o != CHARACTER
        ]
        room = capacity.get(house.name(x), 1)
        checks.need(len(people) < room, "precondition", f"the {house.name(x)} is full")
        states = g.nodes[CHARACTER].states
        states.discard("SITTING")
        states.discard("LYING")
        states.add(posture)
        g.remove_from(CHARACTER, ("ON",))
        g.add_edge(CHARACTER, "ON", x)
        if posture == "SITTING":
            faced = g.targets(x, "FACING")
            if faced:
                g.remove_from(CHARACTER, ("FACING",))
                for f in faced:
                    g.add_edge(CHARACTER, "FACING", f)
        return f"You {word} on the {house.name(x)}."

    return rule


def _type(house: Household, ids: list[int]) -> str:
    (x,) = ids
    checks.need_property(house, x, "HAS_SWITCH", "something to type on", frozenset({"keyboard"}))
    checks.need_close(house, x)
    return f"You type on the {house.name(x)}."


def _stand(house: Household, ids: list[int]) -> str:
    posture = house.posture()
    checks.need(posture is not None, "precondition", "the character is standing already")
    states = house.graph.nodes[CHARACTER].states
    states.discard("SITTING")
    states.discard("LYING")
    house.graph.remove_from(CHARACTER, ("ON",))
    return "You stand up."


def _sleep(verb: str) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        checks.need(
            house.posture() is not None,
            "precondition",
            f"to {verb}, the character must lie or sit first",
        )
        return f"You {verb}."

    return rule


RULES: dict[str, Rule] = {
    "WalkTo": _walk,
    "RunTo": _walk,
    "Find": _find,
    "Grab": _grab,
    "Open": _open,
    "Close": _shut,
    "Put": _put("ON"),
    "PutIn": _put("INSIDE"),
    "PutBack": _put_back,
    "PutOn": _wear,
    "TakeOff": _take_off,
    "SwitchOn": _switch(True),
    "SwitchOff": _switch(False),
    "PlugIn": _plug(True),
    "PlugOut": _plug(False),
    "Drink": _drink,
    "Eat": _eat,
    "Cut": _cut,
    "LookAt": _look("look at"),
    "PointAt": _look("point at"),
    "TurnTo": _turn,
    "Watch": _watch,
    "Touch": _touch,
    "Read": _read,
    "Greet": _greet,
    "Pour": _pour,
    "Push": _move("push"),
    "Pull": _move("pull"),
    "Wash": _clean("wash"),
    "Rinse": _clean("rinse"),
    "Scrub": _clean("scrub"),
    "Wipe": _clean("wipe", needs_tool=True),
    "Squeeze": _squeeze,
    "Drop": _drop,
    "SitOn": _rest("SITTING", "SITTABLE", SIT_CAPACITY),
    "LieOn": _rest("LYING", "LIEABLE", LIE_CAPACITY),
    "TypeOn": _type,
    "Sleep": _sleep("sleep"),
    "StandUp": _stand,
    "WakeUp": _sleep("wake up"),
}
"""The rule of every action, by ToolBench name."""

assert len(RULES) == 40


def describe_failure(step: Step, error: ActionFailed) -> str:
    """``Agent.Grab(cup): <why>``."""
    return f"{to_call(step)}: {error.message}"
