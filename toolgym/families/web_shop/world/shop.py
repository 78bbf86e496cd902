"""The shop's pages, its two actions, and a shopping session's state.

A :class:`Shop` is a catalog and its search index. A :class:`Session` is one visit with one goal:
the page it is on (search, results, item, an item's sub-page, done), the keywords, the results
page number, the product and the options chosen. :meth:`Session.step` takes WebShop's actions:

* ``search[<keywords>]`` (any page, non-empty keywords): results page 1;
* ``click[<text>]``: the lower-cased text of a button, a product id or an option value on the
  current page (:meth:`Session.clickables`); ``search`` is never clickable.

Anything else leaves the page as it is (WebShop's no-op), and the session says why.

Pages are rendered as WebShop's simple text observation: the page's text nodes joined with
``" [SEP] "`` (:meth:`Session.observation`); ``rich=True`` gives its rich rendering, a node per line
with buttons marked. The transitions are WebShop's:

==================  ======================================  ====================================
page                action                                  result
==================  ======================================  ====================================
any                 ``search[kw]``                          results, page 1
any                 ``click[back to search]``               search; keywords, page, product and
                                                            options reset
results             ``click[next >]`` / ``click[< prev]``   the next or previous results page
results             ``click[<asin>]``                       the product's item page, no options
item                ``click[<option value>]``               that option chosen
item                ``click[description|features|reviews]`` the sub-page
item                ``click[< prev]``                       back to the results page
sub-page            ``click[< prev]``                       back to the item page
item                ``click[buy now]``                      done: the purchase is scored
==================  ======================================  ====================================
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolgym.families.web_shop.world.catalog import Product
from toolgym.families.web_shop.world.search import SEARCH_RETURN_N, SearchIndex

PRODUCT_WINDOW = 10
"""Products per results page."""

SEP = " [SEP] "


def parse_action(text: str) -> tuple[str, str] | None:
    """``(name, argument)`` as WebShop's greedy ``^(.+)\\[(.+)\\]`` reads ``text``, or ``None``.

    Found in linear time (the pattern backtracks quadratically on text full of brackets): the
    name ends at the last ``[`` that has a ``]`` at least two characters after it, and the
    argument runs to the last ``]``.

    >>> parse_action("click[a[b]]"), parse_action("search[red shoes]"), parse_action("[x]")
    (('click[a', 'b]'), ('search', 'red shoes'), None)
    """
    last = text.rfind("]")
    start = text.rfind("[", 1, max(last - 1, 0))
    if last < 0 or start < 1:
        return None
    return text[:start], text[start + 1 : last]


SUB_PAGES = ("description", "features", "reviews")


class Shop:
    """A catalog and its search index.

    Args:
        products: the catalog (a list, or a catalog that finds products by ASIN itself with
            ``get`` and ``position``, as
            :class:`~toolgym.families.web_shop.world.catalog.GeneratedCatalog`).
        index: its search index (over :meth:`Product.search_text`, ids = ASINs).
        seed: the catalog's seed (its goals' price caps are drawn with it).
        source: ``(function, arguments)`` that make this shop, so that it pickles as that call.
    """

    def __init__(
        self,
        products: Sequence[Product],
        index: SearchIndex,
        seed: int = 0,
        source: tuple[Callable[..., Shop], tuple[Any, ...]] | None = None,
    ) -> None:
        self.seed = seed
        self.source = source
        self.products = products
        self.by_asin: Mapping[str, Product] = (
            _Lookup(products) if hasattr(products, "get") else {p.asin: p for p in products}
        )
        self.index = index
        self._unlisted: frozenset[str] | None = None
        """The index's ids the catalog does not hold (found at the first search; a shop's catalog
        and index are fixed once it is made)."""

    def __reduce__(self) -> Any:
        """Pickled as the call that makes it, when it has one (a catalog is large)."""
        if self.source is not None:
            return self.source
        return (Shop, (self.products, self.index, self.seed))

    def search(self, keywords: Sequence[str]) -> list[str]:
        """The ASINs of the hits for the keywords, best first (50 at most)."""
        hits = self.index.search(" ".join(keywords), SEARCH_RETURN_N)
        if self._unlisted is None:  # once: a generated catalog's lookup is a call per ASIN
            self._unlisted = frozenset(a for a in self.index.ids if a not in self.by_asin)
        return [a for a in hits if a not in self._unlisted] if self._unlisted else hits


class _Lookup(Mapping[str, Product]):
    """Products by ASIN, over a catalog that finds them itself (a generated one)."""

    def __init__(self, catalog: Any) -> None:
        self.catalog = catalog

    def __getitem__(self, asin: str) -> Product:
        product = self.catalog.get(asin)
        if product is None:
            raise KeyError(asin)
        return product

    def __contains__(self, asin: object) -> bool:
        return isinstance(asin, str) and self.catalog.position(asin) is not None

    def __iter__(self) -> Iterator[str]:
        return (p.asin for p in self.catalog)

    def __len__(self) -> int:
        return len(self.catalog)


@dataclass
class StepResult:
    """What one action did.

    Attributes:
        valid: whether the action was carried out (else the page is unchanged).
        message: why an action was not carried out.
        done: whether it bought something.
    """

    valid: bool
    message: str = ""
    done: bool = False


@dataclass
class Session:
    """One visit to the shop with one goal (see the module docstring).

    Attributes:
        shop: the shop.
        instruction: the goal as the user says it.
        page: ``search``, ``results``, ``item``, ``description``, ``features``, ``reviews`` or
            ``done``.
        keywords: the last search's keywords.
        page_number: the results page.
        asin: the product on the item page.
        options: the options chosen, by group.
        bought: what was bought, once done: ``(asin, options)``.
    """

    shop: Shop
    instruction: str
    page: str = "search"
    keywords: tuple[str, ...] = ()
    page_number: int = 1
    asin: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    bought: tuple[str, dict[str, str]] | None = None
    _hits: list[str] | None = field(default=None, repr=False)

    # -- state ------------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The session as plain data."""
        return {
            "page": self.page,
            "keywords": list(self.keywords),
            "page_number": self.page_number,
            "asin": self.asin,
            "options": dict(self.options),
            "bought": None if self.bought is None else [self.bought[0], dict(self.bought[1])],
        }

    def set_state(self, state: dict[str, Any]) -> None:
        """Back to a :meth:`state`."""
        self.page = state["page"]
        self.keywords = tuple(state["keywords"])
        self.page_number = state["page_number"]
        self.asin = state["asin"]
        self.options = dict(state["options"])
        bought = state["bought"]
        self.bought = None if bought is None else (bought[0], dict(bought[1]))
        self._hits = None

    # -- what is on the page --------------------------------------------------------------------
    def hits(self) -> list[str]:
        """The current search's hits."""
        if self._hits is None:
            self._hits = self.shop.search(self.keywords) if self.keywords else []
        return self._hits

    def _window(self) -> list[str]:
        start = (self.page_number - 1) * PRODUCT_WINDOW
        return self.hits()[start : start + PRODUCT_WINDOW]

    @property
    def product(self) -> Product | None:
        """The product of the item page or its sub-pages."""
        return None if self.asin is None else self.shop.by_asin.get(self.asin)

    def has_search_bar(self) -> bool:
        """Whether the page has the search bar (only the search page)."""
        return self.page == "search"

    def clickables(self) -> list[str]:
        """What ``click[...]`` takes on this page, lower case, in page order."""
        if self.page == "search":
            return ["search"]
        if self.page == "results":
            out = ["back to search"]
            if self.page_number > 1:
                out.append("< prev")
            out.append("next >")
            return out + [a.lower() for a in self._window()]
        if self.page == "item":
            product = self.product
            assert product is not None
            values = [v for vs in product.options.values() for v in vs]
            return ["back to search", "< prev", *SUB_PAGES, "buy now", *values]
        if self.page in SUB_PAGES:
            return ["back to search", "< prev"]
        return []

    def nodes(self) -> list[tuple[str, str]]:
        """The page's text nodes with their kinds (``text``, ``button``, ``option``, ``clicked``)."""
        head = [("text", "Instruction:"), ("text", self.instruction), ("button", "Back to Search")]
        if self.page == "search":
            return [
                ("text", "WebShop"),
                ("text", "Instruction:"),
                ("text", self.instruction),
                ("button", "Search"),
            ]
        if self.page == "results":
            nodes = [
                *head,
                ("text", f"Page {self.page_number} (Total results: {len(self.hits())})"),
            ]
            if self.page_number > 1:
                nodes.append(("button", "< Prev"))
            nodes.append(("button", "Next >"))
            for asin in self._window():
                hit = self.shop.by_asin[asin]
                nodes += [("button", asin), ("text", hit.title), ("text", hit.price_tag)]
            return nodes
        product = self.product
        if self.page == "item" and product is not None:
            nodes = [*head, ("button", "< Prev")]
            for name, values in product.options.items():
                nodes.append(("text", name))
                for value in values:
                    kind = "clicked" if self.options.get(name) == value else "option"
                    nodes.append((kind, value))
            rating = product.rating
            nodes += [
                ("text", product.title),
                ("text", f"Price: {product.price_tag}"),
                ("text", f"Rating: {rating}"),
                ("button", "Description"),
                ("button", "Features"),
                ("button", "Reviews"),
                ("button", "Buy Now"),
            ]
            return nodes
        if self.page in SUB_PAGES and product is not None:
            nodes = [*head, ("button", "< Prev")]
            if self.page == "description":
                nodes.append(("text", product.description))
            elif self.page == "features":
                nodes += [("text", b) for b in product.bullet_points]
            else:
                for review in product.reviews:
                    nodes += [
                        ("text", review.title),
                        ("text", f"{review.score} out of 5"),
                        ("text", review.body),
                    ]
            return [(k, t) for k, t in nodes if t]
        if self.page == "done" and self.bought is not None:
            asin, options = self.bought
            return [
                ("text", "Thank you for shopping with us!"),
                ("text", "Your code:"),
                ("text", "None"),
                ("text", "(Paste it in your MTurk interface.)"),
                ("text", "Purchased"),
                ("text", "asin"),
                ("text", asin),
                ("text", "options"),
                ("text", json.dumps(options)),
            ]
        return head

    def observation(self, rich: bool = False) -> str:
        """The page as WebShop's simple text (``[SEP]``-joined) or, with ``rich``, its rich text."""
        nodes = self.nodes()
        if not rich:
            return SEP.join(text for _, text in nodes)
        lines = []
        for kind, text in nodes:
            if kind == "button":
                lines.append(f"[button] {text} [button_]")
            elif kind == "option":
                lines.append(f"  [button] {text} [button_]")
            elif kind == "clicked":
                lines.append(f"  [clicked button] {text} [clicked button_]")
            else:
                lines.append(text)
        return "\n".join(lines)

    # -- acting -----------------------------------------------------------------------------------
    def step(self, action: str) -> StepResult:
        """Take one WebShop action (see the module docstring)."""
        if self.page == "done":
            return StepResult(False, "the purchase is done; nothing more can be done here", True)
        parsed = parse_action(action.strip())
        if parsed is None:
            return StepResult(
                False, f"an action is search[keywords] or click[text]; got {action.strip()[:60]!r}"
            )
        name, argument = parsed[0].strip(), parsed[1].lower()
        if name == "search":
            keywords = tuple(w for w in argument.split(" "))
            if not argument.strip():
                return StepResult(False, "search[...] needs keywords")
            self.page, self.keywords, self.page_number = "results", keywords, 1
            self.asin, self.options, self._hits = None, {}, None
            return StepResult(True)
        if name != "click":
            return StepResult(
                False, f"the actions are search[...] and click[...]; got {name[:40]}[...]"
            )
        clickables = self.clickables()
        if argument == "search" or argument not in clickables:
            shown = ", ".join(clickables[:12]) + (", ..." if len(clickables) > 12 else "")
            return StepResult(False, f"{argument[:60]!r} is not clickable here; clickable: {shown}")
        return self._click(argument)

    def _click(self, target: str) -> StepResult:
        if target == "back to search":
            self.page, self.keywords, self.page_number = "search", (), 1
            self.asin, self.options, self._hits = None, {}, None
        elif self.page == "results":
            if target == "next >":
                self.page_number += 1
            elif target == "< prev":
                self.page_number -= 1
            else:
                self.asin = next(a for a in self._window() if a.lower() == target)
                self.page, self.options = "item", {}
        elif self.page == "item":
            product = self.product
            assert product is not None
            if target == "< prev":
                self.page, self.asin, self.options = "results", None, {}
            elif target in SUB_PAGES:
                self.page = target
            elif target == "buy now":
                self.page = "done"
                self.bought = (product.asin, dict(self.options))
                return StepResult(True, done=True)
            else:
                for name, values in product.options.items():
                    if target in values:
                        self.options[name] = target
                        break
        elif self.page in SUB_PAGES and target == "< prev":
            self.page = "item"
        return StepResult(True)
