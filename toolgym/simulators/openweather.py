"""A simulated OpenWeatherMap REST service (current weather, forecast, air pollution, geocoding).

:class:`OpenWeatherApp` answers the endpoints of the OpenWeather task with the real API's response
shapes and error bodies. Weather is a pure function of (location, simulated time, seed): a
latitude- and season-dependent climatology with a diurnal cycle, plus slow "synoptic" variations
built from location-seeded sinusoids, from which clouds, rain, snow, humidity, pressure and wind
are derived; condition codes and icons follow OpenWeather's condition table. Simulated time is
``epoch + 600 * time_step`` seconds; the wall clock is never read.

Example:
    >>> from toolgym.simulators.http import Request
    >>> app = OpenWeatherApp()
    >>> r = app.handle(Request.build("GET",
    ...     "https://api.openweathermap.org/data/2.5/weather?q=london&appid=k&units=metric"))
    >>> r.status, r.json()["name"], r.json()["sys"]["country"]
    (200, 'London', 'GB')
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import math
import random
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from toolgym.simulators.gazetteer import Gazetteer, Place, get_gazetteer
from toolgym.simulators.http import HttpApp, Request, Response
from toolgym.simulators.seeding import stable_seed

STEP_SECONDS = 600
"""Seconds of simulated time per time step."""

LANGUAGES: tuple[str, ...] = ("en", "fr", "zh_cn", "it", "de", "ru", "ja", "nl")
"""Languages whose weather descriptions are translated."""

UNITS: tuple[str, ...] = ("standard", "metric", "imperial")

# code -> (main, English description, icon number)
CONDITIONS: dict[int, tuple[str, str, str]] = {
    200: ("Thunderstorm", "thunderstorm with light rain", "11"),
    201: ("Thunderstorm", "thunderstorm with rain", "11"),
    202: ("Thunderstorm", "thunderstorm with heavy rain", "11"),
    211: ("Thunderstorm", "thunderstorm", "11"),
    300: ("Drizzle", "light intensity drizzle", "09"),
    301: ("Drizzle", "drizzle", "09"),
    500: ("Rain", "light rain", "10"),
    501: ("Rain", "moderate rain", "10"),
    502: ("Rain", "heavy intensity rain", "10"),
    503: ("Rain", "very heavy rain", "10"),
    504: ("Rain", "extreme rain", "10"),
    511: ("Rain", "freezing rain", "13"),
    600: ("Snow", "light snow", "13"),
    601: ("Snow", "snow", "13"),
    602: ("Snow", "heavy snow", "13"),
    611: ("Snow", "sleet", "13"),
    615: ("Snow", "light rain and snow", "13"),
    701: ("Mist", "mist", "50"),
    741: ("Fog", "fog", "50"),
    800: ("Clear", "clear sky", "01"),
    801: ("Clouds", "few clouds", "02"),
    802: ("Clouds", "scattered clouds", "03"),
    803: ("Clouds", "broken clouds", "04"),
    804: ("Clouds", "overcast clouds", "04"),
}
"""The subset of OpenWeather's condition table the model produces."""

# English description -> (fr, zh_cn, it, de, ru, ja, nl)
_TRANSLATIONS: dict[str, tuple[str, str, str, str, str, str, str]] = {
    "thunderstorm with light rain": ("orage et pluie fine", "雷阵雨", "temporale con pioggerella", "Gewitter mit leichtem Regen", "гроза с небольшим дождём", "小雨を伴う雷雨", "onweer met lichte regen"),
    "thunderstorm with rain": ("orage et pluie", "雷阵雨", "temporale con pioggia", "Gewitter mit Regen", "гроза с дождём", "雨を伴う雷雨", "onweer met regen"),
    "thunderstorm with heavy rain": ("orage et fortes pluies", "雷暴伴强降雨", "temporale con pioggia forte", "Gewitter mit starkem Regen", "гроза с сильным дождём", "大雨を伴う雷雨", "onweer met zware regen"),
    "thunderstorm": ("orage", "雷暴", "temporale", "Gewitter", "гроза", "雷雨", "onweer"),
    "light intensity drizzle": ("bruine légère", "毛毛雨", "pioggerellina", "leichter Nieselregen", "слабая морось", "弱い霧雨", "lichte motregen"),
    "drizzle": ("bruine", "毛毛雨", "pioggerella", "Nieselregen", "морось", "霧雨", "motregen"),
    "light rain": ("pluie légère", "小雨", "pioggia leggera", "leichter Regen", "небольшой дождь", "小雨", "lichte regen"),
    "moderate rain": ("pluie modérée", "中雨", "pioggia moderata", "mäßiger Regen", "умеренный дождь", "適度な雨", "matige regen"),
    "heavy intensity rain": ("forte pluie", "大雨", "pioggia forte", "starker Regen", "сильный дождь", "強い雨", "zware regen"),
    "very heavy rain": ("très forte pluie", "暴雨", "pioggia molto forte", "sehr starker Regen", "очень сильный дождь", "非常に強い雨", "zeer zware regen"),
    "extreme rain": ("pluie extrême", "特大暴雨", "pioggia estrema", "extremer Regen", "ливень", "猛烈な雨", "extreme regen"),
    "freezing rain": ("pluie verglaçante", "冻雨", "pioggia gelata", "gefrierender Regen", "ледяной дождь", "着氷性の雨", "ijzel"),
    "light snow": ("légères chutes de neige", "小雪", "neve leggera", "leichter Schneefall", "небольшой снег", "小雪", "lichte sneeuw"),
    "snow": ("neige", "雪", "neve", "Schnee", "снег", "雪", "sneeuw"),
    "heavy snow": ("fortes chutes de neige", "大雪", "neve abbondante", "starker Schneefall", "сильный снегопад", "大雪", "zware sneeuwval"),
    "sleet": ("grésil", "雨夹雪", "nevischio", "Graupel", "мокрый снег", "みぞれ", "natte sneeuw"),
    "light rain and snow": ("pluie et neige légères", "小雨夹雪", "pioggia e neve leggere", "leichter Regen und Schnee", "небольшой дождь со снегом", "弱い雨と雪", "lichte regen en sneeuw"),
    "mist": ("brume", "薄雾", "foschia", "Dunst", "дымка", "靄", "nevel"),
    "fog": ("brouillard", "雾", "nebbia", "Nebel", "туман", "霧", "mist"),
    "clear sky": ("ciel dégagé", "晴", "cielo sereno", "klarer Himmel", "ясно", "晴天", "onbewolkt"),
    "few clouds": ("peu nuageux", "少云", "poche nuvole", "ein paar Wolken", "небольшая облачность", "薄い雲", "licht bewolkt"),
    "scattered clouds": ("partiellement nuageux", "多云", "nubi sparse", "mäßig bewölkt", "переменная облачность", "雲", "half bewolkt"),
    "broken clouds": ("nuageux", "阴，多云", "nubi irregolari", "überwiegend bewölkt", "облачно с прояснениями", "曇りがち", "zwaar bewolkt"),
    "overcast clouds": ("couvert", "阴", "cielo coperto", "bedeckt", "пасмурно", "厚い雲", "betrokken"),
}  # fmt: skip

