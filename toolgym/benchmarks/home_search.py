"""Home Search tasks: user goals phrased like real people, gold programs built from real listings.

Every task starts from one listing of the listing database (:func:`get_listing_database`, seed 0,
the database :class:`~toolgym.tools.home_search.HomeSearchToolkit` searches by default): the
generator picks buy or rent, a set of optional setters, a city and a listing of that city that can
satisfy them, then derives round, human criteria the listing meets (a maximum price rounded up to a
nice figure, a minimum rounded down, a commute rounded up to a multiple of five minutes, ...). The
gold program therefore always finds at least that listing.

The goal is written by one of about thirty sentence templates (statements, questions, requests,
lists, several sentences) that mention every criterion once, in some order, and nothing else; the
gold program sets the criteria in the order the goal mentions them, after ``set_location`` and
``set_buy_or_rent`` and before ``search``, exactly like the original benchmark::

    API.set_location("Austin")
    API.set_buy_or_rent("buy")
    API.set_num_beds(3)
    API.select_home_type(["House"])
    API.set_max_price(450000)
    API.search()

Splits:

* ``test`` (100 tasks): 53 to buy, 47 to rent, and each optional setter used by exactly as many
  tasks as in the original test set (``num_beds`` 83, ``max_price`` 63, ...).
* ``demo`` (10 tasks): the few-shot demonstrations. Like the original, they never use
  ``set_num_swimming_pools``, ``set_floor_number`` or ``set_max_commute_time``, and no test task
  calls exactly the same set of functions as a demonstration.
* train: an unlimited stream (:func:`train_pairs`, :func:`train_task`) that samples setters with the
  test frequencies and never repeats a test or demo goal.

Everything is drawn from NumPy generators seeded with :func:`stable_seed`, so the splits are the
same on every machine.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgym.benchmarks.phrasing import count, join, money, number, ordinal, pick
from toolgym.benchmarks.suite import first_unseen, sample_train, train_stream
from toolgym.benchmarks.tasks import Task
from toolgym.simulators.listings import (
    BUY_HOME_TYPES,
    RENT_HOME_TYPES,
    Listing,
    get_listing_database,
)
from toolgym.simulators.seeding import stable_seed

FAMILY = "home_search"
VERSION = 0
SPLITS: dict[str, int] = {"test": 100, "demo": 10}

SETTER_FREQUENCIES: dict[str, int] = {
    "set_num_beds": 83,
    "set_max_price": 63,
    "select_home_type": 59,
    "set_num_baths": 42,
    "set_min_price": 35,
    "set_min_square_feet": 29,
    "set_num_garages": 28,
    "set_num_balconies": 14,
    "set_max_square_feet": 13,
    "set_num_swimming_pools": 12,
    "set_floor_number": 12,
    "set_max_commute_time": 11,
}
"""Percent of the original test tasks whose gold program calls each optional setter."""

OPTIONAL_SETTERS: tuple[str, ...] = tuple(SETTER_FREQUENCIES)
"""The API functions a goal may or may not use (all but location, buy/rent and search)."""

DEMO_EXCLUDED_SETTERS: frozenset[str] = frozenset(
    {"set_num_swimming_pools", "set_floor_number", "set_max_commute_time"}
)
"""Setters that no demonstration uses (as in the original), so tests on them need the API docs."""

BUY_SHARE = 0.53
"""Share of tasks that buy rather than rent (53 of the original 100 test tasks)."""

MAX_SETTERS = 6
"""Most optional setters in one task."""

_TEST_BUY = 53

# Criteria groups: what one phrase of the goal talks about, and the setters it decides.
_GROUPS: dict[str, tuple[str, ...]] = {
    "type": ("select_home_type",),
    "beds": ("set_num_beds",),
    "baths": ("set_num_baths",),
    "price": ("set_min_price", "set_max_price"),
    "sqft": ("set_min_square_feet", "set_max_square_feet"),
    "garages": ("set_num_garages",),
    "pools": ("set_num_swimming_pools",),
    "balconies": ("set_num_balconies",),
    "floor": ("set_floor_number",),
    "commute": ("set_max_commute_time",),
}
# Groups a home "has" (rendered after "with" / "have" as a noun phrase).
_HAVE_GROUPS = ("beds", "baths", "garages", "pools", "balconies")
# Groups that can also follow the home directly ("... under $450k", "... on the 3rd floor").
_POST_GROUPS = ("price", "sqft", "commute")
# Setters that only make sense for a building (never for a plot of land).
_BUILDING = frozenset(
    {
        "set_num_beds",
        "set_num_baths",
        "set_num_garages",
        "set_num_swimming_pools",
        "set_num_balconies",
        "set_floor_number",
    }
)
_MULTI_STOREY = frozenset({"Condo", "Apartment", "Co-op"})

# (singular, plural) ways to name each home type; the first is the plainest.
_TYPE_NOUNS: dict[str, tuple[tuple[str, str], ...]] = {
    "House": (("house", "houses"), ("single-family home", "single-family homes")),
    "Townhouse": (("townhouse", "townhouses"), ("townhome", "townhomes")),
    "Condo": (("condo", "condos"), ("condominium", "condominiums")),
    "Land": (("plot of land", "plots of land"), ("vacant lot", "vacant lots")),
    "Multi-family": (
        ("multi-family home", "multi-family homes"),
        ("multi-family property", "multi-family properties"),
    ),
    "Mobile": (("mobile home", "mobile homes"),),
    "Co-op": (("co-op", "co-ops"),),
    "Apartment": (("apartment", "apartments"),),
}
_GENERIC = {
    "buy": (("home", "homes"), ("property", "properties"), ("place", "places")),
    "rent": (("place", "places"), ("home", "homes")),
}


# --------------------------------------------------------------------------------------------------
# Criteria from a listing


@dataclass(frozen=True)
class _Spec:
    """What a task asks for: the city, buy or rent, and the value of each setter it uses."""

    city: str
    mode: str
    values: dict[str, Any]
    listing_id: str


def _fits(listing: Listing, setters: frozenset[str], multi: bool) -> bool:
    """Whether ``listing`` can satisfy criteria on ``setters`` (``multi``: need a high floor)."""
    if setters & _BUILDING and listing.home_type == "Land":
        return False
    for name, attr in (
        ("set_num_garages", "garages"),
        ("set_num_swimming_pools", "swimming_pools"),
        ("set_num_balconies", "balconies"),
    ):
        if name in setters and getattr(listing, attr) < 1:
            return False
    if "set_floor_number" in setters:
        if multi:
            return listing.home_type in _MULTI_STOREY and listing.floor > 1
        return listing.floor == 1
    return True


def _choose_listing(rng: np.random.Generator, mode: str, setters: frozenset[str]) -> Listing:
    """A listing (of a random city) that can satisfy criteria on ``setters``."""
    db = get_listing_database()
    cities = [c.name for c in db.cities]
    multi = "set_floor_number" in setters and rng.random() < 0.75
    for attempt in range(400):
        city = pick(rng, cities)
        need_multi = multi and attempt < 200
        candidates = [x for x in db.group(city, mode) if _fits(x, setters, need_multi)]
        if candidates:
            return pick(rng, candidates)
    raise RuntimeError(f"no {mode} listing can satisfy {sorted(setters)}")  # pragma: no cover


def _at_most(rng: np.random.Generator, value: int) -> int:
    """A minimum the listing meets: usually its own count, sometimes one less (at least 1)."""
    if value <= 1 or rng.random() < 0.72:
        return value
    return value - 1


def _price_step(rng: np.random.Generator, amount: int, mode: str) -> int:
    if mode == "rent":
        return pick(rng, (50, 100) if amount < 3000 else (100, 250, 500))
    if amount < 300_000:
        return pick(rng, (5_000, 10_000, 25_000))
    if amount < 1_000_000:
        return pick(rng, (10_000, 25_000, 50_000))
    return pick(rng, (50_000, 100_000))


def _round_down(value: float, step: int, limit: int) -> int:
    """``value`` rounded down to a multiple of ``step``, positive and at most ``limit``."""
    low = math.floor(value / step) * step
    if low <= 0:
        low = step if step <= limit else max(1, (limit // 10) * 10)
    return min(low, limit)


def _home_types(rng: np.random.Generator, listing: Listing, values: dict[str, Any]) -> list[str]:
    """The listing's type plus up to two others, in the order the goal will name them."""
    allowed = BUY_HOME_TYPES if listing.buy_or_rent == "buy" else RENT_HOME_TYPES
    building = any(name in values for name in _BUILDING)
    high_floor = values.get("set_floor_number", 1) > 1
    extras = [
        t
        for t in allowed
        if t != listing.home_type
        and not (building and t == "Land")
        and not (high_floor and t not in _MULTI_STOREY)
    ]
    k = min(len(extras), int(rng.choice(3, p=[0.45, 0.4, 0.15])))
    chosen = [listing.home_type] + [str(t) for t in rng.choice(extras, size=k, replace=False)]
    return [chosen[i] for i in rng.permutation(len(chosen))]


