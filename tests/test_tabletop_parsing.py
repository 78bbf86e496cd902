"""The tabletop's rule-based readers: object names, positions, questions and shape changes."""

from __future__ import annotations

import contextlib
import math
import time

import numpy as np
import pytest

from toolgym.families.tabletop.parsing import (
    MAX_QUERY,
    ParseError,
    context_objects,
    parse_obj_name,
    parse_position,
    parse_question,
    transform_shape_pts,
)
from toolgym.families.tabletop.world.workspace import CORNER_POS

SCENE = {
    "red block": (-0.2, -0.3, 0.02),
    "blue block": (0.1, -0.6, 0.02),
    "green block": (0.0, -0.45, 0.024),  # resting in the cyan bowl
    "yellow block": (0.2, -0.7, 0.02),
    "red bowl": (0.15, -0.35, 0.0),
    "blue bowl": (-0.15, -0.7, 0.0),
    "cyan bowl": (0.0, -0.45, 0.0),
}
"""Four blocks and three bowls; the green block is in the cyan bowl."""

STACK = {
    "red block": (0.1, -0.5, 0.02),
    "blue block": (0.1, -0.5, 0.06),  # on the red block
    "green block": (-0.1, -0.4, 0.02),
    "pink bowl": (-0.2, -0.7, 0.0),
}

TIES = {
    "orange block": (-0.1, -0.5, 0.02),
    "purple block": (-0.1, -0.3, 0.02),
    "gray block": (0.1, -0.5, 0.02),
    "brown bowl": (0.2, -0.5, 0.0),
}
"""Two blocks share the smallest x; one is as far from the middle as another."""


def obj(query: str, scene: dict = SCENE, context: str = "") -> str | list[str]:
    return parse_obj_name(query, context, scene)


def pos(query: str, scene: dict = SCENE) -> np.ndarray | list[np.ndarray]:
    return parse_position(query, "", scene)


def ask(query: str, scene: dict = SCENE) -> object:
    return parse_question(query, "", scene)


def xy(name: str) -> list[float]:
    return list(CORNER_POS[name][:2])


def random_scene(
    seed: int, blocks: int = 4, bowls: int = 3
) -> dict[str, tuple[float, float, float]]:
    rng = np.random.default_rng(seed)
    colors = ["blue", "red", "green", "orange", "yellow", "purple", "pink", "cyan", "brown", "gray"]
    names = [f"{c} block" for c in rng.permutation(colors)[:blocks]]
    names += [f"{c} bowl" for c in rng.permutation(colors)[:bowls]]
    return {
        name: (float(rng.uniform(-0.28, 0.28)), float(rng.uniform(-0.78, -0.22)), 0.0)
        for name in names
    }


