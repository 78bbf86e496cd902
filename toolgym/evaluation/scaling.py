"""Suite throughput with the oracle agent: sequential, vector envs and Ray, at 1, 2 and 4 workers.

``python -m toolgym.evaluation.scaling`` plays the first ``--limit`` tasks of the test split of
every family's newest env (or ``--envs``) with the oracle agent, in each mode:

* ``sequential``: one env after the other in one process (the baseline, 1 worker);
* ``async``: an :class:`~gymnasium.vector.AsyncVectorEnv` of N sub-env processes per env, played
  by :func:`~toolgym.evaluation.vector_runner.run_vector`;
* ``ray``: N Ray workers per env, through
  :func:`~toolgym.evaluation.runner.evaluate` (``backend="ray"``) where it has that option, else
  :func:`toolgym.evaluation.distributed.play_on_ray`.

Each mode and N runs in a fresh process, so no cache (golds, sandboxes, toolkits) carries over
from one measurement to the next; a thread samples the memory of that process and its children.
It reports, per mode and N: episodes, wall seconds (making the envs included; Ray's start
excluded and shown apart), episodes per second, the episodes per second of the playing alone
(where the mode separates it), the peak memory, and the scaling efficiency (throughput at N over
N times the throughput at 1, of the same mode and of the sequential baseline). The sequential run
also measures what a distributed run's driver and workers pay: each env's construction, the size
of a record, and the appends per second of a results file.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import platform
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym

from toolgym.agents import make_agent
from toolgym.envs import latest_env_ids, standalone
from toolgym.envs.protocol import task_env
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.report import format_table
from toolgym.evaluation.results import ResultsFile
from toolgym.evaluation.runner import evaluate, run_episode
from toolgym.evaluation.vector_runner import run_vector, sub_envs, vector_env

MODES = ("sequential", "async", "ray")
DEFAULT_LIMIT = 8
"""Tasks per env by default: the whole benchmark takes a few minutes on 2 cores."""
APPENDS = 2000
"""Records appended to a results file to measure its throughput."""
COLUMNS = [
    "mode",
    "workers",
    "episodes",
    "wall_s",
    "make_s",
    "episodes_per_s",
    "play_per_s",
    "peak_mb",
    "efficiency",
    "vs_sequential",
]


def _ray_path() -> tuple[str | None, str]:
    """How Ray is driven here (``evaluate``, ``play_on_ray`` or ``None``), and why not if not."""
    import inspect

    try:
        import ray  # noqa: F401
    except ImportError:
        return None, "Ray is not installed (pip install 'toolgym[ray]')"
    names = inspect.signature(evaluate).parameters
    if "backend" in names and "workers" in names:
        return "evaluate", "evaluate(backend='ray', workers=N)"
    try:
        from toolgym.evaluation import distributed
    except ImportError:
        return None, "this toolgym has neither evaluate(backend='ray') nor play_on_ray"
    if hasattr(distributed, "play_on_ray"):
        return "play_on_ray", "distributed.play_on_ray"
    return None, "this toolgym has neither evaluate(backend='ray') nor play_on_ray"


class _Echo:
    """A Ray actor that answers at once: the round trip of one call is Ray's own overhead."""

    def echo(self, value: Any) -> Any:
        """``value`` back."""
        return value


def _ray_overheads(ray: Any, calls: int = 200) -> dict[str, float]:
    """Milliseconds of an actor's start and of one call's round trip (no work in it)."""
    start = time.perf_counter()
    actor = ray.remote(_Echo).options(num_cpus=0).remote()
    ray.get(actor.echo.remote(0))
    started = time.perf_counter() - start
    start = time.perf_counter()
    for k in range(calls):
        ray.get(actor.echo.remote(k))
    per_call = (time.perf_counter() - start) / calls
    ray.kill(actor)
    return {"actor_start_ms": 1000 * started, "call_ms": 1000 * per_call}


def _ids(env_id: str, env: Any, limit: int) -> list[Any]:
    ids = list(task_env(env).task_ids)[:limit]
    if not ids:
        raise ValueError(f"{env_id} has no stored tasks in this split")
    return ids


