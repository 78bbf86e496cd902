"""Benchmark of the OpenEnv server (``toolgym serve-env``): ``python scripts/bench_openenv.py``.

The server runs as ``toolgym serve-env`` in a process of its own; the clients are OpenEnv's
async ``GenericEnvClient`` in this one. Three measurements, printed as they finish:

1. overhead: one client playing episodes step by step; per step, the time of a remote step minus
   the time of the same in-process ``ToolEpisode.call``, the two taken back to back (median and
   p90; the target is a median of 1 ms or less), and beside it a step of a hello-world env
   served the same way to the same client, the protocol's own cost;
2. concurrency: ``--sessions`` (512) WebSocket sessions at once, each playing the gold of a task of
   its own (task ``test-<k mod n>``, seed ``k``) to its end. Every session checks every answer
   against an in-process episode on the same task and seed (nothing mixed), that each step number
   comes once and in order (nothing lost or duplicated), and that its episode id and final state
   are its own; steps per second over the whole run, and the server's memory;
3. memory: ``--churn`` (10,000) sessions opened, reset, stepped once and closed, ``--workers`` at
   a time; the server's resident memory every 1,000 sessions, and its growth after the first
   1,000 (bounded: the sessions' envs are reused).

The run ends with status 1 if any check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import queue
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from openenv.core.generic_client import GenericEnvClient

from toolgym.integrations.episode import ToolEpisode

ENV = "toolbench/HomeSearch-v0"


@dataclass
class Trace:
    """One session's task and what an in-process episode answered to its gold calls."""

    seed: int
    task_id: str
    instruction: str
    calls: list[dict[str, Any]]
    answers: list[tuple[str, float, bool]] = field(default_factory=list)


def test_task_ids(episode: ToolEpisode) -> list[str]:
    """The env's test task ids (``test-000`` up to the first that does not exist)."""
    ids = []
    while True:
        task_id = f"test-{len(ids):03d}"
        try:
            episode.reset(seed=0, task_id=task_id)
        except ValueError:
            return ids
        ids.append(task_id)


def traces(env_id: str, n: int) -> list[Trace]:
    """``n`` sessions' tasks (distinct seeds) and their in-process answers."""
    episode = ToolEpisode(env_id)
    ids = test_task_ids(episode)
    out = []
    for k in range(n):
        start = episode.reset(seed=k, task_id=ids[k % len(ids)])
        calls = episode.oracle_calls()
        if not calls:
            raise SystemExit(f"{env_id} {start.task_id} has no gold as tool calls")
        trace = Trace(k, start.task_id, start.observation, calls)
        for call in calls:
            result = episode.call(call["name"], call["arguments"])
            trace.answers.append((result.observation, result.reward, result.done))
        out.append(trace)
    return out


def action(call: dict[str, Any]) -> dict[str, Any]:
    """The OpenEnv ``call_tool`` action of a tool call."""
    return {"type": "call_tool", "tool_name": call["name"], "arguments": call["arguments"]}


# -- the server ----------------------------------------------------------------------------------


class Server:
    """``toolgym serve-env`` in a child process (or, with ``hello``, the hello-world server)."""

    def __init__(self, env_id: str, max_sessions: int, hello: bool = False) -> None:
        command = [sys.executable, "-m", "toolgym.cli", "serve-env", env_id, "--port", "0"]
        command += ["--max-sessions", str(max_sessions)]
        if hello:
            command = [sys.executable, __file__, "--serve-hello"]
        self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        lines: queue.Queue[str] = queue.Queue()
        stdout = self.proc.stdout
        assert stdout is not None
        threading.Thread(target=lambda: [lines.put(x) for x in stdout], daemon=True).start()
        try:
            banner = lines.get(timeout=120)
        except queue.Empty:
            self.stop()
            raise SystemExit("the server did not start in 120 s") from None
        self.url = banner.split(" on ", 1)[1].split()[0]

    def rss_mb(self) -> float:
        """The server's resident memory, in MiB."""
        with open(f"/proc/{self.proc.pid}/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS in /proc")

    def sessions(self) -> dict[str, Any]:
        """The server's session pool counts (``GET /sessions``)."""
        with urllib.request.urlopen(self.url + "/sessions", timeout=10) as answer:
            return dict(json.load(answer))

    def stop(self) -> None:
        """Stop the server."""
        self.proc.terminate()
        self.proc.wait(timeout=30)


