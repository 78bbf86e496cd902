"""What a response field holds, read from its key name; and the word lists values are drawn from.

A key is split into lower-case words (``checkInDate`` is ``check in date``, ``imageURL`` is
``image url``), plural words made singular, and the last word that names a kind decides (the head
noun of an English compound: ``price_change`` is a change, ``total_price`` a price), after a few
two-word phrases (``first_name``, ``country_code``, ``phone_number``) and flag prefixes (``is_``,
``has_``). A bare ``name`` takes its kind from the word before it or from what the enclosing object
is: an artist's name is a person's, a brand's a company's, a hotel's a thing's.

>>> split_key("imageURL"), split_key("date_finish"), split_key("partnerDisplayName")
(('image', 'url'), ('date', 'finish'), ('partner', 'display', 'name'))
>>> kind_of_tokens(("price", "change"), ""), kind_of_tokens(("name",), "artist")
('change', 'person')
"""

from __future__ import annotations

import functools
import re


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


VALUE_KINDS = (
    *_split("id uuid name person first_name last_name username company city country country_code"),
    *_split("region timezone location address street zip latitude longitude email phone url image"),
    *_split("date datetime time year month day hour duration price salary currency percentage"),
    *_split("change rating rank count population audience temperature humidity age measure status"),
    *_split("status_code message error language language_code title description symbol color"),
    *_split("hex_color gender boolean slug code token version ip query word number null"),
)
"""Every kind :func:`kind_of_tokens` (and ``values.value_kind``) can answer."""

_KIND_WORDS = {
    "id": "id",
    "uuid": "uuid guid",
    "slug": "slug permalink",
    "name": "name",
    "person": "author artist singer actor actress director owner creator host player manager "
    "customer guest driver referee composer writer person people member employee speaker "
    "coach contact reporter journalist producer captain user fullname",
    "first_name": "firstname",
    "last_name": "lastname surname",
    "username": "username login handle nickname screenname",
    "company": "company brand manufacturer publisher vendor seller merchant organization "
    "organisation org employer airline carrier agency label studio network sponsor business firm",
    "city": "city town municipality locality",
    "country": "country nation nationality",
    "region": "region state province continent county",
    "timezone": "timezone tz",
    "location": "location place",
    "address": "address addr",
    "street": "street",
    "zip": "zip zipcode postcode postal postalcode",
    "latitude": "lat latitude",
    "longitude": "lon lng long longitude",
    "email": "email mail",
    "phone": "phone tel telephone mobile fax cellphone phonenumber",
    "url": "url uri link href website homepage site web",
    "image": "image img photo picture pic thumbnail thumb avatar logo icon poster cover banner "
    "artwork screenshot",
    "date": "date birthday dob birthdate released release expiry deadline",
    "datetime": "at timestamp datetime created updated modified published posted",
    "time": "time clock",
    "year": "year yr",
    "month": "month",
    "day": "day weekday",
    "hour": "hour",
    "duration": "duration runtime",
    "price": "price amount cost fee fare budget balance revenue income subtotal tax spend payment",
    "salary": "salary wage",
    "currency": "currency",
    "percentage": "percent percentage pct ratio rate probability confidence yield",
    "change": "change delta growth diff",
    "rating": "rating star score grade",
    "rank": "rank ranking index seq",
    "count": "count total quantity qty number num stock inventory capacity seat",
    "population": "population",
    "audience": "follower view like fan subscriber play download listener visit visitor "
    "favorite favourite",
    "temperature": "temperature temp dewpoint",
    "humidity": "humidity",
    "age": "age",
    "measure": "weight height width length distance area depth elevation altitude speed size "
    "volume",
    "status": "status availability",
    "message": "message msg",
    "error": "error",
    "language": "language lang",
    "language_code": "locale",
    "title": "title headline heading subject",
    "description": "description desc summary text content body bio biography about overview "
    "detail comment review note caption snippet excerpt abstract info tagline lyric answer "
    "question story",
    "symbol": "symbol ticker",
    "color": "color colour",
    "hex_color": "hex",
    "gender": "gender sex",
    "code": "code",
    "token": "token hash key signature secret checksum password",
    "version": "version",
    "ip": "ip",
    "query": "query q keyword term search",
    "word": "type category kind genre tag format mode level class tier group topic",
}
_TOKEN_KINDS = {word: kind for kind, words in _KIND_WORDS.items() for word in words.split()}

