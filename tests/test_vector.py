"""Vector envs: every registered env in Gymnasium's SyncVectorEnv and AsyncVectorEnv.

Each env is played by two sub-envs, each on a task of its own (``next_task_id``), one gold step
each, and compared with the same episodes played by a single env: observations, rewards, flags
and infos (given back by ``info_at``). Infos that differ in kind between sub-envs (an error
beside none) batch. Then :func:`run_vector`: the records are those of ``run_episode``.
"""

from __future__ import annotations

import multiprocessing
import string
from contextlib import closing
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import (
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)

from toolgym.agents import make_agent
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.llm_agent import LLMAgent
from toolgym.envs.protocol import TaskEnv, task_env
from toolgym.envs.spaces import SAMPLE_CHARSET, InfoDict, TextSpace, batch_info, info_at
from toolgym.errors import ToolgymError
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.runner import run_episode
from toolgym.evaluation.vector_runner import SubEnv, run_vector, sub_envs, vector_env

HOME = "toolbench/HomeSearch-v0"
SHOP = "toolbench/WebShop-v1"
BROKEN = "this is not an action ((("
_SINGLE: dict[str, gym.Env[Any, Any]] = {}


def single(env_id: str) -> gym.Env[Any, Any]:
    """One env per id for the whole module (the first make of some families takes seconds)."""
    if env_id not in _SINGLE:
        _SINGLE[env_id] = gym.make(env_id)
    return _SINGLE[env_id]


def played_alone(env_id: str, task_id: Any, seed: int, action: str | None = None) -> tuple:
    """The reset and the first step (the gold's first action, or ``action``) of a single env."""
    env = single(env_id)
    obs, info = env.reset(seed=seed, options={"task_id": task_id})
    act = task_env(env).oracle_actions()[0] if action is None else action
    step = env.step(act)
    return obs, dict(info), act, step


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_every_env_plays_in_a_vector_env_as_alone(env_id: str, mode: str) -> None:
    ids = list(task_env(single(env_id)).task_ids[:2])
    alone = [played_alone(env_id, t, s) for s, t in enumerate(ids)]
    vec = gym.make_vec(env_id, num_envs=2, vectorization_mode=mode)
    try:
        vec.set_attr("next_task_id", ids)
        obs, infos = vec.reset(seed=[0, 1])
        assert list(obs) == [a[0] for a in alone]
        assert [info_at(infos, k) for k in range(2)] == [a[1] for a in alone]
        golds = vec.call("oracle_actions")
        assert [g[0] for g in golds] == [a[2] for a in alone]
        obs, rewards, terminated, truncated, infos = vec.step(tuple(g[0] for g in golds))
        for k, (_, _, _, (o, r, te, tr, info)) in enumerate(alone):
            assert (obs[k], rewards[k], terminated[k], truncated[k]) == (o, r, te, tr)
            assert info_at(infos, k) == info
        assert vec.get_attr("task_ids") == (task_env(single(env_id)).task_ids,) * 2

        # an error beside none, in the same step: the infos still batch, each whole (where
        # words are a right answer, BFCL's irrelevance, a call of no function is the error)
        action = BROKEN
        broken = played_alone(env_id, ids[1], 3, action)
        if broken[3][4]["error"] is None:
            action = "[no_such_function(a=1)]"
            broken = played_alone(env_id, ids[1], 3, action)
        vec.set_attr("next_task_id", ids)
        vec.reset(seed=[2, 3])
        obs, rewards, *_, infos = vec.step((alone[0][2], action))
        assert info_at(infos, 1) == broken[3][4] and infos["error"][1] is not None
        assert (obs[1], rewards[1]) == broken[3][:2]
        assert isinstance(infos["error"], np.ndarray) and infos["error"].dtype == object
    finally:
        vec.close()