# -- 1. concurrency ------------------------------------------------------------------------------


async def play(
    url: str, trace: Trace, gate: asyncio.Event, connected: list[int], steps: list[int]
) -> list[str]:
    """One session: its episode, checked against its trace; the problems found."""
    problems = []
    where = f"session {trace.seed} ({trace.task_id})"
    client = GenericEnvClient(base_url=url, message_timeout_s=120)
    try:
        await client.connect()
        connected.append(1)
        await gate.wait()
        start = await client.reset(seed=trace.seed, task_id=trace.task_id)
        obs = start.observation
        if (obs.get("task_id"), obs.get("text")) != (trace.task_id, trace.instruction):
            problems.append(f"{where}: reset answered task {obs.get('task_id')}")
        for k, (call, expected) in enumerate(zip(trace.calls, trace.answers, strict=True), 1):
            result = await client.step(action(call))
            steps.append(1)
            got = (result.observation.get("text"), result.reward, result.done)
            if got != expected or result.observation.get("step") != k:
                problems.append(f"{where} step {k}: got {got!r:.120}, expected {expected!r:.120}")
                break
        state = await client.state()
        if (state.get("episode_id"), state.get("task_id")) != (
            obs.get("episode_id"),
            trace.task_id,
        ):
            problems.append(f"{where}: state {state!r:.200}")
        elif state.get("step_count") != len(trace.calls) or state.get("reward") != 1.0:
            problems.append(f"{where}: ended with {state!r:.200}")
        return problems
    finally:
        await client.close()


async def concurrency(server: Server, sessions: list[Trace]) -> tuple[dict[str, Any], list[str]]:
    """Every session at once (connected first, then started together); numbers and problems."""
    opened = server.sessions()["opened"]
    gate = asyncio.Event()
    steps: list[int] = []
    connected: list[int] = []
    tasks = [asyncio.create_task(play(server.url, t, gate, connected, steps)) for t in sessions]
    while len(connected) < len(tasks) and not any(t.done() for t in tasks):
        await asyncio.sleep(0.05)  # every session connected before any starts
    peak = [server.rss_mb()]

    async def sample() -> None:
        while True:
            peak[0] = max(peak[0], server.rss_mb())
            await asyncio.sleep(0.2)

    sampler = asyncio.create_task(sample())
    began = time.perf_counter()
    gate.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    wall = time.perf_counter() - began
    sampler.cancel()
    problems = []
    for trace, result in zip(sessions, results, strict=True):
        if isinstance(result, BaseException):
            problems.append(f"session {trace.seed}: {type(result).__name__}: {result}")
        else:
            problems += result
    after = server.sessions()
    if after["opened"] - opened != len(sessions):
        problems.append(
            f"the server opened {after['opened'] - opened} episodes for {len(sessions)}"
        )
    total = len(steps) + 2 * len(sessions)  # tool calls, resets and states
    numbers = {
        "sessions": len(sessions),
        "tool_calls": len(steps),
        "wall_s": wall,
        "steps_per_s": len(steps) / wall,
        "messages_per_s": total / wall,
        "episodes_per_s": len(sessions) / wall,
        "peak_rss_mb": peak[0],
    }
    return numbers, problems


# -- 2. overhead ---------------------------------------------------------------------------------


async def paired_times(
    url: str, env_id: str, plan: list[Trace], hello_url: str
) -> list[tuple[float, float, float]]:
    """Per step: the in-process call's time, the server's, and the hello-world server's.

    The three are taken back to back, step by step, so that all see the same load on the machine.
    """
    episode = ToolEpisode(env_id)
    client = GenericEnvClient(base_url=url)
    hello = GenericEnvClient(base_url=hello_url)
    await client.connect()
    await hello.connect()
    times = []
    try:
        await hello.reset()
        for trace in plan:
            episode.reset(seed=trace.seed, task_id=trace.task_id)
            await client.reset(seed=trace.seed, task_id=trace.task_id)
            for call in trace.calls:
                began = time.perf_counter()
                episode.call(call["name"], call["arguments"])
                middle = time.perf_counter()
                await client.step(action(call))
                remote = time.perf_counter()
                await hello.step(action(call))
                times.append((middle - began, remote - middle, time.perf_counter() - remote))
    finally:
        await client.close()
        await hello.close()
    return times


