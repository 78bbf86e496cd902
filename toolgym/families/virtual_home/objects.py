"""Which objects each action documents: toolgym's ``valid_object_lists``.

The benchmark's docs say, for each ``Agent`` call, which objects it takes
(``# Lie on an object. 'object' can only be: ['bed', 'couch']. ``), and its lexical
executability check holds programs to those lists. The original lists are not public; these are
derived, and versioned with the env:

* the vocabulary is every class that most homes hold (at least half of them, by the home
  templates), the rooms, the body parts, and the people and pets that activities name; the
  original lists are of that size (``Agent.WalkTo`` took 107 objects), and ten docs of them fit a
  small model's context;
* an action takes the classes of the vocabulary whose properties its preconditions ask for
  (``Agent.Grab``: ``GRABBABLE``; ``Agent.PutIn``'s ``object2``: ``CONTAINERS``; ``Agent.WalkTo``:
  anything), plus every object the benchmark's published docs list for it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from toolgym.families.virtual_home.world import ACTIONS
from toolgym.families.virtual_home.world.classes import CLASSES, ROOMS
from toolgym.families.virtual_home.world.executor import POUR_TARGETS, PUSHABLE, SQUEEZABLE
from toolgym.families.virtual_home.world.homes import ROOM_TEMPLATES, STRUCTURE

PUBLISHED: dict[str, tuple[str, ...]] = {
    "Read": ("address_book", "homework", "mail", "novel", "check", "newspaper"),
    "Drink": ("water_glass", "cup", "juice", "coffee", "drinking_glass", "coffee_cup", "beer"),
    "Squeeze": ("sponge", "shampoo", "soap", "dish_soap", "rag", "cleaning_solution", "towel"),
    "TypeOn": ("keyboard", "phone"),
    "LieOn": ("bed", "couch"),
    "SitOn": ("bed", "chair", "toilet", "couch", "love_seat"),
    "Watch": ("television", "computer"),
    "RunTo": (
        "table",
        "laptop",
        "water",
        "chair",
        "cup",
        "dining_room",
        "toilet",
        "sink",
        "home_office",
        "washing_machine",
        "bathroom",
        "bedroom",
    ),
    "TakeOff": (
        "clothes_jacket",
        "clothes_dress",
        "clothes_hat",
        "shoes",
        "clothes_shirt",
        "clothes_pants",
    ),
    "PutOn": (
        "headset",
        "spectacles",
        "pajamas",
        "clothes_socks",
        "clothes_jacket",
        "clothes_scarf",
        "clothes_dress",
        "shoes",
        "clothes_shirt",
        "clothes_pants",
    ),
    "PutIn.object2": (
        "dresser",
        "folder",
        "microwave",
        "filing_cabinet",
        "oven",
        "freezer",
        "kitchen_cabinet",
    ),
    "SwitchOn": (
        "vacuum_cleaner",
        "console",
        "light",
        "phone",
        "video_game_console",
        "cd_player",
        "oven",
        "shredder",
        "coffee_maker",
        "television",
        "computer",
        "faucet",
        "floor_lamp",
        "toaster",
        "electrical_outlet",
        "washing_machine",
        "stereo",
        "microwave",
        "fax_machine",
        "dishwasher",
        "electric_shaver",
        "remote_control",
        "laptop",
    ),
    "Close": (
        "cupboard",
        "bookshelf",
        "trashcan",
        "coffee_maker",
        "dresser",
        "bathroom_cabinet",
        "basket_for_clothes",
        "mail",
        "bag",
        "folder",
        "microwave",
        "filing_cabinet",
        "dishwasher",
        "purse",
        "freezer",
        "washing_machine",
        "kitchen_cabinet",
    ),
    "Open": (
        "coffee_pot",
        "dresser",
        "freezer",
        "bookshelf",
        "cupboard",
        "folder",
        "mail",
        "filing_cabinet",
        "window",
        "oven",
        "desk",
        "kitchen_cabinet",
        "trashcan",
        "coffee_maker",
        "curtain",
        "bathroom_cabinet",
        "nightstand",
        "bag",
        "washing_machine",
        "toilet",
        "basket_for_clothes",
        "microwave",
        "dishwasher",
        "purse",
    ),
    "Pull": (
        "table",
        "mop",
        "mouse",
        "chair",
        "clothes_pants",
        "light_bulb",
        "curtain",
        "vacuum_cleaner",
        "mat",
        "cat",
        "food_food",
        "drawing",
        "shoes",
        "centerpiece",
        "sheets",
        "pot",
        "laptop",
    ),
    "Scrub": (
        "mop",
        "cup",
        "toilet",
        "plate",
        "soap",
        "sink",
        "spoon",
        "cat",
        "shower",
        "dishwasher",
        "hands_both",
        "drinking_glass",
        "bowl",
        "towel",
    ),
}
"""The lists the benchmark's published VirtualHome docs show (``Action.param`` for a second
object)."""


def _has(*props: str, extra: frozenset[str] = frozenset()) -> Callable[[str], bool]:
    def test(name: str) -> bool:
        cls = CLASSES[name]
        return name in extra or any(p in cls.properties for p in props)

    return test


def _anything(name: str) -> bool:
    return name not in ROOMS


_TAKES: dict[str, Callable[[str], bool]] = {
    "WalkTo": lambda name: True,
    "RunTo": lambda name: True,
    "Grab": _has("GRABBABLE"),
    "Open": _has("CAN_OPEN", extra=frozenset({"desk", "window"})),
    "Close": _has("CAN_OPEN", extra=frozenset({"desk", "window"})),
    "Put.object1": _has("GRABBABLE"),
    "Put.object2": _has("SURFACES"),
    "PutIn.object1": _has("GRABBABLE"),
    "PutIn.object2": _has("CONTAINERS"),
    "PutBack": _has("GRABBABLE"),
    "PutOn": _has("CLOTHES"),
    "TakeOff": _has("CLOTHES"),
    "SwitchOn": _has("HAS_SWITCH"),
    "SwitchOff": _has("HAS_SWITCH"),
    "PlugIn": _has("HAS_PLUG"),
    "PlugOut": _has("HAS_PLUG"),
    "Drink": _has("DRINKABLE", "RECIPIENT"),
    "Eat": _has("EATABLE"),
    "Cut": lambda name: {"EATABLE", "CUTTABLE"} <= CLASSES[name].properties,
    "Watch": _has("LOOKABLE"),
    "Read": _has("READABLE"),
    "Greet": _has("PERSON"),
    "Pour.object1": _has("POURABLE", "DRINKABLE"),
    "Pour.object2": _has("RECIPIENT", extra=POUR_TARGETS),
    "Push": _has("MOVABLE", extra=PUSHABLE),
    "Pull": _has("MOVABLE", extra=PUSHABLE),
    "Squeeze": _has("CLOTHES", extra=SQUEEZABLE),
    "Drop": _has("GRABBABLE"),
    "SitOn": _has("SITTABLE"),
    "LieOn": _has("LIEABLE"),
    "TypeOn": _has("HAS_SWITCH", extra=frozenset({"keyboard"})),
}
"""Which classes each action (or each of its parameters) takes; the rest take anything but a
room."""


COMMON = 0.5
"""The chance from which a template's furniture or object is in the vocabulary: the docs list
what most homes hold, so that ten docs fit a small model's context."""