def _appends(records: Sequence[EpisodeRecord], count: int = APPENDS) -> dict[str, float]:
    """Records appended per second to a results file (one line, one write each)."""
    with tempfile.TemporaryDirectory() as folder:
        results = ResultsFile(Path(folder) / "r.jsonl", {"benchmark": "appends"}, resume=False)
        with results:
            start = time.perf_counter()
            for k in range(count):
                results.append(records[k % len(records)])
            elapsed = time.perf_counter() - start
    return {"appends_per_s": count / elapsed, "append_us": 1e6 * elapsed / count}


def _sizes(records: Sequence[EpisodeRecord]) -> dict[str, float]:
    """Bytes of a record as a results line (JSON) and as Ray ships it (a pickle)."""
    lines = [len(json.dumps(r.to_dict(), ensure_ascii=False, default=repr)) for r in records]
    pickles = [len(pickle.dumps(r)) for r in records]
    return {
        "json_mean": sum(lines) / len(lines),
        "json_max": max(lines),
        "pickle_mean": sum(pickles) / len(pickles),
    }


def _prompt_chars(env: Any) -> int:
    """Characters of the default LLM agent's first prompt on the env's current task."""
    from toolgym.agents.backends.scripted import ScriptedBackend
    from toolgym.agents.llm_agent import LLMAgent

    obs, info = env.reset(seed=0)
    agent = LLMAgent.for_env(env, ScriptedBackend(["x"]))
    agent.reset(obs, info)
    return len(json.dumps(agent.prompt(obs, info), ensure_ascii=False))


