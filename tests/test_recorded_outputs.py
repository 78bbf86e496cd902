"""Recorded agent outputs score exactly as they did when they were recorded.

``data/recorded_outputs.jsonl`` holds 80 episodes: the actions the embedded SmolLM2-135M model
wrote in the main job (program mode, the first 8 test tasks of each built-in env) and actions of
the random agent in both modes, each with the reward, metrics and error category toolgym 0.1.0
gave them before the family contract was introduced.
"""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

from toolgym.envs.protocol import task_env

RECORDS = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "recorded_outputs.jsonl").read_text().splitlines()
]


def _jsonable(value: object) -> object:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize(
    "record",
    RECORDS,
    ids=[
        f"{r['env_id'].split('/')[1]}-{r['action_mode']}-{r['source']}-{i}"
        for i, r in enumerate(RECORDS)
    ],
)
def test_recorded_output_scores_the_same(record: dict) -> None:
    env = gym.make(record["env_id"], action_mode=record["action_mode"])
    env.reset(seed=0, options={"task_id": record["task_id"]})
    result = None
    for action in record["actions"]:
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated:
            category = (info["error"] or {}).get("category")
            result = {"reward": reward, "metrics": _jsonable(info["metrics"]), "error": category}
            break
    if result is None:
        metrics = _jsonable(task_env(env).score().metrics_dict())
        result = {"reward": None, "metrics": metrics, "error": None}
    assert result == record["expected"]


def test_the_fixture_covers_both_sources_and_modes() -> None:
    assert {r["source"] for r in RECORDS} == {"smollm2-135m", "random"}
    assert {r["action_mode"] for r in RECORDS} == {"program", "call"}
    assert any(0.0 < (r["expected"]["reward"] or 0.0) < 1.0 for r in RECORDS)  # partial F1s
