"""The wording grammar: tool names, tool descriptions, API names and API descriptions.

Every function draws its choices from a :class:`Picker` (one per tool), so the wording is fixed
by the library's seed. Tool names mix a category's brand words with Faker's static word lists
(last names, colour names, city prefixes and suffixes); Faker's own random generator is never
used.

>>> api_name("camel", ("search", "meal plans"), "/meal-plans/search")
'searchMealPlans'
>>> api_name("path", ("get", "tv show", "details"), "/tv-shows/{tv_show_id}")
'/tv-shows/{tv_show_id}'
>>> title_words("get tv show details")
'Get TV Show Details'
>>> lower_words("Decode VIN")
'decode VIN'
>>> a("actor"), a("university")
('an actor', 'a university')
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Protocol, TypeVar

from toolgym.simulators.tool_library.domains.common import (
    ADJECTIVES,
    NAME_SUFFIXES,
    NAME_TAILS,
    TAGLINES,
    Place,
)
from toolgym.simulators.tool_library.domains.fields import words
from toolgym.simulators.tool_library.domains.spec import Category, ParamSpec, Resource, SubResource

T = TypeVar("T")

API_VERBS = frozenset(
    words(
        "Search Find Look Get List Retrieve Fetch Return Check Convert Locate Calculate Render Decode "
        "Estimate Validate Create Redeem Summarise Resize Remove Generate Compute Verify Send Post "
        "Identify Extract Detect Translate Transliterate Classify Suggest Roll Predict Solve Define "
        "Hash Encrypt Run Upload Capture Shorten Parse Analyse Browse Show Count Lookup Scan"
    )
)
"""The verbs an API description's first sentence may start with."""

NAME_STYLES = ("title", "terse", "path", "camel", "snake")
"""How a tool names its APIs: "Search Hotels", "Hotel Search", "/hotels/search",
"searchHotels", "search_hotels"."""

NAME_STYLE_WEIGHTS = (0.35, 0.12, 0.23, 0.2, 0.1)
"""The share of tools naming their APIs in each style of :data:`NAME_STYLES`."""

LOCAL_CATEGORIES = frozenset(
    (
        "Travel",
        "Location",
        "Mapping",
        "Transportation",
        "Logistics",
        "Weather",
        "Energy",
        "Events",
        "Food",
        "Business",
        "Jobs",
        "Health and Fitness",
        "Medical",
        "Sports",
    )
)
"""Categories whose tool names may start with a city ("Lisbon Hotels Hub")."""

_ACRONYMS = {
    "tv": "TV",
    "poi": "POI",
    "pois": "POIs",
    "qr": "QR",
    "sms": "SMS",
    "iss": "ISS",
    "ip": "IP",
    "vin": "VIN",
    "vat": "VAT",
    "iban": "IBAN",
    "bin": "BIN",
    "isbn": "ISBN",
    "url": "URL",
    "uuid": "UUID",
    "bmi": "BMI",
    "cpc": "CPC",
    "ocr": "OCR",
    "nsfw": "NSFW",
    "jwt": "JWT",
    "otp": "OTP",
    "ssl": "SSL",
    "icd-10": "ICD-10",
}


class Picker(Protocol):
    """The random choices a wording function needs."""

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items``, uniformly."""
        ...

    def chance(self, p: float) -> bool:
        """``True`` with probability ``p``."""
        ...


@functools.cache
def faker_words() -> dict[str, tuple[str, ...]]:
    """Faker's static word lists used in tool names (imported on first use)."""
    from faker.providers.address.en_US import Provider as Address
    from faker.providers.color import Provider as Color
    from faker.providers.person.en_US import Provider as Person

    return {
        "last_names": tuple(n for n in Person.last_names if n.isalpha() and len(n) <= 9),
        "colors": tuple(c for c in Color.all_colors if c.isalpha() and c[1:].islower()),
        "city_prefixes": tuple(Address.city_prefixes),
        "city_suffixes": tuple(s for s in Address.city_suffixes if len(s) >= 3),
    }


def title_words(text: str) -> str:
    """Title Case with known acronyms ("get tv show details" → "Get TV Show Details")."""
    return " ".join(_ACRONYMS.get(w.lower(), w[:1].upper() + w[1:]) for w in text.split())


def lower_words(text: str) -> str:
    """Lower case but for known acronyms ("Decode VIN" → "decode VIN")."""
    return " ".join(_ACRONYMS.get(w.lower(), w.lower()) for w in text.split())


def api_name(style: str, words: Sequence[str], path: str) -> str:
    """An API's display name in ``style`` (:data:`NAME_STYLES`) from its words or its path.

    ``words`` are phrases ("search", "meal plans"); the ``terse`` style drops a leading
    ``get``/``search``/``list`` and puts a search's verb last ("Hotel Search").
    """
    if style == "path":
        return path
    flat = " ".join(words).replace("-", " ").split()
    if style == "camel":
        return flat[0].lower() + "".join(_ACRONYMS.get(w, w.capitalize()) for w in flat[1:])
    if style == "snake":
        return "_".join(w.lower() for w in flat)
    if style == "terse" and flat[0] in ("get", "list", "search") and len(flat) > 1:
        rest = " ".join(flat[1:])
        return title_words(f"{rest} search" if flat[0] == "search" else rest)
    return title_words(" ".join(flat))


