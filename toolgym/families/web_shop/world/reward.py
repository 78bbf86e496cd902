"""WebShop's purchase reward, as a pure function with its components.

``reward = r_type * (attribute matches + option matches + [price <= price_upper]) /
(|goal attributes| + |goal options| + 1)``, exactly as the original computes it:

* an attribute of the goal matches when some attribute of the purchased product has a token-set
  ratio above 85 with it, or when it is a substring of the product's title, bullet points or
  description (all lower case);
* an option of the goal matches when some chosen option value has a token-set ratio above 85 with
  it, both colour-normalised first (:func:`normalize_color`: the first colour word of
  :data:`COLOR_SET` found in the text). Synthetic goals hand the matcher ``(name, value)``
  tuples, as the original does: colour normalisation then tests membership in the tuple, and an
  unmatched tuple compares as its words (``("size", "8")`` as ``size 8``);
* ``r_type`` is 1, 0.5, 0.1 or 0 from the query, the category breadcrumb and the overlap of the
  titles' nouns.

Deterministic replacements for the original's libraries: the token-set ratio is RapidFuzz's,
with thefuzz's preprocessing (ASCII only, non-alphanumerics to spaces, lower case) and its
rounding to an int, which gives thefuzz's values; nouns come from each product's noun list (made
with the catalog) or, for products without one, from :func:`title_nouns`, a heuristic in place of
spaCy's tagger.

>>> token_set_ratio("essential oil", "essential oils"), token_set_ratio("8", ("size", "8"))
(96, 100)
>>> normalize_color("white | red")
'red'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz, utils

from toolgym.families.web_shop.world.search import LUCENE_STOP_WORDS

COLOR_SET: tuple[str, ...] = tuple(
    [
        "alabaster",
        "apricot",
        "aqua",
        "ash",
        "asphalt",
        "azure",
        "banana",
        "beige",
        "black",
        "blue",
        "blush",
        "bordeaux",
        "bronze",
        "brown",
        "burgundy",
        "camel",
        "camo",
        "caramel",
        "champagne",
        "charcoal",
        "cheetah",
        "chestnut",
        "chocolate",
        "christmas",
        "coffee",
        "cognac",
        "copper",
        "coral",
        "cranberry",
        "cream",
        "crystal",
        "dark",
        "denim",
        "eggplant",
        "elephant",
        "espresso",
        "fuchsia",
        "gold",
        "granite",
        "grape",
        "graphite",
        "grass",
        "gray",
        "green",
        "grey",
        "heather",
        "indigo",
        "ivory",
        "ivy",
        "khaki",
        "lavender",
        "lemon",
        "leopard",
        "light",
        "lilac",
        "lime",
        "magenta",
        "maroon",
        "mauve",
        "merlot",
        "midnight",
        "mint",
        "mocha",
        "multicolor",
        "mushroom",
        "mustard",
        "natural",
        "navy",
        "nude",
        "olive",
        "orange",
        "peach",
        "pewter",
        "pink",
        "plum",
        "purple",
        "rainbow",
        "red",
        "rose",
        "royal",
        "rust",
        "sand",
        "sapphire",
        "seashell",
        "silver",
        "skull",
        "slate",
        "steel",
        "stone",
        "stonewash",
        "sunflower",
        "tan",
        "taupe",
        "teal",
        "tiger",
        "turquoise",
        "violet",
        "walnut",
        "wheat",
        "white",
        "wine",
        "yellow",
    ]
)
"""WebShop's colour words, in its order (the first one found wins)."""

MATCH_THRESHOLD = 85
"""A token-set ratio above this is a match."""


_LATIN1 = dict.fromkeys(range(128, 256))
"""thefuzz's ``force_ascii``: it drops U+0080 to U+00FF and keeps every other character."""


def _text(value: Any) -> str:
    text = value if isinstance(value, str) else str(value)
    return text.translate(_LATIN1)


def token_set_ratio(a: Any, b: Any) -> int:
    """Thefuzz's ``token_set_ratio``: preprocessed, rounded to an int, 0 for an empty side.

    As thefuzz processes text: U+0080 to U+00FF dropped, then rapidfuzz's ``default_process``
    (lower case, every other character that is not a letter or digit made a space), so a
    typographic apostrophe splits a word and CJK letters stay.

    >>> token_set_ratio("i\u2019d like", "i'd like"), token_set_ratio("caf\u00e9", "caf")
    (100, 100)
    >>> token_set_ratio("\u7eff\u8336 tea", "tea")
    100
    """
    left, right = utils.default_process(_text(a)), utils.default_process(_text(b))
    if not left or not right:
        return 0
    return round(fuzz.token_set_ratio(left, right))


def normalize_color(value: Any) -> Any:
    """The first colour word of :data:`COLOR_SET` in ``value`` (substring or member), else it."""
    for color in COLOR_SET:
        if color in value:
            return color
    return value


_WORD = re.compile(r"[a-z][a-z'\-]*")
_NOT_NOUNS = LUCENE_STOP_WORDS | frozenset(
    """
    without from up down out over under new best premium great high low quality large small big
    mini extra long short light heavy soft hard natural organic fresh free pure black white red
    blue green yellow pink purple gray grey brown orange silver gold beige navy men women mens
    womens kids boys girls unisex adult portable durable waterproof wireless compatible
    adjustable professional classic modern vintage cute casual comfortable lightweight non slip
    easy fast perfect real full half pack count piece set oz ounce inch inches lb lbs ml size
    """.split()  # noqa: SIM905 - a word list reads best as words
)


