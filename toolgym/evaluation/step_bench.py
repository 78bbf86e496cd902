"""Every env's gold step and reset, against CartPole-v1's step: ``toolgym bench --steps``.

A step's cost is only meaningful next to something the machine does at the same moment, so each
sample times, back to back, one ``CartPole-v1`` step, one ``reset`` of the env (to a test task)
and one ``step`` with that task's first gold action (program mode). The figures are medians and
the ratios to CartPole's median step: on a loaded machine both slow down together.

``--against REV`` measures an older commit the same way: the commit is checked out into a
temporary git worktree, and this script runs, as a file, once against each tree in alternating
processes (``--rounds`` pairs), so load that comes and goes falls on both alike. The table then
shows each env's step ratio then and now, and their quotient (above 1: the step got slower),
and the quotient of the steps' µs. The two quotients differ where an env's reset changes how
much memory a sample touches: CartPole's step, timed between the env's resets, slows beside a
reset that allocates much (VirtualHome's old reset, a whole scene graph: 21-24 µs against 16).
The script uses only ``gym.make``, ``toolgym.envs.env_ids``, ``task_env`` and
``oracle_actions``, so it runs against any commit that has them.

Run before every change to a step's path::

    toolgym bench --steps                      # this tree
    toolgym bench --steps --against HEAD~5     # this tree against HEAD~5, interleaved
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SANDBOXED = ("python",)
"""Action languages whose steps run in a sandbox process: sampled a tenth as often."""


def _samples_for(language: str, samples: int) -> int:
    return max(20, samples // 10) if language in SANDBOXED else samples


def bench_steps(ids: Sequence[str], samples: int = 300, tasks: int = 8) -> dict[str, Any]:
    """Medians (µs) of CartPole's step and each env's reset and gold step, sampled together.

    Returns ``{"toolgym": <package path>, "envs": {env_id: {...}}}``; each env's entry holds
    ``reset_us``, ``step_us``, ``cartpole_us`` and the two ratios, or ``error`` when its gold
    step could not be taken.
    """
    import gymnasium as gym

    from toolgym.envs import protocol
    from toolgym.envs.protocol import task_env

    cartpole = gym.make("CartPole-v1")
    cartpole.reset(seed=0)
    flip = [0]

    def pole() -> int:
        flip[0] ^= 1
        t = time.perf_counter_ns()
        _, _, terminated, truncated, _ = cartpole.step(flip[0])
        elapsed = time.perf_counter_ns() - t
        if terminated or truncated:
            cartpole.reset()
        return elapsed

    out: dict[str, Any] = {}
    for env_id in ids:
        env = None
        try:
            env = gym.make(env_id)
            base = task_env(env)
            cases = []
            for task_id in list(base.task_ids)[:tasks]:
                env.reset(options={"task_id": task_id})
                cases.append((task_id, base.oracle_actions()[0]))
            language = getattr(getattr(base, "hints", None), "action_language", "")
            count = _samples_for(language, samples)
            for task_id, action in cases:  # warm-up: caches, forked workers
                env.reset(options={"task_id": task_id})
                env.step(action)
            poles, resets, steps = [], [], []
            for i in range(count):
                task_id, action = cases[i % len(cases)]
                poles.append(pole())
                t = time.perf_counter_ns()
                env.reset(options={"task_id": task_id})
                resets.append(time.perf_counter_ns() - t)
                t = time.perf_counter_ns()
                env.step(action)
                steps.append(time.perf_counter_ns() - t)
        except Exception as exc:  # an env that cannot be stepped here: reported, not fatal
            out[env_id] = {"error": f"{type(exc).__name__}: {exc}"[:200]}
            continue
        finally:
            if env is not None:
                env.close()
        cart = statistics.median(poles) / 1e3
        reset, step = statistics.median(resets) / 1e3, statistics.median(steps) / 1e3
        out[env_id] = {
            "samples": count,
            "cartpole_us": cart,
            "reset_us": reset,
            "step_us": step,
            "reset_ratio": reset / cart,
            "step_ratio": step / cart,
        }
    return {"toolgym": str(Path(protocol.__file__).resolve().parents[1]), "envs": out}


def _default_ids() -> list[str]:
    from toolgym.envs import env_ids, standalone

    return standalone(env_ids())


def _run_tree(root: Path, args: Sequence[str]) -> dict[str, Any]:
    """This script, run as a file with ``root`` first on the path; its JSON result."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--json", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the step benchmark failed under {root}:\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if not Path(result["toolgym"]).is_relative_to(root.resolve()):
        raise RuntimeError(f"expected toolgym from {root}, the run imported {result['toolgym']}")
    return result


