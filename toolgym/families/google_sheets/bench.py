"""A gold Google Sheets step beside its floor: ``python -m toolgym.families.google_sheets.bench``.

* **step**: ``env.step(gold)`` on ``toolbench/GoogleSheets-v0``, after a reset to its task: the
  program in the sandbox (a confined child forked ahead of time), then reading and scoring the
  outcome in the env's process.
* **floor**: the same program run by a process forked ahead of time from a warm one (the Sheets
  adapter and its imports loaded, a program run once), the job and its answer sent as JSON over
  pipes: what any process-per-program design pays, without confinement, relaying or scoring.

The tasks are the test split's first ``--tasks``, each run ``--repeat`` times; medians are printed
with their ratio (the target is a step at most 1.5 times the floor).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from typing import Any

import gymnasium as gym

from toolgym.families.google_sheets.adapter import adapter
from toolgym.tools.sandbox.worker import run_job

ENV_ID = "toolbench/GoogleSheets-v0"


def _forked_run(job: dict[str, Any]) -> float:
    """Seconds from sending ``job`` to a child forked ahead of time to reading its answer."""
    job_in, job_out = os.pipe()
    answer_in, answer_out = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: one job, then exit
        try:
            os.close(job_out)
            os.close(answer_in)
            with os.fdopen(job_in, "rb") as reader:
                task = json.loads(reader.readline())
            out = run_job(task, adapter, limits=False)
            with os.fdopen(answer_out, "wb") as writer:
                writer.write((json.dumps(out, default=str) + "\n").encode())
        finally:
            os._exit(0)
    os.close(job_in)
    os.close(answer_out)
    time.sleep(0.05)  # the child is ready before the clock starts
    start = time.perf_counter()
    with os.fdopen(job_out, "wb") as writer:
        writer.write((json.dumps(job) + "\n").encode())
    with os.fdopen(answer_in, "rb") as reader:
        answer = json.loads(reader.readline())
    seconds = time.perf_counter() - start
    os.waitpid(pid, 0)
    if answer.get("error") is not None:
        raise RuntimeError(f"the floor's program failed: {answer['error']}")
    return seconds


def run(tasks: int = 20, repeat: int = 3) -> dict[str, float]:
    """Median seconds of a gold step and of its floor, over ``tasks`` x ``repeat`` runs."""
    env = gym.make(ENV_ID)  # registered when the toolgym package is imported (as ``-m`` does)
    base: Any = env.unwrapped
    ids = list(base.task_ids[:tasks])
    jobs: list[tuple[Any, str, dict[str, Any]]] = []
    for task_id in ids:
        env.reset(options={"task_id": task_id})
        gold = base.oracle_actions()[0]
        state = json.loads(json.dumps(base._backend.state))  # the state the program starts from
        jobs.append((task_id, gold, state))
    run_job({"code": jobs[0][1], "state": jobs[0][2], "output": 10_000}, adapter, limits=False)
    env.reset(options={"task_id": ids[0]})
    env.step(jobs[0][1])  # warm both paths once
    steps: list[float] = []
    floors: list[float] = []
    for _ in range(repeat):  # the steps, then the floors: neither's processes slow the other
        for task_id, gold, _state in jobs:
            env.reset(options={"task_id": task_id})
            start = time.perf_counter()
            _, reward, *_ = env.step(gold)
            steps.append(time.perf_counter() - start)
            if reward != 1.0:
                raise RuntimeError(f"the gold of {task_id} scored {reward}")
    env.close()
    for _ in range(repeat):
        for _task_id, gold, state in jobs:
            floors.append(_forked_run({"code": gold, "state": state, "output": 10_000}))
    step, floor = statistics.median(steps), statistics.median(floors)
    return {"step_s": step, "floor_s": floor, "ratio": step / floor, "runs": len(steps)}


def main(argv: list[str] | None = None) -> int:
    """Print the medians and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    result = run(args.tasks, args.repeat)
    print(f"gold Sheets step, median of {result['runs']}: {result['step_s'] * 1000:.1f} ms")
    print(f"pre-forked floor, same programs:  {result['floor_s'] * 1000:.1f} ms")
    print(f"ratio: {result['ratio']:.2f} (target: at most 1.5)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
