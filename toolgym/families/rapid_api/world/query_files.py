"""Query files of ToolBench and StableToolBench: queries, the APIs they offer, their tools.

:func:`load_query_file` reads a file with inline API documents (ToolBench's ``G1_query.json``,
StableToolBench's ``solvable_queries/test_instruction/*.json``) into :class:`QueryRecord`
entries and the library of the tools they offer; :func:`load_minimal_queries` reads the minimal
form (API names only) against a library loaded beforehand.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgym.families.rapid_api.world.cache_files import find_api
from toolgym.families.rapid_api.world.toolbench_files import decode_json, parse_api
from toolgym.simulators.tool_library.model import ApiDoc, RepairReport, ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.naming import standardize

QUERY_REPAIR_KINDS: dict[str, str] = {
    "bad_line": "a line of a JSON Lines file that is not JSON; skipped",
    "bad_query": "a query record that is not a JSON object; skipped",
    "missing_query_id": "a query without query_id: its key or position is used",
    "missing_query": "a query without query text: empty",
    "conflicting_tool": "one standardized tool name with another display name or category",
    "conflicting_api": "an API documented differently in another query; the first kept",
    "duplicate_offer": "an API offered twice in one query; once kept",
    "bad_relevant_api": "a relevant API that is not a [tool, api] pair; dropped",
    "relevant_api_not_offered": "a relevant API missing from the query's api_list (kept)",
    "unresolved_api": "an offered API not in the library; dropped",
    "unresolved_relevant_api": "a relevant API not in the library; dropped",
}
"""The repair kinds of query files (besides those of their inline API documents)."""

_RECORD_KEYS = frozenset({"query_id", "query", "api_list", "relevant APIs", "relevant_apis"})


@dataclass(slots=True)
class QueryRecord:
    """One query of a query file.

    Attributes:
        query_id: the id as the file gives it (usually an int).
        query: the user's request.
        api_list: the APIs offered, as ``(tool standardized name, API name)`` pairs.
        relevant_apis: the APIs the query was written from (its ``relevant APIs``), as pairs.
        categories: the categories of the offered APIs, in order of first appearance.
        meta: the record's other keys, as given.
    """

    query_id: int | str
    query: str
    api_list: list[tuple[str, str]]
    relevant_apis: list[tuple[str, str]]
    categories: list[str]
    meta: dict[str, Any] = field(default_factory=dict)


def _json_lines(raw: bytes, source: str, report: RepairReport, error: ValueError) -> list[Any]:
    text = raw.decode("utf-8-sig", errors="replace")
    records: list[Any] = []
    bad = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError as line_error:
            bad += 1
            report.add(f"{source}:{number}", "bad_line", f"expected JSON: {line_error}")
    if not records:
        raise ValueError(
            f"expected a JSON list of queries, an object keyed by query id or JSON Lines "
            f"in {source}, got neither: {error}"
        )
    return records


def _records(path: str | os.PathLike[str], report: RepairReport) -> list[tuple[Any, Any, str]]:
    """``(fallback id, record, source)`` for each record of a query file in any accepted form."""
    source = Path(path).name
    raw = Path(path).read_bytes()
    try:
        data = decode_json(raw, source, report)
    except ValueError as error:
        data = _json_lines(raw, source, report, error)
    if isinstance(data, dict) and "query" in data and not isinstance(data["query"], dict):
        data = [data]
    if isinstance(data, list):
        return [(i, record, f"{source}[{i}]") for i, record in enumerate(data)]
    if isinstance(data, dict):
        return [
            (int(key) if key.isdigit() else key, record, f"{source}[{key!r}]")
            for key, record in data.items()
        ]
    raise ValueError(
        f"expected a JSON list of queries, an object keyed by query id or JSON Lines in "
        f"{source}, got a JSON {type(data).__name__}"
    )


def _head(
    fallback: Any, record: Any, source: str, report: RepairReport
) -> tuple[Any, str, dict[str, Any]] | None:
    if not isinstance(record, dict):
        report.add(source, "bad_query", f"expected a query object, got {record!r:.80}")
        return None
    query_id = record.get("query_id")
    if query_id is None or isinstance(query_id, bool) or not isinstance(query_id, int | str):
        report.add(source, "missing_query_id", f"expected a query_id, got {query_id!r}: {fallback}")
        query_id = fallback
    query = record.get("query")
    if not isinstance(query, str):
        report.add(source, "missing_query", f"expected the query text, got {query!r:.80}")
        query = "" if query is None else str(query)
    meta = {k: v for k, v in record.items() if k not in _RECORD_KEYS}
    return query_id, query, meta


def _pairs(value: Any, source: str, report: RepairReport) -> list[tuple[str, str]]:
    """``relevant APIs`` as ``(tool display name, api name)`` pairs."""
    if value is None:
        return []
    if not isinstance(value, list):
        report.add(source, "bad_relevant_api", f"expected a list of pairs, got {value!r:.80}")
        return []
    pairs = []
    for item in value:
        if (
            isinstance(item, list | tuple)
            and len(item) == 2
            and all(isinstance(x, str) and x for x in item)
        ):
            pairs.append((item[0], item[1]))
        else:
            report.add(source, "bad_relevant_api", f"expected [tool, api], got {item!r:.80}")
    return pairs


def _entries(record: dict[str, Any], source: str, report: RepairReport) -> list[Any]:
    entries = record.get("api_list")
    if isinstance(entries, list):
        return entries
    if entries is not None or "api_list" in record:
        report.add(source, "missing_api_list", f"expected an api_list, got {entries!r:.80}")
    return []


@dataclass
class _Draft:
    """A tool being gathered from query files."""

    name: str
    category: str
    description: str
    apis: dict[str, ApiDoc] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)


def _relevant(
    record: dict[str, Any], offered: list[tuple[str, str]], source: str, report: RepairReport
) -> list[tuple[str, str]]:
    value = record.get("relevant APIs", record.get("relevant_apis"))
    relevant = [(standardize(t), a) for t, a in _pairs(value, source, report)]
    offered_set = set(offered)
    for pair in relevant:
        if pair not in offered_set:
            report.add(source, "relevant_api_not_offered", f"{pair} is not in the api_list")
    return relevant


def load_query_file(
    path: str | os.PathLike[str], *, report: RepairReport | None = None
) -> tuple[list[QueryRecord], ToolLibrary]:
    """Read a query file with inline API documents: its queries and the library they offer.

    Accepts a JSON list of records, an object keyed by query id, or JSON Lines. Each
    ``api_list`` entry documents one API (``category_name``, ``tool_name``, ``api_name``,
    ``api_description``, ``required_parameters``, ``optional_parameters``, ``method``,
    ``template_response`` as an object, a JSON string or null). Tools are keyed by
    ``standardize(tool_name)``; the APIs of a tool are the union over all queries, the first
    document of an API winning over later different ones (``conflicting_api``). A tool's
    description is the first ``tool_description`` met, else empty. ``relevant APIs`` name
    tools by display name, standardized here.

    Args:
        path: the file.
        report: where repairs are recorded (a new report when ``None``); it becomes the
            library's :attr:`~ToolLibrary.report`.

    Returns:
        The queries in file order and the library of their tools, in order of first appearance.

    Raises:
        OSError: the file cannot be read.
        ValueError: it is none of the accepted forms.
    """
    report = report if report is not None else RepairReport()
    drafts: dict[str, _Draft] = {}
    conflicts: set[tuple[str, str, str]] = set()
    queries: list[QueryRecord] = []
    for fallback, record, source in _records(path, report):
        head = _head(fallback, record, source, report)
        if head is None:
            continue
        offered: list[tuple[str, str]] = []
        categories: list[str] = []
        for entry in _entries(record, source, report):
            if not isinstance(entry, dict):
                report.add(source, "bad_api", f"expected an API object, got {entry!r:.80}")
                continue
            tool_name = entry.get("tool_name")
            standard = standardize(tool_name) if isinstance(tool_name, str) else ""
            if not isinstance(tool_name, str) or not standard:
                report.add(source, "missing_tool_name", f"expected a tool_name, got {tool_name!r}")
                continue
            category = entry.get("category_name")
            category = category if isinstance(category, str) else ""
            api_name = entry.get("api_name")
            draft = drafts.get(standard)
            if draft is None:
                description = entry.get("tool_description")
                description = description if isinstance(description, str) else ""
                draft = drafts[standard] = _Draft(tool_name, category, description)
            else:
                seen = (standard, tool_name, category)
                if (tool_name, category) != (draft.name, draft.category) and seen not in conflicts:
                    conflicts.add(seen)
                    report.add(
                        source,
                        "conflicting_tool",
                        f"{standard!r} is {draft.name!r} in {draft.category!r} earlier, "
                        f"here {tool_name!r} in {category!r}: the first kept",
                    )
                if not draft.description and isinstance(entry.get("tool_description"), str):
                    draft.description = entry["tool_description"]
            if isinstance(api_name, str) and draft.raw.get(api_name) == entry:
                api = draft.apis[api_name]  # the same document again
            else:
                first = isinstance(api_name, str) and api_name not in draft.apis
                parsed = parse_api(
                    entry,
                    f"{source} tool {tool_name!r}",
                    report if first or not isinstance(api_name, str) else RepairReport(),
                    name_key="api_name",
                    description_key="api_description",
                )
                if parsed is None:
                    continue
                api = parsed
                if first:
                    draft.apis[api.name] = api
                    draft.raw[api.name] = entry
                elif draft.apis[api.name] != api:
                    report.add(
                        source,
                        "conflicting_api",
                        f"{standard!r} API {api.name!r} differs from its first document: "
                        "the first kept",
                    )
                    api = draft.apis[api.name]
            pair = (standard, api.name)
            if pair in offered:
                report.add(source, "duplicate_offer", f"{pair} offered twice; once kept")
                continue
            offered.append(pair)
            if category and category not in categories:
                categories.append(category)
        relevant = _relevant(record, offered, source, report)
        queries.append(QueryRecord(head[0], head[1], offered, relevant, categories, head[2]))
    tools = [
        ToolDoc(d.name, standard, d.description, d.category, tuple(d.apis.values()))
        for standard, d in drafts.items()
    ]
    return queries, ToolLibrary(tools, report)


def _resolve(library: ToolLibrary, tool_name: Any, api_name: Any) -> tuple[ToolDoc, ApiDoc] | None:
    if not isinstance(tool_name, str) or not isinstance(api_name, str):
        return None
    tool = library.get(tool_name)
    api = find_api(tool, api_name) if tool is not None else None
    return None if tool is None or api is None else (tool, api)


def load_minimal_queries(
    path: str | os.PathLike[str], library: ToolLibrary, *, report: RepairReport | None = None
) -> list[QueryRecord]:
    """Read queries whose ``api_list`` only names APIs, resolving them against ``library``.

    Entries need only ``category_name``, ``tool_name`` and ``api_name``. Tool names are looked up as standardized names or display names; API names as display
    names or their standardized function form. Offered and relevant APIs that do not resolve
    are dropped and reported (``unresolved_api``, ``unresolved_relevant_api``). Accepts the same
    file forms as :func:`load_query_file` (any inline documents are ignored).

    Args:
        path: the file.
        library: the tools, loaded beforehand (e.g. by :func:`load_toolbench_tools`).
        report: where repairs are recorded (discarded when ``None``).

    Returns:
        The queries in file order; pairs use the library's names.
    """
    report = report if report is not None else RepairReport()
    queries: list[QueryRecord] = []
    for fallback, record, source in _records(path, report):
        head = _head(fallback, record, source, report)
        if head is None:
            continue
        offered: list[tuple[str, str]] = []
        categories: list[str] = []
        for entry in _entries(record, source, report):
            if not isinstance(entry, dict):
                report.add(source, "bad_api", f"expected an API object, got {entry!r:.80}")
                continue
            tool_name, api_name = entry.get("tool_name"), entry.get("api_name")
            found = _resolve(library, tool_name, api_name)
            if found is None:
                report.add(
                    source,
                    "unresolved_api",
                    f"{tool_name!r} API {api_name!r} is not in the library",
                )
                continue
            pair = (found[0].standard_name, found[1].name)
            if pair in offered:
                report.add(source, "duplicate_offer", f"{pair} offered twice; once kept")
                continue
            offered.append(pair)
            if found[0].category not in categories:
                categories.append(found[0].category)
        relevant = []
        value = record.get("relevant APIs", record.get("relevant_apis"))
        for tool_name, api_name in _pairs(value, source, report):
            found = _resolve(library, tool_name, api_name)
            if found is None:
                report.add(
                    source,
                    "unresolved_relevant_api",
                    f"{tool_name!r} API {api_name!r} is not in the library",
                )
                continue
            pair = (found[0].standard_name, found[1].name)
            if pair not in offered:
                report.add(source, "relevant_api_not_offered", f"{pair} is not in the api_list")
            relevant.append(pair)
        queries.append(QueryRecord(head[0], head[1], offered, relevant, categories, head[2]))
    return queries
