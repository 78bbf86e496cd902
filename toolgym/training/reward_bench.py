"""How fast execution rewards score completions: ``toolgym bench --rewards``.

:func:`reward_throughput` times an :class:`~toolgym.training.rewards.ExecutionReward` on one
batch of completions of ``train`` tasks: half of them the tasks' gold actions, read from the
env's oracle for this measurement only, half of them wrong but runnable actions (the gold of
another task). Each completion is a fresh episode: a reset on its task (which runs the task's
gold, unless the env has it cached) and one step.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import gymnasium as gym

from toolgym.benchmarks.suite import TRAIN, TRAIN_STRIDE
from toolgym.envs import latest_env_ids
from toolgym.envs.protocol import task_env
from toolgym.errors import UserInputError
from toolgym.evaluation.report import format_table
from toolgym.training.rewards import ExecutionReward
from toolgym.training.rl_data import rl_env_ids, single_step_env_ids

NOT_AN_ACTION = "I cannot help with that."
"""The wrong completion of a batch with a single task (no other task's gold to borrow)."""

TABLE_COLUMNS = ("env", "completions", "rewards/s", "ms per reward")


def bench_completions(
    env_id: str, n: int, *, seed: int = 0, world_seed: int = 0
) -> tuple[list[str], list[str]]:
    """``n`` completions and their ``train`` task ids: gold and wrong actions, alternating.

    Completion ``2j`` is the gold action of ``train-<seed * 2**32 + j>`` (from the env's
    oracle), completion ``2j + 1`` the gold of the next task, played on task ``j``.
    """
    tasks = max(1, (n + 1) // 2)
    env = gym.make(env_id, split=TRAIN, world_seed=world_seed)
    try:
        base = task_env(env)
        ids = [f"train-{seed * TRAIN_STRIDE + j}" for j in range(tasks)]
        golds = []
        for task_id in ids:
            env.reset(options={"task_id": task_id})
            golds.append(base.oracle_actions()[0])
    finally:
        env.close()
    completions, task_ids = [], []
    for i in range(n):
        j = i // 2
        if i % 2 == 0:
            completions.append(golds[j])
        else:
            completions.append(golds[(j + 1) % tasks] if tasks > 1 else NOT_AN_ACTION)
        task_ids.append(ids[j])
    return completions, task_ids


def reward_throughput(
    env_id: str, n: int = 200, *, shaping: str = "reward", seed: int = 0, world_seed: int = 0
) -> dict[str, Any]:
    """Rewards per second of :class:`ExecutionReward` over ``n`` completions of ``env_id``.

    Args:
        env_id: a single-step env.
        n: completions in the timed batch (see :func:`bench_completions`).
        shaping: the reward function's shaping.
        seed: the stream of ``train`` tasks, and the episodes' seed.
        world_seed: the simulated world.

    Returns:
        ``env``, ``completions``, ``seconds``, ``rewards/s``, ``ms per reward``, the mean reward
        of the gold and of the wrong completions, and the error categories seen.

    Raises:
        UserInputError: a multi-step or unknown env, or ``n < 1``.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UserInputError(f"the number of completions is a whole number >= 1; got {n!r}")
    rl_env_ids(env_id)
    completions, task_ids = bench_completions(env_id, n, seed=seed, world_seed=world_seed)
    reward = ExecutionReward(
        env_id, split=TRAIN, shaping=shaping, env_kwargs={"world_seed": world_seed}, seed=seed
    )
    try:
        reward(completions=completions[:1], task_id=task_ids[:1])  # warm: first-use caches
        start = time.perf_counter()
        rewards = reward(completions=completions, task_id=task_ids)
        seconds = time.perf_counter() - start
        categories = Counter(r.error_category or "none" for r in reward.last_batch)
    finally:
        reward.close()
    gold, wrong = rewards[0::2], rewards[1::2]
    return {
        "env": env_id,
        "completions": n,
        "seconds": seconds,
        "rewards/s": n / seconds if seconds > 0 else float("inf"),
        "ms per reward": 1e3 * seconds / n,
        "gold mean reward": sum(gold) / len(gold),
        "wrong mean reward": sum(wrong) / len(wrong) if wrong else None,
        "errors": dict(categories),
    }


def main(env_ids: Sequence[str] = (), n: int = 200) -> int:
    """Print the throughput table of ``env_ids`` (default: every single-step family's newest).

    Returns:
        The exit status (0).
    """
    single = set(single_step_env_ids())
    ids = rl_env_ids(env_ids) if env_ids else [i for i in latest_env_ids() if i in single]
    rows = []
    for env_id in ids:
        print(f"timing {env_id} ...", file=sys.stderr, flush=True)
        rows.append(reward_throughput(env_id, n))
    print(f"execution rewards, {n} completions per env (gold and wrong actions of train tasks):")
    print(format_table(rows, TABLE_COLUMNS))
    return 0