def test_direct_construction_autoreset_and_tasks_per_sub_env() -> None:
    ids = list(task_env(single(HOME)).task_ids[:4])
    fns = [lambda: gym.make(HOME)] * 2
    for vec in (SyncVectorEnv(fns), AsyncVectorEnv(fns, shared_memory=False)):
        with closing(vec):
            vec.set_attr("next_task_id", ids[:2])
            obs, infos = vec.reset(seed=[0, 1])
            assert list(infos["task_id"]) == ids[:2]
            golds = tuple(g[0] for g in vec.call("oracle_actions"))
            _, rewards, terminated, *_ = vec.step(golds)
            assert rewards.tolist() == [1.0, 1.0] and terminated.all()
            # next-step autoreset: the step after the end resets, onto the queued tasks
            vec.set_attr("next_task_id", ids[2:])
            obs, rewards, terminated, _, infos = vec.step(("", ""))
            assert list(infos["task_id"]) == ids[2:] and rewards.tolist() == [0.0, 0.0]
            assert list(obs) == [played_alone(HOME, t, 0)[0] for t in ids[2:]]
    same_step = {"autoreset_mode": AutoresetMode.SAME_STEP}
    with closing(gym.make_vec(HOME, 2, vector_kwargs=same_step)) as vec:
        vec.reset(seed=[0, 1], options={"task_id": ids[0]})  # the same task in both
        golds = tuple(g[0] for g in vec.call("oracle_actions"))
        *_, infos = vec.step((golds[0], BROKEN))
        assert infos["final_info"]["error"][0] is None
        assert infos["final_info"]["error"][1]["category"]


def test_text_shared_memory_holds_any_text() -> None:
    space = TextSpace(64)
    memory = create_shared_memory(space, n=3, ctx=multiprocessing)
    view = read_from_shared_memory(space, memory, n=3)
    texts = ["São Paulo — 東京 😀\n\t", "", string.printable[:60]]
    for k, text in enumerate(texts):
        write_to_shared_memory(space, k, text, memory)
    assert tuple(view) == tuple(texts) and view[0] == texts[0] and view[1:] == tuple(texts[1:])
    write_to_shared_memory(space, 0, "later", memory)
    assert view[0] == "later"  # a live view: read at every step
    with pytest.raises(ValueError, match="does not fit a TextSpace of at most 64"):
        write_to_shared_memory(space, 0, "x" * 65, memory)


def test_infos_that_differ_in_kind_batch_and_come_back_equal() -> None:
    sub = [
        InfoDict(
            error=None,
            metrics={"f1": 1, "label": 0, "lines": [1]},
            prediction={"cod": 200},
            code=1,
            extra={"a": 1},
        ),
        InfoDict(
            error={"category": "wrong_api", "message": "m"},
            metrics={"f1": 0.5, "label": None, "lines": []},
            prediction={"cod": "404", "list": [1]},
            code="x",
            extra=None,
        ),
        InfoDict(error=None, step=np.float32(2.5)),
    ]
    infos: dict[str, Any] = {}
    for k, info in enumerate(sub):
        infos = batch_info(infos, info, k, 3)
    assert [info_at(infos, k) for k in range(3)] == sub
    assert infos["error"].dtype == object and infos["prediction"].dtype == object
    assert infos["metrics"]["lines"].dtype == object and infos["metrics"]["f1"].dtype == object
    assert infos["_code"].tolist() == [True, True, False]
    same = batch_info(batch_info({}, InfoDict(m={"f1": 0.5}), 0, 2), InfoDict(m={"f1": 1.0}), 1, 2)
    assert same["m"]["f1"].dtype == np.float64  # values of one kind batch as Gymnasium does


