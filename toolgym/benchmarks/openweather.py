"""OpenWeather tasks: weather questions phrased like real users, gold requests as one curl line.

Each task picks one of the nine endpoint types of the original benchmark (current or forecast air
pollution at a coordinate; current weather or forecast by coordinate, zip code or city name; direct
geocoding), a location (random coordinates with one decimal, a real zip code of the gazetteer, or a
well-known city), and for the weather endpoints the optional ``units``, ``mode`` (always ``json``:
an XML answer cannot be scored) and ``lang`` parameters. A sentence template then writes the goal,
naming units, languages and the JSON format in words. The gold completion is one line in the
original format::

    curl -X GET 'https://api.openweathermap.org/data/2.5/forecast?lat=54.5&lon=25.6&appid={API_KEY}&mode=json'

with the location parameters first (``lat`` before ``lon`` even when the goal names the longitude
first), then ``appid``, then ``units``, ``mode`` and ``lang`` when the user asked for them.

Splits:

* ``test`` (100 tasks): the original endpoint mix (``/data/2.5/weather`` 36, ``/data/2.5/forecast``
  34, air pollution 10 + 10, geocoding 10) and the original optional-parameter counts (``mode=json``
  26, ``units=standard`` 14, ``metric`` 9, ``imperial`` 6, ``lang`` 17 covering all eight languages).
* ``demo`` (18 tasks): two demonstrations per endpoint type.
* train: an unlimited stream (:func:`train_task`) drawn with the test frequencies, never repeating
  a test or demo goal. The cities and zip codes goals name exist in every world.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from toolgym.benchmarks.checkers import ResponseF1
from toolgym.benchmarks.phrasing import join, pick
from toolgym.benchmarks.suite import FixedSplits, TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.simulators.gazetteer import get_gazetteer
from toolgym.simulators.seeding import stable_seed

FAMILY = "openweather"
VERSION = 0
SPLITS: dict[str, int] = {"test": 100, "demo": 18}

BASE_URL = "https://api.openweathermap.org"

ENDPOINTS: dict[str, str] = {
    "current_air_pollution": "/data/2.5/air_pollution",
    "forecast_air_pollution": "/data/2.5/air_pollution/forecast",
    "current_weather_lat_lon": "/data/2.5/weather",
    "forecast_weather_lat_lon": "/data/2.5/forecast",
    "geocoding_direct": "/geo/1.0/direct",
    "current_weather_zipcode": "/data/2.5/weather",
    "forecast_weather_zipcode": "/data/2.5/forecast",
    "forecast_weather_city": "/data/2.5/forecast",
    "current_weather_city": "/data/2.5/weather",
}
"""The nine endpoint types (toolgym's ids) and their paths."""

TEST_COUNTS: dict[str, int] = {
    "current_air_pollution": 10,
    "forecast_air_pollution": 10,
    "current_weather_lat_lon": 12,
    "forecast_weather_lat_lon": 12,
    "geocoding_direct": 10,
    "current_weather_zipcode": 12,
    "forecast_weather_zipcode": 11,
    "forecast_weather_city": 11,
    "current_weather_city": 12,
}
"""Tasks per endpoint type in the test split (the original per-path mix)."""

WEATHER_ENDPOINTS: tuple[str, ...] = tuple(e for e in ENDPOINTS if "weather" in e)
"""The endpoint types that take ``units``, ``mode`` and ``lang``."""

_N_WEATHER_TEST = sum(TEST_COUNTS[e] for e in WEATHER_ENDPOINTS)
OPTION_COUNTS: dict[str, int] = {
    "mode=json": 26,
    "units=standard": 14,
    "units=metric": 9,
    "units=imperial": 6,
    "lang": 17,
}
"""How many of the 70 weather tasks of the test split use each optional parameter."""

LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "fr": "French",
    "zh_cn": "Simplified Chinese",
    "it": "Italian",
    "de": "German",
    "ru": "Russian",
    "ja": "Japanese",
    "nl": "Dutch",
}

