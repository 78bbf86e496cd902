"""Seal-Tools' file formats: the tool list (``tool.jsonl``) and instances (``dev.jsonl``, ...).

A tool is ``{api_name, api_description, field, parameters: {name: {type, description}},
required: [names], responses: {name: {type, description}}}`` (types are Python names: ``str``,
``int``, ``float``, ``bool``); the released ``tool.jsonl`` has CRLF line endings. An instance is
``{id, query, calling: [{api, parameters, responses: ["API_call_k", ...]}]}``: every response
field of every call gets a placeholder ``API_call_<k>`` numbered across the instance, and a
nested call passes such a placeholder, as the whole value, as a parameter. Some values merely
contain one (``"API_call_0 response"``); they are kept and reported as irregular references.

Loaders keep what they read as given (parameter values stay strings or numbers whatever the
declared type) and record what they fix or notice in a
:class:`~toolgym.simulators.tool_library.model.RepairReport` (kinds: :data:`REPAIR_KINDS`);
the writers produce the same formats, byte for byte for records read from the original files.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from toolgym.simulators.tool_library.model import RepairReport

REFERENCE = re.compile(r"API_call_\d+")
"""A response placeholder (``API_call_3``)."""

REPAIR_KINDS: dict[str, str] = {
    "bom": "a UTF-8 byte-order mark, removed",
    "bad_encoding": "bytes that are not UTF-8, read with replacement characters",
    "crlf": "CRLF line endings, read as line ends",
    "blank_line": "blank lines between records, skipped",
    "bad_line": "a line that is not a JSON object; skipped",
    "bad_tool": "a tool without an api_name; skipped",
    "duplicate_tool": "a second tool of one api_name; the first kept",
    "bad_field": "a description, field or query that is not a string, written out as one",
    "bad_parameters": "parameters or responses that are not an object: none",
    "bad_parameter": "a parameter or response field that is not an object; dropped",
    "bad_required": "a required list that is not a list of names: none",
    "unknown_required": "a required name that is no parameter (kept)",
    "bad_instance": "an instance without an id; skipped",
    "duplicate_instance": "a second instance of one id; the first kept",
    "bad_calling": "a calling that is not a list: no calls",
    "bad_call": "a call that is not an object with an api name; skipped",
    "bad_responses": "call responses that are not a list of strings: the strings kept",
    "unknown_api": "a call to an API not in the tools (kept)",
    "unknown_parameter": "a call argument the tool does not declare (kept)",
    "missing_required": "a call without a required argument (kept)",
    "responses_mismatch": "a call with another number of placeholders than its tool's responses",
    "irregular_reference": "a value that contains a placeholder without being one (kept)",
    "dangling_reference": "a placeholder that no earlier call produced (kept)",
}
"""The repair kinds of Seal-Tools files."""

_TOOL_KEYS = ("api_name", "api_description", "field", "parameters", "required", "responses")
_INSTANCE_KEYS = ("id", "query", "calling")
_CALL_KEYS = ("api", "parameters", "responses")


def is_reference(value: Any) -> bool:
    """Whether ``value`` is a response placeholder as a whole.

    >>> is_reference("API_call_1"), is_reference("API_call_0 response"), is_reference(1)
    (True, False, False)
    """
    return isinstance(value, str) and REFERENCE.fullmatch(value) is not None


def is_irregular_reference(value: Any) -> bool:
    """Whether ``value`` contains a placeholder without being one (``"API_call_0 response"``)."""
    return (
        isinstance(value, str) and not is_reference(value) and REFERENCE.search(value) is not None
    )


@dataclasses.dataclass(slots=True)
class SealTool:
    """A tool of ``tool.jsonl``.

    Attributes:
        api_name: the name calls use.
        api_description: free text.
        field: ``"<Field>/<Subfield>"``.
        parameters: name -> ``{type, description}``, in the file's order.
        required: the required parameter names, as given.
        responses: response field name -> ``{type, description}``, in order; a call gets one
            placeholder per field.
        extra: any other keys (one released tool has an ``example``).
    """

    api_name: str
    api_description: str = ""
    field: str = ""
    parameters: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    required: tuple[str, ...] = ()
    responses: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)

    @property
    def optional(self) -> tuple[str, ...]:
        """The parameters not required, in order."""
        return tuple(name for name in self.parameters if name not in self.required)

    def to_json(self) -> dict[str, Any]:
        """The ``tool.jsonl`` record (see :func:`seal_tool_to_json`)."""
        return seal_tool_to_json(self)


def seal_tool_to_json(tool: SealTool) -> dict[str, Any]:
    """A tool as its ``tool.jsonl`` record: the six keys in the file's order, then the others."""
    return {
        "api_name": tool.api_name,
        "api_description": tool.api_description,
        "field": tool.field,
        "parameters": {name: dict(spec) for name, spec in tool.parameters.items()},
        "required": list(tool.required),
        "responses": {name: dict(spec) for name, spec in tool.responses.items()},
        **tool.extra,
    }