def title_nouns(title: str) -> list[str]:
    """A heuristic for the nouns of a title, in place of spaCy's tagger.

    They are its lower-case words that are not function words, common adjectives, colours, sizes
    or units.

    >>> title_nouns("Premium Leather Running Shoes for Men, Black")
    ['leather', 'running', 'shoes']
    """
    return [w for w in _WORD.findall(title.lower()) if w not in _NOT_NOUNS and len(w) > 1]


@dataclass(frozen=True)
class Purchase:
    """What was bought: the product's fields the reward reads, the chosen options and the price.

    Attributes:
        title: the product's title.
        attributes: the product's attributes.
        bullet_points: its bullet points.
        description: its description.
        query: the search query the product came from.
        product_category: its breadcrumb (``"A › B › C"``).
        options: the chosen option values.
        price: the price paid.
        nouns: the title's nouns (``None``: :func:`title_nouns` of the title).
    """

    title: str
    attributes: Sequence[str]
    bullet_points: Sequence[str]
    description: str
    query: str
    product_category: str
    options: Sequence[str]
    price: float
    nouns: Sequence[str] | None = None


@dataclass(frozen=True)
class Goal:
    """What the user asked for (a WebShop goal).

    Attributes:
        name: the title of the product the goal was made from.
        query: its search query.
        product_category: its breadcrumb.
        attributes: the attributes asked for.
        options: the options asked for: ``(name, value)`` pairs for synthetic goals, values for
            human goals.
        price_upper: the price cap (1,000,000 when there is none).
        nouns: the nouns of ``name`` (``None``: :func:`title_nouns` of it).
    """

    name: str
    query: str
    product_category: str
    attributes: Sequence[str]
    options: Sequence[Any]
    price_upper: float
    nouns: Sequence[str] | None = None


@dataclass(frozen=True)
class Reward:
    """A purchase's reward and its components (the original's verbose output)."""

    reward: float
    r_type: float
    r_att: float
    w_att: float
    r_option: float | None
    w_option: float
    r_price: bool
    w_price: float
    query_match: bool
    category_match: bool
    title_score: float
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_info(self) -> dict[str, Any]:
        """The components as JSON values."""
        return {
            "reward": self.reward,
            "r_type": self.r_type,
            "r_att": self.r_att,
            "w_att": self.w_att,
            "r_option": self.r_option,
            "w_option": self.w_option,
            "r_price": self.r_price,
            "w_price": self.w_price,
            "query_match": self.query_match,
            "category_match": self.category_match,
            "title_score": self.title_score,
        }


def _category_parts(breadcrumb: str) -> set[str]:
    return {part.strip() for part in breadcrumb.split("›")}


def type_reward(purchase: Purchase, goal: Goal) -> tuple[float, bool, bool, float]:
    """``(r_type, query_match, category_match, title_score)``."""
    query_match = purchase.query == goal.query
    category_match = (
        len(_category_parts(purchase.product_category) & _category_parts(goal.product_category))
        >= 2
    )
    bought = purchase.nouns if purchase.nouns is not None else title_nouns(purchase.title)
    wanted = goal.nouns if goal.nouns is not None else title_nouns(goal.name)
    title_score = len(set(bought) & set(wanted)) / len(wanted) if wanted else 0.2
    r_type = 1.0
    if not (query_match or category_match or title_score > 0.2):
        r_type = 0.5
    if title_score < 0.1:
        r_type = 0.1
    if title_score == 0.0:
        r_type = 0.0
    return r_type, query_match, category_match, title_score


def attribute_matches(purchase: Purchase, goal: Goal) -> int:
    """How many goal attributes the product has (fuzzily, or in its title, bullets or text)."""
    title = purchase.title.lower()
    bullets = " ".join(purchase.bullet_points).lower()
    description = purchase.description.lower()
    matches = 0
    for wanted in goal.attributes:
        if (
            any(token_set_ratio(have, wanted) > MATCH_THRESHOLD for have in purchase.attributes)
            or wanted in title
            or wanted in bullets
            or wanted in description
        ):
            matches += 1
    return matches


def option_matches(purchase: Purchase, goal: Goal) -> int:
    """How many goal options were chosen (colour-normalised, fuzzily)."""
    matches = 0
    for wanted in goal.options:
        target = normalize_color(wanted)
        if any(
            token_set_ratio(normalize_color(chosen), target) > MATCH_THRESHOLD
            for chosen in purchase.options
        ):
            matches += 1
    return matches


def get_reward(purchase: Purchase, goal: Goal) -> Reward:
    """The reward of ``purchase`` for ``goal``, with its components (see the module docstring)."""
    r_type, query_match, category_match, title_score = type_reward(purchase, goal)
    n_att = len(goal.attributes)
    n_opt = len(goal.options)
    total = n_att + n_opt + 1
    att = attribute_matches(purchase, goal)
    opt = option_matches(purchase, goal)
    r_price = purchase.price <= goal.price_upper
    score = (att + opt + int(r_price)) / total
    return Reward(
        reward=score * r_type,
        r_type=r_type,
        r_att=att / n_att if n_att else 0.0,
        w_att=n_att / total,
        r_option=opt / n_opt if n_opt else None,
        w_option=n_opt / total,
        r_price=r_price,
        w_price=1 / total,
        query_match=query_match,
        category_match=category_match,
        title_score=title_score,
        details={"attribute_matches": att, "option_matches": opt},
    )