def _derive_values(
    rng: np.random.Generator, listing: Listing, setters: frozenset[str]
) -> dict[str, Any]:
    """Setter values that ``listing`` satisfies, rounded the way people write them."""
    mode = listing.buy_or_rent
    values: dict[str, Any] = {}
    if "set_num_beds" in setters:
        values["set_num_beds"] = _at_most(rng, listing.beds)
    if "set_num_baths" in setters:
        halves = round(listing.baths * 2)
        if halves > 2 and rng.random() >= 0.7:
            halves = int(rng.integers(2, halves))
        values["set_num_baths"] = halves // 2 if halves % 2 == 0 else halves / 2
    if "set_num_garages" in setters:
        values["set_num_garages"] = _at_most(rng, listing.garages)
    if "set_num_swimming_pools" in setters:
        values["set_num_swimming_pools"] = _at_most(rng, listing.swimming_pools)
    if "set_num_balconies" in setters:
        values["set_num_balconies"] = _at_most(rng, listing.balconies)
    if "set_floor_number" in setters:
        values["set_floor_number"] = int(listing.floor)
    if "set_max_commute_time" in setters:
        slack = int(rng.integers(0, 16))
        values["set_max_commute_time"] = int(math.ceil((listing.commute_minutes + slack) / 5) * 5)
    if setters & {"set_min_price", "set_max_price"}:
        step = _price_step(rng, listing.price, mode)
        if "set_min_price" in setters:
            low = listing.price * (1 - rng.uniform(0.0, 0.3))
            values["set_min_price"] = _round_down(low, step, listing.price)
        if "set_max_price" in setters:
            high = listing.price * (1 + rng.uniform(0.0, 0.3))
            values["set_max_price"] = int(math.ceil(high / step) * step)
    if setters & {"set_min_square_feet", "set_max_square_feet"}:
        size = listing.square_feet
        step = pick(rng, (50, 100)) if size < 5000 else pick(rng, (500, 1000))
        if "set_min_square_feet" in setters:
            low = size * (1 - rng.uniform(0.0, 0.25))
            values["set_min_square_feet"] = _round_down(low, step, size)
        if "set_max_square_feet" in setters:
            high = size * (1 + rng.uniform(0.0, 0.25))
            values["set_max_square_feet"] = int(math.ceil(high / step) * step)
    if "select_home_type" in setters:
        values["select_home_type"] = _home_types(rng, listing, values)
    return values


# --------------------------------------------------------------------------------------------------
# Phrasing


def _article(phrase: str) -> str:
    """``a`` or ``an`` for the phrase (``an 8-bedroom``, ``a one-bedroom``, ``an apartment``)."""
    word = phrase.split()[0].lower()
    digits = ""
    for ch in word:
        if not ch.isdigit():
            break
        digits += ch
    if digits:
        return "an" if digits.startswith("8") or digits in ("11", "18") else "a"
    vowel = word[0] in "aeiou" and not word.startswith(("one", "uni", "use", "eu"))
    return "an" if vowel else "a"


_WORDS = ("zero", "one", "two", "three", "four")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _plural(n: float, singular: str, plural: str) -> str:
    return singular if n == 1 else plural


