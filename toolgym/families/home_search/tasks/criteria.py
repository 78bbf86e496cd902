"""What a Home Search task asks: setter frequencies, criteria groups, and values from a listing.

Every task starts from one listing of the world's listing database: :func:`choose_listing` picks a
listing that can satisfy the chosen setters, and :func:`derive_values` derives round, human
criteria it meets (a maximum price rounded up to a nice figure, a minimum rounded down, a commute
rounded up to a multiple of five minutes, ...), so the gold search always finds that listing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgym.benchmarks.phrasing import pick
from toolgym.families.home_search.world import (
    BUY_HOME_TYPES,
    RENT_HOME_TYPES,
    Listing,
    get_listing_database,
)

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

# Criteria groups: what one phrase of the goal talks about, and the setters it decides.
GROUPS: dict[str, tuple[str, ...]] = {
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
# Setters that only make sense for a building (never for a plot of land).
BUILDING = frozenset(
    {
        "set_num_beds",
        "set_num_baths",
        "set_num_garages",
        "set_num_swimming_pools",
        "set_num_balconies",
        "set_floor_number",
    }
)
MULTI_STOREY = frozenset({"Condo", "Apartment", "Co-op"})


@dataclass(frozen=True)
class Spec:
    """What a task asks for: the city, buy or rent, and the value of each setter it uses."""

    city: str
    mode: str
    values: dict[str, Any]
    listing_id: str


def _fits(listing: Listing, setters: frozenset[str], multi: bool) -> bool:
    """Whether ``listing`` can satisfy criteria on ``setters`` (``multi``: need a high floor)."""
    if setters & BUILDING and listing.home_type == "Land":
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
            return listing.home_type in MULTI_STOREY and listing.floor > 1
        return listing.floor == 1
    return True


def choose_listing(
    rng: np.random.Generator, mode: str, setters: frozenset[str], world_seed: int = 0
) -> Listing:
    """A listing (of a random city of the world) that can satisfy criteria on ``setters``."""
    db = get_listing_database(world_seed)
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
    building = any(name in values for name in BUILDING)
    high_floor = values.get("set_floor_number", 1) > 1
    extras = [
        t
        for t in allowed
        if t != listing.home_type
        and not (building and t == "Land")
        and not (high_floor and t not in MULTI_STOREY)
    ]
    k = min(len(extras), int(rng.choice(3, p=[0.45, 0.4, 0.15])))
    chosen = [listing.home_type] + [str(t) for t in rng.choice(extras, size=k, replace=False)]
    return [chosen[i] for i in rng.permutation(len(chosen))]


def derive_values(
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
