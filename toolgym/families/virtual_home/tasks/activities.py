"""Household activities: a title, what must hold at the end, and how a person would do it.

Each :class:`Template` is one kind of activity ("put <food> in the fridge") over a list of object
fills. :func:`make_activity` acts a fill out in a home with a :class:`~.planner.Planner` and
returns the title, the end conditions, the states the home must start in, and the gold programs:
the program as acted, and, when it also runs and reaches the goal, the same program without its
walks into rooms (people write both). Every gold runs and reaches the goal both as a whole
program (objects bound in advance) and step by step. An activity that cannot be done in a home,
or whose end conditions hold before anything is done, is not made for that home.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from toolgym.families.virtual_home.objects import valid_object_lists
from toolgym.families.virtual_home.tasks import acts
from toolgym.families.virtual_home.tasks.acts import Act, Condition
from toolgym.families.virtual_home.tasks.grounding import ground
from toolgym.families.virtual_home.tasks.planner import Planner
from toolgym.families.virtual_home.world import (
    ActionFailed,
    Household,
    prepare,
    program_steps,
    run_steps,
)
from toolgym.families.virtual_home.world.classes import CLASSES, ROOMS
from toolgym.families.virtual_home.world.conditions import unmet
from toolgym.simulators.seeding import stable_seed


@dataclass(frozen=True)
class Template:
    """One kind of activity.

    Attributes:
        key: its name.
        titles: title patterns (``{0}``, ``{1}``: the fill's objects in words); one is chosen
            per fill, fixed by the fill.
        fills: the object tuples it is made with.
        act: acts the activity out and returns its end conditions.
        states: the states the home must start in, from the fill (``{"floor_lamp": "OFF"}``).
    """

    key: str
    titles: tuple[str, ...]
    fills: tuple[tuple[str, ...], ...]
    act: Act
    states: Callable[[tuple[str, ...]], dict[str, str]] = field(default=lambda fill: {})

    def title(self, fill: tuple[str, ...]) -> str:
        """The activity's title for ``fill``."""
        pattern = self.titles[stable_seed(self.key, *fill) % len(self.titles)]
        return pattern.format(*(words(o) for o in fill))


@dataclass(frozen=True)
class Activity:
    """An activity made for one home."""

    key: str
    title: str
    conditions: list[Condition]
    states: dict[str, str]
    gold: tuple[str, ...]
    home: int


def words(obj: str) -> str:
    """A class name as words (``food_apple`` -> ``apple``, ``floor_lamp`` -> ``floor lamp``)."""
    for prefix in ("food_", "clothes_"):
        obj = obj.removeprefix(prefix)
    return obj.replace("_", " ")


def _fills(*names: str) -> tuple[tuple[str, ...], ...]:
    return tuple((n,) for n in names)


def _pairs(pairs: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(p.split(":")) for p in pairs.split())


_LIGHTS = ("light", "floor_lamp", "table_lamp")
_DEVICES = (
    "television",
    "computer",
    "stereo",
    "coffee_maker",
    "toaster",
    "washing_machine",
    "dishwasher",
    "laptop",
    "microwave",
    "cd_player",
    "oven",
    "vacuum_cleaner",
    "printer",
    "phone",
    "dvd_player",
    "video_game_console",
)
_FRIDGE_FOOD = (
    "milk",
    "food_cheese",
    "food_egg",
    "juice",
    "beer",
    "food_apple",
    "food_butter",
    "food_vegetable",
    "food_chicken",
    "food_lemon",
    "food_food",
    "food_banana",
    "wine",
    "food_bread",
    "food_peanut_butter",
)
_DISHES = (
    "plate",
    "bowl",
    "cup",
    "drinking_glass",
    "water_glass",
    "coffee_cup",
    "mug",
    "pot",
    "pan",
    "spoon",
    "cutlery_fork",
    "cutlery_knife",
    "wine_glass",
    "frying_pan",
)
_READING = ("novel", "book", "newspaper", "magazine", "mail", "check", "homework", "address_book")
_CLOTHES = (
    "clothes_shirt",
    "clothes_pants",
    "clothes_socks",
    "clothes_dress",
    "clothes_jacket",
    "clothes_hat",
    "clothes_scarf",
    "shoes",
    "pajamas",
    "spectacles",
    "headset",
)
_PORTABLE = (
    "cup",
    "book",
    "remote_control",
    "novel",
    "plate",
    "phone",
    "towel",
    "pillow",
    "toothbrush",
    "magazine",
    "newspaper",
    "juice",
    "milk",
    "food_apple",
    "coffee_cup",
    "water_glass",
    "spectacles",
    "clothes_jacket",
    "soap",
    "mail",
    "alarm_clock",
    "candle",
    "notebook",
    "pen",
    "bowl",
    "blanket",
    "food_banana",
    "beer",
    "shampoo",
    "folder",
)
_BRING_TO = ("bedroom", "living_room", "kitchen", "bathroom")


def _bring_fills() -> tuple[tuple[str, ...], ...]:
    return tuple((o, r) for o in _PORTABLE for r in _BRING_TO)


TEMPLATES: tuple[Template, ...] = (
    Template(
        "switch_on_light",
        ("Turn on {0}", "Switch on {0}"),
        _fills(*_LIGHTS),
        acts.switch_on,
        lambda f: {f[0]: "OFF"},
    ),
    Template(
        "switch_off_light",
        ("Turn off {0}", "Switch off {0}"),
        _fills(*_LIGHTS),
        acts.switch_off,
        lambda f: {f[0]: "ON"},
    ),
    Template(
        "switch_on_device",
        ("Turn on {0}", "Switch on {0}", "Start {0}"),
        _fills(*_DEVICES),
        acts.switch_on,
        lambda f: {f[0]: "OFF"},
    ),
    Template(
        "switch_off_device",
        ("Turn off {0}", "Switch off {0}"),
        _fills(*_DEVICES),
        acts.switch_off,
        lambda f: {f[0]: "ON"},
    ),
    Template(
        "lights_in_room",
        ("Turn on the lights in the {0}", "Light up the {0}"),
        _fills(*_BRING_TO, "dining_room", "home_office"),
        acts.lights_in,
        lambda f: {"light": "OFF"},
    ),
    Template(
        "fridge",
        ("Put {0} in fridge", "Put {0} in the fridge", "Store {0} in fridge"),
        _fills(*_FRIDGE_FOOD),
        acts.store("fridge"),
    ),
    Template(
        "dishwasher",
        ("Load {0} into dishwasher", "Put {0} in dishwasher"),
        _fills(*_DISHES),
        acts.store("dishwasher"),
    ),
    Template(
        "cabinet",
        ("Put away {0}", "Put {0} in kitchen cabinet"),
        _fills(*_DISHES),
        acts.store("kitchen_cabinet"),
    ),
    Template(
        "place",
        ("Put {0} on {1}", "Place {0} on {1}"),
        _pairs(
            "book:bookshelf novel:nightstand cup:kitchen_table plate:dining_table "
            "remote_control:coffee_table magazine:coffee_table towel:towel_rack pillow:couch "
            "coffee_cup:desk water_glass:nightstand newspaper:coffee_table bowl:kitchen_table "
            "spectacles:nightstand phone:desk alarm_clock:nightstand candle:dining_table "
            "notebook:desk mail:desk shoes:shoe_rack food_apple:kitchen_counter plate:kitchen_counter "
            "cup:kitchen_counter book:desk novel:bookshelf vase:dining_table toy:bookshelf "
            "folder:desk pen:desk clothes_shirt:bed blanket:bed juice:kitchen_table milk:kitchen_table"
        ),
        acts.place,
    ),
    Template(
        "wash_dish",
        ("Wash {0}", "Wash the {0}", "Clean {0}"),
        _fills(*_DISHES),
        acts.wash_dish,
        lambda f: {f[0]: "DIRTY"},
    ),
    Template(
        "read",
        ("Read {0}", "Read {0} on couch", "Read a {0}"),
        _fills(*_READING),
        acts.read("couch"),
    ),
    Template("read_in_bed", ("Read {0} in bed",), _fills(*_READING), acts.read("bed", lie=True)),
    Template(
        "drink",
        ("Drink {0}", "Get a glass of {0}", "Pour {0} and drink it"),
        _pairs(
            "water:drinking_glass juice:drinking_glass milk:drinking_glass beer:water_glass "
            "wine:wine_glass juice:cup milk:cup coffee:coffee_cup water:water_glass juice:water_glass"
        ),
        acts.drink,
    ),
    Template(
        "sleep", ("Go to sleep", "Sleep", "Go to bed"), (("bed",),), acts.rest(True, sleep=True)
    ),
    Template(
        "nap",
        ("Take a nap on {0}", "Nap on {0}"),
        _fills("couch", "love_seat"),
        acts.rest(True, sleep=True),
    ),
    Template(
        "sit",
        ("Sit on {0}", "Sit down on {0}", "Relax on {0}"),
        _fills("couch", "chair", "love_seat", "bed", "toilet", "piano_bench"),
        acts.rest(False),
    ),
    Template(
        "lie",
        ("Lie on {0}", "Lie down on {0}"),
        _fills("couch", "bed", "love_seat"),
        acts.rest(True),
    ),
    Template(
        "wear", ("Put on {0}", "Wear {0}", "Get dressed in {0}"), _fills(*_CLOTHES), acts.wear
    ),
    Template(
        "throw_away",
        ("Throw away {0}", "Throw {0} in the trash"),
        _fills(
            "newspaper",
            "paper",
            "napkin",
            "envelope",
            "magazine",
            "food_banana",
            "mail",
            "paper_towel",
            "food_apple",
        ),
        acts.throw_away,
    ),
    Template(
        "go_to",
        ("Go to {0}", "Walk to {0}"),
        _fills("kitchen", "bedroom", "bathroom", "living_room", "dining_room", "home_office"),
        acts.go_to,
    ),
    Template(
        "computer",
        ("Use computer", "Write an email", "Browse internet", "Work on computer"),
        _fills("computer"),
        acts.computer,
        lambda f: {"computer": "OFF"},
    ),
    Template(
        "watch_tv",
        ("Watch TV", "Watch television", "Relax and watch TV"),
        _fills("couch", "love_seat"),
        acts.watch_tv,
        lambda f: {"television": "OFF"},
    ),
    Template(
        "wash_hands",
        ("Wash hands", "Wash your hands"),
        _fills("hands_both"),
        acts.wash_body("hands_both", True),
        lambda f: {"faucet": "OFF"},
    ),
    Template(
        "wash_face",
        ("Wash face", "Wash your face"),
        _fills("face"),
        acts.wash_body("face", False),
        lambda f: {"faucet": "OFF"},
    ),
    Template("brush_teeth", ("Brush teeth", "Brush your teeth"), _fills("teeth"), acts.brush_teeth),
    Template(
        "wipe",
        ("Wipe {0}", "Clean {0}", "Wipe down {0}"),
        _pairs(
            "kitchen_counter:rag kitchen_table:rag dining_table:towel desk:rag coffee_table:rag "
            "bathroom_counter:towel nightstand:rag tv_stand:rag sink:sponge bookshelf:rag "
            "television:rag mirror:towel toilet:sponge bathtub:sponge"
        ),
        acts.wipe,
        lambda f: {f[0]: "DIRTY"},
    ),
    Template(
        "vacuum",
        ("Vacuum the floor", "Vacuum", "Clean the floor"),
        _fills("vacuum_cleaner"),
        acts.vacuum,
        lambda f: {"vacuum_cleaner": "OFF"},
    ),
    Template(
        "laundry",
        ("Wash {0}", "Do laundry with {0}", "Put {0} in the washing machine"),
        _fills(
            "clothes_shirt", "clothes_pants", "clothes_socks", "towel", "clothes_dress", "sheets"
        ),
        acts.appliance("washing_machine"),
        lambda f: {"washing_machine": "OFF"},
    ),
    Template(
        "microwave",
        ("Heat {0} in microwave", "Warm up {0}", "Microwave {0}"),
        _fills(
            "food_food",
            "food_chicken",
            "milk",
            "food_vegetable",
            "food_bread",
            "coffee_cup",
            "cup",
            "bowl",
        ),
        acts.appliance("microwave"),
        lambda f: {"microwave": "OFF"},
    ),
    Template(
        "eat",
        ("Eat {0}", "Have {0}", "Eat {0} at the {1}"),
        _pairs(
            "food_apple:kitchen_table food_banana:kitchen_table food_bread:kitchen_table "
            "food_cheese:dining_table food_food:dining_table food_chicken:dining_table "
            "food_apple:dining_table cereal:kitchen_table food_egg:kitchen_table "
            "food_lemon:kitchen_table"
        ),
        acts.eat,
    ),
    Template(
        "cut",
        ("Cut {0}", "Slice {0}", "Chop {0}"),
        _fills(
            "food_apple",
            "food_bread",
            "food_cheese",
            "food_lemon",
            "food_vegetable",
            "food_banana",
            "food_chicken",
            "food_butter",
        ),
        acts.cut,
    ),
    Template(
        "open",
        ("Open {0}", "Open the {0}"),
        _fills("window", "curtain"),
        acts.open_it,
        lambda f: {f[0]: "CLOSED"},
    ),
    Template(
        "bring",
        ("Bring {0} to the {1}", "Take {0} to {1}", "Carry {0} to the {1}"),
        _bring_fills(),
        acts.bring,
    ),
    Template("pet", ("Pet {0}", "Play with {0}", "Pet the {0}"), _fills("cat", "dog"), acts.touch),
    Template(
        "greet",
        ("Greet {0}", "Say hello to {0}", "Welcome {0}"),
        _fills("man", "woman", "child"),
        acts.greet,
    ),
    Template(
        "set_table",
        ("Set the {0}", "Set {0} for dinner"),
        _fills("dining_table", "kitchen_table"),
        acts.set_table,
    ),
    Template(
        "coffee",
        ("Make coffee", "Brew coffee"),
        _fills("coffee_maker"),
        acts.coffee,
        lambda f: {"coffee_maker": "OFF"},
    ),
    Template(
        "look",
        ("Look at {0}", "Look at the {0}"),
        _fills("picture", "photoframe", "wall_clock", "mirror", "window", "plant", "painting"),
        acts.look("LookAt"),
    ),
    Template(
        "point",
        ("Point at {0}",),
        _fills("picture", "wall_clock", "television", "window"),
        acts.look("PointAt"),
    ),
    Template(
        "plug_in",
        ("Plug in {0}", "Connect {0}"),
        _fills(
            "floor_lamp",
            "table_lamp",
            "television",
            "computer",
            "toaster",
            "coffee_maker",
            "stereo",
            "vacuum_cleaner",
            "printer",
            "microwave",
        ),
        acts.plug(True),
        lambda f: {f[0]: "PLUGGED_OUT"},
    ),
    Template(
        "plug_out",
        ("Unplug {0}", "Plug out {0}"),
        _fills(
            "floor_lamp",
            "table_lamp",
            "toaster",
            "coffee_maker",
            "stereo",
            "vacuum_cleaner",
            "printer",
            "television",
        ),
        acts.plug(False),
        lambda f: {f[0]: "OFF"},
    ),
    Template("shower", ("Take a shower", "Shower", "Wash hair"), _fills("shower"), acts.shower),
)
"""Every kind of activity."""


def activity_keys() -> list[tuple[Template, tuple[str, ...]]]:
    """Every (template, fill) pair whose objects are all catalogued, in table order."""
    return [
        (t, fill)
        for t in TEMPLATES
        for fill in t.fills
        if all(o in CLASSES or o in ROOMS for o in fill)
    ]


def make_activity(
    template: Template, fill: tuple[str, ...], home: int, start: Household
) -> Activity | None:
    """The activity acted out in ``start`` (home ``home``).

    ``None`` when it cannot be done there, or its end conditions hold already.
    """
    states = template.states(fill)
    house = start.copy()
    prepare(house, states)
    planner = Planner(house)
    try:
        conditions = template.act(planner, fill)
    except ActionFailed:
        return None
    if not unmet(house, conditions):
        return None  # nothing to do
    golds = [planner.program()]
    lists = valid_object_lists()
    if not ground(golds[0], lists).executable:
        return None  # it names an object the docs do not list for its action
    shortcut = "\n".join(line for line in planner.lines if not _room_walk(line))
    if shortcut != golds[0] and all(
        _reaches(house, shortcut, conditions, b) for b in (True, False)
    ):
        golds.append(shortcut)
    if not _reaches(house, golds[0], conditions, True):
        return None  # acted step by step, but a whole program binds its objects otherwise
    return Activity(template.key, template.title(fill), conditions, states, tuple(golds), home)


def _room_walk(line: str) -> bool:
    inside = line[line.find("(") + 1 : -1]
    return line.startswith("Agent.WalkTo(") and inside in ROOMS


def _reaches(start: Household, program: str, conditions: Sequence[Condition], bind: bool) -> bool:
    house = start.copy()
    result = run_steps(house, program_steps(program), bind)
    return result.ok and not unmet(house, conditions)
