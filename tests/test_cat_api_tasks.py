"""Tests of the generated The Cat API tasks (toolgym.families.cat_api.tasks), in both versions."""

from __future__ import annotations

import collections
import re
import shlex
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest

from toolgym.benchmarks.tasks import Task
from toolgym.families.cat_api import tasks as ca
from toolgym.families.cat_api.world import BREEDS, CatApiApp
from toolgym.simulators.http import Request, Response

GENERATE = {0: ca.generate_split, 1: ca.generate_split_v1}
SUITES = {0: ca.SUITE, 1: ca.SUITE_V1}
HEADERS = {"x-api-key": "k", "content-type": "application/json"}


@pytest.fixture(params=ca.VERSIONS, ids=lambda v: f"v{v}")
def version(request: pytest.FixtureRequest) -> int:
    return request.param


def fixed_tasks(version: int) -> tuple[list[Task], list[Task]]:
    """(test, demo) of a version."""
    return GENERATE[version]("test"), GENERATE[version]("demo")


def parse_curl(line: str) -> tuple[str, str, str | None]:
    """(method, url, body) of a gold line ``curl -X M 'url' [--data 'body']``."""
    tokens = shlex.split(line)
    assert tokens[0] == "curl" and tokens[1] == "-X", line
    method, url, rest = tokens[2], tokens[3], tokens[4:]
    body = None
    if rest:
        assert rest[0] == "--data" and len(rest) == 2, line
        body = rest[1]
    return method, url, body


def run_gold(task: Task, version: int, app: CatApiApp | None = None) -> Response:
    method, url, body = parse_curl(task.gold[0])
    app = CatApiApp(catalog_version=version) if app is None else app
    return app.handle(Request.build(method, url, headers=HEADERS, body=body))


def test_split_sizes_ids_and_mix(version: int) -> None:
    test, demo = fixed_tasks(version)
    assert len(test) == ca.SPLITS["test"] == 100
    assert len(demo) == ca.SPLITS["demo"] == 12
    assert [t.task_id for t in test] == [f"test-{i:03d}" for i in range(100)]
    assert [t.task_id for t in demo] == [f"demo-{i:03d}" for i in range(12)]
    mix = collections.Counter(t.meta["call_type"] for t in test)
    assert mix == ca.TEST_MIX
    assert sum(mix[c] for c in ("vote_up", "vote_down")) == 30
    assert collections.Counter(t.meta["call_type"] for t in demo) == dict.fromkeys(ca.CALL_TYPES, 2)
    with pytest.raises(ValueError, match="unknown Cat API split"):
        ca.generate_split("validation")
    with pytest.raises(ValueError, match="unknown Cat API call type"):
        ca.generate_task(np.random.default_rng(0), "x", call_type="purr")
    with pytest.raises(ValueError, match="task versions are"):
        ca.generate_task(np.random.default_rng(0), "x", version=7)


@pytest.mark.parametrize("split", ["test", "demo"])
def test_split_is_deterministic_and_matches_the_data_file(split: str, version: int) -> None:
    generated = GENERATE[version](split)
    assert [t.to_record() for t in generated] == [t.to_record() for t in GENERATE[version](split)]
    packaged = SUITES[version].stored_split(split)
    assert [t.to_record() for t in packaged.values()] == [t.to_record() for t in generated]
    assert SUITES[version].stale_splits() == []
    # A generated task's derived setup changes nothing in the world it was built for.
    app = CatApiApp(catalog_version=version)
    start = app.snapshot()
    for task in generated:
        setup = SUITES[version].bind(task).setup
        if setup is not None:
            app.arrange_favourites(
                setup.get("favourites_absent", ()),
                setup.get("favourites_present", ()),
                setup.get("extra_images", ()),
            )
            assert app.snapshot() == start, task.task_id


def test_v1_ids_come_in_the_real_formats() -> None:
    test, demo = fixed_tasks(1)
    ids = [t.meta["image_id"] for t in test + demo if "image_id" in t.meta]
    lengths = {len(i) for i in ids}
    assert {9, 10} <= lengths and lengths & {2, 3}
    assert any(len(i) == 10 and i.isalnum() for i in ids)  # base64 numbers


def test_every_gold_succeeds_on_a_fresh_app(version: int) -> None:
    test, demo = fixed_tasks(version)
    seeded = CatApiApp(catalog_version=version)
    for task in test + demo:
        response = run_gold(task, version)
        assert 200 <= response.status < 300, (task.task_id, response.text)
        body = response.json()
        if isinstance(body, dict):
            assert body["message"] == "SUCCESS", task.task_id
        else:
            assert isinstance(body, list) and body, task.task_id
        check_gold_format(task, seeded)


