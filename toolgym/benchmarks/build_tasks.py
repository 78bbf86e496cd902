"""Regenerate (or check) the stored task sets from their generators.

``python -m toolgym.benchmarks.build_tasks`` rewrites ``toolgym/benchmarks/data/*.jsonl``;
``--check`` only compares and exits 1 on any difference. Stored tasks are data: a change to them
is a new env version.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from types import ModuleType

from toolgym.benchmarks.tasks import DATA_DIR, Task, load_packaged, write_task_file

GENERATORS: tuple[str, ...] = ("toolgym.benchmarks.home_search", "toolgym.benchmarks.trip_booking")


def _modules() -> list[ModuleType]:
    return [importlib.import_module(name) for name in GENERATORS]


def stale_splits() -> list[str]:
    """Names of the stored splits that differ from what their generator produces now."""
    stale = []
    for module in _modules():
        for split in module.SPLITS:
            generated: list[Task] = module.generate_split(split)
            try:
                stored = list(load_packaged(module.FAMILY, module.VERSION, split).values())
            except Exception:
                stale.append(f"{module.FAMILY}-v{module.VERSION}-{split}")
                continue
            if [t.to_record() for t in generated] != [t.to_record() for t in stored]:
                stale.append(f"{module.FAMILY}-v{module.VERSION}-{split}")
    return stale


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 if stale")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_splits()
        print("stale: " + ", ".join(stale) if stale else "all stored task sets are up to date")
        return 1 if stale else 0
    for module in _modules():
        for split in module.SPLITS:
            path = DATA_DIR / f"{module.FAMILY}-v{module.VERSION}-{split}.jsonl"
            tasks = module.generate_split(split)
            write_task_file(tasks, path)
            print(f"wrote {len(tasks)} tasks to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
