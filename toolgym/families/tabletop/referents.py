"""The scene a tabletop query is read against, and the named places of the table.

A query is read against a :class:`Scene`: the objects a context lists (``"objects = ['red block',
'blue bowl']"``), each an :class:`Obj` with its base position, colour and kind. A :class:`Place`
is a named region of the table (a side, a corner, the middle, or a group of them), read from
words by :func:`read_place`.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from toolgym.families.tabletop.vocabulary import ParseError, plain, shown, word_set
from toolgym.families.tabletop.world.workspace import COLORS, CORNER_POS, CORNERS, SIDES

MAX_LIST: Final = 20_000
"""The longest object list literal a context may hold, in characters."""

STACK_RADIUS: Final = 0.05
"""An object is on (or in) another when their xy are this close (metres) and it is higher."""

STACK_RISE: Final = 0.01
"""How much higher (metres) an object on another must be."""

MIDDLE_BOX: Final = 0.1
"""Objects "in the middle" are within this many metres of the centre in x and in y."""

Positions = Mapping[str, Sequence[float]]
"""Object name -> (x, y, z) of its base, in scene order."""

Point = np.ndarray
"""A point of the table: a float array of shape (2,) (or (n, 2) for a line of points)."""

_BRACKETS = re.compile(r"\[[^\[\]]*\]")
_OBJECTS_LIST = re.compile(r"objects\s*=\s*(\[[^\[\]]*\])")
_NAME_COLORS: Final = {name: name for name in COLORS} | {"grey": "gray"}
_PLACE_NOUNS: Final = word_set(
    "corner corners side sides half part area region quadrant end portion section"
)
_TABLE: Final = word_set("table workspace scene tabletop board total")


@dataclass(frozen=True)
class Obj:
    """An object of the scene: its name, scene index, base position, colour and kind."""

    name: str
    index: int
    x: float
    y: float
    z: float
    color: str | None
    kind: str | None

    @property
    def xy(self) -> np.ndarray:
        """The object's (x, y)."""
        return np.array([self.x, self.y])


@dataclass(frozen=True)
class Scene:
    """The objects a query may refer to, and the query (for messages)."""

    func: str
    query: str
    objects: tuple[Obj, ...]
    steps: list[int] = field(default_factory=lambda: [0], compare=False, repr=False)
    list_objects: bool = True

    def fail(self, why: str) -> ParseError:
        """The error for this query: ``why`` and the objects there are."""
        listed = ", ".join(o.name for o in self.objects) or "none"
        tail = f" (objects: {listed})" if self.list_objects else ""
        error = ParseError(f"{self.func} could not read {shown(self.query)}: {why}{tail}")
        error.reason = why
        return error


def context_objects(context: str, positions: Positions) -> list[str]:
    """The objects a context lists (``"objects = ['red block', 'blue bowl']"``), in scene order.

    Only names in ``positions`` are kept; a context without a list, or with an empty one, means
    every object in ``positions``.

    >>> context_objects("objects = ['blue bowl', 'red block']", {"red block": (0, 0, 0),
    ...     "blue bowl": (0, 0, 0), "green bowl": (0, 0, 0)})
    ['red block', 'blue bowl']
    >>> context_objects("", {"red block": (0, 0, 0)})
    ['red block']
    """
    if not isinstance(positions, Mapping):
        raise ParseError(f"positions map object names to (x, y, z); got {type(positions).__name__}")
    names = [name for name in positions if isinstance(name, str)]
    if context is None:
        return names
    if not isinstance(context, str):
        raise ParseError(f"a context is a string; got {type(context).__name__}")
    text = context[: MAX_LIST * 2]
    explicit = _OBJECTS_LIST.search(text)
    match = explicit or _BRACKETS.search(text)
    if match is None:
        return names
    literal = match.group(1) if explicit else match.group(0)
    if len(literal) > MAX_LIST:
        raise ParseError(f"the context's object list has more than {MAX_LIST} characters")
    try:
        listed = ast.literal_eval(literal)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        if explicit:
            raise ParseError(
                f"the context's object list {shown(literal, 80)} is not a list of quoted names"
            ) from None
        return names
    wanted = {plain(item) for item in listed if isinstance(item, str)}
    if not wanted:
        return names
    return [name for name in names if plain(name) in wanted]


