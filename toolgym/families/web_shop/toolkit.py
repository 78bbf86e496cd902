"""The web shop toolkit: a shop per catalog, the two actions, and the episode backend.

The shop of ``(world_seed, num_products)`` is built once per process: its catalog makes each
product when first needed, and its search index is loaded from the cache folder or built (making
every product once) and saved there. A task's setup is
its goal (``{"goal": {...}}``, :meth:`~toolgym.families.web_shop.world.goals.GoalSpec.to_data`).
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from toolgym.errors import TaskFileError
from toolgym.families.web_shop.language import WebActionLanguage
from toolgym.families.web_shop.world.catalog import (
    GeneratedCatalog,
    Product,
    catalog_key,
    make_product,
)
from toolgym.families.web_shop.world.goals import PRICE_SEED, GoalSpec, make_goals, product_goals
from toolgym.families.web_shop.world.reward import Purchase, Reward, get_reward
from toolgym.families.web_shop.world.search import cached_index
from toolgym.families.web_shop.world.shop import Session, Shop
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.errors import NON_EXECUTABLE, PRECONDITION, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.tool import Param, Tool, ToolSet
from toolgym.tools.toolkit import Toolkit

CATALOG_VERSION = 2
"""Bumped whenever generation changes, so that cached catalogs are not reused."""

DEFAULT_PRODUCTS = 1000

TOOLS = ToolSet(
    [
        Tool(
            "search",
            "From any page, search the shop for products with these keywords; go to the results.",
            (Param("keywords", str, "The search keywords."),),
            text_doc="# From any page, search the shop for products with these keywords; go to "
            "the results.\nsearch[keywords]\n",
        ),
        Tool(
            "click",
            "Click a button, a product id or an option value of the current page (its text in "
            "lower case: 'buy now', 'next >', 'b07x5548b', 'large').",
            (Param("target", str, "The lower-case text of what to click."),),
            text_doc="# Click a button, a product id or an option value of the current page (its "
            "text in lower case: 'buy now', 'next >', 'b07x5548b', 'large').\nclick[target]\n",
        ),
    ]
)
"""The two actions."""


@functools.lru_cache(maxsize=4)
def shop_for(world_seed: int, num_products: int) -> Shop:
    """The shop of a world: its catalog and search index (built once per process).

    The catalog makes each product when first needed; the index is read from the cache folder,
    or built (making every product once) and saved there.
    """
    catalog = GeneratedCatalog(num_products, world_seed)
    key = f"generated-v{CATALOG_VERSION}-{world_seed}-{num_products}"

    def texts() -> tuple[list[str], list[str]]:
        made = (make_product(k, world_seed) for k in range(num_products))
        pairs = [(p.search_text(), p.asin) for p in made]
        return [t for t, _ in pairs], [a for _, a in pairs]

    index = cached_index(texts, None, key)
    return Shop(catalog, index, world_seed, (shop_for, (world_seed, num_products)))


@functools.lru_cache(maxsize=4)
def goals_for(world_seed: int, num_products: int) -> tuple[GoalSpec, ...]:
    """The goals of a world's catalog, in their seeded order."""
    return tuple(make_goals(shop_for(world_seed, num_products).products, world_seed))


def purchase_of(product: Product, options: Mapping[str, str]) -> Purchase:
    """What the reward reads of a purchase of ``product`` with ``options``."""
    return Purchase(
        title=product.title,
        attributes=product.attributes,
        bullet_points=product.bullet_points,
        description=product.description,
        query=product.query,
        product_category=product.product_category,
        options=tuple(options.values()),
        price=product.price_for(PRICE_SEED),
        nouns=product.nouns,
    )


def goal_of(shop: Shop, data: Any) -> GoalSpec:
    """A goal from a task's setup.

    The setup holds a whole goal (:meth:`GoalSpec.to_data`), or the product and the options it
    asks for (``{"asin": ..., "options": {...}}``), made as the catalog's goals are.

    Raises:
        TaskFileError: neither, or a product or options the shop does not have.
    """
    if not isinstance(data, Mapping):
        raise TaskFileError(f"a web shop goal is an object; got {data!r}")
    if "instruction_text" in data:
        try:
            return GoalSpec.from_data(dict(data))
        except (KeyError, TypeError, ValueError) as e:
            raise TaskFileError(f"a web shop goal needs its fields ({e}); got {data!r}") from None
    product = shop.by_asin.get(str(data.get("asin")))
    if product is None:
        raise TaskFileError(f"the shop has no product {data.get('asin')!r}")
    options = data.get("options") or {}
    for goal in product_goals(product, shop.seed):
        if goal.goal_options == options:
            return goal
    raise TaskFileError(f"product {product.asin} has no goal with options {options!r}")


