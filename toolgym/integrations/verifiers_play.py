"""The episodes behind the verifiers environment: task rows, env pools, one rollout played.

None of it needs verifiers: :func:`task_rows` gives a split's tasks as rows, :func:`episode_pool`
keeps one :class:`~toolgym.integrations.sessions.SessionPool` per env and ``gym.make``
arguments (so rollouts reuse envs), and :func:`play_episode` plays one episode with any model
behind a ``complete(messages, tools)`` coroutine, keeping its record as it goes and releasing
its env whatever happens. :mod:`toolgym.integrations.verifiers` builds verifiers' classes on
them.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import threading
from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any

from toolgym.envs.protocol import task_env
from toolgym.errors import UserInputError
from toolgym.integrations.episode import CallResult, ToolEpisode
from toolgym.integrations.sessions import SessionPool

TRAIN_SPLIT = "train"
"""The split of generated tasks (``train-<k>``), endless unless a limit cuts it."""

TRAIN_CHUNK = 64
"""Train task ids drawn at a time when the split is read without a limit."""

DEFAULT_SPARE_ENVS = 16
"""Envs each pool keeps for the next rollouts (one per rollout running at once is enough)."""


def env_kwargs(
    split: str = "test", world_seed: int | None = None, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The ``gym.make`` arguments of an env whose rows are read from ``split``."""
    kwargs: dict[str, Any] = {**dict(options or {}), "split": split}
    if world_seed is not None:
        kwargs["world_seed"] = world_seed
    return kwargs


_POOLS: dict[str, SessionPool] = {}
_POOLS_LOCK = threading.Lock()


def episode_pool(env_id: str, kwargs: Mapping[str, Any] | None = None) -> SessionPool:
    """The process's pool of episodes of ``env_id`` made with ``kwargs`` (made on first use).

    Raises:
        UserInputError: the env cannot be made (an unknown id, a bad option).
    """
    key = json.dumps([env_id, dict(kwargs or {})], sort_keys=True, default=repr)
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            try:
                pool = SessionPool(
                    env_id, env_kwargs=dict(kwargs or {}), spare_envs=DEFAULT_SPARE_ENVS
                )
            except UserInputError:
                raise
            except (ValueError, TypeError) as e:  # a bad split, world or option of the env
                raise UserInputError(f"cannot make {env_id} with {dict(kwargs or {})}: {e}") from e
            _POOLS[key] = pool
        return pool


