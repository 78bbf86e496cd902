"""The Code-as-Policies primitives, over a pybullet scene: what agent programs call.

The names, signatures and return types are the original's: ``get_obj_names() -> list[str]``,
``get_obj_pos(name) -> np.ndarray`` (the xy of the object's base), ``get_bbox(name)`` (the
axis-aligned box ``((min_x, min_y, min_z), (max_x, max_y, max_z))``), ``get_color(name)`` (RGBA),
``is_obj_visible(name) -> bool``, ``denormalize_xy(pos)``, ``put_first_on_second(arg1, arg2)``,
``get_corner_name(pos)``, ``get_side_name(pos)`` and ``say(msg)``.

Names are cleaned as the original cleans them: every ``the`` is removed and ``_`` read as a space;
for objects, ``circle`` reads as ``bowl``, ``square`` as ``block`` and ``small`` is dropped. The
corner and side names (and ``middle``) are positions too. An unknown name or an impossible
placement raises a :class:`~toolgym.tools.errors.ToolCallError` (``wrong_arguments`` or
``precondition``) that names what was expected.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from toolgym.families.tabletop.world.physics import PlacementError, TabletopPhysics
from toolgym.families.tabletop.world.workspace import COLORS, CORNER_POS
from toolgym.families.tabletop.world.workspace import denormalize_xy as _denormalize
from toolgym.tools.errors import PRECONDITION, WRONG_ARGUMENTS, ToolCallError

CORNER_NAMES = (
    ((0.0, 1.0), "top left corner"),
    ((1.0, 1.0), "top right corner"),
    ((0.0, 0.0), "bottom left corner"),
    ((1.0, 0.0), "botom right corner"),
)
"""``get_corner_name``'s points and answers (``botom`` is the original's spelling, kept: programs
may compare against it)."""

SIDE_NAMES = (
    ((0.5, 1.0), "top side"),
    ((1.0, 0.5), "right side"),
    ((0.5, 0.0), "bottom side"),
    ((0.0, 0.5), "left side"),
)
"""``get_side_name``'s points and answers."""

MAX_NAME_CHARS = 200
"""The longest name a primitive reads."""

_SPACES = re.compile(r"\s+")


def clean_position_name(name: str) -> str:
    """A name as the original reads it for positions: no ``the``, ``_`` as space.

    >>> clean_position_name("the_top_left_corner")
    'top left corner'
    """
    return _SPACES.sub(" ", name.replace("the", "").replace("_", " ")).strip()


def clean_object_name(name: str) -> str:
    """A name as the original reads it for objects (also ``circle`` -> ``bowl``, ...).

    >>> clean_object_name("the small red square")
    'red block'
    """
    name = clean_position_name(name).replace("circle", "bowl").replace("square", "block")
    return _SPACES.sub(" ", name.replace("small", "")).strip()


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ToolCallError(
            WRONG_ARGUMENTS, f"{what} is an object name (a string); got {type(value).__name__}"
        )
    if len(value) > MAX_NAME_CHARS:
        raise ToolCallError(WRONG_ARGUMENTS, f"{what} is at most {MAX_NAME_CHARS} characters")
    return value


