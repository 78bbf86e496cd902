"""Loaders for ToolBench's and StableToolBench's files: tool folders, query files, response caches.

* :func:`load_toolbench_tools` reads a ``data/toolenv/tools/`` folder
  (``<Category>/<standard_tool_name>.json``) and :func:`write_toolbench_tools` writes one back.
* :func:`load_query_file` (in :mod:`.query_files`) reads a query file with inline API documents (ToolBench's
  ``G1_query.json``, StableToolBench's ``solvable_queries/test_instruction/*.json``) into
  :class:`QueryRecord` entries and the library of the tools they offer;
  :func:`load_minimal_queries` reads the minimal form against a library loaded beforehand.
* :func:`load_response_cache` (in :mod:`.cache_files`) re-keys a StableToolBench response cache
  by :func:`~toolgym.simulators.tool_library.canonical.canonical_key`.

Every irregularity is repaired the same way every time and recorded in a
:class:`~toolgym.simulators.tool_library.model.RepairReport` (kinds: :data:`REPAIR_KINDS`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from toolgym.families.rapid_api.world.cache_files import (
    CACHE_REPAIR_KINDS,
    find_api,
    load_response_cache,
)
from toolgym.families.rapid_api.world.query_files import (
    QUERY_REPAIR_KINDS,
    QueryRecord,
    load_minimal_queries,
    load_query_file,
)
from toolgym.families.rapid_api.world.toolbench_files import (
    REPAIR_KINDS as DOC_REPAIR_KINDS,
)
from toolgym.families.rapid_api.world.toolbench_files import (
    decode_json,
    parse_tool,
    read_trimmed,
)
from toolgym.simulators.tool_library.model import RepairReport, ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.naming import dedupe_name

__all__ = [
    "REPAIR_KINDS",
    "QueryRecord",
    "find_api",
    "load_minimal_queries",
    "load_query_file",
    "load_response_cache",
    "load_toolbench_tools",
    "write_toolbench_tools",
]

REPAIR_KINDS: dict[str, str] = {**DOC_REPAIR_KINDS, **QUERY_REPAIR_KINDS, **CACHE_REPAIR_KINDS}
"""Every repair kind the loaders record, with what was done."""

_SKIP: Any = object()


# ----------------------------------------------------------------------------------------------
# Tool folders.


def _read_tool_file(path: str, source: str, cap: int, report: RepairReport) -> Any:
    """A tool file's parsed JSON, or ``_SKIP`` (reported) when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            raw = handle.read() if size <= cap else None
        if raw is None:
            raw = read_trimmed(Path(path), cap)
            if raw is None:
                report.add(
                    source,
                    "file_too_large",
                    f"expected at most {cap} bytes without the bulky API fields; "
                    f"the file has {size}: skipped",
                )
                return _SKIP
            report.add(
                source,
                "large_file_trimmed",
                f"{size} bytes over the cap of {cap}: read without test_endpoint, schema, "
                f"code and convert_code ({len(raw)} bytes kept)",
            )
    except OSError as error:
        report.add(source, "unreadable_file", f"cannot be read: {error}")
        return _SKIP
    except ValueError as error:
        report.add(source, "bad_json", f"expected JSON: {error}")
        return _SKIP
    try:
        return decode_json(raw, source, report)
    except ValueError as error:
        report.add(source, "bad_json", f"expected JSON: {error}")
        return _SKIP


def _sorted_entries(path: str) -> list[os.DirEntry[str]]:
    with os.scandir(path) as entries:
        return sorted(entries, key=lambda e: e.name)


