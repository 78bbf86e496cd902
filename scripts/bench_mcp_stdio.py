"""One tool call through ``toolgym mcp`` over stdio against the same call in process.

``python scripts/bench_mcp_stdio.py [--calls 300] [--rounds 3] [--local-calls 3000]``

The server runs as ``toolgym mcp ENV`` (stdio) in a process of its own and is driven by the
official MCP client (``mcp.Client`` over ``stdio_client``); the in-process figure is
:meth:`~toolgym.integrations.episode.ToolEpisode.call` on the same task, tool and arguments.
Both play the task's gold calls over and over (a reset, untimed, after each pass), so every timed
call is a real step. Rounds alternate the two (``--calls`` calls over stdio, ``--local-calls``
in process), so load that comes and goes falls on both; the medians and their ratio are
printed.

The protocol's own cost is the third figure: a hello-world server of the SDK (one tool that
answers a fixed text), served over the same stdio streams as ``toolgym mcp`` and called by the
same client, in the same alternation. What a toolgym call costs beyond it is the env's step and
toolgym's handling. The fourth is the client's own: a bare line server (``--serve-lines``) that
answers each request with a fixed reply as soon as it reads it, no SDK in the server at all; no
server over stdio can answer the official client faster. The last line sets the in-process call beside ``env.step`` of the same call
written as a JSON action: what ``ToolEpisode`` itself adds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from typing import Any

import gymnasium as gym

from toolgym.integrations.episode import ToolEpisode

ENV = "toolbench/HomeSearch-v0"
TASK = "test-000"


async def over_stdio(calls: int, rounds: int, local_calls: int) -> list[list[float]]:
    """Per round, the seconds of each call, five ways.

    toolgym over stdio, in process, the SDK's hello-world, ``env.step``, the bare line server.
    """
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "toolgym.cli", "mcp", ENV])
    hello = StdioServerParameters(command=sys.executable, args=[__file__, "--serve-hello"])
    bare = StdioServerParameters(command=sys.executable, args=[__file__, "--serve-lines"])
    local = ToolEpisode(ENV)
    local.reset(seed=0, task_id=TASK)
    gold = local.oracle_calls() or []
    out: list[list[float]] = []
    async with (
        Client(stdio_client(params)) as client,
        Client(stdio_client(hello)) as floor,
        Client(stdio_client(bare)) as lines,
    ):
        for _ in range(rounds):
            times: list[float] = []
            while len(times) < calls:
                await client.call_tool("reset", {"seed": 0, "task_id": TASK})
                for call in gold:
                    start = time.perf_counter()
                    await client.call_tool(call["name"], call["arguments"])
                    times.append(time.perf_counter() - start)
            out.append(times)
            local_times, step_times = in_process(local, gold, local_calls)
            out.append(local_times)
            out.append(await hello_calls(floor, gold, calls))
            out.append(step_times)
            out.append(await hello_calls(lines, gold, calls))
    return out


async def hello_calls(client: Any, gold: list[dict], calls: int) -> list[float]:
    """The seconds of each of ``calls`` calls of a floor's ``hello``, with the gold's arguments."""
    times: list[float] = []
    for call in (gold * (calls // max(1, len(gold)) + 1))[:calls]:
        start = time.perf_counter()
        await client.call_tool("hello", call["arguments"])
        times.append(time.perf_counter() - start)
    return times


def serve_lines() -> None:
    """Answer each JSON-RPC request line at once with a fixed reply (no SDK in the server)."""
    tool = {"name": "hello", "inputSchema": {"type": "object", "additionalProperties": True}}
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if "id" not in message:
            continue  # a notification
        method = message.get("method")
        if method == "initialize":
            result: dict = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "lines", "version": "0"},
            }
        elif method == "tools/list":
            result = {"tools": [tool]}
        elif method == "tools/call":
            result = {"content": [{"type": "text", "text": "hello"}], "isError": False}
        else:
            result = {}
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        sys.stdout.buffer.write(json.dumps(reply).encode() + b"\n")
        sys.stdout.buffer.flush()


def serve_hello() -> None:
    """The SDK's low-level server with one tool answering a fixed text, on toolgym's streams."""
    import anyio
    import mcp_types as types
    from mcp.server import Server

    from toolgym.integrations.mcp_stdio import session_streams

    async def list_tools(ctx: object, params: object) -> types.ListToolsResult:
        schema = {"type": "object", "additionalProperties": True}
        return types.ListToolsResult(tools=[types.Tool(name="hello", input_schema=schema)])

    async def call_tool(ctx: object, params: object) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(type="text", text="hello")])

    server = Server("hello", on_list_tools=list_tools, on_call_tool=call_tool)

    async def main() -> None:
        async with session_streams(1 << 20) as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


def in_process(episode: ToolEpisode, gold: list[dict], calls: int) -> list[list[float]]:
    """The seconds of each of ``calls`` gold calls in this process, two ways, back to back.

    By ``ToolEpisode.call``, and by ``env.step`` of the same call as a JSON action on an env of
    its own; which of the two goes first alternates from call to call. Each call's arguments
    and each action's text are new objects, read from their JSON before the clock starts, as a
    client's are.
    """
    env = gym.make(ENV, action_mode="call")
    wire = [json.dumps({"name": c["name"], "arguments": c["arguments"]}) for c in gold]
    times: list[float] = []
    steps: list[float] = []
    while len(times) < calls:
        episode.reset(seed=0, task_id=TASK)
        env.reset(seed=0, options={"task_id": TASK})
        for text in wire:
            call = json.loads(text)
            action = json.dumps(call)
            first = len(times) % 2 == 0  # each goes first half the time (the second runs warmer)
            if not first:
                start = time.perf_counter()
                env.step(action)
                steps.append(time.perf_counter() - start)
            start = time.perf_counter()
            episode.call(call["name"], call["arguments"])
            times.append(time.perf_counter() - start)
            if first:
                start = time.perf_counter()
                env.step(action)
                steps.append(time.perf_counter() - start)
    env.close()
    return [times, steps]


def main() -> int:
    """Print the medians and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--local-calls", type=int, default=3000, help="in-process calls a round (each way)"
    )
    parser.add_argument("--serve-hello", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve-lines", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_hello:
        serve_hello()
        return 0
    if args.serve_lines:
        serve_lines()
        return 0
    rounds = asyncio.run(over_stdio(args.calls, args.rounds, args.local_calls))
    stdio, local, hello, step, bare = (
        statistics.median(t for r in rounds[k::5] for t in r) * 1e6 for k in range(5)
    )
    print(
        f"{ENV} {TASK}: a tool call over stdio {stdio:.0f} us, in process {local:.0f} us: "
        f"x{stdio / local:.1f}\n"
        f"the SDK's hello-world over the same stdio: {hello:.0f} us (x{hello / local:.1f} the "
        f"in-process call); toolgym's call costs {stdio - hello:.0f} us beyond it\n"
        f"the client's own floor (a bare line server, no SDK in it): {bare:.0f} us "
        f"(x{bare / local:.1f} the in-process call)\n"
        f"the in-process call against env.step of the same JSON call: {local:.0f} us vs "
        f"{step:.0f} us, x{local / step:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