# -- object names ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # names, and names without the kind
        ("the red block", "red block"),
        ("red block", "red block"),
        ("The Red Block.", "red block"),
        ("the cyan one", "cyan bowl"),
        ("yellow", "yellow block"),
        # kinds and everything
        ("the blocks", ["red block", "blue block", "green block", "yellow block"]),
        ("all blocks", ["red block", "blue block", "green block", "yellow block"]),
        ("the bowls", ["red bowl", "blue bowl", "cyan bowl"]),
        ("all the objects", list(SCENE)),
        ("everything", list(SCENE)),
        # colours and colour words
        ("the sun colored block", "yellow block"),
        ("the sun-coloured block", "yellow block"),
        ("the lemon block", "yellow block"),
        ("the ocean bowl", "blue bowl"),
        ("the sky colored objects", ["blue block", "blue bowl"]),
        ("the blue objects", ["blue block", "blue bowl"]),
        ("the grass colored block", "green block"),
        ("the cherry bowl", "red bowl"),
        ("the teal bowl", "cyan bowl"),
        ("the red and blue blocks", ["red block", "blue block"]),
        ("the warm colored blocks", ["red block", "yellow block"]),
        ("the block that is the color of the sun", "yellow block"),
        ("the block colored like grass", "green block"),
        # extremes
        ("the left most block", "red block"),
        ("the leftmost block", "red block"),
        ("the left-most block", "red block"),
        ("the top most bowl", "red bowl"),
        ("the topmost bowl", "red bowl"),
        ("the bottom block", "yellow block"),
        ("the right most object", "yellow block"),
        ("the block on the far left", "red block"),
        ("the block on the left", "red block"),
        ("the bowl at the bottom", "blue bowl"),
        ("the top left block", "red block"),
        ("the bottom left bowl", "blue bowl"),
        ("the left most", "red block"),
        # ordinals from a side
        ("the second block from the left", "green block"),
        ("the third bowl from the top", "blue bowl"),
        ("the first block from the bottom", "yellow block"),
        ("the 2nd block from the right", "blue block"),
        ("the 4th block from the left", "yellow block"),
        ("the last block from the left", "yellow block"),
        ("the second left most block", "green block"),
        ("the second bowl", "blue bowl"),
        # relations to objects and places
        ("the block closest to the red bowl", "green block"),
        ("the block nearest the red bowl", "green block"),
        ("the bowl farthest from the blue block", "blue bowl"),
        ("the bowl furthest from the blue block", "blue bowl"),
        ("the two blocks closest to the middle", ["green block", "blue block"]),
        ("the 2 blocks nearest to the center", ["green block", "blue block"]),
        ("the block closest to the top left corner", "red block"),
        ("the block nearest to the middle", "green block"),
        ("the bowl closest to the middle of the table", "cyan bowl"),
        ("the block next to the blue bowl", "blue block"),
        ("the nearest block to the red bowl", "green block"),
        ("the furthest bowl from the blue block", "blue bowl"),
        ("the block that is closest to the red bowl", "green block"),
        ("the bowl which is the farthest from the blue block", "blue bowl"),
        ("the object closest to the left side", "red block"),
        # spatial filters
        ("the blocks to the left of the red bowl", ["red block", "blue block", "green block"]),
        ("the blocks left of the red bowl", ["red block", "blue block", "green block"]),
        ("the blocks on the left of the red bowl", ["red block", "blue block", "green block"]),
        ("the blocks right of the green block", ["blue block", "yellow block"]),
        ("the bowls above the green block", ["red bowl"]),
        ("the bowls to the top of the green block", ["red bowl"]),
        ("the blocks below the red bowl", ["blue block", "green block", "yellow block"]),
        ("the bowl on the left of the green block", "blue bowl"),
        ("the blocks on the right side", ["blue block", "yellow block"]),
        ("the blocks in the top half", ["red block", "green block"]),
        ("the blocks in the bottom half", ["blue block", "yellow block"]),
        ("the objects in the top left corner", ["red block"]),
        ("the left most blocks", ["red block"]),
        ("the two blocks on the right", ["yellow block", "blue block"]),
        (
            "the blocks left of the red bowl and above the blue bowl",
            ["red block", "blue block", "green block"],
        ),
        ("the blocks left of the red bowl and in the bottom half", ["blue block"]),
        ("the block between the red bowl and the blue bowl", "green block"),
        # resting on / in
        ("the block in the cyan bowl", "green block"),
        ("the block inside the cyan bowl", "green block"),
        ("the bowl containing the green block", "cyan bowl"),
        ("the bowl with the green block", "cyan bowl"),
        # colour matches
        ("the block with the same color as the red bowl", "red block"),
        ("the block with the same colour as the blue bowl", "blue block"),
        ("the bowl that matches the red block", "red bowl"),
        ("the bowl matching the blue block", "blue bowl"),
        ("the blocks without a matching bowl", ["green block", "yellow block"]),
        ("the blocks with a matching bowl", ["red block", "blue block"]),
        ("the bowls that do not have a matching block", ["cyan bowl"]),
        # exclusions and lists
        ("all blocks except the red one", ["blue block", "green block", "yellow block"]),
        ("the bowls other than the cyan bowl", ["red bowl", "blue bowl"]),
        ("the red block and the blue bowl", ["red block", "blue bowl"]),
        # indefinite: the first that fits
        ("a block", "red block"),
        ("any bowl in the bottom half", "blue bowl"),
    ],
)
def test_obj_name(query: str, expected: str | list[str]) -> None:
    assert obj(query) == expected


def test_singular_is_a_string_and_plural_a_list() -> None:
    assert isinstance(obj("the bottom block"), str)
    assert obj("the blocks in the bottom left corner") == []
    assert obj("the purple objects") == []
    assert obj("the one block on the left") == "red block"
    assert obj(
        "both bowls on the left", {"a": (0, 0, 0), **STACK, "red bowl": (-0.1, -0.3, 0)}
    ) == [
        "pink bowl",
        "red bowl",
    ]