class _Writer:
    """Renders the criteria of a spec into phrases, recording the order they are mentioned.

    Each criteria group is mentioned exactly once: rendering it removes it from ``pending`` and
    appends its setters to ``order`` (the order of the gold program).
    """

    def __init__(self, rng: np.random.Generator, spec: _Spec) -> None:
        self.rng = rng
        self.spec = spec
        self.city = spec.city
        self.mode = spec.mode
        present = [g for g, names in _GROUPS.items() if any(n in spec.values for n in names)]
        self.pending: list[str] = [present[int(i)] for i in rng.permutation(len(present))]
        self.order: list[str] = []

    # -- bookkeeping ------------------------------------------------------------------------------

    def has(self, group: str) -> bool:
        return group in self.pending

    def _take(self, group: str) -> None:
        self.pending.remove(group)
        self.order.extend(n for n in _GROUPS[group] if n in self.spec.values)

    def _value(self, name: str) -> Any:
        return self.spec.values.get(name)

    # -- buy / rent words -------------------------------------------------------------------------

    def for_mode(self) -> str:
        """``for sale`` / ``to rent`` ... (after a noun)."""
        if self.mode == "buy":
            return pick(self.rng, ("for sale", "to buy", "to purchase"))
        return pick(self.rng, ("for rent", "to rent", "to lease"))

    def verb(self) -> str:
        """``buy`` / ``rent`` (after ``to``)."""
        if self.mode == "buy":
            return pick(self.rng, ("buy", "buy", "purchase"))
        return pick(self.rng, ("rent", "rent", "lease"))

    def gerund(self) -> str:
        return "buying" if self.mode == "buy" else "renting"

    # -- the home ---------------------------------------------------------------------------------

    def _type_names(self, plural: bool) -> list[str]:
        return [
            pick(self.rng, _TYPE_NOUNS[t])[int(plural)] for t in self._value("select_home_type")
        ]

    def _types_bare(self, plural: bool = False) -> str:
        """``townhouse or condo`` / ``townhouses or condos`` (no article)."""
        return join(self._type_names(plural), "or")

    def _types_a(self) -> str:
        """``a townhouse or condo`` / ``a townhouse or a condo``."""
        names = self._type_names(False)
        if len(names) > 1 and self.rng.random() < 0.5:
            return join([f"{_article(n)} {n}" for n in names], "or")
        text = join(names, "or")
        return f"{_article(text)} {text}"

    def _generic(self, plural: bool) -> str:
        return pick(self.rng, _GENERIC[self.mode])[int(plural)]

    def noun(self, *, plural: bool = False, premods: bool = True, types: bool | None = None) -> str:
        """The home as a noun phrase: ``a 3-bedroom townhouse or condo``, ``apartments``, ``a home``.

        Args:
            plural: plural, without an article.
            premods: allow beds, baths or floor before the noun (``3-bed, 2-bath``, ``third-floor``).
            types: name the home types as the noun (None: usually, when the goal has them).
        """
        rng = self.rng
        mods: list[str] = []
        if premods:
            use_beds = self.has("beds") and rng.random() < 0.55
            use_baths = self.has("baths") and rng.random() < (0.6 if use_beds else 0.15)
            if self.has("floor") and not (use_beds or use_baths) and rng.random() < 0.4:
                mods.append(self._floor_premod())
            if use_beds:
                mods.append(self._beds_premod())
            if use_baths:
                mods.append(self._baths_premod())
        if types is None:
            types = rng.random() < 0.85
        if types and self.has("type"):
            self._take("type")
            if not plural and not mods:
                return self._types_a()
            head = self._types_bare(plural)
        else:
            head = self._generic(plural)
        sep = ", " if len(mods) == 2 and rng.random() < 0.5 else " "
        phrase = " ".join(x for x in (sep.join(mods), head) if x)
        return phrase if plural else f"{_article(phrase)} {phrase}"

    # -- beds -------------------------------------------------------------------------------------

    def _beds_premod(self) -> str:
        self._take("beds")
        n = self._value("set_num_beds")
        return f"{count(self.rng, n)}-{pick(self.rng, ('bedroom', 'bed', 'bedroom'))}"

    def _beds_np(self) -> str:
        n = self._value("set_num_beds")
        c = count(self.rng, n)
        one, many = pick(self.rng, (("bedroom", "bedrooms"), ("bed", "beds")))
        word = _plural(n, one, many)
        forms = [f"{c} {word}", f"at least {c} {word}", f"a minimum of {c} {word}"]
        if n > 1:
            forms.append(f"{n}+ {many}")
        return pick(self.rng, forms)

    # -- baths ------------------------------------------------------------------------------------

    def _baths_text(self, *, premod: bool = False) -> str:
        b = self._value("set_num_baths")
        if isinstance(b, int):
            return count(self.rng, b)
        whole = int(b)
        if not premod and 1 <= whole <= 4 and self.rng.random() < 0.3:
            return f"{_WORDS[whole]} and a half"
        return f"{b:g}"

    def _baths_premod(self) -> str:
        self._take("baths")
        return f"{self._baths_text(premod=True)}-{pick(self.rng, ('bath', 'bathroom'))}"

    def _baths_np(self) -> str:
        b = self._value("set_num_baths")
        text = self._baths_text()
        one, many = pick(self.rng, (("bathroom", "bathrooms"), ("bath", "baths")))
        word = _plural(b, one, many) if "half" not in text else many
        return pick(self.rng, (f"{text} {word}", f"at least {text} {word}"))

    # -- garages, pools, balconies ----------------------------------------------------------------

    def _feature_np(self, name: str, ones: tuple[str, ...], many: str) -> str:
        n = self._value(name)
        if n == 1:
            return pick(self.rng, ones)
        c = count(self.rng, n)
        return pick(self.rng, (f"{c} {many}", f"at least {c} {many}"))

    def _garages_np(self) -> str:
        ones = ("a garage", "a garage", "one garage", "1 garage", "at least one garage")
        return self._feature_np("set_num_garages", ones, "garages")

    def _pools_np(self) -> str:
        ones = ("a pool", "a swimming pool", "one swimming pool", "at least one pool")
        n = self._value("set_num_swimming_pools")
        if n == 1:
            return pick(self.rng, ones)
        c = count(self.rng, n)
        word = pick(self.rng, ("pools", "swimming pools"))
        return pick(self.rng, (f"{c} {word}", f"at least {c} {word}"))

    def _balconies_np(self) -> str:
        ones = ("a balcony", "a balcony", "one balcony", "at least one balcony")
        return self._feature_np("set_num_balconies", ones, "balconies")

    # -- square feet ------------------------------------------------------------------------------

    def _sqft_parts(self) -> tuple[str | None, str | None, str]:
        lo, hi = self._value("set_min_square_feet"), self._value("set_max_square_feet")
        unit = pick(self.rng, ("square feet", "square feet", "sq ft", "sq. ft.", "sqft"))
        lo_text = number(self.rng, lo) if lo is not None else None
        hi_text = number(self.rng, hi) if hi is not None else None
        return lo_text, hi_text, unit

    def _sqft_np(self) -> str:
        lo, hi, u = self._sqft_parts()
        if lo and hi:
            forms = (f"between {lo} and {hi} {u}", f"{lo} to {hi} {u}", f"{lo}-{hi} {u}")
        elif lo:
            forms = (
                f"at least {lo} {u}",
                f"{lo}+ {u}",
                f"a minimum of {lo} {u}",
                f"{lo} {u} or more",
            )
        else:
            forms = (f"no more than {hi} {u}", f"at most {hi} {u}", f"{hi} {u} or less")
        return pick(self.rng, forms)

    def _sqft_post(self) -> str:
        lo, hi, u = self._sqft_parts()
        if lo and hi:
            forms = (f"of {lo} to {hi} {u}", f"between {lo} and {hi} {u} in size")
        elif lo:
            forms = (
                f"of at least {lo} {u}",
                f"that's at least {lo} {u}",
                f"no smaller than {lo} {u}",
            )
        else:
            forms = (f"no bigger than {hi} {u}", f"of at most {hi} {u}", f"no larger than {hi} {u}")
        return pick(self.rng, forms)

    def _sqft_pred(self) -> str:
        lo, hi, u = self._sqft_parts()
        if lo and hi:
            forms = (f"be between {lo} and {hi} {u}", f"measure {lo} to {hi} {u}")
        elif lo:
            forms = (f"be at least {lo} {u}", f"have at least {lo} {u}")
        else:
            forms = (f"be no larger than {hi} {u}", f"be at most {hi} {u}")
        return pick(self.rng, forms)

    def _sqft_sent(self) -> str:
        lo, hi, u = self._sqft_parts()
        if lo and hi:
            forms = (
                f"It should be between {lo} and {hi} {u}.",
                f"Size-wise, I'm looking at {lo} to {hi} {u}.",
            )
        elif lo:
            forms = (f"It should be at least {lo} {u}.", f"I need at least {lo} {u} of space.")
        else:
            forms = (f"It shouldn't be larger than {hi} {u}.", f"Nothing over {hi} {u}, please.")
        return pick(self.rng, forms)

    # -- price ------------------------------------------------------------------------------------

    def _price_parts(self) -> tuple[str | None, str | None, str]:
        lo, hi = self._value("set_min_price"), self._value("set_max_price")
        # The same sub-generator writes both ends, so a range reads "$300k to $450k".
        seed = int(self.rng.integers(2**32))
        lo_text = money(np.random.default_rng(seed), lo) if lo is not None else None
        hi_text = money(np.random.default_rng(seed), hi) if hi is not None else None
        suffix = ""
        if self.mode == "rent":
            suffix = pick(self.rng, (" a month", " per month", "/month", "/mo", " monthly"))
        return lo_text, hi_text, suffix

    def _price_np(self) -> str:
        a, b, s = self._price_parts()
        rent = self.mode == "rent"
        if a and b:
            forms = [f"a price between {a} and {b}{s}", f"a price range of {a} to {b}{s}"]
            if rent:
                forms.append(f"rent between {a} and {b}{s}")
        elif b:
            if rent:
                forms = [f"rent under {b}{s}", f"rent of at most {b}{s}", f"a max rent of {b}{s}"]
            else:
                forms = [f"a price under {b}", f"a price of at most {b}", f"a maximum price of {b}"]
        elif rent:
            forms = [f"rent of at least {a}{s}", f"a minimum rent of {a}{s}"]
        else:
            forms = [f"a price of at least {a}", f"a minimum price of {a}"]
        return pick(self.rng, forms)

    def _price_post(self) -> str:
        a, b, s = self._price_parts()
        if a and b:
            forms = [
                f"between {a} and {b}{s}",
                f"priced between {a} and {b}{s}",
                f"for {a} to {b}{s}",
            ]
            if self.mode == "buy":
                forms.append(f"in the {a} to {b} range")
        elif b:
            forms = [
                f"under {b}{s}",
                f"for under {b}{s}",
                f"for no more than {b}{s}",
                f"for {b}{s} or less",
                f"priced at or below {b}{s}",
            ]
        else:
            forms = [f"priced at {a}{s} or more", f"for at least {a}{s}", f"priced from {a}{s} up"]
        return pick(self.rng, forms)

    def _price_pred(self) -> str:
        a, b, s = self._price_parts()
        if a and b:
            forms = [f"cost between {a} and {b}{s}", f"be priced between {a} and {b}{s}"]
        elif b:
            forms = [
                f"cost no more than {b}{s}",
                f"cost under {b}{s}",
                f"be priced at {b}{s} or less",
            ]
            if self.mode == "rent":
                forms.append(f"rent for under {b}{s}")
        else:
            forms = [f"cost at least {a}{s}", f"be priced at {a}{s} or more"]
        return pick(self.rng, forms)

    def _price_sent(self) -> str:
        a, b, s = self._price_parts()
        if a and b:
            forms = [
                f"My budget is between {a} and {b}{s}.",
                f"I'd like to spend between {a} and {b}{s}.",
                f"The price should be {a} to {b}{s}.",
            ]
        elif b:
            forms = [
                f"My budget is {b}{s}.",
                f"I can't spend more than {b}{s}.",
                f"I don't want to pay more than {b}{s}.",
                f"Keep it under {b}{s}.",
                f"The most I can pay is {b}{s}.",
            ]
        else:
            forms = [
                f"Nothing under {a}{s}, please.",
                f"The price should be at least {a}{s}.",
                f"I'm looking at places priced {a}{s} and up.",
            ]
        return pick(self.rng, forms)

    def _price_item(self) -> str:
        a, b, s = self._price_parts()
        if a and b:
            forms = [f"{a} to {b}{s}", f"between {a} and {b}{s}", f"price range {a}-{b}{s}"]
        elif b:
            forms = [f"max {b}{s}", f"under {b}{s}", f"budget up to {b}{s}", f"no more than {b}{s}"]
        else:
            forms = [f"at least {a}{s}", f"min price {a}{s}", f"priced {a}{s} or more"]
        return pick(self.rng, forms)

    def budget(self) -> str:
        """The price as a budget (``$450k``, ``between $1,500 and $2,000 a month``)."""
        self._take("price")
        a, b, s = self._price_parts()
        if a and b:
            forms = [f"{a} to {b}{s}", f"between {a} and {b}{s}"]
        else:
            forms = [f"{b}{s}", f"up to {b}{s}", f"{b}{s} max", f"at most {b}{s}"]
        return pick(self.rng, forms)

    # -- floor ------------------------------------------------------------------------------------

    def _floor_premod(self) -> str:
        self._take("floor")
        return f"{ordinal(self.rng, self._value('set_floor_number'))}-floor"

    def _floor_post(self) -> str:
        f = self._value("set_floor_number")
        return pick(self.rng, (f"on the {ordinal(self.rng, f)} floor", f"on floor {f}"))

    def _floor_pred(self) -> str:
        return f"be {self._floor_post()}"

    def _floor_sent(self) -> str:
        f = self._value("set_floor_number")
        o = ordinal(self.rng, f)
        forms = (
            f"I want to live on the {o} floor.",
            f"It has to be on floor {f}.",
            f"It should be on the {o} floor.",
            f"{_cap(o)} floor only, please.",
        )
        return pick(self.rng, forms)

    def _floor_item(self) -> str:
        f = self._value("set_floor_number")
        o = ordinal(self.rng, f)
        return pick(self.rng, (f"{o} floor", f"floor {f}", f"on the {o} floor"))

    # -- commute ----------------------------------------------------------------------------------

    def _minutes(self) -> str:
        return count(self.rng, self._value("set_max_commute_time"))

    def _commute_np(self) -> str:
        m = self._minutes()
        forms = (
            f"a commute under {m} minutes",
            f"a commute of at most {m} minutes",
            f"a commute time of {m} minutes or less",
            f"a maximum commute of {m} minutes",
        )
        return pick(self.rng, forms)

    def _commute_post(self) -> str:
        m = self._minutes()
        forms = (
            f"within a {m}-minute commute",
            f"with a commute under {m} minutes",
            f"no more than {m} minutes from work",
        )
        return pick(self.rng, forms)

    def _commute_pred(self) -> str:
        m = self._minutes()
        forms = (
            f"be within a {m}-minute commute",
            f"keep my commute under {m} minutes",
            f"be at most {m} minutes from work",
        )
        return pick(self.rng, forms)

    def _commute_sent(self) -> str:
        m = self._minutes()
        forms = (
            f"I don't want to commute more than {m} minutes.",
            f"My commute should be {m} minutes or less.",
            f"The commute can't be longer than {m} minutes.",
            f"Commute time must be under {m} minutes.",
        )
        return pick(self.rng, forms)

    def _commute_item(self) -> str:
        m = self._minutes()
        forms = (f"max commute {m} min", f"commute under {m} minutes", self._commute_np())
        return pick(self.rng, forms)

    # -- one group in one role --------------------------------------------------------------------

    def _np(self, group: str) -> str:
        """A noun phrase (after ``with`` / ``have`` / in a list)."""
        self._take(group)
        return {
            "beds": self._beds_np,
            "baths": self._baths_np,
            "garages": self._garages_np,
            "pools": self._pools_np,
            "balconies": self._balconies_np,
            "sqft": self._sqft_np,
            "price": self._price_np,
            "commute": self._commute_np,
        }[group]()

    def _post(self, group: str) -> str:
        """A phrase right after the home or the city (``under $450k``, ``on the 3rd floor``)."""
        if group in _HAVE_GROUPS:
            return f"with {self._np(group)}"
        self._take(group)
        return {
            "sqft": self._sqft_post,
            "price": self._price_post,
            "commute": self._commute_post,
            "floor": self._floor_post,
            "type": lambda: f"{self._types_bare(plural=True)} only",
        }[group]()

    def _pred(self, group: str) -> str:
        """A verb phrase after ``It should`` (``have a garage``, ``cost under $450k``)."""
        if group in _HAVE_GROUPS:
            return f"{pick(self.rng, ('have', 'have', 'come with'))} {self._np(group)}"
        self._take(group)
        return {
            "sqft": self._sqft_pred,
            "price": self._price_pred,
            "commute": self._commute_pred,
            "floor": self._floor_pred,
            "type": lambda: f"be {self._types_a()}",
        }[group]()

    def _sent(self, group: str) -> str:
        """A sentence of its own."""
        if group in _HAVE_GROUPS:
            np_ = self._np(group)
            forms = (
                f"It should have {np_}.",
                f"I need {np_}.",
                f"It must have {np_}.",
                f"{_cap(np_)} is a must.",
            )
            return pick(self.rng, forms)
        self._take(group)
        return {
            "sqft": self._sqft_sent,
            "price": self._price_sent,
            "commute": self._commute_sent,
            "floor": self._floor_sent,
            "type": self._type_sent,
        }[group]()

    def _type_sent(self) -> str:
        forms = (
            lambda: f"It should be {self._types_a()}.",
            lambda: f"Only {self._types_bare(plural=True)}, please.",
            lambda: f"I'm only interested in {self._types_bare(plural=True)}.",
        )
        return pick(self.rng, forms)()

    def _item(self, group: str) -> str:
        """A terse list item (``at least 3 bedrooms``, ``max $450k``, ``floor 3``)."""
        if group in _HAVE_GROUPS or group == "sqft":
            return self._np(group)
        self._take(group)
        return {
            "price": self._price_item,
            "commute": self._commute_item,
            "floor": self._floor_item,
            "type": lambda: pick(self.rng, (self._types_a, self._types_bare))(),
        }[group]()

    # -- all remaining groups ---------------------------------------------------------------------

    def tail(self, *, exclude: tuple[str, ...] = (), lead: str = " ") -> str:
        """The remaining groups as phrases after the home (``with 3 beds and a pool, under $2M``).

        Returns "" when nothing is left, else the text starting with ``lead`` (or ``, `` before a
        ``... only`` type phrase).
        """
        groups = [g for g in self.pending if g not in exclude]
        if not groups:
            return ""
        floor = [g for g in groups if g == "floor"]
        posts = [g for g in groups if g in _POST_GROUPS and self.rng.random() < 0.6]
        withs = [g for g in groups if g in _HAVE_GROUPS or (g in _POST_GROUPS and g not in posts)]
        first = [self._post(g) for g in floor]
        if withs:
            first.append(f"with {join([self._np(g) for g in withs])}")
        rest = [self._post(g) for g in posts]
        if "type" in groups:
            rest.append(self._post("type"))
        head = " ".join(first)
        text = ", ".join(x for x in [head, *rest] if x)
        return (lead if head or "type" not in groups or posts else ", ") + text

    def _units(self, groups: list[str]) -> list[list[str]]:
        """Groups in order, consecutive "have" groups sometimes merged into one unit."""
        merge = self.rng.random() < 0.6
        units: list[list[str]] = []
        for g in groups:
            if merge and g in _HAVE_GROUPS and units and units[-1][-1] in _HAVE_GROUPS:
                units[-1].append(g)
            else:
                units.append([g])
        return units

    def sentences(self, *, exclude: tuple[str, ...] = ()) -> str:
        """The remaining groups as sentences, each starting with a space ("" if none)."""
        out = []
        for unit in self._units([g for g in self.pending if g not in exclude]):
            if len(unit) == 1:
                out.append(self._sent(unit[0]))
            else:
                opener = pick(self.rng, ("It should have", "It needs", "It must have", "I need"))
                out.append(f"{opener} {join([self._np(g) for g in unit])}.")
        return "".join(f" {s}" for s in out)

    def preds(self) -> str:
        """The remaining groups as verb phrases joined with "and" (``have 3 beds and cost ...``)."""
        vps = []
        for unit in self._units(list(self.pending)):
            if len(unit) == 1:
                vps.append(self._pred(unit[0]))
            else:
                vps.append(f"have {join([self._np(g) for g in unit])}")
        return join(vps)

    def items(self) -> list[str]:
        """The remaining groups as terse list items."""
        return [self._item(g) for g in list(self.pending)]

    def haves(self) -> str:
        """The remaining "have" groups as one noun-phrase list (``3 bedrooms and a garage``)."""
        return join([self._np(g) for g in list(self.pending) if g in _HAVE_GROUPS])


