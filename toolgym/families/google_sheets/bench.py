"""A gold Google Sheets step beside its floor: ``python -m toolgym.families.google_sheets.bench``.

* **step**: ``env.step(gold)`` on ``toolbench/GoogleSheets-v0``, after a reset to its task: the
  program in the sandbox (a confined child forked ahead of time), then reading and scoring the
  outcome in the env's process.
* **floor**: the same program run by a process forked ahead of time from a warm one (the Sheets
  adapter and its imports loaded, a program run once), the job and its answer sent as JSON over
  pipes: what any process-per-program design pays, without confinement, relaying or scoring.

The tasks are the test split's first ``--tasks``, each run ``--repeat`` times; medians are printed
with their ratios (the target is a step at most 1.5 times the floor), the steps timed back to back
and after a pause (see :func:`toolgym.tools.sandbox.floor.step_vs_floor`).
"""

from __future__ import annotations

import argparse

from toolgym.families.google_sheets.adapter import adapter
from toolgym.tools.sandbox.floor import report_lines, step_vs_floor

ENV_ID = "toolbench/GoogleSheets-v0"


def run(tasks: int = 20, repeat: int = 3) -> dict[str, float]:
    """Median seconds of a gold step and of its floor, over ``tasks`` x ``repeat`` runs."""
    return step_vs_floor(ENV_ID, adapter, tasks, repeat)


def main(argv: list[str] | None = None) -> int:
    """Print the medians and their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("\n".join(report_lines("Sheets", run(args.tasks, args.repeat))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