def test_stacked_objects() -> None:
    assert obj("the block on the red block", STACK) == "blue block"
    assert obj("the block on top of the red block", STACK) == "blue block"
    assert obj("the block under the blue block", STACK) == "red block"
    assert obj("the blocks on the pink bowl", STACK) == []
    with pytest.raises(ParseError, match="no object fits"):
        obj("the block on the green block", STACK)


def test_ties_go_to_scene_order() -> None:
    assert obj("the left most block", TIES) == "orange block"
    swapped = {k: TIES[k] for k in ("purple block", "orange block", "gray block", "brown bowl")}
    assert obj("the left most block", swapped) == "purple block"
    # orange and gray are both 0.1 m from the middle
    assert obj("the block closest to the middle", TIES) == "orange block"
    assert obj("the two blocks closest to the middle", TIES) == ["orange block", "gray block"]
    assert obj("the blocks closest to the middle", TIES) == [
        "orange block",
        "gray block",
        "purple block",
    ]


def test_context_restricts_the_objects() -> None:
    context = "objects = ['blue block', 'yellow block', 'red bowl']"
    assert obj("the blocks", context=context) == ["blue block", "yellow block"]
    assert obj("the left most block", context=context) == "blue block"
    assert obj("the blocks", context="objects = []") == [
        "red block",
        "blue block",
        "green block",
        "yellow block",
    ]
    with pytest.raises(ParseError, match="no object fits"):
        obj("the cyan bowl", context=context)


def test_context_objects() -> None:
    scene = {"red block": (0, 0, 0), "blue bowl": (0, 0, 0), "green bowl": (0, 0, 0)}
    assert context_objects("objects = ['blue bowl', 'red block']", scene) == [
        "red block",
        "blue bowl",
    ]
    assert context_objects('objects = ["Blue  Bowl", "gold bowl"]', scene) == ["blue bowl"]
    assert context_objects("", scene) == list(scene)
    assert context_objects("no list here", scene) == list(scene)
    assert context_objects("# see [the docs]\n", scene) == list(scene)
    assert context_objects("objects = [1, 2]", scene) == list(scene)
    assert context_objects("objects = ['red block', ", scene) == list(scene)  # no list
    with pytest.raises(ParseError, match="not a list of quoted names"):
        context_objects("objects = [__import__('os')]", scene)
    with pytest.raises(ParseError, match="characters"):
        context_objects("objects = [" + "'red block', " * 2000 + "]", scene)
    with pytest.raises(ParseError):
        context_objects("objects = []", ["red block"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("the shiny thing", "expected an object name"),
        ("the block", "fits 4 objects"),
        ("the purple bowl", "no object fits 'the purple bowl'"),
        ("the fifth block from the left", "asks for number 5"),
        ("the five blocks closest to the middle", "asks for 5 objects"),
        ("the block closest to the purple bowl", "no object fits 'the purple bowl'"),
        ("the block closest to", "needs an object or a place"),
        ("the left right block", "opposite sides"),
        ("the left most block closest to the red bowl", "two ways"),
        ("the closest block", "closest but not to what"),
        ("", "empty"),
    ],
)
def test_obj_name_errors(query: str, message: str) -> None:
    with pytest.raises(ParseError, match=message) as error:
        obj(query)
    assert repr(query) in str(error.value)
    assert "objects: red block, blue block" in str(error.value)


def test_ambiguous_name_lists_the_candidates() -> None:
    with pytest.raises(ParseError, match=r"fits 2 objects \(red block, red bowl\)"):
        obj("the red one")


def test_query_length_cap() -> None:
    fits = "the " + " ".join(["red"] * ((MAX_QUERY - 10) // 4)) + " block"
    assert len(fits) <= MAX_QUERY
    assert obj(fits) == "red block"
    for reader in (parse_obj_name, parse_position, parse_question):
        with pytest.raises(ParseError, match=f"at most {MAX_QUERY} characters"):
            reader("the red block " * 40, "", SCENE)
    with pytest.raises(ParseError, match=f"at most {MAX_QUERY} characters"):
        transform_shape_pts("move it left " * 50, [[0, 0]])


def test_bad_arguments_raise_parse_errors() -> None:
    with pytest.raises(ParseError, match="string"):
        parse_obj_name(3, "", SCENE)  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="context"):
        parse_obj_name("the blocks", 5, SCENE)  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="position of 'red block'"):
        parse_obj_name("the blocks", "", {"red block": ("a", "b")})  # type: ignore[dict-item]
    with pytest.raises(ParseError, match="position of 'red block'"):
        parse_obj_name("the blocks", "", {"red block": (float("nan"), 0.0, 0.0)})
    assert parse_obj_name("the blocks", None, SCENE) == obj("the blocks")  # type: ignore[arg-type]


