"""The tabletop in pybullet: a scene built from plain data, a kinematic gripper, physics settling.

One pybullet physics server per process, in ``DIRECT`` mode (no GUI, no threads), stepped only
by this module, with a fixed time step, fixed solver iterations and Bullet's deterministic
ordering of contact pairs. A scene is rebuilt from its plain-data state (:mod:`.scene`) for each
program, in the same order of calls every time, so the same state and the same primitives give
bit-identical poses in any process.

The gripper is kinematic: a pick takes the object out of the scene (what rested on it falls), a
place puts it, upright with its yaw kept, one millimetre above the highest surface under its
footprint (the table, a bowl's floor, another block), and the scene settles under physics until
it is at rest. No arm, inverse kinematics or motor control runs, so nothing depends on timing and
a pick-and-place costs a few milliseconds (``docs/tabletop.md`` compares this with an arm).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from toolgym.families.tabletop.world.scene import SceneSetup, point_list

if TYPE_CHECKING:
    import numpy as np

    Point = Sequence[float] | np.ndarray
from toolgym.families.tabletop.world.workspace import (
    BLOCK_HALF,
    BLOCK_MASS,
    BOUNDS,
    BOWL_BASE,
    BOWL_HEIGHT,
    BOWL_INNER_RADIUS,
    BOWL_SEGMENTS,
    BOWL_WALL,
    COLORS,
    GRAVITY,
    HOVER_Z,
    RELEASE_STEPS,
    SETTLE_STEPS,
    TIME_STEP,
)

SOLVER_ITERATIONS = 50
"""Bullet's constraint solver iterations per step (fixed, as everything here)."""

REST_SPEED = 1e-3
"""Linear speed (m/s) below which an object counts as at rest."""

REST_SPIN = 1e-2
"""Angular speed (rad/s) below which an object counts as at rest."""

CHECK_EVERY = 10
"""Physics steps between two checks for rest while settling."""

GRIP_RADIUS = 0.03
"""How far from a block's centre a pick point may be and still grasp it."""

DROP_GAP = 0.001
"""The gap between a placed object and the surface under it when it is released."""

PARK = (5.0, 5.0)
"""Where a picked object waits, off the table, while the scene under it settles."""


