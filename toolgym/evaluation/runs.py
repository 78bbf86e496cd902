"""Runs read back from disk: the records and summaries of one evaluation, for reports.

A run is either

* a results folder (the ``--out`` of ``toolgym eval``): every ``*.jsonl`` results file with a
  manifest beside it (:func:`~toolgym.evaluation.results.manifest_path`), each summarized again
  with its family's metrics; or
* a run summary (``<out>/runs/<run_id>.json``, written by ``toolgym eval``): its ``files`` (paths
  relative to the out folder) give the records, its ``summaries`` the summaries and its other keys
  (``started``, ``wall_s``, ``episodes_per_s``, ``argv``, ...) the run's facts.

:func:`load_run` reads either; its :class:`Run` maps ``(env id, agent label)`` to the records, in
file order, and holds one summary per results file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgym.benchmarks.score import F1_METRICS
from toolgym.envs import family_of
from toolgym.errors import UserInputError
from toolgym.evaluation.profile import profile_of
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.report import summarize
from toolgym.evaluation.results import manifest_path, read_records, run_records

EXPECTED = (
    "a results folder (the --out of toolgym eval, holding *.jsonl files with their "
    "*.manifest.json) or a run summary JSON (<out>/runs/<run_id>.json)"
)
"""What :func:`load_run` accepts, for its error messages."""

SUMMARY_KEYS = ("run_id", "files", "summaries")
"""The keys every run summary JSON has."""


@dataclass
class Run:
    """One evaluation read back from disk.

    Attributes:
        name: its name in reports: the folder's name, or the run id.
        path: the folder or the run summary file it was read from.
        summaries: one per (env id, agent) results file
            (:func:`~toolgym.evaluation.report.summarize`).
        records: (env id, agent label) -> the records, in file order.
        meta: the run's facts when known (``argv``, ``started``, ``wall_s``, ``episodes_per_s``,
            ...).
    """

    name: str
    path: Path
    summaries: list[dict[str, Any]] = field(default_factory=list)
    records: dict[tuple[str, str], list[EpisodeRecord]] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)


def summarize_records(env_id: str, agent: str, records: Sequence[EpisodeRecord]) -> dict[str, Any]:
    """The summary of one env and agent, over its family's metrics.

    An env id no family registers any more is summarized over
    :data:`~toolgym.benchmarks.score.F1_METRICS`.
    """
    try:
        spec = family_of(env_id)
    except KeyError:
        summary = summarize(records, F1_METRICS)
    else:
        profile = profile_of(spec)
        summary = summarize(
            records, spec.metrics, profile.breakdown, profile.headline, profile.known_metrics(spec)
        )
    summary["env"], summary["agent"] = env_id, agent
    return summary


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise UserInputError(f"cannot read {path} as JSON ({e}); expected {EXPECTED}") from None


def _source(manifest: dict[str, Any]) -> str:
    """Where a results file's tasks came from: its split, or its task file's name."""
    tasks = manifest.get("tasks")
    if isinstance(tasks, dict):
        if tasks.get("task_file"):
            return Path(str(tasks["task_file"])).stem
        if tasks.get("split"):
            return str(tasks["split"])
    return ""


def _read_results_file(path: Path) -> tuple[str, str, str, list[EpisodeRecord]]:
    """``(env id, agent label, task source, records)`` of one results file."""
    manifest_file = manifest_path(path)
    manifest: dict[str, Any] = {}
    if manifest_file.exists():
        data = _read_json(manifest_file)
        manifest = data if isinstance(data, dict) else {}
    saved, _ = read_records(path, repair=False)
    records = run_records(saved, manifest)  # the latest run's tasks, nothing else
    first = records[0] if records else None
    env_id = str(manifest.get("env_id") or (first.env_id if first else ""))
    agent = str(manifest.get("agent") or (first.agent if first else ""))
    if not env_id:
        raise UserInputError(
            f"{path} names no env: expected an env_id in {manifest_file.name} or in its records, "
            "found neither"
        )
    return env_id, agent or "agent", _source(manifest), records


def _add(
    run: Run,
    files: Sequence[Path],
    summaries: Sequence[dict[str, Any]] | None = None,
) -> None:
    """Read ``files`` into ``run``: its records and (without ``summaries``) new summaries.

    Two files of one env and agent (another split, another task file) get the task source after
    the agent's label, so that neither hides the other.
    """
    read = [_read_results_file(p) for p in files]
    pairs = [(env_id, agent) for env_id, agent, _, _ in read]
    for i, (env_id, agent, source, records) in enumerate(read):
        label = agent
        if pairs.count((env_id, agent)) > 1:
            label = f"{agent} [{source or files[i].stem}]"
        run.records[(env_id, label)] = records
        if summaries is None:
            run.summaries.append(summarize_records(env_id, label, records))
    if summaries is not None:
        run.summaries.extend(dict(s) for s in summaries)


def _load_folder(path: Path) -> Run:
    files = sorted(p for p in path.glob("*.jsonl") if manifest_path(p).exists())
    if not files:
        found = sorted(p.name for p in path.iterdir())[:5]
        shown = ", ".join(found) + (", ..." if len(found) == 5 else "") if found else "nothing"
        raise UserInputError(
            f"{path} holds no results file (a *.jsonl with its *.manifest.json beside it); "
            f"expected {EXPECTED}, found {shown}"
        )
    run = Run(path.resolve().name or str(path), path)
    _add(run, files)
    manifests = [_read_json(manifest_path(p)) for p in files]
    versions = sorted(
        {str(m.get("toolgym_version", "")) for m in manifests if isinstance(m, dict)} - {""}
    )
    run.meta = {
        "results_files": len(files),
        "episodes": sum(len(r) for r in run.records.values()),
    }
    if versions:
        run.meta["toolgym_version"] = ", ".join(versions)
    return run


def _load_summary(path: Path) -> Run:
    data = _read_json(path)
    if not isinstance(data, dict) or any(k not in data for k in SUMMARY_KEYS):
        keys = sorted(data)[:8] if isinstance(data, dict) else type(data).__name__
        raise UserInputError(
            f"{path} is not a run summary: expected a JSON object with the keys "
            f"{', '.join(SUMMARY_KEYS)} ({EXPECTED}), found {keys}"
        )
    files, summaries = data["files"], data["summaries"]
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        raise UserInputError(
            f"{path}: expected 'files' to be a list of paths, found {type(files).__name__}"
        )
    if not isinstance(summaries, list) or not all(isinstance(s, dict) for s in summaries):
        raise UserInputError(
            f"{path}: expected 'summaries' to be a list of objects, found {summaries!r:.80}"
        )
    out_dir = path.resolve().parent.parent
    paths = [out_dir / f for f in files]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise UserInputError(
            f"{path} lists results files that are not there: {', '.join(missing)} "
            f"(expected under {out_dir}, the run's out folder)"
        )
    run = Run(str(data["run_id"]), path)
    _add(run, paths, summaries)
    run.meta = {k: v for k, v in data.items() if k not in SUMMARY_KEYS}
    return run


def load_run(path: str | Path) -> Run:
    """Read one run: a results folder or a run summary JSON.

    Args:
        path: the folder (``toolgym eval --out``) or ``<out>/runs/<run_id>.json``.

    Returns:
        The run, its records in file order; a folder's summaries are recomputed with each
        family's metrics, a run summary's are its own.

    Raises:
        UserInputError: ``path`` is neither, or names results files that are missing.
    """
    p = Path(path)
    if p.is_dir():
        return _load_folder(p)
    if p.is_file() and p.suffix == ".json":
        return _load_summary(p)
    if p.is_file() and p.suffix == ".jsonl":
        raise UserInputError(
            f"{p} is one results file; expected {EXPECTED}: give its folder ({p.parent})"
        )
    found = "a file" if p.is_file() else "nothing there"
    raise UserInputError(f"cannot read the run {p}: expected {EXPECTED}, found {found}")


def load_runs(paths: Sequence[str | Path]) -> list[Run]:
    """Read several runs (:func:`load_run`); names two runs share are made unique.

    A shared name gets the name of the folder above the run's in front (``a/results``,
    ``b/results``; for a run summary, its out folder's name); when that is still shared, a number after it (``results (2)``).
    """
    runs = [load_run(p) for p in paths]
    names = [r.name for r in runs]
    for run in runs:
        if names.count(run.name) > 1:
            home = run.path.resolve().parent
            if run.path.is_file():  # a run summary: <out>/runs/<run_id>.json
                home = home.parent
            run.name = f"{home.name}/{run.name}"
    seen: dict[str, int] = {}
    for run in runs:
        count = seen.get(run.name, 0) + 1
        seen[run.name] = count
        if count > 1:
            run.name = f"{run.name} ({count})"
    return runs