def test_long_chains_are_quick() -> None:
    queries = [
        ("and " * 124)[:MAX_QUERY],
        ("between the red block and " * 19)[:MAX_QUERY],
        "the block closest to " * 24 + "the red bowl",
        ("the block closest to the bowl left of " * 13)[:MAX_QUERY],
        ("the red block and " * 27 + "the blue bowl")[:MAX_QUERY],
        ("is " + "the red block and " * 27)[:MAX_QUERY],
        ("a line from " + "the red block to " * 29)[:MAX_QUERY],
        ("left of " * 62)[:MAX_QUERY],
        ("the middle of " * 35 + "the blocks")[:MAX_QUERY],
    ]
    for query in queries:
        for reader in (parse_obj_name, parse_position, parse_question):
            start = time.perf_counter()
            with contextlib.suppress(ParseError):
                reader(query, "", SCENE)
            assert time.perf_counter() - start < 5.0, (reader.__name__, query)  # no blow-up


def test_word_soup_raises_only_parse_errors() -> None:
    soup = (
        "the a of and to from left right top bottom most far corner corners side sides half "
        "between in on above below except matching same color as with without how many what "
        "which is are there where distance line circle points point 3 2 10 cm m radius "
        "horizontal vertical diagonal rotate move scale flip by degrees clockwise bigger smaller "
        "x axis up down first second last 2nd middle table one ones all every block blocks bowl "
        "bowls object objects red blue sun warm closest farthest nearest next containing"
    )
    vocabulary = soup.split()
    rng = np.random.default_rng(7)
    for _ in range(400):
        query = " ".join(rng.choice(vocabulary, size=int(rng.integers(1, 20))))
        for reader in (parse_obj_name, parse_position, parse_question):
            try:
                reader(query, "", SCENE)
            except ParseError as e:
                assert "its arguments" not in str(e), query
        try:
            transform_shape_pts(query, [[0.0, 0.0], [1.0, 1.0]])
        except ParseError as e:
            assert "its arguments" not in str(e), query


# -- properties over random scenes -------------------------------------------------------------


@pytest.mark.parametrize("seed", range(25))
def test_side_properties(seed: int) -> None:
    scene = random_scene(seed)
    blocks = [n for n in scene if n.endswith("block")]
    bowls = [n for n in scene if n.endswith("bowl")]
    by_x = sorted(blocks, key=lambda n: scene[n][0])
    by_y = sorted(blocks, key=lambda n: -scene[n][1])
    assert obj("the left most block", scene) == by_x[0]
    assert obj("the right most block", scene) == by_x[-1]
    assert obj("the top most block", scene) == by_y[0]
    assert obj("the bottom most block", scene) == by_y[-1]
    assert obj("the second block from the top", scene) == by_y[1]
    assert obj("the third block from the left", scene) == by_x[2]
    assert obj("the second block from the bottom", scene) == by_y[-2]
    assert obj("the second block from the right", scene) == by_x[-2]
    assert obj("the blocks on the right side", scene) == [n for n in blocks if scene[n][0] > 0]
    assert obj("the blocks in the top half", scene) == [n for n in blocks if scene[n][1] > -0.5]
    middle = np.array(CORNER_POS["middle"][:2])
    near = sorted(blocks, key=lambda n: np.hypot(*(np.array(scene[n][:2]) - middle)))
    assert obj("the two blocks closest to the middle", scene) == near[:2]
    target = bowls[0]
    far = max(blocks, key=lambda n: math.dist(scene[n][:2], scene[target][:2]))
    assert obj(f"the block farthest from the {target}", scene) == far
    left = [n for n in blocks if scene[n][0] < scene[target][0]]
    assert obj(f"the blocks left of the {target}", scene) == left
    assert ask("how many blocks are there", scene) == len(blocks)
    assert ask(f"is the {blocks[0]} to the left of the {target}", scene) == (blocks[0] in left)
    assert ask("which block is the left most", scene) == by_x[0]


