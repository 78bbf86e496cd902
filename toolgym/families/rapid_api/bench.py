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


def episode_us(repeat: int = 2000) -> tuple[float, float, float]:
    """Median µs of a step and of a reset (first and later resets of each test task)."""
    import gymnasium as gym

    base: Any = gym.make("toolbench/RapidAPI-v0").unwrapped
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
    step, reset_first, reset_later = episode_us()
    return [
        f"RapidAPI library of {int(generated['apis']):,} APIs ({int(generated['tools']):,} "
        f"tools), fresh process: generated in {generated['seconds']:.2f} s, loaded from a "
        f"ToolBench tools folder in {loaded['seconds']:.2f} s",
        f"RapidAPI top-5 retrieval over {BIG:,} APIs: {query:.3f} ms (median; index built in "
        f"{build:.2f} s)",
        f"RapidAPI step (one API call answered): {step:.0f} µs; reset: {reset_first:.0f} µs "
        f"a task's first (docs built, gold run), {reset_later:.0f} µs later (medians)",
    ]


if __name__ == "__main__":
    print("\n".join(report()))