CITIES: tuple[str, ...] = (
    "London", "Birmingham", "Manchester", "Edinburgh", "Dublin", "Paris", "Lyon", "Berlin",
    "Munich", "Hamburg", "Madrid", "Barcelona", "Lisbon", "Rome", "Milan", "Venice", "Amsterdam",
    "Brussels", "Vienna", "Zurich", "Prague", "Warsaw", "Budapest", "Copenhagen", "Stockholm",
    "Oslo", "Helsinki", "Reykjavik", "Athens", "Istanbul", "Moscow", "Cairo", "Nairobi",
    "Cape Town", "Dubai", "Mumbai", "Delhi", "Bangkok", "Singapore", "Hong Kong", "Seoul",
    "Tokyo", "Osaka", "Sydney", "Melbourne", "Auckland", "Toronto", "Vancouver", "Montreal",
    "Mexico City", "Lima", "Buenos Aires", "Rio de Janeiro", "New York", "Los Angeles",
    "Chicago", "Houston", "San Francisco", "Seattle", "Denver", "Austin", "Boston", "Miami",
    "Kansas City", "New Orleans", "Salt Lake City", "Nashville", "Atlanta", "Portland",
    "Las Vegas", "Honolulu", "Anchorage", "Philadelphia", "San Diego", "Detroit", "Minneapolis",
)  # fmt: skip
"""Well-known cities the goals name (each exists in the gazetteer)."""


@functools.lru_cache(maxsize=1)
def zip_codes() -> tuple[str, ...]:
    """Real zip codes of well-known US places of the gazetteer (sorted)."""
    from toolgym.simulators.gazetteer import _CITY_ZIPS

    return tuple(sorted({*_CITY_ZIPS.values(), "94957"}))


# --------------------------------------------------------------------------------------------------
# Specs and phrasing


@dataclass(frozen=True)
class _Spec:
    endpoint: str
    lat: str = ""
    lon: str = ""
    zip: str = ""
    city: str = ""
    limit: int = 0
    units: str = ""
    mode: str = ""
    lang: str = ""

    def url(self) -> str:
        if self.lat:
            params = [f"lat={self.lat}", f"lon={self.lon}"]
        elif self.zip:
            params = [f"zip={self.zip}"]
        else:
            params = [f"q={self.city.lower().replace(' ', '+')}"]
        if self.limit:
            params.append(f"limit={self.limit}")
        params.append("appid={API_KEY}")
        for key in ("units", "mode", "lang"):
            value = getattr(self, key)
            if value:
                params.append(f"{key}={value}")
        return f"{BASE_URL}{ENDPOINTS[self.endpoint]}?{'&'.join(params)}"

    def completion(self) -> str:
        return f"curl -X GET '{self.url()}'"


class _Writer:
    """Renders the parts of a goal: the location phrase and the optional-parameter phrases."""

    def __init__(self, rng: np.random.Generator, spec: _Spec) -> None:
        self.rng = rng
        self.spec = spec

    def loc(self) -> str:
        s, rng = self.spec, self.rng
        if s.lat:
            lon_word = "longitute" if rng.random() < 0.15 else "longitude"
            la, lo = s.lat, s.lon
            forms = [
                f"at latitude {la}, {lon_word} {lo}",
                f"at {lon_word} {lo}, latitude {la}",
                f"at the location with latitude {la} and {lon_word} {lo}",
                f"at the place where {lon_word} = {lo} and latitude = {la}",
                f"at the location with (latitude, {lon_word}) = ({la}, {lo})",
                f"at the location with ({lon_word}, latitude) = ({lo}, {la})",
                f"at lat {la}, lon {lo}",
                f"at the coordinates latitude {la} / {lon_word} {lo}",
            ]
            return pick(rng, forms)
        if s.zip:
            z = s.zip
            return pick(
                rng,
                [
                    f"in {z}",
                    f"in zip code {z}",
                    f"in the {z} zip code",
                    f"for ZIP {z}",
                    f"in the area with postal code {z}",
                ],
            )
        return pick(rng, [f"in {s.city}", f"in the city of {s.city}", f"for {s.city}"])

    def _parts(self) -> list[str]:
        s, rng = self.spec, self.rng
        parts = []
        if s.units:
            parts.append(
                pick(
                    rng,
                    {
                        "standard": [
                            "in standard units",
                            "in Kelvin",
                            "in standard units (Kelvin)",
                        ],
                        "metric": ["in Celsius", "in metric units", "in degrees Celsius"],
                        "imperial": ["in Fahrenheit", "in imperial units", "in degrees Fahrenheit"],
                    }[s.units],
                )
            )
        if s.mode:
            parts.append(pick(rng, ["in json", "in JSON format", "as JSON", "in json mode"]))
        if s.lang:
            name = LANGUAGE_NAMES[s.lang]
            parts.append(pick(rng, [f"in {name}", f"with the descriptions in {name}"]))
        order = [int(i) for i in self.rng.permutation(len(parts))]
        return [parts[i] for i in order]

    def inline(self) -> str:
        """The options right after a noun phrase (``" in Celsius"``), if at most one."""
        parts = self._parts()
        return f" {parts[0]}" if len(parts) == 1 else ""

    def wants_sentence(self) -> bool:
        """Whether the options need a sentence of their own (two or more)."""
        return sum(bool(v) for v in (self.spec.units, self.spec.mode, self.spec.lang)) >= 2

    def sentence(self) -> str:
        """The options as a follow-up sentence (empty when none)."""
        parts = self._parts()
        if not parts:
            return ""
        lead = pick(
            self.rng,
            [
                "Please give me the result",
                "I'd like the answer",
                "Please respond",
                "Could you give me the output",
                "Give me the response",
            ],
        )
        end = "?" if lead.startswith("Could") else "."
        return f" {lead} {join(parts)}{end}"