# --------------------------------------------------------------------------------------------------
# Templates


@dataclass(frozen=True)
class _Template:
    """One way to write a goal; ``needs`` says which setter sets it can express."""

    tid: str
    render: Callable[[_Writer], str]
    modes: tuple[str, ...] = ("buy", "rent")
    needs: Callable[[frozenset[str]], bool] | None = None

    def fits(self, setters: frozenset[str], mode: str) -> bool:
        return mode in self.modes and (self.needs is None or self.needs(setters))


def _needs_max(setters: frozenset[str]) -> bool:
    return "set_max_price" in setters


def _needs_price(setters: frozenset[str]) -> bool:
    return bool(setters & {"set_min_price", "set_max_price"})


def _needs_have(setters: frozenset[str]) -> bool:
    return any(_GROUPS[g][0] in setters for g in _HAVE_GROUPS)


def _needs_two(setters: frozenset[str]) -> bool:
    groups = {g for g, names in _GROUPS.items() if setters & set(names)}
    return len(groups) >= 2


def _t_find_me(w: _Writer) -> str:
    opener = pick(w.rng, ("Find me", "Find", "Look for", "Search for", "Locate"))
    return f"{opener} {w.noun()} {w.for_mode()} in {w.city}{w.tail()}."


def _t_relocating(w: _Writer) -> str:
    moving = pick(w.rng, ("relocating to", "moving to", "moving over to"))
    return f"I'm {moving} {w.city} and want to {w.verb()} {w.noun()}{w.tail()}."


