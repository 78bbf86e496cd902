"""Rule-based readers of positions and questions on the tabletop.

They share the words, places and noun phrases of :mod:`toolgym.families.tabletop.vocabulary`,
:mod:`toolgym.families.tabletop.referents` and :mod:`toolgym.families.tabletop.phrases`;
:mod:`toolgym.families.tabletop.parsing` exports them as ``parse_position`` and ``parse_question``.

A position is, in the order tried: a line or circle of points (``a 30cm horizontal line in the
middle with 3 points``), a named place or group (``the top left corner``, ``the top corners``,
``the sides``), a midpoint (``between X and Y``, ``the middle of the blocks``), the corner or side
closest to or farthest from something, a point ``on``/``in`` an object, an offset (``10cm left of
X``, ``above X``: 10 cm when no distance is given; a number without a unit is metres), or objects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

import numpy as np

from toolgym.families.tabletop.phrases import MAX_DEPTH, read_premods, reference, select, select_any
from toolgym.families.tabletop.referents import (
    Place,
    Point,
    Positions,
    Scene,
    is_table,
    make_scene,
    read_place,
)
from toolgym.families.tabletop.vocabulary import (
    DEFAULT_OFFSET,
    DETERMINERS,
    DIRECTIONS,
    FILLERS,
    NEAR,
    NOUNS,
    ParseError,
    number,
    read_distance,
    word_set,
    words,
)
from toolgym.families.tabletop.world.workspace import CORNER_POS

DEFAULT_LINE: Final = 0.3
"""The length of a line when none is given, in metres."""

DEFAULT_RADIUS: Final = 0.1
"""The radius of a circle when none is given, in metres."""

DEFAULT_POINTS: Final = {"line": 5, "circle": 8}
"""How many points a line or circle has when the query does not say."""

MAX_POINTS: Final = 100
"""The most points a line or circle may have."""

_POINT_WORDS: Final = frozenset(
    ["point", "position", "location", "spot", "place", "coordinate", "coordinates", "xy", "pos"]
)
_PLURAL_POINTS: Final = frozenset(
    ["points", "dots", "positions", "spots", "locations", "waypoints"]
)
_ORIENTATIONS: Final = {
    **dict.fromkeys(("horizontal", "horizontally"), (1.0, 0.0)),
    **dict.fromkeys(("vertical", "vertically"), (0.0, 1.0)),
    **dict.fromkeys(("diagonal", "diagonally"), (math.sqrt(0.5), math.sqrt(0.5))),
}
_CENTRE_PREPS: Final = word_set(
    "in at through across on along around centered centred over about near by middle"
)
_SHAPE_FILLERS: Final = word_set(
    "that is which goes going runs running extends lying placed drawn of with and a an the"
    " straight it long"
)

POSITION_FORMS: Final = (
    "expected a named position ('the top left corner', 'the middle', 'the top corners', 'the "
    "sides'), an object ('the red bowl'), an offset ('10cm left of the red bowl', 'above the "
    "blue block'), a nearest place ('the corner closest to the blue bowl'), a midpoint ('between "
    "the red block and the blue bowl', 'the middle of the blocks') or a line ('a 30cm horizontal "
    "line in the middle with 3 points', 'a line from the top left to the bottom right corner')"
)
QUESTION_FORMS: Final = (
    "expected 'how many <objects>', 'what color is <object>', 'is <object> <relation>' ('is the "
    "red block left of the blue bowl'), 'is there <object>', 'which <kind> is <description>', "
    "'what are <objects>', 'how far is <object> from <object>' or 'where is <object>'"
)


# -- positions ---------------------------------------------------------------------------------


def read_position_query(query: str, context: str, positions: Positions) -> Point | list[Point]:
    """``parse_position``: the point or points a description refers to."""
    scene = make_scene("parse_position", query, context, positions)
    return position(words(query, "parse_position"), scene, 0)


def _single(found: Point | list[Point], phrase: Sequence[str], scene: Scene) -> Point:
    if isinstance(found, list) or found.ndim != 1:
        raise scene.fail(f"{' '.join(phrase)!r} names several points; one is needed here")
    return found


def _strip_lead(toks: Sequence[str]) -> list[str]:
    """Without a leading ``a point``, ``the position of``, ``the point that is``."""
    out = list(toks)
    while len(out) > 1 and out[0] in ("all", "both", "four", "each", "every"):
        out = out[1:]
    if len(out) > 1 and out[0] in DETERMINERS and out[1] in _POINT_WORDS:
        out = out[2:]
    elif out[:1] and out[0] in _POINT_WORDS:
        out = out[1:]
    else:
        return out
    while out and out[0] in ("of", "at", "that", "which", "is", "located", "exactly"):
        out = out[1:]
    return out


def position(toks: Sequence[str], scene: Scene, depth: int) -> Point | list[Point]:
    """The point (an (2,) array), points (a list) or line of points ((n, 2)) a phrase names."""
    if depth > MAX_DEPTH:
        raise scene.fail(f"the description is too involved (at most {MAX_DEPTH} nested phrases)")
    toks = _strip_lead(toks)
    if not toks:
        raise scene.fail(f"the description is empty; {POSITION_FORMS}")
    if "line" in toks or "circle" in toks:
        return _shape(toks, scene, depth)
    n = len(toks)
    if _find_count(toks) is not None and ("from" in toks or "between" in toks):
        return _shape(["line", *toks], scene, depth)
    place = read_place(toks, 0)
    if place is not None and place.end == n:
        points = [p for _, p in place.points()]
        if place.noun in ("corners", "sides"):
            return points
        if len(points) > 1:
            names = ", ".join(name for name, _ in place.points())
            raise scene.fail(f"{' '.join(toks)!r} names {len(points)} places ({names}); say which")
        return points[0]
    middle = _midpoint(toks, scene, depth)
    if middle is not None:
        return middle
    if place is not None and place.noun in ("corner", "corners", "side", "sides"):
        return _nearest_place(toks, place, scene, depth)
    if toks[:3] == ["on", "top", "of"] or toks[0] in ("on", "in"):
        return position(toks[3 if toks[1:2] == ["top"] else 1 :], scene, depth + 1)
    shifted = _offset(toks, scene, depth)
    if shifted is not None:
        return shifted
    if is_table(toks):
        return np.array(CORNER_POS["middle"][:2])
    try:
        objs, plural = select_any(toks, scene, depth)
    except ParseError as e:
        if e.reason.startswith("cannot read"):
            raise scene.fail(f"cannot read {' '.join(toks)!r}; {POSITION_FORMS}") from None
        raise
    return [o.xy for o in objs] if plural else objs[0].xy


def _split_two(
    toks: Sequence[str], seps: Sequence[str], scene: Scene, depth: int
) -> tuple[Point, Point] | None:
    """Two points ``A <sep> B``, trying each separator from the left; ``None`` when none reads."""
    for k, t in enumerate(toks):
        if t in seps and 0 < k < len(toks) - 1:
            try:
                a = _single(position(toks[:k], scene, depth + 1), toks[:k], scene)
                b = _single(position(toks[k + 1 :], scene, depth + 1), toks[k + 1 :], scene)
            except ParseError:
                continue
            return a, b
    return None


def _midpoint(toks: Sequence[str], scene: Scene, depth: int) -> Point | list[Point] | None:
    """``between X and Y``, ``halfway between``, ``the middle of X and Y``, ``the middle of X``."""
    i = 0
    while i < len(toks) and toks[i] in ("the", "a", "halfway", "midway", "exactly", "right"):
        i += 1
    rest = toks[i:]
    if rest[:1] == ["between"]:
        body = rest[1:]
    elif rest[:2] in (["middle", "of"], ["middle", "between"]):
        body = rest[2:]
    else:
        return None
    pair = _split_two(body, ("and",), scene, depth)
    if pair is not None:
        return (pair[0] + pair[1]) / 2
    if rest[0] == "between":
        raise scene.fail(
            f"expected 'between <place or object> and <place or object>'; {' '.join(toks)!r}"
        )
    found = position(body, scene, depth + 1)
    if isinstance(found, list) and not found:
        raise scene.fail(f"nothing fits {' '.join(body)!r}, so it has no middle")
    return np.mean(found, axis=0) if isinstance(found, list) else found


def _nearest_place(
    toks: Sequence[str], place: Place, scene: Scene, depth: int
) -> Point | list[Point]:
    """``the corner closest to X``, ``the side farthest from X``, ``the top corners nearest X``."""
    n, i = len(toks), place.end
    while i < n and toks[i] in FILLERS:
        i += 1
    t = toks[i] if i < n else ""
    if not (
        t in NEAR or t == "farthest" or (t == "far" and toks[i + 1 : i + 2] in (["from"], ["away"]))
    ):
        raise scene.fail(
            f"expected 'the corner closest to <object>' or 'the side farthest from <object>'; "
            f"{' '.join(toks)!r}"
        )
    j = i + 1
    while j < n and toks[j] in ("to", "from", "away", "of"):
        j += 1
    ref = reference(toks[j:], scene, depth)
    sign = -1.0 if t in ("farthest", "far") else 1.0
    candidates = place.points()
    ranked = sorted(
        candidates,
        key=lambda item: round(sign * min(float(np.hypot(*(item[1] - p))) for p in ref.points), 9),
    )
    if place.noun in ("corners", "sides"):
        return [p for _, p in ranked]
    return ranked[0][1]


def _offset(toks: Sequence[str], scene: Scene, depth: int) -> Point | list[Point] | None:
    """``10cm to the left of X``, ``above X``, ``top left of X``, ``left of X by 5 cm``."""
    n, i = len(toks), 0
    distance = None
    got = read_distance(toks, 0)
    if got is not None:
        distance, i = got
    step = np.zeros(2)
    last = ""
    while i < n and last not in ("above", "below", "beneath"):
        t = toks[i]
        if t in DIRECTIONS:
            step = step + np.array(DIRECTIONS[t])
            last = t
        elif t in ("to", "towards", "toward", "and", "just", "directly", "further"):
            i += toks[i + 1 : i + 2] == ["the"]
        elif not (t in ("side", "hand") and last):
            break
        i += 1
    if not last:
        return None
    if i < n and toks[i] in ("of", "from"):
        i += 1
    elif last not in ("above", "below", "beneath"):
        return None
    rest = list(toks[i:])
    for k in (len(rest) - 3, len(rest) - 2):
        got = read_distance(rest, k + 1) if k >= 0 and rest[k] == "by" else None
        if got is not None and got[1] == len(rest):
            distance, rest = got[0], rest[:k]
            break
    if not rest:
        raise scene.fail(
            f"expected a place or object after {' '.join(toks[:i])!r}; {POSITION_FORMS}"
        )
    base = position(rest, scene, depth + 1)
    shift = step * (DEFAULT_OFFSET if distance is None else distance)
    return [p + shift for p in base] if isinstance(base, list) else base + shift


# -- lines and circles -------------------------------------------------------------------------


def _find_count(toks: Sequence[str]) -> int | None:
    """Where ``<n> points`` starts, or ``None``."""
    for k in range(len(toks) - 1):
        value = number(toks[k])
        if toks[k + 1] in _PLURAL_POINTS and value is not None and value.is_integer():
            return k
    return None


def _shape(toks: Sequence[str], scene: Scene, depth: int) -> Point:
    """A line or circle of points, as an (n, 2) array."""
    rest = list(toks)
    kind = "circle" if "circle" in rest else "line"
    k = _find_count(rest)
    points = DEFAULT_POINTS[kind]
    if k is not None:
        points = int(number(rest[k]) or 0)
        cut = k - (k > 0 and rest[k - 1] in ("with", "of", "using", "having", "containing", "into"))
        del rest[cut : k + 2]
    fewest = 2 if kind == "line" else 1
    if not fewest <= points <= MAX_POINTS:
        raise scene.fail(f"a {kind} has {fewest} to {MAX_POINTS} points; got {points}")
    direction = None
    for word in list(rest):
        if word in _ORIENTATIONS:
            direction = np.array(_ORIENTATIONS[word])
            rest.remove(word)
    at = rest.index(kind)
    size, _, post = _size(rest[:at], rest[at + 1 :], kind, scene)
    while post and post[0] in _SHAPE_FILLERS:
        post = post[1:]
    if kind == "line" and post[:1] in (["from"], ["between"]):
        pair = _split_two(post[1:], ("to",) if post[0] == "from" else ("and",), scene, depth)
        if pair is None:
            raise scene.fail(f"expected 'from <place> to <place>' in {' '.join(post)!r}")
        return np.linspace(pair[0], pair[1], points)
    while post and post[0] in _CENTRE_PREPS:
        post = post[1:]
    centre = np.array(CORNER_POS["middle"][:2])
    if post:
        centre = _single(position(post, scene, depth + 1), post, scene)
    if kind == "circle":
        radius = DEFAULT_RADIUS if size is None else size
        angles = 2 * np.pi * np.arange(points) / points
        return centre + radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    half = (DEFAULT_LINE if size is None else size) / 2
    unit = np.array([1.0, 0.0]) if direction is None else direction
    return np.linspace(centre - half * unit, centre + half * unit, points)


def _size(
    pre: list[str], post: list[str], kind: str, scene: Scene
) -> tuple[float | None, list[str], list[str]]:
    """A line's length or a circle's radius (``30cm``, ``of length 0.3m``, ``radius 10 cm``)."""
    key = "radius" if kind == "circle" else "length"
    for part in (post, pre):
        for k, word in enumerate(part):
            if word not in (key, "diameter", "long"):
                continue
            half = 2 if word == "diameter" else 1
            j = k + 1 + (k + 1 < len(part) and part[k + 1] in ("of", "is"))
            got = read_distance(part, j) if word != "long" else None
            if got is not None:
                del part[k : got[1]]
                return _check_size(got[0] / half, scene), pre, post
            for j in range(max(0, k - 2), k):
                got = read_distance(part, j)
                if got is not None and got[1] == k:
                    del part[j : k + 1]
                    return _check_size(got[0] / half, scene), pre, post
    for k in range(len(pre)):
        got = read_distance(pre, k)
        if got is not None:
            del pre[k : got[1]]
            return _check_size(got[0], scene), pre, post
    return None, pre, post


def _check_size(value: float, scene: Scene) -> float:
    if not 0 < value <= 10:
        raise scene.fail(f"a size is more than 0 and at most 10 m; got {value:g}")
    return value


# -- questions ---------------------------------------------------------------------------------

_COPULAS: Final = frozenset(["is", "are", "was", "were"])
_LEAD: Final = frozenset(["can", "could", "would", "you", "tell", "me", "please", "say", "us"])


def answer_question(
    query: str, context: str, positions: Positions
) -> str | int | bool | float | list[str]:
    """``parse_question``: the answer to a question about the scene."""
    scene = make_scene("parse_question", query, context, positions)
    toks = words(query, "parse_question")
    while toks and toks[0] in _LEAD:
        toks = toks[1:]
    if not toks:
        raise scene.fail(f"the question is empty; {QUESTION_FORMS}")
    head = toks[:2]
    if head in (["how", "many"], ["is", "there"], ["are", "there"]) and len(toks) == 2:
        raise scene.fail(f"the question names no objects; {QUESTION_FORMS}")
    if head == ["how", "many"]:
        return len(select_any(toks[2:], scene, mode="all")[0])
    if head == ["how", "far"] or "distance" in toks[:4]:
        return _distance(toks, scene)
    if toks[0] in ("what", "which") and ("color" in toks[1:2] or toks[2:4] == ["the", "color"]):
        return _color(toks, scene)
    if toks[0] == "where":
        objs, plural = select_any(_drop(toks[1:], _COPULAS), scene)
        names = [min(CORNER_POS, key=lambda k: math.dist(CORNER_POS[k][:2], o.xy)) for o in objs]
        return names if plural else names[0]
    if toks[0] in _COPULAS and toks[1:2] == ["there"]:
        spec, _ = read_premods(toks[2:])
        return len(select_any(toks[2:], scene, mode="all")[0]) >= (spec.count or 1)
    if toks[0] in _COPULAS or toks[0] in ("does", "do", "did"):
        return _predicate(toks[1:], scene)
    if toks[0] in ("which", "what"):
        return _which(toks[1:], scene)
    if toks[0] in ("name", "list", "find", "identify", "show", "get", "give"):
        objs, plural = select_any(_drop(toks[1:], ("me", "us")), scene)
        return [o.name for o in objs] if plural else objs[0].name
    raise scene.fail(QUESTION_FORMS)


def _drop(toks: Sequence[str], leading: Sequence[str] | frozenset[str]) -> list[str]:
    out = list(toks)
    while out and out[0] in leading:
        out = out[1:]
    return out


def _distance(toks: Sequence[str], scene: Scene) -> float:
    """``how far is X from Y``, ``how far apart are X and Y``, ``the distance between X and Y``."""
    start = 2 if toks[:2] == ["how", "far"] else toks.index("distance") + 1
    rest = _drop(toks[start:], ("apart", "away", "is", "are", "between", "from", "of"))
    while rest and rest[-1] in ("apart", "away", "is", "are"):
        rest = rest[:-1]
    pair = _split_two(rest, ("from", "and", "to"), scene, 0)
    if pair is None:
        raise scene.fail("expected 'how far is <object> from <object or place>'")
    return round(float(np.hypot(*(pair[0] - pair[1]))), 3)


def _color(toks: Sequence[str], scene: Scene) -> str | list[str]:
    """``what color is X``, ``which colour are the bowls``, ``what is the color of X``."""
    rest = toks[2:] if toks[1] == "color" else toks[4:]
    rest = _drop(rest, ("is", "are", "does", "do", "was", "of"))
    while rest and rest[-1] in ("have", "has", "is", "are"):
        rest = rest[:-1]
    objs, plural = select_any(rest, scene)
    colors = []
    for o in objs:
        if o.color is None:
            raise scene.fail(f"{o.name!r} has no colour in its name")
        colors.append(o.color)
    return colors if plural else colors[0]


def _predicate(toks: Sequence[str], scene: Scene) -> bool:
    """``is X <description>``: the shortest subject that reads, then the rest as a description."""
    for k in range(1, len(toks)):
        subject, rest = toks[:k], toks[k:]
        if subject[-1] in DETERMINERS or subject[-1] in ("and", "or") or rest[0] in NOUNS:
            continue
        try:
            subjects, _ = select_any(subject, scene)
        except ParseError:
            continue
        kinds = {o.kind for o in subjects}
        default = next(iter(kinds)) if len(kinds) == 1 else None
        try:
            members, _ = select(
                _drop(rest, ("have", "has")), scene, default_kind=default, mode="member"
            )
        except ParseError:
            continue
        return bool(subjects) and all(o in members for o in subjects)
    raise scene.fail(
        "expected 'is <object> <description>' ('is the red block left of the blue bowl')"
    )


def _which(toks: Sequence[str], scene: Scene) -> str | list[str]:
    """``which block is the left most``, ``what are the blocks in the top half``, ``what is in X``."""
    verb = next((k for k, t in enumerate(toks) if t in _COPULAS), None)
    if verb is None:
        objs, plural = select_any(["the", *toks], scene)
        return [o.name for o in objs] if plural else objs[0].name
    noun, rest = list(toks[:verb]), list(toks[verb + 1 :])
    if noun and rest and rest[-1] in ("in", "on"):
        phrase = ["the", *noun, "containing", *rest[:-1]]
    else:
        rest = _drop(rest, ("the", "a", "an"))
        rest = _drop(rest, ("one", "ones"))
        _, k = read_premods(rest)
        if not noun and not k and (not rest or rest[0] not in NOUNS):
            objs, _ = select_any(rest, scene, mode="all")
            return [o.name for o in objs]
        if k < len(rest) and rest[k] in NOUNS:
            phrase = ["the", *rest]
        else:
            phrase = ["the", *rest[:k], *noun, *rest[k:]]
    objs, many = select_any(phrase, scene)
    return [o.name for o in objs] if many else objs[0].name
