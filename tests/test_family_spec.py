"""The family spec and what is derived from it: registration, versions, options, worlds, caches."""

from __future__ import annotations

import dataclasses
import pickle

import gymnasium as gym
import pytest
from todo_family.spec import SPEC as TODO_SPEC

from toolgym.cli import service_names
from toolgym.envs import env_class, families, family, register_family
from toolgym.envs.gold_cache import GOLD_CACHE, LRUCache
from toolgym.envs.protocol import task_env
from toolgym.envs.spec import FamilySpec, VersionSpec, load_ref
from toolgym.errors import ToolgymError
from toolgym.evaluation.profile import profile_of
from toolgym.tools.errors import CATEGORIES, ToolCallError, register_category

TWO_VERSIONS = dataclasses.replace(
    TODO_SPEC,
    name="todo_versions",
    env_name="TodoVersions",
    versions=(
        VersionSpec(0, max_episode_steps=8, tasks="todo_family.tasks:SUITE", history="first"),
        VersionSpec(1, max_episode_steps=5, tasks="todo_family.tasks:SUITE_V1", history="more"),
    ),
)


@pytest.mark.filterwarnings("ignore:.*is out of date.*")  # Gymnasium's note on an older version
def test_two_versions_are_registered_side_by_side() -> None:
    register_family(TWO_VERSIONS)
    v0, v1 = gym.make("toolbench/TodoVersions-v0"), gym.make("toolbench/TodoVersions-v1")
    assert v0.spec.max_episode_steps == 8 and v1.spec.max_episode_steps == 5
    assert task_env(v0).version == 0 and task_env(v1).version == 1
    assert len(task_env(v0).task_ids) != len(task_env(v1).task_ids)
    assert gym.make("toolbench/TodoVersions").spec.id == "toolbench/TodoVersions-v1"
    with pytest.raises(ValueError, match="has versions 0, 1; got version=7"):
        TWO_VERSIONS.get_version(7)


def test_a_family_is_registered_once() -> None:
    with pytest.raises(ValueError, match="registered already"):
        register_family(dataclasses.replace(TODO_SPEC, name="other_name"))


def test_spec_validation() -> None:
    with pytest.raises(ValueError, match="snake_case"):
        dataclasses.replace(TODO_SPEC, name="Todo")
    with pytest.raises(ValueError, match="increasing order"):
        dataclasses.replace(TODO_SPEC, versions=())
    with pytest.raises(ValueError, match="not one of the family's metrics"):
        dataclasses.replace(TODO_SPEC, reward="accuracy")
    with pytest.raises(ToolgymError, match="cannot load"):
        load_ref("toolgym.envs:NoSuchThing")


def test_lookup_by_name_alias_and_env_name() -> None:
    assert family("cat_api") is family("catapi") is family("CatAPI")
    with pytest.raises(KeyError, match="did you mean 'cat_api'"):
        family("cat_apy")
    assert {"openweather", "cat_api", "catapi"} <= set(service_names())


def test_env_classes_are_generated_from_specs_and_pickle() -> None:
    cls = env_class(family("home_search"))
    assert cls.__name__ == "HomeSearchEnv" and "## Description" in cls.__doc__
    assert pickle.loads(pickle.dumps(cls)) is cls
    env = cls(split="demo")
    assert env.version == 0 and len(env.task_ids) == 10
    from toolgym.envs.tool_env import ToolEnv

    with pytest.raises(ToolgymError, match="assembled from a family spec"):
        ToolEnv()


def test_options_pass_through_to_the_family_parts() -> None:
    env = gym.make("toolbench/HomeSearch-v0", max_results=2, extraction="lenient")
    base = task_env(env)
    assert base.toolkit.max_results == 2 and base.language.extraction == "lenient"
    env.reset(options={"task_id": "test-000"})
    obs, *_ = env.step(f"```\n{base.oracle_actions()[0]}\n```")
    assert "showing the 2 cheapest" in obs or obs.count("\n1. ") <= 1
    with pytest.raises(ValueError, match="max_results must be at least 1"):
        gym.make("toolbench/HomeSearch-v0", max_results=0)
    rest = task_env(gym.make("toolbench/OpenWeather-v0", max_body_chars=50))
    assert rest.language.max_body_chars == 50


def test_task_env_refuses_other_envs() -> None:
    with pytest.raises(TypeError, match="expected a toolgym environment"):
        task_env(gym.make("CartPole-v1"))


