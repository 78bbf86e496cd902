"""Tests of the simulated OpenWeather service and its gazetteer."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from toolgym.families.openweather.world import LANGUAGES, OpenWeatherApp
from toolgym.simulators.gazetteer import get_gazetteer
from toolgym.simulators.http import Request

BASE = "https://api.openweathermap.org"
CURRENT_KEYS = [
    "coord", "weather", "base", "main", "visibility", "wind", "clouds", "dt", "sys", "timezone",
    "id", "name", "cod",
]  # fmt: skip


def get(app: OpenWeatherApp, path_query: str):
    return app.handle(Request.build("GET", BASE + path_query))


@pytest.fixture(scope="module")
def app() -> OpenWeatherApp:
    return OpenWeatherApp()


def test_gazetteer_size_and_lookups() -> None:
    g = get_gazetteer()
    assert len(g) >= 2000 and len(list(g)) == len(g)
    assert len({p.id for p in g}) == len(g)
    assert g.by_zip("94102").name == "San Francisco"
    assert g.by_city("KANSAS+city")[0].state == "MO"
    assert g.by_city("portland", state="Oregon")[0].state == "OR"
    assert g.by_city("london", country="gb")[0].country == "GB"
    assert g.nearest(51.5, -0.12).name == "London"
    assert all(len(p.zip) == 5 for p in g if p.country == "US")


def test_current_weather_shape_and_determinism(app: OpenWeatherApp) -> None:
    r = get(app, "/data/2.5/weather?q=london&appid=k")
    assert r.status == 200
    body = r.json()
    keys = [k for k in body if k not in ("rain", "snow")]
    assert keys == CURRENT_KEYS
    assert body["cod"] == 200 and body["name"] == "London" and body["sys"]["country"] == "GB"
    assert set(body["weather"][0]) == {"id", "main", "description", "icon"}
    assert r.body == get(OpenWeatherApp(), "/data/2.5/weather?q=London&appid=other").body
    assert get(app, "/data/2.5/weather?zip=94957,us&appid=k").json()["name"] == "Ross"
    by_ll = get(app, "/data/2.5/weather?lat=51.5085&lon=-0.1257&appid=k").json()
    assert by_ll["main"] == body["main"] and by_ll["name"] == "London"
    ocean = get(app, "/data/2.5/weather?lat=-50.0&lon=-140.0&appid=k").json()
    assert ocean["name"] == "" and ocean["id"] == 0


def test_forecast_air_and_geocoding_shapes(app: OpenWeatherApp) -> None:
    f = get(app, "/data/2.5/forecast?lat=54.5&lon=25.6&appid=k&mode=json").json()
    assert list(f) == ["cod", "message", "cnt", "list", "city"]
    assert f["cod"] == "200" and f["cnt"] == 40 and len(f["list"]) == 40
    assert {"dt", "main", "weather", "clouds", "wind", "visibility", "pop", "sys", "dt_txt"} <= set(
        f["list"][0]
    )
    assert "temp_kf" in f["list"][0]["main"]
    assert [e["dt"] for e in f["list"]] == sorted(e["dt"] for e in f["list"])
    assert len(get(app, "/data/2.5/forecast?q=paris&appid=k&cnt=3").json()["list"]) == 3
    a = get(app, "/data/2.5/air_pollution?lat=-80.0&lon=163.3&appid=k").json()
    assert list(a) == ["coord", "list"] and len(a["list"]) == 1
    assert 1 <= a["list"][0]["main"]["aqi"] <= 5
    assert set(a["list"][0]["components"]) == {
        "co",
        "no",
        "no2",
        "o3",
        "so2",
        "pm2_5",
        "pm10",
        "nh3",
    }
    af = get(app, "/data/2.5/air_pollution/forecast?lat=-43.1&lon=-32.1&appid=k").json()
    assert list(af) == ["coord", "list"] and len(af["list"]) == 96
    geo = get(app, "/geo/1.0/direct?q=portland&limit=1&appid=k").json()
    assert len(geo) == 1 and list(geo[0]) == [
        "name",
        "local_names",
        "lat",
        "lon",
        "country",
        "state",
    ]
    assert get(app, "/geo/1.0/direct?q=nowhere+at+all&appid=k").json() == []


def test_units_conversions_are_exact(app: OpenWeatherApp) -> None:
    q = "/data/2.5/weather?q=chicago&appid=k"
    k, c, f = (get(app, f"{q}&units={u}").json() for u in ("standard", "metric", "imperial"))
    assert get(app, f"{q}&units=bogus").json() == k == get(app, q).json()
    for key in ("temp", "feels_like", "temp_min", "temp_max"):
        assert abs(k["main"][key] - 273.15 - c["main"][key]) <= 0.011
        assert abs(c["main"][key] * 9 / 5 + 32 - f["main"][key]) <= 0.03
    assert abs(k["wind"]["speed"] * 2.236936 - f["wind"]["speed"]) <= 0.02
    assert k["wind"]["speed"] == c["wind"]["speed"]


def test_lang_changes_only_descriptions(app: OpenWeatherApp) -> None:
    base = get(app, "/data/2.5/forecast?q=tokyo&appid=k").json()
    descriptions = set()
    for lang in LANGUAGES:
        other = get(app, f"/data/2.5/forecast?q=tokyo&appid=k&lang={lang}").json()
        descriptions.add(other["list"][0]["weather"][0]["description"])
        for a, b in zip(base["list"], other["list"], strict=True):
            a, b = dict(a), dict(b)
            wa, wb = a.pop("weather")[0], b.pop("weather")[0]
            assert a == b and {**wa, "description": ""} == {**wb, "description": ""}
    assert len(descriptions) >= 6
    assert get(app, "/data/2.5/forecast?q=tokyo&appid=k&lang=xx").json() == base


def test_xml_mode(app: OpenWeatherApp) -> None:
    r = get(app, "/data/2.5/weather?q=berlin&appid=k&mode=xml&units=metric")
    assert r.status == 200 and "application/xml" in r.headers["Content-Type"]
    root = ET.fromstring(r.body)
    assert root.tag == "current" and root.find("temperature").get("unit") == "celsius"
    for tag in ("city", "humidity", "pressure", "wind", "clouds", "visibility", "precipitation",
                "weather", "lastupdate"):  # fmt: skip
        assert root.find(tag) is not None
    f = ET.fromstring(get(app, "/data/2.5/forecast?q=berlin&appid=k&mode=xml").body)
    assert f.tag == "weatherdata" and len(f.find("forecast")) == 40


@pytest.mark.parametrize(
    ("query", "status", "cod"),
    [
        ("/data/2.5/weather?q=london", 401, 401),
        ("/data/2.5/weather?q=london&appid=", 401, 401),
        ("/data/2.5/weather?q=atlantisville&appid=k", 404, "404"),
        ("/data/2.5/forecast?zip=00000&appid=k", 404, "404"),
        ("/data/2.5/weather?lat=91&lon=0&appid=k", 400, "400"),
        ("/data/2.5/weather?lat=1&lon=-181&appid=k", 400, "400"),
        ("/data/2.5/air_pollution?lat=abc&lon=0&appid=k", 400, "400"),
        ("/data/2.5/weather?appid=k", 400, "400"),
        ("/geo/1.0/direct?q=&appid=k", 400, "400"),
        ("/data/2.5/nothing?appid=k", 404, "404"),
    ],
)
def test_errors(app: OpenWeatherApp, query: str, status: int, cod: object) -> None:
    r = get(app, query)
    assert r.status == status and r.json()["cod"] == cod and r.json()["message"]


def test_api_key_and_garbage_never_raise() -> None:
    app = OpenWeatherApp(api_key="secret")
    assert get(app, "/data/2.5/weather?q=london&appid=wrong").status == 401
    assert get(app, "/data/2.5/weather?q=london&appid=secret").status == 200
    for junk in ("?%%%", "?lat=nan&lon=inf&appid=secret", "?q=,,,&appid=secret",
                 "?zip=,&appid=secret", "?cnt=x&q=paris&appid=secret"):  # fmt: skip
        for path in ("/data/2.5/weather", "/data/2.5/forecast", "/geo/1.0/direct"):
            assert get(app, path + junk).status in (200, 400, 401, 404)


def test_time_advance_snapshot_restore() -> None:
    app = OpenWeatherApp()
    q = "/data/2.5/weather?q=sydney&appid=k"
    first = get(app, q).json()
    state = app.snapshot()
    app.advance(6)
    later = get(app, q).json()
    assert later["dt"] == first["dt"] + 3600 and later["main"] != first["main"]
    app.restore(state)
    assert get(app, q).json() == first
    other = OpenWeatherApp()
    other.advance(6)
    assert get(other, q).json() == later
