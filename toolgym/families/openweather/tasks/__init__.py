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

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from toolgym.benchmarks.checkers import ResponseF1
from toolgym.benchmarks.phrasing import pick
from toolgym.benchmarks.suite import FixedSplits, TaskSuite
from toolgym.benchmarks.tasks import Task
from toolgym.families.openweather.tasks.phrasing import LANGUAGE_NAMES, TEMPLATES, Writer
from toolgym.families.openweather.tasks.places import CITIES, CityName, pools
from toolgym.simulators.seeding import stable_seed

DATA_DIR = str(Path(__file__).resolve().parents[1] / "data")
"""The family's stored splits."""

FAMILY = "openweather"
PAPER_COMPLEXITY = 2.2
"""The paper's API complexity score of the task (its Table 4), which
``toolgym complexity`` shows next to the score of the stored splits."""
VERSIONS = (0, 1)
"""The task-set versions: 0 in the synthetic world, 1 in the real gazetteer."""
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


@dataclass(frozen=True)
class _Spec:
    endpoint: str
    lat: str = ""
    lon: str = ""
    zip: str = ""
    city: str = ""
    query: str = ""
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
            params = [f"q={self.query or self.city.lower().replace(' ', '+')}"]
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


def _spec(
    rng: np.random.Generator, version: int, endpoint: str, units: str, mode: str, lang: str
) -> _Spec:
    if endpoint.endswith("air_pollution") or endpoint.endswith("lat_lon"):
        return _Spec(endpoint, lat=_coord(rng, 85.0), lon=_coord(rng, 180.0), units=units,
                     mode=mode, lang=lang)  # fmt: skip
    places = pools(version)
    if endpoint.endswith("zipcode"):
        return _Spec(endpoint, zip=pick(rng, places.zips), units=units, mode=mode, lang=lang)
    if endpoint == "geocoding_direct":
        city: CityName = pick(rng, places.geo_cities)
        return _Spec(endpoint, city=city.text, query=city.query, limit=int(rng.integers(1, 6)))
    city = pick(rng, places.cities)
    return _Spec(endpoint, city=city.text, query=city.query, units=units, mode=mode, lang=lang)


_TEMPLATE_BY_ID = {t.tid: t for t in TEMPLATES}


def _build_task(
    rng: np.random.Generator,
    version: int,
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
    spec = _spec(rng, version, endpoint, *options)
    text = _TEMPLATE_BY_ID[template].render(Writer(rng, spec))
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


def generate_task(
    rng: np.random.Generator, task_id: str, *, endpoint: str | None = None, version: int = 1
) -> Task:
    """Generate one task with ``rng``.

    Args:
        rng: the generator every choice is drawn from.
        task_id: the id of the task.
        endpoint: one of :data:`ENDPOINTS` (by default drawn with the test mix).
        version: the task-set version whose places the goal names (0 or 1).

    Raises:
        ValueError: an unknown endpoint type or version.
    """
    if endpoint is None:
        endpoint = _sample_endpoint(rng)
    elif endpoint not in ENDPOINTS:
        raise ValueError(f"unknown OpenWeather endpoint {endpoint!r}; known: {list(ENDPOINTS)}")
    return _build_task(rng, version, task_id, endpoint, _sample_options(rng))


def _task_rng(version: int, *parts: object) -> np.random.Generator:
    return np.random.default_rng(stable_seed(FAMILY, version, *parts))


def _demo_tasks(version: int) -> list[Task]:
    tasks = []
    for i, endpoint in enumerate(e for e in ENDPOINTS for _ in range(2)):
        rng = _task_rng(version, "demo", i)
        tasks.append(_build_task(rng, version, f"demo-{i:03d}", endpoint, _sample_options(rng)))
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


def _test_tasks(version: int, demos: list[Task]) -> list[Task]:
    rng = _task_rng(version, "test")
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
            rng_i = _task_rng(version, "test", i, attempt)
            task = _build_task(rng_i, version, f"test-{i:03d}", endpoint, opts, template)
            if task.instruction not in seen:
                break
            attempt += 1  # pragma: no cover - a repeated goal
        seen.add(task.instruction)
        tasks.append(task)
    return tasks


def _splits(version: int) -> dict[str, tuple[Task, ...]]:
    demos = _demo_tasks(version)
    return {"demo": tuple(demos), "test": tuple(_test_tasks(version, demos))}


_FIXED = FixedSplits("OpenWeather-v0", lambda: _splits(0))
_FIXED_V1 = FixedSplits("OpenWeather-v1", lambda: _splits(1))


def generate_split(split: str) -> list[Task]:
    """Generate the tasks of a fixed split of version 0 (``"test"`` or ``"demo"``).

    Raises:
        ValueError: an unknown split.
    """
    return _FIXED.tasks(split)


def generate_split_v1(split: str) -> list[Task]:
    """Generate the tasks of a fixed split of version 1, the same on every machine.

    Raises:
        ValueError: an unknown split.
    """
    return _FIXED_V1.tasks(split)


def train_task(k: int, world_seed: int = 0) -> Task:
    """Version 0's train task ``f"train-{k}"``, regenerated from ``k`` alone.

    A draw whose goal equals a test or demo goal is replaced by the next draw for the same ``k``.
    The task is the same in every world seed (its cities and zip codes exist in all of them).
    """
    return _FIXED.unseen(
        lambda attempt: generate_task(_task_rng(0, "train", k, attempt), f"train-{k}", version=0),
    )


def train_task_v1(k: int, world_seed: int = 0) -> Task:
    """Version 1's train task ``f"train-{k}"`` (real places; the same in every world seed)."""
    return _FIXED_V1.unseen(
        lambda attempt: generate_task(_task_rng(1, "train", k, attempt), f"train-{k}"),
    )


def checker_for(task: Task) -> ResponseF1:
    """Every OpenWeather task is scored by the F1 of its response fields."""
    return ResponseF1()


SUITE = TaskSuite(
    FAMILY, 0, tuple(SPLITS), generate_split, train_task, checker_for, data_dir=DATA_DIR
)
"""Version 0: goals name the synthetic world's places; scored by the response's dict F1."""

SUITE_V1 = TaskSuite(
    FAMILY, 1, tuple(SPLITS), generate_split_v1, train_task_v1, checker_for, data_dir=DATA_DIR
)
"""Version 1: goals name real places (GeoNames cities, US ZIP codes); scored the same way."""

__all__ = [
    "CITIES",
    "ENDPOINTS",
    "SUITE",
    "SUITE_V1",
    "TEST_COUNTS",
    "generate_split",
    "generate_split_v1",
    "generate_task",
    "train_task",
    "train_task_v1",
]