_LANG_INDEX = {lang: i for i, lang in enumerate(LANGUAGES[1:])}

_INVALID_KEY = "Invalid API key. Please see https://openweathermap.org/faq#error401 for more info."

_BEAUFORT = (
    (0.5, "Calm"), (1.6, "Light air"), (3.4, "Light breeze"), (5.5, "Gentle Breeze"),
    (8.0, "Moderate breeze"), (10.8, "Fresh Breeze"), (13.9, "Strong breeze"),
    (17.2, "High wind, near gale"), (20.8, "Gale"), (24.5, "Severe Gale"), (28.5, "Storm"),
    (32.7, "Violent Storm"), (1e9, "Hurricane"),
)  # fmt: skip
_COMPASS = (
    ("N", "North"), ("NNE", "North-northeast"), ("NE", "NorthEast"), ("ENE", "East-northeast"),
    ("E", "East"), ("ESE", "East-southeast"), ("SE", "SouthEast"), ("SSE", "South-southeast"),
    ("S", "South"), ("SSW", "South-southwest"), ("SW", "Southwest"), ("WSW", "West-southwest"),
    ("W", "West"), ("WNW", "West-northwest"), ("NW", "Northwest"), ("NNW", "North-northwest"),
)  # fmt: skip

_MPS_TO_MPH = 3600.0 / 1609.344
_TWO_PI = 2.0 * math.pi
_YEAR = 365.2422 * 86400.0


def describe(code: int, lang: str = "en") -> str:
    """The description of a condition code in ``lang`` (English for unknown languages).

    >>> describe(800, "fr")
    'ciel dégagé'
    """
    english = CONDITIONS[code][1]
    i = _LANG_INDEX.get(lang)
    return english if i is None else _TRANSLATIONS[english][i]


# --------------------------------------------------------------------------------------------------
# The weather model


@dataclass(frozen=True, slots=True)
class _Site:
    """Per-location climate parameters (drawn once from the location's seed)."""

    mean_k: float
    season_amp: float
    diurnal_amp: float
    humidity_base: float
    wetness: float
    wind_base: float
    elevation_hpa: float
    phases: tuple[float, ...]
    pollution: float


@functools.lru_cache(maxsize=8192)
def _site(seed: int, lat: float, lon: float) -> _Site:
    rng = random.Random(stable_seed("openweather-site", seed, f"{lat:.4f}", f"{lon:.4f}"))
    a = abs(lat)
    x = max(0.0, a - 10.0)
    mean_c = 27.0 - 0.22 * x - 0.004 * x * x - 0.6 * max(0.0, a - 66.0) + rng.gauss(0.0, 1.5)
    continental = rng.uniform(0.7, 1.3)
    return _Site(
        mean_k=273.15 + mean_c,
        season_amp=(0.3 + 0.2 * x) * continental,
        diurnal_amp=rng.uniform(3.0, 6.5),
        humidity_base=rng.uniform(45.0, 82.0),
        wetness=rng.uniform(-0.25, 0.25),
        wind_base=rng.uniform(1.5, 5.5) + 0.03 * a,
        elevation_hpa=rng.choice((0.0, 0.0, 2.0, 5.0, 12.0, 40.0, 90.0)),
        phases=tuple(rng.uniform(0.0, _TWO_PI) for _ in range(12)),
        pollution=rng.uniform(0.3, 1.0),
    )


