"""The sandbox adapter of Tabletop programs: the scene rebuilt in pybullet, the 32 functions.

It runs in the sandbox worker (:mod:`toolgym.tools.sandbox`). The state is a scene as plain data
(:mod:`toolgym.families.tabletop.world.scene`); the program sees Code as Policies' names:

* ``np`` (NumPy, behind the sandbox's module proxy) and the public names of
  ``shapely.geometry`` and ``shapely.affinity`` (``LineString``, ``Point``, ``rotate``, ...);
* the ten primitives (:mod:`.primitives`), the four parsers (:mod:`.parsing`) and the eighteen
  helpers (:mod:`.helpers`).

The world is rebuilt from the state for every program and read back after it; the physics
client is this worker's own and programs never hold it or the pybullet module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolgym.families.tabletop.helpers import GEOMETRY_HELPERS, scene_helpers
from toolgym.families.tabletop.primitives import Primitives
from toolgym.families.tabletop.world.physics import TabletopPhysics
from toolgym.tools.errors import WRONG_ARGUMENTS, ToolCallError

PRIMITIVE_NAMES = (
    "get_obj_names",
    "get_obj_pos",
    "is_obj_visible",
    "get_bbox",
    "get_color",
    "denormalize_xy",
    "put_first_on_second",
    "get_corner_name",
    "get_side_name",
    "say",
)
"""The primitives' names, in the original's order."""


def shapely_names() -> dict[str, Any]:
    """The public names of ``shapely.geometry`` and ``shapely.affinity`` (no modules)."""
    from types import ModuleType

    import shapely.affinity
    import shapely.geometry

    names: dict[str, Any] = {}
    for module in (shapely.geometry, shapely.affinity):
        public = getattr(module, "__all__", None) or [n for n in dir(module) if n[:1] != "_"]
        for name in public:
            value = getattr(module, name, None)
            if value is not None and not isinstance(value, ModuleType):
                names[name] = value
    return names


def _parser(
    parse: Callable[..., Any], positions: Callable[[], dict[str, tuple[float, float, float]]]
) -> Callable[..., Any]:
    """A parser as programs call it: ``(query, context='', **variables)``."""
    from toolgym.families.tabletop.parsing import ParseError

    def call(query: Any, context: Any = "", **variables: Any) -> Any:
        if not isinstance(query, str) or not isinstance(context, str):
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"{parse.__name__}(query, context) takes strings; got {type(query).__name__} "
                f"and {type(context).__name__}",
            )
        try:
            return parse(query, context, positions())
        except ParseError as e:
            raise ToolCallError(WRONG_ARGUMENTS, str(e)) from None

    call.__name__ = parse.__name__
    return call


def _shape_parser() -> Callable[..., Any]:
    from toolgym.families.tabletop.parsing import ParseError, transform_shape_pts

    def call(query: Any, context: Any = "", shape_pts: Any = None, **variables: Any) -> Any:
        if not isinstance(query, str):
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"transform_shape_pts takes a query string; got {type(query).__name__}",
            )
        if shape_pts is None:
            raise ToolCallError(
                WRONG_ARGUMENTS, "transform_shape_pts needs the points: shape_pts=<(n, 2) points>"
            )
        try:
            return transform_shape_pts(query, shape_pts)
        except ParseError as e:
            raise ToolCallError(WRONG_ARGUMENTS, str(e)) from None

    return call


def _consult_faults(call: str) -> None:
    """Ask the parent whether this motion meets a fault; a failing one stops the arm.

    A service fault of a robot is a motion that fails (the original's "Cannot move the grab ...
    to the target position"): ``rate_limit``, ``server_error`` and ``timeout`` raise; the others
    (``slow``, spoiled answers) leave the motion as it is.
    """
    from toolgym.tools.faults import FAILING_KINDS
    from toolgym.tools.sandbox.worker import HostCallError, host_call

    try:
        drawn = host_call({"fault": call})
    except HostCallError as e:
        raise RuntimeError(f"the arm controller did not answer: {e}") from None
    if drawn and drawn.get("kind") in FAILING_KINDS:
        raise RuntimeError(
            f"the arm stopped ({drawn['kind']}): cannot move the grasp to the target position"
        )


class TabletopAdapter:
    """Builds a Tabletop program's names from a scene, and reads the scene back."""

    def __init__(self) -> None:
        self.world = TabletopPhysics()

    def setup(self, state: Any) -> dict[str, Any]:
        """The program's names over the world rebuilt from ``state``."""
        import numpy

        from toolgym.families.tabletop import parsing
        from toolgym.tools.sandbox.policy import ModuleProxy

        self.world.load(state)
        self.world.said = []
        self.world.held = None
        primitives = Primitives(self.world)
        if state.get("faults"):
            primitives.before_motion = _consult_faults

        def positions() -> dict[str, tuple[float, float, float]]:
            return {name: self.world.position(name) for name in self.world.bodies}

        names: dict[str, Any] = {"np": ModuleProxy(numpy), **shapely_names()}
        names.update({name: getattr(primitives, name) for name in PRIMITIVE_NAMES})
        for parse in (parsing.parse_obj_name, parsing.parse_position, parsing.parse_question):
            names[parse.__name__] = _parser(parse, positions)
        names["transform_shape_pts"] = _shape_parser()
        names.update(GEOMETRY_HELPERS)
        names.update(scene_helpers(primitives.get_obj_pos, primitives.put_first_on_second))
        return names

    def collect(self, namespace: dict[str, Any]) -> Any:
        """The scene after the program."""
        return self.world.state()

    def warm(self) -> None:
        """Build a scene and run every primitive once (in the warm process, before any fork)."""
        from toolgym.families.tabletop.world.physics import build_scene
        from toolgym.families.tabletop.world.scene import SceneSetup

        setup = SceneSetup(
            ("red block", "blue block"),
            ("green bowl",),
            ((0.1, -0.4, 0.03), (-0.1, -0.6, 0.03)),
            ((0.0, -0.5, 0.0),),
        )
        from toolgym.tools.sandbox.worker import run_job

        scene = build_scene(setup, self.world)
        names = self.setup(scene)
        names["get_bbox"]("red block")
        names["put_first_on_second"]("red block", "green bowl")
        names["put_first_on_second"]("blue block", "top left corner")
        names["parse_obj_name"]("the blocks", "")
        names["make_line"]([0, 0], [1, 1])
        for program in WARM_PROGRAMS:  # the whole path a program takes, compiling to collecting
            run_job({"code": program, "state": scene, "output": 1000}, self, limits=False)


WARM_PROGRAMS = (
    "put_first_on_second('red block', 'green bowl')",
    "names = [n for n in get_obj_names() if 'block' in n]\nstack_objects_in_order(object_names=names)",
    "for n in get_obj_names():\n    if 'block' in n:\n        put_first_on_second(n, 'bottom side')",
)
"""The programs :meth:`TabletopAdapter.warm` runs through the worker: the tasks' common shapes."""

adapter = TabletopAdapter()
"""The adapter instance the sandbox names (``toolgym.families.tabletop.adapter:adapter``)."""
