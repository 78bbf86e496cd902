"""Deterministic versions of the helpers Code as Policies generated on the fly.

In the original, a function a program calls that is not a primitive is written by a language
model when it is first called (``get_obj_positions_np``, ``get_closest_idx``, ``make_line``, ...).
Here the helpers the benchmark counts are fixed functions with the same names, arguments and
return types, so a program that calls them runs the same way every time. Points are xy NumPy
arrays; lines and shapes are shapely geometries.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from toolgym.tools.errors import WRONG_ARGUMENTS, ToolCallError

MAX_POINTS = 10_000
"""The most points a helper makes or reads."""


def _points(points: Any, what: str = "points") -> np.ndarray:
    try:
        array = np.asarray(points, dtype=float)
    except (TypeError, ValueError):
        array = np.zeros((0, 3))
    if array.ndim == 1 and array.size in (2, 3):
        array = array.reshape(1, -1)
    if array.ndim != 2 or array.shape[1] not in (2, 3) or not 0 < len(array) <= MAX_POINTS:
        raise ToolCallError(
            WRONG_ARGUMENTS, f"{what} is a list or array of (x, y) points; got {_short(points)}"
        )
    return array[:, :2]


def _point(point: Any, what: str = "point") -> np.ndarray:
    array = _points(point, what)
    if len(array) != 1:
        raise ToolCallError(WRONG_ARGUMENTS, f"{what} is one (x, y) point; got {len(array)}")
    return array[0]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _count(n: Any, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 1 <= n <= MAX_POINTS:
        raise ToolCallError(WRONG_ARGUMENTS, f"{what} is an int from 1 to {MAX_POINTS}; got {n!r}")
    return int(n)


def _number(value: Any, what: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ToolCallError(WRONG_ARGUMENTS, f"{what} is a number; got {_short(value)}") from None
    if not math.isfinite(number):
        raise ToolCallError(WRONG_ARGUMENTS, f"{what} is a finite number; got {number}")
    return number


def get_closest_idx(points: Any, point: Any) -> int:
    """The index of the point of ``points`` closest to ``point`` (the first of equals)."""
    distances = np.linalg.norm(_points(points) - _point(point), axis=1)
    return int(np.argmin(distances))


def get_farthest_idx(points: Any, point: Any) -> int:
    """The index of the point of ``points`` farthest from ``point`` (the first of equals)."""
    distances = np.linalg.norm(_points(points) - _point(point), axis=1)
    return int(np.argmax(distances))


def get_closest_point(points: Any, point: Any) -> np.ndarray:
    """The point of ``points`` closest to ``point``."""
    return _points(points)[get_closest_idx(points, point)].copy()


def get_farthest_point(points: Any, point: Any) -> np.ndarray:
    """The point of ``points`` farthest from ``point``."""
    return _points(points)[get_farthest_idx(points, point)].copy()


def make_line(start: Any, end: Any) -> Any:
    """The segment from ``start`` to ``end`` (a shapely ``LineString``)."""
    from shapely.geometry import LineString

    return LineString([_point(start, "start"), _point(end, "end")])


def _line(line: Any) -> Any:
    from shapely.geometry import LineString

    if not isinstance(line, LineString):
        raise ToolCallError(WRONG_ARGUMENTS, f"line is a LineString; got {type(line).__name__}")
    return line


def interpolate_pts_on_line(line: Any, n: int) -> np.ndarray:
    """``n`` points evenly spaced along ``line``, both ends included (one: its start)."""
    line = _line(line)
    count = _count(n, "n")
    if count == 1:
        return np.array([line.coords[0][:2]], dtype=float)
    return np.array(
        [line.interpolate(k / (count - 1), normalized=True).coords[0][:2] for k in range(count)],
        dtype=float,
    )


def make_line_by_length(length: Any) -> Any:
    """A horizontal segment of ``length`` starting at the origin."""
    from shapely.geometry import LineString

    return LineString([(0.0, 0.0), (_number(length, "length"), 0.0)])


def make_vertical_line_by_length(length: Any) -> Any:
    """A vertical segment of ``length`` (:func:`make_line_by_length` turned a quarter)."""
    from shapely.affinity import rotate

    return rotate(make_line_by_length(length), 90)


def interpolate_line(line: Any, t: Any = 0.5) -> np.ndarray:
    """The point at fraction ``t`` of the way along ``line``."""
    point = _line(line).interpolate(_number(t, "t"), normalized=True)
    return np.array(point.coords[0][:2], dtype=float)


def make_triangle(size: Any, center: Any) -> Any:
    """An equilateral triangle of side ``size`` centred at ``center``, pointing up (+y)."""
    from shapely.geometry import Polygon

    side = _number(size, "size")
    cx, cy = _point(center, "center")
    radius = side / math.sqrt(3)
    corners = [
        (cx + radius * math.cos(a), cy + radius * math.sin(a))
        for a in (math.pi / 2, math.pi / 2 + 2 * math.pi / 3, math.pi / 2 + 4 * math.pi / 3)
    ]
    return Polygon(corners)


def get_points_from_polygon(polygon: Any) -> np.ndarray:
    """The corners of ``polygon``'s outline (without the closing repeat)."""
    from shapely.geometry import Polygon

    if not isinstance(polygon, Polygon):
        raise ToolCallError(WRONG_ARGUMENTS, f"polygon is a Polygon; got {type(polygon).__name__}")
    return np.array(polygon.exterior.coords[:-1], dtype=float)[:, :2]