def _merge(runs: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per env, the median of each figure over rounds (an env that failed in any round: its error)."""
    merged: dict[str, dict[str, Any]] = {}
    for env_id in runs[0]["envs"]:
        entries = [run["envs"].get(env_id, {}) for run in runs]
        if any("error" in e or not e for e in entries):
            merged[env_id] = {
                "error": next((e["error"] for e in entries if "error" in e), "no run")
            }
            continue
        merged[env_id] = {k: statistics.median(e[k] for e in entries) for k in entries[0]}
    return merged


def compare(rev: str, args: Sequence[str], rounds: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """This tree's figures and ``rev``'s, from ``rounds`` alternating pairs of processes."""
    here = Path(__file__).resolve().parents[2]
    top = subprocess.run(
        ["git", "-C", str(here), "rev-parse", "--show-toplevel"],
        capture_output=True,
        text=True,
        check=False,
    )
    if top.returncode != 0:
        raise RuntimeError(f"--against needs toolgym run from a git checkout; {here} is not one")
    with tempfile.TemporaryDirectory(prefix="toolgym-bench-") as scratch:
        tree = Path(scratch) / "tree"
        added = subprocess.run(
            ["git", "-C", str(here), "worktree", "add", "--detach", str(tree), rev],
            capture_output=True,
            text=True,
            check=False,
        )
        if added.returncode != 0:
            raise RuntimeError(f"cannot check out {rev!r}: {added.stderr.strip()}")
        try:
            now, then = [], []
            for _ in range(rounds):
                then.append(_run_tree(tree, args))
                now.append(_run_tree(here, args))
        finally:
            subprocess.run(
                ["git", "-C", str(here), "worktree", "remove", "--force", str(tree)],
                capture_output=True,
                check=False,
            )
    return {"envs": _merge(now)}, {"envs": _merge(then)}


def format_steps(now: dict[str, Any], then: dict[str, Any] | None = None, rev: str = "") -> str:
    """The table: each env's reset and step in µs and as multiples of CartPole's step."""
    from toolgym.evaluation.report import format_table

    rows, ratios, quotients = [], [], []
    for env_id, entry in now["envs"].items():
        if "error" in entry:
            rows.append([env_id, "-", "-", "-", "-", *(["-"] * 3 if then else []), entry["error"]])
            continue
        ratios.append(entry["step_ratio"])
        row = [
            env_id,
            f"{entry['reset_us']:.0f}",
            f"{entry['step_us']:.0f}",
            f"x{entry['reset_ratio']:.1f}",
            f"x{entry['step_ratio']:.1f}",
        ]
        if then is not None:
            old = then["envs"].get(env_id, {})
            if "step_ratio" in old:
                quotient = entry["step_ratio"] / old["step_ratio"]
                quotients.append(quotient)
                row += [
                    f"x{old['step_ratio']:.1f}",
                    f"{quotient:.2f}",
                    f"{entry['step_us'] / old['step_us']:.2f}",
                ]
            else:
                row += ["-", "-", "-"]
        rows.append([*row, ""])
    head = ["env", "reset us", "step us", "reset/CartPole", "step/CartPole"]
    if then is not None:
        head += [f"step/CartPole at {rev}", "now/then", "us now/then"]
    columns = [*head, "note"]
    table = format_table([dict(zip(columns, row, strict=True)) for row in rows], columns)
    lines = [
        table,
        f"median step over {len(ratios)} envs: x{statistics.median(ratios):.1f} CartPole",
    ]
    if quotients:
        lines.append(
            f"median now/then over {len(quotients)} envs: {statistics.median(quotients):.2f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``toolgym bench --steps``: print the table (or, with ``--json``, the figures)."""
    parser = argparse.ArgumentParser(
        prog="toolgym bench --steps", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--env", action="append", help="an env id (repeatable; default: every env)")
    parser.add_argument(
        "--samples", type=int, default=300, help="samples per env (sandboxed: a tenth)"
    )
    parser.add_argument("--tasks", type=int, default=8, help="test tasks cycled through per env")
    parser.add_argument("--against", metavar="REV", help="a commit to compare with, interleaved")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: pairs of runs")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = parser.parse_args(argv)
    if args.samples < 1 or args.tasks < 1 or args.rounds < 1:
        parser.error("--samples, --tasks and --rounds take whole numbers >= 1")
    ids = args.env or _default_ids()
    if args.against:
        passed = [
            f"--samples={args.samples}",
            f"--tasks={args.tasks}",
            *(f"--env={e}" for e in ids),
        ]
        try:
            now, then = compare(args.against, passed, args.rounds)
        except RuntimeError as exc:
            print(f"toolgym bench --steps: {exc}", file=sys.stderr)
            return 1
        print(format_steps(now, then, args.against))
        return 0
    result = bench_steps(ids, args.samples, args.tasks)
    print(json.dumps(result) if args.json else format_steps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
