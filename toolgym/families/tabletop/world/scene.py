"""A tabletop scene as plain data: the objects, their poses, what the gripper holds.

The state is JSON-like so that it crosses into the sandbox worker and back, and so that
``get_state``/``set_state`` and the gold cache work on it as on every family's state::

    {
      "objects": [
        {"name": "red block", "kind": "block", "color": "red",
         "position": [x, y, z], "orientation": [qx, qy, qz, qw]},
        ...
      ],
      "held": null,
      "said": []
    }

``held`` is the name of an object in the gripper (always ``None`` between primitives: a
pick-and-place is one motion); ``said`` lists what the robot said during the last program.
Positions are the bases' centres in metres, orientations quaternions; floats round-trip exactly
through JSON.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgym.families.tabletop.world.workspace import BOUNDS, COLORS, KINDS, object_name

MAX_OBJECTS = 16
"""The most objects a scene holds."""

SLACK = 0.05
"""How far past the workspace's edges an object may end up (pushed by another as it settles)."""


@dataclass(frozen=True)
class SceneSetup:
    """How a scene starts: its objects and where they are spawned (the original's task config).

    Attributes:
        blocks: block names (``"red block"``), in order.
        bowls: bowl names, in order.
        block_pos: one ``(x, y, z)`` per block.
        bowl_pos: one ``(x, y, z)`` per bowl.
    """

    blocks: tuple[str, ...]
    bowls: tuple[str, ...]
    block_pos: tuple[tuple[float, float, float], ...]
    bowl_pos: tuple[tuple[float, float, float], ...]

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> SceneSetup:
        """A setup from the original's config, or from this class's own field names.

        The original's config is ``{"block_list", "bowl_list", "position_dict": {"block_pos",
        "bowl_pos"}}``; its positions may be strings of floats.

        Raises:
            ValueError: a missing or malformed field (the message names it).
        """
        if not isinstance(config, Mapping):
            raise ValueError(f"a scene setup is a JSON object; got {type(config).__name__}")
        positions = config.get("position_dict", config)
        if not isinstance(positions, Mapping):
            raise ValueError("'position_dict' is an object with 'block_pos' and 'bowl_pos'")
        blocks = _names(config.get("block_list", config.get("blocks", [])), "block")
        bowls = _names(config.get("bowl_list", config.get("bowls", [])), "bowl")
        block_pos = _points(positions.get("block_pos", []), "block_pos")
        bowl_pos = _points(positions.get("bowl_pos", []), "bowl_pos")
        if len(block_pos) != len(blocks) or len(bowl_pos) != len(bowls):
            raise ValueError(
                f"one position per object: {len(blocks)} blocks and {len(block_pos)} block "
                f"positions, {len(bowls)} bowls and {len(bowl_pos)} bowl positions"
            )
        setup = cls(blocks, bowls, block_pos, bowl_pos)
        problem = setup.problem()
        if problem is not None:
            raise ValueError(problem)
        return setup

    def problem(self) -> str | None:
        """Why this setup cannot be built, or ``None``."""
        names = (*self.blocks, *self.bowls)
        if not names:
            return "a scene has at least one object"
        if len(names) > MAX_OBJECTS:
            return f"a scene has at most {MAX_OBJECTS} objects; got {len(names)}"
        if len(set(names)) != len(names):
            return f"object names are unique; got {list(names)}"
        (x0, x1), (y0, y1), _ = BOUNDS
        for name, (x, y, z) in zip(names, (*self.block_pos, *self.bowl_pos), strict=True):
            if not (x0 <= x <= x1 and y0 <= y <= y1 and 0.0 <= z <= 0.3):
                return f"{name} at {(x, y, z)} is outside the workspace"
        return None

    def to_config(self) -> dict[str, Any]:
        """The original's config form (positions as lists of floats)."""
        return {
            "block_list": list(self.blocks),
            "bowl_list": list(self.bowls),
            "position_dict": {
                "block_pos": [list(p) for p in self.block_pos],
                "bowl_pos": [list(p) for p in self.bowl_pos],
            },
        }


def _names(value: Any, kind: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"the {kind} list is a list of names; got {value!r:.80}")
    for name in value:
        color, _, rest = name.partition(" ")
        if rest != kind or color not in COLORS:
            raise ValueError(f"a {kind} is named '<colour> {kind}'; got {name!r}")
    return tuple(value)


