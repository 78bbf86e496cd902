"""Benchmark of the MCP server (``toolgym mcp --transport http``): ``python scripts/bench_mcp.py``.

The server runs as ``toolgym mcp ENV --transport http`` in a process of its own (JSON responses,
its default; ``--sse`` for SSE streams). The clients live in this process and speak streamable
HTTP by hand, one keep-alive connection per session (a general HTTP client spends more CPU on
hundreds of concurrent sessions than the server does); ``--sdk-sessions`` more play through the
MCP SDK's own ``Client``. Measurements, printed as they finish:

1. latency: one session alone, tool calls one after another (median and p90);
2. memory: ``--churn`` (10,000) sessions opened (initialize), reset and closed (DELETE),
   ``--workers`` at a time, on the fresh server; its resident memory every 1,000 sessions and
   its growth after the first 1,000 (bounded: closed sessions' envs are reused and the SDK's
   record of them dropped);
3. concurrency: ``--sessions`` (512) sessions open at once, each playing the gold of a task of
   its own (the task seed ``k`` draws, seed ``k``) to its end. Every session checks every answer
   against an in-process episode on the same task and seed (nothing mixed) and its reward (1.0);
   tool calls per second over the play, per-call latency (median, p90) under that load, and the
   server's memory;
4. SDK clients: ``--sdk-sessions`` (16) ``mcp.Client`` sessions at once, playing their gold.

The run ends with status 1 if any check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

from toolgym.integrations.episode import ToolEpisode

ENV = "toolbench/HomeSearch-v0"
VERSION = "2025-11-25"
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@dataclass
class Trace:
    """One session's plan: its seed, task, gold calls and the answers they must get."""

    seed: int
    task_id: str
    calls: list[dict[str, Any]]
    observations: list[str]
    reward: float


def traces(env_id: str, n: int) -> list[Trace]:
    """``n`` plans, seed ``k`` drawing the task of the ``k``-th, played in process."""
    episode = ToolEpisode(env_id)
    out = []
    for seed in range(n):
        start = episode.reset(seed=seed)
        calls = episode.oracle_calls()
        if not calls:
            raise SystemExit(f"{env_id} task {start.task_id} has no gold tool calls to play")
        results = [episode.call(c["name"], c["arguments"]) for c in calls]
        out.append(
            Trace(seed, start.task_id, calls, [r.observation for r in results], results[-1].reward)
        )
    episode.close()
    return out


class Server:
    """``toolgym mcp ENV --transport http`` in a process of its own."""

    def __init__(self, env_id: str, max_sessions: int, sse: bool) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        command = [sys.executable, "-m", "toolgym.cli", "mcp", env_id, "--transport", "http"]
        command += ["--port", str(self.port), "--max-sessions", str(max_sessions)]
        command += ["--idle-timeout", "300"] + (["--sse"] if sse else [])
        self.process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)

    def rss_mb(self) -> float:
        """The server's resident memory, in MiB."""
        with open(f"/proc/{self.process.pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        """End the server."""
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Session:
    """One MCP session spoken by hand on its own keep-alive HTTP/1.1 connection."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.headers = dict(HEADERS)
        self.next_id = 0
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def exchange(self, method: str, payload: Any = None) -> tuple[int, dict[str, str], Any]:
        """One HTTP request; returns the status, the headers and the JSON-RPC message."""
        body = b"" if payload is None else json.dumps(payload).encode()
        fields = {**self.headers, "host": f"127.0.0.1:{self.port}", "content-length": len(body)}
        head = f"{method} /mcp HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items())
        for attempt in range(2):
            fresh = self.streams is None
            if self.streams is None:
                self.streams = await asyncio.open_connection("127.0.0.1", self.port)
            reader, writer = self.streams
            try:
                writer.write(head.encode() + b"\r\n" + body)
                await writer.drain()
                raw = await reader.readuntil(b"\r\n\r\n")
                break
            except (asyncio.IncompleteReadError, ConnectionError):
                writer.close()
                self.streams = None
                if fresh or attempt:  # the server closed an idle keep-alive connection: again
                    raise
        lines = raw.decode("latin-1").split("\r\n")
        got = {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:] if x)}
        if "content-length" in got:
            content = await reader.readexactly(int(got["content-length"]))
        else:  # chunked (an SSE stream)
            content = b""
            while size := int((await reader.readline()).strip(), 16):
                content += await reader.readexactly(size)
                await reader.readexactly(2)
            await reader.readline()
        text = content.decode()
        if got.get("content-type", "").startswith("text/event-stream"):
            data = [line[5:] for line in text.splitlines() if line.startswith("data:")]
            text = data[-1] if data else ""
        return int(lines[0].split()[1]), got, json.loads(text) if text else None

    async def open(self) -> None:
        """Initialize the session."""
        status, got, _ = await self.exchange(
            "POST",
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "bench", "version": "0"},
                },
            },
        )
        if status != 200:
            raise RuntimeError(f"initialize: HTTP {status}")
        self.headers["mcp-session-id"] = got["mcp-session-id"]
        self.headers["mcp-protocol-version"] = VERSION

    async def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """A tool call's result (``structuredContent``, ``isError``, ...)."""
        self.next_id += 1
        payload = {
            "jsonrpc": "2.0",
            "id": self.next_id,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }
        _, _, reply = await self.exchange("POST", payload)
        if reply.get("id") != self.next_id or "result" not in reply:
            raise RuntimeError(f"tools/call {name}: {reply}")
        return dict(reply["result"])

    async def close(self) -> None:
        """End the session (DELETE)."""
        await self.exchange("DELETE")
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def play(session: Session, trace: Trace, latencies: list[float]) -> list[str]:
    """Play a trace's gold in a session; the problems found (none when all is well)."""
    start = await session.call("reset", {"seed": trace.seed, "task_id": trace.task_id})
    if start["structuredContent"]["task_id"] != trace.task_id:
        return [f"seed {trace.seed}: reset started {start['structuredContent']['task_id']}"]
    problems = []
    for k, (call, expected) in enumerate(zip(trace.calls, trace.observations, strict=True)):
        began = time.perf_counter()
        result = await session.call(call["name"], call["arguments"])
        latencies.append(time.perf_counter() - began)
        if result["structuredContent"]["observation"] != expected:
            problems.append(f"seed {trace.seed} call {k}: another answer than in process")
    reward = result["structuredContent"]["reward"]
    if reward != trace.reward:
        problems.append(f"seed {trace.seed}: reward {reward}, in process {trace.reward}")
    return problems