def xy_of(value: Any, what: str) -> np.ndarray:
    """A point given as a sequence or array of 2 or 3 numbers, as xy floats."""
    try:
        array = np.asarray(value, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        array = np.zeros(0)
    if array.size not in (2, 3) or not np.all(np.isfinite(array)):
        raise ToolCallError(
            WRONG_ARGUMENTS,
            f"{what} is an object name or a point (x, y); got {_short(value)}",
        )
    return array[:2].copy()


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


class Primitives:
    """The primitives of one program, over ``world`` (a loaded scene)."""

    def __init__(self, world: TabletopPhysics) -> None:
        self.world = world
        self.before_motion: Callable[[str], None] | None = None
        """Called with the primitive's name before each motion (the sandbox's fault check)."""

    # -- perception ------------------------------------------------------------------------------
    def get_obj_names(self) -> list[str]:
        """The names of the objects on the table (a new list)."""
        return [item["name"] for item in self.world.objects]

    def is_obj_visible(self, obj_name: str) -> bool:
        """Whether an object of that name is on the table."""
        return clean_object_name(_text(obj_name, "obj_name")) in self.world.bodies

    def _object(self, obj_name: Any) -> str:
        name = clean_object_name(_text(obj_name, "obj_name"))
        if name not in self.world.bodies:
            known = ", ".join(self.get_obj_names())
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"there is no {obj_name!r} on the table; the objects are {known} (and the "
                f"positions {', '.join(CORNER_POS)})",
            )
        return name

    def get_obj_pos(self, obj_name: str) -> np.ndarray:
        """The xy of an object's base, or of a corner or side (``"top left corner"``)."""
        position = clean_position_name(_text(obj_name, "obj_name"))
        if position in CORNER_POS:
            return np.array(CORNER_POS[position][:2], dtype=float)
        x, y, _ = self.world.position(self._object(obj_name))
        return np.array([x, y], dtype=float)

    def get_bbox(
        self, obj_name: str
    ) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        """The object's axis-aligned box: ``((min_x, min_y, min_z), (max_x, max_y, max_z))``."""
        low, high = self.world._call("getAABB", self.world.bodies[self._object(obj_name)])
        return (
            (float(low[0]), float(low[1]), float(low[2])),
            (float(high[0]), float(high[1]), float(high[2])),
        )

    def get_color(self, obj_name: str) -> tuple[float, float, float, float]:
        """The RGBA colour (components in [0, 1]) of the first colour word in the name."""
        text = _text(obj_name, "obj_name")
        for color, rgba in COLORS.items():
            if color in text:
                return rgba
        raise ToolCallError(
            WRONG_ARGUMENTS,
            f"{obj_name!r} names no colour; the colours are {', '.join(COLORS)}",
        )

    # -- positions -------------------------------------------------------------------------------
    def denormalize_xy(self, pos_normalized: Any) -> np.ndarray:
        """A normalised point (``[0, 0]`` bottom left, ``[1, 1]`` top right) on the table."""
        return _denormalize(xy_of(pos_normalized, "pos_normalized"))

    def get_corner_name(self, pos: Any) -> str:
        """The name of the corner nearest ``pos``."""
        return _nearest(xy_of(pos, "pos"), CORNER_NAMES)

    def get_side_name(self, pos: Any) -> str:
        """The name of the side nearest ``pos``."""
        return _nearest(xy_of(pos, "pos"), SIDE_NAMES)

    # -- action ----------------------------------------------------------------------------------
    def put_first_on_second(self, arg1: Any, arg2: Any) -> None:
        """Pick ``arg1`` (a block's name or a point) and place it on ``arg2`` (a name or a point)."""
        if isinstance(arg1, str) and clean_position_name(arg1) not in CORNER_POS:
            pick: str | np.ndarray = self._object(arg1)
        else:
            pick = self.get_obj_pos(arg1) if isinstance(arg1, str) else xy_of(arg1, "arg1")
        if isinstance(arg2, str):
            if not isinstance(pick, str) or clean_object_name(arg2) != pick:
                place = self.get_obj_pos(arg2)
            else:
                raise ToolCallError(PRECONDITION, f"cannot put the {pick} on itself")
        else:
            place = xy_of(arg2, "arg2")
        if self.before_motion is not None:
            self.before_motion("put_first_on_second")
        try:
            self.world.pick_and_place(pick, place)
        except PlacementError as e:
            category = (
                WRONG_ARGUMENTS if e.kind in ("unknown_object", "not_movable") else PRECONDITION
            )
            raise ToolCallError(category, str(e)) from None

    def say(self, msg: Any) -> None:
        """Say ``msg`` (it is printed as ``robot says: <msg>`` and kept in the scene)."""
        text = str(msg)[:1000]
        self.world.say(text)


def _nearest(point: np.ndarray, named: Sequence[tuple[tuple[float, float], str]]) -> str:
    best = min(
        named,
        key=lambda item: math.dist(point, _denormalize(item[0])),
    )
    return best[1]
