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

The position, question and shape readers are in :mod:`toolgym.tools.tabletop.positions`; the
functions of the same names here call them, so every public name is in this module.
"""

from __future__ import annotations

import ast
import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, ParamSpec, TypeVar

import numpy as np

from toolgym.simulators.tabletop.workspace import COLORS, CORNER_POS, CORNERS, SIDES

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

MAX_QUERY: Final = 500
"""The longest query, in characters."""

MAX_DEPTH: Final = 8
"""How deeply phrases may nest (``the block closest to the bowl left of ...``)."""

MAX_LIST: Final = 20_000
"""The longest object list literal a context may hold, in characters."""

STACK_RADIUS: Final = 0.05
"""An object is on (or in) another when their xy are this close (metres) and it is higher."""

STACK_RISE: Final = 0.01
"""How much higher (metres) an object on another must be."""

MAX_STEPS: Final = 2_000
"""The most noun phrases one query may make the reader try."""

MIDDLE_BOX: Final = 0.1
"""Objects "in the middle" are within this many metres of the centre in x and in y."""

Positions = Mapping[str, Sequence[float]]
"""Object name -> (x, y, z) of its base, in scene order."""


class ParseError(ValueError):
    """A description that cannot be read; the message names it and the forms understood.

    ``reason`` is the part of the message after the query (empty when there is no query).
    """

    reason: str = ""


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


# -- words -------------------------------------------------------------------------------------

_TOKEN = re.compile(r"(?<![a-z0-9.])-?(?:\d+(?:\.\d+)?|\.\d+)|\d+(?:\.\d+)?|\.\d+|[a-z]+|[°%]")
_ORDINAL = re.compile(r"(\d{1,3})(?:st|nd|rd|th)")
_BRACKETS = re.compile(r"\[[^\[\]]*\]")
_OBJECTS_LIST = re.compile(r"objects\s*=\s*(\[[^\[\]]*\])")


def _table(text: str) -> dict[str, tuple[str, ...]]:
    """``"a b = c d; e = "`` -> ``{"a": ("c", "d"), "b": ("c", "d"), "e": ()}``."""
    table: dict[str, tuple[str, ...]] = {}
    for entry in text.split(";"):
        keys, _, value = entry.partition("=")
        table.update(dict.fromkeys(keys.split(), tuple(value.split())))
    return table


def _words_of(text: str) -> list[str]:
    return text.split()


def word_set(text: str) -> frozenset[str]:
    """The words of ``text``, as a set."""
    return frozenset(text.split())


_REWRITE: Final = _table(
    "leftmost = left most; rightmost = right most; topmost uppermost upmost highest = top most;"
    "bottommost lowermost lowest = bottom most; upper = top; lower = bottom;"
    "nearest close closer nearer = closest; furthest further farther = farthest;"
    "center centre central midpoint = middle; edge border = side; edges = sides;"
    "underneath under = beneath; onto upon = on; atop = on top of; inside into within = in;"
    "colour colours colors = color; colored coloured hued tinted s t please = ;"
    "cube = block; cubes = blocks; dish container = bowl; dishes containers = bowls;"
    "thing item = object; things items = objects; anticlockwise = counterclockwise;"
    "centimeter centimeters centimetre centimetres cms = cm; millimeter millimeters millimetre"
    " millimetres = mm; meter meters metre metres = m; ° deg degree = degrees;"
    "radian radians = rad; % = percent"
)

COLOR_WORDS: Final[dict[str, str]] = {name: name for name in COLORS} | {
    word: color
    for word, (color,) in _table(
        "sky ocean sea navy sapphire denim blueberry azure cobalt indigo = blue;"
        "fire blood cherry strawberry apple ruby tomato crimson scarlet brick = red;"
        "grass leaf leaves lime forest emerald frog olive jade moss mint pine = green;"
        "tangerine carrot pumpkin apricot peach amber = orange;"
        "sun sunny sunshine lemon banana gold golden butter canary corn mustard = yellow;"
        "violet lavender plum grape lilac eggplant amethyst mauve magenta = purple;"
        "rose flamingo salmon bubblegum blush fuchsia = pink; teal turquoise aqua aquamarine = cyan;"
        "chocolate coffee wood wooden mud dirt soil bark caramel cocoa = brown;"
        "grey silver ash stone slate concrete smoke elephant = gray"
    ).items()
}
"""Colour names and words that evoke one (``sun`` -> ``yellow``)."""

COLOR_GROUPS: Final = {
    "warm": word_set("red orange yellow pink brown"),
    "cool": word_set("blue green cyan purple"),
    "cold": word_set("blue green cyan purple"),
}

NOUNS: Final[dict[str, tuple[str | None, bool]]] = {
    "block": ("block", False),
    "blocks": ("block", True),
    "bowl": ("bowl", False),
    "bowls": ("bowl", True),
    **dict.fromkeys(("object", "one", "anything", "something"), (None, False)),
    **dict.fromkeys(("objects", "ones", "everything"), (None, True)),
}
"""Head nouns: kind (``None``: any) and whether plural."""

_NUMBERS: Final = {
    w: k for k, w in enumerate(_words_of("zero one two three four five six seven eight nine ten"))
}
_ORDINALS: Final = {
    w: k + 1
    for k, w in enumerate(
        _words_of("first second third fourth fifth sixth seventh eighth ninth tenth")
    )
} | {"last": -1}
_NAME_COLORS: Final = {name: name for name in COLORS} | {"grey": "gray"}
UNITS: Final = {"cm": 0.01, "mm": 0.001, "m": 1.0, "inch": 0.0254, "inches": 0.0254}
SIDE_WORDS: Final = word_set("left right top bottom")
DETERMINERS: Final = word_set("the a an any some of only single")
FILLERS: Final = word_set(
    "that which who is are being located placed sitting lying positioned situated found standing"
    " resting stacked lies sits currently also most there exist exists do you see can present set"
)
_PLACE_NOUNS: Final = word_set(
    "corner corners side sides half part area region quadrant end portion section"
)
_TABLE: Final = word_set("table workspace scene tabletop board total")
_CLAUSE_STARTS: Final = SIDE_WORDS | word_set(
    "above below beneath closest farthest near next beside in on at to towards with without that"
    " which except"
)
NEAR: Final = word_set("closest near nearby next beside by adjacent")
_MATCH_LEAD: Final = word_set(
    "with having has have that which do does a an any the of in is are looks look"
)
_NEGATIONS: Final = word_set("without no not lacking don doesn never")

OBJECT_FORMS: Final = (
    "expected an object name ('red block', 'the cyan one'), a kind ('the blocks', "
    "'everything'), colours ('the blue objects', 'the sun colored block'), a side ('the left most "
    "block', 'the second bowl from the top', 'the blocks on the right side'), or a relation ('the "
    "block closest to the red bowl', 'the bowls left of the green block', 'the block in the red "
    "bowl', 'the bowl that matches the red block', 'the blocks except the red one')"
)


def shown(text: str, limit: int = 160) -> str:
    """``text`` quoted, shortened to ``limit`` characters."""
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def plain(text: str) -> str:
    """``text``'s words, lower-cased and single-spaced (``'Red  Block'`` -> ``'red block'``)."""
    return " ".join(_TOKEN.findall(text.lower()))


