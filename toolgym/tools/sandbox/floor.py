"""The floor a sandboxed step is measured against, and the measure itself.

A family whose programs run in the sandbox pays, per step, what any process-per-program design
pays (a process forked ahead of time from a warm one, the job and its answer sent over pipes)
plus what the sandbox adds (confinement, the zygote's relaying, the checks on what comes back)
and what the env adds (parsing the action, reading and scoring the outcome). :func:`step_vs_floor`
times a registered env's gold step and that floor on the same programs and states, so a family's
``bench`` prints their ratio (the target is at most 1.5).

The floor's child is forked from this process once the adapter has warmed up (its ``warm()``,
as the sandbox's warm process runs it) and run a program. The child warms up as the sandbox's
children do (:func:`~toolgym.tools.sandbox.zygote.warm_up`) and says it is ready before the clock
starts; it runs without limits or confinement, and nothing relays for it.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from toolgym.tools.sandbox.worker import run_job
from toolgym.tools.sandbox.zygote import warm_up

THINK_S = 0.02
"""The pause before each step of :func:`step_vs_floor`'s second timing: an agent's turn (a
model's decoding takes longer)."""


def forked_run(job: dict[str, Any], adapter: Any, pause_s: float = 0.0) -> float:
    """Seconds from sending ``job`` to a ready child forked ahead of time to reading its answer.

    Args:
        job: the program, its state and its output limit.
        adapter: the family's sandbox adapter.
        pause_s: how long the ready child waits before the job is sent (and the clock starts).

    Raises:
        RuntimeError: the program failed in the floor's child (the floor would not be comparable).
    """
    job_in, job_out = os.pipe()
    answer_in, answer_out = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: warm up, say so, run one job, exit
        try:
            os.close(job_out)
            os.close(answer_in)
            warm_up(adapter)  # as the sandbox's children do before their job
            os.write(answer_out, b"r")
            with os.fdopen(job_in, "rb") as reader:
                task = json.loads(reader.readline())
            out = run_job(task, adapter, limits=False)
            with os.fdopen(answer_out, "wb") as writer:
                writer.write((json.dumps(out, default=str) + "\n").encode())
        finally:
            os._exit(0)
    os.close(job_in)
    os.close(answer_out)
    with os.fdopen(answer_in, "rb") as reader:
        if reader.read(1) != b"r":
            os.waitpid(pid, 0)
            raise RuntimeError("the floor's child ended before it was ready")
        time.sleep(pause_s)
        start = time.perf_counter()
        with os.fdopen(job_out, "wb") as writer:
            writer.write((json.dumps(job) + "\n").encode())
        answer = json.loads(reader.readline())
        seconds = time.perf_counter() - start
    os.waitpid(pid, 0)
    if answer.get("error") is not None:
        raise RuntimeError(f"the floor's program failed: {answer['error']}")
    return seconds


def step_vs_floor(
    env_id: str,
    adapter: Any,
    tasks: int = 20,
    repeat: int = 3,
    solved: Callable[[float], bool] = lambda reward: reward == 1.0,
    pause_s: float = THINK_S,
) -> dict[str, float]:
    """Median seconds of ``env_id``'s gold first step and of its floor, and their ratios.

    The test split's first ``tasks`` tasks, each run ``repeat`` times: all the steps first, then
    all the floors, so neither's processes slow the other. The floor runs the same program on the
    state the env's backend holds after reset. Both are timed twice: back to back (a reset
    between steps, nothing else; the floor's job sent as soon as its child is ready), and with
    ``pause_s`` before each, as an agent's turn leaves between steps (the floor's ready child
    waits as long before its job: a process that has waited answers more slowly than one that
    has just warmed up, 4.3 against 3.3 ms for the Sheets floor at 20 ms, so each step is
    compared with the floor that waited as it did).

    Args:
        env_id: a registered env whose backend is a :class:`~toolgym.tools.sandbox_backend.
            SandboxBackend`.
        adapter: the family's sandbox adapter (the object the worker loads).
        tasks: how many test tasks.
        repeat: runs of each.
        solved: whether a gold step's reward is the one expected (the measure stops otherwise).
        pause_s: the pause before each step of the second timing.

    Returns:
        ``step_s`` (back to back), ``paused_step_s``, ``floor_s`` and ``paused_floor_s``,
        ``ratio`` and ``paused_ratio`` (each step's median over its floor's), ``pause_s``, and
        ``runs`` (steps of each kind).

    Raises:
        RuntimeError: a gold step did not score as ``solved`` expects, or a floor's program failed.
    """
    import gymnasium as gym

    env = gym.make(env_id)
    base: Any = env.unwrapped
    jobs: list[tuple[Any, str, dict[str, Any]]] = []
    for task_id in base.task_ids[:tasks]:
        env.reset(options={"task_id": task_id})
        gold = base.oracle_actions()[0]
        state = json.loads(json.dumps(base._backend.state))  # what the program starts from
        jobs.append((task_id, gold, state))
    warm = getattr(adapter, "warm", None)
    if callable(warm):
        warm()  # as the sandbox's warm process does before it forks any child
    run_job({"code": jobs[0][1], "state": jobs[0][2], "output": 10_000}, adapter, limits=False)
    env.reset(options={"task_id": jobs[0][0]})
    env.step(jobs[0][1])  # both paths warm
    steps: dict[float, list[float]] = {0.0: [], pause_s: []}
    for pause, samples in steps.items():
        for _ in range(repeat):
            for task_id, gold, _state in jobs:
                env.reset(options={"task_id": task_id})
                time.sleep(pause)
                start = time.perf_counter()
                _, reward, *_ = env.step(gold)
                samples.append(time.perf_counter() - start)
                if not solved(float(reward)):
                    raise RuntimeError(f"the gold of {task_id} scored {reward}")
    env.close()
    floor, paused_floor = (
        statistics.median(
            forked_run({"code": gold, "state": state, "output": 10_000}, adapter, pause)
            for _ in range(repeat)
            for _task_id, gold, state in jobs
        )
        for pause in (0.0, pause_s)
    )
    step, paused = statistics.median(steps[0.0]), statistics.median(steps[pause_s])
    return {
        "step_s": step,
        "paused_step_s": paused,
        "floor_s": floor,
        "paused_floor_s": paused_floor,
        "ratio": step / floor,
        "paused_ratio": paused / paused_floor,
        "pause_s": pause_s,
        "runs": len(steps[0.0]),
    }


def report_lines(name: str, result: dict[str, float]) -> list[str]:
    """What a family's bench prints of :func:`step_vs_floor`'s result."""
    ms = {key: value * 1e3 for key, value in result.items() if key.endswith("_s")}
    return [
        f"{name} gold step, median of {result['runs']:g}: {ms['step_s']:.1f} ms back to back, "
        f"{ms['paused_step_s']:.1f} ms after a {ms['pause_s']:g} ms pause",
        f"{name} pre-forked floor, same programs: {ms['floor_s']:.1f} ms back to back, "
        f"{ms['paused_floor_s']:.1f} ms after the same pause",
        f"{name} ratio: {result['ratio']:.2f} back to back, {result['paused_ratio']:.2f} after "
        f"a pause ({ms['paused_step_s'] / ms['floor_s']:.2f} against the floor without one; "
        "target: at most 1.5)",
    ]
