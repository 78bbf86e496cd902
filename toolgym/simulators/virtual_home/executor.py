"""The 40 actions' preconditions and effects on a :class:`Household`.

:func:`execute` runs one :class:`~toolgym.simulators.virtual_home.script.Step`: it resolves the
step's objects, checks the action's preconditions in the order of the table below, and applies its
effects; a step that fails raises :class:`ActionFailed` and changes nothing but the objects it
placed (an object a home lacks is placed before the checks, as a plan naming it presupposes it).
The rules are the evolving graph's (``c`` is the character):

============  ==============================================  =====================================
action        preconditions                                   effects
============  ==============================================  =====================================
Walk, Run     c not sitting or lying                          c in X's room, close to X, to what X
                                                              stands on, and (X opens) to X's
                                                              contents; what c holds moves along
Find          c sitting/lying, or X a body part, worn or      c close to X, facing nothing
              close: close(c, X); else walks to X first
Grab          GRABBABLE; not held; close; not in a closed     c holds X in a free hand; X's former
              container; a free hand                          support is remembered
Open          CAN_OPEN; close; a free hand; closed; not on    open
Close         CAN_OPEN; close; open                           closed
Put (on)      holding X; close(c, Y)                          X on Y, close to Y
PutIn         holding X; close(c, Y); Y open if it opens      X inside Y, close to Y
PutBack       holding X; X was grabbed; close to its former   X back on or in its former support
              support (open, if X was inside)
SwitchOn      HAS_SWITCH; close; off; plugged in if it has    on
              a plug
SwitchOff     HAS_SWITCH; close; on                           off
PlugIn/Out    HAS_PLUG; close; a free hand; unplugged         plugged in / out
              (plugged in)
Drink         DRINKABLE or RECIPIENT; holding X               -
Eat           close; EATABLE, or something EATABLE on X       -
Cut           EATABLE and CUTTABLE; close; a free hand;       -
              holding a knife
TurnTo        -                                               c faces only X
LookAt,       facing(c, X)                                    -
PointAt
Watch         LOOKABLE; same room; facing(c, X); sitting or   -
              lying: a direct FACING edge (not for a
              computer)
Touch         close; not in a closed container                -
Read          READABLE; holding X                             -
Greet         PERSON                                          -
Pour          X POURABLE or DRINKABLE; Y RECIPIENT (or        X inside Y
              hands, sponge, face); holding X; close(c, Y)
Push, Pull    MOVABLE (or a button, chair or curtain);        -
              close; not in a closed container; a free hand
Wash, Rinse,  close                                           clean
Scrub
Wipe          close; holding something                        clean
Squeeze       CLOTHES or a squeezable class; close; a free    -
              hand
Drop          holding X                                       X on the floor of c's room
PutOn (wear)  CLOTHES; holding X                              c wears X
TakeOff       CLOTHES; c wears X                              X no longer worn, by c
SitOn         SITTABLE; close; not sitting; a free hand;      c on X, facing what X faces, sitting
              room on X
LieOn         LIEABLE; close; not lying; a free hand; room    c on X, lying
              on X
TypeOn        close; a keyboard or HAS_SWITCH                 -
StandUp       sitting or lying                                standing
Sleep, WakeUp lying or sitting                                -
============  ==============================================  =====================================

Two rules are this simulator's own: sitting and lying down need a free hand (a full pair of hands
cannot steady the character), and only people count against a seat's capacity (couch 4, bed 4,
love seat 2, sofa 4, bench 2, piano bench 2, anything else 1 for sitting; bed 3, couch 2,
bathtub 2, love seat 2, sofa 2, anything else 1 for lying), not the pillows lying on it.
"""

from __future__ import annotations

from collections.abc import Callable

from toolgym.simulators.virtual_home.graph import CHARACTER
from toolgym.simulators.virtual_home.household import HANDS, ActionFailed, Household
from toolgym.simulators.virtual_home.script import Step, to_call

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


def execute(house: Household, step: Step) -> str:
    """Run ``step`` in ``house`` and describe what happened.

    Raises:
        ActionFailed: an unknown object, an object the action does not take, or a precondition
            that does not hold (the message names it).
    """
    ids = [house.resolve(name) for name in step.objects]
    _need(
        CHARACTER not in ids,
        "not_allowed",
        f"{step.action.qualname} acts on objects; the character is the one acting",
    )
    message = RULES[step.action.name](house, ids)
    house.graph.history.append((step.action.name, *(house.name(i) for i in ids)))
    return message


