"""The real world of OpenWeather-v1: real places and ZIP codes, found the way the real API finds them."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from conftest import samples_dir

from toolgym.families.openweather.world import OpenWeatherApp
from toolgym.simulators.gazetteer import get_real_gazetteer, place_key
from toolgym.simulators.gazetteer import real as real_module
from toolgym.simulators.http import Request

BASE = "https://api.openweathermap.org"


@pytest.fixture(scope="module")
def app() -> OpenWeatherApp:
    return OpenWeatherApp(api_key="k")


def get(app: OpenWeatherApp, path_query: str) -> tuple[int, object]:
    response = app.handle(Request.build("GET", f"{BASE}{path_query}&appid=k"))
    return response.status, response.json()


# -- name lookup ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "name", "country"),
    [
        ("london", "London", "GB"),
        ("tromso", "Tromsø", "NO"),
        ("TROMSØ", "Tromsø", "NO"),
        ("sao+paulo", "São Paulo", "BR"),
        ("new%20york", "New York City", "US"),
        ("st.+louis", "St. Louis", "US"),
        ("saint+louis", "St. Louis", "US"),
        ("st+petersburg,ru", "Saint Petersburg", "RU"),
        ("ft+lauderdale", "Fort Lauderdale", "US"),
        ("fort+worth", "Fort Worth", "US"),
        ("kiev", "Kyiv", "UA"),
        ("portland,or", "Portland", "US"),
        ("portland,me,us", "Portland", "US"),
        ("london,ca", "London", "CA"),
        ("london,uk", "London", "GB"),
        ("birmingham,al,us", "Birmingham", "US"),
        ("toronto,on,ca", "Toronto", "CA"),  # a state counts in the US only, as in the real API
        ("london,england,gb", "London", "GB"),
        ("ross,ca,us", "Ross", "US"),  # a town under 5,000 people, from its ZIP code
        ("ross", "Ross’", "BY"),  # the most populous Ross comes first
    ],
)
def test_names_are_found_as_the_real_api_finds_them(
    app: OpenWeatherApp, query: str, name: str, country: str
) -> None:
    status, body = get(app, f"/data/2.5/weather?q={query}")
    assert status == 200, body
    assert isinstance(body, dict) and (body["name"], body["sys"]["country"]) == (name, country)


def test_state_narrows_and_the_most_populous_comes_first(app: OpenWeatherApp) -> None:
    _, maine = get(app, "/data/2.5/weather?q=portland,me,us")
    _, oregon = get(app, "/data/2.5/weather?q=portland")
    assert isinstance(maine, dict) and isinstance(oregon, dict)
    assert maine["coord"]["lon"] > -75 > oregon["coord"]["lon"]  # Maine is east, Oregon west
    status, places = get(app, "/geo/1.0/direct?q=springfield&limit=5")
    assert status == 200 and isinstance(places, list) and len(places) == 5
    populations = [get_real_gazetteer().search(f"springfield,{p['state']},us") for p in places]
    assert all(p["name"] == "Springfield" and p["country"] == "US" for p in places)
    sizes = [found[0].population for found in populations]
    assert sizes == sorted(sizes, reverse=True)
    assert {p["state"] for p in places} >= {"Missouri", "Illinois", "Massachusetts"}


def test_geocoding_limit_and_no_match(app: OpenWeatherApp) -> None:
    for limit in (1, 3, 5):
        _, places = get(app, f"/geo/1.0/direct?q=london&limit={limit}")
        assert isinstance(places, list) and len(places) == limit
    _, places = get(app, "/geo/1.0/direct?q=london")
    assert isinstance(places, list) and len(places) == 5  # the API's default and maximum
    assert get(app, "/geo/1.0/direct?q=qxqxqzz&limit=3") == (200, [])
    assert get(app, "/data/2.5/weather?q=qxqxqzz")[0] == 404


def test_zip_codes(app: OpenWeatherApp) -> None:
    status, body = get(app, "/data/2.5/weather?zip=94957")
    assert status == 200 and isinstance(body, dict) and body["name"] == "Ross"
    assert get(app, "/data/2.5/weather?zip=94957,us")[1] == body
    assert get(app, "/data/2.5/weather?zip=94957,US")[1] == body
    assert get(app, "/data/2.5/weather?zip=10001")[1]["name"] == "New York City"  # type: ignore[index]
    assert get(app, "/data/2.5/weather?zip=00000")[0] == 404
    assert get(app, "/data/2.5/weather?zip=94957,de")[0] == 404
    assert get(app, "/data/2.5/weather?zip=94957,ca")[0] == 404  # Canada, not California
    assert get(app, "/data/2.5/weather?zip=00901,pr")[0] == 200  # a territory's own code
    assert get(app, "/data/2.5/weather?zip=00901,us")[0] == 200
    assert get(app, "/data/2.5/weather?zip=09002")[0] == 404  # a military ZIP code: no location
    assert get(app, "/data/2.5/weather?zip=%EF%BC%99%EF%BC%94%EF%BC%99%EF%BC%95%EF%BC%97")[0] == 404
    assert get(app, "/data/2.5/weather?q=" + "x" * 5000)[0] == 404


# -- coverage -------------------------------------------------------------------------------------


def test_the_300_most_populous_us_cities_resolve_on_every_name_endpoint(
    app: OpenWeatherApp,
) -> None:
    cities = get_real_gazetteer().most_populous("US", 300)
    assert len(cities) == 300 and cities[0].name == "New York City"
    failures = []
    for city in cities:
        q = city.name.lower().replace(" ", "+")
        for path in ("/data/2.5/weather", "/data/2.5/forecast"):
            status, _ = get(app, f"{path}?q={q}")
            if status != 200:
                failures.append((city.name, path, status))
        status, found = get(app, f"/geo/1.0/direct?q={q}&limit=5")
        if status != 200 or not found:
            failures.append((city.name, "direct", status))
        status, body = get(app, f"/data/2.5/weather?q={q},{city.state.lower()},us")
        if status != 200 or body["name"] != city.name:  # type: ignore[index]
            failures.append((city.name, "city,state,country", status))
    assert not failures


def test_1000_random_real_zip_codes_resolve(app: OpenWeatherApp) -> None:
    zips = get_real_gazetteer().zip_codes()
    assert len(zips) > 40_000
    picked = [zips[int(i)] for i in np.random.default_rng(7).choice(len(zips), 1000, replace=False)]
    failures = []
    for code in picked:
        for path in ("/data/2.5/weather", "/data/2.5/forecast"):
            status, _ = get(app, f"{path}?zip={code},us")
            if status != 200:
                failures.append((code, path, status))
    assert not failures


def test_weather_is_a_pure_function_of_place_and_time() -> None:
    a, b = OpenWeatherApp(api_key="k"), OpenWeatherApp(api_key="k")
    assert get(a, "/data/2.5/forecast?q=tromso") == get(b, "/data/2.5/forecast?q=tromso")
    a.advance(6)
    assert get(a, "/data/2.5/weather?q=tromso") != get(b, "/data/2.5/weather?q=tromso")
    b.advance(6)
    assert get(a, "/data/2.5/weather?q=tromso") == get(b, "/data/2.5/weather?q=tromso")


# -- fidelity: the original labels ----------------------------------------------------------------


def _oracle_rewards(env_id: str, path: Path) -> list[float]:
    env = gym.make(env_id, task_file=path)
    rewards = []
    for task_id in env.unwrapped.task_ids:
        env.reset(seed=0, options={"task_id": task_id})
        rewards.append(env.step(env.unwrapped.oracle_actions()[0])[1])
    return rewards


@pytest.mark.parametrize("env_id", ["toolbench/OpenWeather-v0", "toolbench/OpenWeather-v1"])
def test_every_sample_label_scores_1(env_id: str) -> None:
    samples = samples_dir()
    if samples is None:
        pytest.skip("the shared samples folder (../shared/samples) is absent")
    path = samples / "sambanova/open_weather/v0/test.jsonl"
    rewards = _oracle_rewards(env_id, path)
    assert len(rewards) == len(path.read_text().splitlines()) and rewards == [1.0] * len(rewards)


LABELS = [
    "curl -X GET '{B}/data/2.5/weather?q=kansas+city&appid={{API_KEY}}&units=imperial'",
    "curl -X GET '{B}/data/2.5/forecast?q=san+luis+obispo&appid={{API_KEY}}&lang=fr&mode=json'",
    "curl -X GET '{B}/data/2.5/weather?zip=94957&appid={{API_KEY}}&units=metric&lang=de'",
    "curl -X GET '{B}/data/2.5/forecast?zip=60614&appid={{API_KEY}}&units=standard'",
    "curl -X GET '{B}/geo/1.0/direct?q=springfield&limit=4&appid={{API_KEY}}'",
    "curl -X GET '{B}/geo/1.0/direct?q=tromso&limit=3&appid={{API_KEY}}'",
    "curl -X GET '{B}/data/2.5/weather?lat=35.2&lon=-80.8&appid={{API_KEY}}&lang=ja'",
    "curl -X GET '{B}/data/2.5/air_pollution/forecast?lat=-43.1&lon=-32.1&appid={{API_KEY}}'",
]
PERTURBED = [
    ("units=imperial", "units=metric"),
    ("lang=fr", "lang=it"),
    ("units=metric&lang=de", "units=metric&lang=en"),
    ("units=standard", "units=imperial"),
    ("limit=4", "limit=2"),
    ("q=tromso", "q=oslo"),
    ("lat=35.2", "lat=35.3"),
    ("lon=-32.1", "lon=-32.2"),
]


@pytest.fixture(scope="module")
def label_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("labels") / "test.jsonl"
    records = [
        {"prompt": f"label {i}", "completion": [line.format(B=BASE)]}
        for i, line in enumerate(LABELS)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_labels_in_the_original_style_score_1_and_any_perturbation_less(label_file: Path) -> None:
    env = gym.make("toolbench/OpenWeather-v1", task_file=label_file)
    assert env.unwrapped.file_issues == ()
    for task_id, (old, new) in zip(env.unwrapped.task_ids, PERTURBED, strict=True):
        env.reset(seed=3, options={"task_id": task_id})
        gold = env.unwrapped.oracle_actions()[0]
        assert env.step(gold)[1] == 1.0
        assert old in gold
        env.reset(seed=3, options={"task_id": task_id})
        _, reward, _, _, info = env.step(gold.replace(old, new))
        assert reward < 1.0, (gold, new, info["error"])


def test_an_empty_gold_answer_is_marked_not_raised(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    lines = [
        {"prompt": "nowhere", "completion": [LABELS[5].format(B=BASE).replace("tromso", "qxqz")]},
        {"prompt": "tromso", "completion": [LABELS[5].format(B=BASE)]},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    with pytest.warns(UserWarning, match="empty"):
        env = gym.make("toolbench/OpenWeather-v1", task_file=path)
    env.reset(options={"task_id": 0})
    _, reward, terminated, _, info = env.step(env.unwrapped.oracle_actions()[0])
    assert (reward, terminated, info["error"]["category"]) == (0.0, True, "invalid_task")


# -- the cache of the built tables ----------------------------------------------------------------


def test_the_tables_are_cached_and_a_broken_cache_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLGYM_CACHE", str(tmp_path))
    built = {"n": 0}
    original = real_module.build_tables

    def counting() -> dict:
        built["n"] += 1
        return original()

    monkeypatch.setattr(real_module, "build_tables", counting)
    first = real_module.load_tables()
    assert built["n"] == 1 and real_module.cache_file().is_file()
    again = real_module.load_tables()
    assert built["n"] == 1 and set(again) == set(first)
    assert all(np.array_equal(first[k], again[k]) for k in first)
    good = real_module.cache_file().read_bytes()
    for n, broken in enumerate((b"not a zip file", b"", good[: len(good) // 2]), start=2):
        real_module.cache_file().write_bytes(broken)  # foreign, empty, truncated: rebuilt
        real_module.load_tables()
        assert built["n"] == n and real_module.cache_file().read_bytes() == good
    np.savez(real_module.cache_file(), ids=np.zeros(3))  # an array missing: rebuilt
    real_module.load_tables()
    assert built["n"] == 5
    monkeypatch.setenv("TOOLGYM_CACHE", "/proc/not-writable")  # cannot be written: still works
    g = real_module.RealGazetteer(real_module.load_tables())
    assert g.search("tromso")[0].name == "Tromsø" and built["n"] == 6


def test_agent_text_never_breaks_the_service(app: OpenWeatherApp) -> None:
    for q in ("\ud800", ",", ",,,,", ",us", "%00", "a" + "," * 1000, "\x1b[31m", "ﷺ" * 60):
        status, _ = get(app, f"/data/2.5/weather?q={q}")
        assert status in (400, 404), q
        assert get(app, f"/geo/1.0/direct?q={q}&limit=-3")[0] in (200, 400), q
    for zip_code in (",us", "123456", "94957,", "9495", "0"):
        assert get(app, f"/data/2.5/weather?zip={zip_code}")[0] in (200, 400, 404), zip_code


def test_the_synthetic_world_is_the_same_in_every_process() -> None:
    import subprocess
    import sys

    code = (
        "import hashlib\n"
        "from toolgym.simulators.gazetteer import get_gazetteer\n"
        "print(hashlib.sha256(repr(get_gazetteer().places).encode()).hexdigest())\n"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**__import__("os").environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1


def test_place_keys() -> None:
    assert place_key("Coeur d'Alene") == place_key("coeur+dalene")
    assert place_key("Winston-Salem") == place_key("winston salem")
    assert place_key("Mt. Vernon") == place_key("mount vernon")
    assert place_key("Ste. Genevieve") == place_key("sainte genevieve")
    assert place_key("  ") == ""


def test_a_gold_alternative_that_does_not_run_is_dropped_not_the_task(tmp_path: Path) -> None:
    ok = LABELS[0].format(B=BASE)
    broken = ok.replace("kansas+city", "qxqxqzz")
    path = tmp_path / "alternatives.jsonl"
    records = [
        {"prompt": "both", "completion": [broken, ok]},
        {"prompt": "none", "completion": [broken, broken.replace("qxqxqzz", "zzqxq")]},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.warns(UserWarning, match="alternative"):
        env = gym.make("toolbench/OpenWeather-v1", task_file=path)
    u = env.unwrapped
    assert [(i.line, i.kind) for i in u.file_issues] == [(1, "partial"), (2, "marked")]
    env.reset(seed=0, options={"task_id": 0})
    assert u.oracle_actions() == [ok]
    _, reward, _, _, info = env.step(ok)
    assert reward == 1.0 and info["metrics"]["closest_label"] == 1
    env.reset(seed=0, options={"task_id": 0})
    _, reward, _, _, info = env.step(ok.replace("imperial", "metric"))
    assert 0.0 < reward < 1.0 and info["metrics"]["closest_label"] == 1