def records_equal(a: list[EpisodeRecord], b: list[EpisodeRecord]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert y.time_s > 0
        assert {**x.to_dict(), "time_s": 0} == {**y.to_dict(), "time_s": 0}


def alone(env_id: str, kind: str, ids: list[Any], **kwargs: Any) -> list[EpisodeRecord]:
    env = gym.make(env_id, **kwargs)
    agent = make_agent(kind, env, 0)
    return [run_episode(env, agent, task_id=t, seed=s) for s, t in enumerate(ids)]


@pytest.mark.parametrize(
    ("env_id", "mode", "kind", "num_envs", "tasks", "kwargs"),
    [
        (HOME, "async", "oracle", 3, 7, {}),  # refilled: more tasks than sub-envs
        (HOME, "sync", "random", 3, 2, {}),  # parked: fewer tasks than sub-envs
        (SHOP, "async", "oracle", 2, 5, {}),  # multi-step episodes of different lengths
        ("toolbench/RapidAPI-v1", "async", "random", 2, 3, {"action_mode": "call"}),  # budgets
    ],
)
def test_run_vector_records_equal_run_episode(
    env_id: str, mode: str, kind: str, num_envs: int, tasks: int, kwargs: dict[str, Any]
) -> None:
    ids = list(task_env(single(env_id)).task_ids[:tasks])
    expected = alone(env_id, kind, ids, **kwargs)
    seen: dict[int, EpisodeRecord] = {}
    with closing(vector_env(env_id, num_envs, mode=mode, **kwargs)) as vec:
        agents = [make_agent(kind, env, 0) for env in sub_envs(vec)]
        records = run_vector(vec, agents, ids, list(range(len(ids))), on_record=seen.__setitem__)
    records_equal(expected, records)
    assert seen == dict(enumerate(records))


def test_llm_agents_get_one_generation_per_step() -> None:
    ids = list(task_env(single(HOME)).task_ids[:7])

    def reply(prompt: Any) -> str:  # a fixed function of the prompt: the same text alone
        text = prompt[-1]["content"] if isinstance(prompt, list) else prompt
        return "API.search()" if len(text) % 2 else 'API.set_location("Austin")\nAPI.search()'

    expected_backend = ScriptedBackend(reply)
    env = gym.make(HOME)
    agent = LLMAgent.for_env(env, expected_backend)
    expected = [run_episode(env, agent, task_id=t, seed=s) for s, t in enumerate(ids)]
    backend = ScriptedBackend(reply)
    with closing(vector_env(HOME, 3, mode="sync")) as vec:
        agents = [LLMAgent.for_env(e, backend) for e in sub_envs(vec)]
        records = run_vector(vec, agents, ids, list(range(len(ids))))
    records_equal(expected, records)
    assert len(backend.prompts) == expected_backend.calls == 7  # the same prompts as alone
    assert backend.calls == 3  # in one generation per step: 3 + 3 + 1 episodes


def test_sub_env_reads_its_process_and_refusals() -> None:
    with closing(vector_env(HOME, 2)) as vec:
        subs = sub_envs(vec)
        assert all(isinstance(s, SubEnv) and isinstance(s, TaskEnv) for s in subs)
        vec.set_attr("next_task_id", ["test-001", "test-002"])
        vec.reset(seed=[0, 1])
        assert [task_env(s).task.task_id for s in subs] == ["test-001", "test-002"]
        assert subs[0].family is subs[1].family  # read once for sub-envs made alike
        assert subs[1].oracle_actions() == list(vec.call("oracle_actions")[1])
        with pytest.raises(ValueError, match="one agent per sub-env: expected 2 agents, got 1"):
            run_vector(vec, subs[:1], ["test-001"], [0])
    with (
        closing(gym.make_vec(HOME, 2)) as vec,
        pytest.raises(ValueError, match=r"autoreset_mode=AutoresetMode\.DISABLED"),
    ):
        run_vector(vec, [None, None], ["test-001"], [0])
    env = gym.make(HOME)
    with pytest.raises(ToolgymError, match="name the task one way"):
        env.unwrapped.next_task_id = "test-001"
        env.reset(options={"task_id": "test-002"})


def test_text_spaces_share_their_charset_tables_and_sample_printable_text() -> None:
    """Every TextSpace holds the same charset tables (a server holds many envs, each two spaces)."""
    a, b = TextSpace(64, seed=1), TextSpace(128, min_length=2, seed=1)
    assert a._char_index is b._char_index and a._char_set is b._char_set
    assert a.character_list == tuple(SAMPLE_CHARSET)
    assert a.character_index("a") == SAMPLE_CHARSET.index("a")
    reference = gym.spaces.Text(64, min_length=0, charset=SAMPLE_CHARSET, seed=1)
    assert a.sample() == reference.sample()  # the same draws as Text over the same charset
    samples = [b.sample() for _ in range(200)]  # the old charset's \x0b and \x0c fell outside
    assert all(
        b.contains(s) and 2 <= len(s) <= 128 and set(s) <= set(string.printable) for s in samples
    )
