"""The 15 instruction templates (8 seen, 7 unseen) and the demonstration-only ones.

A template says how many blocks and bowls its scenes hold, how its attributes are drawn from the
original's pools, and which facts of the starting scene its check needs (the blocks beyond a
bowl, the block closest to it, ...). Those facts are computed once from the settled starting
scene and kept in the task (``instruction_vars_dict``), as the original computed them from its
layout.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgym.families.tabletop.world.workspace import (
    COLORS,
    CORNER_OR_SIDE,
    CORNER_POS,
    CORNERS,
    in_bounds,
)

DIRECTIONS = ("top", "left", "bottom", "right")
"""The ``direction`` pool."""

DISTANCES = ("closest", "farthest")
"""The ``distance`` pool."""

MAGNITUDES = {"10 cm": 0.1, "0.2 m": 0.2}
"""The ``magnitude`` pool, and the offset each stands for in metres."""

NTHS = ("first", "second", "third", "fourth")
"""The ``nth`` pool."""

LINES = ("horizontal", "vertical", "diagonal")
"""The ``line`` pool."""

UNIT = {"top": (0.0, 1.0), "bottom": (0.0, -1.0), "left": (-1.0, 0.0), "right": (1.0, 0.0)}
"""Each direction as a unit step on the table."""

MARGIN = 0.01
"""The least gap between the facts a task's check depends on (no near-ties at reset)."""


class Reject(Exception):
    """A drawn scene does not make a clear task of the template (draw again)."""


Scene = Mapping[str, tuple[float, float, float]]
"""The settled starting positions, by name."""


@dataclass(frozen=True)
class Template:
    """An instruction template.

    Attributes:
        template_id: ``SI_0`` .. ``SI_7`` (seen), ``UI_0`` .. ``UI_6`` (unseen), ``D_0`` ..
            (demonstrations only).
        text: the instruction, with ``{attribute}`` fields.
        blocks: the fewest and most blocks of its scenes.
        bowls: the fewest and most bowls.
        draw: ``(rng, blocks, bowls) -> vars``: the attributes (and colour constraints) drawn
            before the scene is laid out.
        facts: ``(vars, scene, strict) -> vars``: the facts of the starting scene the check
            needs, added to the attributes; with ``strict`` (when tasks are made), an unclear
            scene raises :class:`Reject` (near-ties, a place off the table), else the facts are
            computed as they come (tasks from files and inline tasks).
        same_colors: whether the bowls take the blocks' colours (matching-colour tasks).
    """

    template_id: str
    text: str
    blocks: tuple[int, int]
    bowls: tuple[int, int]
    draw: Callable[[np.random.Generator, list[str], list[str]], dict[str, Any]]
    facts: Callable[[dict[str, Any], Scene, bool], dict[str, Any]] | None = None
    same_colors: bool = False

    def instruction(self, variables: Mapping[str, Any]) -> str:
        """The instruction with its attributes filled in."""
        return self.text.format(**variables)


def _pick(rng: np.random.Generator, pool: Any) -> Any:
    pool = list(pool)
    return pool[int(rng.integers(len(pool)))]


def _xy(scene: Scene, name: str) -> np.ndarray:
    return np.array(scene[name][:2], dtype=float)


def _blocks(scene: Scene) -> list[str]:
    return [name for name in scene if name.endswith(" block")]


def _beyond(direction: str, position: np.ndarray, reference: np.ndarray) -> float:
    """How far ``position`` is beyond ``reference`` in ``direction`` (negative: not beyond)."""
    return float(np.dot(position - reference, UNIT[direction]))


def _clear_order(values: list[float], strict: bool) -> None:
    ordered = sorted(values)
    if strict and any(b - a < MARGIN for a, b in itertools.pairwise(ordered)):
        raise Reject("two values are too close to order")


def _si5_facts(v: dict[str, Any], scene: Scene, strict: bool = True) -> dict[str, Any]:
    bowl = _xy(scene, v["bowl"])
    gaps = {b: _beyond(v["direction"], _xy(scene, b), bowl) for b in _blocks(scene)}
    if strict and any(abs(g) < MARGIN for g in gaps.values()):
        raise Reject("a block is level with the bowl")
    targets = [b for b, g in gaps.items() if g > 0]
    if strict and not targets:
        raise Reject("no block beyond the bowl")
    initial = {f"{b}_initial_pos": list(scene[b]) for b in _blocks(scene)}
    return {**v, "target_blocks": targets, **initial}


def _si6_facts(v: dict[str, Any], scene: Scene, strict: bool = True) -> dict[str, Any]:
    bowl = np.array(scene[v["bowl"]], dtype=float)
    distances = {b: float(np.linalg.norm(np.array(scene[b]) - bowl)) for b in _blocks(scene)}
    _clear_order(list(distances.values()), strict)
    pick = min if v["distance"] == "closest" else max
    return {**v, "target_block": pick(distances, key=distances.__getitem__)}