def run_config(
    mode: str, workers: int, envs: Sequence[str], limit: int, split: str, seed: int
) -> dict[str, Any]:
    """Play the suite in one mode with ``workers`` workers (in this process and its children)."""
    per_env: list[dict[str, Any]] = []
    played: list[EpisodeRecord] = []
    out: dict[str, Any] = {"mode": mode, "workers": workers, "setup_s": 0.0}
    ray_module = None
    if mode == "ray":
        path, why = _ray_path()
        if path is None:
            return {**out, "skipped": why}
        from toolgym.evaluation.distributed import connect_ray

        start = time.perf_counter()
        ray_module = connect_ray(num_cpus=workers)
        out["setup_s"] = time.perf_counter() - start
        out["ray"] = {"path": why, **_ray_overheads(ray_module)}
    start = time.perf_counter()
    play_s = 0.0
    for env_id in envs:
        t0 = time.perf_counter()
        row: dict[str, Any] = {"env": env_id}
        if mode == "sequential":
            env = gym.make(env_id, split=split)
            row["make_s"] = time.perf_counter() - t0
            agent = make_agent("oracle", env, seed)
            ids = _ids(env_id, env, limit)
            t1 = time.perf_counter()
            records = [run_episode(env, agent, task_id=t, seed=seed + k) for k, t in enumerate(ids)]
            row["play_s"] = time.perf_counter() - t1
            row["prompt_chars"] = _prompt_chars(env)
            env.close()
        elif mode == "async":
            vec = vector_env(env_id, workers, mode="async", split=split)
            try:
                envs_of = sub_envs(vec)
                agents = [make_agent("oracle", e, seed) for e in envs_of]
                ids = list(envs_of[0].task_ids)[:limit]
                row["make_s"] = time.perf_counter() - t0
                t1 = time.perf_counter()
                records = run_vector(vec, agents, ids, [seed + k for k in range(len(ids))])
                row["play_s"] = time.perf_counter() - t1
            finally:
                vec.close()
        else:
            records = _play_ray(env_id, workers, limit, split, seed)
        row["wall_s"] = time.perf_counter() - t0
        row["episodes"] = len(records)
        times = sorted(r.time_s for r in records)
        row["median_ms"] = 1000 * times[len(times) // 2] if times else 0.0
        row["success"] = sum(1 for r in records if (r.metrics or {}).get("success"))
        play_s += row.get("play_s", 0.0)
        per_env.append(row)
        played.extend(records)
    out["wall_s"] = time.perf_counter() - start
    out["play_s"] = play_s if mode != "ray" else None
    out["make_s"] = sum(row.get("make_s", 0.0) for row in per_env) if mode != "ray" else None
    out["episodes"] = len(played)
    out["success"] = sum(row["success"] for row in per_env)
    out["per_env"] = per_env
    if mode == "sequential" and played:
        out["records"] = {**_sizes(played), **_appends(played)}
    if ray_module is not None:
        ray_module.shutdown()
    return out


def _play_ray(env_id: str, workers: int, limit: int, split: str, seed: int) -> list[EpisodeRecord]:
    path, _ = _ray_path()
    if path == "evaluate":
        result = evaluate(
            env_id,
            "oracle",
            split=split,
            limit=limit,
            seed=seed,
            progress=False,
            backend="ray",
            workers=workers,
        )
        return list(result.records)
    from toolgym.evaluation.distributed import play_on_ray

    env = gym.make(env_id, split=split)
    ids = _ids(env_id, env, limit)
    env.close()
    found: dict[int, EpisodeRecord] = {}
    play_on_ray(
        env_id,
        "oracle",
        [(k, t, seed + k) for k, t in enumerate(ids)],
        env_kwargs={"split": split},
        seed=seed,
        workers=workers,
        on_record=found.__setitem__,
    )
    return [found[k] for k in sorted(found)]


# -- the driver: one fresh process per measurement, its memory sampled -------------------------
def _tree_rss(pid: int) -> int:
    """Bytes of resident memory of a process and all its descendants (0 once it is gone)."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for proc in procs:
        try:
            total += proc.memory_info().rss
        except psutil.Error:
            continue
    return total


def measure(
    mode: str, workers: int, envs: Sequence[str], limit: int, split: str, seed: int
) -> dict[str, Any]:
    """Run one mode and N in a fresh process; its result with ``peak_mb`` added."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "result.json"
        command = [
            sys.executable,
            "-m",
            "toolgym.evaluation.scaling",
            "--config",
            mode,
            str(workers),
            "--out",
            str(path),
            "--limit",
            str(limit),
            "--split",
            split,
            "--seed",
            str(seed),
            "--envs",
            *envs,
        ]
        child = subprocess.Popen(command)
        peak = 0
        done = threading.Event()

        def sample() -> None:
            nonlocal peak
            while not done.is_set():
                peak = max(peak, _tree_rss(child.pid))
                done.wait(0.1)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        code = child.wait()
        done.set()
        sampler.join()
        if code != 0 or not path.is_file():
            raise RuntimeError(f"the {mode} run with {workers} worker(s) failed (exit {code})")
        result = json.loads(path.read_text(encoding="utf-8"))
    result["peak_mb"] = peak / 2**20
    return result


def table_rows(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per measured mode and N, with throughputs and efficiencies."""
    measured = [r for r in results if "skipped" not in r]
    rate = {(r["mode"], r["workers"]): r["episodes"] / r["wall_s"] for r in measured}
    baseline = rate.get(("sequential", 1))
    rows = []
    for r in measured:
        n = r["workers"]
        throughput = rate[(r["mode"], n)]
        one = rate.get((r["mode"], 1))
        play = r.get("play_s")
        rows.append(
            {
                "mode": r["mode"],
                "workers": n,
                "episodes": r["episodes"],
                "wall_s": r["wall_s"],
                "make_s": r["make_s"] if r.get("make_s") is not None else "-",
                "episodes_per_s": throughput,
                "play_per_s": r["episodes"] / play if play else "-",
                "peak_mb": round(r["peak_mb"]),
                "efficiency": throughput / (n * one) if one else "-",
                "vs_sequential": throughput / (n * baseline) if baseline else "-",
            }
        )
    return rows


def report(results: Sequence[dict[str, Any]], envs: Sequence[str], limit: int) -> str:
    """The benchmark's text: the machine, the table, the costs behind it."""
    cores = os.cpu_count() or 1
    most = max((r["workers"] for r in results), default=1)
    lines = [
        f"toolgym suite throughput, oracle agent: {len(envs)} envs x first {limit} test tasks",
        f"machine: {cores} cores, {platform.machine()}, Python {platform.python_version()}, "
        f"gymnasium {gym.__version__}; {time.strftime('%Y-%m-%d')}",
    ]
    if most > cores:
        lines.append(
            f"note: {most} workers on {cores} cores oversubscribe the machine: beyond {cores}, "
            "more workers cannot add throughput"
        )
    lines += [
        "wall_s: the suite, making every env included (Ray's start excluded); make_s: making "
        "the envs (a vector env: its first env in this process, then its sub-env processes); "
        "play_per_s: the episodes alone; peak_mb: resident memory of the run's process and its children, "
        "summed (pages shared after a fork counted in each); efficiency: episodes/s at N over "
        "N x at 1 of the same mode; vs_sequential: over N x the sequential run's",
        "",
        format_table(table_rows(results), COLUMNS, ["efficiency", "vs_sequential"]),
    ]
    for r in results:
        if "skipped" in r:
            lines.append(f"\n{r['mode']} was not measured: {r['skipped']}")
        if "ray" in r:
            ray = r["ray"]
            lines.append(
                f"\nray, {r['workers']} worker(s) via {ray['path']}: start {r['setup_s']:.1f} s, "
                f"an actor's start {ray['actor_start_ms']:.0f} ms, "
                f"a call's round trip {ray['call_ms']:.2f} ms"
            )
    sequential = next((r for r in results if r["mode"] == "sequential"), None)
    if sequential is not None:
        rows = [
            {
                "env": row["env"],
                "make_s": row["make_s"],
                "episode_ms": 1000 * row["play_s"] / max(1, row["episodes"]),
                "median_ms": row["median_ms"],
                "prompt_chars": row["prompt_chars"],
            }
            for row in sequential["per_env"]
        ]
        lines += [
            "",
            "per env (sequential run, a fresh process): construction, oracle episode (mean, the "
            "first one's warm-up included, and median), the default LLM agent's first prompt",
            format_table(rows, ["env", "make_s", "episode_ms", "median_ms", "prompt_chars"]),
        ]
        sizes = sequential.get("records")
        if sizes:
            lines.append(
                f"\nrecords: {sizes['json_mean']:.0f} bytes of JSON on average "
                f"(largest {sizes['json_max']}), {sizes['pickle_mean']:.0f} pickled; a results "
                f"file takes {sizes['appends_per_s']:,.0f} appends/s "
                f"({sizes['append_us']:.0f} us each)"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark (or, with ``--config``, one of its measurements)."""
    parser = argparse.ArgumentParser(prog="python -m toolgym.evaluation.scaling")
    parser.add_argument("--envs", nargs="+", help="env ids (default: every family's newest)")
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, help="tasks per env")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--split", default="test")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write the results as JSON here")
    parser.add_argument("--config", nargs=2, metavar=("MODE", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    envs = args.envs or standalone(latest_env_ids())
    if args.limit < 1 or any(n < 1 for n in args.workers):
        parser.error(f"--limit and --workers are at least 1; got {args.limit}, {args.workers}")
    if args.config:
        mode, n = args.config[0], int(args.config[1])
        result = run_config(mode, n, envs, args.limit, args.split, args.seed)
        if args.out is None:
            print(json.dumps(result, indent=2))
        else:
            args.out.write_text(json.dumps(result), encoding="utf-8")
        return 0
    plan = [("sequential", 1)] if "sequential" in args.modes else []
    plan += [(m, n) for m in ("async", "ray") if m in args.modes for n in sorted(args.workers)]
    results = []
    skipped: set[str] = set()
    for mode, n in plan:
        if mode in skipped:  # not measurable here: the same reason for every N
            continue
        print(f"measuring {mode} with {n} worker(s) ...", file=sys.stderr, flush=True)
        result = measure(mode, n, envs, args.limit, args.split, args.seed)
        results.append(result)
        if "skipped" in result:
            skipped.add(mode)
    print(report(results, envs, args.limit))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