@pytest.mark.parametrize("seed", range(10))
def test_transform_properties(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pts = rng.uniform(-0.3, 0.3, size=(int(rng.integers(2, 9)), 2))
    original = pts.copy()
    centroid = pts.mean(axis=0)
    turned = transform_shape_pts("rotate it by 37 degrees", pts)
    np.testing.assert_allclose(turned.mean(axis=0), centroid, atol=1e-12)
    np.testing.assert_allclose(
        np.linalg.norm(turned - centroid, axis=1), np.linalg.norm(pts - centroid, axis=1)
    )
    back = transform_shape_pts("rotate it by 37 degrees clockwise", turned)
    np.testing.assert_allclose(back, pts, atol=1e-12)
    scaled = transform_shape_pts("scale it by 3x", pts)
    np.testing.assert_allclose(scaled - centroid, 3 * (pts - centroid), atol=1e-12)
    flipped = transform_shape_pts("flip it horizontally then flip it horizontally", pts)
    np.testing.assert_allclose(flipped, pts, atol=1e-12)
    np.testing.assert_array_equal(pts, original)


# -- positions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("the top left corner", xy("top left corner")),
        ("top left", xy("top left corner")),
        ("the upper right corner", xy("top right corner")),
        ("bottom left corner", xy("bottom left corner")),
        ("the bottom right corner.", xy("bottom right corner")),
        ("the middle", xy("middle")),
        ("center", xy("middle")),
        ("the centre", xy("middle")),
        ("the middle of the table", xy("middle")),
        ("the table", xy("middle")),
        ("the top side", xy("top side")),
        ("the top edge", xy("top side")),
        ("the left side", xy("left side")),
        ("right side", xy("right side")),
        ("the bottom", xy("bottom side")),
        ("the red bowl", [0.15, -0.35]),
        ("the position of the red bowl", [0.15, -0.35]),
        ("the left most block", [-0.2, -0.3]),
        ("in the cyan bowl", [0.0, -0.45]),
        ("on top of the blue block", [0.1, -0.6]),
        # offsets
        ("a point 10cm to the left of the red bowl", [0.05, -0.35]),
        ("5 cm above the blue block", [0.1, -0.55]),
        ("0.2 m right of the middle", [0.2, -0.5]),
        ("0.2 meters to the right of the center", [0.2, -0.5]),
        ("a point above the third block from the bottom", [0.0, -0.35]),
        ("left of the red bowl", [0.05, -0.35]),
        ("10 mm below the red bowl", [0.15, -0.36]),
        ("the point 3 centimeters to the right of the blue bowl", [-0.12, -0.7]),
        ("a point to the top left of the red bowl", [0.05, -0.25]),
        ("left of the red bowl by 20 cm", [-0.05, -0.35]),
        ("20cm under the top side", [0.0, -0.45]),
        ("a point 5cm above the top left corner", [-0.25, -0.2]),
        # nearest corners and sides
        ("the corner closest to the blue bowl", xy("bottom left corner")),
        ("the corner nearest the red block", xy("top left corner")),
        ("the corner farthest from the red block", xy("bottom right corner")),
        ("the side farthest from the right most bowl", xy("left side")),
        ("the side closest to the blue bowl", xy("bottom side")),
        ("the side closest to the yellow block", xy("right side")),  # a tie with the bottom side
        ("the top corner closest to the red bowl", xy("top right corner")),
        # midpoints
        ("between the red block and the blue bowl", [-0.175, -0.5]),
        ("halfway between the top left corner and the red bowl", [-0.05, -0.3]),
        ("the midpoint of the red block and the blue block", [-0.05, -0.45]),
        ("the middle of the blocks", [0.025, -0.5125]),
        ("the centre of the bowls", [0.0, -0.5]),
    ],
)
def test_position(query: str, expected: list[float]) -> None:
    found = pos(query)
    assert isinstance(found, np.ndarray)
    assert found.shape == (2,)
    assert found.dtype == float
    np.testing.assert_allclose(found, expected, atol=1e-9)


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("the top corners", ["top left corner", "top right corner"]),
        ("the bottom corners", ["bottom left corner", "bottom right corner"]),
        ("the left corners", ["top left corner", "bottom left corner"]),
        ("the right corners", ["top right corner", "bottom right corner"]),
        (
            "the corners",
            ["top left corner", "top right corner", "bottom left corner", "bottom right corner"],
        ),
        (
            "all four corners",
            ["top left corner", "top right corner", "bottom left corner", "bottom right corner"],
        ),
        ("the sides", ["top side", "left side", "right side", "bottom side"]),
        (
            "the corners closest to the red block",
            ["top left corner", "top right corner", "bottom left corner", "bottom right corner"],
        ),
    ],
)
def test_position_groups(query: str, names: list[str]) -> None:
    found = pos(query)
    assert isinstance(found, list)
    np.testing.assert_allclose(np.array(found), [xy(n) for n in names])