_PHRASES = {
    "first_name": "first_name",
    "given_name": "first_name",
    "last_name": "last_name",
    "family_name": "last_name",
    "sur_name": "last_name",
    "user_name": "username",
    "screen_name": "username",
    "display_name": "username",
    "nick_name": "username",
    "full_name": "person",
    "country_code": "country_code",
    "country_name": "country",
    "city_name": "city",
    "company_name": "company",
    "zip_code": "zip",
    "postal_code": "zip",
    "post_code": "zip",
    "currency_code": "currency",
    "language_code": "language_code",
    "lang_code": "language_code",
    "phone_number": "phone",
    "time_zone": "timezone",
    "date_time": "datetime",
    "time_stamp": "datetime",
    "feel_like": "temperature",
    "market_cap": "price",
    "street_address": "address",
    "status_code": "status_code",
    "e_mail": "email",
    "home_page": "url",
    "web_site": "url",
}
_FLAG_PREFIXES = frozenset(_split("is has can should allow allows enable enabled"))
_COUNT_PREFIXES = frozenset(_split("num number count n no"))

_PEOPLE = frozenset(_KIND_WORDS["person"].split())
_COMPANIES = frozenset(_KIND_WORDS["company"].split())
_NAME_OF = {
    **dict.fromkeys(_PEOPLE, "person"),
    **dict.fromkeys(_COMPANIES, "company"),
    **dict.fromkeys(("city", "town"), "city"),
    **dict.fromkeys(("country", "nation"), "country"),
    **dict.fromkeys(("first", "given"), "first_name"),
    **dict.fromkeys(("last", "sur", "family"), "last_name"),
    **dict.fromkeys(("screen", "display", "nick", "login"), "username"),
}

GENERIC_CONTAINERS = frozenset(
    _split(
        "result data item record response entry list value content object row hit node edge element "
        "payload body output info detail page collection match"
    )
)
"""Keys that say nothing about what their objects are (``results``, ``data``, ``items``)."""

ADJECTIVES = _split(
    "Silver Golden Blue Green Royal Grand Little Bright Quiet Crystal Sunny Urban Wild Northern "
    "Southern Eastern Western Central Hidden Happy Modern Classic Rustic Cozy Lucky Maple Cedar "
    "Stone Iron Red Black White Emerald Coral Amber Velvet Misty Noble Swift"
)
NOUNS = _split(
    "Harbor River Garden Bridge Valley Summit Lake Forest Meadow Coast Bay Park Square Tower Gate "
    "Hill Field Point Haven Grove Ridge Crown Anchor Lantern Orchard Falcon Fox Oak Pine Willow "
    "Star Moon Wave Peak Island Canyon Trail Spring Horizon"
)
_DESC_ADJECTIVES = _split(
    "friendly modern spacious reliable quiet central popular affordable detailed classic fresh "
    "elegant bright comfortable fast simple flexible generous lively well-kept"
)
_DESC_NOUNS = _split(
    "service views location design atmosphere selection quality comfort staff coverage "
    "performance features value collection community layout interface history menu support"
)
DESC_WORDS = (_DESC_ADJECTIVES, _DESC_NOUNS)
"""Lower-case adjectives and nouns for descriptions."""

