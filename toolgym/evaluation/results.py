"""Results files: one JSONL file of episode records per run, its manifest and its lock.

A run's records live in ``<out>/<env>__<label>__<source>.jsonl``, one JSON line per episode,
with the settings that produced them in ``<same name>.manifest.json`` next to it. The file is
made to survive anything that can stop a run:

* each record is appended with one ``write`` of a whole line, so a kill leaves at worst one torn
  last line, which reading drops (it is played again);
* reading is tolerant: a torn or undecodable line (a UTF-8 sequence cut at the end included) and
  a second record of one task are dropped, and the file is rewritten without them, atomically;
* a resume is refused (:class:`ResultsMismatchError`) when the manifest's settings differ from
  the run's, so records of different settings never mix;
* a lock file (``<same name>.lock``, held through :mod:`filelock`) stops a second writer
  (:class:`ResultsLockedError`); the operating system releases it when a process dies;
* the manifest's ``run`` names the tasks of the latest run (its ``limit`` and ``task_ids``), and
  only their records count, for that run and for every later reader (:func:`run_records`): a
  run of the first 20 tasks after one of 300 reports 20 episodes everywhere, while the other 280
  stay on disk for a run that asks for them again; a record of a task no run asked for (a line
  appended by hand) is never counted.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import filelock

from toolgym._version import __version__
from toolgym.errors import ToolgymError, UserInputError
from toolgym.evaluation.records import EpisodeRecord

MANIFEST_VERSION = 1
"""The layout of manifest files."""


class ResultsMismatchError(ToolgymError, ValueError):
    """A resume whose settings differ from those of the records already on disk."""


class ResultsLockedError(ToolgymError, RuntimeError):
    """Another process is writing the same results file."""


def record_key(task_id: Any) -> str:
    """The key that identifies a task's record in a results file."""
    return json.dumps(task_id, sort_keys=True)


