"""The Cat API's open image-id space, task setups derived from golds, and ``CatAPI-v1``."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from conftest import samples_dir

from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.families.cat_api.tasks import SUITE, SUITE_V1, VERSIONS
from toolgym.families.cat_api.tasks.setup import derive_setup, gold_ids
from toolgym.families.cat_api.toolkit import CatApiToolkit, CatApiV1Toolkit, parse_setup
from toolgym.families.cat_api.world import (
    SEED_FAVOURITE_IMAGE_IDS,
    CatApiApp,
    get_catalog,
    image_attributes,
    is_image_id,
)
from toolgym.families.cat_api.world.catalog import base64_number_id, draw_image_id
from toolgym.simulators.http import Request, Response

BASE = "https://api.thecatapi.com/v1"
KEY = {"x-api-key": "k", "content-type": "application/json"}
ENV_IDS = [f"toolbench/CatAPI-v{v}" for v in VERSIONS]
V0_FINGERPRINT = "2faa6a3faf16e23112abe0c475dd17e8c41aea54a2407ddd5936cb2b4da50fab"
"""sha256 of the v0 world of seed 0 (catalogue and account), as the stored v0 tasks expect it."""


def call(app: CatApiApp, method: str, path: str, body: Any = None) -> Response:
    data = body if isinstance(body, str) or body is None else json.dumps(body)
    return app.handle(Request.build(method, BASE + path, headers=KEY, body=data))


def post(path: str, body: str) -> str:
    return f"curl -X POST '{BASE}{path}' --data '{body}'"


def fav_post(image_id: str) -> str:
    return post("/favourites", f'{{"image_id":"{image_id}"}}')


def fav_delete(ref: str) -> str:
    return f"curl -X DELETE '{BASE}/favourites/{ref}'"


def vote(image_id: str, value: int) -> str:
    return post("/votes", f'{{"image_id":"{image_id}", "value":{value}}}')


def search(query: str) -> str:
    return f"curl -X GET '{BASE}/images/search?{query}'"


def random_ids(n: int, seed: int = 2024) -> list[str]:
    """``n`` distinct well-formed ids in the real formats, base64 numbers of 4 to 12 digits too."""
    rng = np.random.default_rng(seed)
    out: dict[str, None] = {}
    while len(out) < n:
        if rng.random() < 0.85:
            new = draw_image_id(rng)
        else:
            digits = int(rng.integers(4, 13))
            new = base64_number_id(int(rng.integers(10 ** (digits - 1), 10**digits)))
        if is_image_id(new):
            out[new] = None
    return list(out)


def write_tasks(path: Path, records: list[tuple[str, str, bool]]) -> Path:
    """A task file in the original format: (prompt, gold curl line, compare_string_only)."""
    lines = [
        json.dumps({"prompt": p, "completion": [g], "compare_string_only": c})
        for p, g, c in records
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def play(env: gym.Env, task_id: Any, action: str) -> tuple[float, dict[str, Any]]:
    env.reset(options={"task_id": task_id})
    _, reward, terminated, _, info = env.step(action)
    assert terminated
    return reward, info


# -- the id space ------------------------------------------------------------------------------


def test_the_v0_world_is_closed_as_it_was() -> None:
    app = CatApiApp(catalog_version=0)
    before = app.snapshot()
    outside = [i for i in random_ids(200) if not app.in_catalog(i)]
    for image_id in outside:
        for path, body in (
            ("/favourites", {"image_id": image_id}),
            ("/votes", {"image_id": image_id, "value": 1}),
        ):
            response = call(app, "POST", path, body)
            assert response.status == 400 and "INVALID_IMAGE_ID" in response.text
        assert app.catalog.image(image_id) is None and not app.has_image(image_id)
    assert app.snapshot() == before
    inside = app.catalog.images[0].image_id
    assert call(app, "POST", "/votes", {"image_id": inside, "value": 1}).status == 200


def test_any_well_formed_id_can_be_favourited_voted_on_and_deleted() -> None:
    version = 1
    app = CatApiApp(catalog_version=version)
    ids = [i for i in random_ids(1100) if not app.favourite_exists(i)][:1000]
    assert len(ids) == 1000
    assert {len(i) for i in ids} >= {2, 3, 6, 9, 10, 11, 16}
    for image_id in ids:
        added = call(app, "POST", "/favourites", {"image_id": image_id})
        assert added.status == 200, (image_id, added.text)
        assert added.json()["image_id"] == image_id
        favourite = call(app, "GET", f"/favourites/{image_id}").json()
        assert favourite["image"]["url"] == image_attributes(image_id).url or app.in_catalog(
            image_id
        )
        for value in (1, -1):
            voted = call(app, "POST", "/votes", {"image_id": image_id, "value": value})
            assert voted.status == 200 and voted.json()["value"] == value, voted.text
        deleted = call(app, "DELETE", f"/favourites/{image_id}")
        assert deleted.status == 200 and deleted.json() == {"message": "SUCCESS"}
        assert not app.favourite_exists(image_id)
    assert len(app.votes) == len(CatApiApp(catalog_version=version).votes) + 2000


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(
    "image_id",
    [
        *("nope!", "a b", "dv0/", "caf\u00e9", "\u00b2\u00b3", "dv0\n", "tF_6-Beo_!"),  # characters
        *("", "a", "abcd", "x" * 10, "tF_6-Beo_x", "x" * 17),  # lengths
        *("1234", "0", "123456789"),  # all digits, not a legacy number: favourite ids
        *(
            "Austin",
            "kitten",
            "ALP",
            "MTY3ODIyMQ==",
            "MDEyMzQ1Ng",
            "MTIz",
            "MTY3ODIyMR",
        ),  # no format
    ],
)
def test_malformed_ids_are_invalid_image_ids(version: int, image_id: str) -> None:
    app = CatApiApp(catalog_version=version)
    before = app.snapshot()
    for path, body in (
        ("/favourites", {"image_id": image_id}),
        ("/votes", {"image_id": image_id, "value": 1}),
    ):
        response = call(app, "POST", path, body)
        assert response.status == 400, response.text
        expected = "INVALID_IMAGE_ID" if image_id else "INVALID_BODY"  # empty: no image_id
        assert response.json()["message"].startswith(expected)
    assert not is_image_id(image_id) and not app.has_image(image_id)
    if image_id and "/" not in image_id and "\n" not in image_id:
        assert call(app, "DELETE", f"/favourites/{image_id}").status == 404
    assert app.snapshot() == before


def test_legacy_numbers_are_images_in_the_v1_world() -> None:
    """The oldest images have numeric legacy ids (264, 959); each exists, as any well-formed id."""
    app = CatApiApp(catalog_version=1)
    assert is_image_id("264") and is_image_id("12") and not is_image_id("1234")
    assert app.has_image("264") and not app.in_catalog("264")
    assert call(app, "POST", "/votes", {"image_id": "264", "value": 1}).status == 200
    added = call(app, "POST", "/favourites", {"image_id": "959"})
    assert added.status == 200
    # digits are a favourite id first, else the image's favourite
    assert call(app, "GET", "/favourites/959").json()["image_id"] == "959"
    assert call(app, "GET", f"/favourites/{added.json()['id']}").json()["image_id"] == "959"
    assert call(app, "DELETE", "/favourites/959").status == 200
    image = call(app, "GET", "/images/264")
    assert image.status == 200 and image.json()["id"] == "264"
    assert image.json()["url"].startswith("https://cdn2.thecatapi.com/images/264.")
    assert call(app, "GET", "/images/Austin").status == 400
    # the version-0 world is kept as it was: only its catalogue's ids are images
    old = CatApiApp(catalog_version=0)
    assert call(old, "POST", "/votes", {"image_id": "264", "value": 1}).status == 400
    assert call(old, "GET", "/images/dv0").status == 404


def test_the_id_rule() -> None:
    for good in ("dv0", "tu", "alp", "-8roc4viS", "tF_6-Beo_", "MTY3ODIyMQ", "a1", "x" * 9):
        assert is_image_id(good)
    assert base64_number_id(1678221) == "MTY3ODIyMQ" and is_image_id(base64_number_id(1234))
    assert is_image_id(base64_number_id(10**11)) and not is_image_id(base64_number_id(10**12))
    assert not is_image_id(base64_number_id(123)) and not is_image_id(None)
    assert is_image_id("12345678-") and is_image_id("123") and not is_image_id("123456789")
    with pytest.raises(ValueError, match="image id is a legacy id"):
        image_attributes("no!")


def test_attributes_are_a_function_of_the_id() -> None:
    ids = random_ids(300, seed=5)
    first = [image_attributes(i) for i in ids]
    image_attributes.cache_clear()
    get_catalog.cache_clear()
    v0, v1 = CatApiApp(catalog_version=0), CatApiApp(catalog_version=1)
    assert [image_attributes(i) for i in ids] == first
    for image_id, image in zip(ids, first, strict=True):
        assert image.url == f"https://cdn2.thecatapi.com/images/{image_id}.{image.ext}"
        # One rule everywhere in v1; v0 keeps its catalogue (and its attributes) as it was.
        assert v1.catalog.image(image_id) == image
        if not v0.in_catalog(image_id):
            assert v0.catalog.image(image_id) is None
    assert all(image_attributes(im.image_id) == im for im in v1.catalog.images)
    differ = sum(image_attributes(im.image_id) != im for im in v0.catalog.images)
    assert differ > len(v0.catalog.images) // 2  # v0 attributes were drawn in sequence


def test_attributes_are_the_same_in_another_process() -> None:
    ids = random_ids(40, seed=9)
    code = (
        "import json, sys\n"
        "from toolgym.families.cat_api.world import image_attributes\n"
        "ids = json.loads(sys.argv[1])\n"
        "print(json.dumps([repr(image_attributes(i)) for i in ids]))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "123"}
    result = subprocess.run(
        [sys.executable, "-c", code, json.dumps(ids)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert json.loads(result.stdout) == [repr(image_attributes(i)) for i in ids]


@pytest.mark.parametrize("version", VERSIONS)
def test_search_is_deterministic(version: int) -> None:
    queries = [
        "&order=ASC&limit=20&breeds=beng,abys",
        "order=DESC&limit=25&mime_types=gif,png",
        "limit=10",
        "order=RANDOM&limit=10&size=small&has_breeds=1",
    ]
    first = [
        call(CatApiApp(catalog_version=version), "GET", f"/images/search?{q}").json()
        for q in queries
    ]
    get_catalog.cache_clear()
    image_attributes.cache_clear()
    again = [
        call(CatApiApp(catalog_version=version), "GET", f"/images/search?{q}").json()
        for q in queries
    ]
    assert first == again and all(first)
    catalog = get_catalog(0, version)
    assert len(catalog.images) == 1200 and all(is_image_id(im.image_id) for im in catalog.images)


def test_v0_world_is_unchanged() -> None:
    app = CatApiApp(catalog_version=0)
    images = [
        [im.image_id, im.ext, im.width, im.height, list(im.breed_ids), list(im.category_ids)]
        for im in app.catalog.images
    ]
    data = json.loads(json.dumps({"images": images, "state": app.snapshot()}))
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
    assert digest == V0_FINGERPRINT
    assert SUITE.stale_splits() == [] and SUITE_V1.stale_splits() == []


def test_v1_catalogue_has_the_real_formats() -> None:
    catalog = get_catalog(0, 1)
    lengths = [len(im.image_id) for im in catalog.images]
    assert sum(n <= 3 for n in lengths) > 50
    assert sum(n == 9 for n in lengths) > 400
    assert sum(n == 10 for n in lengths) > 200
    assert CatApiApp().catalog is catalog  # the newest world is the default
    with pytest.raises(ValueError, match="catalogue versions"):
        CatApiApp(catalog_version=3)


# -- setups ------------------------------------------------------------------------------------


def test_arrange_favourites() -> None:
    app = CatApiApp()
    world = app.snapshot()
    app.arrange_favourites(["dv0"], ["zZ9_-q8Lr", "tu", "231999999"])
    assert not app.favourite_exists("dv0") and app.favourite_exists("tu")
    new = app.favourites[-1]
    assert new["image_id"] == "zZ9_-q8Lr" and new["id"] == world["next_favourite_id"]
    assert app.favourite_exists("231999999")
    again = CatApiApp()
    again.arrange_favourites(["dv0"], ["zZ9_-q8Lr", "tu", "231999999"])
    assert again.snapshot() == app.snapshot()
    added = call(app, "POST", "/favourites", {"image_id": "dv0"}).json()
    assert added["id"] not in {f["id"] for f in again.favourites}
    with pytest.raises(ValueError, match="in both"):
        app.arrange_favourites(["tu"], ["tu"])
    with pytest.raises(ValueError, match="image ids"):
        app.arrange_favourites(["1234"])


@pytest.mark.parametrize(
    ("setup", "match"),
    [
        ([], "JSON object"),
        ({}, "JSON object"),
        ({"favourites": ["dv0"]}, "JSON object"),
        ({"favourites_absent": "dv0"}, "list of strings"),
        ({"favourites_present": [3]}, "list of strings"),
        ({"favourites_absent": ["1234"]}, "image ids"),
        ({"favourites_present": ["no!"]}, "image ids"),
        ({"favourites_absent": ["tu"], "favourites_present": ["tu"]}, "in both"),
        ({"extra_images": ["a b"]}, "extra images are"),
        ({"extra_images": ["1234"]}, "extra images are"),
        ({"favourites_absent": ["abc123"]}, "image ids"),
    ],
)
def test_invalid_setups_are_task_file_errors(setup: Any, match: str) -> None:
    with pytest.raises(TaskFileError, match=match):
        parse_setup(setup)
    with pytest.raises(TaskFileError, match=match):
        CatApiToolkit().apply_setup(CatApiApp(), setup)


def test_setup_is_derived_from_the_gold_only_when_needed() -> None:
    def task(*gold: str) -> Task:
        return Task("t", "x", gold)

    assert set(SEED_FAVOURITE_IMAGE_IDS) <= {f["image_id"] for f in CatApiApp().favourites}
    # The setup holds in every world: what the gold adds is absent, what it removes is present.
    assert derive_setup(task(fav_post("dv0")), 1) == {"favourites_absent": ["dv0"]}
    assert derive_setup(task(fav_delete("zZ9_-q8Lr")), 1) == {"favourites_present": ["zZ9_-q8Lr"]}
    assert derive_setup(task(fav_delete("231999999")), 0) == {"favourites_present": ["231999999"]}
    assert derive_setup(task(vote("dv0", 1), search("limit=2")), 1) is None
    # The closed v0 world (whose catalogue depends on the seed) declares every image a gold names.
    assert derive_setup(task(fav_post("zZ9_-q8Lr"), vote("dv0", 1)), 0) == {
        "favourites_absent": ["zZ9_-q8Lr"],
        "extra_images": ["zZ9_-q8Lr", "dv0"],
    }
    # A setup changes nothing where nothing is missing.
    app = CatApiApp(catalog_version=0)
    before = app.snapshot()
    app.arrange_favourites(["alp"], ["dv0"], ["dv0", "alp"])
    assert app.snapshot() == before
    assert derive_setup(task("print('hello')"), 0) is None
    assert derive_setup(task(fav_post("no!")), 0) is None
    found = gold_ids([fav_post("dv0"), fav_delete("tu"), vote("abc123", 1), fav_delete("x y")])
    assert found is not None
    assert (found.posted, found.referenced, found.images) == (
        ["dv0"],
        ["tu"],
        ["dv0", "tu", "abc123"],
    )
    assert derive_setup(task(fav_post("abc123"), fav_delete("Kitten_7")), 1) == {
        "favourites_absent": ["abc123"],
        "favourites_present": ["Kitten_7"],
        "extra_images": ["abc123", "Kitten_7"],
    }
    # A reference both added and deleted is only kept present.
    assert derive_setup(task(fav_post("zZ9_-q8Lr"), fav_delete("zZ9_-q8Lr")), 1) == {
        "favourites_present": ["zZ9_-q8Lr"]
    }


def test_a_setup_derived_in_world_0_holds_in_another_world(tmp_path: Path) -> None:
    world5 = CatApiApp(seed=5)
    held = next(
        f["image_id"] for f in CatApiApp().favourites if not world5.favourite_exists(f["image_id"])
    )
    path = write_tasks(tmp_path / "cat.jsonl", [("Remove it.", fav_delete(held), True)])
    env = gym.make("toolbench/CatAPI-v1", task_file=path, world_seed=5)
    assert env.unwrapped.file_issues == ()
    reward, info = play(env, 0, fav_delete(held))
    assert reward == 1.0 and info["metrics"]["state_success"] is True


def test_a_gold_nested_past_the_parser_is_marked_not_raised(tmp_path: Path) -> None:
    deep = "[" * 8000
    records = [
        ("Deep.", f"curl -X POST '{BASE}/votes' --data '{deep}'", False),
        ("Add dv0.", fav_post("dv0"), False),
    ]
    with pytest.warns(UserWarning, match=r"d\.jsonl:1: task 0 kept and marked"):
        env = gym.make("toolbench/CatAPI-v1", task_file=write_tasks(tmp_path / "d.jsonl", records))
    assert list(env.unwrapped.task_issues) == [0]
    assert play(env, 1, fav_post("dv0"))[0] == 1.0


# -- original-format task files ----------------------------------------------------------------


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_original_format_golds_that_collide_with_the_start_succeed(
    env_id: str, tmp_path: Path
) -> None:
    gold_delete = fav_delete("MTY3ODIyMQ")
    records = [
        ("Add dv0 to my favourites.", fav_post("dv0"), False),
        ("Remove MTY3ODIyMQ from my favourites.", gold_delete, True),
        ("Remove favourite 231999999.", fav_delete("231999999"), True),
        ("Vote up tF_6-Beo_.", vote("tF_6-Beo_", 1), False),
        ("Favourite zZ9_-q8Lr.", fav_post("zZ9_-q8Lr"), False),
        ("Vote down NTE0MjY1MQ.", vote("NTE0MjY1MQ", -1), False),
    ]
    env = gym.make(env_id, task_file=write_tasks(tmp_path / "cat.jsonl", records))
    base = env.unwrapped
    assert base.get_task(0).setup["favourites_absent"] == ["dv0"]
    assert base.get_task(1).setup["favourites_present"] == ["MTY3ODIyMQ"]
    assert base.get_task(3).setup == (None if base.version else {"extra_images": ["tF_6-Beo_"]})
    for task_id, (_, gold, _) in enumerate(records):
        reward, info = play(env, task_id, gold)
        assert reward == 1.0 and info["metrics"]["f1"] == 1.0, (task_id, info)
        assert info["metrics"]["success"] and info["metrics"]["executable"], info
        if task_id in (1, 2):
            assert info["metrics"]["state_success"] is True
    # Without the setup, the favourite the gold deletes is not there.
    assert not CatApiApp(catalog_version=base.toolkit.catalog_version).favourite_exists(
        "MTY3ODIyMQ"
    )


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_golds_with_ids_of_another_shape_run_as_extra_images(env_id: str, tmp_path: Path) -> None:
    records = [
        ("Favourite abc123.", fav_post("abc123"), False),
        ("Vote down Kitten_7.", vote("Kitten_7", -1), False),
        ("Unfavourite my-cat-photo.", fav_delete("my-cat-photo"), True),
    ]
    env = gym.make(env_id, task_file=write_tasks(tmp_path / "cat.jsonl", records))
    assert env.unwrapped.get_task(0).setup == {
        "favourites_absent": ["abc123"],
        "extra_images": ["abc123"],
    }
    for task_id, (_, gold, _) in enumerate(records):
        reward, info = play(env, task_id, gold)
        assert reward == 1.0 and info["metrics"]["executable"], (task_id, info)
    # Only in its own task: elsewhere the id is malformed.
    reward, info = play(env, 1, vote("abc123", -1))
    assert reward == 0.0 and "INVALID_IMAGE_ID" in str(info["error"])
    app = CatApiApp()
    app.arrange_favourites(extra=["abc123"])
    assert app.has_image("abc123") and not CatApiApp().has_image("abc123")
    assert call(app, "POST", "/votes", {"image_id": "abc123", "value": 1}).status == 200


def test_explicit_setup_wins_and_a_bad_one_fails_at_make(tmp_path: Path) -> None:
    path = tmp_path / "setup.jsonl"
    record = {
        "prompt": "Add tu.",
        "completion": [fav_post("tu")],
        "setup": {"favourites_absent": ["tu"]},
    }
    path.write_text(json.dumps(record) + "\n")
    env = gym.make("toolbench/CatAPI-v1", task_file=path)
    assert play(env, 0, fav_post("tu"))[0] == 1.0
    record["setup"] = {"favourites_absent": ["1234"]}
    path.write_text(json.dumps(record) + "\n")
    with pytest.raises(TaskFileError, match="image ids"):
        gym.make("toolbench/CatAPI-v1", task_file=path)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_perturbed_golds_score_below_one(env_id: str, tmp_path: Path) -> None:
    records = [
        ("Add dv0.", fav_post("dv0"), False),
        ("Search.", search("&order=ASC&breeds=beng"), False),
        ("Search.", search("&size=small&order=DESC&breeds=abys,siam"), False),
        ("Vote.", vote("alp", 1), False),
    ]
    env = gym.make(env_id, task_file=write_tasks(tmp_path / "cat.jsonl", records))
    perturbed = [
        fav_post("tu"),
        search("&order=ASC&breeds=norw"),
        search("&size=small&order=ASC&breeds=abys,siam"),
        vote("alp", -1),
    ]
    for task_id, action in enumerate(perturbed):
        assert play(env, task_id, records[task_id][1])[0] == 1.0
        reward, info = play(env, task_id, action)
        assert reward < 1.0, (task_id, info)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_shared_samples_score_one_in_both_versions(env_id: str) -> None:
    path = samples_dir() / "sambanova/the_cat_api/v0/test.jsonl"
    env = gym.make(env_id, task_file=path)
    for task_id in env.unwrapped.task_ids:
        gold = env.unwrapped.get_task(task_id).gold[0]
        reward, info = play(env, task_id, gold)
        assert reward == 1.0, (task_id, info)


def test_v1_registration() -> None:
    env = gym.make("toolbench/CatAPI-v1")
    assert isinstance(env.unwrapped.toolkit, CatApiV1Toolkit)
    assert env.unwrapped.suite is SUITE_V1 and len(env.unwrapped.task_ids) == 100
    assert "* v1: image ids in the real formats" in (type(env.unwrapped).__doc__ or "")