@dataclass(frozen=True)
class _Template:
    tid: str
    kind: str  # current, forecast, air_now, air_forecast, geo
    render: Callable[[_Writer], str]
    sentence_style: bool = False  # options always as a sentence at the end


def _opts(w: _Writer, sentence_style: bool) -> tuple[str, str]:
    """(inline, sentence) text for the options; exactly one is non-empty when there are any."""
    if sentence_style or w.wants_sentence():
        return "", w.sentence()
    return w.inline(), ""


def _with_opts(fn: Callable[[_Writer, str, str], str], sentence_style: bool) -> Callable:
    def render(w: _Writer) -> str:
        inline, sentence = _opts(w, sentence_style)
        return fn(w, inline, sentence)

    return render


_T = _Template
TEMPLATES: tuple[_Template, ...] = (
    # current weather
    _T("cur_like_now", "current", _with_opts(
        lambda w, i, s: f"What's the weather like right now {w.loc()}?{s}", True)),
    _T("cur_temperature", "current", _with_opts(
        lambda w, i, s: f"How's the current temperature{i} {w.loc()}?{s}", False)),
    _T("cur_conditions", "current", _with_opts(
        lambda w, i, s: f"Tell me the current weather conditions {w.loc()}{i}.{s}", False)),
    _T("cur_raining", "current", _with_opts(
        lambda w, i, s: f"Is it raining {w.loc()} at the moment?{s}", True)),
    _T("cur_wind_humidity", "current", _with_opts(
        lambda w, i, s: f"I need the current wind speed and humidity{i} {w.loc()}.{s}", False)),
    _T("cur_heading_out", "current", _with_opts(
        lambda w, i, s: f"I'm heading out soon. What's the weather {w.loc()} right now{i}?{s}",
        False)),
    # forecast
    _T("fc_this_week", "forecast", _with_opts(
        lambda w, i, s: f"How's the weather looking this week {w.loc()}?{s}", True)),
    _T("fc_wind_tomorrow", "forecast", _with_opts(
        lambda w, i, s: f"Get the wind speed data{i} for tomorrow {w.loc()} please.{s}", False)),
    _T("fc_future_data", "forecast", _with_opts(
        lambda w, i, s: f"Request for the future weather data{i} {w.loc()}.{s}", False)),
    _T("fc_following_days", "forecast", _with_opts(
        lambda w, i, s: f"Do you know what's the weather like in the following days {w.loc()}?{s}",
        True)),
    _T("fc_trip", "forecast", _with_opts(
        lambda w, i, s: f"I'm planning a trip. What's the 5-day forecast{i} {w.loc()}?{s}", False)),
    _T("fc_humidity_visibility", "forecast", _with_opts(
        lambda w, i, s: f"How's the humidity and visibility level for the next few days{i} "
        f"{w.loc()}?{s}", False)),
    # air pollution now
    _T("air_this_moment", "air_now",
       lambda w: f"Please give me the air quality data {w.loc()} at this moment."),
    _T("air_current_level", "air_now",
       lambda w: f"What's the current air pollution level {w.loc()}?"),
    _T("air_aqi_now", "air_now",
       lambda w: f"Check the AQI and pollutant concentrations right now {w.loc()}."),
    # air pollution forecast
    _T("airfc_next_days", "air_forecast",
       lambda w: f"How's the air quality for the next few days {w.loc()}?"),
    _T("airfc_expect", "air_forecast",
       lambda w: f"Can you tell me what to expect on the air quality in the coming days {w.loc()}?"),
    _T("airfc_forecast", "air_forecast",
       lambda w: f"Give me the air pollution forecast {w.loc()}."),
    # geocoding
    _T("geo_up_to", "geo",
       lambda w: f"Find the coordinates of up to {w.spec.limit} places called {w.spec.city}."),
    _T("geo_lat_lon_of", "geo",
       lambda w: f"What are the latitude and longitude of {w.spec.city}? Give me at most "
       f"{w.spec.limit} results."),
    _T("geo_geocode", "geo",
       lambda w: f"Geocode the city name {w.spec.city} and return no more than {w.spec.limit} "
       f"matches."),
)  # fmt: skip
"""The goal templates (the id is stored in ``Task.meta["template"]``)."""