_OMEGA = tuple(_TWO_PI / (d * 86400.0) for d in (1.7, 3.1, 5.3, 8.9))


def _wave(phases: tuple[float, ...], offset: int, t: float) -> float:
    """A smooth quasi-random signal in about [-1, 1] built from four sinusoids."""
    sin = math.sin
    return (
        0.45 * sin(t * _OMEGA[0] + phases[offset])
        + 0.3 * sin(t * _OMEGA[1] + phases[offset + 1])
        + 0.2 * sin(t * _OMEGA[2] + phases[offset + 2])
        + 0.15 * sin(t * _OMEGA[3] + phases[offset + 3])
    )


def _sun_times(lat: float, lon: float, t: int) -> tuple[int, int]:
    """Sunrise and sunset (unix seconds) of the local solar day containing ``t``."""
    return _sun_day(lat, lon, math.floor((t + lon * 240.0) / 86400.0))


@functools.lru_cache(maxsize=65536)
def _sun_day(lat: float, lon: float, day: int) -> tuple[int, int]:
    day_start = day * 86400.0 - lon * 240.0
    doy = dt.datetime.fromtimestamp(int(day_start + 43200), tz=dt.UTC).timetuple().tm_yday
    decl = math.radians(23.44) * math.sin(_TWO_PI * (284 + doy) / 365.0)
    b = _TWO_PI * (doy - 81) / 364.0
    eot = 9.87 * math.sin(2 * b) - 7.53 * math.cos(b) - 1.5 * math.sin(b)  # minutes
    noon = day_start + 43200.0 - eot * 60.0
    phi = math.radians(max(-89.9, min(89.9, lat)))
    cos_w = (math.sin(math.radians(-0.833)) - math.sin(phi) * math.sin(decl)) / (
        math.cos(phi) * math.cos(decl)
    )
    w = math.degrees(math.acos(max(-1.0, min(1.0, cos_w))))
    return round(noon - w * 240.0), round(noon + w * 240.0)


@dataclass(frozen=True, slots=True)
class _State:
    """The weather at one place and time, in SI units (Kelvin, m/s, hPa, mm)."""

    temp: float
    feels_like: float
    temp_min: float
    temp_max: float
    pressure: int
    sea_level: int
    grnd_level: int
    humidity: int
    wind_speed: float
    wind_deg: int
    wind_gust: float
    clouds: int
    visibility: int
    code: int
    rain_1h: float
    snow_1h: float
    pop: float
    is_day: bool


def _feels_like(temp_k: float, humidity: float, wind: float) -> float:
    c = temp_k - 273.15
    if c <= 10.0 and wind > 1.34:
        v = (wind * 3.6) ** 0.16
        return 273.15 + 13.12 + 0.6215 * c - 11.37 * v + 0.3965 * c * v
    if c >= 26.0:
        return temp_k + 0.09 * (humidity - 40.0) * (c - 26.0) / 4.0 + 0.5
    return temp_k - 0.35 * wind + 0.02 * (humidity - 50.0)


def _condition(clouds: float, precip: float, temp_c: float, humidity: float, wind: float) -> int:
    if precip > 0.0:
        if temp_c <= -1.0:
            return 600 if precip < 0.5 else (601 if precip < 1.5 else 602)
        if temp_c <= 1.0:
            return 611 if precip >= 0.5 else 615
        if temp_c >= 22.0 and precip >= 2.0:
            return 200 if precip < 3.0 else (201 if precip < 5.0 else 202)
        if precip < 0.15:
            return 300 if precip < 0.08 else 301
        if precip < 1.0:
            return 500
        if precip < 3.0:
            return 501
        if precip < 7.0:
            return 502
        return 503 if precip < 14.0 else 504
    if humidity >= 97.0 and wind < 2.0:
        return 741
    if humidity >= 93.0 and wind < 3.0:
        return 701
    if clouds <= 10:
        return 800
    if clouds <= 25:
        return 801
    if clouds <= 50:
        return 802
    return 803 if clouds <= 84 else 804