def serve_hello() -> None:
    """An OpenEnv server of an env answering every call with a fixed text: the protocol's floor.

    It is served as ``toolgym serve-env`` serves (OpenEnv's app, toolgym's HTTP front).
    """
    from openenv.core.env_server.http_server import create_fastapi_app
    from openenv.core.env_server.interfaces import Environment
    from openenv.core.env_server.mcp_types import CallToolAction, CallToolObservation
    from openenv.core.env_server.types import Observation, State

    from toolgym.integrations.openenv_server import ServerThread

    class Hello(Environment):
        SUPPORTS_CONCURRENT_SESSIONS = True

        def reset(self, seed: Any = None, episode_id: Any = None, **kwargs: Any) -> Any:
            return Observation(done=False, reward=None)

        async def reset_async(self, seed: Any = None, episode_id: Any = None, **kwargs: Any) -> Any:
            return self.reset()

        def step(self, action: Any, timeout_s: Any = None, **kwargs: Any) -> Any:
            result = {"content": [{"type": "text", "text": "hello"}], "is_error": False}
            return CallToolObservation(tool_name=action.tool_name, result=result, done=False)

        async def step_async(self, action: Any, timeout_s: Any = None, **kwargs: Any) -> Any:
            return self.step(action)

        @property
        def state(self) -> Any:
            return State()

    app = create_fastapi_app(Hello, CallToolAction, CallToolObservation)
    with ServerThread(app) as server:
        # OpenEnv's app closes each session's socket after its client left, and the server logs
        # the failed close with a traceback (toolgym's guard keeps it quiet; this bare floor
        # has none). Set once uvicorn has configured its loggers.
        logging.getLogger("uvicorn.error").setLevel(logging.CRITICAL)
        print(f"serving hello on {server.url}", flush=True)
        threading.Event().wait()


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def overhead(server: Server, env_id: str, plan: list[Trace]) -> dict[str, float]:
    """The per-step overhead of the server over in-process calls, after a warm-up."""
    hello = Server(env_id, 1, hello=True)
    try:
        await paired_times(server.url, env_id, plan[:20], hello.url)  # warm every side
        times = await paired_times(server.url, env_id, plan, hello.url)
    finally:
        hello.stop()
    local = [t for t, _, _ in times]
    remote = [t for _, t, _ in times]
    extra = [r - c for c, r, _ in times]
    return {
        "steps": len(extra),
        "remote_median_ms": 1e3 * statistics.median(remote),
        "hello_median_ms": 1e3 * statistics.median(t for _, _, t in times),
        "in_process_median_ms": 1e3 * statistics.median(local),
        "overhead_median_ms": 1e3 * statistics.median(extra),
        "overhead_p90_ms": 1e3 * quantile(extra, 0.9),
    }


# -- 3. memory -----------------------------------------------------------------------------------


async def churn(server: Server, plan: list[Trace], n: int, workers: int) -> dict[str, Any]:
    """``n`` short sessions, ``workers`` at a time; the server's RSS every 1,000 sessions."""
    done = 0
    samples = [(0, server.rss_mb())]
    failures: list[str] = []
    lock = asyncio.Lock()

    async def worker() -> None:
        nonlocal done
        while True:
            async with lock:
                if done >= n:
                    return
                k = done
                done += 1
            trace = plan[k % len(plan)]
            client = GenericEnvClient(base_url=server.url)
            try:
                await client.reset(seed=k, task_id=trace.task_id)
                result = await client.step(action(trace.calls[0]))
                if result.observation.get("step") != 1:
                    failures.append(f"session {k}: {result.observation!r:.200}")
            except Exception as e:  # counted and shown
                failures.append(f"session {k}: {type(e).__name__}: {e}")
            finally:
                await client.close()
            if (k + 1) % 1000 == 0:
                samples.append((k + 1, server.rss_mb()))

    began = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(workers)))
    wall = time.perf_counter() - began
    await asyncio.sleep(0.5)
    samples.append((n, server.rss_mb()))
    return {"samples": sorted(samples), "wall_s": wall, "failures": failures}


