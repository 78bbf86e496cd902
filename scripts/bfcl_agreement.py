"""Recorded replies of a model, judged by toolgym and by bfcl-eval: ``python scripts/bfcl_agreement.py DIR...``.

Reads the episode records of the BFCL envs in ``toolgym eval`` results folders (``--out``),
and for each episode played in ``program`` mode takes the model's raw reply (its generation)
and judges it twice: in the env with ``reply_format="prompt"`` (BFCL's prompt mode), and by
bfcl-eval's own per-entry evaluation with its prompt-mode decoder
(:func:`toolgym.families.bfcl.reference.bfcl_verdict`). Prints, per category, the replies
compared, how many each passes and how many verdicts differ (with the first differences), and how
many recorded rewards (the env's default ``reply_format="any"``, which also reads JSON calls)
differ from the prompt-mode verdict.

Needs ``bfcl-eval`` and the tree-sitter grammars (``pip install "toolgym[bfcl]"``).
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path
from typing import Any

import gymnasium as gym

import toolgym  # noqa: F401  (registers the envs)
from toolgym.evaluation.report import format_table
from toolgym.families.bfcl import data
from toolgym.families.bfcl.reference import bfcl_verdict


def _records(folder: Path) -> list[dict[str, Any]]:
    out = []
    for path in sorted(folder.glob("toolbench_BFCL-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append(json.loads(line))
    return out


def main() -> None:
    """Judge the folder's recorded replies both ways and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+", help="toolgym eval results folders")
    args = parser.parse_args()
    entries = {e["id"]: (e, c) for c in data.SINGLE_TURN for e in data.entries(c)}
    envs: dict[str, gym.Env[Any, Any]] = {}
    counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    differences: list[str] = []
    records = [r for folder in args.folders for r in _records(folder)]
    for record in records:
        if record.get("strategy") not in (None, "single") or record.get("generation") is None:
            continue
        entry, category = entries[record["task_id"]]
        reply = str(record["generation"])
        env = envs.get(record["env_id"])
        if env is None:
            env = envs[record["env_id"]] = gym.make(record["env_id"], reply_format="prompt")
        env.reset(options={"task_id": record["task_id"]})
        mine = env.step(reply)[1] == 1.0
        theirs = bfcl_verdict(entry, category, reply)
        row = counts[category]
        row["replies"] += 1
        row["toolgym passes"] += mine
        row["bfcl-eval passes"] += theirs
        row["differ"] += mine != theirs
        row["recorded reward differs"] += (record["reward"] == 1.0) != mine
        if mine != theirs:
            differences.append(
                f"{record['task_id']}: toolgym {mine}, bfcl-eval {theirs}: {reply[:120]!r}"
            )
    columns = [
        "category",
        "replies",
        "toolgym passes",
        "bfcl-eval passes",
        "differ",
        "recorded reward differs",
    ]
    rows = [{"category": c, **counts[c]} for c in data.SINGLE_TURN if c in counts]
    total = collections.Counter[str]()
    for c in counts.values():
        total.update(c)
    rows.append({"category": "all", **total})
    print(format_table(rows, columns))
    for line in differences[:20]:
        print(line)


if __name__ == "__main__":
    main()