def words(text: object, func: str) -> list[str]:
    """The normalised words of a query (at most :data:`MAX_QUERY` characters).

    >>> words("The Left-most, sun-colored cube!", "parse_obj_name")
    ['the', 'left', 'most', 'sun', 'block']
    """
    if not isinstance(text, str):
        raise ParseError(f"{func} reads a string query; got {type(text).__name__}")
    if len(text) > MAX_QUERY:
        raise ParseError(
            f"{func} could not read {shown(text, 60)}: a query has at most {MAX_QUERY} "
            f"characters; this one has {len(text)}"
        )
    out: list[str] = []
    for token in _TOKEN.findall(text.lower()):
        if token in ("st", "nd", "rd", "th") and out and out[-1].isdigit():
            out[-1] += token
        else:
            out.extend(_REWRITE.get(token, (token,)))
    return out


def number(token: str) -> float | None:
    """The number a word stands for (``'ten'``, ``'0.5'``), or ``None``."""
    if token in _NUMBERS:
        return float(_NUMBERS[token])
    if token[:1].isdigit() or token[:1] in ".-":
        try:
            value = float(token)
        except ValueError:
            return None
        return value if math.isfinite(value) else None
    return None


def count(token: str) -> int | None:
    """A whole number from 1 to 100 a word stands for, or ``None``."""
    value = number(token)
    return int(value) if value is not None and value.is_integer() and 1 <= value <= 100 else None