@functools.lru_cache(maxsize=65536)
def _state(seed: int, lat: float, lon: float, t: int) -> _State:
    site = _site(seed, lat, lon)
    ph = site.phases
    south = lat < 0.0
    season = math.cos(_TWO_PI * (t - 16_675_200.0) / _YEAR)  # ~ July 20 = warmest in the north
    if south:
        season = -season
    synoptic = _wave(ph, 0, t)
    moist = _wave(ph, 4, t * 1.13) + site.wetness
    breeze = _wave(ph, 8, t * 0.91)
    sunrise, sunset = _sun_times(lat, lon, t)
    is_day = sunrise <= t < sunset
    solar_hour = ((t + lon * 240.0) % 86400.0) / 3600.0
    clouds = max(0.0, min(100.0, 48.0 + 70.0 * moist + 8.0 * math.sin(t / 7000.0 + ph[3])))
    damp = 1.0 - 0.55 * clouds / 100.0
    diurnal = site.diurnal_amp * damp * math.cos(_TWO_PI * (solar_hour - 15.0) / 24.0)
    temp = site.mean_k + site.season_amp * season + 4.5 * synoptic + diurnal
    temp_c = temp - 273.15
    precip = 0.0
    if clouds > 80.0 and moist > 0.35:
        precip = round((moist - 0.35) * 9.0 * (1.0 + max(0.0, temp_c) / 20.0), 2)
    humidity = (
        site.humidity_base + 22.0 * moist - 9.0 * math.cos(_TWO_PI * (solar_hour - 15.0) / 24.0)
    )
    if precip > 0.0:
        humidity += 12.0
    humidity = max(8.0, min(100.0, humidity))
    wind = max(0.0, site.wind_base * (1.0 + 0.6 * breeze) + 1.5 * abs(synoptic))
    wind_deg = round((math.degrees(ph[11]) + 140.0 * _wave(ph, 7, t * 0.5)) % 360.0)
    pressure = round(1013.0 - 14.0 * moist + 6.0 * synoptic)
    code = _condition(clouds, precip, temp_c, humidity, wind)
    visibility = 10000
    if code in (701, 741):
        visibility = 1000 if code == 741 else 4000
    elif precip > 0.0:
        visibility = max(800, int(10000 - 900 * precip) // 100 * 100)
    elif humidity > 85.0:
        visibility = 8000
    snow = precip if 600 <= code < 700 or code == 511 else 0.0
    rain = precip - snow if code != 615 else precip / 2.0
    if code == 615:
        snow = precip / 2.0
    pop = max(0.0, min(1.0, (moist - 0.1) * 1.6)) if clouds > 50.0 else 0.0
    spread = 0.6 + 1.2 * abs(ph[5] % 1.0)
    return _State(
        temp=temp,
        feels_like=_feels_like(temp, humidity, wind),
        temp_min=temp - spread,
        temp_max=temp + spread * 0.8,
        pressure=pressure,
        sea_level=pressure,
        grnd_level=round(pressure - site.elevation_hpa),
        humidity=round(humidity),
        wind_speed=wind,
        wind_deg=wind_deg,
        wind_gust=wind * 1.45 + 0.8,
        clouds=round(clouds),
        visibility=visibility,
        code=code,
        rain_1h=round(rain, 2),
        snow_1h=round(snow, 2),
        pop=round(pop, 2),
        is_day=is_day,
    )


def _temp(kelvin: float, units: str) -> float:
    if units == "metric":
        return round(kelvin - 273.15, 2)
    if units == "imperial":
        return round((kelvin - 273.15) * 9.0 / 5.0 + 32.0, 2)
    return round(kelvin, 2)


def _speed(mps: float, units: str) -> float:
    return round(mps * _MPS_TO_MPH, 2) if units == "imperial" else round(mps, 2)


def _weather_list(code: int, is_day: bool, lang: str) -> list[dict[str, Any]]:
    main, _, icon = CONDITIONS[code]
    return [
        {
            "id": code,
            "main": main,
            "description": describe(code, lang),
            "icon": icon + ("d" if is_day else "n"),
        }
    ]


# --------------------------------------------------------------------------------------------------
# Air pollution

_AQI_LIMITS = (
    ("so2", (20.0, 80.0, 250.0, 350.0)),
    ("no2", (40.0, 70.0, 150.0, 200.0)),
    ("pm10", (20.0, 50.0, 100.0, 200.0)),
    ("pm2_5", (10.0, 25.0, 50.0, 75.0)),
    ("o3", (60.0, 100.0, 140.0, 180.0)),
    ("co", (4400.0, 9400.0, 12400.0, 15400.0)),
)


@functools.lru_cache(maxsize=65536)
def _air(seed: int, lat: float, lon: float, urban: float, t: int) -> dict[str, Any]:
    site = _site(seed, lat, lon)
    ph = site.phases
    level = site.pollution * urban * (1.0 + 0.5 * _wave(ph, 2, t * 1.3))
    level = max(0.02, level)
    hour = ((t + lon * 240.0) % 86400.0) / 3600.0
    rush = 1.0 + 0.35 * math.cos(_TWO_PI * (hour - 8.5) / 12.0)
    sun = max(0.0, math.cos(_TWO_PI * (hour - 14.0) / 24.0))
    comp = {
        "co": round(200.0 + 900.0 * level * rush, 2),
        "no": round(max(0.0, 12.0 * level * rush - 4.0), 2),
        "no2": round(2.0 + 55.0 * level * rush, 2),
        "o3": round(20.0 + 45.0 * sun + 20.0 * (1.0 - level), 2),
        "so2": round(0.5 + 18.0 * level, 2),
        "pm2_5": round(1.5 + 38.0 * level * rush, 2),
        "pm10": round(2.5 + 55.0 * level * rush, 2),
        "nh3": round(0.3 + 6.0 * level, 2),
    }
    aqi = 1
    for key, limits in _AQI_LIMITS:
        aqi = max(aqi, 1 + sum(comp[key] >= v for v in limits))
    return {"main": {"aqi": aqi}, "components": comp, "dt": t}


# --------------------------------------------------------------------------------------------------
# The service


@dataclass(frozen=True, slots=True)
class _Loc:
    """A resolved location: where to compute the weather and how to name it."""

    lat: float
    lon: float
    place: Place | None

    @property
    def name(self) -> str:
        return self.place.name if self.place else ""

    @property
    def country(self) -> str:
        return self.place.country if self.place else ""

    @property
    def place_id(self) -> int:
        return self.place.id if self.place else 0

    def offset(self, t: int) -> int:
        if self.place is not None:
            return self.place.utc_offset(t)
        return round(self.lon / 15.0) * 3600


class _BadRequest(Exception):
    def __init__(self, status: int, cod: int | str, message: str) -> None:
        super().__init__(message)
        self.status, self.cod, self.message = status, cod, message


def _error(status: int, cod: int | str, message: str) -> Response:
    return Response.json_body(status, {"cod": cod, "message": message})


def _iso(t: int) -> str:
    return dt.datetime.fromtimestamp(t, tz=dt.UTC).strftime("%Y-%m-%dT%H:%M:%S")


def _compass(deg: float) -> tuple[str, str]:
    return _COMPASS[int((deg % 360.0) / 22.5 + 0.5) % 16]


def _beaufort(mps: float) -> str:
    return next(name for limit, name in _BEAUFORT if mps < limit)


class OpenWeatherApp(HttpApp):
    """The simulated ``api.openweathermap.org``.

    Args:
        seed: seeds the gazetteer and the weather model.
        api_key: the accepted ``appid``; ``None`` accepts any non-empty key.
        epoch: the unix time of time step 0 (default 2026-01-01 00:00 UTC).
    """

    name = "openweather"
    hosts = ("api.openweathermap.org",)

    def __init__(self, seed: int = 0, api_key: str | None = None, epoch: int = 1767225600) -> None:
        self.seed = int(seed)
        self.api_key = api_key
        self.epoch = int(epoch)
        self.time_step = 0
        self.gazetteer: Gazetteer = get_gazetteer(self.seed)
        self._routes = {
            "/data/2.5/weather": self._current,
            "/data/2.5/forecast": self._forecast,
            "/data/2.5/air_pollution": self._air_current,
            "/data/2.5/air_pollution/forecast": self._air_forecast,
            "/geo/1.0/direct": self._geocode,
        }
        self._cache: dict[tuple[Any, ...], Response] = {}

    # -- time -------------------------------------------------------------------------------------

    @property
    def now(self) -> int:
        """The simulated unix time."""
        return self.epoch + STEP_SECONDS * self.time_step

    def advance(self, steps: int = 1) -> None:
        """Move simulated time forward by ``steps`` steps of 10 minutes."""
        self.time_step += int(steps)

    def snapshot(self) -> int:
        """The current time step."""
        return self.time_step

    def restore(self, state: Any) -> None:
        """Set the time step (a value returned by :meth:`snapshot`)."""
        self.time_step = int(state)

    # -- dispatch ---------------------------------------------------------------------------------

    def handle(self, request: Request) -> Response:
        """Answer one request; never raises."""
        try:
            return self._handle(request)
        except Exception:  # pragma: no cover - a safety net; every known error is answered above
            return _error(500, 500, "Internal error")

    def _handle(self, request: Request) -> Response:
        route = self._routes.get(request.path)
        if route is None:
            return _error(404, "404", "Internal error")
        if request.method not in ("GET", "HEAD"):
            return _error(405, 405, "Method Not Allowed")
        params = {k.lower(): v for k, v in request.query}
        appid = params.get("appid", "")
        if not appid or (self.api_key is not None and appid != self.api_key):
            return _error(401, 401, _INVALID_KEY)
        key = (request.path, tuple(sorted(params.items())), self.time_step)
        cached = self._cache.get(key)
        if cached is not None:
            return Response(cached.status, dict(cached.headers), cached.body)
        try:
            response = route(params)
        except _BadRequest as e:
            response = _error(e.status, e.cod, e.message)
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[key] = response
        return Response(response.status, dict(response.headers), response.body)

    # -- parameters -------------------------------------------------------------------------------

    @staticmethod
    def _coords(params: dict[str, str]) -> tuple[float, float]:
        lat_s, lon_s = params.get("lat"), params.get("lon")
        if lat_s is None or lon_s is None or not lat_s.strip() or not lon_s.strip():
            raise _BadRequest(400, "400", "Nothing to geocode")
        for text, name, limit in ((lat_s, "latitude", 90.0), (lon_s, "longitude", 180.0)):
            try:
                value = float(text)
            except ValueError:
                raise _BadRequest(400, "400", f"wrong {name}") from None
            if not math.isfinite(value) or abs(value) > limit:
                raise _BadRequest(400, "400", f"wrong {name}")
        return float(lat_s), float(lon_s)

    def _near(self, lat: float, lon: float) -> _Loc:
        return _Loc(lat, lon, _nearest_cached(self.seed, round(lat, 4), round(lon, 4)))

    def _location(self, params: dict[str, str]) -> _Loc:
        if "lat" in params or "lon" in params:
            lat, lon = self._coords(params)
            return self._near(round(lat, 4), round(lon, 4))
        if "zip" in params:
            parts = [p.strip() for p in params["zip"].split(",")]
            if not parts[0]:
                raise _BadRequest(400, "400", "invalid zip code")
            country = parts[1] if len(parts) > 1 and parts[1] else "US"
            place = self.gazetteer.by_zip(parts[0], country)
            if place is None:
                raise _BadRequest(404, "404", "city not found")
            return _Loc(place.lat, place.lon, place)
        if "q" in params:
            place = self._by_query(params["q"])
            if place is None:
                raise _BadRequest(404, "404", "city not found")
            return _Loc(place.lat, place.lon, place)
        if "id" in params:
            try:
                place = self.gazetteer.by_id(int(params["id"]))
            except ValueError:
                place = None
            if place is None:
                raise _BadRequest(404, "404", "city not found")
            return _Loc(place.lat, place.lon, place)
        raise _BadRequest(400, "400", "Nothing to geocode")

    def _query_matches(self, q: str) -> list[Place]:
        parts = [p.strip() for p in q.split(",")]
        if not parts[0]:
            raise _BadRequest(400, "400", "Nothing to geocode")
        name, rest = parts[0], [p for p in parts[1:] if p]
        g = self.gazetteer
        if not rest:
            return g.by_city(name)
        if len(rest) == 1:
            return g.by_city(name, country=rest[0]) or g.by_city(name, state=rest[0])
        return g.by_city(name, state=rest[0], country=rest[1])

    def _by_query(self, q: str) -> Place | None:
        found = self._query_matches(q)
        return found[0] if found else None

    @staticmethod
    def _options(params: dict[str, str]) -> tuple[str, str, str]:
        units = params.get("units", "standard").strip().lower()
        units = units if units in UNITS else "standard"
        lang = params.get("lang", "en").strip().lower().replace("-", "_")
        lang = {"zh": "zh_cn", "cn": "zh_cn", "zh_tw": "zh_cn"}.get(lang, lang)
        lang = lang if lang in LANGUAGES else "en"
        mode = "xml" if params.get("mode", "json").strip().lower() == "xml" else "json"
        return units, lang, mode

    # -- current weather --------------------------------------------------------------------------

    def _current(self, params: dict[str, str]) -> Response:
        loc = self._location(params)
        units, lang, mode = self._options(params)
        t = self.now
        s = _state(self.seed, loc.lat, loc.lon, t)
        sunrise, sunset = _sun_times(loc.lat, loc.lon, t)
        if mode == "xml":
            return self._current_xml(loc, s, t, sunrise, sunset, units, lang)
        sys: dict[str, Any] = {}
        if loc.country:
            sys["country"] = loc.country
        sys["sunrise"], sys["sunset"] = sunrise, sunset
        wind: dict[str, Any] = {
            "speed": _speed(s.wind_speed, units),
            "deg": s.wind_deg,
            "gust": _speed(s.wind_gust, units),
        }
        body: dict[str, Any] = {
            "coord": {"lon": loc.lon, "lat": loc.lat},
            "weather": _weather_list(s.code, s.is_day, lang),
            "base": "stations",
            "main": {
                "temp": _temp(s.temp, units),
                "feels_like": _temp(s.feels_like, units),
                "temp_min": _temp(s.temp_min, units),
                "temp_max": _temp(s.temp_max, units),
                "pressure": s.pressure,
                "humidity": s.humidity,
                "sea_level": s.sea_level,
                "grnd_level": s.grnd_level,
            },
            "visibility": s.visibility,
            "wind": wind,
        }
        if s.rain_1h > 0:
            body["rain"] = {"1h": s.rain_1h}
        if s.snow_1h > 0:
            body["snow"] = {"1h": s.snow_1h}
        body.update(
            {
                "clouds": {"all": s.clouds},
                "dt": t,
                "sys": sys,
                "timezone": loc.offset(t),
                "id": loc.place_id,
                "name": loc.name,
                "cod": 200,
            }
        )
        return Response.json_body(200, body)

    def _current_xml(
        self,
        loc: _Loc,
        s: _State,
        t: int,
        sunrise: int,
        sunset: int,
        units: str,
        lang: str,
    ) -> Response:
        tunit = {"metric": "celsius", "imperial": "fahrenheit"}.get(units, "kelvin")
        sunit = "mph" if units == "imperial" else "m/s"
        root = ET.Element("current")
        city = ET.SubElement(root, "city", id=str(loc.place_id), name=loc.name)
        ET.SubElement(city, "coord", lon=str(loc.lon), lat=str(loc.lat))
        ET.SubElement(city, "country").text = loc.country
        ET.SubElement(city, "timezone").text = str(loc.offset(t))
        ET.SubElement(city, "sun", rise=_iso(sunrise), set=_iso(sunset))
        ET.SubElement(
            root,
            "temperature",
            value=str(_temp(s.temp, units)),
            min=str(_temp(s.temp_min, units)),
            max=str(_temp(s.temp_max, units)),
            unit=tunit,
        )
        ET.SubElement(root, "feels_like", value=str(_temp(s.feels_like, units)), unit=tunit)
        ET.SubElement(root, "humidity", value=str(s.humidity), unit="%")
        ET.SubElement(root, "pressure", value=str(s.pressure), unit="hPa")
        wind = ET.SubElement(root, "wind")
        ET.SubElement(
            wind, "speed", value=str(_speed(s.wind_speed, units)), unit=sunit,
            name=_beaufort(s.wind_speed),
        )  # fmt: skip
        ET.SubElement(wind, "gusts", value=str(_speed(s.wind_gust, units)))
        code, cname = _compass(s.wind_deg)
        ET.SubElement(wind, "direction", value=str(s.wind_deg), code=code, name=cname)
        ET.SubElement(root, "clouds", value=str(s.clouds), name=describe(_cloud_code(s), lang))
        ET.SubElement(root, "visibility", value=str(s.visibility))
        if s.rain_1h > 0 or s.snow_1h > 0:
            kind = "snow" if s.snow_1h > s.rain_1h else "rain"
            ET.SubElement(
                root, "precipitation", value=str(max(s.rain_1h, s.snow_1h)), mode=kind, unit="1h"
            )
        else:
            ET.SubElement(root, "precipitation", mode="no")
        icon = CONDITIONS[s.code][2] + ("d" if s.is_day else "n")
        ET.SubElement(root, "weather", number=str(s.code), value=describe(s.code, lang), icon=icon)
        ET.SubElement(root, "lastupdate", value=_iso(t))
        return _xml_response(root)

    # -- forecast ---------------------------------------------------------------------------------

    def _forecast(self, params: dict[str, str]) -> Response:
        loc = self._location(params)
        units, lang, mode = self._options(params)
        cnt = 40
        if "cnt" in params:
            try:
                cnt = max(1, min(40, int(params["cnt"])))
            except ValueError:
                raise _BadRequest(400, "400", f"{params['cnt']} is not a number") from None
        t = self.now
        start = (t // 10800 + 1) * 10800
        times = [start + 10800 * i for i in range(cnt)]
        sunrise, sunset = _sun_times(loc.lat, loc.lon, t)
        if mode == "xml":
            return self._forecast_xml(loc, times, t, sunrise, sunset, units, lang)
        entries = ",".join(
            _forecast_json(self.seed, loc.lat, loc.lon, ts, units, lang) for ts in times
        )
        city: dict[str, Any] = {
            "id": loc.place_id,
            "name": loc.name,
            "coord": {"lat": loc.lat, "lon": loc.lon},
            "country": loc.country,
            "population": loc.place.population if loc.place else 0,
            "timezone": loc.offset(t),
            "sunrise": sunrise,
            "sunset": sunset,
        }
        city_text = json.dumps(city, ensure_ascii=False, separators=(",", ":"))
        text = f'{{"cod":"200","message":0,"cnt":{cnt},"list":[{entries}],"city":{city_text}}}'
        return Response(200, {"Content-Type": "application/json; charset=utf-8"}, text.encode())

    def _forecast_xml(
        self,
        loc: _Loc,
        times: list[int],
        t: int,
        sunrise: int,
        sunset: int,
        units: str,
        lang: str,
    ) -> Response:
        tunit = {"metric": "celsius", "imperial": "fahrenheit"}.get(units, "kelvin")
        sunit = "mph" if units == "imperial" else "m/s"
        root = ET.Element("weatherdata")
        location = ET.SubElement(root, "location")
        ET.SubElement(location, "name").text = loc.name
        ET.SubElement(location, "type")
        ET.SubElement(location, "country").text = loc.country
        ET.SubElement(location, "timezone").text = str(loc.offset(t))
        ET.SubElement(
            location, "location", altitude="0", latitude=str(loc.lat), longitude=str(loc.lon),
            geobase="geonames", geobaseid=str(loc.place_id),
        )  # fmt: skip
        ET.SubElement(root, "credit")
        meta = ET.SubElement(root, "meta")
        ET.SubElement(meta, "lastupdate")
        ET.SubElement(meta, "calctime").text = "0"
        ET.SubElement(meta, "nextupdate")
        ET.SubElement(root, "sun", rise=_iso(sunrise), set=_iso(sunset))
        forecast = ET.SubElement(root, "forecast")
        for ts in times:
            s = _state(self.seed, loc.lat, loc.lon, ts)
            node = ET.SubElement(
                forecast, "time", attrib={"from": _iso(ts), "to": _iso(ts + 10800)}
            )
            icon = CONDITIONS[s.code][2] + ("d" if s.is_day else "n")
            ET.SubElement(node, "symbol", number=str(s.code), name=describe(s.code, lang), var=icon)
            amount = round(3 * (s.rain_1h + s.snow_1h), 2)
            if amount > 0:
                kind = "snow" if s.snow_1h > s.rain_1h else "rain"
                ET.SubElement(
                    node, "precipitation", probability=str(s.pop), unit="3h", value=str(amount),
                    type=kind,
                )  # fmt: skip
            else:
                ET.SubElement(node, "precipitation", probability=str(s.pop))
            code, cname = _compass(s.wind_deg)
            ET.SubElement(node, "windDirection", deg=str(s.wind_deg), code=code, name=cname)
            ET.SubElement(
                node, "windSpeed", mps=str(_speed(s.wind_speed, units)), unit=sunit,
                name=_beaufort(s.wind_speed),
            )  # fmt: skip
            ET.SubElement(node, "windGust", gust=str(_speed(s.wind_gust, units)), unit=sunit)
            ET.SubElement(
                node, "temperature", unit=tunit, value=str(_temp(s.temp, units)),
                min=str(_temp(s.temp_min, units)), max=str(_temp(s.temp_max, units)),
            )  # fmt: skip
            ET.SubElement(node, "feels_like", value=str(_temp(s.feels_like, units)), unit=tunit)
            ET.SubElement(node, "pressure", unit="hPa", value=str(s.pressure))
            ET.SubElement(node, "humidity", value=str(s.humidity), unit="%")
            ET.SubElement(
                node, "clouds", value=describe(_cloud_code(s), lang), all=str(s.clouds), unit="%"
            )
            ET.SubElement(node, "visibility", value=str(s.visibility))
        return _xml_response(root)

    # -- air pollution ----------------------------------------------------------------------------

    def _urban(self, lat: float, lon: float) -> float:
        place = _nearest_cached(self.seed, round(lat, 4), round(lon, 4))
        if place is None:
            return 0.25
        return min(2.2, 0.5 + math.log10(max(place.population, 1000)) / 6.0 * 1.2)

    def _air_current(self, params: dict[str, str]) -> Response:
        lat, lon = self._coords(params)
        lat, lon = round(lat, 4), round(lon, 4)
        t = self.now // 3600 * 3600
        item = _air(self.seed, lat, lon, self._urban(lat, lon), t)
        return Response.json_body(200, {"coord": {"lon": lon, "lat": lat}, "list": [item]})

    def _air_forecast(self, params: dict[str, str]) -> Response:
        lat, lon = self._coords(params)
        lat, lon = round(lat, 4), round(lon, 4)
        urban = self._urban(lat, lon)
        t0 = self.now // 3600 * 3600
        items = [_air(self.seed, lat, lon, urban, t0 + 3600 * i) for i in range(96)]
        return Response.json_body(200, {"coord": {"lon": lon, "lat": lat}, "list": items})

    # -- geocoding --------------------------------------------------------------------------------

    def _geocode(self, params: dict[str, str]) -> Response:
        q = params.get("q", "")
        if not q.strip():
            raise _BadRequest(400, "400", "Nothing to geocode")
        limit = 5
        if "limit" in params:
            try:
                limit = int(params["limit"])
            except ValueError:
                raise _BadRequest(400, "400", "wrong limit") from None
        limit = max(0, min(5, limit))
        found = self._query_matches(q)[:limit]
        out = []
        for p in found:
            item: dict[str, Any] = {
                "name": p.name,
                "local_names": {"en": p.name, "feature_name": p.name},
                "lat": p.lat,
                "lon": p.lon,
                "country": p.country,
            }
            if p.state:
                item["state"] = p.state_name
            out.append(item)
        return Response.json_body(200, out)


def _cloud_code(s: _State) -> int:
    c = s.clouds
    return 800 if c <= 10 else 801 if c <= 25 else 802 if c <= 50 else 803 if c <= 84 else 804


def _xml_response(root: ET.Element) -> Response:
    text = '<?xml version="1.0" encoding="UTF-8"?>' + ET.tostring(root, encoding="unicode")
    return Response.text_body(200, text, "application/xml")


@functools.lru_cache(maxsize=16384)
def _nearest_cached(seed: int, lat: float, lon: float) -> Place | None:
    return get_gazetteer(seed).nearest_within(lat, lon, 50.0)


@functools.lru_cache(maxsize=4096)
def _dt_txt(ts: int) -> str:
    return dt.datetime.fromtimestamp(ts, tz=dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


@functools.lru_cache(maxsize=1024)
def _weather_json(code: int, is_day: bool, lang: str) -> str:
    return json.dumps(_weather_list(code, is_day, lang), ensure_ascii=False, separators=(",", ":"))


@functools.lru_cache(maxsize=65536)
def _forecast_json(seed: int, lat: float, lon: float, ts: int, units: str, lang: str) -> str:
    """One 3-hourly forecast entry as compact JSON text (built directly, for speed)."""
    s = _state(seed, lat, lon, ts)
    kf = round(s.temp_max - s.temp, 2) if ts % 86400 < 10800 else 0
    extra = ""
    if s.rain_1h > 0:
        extra += f',"rain":{{"3h":{round(3 * s.rain_1h, 2)!r}}}'
    if s.snow_1h > 0:
        extra += f',"snow":{{"3h":{round(3 * s.snow_1h, 2)!r}}}'
    return (
        f'{{"dt":{ts},"main":{{"temp":{_temp(s.temp, units)!r},'
        f'"feels_like":{_temp(s.feels_like, units)!r},'
        f'"temp_min":{_temp(s.temp_min, units)!r},"temp_max":{_temp(s.temp_max, units)!r},'
        f'"pressure":{s.pressure},"sea_level":{s.sea_level},"grnd_level":{s.grnd_level},'
        f'"humidity":{s.humidity},"temp_kf":{kf!r}}},'
        f'"weather":{_weather_json(s.code, s.is_day, lang)},"clouds":{{"all":{s.clouds}}},'
        f'"wind":{{"speed":{_speed(s.wind_speed, units)!r},"deg":{s.wind_deg},'
        f'"gust":{_speed(s.wind_gust, units)!r}}},"visibility":{s.visibility},"pop":{s.pop!r}'
        f'{extra},"sys":{{"pod":"{"d" if s.is_day else "n"}"}},"dt_txt":"{_dt_txt(ts)}"}}'
    )
