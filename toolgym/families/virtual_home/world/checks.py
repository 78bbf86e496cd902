"""The checks the action rules share, and the effects more than one rule has.

Each ``need_*`` raises :class:`~toolgym.families.virtual_home.world.household.ActionFailed` with a
message that names the condition (``the milk is inside the fridge, which is closed; open it
first``); the effects change the household in place.
"""

from __future__ import annotations

from toolgym.families.virtual_home.world.graph import CHARACTER
from toolgym.families.virtual_home.world.household import HANDS, ActionFailed, Household


def need(condition: bool, kind: str, message: str) -> None:
    """Raise ``ActionFailed(kind, message)`` unless ``condition``."""
    if not condition:
        raise ActionFailed(kind, message)


def need_property(
    house: Household, x: int, props: str, what: str, extra: frozenset[str] = frozenset()
) -> None:
    """The object has one of ``props`` (space-separated), or its class is in ``extra``."""
    node = house.graph.nodes[x]
    ok = node.class_name in extra or any(p in node.properties for p in props.split())
    need(ok, "not_allowed", f"the {node.class_name} is not {what}")


def need_close(house: Household, x: int) -> None:
    """The character is close to the object."""
    need(
        house.close(x),
        "precondition",
        f"the character is not close to the {house.name(x)}; walk to it or find it first",
    )


def need_upright(house: Household) -> None:
    """The character stands."""
    posture = house.posture()
    need(
        posture is None,
        "precondition",
        f"the character is {posture.lower() if posture else ''}; stand up first",
    )


def need_free_hand(house: Household, why: str) -> str:
    """A hand is free for ``why``; which one (``HOLDS_RH`` first)."""
    hand = house.free_hand()
    held = ", ".join(house.name(o) for o in house.held())
    need(
        hand is not None,
        "precondition",
        f"{why} needs a free hand; both hands hold something ({held})",
    )
    assert hand is not None
    return hand


def need_holding(house: Household, x: int) -> None:
    """The character holds the object."""
    need(
        house.holding(x),
        "precondition",
        f"the character does not hold the {house.name(x)}; grab it first",
    )


def need_reachable(house: Household, x: int) -> None:
    """The object is not inside a closed container."""
    box = house.container_closed(x)
    need(
        box is None,
        "precondition",
        f"the {house.name(x)} is inside the {house.name(box) if box else ''}, which is closed; open it first",
    )


class WrongState(ActionFailed):
    """A precondition on the object's own state (on already, closed): another instance may do."""


def need_state(house: Household, x: int, state: str, message: str) -> None:
    """The object is in ``state`` (``message`` says what it is instead).

    Raises:
        WrongState: it is not (a precondition).
    """
    if state not in house.graph.nodes[x].states:
        raise WrongState("precondition", f"the {house.name(x)} {message}")


def set_state(house: Household, x: int, drop: str, add: str) -> None:
    """Replace one state of the object by another."""
    states = house.graph.nodes[x].states
    states.discard(drop)
    states.add(add)


# -- effects -----------------------------------------------------------------------------------


def release(house: Household, x: int) -> None:
    """Let go of the object."""
    for hand in HANDS:
        house.graph.remove_edge(CHARACTER, hand, x)


def carry(house: Household, room: int) -> None:
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


def within(house: Household, inner: int, outer: int) -> bool:
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