def _si7_facts(v: dict[str, Any], scene: Scene, strict: bool = True) -> dict[str, Any]:
    reach = {b: float(np.dot(_xy(scene, b), UNIT[v["direction"]])) for b in _blocks(scene)}
    _clear_order(list(reach.values()), strict)
    ordered = sorted(reach, key=reach.__getitem__, reverse=True)  # nearest that side first
    return {**v, "target_block": ordered[NTHS.index(v["nth"])]}


def _ui3_facts(v: dict[str, Any], scene: Scene, strict: bool = True) -> dict[str, Any]:
    target = _xy(scene, v["bowl"]) + MAGNITUDES[v["magnitude"]] * np.array(UNIT[v["direction"]])
    if strict and not in_bounds(float(target[0]), float(target[1])):
        raise Reject("the place falls off the table")
    return {**v, "target_pos": [float(target[0]), float(target[1])]}


def _ui4_facts(v: dict[str, Any], scene: Scene, strict: bool = True) -> dict[str, Any]:
    bowl = _xy(scene, v["bowl"])
    distances = {c: float(np.linalg.norm(np.array(CORNER_POS[c][:2]) - bowl)) for c in CORNERS}
    _clear_order(list(distances.values()), strict)
    pick = min if v["distance"] == "closest" else max
    return {**v, "target_corner": pick(distances, key=distances.__getitem__)}


def _d0_facts(v: dict[str, Any], scene: Scene, strict: bool = True) -> dict[str, Any]:
    target = _xy(scene, v["block"]) + MAGNITUDES[v["magnitude"]] * np.array(UNIT[v["direction"]])
    if strict and not in_bounds(float(target[0]), float(target[1])):
        raise Reject("the place falls off the table")
    return {**v, "target_pos": [float(target[0]), float(target[1])]}


def _d1_facts(v: dict[str, Any], scene: Scene, strict: bool = True) -> dict[str, Any]:
    middle = (_xy(scene, v["object1"]) + _xy(scene, v["object2"])) / 2
    others = [n for n in scene if n not in (v["block"], v["object1"], v["object2"])]
    if strict and any(math.dist(middle, _xy(scene, n)) < 0.08 for n in others):
        raise Reject("another object stands between them")
    return {**v, "target_pos": [float(middle[0]), float(middle[1])]}


def _d2_facts(v: dict[str, Any], scene: Scene, strict: bool = True) -> dict[str, Any]:
    return {**v, "answer": sum(1 for n in scene if n.endswith(" " + v["kind"]))}


def _d1_draw(rng: np.random.Generator, blocks: list[str], bowls: list[str]) -> dict[str, Any]:
    block = _pick(rng, blocks)
    others = [n for n in blocks + bowls if n != block]
    first, second = (others[int(i)] for i in rng.permutation(len(others))[:2])
    return {"block": block, "object1": first, "object2": second}


def _si0_draw(rng: np.random.Generator, blocks: list[str], bowls: list[str]) -> dict[str, Any]:
    block = _pick(rng, blocks)
    return {"block": block, "object1": _pick(rng, [n for n in blocks + bowls if n != block])}


TEMPLATES: tuple[Template, ...] = (
    Template(
        "SI_0", "Pick up the {block} and place it on the {object1}", (2, 4), (2, 4), _si0_draw
    ),
    Template("SI_1", "Stack all the blocks", (2, 4), (1, 4), lambda r, k, b: {}),
    Template(
        "SI_2",
        "Put all the blocks on the {corner_or_side}",
        (2, 4),
        (1, 3),
        lambda r, k, b: {"corner_or_side": _pick(r, CORNER_OR_SIDE)},
    ),
    Template(
        "SI_3",
        "Put the blocks in the {bowl}",
        (2, 4),
        (1, 4),
        lambda r, k, b: {"bowl": _pick(r, b)},
    ),
    Template(
        "SI_4",
        "Put all the blocks in the bowls with matching colors",
        (4, 4),
        (4, 4),
        lambda r, k, b: {},
        same_colors=True,
    ),
    Template(
        "SI_5",
        "Pick up all blocks that are located to the {direction} of the {bowl} and place them on "
        "the {corner_or_side}",
        (4, 4),
        (1, 3),
        lambda r, k, b: {
            "direction": _pick(r, DIRECTIONS),
            "bowl": _pick(r, b),
            "corner_or_side": _pick(r, CORNER_OR_SIDE),
        },
        _si5_facts,
    ),
    Template(
        "SI_6",
        "Pick up the block {distance} to the {bowl} and place it on the {corner_or_side}",
        (4, 4),
        (2, 3),
        lambda r, k, b: {
            "distance": _pick(r, DISTANCES),
            "bowl": _pick(r, b),
            "corner_or_side": _pick(r, CORNER_OR_SIDE),
        },
        _si6_facts,
    ),
    Template(
        "SI_7",
        "Pick up the {nth} block from the {direction} and place it on the {corner_or_side}",
        (4, 4),
        (1, 3),
        lambda r, k, b: {
            "nth": _pick(r, NTHS),
            "direction": _pick(r, DIRECTIONS),
            "corner_or_side": _pick(r, CORNER_OR_SIDE),
        },
        _si7_facts,
    ),
    Template("UI_0", "Put all the blocks in different corners", (4, 4), (1, 3), lambda r, k, b: {}),
    Template(
        "UI_1",
        "Put the blocks in the bowls with mismatched colors",
        (4, 4),
        (4, 4),
        lambda r, k, b: {},
    ),
    Template(
        "UI_2",
        "Stack all the blocks on the {corner_or_side}",
        (2, 4),
        (1, 3),
        lambda r, k, b: {"corner_or_side": _pick(r, CORNER_OR_SIDE)},
    ),
    Template(
        "UI_3",
        "Pick up the {block} and place it {magnitude} to the {direction} of the {bowl}",
        (1, 4),
        (1, 4),
        lambda r, k, b: {
            "block": _pick(r, k),
            "magnitude": _pick(r, MAGNITUDES),
            "direction": _pick(r, DIRECTIONS),
            "bowl": _pick(r, b),
        },
        _ui3_facts,
    ),
    Template(
        "UI_4",
        "Pick up the {block} and place it in the corner {distance} to the {bowl}",
        (1, 4),
        (1, 3),
        lambda r, k, b: {
            "block": _pick(r, k),
            "distance": _pick(r, DISTANCES),
            "bowl": _pick(r, b),
        },
        _ui4_facts,
    ),
    Template(
        "UI_5",
        "Put all the blocks in a {line} line",
        (3, 4),
        (0, 0),
        lambda r, k, b: {"line": _pick(r, LINES)},
    ),
    Template("UI_6", "Put all the blocks in different sides", (4, 4), (1, 3), lambda r, k, b: {}),
)
"""The benchmark's 15 templates, in the original's order."""

