"""A small gazetteer of real US cities used by the Home Search and Trip Booking worlds.

Coordinates are approximate city centres (degrees); ``price_level`` scales housing and hotel prices
(1.0 = national median). Names follow common usage, the way a user would type them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class City:
    """A US city: name, two-letter state code, coordinates and a relative price level."""

    name: str
    state: str
    lat: float
    lon: float
    price_level: float


_CITY_ROWS: tuple[tuple[str, str, float, float, float], ...] = (
    ("New York", "NY", 40.71, -74.01, 2.6),
    ("Los Angeles", "CA", 34.05, -118.24, 2.4),
    ("Chicago", "IL", 41.88, -87.63, 1.3),
    ("Houston", "TX", 29.76, -95.37, 1.0),
    ("Phoenix", "AZ", 33.45, -112.07, 1.2),
    ("Philadelphia", "PA", 39.95, -75.17, 1.1),
    ("San Antonio", "TX", 29.42, -98.49, 0.9),
    ("San Diego", "CA", 32.72, -117.16, 2.3),
    ("Dallas", "TX", 32.78, -96.80, 1.2),
    ("San Jose", "CA", 37.34, -121.89, 3.0),
    ("Austin", "TX", 30.27, -97.74, 1.5),
    ("Jacksonville", "FL", 30.33, -81.66, 0.9),
    ("Fort Worth", "TX", 32.76, -97.33, 1.0),
    ("Columbus", "OH", 39.96, -83.00, 0.8),
    ("Charlotte", "NC", 35.23, -80.84, 1.1),
    ("Indianapolis", "IN", 39.77, -86.16, 0.8),
    ("San Francisco", "CA", 37.77, -122.42, 3.2),
    ("Seattle", "WA", 47.61, -122.33, 2.4),
    ("Denver", "CO", 39.74, -104.99, 1.7),
    ("Washington", "DC", 38.91, -77.04, 2.0),
    ("Nashville", "TN", 36.16, -86.78, 1.3),
    ("Oklahoma City", "OK", 35.47, -97.52, 0.7),
    ("El Paso", "TX", 31.76, -106.49, 0.7),
    ("Boston", "MA", 42.36, -71.06, 2.5),
    ("Portland", "OR", 45.52, -122.68, 1.7),
    ("Las Vegas", "NV", 36.17, -115.14, 1.3),
    ("Detroit", "MI", 42.33, -83.05, 0.6),
    ("Memphis", "TN", 35.15, -90.05, 0.6),
    ("Louisville", "KY", 38.25, -85.76, 0.8),
    ("Baltimore", "MD", 39.29, -76.61, 0.9),
    ("Milwaukee", "WI", 43.04, -87.91, 0.8),
    ("Albuquerque", "NM", 35.08, -106.65, 0.9),
    ("Tucson", "AZ", 32.22, -110.97, 1.0),
    ("Fresno", "CA", 36.74, -119.79, 1.2),
    ("Sacramento", "CA", 38.58, -121.49, 1.6),
    ("Kansas City", "MO", 39.10, -94.58, 0.8),
    ("Atlanta", "GA", 33.75, -84.39, 1.3),
    ("Miami", "FL", 25.76, -80.19, 1.9),
    ("Raleigh", "NC", 35.78, -78.64, 1.2),
    ("Omaha", "NE", 41.26, -95.93, 0.8),
    ("Minneapolis", "MN", 44.98, -93.27, 1.1),
    ("Tulsa", "OK", 36.15, -95.99, 0.7),
    ("Cleveland", "OH", 41.50, -81.69, 0.6),
    ("Tampa", "FL", 27.95, -82.46, 1.3),
    ("New Orleans", "LA", 29.95, -90.07, 0.9),
    ("Pittsburgh", "PA", 40.44, -79.99, 0.8),
    ("Cincinnati", "OH", 39.10, -84.51, 0.8),
    ("St. Louis", "MO", 38.63, -90.20, 0.7),
    ("Orlando", "FL", 28.54, -81.38, 1.2),
    ("Salt Lake City", "UT", 40.76, -111.89, 1.5),
    ("Madison", "WI", 43.07, -89.40, 1.1),
    ("Durham", "NC", 35.99, -78.90, 1.1),
    ("Cary", "NC", 35.79, -78.78, 1.3),
    ("Chattanooga", "TN", 35.05, -85.31, 0.8),
    ("Little Rock", "AR", 34.75, -92.29, 0.7),
    ("Cape Coral", "FL", 26.56, -81.95, 1.1),
    ("Boise", "ID", 43.62, -116.20, 1.3),
    ("Spokane", "WA", 47.66, -117.43, 1.0),
    ("Des Moines", "IA", 41.59, -93.62, 0.7),
    ("Richmond", "VA", 37.54, -77.44, 1.0),
    ("Buffalo", "NY", 42.89, -78.88, 0.7),
    ("Anchorage", "AK", 61.22, -149.90, 1.1),
    ("Honolulu", "HI", 21.31, -157.86, 2.6),
    ("Savannah", "GA", 32.08, -81.09, 1.0),
)

CITIES: tuple[City, ...] = tuple(City(*row) for row in _CITY_ROWS)
"""Every city of the gazetteer, in a fixed order."""

CITY_BY_KEY: dict[str, City] = {c.name.lower(): c for c in CITIES}
"""Cities keyed by lowercased name."""


def find_city(name: str) -> City | None:
    """Return the city called ``name`` (case- and surrounding-space-insensitive), or ``None``."""
    return CITY_BY_KEY.get(" ".join(name.split()).lower())


def distance_km(a: City, b: City) -> float:
    """Great-circle distance between two cities in kilometres (haversine)."""
    lat1, lon1, lat2, lon2 = map(math.radians, (a.lat, a.lon, b.lat, b.lon))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * 6371.0 * math.asin(math.sqrt(h))
