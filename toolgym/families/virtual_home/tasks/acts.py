"""How people do household activities: each act performs one on a planner, returns its end conditions.

An act takes a :class:`~.planner.Planner` and the activity's objects (its *fill*), performs the
activity step by step (each step runs, so a step that cannot be done raises
:class:`~toolgym.families.virtual_home.world.ActionFailed`), and returns the conditions that hold
when it is done (see :mod:`toolgym.families.virtual_home.world.conditions`).
"""

from __future__ import annotations

from collections.abc import Callable

from toolgym.families.virtual_home.tasks.planner import Planner
from toolgym.families.virtual_home.world import ActionFailed

Condition = list[str]
Act = Callable[[Planner, tuple[str, ...]], list[Condition]]


def switch_on(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Switch a device on (plugging it in first if needed)."""
    p.switch_on(fill[0])
    return [["state", fill[0], "ON"]]


def switch_off(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Switch a device off."""
    p.switch_off(fill[0])
    return [["state", fill[0], "OFF"]]


def store(container: str) -> Act:
    """Put an object away in ``container`` (opened and closed again)."""

    def act(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
        p.fetch(fill[0], close_after=True)
        p.put_in(fill[0], container)
        return [["relation", fill[0], "INSIDE", container], ["state", container, "CLOSED"]]

    return act


def place(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Put an object on a surface."""
    obj, surface = fill
    p.fetch(obj, close_after=True)
    p.put_on(obj, surface)
    return [["relation", obj, "ON", surface]]


def wash_dish(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Wash and rinse a dish at the sink, then leave it on the counter."""
    dish = fill[0]
    p.fetch(dish, close_after=True)
    p.go("sink")
    p.do("SwitchOn", "faucet")
    p.do("Wash", dish)
    p.do("Rinse", dish)
    p.do("SwitchOff", "faucet")
    p.do("Put", dish, "kitchen_counter")
    return [
        ["state", dish, "CLEAN"],
        ["state", "faucet", "OFF"],
        ["relation", dish, "ON", "kitchen_counter"],
    ]


def read(seat: str, lie: bool = False) -> Act:
    """Take something to read to ``seat`` and read it there."""

    def act(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
        p.fetch(fill[0], close_after=True)
        p.sit(seat, lie)
        p.do("Read", fill[0])
        return [["did", "Read", fill[0]], ["state", "character", "LYING" if lie else "SITTING"]]

    return act


def drink(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Pour a drink into a glass and drink it."""
    drink, glass = fill
    p.fetch(glass, close_after=True)
    p.fetch(drink)
    p.do("Pour", drink, glass)
    p.do("PutBack", drink)
    p.do("Drink", glass)
    return [["relation", drink, "INSIDE", glass], ["did", "Drink", glass]]


def rest(lie: bool, sleep: bool = False) -> Act:
    """Sit (or lie) on a seat, and sleep there if asked."""

    def act(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
        p.sit(fill[0], lie)
        if sleep:
            p.do("Sleep")
        posture = "LYING" if lie else "SITTING"
        done = [["state", "character", posture], ["relation", "character", "ON", fill[0]]]
        return done + ([["did", "Sleep"]] if sleep else [])

    return act


def wear(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Take a piece of clothing and put it on."""
    p.fetch(fill[0], close_after=True)
    p.do("PutOn", fill[0])
    return [["relation", fill[0], "ON", "character"]]


def throw_away(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Put an object in the trash can."""
    p.fetch(fill[0], close_after=True)
    p.put_in(fill[0], "trashcan")
    return [["relation", fill[0], "INSIDE", "trashcan"]]


def go_to(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Walk to a room."""
    p.do("WalkTo", fill[0])
    return [["relation", "character", "INSIDE", p.house.name(p.house.room)]]


def computer(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Sit at the computer, switch it on and type."""
    p.go("computer")
    p.do("Find", "chair")
    p.do("SitOn", "chair")
    p.do("SwitchOn", "computer")
    p.do("TurnTo", "computer")
    p.do("LookAt", "computer")
    p.do("Find", "keyboard")
    p.do("TypeOn", "keyboard")
    return [
        ["state", "computer", "ON"],
        ["did", "TypeOn", "keyboard"],
        ["state", "character", "SITTING"],
    ]


def watch_tv(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Switch the television on and watch it from a seat."""
    seat = fill[0]
    if seat == "couch":
        p.go("remote_control")
        p.do("Grab", "remote_control")
    p.switch_on("television")
    p.sit(seat)
    p.do("TurnTo", "television")
    p.do("Watch", "television")
    return [
        ["state", "television", "ON"],
        ["did", "Watch", "television"],
        ["state", "character", "SITTING"],
    ]


def wash_body(part: str, with_soap: bool) -> Act:
    """Wash and rinse a body part at the bathroom sink."""

    def act(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
        p.go("bathroom")
        p.go("sink")
        p.do("SwitchOn", "faucet")
        if with_soap:
            p.do("Find", "soap")
            p.do("Grab", "soap")
            p.do("Squeeze", "soap")
        p.do("Wash", part)
        p.do("Rinse", part)
        if with_soap:
            p.do("PutBack", "soap")
        p.do("SwitchOff", "faucet")
        return [["did", "Wash", part], ["did", "Rinse", part], ["state", "faucet", "OFF"]]

    return act


def brush_teeth(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Put tooth paste on the brush and scrub the teeth."""
    p.fetch("tooth_paste", close_after=True)
    p.do("Squeeze", "tooth_paste")
    p.fetch("toothbrush", close_after=True)
    p.do("Scrub", "teeth")
    p.do("PutBack", "toothbrush")
    p.do("PutBack", "tooth_paste")
    return [["did", "Scrub", "teeth"], ["did", "Squeeze", "tooth_paste"]]


def wipe(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Wipe a surface clean with a cloth."""
    surface, tool = fill
    p.fetch(tool, close_after=True)
    p.go(surface)
    p.do("Wipe", surface)
    return [["state", surface, "CLEAN"], ["did", "Wipe", surface]]


def vacuum(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Switch the vacuum cleaner on, push and pull it, switch it off."""
    p.switch_on("vacuum_cleaner")
    p.do("Push", "vacuum_cleaner")
    p.do("Pull", "vacuum_cleaner")
    p.do("SwitchOff", "vacuum_cleaner")
    return [["did", "Push", "vacuum_cleaner"], ["state", "vacuum_cleaner", "OFF"]]


def appliance(machine: str) -> Act:
    """Put an object into ``machine`` and start it."""

    def act(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
        p.fetch(fill[0], close_after=True)
        p.put_in(fill[0], machine)
        p.switch_on(machine)
        return [["relation", fill[0], "INSIDE", machine], ["state", machine, "ON"]]

    return act


def eat(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Take food to a table, sit down and eat it."""
    food, table = fill
    p.fetch(food, close_after=True)
    p.go(table)
    p.do("Find", "chair")
    p.do("SitOn", "chair")
    p.do("Eat", food)
    return [["did", "Eat", food], ["state", "character", "SITTING"]]


def cut(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Put food on the cutting board and cut it with a knife."""
    food = fill[0]
    p.fetch(food, close_after=True)
    p.put_on(food, "cutting_board")
    p.fetch("cutlery_knife", close_after=True)
    p.do("Find", food)
    p.do("Cut", food)
    return [["did", "Cut", food], ["relation", food, "ON", "cutting_board"]]


def open_it(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Open a window or a curtain."""
    p.go(fill[0])
    p.do("Open", fill[0])
    return [["state", fill[0], "OPEN"]]


def bring(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Carry an object to another room."""
    obj, room = fill
    if p.room_of(obj) == room:
        raise ActionFailed("precondition", f"the {obj} is in the {room} already")
    p.fetch(obj, close_after=True)
    p.do("WalkTo", room)
    return [
        ["relation", "character", "HOLDS", obj],
        ["relation", "character", "INSIDE", p.house.name(p.house.room)],
    ]


def touch(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Go to an animal and pet it."""
    p.go(fill[0])
    p.do("Touch", fill[0])
    return [["did", "Touch", fill[0]]]


def greet(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Go to a person, turn to them and greet them."""
    p.go(fill[0])
    p.do("TurnTo", fill[0])
    p.do("Greet", fill[0])
    return [["did", "Greet", fill[0]]]


def set_table(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Put a plate, a fork and a glass on a table."""
    (table,) = fill
    done: list[Condition] = []
    for item in ("plate", "cutlery_fork", "drinking_glass"):
        p.fetch(item, close_after=True)
        p.put_on(item, table)
        done.append(["relation", item, "ON", table])
    return done


def coffee(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Put ground coffee in the coffee maker and start it."""
    p.fetch("ground_coffee", close_after=True)
    p.put_in("ground_coffee", "coffee_maker")
    p.switch_on("coffee_maker")
    return [
        ["relation", "ground_coffee", "INSIDE", "coffee_maker"],
        ["state", "coffee_maker", "ON"],
    ]


def look(verb: str) -> Act:
    """Go to an object, turn to it and look (or point) at it."""

    def act(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
        p.go(fill[0])
        p.do("TurnTo", fill[0])
        p.do(verb, fill[0])
        return [["did", verb, fill[0]]]

    return act


def plug(plug_in: bool) -> Act:
    """Plug a device in, or out."""

    def act(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
        p.go(fill[0])
        p.do("PlugIn" if plug_in else "PlugOut", fill[0])
        return [["state", fill[0], "PLUGGED_IN" if plug_in else "PLUGGED_OUT"]]

    return act


def lights_in(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Walk to a room and switch its light on."""
    p.do("WalkTo", fill[0])
    room = p.house.name(p.house.room)
    p.do("WalkTo", "light")
    p.do("SwitchOn", "light")
    return [["state", "light", "ON"], ["relation", "character", "INSIDE", room]]


def shower(p: Planner, fill: tuple[str, ...]) -> list[Condition]:
    """Wash and rinse hair in the shower, then dry it."""
    p.go("shower")
    p.do("Find", "shampoo")
    p.do("Grab", "shampoo")
    p.do("Squeeze", "shampoo")
    p.do("Wash", "hair")
    p.do("Rinse", "hair")
    p.do("Drop", "shampoo")
    p.do("Find", "towel")
    p.do("Grab", "towel")
    p.do("Wipe", "hair")
    return [["did", "Wash", "hair"], ["did", "Wipe", "hair"]]