def test_gold_cache_is_keyed_by_world_and_bounded() -> None:
    GOLD_CACHE.clear()
    for world_seed in (0, 3):
        env = gym.make("toolbench/HomeSearch-v0", split="train", world_seed=world_seed)
        env.reset(options={"task_id": "train-5"})
    worlds = {key[2] for key in GOLD_CACHE._items}
    assert worlds == {0, 3}
    small: LRUCache[int] = LRUCache(3)
    for i in range(10):
        small.put(i, i)
    assert len(small) == 3 and small.get(0) is None and small.get(9) == 9


def test_same_gold_in_two_worlds_scores_in_each_world() -> None:
    # A gold program built for world 0 searches world 3's listings when run there: each world
    # computes its own gold outcome, so the cache never mixes them up.
    env0 = gym.make("toolbench/HomeSearch-v0")
    env0.reset(options={"task_id": "test-000"})
    gold = task_env(env0).oracle_actions()[0]
    env3 = gym.make("toolbench/HomeSearch-v0", split="train", world_seed=3)
    env3.reset(options={"task": {"prompt": "goal", "completion": [gold]}})
    obs3 = env3.step(gold)[0]
    obs0 = env0.step(gold)[0]
    assert obs0 != obs3  # other listings...
    assert env0.unwrapped.score().success and env3.unwrapped.score().success  # ...same criteria


def test_error_categories_are_an_open_documented_set() -> None:
    assert {"timeout", "runtime_error", "agent_error"} <= set(CATEGORIES)
    assert all(CATEGORIES.values())
    name = register_category("test_category", "Used by the tests only.")
    assert ToolCallError(name, "x").to_info() == {"category": name, "message": "x"}
    with pytest.raises(ValueError, match="registered already"):
        register_category("timeout", "another meaning")
    with pytest.raises(ValueError, match="registered error category"):
        ToolCallError("no_such_category", "x")


def test_tasks_expose_a_subset_of_the_tools() -> None:
    env = gym.make("toolbench/HomeSearch-v0")
    env.reset(options={"task_id": "test-000"})
    gold = task_env(env).oracle_actions()[0]
    record = {"prompt": "goal", "completion": [gold], "tools": ["set_location", "search"]}
    obs, info = env.reset(options={"task": record})
    assert [t["function"]["name"] for t in info["tools"]] == ["set_location", "search"]
    assert len(info["api_doc_list"]) == 2 and "set_num_beds" not in info["api_docs"]
    assert task_env(env).tools is task_env(env).toolkit.tools.subset(["search", "set_location"])
    with pytest.raises(KeyError, match="no tools called"):
        env.reset(options={"task": {**record, "tools": ["teleport"]}})


def test_spec_is_frozen_data() -> None:
    assert isinstance(TODO_SPEC, FamilySpec)
    with pytest.raises(dataclasses.FrozenInstanceError):
        TODO_SPEC.name = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    "spec", [s for s in families() if profile_of(s).bench is not None], ids=lambda s: s.name
)
def test_the_bench_action_of_a_family_runs_on_its_task(spec) -> None:
    """``toolgym bench`` times it: it must run without error on the task it names."""
    bench = profile_of(spec).bench
    env = gym.make(spec.env_id())
    env.reset(options={"task_id": bench.task_id})
    _, _, terminated, _, info = env.step(bench.action)
    assert terminated and info["metrics"]["executable"], info["error"]


def test_list_reads_builtin_rows_from_the_catalog_and_builds_the_others(
    capsys: pytest.CaptureFixture,
) -> None:
    from toolgym.cli import main
    from toolgym.envs import builtin_families
    from toolgym.envs.catalog import built_row, stored_catalog

    stored = stored_catalog()
    builtin = [s.env_id(v.version) for s in builtin_families() for v in s.versions]
    assert sorted(stored) == sorted(builtin)  # build-tasks --check compares the rows themselves
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    version = TODO_SPEC.versions[0]
    todo = built_row(TODO_SPEC, version)  # a family registered at run time: built when listed
    line = next(x for x in out.splitlines() if x.startswith(TODO_SPEC.env_id(version.version)))
    assert f" {todo['tools']} " in line and todo["language"] in line
    for env_id in builtin:
        row = next(x for x in out.splitlines() if x.startswith(env_id + " "))
        assert f" {stored[env_id]['tools']} " in row and stored[env_id]["language"] in row


def test_a_stored_catalog_row_of_the_wrong_shape_is_built_instead() -> None:
    from toolgym.envs.catalog import stored_row

    good = {"tools": 6, "language": "curl", "splits": {"test": 100}}
    stored = {"a": good, "b": {"tools": 6}, "c": 7, "d": {**good, "splits": []}}
    assert stored_row(stored, "a") == good
    assert [stored_row(stored, k) for k in ("b", "c", "d", "missing")] == [None] * 4
