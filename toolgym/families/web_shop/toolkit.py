"""The web shop toolkit: a shop per catalog, the two actions, and the episode backend.

The shop of ``(world_seed, num_products)`` is built once per process: its catalog makes each
product when first needed, and its search index is loaded from the cache folder or built (making
every product once) and saved there. A task's setup is
its goal (``{"goal": {...}}``, :meth:`~toolgym.families.web_shop.world.goals.GoalSpec.to_data`).
"""

from __future__ import annotations

import functools

from toolgym.families.web_shop.backend import WebShopBackend
from toolgym.families.web_shop.language import WebActionLanguage
from toolgym.families.web_shop.world.catalog import (
    GeneratedCatalog,
    Product,
    catalog_key,
    make_product,
)
from toolgym.families.web_shop.world.goals import GoalSpec, make_goals
from toolgym.families.web_shop.world.search import cached_index
from toolgym.families.web_shop.world.shop import Shop
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


class WebShopToolkit(Toolkit):
    """The web shop over the catalog of ``world_seed``.

    Args:
        world_seed: seed of the catalog.
        num_products: products in the catalog (default 1,000).
        observation: ``"simple"`` (WebShop's ``[SEP]`` text) or ``"rich"``.
        product_file: WebShop's ``items_shuffle*.json``: its products make the shop instead
            (play them with :func:`toolgym.families.web_shop.tasks.files.load_goal_tasks`).
        attribute_file: WebShop's ``items_ins_v2*.json`` for those products.
    """

    name = "web_shop"

    def __init__(
        self,
        world_seed: int = 0,
        *,
        num_products: int = DEFAULT_PRODUCTS,
        observation: str = "simple",
        product_file: str | None = None,
        attribute_file: str | None = None,
    ) -> None:
        super().__init__(world_seed)
        if not isinstance(num_products, int) or isinstance(num_products, bool) or num_products < 10:
            raise ValueError(f"num_products must be an int of at least 10; got {num_products!r}")
        if observation not in ("simple", "rich"):
            raise ValueError(f"observation must be 'simple' or 'rich'; got {observation!r}")
        if attribute_file is not None and product_file is None:
            raise ValueError("attribute_file needs the product_file it describes")
        self.num_products = num_products
        self.rich = observation == "rich"
        self.tools = TOOLS
        self.product_file = None if product_file is None else str(product_file)
        self.user_world = product_file is not None
        self.attribute_file = None if attribute_file is None else str(attribute_file)

    @property
    def shop(self) -> Shop:
        """The shop (built on first use): WebShop's own files when given, else generated."""
        if self.product_file is not None:
            from toolgym.families.web_shop.tasks.files import file_shop

            return file_shop(self.product_file, self.attribute_file, self.world_seed)
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
