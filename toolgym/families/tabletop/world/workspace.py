"""The tabletop's fixed geometry: workspace bounds, named positions, colours and object sizes.

Coordinates are metres in the robot's frame: the table's centre is ``(0, -0.5)``, "top" is +y
(towards the robot, y -> -0.2), "bottom" is -y (y -> -0.8), "left" is -x and "right" is +x. The
values are Code as Policies' tabletop constants.
"""

from __future__ import annotations

from typing import Final

import numpy as np

BOUNDS: Final = ((-0.3, 0.3), (-0.8, -0.2), (0.0, 0.15))
"""The workspace: (x range, y range, z range) in metres."""

TABLE_CENTER: Final = (0.0, -0.5)
"""The middle of the workspace."""

PIXEL_SIZE: Final = 0.00267857
"""The size of a pixel of the original's 224 x 224 top-down heightmap, in metres."""

CORNER_POS: Final[dict[str, tuple[float, float, float]]] = {
    "top left corner": (-0.25, -0.25, 0.0),
    "top side": (0.0, -0.25, 0.0),
    "top right corner": (0.25, -0.25, 0.0),
    "left side": (-0.25, -0.5, 0.0),
    "middle": (0.0, -0.5, 0.0),
    "right side": (0.25, -0.5, 0.0),
    "bottom left corner": (-0.25, -0.75, 0.0),
    "bottom side": (0.0, -0.75, 0.0),
    "bottom right corner": (0.25, -0.75, 0.0),
}
"""The nine named positions (x, y, z); ``get_obj_pos`` accepts their names too."""

CORNERS: Final = (
    "top left corner",
    "top right corner",
    "bottom left corner",
    "bottom right corner",
)
"""The four corners."""

SIDES: Final = ("top side", "left side", "right side", "bottom side")
"""The four sides."""

CORNER_OR_SIDE: Final = (
    "left side",
    "top left corner",
    "top side",
    "top right corner",
    "bottom right corner",
    "bottom side",
    "bottom left corner",
    "right side",
)
"""The eight corner and side names of the task templates (``middle`` is not one)."""

COLORS: Final[dict[str, tuple[float, float, float, float]]] = {
    name: (r / 255, g / 255, b / 255, 1.0)
    for name, (r, g, b) in {
        "blue": (78, 121, 167),
        "red": (255, 87, 89),
        "green": (89, 169, 79),
        "orange": (242, 142, 43),
        "yellow": (237, 201, 72),
        "purple": (176, 122, 161),
        "pink": (255, 157, 167),
        "cyan": (118, 183, 178),
        "brown": (156, 117, 95),
        "gray": (186, 176, 172),
    }.items()
}
"""The ten colours (RGBA, components in [0, 1])."""

TASK_COLORS: Final = ("blue", "red", "green", "orange", "yellow", "pink", "cyan", "brown")
"""The colours the benchmark's tasks draw from (no purple, no gray)."""

KINDS: Final = ("block", "bowl")
"""The two kinds of object."""

BLOCK_HALF: Final = 0.02
"""Half the edge of a block (a 4 cm cube)."""

BLOCK_MASS: Final = 0.01
"""A block's mass, in kg."""

BLOCK_SPAWN_Z: Final = 0.03
"""The height blocks are spawned at before the scene settles."""

BOWL_INNER_RADIUS: Final = 0.055
"""The inside radius of a bowl (the original's bowl asset is not public; see the docs)."""

BOWL_WALL: Final = 0.01
"""The thickness of a bowl's wall."""

BOWL_HEIGHT: Final = 0.03
"""The height of a bowl's wall above the table."""

BOWL_BASE: Final = 0.004
"""The thickness of a bowl's floor."""

BOWL_SEGMENTS: Final = 12
"""How many boxes a bowl's wall is built of (pybullet takes at most 16 shapes per array)."""

TIME_STEP: Final = 1 / 480
"""The physics step, in seconds."""

GRAVITY: Final = -9.8
"""Gravity along z, in m/s^2."""

SETTLE_STEPS: Final = 200
"""Physics steps after a scene is built (the original settles 200 steps after reset)."""

RELEASE_STEPS: Final = 240
"""The most physics steps after a placed object is released (half a simulated second)."""

HOVER_Z: Final = 0.2
"""The gripper's travel height: nothing can be placed on a stack whose top is near it."""

LMP_COORDS: Final[dict[str, tuple[float, float]]] = {
    "top_left": (-0.25, -0.25),
    "top_side": (0.0, -0.25),
    "top_right": (0.25, -0.25),
    "left_side": (-0.25, -0.5),
    "middle": (0.0, -0.5),
    "right_side": (0.25, -0.5),
    "bottom_left": (-0.25, -0.75),
    "bottom_side": (0.0, -0.75),
    "bottom_right": (0.25, -0.75),
}
"""The same points under the names the language-model programs' coordinate frame uses."""

TABLE_Z: Final = 0.0
"""The table's surface."""


def denormalize_xy(pos_normalized: object) -> np.ndarray:
    """A normalised point (``(0, 0)`` bottom left, ``(1, 1)`` top right) in table coordinates.

    >>> denormalize_xy([0.5, 0.5]).tolist()
    [0.0, -0.5]
    """
    return np.asarray(pos_normalized, dtype=float) * np.array([0.5, 0.5]) + np.array([-0.25, -0.75])


def in_bounds(x: float, y: float) -> bool:
    """Whether ``(x, y)`` is on the workspace."""
    (x0, x1), (y0, y1), _ = BOUNDS
    return x0 <= x <= x1 and y0 <= y <= y1


def object_name(color: str, kind: str) -> str:
    """``"<colour> <kind>"``, the name of an object.

    >>> object_name("red", "block")
    'red block'
    """
    if color not in COLORS:
        raise ValueError(f"a colour is one of {', '.join(COLORS)}; got {color!r}")
    if kind not in KINDS:
        raise ValueError(f"a kind is 'block' or 'bowl'; got {kind!r}")
    return f"{color} {kind}"