def test_positions_of_several_objects() -> None:
    found = pos("the bowls")
    assert isinstance(found, list)
    np.testing.assert_allclose(np.array(found), [[0.15, -0.35], [-0.15, -0.7], [0.0, -0.45]])
    shifted = pos("10cm above the bowls")
    np.testing.assert_allclose(np.array(shifted), np.array(found) + np.array([0.0, 0.1]))
    assert pos("the purple blocks") == []


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "a 30cm horizontal line in the middle with 3 points",
            [[-0.15, -0.5], [0.0, -0.5], [0.15, -0.5]],
        ),
        (
            "a vertical line through the red bowl with 4 points",
            [[0.15, -0.5], [0.15, -0.4], [0.15, -0.3], [0.15, -0.2]],
        ),
        (
            "a diagonal line from the top left to the bottom right corner with 5 points",
            [[-0.25, -0.25], [-0.125, -0.375], [0.0, -0.5], [0.125, -0.625], [0.25, -0.75]],
        ),
        ("a line from left to right with 3 points", [[-0.25, -0.5], [0.0, -0.5], [0.25, -0.5]]),
        (
            "three points from the left side to the right side",
            [[-0.25, -0.5], [0.0, -0.5], [0.25, -0.5]],
        ),
        (
            "3 points between the red block and the red bowl",
            [[-0.2, -0.3], [-0.025, -0.325], [0.15, -0.35]],
        ),
        (
            "a 20 cm long vertical line in the top left corner with 2 points",
            [[-0.25, -0.35], [-0.25, -0.15]],
        ),
        (
            "a horizontal line of length 0.1 m at the blue bowl with 2 points",
            [[-0.2, -0.7], [-0.1, -0.7]],
        ),
        (
            "a vertical line 10cm left of the red bowl with 3 points",
            [[0.05, -0.5], [0.05, -0.35], [0.05, -0.2]],
        ),
        (
            "points on a circle of radius 10cm around the middle, 4 points",
            [[0.1, -0.5], [0.0, -0.4], [-0.1, -0.5], [0.0, -0.6]],
        ),
        (
            "4 points on a circle with a 20 cm diameter around the red bowl",
            [[0.25, -0.35], [0.15, -0.25], [0.05, -0.35], [0.15, -0.45]],
        ),
    ],
)
def test_lines_and_circles(query: str, expected: list[list[float]]) -> None:
    found = pos(query)
    assert isinstance(found, np.ndarray)
    np.testing.assert_allclose(found, expected, atol=1e-9)


def test_line_defaults() -> None:
    line = pos("a horizontal line in the middle")
    assert isinstance(line, np.ndarray)
    assert line.shape == (5, 2)
    assert math.isclose(float(line[-1, 0] - line[0, 0]), 0.3)
    circle = pos("a circle around the red bowl")
    assert isinstance(circle, np.ndarray)
    assert circle.shape == (8, 2)
    np.testing.assert_allclose(np.hypot(*(circle - [0.15, -0.35]).T), 0.1)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("the corner", "names 4 places"),
        ("the top corner", "names 2 places"),
        ("the shiny thing", "expected a named position"),
        ("left of", "expected a place or object"),
        ("between the red block", "between <place or object> and <place or object>"),
        ("the corner next", "needs an object or a place"),
        ("the side of the red bowl", "expected 'the corner closest to"),
        ("a line from the red block with 3 points", "from <place> to <place>"),
        ("a line in the middle with 500 points", "2 to 100 points"),
        ("a 50 m line in the middle", "at most 10 m"),
        ("a line through the blocks", "names several points"),
        ("the middle of the purple blocks", "nothing fits"),
        ("the purple bowl", "no object fits"),
    ],
)
def test_position_errors(query: str, message: str) -> None:
    with pytest.raises(ParseError, match=message) as error:
        pos(query)
    assert repr(query) in str(error.value)