@dataclasses.dataclass(slots=True)
class SealCall:
    """One call of an instance's ``calling``.

    Attributes:
        api: the tool's ``api_name``.
        parameters: the arguments as given (strings, numbers or placeholders).
        responses: the placeholders of its response fields (``API_call_k``).
        extra: any other keys.
    """

    api: str
    parameters: dict[str, Any] = dataclasses.field(default_factory=dict)
    responses: tuple[str, ...] = ()
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The ``calling`` item."""
        return {
            "api": self.api,
            "parameters": dict(self.parameters),
            "responses": list(self.responses),
            **self.extra,
        }


@dataclasses.dataclass(slots=True)
class SealInstance:
    """An instance: a query and the calls that answer it.

    Attributes:
        id: ``"<split>-<easy|difficult>-<n>"``.
        query: the user's request.
        calling: the gold calls, in order.
        extra: any other keys.
    """

    id: str
    query: str
    calling: list[SealCall] = dataclasses.field(default_factory=list)
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)

    def references(self) -> list[tuple[int, str, str]]:
        """``(call index, parameter name, placeholder)`` of each argument that is a placeholder."""
        return [
            (index, name, value)
            for index, call in enumerate(self.calling)
            for name, value in call.parameters.items()
            if is_reference(value)
        ]

    def irregular_references(self) -> list[tuple[int, str, str]]:
        """``(call index, parameter name, value)`` of arguments containing a placeholder, not one."""
        return [
            (index, name, value)
            for index, call in enumerate(self.calling)
            for name, value in call.parameters.items()
            if is_irregular_reference(value)
        ]

    @property
    def nested(self) -> bool:
        """Whether a call takes another's response as an argument."""
        return bool(self.references())

    def to_json(self) -> dict[str, Any]:
        """The instance record."""
        return {
            "id": self.id,
            "query": self.query,
            "calling": [call.to_json() for call in self.calling],
            **self.extra,
        }


def _records(path: str | os.PathLike[str], report: RepairReport) -> Iterator[tuple[str, Any]]:
    """``(source, parsed line)`` for each non-blank line of a JSON Lines file."""
    name = Path(path).name
    raw = Path(path).read_bytes()
    if raw.startswith(b"\xef\xbb\xbf"):
        report.add(name, "bom", "a UTF-8 byte-order mark at the start, removed")
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        report.add(name, "bad_encoding", f"expected UTF-8, found {error.reason} at {error.start}")
        text = raw.decode("utf-8", errors="replace")
    if "\r\n" in text:
        report.add(name, "crlf", "CRLF line endings")
    lines = text.split("\n")
    if lines and not lines[-1].strip():
        lines.pop()  # the final line end
    blank = [n for n, line in enumerate(lines, start=1) if not line.strip()]
    if blank:
        shown = ", ".join(map(str, blank[:5]))
        report.add(name, "blank_line", f"{len(blank)} blank lines skipped (line {shown}, ...)")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        source = f"{name}:{number}"
        try:
            record = json.loads(line)
        except ValueError as error:
            report.add(source, "bad_line", f"expected a JSON object: {error}")
            continue
        if not isinstance(record, dict):
            report.add(source, "bad_line", f"expected a JSON object, got {type(record).__name__}")
            continue
        yield source, record


