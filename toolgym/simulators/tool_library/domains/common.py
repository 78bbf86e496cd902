"""What every category shares: field types, common parameters, places and dates.

Categories reuse these names (``city``, ``country_code``, ``symbol``, ``date``, ...), so a value
one tool returns can feed another tool of its category, and the response synthesizer can infer
coherent values from the keys.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolgym.simulators.tool_library.domains.fields import words
from toolgym.simulators.tool_library.domains.spec import ParamSpec, parse_params


@dataclass(frozen=True, slots=True)
class Place:
    """A real city, with what parameters bound to a place take from it."""

    city: str
    country: str
    country_code: str
    latitude: float
    longitude: float
    currency: str
    language: str
    timezone: str


PLACES: tuple[Place, ...] = tuple(
    Place(c, n, cc, lat, lon, cur, lang, tz)
    for c, n, cc, lat, lon, cur, lang, tz in (
        ("Lisbon", "Portugal", "PT", 38.7223, -9.1393, "EUR", "pt", "Europe/Lisbon"),
        ("Paris", "France", "FR", 48.8566, 2.3522, "EUR", "fr", "Europe/Paris"),
        ("London", "United Kingdom", "GB", 51.5074, -0.1278, "GBP", "en", "Europe/London"),
        ("New York", "United States", "US", 40.7128, -74.006, "USD", "en", "America/New_York"),
        ("Tokyo", "Japan", "JP", 35.6762, 139.6503, "JPY", "ja", "Asia/Tokyo"),
        ("Berlin", "Germany", "DE", 52.52, 13.405, "EUR", "de", "Europe/Berlin"),
        ("Madrid", "Spain", "ES", 40.4168, -3.7038, "EUR", "es", "Europe/Madrid"),
        ("Rome", "Italy", "IT", 41.9028, 12.4964, "EUR", "it", "Europe/Rome"),
        ("Amsterdam", "Netherlands", "NL", 52.3676, 4.9041, "EUR", "nl", "Europe/Amsterdam"),
        ("Sydney", "Australia", "AU", -33.8688, 151.2093, "AUD", "en", "Australia/Sydney"),
        ("Toronto", "Canada", "CA", 43.6532, -79.3832, "CAD", "en", "America/Toronto"),
        ("Mexico City", "Mexico", "MX", 19.4326, -99.1332, "MXN", "es", "America/Mexico_City"),
        ("Mumbai", "India", "IN", 19.076, 72.8777, "INR", "hi", "Asia/Kolkata"),
        ("Singapore", "Singapore", "SG", 1.3521, 103.8198, "SGD", "en", "Asia/Singapore"),
        ("Dubai", "United Arab Emirates", "AE", 25.2048, 55.2708, "AED", "ar", "Asia/Dubai"),
        ("Cape Town", "South Africa", "ZA", -33.9249, 18.4241, "ZAR", "en", "Africa/Johannesburg"),
        ("Seoul", "South Korea", "KR", 37.5665, 126.978, "KRW", "ko", "Asia/Seoul"),
        ("Istanbul", "Turkey", "TR", 41.0082, 28.9784, "TRY", "tr", "Europe/Istanbul"),
        ("Chicago", "United States", "US", 41.8781, -87.6298, "USD", "en", "America/Chicago"),
        (
            "San Francisco",
            "United States",
            "US",
            37.7749,
            -122.4194,
            "USD",
            "en",
            "America/Los_Angeles",
        ),
        ("Austin", "United States", "US", 30.2672, -97.7431, "USD", "en", "America/Chicago"),
        ("Barcelona", "Spain", "ES", 41.3874, 2.1686, "EUR", "es", "Europe/Madrid"),
        ("Vienna", "Austria", "AT", 48.2082, 16.3738, "EUR", "de", "Europe/Vienna"),
        ("Prague", "Czech Republic", "CZ", 50.0755, 14.4378, "CZK", "cs", "Europe/Prague"),
        ("Stockholm", "Sweden", "SE", 59.3293, 18.0686, "SEK", "sv", "Europe/Stockholm"),
        ("Oslo", "Norway", "NO", 59.9139, 10.7522, "NOK", "no", "Europe/Oslo"),
        ("Copenhagen", "Denmark", "DK", 55.6761, 12.5683, "DKK", "da", "Europe/Copenhagen"),
        ("Dublin", "Ireland", "IE", 53.3498, -6.2603, "EUR", "en", "Europe/Dublin"),
        (
            "Buenos Aires",
            "Argentina",
            "AR",
            -34.6037,
            -58.3816,
            "ARS",
            "es",
            "America/Argentina/Buenos_Aires",
        ),
        ("Bangkok", "Thailand", "TH", 13.7563, 100.5018, "THB", "th", "Asia/Bangkok"),
        ("Nairobi", "Kenya", "KE", -1.2921, 36.8219, "KES", "en", "Africa/Nairobi"),
        ("Cairo", "Egypt", "EG", 30.0444, 31.2357, "EGP", "ar", "Africa/Cairo"),
        ("Auckland", "New Zealand", "NZ", -36.8485, 174.7633, "NZD", "en", "Pacific/Auckland"),
        ("Zurich", "Switzerland", "CH", 47.3769, 8.5417, "CHF", "de", "Europe/Zurich"),
        ("Warsaw", "Poland", "PL", 52.2297, 21.0122, "PLN", "pl", "Europe/Warsaw"),
        ("Athens", "Greece", "GR", 37.9838, 23.7275, "EUR", "el", "Europe/Athens"),
        ("Lima", "Peru", "PE", -12.0464, -77.0428, "PEN", "es", "America/Lima"),
        ("Bogota", "Colombia", "CO", 4.711, -74.0721, "COP", "es", "America/Bogota"),
        ("Jakarta", "Indonesia", "ID", -6.2088, 106.8456, "IDR", "id", "Asia/Jakarta"),
        ("Osaka", "Japan", "JP", 34.6937, 135.5023, "JPY", "ja", "Asia/Tokyo"),
        ("Melbourne", "Australia", "AU", -37.8136, 144.9631, "AUD", "en", "Australia/Melbourne"),
        ("Vancouver", "Canada", "CA", 49.2827, -123.1207, "CAD", "en", "America/Vancouver"),
        ("Boston", "United States", "US", 42.3601, -71.0589, "USD", "en", "America/New_York"),
        ("Seattle", "United States", "US", 47.6062, -122.3321, "USD", "en", "America/Los_Angeles"),
        ("Miami", "United States", "US", 25.7617, -80.1918, "USD", "en", "America/New_York"),
    )
)
"""Real cities; one per tool gives its place-bound parameters coherent defaults."""

PLACE_PARAMS: dict[str, str] = {
    "city": "city",
    "country": "country",
    "country_code": "country_code",
    "latitude": "latitude",
    "lat": "latitude",
    "longitude": "longitude",
    "lon": "longitude",
    "lng": "longitude",
    "currency": "currency",
    "base_currency": "currency",
    "language": "language",
    "lang": "language",
    "timezone": "timezone",
}
"""Parameters whose default is the tool's place's attribute of this name."""

COMMON_PARAMS: dict[str, ParamSpec] = {
    p.name: p
    for p in parse_params("""
