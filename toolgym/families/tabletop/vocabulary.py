"""The words of the tabletop's descriptions: the tokeniser, the word tables and small readers.

A query is lower-cased and split into words, and synonyms are normalised (``leftmost`` -> ``left
most``, ``nearest`` -> ``closest``, ``centre`` -> ``middle``, ``cm``, ``degrees``). The tables
name the colours (with the words that evoke one: ``sun`` -> ``yellow``), the head nouns, the sides
and directions, and the fillers the readers skip; the readers take one number, count, ordinal or
distance at a time. :class:`ParseError` is the error every reader raises.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Final

from toolgym.families.tabletop.world.workspace import COLORS

MAX_QUERY: Final = 500
"""The longest query, in characters."""


class ParseError(ValueError):
    """A description that cannot be read; the message names it and the forms understood.

    ``reason`` is the part of the message after the query (empty when there is no query).
    """

    reason: str = ""


_TOKEN = re.compile(r"(?<![a-z0-9.])-?(?:\d+(?:\.\d+)?|\.\d+)|\d+(?:\.\d+)?|\.\d+|[a-z]+|[°%]")
_ORDINAL = re.compile(r"(\d{1,3})(?:st|nd|rd|th)")


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
UNITS: Final = {"cm": 0.01, "mm": 0.001, "m": 1.0, "inch": 0.0254, "inches": 0.0254}
SIDE_WORDS: Final = word_set("left right top bottom")
DETERMINERS: Final = word_set("the a an any some of only single")
FILLERS: Final = word_set(
    "that which who is are being located placed sitting lying positioned situated found standing"
    " resting stacked lies sits currently also most there exist exists do you see can present set"
)
NEAR: Final = word_set("closest near nearby next beside by adjacent")

DIRECTIONS: Final = {
    "left": (-1.0, 0.0),
    "right": (1.0, 0.0),
    **dict.fromkeys(("top", "above", "up"), (0.0, 1.0)),
    **dict.fromkeys(("bottom", "below", "down", "beneath"), (0.0, -1.0)),
}
"""Direction words and the unit step in xy each stands for."""

DEFAULT_OFFSET: Final = 0.1
"""How far a direction word moves when no distance is given (``left of X``), in metres."""


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
