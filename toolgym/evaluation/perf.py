"""Performance benchmark: reset/step latency, oracle throughput, world memory, served requests.

Run ``toolgym bench`` (or ``python -m toolgym.evaluation.perf``). Every registered env is
measured the same way: the median latency of ``reset`` and of one oracle ``step`` (program mode,
test split), the oracle's throughput over the whole test split, the memory of one world (its
toolkit and a backend, built in a fresh process), and, for families with an HTTP service, the
requests per second of ``toolgym serve`` under 8 concurrent keep-alive clients; and the real
gazetteer's load time and memory in a fresh process (built into an empty cache, then loaded from
it); the sandbox's cold worker start and no-op round trip; and each family's typical action
(``EvalProfile.bench``: a five-call gspread program for Google Sheets, a 20-action household
program for VirtualHome), its run and its whole step. Targets on a 2-core machine: a Home Search
program step under 300 µs median, a 20-action VirtualHome program simulated under 2 ms, a
WebShop search under 5 ms at 100,000 products and a click step under 1 ms, the 100,000-product
shop built under 60 s and loaded from the cache under 3 s, OpenWeather reset and curl step under 300 µs, every test split with the
oracle under 1 s (Sheets programs run in the sandbox and are measured apart), the listing
database under 50 MB, the gazetteer loaded under 1 s and 150 MB resident, a sandbox no-op round
trip under 3 ms, a five-call Sheets program under 20 ms end to end, the server at least 2,000
requests/s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from typing import Any

import gymnasium as gym

from toolgym.agents import OracleAgent
from toolgym.envs import env_ids, families, standalone
from toolgym.envs.protocol import task_env
from toolgym.envs.spec import FamilySpec, load_ref
from toolgym.envs.tool_env import ToolEnv
from toolgym.evaluation.profile import profile_of
from toolgym.evaluation.report import format_table
from toolgym.evaluation.runner import evaluate
from toolgym.tools.curl import clear_parse_cache

_MEMORY_PROBE = """
import gc, resource, sys, tracemalloc
from toolgym.envs.spec import load_ref
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()
toolkit_class = load_ref(sys.argv[1])
gc.collect(); before = rss()
tracemalloc.start()
backend = toolkit_class(world_seed=0).new_backend()
backend.reset(None)
traced = tracemalloc.get_traced_memory()[0]
tracemalloc.stop()
gc.collect()
print(traced, rss() - before)
"""


_GAZETTEER_PROBE = """
import resource, time
t = time.perf_counter()
from toolgym.simulators.gazetteer import get_real_gazetteer
g = get_real_gazetteer()
g.search("kansas city"), g.by_zip("94957"), g.nearest_within(48.1, 11.6, 50)
wall = time.perf_counter() - t
with open("/proc/self/status") as f:
    rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(wall, rss / 1024, peak / 1024, len(g), g.zip_count)