def pool_stats() -> list[dict[str, Any]]:
    """The stats of every pool of the process: env, ``env_kwargs``, open sessions, envs made..."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
    return [{**pool.stats(), "env_kwargs": dict(pool.env_kwargs)} for pool in pools]


def close_pools() -> None:
    """Close every pool of the process and its envs (rollouts running then lose their env)."""
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
        _POOLS.clear()
    for pool in pools:
        pool.close_all()


def _check_count(name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise UserInputError(f"{name} is an int >= 0 or None; got {value!r:.80}")
    return value


def _check_seed(name: str, value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserInputError(f"{name} is an int or None; got {value!r:.80}")
    return value


def _train_ids(episode: ToolEpisode, limit: int | None, seed: int) -> Iterator[str]:
    """``limit`` train task ids for ``seed`` (endless without a limit), as evaluations draw them."""
    suite = task_env(episode.env).suite
    if limit is not None:
        yield from suite.sampled_train_ids(limit, seed)
        return
    drawn = 0
    for chunk in itertools.count(1):
        ids = suite.sampled_train_ids(chunk * TRAIN_CHUNK, seed)
        yield from ids[drawn:]
        drawn = len(ids)


def task_rows(
    env_id: str,
    *,
    split: str = "test",
    limit: int | None = None,
    seed: int | None = None,
    world_seed: int | None = None,
    env_options: Mapping[str, Any] | None = None,
) -> Iterator[dict[str, Any]]:
    """The rows of a split: one per task, with its id and its prompt (read lazily).

    Each row has ``env_id``, ``split``, ``task_id``, ``prompt`` (the episode's first observation:
    the user's request, as the env shows it), ``instruction`` (the task's goal), ``seed`` (the
    reset seed, ``seed`` or 0), ``world_seed`` and ``env_options``.

    Args:
        env_id: a registered toolgym env id.
        split: the split (``test``, ``demo``, ...) or ``train`` (generated ``train-<k>`` tasks).
        limit: rows at most (``None``: the whole split; endless for ``train``).
        seed: shuffles a split's tasks (``None``: the split's order); on ``train``, picks which
            ``train-<k>`` tasks are drawn (as ``toolgym`` evaluations do, ``None`` as 0).
        world_seed: the simulated world (``None``: the env's default).
        env_options: more ``gym.make`` options of the env (``reward_type``, the family's).

    Raises:
        UserInputError: a bad argument, or an env that cannot be made.
    """
    limit = _check_count("limit", limit)
    seed = _check_seed("seed", seed)
    world_seed = _check_seed("world_seed", world_seed)
    if not isinstance(split, str) or not split:
        raise UserInputError(f"split is the name of a split (test, train, ...); got {split!r:.80}")
    pool = episode_pool(env_id, env_kwargs(split, world_seed, env_options))
    return _rows(pool, split, limit, seed, world_seed, dict(env_options or {}))


def _rows(
    pool: SessionPool,
    split: str,
    limit: int | None,
    seed: int | None,
    world_seed: int | None,
    options: dict[str, Any],
) -> Iterator[dict[str, Any]]:
    session_id, episode = pool.open()
    try:
        ids: Iterator[str]
        if split == TRAIN_SPLIT:
            ids = _train_ids(episode, limit, seed or 0)
        else:
            known = [str(t) for t in task_env(episode.env).task_ids]
            if seed is not None:
                random.Random(seed).shuffle(known)
            ids = iter(known if limit is None else known[:limit])
        for task_id in ids:
            start = episode.reset(seed=seed or 0, task_id=task_id)
            yield {
                "env_id": pool.env_id,
                "split": split,
                "task_id": start.task_id,
                "prompt": start.observation,
                "instruction": str(start.info.get("instruction", start.observation)),
                "seed": seed or 0,
                "world_seed": world_seed,
                "env_options": dict(options),
            }
    finally:
        pool.close(session_id)


# -- one rollout ----------------------------------------------------------------------------------

Complete = Callable[[list[dict[str, Any]], list[dict[str, Any]]], Awaitable[dict[str, Any] | None]]
"""``complete(messages, tools)``: the model's next message (an OpenAI chat message), or ``None``
when no more model turns may be taken."""


def _call_of(call: Any, index: int) -> tuple[str, Any, Any]:
    """``(id, name, arguments)`` of one tool call of a model's message, as it came."""
    if not isinstance(call, Mapping):
        return f"call_{index}", None, None
    function = call.get("function")
    function = function if isinstance(function, Mapping) else {}
    call_id = call.get("id")
    arguments = function.get("arguments")
    if isinstance(arguments, str) and not arguments.strip():
        arguments = None  # an empty argument text is a call without arguments
    return (
        call_id if isinstance(call_id, str) and call_id else f"call_{index}",
        function.get("name"),
        arguments,
    )


def _record(record: dict[str, Any], result: CallResult) -> None:
    """Bring the episode's record up to date with one call's result."""
    record["steps"] = result.step
    if result.error is not None:
        category = str(result.error.get("category", "unknown"))
        failed = record.setdefault("failed_calls", {})
        failed[category] = failed.get(category, 0) + 1
    if result.done:
        record["ended"] = True
        record["truncated"] = result.truncated
        record["reward"] = result.reward
        record["metrics"] = dict(result.metrics or {})


async def play_episode(
    pool: SessionPool,
    *,
    task_id: str,
    seed: int,
    messages: list[dict[str, Any]],
    complete: Complete,
    record: dict[str, Any],
) -> dict[str, Any]:
    """Play one episode of ``pool``'s env on ``task_id`` with a model, and release it.

    ``messages`` opens the conversation (the system prompt and the user's request); the model's
    messages and the tool results are appended to it. The episode's record is kept up to date in
    ``record`` as the episode goes (the task, ``steps``, ``ended``, ``reward``, ``metrics``, and
    ``failed_calls``: the count of failed calls by error category), so it holds what happened
    even when the model or the caller fails midway. The episode's env goes back to the pool in
    every case.

    Returns:
        ``record``.
    """
    session_id, episode = await asyncio.to_thread(pool.open)
    record.update(
        {"env_id": pool.env_id, "task_id": task_id, "seed": seed, "steps": 0, "ended": False}
    )
    record.update({"truncated": False, "reward": 0.0, "metrics": {}, "failed_calls": {}})
    try:
        start = await asyncio.to_thread(
            pool.run, session_id, lambda e: e.reset(seed=seed, task_id=task_id)
        )
        record["task_id"] = start.task_id
        while not episode.done:
            message = await complete(messages, start.tools)
            if message is None:
                break
            messages.append({k: v for k, v in message.items() if v is not None})
            calls = message.get("tool_calls")
            if not isinstance(calls, list) or not calls:
                break  # an answer without a tool call: the model has stopped acting
            for index, call in enumerate(calls):
                call_id, name, arguments = _call_of(call, index)
                result = await asyncio.to_thread(
                    pool.run, session_id, lambda e, n=name, a=arguments: e.call(n, a)
                )
                _record(record, result)
                if result.done:
                    break
                messages.append(
                    {"role": "tool", "tool_call_id": call_id, "content": result.observation}
                )
    finally:
        await asyncio.shield(asyncio.to_thread(_close_session, pool, session_id, episode))
    return record


def _close_session(pool: SessionPool, session_id: str, episode: ToolEpisode) -> None:
    """Close a session once no call of it runs (a cancelled rollout's step finishes first)."""
    with episode.lock:
        pool.close(session_id)
