"""Goals: what a user asks the shop for, made from products as WebShop makes its synthetic goals.

For every product with an instruction, each combination of its option values (groups in
alphabetical order) is one goal: the product's instruction, ``" with "`` and the options
(``"color: black, and size: 8"``), and a price cap (``", and price lower than 40.00 dollars"``).
The cap is drawn from the first four multiples of ten above the product's price: two distinct
ones, the larger kept; with fewer than two there is no cap (1,000,000). WebShop draws caps and the
goal order unseeded; here both come from the catalog's seed. A goal's weight is the mean, over its
attributes, of one over the number of goals with that attribute.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgym.families.web_shop.world.catalog import Product
from toolgym.families.web_shop.world.reward import Goal
from toolgym.simulators.seeding import stable_rng

PRICE_RANGE = tuple(range(10, 1000, 10))
NO_CAP = 1_000_000.0
PRICE_SEED = 0
"""The seed of the price paid for products sold at a range of prices."""


@dataclass(frozen=True)
class GoalSpec:
    """A goal and the product it was made from.

    Attributes:
        asin: the product.
        instruction_text: what the user says.
        goal: what the reward compares a purchase with.
        goal_options: the options asked for, by group.
        weight: the goal's sampling weight.
    """

    asin: str
    instruction_text: str
    goal: Goal
    goal_options: dict[str, str]
    weight: float = 1.0

    def to_data(self) -> dict[str, Any]:
        """The goal as JSON data (a task's setup)."""
        g = self.goal
        return {
            "asin": self.asin,
            "instruction_text": self.instruction_text,
            "name": g.name,
            "query": g.query,
            "product_category": g.product_category,
            "attributes": list(g.attributes),
            "goal_options": dict(self.goal_options),
            "price_upper": g.price_upper,
            "nouns": None if g.nouns is None else list(g.nouns),
            **self._option_values(),
        }

    def _option_values(self) -> dict[str, list[str]]:
        """A human goal's options, values without group names, as ``{"option_values": [...]}``."""
        values = [o for o in self.goal.options if not isinstance(o, tuple | list)]
        return {"option_values": [str(v) for v in values]} if values else {}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> GoalSpec:
        """A goal from :meth:`to_data`'s form (``KeyError``/``TypeError`` if it is not one)."""
        options = {str(k): str(v) for k, v in dict(data["goal_options"]).items()}
        nouns = data.get("nouns")
        goal = Goal(
            name=str(data["name"]),
            query=str(data["query"]),
            product_category=str(data["product_category"]),
            attributes=tuple(str(a) for a in data["attributes"]),
            options=tuple(options.items())
            if "option_values" not in data
            else tuple(str(v) for v in data["option_values"]),
            price_upper=float(data["price_upper"]),
            nouns=None if nouns is None else tuple(str(n) for n in nouns),
        )
        return cls(str(data["asin"]), str(data["instruction_text"]), goal, options)


def price_cap(price: float, *seed: object) -> tuple[float, str]:
    """The cap and its text for a product of ``price`` (see the module docstring)."""
    candidates = [p for p in PRICE_RANGE if p > price][:4]
    if len(candidates) < 2:
        return NO_CAP, ""
    rng = stable_rng("web_shop", "cap", *seed)
    picked = rng.choice(len(candidates), 2, replace=False)
    upper = float(max(candidates[int(i)] for i in picked))
    return upper, f", and price lower than {upper:.2f} dollars"


def product_goals(product: Product, seed: int = 0) -> list[GoalSpec]:
    """Every goal made from ``product`` (none without an instruction)."""
    if not product.instruction:
        return []
    names = sorted(product.options)
    paid = product.price_for(PRICE_SEED)
    return [
        _product_goal(product, names, combo, paid, seed)
        for combo in itertools.product(*(product.options[n] for n in names))
    ]


def product_goal(product: Product, options: Any, seed: int = 0) -> GoalSpec | None:
    """The first of :func:`product_goals` whose options equal ``options``, made alone.

    ``None`` where there is none (no instruction, or options the product does not offer).
    """
    if not product.instruction or not isinstance(options, Mapping):
        return None
    names = sorted(product.options)
    if len(options) != len(names) or any(n not in options for n in names):
        return None
    combo = []
    for name in names:  # each option's first value equal to the one asked for, as the loop finds
        value = next((v for v in product.options[name] if v == options[name]), _MISSING)
        if value is _MISSING:
            return None
        combo.append(value)
    return _product_goal(product, names, tuple(combo), product.price_for(PRICE_SEED), seed)


_MISSING = object()


def _product_goal(
    product: Product, names: list[str], combo: tuple[Any, ...], paid: float, seed: int
) -> GoalSpec:
    """The goal of one combination of ``product``'s options (``names`` sorted)."""
    options = dict(zip(names, combo, strict=True))
    upper, cap_text = price_cap(paid, seed, product.asin, *combo)
    text = product.instruction or ""  # (callers make goals of products with one)
    if options:
        text += " with " + ", and ".join(f"{n}: {v}" for n, v in options.items())
    goal = Goal(
        name=product.title,
        query=product.query,
        product_category=product.product_category,
        attributes=product.instruction_attributes,
        options=tuple(options.items()),
        price_upper=upper,
        nouns=product.nouns,
    )
    return GoalSpec(product.asin, text + cap_text, goal, options)


def make_goals(products: Sequence[Product], seed: int = 0) -> list[GoalSpec]:
    """Every goal of the catalog, weighted, in an order shuffled with ``seed``."""
    goals = [g for p in products for g in product_goals(p, seed)]
    counts = Counter(a for g in goals for a in g.goal.attributes)
    weighted = [
        GoalSpec(
            g.asin,
            g.instruction_text,
            g.goal,
            g.goal_options,
            sum(1 / counts[a] for a in g.goal.attributes) / max(1, len(g.goal.attributes)),
        )
        for g in goals
    ]
    order = stable_rng("web_shop", "goal order", seed).permutation(len(weighted))
    return [weighted[int(i)] for i in order]


def human_goals(
    products: Sequence[Product], records: dict[str, list[dict[str, Any]]], seed: int = 0
) -> list[GoalSpec]:
    """Goals from WebShop's human instruction file (``items_human_ins.json``).

    The file maps a product id to a list of ``{instruction, instruction_attributes,
    instruction_options, ...}``. Goals are made as WebShop makes them: one goal per instruction with attributes, its text the instruction
    without trailing periods plus the price text, its options the list of option values (not
    ``(name, value)`` pairs), weight 1. Products the catalog lacks are skipped.
    """
    by_asin = {p.asin: p for p in products}
    out = []
    for asin, items in records.items():
        product = by_asin.get(asin)
        if product is None:
            continue
        for k, item in enumerate(items or ()):
            attributes = tuple(item.get("instruction_attributes") or ())
            if not attributes:
                continue
            options = tuple(str(v) for v in item.get("instruction_options") or ())
            upper, cap_text = price_cap(product.price_for(PRICE_SEED), seed, asin, "human", k)
            goal = Goal(
                name=product.title,
                query=product.query,
                product_category=product.product_category,
                attributes=attributes,
                options=options,
                price_upper=upper,
                nouns=product.nouns,
            )
            text = str(item.get("instruction", "")).strip().rstrip(".") + cap_text
            out.append(GoalSpec(asin, text, goal, {}))
    return out