class WebShopBackend(Backend):
    """One shopping session with one goal.

    Args:
        shop: the shop.
        rich: render pages in WebShop's rich text instead of the simple ``[SEP]`` text.
    """

    handles_faults = True

    def __init__(self, shop: Shop, rich: bool = False) -> None:
        self.shop = shop
        self.rich = rich
        self.goal: GoalSpec | None = None
        self.session = Session(shop, "")
        self.actions: list[str] = []
        self.reward: Reward | None = None

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """A new session for the task's goal.

        Raises:
            TaskFileError: a setup that is not ``{"goal": <goal>}``.
        """
        if not setup or "goal" not in setup:
            raise TaskFileError(f"a web shop task's setup is {{'goal': {{...}}}}; got {setup!r}")
        self.goal = goal_of(self.shop, setup["goal"])
        self.session = Session(self.shop, self.goal.instruction_text)
        self.actions, self.reward = [], None

    def opening(self, instruction: str) -> str:
        """The search page, which shows the goal's instruction."""
        return self.observation()

    def start_key(self) -> Hashable:
        """The goal."""
        return None if self.goal is None else self.goal.instruction_text

    def snapshot(self) -> dict[str, Any]:
        """The session, the actions taken and the reward."""
        return {
            "goal": None if self.goal is None else self.goal.to_data(),
            "session": self.session.state(),
            "actions": list(self.actions),
            "reward": self.reward,
        }

    def restore(self, state: Any) -> None:
        """Back to a :meth:`snapshot`."""
        self.goal = None if state["goal"] is None else GoalSpec.from_data(state["goal"])
        instruction = "" if self.goal is None else self.goal.instruction_text
        self.session = Session(self.shop, instruction)
        self.session.set_state(state["session"])
        self.actions = list(state["actions"])
        self.reward = state["reward"]

    def observation(self) -> str:
        """The current page (the done page ends with the score, as WebShop's does)."""
        text = self.session.observation(self.rich)
        if self.session.page == "done" and self.reward is not None:
            sep = "\n" if self.rich else " [SEP] "
            text += f"{sep}Your score (min 0.0, max 1.0){sep}{self.reward.reward}"
        return text

    def available(self) -> dict[str, Any]:
        """``{"has_search_bar", "clickables"}``, as WebShop's ``get_available_actions``."""
        return {
            "has_search_bar": self.session.has_search_bar(),
            "clickables": self.session.clickables(),
        }

    def act(self, action: str) -> bool:
        """Take one action; whether it bought something.

        Raises:
            ToolCallError: the action was not carried out (the page is unchanged): not an action,
                not clickable here, after the purchase, or stopped by a service fault.
        """
        name = action.strip().split("[", 1)[0].strip() or "action"
        if self.faults is not None:
            return bool(self.faults.around_call(name, lambda: self._act(action)))
        return self._act(action)

    def _act(self, action: str) -> bool:
        result = self.session.step(action)
        if not result.valid:
            category = WRONG_ARGUMENTS
            if self.session.page == "done":
                category = PRECONDITION
            elif "an action is" in result.message or "the actions are" in result.message:
                category = NON_EXECUTABLE
            raise ToolCallError(category, result.message)
        self.actions.append(action.strip())
        if result.done:
            assert self.goal is not None and self.session.bought is not None
            asin, options = self.session.bought
            product = self.shop.by_asin[asin]
            self.reward = get_reward(purchase_of(product, options), self.goal.goal)
        return result.done

    def attempt(self) -> Attempt:
        """What was bought (if anything) and its reward."""
        bought = self.session.bought
        outcome = {
            "bought": bought is not None,
            "asin": None if bought is None else bought[0],
            "options": None if bought is None else dict(bought[1]),
            "reward": None if self.reward is None else self.reward.to_info(),
        }
        calls = tuple(a.split("[", 1)[0] for a in self.actions)
        return Attempt(outcome, calls, None, "\n".join(self.actions), self)


class WebShopToolkit(Toolkit):
    """The web shop over the catalog of ``world_seed``.

    Args:
        world_seed: seed of the catalog.
        num_products: products in the catalog (default 1,000).
        observation: ``"simple"`` (WebShop's ``[SEP]`` text) or ``"rich"``.
    """

    name = "web_shop"

    def __init__(
        self,
        world_seed: int = 0,
        *,
        num_products: int = DEFAULT_PRODUCTS,
        observation: str = "simple",
    ) -> None:
        super().__init__(world_seed)
        if not isinstance(num_products, int) or isinstance(num_products, bool) or num_products < 10:
            raise ValueError(f"num_products must be an int of at least 10; got {num_products!r}")
        if observation not in ("simple", "rich"):
            raise ValueError(f"observation must be 'simple' or 'rich'; got {observation!r}")
        self.num_products = num_products
        self.rich = observation == "rich"
        self.tools = TOOLS

    @property
    def shop(self) -> Shop:
        """The shop (built on first use)."""
        return shop_for(self.world_seed, self.num_products)

    def language(self) -> WebActionLanguage:
        """``search[...]`` / ``click[...]``."""
        return WebActionLanguage()

    def new_backend(self) -> WebShopBackend:
        """A session backend in this shop."""
        return WebShopBackend(self.shop, self.rich)


def build_shop(products: list[Product], seed: int = 0) -> Shop:
    """A shop over any catalog (WebShop's own files read with ``load_products``, say).

    Its index is cached under a digest of the catalog's content.
    """
    index = cached_index(
        [p.search_text() for p in products], [p.asin for p in products], catalog_key(products)
    )
    return Shop(products, index, seed)