def _points(value: Any, field: str) -> tuple[tuple[float, float, float], ...]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"{field!r} is a list of (x, y, z); got {value!r:.80}")
    points = []
    for point in value:
        if not isinstance(point, list | tuple) or len(point) != 3:
            raise ValueError(f"{field!r} holds (x, y, z) triples; got {point!r:.80}")
        try:
            xyz = tuple(float(v) for v in point)
        except (TypeError, ValueError):
            raise ValueError(f"{field!r} holds numbers; got {point!r:.80}") from None
        if not all(math.isfinite(v) for v in xyz):
            raise ValueError(f"{field!r} holds finite numbers; got {point!r:.80}")
        points.append((xyz[0], xyz[1], xyz[2]))
    return tuple(points)


def scene_problem(state: Any) -> str | None:
    """Why ``state`` is not a scene (see the module docstring), or ``None``."""
    if not isinstance(state, dict) or set(state) != {"objects", "held", "said"}:
        return "a scene is {'objects', 'held', 'said'}"
    objects = state["objects"]
    if not isinstance(objects, list) or not 0 < len(objects) <= MAX_OBJECTS:
        return f"a scene's objects are a list of 1 to {MAX_OBJECTS}"
    seen = set()
    for item in objects:
        if not isinstance(item, dict) or set(item) != {
            "name",
            "kind",
            "color",
            "position",
            "orientation",
        }:
            return "an object is {'name', 'kind', 'color', 'position', 'orientation'}"
        if item["kind"] not in KINDS or item["color"] not in COLORS:
            return f"an object's kind and colour are known ones; got {item['name']!r}"
        if item["name"] != object_name(item["color"], item["kind"]) or item["name"] in seen:
            return f"object names are '<colour> <kind>' and unique; got {item['name']!r}"
        seen.add(item["name"])
        for key, size in (("position", 3), ("orientation", 4)):
            value = item[key]
            if (
                not isinstance(value, list)
                or len(value) != size
                or not all(type(v) is float and math.isfinite(v) for v in value)
            ):
                return f"{item['name']}'s {key} is {size} finite floats"
        x, y, z = item["position"]
        (x0, x1), (y0, y1), _ = BOUNDS
        if not (
            x0 - SLACK <= x <= x1 + SLACK and y0 - SLACK <= y <= y1 + SLACK and -SLACK <= z <= 1
        ):
            return f"the {item['name']} is off the table, at {(x, y, z)}"
    if state["held"] is not None and state["held"] not in seen:
        return "'held' names an object of the scene, or is null"
    said = state["said"]
    if not isinstance(said, list) or not all(isinstance(s, str) for s in said):
        return "'said' is a list of strings"
    return None


def object_positions(state: Mapping[str, Any]) -> dict[str, tuple[float, float, float]]:
    """Each object's position, by name, in scene order."""
    return {o["name"]: tuple(o["position"]) for o in state["objects"]}


def object_names(state: Mapping[str, Any], kind: str | None = None) -> list[str]:
    """The objects' names in scene order (of one kind, when given)."""
    return [o["name"] for o in state["objects"] if kind is None or o["kind"] == kind]


def describe(state: Mapping[str, Any]) -> str:
    """The scene as text: one line per object with its position in centimetres.

    >>> print(describe({"objects": [{"name": "red block", "kind": "block", "color": "red",
    ...     "position": [0.1, -0.4, 0.02], "orientation": [0.0, 0.0, 0.0, 1.0]}],
    ...     "held": None, "said": []}))
    red block at x=10.0 cm, y=-40.0 cm, z=2.0 cm
    """
    lines = []
    for item in state["objects"]:
        x, y, z = (100 * v for v in item["position"])
        lines.append(f"{item['name']} at x={x:.1f} cm, y={y:.1f} cm, z={z:.1f} cm")
    if state.get("held"):
        lines.append(f"holding the {state['held']}")
    return "\n".join(lines)


def point_list(points: Sequence[Sequence[float]]) -> list[list[float]]:
    """Points as lists of Python floats (for the plain-data state)."""
    return [[float(v) for v in p] for p in points]