def tool_name(draw: Picker, cat: Category, res: Resource, place: Place) -> str:
    """A tool's display name ("StayScout", "Fare Tracker API", "Lisbon Hotels Hub")."""
    words = faker_words()
    brand, suffix, tail = draw.pick(cat.brands), draw.pick(NAME_SUFFIXES), draw.pick(NAME_TAILS)
    pattern = draw.pick(range(10))
    if pattern == 3 and cat.name in LOCAL_CATEGORIES:
        return f"{place.city} {title_words(res.plural)} {suffix}"
    if pattern in (0, 1, 3):
        return f"{brand}{suffix}"
    if pattern == 2:
        return f"{brand} {suffix} {tail}" if draw.chance(0.5) else f"{brand} {suffix}"
    if pattern == 4:
        return f"{draw.pick(words['last_names'])} {brand} {tail}"
    if pattern == 5:
        return f"{draw.pick(words['colors'])} {brand} {tail}"
    if pattern == 6:
        return f"{title_words(res.singular)} {suffix} {tail}"
    if pattern == 7:
        domain = f"{brand}{suffix}".lower()
        return f"{domain}.io" if draw.chance(0.5) else f"{domain.capitalize()}.com API"
    if pattern == 8:
        return f"{brand}{draw.pick(words['city_suffixes'])}"
    return f"{draw.pick(words['city_prefixes'])} {brand} {tail}"


def name_variant(draw: Picker, name: str) -> str:
    """Another name for a tool whose name is taken ("StayScout" → "StayScout Hale")."""
    words = faker_words()
    if draw.chance(0.5):
        return f"{name} {draw.pick(words['last_names'])}"
    return f"{draw.pick(words['colors'])} {name}"


def a(noun: str) -> str:
    """``noun`` with its indefinite article ("an actor", "a university")."""
    vowel = noun[:1] in "aeio" or (noun[:1] == "u" and not noun.startswith(("uni", "use", "usu")))
    return f"{'an' if vowel else 'a'} {noun}"


def join_words(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def tool_description(draw: Picker, name: str, cat: Category, offers: Sequence[str]) -> str:
    """A 1-3 sentence description: what the tool is, what it offers, maybe a tagline."""
    topic, adjective = draw.pick(cat.topics), draw.pick(ADJECTIVES)
    article = "an" if adjective[0] in "aeiou" else "a"
    first = draw.pick(
        (
            f"{name} is {article} {adjective} API for {topic}.",
            f"{name} provides {topic} for apps and websites.",
            f"Access {topic} through {article} {adjective} REST API.",
            f"{name}: {topic} in one {adjective} API.",
        )
    )
    sentences = [first]
    if offers:
        listed = join_words(list(offers[:4]))
        sentences.append(draw.pick((f"It lets you {listed}.", f"{listed[0].upper()}{listed[1:]}.")))
    if draw.chance(0.35):
        sentences.append(draw.pick(TAGLINES))
    return " ".join(sentences)


def _labels(specs: Sequence[ParamSpec]) -> str:
    return join_words([s.noun for s in specs[:3]])


def search_description(
    draw: Picker, res: Resource, required: Sequence[ParamSpec], optional: Sequence[ParamSpec]
) -> str:
    """An imperative description of a search over ``res``."""
    phrases = [s.phrase for s in required if s.phrase] or [s.by for s in required[:1]]
    how = " ".join(dict.fromkeys(phrases))
    verb = draw.pick(("Search for", "Find", "Look up", "Search"))
    text = f"{verb} {res.plural} {how}" if how else f"List {res.plural}"
    if optional:
        text += f", optionally filtered by {_labels(optional)}"
    text += "."
    if draw.chance(0.5):
        text += " " + draw.pick(
            (
                f"Each result carries the {res.id_name} used by the other endpoints.",
                "Results are sorted by relevance.",
                f"Returns a summary of each matching {res.singular}.",
            )
        )
    return text


def list_description(draw: Picker, res: Resource) -> str:
    """An imperative description of a listing of ``res``."""
    return draw.pick(
        (
            f"List all {res.plural}.",
            f"Get a paginated list of {res.plural}.",
            f"Retrieve the list of available {res.plural}.",
            f"List {res.plural}, newest first.",
        )
    )


def details_description(draw: Picker, res: Resource) -> str:
    """An imperative description of getting one entity of ``res``."""
    return draw.pick(
        (
            f"Get the details of {a(res.singular)} by its id.",
            f"Retrieve full information about {a(res.singular)} given its {res.id_name}.",
            f"Fetch {a(res.singular)} by {res.id_name}.",
            f"Return everything known about {a(res.singular)}, by id.",
        )
    )


def sub_description(draw: Picker, res: Resource, sub: SubResource) -> str:
    """An imperative description of listing the ``sub`` entities of one entity of ``res``."""
    return draw.pick(
        (
            f"List the {sub.plural} of {a(res.singular)}.",
            f"Get the {sub.plural} of {a(res.singular)} by its id.",
            f"Retrieve the {sub.plural} for {a(res.singular)}.",
            f"Fetch the {sub.plural} of {a(res.singular)}, page by page.",
        )
    )


def id_description(draw: Picker, res_singular: str, source: str) -> str:
    """The description of an ``<entity>_id`` parameter (``source``: the API returning it)."""
    if source and draw.chance(0.6):
        return f"The id of the {res_singular}, as returned by {source}."
    return f"Unique identifier of the {res_singular}."