async def alone(server: Server, plan: list[Trace], calls: int) -> dict[str, float]:
    """Per-call latency of one session by itself."""
    session = Session(server.port)
    await session.open()
    latencies: list[float] = []
    while len(latencies) < calls:
        await play(session, plan[len(latencies) % len(plan)], latencies)
    await session.close()
    return {"median": quantile(latencies, 0.5), "p90": quantile(latencies, 0.9)}


async def concurrency(server: Server, plan: list[Trace]) -> dict[str, Any]:
    """All sessions open at once, then all playing their own task."""
    sessions = [Session(server.port) for _ in plan]
    await asyncio.gather(*(s.open() for s in sessions))
    opened_rss = server.rss_mb()
    latencies: list[float] = []
    began = time.perf_counter()
    found = await asyncio.gather(
        *(play(s, t, latencies) for s, t in zip(sessions, plan, strict=True))
    )
    wall = time.perf_counter() - began
    rss = server.rss_mb()
    await asyncio.gather(*(s.close() for s in sessions))
    calls = len(latencies) + len(plan)  # the task tools' calls and the resets
    return {
        "calls": calls,
        "wall": wall,
        "calls_per_s": calls / wall,
        "median": quantile(latencies, 0.5),
        "p90": quantile(latencies, 0.9),
        "rss_open": opened_rss,
        "rss_play": rss,
        "problems": [p for ps in found for p in ps],
    }


async def sdk_clients(server: Server, plan: list[Trace]) -> dict[str, Any]:
    """``len(plan)`` MCP SDK clients at once, each playing its task's gold."""
    from mcp import Client

    latencies: list[float] = []
    problems: list[str] = []

    async def one(trace: Trace) -> None:
        async with Client(server.url) as client:
            await client.call_tool("reset", {"seed": trace.seed, "task_id": trace.task_id})
            for call, expected in zip(trace.calls, trace.observations, strict=True):
                began = time.perf_counter()
                result = await client.call_tool(call["name"], call["arguments"])
                latencies.append(time.perf_counter() - began)
                data = result.structured_content or {}
                if data.get("observation") != expected:
                    problems.append(f"SDK seed {trace.seed}: another answer than in process")
            if data.get("reward") != trace.reward:
                problems.append(f"SDK seed {trace.seed}: reward {data.get('reward')}")

    began = time.perf_counter()
    await asyncio.gather(*(one(t) for t in plan))
    wall = time.perf_counter() - began
    return {
        "wall": wall,
        "calls_per_s": len(latencies) / wall,
        "median": quantile(latencies, 0.5),
        "p90": quantile(latencies, 0.9),
        "problems": problems,
    }