def _text(record: Mapping[str, Any], key: str, source: str, report: RepairReport) -> str:
    value = record.get(key, "")
    if isinstance(value, str):
        return value
    report.add(source, "bad_field", f"expected a string {key}, got {value!r:.80}")
    return "" if value is None else str(value)


def _specs(
    record: Mapping[str, Any], key: str, source: str, report: RepairReport
) -> dict[str, dict[str, Any]]:
    value = record.get(key, {})
    if not isinstance(value, dict):
        report.add(source, "bad_parameters", f"expected a {key} object, got {value!r:.80}")
        return {}
    specs = {}
    for name, spec in value.items():
        if isinstance(spec, dict):
            specs[name] = dict(spec)
        else:
            report.add(source, "bad_parameter", f"{key} {name!r}: expected an object, got {spec!r}")
    return specs


def _tool(record: dict[str, Any], source: str, report: RepairReport) -> SealTool | None:
    name = record.get("api_name")
    if not isinstance(name, str) or not name:
        report.add(source, "bad_tool", f"expected an api_name, got {name!r:.80}")
        return None
    parameters = _specs(record, "parameters", source, report)
    required = record.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        report.add(
            source, "bad_required", f"{name}: expected a list of names, got {required!r:.80}"
        )
        required = []
    for missing in (r for r in required if r not in parameters):
        report.add(source, "unknown_required", f"{name}: {missing!r} is required but undeclared")
    return SealTool(
        api_name=name,
        api_description=_text(record, "api_description", source, report),
        field=_text(record, "field", source, report),
        parameters=parameters,
        required=tuple(required),
        responses=_specs(record, "responses", source, report),
        extra={k: v for k, v in record.items() if k not in _TOOL_KEYS},
    )


def load_seal_tools(
    path: str | os.PathLike[str], report: RepairReport | None = None
) -> dict[str, SealTool]:
    """Read ``tool.jsonl``: tools by ``api_name``, in file order.

    CRLF or LF line endings and blank lines are accepted; lines that are not JSON objects and
    tools without a name are skipped, a second tool of one name is dropped, required names that
    are no parameter are kept; all of it is reported.

    Args:
        path: the file.
        report: where repairs are recorded (discarded when ``None``).

    Raises:
        OSError: the file cannot be read.
    """
    report = report if report is not None else RepairReport()
    tools: dict[str, SealTool] = {}
    for source, record in _records(path, report):
        name = record.get("api_name")
        if isinstance(name, str) and name in tools:
            report.add(source, "duplicate_tool", f"a second {name!r}; the first kept")
            continue
        tool = _tool(record, source, report)
        if tool is not None:
            tools[tool.api_name] = tool
    return tools


def _call(item: Any, source: str, report: RepairReport) -> SealCall | None:
    if not isinstance(item, dict) or not isinstance(item.get("api"), str) or not item["api"]:
        report.add(source, "bad_call", f"expected a call object with an api, got {item!r:.80}")
        return None
    parameters = item.get("parameters", {})
    if not isinstance(parameters, dict):
        report.add(source, "bad_parameters", f"{item['api']}: expected an object of arguments")
        parameters = {}
    responses = item.get("responses", [])
    if not isinstance(responses, list) or not all(isinstance(r, str) for r in responses):
        report.add(source, "bad_responses", f"{item['api']}: expected a list of placeholders")
        responses = (
            [r for r in responses if isinstance(r, str)] if isinstance(responses, list) else []
        )
    extra = {k: v for k, v in item.items() if k not in _CALL_KEYS}
    return SealCall(item["api"], dict(parameters), tuple(responses), extra)


