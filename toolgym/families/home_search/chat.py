"""Home Search as a conversation: the user holds back some of the search criteria.

The slots of a task are the criteria its gold sets (every ``API.set_*``/``select_home_type``
call); the location and whether to buy or rent open the request, and up to three other
criteria are held back.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolgym.benchmarks.tasks import Task
from toolgym.conversation.opening import compose_opening
from toolgym.conversation.tasks import ChatProfile, chat_suite
from toolgym.conversation.toolkit import ChatToolkit
from toolgym.families.home_search.toolkit import TOOLS, HomeSearchToolkit
from toolgym.simulators.places import CITIES
from toolgym.simulators.user import Slot, SlotKind, Vocabulary
from toolgym.tools.action_reader import ActionReader
from toolgym.tools.tool import ToolSet

_PRICE = (
    "price range",
    "rent range",
    "budget range",
    "price",
    "prices",
    "cost",
    "how much",
    "rent price",
    "monthly rent",
    "pay",
    "dollars",
    "purchase price",
    "rental price",
    "asking price",
    "sale price",
    "on rent",
    "in rent",
    "the rent",
    "your rent",
    "rent each month",
    "rent per month",
    "rent a month",
)
_SIZE = (
    "square feet",
    "square footage",
    "sq ft",
    "sq footage",
    "sq feet",
    "square foot",
    "sq foot",
    "sqft",
    "size",
    "how big",
    "how large",
    "floor area",
    "floor space",
    "living area",
    "living space",
    "space",
)
_LEAST = (
    "minimum",
    "min",
    "at least",
    "least",
    "lowest",
    "low",
    "bottom",
    "floor",
    "starting",
    "lower bound",
    "lower limit",
    "no less than",
    "not less than",
    "no smaller than",
    "no cheaper than",
    "nothing cheaper than",
    "nothing smaller than",
    "nothing under",
    "nothing below",
)
_MOST = (
    "maximum",
    "max",
    "at most",
    "most",
    "highest",
    "high",
    "top",
    "upper",
    "up to",
    "under",
    "below",
    "no more than",
    "not more than",
    "no bigger than",
    "no larger than",
    "no more expensive than",
    "nothing bigger than",
    "nothing larger than",
    "nothing over",
    "nothing above",
)
_MOST_PRICE = (*_MOST, "cap", "limit", "ceiling", "no more than", "upper bound", "upper limit")
_SMALLEST = ("minimum", "min", "at least", "least", "smallest")
_LARGEST = (*_MOST, "largest", "biggest")
_HOME_TYPES = (
    ("house", "houses", "single-family", "single family"),
    ("townhouse", "townhouses", "townhome", "townhomes", "town house"),
    ("condo", "condos", "condominium", "condominiums"),
    ("apartment", "apartments", "flat"),
    ("co-op", "co-ops", "coop", "cooperative"),
    ("multi-family", "multifamily", "multi family", "duplex"),
    ("mobile", "mobile home", "mobile homes", "manufactured home"),
    ("land", "lot", "plot of land"),
)

VOCABULARY = Vocabulary(
    [
        SlotKind(
            "location",
            (
                "city",
                "location",
                "where",
                "town",
                "which place",
                "live in",
                "living in",
                "search in",
                "searching in",
                "look in",
                "looking in",
                "located in",
            ),
            "in {text}",
            "set_location",
            question="Which city should I search in?",
            values=tuple((city.name,) for city in CITIES),
        ),
        SlotKind(
            "buy_or_rent",
            (
                "buy or rent",
                "rent or buy",
                "buying or renting",
                "renting or buying",
                "buy",
                "rent",
                "purchase",
                "lease",
            ),
            "to {text}",
            "set_buy_or_rent",
            question="Do you want to buy or rent?",
            values=(
                ("buy", "buying", "purchase", "purchasing", "for sale", "to own"),
                ("rent", "renting", "rental", "lease", "leasing", "for rent"),
            ),
        ),
        SlotKind(
            "home_type",
            (
                "home type",
                "type of home",
                "kind of home",
                "kind of unit",
                "type of unit",
                "sort of unit",
                "unit type",
                "property type",
                "type of property",
                "kind of property",
                "home types",
                "property types",
                "types of home",
                "types of homes",
                "types of property",
                "type of place",
                "kind of place",
                "sort of place",
                "type of house",
                "kind of house",
                "sort of home",
                "style of home",
                "house or apartment",
                "type of housing",
                "kind of housing",
                "housing type",
                "type of dwelling",
                "kind of dwelling",
                "type of residence",
                "kind of residence",
                "type of building",
                "kind of building",
            ),
            "{text}",
            "select_home_type",
            question="What type of home do you want?",
            values=_HOME_TYPES,
        ),
        SlotKind(
            "min_price",
            (
                "minimum price",
                "min price",
                "lowest price",
                "lower price",
                "price floor",
                "at least how much",
                "minimum rent",
                "min rent",
                "lowest rent",
                *_PRICE,
            ),
            "a minimum price of {text}",
            "set_min_price",
            question="What is your minimum price?",
            qualifiers=_LEAST,
        ),
        SlotKind(
            "max_price",
            (
                "maximum price",
                "max price",
                "highest price",
                "upper price",
                "budget",
                "spend",
                "afford",
                "price cap",
                "price limit",
                "maximum rent",
                "max rent",
                "highest rent",
                "rent budget",
                "monthly max",
                "monthly maximum",
                "monthly cap",
                "monthly limit",
                *_PRICE,
            ),
            "a maximum price of {text}",
            "set_max_price",
            question="What is your maximum price?",
            qualifiers=_MOST_PRICE,
        ),
        SlotKind(
            "min_square_feet",
            (
                "minimum square feet",
                "minimum size",
                "min size",
                "smallest size",
                "at least how big",
                *_SIZE,
            ),
            "at least {text}",
            "set_min_square_feet",
            question="What is the minimum size, in square feet?",
            qualifiers=_SMALLEST,
        ),
        SlotKind(
            "max_square_feet",
            (
                "maximum square feet",
                "maximum size",
                "max size",
                "largest size",
                "biggest size",
                *_SIZE,
            ),
            "at most {text}",
            "set_max_square_feet",
            question="What is the maximum size, in square feet?",
            qualifiers=_LARGEST,
        ),
        SlotKind(
            "num_beds",
            ("bedrooms", "bedroom", "beds", "bed", "rooms"),
            "{text}",
            "set_num_beds",
            question="How many bedrooms do you need?",
        ),
        SlotKind(
            "num_baths",
            (
                "bathrooms",
                "bathroom",
                "baths",
                "bath",
                "washrooms",
                "washroom",
                "restrooms",
                "loos",
            ),
            "{text}",
            "set_num_baths",
            question="How many bathrooms do you need?",
        ),
        SlotKind(
            "num_garages",
            (
                "garages",
                "garage",
                "parking",
                "parking space",
                "parking spaces",
                "garage space",
                "garage spaces",
                "parking spot",
                "parking spots",
                "park the car",
                "park your car",
                "park a car",
                "covered parking",
            ),
            "{text}",
            "set_num_garages",
            question="How many garages do you need?",
        ),
        SlotKind(
            "num_swimming_pools",
            ("swimming pools", "swimming pool", "pools", "pool"),
            "{text}",
            "set_num_swimming_pools",
            question="How many swimming pools do you want?",
        ),
        SlotKind(
            "num_balconies",
            ("balconies", "balcony", "outdoor space", "outside space", "terrace"),
            "{text}",
            "set_num_balconies",
            question="How many balconies do you want?",
        ),
        SlotKind(
            "floor_number",
            ("floor number", "which floor", "what floor", "floor", "storey", "story", "level"),
            "{text}",
            "set_floor_number",
            question="Which floor do you want to be on?",
        ),
        SlotKind(
            "max_commute_time",
            (
                "commute time",
                "commute",
                "commuting",
                "travel time",
                "drive to work",
                "getting to work",
                "get to work",
                "to get to work",
                "travel to work",
                "trip to work",
                "ride to work",
                "way to work",
                "to work",
                "to your work",
                "to the office",
                "to your office",
                "to your job",
            ),
            "a commute of at most {text}",
            "set_max_commute_time",
            question="What is the longest commute you would accept?",
        ),
    ],
    topic="finding a home",
)

_KINDS = {kind.call: kind.name for kind in VOCABULARY}
_COUNTS = {
    "num_beds": ("bedroom", "bedrooms"),
    "num_baths": ("bathroom", "bathrooms"),
    "num_garages": ("garage", "garages"),
    "num_swimming_pools": ("swimming pool", "swimming pools"),
    "num_balconies": ("balcony", "balconies"),
}


def _number(value: Any) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _slot(kind: str, value: Any) -> Slot:
    """How the user says ``value`` of ``kind``."""
    if kind in ("min_price", "max_price"):
        return Slot(kind, value, f"{value} dollars", (f"${value}", f"{value:,}", str(value)))
    if kind in ("min_square_feet", "max_square_feet"):
        return Slot(kind, value, f"{value} square feet", (f"{value} sq ft", str(value)))
    if kind in _COUNTS:
        one, many = _COUNTS[kind]
        number = _number(value)
        return Slot(kind, value, f"{number} {one if number == '1' else many}", (number,))
    if kind == "floor_number":
        return Slot(kind, value, f"floor {value}", (f"{value} floor", f"level {value}"))
    if kind == "max_commute_time":
        return Slot(kind, value, f"{value} minutes", (f"{value} min", str(value)))
    if kind == "home_type":
        types = [str(t) for t in value] if isinstance(value, list) else [str(value)]
        text = " or ".join(t.lower() for t in types)
        article = "an" if text[:1] in "aeiou" else "a"
        return Slot(kind, value, f"{article} {text}", tuple(t.lower() for t in types))
    return Slot(kind, value, str(value))


def slots(task: Task) -> list[Slot]:
    """The criteria the task's gold sets, in the gold's order."""
    calls = ActionReader().tool_calls(task.gold[0], ToolSet(TOOLS)) or []
    found: dict[str, Slot] = {}
    for call in calls:
        kind = _KINDS.get(call.name)
        if kind is not None and call.arguments:
            found[kind] = _slot(kind, next(iter(call.arguments.values())))
    return list(found.values())


def opening(task: Task, given: Sequence[Slot]) -> str:
    """The opening request: ``I'm looking for a home to rent in Austin. I'd like 2 bedrooms.``."""
    kinds = {s.kind: s for s in given}
    intent = "I'm looking for a home"
    if "buy_or_rent" in kinds:
        intent += f" to {kinds['buy_or_rent'].text}"
    rest = [s for s in given if s.kind != "buy_or_rent"]
    return compose_opening(intent, rest, VOCABULARY, lead="location")


PROFILE = ChatProfile(
    name="home_search_chat",
    inner_tasks="toolgym.families.home_search.tasks:SUITE",
    vocabulary=VOCABULARY,
    slots=slots,
    opening=opening,
    data_dir=str(Path(__file__).parent / "data"),
    always_given=("location", "buy_or_rent"),
)


class HomeSearchChatToolkit(ChatToolkit):
    """Home Search's toolkit with the user channel."""

    inner_class = HomeSearchToolkit
    vocabulary = VOCABULARY


SUITE = chat_suite("toolgym.families.home_search.chat:PROFILE")