# -- questions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("how many blocks are there", 4),
        ("How many bowls are there?", 3),
        ("how many objects are on the table", 7),
        ("how many blocks are in the top half", 2),
        ("how many blocks are in the cyan bowl", 1),
        ("how many purple blocks are there", 0),
        ("can you tell me how many bowls there are", 3),
        ("what color is the bowl closest to the red block", "cyan"),
        ("what colour is the left most block", "red"),
        ("what is the color of the left most bowl", "blue"),
        ("which color is the block in the cyan bowl", "green"),
        ("what colors are the blocks", ["red", "blue", "green", "yellow"]),
        ("is the red block to the left of the blue bowl", True),
        ("is the red block left of the blue block", True),
        ("is the yellow block above the red bowl", False),
        ("is the yellow block below the red bowl", True),
        ("is the green block in the cyan bowl", True),
        ("is the red block in the cyan bowl", False),
        ("is the red block the left most block", True),
        ("is the red block the left most", True),
        ("is the blue block the left most block", False),
        ("is the green block closest to the middle", True),
        ("is the blue block closest to the middle", False),
        ("is the red block on the left side", True),
        ("is the yellow block in the top half", False),
        ("is the red block red", True),
        ("is the red block a bowl", False),
        ("is the block in the cyan bowl green", True),
        ("are the blocks in the top half", False),
        ("are the red block and the green block in the top half", True),
        ("does the red block have a matching bowl", True),
        ("does the green block have a matching bowl", False),
        ("is there a green bowl", False),
        ("is there a red bowl", True),
        ("are there any blocks in the cyan bowl", True),
        ("is there anything in the red bowl", False),
        ("are there two blocks on the right side", True),
        ("are there three blocks on the right side", False),
        ("which block is the left most", "red block"),
        ("which bowl is closest to the blue block", "cyan bowl"),
        ("which block is the second from the left", "green block"),
        ("which block is on the right", "yellow block"),
        ("which bowl is the green block in", "cyan bowl"),
        ("which blocks are in the top half", ["red block", "green block"]),
        ("which is the left most block", "red block"),
        ("what are the blocks in the top half", ["red block", "green block"]),
        ("what is the left most block", "red block"),
        ("what is in the cyan bowl", ["green block"]),
        ("what objects are on the right side", ["blue block", "yellow block", "red bowl"]),
        ("what blocks are left of the red bowl", ["red block", "blue block", "green block"]),
        ("list the bowls", ["red bowl", "blue bowl", "cyan bowl"]),
        ("name the blocks on the left", ["red block"]),
        ("how far is the red block from the blue bowl", 0.403),
        ("how far apart are the red block and the red bowl", 0.354),
        ("what is the distance between the red block and the top left corner", 0.071),
        ("where is the red block", "top left corner"),
        ("where are the bowls", ["top right corner", "bottom left corner", "middle"]),
    ],
)
def test_question(query: str, expected: object) -> None:
    answer = ask(query)
    assert answer == expected
    assert type(answer) is type(expected)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("why is the sky blue", "expected 'how many <objects>'"),
        ("", "the question is empty"),
        ("how far is the red block", "how far is <object> from"),
        ("is the red block", "is <object> <description>"),
        ("what color is the block", "fits 4 objects"),
        ("how many", "objects:"),
    ],
)
def test_question_errors(query: str, message: str) -> None:
    with pytest.raises(ParseError, match=message) as error:
        ask(query)
    assert repr(query) in str(error.value)


# -- shapes ------------------------------------------------------------------------------------

SQUARE = np.array([[0.0, -0.5], [0.1, -0.5], [0.1, -0.4], [0.0, -0.4]])


