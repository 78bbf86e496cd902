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
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from toolgym.families.openweather.world.weather import (
    CONDITIONS,
    LANGUAGES,
    UNITS,
    WeatherState,
    air_quality,
    convert_speed,
    convert_temp,
    describe,
    sun_times,
    weather_list,
    weather_state,
)
from toolgym.simulators.gazetteer import WORLDS, Place, PlaceIndex, get_world
from toolgym.simulators.http import HttpApp, Request, Response

STEP_SECONDS = 600
"""Seconds of simulated time per time step."""


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
        seed: seeds the weather model (and the synthetic gazetteer).
        api_key: the accepted ``appid``; ``None`` accepts any non-empty key.
        epoch: the unix time of time step 0 (default 2026-01-01 00:00 UTC).
        world: the gazetteer: ``"real"`` (GeoNames places and US ZIP codes, the default) or
            ``"synthetic"`` (the world of ``OpenWeather-v0``); see
            :mod:`toolgym.simulators.gazetteer`.

    Raises:
        ValueError: an unknown world.
    """

    name = "openweather"
    answers_inline = True  # every answer is bounded: under 0.2 ms
    hosts = ("api.openweathermap.org",)

    def __init__(
        self,
        seed: int = 0,
        api_key: str | None = None,
        epoch: int = 1767225600,
        world: str = "real",
    ) -> None:
        if world not in WORLDS:
            raise ValueError(f"world must be one of {', '.join(map(repr, WORLDS))}; got {world!r}")
        self.seed = int(seed)
        self.api_key = api_key
        self.epoch = int(epoch)
        self.world = world
        self.time_step = 0
        self.gazetteer: PlaceIndex = get_world(world, self.seed)
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
        return _Loc(lat, lon, _nearest_cached(self.world, self.seed, round(lat, 4), round(lon, 4)))

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
        if not q.split(",")[0].strip():
            raise _BadRequest(400, "400", "Nothing to geocode")
        return self.gazetteer.search(q)

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
        s = weather_state(self.seed, loc.lat, loc.lon, t)
        sunrise, sunset = sun_times(loc.lat, loc.lon, t)
        if mode == "xml":
            return self._current_xml(loc, s, t, sunrise, sunset, units, lang)
        sys: dict[str, Any] = {}
        if loc.country:
            sys["country"] = loc.country
        sys["sunrise"], sys["sunset"] = sunrise, sunset
        wind: dict[str, Any] = {
            "speed": convert_speed(s.wind_speed, units),
            "deg": s.wind_deg,
            "gust": convert_speed(s.wind_gust, units),
        }
        body: dict[str, Any] = {
            "coord": {"lon": loc.lon, "lat": loc.lat},
            "weather": weather_list(s.code, s.is_day, lang),
            "base": "stations",
            "main": {
                "temp": convert_temp(s.temp, units),
                "feels_like": convert_temp(s.feels_like, units),
                "temp_min": convert_temp(s.temp_min, units),
                "temp_max": convert_temp(s.temp_max, units),
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
        s: WeatherState,
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
            value=str(convert_temp(s.temp, units)),
            min=str(convert_temp(s.temp_min, units)),
            max=str(convert_temp(s.temp_max, units)),
            unit=tunit,
        )
        ET.SubElement(root, "feels_like", value=str(convert_temp(s.feels_like, units)), unit=tunit)
        ET.SubElement(root, "humidity", value=str(s.humidity), unit="%")
        ET.SubElement(root, "pressure", value=str(s.pressure), unit="hPa")
        wind = ET.SubElement(root, "wind")
        ET.SubElement(
            wind, "speed", value=str(convert_speed(s.wind_speed, units)), unit=sunit,
            name=_beaufort(s.wind_speed),
        )  # fmt: skip
        ET.SubElement(wind, "gusts", value=str(convert_speed(s.wind_gust, units)))
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
        sunrise, sunset = sun_times(loc.lat, loc.lon, t)
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
            s = weather_state(self.seed, loc.lat, loc.lon, ts)
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
                node, "windSpeed", mps=str(convert_speed(s.wind_speed, units)), unit=sunit,
                name=_beaufort(s.wind_speed),
            )  # fmt: skip
            ET.SubElement(node, "windGust", gust=str(convert_speed(s.wind_gust, units)), unit=sunit)
            ET.SubElement(
                node, "temperature", unit=tunit, value=str(convert_temp(s.temp, units)),
                min=str(convert_temp(s.temp_min, units)), max=str(convert_temp(s.temp_max, units)),
            )  # fmt: skip
            ET.SubElement(
                node, "feels_like", value=str(convert_temp(s.feels_like, units)), unit=tunit
            )
            ET.SubElement(node, "pressure", unit="hPa", value=str(s.pressure))
            ET.SubElement(node, "humidity", value=str(s.humidity), unit="%")
            ET.SubElement(
                node, "clouds", value=describe(_cloud_code(s), lang), all=str(s.clouds), unit="%"
            )
            ET.SubElement(node, "visibility", value=str(s.visibility))
        return _xml_response(root)

    # -- air pollution ----------------------------------------------------------------------------

    def _urban(self, lat: float, lon: float) -> float:
        place = _nearest_cached(self.world, self.seed, round(lat, 4), round(lon, 4))
        if place is None:
            return 0.25
        return min(2.2, 0.5 + math.log10(max(place.population, 1000)) / 6.0 * 1.2)

    def _air_current(self, params: dict[str, str]) -> Response:
        lat, lon = self._coords(params)
        lat, lon = round(lat, 4), round(lon, 4)
        t = self.now // 3600 * 3600
        item = air_quality(self.seed, lat, lon, self._urban(lat, lon), t)
        return Response.json_body(200, {"coord": {"lon": lon, "lat": lat}, "list": [item]})

    def _air_forecast(self, params: dict[str, str]) -> Response:
        lat, lon = self._coords(params)
        lat, lon = round(lat, 4), round(lon, 4)
        urban = self._urban(lat, lon)
        t0 = self.now // 3600 * 3600
        items = [air_quality(self.seed, lat, lon, urban, t0 + 3600 * i) for i in range(96)]
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


def _cloud_code(s: WeatherState) -> int:
    c = s.clouds
    return 800 if c <= 10 else 801 if c <= 25 else 802 if c <= 50 else 803 if c <= 84 else 804


def _xml_response(root: ET.Element) -> Response:
    text = '<?xml version="1.0" encoding="UTF-8"?>' + ET.tostring(root, encoding="unicode")
    return Response.text_body(200, text, "application/xml")


@functools.lru_cache(maxsize=16384)
def _nearest_cached(world: str, seed: int, lat: float, lon: float) -> Place | None:
    return get_world(world, seed).nearest_within(lat, lon, 50.0)


@functools.lru_cache(maxsize=4096)
def _dt_txt(ts: int) -> str:
    return dt.datetime.fromtimestamp(ts, tz=dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


@functools.lru_cache(maxsize=1024)
def _weather_json(code: int, is_day: bool, lang: str) -> str:
    return json.dumps(weather_list(code, is_day, lang), ensure_ascii=False, separators=(",", ":"))


@functools.lru_cache(maxsize=65536)
def _forecast_json(seed: int, lat: float, lon: float, ts: int, units: str, lang: str) -> str:
    """One 3-hourly forecast entry as compact JSON text (built directly, for speed)."""
    s = weather_state(seed, lat, lon, ts)
    kf = round(s.temp_max - s.temp, 2) if ts % 86400 < 10800 else 0
    extra = ""
    if s.rain_1h > 0:
        extra += f',"rain":{{"3h":{round(3 * s.rain_1h, 2)!r}}}'
    if s.snow_1h > 0:
        extra += f',"snow":{{"3h":{round(3 * s.snow_1h, 2)!r}}}'
    return (
        f'{{"dt":{ts},"main":{{"temp":{convert_temp(s.temp, units)!r},'
        f'"feels_like":{convert_temp(s.feels_like, units)!r},'
        f'"temp_min":{convert_temp(s.temp_min, units)!r},"temp_max":{convert_temp(s.temp_max, units)!r},'
        f'"pressure":{s.pressure},"sea_level":{s.sea_level},"grnd_level":{s.grnd_level},'
        f'"humidity":{s.humidity},"temp_kf":{kf!r}}},'
        f'"weather":{_weather_json(s.code, s.is_day, lang)},"clouds":{{"all":{s.clouds}}},'
        f'"wind":{{"speed":{convert_speed(s.wind_speed, units)!r},"deg":{s.wind_deg},'
        f'"gust":{convert_speed(s.wind_gust, units)!r}}},"visibility":{s.visibility},"pop":{s.pop!r}'
        f'{extra},"sys":{{"pod":"{"d" if s.is_day else "n"}"}},"dt_txt":"{_dt_txt(ts)}"}}'
    )