def ordinal(token: str) -> int | None:
    """The position an ordinal names (``'second'``, ``'3rd'``; ``'last'`` is -1), or ``None``."""
    if token in _ORDINALS:
        return _ORDINALS[token]
    match = _ORDINAL.fullmatch(token)
    return int(match.group(1)) if match and int(match.group(1)) >= 1 else None


def read_distance(toks: Sequence[str], i: int) -> tuple[float, int] | None:
    """A distance at ``toks[i]`` (a number and an optional unit; metres without one) and its end."""
    value = number(toks[i]) if i < len(toks) else None
    if value is None:
        return None
    if i + 1 < len(toks) and toks[i + 1] in UNITS:
        return value * UNITS[toks[i + 1]], i + 2
    return value, i + 1


# -- the scene ---------------------------------------------------------------------------------


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


# -- noun phrases ------------------------------------------------------------------------------


@dataclass
class Spec:
    """What a noun phrase asks for, before it is applied to the scene."""

    kind: str | None = None
    colors: frozenset[str] | None = None
    plural: bool = False
    count: int | None = None
    ordinal: int | None = None
    sides: list[str] = field(default_factory=list)
    from_side: str | None = None
    key: Callable[[Obj], float] | None = None
    filters: list[Callable[[Obj], bool]] = field(default_factory=list)
    regions: list[Place] = field(default_factory=list)
    exclude: set[str] = field(default_factory=set)
    indefinite: bool = False
    nearness: str | None = None


@dataclass(frozen=True)
class Ref:
    """What a phrase inside a relation names: points, and the objects when it names objects."""

    points: list[np.ndarray]
    objects: list[Obj]


def _colors(toks: Sequence[str], i: int) -> tuple[frozenset[str], int]:
    """The colours named from ``toks[i]`` on (``red and blue``, ``warm``) and where they end."""
    found: set[str] = set()
    n = len(toks)
    while i < n:
        t = toks[i]
        if t in COLOR_WORDS:
            found.add(COLOR_WORDS[t])
        elif t in COLOR_GROUPS:
            found |= COLOR_GROUPS[t]
        elif not (t in ("and", "or") and found and i + 1 < n and _is_color(toks[i + 1])):
            break
        i += 1
    return frozenset(found), i


def _colored(colors: frozenset[str]) -> Callable[[Obj], bool]:
    return lambda o: o.color in colors


def _is_color(token: str) -> bool:
    return token in COLOR_WORDS or token in COLOR_GROUPS


def read_premods(toks: Sequence[str]) -> tuple[Spec, int]:
    """The determiners, counts, ordinals, colours and sides a phrase starts with, and their end."""
    spec = Spec()
    return spec, _premods(toks, spec)


def _premods(toks: Sequence[str], spec: Spec) -> int:
    n, i = len(toks), 0
    while i < n:
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < n else ""
        if t in DETERMINERS or (t in ("far", "most") and nxt != "from"):
            spec.indefinite = spec.indefinite or (i == 0 and t in ("a", "an", "any", "some"))
            i += 1
        elif t in ("closest", "farthest"):
            spec.nearness = t
            i += 1
        elif t in ("all", "every", "each"):
            spec.plural = True
            i += 1
        elif t == "both":
            spec.plural, spec.count = True, 2
            i += 1
        elif _is_color(t):
            colors, i = _colors(toks, i)
            spec.colors = colors if spec.colors is None else spec.colors & colors
        elif t in SIDE_WORDS or t == "middle":
            if nxt in ("of", "from"):
                break
            spec.sides.append(t)
            i += 1
        elif ordinal(t) is not None:
            spec.ordinal = ordinal(t)
            i += 1
        elif count(t) is not None and (t != "one" or nxt in NOUNS or _is_color(nxt)):
            spec.count = count(t)
            spec.plural = spec.plural or (spec.count or 0) > 1
            i += 1
        else:
            break
    return i


