"""The synthetic gazetteer of ``OpenWeather-v0``, kept as it was for reproducibility.

The gazetteer holds a little over 2,000 places, built once per seed from four sources:

* the ~970 real places of Faker's geo provider (GeoNames-derived names, coordinates, ISO country
  codes and IANA time zones);
* about 90 well-known world cities written here (capitals and large cities most users would ask
  about, with approximate coordinates and populations);
* the 64 US cities of :mod:`toolgym.simulators.places`, with a real central zip code each;
* Faker-generated towns in a dozen locales, placed near a real place of the locale's country (their
  names are real for some locales, such as ``de_DE`` or ``it_IT``, and invented for others; their
  coordinates are synthetic).

US places carry a two-letter state code (``"CA"``) and a 5-digit zip code; a US place from Faker's
geo data gets the state of the nearest known US city or state centre, which is approximate near
state borders. Populations of Faker places are synthetic. Everything is drawn from generators
seeded with :func:`~toolgym.simulators.seeding.stable_seed`, so a seed gives the same gazetteer
on every machine.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Iterator

import numpy as np

from toolgym.simulators.gazetteer.place import Place, PlaceIndex, haversine_km
from toolgym.simulators.places import CITIES
from toolgym.simulators.seeding import stable_rng, stable_seed

US_STATES: dict[str, tuple[str, float, float, str]] = {
    "AL": ("Alabama", 32.8, -86.8, "America/Chicago"),
    "AK": ("Alaska", 61.4, -150.0, "America/Anchorage"),
    "AZ": ("Arizona", 34.2, -111.7, "America/Phoenix"),
    "AR": ("Arkansas", 34.9, -92.4, "America/Chicago"),
    "CA": ("California", 37.2, -119.5, "America/Los_Angeles"),
    "CO": ("Colorado", 39.0, -105.5, "America/Denver"),
    "CT": ("Connecticut", 41.6, -72.7, "America/New_York"),
    "DE": ("Delaware", 39.0, -75.5, "America/New_York"),
    "DC": ("District of Columbia", 38.9, -77.0, "America/New_York"),
    "FL": ("Florida", 28.6, -82.4, "America/New_York"),
    "GA": ("Georgia", 32.7, -83.4, "America/New_York"),
    "HI": ("Hawaii", 20.8, -156.3, "Pacific/Honolulu"),
    "ID": ("Idaho", 44.4, -114.6, "America/Boise"),
    "IL": ("Illinois", 40.0, -89.2, "America/Chicago"),
    "IN": ("Indiana", 39.9, -86.3, "America/Indiana/Indianapolis"),
    "IA": ("Iowa", 42.1, -93.5, "America/Chicago"),
    "KS": ("Kansas", 38.5, -98.4, "America/Chicago"),
    "KY": ("Kentucky", 37.5, -85.3, "America/New_York"),
    "LA": ("Louisiana", 31.1, -92.0, "America/Chicago"),
    "ME": ("Maine", 45.4, -69.2, "America/New_York"),
    "MD": ("Maryland", 39.0, -76.8, "America/New_York"),
    "MA": ("Massachusetts", 42.3, -71.8, "America/New_York"),
    "MI": ("Michigan", 44.3, -85.4, "America/Detroit"),
    "MN": ("Minnesota", 46.3, -94.3, "America/Chicago"),
    "MS": ("Mississippi", 32.7, -89.7, "America/Chicago"),
    "MO": ("Missouri", 38.4, -92.5, "America/Chicago"),
    "MT": ("Montana", 47.0, -109.6, "America/Denver"),
    "NE": ("Nebraska", 41.5, -99.8, "America/Chicago"),
    "NV": ("Nevada", 39.3, -116.6, "America/Los_Angeles"),
    "NH": ("New Hampshire", 43.7, -71.6, "America/New_York"),
    "NJ": ("New Jersey", 40.2, -74.7, "America/New_York"),
    "NM": ("New Mexico", 34.4, -106.1, "America/Denver"),
    "NY": ("New York", 42.9, -75.5, "America/New_York"),
    "NC": ("North Carolina", 35.6, -79.4, "America/New_York"),
    "ND": ("North Dakota", 47.5, -100.5, "America/Chicago"),
    "OH": ("Ohio", 40.3, -82.8, "America/New_York"),
    "OK": ("Oklahoma", 35.6, -97.5, "America/Chicago"),
    "OR": ("Oregon", 43.9, -120.6, "America/Los_Angeles"),
    "PA": ("Pennsylvania", 40.9, -77.8, "America/New_York"),
    "RI": ("Rhode Island", 41.7, -71.5, "America/New_York"),
    "SC": ("South Carolina", 33.9, -80.9, "America/New_York"),
    "SD": ("South Dakota", 44.4, -100.2, "America/Chicago"),
    "TN": ("Tennessee", 35.9, -86.4, "America/Chicago"),
    "TX": ("Texas", 31.5, -99.3, "America/Chicago"),
    "UT": ("Utah", 39.3, -111.7, "America/Denver"),
    "VT": ("Vermont", 44.1, -72.7, "America/New_York"),
    "VA": ("Virginia", 37.5, -78.8, "America/New_York"),
    "WA": ("Washington", 47.4, -120.5, "America/Los_Angeles"),
    "WV": ("West Virginia", 38.6, -80.6, "America/New_York"),
    "WI": ("Wisconsin", 44.6, -89.9, "America/Chicago"),
    "WY": ("Wyoming", 43.0, -107.6, "America/Denver"),
}
"""State code -> (full name, centre latitude, centre longitude, main IANA time zone)."""

_STATE_BY_NAME = {v[0].lower(): k for k, v in US_STATES.items()}

# A real central zip code for each city of places.py (plus Ross, CA, of the original demos).
_CITY_ZIPS: dict[str, str] = {
    "New York": "10001", "Los Angeles": "90012", "Chicago": "60601", "Houston": "77002",
    "Phoenix": "85003", "Philadelphia": "19107", "San Antonio": "78205", "San Diego": "92101",
    "Dallas": "75201", "San Jose": "95113", "Austin": "78701", "Jacksonville": "32202",
    "Fort Worth": "76102", "Columbus": "43215", "Charlotte": "28202", "Indianapolis": "46204",
    "San Francisco": "94102", "Seattle": "98101", "Denver": "80202", "Washington": "20001",
    "Nashville": "37203", "Oklahoma City": "73102", "El Paso": "79901", "Boston": "02108",
    "Portland": "97204", "Las Vegas": "89101", "Detroit": "48226", "Memphis": "38103",
    "Louisville": "40202", "Baltimore": "21202", "Milwaukee": "53202", "Albuquerque": "87102",
    "Tucson": "85701", "Fresno": "93721", "Sacramento": "95814", "Kansas City": "64106",
    "Atlanta": "30303", "Miami": "33130", "Raleigh": "27601", "Omaha": "68102",
    "Minneapolis": "55401", "Tulsa": "74103", "Cleveland": "44113", "Tampa": "33602",
    "New Orleans": "70112", "Pittsburgh": "15222", "Cincinnati": "45202", "St. Louis": "63101",
    "Orlando": "32801", "Salt Lake City": "84101", "Madison": "53703", "Durham": "27701",
    "Cary": "27511", "Chattanooga": "37402", "Little Rock": "72201", "Cape Coral": "33904",
    "Boise": "83702", "Spokane": "99201", "Des Moines": "50309", "Richmond": "23219",
    "Buffalo": "14202", "Anchorage": "99501", "Honolulu": "96813", "Savannah": "31401",
}  # fmt: skip

# Well-known world cities: name, ISO-2 country, lat, lon, IANA zone, population (thousands).
_WORLD_ROWS: tuple[tuple[str, str, float, float, str, int], ...] = (
    ("London", "GB", 51.5085, -0.1257, "Europe/London", 8980),
    ("Birmingham", "GB", 52.4814, -1.8998, "Europe/London", 1150),
    ("Manchester", "GB", 53.4809, -2.2374, "Europe/London", 550),
    ("Liverpool", "GB", 53.4106, -2.9779, "Europe/London", 500),
    ("Edinburgh", "GB", 55.9521, -3.1965, "Europe/London", 530),
    ("Glasgow", "GB", 55.8651, -4.2576, "Europe/London", 630),
    ("Dublin", "IE", 53.3331, -6.2489, "Europe/Dublin", 1170),
    ("Paris", "FR", 48.8534, 2.3488, "Europe/Paris", 2140),
    ("Lyon", "FR", 45.7485, 4.8467, "Europe/Paris", 520),
    ("Nice", "FR", 43.7031, 7.2661, "Europe/Paris", 340),
    ("Berlin", "DE", 52.5244, 13.4105, "Europe/Berlin", 3650),
    ("Munich", "DE", 48.1374, 11.5755, "Europe/Berlin", 1490),
    ("Hamburg", "DE", 53.5753, 10.0153, "Europe/Berlin", 1850),
    ("Frankfurt", "DE", 50.1155, 8.6842, "Europe/Berlin", 760),
    ("Madrid", "ES", 40.4165, -3.7026, "Europe/Madrid", 3300),
    ("Barcelona", "ES", 41.3888, 2.159, "Europe/Madrid", 1620),
    ("Lisbon", "PT", 38.7167, -9.1333, "Europe/Lisbon", 545),
    ("Rome", "IT", 41.8947, 12.4839, "Europe/Rome", 2870),
    ("Milan", "IT", 45.4643, 9.1895, "Europe/Rome", 1390),
    ("Venice", "IT", 45.4371, 12.3326, "Europe/Rome", 260),
    ("Amsterdam", "NL", 52.374, 4.8897, "Europe/Amsterdam", 870),
    ("Rotterdam", "NL", 51.9225, 4.4792, "Europe/Amsterdam", 650),
    ("Brussels", "BE", 50.8505, 4.3488, "Europe/Brussels", 1210),
    ("Vienna", "AT", 48.2085, 16.3721, "Europe/Vienna", 1900),
    ("Zurich", "CH", 47.3667, 8.55, "Europe/Zurich", 420),
    ("Geneva", "CH", 46.2022, 6.1457, "Europe/Zurich", 200),
    ("Prague", "CZ", 50.088, 14.4208, "Europe/Prague", 1300),
    ("Warsaw", "PL", 52.2298, 21.0118, "Europe/Warsaw", 1790),
    ("Budapest", "HU", 47.4984, 19.0404, "Europe/Budapest", 1750),
    ("Copenhagen", "DK", 55.6759, 12.5655, "Europe/Copenhagen", 640),
    ("Stockholm", "SE", 59.3326, 18.0649, "Europe/Stockholm", 975),
    ("Oslo", "NO", 59.9127, 10.7461, "Europe/Oslo", 700),
    ("Helsinki", "FI", 60.1695, 24.9354, "Europe/Helsinki", 660),
    ("Reykjavik", "IS", 64.1355, -21.8954, "Atlantic/Reykjavik", 135),
    ("Athens", "GR", 37.9838, 23.7278, "Europe/Athens", 665),
    ("Istanbul", "TR", 41.0138, 28.9497, "Europe/Istanbul", 15460),
    ("Moscow", "RU", 55.7522, 37.6156, "Europe/Moscow", 12500),
    ("Saint Petersburg", "RU", 59.9386, 30.3141, "Europe/Moscow", 5380),
    ("Kyiv", "UA", 50.4547, 30.5238, "Europe/Kyiv", 2950),
    ("Cairo", "EG", 30.0626, 31.2497, "Africa/Cairo", 9540),
    ("Lagos", "NG", 6.4541, 3.3947, "Africa/Lagos", 15390),
    ("Nairobi", "KE", -1.2833, 36.8167, "Africa/Nairobi", 4400),
    ("Johannesburg", "ZA", -26.2023, 28.0436, "Africa/Johannesburg", 5640),
    ("Cape Town", "ZA", -33.9258, 18.4232, "Africa/Johannesburg", 4620),
    ("Casablanca", "MA", 33.5883, -7.6114, "Africa/Casablanca", 3360),
    ("Dubai", "AE", 25.0772, 55.3093, "Asia/Dubai", 3330),
    ("Riyadh", "SA", 24.6877, 46.7219, "Asia/Riyadh", 7680),
    ("Tehran", "IR", 35.6944, 51.4215, "Asia/Tehran", 8690),
    ("Karachi", "PK", 24.8608, 67.0104, "Asia/Karachi", 14910),
    ("Mumbai", "IN", 19.0144, 72.8479, "Asia/Kolkata", 12440),
    ("Delhi", "IN", 28.6519, 77.2315, "Asia/Kolkata", 16790),
    ("Bangalore", "IN", 12.9719, 77.5937, "Asia/Kolkata", 8440),
    ("Kolkata", "IN", 22.5626, 88.363, "Asia/Kolkata", 4500),
    ("Dhaka", "BD", 23.7104, 90.4074, "Asia/Dhaka", 10360),
    ("Bangkok", "TH", 13.754, 100.5014, "Asia/Bangkok", 10540),
    ("Singapore", "SG", 1.2897, 103.8501, "Asia/Singapore", 5640),
    ("Kuala Lumpur", "MY", 3.1412, 101.6865, "Asia/Kuala_Lumpur", 1810),
    ("Jakarta", "ID", -6.2146, 106.8451, "Asia/Jakarta", 10560),
    ("Manila", "PH", 14.6042, 120.9822, "Asia/Manila", 1780),
    ("Hanoi", "VN", 21.0245, 105.8412, "Asia/Bangkok", 8050),
    ("Beijing", "CN", 39.9075, 116.3972, "Asia/Shanghai", 21540),
    ("Shanghai", "CN", 31.2222, 121.4581, "Asia/Shanghai", 24870),
    ("Hong Kong", "HK", 22.2783, 114.1747, "Asia/Hong_Kong", 7480),
    ("Taipei", "TW", 25.0478, 121.5319, "Asia/Taipei", 2650),
    ("Seoul", "KR", 37.5683, 126.9778, "Asia/Seoul", 9780),
    ("Tokyo", "JP", 35.6895, 139.6917, "Asia/Tokyo", 13960),
    ("Osaka", "JP", 34.6937, 135.5022, "Asia/Tokyo", 2750),
    ("Kyoto", "JP", 35.0211, 135.7538, "Asia/Tokyo", 1460),
    ("Sydney", "AU", -33.8679, 151.2073, "Australia/Sydney", 5310),
    ("Melbourne", "AU", -37.814, 144.9633, "Australia/Melbourne", 5080),
    ("Brisbane", "AU", -27.4679, 153.0281, "Australia/Brisbane", 2560),
    ("Auckland", "NZ", -36.8485, 174.7635, "Pacific/Auckland", 1660),
    ("Wellington", "NZ", -41.2866, 174.7756, "Pacific/Auckland", 215),
    ("Toronto", "CA", 43.7001, -79.4163, "America/Toronto", 2930),
    ("Montreal", "CA", 45.5088, -73.5878, "America/Toronto", 1780),
    ("Vancouver", "CA", 49.2497, -123.1193, "America/Vancouver", 675),
    ("Calgary", "CA", 51.0501, -114.0853, "America/Edmonton", 1310),
    ("Ottawa", "CA", 45.4112, -75.6981, "America/Toronto", 1020),
    ("Mexico City", "MX", 19.4285, -99.1277, "America/Mexico_City", 9210),
    ("Guadalajara", "MX", 20.6668, -103.3918, "America/Mexico_City", 1390),
    ("Havana", "CU", 23.133, -82.383, "America/Havana", 2130),
    ("Bogota", "CO", 4.6097, -74.0817, "America/Bogota", 7410),
    ("Lima", "PE", -12.0432, -77.0282, "America/Lima", 9750),
    ("Santiago", "CL", -33.4569, -70.6483, "America/Santiago", 6160),
    ("Buenos Aires", "AR", -34.6132, -58.3772, "America/Argentina/Buenos_Aires", 3080),
    ("Sao Paulo", "BR", -23.5475, -46.6361, "America/Sao_Paulo", 12330),
    ("Rio de Janeiro", "BR", -22.9028, -43.2075, "America/Sao_Paulo", 6750),
    ("Caracas", "VE", 10.488, -66.8792, "America/Caracas", 2080),
    ("Ross", "US", 37.9624, -122.5555, "America/Los_Angeles", 2),
)

# Locales whose Faker towns extend the gazetteer, with the country they are placed in and how many.
_FAKER_LOCALES: tuple[tuple[str, str, int], ...] = (
    ("en_US", "US", 320),
    ("de_DE", "DE", 90),
    ("it_IT", "IT", 90),
    ("es_ES", "ES", 70),
    ("pl_PL", "PL", 60),
    ("en_IN", "IN", 80),
    ("nl_NL", "NL", 60),
    ("fr_FR", "FR", 70),
    ("en_GB", "GB", 70),
    ("pt_BR", "BR", 60),
    ("en_AU", "AU", 60),
    ("en_CA", "CA", 60),
)


def normalize_name(text: str) -> str:
    """The synthetic gazetteer's lookup key: accents dropped, lower case, ``+``/spaces unified.

    (The real gazetteer folds more, see :func:`~toolgym.simulators.gazetteer.place.place_key`;
    this one is kept as it was, so ``OpenWeather-v0`` answers as it always did.)

    >>> normalize_name("  Saint+Louis ")
    'saint louis'
    >>> normalize_name("São Paulo") == normalize_name("sao paulo")
    True
    """
    text = unicodedata.normalize("NFKD", text.replace("+", " ").replace("%20", " "))
    text = "".join(c for c in text if not unicodedata.combining(c)).replace(".", " ")
    return " ".join(text.lower().split())


_haversine_km = haversine_km


class Gazetteer(PlaceIndex):
    """The synthetic gazetteer: an immutable collection of :class:`Place` with its lookups."""

    def __init__(self, places: list[Place]) -> None:
        self.places: tuple[Place, ...] = tuple(places)
        self._by_id = {p.id: p for p in self.places}
        by_name: dict[str, list[Place]] = {}
        for p in self.places:
            by_name.setdefault(normalize_name(p.name), []).append(p)
        self._by_name = {
            k: tuple(sorted(v, key=lambda p: (-p.population, p.id))) for k, v in by_name.items()
        }
        self._by_zip = {(p.zip, p.country): p for p in self.places if p.zip}
        self._lat = np.radians(np.array([p.lat for p in self.places]))
        self._lon = np.radians(np.array([p.lon for p in self.places]))
        self._coslat = np.cos(self._lat)
        self._cells: dict[tuple[int, int], list[int]] = {}
        for i, p in enumerate(self.places):
            self._cells.setdefault((math.floor(p.lat), math.floor(p.lon)), []).append(i)

    def __len__(self) -> int:
        return len(self.places)

    def __iter__(self) -> Iterator[Place]:
        return iter(self.places)

    def by_id(self, place_id: int) -> Place | None:
        """The place with this id, or ``None``."""
        return self._by_id.get(place_id)

    def by_city(
        self, name: str, state: str | None = None, country: str | None = None
    ) -> list[Place]:
        """Places called ``name`` (most populous first), optionally within a state and country.

        Args:
            name: the place name; case, accents, ``+`` and extra spaces are ignored.
            state: a US state code or full name (``"CA"`` or ``"California"``).
            country: an ISO-2 country code (case-insensitive).
        """
        found = self._by_name.get(normalize_name(name), ())
        if country:
            code = country.strip().upper()
            found = tuple(p for p in found if p.country == code)
        if state:
            key = normalize_name(state)
            code = _STATE_BY_NAME.get(key, key.upper())
            found = tuple(p for p in found if p.state == code)
        return list(found)

    def by_zip(self, zip_code: str, country: str = "US") -> Place | None:
        """The place with this zip code in ``country``, or ``None``."""
        return self._by_zip.get((zip_code.strip(), country.strip().upper()))

    def nearest(self, lat: float, lon: float) -> Place:
        """The place closest to (``lat``, ``lon``) on the sphere."""
        return self.places[self._nearest_index(lat, lon)[0]]

    def nearest_within(self, lat: float, lon: float, km: float) -> Place | None:
        """The closest place if it lies within ``km`` kilometres, else ``None``."""
        if km > 200.0:
            index, dist = self._nearest_index(lat, lon)
            return self.places[index] if dist <= km else None
        dlat = math.ceil(km / 111.0)
        coslat = max(math.cos(math.radians(min(89.0, abs(lat) + dlat))), 1e-3)
        dlon = min(180, math.ceil(km / (111.0 * coslat)))
        best, best_d = None, km
        row, col = math.floor(lat), math.floor(lon)
        for r in range(row - dlat, row + dlat + 1):
            for c in range(col - dlon, col + dlon + 1):
                for i in self._cells.get((r, (c + 180) % 360 - 180), ()):
                    p = self.places[i]
                    d = _haversine_km(lat, lon, p.lat, p.lon)
                    if d <= best_d:
                        best, best_d = p, d
        return best

    def _nearest_index(self, lat: float, lon: float) -> tuple[int, float]:
        p, lam = math.radians(lat), math.radians(lon)
        h = (
            np.sin((self._lat - p) / 2) ** 2
            + self._coslat * math.cos(p) * np.sin((self._lon - lam) / 2) ** 2
        )
        i = int(np.argmin(h))
        return i, 2 * 6371.0 * math.asin(min(1.0, math.sqrt(float(h[i]))))


def _place_id(name: str, country: str, lat: float, lon: float, used: set[int]) -> int:
    pid = 1_000_000 + stable_seed("place", name, country, f"{lat:.2f}", f"{lon:.2f}") % 8_999_999
    while pid in used:
        pid = 1_000_000 + (pid - 1_000_000 + 7919) % 8_999_999
    used.add(pid)
    return pid


def _us_state(lat: float, lon: float) -> str:
    """The state of the nearest known US city or state centre (approximate near borders)."""
    best, best_d = "", float("inf")
    for c in CITIES:
        d = _haversine_km(lat, lon, c.lat, c.lon)
        if d < best_d:
            best, best_d = c.state, d
    for code, (_, slat, slon, _) in US_STATES.items():
        d = _haversine_km(lat, lon, slat, slon)
        if d < best_d:
            best, best_d = code, d
    return best


def _build(seed: int) -> Gazetteer:
    from faker import Faker
    from faker.providers.geo import Provider as GeoProvider

    rng = stable_rng("gazetteer", seed)
    used_ids: set[int] = set()
    used_zips: set[str] = set()
    seen: set[tuple[str, str, str]] = set()
    places: list[Place] = []

    def add(name: str, country: str, state: str, lat: float, lon: float, tz: str, pop: int,
            zip_code: str = "") -> Place | None:  # fmt: skip
        key = (normalize_name(name), country, state)
        if key in seen:
            return None
        seen.add(key)
        lat, lon = round(lat, 4), round(lon, 4)
        place = Place(
            _place_id(name, country, lat, lon, used_ids), name, country, state, lat, lon, tz,
            int(pop), zip_code,
        )  # fmt: skip
        if zip_code:
            used_zips.add(zip_code)
        places.append(place)
        return place

    land = GeoProvider.land_coords
    us_land = [r for r in land if r[3] == "US"]

    # 1. The US cities of places.py, with real zips and the zone of the nearest real US place.
    for rank, c in enumerate(CITIES):
        near = min(us_land, key=lambda r: _haversine_km(c.lat, c.lon, float(r[0]), float(r[1])))
        tz = US_STATES[c.state][3] if c.state in ("HI", "AK", "AZ") else near[4]
        if c.name == "El Paso":
            tz = "America/Denver"
        pop = int(8_300_000 / (rank + 1) ** 0.75 * (0.8 + 0.4 * rng.random()))
        add(c.name, "US", c.state, c.lat, c.lon, tz, pop, _CITY_ZIPS[c.name])

    # 2. Well-known world cities.
    for name, country, lat, lon, tz, thousands in _WORLD_ROWS:
        zip_code = "94957" if name == "Ross" else ""
        add(name, country, "CA" if name == "Ross" else "", lat, lon, tz, thousands * 1000, zip_code)

    # 3. Faker's real places (GeoNames-derived).
    fake_us = Faker("en_US")
    fake_us.seed_instance(stable_seed("gazetteer-zips", seed))
    for lat_s, lon_s, name, country, tz in land:
        lat, lon = float(lat_s), float(lon_s)
        pop = int(math.exp(rng.uniform(math.log(20_000), math.log(900_000))))
        state, zip_code = "", ""
        if country == "US":
            state = _us_state(lat, lon)
            zip_code = _fresh_zip(fake_us, state, used_zips)
        add(name, country, state, lat, lon, tz, pop, zip_code)

    # 4. Faker towns near a real place of the locale's country.
    for locale, country, n in _FAKER_LOCALES:
        fake = Faker(locale)
        fake.seed_instance(stable_seed("gazetteer", seed, locale))
        _sort_set_built_lists(fake)
        anchors = [p for p in places if p.country == country]
        made, tries = 0, 0
        while made < n and tries < 20 * n:
            tries += 1
            name = fake.city()
            anchor = anchors[int(rng.integers(len(anchors)))]
            lat = max(-89.0, min(89.0, anchor.lat + rng.uniform(-0.6, 0.6)))
            lon = (anchor.lon + rng.uniform(-0.8, 0.8) + 180.0) % 360.0 - 180.0
            pop = int(math.exp(rng.uniform(math.log(1_500), math.log(90_000))))
            zip_code = _fresh_zip(fake_us, anchor.state, used_zips) if country == "US" else ""
            if add(name, country, anchor.state, lat, lon, anchor.timezone, pop, zip_code):
                made += 1
    return Gazetteer(places)


def _sort_set_built_lists(fake: object) -> None:
    """Sort the word lists a Faker locale builds from a set, so every process draws alike.

    ``it_IT`` builds its city list from a set at import, in an order that depends on the
    process's string hashing (``PYTHONHASHSEED``); sorted, the towns drawn are the same in every
    process.
    """
    for provider in fake.providers:  # type: ignore[attr-defined]
        if type(provider).__module__ == "faker.providers.address.it_IT":
            provider.cities = sorted(provider.cities)


def _fresh_zip(fake: object, state: str, used: set[str]) -> str:
    for _ in range(200):
        code = str(fake.zipcode_in_state(state)).zfill(5)  # type: ignore[attr-defined]
        if code not in used:
            used.add(code)
            return code
    return ""  # pragma: no cover - a state's zip range is never exhausted


@functools.lru_cache(maxsize=4)
def get_gazetteer(seed: int = 0) -> Gazetteer:
    """The gazetteer for ``seed`` (built once per process and seed, about half a second).

    >>> len(get_gazetteer()) >= 2000
    True
    >>> get_gazetteer().by_zip("94102").name
    'San Francisco'
    """
    return _build(seed)
