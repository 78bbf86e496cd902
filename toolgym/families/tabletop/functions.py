"""The 32 functions Tabletop programs call, documented: primitives, parsers and helpers.

The original prompt has no API docs (its examples show every function), so the family's prompts
leave them out by default (``top_k_api = 0``); these docs are there for agents that retrieve
docs, for function-calling schemas and for ``info["api_docs"]``.
"""

from __future__ import annotations

from toolgym.tools.tool import Param, Tool

_NAME = Param("obj_name", "string", "An object name ('red block') or a position ('top side').")
_QUERY = Param("query", "string", "What to find, in words ('the block closest to the red bowl').")
_CONTEXT = Param(
    "context",
    "string",
    "The scene's objects, as \"objects = ['red block', ...]\" (all of them when empty).",
    required=False,
    default="",
)
_POINT = Param("point", "list", "An (x, y) point.")
_POINTS = Param("points", "list", "A list or (n, 2) array of (x, y) points.")
_PT = Param("pt", "list", "An (x, y) point.")
_DIST = Param("dist", "number", "A distance in metres.")
_LINE = Param("line", "object", "A shapely LineString.")

PRIMITIVES: tuple[Tool, ...] = (
    Tool(
        "get_obj_names", "The names of the objects on the table (list[str]).", (), doc_signature=""
    ),
    Tool(
        "get_obj_pos",
        "The xy position (np.ndarray of 2) of an object or a named position.",
        (_NAME,),
    ),
    Tool("is_obj_visible", "Whether an object of that name is on the table (bool).", (_NAME,)),
    Tool(
        "get_bbox",
        "The object's axis-aligned box ((min_x, min_y, min_z), (max_x, max_y, max_z)).",
        (_NAME,),
    ),
    Tool("get_color", "The RGBA colour of the first colour word in a name.", (_NAME,)),
    Tool(
        "denormalize_xy",
        "A normalised point ([0, 0] bottom left, [1, 1] top right) as a table position.",
        (Param("pos_normalized", "list", "A point in [0, 1] x [0, 1]."),),
    ),
    Tool(
        "put_first_on_second",
        "Pick up the first object (a block's name or a point) and place it on the second "
        "(a name or a point).",
        (
            Param("arg1", "string", "The block to pick up, or an (x, y) point to grasp at."),
            Param("arg2", "string", "Where to place it: an object, a named position or a point."),
        ),
    ),
    Tool(
        "get_corner_name",
        "The name of the table corner nearest a point.",
        (Param("pos", "list", "An (x, y) point."),),
    ),
    Tool(
        "get_side_name",
        "The name of the table side nearest a point.",
        (Param("pos", "list", "An (x, y) point."),),
    ),
    Tool("say", "Say something to the user.", (Param("msg", "string", "What to say."),)),
)
"""The ten environment primitives."""

PARSERS: tuple[Tool, ...] = (
    Tool(
        "parse_obj_name",
        "The object name (str) or names (list[str]) a description refers to.",
        (_QUERY, _CONTEXT),
    ),
    Tool(
        "parse_position",
        "The xy position (or positions) a description refers to ('a point 10cm left of the red "
        "bowl', 'the top corners', 'a 30cm horizontal line in the middle with 3 points').",
        (_QUERY, _CONTEXT),
    ),
    Tool(
        "parse_question",
        "The answer to a question about the scene ('how many blocks are there').",
        (_QUERY, _CONTEXT),
    ),
    Tool(
        "transform_shape_pts",
        "Points moved, turned, scaled or flipped as described ('rotate it by 45 degrees').",
        (
            _QUERY,
            _CONTEXT,
            Param(
                "shape_pts", "list", "The (n, 2) points of the shape.", required=False, default=None
            ),
        ),
    ),
)
"""The four functions the original answered with a language model, here rule-based."""

HELPERS: tuple[Tool, ...] = (
    Tool(
        "get_obj_positions_np",
        "The xy of each named object, as an (n, 2) array.",
        (Param("obj_names", "List[str]", "Object names."),),
    ),
    Tool("get_closest_idx", "The index of the point closest to a point.", (_POINTS, _POINT)),
    Tool("get_farthest_idx", "The index of the point farthest from a point.", (_POINTS, _POINT)),
    Tool("get_closest_point", "The point closest to a point.", (_POINTS, _POINT)),
    Tool("get_farthest_point", "The point farthest from a point.", (_POINTS, _POINT)),
    Tool(
        "stack_objects_in_order",
        "Stack the objects, the first at the bottom.",
        (Param("object_names", "List[str]", "Object names, bottom first."),),
    ),
    Tool(
        "make_line",
        "The segment between two points (a shapely LineString).",
        (Param("start", "list", "An (x, y) point."), Param("end", "list", "An (x, y) point.")),
    ),
    Tool(
        "interpolate_pts_on_line",
        "n points evenly spaced along a line, both ends included ((n, 2) array).",
        (_LINE, Param("n", "int", "How many points.")),
    ),
    Tool(
        "make_line_by_length",
        "A horizontal segment of a length, from the origin.",
        (Param("length", "number", "In metres."),),
    ),
    Tool(
        "make_vertical_line_by_length",
        "A vertical segment of a length, from the origin.",
        (Param("length", "number", "In metres."),),
    ),
    Tool(
        "interpolate_line",
        "The point at a fraction of the way along a line.",
        (_LINE, Param("t", "number", "From 0 to 1.", required=False, default=0.5)),
    ),
    Tool(
        "make_triangle",
        "An equilateral triangle (a shapely Polygon) of a side length around a centre.",
        (
            Param("size", "number", "The side, in metres."),
            Param("center", "list", "An (x, y) point."),
        ),
    ),
    Tool(
        "get_points_from_polygon",
        "The corners of a polygon ((n, 2) array).",
        (Param("polygon", "object", "A shapely Polygon."),),
    ),
    Tool("get_pt_to_the_left", "A point moved to the left (-x).", (_PT, _DIST)),
    Tool("get_pt_to_the_right", "A point moved to the right (+x).", (_PT, _DIST)),
    Tool("get_pt_to_the_top", "A point moved to the top (+y).", (_PT, _DIST)),
    Tool("get_pt_to_the_bottom", "A point moved to the bottom (-y).", (_PT, _DIST)),
    Tool(
        "eval_line",
        "slope * x + y_intercept.",
        (
            Param("x", "number", "Where to evaluate."),
            Param("slope", "number", "The slope."),
            Param("y_intercept", "number", "The intercept.", required=False, default=0),
        ),
    ),
)
"""The helpers the original generated on the fly, fixed (:mod:`.helpers`)."""

TABLETOP_FUNCTIONS: tuple[Tool, ...] = (*PRIMITIVES, *PARSERS, *HELPERS)
"""All 32."""