def get_pt_to_the_left(pt: Any, dist: Any) -> np.ndarray:
    """``pt`` moved ``dist`` to the left (-x)."""
    return _point(pt, "pt") + np.array([-_number(dist, "dist"), 0.0])


def get_pt_to_the_right(pt: Any, dist: Any) -> np.ndarray:
    """``pt`` moved ``dist`` to the right (+x)."""
    return _point(pt, "pt") + np.array([_number(dist, "dist"), 0.0])


def get_pt_to_the_top(pt: Any, dist: Any) -> np.ndarray:
    """``pt`` moved ``dist`` to the top (+y)."""
    return _point(pt, "pt") + np.array([0.0, _number(dist, "dist")])


def get_pt_to_the_bottom(pt: Any, dist: Any) -> np.ndarray:
    """``pt`` moved ``dist`` to the bottom (-y)."""
    return _point(pt, "pt") + np.array([0.0, -_number(dist, "dist")])


def eval_line(x: Any, slope: Any, y_intercept: Any = 0) -> float:
    """``slope * x + y_intercept``."""
    return _number(x, "x") * _number(slope, "slope") + _number(y_intercept, "y_intercept")


def scene_helpers(
    get_obj_pos: Callable[[str], np.ndarray], put_first_on_second: Callable[[Any, Any], None]
) -> dict[str, Callable[..., Any]]:
    """The helpers that act on the scene, over its primitives."""

    def get_obj_positions_np(obj_names: Sequence[str]) -> np.ndarray:
        """The xy of each named object, as an ``(n, 2)`` array."""
        if isinstance(obj_names, str) or not isinstance(obj_names, Sequence | np.ndarray):
            raise ToolCallError(
                WRONG_ARGUMENTS, f"obj_names is a list of names; got {_short(obj_names)}"
            )
        if not obj_names:
            return np.zeros((0, 2))
        return np.array([get_obj_pos(name) for name in list(obj_names)[:MAX_POINTS]])

    def stack_objects_in_order(object_names: Sequence[str]) -> None:
        """Stack the objects, the first at the bottom: each goes on the one before it."""
        if isinstance(object_names, str) or not isinstance(object_names, Sequence):
            raise ToolCallError(
                WRONG_ARGUMENTS, f"object_names is a list of names; got {_short(object_names)}"
            )
        names = list(object_names)
        for below, above in itertools.pairwise(names):
            put_first_on_second(above, below)

    return {
        "get_obj_positions_np": get_obj_positions_np,
        "stack_objects_in_order": stack_objects_in_order,
    }


GEOMETRY_HELPERS: dict[str, Callable[..., Any]] = {
    f.__name__: f
    for f in (
        get_closest_idx,
        get_farthest_idx,
        get_closest_point,
        get_farthest_point,
        make_line,
        interpolate_pts_on_line,
        make_line_by_length,
        make_vertical_line_by_length,
        interpolate_line,
        make_triangle,
        get_points_from_polygon,
        get_pt_to_the_left,
        get_pt_to_the_right,
        get_pt_to_the_top,
        get_pt_to_the_bottom,
        eval_line,
    )
}
"""The helpers that need no scene, by name."""
