"""Gold programs: Code-as-Policies code that does each template's task.

They are written as a model would write them for the top-level prompt: the primitives, the
fixed helpers and NumPy, reading the scene rather than hard-coding what the check knows (except
where the instruction itself names the objects). Every gold is run on its scene when the task
set is built, and must pass its check.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import permutations
from typing import Any

from toolgym.families.tabletop.tasks.templates import MAGNITUDES, NTHS, UNIT

BLOCKS = "block_names = [name for name in get_obj_names() if 'block' in name]\n"


def _each_block_to(place: str) -> str:
    return (
        BLOCKS + f"for block_name in block_names:\n    put_first_on_second(block_name, {place!r})\n"
    )


def _offset(direction: str, magnitude: str) -> str:
    dx, dy = (MAGNITUDES[magnitude] * u for u in UNIT[direction])
    return f"[{dx:g}, {dy:g}]"


def _si5(v: Mapping[str, Any]) -> str:
    axis, sign = {"top": (1, ">"), "bottom": (1, "<"), "left": (0, "<"), "right": (0, ">")}[
        v["direction"]
    ]
    return (
        f"bowl_pos = get_obj_pos({v['bowl']!r})\n"
        + BLOCKS
        + "for block_name in block_names:\n"
        + f"    if get_obj_pos(block_name)[{axis}] {sign} bowl_pos[{axis}]:\n"
        + f"        put_first_on_second(block_name, {v['corner_or_side']!r})\n"
    )


def _si6(v: Mapping[str, Any]) -> str:
    index = "get_closest_idx" if v["distance"] == "closest" else "get_farthest_idx"
    return (
        BLOCKS
        + "block_positions = get_obj_positions_np(block_names)\n"
        + f"idx = {index}(points=block_positions, point=get_obj_pos({v['bowl']!r}))\n"
        + f"put_first_on_second(block_names[idx], {v['corner_or_side']!r})\n"
    )


def _si7(v: Mapping[str, Any]) -> str:
    axis, order = {"top": (1, "-"), "bottom": (1, ""), "left": (0, ""), "right": (0, "-")}[
        v["direction"]
    ]
    return (
        BLOCKS
        + "block_positions = get_obj_positions_np(block_names)\n"
        + f"order = np.argsort({order}block_positions[:, {axis}])\n"
        + f"put_first_on_second(block_names[order[{NTHS.index(v['nth'])}]], "
        + f"{v['corner_or_side']!r})\n"
    )


def _mismatched(v: Mapping[str, Any], blocks: list[str], bowls: list[str]) -> str:
    for order in permutations(bowls):
        if all(b.split()[0] != w.split()[0] for b, w in zip(blocks, order, strict=True)):
            return "".join(
                f"put_first_on_second({b!r}, {w!r})\n" for b, w in zip(blocks, order, strict=True)
            )
    raise ValueError("no mismatched assignment")  # the scene draws colours that allow one


def _line(v: Mapping[str, Any]) -> str:
    start, end = {
        "horizontal": ("[0.1, 0.5]", "[0.9, 0.5]"),
        "vertical": ("[0.5, 0.9]", "[0.5, 0.1]"),
        "diagonal": ("[0.1, 0.9]", "[0.9, 0.1]"),
    }[v["line"]]
    return (
        BLOCKS
        + f"line = make_line(start=denormalize_xy({start}), end=denormalize_xy({end}))\n"
        + "points = interpolate_pts_on_line(line=line, n=len(block_names))\n"
        + "for block_name, point in zip(block_names, points):\n"
        + "    put_first_on_second(block_name, point)\n"
    )


def _spread_over(places: str) -> str:
    return (
        f"places = {places}\n"
        + BLOCKS
        + "for block_name, place in zip(block_names, places):\n"
        + "    put_first_on_second(block_name, place)\n"
    )


GOLDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "SI_0": lambda v: f"put_first_on_second({v['block']!r}, {v['object1']!r})\n",
    "SI_1": lambda v: BLOCKS + "stack_objects_in_order(object_names=block_names)\n",
    "SI_2": lambda v: _each_block_to(v["corner_or_side"]),
    "SI_3": lambda v: _each_block_to(v["bowl"]),
    "SI_4": lambda v: (
        BLOCKS
        + "for block_name in block_names:\n"
        + "    bowl_name = block_name.replace('block', 'bowl')\n"
        + "    if is_obj_visible(bowl_name):\n"
        + "        put_first_on_second(block_name, bowl_name)\n"
    ),
    "SI_5": _si5,
    "SI_6": _si6,
    "SI_7": _si7,
    "UI_0": lambda v: _spread_over(
        "['top left corner', 'top right corner', 'bottom left corner', 'bottom right corner']"
    ),
    "UI_2": lambda v: _each_block_to(v["corner_or_side"]),
    "UI_3": lambda v: (
        f"target_pos = get_obj_pos({v['bowl']!r}) + {_offset(v['direction'], v['magnitude'])}\n"
        + f"put_first_on_second({v['block']!r}, target_pos)\n"
    ),
    "UI_4": lambda v: (
        "corners = ['top left corner', 'top right corner', 'bottom left corner', "
        + "'bottom right corner']\n"
        + "corner_positions = np.array([get_obj_pos(corner) for corner in corners])\n"
        + f"idx = get_{v['distance']}_idx(points=corner_positions, point=get_obj_pos({v['bowl']!r}))\n"
        + f"put_first_on_second({v['block']!r}, corners[idx])\n"
    ),
    "UI_5": _line,
    "UI_6": lambda v: _spread_over("['top side', 'left side', 'right side', 'bottom side']"),
    "D_0": lambda v: (
        f"target_pos = get_obj_pos({v['block']!r}) + {_offset(v['direction'], v['magnitude'])}\n"
        + f"put_first_on_second({v['block']!r}, target_pos)\n"
    ),
    "D_1": lambda v: (
        f"target_pos = (get_obj_pos({v['object1']!r}) + get_obj_pos({v['object2']!r})) / 2\n"
        + f"put_first_on_second({v['block']!r}, target_pos)\n"
    ),
    "D_2": lambda v: (
        f"names = [name for name in get_obj_names() if {v['kind']!r} in name]\n"
        + f"say('there are ' + str(len(names)) + ' {v['kind']}s')\n"
    ),
}
"""The gold program of each template (``UI_1``'s needs the scene: :func:`gold_program`)."""


_CONTEXT = "f'objects = {get_obj_names()}'"

PARSED_GOLDS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "SI_5": lambda v: (
        f"block_names = parse_obj_name('the blocks to the {v['direction']} of the {v['bowl']}', "
        f"{_CONTEXT})\n"
        "for block_name in block_names:\n"
        f"    put_first_on_second(block_name, {v['corner_or_side']!r})\n"
    ),
    "SI_6": lambda v: (
        f"block_name = parse_obj_name('the block {v['distance']} to the {v['bowl']}', "
        f"{_CONTEXT})\n"
        f"put_first_on_second(block_name, {v['corner_or_side']!r})\n"
    ),
    "SI_7": lambda v: (
        f"block_name = parse_obj_name('the {v['nth']} block from the {v['direction']}', "
        f"{_CONTEXT})\n"
        f"put_first_on_second(block_name, {v['corner_or_side']!r})\n"
    ),
    "D_1": lambda v: (
        f"target_pos = parse_position('between the {v['object1']} and the {v['object2']}', "
        f"{_CONTEXT})\n"
        f"put_first_on_second({v['block']!r}, target_pos)\n"
    ),
}
"""Golds that read the scene through the parsers, as Code as Policies' programs do (the
demonstrations use them, so that prompts show the parsers at work)."""


def gold_program(
    template_id: str,
    variables: Mapping[str, Any],
    blocks: list[str],
    bowls: list[str],
    parsed: bool = False,
) -> str:
    """The gold program of a task (with ``parsed``, one that uses the parsers when one exists)."""
    if parsed and template_id in PARSED_GOLDS:
        return PARSED_GOLDS[template_id](variables)
    if template_id == "UI_1":
        return _mismatched(variables, blocks, bowls)
    return GOLDS[template_id](variables)