class PlacementError(ValueError):
    """A pick or place the robot cannot do.

    Attributes:
        kind: ``"unknown_object"``, ``"not_movable"``, ``"nothing_to_pick"``,
            ``"out_of_bounds"``, ``"same_object"`` or ``"too_high"``.
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


_BULLET: Any = None


def bullet() -> Any:
    """The pybullet module (imported on first use)."""
    global _BULLET
    if _BULLET is None:
        try:
            pybullet = _quiet_import()
        except ImportError as e:  # pragma: no cover - depends on the installation
            raise ImportError(
                "the Tabletop family needs pybullet: pip install pybullet==3.2.7"
            ) from e
        _BULLET = pybullet
    return _BULLET


def _quiet_import() -> Any:
    """``import pybullet`` without the banner its native module prints on standard error."""
    import os
    import sys

    sys.stderr.flush()
    try:
        saved = os.dup(2)
        sink = os.open(os.devnull, os.O_WRONLY)
    except OSError:  # no standard error to keep clean, or no way to
        import pybullet

        return pybullet
    try:
        os.dup2(sink, 2)
        import pybullet
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(sink)
    return pybullet


class TabletopPhysics:
    """A pybullet world holding one scene at a time (see the module docstring).

    Build it once per process and :meth:`load` each state; every method runs on this world's
    own physics client.

    Args:
        visuals: whether bodies get visual shapes (colours, for camera images). A world that is
            never drawn skips them: they cost most of a scene's build, and change nothing in the
            physics.
    """

    def __init__(self, visuals: bool = False) -> None:
        self.visuals = visuals
        self._client: int | None = None
        self.bodies: dict[str, int] = {}
        self.objects: list[dict[str, Any]] = []
        self.held: str | None = None
        self.said: list[str] = []

    # -- the world -------------------------------------------------------------------------------
    @property
    def client(self) -> int:
        """This world's physics client (connected on first use)."""
        if self._client is None:
            self._client = bullet().connect(bullet().DIRECT)
        return self._client

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return getattr(bullet(), name)(*args, physicsClientId=self.client, **kwargs)

    def _reset_world(self) -> None:
        p = bullet()
        self._call("resetSimulation")
        self._call(
            "setPhysicsEngineParameter",
            fixedTimeStep=TIME_STEP,
            numSolverIterations=SOLVER_ITERATIONS,
            numSubSteps=0,
            deterministicOverlappingPairs=1,
        )
        self._call("setGravity", 0.0, 0.0, GRAVITY)
        ground = self._call("createCollisionShape", p.GEOM_PLANE)
        self._call("createMultiBody", 0, ground, -1, [0.0, 0.0, 0.0])
        (x0, x1), (y0, y1), _ = BOUNDS
        half = [(x1 - x0) / 2, (y1 - y0) / 2, 0.001]
        if self.visuals:  # the dark workspace, drawn only
            plate = self._call(
                "createVisualShape", p.GEOM_BOX, halfExtents=half, rgbaColor=[0.2] * 3 + [1]
            )
            self._call("createMultiBody", 0, -1, plate, [(x0 + x1) / 2, (y0 + y1) / 2, -0.0005])
        self.bodies = {}

    def _add_block(self, item: Mapping[str, Any]) -> int:
        p = bullet()
        half = [BLOCK_HALF] * 3
        shape = self._call("createCollisionShape", p.GEOM_BOX, halfExtents=half)
        visual = -1
        if self.visuals:
            color = list(COLORS[item["color"]])
            visual = self._call("createVisualShape", p.GEOM_BOX, halfExtents=half, rgbaColor=color)
        body = self._call(
            "createMultiBody",
            BLOCK_MASS,
            shape,
            visual,
            list(item["position"]),
            list(item["orientation"]),
        )
        self._call("changeDynamics", body, -1, lateralFriction=0.5, restitution=0.0)
        return int(body)

    def _add_bowl(self, item: Mapping[str, Any]) -> int:
        """A bowl from primitives: a round floor and a ring of wall boxes, fixed to the table."""
        p = bullet()
        shapes, halves, radii, lengths, positions, turns = [], [], [], [], [], []
        shapes.append(p.GEOM_CYLINDER)
        halves.append([0.0, 0.0, 0.0])
        radii.append(BOWL_INNER_RADIUS + BOWL_WALL)
        lengths.append(BOWL_BASE)
        positions.append([0.0, 0.0, BOWL_BASE / 2])
        turns.append([0.0, 0.0, 0.0, 1.0])
        ring = BOWL_INNER_RADIUS + BOWL_WALL / 2
        side = 2 * ring * math.tan(math.pi / BOWL_SEGMENTS) + 0.002
        for k in range(BOWL_SEGMENTS):
            angle = 2 * math.pi * k / BOWL_SEGMENTS
            shapes.append(p.GEOM_BOX)
            halves.append([BOWL_WALL / 2, side / 2, BOWL_HEIGHT / 2])
            radii.append(0.0)
            lengths.append(0.0)
            positions.append([ring * math.cos(angle), ring * math.sin(angle), BOWL_HEIGHT / 2])
            turns.append([0.0, 0.0, math.sin(angle / 2), math.cos(angle / 2)])
        common = {
            "shapeTypes": shapes,
            "halfExtents": halves,
            "radii": radii,
            "lengths": lengths,
            "collisionFramePositions": positions,
            "collisionFrameOrientations": turns,
        }
        collision = self._call("createCollisionShapeArray", **common)
        visual = -1
        if self.visuals:
            visual = self._call(
                "createVisualShapeArray",
                shapeTypes=shapes,
                halfExtents=halves,
                radii=radii,
                lengths=lengths,
                visualFramePositions=positions,
                visualFrameOrientations=turns,
                rgbaColors=[list(COLORS[item["color"]])] * len(shapes),
            )
        body = self._call(
            "createMultiBody",
            0,
            collision,
            visual,
            list(item["position"]),
            list(item["orientation"]),
        )
        return int(body)

    def load(self, state: Mapping[str, Any]) -> None:
        """Rebuild the world as ``state`` describes it (see :mod:`.scene`), at rest."""
        self._reset_world()
        self.objects = [dict(item) for item in state["objects"]]
        for item in self.objects:
            add = self._add_block if item["kind"] == "block" else self._add_bowl
            self.bodies[item["name"]] = add(item)
        self.held = state.get("held")
        self.said = list(state.get("said", []))

    def state(self) -> dict[str, Any]:
        """The scene as plain data, read from the world."""
        objects = []
        for item in self.objects:
            position, orientation = self._call(
                "getBasePositionAndOrientation", self.bodies[item["name"]]
            )
            objects.append(
                {
                    **item,
                    "position": [float(v) for v in position],
                    "orientation": [float(v) for v in orientation],
                }
            )
        return {"objects": objects, "held": self.held, "said": list(self.said)}

    def settle(self, steps: int) -> int:
        """Step until every block is at rest, or ``steps`` steps; the steps taken."""
        blocks = [self.bodies[o["name"]] for o in self.objects if o["kind"] == "block"]
        taken = 0
        while taken < steps:
            for _ in range(min(CHECK_EVERY, steps - taken)):
                self._call("stepSimulation")
            taken += min(CHECK_EVERY, steps - taken)
            if all(self._at_rest(body) for body in blocks):
                break
        return taken

    def _at_rest(self, body: int) -> bool:
        linear, angular = self._call("getBaseVelocity", body)
        return math.hypot(*linear) < REST_SPEED and math.hypot(*angular) < REST_SPIN

    # -- the gripper -----------------------------------------------------------------------------
    def kind_of(self, name: str) -> str:
        """``"block"`` or ``"bowl"``."""
        for item in self.objects:
            if item["name"] == name:
                return str(item["kind"])
        raise PlacementError("unknown_object", f"there is no {name!r} on the table")

    def position(self, name: str) -> tuple[float, float, float]:
        """An object's base position, as the world has it now."""
        if name not in self.bodies:
            raise PlacementError("unknown_object", f"there is no {name!r} on the table")
        position, _ = self._call("getBasePositionAndOrientation", self.bodies[name])
        return (float(position[0]), float(position[1]), float(position[2]))

    def block_at(self, x: float, y: float) -> str:
        """The highest block whose centre is within :data:`GRIP_RADIUS` of ``(x, y)``."""
        best: tuple[float, str] | None = None
        for item in self.objects:
            if item["kind"] != "block":
                continue
            bx, by, bz = self.position(item["name"])
            if math.hypot(bx - x, by - y) <= GRIP_RADIUS and (best is None or bz > best[0]):
                best = (bz, item["name"])
        if best is None:
            raise PlacementError(
                "nothing_to_pick",
                f"there is no block within {GRIP_RADIUS * 100:.0f} cm of ({x:.3f}, {y:.3f}) to "
                "pick up",
            )
        return best[1]

    def surface_under(self, x: float, y: float, ignore: int | None = None) -> float:
        """The height of the highest surface under a block's footprint centred at ``(x, y)``."""
        reach = BLOCK_HALF - 0.002
        offsets = [(0.0, 0.0)] + [
            (reach * dx, reach * dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy
        ]
        starts = [[x + dx, y + dy, 1.0] for dx, dy in offsets]
        ends = [[x + dx, y + dy, -0.01] for dx, dy in offsets]
        top = 0.0
        for body, _link, _fraction, hit, _normal in self._call(
            "rayTestBatch", starts, ends, numThreads=1
        ):
            if body >= 0 and body != ignore:
                top = max(top, float(hit[2]))
        return top

    def pick_and_place(self, pick: str | Point, place: Point) -> str:
        """Pick ``pick`` (a block's name, or a point to grasp at) and place it at ``place``'s xy.

        Points are anything whose ``[0]`` and ``[1]`` read as numbers (tuples, lists, arrays).

        Returns:
            The name of the block moved.

        Raises:
            PlacementError: an unknown name, a bowl (fixed to the table), no block at a pick
                point, a place outside the workspace, a place on the picked block itself, or a
                stack there too tall to reach over.
        """
        name = self.block_at(float(pick[0]), float(pick[1])) if not isinstance(pick, str) else pick
        if self.kind_of(name) != "block":
            raise PlacementError(
                "not_movable", f"the {name} is fixed to the table; only blocks can be picked up"
            )
        px, py = float(place[0]), float(place[1])
        (x0, x1), (y0, y1), _ = BOUNDS
        if not (math.isfinite(px) and math.isfinite(py) and x0 <= px <= x1 and y0 <= py <= y1):
            raise PlacementError(
                "out_of_bounds",
                f"cannot place the {name} at ({px:.3f}, {py:.3f}): the workspace is x in "
                f"[{x0}, {x1}], y in [{y0}, {y1}]",
            )
        body = self.bodies[name]
        x, y, z = self.position(name)
        _, orientation = self._call("getBasePositionAndOrientation", body)
        yaw = self._call("getEulerFromQuaternion", orientation)[2]
        self.held = name
        riders = self._riders(name, x, y, z)
        self._teleport(body, [PARK[0], PARK[1], BLOCK_HALF], [0.0, 0.0, 0.0, 1.0])
        if riders:
            self.settle(RELEASE_STEPS)
        top = self.surface_under(px, py, ignore=body)
        if top + 2 * BLOCK_HALF > HOVER_Z - 0.02:
            self._teleport(body, [x, y, z], list(orientation))
            self.held = None
            raise PlacementError(
                "too_high",
                f"cannot place the {name} at ({px:.3f}, {py:.3f}): the stack there is "
                f"{top * 100:.1f} cm tall, too close to the gripper's travel height",
            )
        turn = self._call("getQuaternionFromEuler", [0.0, 0.0, yaw])
        self._teleport(body, [px, py, top + BLOCK_HALF + DROP_GAP], list(turn))
        self.held = None
        self.settle(RELEASE_STEPS)
        return name

    def _riders(self, name: str, x: float, y: float, z: float) -> list[str]:
        """The blocks resting on ``name`` (over its footprint and higher)."""
        return [
            o["name"]
            for o in self.objects
            if o["kind"] == "block"
            and o["name"] != name
            and math.hypot(self.position(o["name"])[0] - x, self.position(o["name"])[1] - y)
            < 2 * BLOCK_HALF
            and self.position(o["name"])[2] > z
        ]

    def _teleport(self, body: int, position: list[float], orientation: list[float]) -> None:
        self._call("resetBasePositionAndOrientation", body, position, orientation)
        self._call("resetBaseVelocity", body, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0])

    def say(self, message: str) -> None:
        """Keep what the robot says (the scene's ``said``)."""
        self.said.append(message)


def build_scene(setup: SceneSetup, world: TabletopPhysics | None = None) -> dict[str, Any]:
    """The scene of ``setup``, settled, as plain data.

    Blocks are spawned at their positions (z as given) and bowls stand on the table; the scene
    settles for :data:`~.workspace.SETTLE_STEPS` steps, as the original settles after a reset.
    """
    world = world or shared_world()
    objects = []
    for names, points, kind in (
        (setup.blocks, setup.block_pos, "block"),
        (setup.bowls, setup.bowl_pos, "bowl"),
    ):
        for name, (x, y, z) in zip(names, point_list(points), strict=True):
            color = name.split(" ")[0]
            lift = max(z, BLOCK_HALF) if kind == "block" else 0.0
            objects.append(
                {
                    "name": name,
                    "kind": kind,
                    "color": color,
                    "position": [x, y, lift],
                    "orientation": [0.0, 0.0, 0.0, 1.0],
                }
            )
    world.load({"objects": objects, "held": None, "said": []})
    for _ in range(SETTLE_STEPS):
        world._call("stepSimulation")
    return world.state()


_SHARED: TabletopPhysics | None = None


def shared_world() -> TabletopPhysics:
    """This process's world (one physics client per process)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = TabletopPhysics()
    return _SHARED