def _t_can_you(w: _Writer) -> str:
    ask = pick(w.rng, ("Can you", "Could you", "Would you"))
    act = pick(w.rng, ("search for", "find", "look up", "pull up"))
    return f"{ask} {act} {w.noun()} {w.for_mode()} in {w.city}{w.tail()}?"


def _t_budget_first(w: _Writer) -> str:
    budget = w.budget()
    if w.rng.random() < 0.5:
        lead = f"My budget is {budget} — what's available {w.for_mode()} in {w.city}?"
    else:
        lead = f"My budget is {budget}. What can I find {w.for_mode()} in {w.city}?"
    want = pick(w.rng, ("I'd like", "I'm after", "I want"))
    return f"{lead} {want} {w.noun()}{w.tail()}."


def _t_it_should(w: _Writer) -> str:
    text = f"I want to {w.verb()} {w.noun(premods=w.rng.random() < 0.5)} in {w.city}."
    if w.pending:
        modal = pick(w.rng, ("It should", "It must", "It has to", "It needs to"))
        text += f" {modal} {w.preds()}."
    return text


def _t_must_haves(w: _Writer) -> str:
    lead = pick(w.rng, ("Looking to", "Hoping to", "I want to", "Planning to"))
    label = pick(w.rng, ("Must-haves", "Requirements", "My criteria", "What I need"))
    return f"{lead} {w.verb()} in {w.city}. {label}: {', '.join(w.items())}."