def shift(dx: float, dy: float) -> np.ndarray:
    return SQUARE + np.array([dx, dy])


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("move it 10cm to the left", shift(-0.1, 0.0)),
        ("shift up by 5 cm", shift(0.0, 0.05)),
        ("move it right 0.1m", shift(0.1, 0.0)),
        ("move it down", shift(0.0, -0.1)),
        ("move it 20 mm to the top right", shift(0.02, 0.02)),
        ("move it up and to the left by 10cm", shift(-0.1, 0.1)),
        ("move it 10 cm up, then 5 cm left", shift(-0.05, 0.1)),
        ("move it to the top left corner", shift(-0.3, 0.2)),
        ("rotate it by 90 degrees", SQUARE[[1, 2, 3, 0]]),
        ("rotate it 90 degrees clockwise", SQUARE[[3, 0, 1, 2]]),
        ("rotate it by -90 degrees", SQUARE[[3, 0, 1, 2]]),
        ("turn it 90° counter-clockwise", SQUARE[[1, 2, 3, 0]]),
        ("rotate it by 180 degrees", SQUARE[[2, 3, 0, 1]]),
        ("turn it upside down", SQUARE[[2, 3, 0, 1]]),
        ("scale it by 2x", (SQUARE - [0.05, -0.45]) * 2 + [0.05, -0.45]),
        ("make it twice as big", (SQUARE - [0.05, -0.45]) * 2 + [0.05, -0.45]),
        ("make it bigger by 1.5x", (SQUARE - [0.05, -0.45]) * 1.5 + [0.05, -0.45]),
        ("make it bigger", (SQUARE - [0.05, -0.45]) * 1.5 + [0.05, -0.45]),
        ("make it 50% bigger", (SQUARE - [0.05, -0.45]) * 1.5 + [0.05, -0.45]),
        ("make it smaller", (SQUARE - [0.05, -0.45]) / 1.5 + [0.05, -0.45]),
        ("shrink it by half", (SQUARE - [0.05, -0.45]) * 0.5 + [0.05, -0.45]),
        ("make it smaller by 2x", (SQUARE - [0.05, -0.45]) * 0.5 + [0.05, -0.45]),
        ("stretch it horizontally by 2", (SQUARE - [0.05, -0.45]) * [2, 1] + [0.05, -0.45]),
        ("flip it horizontally", SQUARE[[1, 0, 3, 2]]),
        ("mirror it left to right", SQUARE[[1, 0, 3, 2]]),
        ("flip it vertically", SQUARE[[3, 2, 1, 0]]),
        ("flip it upside down", SQUARE[[3, 2, 1, 0]]),
        ("scale it by 2 and then move it 10cm right", (SQUARE - [0.05, -0.45]) * 2 + [0.15, -0.45]),
    ],
)
def test_transform(query: str, expected: np.ndarray) -> None:
    before = SQUARE.copy()
    found = transform_shape_pts(query, SQUARE)
    assert found.dtype == float
    assert found is not SQUARE
    np.testing.assert_allclose(found, expected, atol=1e-12)
    np.testing.assert_array_equal(SQUARE, before)


def test_transform_keeps_list_input_and_order() -> None:
    pts = [[0.0, 0.0], [1.0, 0.0]]
    turned = transform_shape_pts("rotate it by 90 degrees and move it 1 m right", pts)
    np.testing.assert_allclose(turned, [[1.5, -0.5], [1.5, 0.5]], atol=1e-12)
    assert pts == [[0.0, 0.0], [1.0, 0.0]]
    moved = transform_shape_pts("move it 1 m right and rotate it by 90 degrees", pts)
    np.testing.assert_allclose(moved, [[1.5, -0.5], [1.5, 0.5]], atol=1e-12)


@pytest.mark.parametrize(
    ("query", "points", "message"),
    [
        ("dance", SQUARE, "expected clauses such as"),
        ("move it", SQUARE, "expected a direction"),
        ("rotate it", SQUARE, "expected an angle"),
        ("scale it", SQUARE, "expected a factor"),
        ("scale it by -2", SQUARE, "scale factor"),
        ("", SQUARE, "empty"),
        ("move it left", [1.0, 2.0, 3.0], r"\(n, 2\)"),
        ("move it left", [[1.0, 2.0, 3.0]], r"\(n, 2\)"),
        ("move it left", [], r"\(n, 2\)"),
        ("move it left", "abc", r"\(n, 2\)"),
        ("move it left", [[float("nan"), 0.0]], r"\(n, 2\)"),
    ],
)
def test_transform_errors(query: str, points: object, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        transform_shape_pts(query, points)  # type: ignore[arg-type]
