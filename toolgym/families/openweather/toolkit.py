"""The OpenWeather tool: its nine documented endpoints and the original benchmark's request rules.

Before a request runs, the original evaluator substitutes ``{API_KEY}`` with ``str.format``
semantics (so any other ``{...}`` left in the line is a crash), requires the line to end with a
quote, turns ``%20`` into ``+`` and, except for air pollution and geocoding, appends
``&lang=en``, ``&units=standard`` and ``&mode=json`` when the words ``lang``, ``units`` and
``mode`` do not occur in the line. A response counts as executed when it is JSON and its ``cod``
is 200 (air pollution answers have no ``cod``); a JSON list becomes ``{0: item0, ...}``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar

import numpy as np

from toolgym.families.openweather.world import OpenWeatherApp
from toolgym.simulators.http import HttpApp, Request, Response
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.rest import RestRoute, endpoint
from toolgym.tools.rest_backend import RestToolkit
from toolgym.tools.tool import Param, Tool

BASE = "https://api.openweathermap.org"
LANGS = ("en", "fr", "zh_cn", "it", "de", "ru", "ja", "nl")
"""Languages of ``lang`` (the original docs list these eight)."""
UNITS = ("standard", "metric", "imperial")
MODES = ("json", "xml")

_LAT = Param("lat", "float", "Geographical coordinates (latitude), e.g. 54.5.")
_LON = Param("lon", "float", "Geographical coordinates (longitude), e.g. 25.6.")
_ZIP = Param("zip", "string", "Zip code (US), e.g. 94957.")
_CITY = Param(
    "q", "string", "City name, lowercase, spaces replaced by '+', e.g. kansas+city or london."
)
_OPTIONAL = (
    Param(
        "units",
        "str",
        "Units of measurement: standard (default), metric or imperial.",
        UNITS,
        False,
    ),
    Param("mode", "str", "Response format: json (default) or xml.", MODES, False),
    Param("lang", "str", f"Language of the descriptions: {', '.join(LANGS)}.", LANGS, False),
)
_OPT_DOC = "{optional_params}"


def _endpoint(
    name: str, description: str, path: str, params: tuple[Param, ...], template: str
) -> Tool:
    optional = path in ("/data/2.5/weather", "/data/2.5/forecast")
    suffix = _OPT_DOC if optional else ""
    # The original templates put appid right after the location parameters.
    route = RestRoute(
        "GET", BASE, path, fixed_query="appid={API_KEY}", fixed_query_position=len(params)
    )
    return endpoint(
        name,
        description,
        route,
        f"curl -X GET '{BASE}{path}?{template}&appid={{API_KEY}}{suffix}'",
        params + (_OPTIONAL if optional else ()),
        extra_doc_lines=("appid: (required) Your unique API key.",),
    )


ENDPOINTS: tuple[Tool, ...] = (
    _endpoint(
        "current_air_pollution",
        "Get the current air pollution data in location with latitude={lat}, longitude={lon}",
        "/data/2.5/air_pollution",
        (_LAT, _LON),
        "lat={lat}&lon={lon}",
    ),
    _endpoint(
        "forecast_air_pollution",
        "Get the air pollution forecast data in location with latitude={lat}, longitude={lon}",
        "/data/2.5/air_pollution/forecast",
        (_LAT, _LON),
        "lat={lat}&lon={lon}",
    ),
    _endpoint(
        "current_weather_lat_lon",
        "Get the current weather data in location with latitude={lat}, longitude={lon}",
        "/data/2.5/weather",
        (_LAT, _LON),
        "lat={lat}&lon={lon}",
    ),
    _endpoint(
        "forecast_weather_lat_lon",
        "Get the 5-day weather forecast (every 3 hours) in location with latitude={lat}, longitude={lon}",
        "/data/2.5/forecast",
        (_LAT, _LON),
        "lat={lat}&lon={lon}",
    ),
    _endpoint(
        "geocoding_direct",
        "Get up to k coordinates of the places called {city_name}",
        "/geo/1.0/direct",
        (_CITY, Param("limit", "int", "Number of places in the answer (up to 5).", required=False)),
        "q={city_name}&limit={k}",
    ),
    _endpoint(
        "current_weather_zipcode",
        "Get the current weather data in the area with zip code {zipcode}",
        "/data/2.5/weather",
        (_ZIP,),
        "zip={zipcode}",
    ),
    _endpoint(
        "forecast_weather_zipcode",
        "Get the 5-day weather forecast (every 3 hours) in the area with zip code {zipcode}",
        "/data/2.5/forecast",
        (_ZIP,),
        "zip={zipcode}",
    ),
    _endpoint(
        "forecast_weather_city",
        "Get the 5-day weather forecast (every 3 hours) in the city {city_name}",
        "/data/2.5/forecast",
        (_CITY,),
        "q={city_formatted}",
    ),
    _endpoint(
        "current_weather_city",
        "Get the current weather data in the city {city_name}",
        "/data/2.5/weather",
        (_CITY,),
        "q={city_formatted}",
    ),
)


class OpenWeatherToolkit(RestToolkit):
    """OpenWeather requests with the original evaluator's rules (see the module docstring).

    The service runs on the real gazetteer (``OpenWeather-v1``); :class:`OpenWeatherV0Toolkit`
    keeps the synthetic world of ``-v0``.
    """

    app_class = OpenWeatherApp
    endpoints = ENDPOINTS
    world: ClassVar[str] = "real"
    """The service's gazetteer (see :class:`~toolgym.families.openweather.world.OpenWeatherApp`)."""

    def new_app(self) -> OpenWeatherApp:
        """A fresh service on this toolkit's world."""
        return OpenWeatherApp(seed=self.world_seed, api_key=self.api_key, world=self.world)

    episode_steps = 1008
    """Episodes start at a simulated time drawn from one week of 10-minute steps."""

    def start_episode(self, app: HttpApp, rng: np.random.Generator) -> None:
        """Move the simulated clock to a time drawn with the episode's generator."""
        assert isinstance(app, OpenWeatherApp)
        app.restore(int(rng.integers(self.episode_steps)))

    def start_key(self, app: HttpApp) -> Hashable | None:
        """``None``: the clock differs from episode to episode, so golds run every time."""
        return None

    def sample_requests(self, n: int) -> list[tuple[str, dict[str, str]]]:
        """Current weather on a grid of coordinates, cycling through the units."""
        units = ("standard", "metric", "imperial")
        return [
            (
                f"/data/2.5/weather?lat={(i * 7.3) % 170 - 85:.1f}&lon={(i * 13.7) % 350 - 175:.1f}"
                f"&appid={self.api_key}&units={units[i % 3]}",
                {},
            )
            for i in range(n)
        ]

    def prepare(self, line: str) -> str:
        """Substitute the key, check the quoting, fill the default parameters."""
        text = line.replace("{API_KEY}", self.api_key)
        if "{" in text or "}" in text:
            start = text.find("{")
            shown = text[start : text.find("}", start) + 1] if start >= 0 else "}"
            raise ToolCallError(
                NON_EXECUTABLE,
                f"the request still has a placeholder {shown!r}; fill in every value "
                "(only {API_KEY} is substituted)",
            )
        text = text.rstrip()
        if not text.endswith("'"):
            raise ToolCallError(
                NON_EXECUTABLE, "the curl line must end with the closing quote of the URL: '...'"
            )
        text = text.replace("%20", "+")
        if "air_pollution" not in text and "direct" not in text:
            extra = "".join(
                f"&{key}={default}"
                for key, default in (("lang", "en"), ("units", "standard"), ("mode", "json"))
                if key not in text
            )
            text = text[:-1] + extra + "'"
        return text

    def outcome(self, request: Request, response: Response) -> dict[Any, Any]:
        """The response as the dict the original scores (crash rules in the module docstring)."""
        category = WRONG_API if self.endpoint_of(request) is None else WRONG_ARGUMENTS
        if response.status != 200:
            raise ToolCallError(category, f"HTTP {response.status}: {response.text[:200]}")
        body = self.parse_json(response)
        if isinstance(body, list):
            return self.as_index_dict(body)
        if not isinstance(body, dict):
            raise ToolCallError(NON_EXECUTABLE, "the response is neither a JSON object nor a list")
        if "cod" in body:
            try:
                ok = int(body["cod"]) == 200
            except (TypeError, ValueError):
                ok = False
            if not ok:
                raise ToolCallError(category, f"the response has cod {body['cod']!r}: {body}")
        elif "air_pollution" not in request.url:
            raise ToolCallError(NON_EXECUTABLE, "the response has no cod")
        return body


class OpenWeatherV0Toolkit(OpenWeatherToolkit):
    """The toolkit of ``OpenWeather-v0``: its synthetic world, kept as it was."""

    world: ClassVar[str] = "synthetic"