def _t_semicolon(w: _Writer) -> str:
    lead = pick(w.rng, (f"To {w.verb()}", _cap(w.gerund())))
    return f"{lead} in {w.city}: {'; '.join(w.items())}."


def _t_imperative(w: _Writer) -> str:
    # Like the original goals: "Rent a 2-bed home with a garage in Austin", then the rest.
    head = f"{_cap(w.verb())} {w.noun()}"
    if any(g in _HAVE_GROUPS for g in w.pending):
        head += f" with {w.haves()}"
    return f"{head} in {w.city}{w.tail(lead=', ')}."


def _t_family(w: _Writer) -> str:
    who = pick(w.rng, ("a growing family", "a family", "a young family", "a couple"))
    need = pick(w.rng, ("We need", "We're looking for", "We'd like"))
    return f"We're {who} looking to {w.verb()} in {w.city}. {need} {w.noun()}{w.tail()}."


def _t_any_available(w: _Writer) -> str:
    return f"Are there any {w.noun(plural=True)} {w.for_mode()} in {w.city}{w.tail()}?"


def _t_show_me(w: _Writer) -> str:
    opener = pick(w.rng, ("Show me", "List", "Pull up"))
    return f"{opener} {w.noun(plural=True)} {w.for_mode()} in {w.city}{w.tail()}."


def _t_help_find(w: _Writer) -> str:
    return f"Help me find {w.noun()} in {w.city} that I can {w.verb()}.{w.sentences()}"


def _t_looking_for(w: _Writer) -> str:
    return f"I'm looking for {w.noun()} {w.for_mode()} in {w.city}{w.tail()}."


def _t_need_place(w: _Writer) -> str:
    where = pick(w.rng, ("a place", "somewhere"))
    return f"I need {where} to {w.verb()} in {w.city}.{w.sentences()}"


def _t_what_listings(w: _Writer) -> str:
    if w.mode == "buy":
        avail = pick(w.rng, ("for sale", "up for sale", "available to buy"))
    else:
        avail = pick(w.rng, ("for rent", "available to rent", "up for rent"))
    return f"What {w.noun(plural=True)} are {avail} in {w.city}{w.tail()}?"


def _t_look_up(w: _Writer) -> str:
    ask = pick(w.rng, ("Could you look up", "Can you check for", "Please look up"))
    mark = "." if ask.startswith("Please") else "?"
    return f"{ask} {w.noun()} {w.for_mode()} in {w.city}{mark}{w.sentences()}"


def _t_please_search(w: _Writer) -> str:
    kind = "for-sale" if w.mode == "buy" else pick(w.rng, ("rental", "for-rent"))
    return f"Please search {kind} listings in {w.city} for {w.noun()}{w.tail()}."


def _t_first_home(w: _Writer) -> str:
    after = pick(w.rng, ("I'm after", "I'd like", "I have my eye out for"))
    return f"I'm buying my first home in {w.city}. {after} {w.noun()}{w.tail()}."


def _t_lease_ending(w: _Writer) -> str:
    return f"My lease is ending soon and I need to rent {w.noun()} in {w.city}{w.tail()}."


def _t_in_city(w: _Writer) -> str:
    want = pick(w.rng, ("I'd like to", "I want to", "I'm hoping to"))
    return f"In {w.city}, {want} {w.verb()} {w.noun()}{w.tail()}."


def _t_partner(w: _Writer) -> str:
    who = pick(
        w.rng, ("My partner and I", "My wife and I", "My husband and I", "My roommate and I")
    )
    text = f"{who} want to {w.verb()} {w.noun()} in {w.city}."
    if w.pending:
        label = pick(w.rng, ("requirements", "must-haves", "non-negotiables"))
        text += f" Our {label}: {join(w.items())}."
    return text


