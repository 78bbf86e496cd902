"""The product catalog: products generated from the category grammar, or loaded from WebShop's files.

A :class:`Product` carries what WebShop's pages and reward read (title, description, bullet
points, price, options, attributes, query, breadcrumb, rating, reviews) and, for goals, the
instruction it was bought with and the attributes that instruction names. :func:`make_catalog`
draws ``n`` products from :data:`~.grammar.TYPES` with a seed; the same ``(n, seed)`` gives the
same catalog on every machine (product ``k`` depends only on ``k`` and the seed, so a larger
catalog extends a smaller one). Brand names come from Faker's company and last-name providers,
drawn once per seed.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from toolgym.families.web_shop.world.categories import ROOTS, TYPES, ProductType
from toolgym.simulators.seeding import stable_rng


@dataclass(frozen=True, slots=True)
class Review:
    """One review: its score (1 to 5) and its text."""

    score: int
    title: str
    body: str


@dataclass(frozen=True, slots=True)
class Product:
    """One product, in the fields WebShop's pages and reward use.

    Attributes:
        asin: the product id (ten characters, upper case).
        title: its name.
        description: its description.
        bullet_points: its features.
        pricing: one price, or the low and high ends of a range.
        options: option groups, name (lower case) to values (lower case).
        attributes: its attributes (what goals ask for).
        category: one of the five categories.
        query: the search query it was collected under.
        product_category: its breadcrumb (``"A › B › C"``).
        rating: its average rating, or ``"N.A."``.
        reviews: its reviews.
        nouns: the nouns of its title (for the type reward), or ``None`` to derive them.
        instruction: the instruction goals are made from, or ``None``.
        instruction_attributes: the attributes that instruction names.
    """

    asin: str
    title: str
    description: str
    bullet_points: tuple[str, ...]
    pricing: tuple[float, ...]
    options: Mapping[str, tuple[str, ...]]
    attributes: tuple[str, ...]
    category: str
    query: str
    product_category: str
    rating: float | str = "N.A."
    reviews: tuple[Review, ...] = ()
    nouns: tuple[str, ...] | None = None
    instruction: str | None = None
    instruction_attributes: tuple[str, ...] = ()

    @property
    def price_tag(self) -> str:
        """``$19.99`` or ``$19.99 to $24.99``."""
        return " to ".join(f"${p:.2f}" for p in self.pricing)

    def search_text(self) -> str:
        """The indexed text: title, description, first bullet point and the options, lower case."""
        groups = [f"{name}: {', '.join(values)}" for name, values in self.options.items()]
        first = self.bullet_points[0] if self.bullet_points else ""
        return " ".join([self.title, self.description, first, ", and ".join(groups)]).lower()

    def price_for(self, seed: int) -> float:
        """The price paid for it: its price, or one drawn from its range with ``seed``."""
        if len(self.pricing) == 1:
            return self.pricing[0]
        low, high = self.pricing[0], self.pricing[-1]
        value = float(stable_rng("web_shop", "price", self.asin, seed).uniform(low, high))
        return round(value, 2)


# -- generation ----------------------------------------------------------------------------------

_AUDIENCE = {"fashion": ("for Men", "for Women", "Unisex", ""), "beauty": ("for Women", "", "")}
_OPENERS = (
    "i need {a} {desc}",
    "i am looking for {a} {desc}",
    "i want {a} {desc}",
    "find me {a} {desc}",
    "i'm looking for {a} {desc}",
    "can you find {a} {desc}",
    "i would like {a} {desc}",
    "show me {a} {desc}",
)
_REVIEW_GOOD = (
    "Exactly as described",
    "Great value",
    "Works perfectly",
    "Love it",
    "Would buy again",
    "Good quality",
)
_REVIEW_BAD = ("Not as pictured", "Stopped working", "Too small", "Disappointed")


@functools.lru_cache(maxsize=8)
def _brands(seed: int) -> tuple[str, ...]:
    from faker import Faker

    fake = Faker("en_US")
    fake.seed_instance(seed)
    names: set[str] = set()
    while len(names) < 400:
        word = fake.last_name() if len(names) % 2 else fake.company().split()[0].strip(",")
        names.add(word.replace("-", ""))
    return tuple(sorted(names))


def _asin(seed: int, k: int) -> str:
    digest = hashlib.blake2b(f"{seed}:{k}".encode(), digest_size=8).hexdigest().upper()
    return "B0" + digest[:8]


def _pick(rng: np.random.Generator, items: Sequence[Any], n: int) -> list[Any]:
    n = min(n, len(items))
    return [items[int(i)] for i in sorted(rng.choice(len(items), n, replace=False))]


def make_product(k: int, seed: int = 0) -> Product:
    """Product ``k`` of the catalog of ``seed``."""
    rng = stable_rng("web_shop", "product", seed, k)
    kind: ProductType = TYPES[int(rng.integers(len(TYPES)))]
    brands = _brands(seed)
    brand = brands[int(rng.integers(len(brands)))]
    attributes = _pick(rng, kind.attributes, int(rng.integers(3, 6)))
    options: dict[str, tuple[str, ...]] = {}
    for name, values in sorted(kind.options.items()):
        if rng.random() < 0.85 or not options:
            options[name] = tuple(_pick(rng, values, int(rng.integers(2, min(6, len(values)) + 1))))
    adjective = kind.adjectives[int(rng.integers(len(kind.adjectives)))]
    audience = _AUDIENCE.get(kind.category, ("",))
    who = audience[int(rng.integers(len(audience)))]
    headline = " ".join(w for w in (brand, adjective.title(), _title_case(kind.name), who) if w)
    title = f"{headline}, {_title_case(attributes[0])}, {_title_case(attributes[1])}"
    low, high = kind.price
    price = round(float(rng.uniform(low, high)), 2)
    pricing: tuple[float, ...] = (price,)
    if rng.random() < 0.3:
        pricing = (price, round(price * float(rng.uniform(1.1, 1.6)), 2))
    description = (
        f"This {adjective} {kind.name} from {brand} is {attributes[0]} and {attributes[1]}. "
        f"Made for everyday use, it is {attributes[-1]} and backed by {brand}'s "
        f"{int(rng.integers(1, 4))}-year guarantee."
    )
    bullets = tuple(
        f"{_title_case(a)}: {_BENEFITS[int(rng.integers(len(_BENEFITS)))].format(kind.name)}"
        for a in attributes
    )
    query = kind.queries[int(rng.integers(len(kind.queries)))]
    breadcrumb = f"{ROOTS[kind.category]} › {kind.breadcrumb}"
    n_reviews = int(rng.integers(0, 4))
    reviews = tuple(_review(rng) for _ in range(n_reviews))
    rating: float | str = round(sum(r.score for r in reviews) / n_reviews, 1) if reviews else "N.A."
    asked = _pick(rng, attributes, int(rng.integers(1, 3)))
    opener = _OPENERS[int(rng.integers(len(_OPENERS)))]
    a = "a pair of" if kind.name.endswith("s") and kind.category == "fashion" else "some"
    if not kind.name.endswith("s"):
        a = "an" if kind.name[0] in "aeiou" else "a"
    verb = "are" if kind.name.endswith("s") and not kind.name.endswith("ss") else "is"
    desc = f"{kind.name} that {verb} {' and '.join(asked)}"
    instruction = opener.format(a=a, desc=desc)
    nouns = tuple(dict.fromkeys([brand.lower(), *kind.nouns]))
    return Product(
        _asin(seed, k),
        title,
        description,
        bullets,
        pricing,
        options,
        tuple(attributes),
        kind.category,
        query,
        breadcrumb,
        rating,
        reviews,
        nouns,
        instruction,
        tuple(asked),
    )


_BENEFITS = (
    "a {} you can count on every day",
    "the detail that sets this {} apart",
    "tested to keep this {} performing",
    "what customers mention most about this {}",
    "designed with care for comfort and ease",
)


def _review(rng: np.random.Generator) -> Review:
    score = int(rng.choice([5, 5, 4, 4, 3, 2, 1]))
    pool = _REVIEW_GOOD if score >= 4 else _REVIEW_BAD
    title = pool[int(rng.integers(len(pool)))]
    body = f"{title}. {'Recommended.' if score >= 4 else 'Returned it.'}"
    return Review(score, title, body)


def _title_case(text: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in text.split())


class GeneratedCatalog(Sequence[Product]):
    """The catalog of ``(n, seed)``, each product made when first asked for.

    A shop over 100,000 products only makes the ones its pages show, so it opens in well under a
    second once its search index is cached. Products are kept once made.
    """

    def __init__(self, n: int, seed: int = 0) -> None:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"a catalog has at least one product; got n={n!r}")
        self.n = n
        self.seed = seed
        self._made: dict[int, Product] = {}
        self._positions: dict[str, int] | None = None

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(self.n))]
        k = int(index)
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError(f"product {index} of a catalog of {self.n}")
        product = self._made.get(k)
        if product is None:
            product = self._made[k] = make_product(k, self.seed)
        return product

    def position(self, asin: str) -> int | None:
        """The position of the product ``asin``, or ``None``."""
        if self._positions is None:
            self._positions = {_asin(self.seed, k): k for k in range(self.n)}
        return self._positions.get(asin)

    def get(self, asin: str) -> Product | None:
        """The product ``asin``, or ``None``."""
        k = self.position(asin)
        return None if k is None else self[k]

    def __reduce__(self) -> Any:
        return (GeneratedCatalog, (self.n, self.seed))


def make_catalog(n: int = 1000, seed: int = 0) -> list[Product]:
    """``n`` products of the catalog of ``seed`` (a larger ``n`` extends a smaller one)."""
    return GeneratedCatalog(n, seed)[:]


def catalog_key(products: Sequence[Product]) -> str:
    """A digest of a catalog's searchable content (names the index cache)."""
    digest = hashlib.blake2b(digest_size=12)
    for p in products:
        digest.update(p.asin.encode())
        digest.update(p.search_text().encode())
    return digest.hexdigest()