def _set_key(spec: Spec, key: Callable[[Obj], float], scene: Scene, toks: Sequence[str]) -> None:
    if spec.key is not None:
        raise scene.fail(f"{' '.join(toks)!r} orders the objects in two ways; use one")
    spec.key = key


def reference(
    toks: Sequence[str], scene: Scene, depth: int, every: bool = False, kind: str | None = None
) -> Ref:
    """What the phrase in a relation names: a place (``the top left corner``) or objects.

    With ``every`` (an exclusion: ``the blocks except the red one``), the phrase names every
    object it fits, of ``kind`` unless it names a kind.
    """
    if not toks or all(t in DETERMINERS for t in toks):
        raise scene.fail(
            "a relation needs an object or a place after it ('closest to the red bowl')"
        )
    place = read_place(toks, 0)
    if place is not None and place.end == len(toks):
        return Ref([p for _, p in place.points()], [])
    if is_table(toks):
        return Ref([np.array(CORNER_POS["middle"][:2])], [])
    if not every:
        objs, _ = select_any(toks, scene, depth + 1)
    else:
        objs, _ = select_any(toks, scene, depth + 1, mode="all", default_kind=kind)
    if not objs and not every:
        raise scene.fail(f"no object fits {' '.join(toks)!r}")
    return Ref([o.xy for o in objs], objs)


def _distance_key(ref: Ref, far: bool) -> Callable[[Obj], float]:
    sign = -1.0 if far else 1.0
    return lambda o: sign * min(math.hypot(o.x - p[0], o.y - p[1]) for p in ref.points)


def _toward(spec: Spec, v: str | None, h: str | None, ref: Ref) -> None:
    """Keep the objects on the ``v``/``h`` side of the reference's centre."""
    cx, cy = np.mean(ref.points, axis=0)
    spec.exclude |= {o.name for o in ref.objects}

    def holds(o: Obj) -> bool:
        across = h is None or (o.x < cx if h == "left" else o.x > cx)
        return across and (v is None or (o.y > cy if v == "top" else o.y < cy))

    spec.filters.append(holds)


def _between(toks: Sequence[str], i: int, spec: Spec, scene: Scene, depth: int) -> None:
    """``between X and Y``: near the segment XY (within 10 cm, inside its ends), closest first."""
    for k in range(i, len(toks)):
        if toks[k] != "and":
            continue
        try:
            a, b = reference(toks[i:k], scene, depth), reference(toks[k + 1 :], scene, depth)
        except ParseError:
            continue
        pa, pb = np.mean(a.points, axis=0), np.mean(b.points, axis=0)
        span = pb - pa
        length2 = float(span @ span) or 1e-12
        spec.exclude |= {o.name for o in a.objects + b.objects}

        def holds(
            o: Obj, pa: np.ndarray = pa, span: np.ndarray = span, sq: float = length2
        ) -> bool:
            t = float((o.xy - pa) @ span) / sq
            return 0.0 < t < 1.0 and float(np.linalg.norm(o.xy - pa - t * span)) <= 0.1

        spec.filters.append(holds)
        mid = Ref([(pa + pb) / 2], [])
        _set_key(spec, _distance_key(mid, far=False), scene, toks)
        return
    raise scene.fail(
        f"expected 'between <object or place> and <object or place>' in {' '.join(toks)!r}"
    )


