"""The OpenWeather weather model: weather and air quality as pure functions of place and time.

Weather is a pure function of (location, simulated time, seed): a latitude- and season-dependent
climatology with a diurnal cycle, plus slow "synoptic" variations built from location-seeded
sinusoids, from which clouds, rain, snow, humidity, pressure and wind are derived; condition codes
and icons follow OpenWeather's condition table, and descriptions come in the API's languages.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import random
from dataclasses import dataclass
from typing import Any

from toolgym.simulators.seeding import stable_seed

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


def sun_times(lat: float, lon: float, t: int) -> tuple[int, int]:
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
class WeatherState:
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
def weather_state(seed: int, lat: float, lon: float, t: int) -> WeatherState:
    """The weather at ``(lat, lon)`` at unix time ``t`` in the world of ``seed``."""
    site = _site(seed, lat, lon)
    ph = site.phases
    south = lat < 0.0
    season = math.cos(_TWO_PI * (t - 16_675_200.0) / _YEAR)  # ~ July 20 = warmest in the north
    if south:
        season = -season
    synoptic = _wave(ph, 0, t)
    moist = _wave(ph, 4, t * 1.13) + site.wetness
    breeze = _wave(ph, 8, t * 0.91)
    sunrise, sunset = sun_times(lat, lon, t)
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
    return WeatherState(
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


def convert_temp(kelvin: float, units: str) -> float:
    """A temperature in the API's ``units`` (kelvin, Celsius or Fahrenheit), rounded as it does."""
    if units == "metric":
        return round(kelvin - 273.15, 2)
    if units == "imperial":
        return round((kelvin - 273.15) * 9.0 / 5.0 + 32.0, 2)
    return round(kelvin, 2)


def convert_speed(mps: float, units: str) -> float:
    """A wind speed in the API's ``units`` (m/s, or mph for imperial)."""
    return round(mps * _MPS_TO_MPH, 2) if units == "imperial" else round(mps, 2)


def weather_list(code: int, is_day: bool, lang: str) -> list[dict[str, Any]]:
    """The ``weather`` list of a response: id, main, description in ``lang`` and icon."""
    main, _, icon = CONDITIONS[code]
    return [
        {
            "id": code,
            "main": main,
            "description": describe(code, lang),
            "icon": icon + ("d" if is_day else "n"),
        }
    ]


_AQI_LIMITS = (
    ("so2", (20.0, 80.0, 250.0, 350.0)),
    ("no2", (40.0, 70.0, 150.0, 200.0)),
    ("pm10", (20.0, 50.0, 100.0, 200.0)),
    ("pm2_5", (10.0, 25.0, 50.0, 75.0)),
    ("o3", (60.0, 100.0, 140.0, 180.0)),
    ("co", (4400.0, 9400.0, 12400.0, 15400.0)),
)


@functools.lru_cache(maxsize=65536)
def air_quality(seed: int, lat: float, lon: float, urban: float, t: int) -> dict[str, Any]:
    """One air-pollution item (AQI and components) at ``(lat, lon)`` and time ``t``."""
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
