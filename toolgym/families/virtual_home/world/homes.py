"""Homes: rooms, furniture and objects, generated from a seed.

A home is built from room templates. Each room has *areas* (the bed with its nightstand and lamps,
the kitchen counter with the sink and stove, the sofa facing the television); the furniture of an
area and what stands on or in it are all ``CLOSE`` to each other, as things within reach are in
VirtualHome's scene graphs. Every home has a kitchen, a bathroom, a bedroom and a living room;
a dining room and a home office come with some homes (where a home has no home office, the desk
stands in the living room or the bedroom). What each area holds, which lights are on, which
dishes are dirty and which lamp is unplugged vary with the seed.

:data:`HOMES` homes (seeds ``0`` to ``6``) are the benchmark's; any seed makes another home.
Every object starts in its class's default states (``CAN_OPEN``: closed, ``HAS_SWITCH``: off,
``HAS_PLUG``: plugged in, everything else clean) unless its home says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from toolgym.families.virtual_home.world.classes import CLASSES
from toolgym.families.virtual_home.world.graph import CHARACTER, Node, SceneGraph
from toolgym.simulators.seeding import stable_rng

HOMES = 7
"""The number of benchmark homes (seeds 0 to 6)."""

STRUCTURE = ("floor", "wall", "ceiling", "door", "window", "light")
"""What every room has (``light`` is the room's light switch)."""


@dataclass(frozen=True)
class Item:
    """A piece of furniture of an area, and what it may hold.

    Attributes:
        name: its class.
        p: the chance that a home has it.
        on: ``(class, chance)`` of objects standing on it.
        inside: ``(class, chance)`` of objects inside it.
        faces: a class it faces (a sofa faces the television).
    """

    name: str
    p: float = 1.0
    on: tuple[tuple[str, float], ...] = ()
    inside: tuple[tuple[str, float], ...] = ()
    faces: str | None = None


def _i(name: str, p: float = 1.0, on: str = "", inside: str = "", faces: str | None = None) -> Item:
    def parse(text: str) -> tuple[tuple[str, float], ...]:
        out = []
        for word in text.split():
            cls, _, chance = word.partition("@")
            out.append((cls, float(chance) if chance else 1.0))
        return tuple(out)

    return Item(name, p, parse(on), parse(inside), faces)


KITCHEN: dict[str, tuple[Item, ...]] = {
    "counter": (
        _i(
            "kitchen_counter",
            on="cutting_board toaster coffee_maker@.8 kettle@.6 microwave "
            "food_bread@.7 coffee_pot@.5 cutlery_knife cutlery_fork@.7 spoon@.6 bowl@.5 "
            "paper_towel@.5 food_apple@.5 food_banana@.5 blender@.3",
        ),
        _i("sink", on="dish_soap sponge plate@.8 cup@.6 rag@.5"),
        _i("faucet"),
        _i("stove", on="pot@.7 pan@.7 frying_pan@.3"),
        _i("oven", inside="baking_tray@.5"),
        _i("dishwasher", inside="plate@.5 drinking_glass@.4"),
        _i(
            "kitchen_cabinet",
            inside="plate bowl drinking_glass water_glass coffee_cup mug@.6 "
            "pot@.4 food_sugar@.6 food_salt@.6 food_oatmeal@.4 ground_coffee@.6 cereal@.5 "
            "tea@.5 measuring_cup@.4",
        ),
        _i(
            "fridge",
            inside="milk food_egg food_cheese juice@.8 beer@.6 food_apple@.5 "
            "food_butter@.6 food_vegetable@.6 food_chicken@.4 water@.7 food_lemon@.4 "
            "food_food@.7 wine@.3 food_peanut_butter@.4",
        ),
        _i("freezer", p=0.5, inside="ice@.8 food_food@.5"),
        _i("trashcan"),
    ),
    "table": (
        _i("kitchen_table", on="placemat@.6 food_food@.3 napkin@.5 water_glass@.4"),
        _i("chair"),
        _i("chair", p=0.7),
    ),
}

LIVING_ROOM: dict[str, tuple[Item, ...]] = {
    "television": (
        _i(
            "tv_stand", on="television dvd_player@.3 video_game_console@.3 video_game_controller@.3"
        ),
        _i("couch", on="pillow@.8", faces="television"),
        _i(
            "coffee_table",
            on="remote_control magazine@.6 newspaper@.6 candle@.4 coffee_cup@.3 bowl@.2",
        ),
        _i("love_seat", p=0.4, faces="television"),
        _i("floor_lamp", p=0.8),
        _i("mat", p=0.6),
    ),
    "reading": (
        _i(
            "bookshelf",
            on="book novel@.8 photoframe@.5 vase@.4 board_game@.4 address_book@.4 cd@.3",
        ),
        _i("chair", p=0.6),
        _i("table_lamp", p=0.5),
        _i("stereo", p=0.5, on="cd_player@.5"),
        _i("phone", p=0.6),
        _i("plant", p=0.7),
        _i("piano", p=0.15),
        _i("piano_bench", p=0.15),
    ),
    "door": (
        _i("curtain", p=0.8),
        _i("picture", p=0.7),
        _i("wall_clock", p=0.6),
        _i("shoe_rack", p=0.4, on="shoes@.8"),
        _i("hanger", p=0.4),
        _i("mail", p=0.4),
    ),
}

BEDROOM: dict[str, tuple[Item, ...]] = {
    "bed": (
        _i("bed", on="pillow sheets blanket@.7 pajamas@.4", faces="television"),
        _i(
            "nightstand",
            on="table_lamp alarm_clock@.8 novel@.6 spectacles@.4 cellphone@.3 water_glass@.3",
            inside="book@.3 check@.2",
        ),
        _i("floor_lamp", p=0.6),
        _i("rug", p=0.5),
    ),
    "dresser": (
        _i(
            "dresser",
            inside="clothes_shirt clothes_pants clothes_socks clothes_dress@.6 "
            "clothes_scarf@.4 clothes_underwear@.5",
            on="hair_brush@.5 comb@.4 perfume@.3 jewelry@.3",
        ),
        _i(
            "closet",
            inside="clothes_jacket clothes_hat@.6 clothes_dress@.4 hanger@.6 "
            "clothes_shirt@.5 shoes@.6 headset@.2",
        ),
        _i(
            "basket_for_clothes",
            inside="clothes_shirt@.6 clothes_pants@.5 clothes_socks@.5 towel@.3",
        ),
        _i("mirror", p=0.6),
        _i("television", p=0.3),
        _i("chair", p=0.5),
    ),
}

BATHROOM: dict[str, tuple[Item, ...]] = {
    "sink": (
        _i(
            "bathroom_counter",
            on="soap tooth_paste toothbrush cup@.4 hair_brush@.4 "
            "electric_shaver@.4 after_shave@.3 face_cream@.4 lotionbottle@.3 deodorant@.4 "
            "comb@.3",
        ),
        _i("sink"),
        _i("faucet"),
        _i(
            "bathroom_cabinet",
            inside="shampoo cleaning_solution toilet_paper@.6 "
            "razor@.4 nail_polish@.2 towel@.4 rag@.4 sponge@.3 hair_dryer@.3",
        ),
        _i("mirror"),
        _i("towel_rack", on="towel"),
    ),
    "bath": (
        _i("toilet", on="toilet_paper@.7"),
        _i("shower", on="shampoo@.5 soap@.4"),
        _i("bathtub", p=0.6, on="soap@.5"),
        _i("bath_mat", p=0.6),
        _i("washing_machine", p=0.5, inside="clothes_shirt@.3 towel@.3"),
        _i("trashcan", p=0.6),
        _i("mop_bucket", p=0.3, on="mop@.8"),
        _i("bucket", p=0.3),
    ),
}

DINING_ROOM: dict[str, tuple[Item, ...]] = {
    "table": (
        _i(
            "dining_table",
            on="plate@.8 centerpiece@.6 water_glass@.5 cutlery_fork@.5 "
            "cutlery_knife@.4 napkin@.5 wine_glass@.4 candle@.4 food_food@.3 "
            "salt_shaker@.4 placemat@.5",
        ),
        _i("chair"),
        _i("chair"),
        _i("chair", p=0.6),
        _i("cupboard", inside="plate@.6 wine_glass@.5 bowl@.4 wine@.4"),
        _i("washing_machine", p=0.2),
        _i("vacuum_cleaner", p=0.4),
    ),
}

HOME_OFFICE: dict[str, tuple[Item, ...]] = {
    "desk": (
        _i(
            "desk",
            on="computer keyboard mouse mousepad@.8 cpu_screen@.5 phone@.6 "
            "notebook@.6 pen@.7 pencil@.4 paper@.6 coffee_cup@.4 laptop@.3 headset@.3 "
            "highlighter@.3 stapler@.3",
            inside="folder@.6 check@.3 envelope@.4",
        ),
        _i("chair", faces="computer"),
        _i("table_lamp", p=0.6),
        _i("printer", p=0.6, on="paper@.5"),
        _i("filing_cabinet", p=0.6, inside="folder homework@.4 check@.3 address_book@.3"),
        _i("shredder", p=0.3),
        _i("fax_machine", p=0.2),
    ),
    "shelf": (
        _i("bookshelf", on="book novel@.5 globe@.3 photoframe@.3"),
        _i("floor_lamp", p=0.5),
        _i("couch", p=0.3),
        _i("trashcan", p=0.5),
    ),
}

ROOM_TEMPLATES: dict[str, dict[str, tuple[Item, ...]]] = {
    "kitchen": KITCHEN,
    "living_room": LIVING_ROOM,
    "bedroom": BEDROOM,
    "bathroom": BATHROOM,
    "dining_room": DINING_ROOM,
    "home_office": HOME_OFFICE,
}
"""Each room's areas and their furniture."""

OPTIONAL_ROOMS = ("dining_room", "home_office")

LIGHTS = ("light", "floor_lamp", "table_lamp", "ceiling_lamp", "wall_lamp")
"""Switchable lights, on or off as the home's seed decides."""


def default_states(properties: frozenset[str]) -> set[str]:
    """The states a new object of these properties starts in."""
    states = set()
    if "CAN_OPEN" in properties:
        states.add("CLOSED")
    if "HAS_SWITCH" in properties:
        states.add("OFF")
    if "HAS_PLUG" in properties:
        states.add("PLUGGED_IN")
    if properties & {"GRABBABLE", "RECIPIENT", "SURFACES", "CLOTHES", "BODY_PART"}:
        states.add("CLEAN")
    return states


def new_node(graph: SceneGraph, class_name: str) -> Node:
    """A node of a catalogued class with its default states, added to ``graph``."""
    cls = CLASSES[class_name]
    node = Node(graph.next_id(), class_name, cls.category, cls.properties)
    node.states = default_states(cls.properties)
    return graph.add_node(node)


def make_home(seed: int) -> SceneGraph:
    """Home ``seed``: the rooms, furniture and objects its seed draws, and the character.

    The character stands in the living room, close to nothing, with empty hands.
    """
    rng = stable_rng("virtual_home", "home", seed)
    graph = SceneGraph()
    graph.add_node(Node(CHARACTER, "character", "Characters", frozenset({"PERSON"}), set()))
    rooms = ["kitchen", "living_room", "bedroom", "bathroom"]
    rooms += [r for r in OPTIONAL_ROOMS if rng.random() < 0.55]
    areas = {room: dict(ROOM_TEMPLATES[room]) for room in rooms}
    if "home_office" not in rooms:  # the desk stands in another room
        host = "living_room" if rng.random() < 0.6 else "bedroom"
        areas[host]["desk"] = HOME_OFFICE["desk"]
    room_ids = {}
    for room in rooms:
        room_ids[room] = new_node(graph, room).id
    for room in rooms:
        _furnish(graph, rng, room_ids[room], areas[room])
    _vary_states(graph, rng)
    graph.add_edge(CHARACTER, "INSIDE", room_ids["living_room"])
    return graph


def _furnish(
    graph: SceneGraph, rng: np.random.Generator, room: int, areas: dict[str, tuple[Item, ...]]
) -> None:
    structure = [new_node(graph, name).id for name in STRUCTURE]
    for node in structure:
        graph.add_edge(node, "INSIDE", room)
    graph.add_close(structure[3], structure[5])  # the light switch is by the door
    for items in areas.values():
        members: list[int] = []
        facing: list[tuple[int, str]] = []
        for item in items:
            if rng.random() >= item.p:
                continue
            furniture = new_node(graph, item.name).id
            graph.add_edge(furniture, "INSIDE", room)
            members.append(furniture)
            if item.faces is not None:
                facing.append((furniture, item.faces))
            for relation, contents in (("ON", item.on), ("INSIDE", item.inside)):
                for name, chance in contents:
                    if rng.random() < chance:
                        thing = new_node(graph, name).id
                        graph.add_edge(thing, relation, furniture)
                        graph.add_edge(thing, "INSIDE", room)
                        members.append(thing)
        for k, a in enumerate(members):
            for b in members[k + 1 :]:
                graph.add_close(a, b)
        for furniture, target in facing:
            for other in members:
                if graph.nodes[other].class_name == target:
                    graph.add_edge(furniture, "FACING", other)
                    break


def _vary_states(graph: SceneGraph, rng: np.random.Generator) -> None:
    lights_on = rng.random() < 0.5
    for node in list(graph.nodes.values()):
        props = node.properties
        if (
            node.class_name in LIGHTS
            and "HAS_SWITCH" in props
            and (lights_on or rng.random() < 0.3)
        ):
            node.states = (node.states - {"OFF"}) | {"ON"}
        if node.class_name in ("door", "curtain") and "CAN_OPEN" in props:
            node.states = (node.states - {"CLOSED"}) | {"OPEN"}
        if "HAS_PLUG" in props and node.class_name in LIGHTS[1:] and rng.random() < 0.2:
            node.states = (node.states - {"PLUGGED_IN", "ON"}) | {"PLUGGED_OUT", "OFF"}
        if "CLEAN" in node.states and _dirty_place(graph, node.id) and rng.random() < 0.7:
            node.states = (node.states - {"CLEAN"}) | {"DIRTY"}


def _dirty_place(graph: SceneGraph, node_id: int) -> bool:
    supports = graph.targets(node_id, "ON") | graph.targets(node_id, "INSIDE")
    return any(graph.nodes[s].class_name in ("sink", "basket_for_clothes") for s in supports)