def check_gold_format(task: Task, seeded: CatApiApp) -> None:
    """The gold line of ``task`` has its call type's format; its ids suit the ``seeded`` app."""
    (gold,) = task.gold
    call_type = task.meta["call_type"]
    method, url, body = parse_curl(gold)
    assert url.startswith("https://api.thecatapi.com/v1/")
    record = task.to_record()
    assert record["compare_string_only"] is (call_type == "delete_favourite")
    assert "template" in record and record["call_type"] == call_type
    if call_type == "search":
        assert method == "GET" and urlsplit(url).query.startswith("&") and body is None
    elif call_type == "list_favourites":
        assert gold == "curl -X GET 'https://api.thecatapi.com/v1/favourites'"
    elif call_type == "add_favourite":
        image_id = task.meta["image_id"]
        assert body == f'{{"image_id":"{image_id}"}}'
        assert seeded.in_catalog(image_id) and not seeded.favourite_exists(image_id)
    elif call_type == "delete_favourite":
        image_id = task.meta["image_id"]
        assert gold == f"curl -X DELETE 'https://api.thecatapi.com/v1/favourites/{image_id}'"
        assert seeded.favourite_exists(image_id)
    else:
        value = 1 if call_type == "vote_up" else -1
        assert body == f'{{"image_id":"{task.meta["image_id"]}", "value":{value}}}'
    if "image_id" in task.meta:
        assert task.meta["image_id"] in task.instruction


def test_delete_gold_removes_the_favourite_and_post_adds_it(version: int) -> None:
    test, demo = fixed_tasks(version)
    for task in test + demo:
        call_type = task.meta["call_type"]
        if call_type not in ("delete_favourite", "add_favourite"):
            continue
        app = CatApiApp(catalog_version=version)
        image_id = task.meta["image_id"]
        assert app.favourite_exists(image_id) is (call_type == "delete_favourite")
        assert run_gold(task, version, app).status == 200
        assert app.favourite_exists(image_id) is (call_type == "add_favourite")


def test_search_goals_mention_their_parameters(version: int) -> None:
    test, demo = fixed_tasks(version)
    size_words = {"thumb": "thumbnail", "small": "small", "med": "medium", "full": "full"}
    for task in test + demo:
        if task.meta["call_type"] != "search":
            continue
        text = task.instruction.lower()
        params = dict(parse_qsl(urlsplit(parse_curl(task.gold[0])[1]).query))
        assert params == {
            k: ",".join(v) if isinstance(v, list) else str(v)
            for k, v in task.meta["params"].items()
        }
        if "size" in params:
            assert size_words[params["size"]] in text
        if "order" in params:
            assert ("ascending" if params["order"] == "ASC" else "descending") in text
        if "mime_types" in params:
            for mime in params["mime_types"].split(","):
                assert mime in text or (mime == "jpg" and "jpeg" in text)
        if "breeds" in params:
            for breed in params["breeds"].split(","):
                if task.meta["breeds_named"]:
                    assert BREEDS[breed].lower() in text, task.task_id
                else:
                    assert re.search(rf"\b{breed}\b", text), task.task_id


def test_test_split_statistics(version: int) -> None:
    test, demo = fixed_tasks(version)
    assert len({t.meta["template"] for t in test}) >= 20
    assert len({t.instruction for t in test}) == len(test)
    assert not {t.instruction for t in test} & {t.instruction for t in demo}
    searches = [t for t in test if t.meta["call_type"] == "search"]
    assert any(t.meta["breeds_named"] for t in searches)
    assert sum("breeds" in t.meta["params"] for t in searches) >= 18
    assert sum("limit" in t.meta["params"] for t in searches) >= 5
    assert sum("mime_types" in t.meta["params"] for t in searches) >= 5
    posts = ("add_favourite", "delete_favourite")
    ids = [t.meta["image_id"] for t in test + demo if t.meta["call_type"] in posts]
    assert len(ids) == len(set(ids))


def test_train_pairs_are_deterministic_and_held_out(version: int) -> None:
    test, demo = fixed_tasks(version)
    suite = SUITES[version]
    first = list(suite.train_pairs(50))
    again = list(suite.train_pairs(50))
    assert [t.to_record() for t in first] == [t.to_record() for t in again]
    assert [t.task_id for t in first] == [f"train-{k}" for k in range(50)]
    held_out = {t.instruction for t in test + demo}
    assert not {t.instruction for t in first} & held_out
    assert suite.train_task(17, 0).to_record() == first[17].to_record()
    assert len({t.meta["call_type"] for t in first}) == len(ca.CALL_TYPES)
    other = list(suite.train_pairs(5, seed=1))
    assert other[0].task_id == f"train-{2**32}"
    sampled = suite.sample_train_task(np.random.default_rng(3))
    assert sampled.task_id.startswith("train-")
    for task in first[:20]:
        assert 200 <= run_gold(task, version).status < 300, task.task_id
