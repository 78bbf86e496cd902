"""Sandboxed steps under load stay within their limit: ``python scripts/bench_step_deadline.py``.

Starts ``--hogs`` busy processes (default: one per core), then steps hostile programs on the
sandboxed families, each from a fresh reset, and prints each step's wall time beside its bound:
the family's ``timeout_s`` plus :data:`~toolgym.tools.sandbox_backend.STEP_MARGIN_S` (the step's
own work on the program's result: checking the state, the view, the outcome). The programs:

* Sheets ``busy_then_heavy``: fills a sheet with formulas that read 13,000 cells each, then spins
  until near its limit, so that reading what it left comes last (the work the parent does);
* Sheets ``write_read_loop``: rewrites a cell and reads every value back, over and over (each
  read re-evaluates the formulas);
* Sheets ``column_inserts``: 1,500 column inserts in one request on a full sheet;
* Tabletop ``spin``: a program that never ends.

Prints one line per program and ``within bound: N of M``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time

import gymnasium as gym

import toolgym  # noqa: F401  (registers the envs)
from toolgym.tools.sandbox_backend import STEP_MARGIN_S

_FILL = (
    "worksheet.update('A1:Z1000', [[(r * c if c < 13 else '=SUM(A1:M1000)+%d' % c) "
    "for c in range(26)] for r in range(1, 1001)], value_input_option='USER_ENTERED')\n"
)
_SPIN = (
    "import datetime as d\nt = d.datetime.now()\n"
    "while (d.datetime.now() - t).total_seconds() < {seconds}: pass\n"
)
PROGRAMS: dict[str, tuple[str, str]] = {
    "busy_then_heavy": ("toolbench/GoogleSheets-v0", _FILL + "{spin}"),
    "write_read_loop": (
        "toolbench/GoogleSheets-v0",
        _FILL + "for i in range(1000):\n    worksheet.update_cell(1, 1, i)\n"
        "    worksheet.get_all_values()\n",
    ),
    "column_inserts": (
        "toolbench/GoogleSheets-v0",
        "worksheet.update('A1:Z1000', [[r * c for c in range(26)] for r in range(1000)])\n"
        "worksheet.spreadsheet.batch_update({'requests': [{'insertDimension': {'range': "
        "{'sheetId': worksheet.id, 'dimension': 'COLUMNS', 'startIndex': 0, 'endIndex': 1}}}]"
        " * 1500})\n",
    ),
    "spin": ("toolbench/Tabletop-v0", "while True:\n    pass\n"),
}


def _hog() -> None:
    while True:
        pass


def main() -> None:
    """Load the machine, step the programs, print the times."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hogs", type=int, default=os.cpu_count() or 1, help="busy processes")
    parser.add_argument("--timeout", type=float, default=5.0, help="the envs' timeout_s (5)")
    args = parser.parse_args()
    hogs = [multiprocessing.Process(target=_hog, daemon=True) for _ in range(args.hogs)]
    for hog in hogs:
        hog.start()
    bound = args.timeout + STEP_MARGIN_S
    within = 0
    try:
        for name, (env_id, template) in PROGRAMS.items():
            program = template.replace("{spin}", _SPIN.format(seconds=args.timeout * 0.9))
            env = gym.make(env_id, timeout_s=args.timeout)
            env.reset(seed=0)
            start = time.perf_counter()
            _, _, _, _, info = env.step(program)
            seconds = time.perf_counter() - start
            env.close()
            error = (info.get("error") or {}).get("category", "-")
            within += seconds <= bound
            print(f"{name:<16} {env_id:<26} {seconds:6.2f} s (bound {bound:g} s)  error: {error}")
    finally:
        for hog in hogs:
            hog.terminate()
    print(
        f"within bound: {within} of {len(PROGRAMS)} ({args.hogs} busy processes, load "
        f"{os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