def _t_paren(w: _Writer) -> str:
    head = f"Home search in {w.city} ({w.gerund()}): {w.noun()}"
    return ", ".join([head, *w.items()]) + "."


def _t_that_has(w: _Writer) -> str:
    noun = w.noun(premods=False)
    has = w.haves()
    return f"I want {noun} {w.for_mode()} in {w.city} that has {has}{w.tail(lead=', ')}."


def _t_new_job(w: _Writer) -> str:
    event = pick(w.rng, ("just got a job", "just started a new job", "accepted a job offer"))
    return f"I {event} in {w.city} and need to {w.verb()} {w.noun()}.{w.sentences()}"


def _t_is_there(w: _Writer) -> str:
    return f"Is there {w.noun()} {w.for_mode()} in {w.city}{w.tail()}?"


def _t_budget_end(w: _Writer) -> str:
    opener = pick(w.rng, ("Search for", "Look for", "Find"))
    text = f"{opener} {w.noun()} {w.for_mode()} in {w.city}{w.tail(exclude=('price',))}."
    return f"{text}{w.sentences()}"


def _t_numbered(w: _Writer) -> str:
    if w.mode == "buy":
        what = pick(w.rng, ("homes for sale", "properties to buy"))
    else:
        what = pick(w.rng, ("rentals", "places to rent"))
    items = ", ".join(f"({i}) {item}" for i, item in enumerate(w.items(), 1))
    return f"Search {w.city} for {what} with these criteria: {items}."


def _t_what_can_i(w: _Writer) -> str:
    lead = f"What can I {w.verb()} in {w.city} with a budget of {w.budget()}?"
    want = pick(w.rng, ("I'd like", "I want", "Ideally I'd get"))
    return f"{lead} {want} {w.noun()}{w.tail()}."


def _t_any_short(w: _Writer) -> str:
    return f"Any {w.noun(plural=True)} {w.for_mode()} in {w.city}{w.tail()}?"


def _t_wondering(w: _Writer) -> str:
    return f"I'm wondering if there's {w.noun()} {w.for_mode()} in {w.city}{w.tail()}."


def _t_hello(w: _Writer) -> str:
    hello = pick(w.rng, ("Hi!", "Hello!", "Hey there."))
    thanks = pick(w.rng, ("Thanks!", "Thank you!", "Thanks in advance."))
    return f"{hello} I'd love to {w.verb()} {w.noun()} in {w.city}.{w.sentences()} {thanks}"


TEMPLATES: tuple[_Template, ...] = (
    _Template("find_me", _t_find_me),
    _Template("relocating", _t_relocating),
    _Template("can_you", _t_can_you),
    _Template("budget_first", _t_budget_first, needs=_needs_max),
    _Template("it_should", _t_it_should),
    _Template("must_haves", _t_must_haves),
    _Template("semicolon_list", _t_semicolon),
    _Template("imperative", _t_imperative),
    _Template("family", _t_family),
    _Template("any_available", _t_any_available),
    _Template("show_me", _t_show_me),
    _Template("help_find", _t_help_find),
    _Template("looking_for", _t_looking_for),
    _Template("need_place", _t_need_place),
    _Template("what_listings", _t_what_listings),
    _Template("look_up", _t_look_up),
    _Template("please_search", _t_please_search),
    _Template("first_home", _t_first_home, modes=("buy",)),
    _Template("lease_ending", _t_lease_ending, modes=("rent",)),
    _Template("in_city", _t_in_city),
    _Template("partner", _t_partner),
    _Template("paren_list", _t_paren),
    _Template("that_has", _t_that_has, needs=_needs_have),
    _Template("new_job", _t_new_job),
    _Template("is_there", _t_is_there),
    _Template("budget_end", _t_budget_end, needs=_needs_price),
    _Template("numbered", _t_numbered, needs=_needs_two),
    _Template("what_can_i", _t_what_can_i, needs=_needs_max),
    _Template("any_short", _t_any_short),
    _Template("wondering", _t_wondering),
    _Template("hello", _t_hello),
)
"""The goal templates (the id is stored in ``Task.meta["template"]``)."""

_TEMPLATE_BY_ID = {t.tid: t for t in TEMPLATES}


# --------------------------------------------------------------------------------------------------
# Tasks


def _literal(value: Any) -> str:
    if isinstance(value, list):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def _program(spec: _Spec, order: list[str]) -> str:
    lines = [
        f"API.set_location({json.dumps(spec.city)})",
        f"API.set_buy_or_rent({json.dumps(spec.mode)})",
    ]
    lines += [f"API.{name}({_literal(spec.values[name])})" for name in order]
    lines.append("API.search()")
    return "\n".join(lines)


def _normalize_setters(setters: frozenset[str] | set[str]) -> frozenset[str]:
    out = set()
    for name in setters:
        full = name if name in SETTER_FREQUENCIES else f"set_{name}"
        if full not in SETTER_FREQUENCIES:
            raise ValueError(
                f"unknown Home Search setter {name!r}; known: {list(OPTIONAL_SETTERS)}"
            )
        out.add(full)
    if not 1 <= len(out) <= MAX_SETTERS:
        raise ValueError(f"a task uses 1 to {MAX_SETTERS} optional setters; got {sorted(out)}")
    return frozenset(out)


def _sample_setters(
    rng: np.random.Generator, allowed: tuple[str, ...] = OPTIONAL_SETTERS
) -> frozenset[str]:
    """Each setter with its test frequency, redrawn until 1 to ``MAX_SETTERS`` are chosen."""
    while True:
        chosen = frozenset(s for s in allowed if rng.random() < SETTER_FREQUENCIES[s] / 100)
        if 1 <= len(chosen) <= MAX_SETTERS:
            return chosen


def _build_task(
    rng: np.random.Generator,
    task_id: str,
    setters: frozenset[str],
    mode: str,
    template: str | None = None,
) -> Task:
    """The task for a given setter set and mode (``template``: an id, else a random fitting one)."""
    if template is None:
        template = pick(rng, [t.tid for t in TEMPLATES if t.fits(setters, mode)])
    listing = _choose_listing(rng, mode, setters)
    spec = _Spec(listing.city, mode, _derive_values(rng, listing, setters), listing.listing_id)
    writer = _Writer(rng, spec)
    text = _TEMPLATE_BY_ID[template].render(writer)
    if writer.pending:  # pragma: no cover - every template renders every group
        text += writer.sentences()
    meta = {
        "template": template,
        "buy_or_rent": mode,
        "setters": sorted(setters),
        "city": spec.city,
        "listing_id": spec.listing_id,
    }
    text = " ".join(text.split()).replace("..", ".")  # "... 900 sq. ft.." -> "sq. ft."
    return Task(task_id, text, (_program(spec, writer.order),), meta)