# -- the run -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run the three measurements and print them; 1 if a check failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default=ENV, help=f"the env to serve ({ENV})")
    parser.add_argument("--sessions", type=int, default=512, help="concurrent sessions (512)")
    parser.add_argument("--churn", type=int, default=10_000, help="sessions for memory (10000)")
    parser.add_argument("--workers", type=int, default=32, help="churn clients at once (32)")
    parser.add_argument("--overhead-tasks", type=int, default=200, help="episodes timed (200)")
    parser.add_argument("--serve-hello", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve_hello:
        serve_hello()
        return 0

    began = time.perf_counter()
    plan = traces(args.env, max(args.sessions, args.overhead_tasks))
    server = Server(args.env, max_sessions=args.sessions + args.workers + 16)
    failed = False
    try:
        print(
            f"{args.env} served by toolgym serve-env at {server.url}; clients: OpenEnv's "
            f"GenericEnvClient (async, WebSocket)",
            flush=True,
        )
        timing = asyncio.run(overhead(server, args.env, plan[: args.overhead_tasks]))
        print(
            f"[1] per-step overhead over in-process ToolEpisode.call ({timing['steps']} steps): "
            f"median {timing['overhead_median_ms']:.3f} ms, p90 {timing['overhead_p90_ms']:.3f} ms "
            f"(remote step median {timing['remote_median_ms']:.3f} ms, in-process "
            f"{timing['in_process_median_ms']:.3f} ms; target: median <= 1 ms "
            + ("met" if timing["overhead_median_ms"] <= 1.0 else "MISSED")
            + ")\n    the remote step is "
            f"x{timing['remote_median_ms'] / timing['in_process_median_ms']:.1f} the in-process "
            f"call; a hello-world env on OpenEnv's server and the same client: "
            f"{timing['hello_median_ms']:.3f} ms a step (the protocol's floor), so toolgym's "
            f"step costs {timing['remote_median_ms'] - timing['hello_median_ms']:.3f} ms beyond it",
            flush=True,
        )

        start_rss = server.rss_mb()
        numbers, problems = asyncio.run(concurrency(server, plan[: args.sessions]))
        print(
            f"[2] {numbers['sessions']} concurrent sessions, {numbers['tool_calls']} tool calls "
            f"in {numbers['wall_s']:.2f} s: {numbers['steps_per_s']:.0f} steps/s "
            f"({numbers['messages_per_s']:.0f} messages/s with resets and states, "
            f"{numbers['episodes_per_s']:.0f} episodes/s); server RSS {start_rss:.0f} MiB idle, "
            f"{numbers['peak_rss_mb']:.0f} MiB at most; every answer checked: "
            + ("OK" if not problems else f"{len(problems)} PROBLEMS"),
            flush=True,
        )
        for problem in problems[:10]:
            print("    " + problem)
        failed |= bool(problems)

        memory = asyncio.run(churn(server, plan, args.churn, args.workers))
        samples = memory["samples"]
        after_first = next((mb for k, mb in samples if k >= min(1000, args.churn)), samples[-1][1])
        peak = max(mb for _, mb in samples)
        growth = samples[-1][1] - after_first
        stats = server.sessions()
        print(
            f"[3] {args.churn} sessions opened and closed ({args.workers} at a time, "
            f"{args.churn / memory['wall_s']:.0f} sessions/s): server RSS "
            + ", ".join(f"{mb:.0f} MiB@{k}" for k, mb in samples)
            + f"; peak {peak:.0f} MiB, growth after the first 1000: {growth:+.1f} MiB; "
            f"envs made {stats['envs_made']}, open now {stats['open']}",
            flush=True,
        )
        for failure in memory["failures"][:10]:
            print("    " + failure)
        bounded = growth <= 16.0 and stats["open"] == 0
        print(f"    memory bounded: {'yes' if bounded else 'NO'}", flush=True)
        failed |= bool(memory["failures"]) or not bounded
    finally:
        server.stop()
    print(f"total {time.perf_counter() - began:.0f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