# -- checks ------------------------------------------------------------------------------------


def _need(condition: bool, kind: str, message: str) -> None:
    if not condition:
        raise ActionFailed(kind, message)


def _prop(
    house: Household, x: int, props: str, what: str, extra: frozenset[str] = frozenset()
) -> None:
    node = house.graph.nodes[x]
    ok = node.class_name in extra or any(p in node.properties for p in props.split())
    _need(ok, "not_allowed", f"the {node.class_name} is not {what}")


def _close(house: Household, x: int) -> None:
    _need(
        house.close(x),
        "precondition",
        f"the character is not close to the {house.name(x)}; walk to it or find it first",
    )


def _upright(house: Household) -> None:
    posture = house.posture()
    _need(
        posture is None,
        "precondition",
        f"the character is {posture.lower() if posture else ''}; stand up first",
    )


def _hand(house: Household, why: str) -> str:
    hand = house.free_hand()
    held = ", ".join(house.name(o) for o in house.held())
    _need(
        hand is not None,
        "precondition",
        f"{why} needs a free hand; both hands hold something ({held})",
    )
    assert hand is not None
    return hand


def _holding(house: Household, x: int) -> None:
    _need(
        house.holding(x),
        "precondition",
        f"the character does not hold the {house.name(x)}; grab it first",
    )


def _reachable(house: Household, x: int) -> None:
    box = house.container_closed(x)
    _need(
        box is None,
        "precondition",
        f"the {house.name(x)} is inside the {house.name(box) if box else ''}, which is closed; open it first",
    )


def _state(house: Household, x: int, state: str, message: str) -> None:
    _need(state in house.graph.nodes[x].states, "precondition", f"the {house.name(x)} {message}")


def _set(house: Household, x: int, drop: str, add: str) -> None:
    states = house.graph.nodes[x].states
    states.discard(drop)
    states.add(add)


# -- effects -----------------------------------------------------------------------------------


def _release(house: Household, x: int) -> None:
    for hand in HANDS:
        house.graph.remove_edge(CHARACTER, hand, x)


def _carry(house: Household, room: int) -> None:
    """Move what the character holds and wears, and what is on or in those, into ``room``."""
    g = house.graph
    stack = [*house.held(), *house.worn()]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for target in list(g.targets(node, "INSIDE")):
            if g.nodes[target].category == "Rooms":
                g.remove_edge(node, "INSIDE", target)
        g.add_edge(node, "INSIDE", room)
        stack.extend(g.sources(node, "ON") | g.sources(node, "INSIDE"))


def _within(house: Household, inner: int, outer: int) -> bool:
    """Whether ``inner`` is ``outer``, or on or in it, however deep."""
    g = house.graph
    stack, seen = [inner], set()
    while stack:
        node = stack.pop()
        if node == outer:
            return True
        if node in seen:
            continue
        seen.add(node)
        stack.extend(
            t
            for r in ("ON", "INSIDE")
            for t in g.targets(node, r)
            if g.nodes[t].category != "Rooms"
        )
    return False


def _walk(house: Household, ids: list[int]) -> str:
    (x,) = ids
    _upright(house)
    g = house.graph
    node = g.nodes[x]
    room = g.room_of(x)
    _need(room is not None, "precondition", f"the {node.class_name} is in no room")
    assert room is not None
    g.remove_from(CHARACTER, ("INSIDE", "CLOSE", "FACING"))
    g.add_edge(CHARACTER, "INSIDE", room)
    _carry(house, room)
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
        return _walk(house, ids).replace("walk to", "find")
    special = house.posture() is not None or house.close(x)
    if special:
        _close(house, x)
    else:
        _walk(house, ids)
    g.remove_from(CHARACTER, ("FACING",))
    g.add_edge(CHARACTER, "CLOSE", x)
    return f"You find the {house.name(x)}."