def _same_color(spec: Spec, toks: Sequence[str], scene: Scene, depth: int, negate: bool) -> None:
    body = [t for t in toks if t not in DETERMINERS]
    if body and all(_is_color(t) or t in ("and", "or") for t in body):
        colors, _ = _colors(body, 0)
        spec.filters.append(lambda o: (o.color in colors) != negate)
        return
    ref = reference(toks, scene, depth)
    if not ref.objects:
        raise scene.fail(f"{' '.join(toks)!r} is a place, not an object with a colour")
    matched = frozenset(o.color for o in ref.objects if o.color is not None)
    spec.exclude |= {o.name for o in ref.objects}
    spec.filters.append(lambda o: (o.color in matched) != negate)


def _match_clause(toks: Sequence[str], i: int, spec: Spec, scene: Scene, depth: int) -> int | None:
    """Where a colour clause at ``toks[i]`` ends, or ``None`` when there is none.

    ``with the same color as X``, ``that matches X``, ``like the sun``, ``without a matching bowl``.
    """
    n, j = len(toks), i
    negate = False
    while j < n and (toks[j] in _MATCH_LEAD or toks[j] in _NEGATIONS):
        negate = negate or toks[j] in _NEGATIONS
        j += 1
    t = toks[j] if j < n else ""
    if t == "same":
        j += 1 + (j + 1 < n and toks[j + 1] == "color")
        j += j < n and toks[j] in ("as", "like", "of")
    elif t in ("color", "like"):
        j += 1 + (t == "color" and j + 1 < n and toks[j + 1] in ("of", "like", "as"))
    elif t in ("matching", "match", "matches", "matched"):
        j += 1
        if j == n or toks[j] in NOUNS:
            kind = NOUNS[toks[j]][0] if j < n else None
            objects = scene.objects

            def matched(o: Obj) -> bool:
                return any(
                    p is not o and p.color == o.color and kind in (None, p.kind) for p in objects
                )

            spec.filters.append(lambda o: o.color is not None and matched(o) != negate)
            return min(j + 1, n)
    else:
        return None
    end = _ref_end(toks, j)
    _same_color(spec, toks[j:end], scene, depth, negate)
    return end


def _ref_end(toks: Sequence[str], j: int) -> int:
    """Where a phrase starting at ``toks[j]`` ends: before an ``and`` that starts a new clause."""
    for k in range(j, len(toks) - 1):
        if toks[k] == "and" and toks[k + 1] in _CLAUSE_STARTS:
            return k
    return len(toks)


