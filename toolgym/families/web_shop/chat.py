"""WebShop as a conversation: the user holds back some of the product's options and its price cap.

A task's slots are read from its templated instruction ("i need a herbal tea that is organic with
flavor: hibiscus, and size: 40 count, and price lower than 30.00 dollars"): the attributes it
names (always given: the request is about them, and the gold searches with them), each option
group of the goal (``color``, ``size``, ``flavor``, ``scent``, ``style``) and the price cap. Up
to two of the options and the cap are held back (of three, one is given); the opening is the
instruction with them left out, and the shop's pages show that request rather than the whole
instruction.

A click that chooses an option is the call ``choose_option`` of the backend, whose argument is
the option's group (:meth:`WebShopBackend.calls_since`): choosing any option of a held-back group
(``click[medium]`` while the size is held back, whatever its spelling) is a guess, whichever
value it picks. The price cap is carried by no call: a search that writes it
(``search[tea under 30 dollars]``) before the user told it is a guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from toolgym.benchmarks.tasks import Task
from toolgym.conversation.backend import ChatBackend
from toolgym.conversation.guesses import MIN_GUESS_CHARS
from toolgym.conversation.tasks import ChatProfile, chat_suite
from toolgym.conversation.toolkit import ChatToolkit
from toolgym.families.web_shop.backend import WebShopBackend
from toolgym.families.web_shop.toolkit import WebShopToolkit
from toolgym.families.web_shop.world.categories import TYPES
from toolgym.simulators.user import Slot, SlotKind, Vocabulary
from toolgym.simulators.user.slots import contains_phrase, normalize

_PRICE = re.compile(r", and price lower than (\d+(?:\.\d+)?) dollars$")
_ATTRIBUTES = re.compile(r" that (?:is|are) (.+)$")
_SIZES = {
    "x-small": ("xs", "extra small", "x small"),
    "small": ("size s", "size sm"),
    "medium": ("size m", "size med"),
    "large": ("size l", "size lg"),
    "x-large": ("xl", "extra large", "x large"),
    "xx-large": ("xxl", "2xl", "xx large", "extra extra large"),
}
"""Size names as agents shorten them (a bare letter only after ``size``: ``size L``)."""
_UNITS = {
    "ounce": ("ounces", "oz"),
    "fl oz": ("fluid ounces", "fl. oz"),
    "oz": ("ounces", "ounce"),
    "count": ("ct",),
    "pack": ("packs", "-pack"),
    "feet": ("ft", "foot"),
    "inch": ("inches",),
    "pound": ("pounds", "lb", "lbs"),
    "liter": ("liters", "litre"),
}
_UNIT = re.compile(rf"^(\d+(?:\.\d+)?) ?({'|'.join(sorted(_UNITS, key=len, reverse=True))})$")
_GLUED = re.compile(r"^(\d+)(mah|gb|mm)$")
_AREA = re.compile(r"^(\d+)' x (\d+)'$")
_NUMERIC = re.compile(r"^\d+(?:\.\d+)?$")


def variants(value: str) -> tuple[str, ...]:
    """Other ways an agent writes option value ``value`` (``grey`` for ``gray``, ``8 oz``...).

    >>> variants("8 ounce")
    ('8 ounces', '8 oz')
    >>> variants("5' x 7'")
    ('5x7', '5 x 7', '5 by 7')
    """
    out = list(_SIZES.get(value, ()))
    if "gray" in value.split():
        out.append(value.replace("gray", "grey"))
    if value == "multicolor":
        out += ["multicolored", "multi-color", "multicolour"]
    if match := _UNIT.match(value):
        out += [f"{match.group(1)} {u}".replace(" -", "-") for u in _UNITS[match.group(2)]]
    if match := _GLUED.match(value):
        out.append(f"{match.group(1)} {match.group(2)}")
    if match := _AREA.match(value):
        a, b = match.groups()
        out += [f"{a}x{b}", f"{a} x {b}", f"{a} by {b}"]
    return tuple(dict.fromkeys(v for v in out if v != value))


_REQUESTS = tuple(normalize(p) for t in TYPES for p in (t.name, *t.attributes))
"""What requests name: the products and their attributes."""


def _listed(group: str) -> tuple[tuple[str, ...], ...]:
    """The catalog's values of option ``group``, each with its variants.

    Bare numbers are left out: they are read next to the kind's word (``size 8``). So are values
    that name a product or an attribute (``chocolate``, ``6 pack``: "dark chocolate"): a message
    that repeats a request would be read as checking them. A size's name among them (``medium``:
    "medium roast") is kept: a task whose request writes it gives it.
    """
    values = sorted({v for t in TYPES for v in t.options.get(group, ())})
    return tuple(
        (v, *variants(v))
        for v in values
        if not _NUMERIC.match(v)
        and (v in _SIZES or not any(contains_phrase(r, normalize(v)) for r in _REQUESTS))
    )


def _words(text: str) -> tuple[str, ...]:
    """The comma-separated words of a slot kind, most natural first."""
    return tuple(w.strip() for w in text.split(","))


_COMMON_COLORS = tuple(
    (name,)
    for name in (
        "navy", "maroon", "olive", "khaki", "tan", "burgundy", "lavender", "turquoise",
        "yellow", "violet", "magenta", "cyan", "indigo", "crimson", "scarlet", "lilac", "taupe",
        "off-white", "aqua", "fuchsia", "emerald", "mustard", "sage", "slate",
    )
)  # fmt: skip
"""Colour names the catalog does not sell: a check that writes one is checking the colour."""

_COMMON_FLAVORS = tuple(
    (name,)
    for name in (
        "vanilla", "french vanilla", "hazelnut", "caramel", "salted caramel", "strawberry",
        "peppermint", "mint", "coconut", "cinnamon", "lemon", "cherry", "blueberry", "raspberry",
        "peach", "mango", "banana", "honey", "maple", "pumpkin spice", "cookies and cream",
        "unflavored", "unflavoured",
    )
    if not any(contains_phrase(r, normalize(name)) for r in _REQUESTS)
    and not any(name in group for group in _listed("flavor"))
)  # fmt: skip
"""Flavours the catalog does not sell (nor any request names): a check that writes one is
checking the flavour (``So organic vanilla coffee beans, right?``)."""

OPTIONS = ("color", "size", "flavor", "scent", "style")
"""The catalog's option groups, each a slot kind of its own name."""

