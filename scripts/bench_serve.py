"""``toolgym serve`` against a hello-world ASGI app on the same server: ``python scripts/bench_serve.py``.

Both servers run in processes of their own, one after the other, on free ports: ``toolgym serve
<service>`` and uvicorn serving an ASGI app that answers every request with a fixed 13-byte body
(uvicorn as ``toolgym serve`` runs it: the same HTTP parser, no access log). A client in this
process keeps ``C`` keep-alive connections busy for ``--seconds`` each, sending the same GET
(``--path``) over and over, and counts the answers. The runs alternate (serve, hello, serve,
hello, ...) ``--pairs`` times at each connection count, and the script prints the medians of
requests per second and their ratio (``toolgym serve`` over hello-world).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time

from bench_server_memory import wait_port  # this folder is on the path when run

HELLO = """
import uvicorn

async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/plain"), (b"content-length", b"13")]})
    await send({"type": "http.response.body", "body": b"Hello, world!"})

uvicorn.run(app, host="127.0.0.1", port=int(__import__("sys").argv[1]), log_level="warning",
            access_log=False, lifespan="off")
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _client(port: int, path: str, until: float, counts: list[int]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    try:
        while time.monotonic() < until:
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            counts[0] += 1
    finally:
        writer.close()


async def _load(port: int, path: str, connections: int, seconds: float) -> float:
    counts = [0]
    start = time.monotonic()
    until = start + seconds
    await asyncio.gather(*(_client(port, path, until, counts) for _ in range(connections)))
    return counts[0] / (time.monotonic() - start)


def _rate(command: list[str], port: int, path: str, connections: int, seconds: float) -> float:
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(port)
        asyncio.run(_load(port, path, 1, 0.5))  # warm up
        return asyncio.run(_load(port, path, connections, seconds))
    finally:
        server.terminate()
        server.wait(10)


def main() -> None:
    """Run the pairs and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--service", default="cat_api", help="toolgym serve's service (cat_api)")
    parser.add_argument(
        "--path",
        default="/v1/images/search?limit=1",
        help="the request (default: a Cat API image search)",
    )
    parser.add_argument("--connections", type=int, nargs="+", default=[1, 8, 64])
    parser.add_argument("--pairs", type=int, default=3, help="alternating pairs per count (3)")
    parser.add_argument("--seconds", type=float, default=3.0, help="per run (3)")
    args = parser.parse_args()
    toolgym = [sys.executable, "-m", "toolgym.cli", "serve", args.service, "--port"]
    hello = [sys.executable, "-c", HELLO]
    print(f"toolgym serve {args.service} {args.path} vs hello-world; {os.cpu_count()} cores")
    for connections in args.connections:
        ours, theirs = [], []
        for _ in range(args.pairs):
            port = _free_port()
            ours.append(_rate([*toolgym, str(port)], port, args.path, connections, args.seconds))
            port = _free_port()
            theirs.append(_rate([*hello, str(port)], port, "/", connections, args.seconds))
        a, b = statistics.median(ours), statistics.median(theirs)
        print(
            f"{connections:>3} connections: toolgym serve {a:,.0f} req/s, hello-world {b:,.0f} "
            f"req/s, ratio x{a / b:.2f}"
        )


if __name__ == "__main__":
    main()
