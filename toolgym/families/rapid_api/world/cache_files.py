"""StableToolBench's response cache, re-keyed by canonical call keys.

The cache folder is ``<standard_category>/<standardize(tool)>_for_<standard_category>/<api>.json``,
``<api>`` being ``change_name(standardize(api_name))``. Each file maps ``str(tool_input)`` (the
Python repr of the arguments dict: ``"{'q': 'birthday party ideas'}"``) to a stored reply
``{"error": ..., "response": ...}``. :func:`load_response_cache` reads the keys as Python literals
(with :func:`ast.literal_eval`, size-guarded) and keys every reply by
:func:`~toolgym.simulators.tool_library.canonical.canonical_key` instead, so calls a real API
treats alike (key order, ``1`` and ``"1"`` for a number, defaults left out) find one entry.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

from toolgym.families.rapid_api.world.toolbench_files import decode_json
from toolgym.simulators.tool_library.canonical import canonical_key
from toolgym.simulators.tool_library.model import ApiDoc, RepairReport, ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.naming import change_name, standardize

MAX_KEY_CHARS = 100_000
"""The longest cache key read; longer ones are skipped (``cache_key_too_long``)."""

CACHE_REPAIR_KINDS: dict[str, str] = {
    "bad_cache_file": "a cache file that is not a JSON object of replies; skipped",
    "cache_key_too_long": f"a cache key over {MAX_KEY_CHARS} characters; skipped",
    "bad_cache_key": "a cache key that is not the Python literal of a dict; skipped",
    "bad_cache_reply": "a stored reply that is not a JSON object; skipped",
    "odd_cache_folder": "a tool folder not ending in _for_<category>: all of it names the tool",
    "unknown_cache_tool": "a cached tool not in the library: kept under its folder's name",
    "unknown_cache_api": "a cached API not in the library's tool: kept under its file's name",
    "cache_collapsed": "entries with one canonical key and equal replies, merged",
    "cache_conflict": "entries with one canonical key and different replies: the first kept",
}
"""The repair kinds of response caches."""


def api_index(tool: ToolDoc) -> dict[str, ApiDoc]:
    """The tool's APIs by function base (``change_name(standardize(name))``), first one winning.

    >>> from toolgym.simulators.tool_library.model import ApiDoc, ToolDoc
    >>> tool = ToolDoc("T", "t", "", "Data", (ApiDoc("Get Channel Clips"), ApiDoc("id")))
    >>> sorted(api_index(tool))
    ['get_channel_clips', 'is_id']
    """
    index: dict[str, ApiDoc] = {}
    for api in tool.apis:
        index.setdefault(change_name(standardize(api.name)), api)
    return index


def find_api(tool: ToolDoc, name: str) -> ApiDoc | None:
    """The API of ``tool`` whose display name is ``name``, else whose function base is ``name``'s.

    Function bases are the names of cache files and of ToolBench's functions' API part.
    """
    found = tool.api(name)
    if found is not None:
        return found
    index = api_index(tool)
    return index.get(name) or index.get(change_name(standardize(name)))


def parse_cache_key(key: str) -> dict[Any, Any]:
    """The arguments dict of a cache key (the Python repr of a dict).

    >>> parse_cache_key("{'q': 'birthday party ideas', 'page': 1}")
    {'q': 'birthday party ideas', 'page': 1}

    Raises:
        ValueError: the key is too long, not a Python literal, or not a dict.
    """
    if len(key) > MAX_KEY_CHARS:
        raise ValueError(f"expected at most {MAX_KEY_CHARS} characters, got {len(key)}")
    try:
        value = ast.literal_eval(key)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as error:
        raise ValueError(f"expected a Python dict literal, got {key!r:.80} ({error})") from None
    if not isinstance(value, dict):
        raise ValueError(f"expected a Python dict literal, got a {type(value).__name__}")
    return value


def _dirs(path: str) -> list[os.DirEntry[str]]:
    with os.scandir(path) as entries:
        return sorted((e for e in entries if e.is_dir()), key=lambda e: e.name)


def _json_files(path: str) -> list[os.DirEntry[str]]:
    with os.scandir(path) as entries:
        found = (e for e in entries if e.name.endswith(".json") and e.is_file())
        return sorted(found, key=lambda e: e.name)


def _read_replies(path: str, source: str, report: RepairReport) -> dict[str, Any] | None:
    try:
        data = decode_json(Path(path).read_bytes(), source, report)
    except OSError as error:
        report.add(source, "unreadable_file", f"cannot be read: {error}")
        return None
    except ValueError as error:
        report.add(source, "bad_cache_file", f"expected a JSON object of replies: {error}")
        return None
    if not isinstance(data, dict):
        report.add(source, "bad_cache_file", f"expected a JSON object, got {type(data).__name__}")
        return None
    return data


class _Collector:
    """Replies by canonical key, with where each came from (for conflict reports)."""

    def __init__(self, report: RepairReport) -> None:
        self.report = report
        self.replies: dict[str, Any] = {}
        self.origins: dict[str, str] = {}

    def add_file(
        self, path: str, source: str, tool: str, api_name: str, api: ApiDoc | None
    ) -> None:
        data = _read_replies(path, source, self.report)
        if data is None:
            return
        for key in sorted(data):
            reply = data[key]
            try:
                arguments = parse_cache_key(key)
            except ValueError as error:
                kind = "cache_key_too_long" if len(key) > MAX_KEY_CHARS else "bad_cache_key"
                self.report.add(source, kind, str(error))
                continue
            if not isinstance(reply, dict):
                self.report.add(
                    source, "bad_cache_reply", f"{key!r:.80}: expected an object, got {reply!r:.80}"
                )
                continue
            canonical = canonical_key(tool, api_name, arguments, api)
            origin = f"{source} {key!r:.80}"
            if canonical not in self.replies:
                self.replies[canonical] = reply
                self.origins[canonical] = origin
            elif self.replies[canonical] == reply:
                self.report.add(
                    source, "cache_collapsed", f"{origin} is {self.origins[canonical]}: merged"
                )
            else:
                self.report.add(
                    source,
                    "cache_conflict",
                    f"{origin} has the key of {self.origins[canonical]} with another reply: "
                    "the first kept",
                )


def load_response_cache(
    root: str | os.PathLike[str],
    library: ToolLibrary | None = None,
    *,
    report: RepairReport | None = None,
) -> dict[str, Any]:
    """Read a StableToolBench ``tool_response_cache`` folder, keyed by canonical call keys.

    Each entry is keyed by ``canonical_key(tool, api, arguments, api_doc)``: ``tool`` is the tool
    folder's name without its ``_for_<category>`` suffix and ``api`` the file stem. With a
    ``library``, the tool is looked up there (``tool`` becomes its standardized name), the stem
    is mapped back to the API's display name and the API's document fills defaults and reads
    numbers; a tool or API the library lacks is reported and kept under the raw names.
    Folders, files and keys are read in sorted order; when several entries get one canonical
    key the first is kept (``cache_collapsed`` when the replies are equal, ``cache_conflict``
    when they differ). Keys that are not dict literals, over :data:`MAX_KEY_CHARS`, and replies
    that are not objects are skipped and reported.

    Args:
        root: the cache folder (``tool_response_cache``).
        library: the tools, to resolve names and documents (optional).
        report: where repairs are recorded (discarded when ``None``).

    Returns:
        Canonical key -> stored reply (``{"error": ..., "response": ...}``).

    Raises:
        FileNotFoundError: ``root`` is not a folder.
    """
    folder = os.fspath(root)
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"expected a response cache folder, got {folder!r}")
    collector = _Collector(report if report is not None else RepairReport())
    for category in _dirs(folder):
        suffix = f"_for_{category.name}"
        for tool_dir in _dirs(category.path):
            where = f"{category.name}/{tool_dir.name}"
            tool_name = tool_dir.name
            if tool_name.endswith(suffix) and len(tool_name) > len(suffix):
                tool_name = tool_name[: -len(suffix)]
            else:
                collector.report.add(
                    where, "odd_cache_folder", f"expected a name ending in {suffix!r}"
                )
            tool = library.get(tool_name) if library is not None else None
            files = _json_files(tool_dir.path)
            if library is not None and tool is None:
                collector.report.add(
                    where,
                    "unknown_cache_tool",
                    f"{tool_name!r} is not in the library: {len(files)} files kept as named",
                )
            index = api_index(tool) if tool is not None else {}
            for entry in files:
                stem = entry.name[: -len(".json")]
                source = f"{where}/{entry.name}"
                api = None
                if tool is not None:
                    api = index.get(stem) or tool.api(stem)
                    if api is None:
                        collector.report.add(
                            source,
                            "unknown_cache_api",
                            f"{stem!r} is no API of {tool.standard_name!r}: kept as named",
                        )
                collector.add_file(
                    entry.path,
                    source,
                    tool.standard_name if tool is not None else tool_name,
                    api.name if api is not None else stem,
                    api,
                )
    return collector.replies