def atomic_write(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a reader sees the old or the new file, never half."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)  # mkstemp makes files only the owner can read
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_SHAPES: dict[str, type | tuple[type, ...]] = {
    "instruction": str,
    "actions": list,
    "turns": list,
    "steps": int,
    "metrics": (dict, type(None)),
    "error": (dict, type(None)),
}
"""The types a record's main fields must have to be read back."""


def _as_record(data: Any) -> EpisodeRecord | None:
    """``data`` as a record, or ``None`` when it is not one (a field missing or mistyped)."""
    if not isinstance(data, dict) or "task_id" not in data:
        return None
    if any(not isinstance(data.get(k), t) for k, t in _SHAPES.items() if k in data):
        return None
    try:
        record = EpisodeRecord.from_dict(data)
        json.dumps(record.task_id)
    except (TypeError, ValueError):
        return None
    return record


def read_records(path: Path, *, repair: bool = True) -> tuple[list[EpisodeRecord], int]:
    """The complete records of a results file, and how many lines were dropped.

    A line is dropped when it is torn (no newline at the end of the file), is not UTF-8 or not a
    JSON record, or repeats a task already recorded (the first record of a task is kept).

    Args:
        path: the JSONL file (missing: no records).
        repair: rewrite the file without the dropped lines (atomically).

    Returns:
        The records, in file order, and the number of lines dropped.
    """
    if not path.exists():
        return [], 0
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    torn = lines.pop()  # the bytes after the last newline: b"" unless the last line is torn
    kept: list[bytes] = []
    records: list[EpisodeRecord] = []
    seen: set[str] = set()
    dropped = 1 if torn else 0
    for line in lines:
        try:
            data = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            dropped += 1
            continue
        record = _as_record(data)
        if record is None:
            dropped += 1
            continue
        key = record_key(record.task_id)
        if key in seen:
            dropped += 1
            continue
        seen.add(key)
        records.append(record)
        kept.append(line + b"\n")
    if dropped and repair:
        atomic_write(path, b"".join(kept))
    return records, dropped


def manifest_path(path: Path) -> Path:
    """Where the manifest of the results file ``path`` lives."""
    return path.with_name(path.name.removesuffix(".jsonl") + ".manifest.json")


def canonical(value: Any) -> Any:
    """``value`` as JSON that is the same in every process.

    Mappings get string keys, sets become sorted lists, tuples lists, non-finite floats strings,
    paths strings, and any other object the name of its type (never its ``repr``, which may hold
    an address).

    >>> canonical({"b": {3, 1}, ("x", 1): float("nan"), "c": object()})
    {'b': [1, 3], "('x', 1)": 'nan', 'c': 'builtins.object'}
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Mapping):
        return {k if isinstance(k, str) else str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        items = [canonical(v) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return f"{type(value).__module__}.{type(value).__qualname__}"


def make_manifest(settings: Mapping[str, Any]) -> dict[str, Any]:
    """A manifest: the run's settings (see :func:`canonical`), the toolgym version, the layout."""
    manifest: dict[str, Any] = {
        "manifest_version": MANIFEST_VERSION,
        "toolgym_version": __version__,
    }
    manifest.update(canonical(dict(settings)))
    return manifest


RUN_KEY = "run"
"""The manifest's entry for the latest run's tasks; not a setting (a run may ask for more tasks
or fewer than the last one did, and resume)."""


def run_entry(task_ids: Sequence[Any], limit: int | None) -> dict[str, Any]:
    """The manifest's ``run``: the run's ``limit``, its task ids and their count and hash."""
    keys = [record_key(t) for t in task_ids]
    digest = hashlib.sha256("\n".join(keys).encode("utf-8", "backslashreplace")).hexdigest()
    return {
        "limit": limit,
        "task_count": len(keys),
        "task_ids": canonical(list(task_ids)),
        "task_ids_sha256": digest,
    }


def run_records(
    records: Sequence[EpisodeRecord], manifest: Mapping[str, Any]
) -> list[EpisodeRecord]:
    """The records of the manifest's latest run, in its task order.

    A record of another env or agent than the manifest's (a line from another file) never
    counts; without a ``run`` (a manifest written before runs were recorded), every other record
    does, in file order.
    """
    own = [
        r
        for r in records
        if (not r.env_id or r.env_id == manifest.get("env_id", r.env_id))
        and (not r.agent or r.agent == manifest.get("agent", r.agent))
    ]
    run = manifest.get(RUN_KEY)
    ids = run.get("task_ids") if isinstance(run, dict) else None
    if not isinstance(ids, list):
        return own
    by_key = {record_key(r.task_id): r for r in own}
    return [by_key[k] for k in (record_key(t) for t in ids) if k in by_key]


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """One line per setting that differs: its value on disk and now (``run`` is no setting)."""
    keys = sorted((set(old) | set(new)) - {RUN_KEY})
    return [
        f"{k}: {old.get(k, '(unset)')!r} on disk, {new.get(k, '(unset)')!r} now"
        for k in keys
        if old.get(k) != new.get(k)
    ]


class ResultsFile:
    """The results file of one run, locked while open.

    Args:
        path: the JSONL file (created with its folder when missing).
        settings: what produced the records (env, agent, model, seed, ...), written as the
            manifest; see :func:`make_manifest`.
        resume: keep the records already there (refused when their settings differ); when
            ``False``, the file and its manifest are started over.
        task_ids: the tasks of this run, kept as the manifest's ``run`` (with ``limit``) when
            the file is opened; ``None`` leaves the run unrecorded (every record counts).
        limit: the run's ``limit``, recorded beside its tasks.

    Example:
        >>> with ResultsFile(path, {"env_id": "toolbench/HomeSearch-v0"}) as results:
        ...     done = results.records  # what an earlier run saved
        ...     results.append(record)  # doctest: +SKIP
    """

    def __init__(
        self,
        path: str | Path,
        settings: Mapping[str, Any],
        *,
        resume: bool = True,
        task_ids: Sequence[Any] | None = None,
        limit: int | None = None,
    ):
        self.path = Path(path)
        self.manifest = make_manifest(settings)
        if task_ids is not None:
            self.manifest[RUN_KEY] = run_entry(task_ids, limit)
        self.resume = resume
        self.records: list[EpisodeRecord] = []
        self.dropped = 0
        self._lock = filelock.FileLock(str(self.path) + ".lock", timeout=0)
        self._fd: int | None = None

    def _acquire(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._lock.acquire()
        except filelock.Timeout:
            raise ResultsLockedError(
                f"another evaluation is writing {self.path} (it holds {self._lock.lock_file}); "
                "wait for it to end, or write this run elsewhere with another --out"
            ) from None
        except OSError as e:
            raise UserInputError(
                f"cannot write results in {self.path.parent}: {e.strerror or e}"
            ) from None

    def check(self) -> None:
        """Check, writing nothing, that :meth:`open` would succeed.

        The lock is free and the manifest agrees: what a command line checks before it loads a
        model.

        Raises:
            ResultsLockedError: another process holds the file.
            ResultsMismatchError: its records were made with other settings.
            UserInputError: the folder cannot be written.
        """
        self._acquire()
        try:
            self._prepare(dry_run=True)
        finally:
            self._lock.release()

    def open(self) -> ResultsFile:
        """Take the lock, check or write the manifest and read what an earlier run saved."""
        self._acquire()
        try:
            self._prepare(dry_run=False)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except BaseException:
            self._lock.release()
            raise
        return self

    def _prepare(self, dry_run: bool) -> None:
        """Read the saved records and check their manifest; without them, write a new one."""
        manifest_file = manifest_path(self.path)
        records: list[EpisodeRecord] = []
        if self.resume and self.path.exists():
            records, self.dropped = read_records(self.path, repair=not dry_run)
        if records:
            self._check_manifest(manifest_file)
        self.records = records
        if dry_run:
            return
        if not self.resume:
            self.path.unlink(missing_ok=True)
        if not records or RUN_KEY in self.manifest:  # this run's settings (and tasks) are kept
            data = json.dumps(self.manifest, indent=2, sort_keys=True) + "\n"
            atomic_write(manifest_file, data.encode())

    def _check_manifest(self, manifest_file: Path) -> None:
        if not manifest_file.exists():
            raise ResultsMismatchError(
                f"{self.path} holds records but no manifest ({manifest_file.name}), so the "
                "settings that produced them are unknown; start over with --no-resume or "
                "write to another --out"
            )
        try:
            old = json.loads(manifest_file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
            raise ResultsMismatchError(
                f"the manifest {manifest_file} cannot be read ({e}); start over with "
                "--no-resume or write to another --out"
            ) from None
        differences = _differences(old if isinstance(old, dict) else {}, self.manifest)
        if differences:
            raise ResultsMismatchError(
                f"{self.path} was written with other settings ("
                + "; ".join(differences)
                + "): resume with the same settings, start over with --no-resume, "
                "or write to another --out"
            )

    def append(self, record: EpisodeRecord) -> None:
        """Save one record: one line, written whole with one ``write`` call on an appending file."""
        if self._fd is None:
            raise RuntimeError("ResultsFile.append needs an open file: use it in a with block")
        line = json.dumps(record.to_dict(), ensure_ascii=False, default=repr) + "\n"
        data = line.encode("utf-8", errors="backslashreplace")
        written = os.write(self._fd, data)
        while written < len(data):  # a short write (a signal, a full disk): finish the line
            written += os.write(self._fd, data[written:])

    def close(self) -> None:
        """Flush the file to disk and release the lock."""
        if self._fd is not None:
            try:
                os.fsync(self._fd)
            finally:
                os.close(self._fd)
                self._fd = None
        if self._lock.is_locked:
            self._lock.release()

    def __enter__(self) -> ResultsFile:
        """:meth:`open`."""
        return self.open()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
