"""``toolgym bench --serve``: ``toolgym serve`` under hostile clients, measured.

The server runs in a process of its own (``toolgym serve NAME``, by default the first family
with a service), as a user runs it; this one plays the clients:

1. **Stalled connections.** ``half_sent`` connections send a request head announcing a
   1,000-byte body and never send it; ``slowloris`` connections send a request line and then one
   header byte every half second. With all of them open, a normal client's request is timed
   (``normal_s``: the slowest of ten, each on a new connection; ``answered``: how many got an
   answer, whatever its status).
2. **Header floods.** On a fresh server, ``flood_clients`` clients at once each send
   ``flood_mb`` MB of header bytes; the server's peak resident memory (``VmHWM``) is read before
   and after (``flood_rss_growth_mb``), then a normal request is timed.

The server starts with a soft limit of 1,024 open files, as most shells give.
``--server-path DIR`` serves from another checkout's code (its ``toolgym`` on ``PYTHONPATH``), to
measure a change side by side with what came before it.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: k\r\n\r\n"
HALF_SENT = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: k\r\ncontent-length: 1000\r\n\r\n"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def _server(service: str, server_path: str | None) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    port = _free_port()
    env = dict(os.environ)
    where = None
    if server_path:  # run from there: ``-m`` puts the working folder first on the path
        where = str(Path(server_path).resolve())
        env["PYTHONPATH"] = where
    command = [sys.executable, "-m", "toolgym.cli", "serve", service, "--port", str(port)]
    proc = subprocess.Popen(
        command,
        env=env,
        cwd=where,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        preexec_fn=_default_file_limit,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # "serving ... on http://127.0.0.1:PORT/"
        if b"serving" not in line:
            raise RuntimeError(f"the server did not start: {line!r}")
        code = Path(f"/proc/{proc.pid}/cwd").resolve() if where else Path.cwd()
        print(f"server: pid {proc.pid}, code from {where or 'this installation'} ({code})")
        yield proc, port
    finally:
        proc.kill()
        proc.wait()


def _default_file_limit() -> None:
    """The server starts with the soft open-files limit most shells give (1,024)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(DEFAULT_OPEN_FILES, hard), hard))


DEFAULT_OPEN_FILES = 1024


def _memory_kb(pid: int, field: str) -> int:
    """A memory figure of ``pid`` from Linux's ``/proc`` (0 where there is none)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    match = re.search(rf"^{field}:\s+(\d+) kB", text, re.MULTILINE)
    return int(match.group(1)) if match else 0


def _request(port: int, timeout: float = 10.0) -> tuple[float, int]:
    """(seconds, status) of one request on a new connection; status 0 when none came."""
    start = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(REQUEST)
            data = b""
            while b"\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    except OSError:
        status = 0
    return time.perf_counter() - start, status


def _open(port: int, opening: bytes, count: int) -> tuple[list[socket.socket], int]:
    """``count`` connections that sent ``opening``; and how many could not be opened."""
    socks: list[socket.socket] = []
    failed = 0
    for _ in range(count):
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(opening)
            socks.append(sock)
        except OSError:
            failed += 1
    return socks, failed


def _trickle(socks: list[socket.socket], stop: threading.Event) -> None:
    while not stop.wait(0.5):
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.send(b"X")


def _flood(port: int, megabytes: int) -> None:
    chunk = b"X-Flood: " + b"a" * 65_000 + b"\r\n"
    with (
        contextlib.suppress(OSError),
        socket.create_connection(("127.0.0.1", port), timeout=10) as sock,
    ):
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for _ in range(megabytes * 1_000_000 // len(chunk)):
            sock.sendall(chunk)


def default_service() -> str:
    """The first family with an HTTP service (``toolgym serve`` takes its name)."""
    from toolgym.envs import families

    return next(spec.name for spec in families() if spec.service is not None)


def run(
    service: str | None = None,
    server_path: str | None = None,
    half_sent: int = 1100,
    slowloris: int = 300,
    flood_clients: int = 10,
    flood_mb: int = 20,
) -> dict[str, Any]:
    """Measure the server under stalled connections and header floods (see the module)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = half_sent + slowloris + 256
    if soft < wanted <= hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    out: dict[str, Any] = {"half_sent": half_sent, "slowloris": slowloris}
    service = service or default_service()
    out["service"] = service
    with _server(service, server_path) as (proc, port):
        out["baseline_s"] = statistics.median(_request(port)[0] for _ in range(10))
        stalled, failed_a = _open(port, HALF_SENT, half_sent)
        slow, failed_b = _open(port, b"GET / HTTP/1.1\r\n", slowloris)
        out["hostile_not_opened"] = failed_a + failed_b
        stop = threading.Event()
        trickler = threading.Thread(target=_trickle, args=(slow, stop), daemon=True)
        trickler.start()
        try:
            timed = [_request(port) for _ in range(10)]
        finally:
            stop.set()
            trickler.join()
            for sock in stalled + slow:
                sock.close()
        out["normal_s"] = max(t for t, _ in timed)
        out["normal_median_s"] = statistics.median(t for t, _ in timed)
        out["answered"] = sum(status > 0 for _, status in timed)
    with _server(service, server_path) as (proc, port):  # a fresh server: its peak is the flood's
        _request(port)
        before = _memory_kb(proc.pid, "VmHWM")
        threads = [
            threading.Thread(target=_flood, args=(port, flood_mb)) for _ in range(flood_clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        out["flood_clients"], out["flood_mb"] = flood_clients, flood_mb
        out["flood_rss_growth_mb"] = (_memory_kb(proc.pid, "VmHWM") - before) / 1024
        out["after_flood_s"], out["after_flood_status"] = _request(port)
    return out


def format_result(result: dict[str, Any]) -> str:
    """The measurements as a table, with the targets."""
    rows = [
        (
            f"normal request to {result['service']}, nothing else open (median)",
            f"{result['baseline_s'] * 1000:.1f} ms",
            "",
        ),
        (
            f"normal request with {result['half_sent']} half-sent and {result['slowloris']} "
            "slowloris connections open (slowest of 10)",
            f"{result['normal_s'] * 1000:.1f} ms (median {result['normal_median_s'] * 1000:.1f}),"
            f" {result['answered']}/10 answered",
            "within 1 s",
        ),
        ("hostile connections the client could not open", str(result["hostile_not_opened"]), ""),
        (
            f"server peak RSS growth, {result['flood_clients']} clients x {result['flood_mb']} MB "
            "of headers",
            f"{result['flood_rss_growth_mb']:.1f} MB",
            "at most 10 MB",
        ),
        (
            "normal request after the flood",
            f"{result['after_flood_s'] * 1000:.1f} ms, status {result['after_flood_status']}",
            "",
        ),
    ]
    width = max(len(r[0]) for r in rows)
    lines = [f"{'measure':<{width}}  {'value':<34}  target", "-" * (width + 46)]
    lines += [f"{a:<{width}}  {b:<34}  {c}" for a, b, c in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m toolgym.evaluation.serve_perf [--server-path DIR]``."""
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--service", help="the service to serve (default: the first one)")
    parser.add_argument("--server-path", help="serve from this checkout's code instead")
    parser.add_argument("--half-sent", type=int, default=1100)
    parser.add_argument("--slowloris", type=int, default=300)
    args = parser.parse_args(argv)
    result = run(args.service, args.server_path, args.half_sent, args.slowloris)
    print(format_result(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