def _grab(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    _prop(house, x, "GRABBABLE", "something to grab", frozenset({"water", "child"}))
    _need(not house.holding(x), "precondition", f"the character holds the {house.name(x)} already")
    _need(
        not g.has(CHARACTER, "ON", x),
        "precondition",
        f"the character is on the {house.name(x)}; stand up first",
    )
    _close(house, x)
    _reachable(house, x)
    hand = _hand(house, "grabbing")
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
    _prop(house, x, "CAN_OPEN", "something that opens", frozenset({"desk", "window"}))
    _close(house, x)
    _hand(house, "opening")
    _state(house, x, "CLOSED", "is not closed")
    _need(
        "ON" not in house.graph.nodes[x].states,
        "precondition",
        f"the {house.name(x)} is switched on; switch it off first",
    )
    _set(house, x, "CLOSED", "OPEN")
    return f"You open the {house.name(x)}."


def _shut(house: Household, ids: list[int]) -> str:
    (x,) = ids
    _prop(house, x, "CAN_OPEN", "something that opens", frozenset({"desk", "window"}))
    _close(house, x)
    _state(house, x, "OPEN", "is not open")
    _set(house, x, "OPEN", "CLOSED")
    return f"You close the {house.name(x)}."


def _put(relation: str) -> Rule:
    word = "on" if relation == "ON" else "in"

    def rule(house: Household, ids: list[int]) -> str:
        x, y = ids
        g = house.graph
        _need(
            g.nodes[y].category != "Rooms",
            "not_allowed",
            f"put the {house.name(x)} {word} something in the {house.name(y)}, or drop it",
        )
        _need(
            not _within(house, y, x),
            "precondition",
            f"the {house.name(x)} cannot go {word} the {house.name(y)}, which is on or in it",
        )
        _holding(house, x)
        _close(house, y)
        if relation == "INSIDE" and "CAN_OPEN" in g.nodes[y].properties:
            _state(house, y, "OPEN", "is closed; open it first")
        _release(house, x)
        g.add_edge(CHARACTER, "CLOSE", y)
        g.add_close(x, y)
        g.add_edge(x, relation, y)
        return f"You put the {house.name(x)} {word} the {house.name(y)}."

    return rule


def _put_back(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    _holding(house, x)
    remembered = g.supports.get(x)
    _need(
        remembered is not None,
        "precondition",
        f"the {house.name(x)} was not taken from anywhere; put it on something instead",
    )
    assert remembered is not None
    relation, support = remembered
    _close(house, support)
    if relation == "INSIDE" and "CAN_OPEN" in g.nodes[support].properties:
        _state(house, support, "OPEN", "is closed; open it first")
    _release(house, x)
    g.add_close(x, support)
    g.add_edge(x, relation, support)
    word = "on" if relation == "ON" else "in"
    return f"You put the {house.name(x)} back {word} the {house.name(support)}."


def _switch(on: bool) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        (x,) = ids
        _prop(house, x, "HAS_SWITCH", "something with a switch")
        _close(house, x)
        states = house.graph.nodes[x].states
        if on:
            _state(house, x, "OFF", "is on already")
            _need(
                "PLUGGED_OUT" not in states,
                "precondition",
                f"the {house.name(x)} is unplugged; plug it in first",
            )
            _set(house, x, "OFF", "ON")
        else:
            _state(house, x, "ON", "is off already")
            _set(house, x, "ON", "OFF")
        return f"You switch {'on' if on else 'off'} the {house.name(x)}."

    return rule


def _plug(plug_in: bool) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        (x,) = ids
        _prop(house, x, "HAS_PLUG", "something with a plug")
        _close(house, x)
        _hand(house, "plugging")
        if plug_in:
            _state(house, x, "PLUGGED_OUT", "is plugged in already")
            _set(house, x, "PLUGGED_OUT", "PLUGGED_IN")
        else:
            _state(house, x, "PLUGGED_IN", "is unplugged already")
            _set(house, x, "PLUGGED_IN", "PLUGGED_OUT")
        return f"You plug {'in' if plug_in else 'out'} the {house.name(x)}."

    return rule


def _drink(house: Household, ids: list[int]) -> str:
    (x,) = ids
    _prop(house, x, "DRINKABLE RECIPIENT", "something to drink from")
    _holding(house, x)
    return f"You drink from the {house.name(x)}."


def _eat(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    _close(house, x)
    food = "EATABLE" in g.nodes[x].properties or any(
        "EATABLE" in g.nodes[o].properties for o in g.sources(x, "ON")
    )
    _need(food, "not_allowed", f"the {house.name(x)} is not food and holds no food")
    return f"You eat the {house.name(x)}."


def _cut(house: Household, ids: list[int]) -> str:
    (x,) = ids
    node = house.graph.nodes[x]
    _need(
        {"EATABLE", "CUTTABLE"} <= node.properties,
        "not_allowed",
        f"the {node.class_name} cannot be cut",
    )
    _close(house, x)
    _hand(house, "cutting")
    _need(
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
        _need(
            house.facing(x),
            "precondition",
            f"the character does not face the {house.name(x)}; turn to it first",
        )
        return f"You {verb} the {house.name(x)}."

    return rule


def _watch(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    _prop(house, x, "LOOKABLE", "something to watch")
    _need(g.room_of(x) == house.room, "precondition", f"the {house.name(x)} is in another room")
    _need(
        house.facing(x),
        "precondition",
        f"the character does not face the {house.name(x)}; turn to it first",
    )
    if house.posture() is not None and house.name(x) != "computer":
        _need(
            g.has(CHARACTER, "FACING", x),
            "precondition",
            f"seated, the character must face the {house.name(x)} itself; turn to it first",
        )
    return f"You watch the {house.name(x)}."


def _touch(house: Household, ids: list[int]) -> str:
    (x,) = ids
    _close(house, x)
    _reachable(house, x)
    return f"You touch the {house.name(x)}."


def _read(house: Household, ids: list[int]) -> str:
    (x,) = ids
    _prop(house, x, "READABLE", "something to read")
    _holding(house, x)
    return f"You read the {house.name(x)}."


def _greet(house: Household, ids: list[int]) -> str:
    (x,) = ids
    _prop(house, x, "PERSON", "a person")
    return f"You greet the {house.name(x)}."


def _pour(house: Household, ids: list[int]) -> str:
    x, y = ids
    _prop(house, x, "POURABLE DRINKABLE", "something to pour")
    _prop(house, y, "RECIPIENT", "something to pour into", POUR_TARGETS)
    _need(x != y, "precondition", f"the {house.name(x)} cannot be poured into itself")
    _holding(house, x)
    _close(house, y)
    house.graph.add_edge(x, "INSIDE", y)
    return f"You pour the {house.name(x)} into the {house.name(y)}."


def _move(verb: str) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        (x,) = ids
        _prop(house, x, "MOVABLE", "something that moves", PUSHABLE)
        _close(house, x)
        _reachable(house, x)
        _hand(house, f"{verb}ing")
        return f"You {verb} the {house.name(x)}."

    return rule


def _clean(verb: str, needs_tool: bool = False) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        (x,) = ids
        _close(house, x)
        if needs_tool:
            _need(
                bool(house.held()),
                "precondition",
                f"wiping the {house.name(x)} needs something in hand",
            )
        _set(house, x, "DIRTY", "CLEAN")
        return f"You {verb} the {house.name(x)}."

    return rule


def _squeeze(house: Household, ids: list[int]) -> str:
    (x,) = ids
    _prop(house, x, "CLOTHES", "something to squeeze", SQUEEZABLE)
    _close(house, x)
    _hand(house, "squeezing")
    return f"You squeeze the {house.name(x)}."


def _drop(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    _holding(house, x)
    _release(house, x)
    floors = [f for f in g.of_class("floor") if g.room_of(f) == house.room]
    if floors:
        g.add_edge(x, "ON", floors[0])
    return f"You drop the {house.name(x)}."


def _wear(house: Household, ids: list[int]) -> str:
    (x,) = ids
    _prop(house, x, "CLOTHES", "something to wear")
    _holding(house, x)
    _release(house, x)
    house.graph.add_edge(x, "ON", CHARACTER)
    return f"You put on the {house.name(x)}."


def _take_off(house: Household, ids: list[int]) -> str:
    (x,) = ids
    g = house.graph
    _prop(house, x, "CLOTHES", "something to wear")
    _need(
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
        _prop(house, x, prop, f"something to {word} on")
        _close(house, x)
        _need(
            house.posture() != posture,
            "precondition",
            f"the character is {posture.lower()} already",
        )
        _need(
            not house.holding(x),
            "precondition",
            f"the character holds the {house.name(x)}; put it down first",
        )
        _hand(house, "sitting down" if word == "sit" else "lying down")
        people = [
            o for o in g.sources(x, "ON") if "PERSON" in g.nodes[o].properties and o != CHARACTER
        ]
        room = capacity.get(house.name(x), 1)
        _need(len(people) < room, "precondition", f"the {house.name(x)} is full")
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
    _prop(house, x, "HAS_SWITCH", "something to type on", frozenset({"keyboard"}))
    _close(house, x)
    return f"You type on the {house.name(x)}."


def _stand(house: Household, ids: list[int]) -> str:
    posture = house.posture()
    _need(posture is not None, "precondition", "the character is standing already")
    states = house.graph.nodes[CHARACTER].states
    states.discard("SITTING")
    states.discard("LYING")
    house.graph.remove_from(CHARACTER, ("ON",))
    return "You stand up."


def _sleep(verb: str) -> Rule:
    def rule(house: Household, ids: list[int]) -> str:
        _need(
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