_TEMPLATE_BY_ID = {t.tid: t for t in TEMPLATES}


def _kind(endpoint: str) -> str:
    if endpoint == "current_air_pollution":
        return "air_now"
    if endpoint == "forecast_air_pollution":
        return "air_forecast"
    if endpoint == "geocoding_direct":
        return "geo"
    return "current" if endpoint.startswith("current") else "forecast"


def _coord(rng: np.random.Generator, limit: float) -> str:
    while True:
        text = f"{rng.uniform(-limit, limit):.1f}"
        if text != "-0.0":
            return text


def _spec(rng: np.random.Generator, endpoint: str, units: str, mode: str, lang: str) -> _Spec:
    if endpoint.endswith("air_pollution") or endpoint.endswith("lat_lon"):
        return _Spec(endpoint, lat=_coord(rng, 85.0), lon=_coord(rng, 180.0), units=units,
                     mode=mode, lang=lang)  # fmt: skip
    if endpoint.endswith("zipcode"):
        return _Spec(endpoint, zip=pick(rng, zip_codes()), units=units, mode=mode, lang=lang)
    if endpoint == "geocoding_direct":
        return _Spec(endpoint, city=pick(rng, CITIES), limit=int(rng.integers(1, 6)))
    return _Spec(endpoint, city=pick(rng, CITIES), units=units, mode=mode, lang=lang)


def _build_task(
    rng: np.random.Generator,
    task_id: str,
    endpoint: str,
    options: tuple[str, str, str] = ("", "", ""),
    template: str | None = None,
) -> Task:
    kind = _kind(endpoint)
    if kind not in ("current", "forecast"):
        options = ("", "", "")
    if template is None:
        template = pick(rng, [t.tid for t in TEMPLATES if t.kind == kind])
    spec = _spec(rng, endpoint, *options)
    text = _TEMPLATE_BY_ID[template].render(_Writer(rng, spec))
    text = " ".join(text.split())
    return Task(task_id, text, (spec.completion(),), {"template": template, "endpoint": endpoint})


def _sample_options(rng: np.random.Generator) -> tuple[str, str, str]:
    n = _N_WEATHER_TEST
    r = rng.random() * n
    units = ""
    for name in ("standard", "metric", "imperial"):
        share = OPTION_COUNTS[f"units={name}"]
        if r < share:
            units = name
            break
        r -= share
    mode = "json" if rng.random() < OPTION_COUNTS["mode=json"] / n else ""
    lang = pick(rng, tuple(LANGUAGE_NAMES)) if rng.random() < OPTION_COUNTS["lang"] / n else ""
    return units, mode, lang


def _sample_endpoint(rng: np.random.Generator) -> str:
    names = list(TEST_COUNTS)
    weights = np.array([TEST_COUNTS[e] for e in names], dtype=float)
    return names[int(rng.choice(len(names), p=weights / weights.sum()))]