def make_scene(func: str, query: object, context: str, positions: Positions) -> Scene:
    """The scene a query is read against: the context's objects with their positions."""
    objects = []
    for index, name in enumerate(context_objects(context, positions)):
        try:
            xyz = np.asarray(positions[name], dtype=float).ravel()
        except (TypeError, ValueError):
            xyz = np.zeros(0)
        if xyz.size not in (2, 3) or not np.all(np.isfinite(xyz)):
            raise ParseError(f"the position of {name!r} is not a finite (x, y, z)")
        parts = plain(name).split()
        color = _NAME_COLORS.get(parts[0]) if parts else None
        kind = parts[-1] if parts and parts[-1] in ("block", "bowl") else None
        z = float(xyz[2]) if xyz.size == 3 else 0.0
        objects.append(Obj(name, index, float(xyz[0]), float(xyz[1]), z, color, kind))
    return Scene(func, query if isinstance(query, str) else repr(query), tuple(objects))


def on_top(upper: Obj, lower: Obj) -> bool:
    """Whether ``upper`` rests on or in ``lower`` (close in xy, higher)."""
    near = math.hypot(upper.x - lower.x, upper.y - lower.y) <= STACK_RADIUS
    return near and upper.z > lower.z + STACK_RISE


# -- places ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """A named region of the table: a side, a corner, the middle, or a group of them."""

    v: str | None
    h: str | None
    middle: bool
    noun: str | None
    end: int

    @property
    def group(self) -> bool:
        """Whether it names several corners or sides (``the top corners``, ``the corner``)."""
        sides = sum(x is not None for x in (self.v, self.h))
        single = (self.noun == "corner" and sides < 2) or (self.noun == "side" and sides == 0)
        return self.noun in ("corners", "sides") or single

    def points(self) -> list[tuple[str, np.ndarray]]:
        """The named positions it stands for (one, or a group), as (name, xy)."""
        if self.group:
            names = CORNERS if self.noun in ("corner", "corners") else SIDES
            chosen = [
                n for n in names if all(s is None or s in n.split() for s in (self.v, self.h))
            ]
        elif self.v and self.h:
            chosen = [f"{self.v} {self.h} corner"]
        elif self.v or self.h:
            chosen = [f"{self.v or self.h} side"]
        else:
            chosen = ["middle"]
        return [(name, np.array(CORNER_POS[name][:2])) for name in chosen]

    def key(self) -> Callable[[Obj], float]:
        """Orders objects from this place outward (a side: by that coordinate)."""
        side = self.v or self.h
        if side and not (self.v and self.h) and not self.middle and not self.group:
            return side_key(side)
        points = [p for _, p in self.points()]
        return lambda o: min(math.hypot(o.x - p[0], o.y - p[1]) for p in points)

    def holds(self, o: Obj) -> bool:
        """Whether ``o`` is in this part of the table (a half, a quarter or the middle)."""
        cx, cy = CORNER_POS["middle"][:2]
        if self.v is None and self.h is None:
            return not self.middle or (abs(o.x - cx) <= MIDDLE_BOX and abs(o.y - cy) <= MIDDLE_BOX)
        horizontal = self.h is None or (o.x < cx if self.h == "left" else o.x > cx)
        return horizontal and (self.v is None or (o.y > cy if self.v == "top" else o.y < cy))


def side_key(side: str) -> Callable[[Obj], float]:
    """Orders objects from a side of the table (``left``: smallest x first)."""
    return {
        "left": lambda o: o.x,
        "right": lambda o: -o.x,
        "top": lambda o: -o.y,
        "bottom": lambda o: o.y,
    }[side]


def read_place(toks: Sequence[str], i: int) -> Place | None:
    """A place starting at ``toks[i]`` (``the top left corner``, ``the far left``, ``middle``)."""
    n, j = len(toks), i
    j += j < n and toks[j] == "the"
    j += j < n and toks[j] == "far"
    v = h = None
    middle = False
    while j < n:
        t = toks[j]
        if t in ("top", "bottom") and v is None:
            v = t
        elif t in ("left", "right") and h is None:
            h = t
        elif t == "middle" and not middle:
            middle = True
        elif not (t in ("hand", "most") and (v or h)):
            break
        j += 1
    noun = toks[j] if j < n and toks[j] in _PLACE_NOUNS else None
    j += noun is not None
    if not (v or h or middle) and noun not in ("corner", "corners", "side", "sides"):
        return None
    if j < n and toks[j] == "of":
        k = j + 1 + (j + 1 < n and toks[j + 1] == "the")
        if k < n and toks[k] in _TABLE:
            j = k + 1
    return Place(v, h, middle, noun, j)


def is_table(toks: Sequence[str]) -> bool:
    """Whether the words name the table itself (``the table``, ``the scene``)."""
    rest = toks[1:] if toks[:1] == ["the"] else toks
    return len(rest) == 1 and rest[0] in _TABLE
