"""The results files of an evaluation: the folder's summaries, merged, and one file per run.

``summary.json`` and ``summary.csv`` (per env), ``summary_paper.{txt,csv}`` (the paper's layout)
are rewritten by every run, merged per env and agent with what the folder holds under a lock,
so runs into one folder at the same time keep each other's; ``runs/<run id>.json`` keeps each
run's own summary and is never overwritten.
"""

from __future__ import annotations

import contextlib
import csv
import datetime
import hashlib
import io
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import filelock

from toolgym.evaluation.report import COUNT_ROW, format_paper_table, paper_layout, summary_columns
from toolgym.evaluation.results import atomic_write

SUMMARY_LOCK = "summary.lock"
"""The lock file that runs writing summaries into one folder take in turn."""


@contextlib.contextmanager
def summaries_lock(out_dir: str | Path, timeout_s: float = 120.0) -> Iterator[None]:
    """Hold the folder's summary lock (runs in other processes wait for it)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with filelock.FileLock(str(out / SUMMARY_LOCK), timeout=timeout_s):
        yield


def merged_with_saved(
    summaries: Sequence[Mapping[str, Any]], out_dir: str | Path
) -> list[dict[str, Any]]:
    """``summaries`` merged into the folder's ``summary.json``, per env and agent.

    An env and agent this run summarized replaces its saved summary in place; the others saved
    (a run of other envs into the same folder, at the same time or before) are kept, then this
    run's new ones follow. A missing or unreadable ``summary.json`` merges as empty. Call it
    under :func:`summaries_lock`.
    """
    try:
        saved = json.loads((Path(out_dir) / "summary.json").read_text(encoding="utf-8"))
        old = [dict(s) for s in saved["per_env"] if isinstance(s, dict)]
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, KeyError, TypeError):
        old = []
    new = {(s.get("env"), s.get("agent")): dict(s) for s in summaries}
    merged = [new.pop((s.get("env"), s.get("agent")), s) for s in old]
    return merged + list(new.values())


def write_summaries(summaries: Sequence[Mapping[str, Any]], out_dir: str | Path) -> dict[str, Path]:
    """Write ``summary.json``, ``summary.csv`` (per env) and ``summary_paper.{txt,csv}``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out / "summary.json",
        "csv": out / "summary.csv",
        "paper_txt": out / "summary_paper.txt",
        "paper_csv": out / "summary_paper.csv",
    }
    paper = paper_layout(summaries)
    text = json.dumps({"per_env": list(summaries), "paper": paper}, indent=2) + "\n"
    atomic_write(paths["json"], text.encode())
    _write_csv(paths["csv"], summaries, summary_columns(summaries))
    atomic_write(paths["paper_txt"], (format_paper_table(paper) + "\n").encode())
    columns = list(dict.fromkeys(k for r in paper for k in r if k != COUNT_ROW))
    _write_csv(paths["paper_csv"], paper, columns)
    return paths


RUNS_FOLDER = "runs"
"""The folder of a results folder that keeps one summary file per run of ``toolgym eval``."""


def new_run_id(started: datetime.datetime, argv: Sequence[str]) -> str:
    """A run's id: its UTC start time and a hash of its command line.

    >>> new_run_id(datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC), ["eval"])
    '20260102-030405-1bbd17'
    """
    digest = hashlib.sha256("\0".join(argv).encode("utf-8", "backslashreplace")).hexdigest()
    return f"{started.astimezone(datetime.UTC):%Y%m%d-%H%M%S}-{digest[:6]}"


def write_run_summary(
    out_dir: str | Path,
    summaries: Sequence[Mapping[str, Any]],
    files: Sequence[Path],
    *,
    started: datetime.datetime,
    wall_s: float,
    played: int,
    resumed: int,
    argv: Sequence[str],
) -> Path:
    """Keep one run's summary in ``<out>/runs/<run id>.json`` (never overwritten by a later run).

    Args:
        out_dir: the results folder.
        summaries: the run's summaries (:func:`summarize`).
        files: the results files the run wrote to (kept relative to ``out_dir``).
        started: when the run started.
        wall_s: its wall time.
        played: the episodes it played.
        resumed: the episodes it found recorded already.
        argv: its command line.

    Returns:
        The summary file's path. Its JSON holds ``run_id``, ``started`` (ISO 8601, UTC),
        ``wall_s``, ``episodes``, ``played``, ``resumed``, ``episodes_per_s`` (played episodes
        per second of wall time), ``argv``, ``files`` and ``summaries``.
    """
    out = Path(out_dir)
    folder = out / RUNS_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    run_id = new_run_id(started, argv)
    path = folder / f"{run_id}.json"
    suffix = 1
    while path.exists():  # two runs of one command line in the same second
        suffix += 1
        path = folder / f"{run_id}-{suffix}.json"
    data = {
        "run_id": path.stem,
        "started": started.astimezone(datetime.UTC).isoformat(timespec="seconds"),
        "wall_s": round(wall_s, 3),
        "episodes": played + resumed,
        "played": played,
        "resumed": resumed,
        "episodes_per_s": round(played / wall_s, 4) if wall_s > 0 else 0.0,
        "argv": list(argv),
        "files": [os.path.relpath(f, out) for f in files],
        "summaries": list(summaries),
    }
    atomic_write(path, (json.dumps(data, indent=2, default=repr) + "\n").encode())
    return path


def _write_csv(path: Path, rows: Sequence[Mapping[str, Any]], columns: list[str]) -> None:
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=columns, extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    atomic_write(path, buffer.getvalue().encode("utf-8"))