VOCABULARY = Vocabulary(
    [
        SlotKind(
            "features",
            _words("features, feature, attributes, properties, qualities, characteristics"),
            "something that is {text}",
            question="Which features should it have?",
        ),
        SlotKind(
            "color",
            _words(
                "color, colour, colors, colours, which color, what color, shade, shades, hue, "
                "color option, colour option, colorway, colourway, colorways, colourways, "
                "color variant, colour variant"
            ),
            "the color {text}",
            "choose_option",
            "color",
            question="What color would you like?",
            values=(*_listed("color"), *_COMMON_COLORS),
        ),
        SlotKind(
            "size",
            _words(
                "size, sizes, sizing, storage, storage size, how much storage, which size, what size, how big, how large, how many, "
                "length, which length, what length, how long, "
                "dimensions, measurements, capacity, volume, pack size, package size, "
                "shoe size, phone model, which phone, which iphone, what iphone, iphone model, "
                "size option, size variant, what phone, what kind of phone, what type of phone, iphone, "
                "waist, inseam, waist size, weight, how heavy, quantity"
            ),
            "size {text}",
            "choose_option",
            "size",
            question="What size do you need?",
            values=_listed("size"),
        ),
        SlotKind(
            "flavor",
            _words("flavor, flavour, flavors, flavours, taste, which flavor, what flavor"),
            "the flavor {text}",
            "choose_option",
            "flavor",
            question="Which flavor would you like?",
            values=(*_listed("flavor"), *_COMMON_FLAVORS),
        ),
        SlotKind(
            "scent",
            _words("scent, scents, fragrance, smell, aroma, which scent, what scent"),
            "the scent {text}",
            "choose_option",
            "scent",
            question="Which scent would you like?",
            values=_listed("scent"),
        ),
        SlotKind(
            "style",
            _words("style, styles, which style, what style, design, variant, theme"),
            "the style {text}",
            "choose_option",
            "style",
            question="Which style would you like?",
            values=_listed("style"),
        ),
        SlotKind(
            "price",
            _words(
                "price, prices, budget, maximum price, max price, price limit, price cap, "
                "how much, spend, afford, cost, pay, dollars, price range, upper limit"
            ),
            "a price lower than {text}",
            question="What is your budget: the most you would pay?",
        ),
    ],
    topic="shopping",
)

ALWAYS_GIVEN = ("features",)
"""What the request is about: the product and the attributes it names."""


def _short_forms(value: str) -> tuple[str, ...]:
    """How a step writes a value too short to be looked for alone (``size 6``, ``click[6]``)."""
    if len(value) >= MIN_GUESS_CHARS:
        return ()
    return (f"size {value}", f"click[{value}]", f'"target": "{value}"')


