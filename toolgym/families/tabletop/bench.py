"""The tabletop's own performance measures, printed by ``toolgym bench``.

* one pick-and-place: the kinematic gripper's motion and the physics settling after it, in this
  process (no sandbox);
* a whole episode: reset (the scene built and settled), the gold program run in the sandbox, the
  outcome read and scored, over the test split;
* the sandbox's overhead per code block: the same program run in the sandbox and directly on the
  same scene (the adapter's names, no confinement), and an empty block's round trip;
* the gold step beside its floor (:func:`toolgym.tools.sandbox.floor.step_vs_floor`): ``env.step``
  of the gold program against the same program run by a process forked ahead of time from a warm
  one (the target is at most 1.5 times the floor).

``python -m toolgym.families.tabletop.bench`` prints them.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from toolgym.tools.sandbox.floor import report_lines
from toolgym.tools.sandbox.floor import step_vs_floor as measure


def pick_and_place_ms(repeat: int = 400) -> float:
    """Median milliseconds of one ``put_first_on_second`` on a four-block scene."""
    from toolgym.families.tabletop.tasks import generate_split
    from toolgym.families.tabletop.toolkit import starting_scene
    from toolgym.families.tabletop.world.physics import TabletopPhysics

    task = next(t for t in generate_split("test") if t.meta["template"] == "SI_4")
    scene = starting_scene(task.setup)
    world = TabletopPhysics()
    samples = []
    for k in range(repeat):
        world.load(scene)
        block = [o["name"] for o in scene["objects"] if o["kind"] == "block"][k % 4]
        target = world.position(block.replace("block", "bowl")) if k % 2 else (0.25, -0.25)
        t = time.perf_counter()
        world.pick_and_place(block, target)
        samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1e3


def episode_ms() -> float:
    """Median milliseconds of an oracle episode over the test split.

    An episode as an env plays it: the backend reset to the task's scene, the gold program run
    through the action language (in the sandbox), the outcome read and scored by the checker.
    """
    from toolgym.families.tabletop.tasks import SUITE
    from toolgym.families.tabletop.toolkit import TabletopToolkit

    toolkit = TabletopToolkit()
    backend = toolkit.new_backend()
    language = toolkit.language()
    tasks = list(SUITE.load("test").values())
    backend.reset(None, tasks[0].setup)
    language.run_program(tasks[0].gold[0], backend)  # the sandbox's process starts once
    samples = []
    for task in tasks:
        t = time.perf_counter()
        backend.reset(None, task.setup)
        execution = language.run_program(task.gold[0], backend)
        assert execution.attempt is not None
        task.check(execution.attempt, ())
        samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1e3


def sandbox_overhead_ms(repeat: int = 40) -> dict[str, float]:
    """The four-block program in the sandbox and directly, and an empty block (medians, ms)."""
    from toolgym.families.tabletop.adapter import TabletopAdapter
    from toolgym.families.tabletop.tasks import generate_split
    from toolgym.families.tabletop.toolkit import TabletopToolkit, starting_scene
    from toolgym.tools.sandbox.policy import compile_program, make_printer, restricted_globals

    task = next(t for t in generate_split("test") if t.meta["template"] == "SI_4")
    program = task.gold[0]
    scene = starting_scene(task.setup)
    backend = TabletopToolkit().new_backend()
    adapter = TabletopAdapter()
    code = compile_program(program)

    def direct() -> Any:
        namespace = restricted_globals(make_printer(4000), adapter.setup(scene))
        exec(code, namespace)  # the benchmark's own program, compiled by the sandbox's rules
        return adapter.collect(namespace)

    def sandboxed(program: str) -> Any:
        backend.reset(None, task.setup)
        return backend.run_code(program)

    sandboxed("pass")
    timings: dict[str, list[float]] = {"sandbox": [], "direct": [], "empty": [], "reset": []}
    for _ in range(repeat):
        for name, run in (
            ("sandbox", lambda: sandboxed(program)),
            ("direct", direct),
            ("empty", lambda: sandboxed("pass")),
            ("reset", lambda: backend.reset(None, task.setup)),
        ):
            t = time.perf_counter()
            run()
            timings[name].append(time.perf_counter() - t)
    out = {name: statistics.median(values) * 1e3 for name, values in timings.items()}
    out["sandbox"] -= out["reset"]
    out["empty"] -= out["reset"]
    return out


def step_vs_floor(tasks: int = 20, repeat: int = 3) -> dict[str, float]:
    """The gold step of ``toolbench/Tabletop-v0`` and its pre-forked floor (medians, seconds)."""
    from toolgym.families.tabletop.adapter import adapter

    return measure("toolbench/Tabletop-v0", adapter, tasks, repeat)


def report() -> list[str]:
    """The lines ``toolgym bench`` prints for the tabletop."""
    box = sandbox_overhead_ms()
    floor = step_vs_floor()
    return [
        f"Tabletop pick-and-place (gripper motion and physics settling): "
        f"{pick_and_place_ms():.2f} ms (median)",
        f"Tabletop episode (reset, gold program in the sandbox, score), test split: "
        f"{episode_ms():.1f} ms (median)",
        f"Tabletop four-block program: {box['sandbox']:.1f} ms in the sandbox, "
        f"{box['direct']:.1f} ms run directly: {box['sandbox'] - box['direct']:.1f} ms of sandbox "
        f"overhead per code block; an empty block's round trip {box['empty']:.1f} ms (medians)",
        *report_lines("Tabletop", floor),
    ]


if __name__ == "__main__":
    import toolgym  # noqa: F401  (registers the envs)

    print("\n".join(report()))
