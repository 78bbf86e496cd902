"""The RapidAPI family's own performance measures, printed by ``toolgym bench``.

* the library at ToolBench's size (16,464 APIs): generated in a fresh process, then written as a
  ToolBench ``tools/`` folder and loaded from it in another fresh process;
* a top-5 API retrieval over that library (the index built once);
* a step of an episode (one API call answered, its observation cut), and a reset (a task's
  functions, their docs and schemas, its gold's outcome), both through the environment.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import numpy as np

BIG = 16_464
"""ToolBench's number of APIs."""

QUERIES = (
    "current weather in a city",
    "convert an amount between currencies",
    "search hotels near the beach",
    "stock quote by ticker symbol",
    "translate text to spanish",
    "list football matches of a team",
    "detect the sentiment of a review",
    "find recipes with chicken",
)

_GENERATE = """
import json, sys, time
t = time.perf_counter()
from toolgym.simulators.tool_library.generator import generate_library
library = generate_library(0, int(sys.argv[1]))
seconds = time.perf_counter() - t
from toolgym.families.rapid_api.world.loaders import write_toolbench_tools
write_toolbench_tools(library, sys.argv[2])
print(json.dumps({"seconds": seconds, "apis": library.num_apis, "tools": len(library)}))
"""

_LOAD = """
import json, sys, time
t = time.perf_counter()
from toolgym.families.rapid_api.world.loaders import load_toolbench_tools
library = load_toolbench_tools(sys.argv[1])
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "apis": library.num_apis, "tools": len(library)}))
"""


def _fresh(code: str, *args: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def retrieval_ms(num_apis: int = BIG, repeat: int = 400) -> tuple[float, float]:
    """Seconds to build the retriever over ``num_apis`` APIs, and median ms of a top-5 query."""
    from toolgym.families.rapid_api.toolkit import RapidApiToolkit, world_retriever

    toolkit = RapidApiToolkit(0, num_apis=num_apis)
    t = time.perf_counter()
    world_retriever(0, num_apis, None)
    build = time.perf_counter() - t
    samples = []
    for k in range(repeat):
        t = time.perf_counter()
        toolkit.retrieve(QUERIES[k % len(QUERIES)], 5)
        samples.append(time.perf_counter() - t)
    return build, statistics.median(samples) * 1e3


def retrieval_vs_bm25s(num_apis: int = BIG, rounds: int = 5) -> dict[str, float]:
    """Top-5 retrieval here and in ``bm25s`` on the same tokens, timed side by side.

    Both index the same stemmed words of every function; each query (the test split's
    instructions) is scored by both, and both take the top 5 the same way (highest score, then
    the earlier function). ``bm25s``' scores are Lucene's BM25, which differs from the one here
    by the constant factor ``k1 + 1``, so the rankings must be equal; ``mismatches`` counts the
    queries where they are not.

    Returns:
        ``{"toolgym_ms", "bm25s_ms", "ratio", "queries", "mismatches"}`` (medians per query).
    """
    import bm25s
    from bm25s.tokenization import Tokenized

    from toolgym.families.rapid_api.functions import ApiTool
    from toolgym.families.rapid_api.tasks.suite import SUITE
    from toolgym.families.rapid_api.toolkit import api_document, world_functions
    from toolgym.simulators.tool_library.retriever import K1, ApiRetriever, B

    apis = [t for t in world_functions(0, num_apis, None, "strict") if isinstance(t, ApiTool)]
    documents = [api_document(t) for t in apis]
    ours = ApiRetriever(documents)
    vocab: dict[str, int] = {}
    ids = [[vocab.setdefault(w, len(vocab)) for w in ours.tokenize(d)] for d in documents]
    theirs = bm25s.BM25(method="lucene", k1=K1, b=B)
    theirs.index(Tokenized(ids=ids, vocab=vocab), show_progress=False)
    queries = [
        [w for w in dict.fromkeys(ours.tokenize(task.instruction)) if w in vocab]
        for task in SUITE.load("test").values()
    ]
    queries = [q for q in queries if q]

    def top5(scores: np.ndarray) -> list[int]:
        hits = np.flatnonzero(scores > 0)
        order = np.lexsort((hits, -scores[hits]))[:5]
        return [int(hits[i]) for i in order]

    mismatches = sum(ours.rank(q, 5) != top5(theirs.get_scores(q)) for q in queries)
    mine, other = [], []
    for _ in range(rounds):  # interleaved, so both meet the same machine load
        for q in queries:
            t = time.perf_counter()
            ours.rank(q, 5)
            mine.append(time.perf_counter() - t)
            t = time.perf_counter()
            top5(np.asarray(theirs.get_scores(q)))
            other.append(time.perf_counter() - t)
    a, b = statistics.median(mine) * 1e3, statistics.median(other) * 1e3
    return {
        "toolgym_ms": a,
        "bm25s_ms": b,
        "ratio": a / b,
        "queries": float(len(queries)),
        "mismatches": float(mismatches),
    }


def episode_us(repeat: int = 2000) -> tuple[float, float, float]:
    """Median µs of a step and of a reset (first and later resets of each test task)."""
    import gymnasium as gym

    base: Any = gym.make("toolbench/RapidAPI-v1").unwrapped
    ids = list(base.task_ids)
    first = []
    for task_id in ids:  # a task's first reset: its functions' docs and its gold's run
        t = time.perf_counter()
        base.reset(options={"task_id": task_id})
        first.append(time.perf_counter() - t)
    later = []
    for k in range(repeat):
        task_id = ids[k % len(ids)]
        t = time.perf_counter()
        base.reset(options={"task_id": task_id})
        later.append(time.perf_counter() - t)
    steps = []
    for k in range(repeat):
        base.reset(options={"task_id": ids[k % len(ids)]})
        action = base.oracle_actions()[0]
        t = time.perf_counter()
        base.step(action)
        steps.append(time.perf_counter() - t)
    return (
        statistics.median(steps) * 1e6,
        statistics.median(first) * 1e6,
        statistics.median(later) * 1e6,
    )


def report() -> list[str]:
    """The lines ``toolgym bench`` prints for the RapidAPI family."""
    with tempfile.TemporaryDirectory() as folder:
        root = os.path.join(folder, "tools")
        generated = _fresh(_GENERATE, str(BIG), root)
        loaded = _fresh(_LOAD, root)
    build, query = retrieval_ms()
    side = retrieval_vs_bm25s()
    step, reset_first, reset_later = episode_us()
    return [
        f"RapidAPI library of {int(generated['apis']):,} APIs ({int(generated['tools']):,} "
        f"tools), fresh process: generated in {generated['seconds']:.2f} s, loaded from a "
        f"ToolBench tools folder in {loaded['seconds']:.2f} s",
        f"RapidAPI top-5 retrieval over {BIG:,} APIs: {query:.3f} ms (median; index built in "
        f"{build:.2f} s)",
        f"RapidAPI top-5 ranking of the test instructions over {BIG:,} APIs, same tokens: "
        f"{side['toolgym_ms']:.3f} ms here, {side['bm25s_ms']:.3f} ms in bm25s "
        f"({side['ratio']:.2f}x; rankings differ on {int(side['mismatches'])} of "
        f"{int(side['queries'])} queries)",
        f"RapidAPI step (one API call answered): {step:.0f} µs; reset: {reset_first:.0f} µs "
        f"a task's first (docs built, gold run), {reset_later:.0f} µs later (medians)",
    ]


if __name__ == "__main__":
    print("\n".join(report()))
