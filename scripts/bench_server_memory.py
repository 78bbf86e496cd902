"""Memory returned after hostile traffic: ``python scripts/bench_server_memory.py``.

Each protocol server (``toolgym mcp --transport http`` and ``toolgym serve-env``) runs in a
process of its own with a short idle timeout. Its resident memory (``VmRSS``) is read after one
warm-up session, then the server takes:

1. a header flood: ``--flood`` (10) connections, each sending up to 20 MB of a head that never
   ends (the front answers 431 past 64 KiB);
2. churn: ``--churn`` (1,500) sessions opened, reset and abandoned without a word (MCP: a
   stateful session over HTTP; OpenEnv: a WebSocket), ``--workers`` at a time.

Once the traffic stops and the idle timeout has reclaimed the sessions (memory is read 10 s
after the idle timeout: the reapers' intervals, openenv-core's 5 s among them), memory is read
again; the target is that it comes back within 20% of its level before. The servers run as
their commands start them (``--allocator system`` by default); set ``PYTHONMALLOC=pymalloc``
for CPython's own allocator. Further churn rounds
(``--rounds``) show whether what is kept grows or is reused. Prints one line per server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import subprocess
import sys
import time
from typing import Any

ENV = "toolbench/HomeSearch-v0"


def rss_mb(pid: int) -> float:
    """The resident memory of process ``pid``, in MB."""
    with open(f"/proc/{pid}/status") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return kb / 1024


def wait_port(port: int, timeout: float = 60.0) -> None:
    """Wait until something listens on ``port``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.2)
    raise TimeoutError(f"nothing listens on {port}")


def flood(port: int, connections: int, megabytes: int = 20) -> None:
    """Send heads that never end until the server closes each connection."""
    chunk = b"X-Flood: " + b"a" * (1 << 16) + b"\r\n"
    for _ in range(connections):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            sent = 0
            with contextlib.suppress(OSError):
                while sent < megabytes << 20:
                    sock.sendall(chunk)
                    sent += len(chunk)


async def mcp_session(port: int) -> None:
    """Open a stateful MCP session, reset it, and leave without closing it."""
    from bench_mcp import Session  # this folder's MCP benchmark: its hand-spoken session

    session = Session(port)
    await session.open()
    await session.call("reset", {"task_id": "test-000"})
    if session.streams is not None:
        session.streams[1].close()  # gone without a DELETE


async def openenv_session(port: int) -> None:
    """Open a WebSocket session, reset it, and drop the connection."""
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "reset", "data": {"task_id": "test-000"}}))
        await ws.recv()
        ws.transport.abort()  # no close handshake: the client vanishes


async def churn(one: Any, port: int, count: int, workers: int) -> int:
    """``count`` sessions of ``one``, ``workers`` at a time; how many failed."""
    left = list(range(count))
    failed = 0

    async def worker() -> None:
        nonlocal failed
        while left:
            left.pop()
            try:
                await one(port)
            except Exception:
                failed += 1

    await asyncio.gather(*(worker() for _ in range(workers)))
    return failed


def measure(name: str, command: list[str], port: int, one: Any, args: argparse.Namespace) -> str:
    """One server's memory before the traffic, under it and after it, as a line."""
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port)
        asyncio.run(churn(one, port, 1, 1))  # warm-up: one session, everything imported
        time.sleep(args.idle + 3)
        before = rss_mb(server.pid)
        flood(port, args.flood)
        flooded = rss_mb(server.pid)
        failed = asyncio.run(churn(one, port, args.churn, args.workers))
        churned = rss_mb(server.pid)
        time.sleep(args.idle + 10)  # reclaimed: the idle timeout, the reapers' intervals
        after = rss_mb(server.pid)
        again = []  # more rounds: memory kept at the first round's level is reused, not grown
        for _ in range(args.rounds - 1):
            failed += asyncio.run(churn(one, port, args.churn, args.workers))
            time.sleep(args.idle + 10)
            again.append(f"{rss_mb(server.pid):.0f}")
        return (
            f"{name}: RSS before {before:.0f} MB, after the flood {flooded:.0f} MB, after "
            f"{args.churn} abandoned sessions {churned:.0f} MB ({failed} failed), once they were "
            f"reclaimed {after:.0f} MB: x{after / before:.2f} of before "
            f"({'within' if after <= 1.2 * before else 'NOT within'} 20%)"
            + (f"; after each further round: {', '.join(again)} MB" if again else "")
        )
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(10)
        server.kill()


def main() -> int:
    """Measure each server; print a line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--churn", type=int, default=1500)
    parser.add_argument("--flood", type=int, default=10)
    parser.add_argument("--workers", type=int, default=32)
    parser.add_argument("--idle", type=int, default=2, help="the servers' idle timeout, seconds")
    parser.add_argument("--only", choices=["mcp", "serve-env"])
    parser.add_argument(
        "--rounds", type=int, default=2, help="churn rounds (memory kept is reused: 2)"
    )
    args = parser.parse_args()
    toolgym = [sys.executable, "-m", "toolgym.cli"]
    common = ["--max-sessions", str(args.churn + 64), "--idle-timeout", str(args.idle)]
    servers = {
        "mcp": (
            [*toolgym, "mcp", ENV, "--transport", "http", "--port", "8791", *common],
            8791,
            mcp_session,
        ),
        "serve-env": (
            [*toolgym, "serve-env", ENV, "--port", "8792", *common],
            8792,
            openenv_session,
        ),
    }
    for name, (command, port, one) in servers.items():
        if args.only in (None, name):
            print(measure(name, command, port, one, args), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