def load_toolbench_tools(
    root: str | os.PathLike[str],
    *,
    max_file_bytes: int = 8_000_000,
    report: RepairReport | None = None,
) -> ToolLibrary:
    """Read a ToolBench tools folder: ``<Category>/<standard_tool_name>.json``, one tool a file.

    Category folders and files are read in sorted order; ``api.py`` files, sub-folders and
    anything not ending in ``.json`` are ignored. A tool's standardized name is its file stem;
    when an earlier category already had that stem the tool gets a stable hash suffix
    (``duplicate_tool``). Its category is the document's own ``category_name`` when it has one,
    else the folder's name as it is (``News_Media``: the folder name cannot tell ``_`` from
    ``/``, ``,`` or a space, so it is not guessed back).

    A file larger than ``max_file_bytes`` is not loaded whole: it is scanned through a memory
    map and read without the ``test_endpoint``, ``schema``, ``code`` and ``convert_code`` fields
    of its API entries (``large_file_trimmed``); if the rest is still over the cap the tool is
    skipped (``file_too_large``).

    Args:
        root: the folder (``data/toolenv/tools``).
        max_file_bytes: the largest file read whole, and the largest trimmed one kept.
        report: where repairs are recorded (a new report when ``None``); it becomes the
            library's :attr:`~ToolLibrary.report`.

    Returns:
        The library, tools in folder order.

    Raises:
        FileNotFoundError: ``root`` is not a folder.
        ValueError: ``max_file_bytes`` is not positive.
    """
    folder = os.fspath(root)
    if not os.path.isdir(folder):
        raise FileNotFoundError(
            f"expected a ToolBench tools folder of <Category>/<tool>.json files, got {folder!r}"
        )
    if max_file_bytes < 1:
        raise ValueError(f"expected a positive max_file_bytes, got {max_file_bytes}")
    report = report if report is not None else RepairReport()
    files: list[tuple[str, str, str]] = []
    for category in _sorted_entries(folder):
        if not category.is_dir():
            continue
        for entry in _sorted_entries(category.path):
            if entry.name.endswith(".json") and entry.is_file():
                files.append((category.name, entry.name[: -len(".json")], entry.path))
    stems = {stem for _, stem, _ in files}
    assigned: set[str] = set()
    tools: list[ToolDoc] = []
    for category_dir, stem, path in files:
        source = f"{category_dir}/{stem}.json"
        data = _read_tool_file(path, source, max_file_bytes, report)
        if data is _SKIP:
            continue
        name = stem
        if name in assigned:
            name = dedupe_name(stem, stems | assigned, category_dir)
            report.add(
                source, "duplicate_tool", f"{stem!r} is taken by an earlier tool: named {name!r}"
            )
        tool = parse_tool(
            data, standard_name=name, category_dir=category_dir, source=source, report=report
        )
        if tool is not None:
            assigned.add(name)
            tools.append(tool)
    return ToolLibrary(tools, report)


def _check_part(text: str, what: str, tool: ToolDoc) -> None:
    if not text or text in (".", "..") or "/" in text or "\\" in text or "\x00" in text:
        raise ValueError(
            f"expected a {what} usable as a file name for tool {tool.name!r}, got {text!r}"
        )


def write_toolbench_tools(
    library: ToolLibrary | Iterable[ToolDoc], root: str | os.PathLike[str]
) -> list[Path]:
    """Write tools as a ToolBench tools folder that :func:`load_toolbench_tools` reads back.

    Each tool goes to ``<category_dir>/<standard_name>.json`` (UTF-8, indent 2, non-ASCII
    kept), with its ``category_name``, so loading the folder gives equal tools. A default of
    ``""`` is written like a missing one (ToolBench writes no ``null`` defaults) and reads back as
    ``None``.

    Args:
        library: the tools.
        root: the folder to write (created when missing; existing files are overwritten).

    Returns:
        The files written, in library order.

    Raises:
        ValueError: a category folder or standardized name that is not a plain file name.
    """
    base = Path(root)
    written: list[Path] = []
    made: set[Path] = set()
    for tool in library:
        _check_part(tool.category_dir, "category folder", tool)
        _check_part(tool.standard_name, "standardized name", tool)
        folder = base / tool.category_dir
        if folder not in made:
            folder.mkdir(parents=True, exist_ok=True)
            made.add(folder)
        path = folder / f"{tool.standard_name}.json"
        text = json.dumps(tool.to_json(), ensure_ascii=False, indent=2)
        path.write_bytes(text.encode("utf-8"))
        written.append(path)
    return written