city STRING | City name, e.g. Lisbon. | Lisbon | city | in a city
country STRING | Country name. | Portugal | country | in a country
country_code STRING | ISO 3166-1 alpha-2 country code (e.g. US, FR). | US | country | in a country
latitude NUMBER | Latitude in decimal degrees. | 38.7223
longitude NUMBER | Longitude in decimal degrees. | -9.1393
lat NUMBER | Latitude in decimal degrees. | 38.7223 | latitude | near a point
lon NUMBER | Longitude in decimal degrees. | -9.1393 | longitude
lng NUMBER | Longitude in decimal degrees. | -9.1393 | longitude
currency STRING | ISO 4217 currency code (e.g. USD, EUR). | USD
base_currency STRING | ISO 4217 code of the base currency. | USD | base currency
language STRING | ISO 639-1 language code (e.g. en, fr). | en | language | in a language
lang STRING | Language code of the results (e.g. en). | en | language
timezone STRING | IANA time zone name. | Europe/Lisbon | time zone
q STRING | Search query: a name or keywords. | london | query | matching a query
query STRING | Free-text search query. | london | query | matching a query
keyword STRING | Keyword to search for. | london | keyword | matching a keyword
limit NUMBER | Maximum number of results to return. | 10; 20; 5; 25
page NUMBER | Page number of the results, starting at 1. | 1
offset NUMBER | Number of results to skip. | 0
sort ENUM | Sort order of the results. | relevance; newest; popularity; rating | sort order
order ENUM | Sort direction. | desc; asc | sort direction
date DATE | Date in YYYY-MM-DD format. | 2024-03-15; 2024-05-02; 2024-06-15; 2024-09-10 | date | on a date
from_date DATE | Start of the period (YYYY-MM-DD). | 2024-01-01; 2024-03-01 | start date
to_date DATE | End of the period (YYYY-MM-DD). | 2024-06-30; 2024-04-30 | end date
start_date DATE | First day (YYYY-MM-DD). | 2024-06-01 | start date
end_date DATE | Last day (YYYY-MM-DD). | 2024-06-30 | end date
year NUMBER | Year (four digits). | 2023; 2024; 2022 | year | from a year
month NUMBER | Month number (1-12). | 6; 11
radius NUMBER | Search radius in kilometres. | 5; 10; 25
min_price NUMBER | Minimum price. | 50; 100 | minimum price
max_price NUMBER | Maximum price. | 200; 500 | maximum price
min_rating NUMBER | Minimum average rating (0-5). | 4; 3.5 | minimum rating
symbol STRING | Ticker symbol (e.g. AAPL). | AAPL; MSFT; TSLA; AMZN | symbol | for a symbol
text STRING | The text to process. | The delivery was fast and the product works perfectly.; I am not happy with the service, the room was dirty and noisy.; The new update makes the app much easier to use.; Our team will meet on Monday to review the quarterly results.
url STRING | Full URL, including the scheme. | https://example.com/blog/launch-announcement | URL | for a URL
domain STRING | Domain name without the scheme. | example.com; github.com | domain | for a domain
email STRING | Email address. | jane.doe@example.com; support@example.com | email address
phone STRING | Phone number in international E.164 format. | +14155552671 | phone number
phone_number STRING | Phone number in international E.164 format. | +447911123456 | phone number
username STRING | The account's username. | janedoe; techcrunch; natgeo | username | by username
name STRING | Name to look up. | Smith; Emma | name | by name
ip STRING | IPv4 or IPv6 address. | 8.8.8.8; 1.1.1.1 | IP address
units ENUM | Unit system of the measures. | metric; imperial; standard | units
format ENUM | Response format. | json; xml; csv | format
category STRING | Category to filter by. | general; top | category | in a category
status STRING | Status to filter by. | active; open | status
genre STRING | Genre to filter by. | drama; rock; action | genre | in a genre
tag STRING | Tag to filter by. | python; travel | tag | with a tag
title STRING | Title (or part of it). | The Great Gatsby; Inception | title | by title
address STRING | Street address. | 1600 Amphitheatre Parkway, Mountain View, CA | address
amount NUMBER | Amount of money. | 100; 250.5; 1000 | amount
from STRING | ISO code of the source currency. | USD; EUR; GBP | source currency
to STRING | ISO code of the target currency. | EUR; JPY; USD | target currency
include_details BOOLEAN | Whether to include extra details. | true; false | extra details
verified BOOLEAN | Only return verified entries. | true | verification
""")
}
"""Parameters every category may use (a category's own ``params`` override them)."""

NAME_SUFFIXES = tuple(
    words(
        "Scout Hub Tracker Finder Genie Pro Base Wise Pilot Radar Box Lab Stack Flow Sync Point "
        "Link Desk Kit Nest Bot Cloud Metrics Feed Watch Mate Logic Works Zone Spot Sense Line Deck "
        "Port Craft Grid Pulse Wave Bridge Engine IQ Now Go Express Central Connect Direct Insight "
        "Vault Atlas Beacon Compass Forge Matrix Nexus Orbit Prime Quest Rocket Signal Spark Sphere "
        "Stream Vista"
    )
)
"""Second words of tool names ("StayScout", "Fare Tracker")."""

NAME_TAILS = ("API", "API", "API", "Data", "Service", "V2", "Live", "Search", "Pro API", "Lite")
"""Last words some tool names end with ("Fare Tracker API")."""

ADJECTIVES = (
    "fast",
    "simple",
    "reliable",
    "real-time",
    "comprehensive",
    "lightweight",
    "developer-friendly",
    "scalable",
    "free",
    "accurate",
    "global",
    "easy-to-use",
)
"""Adjectives of tool descriptions ("a fast hotel search API")."""

TAGLINES = (
    "Data is refreshed every day.",
    "Results come back as clean JSON.",
    "Coverage spans more than 190 countries.",
    "A free plan is available for testing.",
    "Responses are cached for low latency.",
    "Built for mobile and web apps alike.",
    "Trusted by thousands of developers.",
    "All endpoints support pagination.",
    "Uptime is monitored around the clock.",
    "Ideal for dashboards and chatbots.",
)
"""Closing sentences of tool descriptions."""
