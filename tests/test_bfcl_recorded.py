"""The embedded model's recorded BFCL replies, judged by toolgym and by bfcl-eval alike.

``tests/data/bfcl_embedded_replies.jsonl`` holds replies of toolgym's default local agent
(SmolLM2-135M with the shipped adapter, BFCL's prompt mode, the env's grammar) from
``toolgym eval`` runs over every BFCL env but web search: one reply per single-turn entry (the
first 100 simple_python entries, 47 simple_java, 15 of each other category), every reply of the
23 multi-turn conversations that ended (the first 10 of each category; the others ran out of the
model's context), and the final answer to 45 memory questions. Each row is an env id, a task id
and the replies; no BFCL data is in it.

Each is played in the env (prompt mode) and evaluated by bfcl-eval's own per-entry evaluation
(single-turn: ``_evaluate_single_ast_entry`` or ``_evaluate_single_relevance_entry``;
multi-turn: ``_evaluate_single_multi_turn_entry``, the replies split into turns as BFCL's
inference loop splits them; memory: ``_evaluate_single_agentic_entry`` on the question's
answer). The verdicts must be equal on every row.

Skipped without ``bfcl-eval`` and the tree-sitter grammars.
"""

from __future__ import annotations

import collections
import json
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

pytest.importorskip("bfcl_eval", reason="bfcl-eval is not installed (pip install --no-deps ...)")
pytest.importorskip("tree_sitter_java", reason="BFCL's Java parser needs tree-sitter-java")
pytest.importorskip("rank_bm25", reason="the key-value memory needs rank-bm25")

from test_bfcl_memory import write_empty_snapshots
from test_bfcl_multi_turn import _ends_turn, play

from toolgym.families.bfcl import data
from toolgym.families.bfcl.multi_turn import MULTI_TURN
from toolgym.families.bfcl.reference import (
    bfcl_agentic_verdict,
    bfcl_multi_turn_verdict,
    bfcl_verdict,
)

ROWS = [
    json.loads(line)
    for line in (Path(__file__).parent / "data" / "bfcl_embedded_replies.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]


def _turns(replies: list[str]) -> list[list[str]]:
    """Replies split into turns as BFCL's inference loop splits them.

    A reply without calls ends a turn.
    """
    out: list[list[str]] = [[]]
    for reply in replies:
        out[-1].append(reply)
        if _ends_turn(reply, False):
            out.append([])
    return [turn for turn in out if turn]


def test_the_recorded_replies_cover_every_kind_of_env() -> None:
    kinds = collections.Counter(row["env_id"] for row in ROWS)
    assert len(ROWS) == 380 and len(kinds) == 8
    assert kinds["toolbench/BFCL-MultiTurn-v0"] == 23
    assert kinds["toolbench/BFCL-Memory-v0"] == 45


def test_recorded_replies_are_judged_as_bfcl_eval_judges_them(tmp_path: Path) -> None:
    single = {e["id"]: (e, c) for c in data.SINGLE_TURN for e in data.entries(c)}
    multi = {e["id"]: e for c in MULTI_TURN for e in data.multi_turn_entries(c)}
    memory = {e["id"]: e for c in data.MEMORY for e in data.memory_entries(c)}
    write_empty_snapshots(tmp_path)  # each memory question played alone
    envs: dict[tuple[str, str], gym.Env[Any, Any]] = {}
    failures, passed = [], collections.Counter()

    def env_for(env_id: str, **options: Any) -> gym.Env[Any, Any]:
        key = (env_id, json.dumps(options, sort_keys=True, default=str))
        if key not in envs:
            envs[key] = gym.make(env_id, reply_format="prompt", **options)
        return envs[key]

    for row in ROWS:
        task_id, replies = row["task_id"], row["replies"]
        if row["env_id"] == "toolbench/BFCL-MultiTurn-v0":
            theirs = bfcl_multi_turn_verdict(multi[task_id], _turns(replies), False)
            reward, error_type = play(env_for(row["env_id"]), task_id, [replies], False)
            mine: tuple[bool, Any] = (reward == 1.0, error_type)
        elif row["env_id"] == "toolbench/BFCL-Memory-v0":
            entry = memory[task_id]
            theirs = bfcl_agentic_verdict(entry, replies, False)
            env = env_for(row["env_id"], snapshots=tmp_path)
            env.reset(options={"task_id": task_id})
            result = env.step(replies[-1])
            assert result[2], task_id  # the question alone: its answer ends the episode
            mine = (result[1] == 1.0, result[4]["metrics"]["error_type"])
        else:
            entry, category = single[task_id]
            env = env_for(row["env_id"])
            env.reset(options={"task_id": task_id})
            mine = (env.step(replies[0])[1] == 1.0, None)
            theirs = (bfcl_verdict(entry, category, replies[0]), None)
        passed[(row["env_id"], mine[0])] += 1
        if mine != theirs:
            failures.append(f"{row['env_id']} {task_id}: toolgym {mine}, BFCL {theirs}")
    assert not failures, f"{len(failures)} of {len(ROWS)}:\n" + "\n".join(failures[:15])
    assert sum(passed.values()) == len(ROWS)