"""


def gazetteer_load() -> dict[str, float]:
    """The real gazetteer in fresh processes: a first build into an empty cache, then a load.

    Returns seconds (import, build or load, first lookups), resident and peak MB of each, and
    the numbers of places and ZIP codes.
    """
    import os
    import tempfile

    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TOOLGYM_CACHE": cache}
        for phase in ("build", "load"):
            fields = subprocess.run(
                [sys.executable, "-c", _GAZETTEER_PROBE],
                capture_output=True,
                text=True,
                check=True,
                env=env,
            ).stdout.split()
            out[f"{phase}_s"], out[f"{phase}_rss_mb"], out[f"{phase}_peak_mb"] = map(
                float, fields[:3]
            )
            out["places"], out["zips"] = float(fields[3]), float(fields[4])
    return out


def sandbox_latency(repeat: int = 200) -> dict[str, float]:
    """Cold start of a sandbox, and the median round trip of a no-op program (ms).

    Each program runs in a process forked ahead of time; ``noop_ms`` is the round trip when that
    process is ready (programs 20 ms apart), ``back_to_back_ms`` when programs follow at once and
    wait for the fork.
    """
    from toolgym.tools.sandbox import Sandbox

    sandbox = Sandbox()
    try:
        start = time.perf_counter()
        sandbox.run("state = state", 0)
        cold = time.perf_counter() - start
        ready = []
        for _ in range(repeat // 4):
            time.sleep(0.02)
            ready.append(sandbox.run("state = state", 0).seconds)
        trips = [sandbox.run("state = state", 0).seconds for _ in range(repeat)]
        return {
            "cold_start_ms": cold * 1e3,
            "noop_ms": statistics.median(ready) * 1e3,
            "back_to_back_ms": statistics.median(trips) * 1e3,
        }
    finally:
        sandbox.close()


def action_latency(spec: FamilySpec, repeat: int = 60) -> dict[str, float]:
    """Medians (ms) of the family's typical action (``EvalProfile.bench``): its run, and a whole step.

    The run is the action executed from the task's start (for sandboxed programs: the round trip
    to the warm sandbox and back with the new state); the step adds what the environment does
    around it (reading the outcome, the observation, scoring). Each is timed with the program's
    process ready (actions 30 ms apart) and back to back.
    """
    bench = profile_of(spec).bench
    assert bench is not None, f"{spec.name} has no typical action (EvalProfile.bench)"
    env = gym.make(spec.env_id())
    base = task_env(env)
    assert isinstance(base, ToolEnv), f"{spec.env_id()} is not a ToolEnv"
    task = base.get_task(bench.task_id)
    backend = base.toolkit.new_backend()
    language = base.language
    run_code = getattr(backend, "run_code", None)  # sandboxed programs: the round trip alone

    def run() -> float:
        backend.reset(None, task.setup)
        t = time.perf_counter()
        if run_code is not None:
            error = run_code(bench.action).error
        else:
            error = language.run_program(bench.action, backend).error
        assert error is None, error
        return time.perf_counter() - t

    def step() -> float:
        env.reset(options={"task_id": task.task_id})
        t = time.perf_counter()
        env.step(bench.action)
        return time.perf_counter() - t

    out = {}
    for name, timed in (("run", run), ("step", step)):
        timed()  # warm-up
        back_to_back = [timed() for _ in range(repeat)]
        ready = []
        for _ in range(repeat // 2):
            time.sleep(0.03)
            ready.append(timed())
        out[f"{name}_ms"] = statistics.median(ready) * 1e3
        out[f"{name}_back_to_back_ms"] = statistics.median(back_to_back) * 1e3
    env.close()
    return out


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def bench_env(env_id: str, repeat: int) -> dict[str, Any]:
    """Latencies and oracle throughput of one env (program mode, test split).

    Envs whose actions run in the sandbox take a tenth of the samples (at least 50).
    """
    env = gym.make(env_id)
    unwrapped = task_env(env)
    if unwrapped.hints.action_language == "python":
        repeat = max(50, repeat // 10)
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
        clear_parse_cache()  # time the action as an agent's new one, not a gold's
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


def world_memory(spec: FamilySpec) -> tuple[float, float]:
    """(MB allocated, MB of resident memory added) building one world of ``spec`` afresh."""
    out = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, spec.toolkit],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return int(out[0]) / 1e6, int(out[1]) / 1e6


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_throughput(
    spec: FamilySpec, clients: int = 8, requests_per_client: int = 500
) -> tuple[float, float]:
    """(requests/s, median ms) of ``toolgym serve`` under ``clients`` concurrent keep-alive clients.

    The server runs in its own process; each client thread keeps one HTTP/1.1 connection open and
    sends distinct requests (the family toolkit's ``sample_requests``), so the service's caches
    do not answer them all.
    """
    import http.client
    import threading

    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "toolgym.cli", "serve", spec.name, "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        assert server.stdout is not None
        server.stdout.readline()  # "serving ... on http://..." once listening
        requests = load_ref(spec.toolkit)().sample_requests(clients * requests_per_client)
        latencies: list[float] = []
        lock = threading.Lock()
        errors: list[str] = []

        def client(k: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            mine = []
            for j in range(requests_per_client):
                t = time.perf_counter()
                path, headers = requests[k * requests_per_client + j]
                conn.request("GET", path, headers=headers)
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
    rows = [bench_env(env_id, args.repeat) for env_id in standalone(env_ids())]
    print(
        format_table(
            rows, ["env", "tasks", "reset_us", "step_us", "oracle_eps_per_s", "test_split_s"]
        )
    )
    total = sum(r["test_split_s"] for r in rows)
    print(f"\nall test splits with the oracle: {total:.3f} s")
    print("(step_us: one whole action in program mode: a program with its search, or a request)")
    g = gazetteer_load()
    print(
        f"real gazetteer ({g['places']:,.0f} places, {g['zips']:,.0f} ZIP codes), fresh process: "
        f"load {g['load_s']:.2f} s, {g['load_rss_mb']:.0f} MB resident; first build into an "
        f"empty cache {g['build_s']:.2f} s, peak {g['build_peak_mb']:.0f} MB"
    )
    box = sandbox_latency()
    print(
        f"sandbox: cold start {box['cold_start_ms']:.0f} ms, no-op round trip "
        f"{box['noop_ms']:.2f} ms with its process ready, {box['back_to_back_ms']:.2f} ms back "
        "to back (medians)"
    )
    for spec in families():
        profile = profile_of(spec)
        if profile.bench is not None:
            timing = action_latency(spec)
            sandboxed = task_env(gym.make(spec.env_id())).hints.action_language == "python"
            run = "run (sandbox round trip)" if sandboxed else "run (executed)"
            print(
                f"{spec.title}, {profile.bench.label}: {run} "
                f"{timing['run_ms']:.2f} ms, whole step (outcome read and scored) "
                f"{timing['step_ms']:.2f} ms with the program's process ready; "
                f"{timing['run_back_to_back_ms']:.2f} and {timing['step_back_to_back_ms']:.2f} ms "
                "back to back (medians)"
            )
    for spec in families():
        profile = profile_of(spec)
        if profile.measures is not None:
            for line in load_ref(profile.measures)():
                print(line)
    for spec in families():
        traced, rss = world_memory(spec)
        print(f"{spec.title} world: {traced:.1f} MB allocated, {rss:.1f} MB resident added")
    for spec in families():
        if spec.service is None:
            continue
        if not hasattr(load_ref(spec.toolkit), "sample_requests"):
            print(f"toolgym serve {spec.name}: not measured (its toolkit has no sample requests)")
            continue
        rate, median_ms = server_throughput(spec)
        print(
            f"toolgym serve {spec.name}: {rate:,.0f} requests/s with 8 concurrent keep-alive "
            f"clients (median latency {median_ms:.2f} ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