def _clauses(toks: Sequence[str], i: int, spec: Spec, scene: Scene, depth: int) -> None:
    """Read the clauses after a noun phrase's head into ``spec``."""
    n = len(toks)

    def ref(start: int, every: bool = False) -> tuple[Ref, int]:
        end = _ref_end(toks, start)
        return reference(toks[start:end], scene, depth, every, spec.kind), end

    while i < n:
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < n else ""
        if t in FILLERS or t == "and" or (t == "the" and nxt in ("closest", "farthest", "most")):
            i += 1
        elif t in ("on", "in", "at") and i + 1 < n and is_table(toks[i + 1 : i + 3]):
            i += 3 if nxt == "the" else 2
        elif _is_color(t):
            colors, i = _colors(toks, i)
            spec.filters.append(_colored(colors))
        elif spec.nearness and t in ("to", "from"):
            found, i = ref(i + 1)
            spec.exclude |= {o.name for o in found.objects}
            _set_key(spec, _distance_key(found, far=spec.nearness == "farthest"), scene, toks)
            spec.nearness = None
        elif t == "from" and (place := read_place(toks, i + 1)) and _one_side(place, toks):
            spec.from_side = place.v or place.h
            i = place.end
        elif t == "on" and toks[i + 1 : i + 3] == ["top", "of"]:
            found, i = ref(i + 3)
            _stack(spec, found, scene, upper=True)
        elif t in ("on", "at", "in", "to", "towards", "toward") and (
            place := read_place(toks, i + 1)
        ):
            if place.end < n and toks[place.end] in ("of", "from"):
                found, i = ref(place.end + 1)
                if place.v or place.h:
                    _toward(spec, place.v, place.h, found)
                else:
                    spec.exclude |= {o.name for o in found.objects}
                    centre = Ref([np.mean(found.points, axis=0)], [])
                    _set_key(spec, _distance_key(centre, False), scene, toks)
            else:
                spec.regions.append(place)
                i = place.end
        elif t in ("above", "below"):
            found, i = ref(i + 1 + (nxt in ("of", "from")))
            _toward(spec, "top" if t == "above" else "bottom", None, found)
        elif (
            t in SIDE_WORDS
            and (place := read_place(toks, i))
            and place.end < n
            and toks[place.end] in ("of", "from")
        ):
            found, i = ref(place.end + 1)
            _toward(spec, place.v, place.h, found)
        elif t == "between":
            _between(toks, i + 1, spec, scene, depth)
            return
        elif t in NEAR or t == "farthest" or (t == "far" and nxt in ("from", "away")):
            j = i + 1
            while j < n and toks[j] in ("to", "from", "away", "of"):
                j += 1
            found, i = ref(j)
            spec.exclude |= {o.name for o in found.objects}
            _set_key(spec, _distance_key(found, far=t in ("farthest", "far")), scene, toks)
        elif (end := _match_clause(toks, i, spec, scene, depth)) is not None:
            i = end
        elif t in ("in", "on"):
            found, i = ref(i + 1)
            _stack(spec, found, scene, upper=True)
        elif t in ("containing", "holding", "supporting", "contains", "holds", "with", "beneath"):
            found, i = ref(i + 1)
            _stack(spec, found, scene, upper=False)
        elif t in ("except", "but", "excluding", "besides", "without") or (
            t in ("other", "apart", "aside") and nxt in ("than", "from")
        ):
            found, i = ref(i + 1 + (t in ("other", "apart", "aside")), every=True)
            spec.exclude |= {o.name for o in found.objects}
        else:
            where = f" after {' '.join(toks[:i])!r}" if i else ""
            raise scene.fail(f"cannot read {' '.join(toks[i:])!r}{where}; {OBJECT_FORMS}")


def _one_side(place: Place, toks: Sequence[str]) -> bool:
    sides = (place.v is not None) + (place.h is not None)
    following = toks[place.end] if place.end < len(toks) else ""
    return sides == 1 and not place.middle and following not in ("of", "from")


def _stack(spec: Spec, ref: Ref, scene: Scene, upper: bool) -> None:
    if not ref.objects:
        raise scene.fail("'in' and 'on' take an object ('the block in the red bowl')")
    spec.exclude |= {o.name for o in ref.objects}
    if upper:
        spec.filters.append(lambda o: any(on_top(o, r) for r in ref.objects))
    else:
        spec.filters.append(lambda o: any(on_top(r, o) for r in ref.objects))


def select(
    toks: Sequence[str],
    scene: Scene,
    depth: int = 0,
    *,
    default_kind: str | None = None,
    mode: str = "auto",
) -> tuple[list[Obj], bool]:
    """The objects a noun phrase names, and whether it is plural.

    ``mode`` is ``"auto"`` (a singular phrase names exactly one object), ``"all"`` (every object
    that fits, ordered when the phrase orders them) or ``"member"`` (``"auto"`` when the phrase
    orders the objects, as in ``the left most block``, else ``"all"``).
    """
    scene.steps[0] += 1
    if depth > MAX_DEPTH or scene.steps[0] > MAX_STEPS:
        raise scene.fail(f"the description is too involved (at most {MAX_DEPTH} nested phrases)")
    spec = Spec(kind=default_kind)
    i = _premods(toks, spec)
    if i < len(toks) and toks[i] in NOUNS:
        kind, plural = NOUNS[toks[i]]
        spec.kind = kind or spec.kind
        spec.plural = spec.plural or plural
        i += 1
    if spec.count == 1:
        spec.plural = False
    _clauses(toks, i, spec, scene, depth)
    if spec.nearness:
        raise scene.fail(f"{' '.join(toks)!r} says {spec.nearness} but not to what ('... to X')")
    if spec.sides:
        v = [s for s in spec.sides if s in ("top", "bottom")]
        h = [s for s in spec.sides if s in ("left", "right")]
        if len(v) > 1 or len(h) > 1:
            raise scene.fail(f"{' '.join(toks)!r} names opposite sides")
        place = Place(v[0] if v else None, h[0] if h else None, "middle" in spec.sides, None, 0)
        if spec.plural and spec.count is None and spec.ordinal is None:
            spec.filters.append(place.holds)
        _set_key(spec, place.key(), scene, toks)
    if spec.from_side:
        _set_key(spec, side_key(spec.from_side), scene, toks)
    if mode == "member":
        mode = "auto" if spec.key is not None else "all"
    return _apply(spec, scene, " ".join(toks), mode), spec.plural or mode == "all"


