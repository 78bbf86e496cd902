"""Tests of the OpenWeather task generator and its stored task files."""

from __future__ import annotations

import collections
import itertools

import numpy as np

from toolgym.families.openweather import tasks as ow
from toolgym.families.openweather.tasks.places import pools
from toolgym.families.openweather.world import OpenWeatherApp
from toolgym.simulators.gazetteer import get_gazetteer
from toolgym.simulators.http import Request

PREFIX = "curl -X GET '"


def _url(task) -> str:
    line = task.gold[0]
    assert line.startswith(PREFIX) and line.endswith("'") and "\n" not in line
    return line[len(PREFIX) : -1]


def test_split_sizes_and_stored_files_match() -> None:
    for split, n in ow.SPLITS.items():
        tasks = ow.generate_split(split)
        assert len(tasks) == n
        stored = ow.SUITE.stored_split(split)
        assert [stored[t.task_id].to_record() for t in tasks] == [t.to_record() for t in tasks]


def test_test_mix_matches_original() -> None:
    tasks = ow.generate_split("test")
    paths = collections.Counter(_url(t).split("?")[0].split(".org")[1] for t in tasks)
    assert paths == {
        "/data/2.5/weather": 36,
        "/data/2.5/forecast": 34,
        "/data/2.5/air_pollution/forecast": 10,
        "/data/2.5/air_pollution": 10,
        "/geo/1.0/direct": 10,
    }
    urls = [_url(t) for t in tasks]
    for option, k in ow.OPTION_COUNTS.items():
        assert sum(f"&{option}" in u for u in urls) == k
    langs = {u.split("lang=")[1] for u in urls if "lang=" in u}
    assert langs == set(ow.LANGUAGE_NAMES)
    assert len({t.meta["template"] for t in tasks}) >= 20
    assert len({t.instruction for t in tasks}) == len(tasks)
    demo = collections.Counter(t.meta["endpoint"] for t in ow.generate_split("demo"))
    assert demo == dict.fromkeys(ow.ENDPOINTS, 2)


def test_gold_format_and_every_gold_answers_json() -> None:
    app = OpenWeatherApp()
    for task in ow.generate_split("test") + ow.generate_split("demo"):
        url = _url(task)
        assert "appid={API_KEY}" in url and "mode=xml" not in url
        query = url.split("?")[1]
        assert query.index("appid") > 0
        if "lat=" in query:
            assert query.startswith("lat=") and "&lon=" in query
            lat = query.split("&")[0][4:]
            assert lat in task.instruction and len(lat.split(".")[1]) == 1
        r = app.handle(Request.build("GET", url.replace("{API_KEY}", "k")))
        assert r.status == 200, (task.task_id, r.text)
        body = r.json()
        if isinstance(body, dict) and "cod" in body:
            assert int(body["cod"]) == 200
        if "geo/1.0" in url:
            assert body


def test_cities_and_zips_exist() -> None:
    g = get_gazetteer()
    assert all(g.by_city(c) for c in ow.CITIES)
    assert all(g.by_zip(z) for z in pools(0).zips)


def test_generate_task_and_train_stream() -> None:
    a = ow.generate_task(np.random.default_rng(5), "x", endpoint="geocoding_direct")
    assert a == ow.generate_task(np.random.default_rng(5), "x", endpoint="geocoding_direct")
    assert "limit=" in a.gold[0]
    first = list(ow.SUITE.train_pairs(50))
    assert [t.to_record() for t in first] == [t.to_record() for t in ow.SUITE.train_pairs(50)]
    assert [t.task_id for t in first] == [f"train-{i}" for i in range(50)]
    held = {t.instruction for s in ow.SPLITS for t in ow.generate_split(s)}
    assert not held & {t.instruction for t in first}
    other = {t.instruction for t in itertools.islice(ow.SUITE.train_pairs(None, seed=1), 20)}
    assert other != {t.instruction for t in first[:20]}
    assert ow.SUITE.sample_train_task(np.random.default_rng(0)).task_id.startswith("train-")