def generate_task(rng: np.random.Generator, task_id: str, *, endpoint: str | None = None) -> Task:
    """Generate one task with ``rng``.

    Args:
        rng: the generator every choice is drawn from.
        task_id: the id of the task.
        endpoint: one of :data:`ENDPOINTS` (by default drawn with the test mix).

    Raises:
        ValueError: an unknown endpoint type.
    """
    if endpoint is None:
        endpoint = _sample_endpoint(rng)
    elif endpoint not in ENDPOINTS:
        raise ValueError(f"unknown OpenWeather endpoint {endpoint!r}; known: {list(ENDPOINTS)}")
    return _build_task(rng, task_id, endpoint, _sample_options(rng))


def _task_rng(*parts: object) -> np.random.Generator:
    return np.random.default_rng(stable_seed(FAMILY, VERSION, *parts))


def _demo_tasks() -> list[Task]:
    tasks = []
    for i, endpoint in enumerate(e for e in ENDPOINTS for _ in range(2)):
        rng = _task_rng("demo", i)
        tasks.append(_build_task(rng, f"demo-{i:03d}", endpoint, _sample_options(rng)))
    return tasks


def _test_options(rng: np.random.Generator) -> list[tuple[str, str, str]]:
    """Options for the 70 weather tasks with exactly the original counts."""
    n = _N_WEATHER_TEST
    units = [""] * n
    order = [int(i) for i in rng.permutation(n)]
    k = 0
    for name in ("standard", "metric", "imperial"):
        for _ in range(OPTION_COUNTS[f"units={name}"]):
            units[order[k]] = name
            k += 1
    mode = [""] * n
    for i in rng.permutation(n)[: OPTION_COUNTS["mode=json"]]:
        mode[int(i)] = "json"
    lang = [""] * n
    codes = list(LANGUAGE_NAMES)
    for j, i in enumerate(rng.permutation(n)[: OPTION_COUNTS["lang"]]):
        lang[int(i)] = codes[j % len(codes)]
    return list(zip(units, mode, lang, strict=True))


def _test_tasks(demos: list[Task]) -> list[Task]:
    rng = _task_rng("test")
    endpoints = [e for e, k in TEST_COUNTS.items() for _ in range(k)]
    endpoints = [endpoints[int(i)] for i in rng.permutation(len(endpoints))]
    options = iter(_test_options(rng))
    decks: dict[str, list[str]] = {}
    seen = {t.instruction for t in demos}
    tasks = []
    for i, endpoint in enumerate(endpoints):
        kind = _kind(endpoint)
        opts = next(options) if kind in ("current", "forecast") else ("", "", "")
        deck = decks.setdefault(kind, [t.tid for t in TEMPLATES if t.kind == kind])
        template = deck.pop(0)
        deck.append(template)
        attempt = 0
        while True:
            task = _build_task(
                _task_rng("test", i, attempt), f"test-{i:03d}", endpoint, opts, template
            )
            if task.instruction not in seen:
                break
            attempt += 1  # pragma: no cover - a repeated goal
        seen.add(task.instruction)
        tasks.append(task)
    return tasks


def _splits() -> dict[str, tuple[Task, ...]]:
    get_gazetteer()  # the cities and zips the tasks name come from the default gazetteer
    demos = _demo_tasks()
    return {"demo": tuple(demos), "test": tuple(_test_tasks(demos))}


_FIXED = FixedSplits("OpenWeather", _splits)


def generate_split(split: str) -> list[Task]:
    """Generate the tasks of a fixed split (``"test"`` or ``"demo"``), the same on every machine.

    Raises:
        ValueError: an unknown split.
    """
    return _FIXED.tasks(split)


def train_task(k: int, world_seed: int = 0) -> Task:
    """The train task with id ``f"train-{k}"``, regenerated from ``k`` alone.

    A draw whose goal equals a test or demo goal is replaced by the next draw for the same ``k``.
    The task is the same in every world (its cities and zip codes exist in all of them).
    """
    return _FIXED.unseen(
        lambda attempt: generate_task(_task_rng("train", k, attempt), f"train-{k}"),
    )


def checker_for(task: Task) -> ResponseF1:
    """Every OpenWeather task is scored by the F1 of its response fields."""
    return ResponseF1()


SUITE = TaskSuite(FAMILY, VERSION, tuple(SPLITS), generate_split, train_task, checker_for)
"""The OpenWeather tasks: ``test``, ``demo`` and ``train``, scored by the response's dict F1."""