def _check(
    instance: SealInstance, tools: Mapping[str, SealTool] | None, source: str, report: RepairReport
) -> None:
    """Report calls the tools do not match and references that are not regular."""
    produced: set[str] = set()
    for index, call in enumerate(instance.calling):
        where = f"{source} call {index} ({call.api})"
        tool = tools.get(call.api) if tools is not None else None
        if tools is not None and tool is None:
            report.add(where, "unknown_api", f"{call.api!r} is not among the tools")
        if tool is not None:
            for name in call.parameters:
                if name not in tool.parameters:
                    report.add(where, "unknown_parameter", f"{name!r} is not declared")
            for name in tool.required:
                if name not in call.parameters:
                    report.add(where, "missing_required", f"required {name!r} is not given")
            if len(call.responses) != len(tool.responses):
                report.add(
                    where,
                    "responses_mismatch",
                    f"expected {len(tool.responses)} placeholders, got {len(call.responses)}",
                )
        for name, value in call.parameters.items():
            if is_reference(value) and value not in produced:
                report.add(where, "dangling_reference", f"{name!r} = {value!r}: no earlier call")
            elif is_irregular_reference(value):
                report.add(
                    where, "irregular_reference", f"{name!r} = {value!r:.80} contains a placeholder"
                )
        produced.update(call.responses)


def load_seal_instances(
    path: str | os.PathLike[str],
    tools: Mapping[str, SealTool] | None = None,
    report: RepairReport | None = None,
) -> list[SealInstance]:
    """Read an instance file (``dev.jsonl``, ``test_in_domain.jsonl``, ...), in file order.

    Argument values are kept as given. References are checked: a value containing a placeholder
    without being one is reported (``irregular_reference``), as is a placeholder no earlier call
    produced. With ``tools``, calls to unknown APIs, undeclared or missing required arguments
    and placeholder counts that differ from the tool's responses are reported too (all kept).

    Args:
        path: the file.
        tools: the tools by name (:func:`load_seal_tools`), to check calls against.
        report: where repairs are recorded (discarded when ``None``).

    Raises:
        OSError: the file cannot be read.
    """
    report = report if report is not None else RepairReport()
    instances: list[SealInstance] = []
    seen: set[str] = set()
    for source, record in _records(path, report):
        instance_id = record.get("id")
        if not isinstance(instance_id, str) or not instance_id:
            report.add(source, "bad_instance", f"expected a string id, got {instance_id!r:.80}")
            continue
        if instance_id in seen:
            report.add(source, "duplicate_instance", f"a second {instance_id!r}; the first kept")
            continue
        seen.add(instance_id)
        where = f"{source} {instance_id}"
        items = record.get("calling", [])
        if not isinstance(items, list):
            report.add(where, "bad_calling", f"expected a list of calls, got {items!r:.80}")
            items = []
        calls = [c for c in (_call(item, where, report) for item in items) if c is not None]
        instance = SealInstance(
            id=instance_id,
            query=_text(record, "query", where, report),
            calling=calls,
            extra={k: v for k, v in record.items() if k not in _INSTANCE_KEYS},
        )
        _check(instance, tools, where, report)
        instances.append(instance)
    return instances


def _write_lines(records: Iterable[dict[str, Any]], path: str | os.PathLike[str], end: str) -> None:
    text = "".join(json.dumps(record) + end for record in records)
    Path(path).write_bytes(text.encode("utf-8"))


def write_seal_tools(
    tools: Mapping[str, SealTool] | Iterable[SealTool],
    path: str | os.PathLike[str],
    *,
    line_ending: str = "\r\n",
) -> None:
    """Write tools as ``tool.jsonl`` (ASCII-escaped JSON, CRLF line endings like the original)."""
    items = tools.values() if isinstance(tools, Mapping) else tools
    _write_lines((seal_tool_to_json(t) for t in items), path, line_ending)


def write_seal_instances(
    instances: Iterable[SealInstance], path: str | os.PathLike[str], *, line_ending: str = "\n"
) -> None:
    """Write instances as a JSON Lines file like ``dev.jsonl``."""
    _write_lines((i.to_json() for i in instances), path, line_ending)