def _apply(spec: Spec, scene: Scene, phrase: str, mode: str) -> list[Obj]:
    found = [
        o
        for o in scene.objects
        if spec.kind in (None, o.kind)
        and (spec.colors is None or o.color in spec.colors)
        and o.name not in spec.exclude
    ]
    for keep in spec.filters:
        found = [o for o in found if keep(o)]
    key = spec.key
    for place in spec.regions:
        if key is None and (not spec.plural or spec.count is not None) and mode == "auto":
            key = place.key()
        else:
            found = [o for o in found if place.holds(o)]
    if key is not None:
        ranked = key
        found = sorted(found, key=lambda o: round(ranked(o), 9))
    if mode == "all":
        return found
    index = (
        0 if spec.ordinal is None else (spec.ordinal - 1 if spec.ordinal > 0 else len(found) - 1)
    )
    if spec.plural:
        if spec.count is None:
            return found
        if len(found) < index + spec.count:
            raise scene.fail(f"{phrase!r} asks for {spec.count} objects; {len(found)} fit")
        return found[index : index + spec.count]
    if not found:
        raise scene.fail(f"no object fits {phrase!r}")
    if key is not None or spec.ordinal is not None:
        if not 0 <= index < len(found):
            raise scene.fail(f"{phrase!r} asks for number {spec.ordinal}; {len(found)} fit")
        return [found[index]]
    if len(found) > 1 and not spec.indefinite:
        names = ", ".join(o.name for o in found)
        raise scene.fail(
            f"{phrase!r} fits {len(found)} objects ({names}); add a colour or a side "
            "('the left most ...'), or ask for all of them ('the ...s')"
        )
    return found[:1]


def select_any(
    toks: Sequence[str],
    scene: Scene,
    depth: int = 0,
    mode: str = "auto",
    default_kind: str | None = None,
) -> tuple[list[Obj], bool]:
    """:func:`select`, or else the phrases joined by "and" (``the red block and the blue bowl``)."""
    try:
        return select(toks, scene, depth, mode=mode, default_kind=default_kind)
    except ParseError as first:
        cuts = [k for k, t in enumerate(toks) if t == "and"]
        if not cuts:
            raise
        parts = [toks[a + 1 : b] for a, b in zip([-1, *cuts], [*cuts, len(toks)], strict=True)]
        try:
            found = [
                o
                for part in parts
                for o in select(part, scene, depth, mode=mode, default_kind=default_kind)[0]
            ]
        except ParseError:
            raise first from None
        return list(dict.fromkeys(found)), True


def read_objects(toks: Sequence[str], scene: Scene) -> str | list[str]:
    """The name or names a phrase refers to (an exact name, a phrase, or phrases joined by 'and')."""
    if not toks:
        raise scene.fail(f"the description is empty; {OBJECT_FORMS}")
    body = " ".join(toks[1:] if toks[0] == "the" else toks)
    for o in scene.objects:
        if plain(o.name) == body:
            return o.name
    objs, plural = select_any(toks, scene)
    return [o.name for o in objs] if plural else objs[0].name


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
    from toolgym.tools.tabletop.positions import read_position_query

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
    from toolgym.tools.tabletop.positions import answer_question

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
    from toolgym.tools.tabletop.positions import transform_points

    return transform_points(query, shape_pts)