EXTRAS = ("man", "woman", "child", "cat", "dog", "painting", "button", "water", "coffee")
"""Classes beyond the home templates that activities and published lists name (people, pets)."""


@functools.lru_cache(maxsize=1)
def vocabulary() -> tuple[str, ...]:
    """Every class the lists draw from: what most homes hold, rooms, body parts, people, pets."""
    names: set[str] = set(ROOMS) | set(STRUCTURE) | set(EXTRAS)
    for areas in ROOM_TEMPLATES.values():
        for items in areas.values():
            for item in items:
                if item.p >= COMMON:
                    names.add(item.name)
                    names.update(n for n, p in (*item.on, *item.inside) if p >= COMMON)
    names.update(n for n, cls in CLASSES.items() if "BODY_PART" in cls.properties)
    return tuple(sorted(n for n in names if n in CLASSES))


@functools.lru_cache(maxsize=1)
def valid_object_lists() -> dict[str, dict[str, list[str]]]:
    """``{"Agent.<Name>": {}, {"object": [...]} or {"object1": [...], "object2": [...]}}``."""
    words = vocabulary()
    out: dict[str, dict[str, list[str]]] = {}
    for action in ACTIONS:
        entry: dict[str, list[str]] = {}
        for param in action.params:
            key = action.name if action.arity == 1 else f"{action.name}.{param}"
            test = _TAKES.get(key, _anything)
            chosen = {w for w in words if test(w)}
            chosen.update(n for n in PUBLISHED.get(key, ()) if n in CLASSES)
            entry[param] = sorted(chosen)
        out[action.qualname] = entry
    return out
