"""The Home Search API: the original 15 functions, their rules, and a search over real listings.

Agent programs call these functions on ``API``. Setters accumulate ``search_criteria`` exactly as the
original mock does (values stored as given, home types lowercased, sorted and comma-joined,
``set_location`` first, ``set_buy_or_rent`` second); :meth:`HomeSearchAPI.search` fills the
original defaults and also runs the criteria against the listing database, so the agent can read
what it found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolgym.families.home_search.world import (
    BUY_HOME_TYPES,
    RENT_HOME_TYPES,
    HomeQuery,
    Listing,
    ListingDatabase,
    get_listing_database,
)
from toolgym.tools.criteria_api import CriteriaApi, SearchToolkit
from toolgym.tools.errors import PRECONDITION, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.tool import Param, Tool
from toolgym.tools.values import as_number

_BUY = ", ".join(BUY_HOME_TYPES)
_RENT = ", ".join(RENT_HOME_TYPES)


def _setter(name: str, description: str, type_: str = "int") -> Tool:
    return Tool(name, description, (Param("value", type_, description),), owner="API")


TOOLS: tuple[Tool, ...] = (
    Tool(
        "set_location",
        "To set the location for the search area. This function must be called first.",
        (Param("value", "string", 'The city to search in, e.g. "Austin".'),),
        owner="API",
    ),
    Tool(
        "set_buy_or_rent",
        'To specify whether to buy or rent. It must be "buy" or "rent". '
        "This function must be called right after set_location.",
        (Param("value", "str", 'Either "buy" or "rent".', enum=("buy", "rent")),),
        owner="API",
    ),
    Tool(
        "select_home_type",
        f"To select the home types. To buy, the types can be: {_BUY}. "
        f"To rent, the types can be: {_RENT}.",
        (
            Param(
                "home_types",
                "List[str]",
                'A list of home types, e.g. ["House", "Condo"].',
                enum=tuple(dict.fromkeys((*BUY_HOME_TYPES, *RENT_HOME_TYPES))),
            ),
        ),
        owner="API",
    ),
    _setter("set_min_price", "To set the minimum home price in dollars."),
    _setter("set_max_price", "To set the maximum home price in dollars."),
    _setter("set_min_square_feet", "To set the minimum home size in square feet."),
    _setter("set_max_square_feet", "To set the maximum home size in square feet."),
    _setter("set_num_beds", "To set the number of bedrooms."),
    _setter("set_num_baths", "To set the number of bathrooms.", "float"),
    _setter("set_num_garages", "To set the number of garages."),
    _setter("set_num_swimming_pools", "To set the number of swimming pools."),
    _setter("set_num_balconies", "To set the number of balconies."),
    _setter("set_floor_number", "To set the floor number."),
    _setter("set_max_commute_time", "To set the maximum commute time in minutes."),
    Tool(
        "search",
        "Submit the criterion to get the search results. This function should be called last.",
        owner="API",
        terminal=True,
    ),
)

# criteria key -> HomeQuery field
_QUERY_FIELDS: dict[str, str] = {
    "min_price": "min_price",
    "max_price": "max_price",
    "min_square_feet": "min_square_feet",
    "max_square_feet": "max_square_feet",
    "num_beds": "beds",
    "num_baths": "baths",
    "num_garages": "garages",
    "num_swimming_pools": "swimming_pools",
    "num_balconies": "balconies",
    "floor_number": "floor",
    "max_commute_time": "max_commute",
}


@dataclass
class HomeSearchResult:
    """What ``API.search()`` returns: the criteria it searched with and the matching listings."""

    criteria: dict[str, Any]
    listings: list[Listing]
    shown: int
    notes: list[str] = field(default_factory=list)

    def to_text(self) -> str:
        """The observation text of the search."""
        lines = [f"search() criteria: {self.criteria}"]
        lines += [f"Note: {n}" for n in self.notes]
        total = len(self.listings)
        if total == 0:
            lines.append("No listings match these criteria.")
        else:
            more = f", showing the {self.shown} cheapest" if total > self.shown else ""
            lines.append(f"Found {total} listing(s){more}:")
            lines += [f"{i}. {x.to_text()}" for i, x in enumerate(self.listings[: self.shown], 1)]
        return "\n".join(lines)


def _make_setter(name: str, key: str) -> Any:
    tool = next(t for t in TOOLS if t.name == name)

    def setter(self: HomeSearchAPI, value: Any) -> None:
        self._require_buy_or_rent(name)
        self.search_criteria[key] = value

    setter.__name__ = name
    setter.__doc__ = f"Store ``{key}`` as given (the original API does not check types)."
    setter.__annotations__ = {"value": tool.params[0].annotation, "return": None}
    return setter


class HomeSearchAPI(CriteriaApi):
    """The ``API`` object of Home Search programs.

    Args:
        database: the listing database searched by :meth:`search`.
        max_results: how many listings a search shows.

    >>> api = HomeSearchAPI()
    >>> api.set_location("Austin"); api.set_buy_or_rent("rent"); api.set_num_beds(2)
    >>> api.search().criteria
    {'location': 'Austin', 'buy_or_rent': 'rent', 'num_beds': 2, 'min_price': 0, 'min_square_feet': 0}
    """

    TOOLS = TOOLS

    def __init__(self, database: ListingDatabase | None = None, max_results: int = 5) -> None:
        super().__init__()
        self.database = database if database is not None else get_listing_database()
        self.max_results = max_results

    def set_location(self, value: str) -> None:
        """Set the city; must be the first call."""
        if self.search_criteria:
            raise ToolCallError(
                PRECONDITION,
                "API.set_location() must be the first call; criteria already hold "
                f"{sorted(self.search_criteria)}",
            )
        self.search_criteria["location"] = value

    def set_buy_or_rent(self, value: str) -> None:
        """Set "buy" or "rent"; must be the second call."""
        if list(self.search_criteria) != ["location"]:
            raise ToolCallError(
                PRECONDITION,
                "API.set_buy_or_rent() must be the second call, right after API.set_location(); "
                f"criteria hold {sorted(self.search_criteria)}",
            )
        if not isinstance(value, str) or value.lower() not in ("buy", "rent"):
            raise ToolCallError(WRONG_ARGUMENTS, f'value must be "buy" or "rent"; got {value!r}')
        self.search_criteria["buy_or_rent"] = value.lower()

    def select_home_type(self, home_types: list[str]) -> None:
        """Select home types; checked against the buy or rent list, stored sorted and lowercased."""
        self._require_buy_or_rent("select_home_type")
        mode = self.search_criteria["buy_or_rent"]
        allowed = BUY_HOME_TYPES if mode == "buy" else RENT_HOME_TYPES
        if isinstance(home_types, str):
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f'home_types must be a list such as ["{allowed[0]}", "{allowed[2]}"]; '
                f"got the string {home_types!r}",
            )
        if not isinstance(home_types, list | tuple):
            raise ToolCallError(
                WRONG_ARGUMENTS, f"home_types must be a list of strings; got {home_types!r}"
            )
        lowered = {t.lower() for t in allowed}
        bad = [t for t in home_types if not isinstance(t, str) or t.lower() not in lowered]
        if bad:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"home types to {mode} must be among {', '.join(allowed)}; got {bad}",
            )
        self.search_criteria["home_type"] = ",".join(sorted(t.lower() for t in home_types))

    set_min_price = _make_setter("set_min_price", "min_price")
    set_max_price = _make_setter("set_max_price", "max_price")
    set_min_square_feet = _make_setter("set_min_square_feet", "min_square_feet")
    set_max_square_feet = _make_setter("set_max_square_feet", "max_square_feet")
    set_num_beds = _make_setter("set_num_beds", "num_beds")
    set_num_baths = _make_setter("set_num_baths", "num_baths")
    set_num_garages = _make_setter("set_num_garages", "num_garages")
    set_num_swimming_pools = _make_setter("set_num_swimming_pools", "num_swimming_pools")
    set_num_balconies = _make_setter("set_num_balconies", "num_balconies")
    set_floor_number = _make_setter("set_floor_number", "floor_number")
    set_max_commute_time = _make_setter("set_max_commute_time", "max_commute_time")

    def search(self) -> HomeSearchResult:
        """Fill the defaults (``min_price``/``min_square_feet`` = 0) and search the listings."""
        criteria = self.search_criteria
        criteria.setdefault("min_price", 0)
        criteria.setdefault("min_square_feet", 0)
        notes: list[str] = []
        listings: list[Listing] = []
        location, mode = criteria.get("location"), criteria.get("buy_or_rent")
        if not isinstance(location, str) or mode is None:
            notes.append("set a location and buy/rent before searching to get listings")
        else:
            fields: dict[str, Any] = {}
            for key, name in _QUERY_FIELDS.items():
                if key in criteria:
                    number = as_number(criteria[key])
                    if number is None:
                        notes.append(f"{key}={criteria[key]!r} is not a number; filter ignored")
                    else:
                        fields[name] = number
            if criteria.get("home_type"):
                fields["home_types"] = frozenset(criteria["home_type"].split(","))
            listings = self.database.search(HomeQuery(city=location, buy_or_rent=mode, **fields))
            if not self.database.group(location, mode):
                notes.append(f"there are no listings in {location!r}")
        result = HomeSearchResult(dict(criteria), listings, self.max_results, notes)
        self.last_search = result
        return result

    def _require_buy_or_rent(self, name: str) -> None:
        if "buy_or_rent" not in self.search_criteria:
            raise ToolCallError(
                PRECONDITION,
                f"API.{name}() needs API.set_location() and API.set_buy_or_rent() to be called first",
            )


class HomeSearchToolkit(SearchToolkit):
    """Home Search programs over the listing database of ``world_seed``.

    Args:
        world_seed: seed of the listing database.
        extraction: ``"strict"`` or ``"lenient"`` (see :mod:`toolgym.tools.program`).
        max_results: listings shown per search.
    """

    api_class = HomeSearchAPI

    def __init__(self, world_seed: int = 0, **options: Any) -> None:
        super().__init__(world_seed, **options)
        self.database = get_listing_database(world_seed)

    def make_api(self) -> HomeSearchAPI:
        """A fresh ``API`` object with empty criteria."""
        return HomeSearchAPI(self.database, self.max_results)
