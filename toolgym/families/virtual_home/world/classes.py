"""The catalog of object classes of the household simulator.

Every object in a home belongs to a class, named the way VirtualHome names its classes
(``kitchen_counter``, ``food_banana``, ``clothes_pants``, ``coffe_maker`` is a synonym of
``coffee_maker``). The class names and what the properties mean follow VirtualHome's resource
tables (its object properties and object placing tables); the table below is written afresh for
this simulator and covers the household vocabulary of VirtualHome's programs and of the
natural-language plans written for them.

**The table.** ``classes.txt`` (beside this module) holds one class a line, four fields
separated by ``|``::

    name | Category | PROPERTY PROPERTY ... | RELATION destination, RELATION destination, ...

* *name*: the class, ``snake_case``;
* *Category*: one of :data:`CATEGORIES` (``Rooms``, ``Furniture``, ``Food``...);
* *properties*: a space-separated subset of :data:`PROPERTIES` (may be empty);
* *placements*: where an object of the class goes when a home lacks one, in order of preference,
  as ``ON destination`` (the destination has ``SURFACES``) or ``INSIDE destination`` (the
  destination has ``CONTAINERS``). Rooms, structure, body parts, characters and the furniture that
  stands on a room's floor have none (the home puts them there); every ``GRABBABLE`` class has at
  least one, and every list of placements names at least one destination that is not itself
  grabbable, so a chain of placements always ends at something that stays put. ``floor`` is the
  last resort.

Trailing empty fields may be left out; lines starting with ``#`` are comments (the table is
grouped by category). :func:`parse_table` reads it into :data:`CLASSES` at import time and
refuses, naming the line, anything malformed.

**The properties** (what an action needs of its object):

=============  ====================================================================
SURFACES       things can be put on it (Put ... on)
GRABBABLE      the character can pick it up (Grab)
SITTABLE       the character can sit on it (Sit)
LIEABLE        the character can lie on it (Lie)
HANGABLE       it can be hung up on a hook, rack or hanger
DRINKABLE      a drink (Drink)
EATABLE        a food (Eat; Cut needs CUTTABLE too)
RECIPIENT      a vessel a liquid can be poured into, or drunk from (Pour ... into)
CUTTABLE       it can be cut (Cut)
POURABLE       its contents can be poured (Pour)
CAN_OPEN       it opens and closes (Open, Close)
HAS_SWITCH     it switches on and off (SwitchOn, SwitchOff)
READABLE       it can be read (Read)
LOOKABLE       it can be watched or looked at (Watch)
CONTAINERS     things can be put inside it (Put ... in)
CLOTHES        it is worn (PutOn, TakeOff)
PERSON         a person (Greet)
BODY_PART      a part of the character's body
COVER_OBJECT   it covers something (a blanket, a lid, a curtain)
HAS_PLUG       it plugs into an outlet (PlugIn, PlugOut)
HAS_PAPER      it is paper or made of it
MOVABLE        it can be pushed or pulled (Push, Pull)
CREAM          a cream, paste or spread that is applied or spread
=============  ====================================================================

**Synonyms.** ``synonyms.txt`` maps other names of the same object to its class (``tv =
television``, ``dishwashingliquid = dish_soap``); a synonym is never a class itself, and names
that VirtualHome keeps apart (``fridge`` and ``freezer``, ``couch`` and ``sofa``, ``phone`` and
``cellphone``) stay separate classes. :func:`canonical` turns a name as a plan spells it into its
class.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

PROPERTIES: tuple[str, ...] = (
    "SURFACES",
    "GRABBABLE",
    "SITTABLE",
    "LIEABLE",
    "HANGABLE",
    "DRINKABLE",
    "EATABLE",
    "RECIPIENT",
    "CUTTABLE",
    "POURABLE",
    "CAN_OPEN",
    "HAS_SWITCH",
    "READABLE",
    "LOOKABLE",
    "CONTAINERS",
    "CLOTHES",
    "PERSON",
    "BODY_PART",
    "COVER_OBJECT",
    "HAS_PLUG",
    "HAS_PAPER",
    "MOVABLE",
    "CREAM",
)
"""The 23 object properties."""

CATEGORIES: tuple[str, ...] = (
    "Rooms",
    "Structure",
    "Furniture",
    "Appliances",
    "Electronics",
    "Lamps",
    "Kitchenware",
    "Food",
    "Drinks",
    "Clothes",
    "Toiletries",
    "Cleaning",
    "Stationery",
    "Decor",
    "Props",
    "Body",
    "Characters",
    "Animals",
)
"""The object categories (``Structure``: floor, walls, ceiling, doors, windows, switches)."""

RELATIONS: tuple[str, ...] = ("ON", "INSIDE")
"""The relations of a placement (``ON`` a surface, ``INSIDE`` a container)."""


@dataclass(frozen=True, slots=True)
class ObjectClass:
    """An object class: its name, category, properties and placements.

    Attributes:
        name: the class name (``kitchen_counter``).
        category: one of :data:`CATEGORIES`.
        properties: a subset of :data:`PROPERTIES`.
        places: ``(relation, destination class)`` pairs in order of preference, where an object of
            the class goes when a home lacks it.
    """

    name: str
    category: str
    properties: frozenset[str]
    places: tuple[tuple[str, str], ...] = ()

    def has(self, prop: str) -> bool:
        """Whether the class has property ``prop``.

        >>> CLASSES["cup"].has("RECIPIENT")
        True
        """
        return prop in self.properties


_NAME = re.compile(r"[a-z][a-z0-9_]*")


def _data(name: str) -> str:
    return (Path(__file__).resolve().parent / name).read_text(encoding="utf-8")


def _error(lineno: int, line: str, why: str) -> ValueError:
    return ValueError(f"line {lineno} ({line!r}): {why}")


def parse_table(text: str) -> dict[str, ObjectClass]:
    """Read a table of classes (one ``name | Category | PROPERTIES | PLACEMENTS`` a line).

    Raises:
        ValueError: naming the line, for a malformed line, an unknown category or property, a
            duplicate class, or a placement whose destination is no class of the table or cannot
            take it (``ON`` needs ``SURFACES``, ``INSIDE`` needs ``CONTAINERS``).

    >>> table = parse_table("table | Furniture | SURFACES\\ncup | Kitchenware | GRABBABLE | ON table")
    >>> table["cup"].places
    (('ON', 'table'),)
    """
    classes: dict[str, ObjectClass] = {}
    lines: dict[str, tuple[int, str]] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split("|")]
        if not 2 <= len(fields) <= 4:
            raise _error(lineno, line, "expected 'name | Category | PROPERTIES | PLACEMENTS'")
        name, category, props, places = [*fields, "", ""][:4]
        if not _NAME.fullmatch(name):
            raise _error(lineno, line, f"bad class name {name!r}")
        if name in classes:
            raise _error(lineno, line, f"duplicate class {name!r}")
        if category not in CATEGORIES:
            raise _error(lineno, line, f"unknown category {category!r}")
        unknown = [p for p in props.split() if p not in PROPERTIES]
        if unknown:
            raise _error(lineno, line, f"unknown property {unknown[0]!r}")
        pairs = []
        for place in filter(None, (p.strip() for p in places.split(","))):
            parts = place.split()
            if len(parts) != 2 or parts[0] not in RELATIONS:
                raise _error(lineno, line, f"bad placement {place!r}")
            pairs.append((parts[0], parts[1]))
        classes[name] = ObjectClass(name, category, frozenset(props.split()), tuple(pairs))
        lines[name] = (lineno, line)
    for name, cls in classes.items():
        for relation, destination in cls.places:
            target = classes.get(destination)
            needs = "SURFACES" if relation == "ON" else "CONTAINERS"
            if target is None:
                raise _error(*lines[name], f"placement destination {destination!r} is no class")
            if not target.has(needs):
                raise _error(*lines[name], f"{relation} {destination} lacks {needs}")
    return classes


def parse_synonyms(text: str, classes: dict[str, ObjectClass]) -> dict[str, str]:
    """Read ``alias = class`` lines into a mapping, checked against ``classes``.

    Raises:
        ValueError: naming the line, for a malformed line, an alias that is a class or is given
            twice, or a target that is no class.

    >>> parse_synonyms("tv = television", parse_table("television | Electronics | HAS_SWITCH"))
    {'tv': 'television'}
    """
    synonyms: dict[str, str] = {}
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        alias, sep, target = (part.strip() for part in line.partition("="))
        if not sep or not _NAME.fullmatch(alias) or not _NAME.fullmatch(target):
            raise _error(lineno, line, "expected 'alias = class'")
        if alias in classes:
            raise _error(lineno, line, f"alias {alias!r} is a class")
        if alias in synonyms:
            raise _error(lineno, line, f"duplicate alias {alias!r}")
        if target not in classes:
            raise _error(lineno, line, f"{target!r} is no class")
        synonyms[alias] = target
    return synonyms


CLASSES: dict[str, ObjectClass] = parse_table(_data("classes.txt"))
"""Every object class, by name."""

SYNONYMS: dict[str, str] = parse_synonyms(_data("synonyms.txt"), CLASSES)
"""Other names of a class → the class."""

ROOMS: tuple[str, ...] = tuple(name for name, cls in CLASSES.items() if cls.category == "Rooms")
"""The room classes."""

_PREFIXES = ("food_", "clothes_")


def _normalise(name: str) -> str:
    key = re.sub(r"[\s\-]+", "_", name.strip().lower())
    return re.sub(r"_+", "_", key).strip("_")


def _singulars(key: str) -> list[str]:
    forms = []
    if key.endswith("ies"):
        forms.append(key[:-3] + "y")
    if key.endswith("es"):
        forms.append(key[:-2])
    if key.endswith("s") and not key.endswith("ss"):
        forms.append(key[:-1])
    return forms


def canonical(name: str) -> str | None:
    """The class a name stands for, or ``None`` if it names none.

    The name is normalised (trimmed, lowercased, spaces and hyphens made ``_``), then looked up
    as a class or a synonym, then as a singular (a trailing ``s``, ``es`` or ``ies``), then with
    the ``food_`` or ``clothes_`` prefix added, then with such a prefix removed.

    >>> canonical("Home Office")
    'home_office'
    >>> canonical("TV")
    'television'
    >>> canonical("plates")
    'plate'
    >>> canonical("banana")
    'food_banana'
    >>> canonical("pants")
    'clothes_pants'
    >>> canonical("food_milk")
    'milk'
    >>> canonical("shoe-shine kit")
    'shoe_shine_kit'
    >>> canonical("spaceship") is None
    True
    """
    if len(name) > _CANONICAL_NAME_CHARS:
        return _canonical(name)
    found = _CANONICAL.get(name, _UNKNOWN)
    if found is _UNKNOWN:
        found = _canonical(name)
        if len(_CANONICAL) >= _CANONICAL_NAMES:
            _CANONICAL.clear()
        _CANONICAL[name] = found
    return found  # type: ignore[return-value]


_CANONICAL: dict[str, str | None] = {}
"""Names read so far (the same few names come back at every step of every episode)."""
_CANONICAL_NAMES = 8_192
_CANONICAL_NAME_CHARS = 100
_UNKNOWN = object()


def _canonical(name: str) -> str | None:
    key = _normalise(name)
    if not key:
        return None
    forms = [key, *_singulars(key)]
    candidates = [*forms, *(prefix + form for prefix in _PREFIXES for form in forms)]
    candidates += [form[len(p) :] for form in forms for p in _PREFIXES if form.startswith(p)]
    for candidate in candidates:
        if candidate in CLASSES:
            return candidate
        if candidate in SYNONYMS:
            return SYNONYMS[candidate]
    return None


def placements(name: str) -> tuple[tuple[str, str], ...]:
    """Where an object of the class that ``name`` stands for goes, in order of preference.

    ``()`` for a name of no class, and for the classes a home places itself (rooms, structure,
    furniture standing on the floor, body parts, characters).

    >>> placements("cup")[0]
    ('INSIDE', 'kitchen_cabinet')
    """
    cls = canonical(name)
    return CLASSES[cls].places if cls is not None else ()