# -- the original files ----------------------------------------------------------------------------


@dataclass
class Loaded:
    """Products read from WebShop's files, and what had to be repaired or skipped."""

    products: list[Product] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)


def _prices(text: Any) -> tuple[float, ...]:
    if not text:
        return (100.0,)
    values = []
    for part in str(text).split("$")[1:]:
        digits = "".join(c for c in part if c.isdigit() or c == ".").strip(".")
        try:
            values.append(float(digits))
        except ValueError:
            continue
    return tuple(values[:2]) or (100.0,)


def load_products(
    items: Sequence[Mapping[str, Any]], attributes: Mapping[str, Mapping[str, Any]] | None = None
) -> Loaded:
    """Products from WebShop's raw records (``items_shuffle*.json``).

    ``attributes`` is its attribute and instruction file (``items_ins_v2*.json``), if given.

    Records without an ASIN, with a ``nan`` ASIN or a repeated one are skipped and reported.
    """
    out = Loaded()
    seen: set[str] = set()
    attributes = attributes or {}
    for k, raw in enumerate(items):
        asin = str(raw.get("asin", "")).strip()
        if not asin or asin.lower() == "nan" or len(asin) > 10:
            out.repairs.append(f"record {k}: skipped, no usable asin ({asin[:20]!r})")
            continue
        if asin in seen:
            out.repairs.append(f"record {k}: skipped, asin {asin} seen before")
            continue
        seen.add(asin)
        bullets = raw.get("small_description") or []
        if isinstance(bullets, str):
            bullets = [bullets]
        options: dict[str, tuple[str, ...]] = {}
        for name, values in (raw.get("customization_options") or {}).items():
            options[name.lower()] = tuple(
                str(v.get("value", "")).strip().replace("/", " | ").lower()
                for v in values or ()
                if isinstance(v, Mapping)
            )
        extra = attributes.get(asin, {})
        out.products.append(
            Product(
                asin=asin,
                title=str(raw.get("name") or ""),
                description=str(raw.get("full_description") or ""),
                bullet_points=tuple(str(b) for b in bullets),
                pricing=_prices(raw.get("pricing")),
                options=options,
                attributes=tuple(extra.get("attributes") or ["DUMMY_ATTR"]),
                category=str(raw.get("category") or ""),
                query=str(raw.get("query") or "").lower().strip(),
                product_category=str(raw.get("product_category") or ""),
                instruction=extra.get("instruction"),
                instruction_attributes=tuple(extra.get("instruction_attributes") or ()),
            )
        )
    return out


def iter_json(path: str) -> Iterator[Any]:
    """The records of a JSON list file."""
    with open(path, encoding="utf-8") as handle:
        yield from json.load(handle)


def load_human_goals(path: str) -> list[str]:
    """The instructions of WebShop's human goal file (a JSON list of strings), stripped.

    Raises:
        ValueError: the file is not a JSON list of strings.
    """
    goals = list(iter_json(path))
    if not all(isinstance(g, str) for g in goals):
        raise ValueError(f"{path} must hold a JSON list of instruction strings")
    return [g.strip() for g in goals]
