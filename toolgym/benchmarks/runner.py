"""The evaluation runner: it owns the loop, runs agents in envs, records and summarizes episodes.

One JSON line is written per episode (``<out>/<env>__<agent>__<split>.jsonl``) as soon as the
episode ends, so an interrupted run keeps everything it finished.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
from tqdm.auto import tqdm

from toolgym.agents import Agent, make_agent
from toolgym.benchmarks.report import summarize

AgentFactory = Callable[[gym.Env[Any, Any]], Agent]


@dataclass
class EvalResult:
    """Records of every episode and their summary."""

    records: list[dict[str, Any]]
    summary: dict[str, Any]
    path: Path | None = None


def run_episode(
    env: gym.Env[Any, Any],
    agent: Agent,
    *,
    task_id: Any = None,
    seed: int | None = None,
) -> dict[str, Any]:
    """Play one episode; agent failures are recorded, never raised.

    Returns:
        The episode record: task, actions, last observation, reward, metrics, error, steps, time.
    """
    options = None if task_id is None else {"task_id": task_id}
    start = time.perf_counter()
    obs, info = env.reset(seed=seed, options=options)
    record: dict[str, Any] = {
        "task_id": info["task_id"],
        "instruction": info["instruction"],
        "actions": [],
        "reward": 0.0,
        "return": 0.0,
        "terminated": False,
        "truncated": False,
        "steps": 0,
        "metrics": None,
        "error": None,
        "warnings": [],
        "observation": obs,
    }
    terminated = truncated = False
    step_info: dict[str, Any] = {}
    try:
        agent.reset(obs, info)
        while not (terminated or truncated):
            action = agent.act(obs, info)
            record["actions"].append(action)
            obs, reward, terminated, truncated, step_info = env.step(action)
            info = {**info, **step_info}
            record["reward"] = float(reward)
            record["return"] += float(reward)
            record["steps"] += 1
    except Exception as e:  # the agent (not the env) failed: keep the episode, say why
        record["error"] = {"category": "agent_error", "message": f"{type(e).__name__}: {e}"}
    record["terminated"], record["truncated"] = terminated, truncated
    record["observation"] = obs
    record["warnings"] = step_info.get("warnings", [])
    if terminated:
        record["metrics"] = step_info["metrics"]
        record["error"] = step_info["error"]
        record["prediction"] = step_info.get("prediction")
    else:
        record["metrics"] = env.unwrapped.score()  # type: ignore[attr-defined]
        if truncated and record["error"] is None:
            record["error"] = {
                "category": "timeout",
                "message": f"the step budget ({record['steps']} steps) ran out before the episode ended",
            }
    record["time_s"] = time.perf_counter() - start
    return record


def evaluate(
    env_id: str,
    agent: str | AgentFactory = "oracle",
    *,
    split: str = "test",
    limit: int | None = None,
    task_ids: Sequence[Any] | None = None,
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
    out_dir: str | Path | None = None,
    progress: bool = True,
) -> EvalResult:
    """Evaluate an agent on the tasks of one env split (or ``limit`` of them, in order).

    Args:
        env_id: a registered id such as ``toolbench/HomeSearch-v0``.
        agent: ``"oracle"``, ``"random"`` or a factory ``env -> Agent``.
        split: the split to evaluate (``test``, ``demo``; ``train`` needs ``limit``).
        limit: evaluate only the first ``limit`` tasks.
        task_ids: evaluate exactly these tasks.
        seed: base seed; episode ``i`` resets with ``seed + i``.
        env_kwargs: extra keyword arguments for ``gym.make``.
        out_dir: where to write the JSONL records (nothing written when ``None``).
        progress: show a progress bar.
    """
    kwargs = dict(env_kwargs or {})
    if "task_file" not in kwargs:
        kwargs["split"] = split
    env = gym.make(env_id, **kwargs)
    agent_name = agent if isinstance(agent, str) else getattr(agent, "__name__", "custom")
    agent_obj = make_agent(agent, env, seed) if isinstance(agent, str) else agent(env)
    unwrapped = env.unwrapped
    if task_ids is None:
        ids: list[Any] = list(unwrapped.task_ids)  # type: ignore[attr-defined]
        if not ids:
            if limit is None:
                raise ValueError(f"split {split!r} of {env_id} is unlimited; pass limit")
            ids = [None] * limit
        elif limit is not None:
            ids = ids[:limit]
    else:
        ids = list(task_ids)
    path = None
    records = []
    with contextlib.ExitStack() as stack:
        stack.callback(env.close)
        handle = None
        if out_dir is not None:
            out = Path(out_dir)
            out.mkdir(parents=True, exist_ok=True)
            label = split if "task_file" not in kwargs else Path(kwargs["task_file"]).stem
            path = out / f"{env_id.replace('/', '_')}__{agent_name}__{label}.jsonl"
            handle = stack.enter_context(open(path, "w", encoding="utf-8"))
        bar = tqdm(ids, desc=f"{env_id} [{agent_name}]", disable=not progress, leave=False)
        for i, task_id in enumerate(bar):
            record = run_episode(env, agent_obj, task_id=task_id, seed=seed + i)
            record = {"env_id": env_id, "agent": agent_name, "split": split, **record}
            records.append(record)
            if handle is not None:
                handle.write(json.dumps(record, ensure_ascii=False, default=repr) + "\n")
                handle.flush()
    return EvalResult(records, summarize(records), path)