async def churn(server: Server, plan: list[Trace], n: int, workers: int) -> list[tuple[int, float]]:
    """``n`` sessions opened, reset and closed; the server's memory every 1,000."""
    started = finished = 0
    samples = [(0, server.rss_mb())]

    async def worker() -> None:
        nonlocal started, finished
        while started < n:
            started += 1
            trace = plan[started % len(plan)]
            session = Session(server.port)
            await session.open()
            await session.call("reset", {"seed": trace.seed, "task_id": trace.task_id})
            await session.close()
            finished += 1
            if finished % 1000 == 0:
                samples.append((finished, server.rss_mb()))

    await asyncio.gather(*(worker() for _ in range(workers)))
    return samples


def main(argv: list[str] | None = None) -> int:
    """Run the measurements and print them; 1 if a check failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default=ENV, help=f"the env to serve ({ENV})")
    parser.add_argument("--sessions", type=int, default=512, help="concurrent sessions (512)")
    parser.add_argument("--sdk-sessions", type=int, default=16, help="SDK clients at once (16)")
    parser.add_argument("--churn", type=int, default=10_000, help="sessions opened and closed")
    parser.add_argument("--workers", type=int, default=32, help="churn sessions at a time (32)")
    parser.add_argument("--sse", action="store_true", help="SSE responses instead of JSON")
    args = parser.parse_args(argv)

    began = time.perf_counter()
    plan = traces(args.env, args.sessions)
    server = Server(args.env, max(args.sessions, args.workers) + 8, args.sse)
    failures: list[str] = []
    try:
        print(
            f"{args.env} over streamable HTTP ({'SSE' if args.sse else 'JSON'} responses), "
            f"server pid {server.process.pid}, {server.rss_mb():.0f} MiB at start",
            flush=True,
        )
        lone = asyncio.run(alone(server, plan, 200))
        print(
            f"1. one session alone: per call median {1000 * lone['median']:.1f} ms, "
            f"p90 {1000 * lone['p90']:.1f} ms",
            flush=True,
        )
        if args.churn:
            start = time.perf_counter()
            samples = asyncio.run(churn(server, plan, args.churn, args.workers))
            took = time.perf_counter() - start
            table = ", ".join(f"{k}: {mb:.0f}" for k, mb in samples)
            print(
                f"2. {args.churn} sessions opened, reset and closed in {took:.0f} s "
                f"({args.churn / took:.0f}/s); server RSS MiB by sessions: {table}",
                flush=True,
            )
            after_first = [mb for k, mb in samples if k >= 1000]
            growth = after_first[-1] - after_first[0] if after_first else 0.0
            bounded = growth < 20
            print(
                f"   growth after the first 1,000: {growth:+.1f} MiB; memory bounded: "
                f"{'yes' if bounded else 'NO'}",
                flush=True,
            )
            if not bounded:
                failures.append(f"memory grew {growth:.1f} MiB over {args.churn} sessions")
        load = asyncio.run(concurrency(server, plan))
        print(
            f"3. {args.sessions} concurrent sessions: {load['calls']} tool calls in "
            f"{load['wall']:.1f} s = {load['calls_per_s']:.0f} calls/s; per call median "
            f"{1000 * load['median']:.0f} ms, p90 {1000 * load['p90']:.0f} ms; server RSS "
            f"{load['rss_open']:.0f} MiB open, {load['rss_play']:.0f} MiB playing; "
            f"mixed or wrong answers: {len(load['problems'])}",
            flush=True,
        )
        failures += load["problems"]
        if args.sdk_sessions:
            sdk = asyncio.run(sdk_clients(server, plan[: args.sdk_sessions]))
            print(
                f"4. {args.sdk_sessions} MCP SDK clients at once: {sdk['calls_per_s']:.0f} "
                f"calls/s; per call median {1000 * sdk['median']:.0f} ms, p90 "
                f"{1000 * sdk['p90']:.0f} ms; wrong answers: {len(sdk['problems'])}",
                flush=True,
            )
            failures += sdk["problems"]
    finally:
        server.stop()
    for failure in failures[:20]:
        print("   " + failure)
    print(
        f"total {time.perf_counter() - began:.0f} s; "
        f"{'all checks passed' if not failures else f'{len(failures)} checks FAILED'}",
        flush=True,
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
