"""Rule-based readers of the tabletop's descriptions: object names, positions, questions, shapes.

The four functions Tabletop programs call to understand words (``parse_obj_name``,
``parse_position``, ``parse_question``, ``transform_shape_pts``) are deterministic: a query is
lower-cased and split into words, synonyms are normalised (``leftmost`` -> ``left most``,
``nearest`` -> ``closest``, ``centre`` -> ``middle``, ``sun`` -> ``yellow``), and the words are
read by a small grammar. A noun phrase is::

    [determiner] [count | ordinal] [colours] [sides] [head] [clause ...]

where the head is ``block``, ``bowl``, ``object`` or ``one`` (singular or plural; it may be left
out: ``the cyan one``, ``the left most``; ``the nearest block to X`` reads as ``the block
closest to X``), and a clause is

* a place: ``on the left``, ``in the top half``, ``on the right side``, ``from the bottom``;
* a relation to another phrase: ``left of X``, ``above X``, ``closest to X``, ``farthest from X``,
  ``between X and Y``, ``in X``, ``on top of X`` (stacked: within 5 cm in xy and higher),
  ``containing X``;
* a colour: ``that is red``, ``with the same color as X``, ``that matches X``,
  ``without a matching bowl``; or an exclusion: ``except X``.

``X`` is a named place (``the top left corner``, ``the middle``) or another noun phrase (a group
stands for its centre in ``left of X`` and for its nearest member in ``closest to X``).

A singular phrase names one object: an error when none fits, or when several fit and nothing
orders them (``a block`` and ``any bowl`` take the first that fits). A plural one names a list (possibly empty), in scene order unless the phrase orders
it: ``the two blocks closest to the middle`` nearest first, ``the blocks closest to X`` all of them
nearest first. Ties go to the object listed first. Sides: "top" is +y, "left" is -x. A side orders
singular phrases and counted ones (``the block on the left`` is the left most one, ``the two
blocks on the left`` the two left most) and halves the table for other plural ones (``the blocks
on the left``, ``the left most blocks``: x < 0); ``left of X`` and ``above X`` compare with X's x
or y; ``in X`` and ``on (top of) X`` mean resting on X.

The words are read by :mod:`~toolgym.families.tabletop.vocabulary`, the scene and its places are
in :mod:`~toolgym.families.tabletop.referents`, the noun phrases in
:mod:`~toolgym.families.tabletop.phrases`, the positions and questions in
:mod:`~toolgym.families.tabletop.positions` and the shape changes in
:mod:`~toolgym.families.tabletop.shapes`; this module holds the four public functions, which call
them, and names :class:`ParseError` and :func:`context_objects`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import numpy as np

from toolgym.families.tabletop.phrases import read_objects
from toolgym.families.tabletop.positions import answer_question, read_position_query
from toolgym.families.tabletop.referents import Positions, context_objects, make_scene
from toolgym.families.tabletop.shapes import transform_points
from toolgym.families.tabletop.vocabulary import MAX_QUERY as MAX_QUERY
from toolgym.families.tabletop.vocabulary import ParseError, words

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "ParseError",
    "Positions",
    "context_objects",
    "parse_obj_name",
    "parse_position",
    "parse_question",
    "transform_shape_pts",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def guarded(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """``func`` raising :class:`ParseError` for any failure to read its arguments."""

    @functools.wraps(func)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return func(*args, **kwargs)
        except ParseError:
            raise
        except (ValueError, TypeError, ArithmeticError, LookupError, RecursionError) as e:
            raise ParseError(f"{func.__name__} could not read its arguments: {e}") from None

    return call


# -- the public readers ------------------------------------------------------------------------


@guarded
def parse_obj_name(query: str, context: str, positions: Positions) -> str | list[str]:
    """The object (a name) or objects (a list of names) a description refers to.

    Args:
        query: a description, such as ``"the left most block"`` or ``"the blue objects"``.
        context: the objects it may refer to (``"objects = ['red block', 'blue bowl']"``); empty
            for every object in ``positions``.
        positions: object name -> (x, y, z) of its base, in scene order.

    Returns:
        One name for a singular description; a list for a plural one, in scene order unless the
        description orders the objects (``the two blocks closest to the middle``).

    Raises:
        ParseError: the description cannot be read, names an unknown object, fits no object, or is
            singular and fits several.

    >>> scene = {"red block": (-0.1, -0.4, 0.02), "blue block": (0.1, -0.6, 0.02),
    ...          "red bowl": (0.2, -0.55, 0.0)}
    >>> parse_obj_name("the left most block", "", scene)
    'red block'
    >>> parse_obj_name("the blocks", "", scene)
    ['red block', 'blue block']
    >>> parse_obj_name("the block closest to the red bowl", "", scene)
    'blue block'
    """
    scene = make_scene("parse_obj_name", query, context, positions)
    return read_objects(words(query, "parse_obj_name"), scene)


@guarded
def parse_position(query: str, context: str, positions: Positions) -> np.ndarray | list[np.ndarray]:
    """The xy point (or points) a description refers to.

    Args:
        query: ``"the top left corner"``, ``"a point 10cm left of the red bowl"``, ``"between the
            red block and the blue bowl"``, ``"the corner closest to the blue bowl"``, ``"a 30cm
            horizontal line in the middle with 3 points"``, ``"the top corners"``, ...
        context: the objects it may refer to, as for :func:`parse_obj_name`.
        positions: object name -> (x, y, z) of its base, in scene order.

    Returns:
        One point: a float array of shape (2,). Several named points or objects (``the
        corners``, ``the blocks``): a list of them. A line or circle of n points: an (n, 2) array.

    Raises:
        ParseError: the description cannot be read.

    >>> parse_position("the top left corner", "", {}).tolist()
    [-0.25, -0.25]
    >>> parse_position("10cm right of the red block", "", {"red block": (0, -0.5, 0)}).tolist()
    [0.1, -0.5]
    """
    return read_position_query(query, context, positions)


@guarded
def parse_question(
    query: str, context: str, positions: Positions
) -> str | int | float | bool | list[str]:
    """The answer to a question about the scene.

    Args:
        query: ``"how many blocks are there"`` (an int), ``"what color is the bowl closest to the
            red block"`` (a colour), ``"is the red block left of the blue bowl"`` (a bool),
            ``"which block is the left most"`` (a name), ``"what are the blocks in the top
            half"`` (a list of names), ``"is there a green bowl"`` (a bool), ``"how far is the red
            block from the blue bowl"`` (a float: metres, rounded to 3 decimals), ``"where is the
            red block"`` (the nearest named position, such as ``'top left corner'``).
        context: the objects it may refer to, as for :func:`parse_obj_name`.
        positions: object name -> (x, y, z) of its base, in scene order.

    Returns:
        The answer, typed as above.

    Raises:
        ParseError: the question cannot be read.

    >>> parse_question("how many blocks are there", "", {"red block": (0, -0.5, 0)})
    1
    """
    return answer_question(query, context, positions)


@guarded
def transform_shape_pts(query: str, shape_pts: ArrayLike) -> np.ndarray:
    """``shape_pts`` moved, rotated, scaled or flipped as described, as a new (n, 2) float array.

    Clauses joined by "and", "then" or commas apply in order: ``"move it 10cm to the left"``,
    ``"rotate it by 45 degrees"`` (counter-clockwise about the centroid; "clockwise" turns the
    other way), ``"scale it by 2x"``, ``"make it smaller"`` (1/1.5), ``"flip it vertically"``.

    Raises:
        ParseError: the description cannot be read, or ``shape_pts`` is not (n, 2) numbers.

    >>> transform_shape_pts("move it 10cm to the right", [[0.0, -0.5], [0.1, -0.5]]).tolist()
    [[0.1, -0.5], [0.2, -0.5]]
    """
    return transform_points(query, shape_pts)
