"""One tool call through ``toolgym mcp`` over stdio against the same call in process.

``python scripts/bench_mcp_stdio.py [--calls 300] [--rounds 3]``

The server runs as ``toolgym mcp ENV`` (stdio) in a process of its own and is driven by the
official MCP client (``mcp.Client`` over ``stdio_client``); the in-process figure is
:meth:`~toolgym.integrations.episode.ToolEpisode.call` on the same task, tool and arguments.
Both play the task's gold calls over and over (a reset, untimed, after each pass), so every timed
call is a real step. Rounds alternate the two (``--calls`` calls each), so load that comes and
goes falls on both; the medians and their ratio are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

from toolgym.integrations.episode import ToolEpisode

ENV = "toolbench/HomeSearch-v0"
TASK = "test-000"


async def over_stdio(calls: int, rounds: int) -> list[list[float]]:
    """Per round, the seconds of each call through the stdio server."""
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "toolgym.cli", "mcp", ENV])
    local = ToolEpisode(ENV)
    local.reset(seed=0, task_id=TASK)
    gold = local.oracle_calls() or []
    out: list[list[float]] = []
    async with Client(stdio_client(params)) as client:
        for _ in range(rounds):
            times: list[float] = []
            while len(times) < calls:
                await client.call_tool("reset", {"seed": 0, "task_id": TASK})
                for call in gold:
                    start = time.perf_counter()
                    await client.call_tool(call["name"], call["arguments"])
                    times.append(time.perf_counter() - start)
            out.append(times)
            out.append(in_process(local, gold, calls))
    return out


def in_process(episode: ToolEpisode, gold: list[dict], calls: int) -> list[float]:
    """The seconds of each of ``calls`` gold calls in this process."""
    times: list[float] = []
    while len(times) < calls:
        episode.reset(seed=0, task_id=TASK)
        for call in gold:
            start = time.perf_counter()
            episode.call(call["name"], call["arguments"])
            times.append(time.perf_counter() - start)
    return times


def main() -> int:
    """Print the medians and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rounds = asyncio.run(over_stdio(args.calls, args.rounds))
    stdio = statistics.median(t for r in rounds[0::2] for t in r) * 1e6
    local = statistics.median(t for r in rounds[1::2] for t in r) * 1e6
    print(
        f"{ENV} {TASK}: a tool call over stdio {stdio:.0f} us, in process {local:.0f} us: "
        f"x{stdio / local:.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
