"""The noun-phrase grammar of the tabletop's descriptions (``the left most block``, ...).

:func:`select` reads a noun phrase (determiners, counts, ordinals, colours, sides, a head noun and
clauses) into a :class:`Spec` and applies it to a scene; :func:`reference` reads the place or
objects a relation refers to. The grammar is described in :mod:`toolgym.families.tabletop.parsing`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np

from toolgym.families.tabletop.referents import (
    Obj,
    Place,
    Scene,
    is_table,
    on_top,
    read_place,
    side_key,
)
from toolgym.families.tabletop.vocabulary import (
    COLOR_GROUPS,
    COLOR_WORDS,
    DETERMINERS,
    FILLERS,
    NEAR,
    NOUNS,
    SIDE_WORDS,
    ParseError,
    count,
    ordinal,
    plain,
    word_set,
)
from toolgym.families.tabletop.world.workspace import CORNER_POS

MAX_DEPTH: Final = 8
"""How deeply phrases may nest (``the block closest to the bowl left of ...``)."""

MAX_STEPS: Final = 2_000
"""The most noun phrases one query may make the reader try."""

_CLAUSE_STARTS: Final = SIDE_WORDS | word_set(
    "above below beneath closest farthest near next beside in on at to towards with without that"
    " which except"
)
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