DEMO_TEMPLATES: tuple[Template, ...] = (
    Template(
        "D_0",
        "Move the {block} {magnitude} to the {direction}",
        (1, 4),
        (0, 3),
        lambda r, k, b: {
            "block": _pick(r, k),
            "magnitude": _pick(r, MAGNITUDES),
            "direction": _pick(r, DIRECTIONS),
        },
        _d0_facts,
    ),
    Template(
        "D_1",
        "Put the {block} between the {object1} and the {object2}",
        (2, 4),
        (1, 3),
        _d1_draw,
        _d1_facts,
    ),
    Template(
        "D_2",
        "How many {kind}s are there",
        (1, 4),
        (1, 4),
        lambda r, k, b: {"kind": _pick(r, ("block", "bowl"))},
        _d2_facts,
    ),
)
"""Templates of demonstrations only (never tested): moving by an offset, placing between two
objects, and answering by ``say``."""

BY_ID: dict[str, Template] = {t.template_id: t for t in (*TEMPLATES, *DEMO_TEMPLATES)}
"""Every template by id."""

SEEN = tuple(t.template_id for t in TEMPLATES if t.template_id.startswith("SI"))
"""The seen templates (their kind of task appears among the demonstrations)."""


def _pattern(template: Template) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template.text)
    regex = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>[a-z0-9. ]+?)"
        for i, part in enumerate(parts)
    )
    return re.compile(rf"^\s*{regex}\s*\.?\s*$", re.IGNORECASE)


_PATTERNS = [(t, _pattern(t)) for t in (*TEMPLATES, *DEMO_TEMPLATES)]

MAX_INSTRUCTION_CHARS = 500
"""The longest instruction :func:`match_template` reads."""


def match_template(instruction: str) -> tuple[Template, dict[str, Any]] | None:
    """The template an instruction is written in, and its attributes (``None``: none fits).

    ``instruction`` may be Code as Policies' query (the ``objects = [...]`` line, then
    ``# <instruction>.``).

    >>> template, variables = match_template("# put the blocks in the red bowl.")
    >>> template.template_id, variables
    ('SI_3', {'bowl': 'red bowl'})
    """
    lines = [line.strip() for line in instruction.strip().splitlines()]
    text = next(
        (line[1:].strip() for line in lines if line.startswith("#")), lines[-1] if lines else ""
    )
    if len(text) > MAX_INSTRUCTION_CHARS:
        return None
    for template, pattern in _PATTERNS:
        found = pattern.match(text)
        if found:
            variables = {k: v.strip().lower() for k, v in found.groupdict().items()}
            if all(_fits(k, v) for k, v in variables.items()):
                return template, variables
    return None


OBJECT_FIELDS = frozenset({"block", "bowl", "object1", "object2"})
"""The fields whose values are objects of the scene."""

_OBJECT = re.compile(rf"^({'|'.join(COLORS)}) (block|bowl)$")

_POOLS: dict[str, tuple[str, ...]] = {
    "corner_or_side": CORNER_OR_SIDE,
    "direction": DIRECTIONS,
    "distance": DISTANCES,
    "magnitude": tuple(MAGNITUDES),
    "nth": NTHS,
    "line": LINES,
    "kind": ("block", "bowl"),
}


def _fits(field: str, value: str) -> bool:
    """Whether ``value`` is one the template's field can take."""
    if field in _POOLS:
        return value in _POOLS[field]
    found = _OBJECT.match(value)
    if found is None:
        return False
    kind = {"block": "block", "bowl": "bowl"}.get(field)
    return kind is None or found.group(2) == kind