TITLES = (
    "{adj} {noun}",
    "The {adj} {noun}",
    "{noun} of the {noun2}",
    "{adj} {noun} and the {noun2}",
    "Beyond the {noun}",
    "A Guide to the {adj} {noun}",
)
DESCRIPTIONS = (
    "A {adj} {noun} in the heart of {city}.",
    "Known for its {adj} {noun} and {adj2} {noun2}.",
    "Offers {adj} {noun} and {noun2} at a fair price.",
    "Popular with locals for its {adj} {noun}.",
    "Recently updated with {adj} {noun} and better {noun2}.",
    "Visitors praise the {adj} {noun} and the {noun2}.",
)
CURRENCIES = _split(
    "USD EUR GBP JPY CAD AUD CHF CNY INR BRL MXN SEK NOK DKK SGD HKD NZD ZAR KRW TRY"
)
SYMBOLS = _split(
    "AAPL MSFT GOOGL AMZN NVDA META TSLA NFLX JPM V MA KO PEP DIS INTC AMD ORCL IBM CSCO ADBE "
    "CRM PYPL UBER SHOP BABA TSM XOM WMT NKE SBUX"
)
LANGUAGES = (
    ("English", "en"),
    ("Spanish", "es"),
    ("French", "fr"),
    ("German", "de"),
    ("Portuguese", "pt"),
    ("Italian", "it"),
    ("Japanese", "ja"),
    ("Chinese", "zh"),
    ("Korean", "ko"),
    ("Arabic", "ar"),
    ("Hindi", "hi"),
    ("Russian", "ru"),
    ("Dutch", "nl"),
    ("Turkish", "tr"),
    ("Polish", "pl"),
    ("Swedish", "sv"),
)
MONTHS = _split(
    "January February March April May June July August September October November December"
)
WEEKDAYS = _split("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
STATUSES = ("active", "available", "confirmed", "completed", "pending", "open")
MESSAGES = ("Success", "OK", "Request processed successfully.", "Data retrieved successfully.")
NAME_SUFFIXES = {
    "hotel": ("Hotel", "Inn", "Resort", "Suites", "Lodge"),
    "restaurant": ("Bistro", "Kitchen", "Grill", "Cafe", "Eatery"),
    "venue": ("Arena", "Hall", "Theatre", "Club"),
    "team": ("FC", "United", "Rovers", "Athletic"),
    "club": ("FC", "United", "Club"),
    "store": ("Store", "Market", "Outlet", "Boutique"),
    "shop": ("Shop", "Boutique", "Store"),
    "school": ("Academy", "School", "Institute"),
    "university": ("University", "College", "Institute"),
    "museum": ("Museum", "Gallery"),
    "bar": ("Bar", "Pub", "Tavern"),
    "gym": ("Fitness", "Gym"),
    "park": ("Park", "Gardens"),
    "airport": ("Airport",),
    "station": ("Station",),
    "cafe": ("Cafe", "Coffee House"),
    "stadium": ("Stadium", "Arena"),
    "hospital": ("Hospital", "Medical Center"),
    "library": ("Library",),
}
"""What the names of some kinds of things end with (``Silver Harbor Hotel``)."""
for _word in NAME_SUFFIXES:
    _TOKEN_KINDS.setdefault(_word, "name")

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_LEAF_BASES = {
    "str": "str",
    "string": "str",
    "text": "str",
    "int": "int",
    "integer": "int",
    "long": "int",
    "float": "float",
    "number": "float",
    "double": "float",
    "decimal": "float",
    "bool": "bool",
    "boolean": "bool",
    "nonetype": "null",
    "none": "null",
    "null": "null",
    "list": "list",
    "array": "list",
    "tuple": "list",
    "empty list": "list",
    "dict": "dict",
    "object": "dict",
    "empty dict": "dict",
}


@functools.lru_cache(maxsize=16384)
def split_key(key: str) -> tuple[str, ...]:
    """A key's words, lower case (camel case and any separators split)."""
    return tuple(part.lower() for part in _CAMEL.findall(str(key)))


@functools.lru_cache(maxsize=16384)
def singular(word: str) -> str:
    """A plural English word made singular, roughly (``categories`` → ``category``)."""
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@functools.lru_cache(maxsize=4096)
def leaf_base(leaf_type: object) -> str:
    """The value type a template leaf names: ``str``, ``int``, ``float``, ``bool``, ``null``, ...

    One of ``str``, ``int``, ``float``, ``bool``, ``null``, ``list`` or ``dict``; ``str or null``
    is ``str`` and an unknown text is ``str``.
    """
    if isinstance(leaf_type, bool):
        return "bool"
    if isinstance(leaf_type, int):
        return "int"
    if isinstance(leaf_type, float):
        return "float"
    if leaf_type is None:
        return "null"
    text = str(leaf_type).strip().lower()
    found = _LEAF_BASES.get(text)
    if found is not None:
        return found
    if " or " in text:
        bases = [leaf_base(part) for part in text.split(" or ")]
        kept = [b for b in bases if b != "null"]
        return kept[0] if kept else "null"
    if text.startswith("list of ") or text.startswith("["):
        return "list"
    return "str"


def kind_of_tokens(tokens: tuple[str, ...], context: str) -> str:
    """The kind of a key given as singular lower-case words (see the module docstring).

    Args:
        tokens: the key's words.
        context: what the enclosing object is (a singular word, or ``""``).
    """
    words = tuple(t for t in tokens if not t.isdigit())
    if not words:
        return "word"
    if len(words) > 1:
        if words[0] in _FLAG_PREFIXES:
            return "boolean"
        phrase = _PHRASES.get(f"{words[-2]}_{words[-1]}")
        if phrase is not None:
            return phrase
        if words[0] in _COUNT_PREFIXES:
            return "count"
    joined = _TOKEN_KINDS.get("".join(words))
    if joined is not None and len(words) > 1:
        return joined
    for i in range(len(words) - 1, -1, -1):
        kind = _TOKEN_KINDS.get(words[i])
        if kind is None:
            continue
        if kind == "name" and words[i] == "name":
            qualifier = words[i - 1] if i > 0 else context
            return _NAME_OF.get(qualifier, "name")
        if kind == "url" and any(_TOKEN_KINDS.get(w) == "image" for w in words[:i]):
            return "image"
        return kind
    return "word"


def value_hint(key: str, context: str) -> str:
    """What a field's value belongs to (``venue`` for ``venue_name``), else ``context``."""
    words = [singular(t) for t in split_key(key) if not t.isdigit()]
    if words and words[-1] in NAME_SUFFIXES:
        return words[-1]
    if len(words) > 1:
        return words[-2]
    return context
