"""The parity slice: episodes of the API families played by one backend, and action agreement.

Two backends (the CPU and a GPU, float32 and bfloat16, the transformers path and the lean decoder)
play the same slice; :func:`agreement` is the share of episodes whose actions are equal. The
slice is the ``api`` suite (the four API families of the paper: one program per task, scored by
execution), the first ``tasks`` test tasks of each.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

PARITY_SUITE = "api"
"""The suite whose envs the parity slice plays (``toolgym eval --suite api``)."""


def parity_envs() -> list[str]:
    """The parity slice's envs: the ``api`` suite, in table order."""
    from toolgym.evaluation.profile import suite_env_ids

    return suite_env_ids(PARITY_SUITE)


def play_slice(
    backend: Any, tasks: int, batch: int, envs: Sequence[str] | None = None
) -> dict[str, Any]:
    """Play the parity slice (or ``envs``); each episode's action, success and runnability, and the timing."""
    from toolgym.agents.llm_agent import LLMAgent
    from toolgym.evaluation.runner import evaluate

    episodes: list[dict[str, Any]] = []
    tokens = 0
    start = time.perf_counter()
    for env_id in parity_envs() if envs is None else envs:
        result = evaluate(
            env_id,
            lambda env: LLMAgent.for_env(env, backend, constrained=True),
            limit=tasks,
            batch_size=batch,
            progress=False,
        )
        for record in result.records:
            metrics = record.metrics or {}
            tokens += sum(int(t.get("completion_tokens") or 0) for t in record.turns or [])
            episodes.append(
                {
                    "env": env_id,
                    "task": record.task_id,
                    "action": record.action,
                    "success": bool(metrics.get("success")),
                    "executable": bool(metrics.get("executable")),
                    "error": record.error_category,
                }
            )
    wall = time.perf_counter() - start
    return {
        "episodes": episodes,
        "wall_s": wall,
        "episodes_per_s": len(episodes) / wall if wall else 0.0,
        "generated_tokens": tokens,
        "tokens_per_s": tokens / wall if wall else 0.0,
        "success": _share(e["success"] for e in episodes),
        "executable": _share(e["executable"] for e in episodes),
    }


def _share(flags: Any) -> float:
    values = [bool(f) for f in flags]
    return sum(values) / len(values) if values else 0.0


def agreement(a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The share of episodes (matched by env and task) whose actions are equal."""
    other = {(e["env"], str(e["task"])): e for e in b}
    pairs = [(e, other.get((e["env"], str(e["task"])))) for e in a]
    matched = [(x, y) for x, y in pairs if y is not None]
    same = [x for x, y in matched if x["action"] == y["action"]]
    return {
        "episodes": len(matched),
        "equal_actions": len(same),
        "agreement": len(same) / len(matched) if matched else 0.0,
        "differing": [
            {"env": x["env"], "task": x["task"]} for x, y in matched if x["action"] != y["action"]
        ],
    }