def generate_task(
    rng: np.random.Generator, task_id: str, *, setters: frozenset[str] | None = None
) -> Task:
    """Generate one task with ``rng``.

    Args:
        rng: the generator every choice is drawn from (buy/rent, setters, city, listing, words).
        task_id: the id of the task.
        setters: the optional setters the gold program must call (API names such as
            ``"set_num_beds"``, or without ``set_``); by default drawn with the test frequencies.

    Returns:
        A task whose gold program finds at least the listing it was built from.

    Raises:
        ValueError: an unknown setter, or not 1 to ``MAX_SETTERS`` of them.
    """
    mode = "buy" if rng.random() < BUY_SHARE else "rent"
    chosen = _sample_setters(rng) if setters is None else _normalize_setters(setters)
    return _build_task(rng, task_id, chosen, mode)


def _task_rng(*parts: object) -> np.random.Generator:
    return np.random.default_rng(stable_seed(FAMILY, VERSION, *parts))


def _call_set(task: Task) -> frozenset[str]:
    return frozenset(task.meta["setters"])


def _demo_tasks() -> list[Task]:
    rng = _task_rng("demo")
    allowed = tuple(s for s in OPTIONAL_SETTERS if s not in DEMO_EXCLUDED_SETTERS)
    n = SPLITS["demo"]
    while True:
        sets = [_sample_setters(rng, allowed) for _ in range(n)]
        covered = set().union(*sets)
        if len(set(sets)) == n and covered == set(allowed) and max(map(len, sets)) >= 4:
            break
    modes = [["buy", "rent"][i % 2] for i in rng.permutation(n)]
    unused = [TEMPLATES[int(i)].tid for i in rng.permutation(len(TEMPLATES))]
    tasks = []
    for i in range(n):
        tid = next(t for t in unused if _TEMPLATE_BY_ID[t].fits(sets[i], modes[i]))
        unused.remove(tid)
        tasks.append(_build_task(_task_rng("demo", i), f"demo-{i:03d}", sets[i], modes[i], tid))
    return tasks


def _valid_set(s: set[str], forbidden: set[frozenset[str]]) -> bool:
    return 1 <= len(s) <= MAX_SETTERS and frozenset(s) not in forbidden


def _repair(rng: np.random.Generator, sets: list[set[str]], forbidden: set[frozenset[str]]) -> None:
    """Move setters between tasks (keeping every count) until each set is valid."""
    n = len(sets)
    for i in range(n):
        for _ in range(1000):
            if _valid_set(sets[i], forbidden):
                break
            j = int(rng.integers(n))
            if j == i:
                continue
            moves = [(i, j, s) for s in sorted(sets[i] - sets[j])]
            moves += [(j, i, s) for s in sorted(sets[j] - sets[i])]
            for k in rng.permutation(len(moves)):
                src, dst, name = moves[int(k)]
                a, b = sets[src] - {name}, sets[dst] | {name}
                if _valid_set(a, forbidden) and _valid_set(b, forbidden):
                    sets[src], sets[dst] = a, b
                    break
        else:  # pragma: no cover
            raise RuntimeError("could not repair the test setter sets")


def _test_setter_sets(
    rng: np.random.Generator, forbidden: set[frozenset[str]]
) -> list[frozenset[str]]:
    """Setter sets for the test split: each setter used by exactly its target share of tasks."""
    n = SPLITS["test"]
    while True:
        sets: list[set[str]] = [set() for _ in range(n)]
        for name in OPTIONAL_SETTERS:
            k = SETTER_FREQUENCIES[name] * n // 100
            eligible = [i for i in range(n) if len(sets[i]) < MAX_SETTERS]
            if len(eligible) < k:  # pragma: no cover - never with the target frequencies
                break
            weights = np.array([MAX_SETTERS + 1 - len(sets[i]) for i in eligible], dtype=float)
            for i in rng.choice(eligible, size=k, replace=False, p=weights / weights.sum()):
                sets[int(i)].add(name)
        else:
            _repair(rng, sets, forbidden)
            if all(_valid_set(s, forbidden) for s in sets):
                return [frozenset(s) for s in sets]


def _test_tasks(demos: list[Task]) -> list[Task]:
    rng = _task_rng("test")
    n = SPLITS["test"]
    forbidden = {_call_set(t) for t in demos}
    sets = _test_setter_sets(rng, forbidden)
    modes = ["buy" if int(i) < _TEST_BUY else "rent" for i in rng.permutation(n)]
    deck = [TEMPLATES[int(i)].tid for i in rng.permutation(len(TEMPLATES))]
    seen = {t.instruction for t in demos}
    tasks = []
    for i in range(n):
        tid = next(t for t in deck if _TEMPLATE_BY_ID[t].fits(sets[i], modes[i]))
        deck.remove(tid)
        deck.append(tid)
        attempt = 0
        while True:
            task = _build_task(
                _task_rng("test", i, attempt), f"test-{i:03d}", sets[i], modes[i], tid
            )
            if task.instruction not in seen:
                break
            attempt += 1  # pragma: no cover - a repeated goal
        seen.add(task.instruction)
        tasks.append(task)
    return tasks


@functools.lru_cache(maxsize=1)
def _splits() -> dict[str, tuple[Task, ...]]:
    demos = _demo_tasks()
    return {"demo": tuple(demos), "test": tuple(_test_tasks(demos))}


def generate_split(split: str) -> list[Task]:
    """Generate the tasks of a fixed split (``"test"`` or ``"demo"``), the same on every machine.

    Raises:
        ValueError: an unknown split.
    """
    if split not in SPLITS:
        raise ValueError(f"unknown Home Search split {split!r}; splits: {sorted(SPLITS)}")
    return list(_splits()[split])


@functools.lru_cache(maxsize=1)
def _held_out_instructions() -> frozenset[str]:
    return frozenset(t.instruction for tasks in _splits().values() for t in tasks)


def train_task(k: int) -> Task:
    """The train task with id ``f"train-{k}"``, regenerated from ``k`` alone.

    A draw whose goal equals a test or demo goal is replaced by the next draw for the same ``k``.
    """
    return first_unseen(
        lambda attempt: generate_task(_task_rng("train", k, attempt), f"train-{k}"),
        _held_out_instructions(),
    )


def train_pairs(n: int | None = 1800, seed: int = 0) -> Iterator[Task]:
    """Yield train tasks: ``train_task(seed * 2**32 + i)`` for ``i = 0, 1, ...``.

    Args:
        n: how many (None: without end).
        seed: which stream; streams of different seeds do not share tasks.
    """
    return train_stream(train_task, n, seed)


def sample_train_task(rng: np.random.Generator) -> Task:
    """One train task: ``train_task(k)`` with ``k`` drawn from ``rng``."""
    return sample_train(train_task, rng)
