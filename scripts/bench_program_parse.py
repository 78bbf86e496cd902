"""An API program's parse with lines kept, against ``ast.parse``: ``python scripts/bench_program_parse.py``.

:func:`toolgym.tools.ast_parse.module_body` keeps the parse of program lines seen twice and
parses only the others. What that saves depends on how often lines come back, so the script
times the two ways, in one process, over four workloads, and prints microseconds per program:

* ``novel``: every program's lines new (each value changed), parsed once each;
* ``repeated``: ``--programs`` such programs cycled ten times (after two passes to keep them);
* ``cycled N``: N programs cycled (N x 8 lines: more than the memo holds past 256);
* ``gold <env>``: the gold programs of an env's test tasks, each once, from an empty memo (lines
  that tasks share: ``API.search()``, a mode, a city).
"""

from __future__ import annotations

import argparse
import ast
import gc
import statistics
import time
import warnings
from collections.abc import Callable, Sequence

from toolgym.tools import ast_parse

TEMPLATE = (
    'API.set_location("City{k}")\nAPI.set_buy_or_rent("mode{k}")\nAPI.set_num_swimming_pools({k})\n'
    'API.set_num_baths({k})\nAPI.select_home_type(["Type{k}"])\nAPI.set_min_price({k}00)\n'
    "API.set_num_beds({k})\nAPI.search({k})"
)


def _per_program(parse: Callable[[str], object], programs: Sequence[str], rounds: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for source in programs:
            parse(source)
    return (time.perf_counter() - start) / (rounds * len(programs)) * 1e6


def _plain(source: str) -> object:
    return ast.parse(source).body


def _gold_programs(env_id: str) -> list[str]:
    import gymnasium as gym

    import toolgym  # noqa: F401  (registers the envs)
    from toolgym.envs.protocol import task_env

    env = gym.make(env_id)
    base = task_env(env)
    programs = []
    for task_id in base.task_ids:
        env.reset(options={"task_id": task_id})
        programs.append(base.oracle_actions()[0])
    return programs


def main(argv: Sequence[str] | None = None) -> int:
    """Print the two ways' microseconds per program over each workload."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=200, help="programs of a repeated cycle")
    parser.add_argument(
        "--env", action="append", help="an env whose gold programs to parse (repeatable)"
    )
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    rows: list[tuple[str, float, float]] = []
    novel = [TEMPLATE.format(k=k) for k in range(3_000)]
    ast_parse.forget()
    rows.append(
        ("novel", _per_program(_plain, novel, 1), _per_program(ast_parse.module_body, novel, 1))
    )
    for count, name in ((args.programs, "repeated"), (300, "cycled 300"), (600, "cycled 600")):
        programs = novel[:count]
        ast_parse.forget()
        _per_program(ast_parse.module_body, programs, 2)
        rows.append(
            (
                f"{name} ({count})" if name == "repeated" else name,
                _per_program(_plain, programs, 10),
                _per_program(ast_parse.module_body, programs, 10),
            )
        )
    for env_id in args.env or ["toolbench/HomeSearch-v0", "toolbench/TripBooking-v0"]:
        programs = _gold_programs(env_id)
        passes: tuple[list[float], list[float]] = ([], [])
        for _ in range(7):  # a pass is short: the median of seven, each from an empty memo
            ast_parse.forget()
            gc.collect()
            passes[1].append(_per_program(ast_parse.module_body, programs, 1))
            gc.collect()
            passes[0].append(_per_program(_plain, programs, 1))
        plain, kept = (statistics.median(times) for times in passes)
        rows.append((f"gold {env_id} ({len(programs)}, 7 passes)", plain, kept))
    width = max(len(name) for name, _, _ in rows)
    print(f"{'workload':<{width}}  ast.parse us  module_body us  ratio")
    for name, plain, kept in rows:
        print(f"{name:<{width}}  {plain:12.1f}  {kept:14.1f}  {kept / plain:5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
