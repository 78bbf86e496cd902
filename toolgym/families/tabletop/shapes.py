"""Rule-based reader of shape changes on the tabletop: move, rotate, scale and flip.

:mod:`toolgym.families.tabletop.parsing` exports it as ``transform_shape_pts``. A description is
clauses joined by "and", "then" or commas, each applied in turn to the points: a move (``move it
10cm to the left``, ``shift it to the top left corner``), a rotation about the centroid (``rotate
it by 45 degrees``: counter-clockwise unless it says "clockwise"), a scaling about the centroid
(``scale it by 2x``, ``make it bigger``: 1.5 times) or a flip (``flip it vertically``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

import numpy as np

from toolgym.families.tabletop.referents import Point, Scene, read_place
from toolgym.families.tabletop.vocabulary import (
    DEFAULT_OFFSET,
    DIRECTIONS,
    ParseError,
    number,
    read_distance,
    shown,
    words,
)

SHAPE_FORMS: Final = (
    "expected clauses such as 'move it 10cm to the left', 'shift up by 5 cm', 'rotate it by 45 "
    "degrees' (counter-clockwise; add 'clockwise'), 'scale it by 2x', 'make it bigger', 'shrink "
    "it by half', 'flip it horizontally', joined by 'and', 'then' or commas"
)

_MOVE: Final = frozenset(
    ["move", "shift", "translate", "slide", "push", "nudge", "displace", "drag"]
)
_ROTATE: Final = frozenset(["rotate", "turn", "spin", "rotation"])
_GROW: Final = frozenset(["bigger", "larger", "enlarge", "grow", "expand", "increase", "double"])
_SHRINK: Final = frozenset(
    ["smaller", "shrink", "reduce", "decrease", "halve", "tinier", "compress"]
)
_SCALE: Final = frozenset(["scale", "resize", "zoom", "stretch", "size", "big", "large", "small"])
_FLIP: Final = frozenset(["flip", "mirror", "reflect"])
_FACTORS: Final = {
    "twice": 2.0,
    "double": 2.0,
    "triple": 3.0,
    "thrice": 3.0,
    "half": 0.5,
    "halve": 0.5,
}


def transform_points(query: str, shape_pts: object) -> np.ndarray:
    """``transform_shape_pts``: the points changed as the query says, clause by clause."""
    scene = Scene("transform_shape_pts", str(query), (), list_objects=False)
    try:
        pts = np.array(shape_pts, dtype=float)
    except (TypeError, ValueError):
        pts = np.zeros(0)
    if (
        pts.ndim != 2
        or pts.shape[1] != 2
        or not 0 < len(pts) <= 100_000
        or not np.all(np.isfinite(pts))
    ):
        raise ParseError(
            f"transform_shape_pts needs (n, 2) finite points; got {shown(repr(shape_pts), 80)}"
        )
    toks = words(query, "transform_shape_pts")
    clauses: list[list[str]] = [[]]
    for t in toks:
        if t in ("and", "then", "also", "finally", "afterwards", "next"):
            clauses.append([])
        else:
            clauses[-1].append(t)
    action = ""
    done = False
    for clause in clauses:
        if not clause:
            continue
        action = _action(clause) or action
        if not action:
            raise scene.fail(f"cannot read {' '.join(clause)!r}; {SHAPE_FORMS}")
        pts = _apply(action, clause, pts, scene)
        done = True
    if not done:
        raise scene.fail(f"the description is empty; {SHAPE_FORMS}")
    if not np.all(np.isfinite(pts)):
        raise scene.fail("the result is not finite; use smaller distances or factors")
    return pts


def _action(clause: Sequence[str]) -> str:
    for t in clause:
        if t in _FLIP:
            return "flip"
        if t in _ROTATE:
            return "rotate"
        if t in _MOVE:
            return "move"
        if t in _GROW or t in _SHRINK or t in _SCALE or t in ("make", "times"):
            return "scale"
    return ""


def _apply(action: str, clause: list[str], pts: np.ndarray, scene: Scene) -> np.ndarray:
    centre = pts.mean(axis=0)
    if action == "move":
        return _move(clause, pts, centre, scene)
    if action == "rotate":
        return _rotate(clause, pts, centre, scene)
    if action == "flip":
        vertical = any(
            t in ("vertically", "vertical", "upside", "x", "top", "bottom") for t in clause
        )
        horizontal = any(t in ("horizontally", "horizontal", "y", "left", "right") for t in clause)
        mirror = np.array([-1.0 if horizontal or not vertical else 1.0, -1.0 if vertical else 1.0])
        return centre + (pts - centre) * mirror
    return _scale(clause, pts, centre, scene)


def _move(clause: list[str], pts: np.ndarray, centre: Point, scene: Scene) -> np.ndarray:
    distance = None
    for k in range(len(clause)):
        got = read_distance(clause, k)
        if got is not None:
            distance = got[0]
            break
    for k, t in enumerate(clause):
        if t in ("to", "towards", "toward") and distance is None:
            place = read_place(clause, k + 1)
            if place is not None and (place.noun or place.middle or (place.v and place.h)):
                target = [p for _, p in place.points()]
                if len(target) == 1:
                    return pts + (target[0] - centre)
    step = np.zeros(2)
    for t in clause:
        if t in DIRECTIONS:
            step = step + np.array(DIRECTIONS[t])
    if not step.any():
        raise scene.fail(f"expected a direction (left, right, up, down) in {' '.join(clause)!r}")
    return pts + step * (DEFAULT_OFFSET if distance is None else distance)


def _rotate(clause: list[str], pts: np.ndarray, centre: Point, scene: Scene) -> np.ndarray:
    angle = None
    for k, t in enumerate(clause):
        value = number(t)
        if value is not None:
            angle = math.degrees(value) if clause[k + 1 : k + 2] == ["rad"] else value
            break
    if angle is None and ("quarter" in clause or "angle" in clause):
        angle = 90.0
    elif angle is None and any(t in ("half", "upside", "around") for t in clause):
        angle = 180.0
    if angle is None:
        raise scene.fail(f"expected an angle ('rotate it by 45 degrees') in {' '.join(clause)!r}")
    backwards = any(t in ("counter", "anti", "counterclockwise") for t in clause)
    theta = math.radians(-angle if "clockwise" in clause and not backwards else angle)
    turn = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    return centre + (pts - centre) @ turn.T


def _scale(clause: list[str], pts: np.ndarray, centre: Point, scene: Scene) -> np.ndarray:
    grow = any(t in _GROW for t in clause)
    shrink = any(t in _SHRINK for t in clause)
    factor = None
    percent = False
    for k, t in enumerate(clause):
        if number(t) is not None:
            factor = number(t)
            percent = clause[k + 1 : k + 2] == ["percent"]
            break
        if t in _FACTORS:
            factor = _FACTORS[t]
            break
    if factor is None:
        if grow == shrink:
            raise scene.fail(f"expected a factor ('scale it by 2x') in {' '.join(clause)!r}")
        factor = 1.5 if grow else 1 / 1.5
    elif percent:
        factor = 1 + factor / 100 if grow else (1 - factor / 100 if shrink else factor / 100)
    elif grow and factor < 1:
        factor = 1 + factor
    elif shrink and factor > 1:
        factor = 1 / factor
    if not 0 < factor <= 1000 or not math.isfinite(factor):
        raise scene.fail(f"a scale factor is more than 0 and at most 1000; got {factor:g}")
    axes = np.array([factor, factor])
    if any(t in ("horizontally", "horizontal", "wider", "width") for t in clause):
        axes[1] = 1.0
    elif any(t in ("vertically", "vertical", "taller", "height") for t in clause):
        axes[0] = 1.0
    return centre + (pts - centre) * axes
