"""Performance benchmark: reset/step latency, oracle throughput, listing-database memory.

Run ``toolgym bench`` (or ``python -m toolgym.benchmarks.perf``). Targets on a 2-core machine:
Home Search step of a full program (with the search over the listings) under 300 µs median,
reset under 100 µs, both test splits with the oracle under 1 s, the listing database under 50 MB;
a curl step (OpenWeather, Cat API) under 300 µs median; the localhost server at least 2,000
requests/s under a concurrent client.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from typing import Any

import gymnasium as gym

import toolgym  # noqa: F401 - registers the envs
from toolgym.agents import OracleAgent
from toolgym.benchmarks.report import format_table
from toolgym.benchmarks.runner import evaluate
from toolgym.envs import env_ids

_MEMORY_PROBE = """
import gc, resource, tracemalloc
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()
from toolgym.simulators.listings import ListingDatabase
gc.collect(); before = rss()
tracemalloc.start()
db = ListingDatabase(0)
traced = tracemalloc.get_traced_memory()[0]
tracemalloc.stop()
gc.collect()
print(len(db), traced, rss() - before)
"""


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def bench_env(env_id: str, repeat: int) -> dict[str, Any]:
    """Latencies and oracle throughput of one env (program mode, test split)."""
    env = gym.make(env_id)
    unwrapped: Any = env.unwrapped
    ids = list(unwrapped.task_ids)
    env.reset(seed=0)  # warm-up: gold programs are executed and cached on first use
    resets = []
    for _ in range(repeat):
        t = time.perf_counter()
        env.reset()
        resets.append(time.perf_counter() - t)
    steps = []
    for i in range(repeat):
        env.reset(options={"task_id": ids[i % len(ids)]})
        program = unwrapped.oracle_actions()[0]
        t = time.perf_counter()
        env.step(program)
        steps.append(time.perf_counter() - t)
    env.close()
    start = time.perf_counter()
    result = evaluate(env_id, lambda e: OracleAgent(e), progress=False)
    wall = time.perf_counter() - start
    assert result.summary["success"] == 1.0, f"the oracle failed on {env_id}"
    return {
        "env": env_id,
        "reset_us": _median_us(resets),
        "step_us": _median_us(steps),
        "oracle_eps_per_s": len(result.records) / wall,
        "test_split_s": wall,
        "tasks": len(result.records),
    }


def listing_memory() -> tuple[int, float, float]:
    """(listings, MB allocated while building, MB of resident memory added) in a fresh process."""
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[0]), int(out[1]) / 1e6, int(out[2]) / 1e6


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_throughput(
    service: str = "openweather", clients: int = 8, requests_per_client: int = 500
) -> tuple[float, float]:
    """(requests/s, median ms) of ``toolgym serve`` under ``clients`` concurrent keep-alive clients.

    The server runs in its own process; each client thread keeps one HTTP/1.1 connection open.
    """
    import http.client
    import threading

    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "toolgym.cli", "serve", service, "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        assert server.stdout is not None
        server.stdout.readline()  # "serving ... on http://..." once listening
        # Distinct requests, so the server's caches do not answer them all.
        if service == "openweather":
            paths = [
                f"/data/2.5/weather?lat={(i * 7.3) % 170 - 85:.1f}&lon={(i * 13.7) % 350 - 175:.1f}"
                f"&appid=bench&units={('standard', 'metric', 'imperial')[i % 3]}"
                for i in range(clients * requests_per_client)
            ]
        else:
            orders = ("ASC", "DESC", "RANDOM")
            paths = [
                f"/v1/images/search?limit={1 + i % 10}&order={orders[i % 3]}&page={i % 7}"
                for i in range(clients * requests_per_client)
            ]
        latencies: list[float] = []
        lock = threading.Lock()
        errors: list[str] = []

        def client(k: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            mine = []
            for j in range(requests_per_client):
                t = time.perf_counter()
                conn.request(
                    "GET", paths[k * requests_per_client + j], headers={"x-api-key": "bench"}
                )
                reply = conn.getresponse()
                reply.read()
                mine.append(time.perf_counter() - t)
                if reply.status != 200:
                    errors.append(str(reply.status))
            conn.close()
            with lock:
                latencies.extend(mine)

        threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - start
        if errors:
            raise RuntimeError(f"the server answered errors: {errors[:3]}")
        return len(latencies) / wall, statistics.median(latencies) * 1e3
    finally:
        server.terminate()
        server.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    """Print the benchmark table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=2000, help="samples per latency median")
    args = parser.parse_args(argv)
    rows = [bench_env(env_id, args.repeat) for env_id in env_ids()]
    print(
        format_table(
            rows, ["env", "tasks", "reset_us", "step_us", "oracle_eps_per_s", "test_split_s"]
        )
    )
    total = sum(r["test_split_s"] for r in rows)
    print(f"\nall test splits with the oracle: {total:.3f} s")
    print(
        "(step_us: Home Search/Trip Booking = a whole program with its search; REST = one curl request)"
    )
    n, traced, rss = listing_memory()
    print(f"listing database: {n} listings, {traced:.1f} MB allocated, {rss:.1f} MB resident added")
    for service in ("openweather", "catapi"):
        rate, median_ms = server_throughput(service)
        print(
            f"toolgym serve {service}: {rate:,.0f} requests/s with 8 concurrent keep-alive "
            f"clients (median latency {median_ms:.2f} ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