def _option_slot(group: str, value: str) -> Slot:
    return Slot(group, value, value, (*variants(value), *_short_forms(value)))


def _price_slot(cap: str) -> Slot:
    value = float(cap)
    whole = f"{value:g}"
    aliases = (f"{whole} dollars", f"${whole}", f"${value:.2f}", f"{value:.2f}", whole)
    return Slot("price", value, f"{value:.2f} dollars", aliases)


def _goal_options(task: Task) -> dict[str, str]:
    """The options the task's goal asks for, by group, in the instruction's order."""
    goal = (task.setup or {}).get("goal")
    if not isinstance(goal, Mapping):
        return {}
    options = goal.get("options") or goal.get("goal_options") or {}
    return {str(k): str(v) for k, v in options.items()} if isinstance(options, Mapping) else {}


def _parts(task: Task) -> tuple[str, dict[str, str], str | None]:
    """The instruction's request, its options (those it writes, ``group: value``) and its cap."""
    text = task.instruction
    price = _PRICE.search(text)
    body = text[: price.start()] if price else text
    options = _goal_options(task)
    tail = " with " + ", and ".join(f"{k}: {v}" for k, v in options.items())
    if options and body.endswith(tail):
        return body[: -len(tail)], options, price.group(1) if price else None
    return body, {}, price.group(1) if price else None


def slots(task: Task) -> list[Slot]:
    """The request's attributes, the goal's options (those of :data:`OPTIONS`) and its cap.

    An option or cap whose value the request writes anyway is not a slot (it is stated with
    the request, never held back).
    """
    request, options, cap = _parts(task)
    found = []
    attributes = _ATTRIBUTES.search(request)
    if attributes:
        found.append(Slot("features", attributes.group(1), attributes.group(1)))
    details = [_option_slot(k, v) for k, v in options.items() if k in OPTIONS]
    if cap is not None:
        details.append(_price_slot(cap))
    said = normalize(request)
    for slot in details:
        if not any(len(f) >= MIN_GUESS_CHARS and contains_phrase(said, f) for f in slot.forms()):
            found.append(slot)
    return found


def opening(task: Task, given: Sequence[Slot]) -> str:
    """The instruction without the options and cap held back.

    ``find me a pair of leggings that are moisture wicking with size: x-large``.
    """
    held = {s.kind for s in slots(task)} - {s.kind for s in given}
    request, options, cap = _parts(task)
    kept = [f"{k}: {v}" for k, v in options.items() if k not in held]
    text = request + (" with " + ", and ".join(kept) if kept else "")
    if cap is not None and "price" not in held:
        text += f", and price lower than {cap} dollars"
    return text


PROFILE = ChatProfile(
    name="web_shop_chat",
    inner_tasks="toolgym.families.web_shop.tasks:SUITE_SHORT",
    vocabulary=VOCABULARY,
    slots=slots,
    opening=opening,
    data_dir=str(Path(__file__).parent / "data"),
    max_held=2,
    always_given=ALWAYS_GIVEN,
)


class RequestShopBackend(WebShopBackend):
    """WebShop's backend whose pages show the user's request, not the goal's whole instruction."""

    request: str | None = None

    def show(self, request: str) -> None:
        """The pages show ``request`` from now on (until the next reset's goal)."""
        self.request = request
        self.session.instruction = request

    def snapshot(self) -> dict[str, Any]:
        """The session, with the request its pages show."""
        return {**super().snapshot(), "request": self.request}

    def restore(self, state: Any) -> None:
        """Back to a :meth:`snapshot`."""
        super().restore(state)
        self.request = state.get("request")
        if self.request is not None:
            self.session.instruction = self.request


class ShopChatBackend(ChatBackend):
    """The conversation's backend: the shop's pages show the opening request."""

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """The family's episode, its pages showing the conversation's opening request."""
        super().reset(rng, setup)
        if isinstance(self.inner, RequestShopBackend) and self.conversation is not None:
            self.inner.show(self.conversation.opening)


class WebShopChatToolkit(ChatToolkit):
    """WebShop's toolkit (``WebShop-v1``'s tasks) with the user channel."""

    inner_class = WebShopToolkit
    vocabulary = VOCABULARY

    def new_backend(self) -> ChatBackend:
        """A shop session whose pages show the user's request, with the user."""
        inner = self.inner
        assert isinstance(inner, WebShopToolkit)
        return ShopChatBackend(RequestShopBackend(inner.shop, inner.rich), VOCABULARY, self.user)


SUITE = chat_suite("toolgym.families.web_shop.chat:PROFILE")
