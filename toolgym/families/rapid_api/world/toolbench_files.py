"""Reading ToolBench's tool documents: bytes to JSON, JSON to :class:`ToolDoc`, with repairs.

The documents come from many hands and carry every kind of irregularity; each one found is
fixed the same way every time and recorded in a :class:`RepairReport` under one of the kinds of
:data:`REPAIR_KINDS`. Parsing stays lean (``json.loads`` of the bytes, dataclasses built
directly) because a whole ToolBench library is 16,464 APIs.

Very large files (ToolBench has a few of hundreds of MB, nearly all of it captured responses in
``test_endpoint`` and ``schema``) are not parsed whole: :func:`read_trimmed` scans them through
a memory map and copies everything except the bulky fields of :data:`BULKY_API_FIELDS`, which
no loader uses, then parses the rest when it fits in the size cap.
"""

from __future__ import annotations

import functools
import json
import mmap
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolgym.simulators.tool_library.model import (
    ApiDoc,
    ParamDoc,
    RepairReport,
    ToolDoc,
    param_kind,
)

BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte-order mark some files start with."""

BULKY_API_FIELDS = frozenset({"test_endpoint", "schema", "code", "convert_code"})
"""API-entry fields that no loader reads and that make up nearly all of the largest files."""

STANDARD_PARAM_TYPES = frozenset(
    {
        "STRING",
        "NUMBER",
        "BOOLEAN",
        "ENUM",
        "ARRAY",
        "OBJECT",
        "BINARY",
        "DATE (YYYY-MM-DD)",
        "TIME (24-hour HH:MM)",
        "GEOPOINT (LATITUDE, LONGITUDE)",
    }
)
"""Parameter types as the documents normally spell them; others are reported (and kept)."""

_STRING_TYPES = frozenset({"STRING", "STR", "BINARY", "GEOPOINT (LATITUDE, LONGITUDE)"})

REPAIR_KINDS: dict[str, str] = {
    "unreadable_file": "the file could not be read; skipped",
    "bad_json": "the file (or record) is not JSON; skipped",
    "bad_encoding": "bytes that are not UTF-8, read with replacement characters",
    "bom": "a UTF-8 byte-order mark, removed",
    "crlf": "CRLF line endings (read as whitespace)",
    "large_file_trimmed": "a file over the size cap, read without its bulky API fields",
    "file_too_large": "a file still over the size cap without its bulky API fields; skipped",
    "not_a_tool": "the document is not a JSON object; skipped",
    "missing_tool_name": "no tool_name: the title, name or file stem is used",
    "duplicate_tool": "a standardized tool name taken by an earlier tool: a hash suffix added",
    "missing_api_list": "no api_list (or not a list): the tool has no APIs",
    "bad_api": "an API entry that is not an object; skipped",
    "missing_api_name": "an API entry without a name; skipped",
    "duplicate_api": "a second API of one name in a tool; the first kept",
    "missing_method": "no method: GET assumed",
    "odd_method": "a method not in upper case or with spaces, normalized",
    "null_description": "a null description, read as empty",
    "bad_description": "a description that is not a string, written out as one",
    "bad_field": "a url, host, category or collection list of the wrong type, ignored",
    "missing_parameters": "no required_parameters or optional_parameters: none",
    "null_parameters": "required_parameters or optional_parameters null: none",
    "bad_parameters": "required_parameters or optional_parameters not a list: none",
    "empty_parameter": "an empty string in a parameter list; dropped",
    "bad_parameter": "a parameter that is not an object; dropped",
    "missing_parameter_name": "a parameter without a name; dropped",
    "missing_parameter_type": "a parameter without a type: STRING assumed",
    "bad_parameter_type": "a parameter type that is not a string, written out as one",
    "odd_parameter_type": "a known type spelled unusually (string, INTEGER): kept as given",
    "unknown_parameter_type": "an unknown parameter type: kept as given, read as a string",
    "bad_enum": "an enum that is not a list, ignored",
    "duplicate_parameter": "a second parameter of one name in an API; the first kept",
    "required_and_optional": "a parameter both required and optional: kept as required",
    "template_as_string": "a template_response stored as a JSON string, parsed",
    "bad_template": "a template_response that is not a JSON object or list: none",
}
"""The repair kinds of tool documents (and the inline documents of query files)."""

_MISSING: Any = object()


def decode_json(raw: bytes, source: str, report: RepairReport) -> Any:
    """Parse JSON ``raw`` bytes, removing a BOM and reading non-UTF-8 bytes with replacement.

    Raises:
        ValueError: the bytes are not JSON.
    """
    if raw.startswith(BOM):
        report.add(source, "bom", "a UTF-8 byte-order mark at the start, removed")
        raw = raw[len(BOM) :]
    if b"\r\n" in raw:
        report.add(source, "crlf", "CRLF line endings, read as whitespace")
    try:
        return json.loads(raw)
    except UnicodeDecodeError as error:
        report.add(source, "bad_encoding", f"expected UTF-8, found {error.reason} at {error.start}")
        return json.loads(raw.decode("utf-8", errors="replace"))


# ----------------------------------------------------------------------------------------------
# Large files: copy all but the bulky fields, scanning a memory map.

_STRING_REST = re.compile(rb'[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STRUCTURE = re.compile(rb'["{}\[\]]')
_NOT_BRACKETS = re.compile(rb'(?:[^"{}\[\]]+|"[^"\\]*(?:\\.[^"\\]*)*")*', re.DOTALL)
_SPACE = re.compile(rb"[ \t\r\n]*")
_SCALAR_END = re.compile(rb"[,}\]\s]")
_QUOTE, _OPENERS = 0x22, (0x7B, 0x5B)
_API_DEPTH = 3  # tool object > api_list > API entry


def _after_string(buf: Any, pos: int) -> int:
    """The position after the string whose opening quote is just before ``pos``."""
    match = _STRING_REST.match(buf, pos)
    if match is None:
        raise ValueError(f"expected a closing quote for the string opened at byte {pos - 1}")
    return match.end()


def _after_value(buf: Any, pos: int) -> int:
    """The position after the JSON value starting at ``pos`` (after spaces)."""
    pos = _SPACE.match(buf, pos).end()  # type: ignore[union-attr]
    first = buf[pos : pos + 1]
    if first == b'"':
        return _after_string(buf, pos + 1)
    if first not in (b"{", b"["):
        end = _SCALAR_END.search(buf, pos)
        return len(buf) if end is None else end.start()
    depth = 0
    while True:
        pos = _NOT_BRACKETS.match(buf, pos).end()  # type: ignore[union-attr]
        char = buf[pos : pos + 1]
        if char in (b"{", b"["):
            depth += 1
        elif char in (b"}", b"]"):
            depth -= 1
        else:
            raise ValueError(f"expected the end of the value opened at byte {pos}, found none")
        pos += 1
        if depth == 0:
            return pos


def trim_bulky(buf: Any, cap: int) -> bytes | None:
    """``buf`` (a tool document) with the values of the API entries' bulky fields made ``null``.

    Args:
        buf: the document's bytes (any buffer, e.g. a memory map).
        cap: the largest result wanted.

    Returns:
        The trimmed document, or ``None`` when it is still larger than ``cap``.

    Raises:
        ValueError: the document is not well-formed JSON.
    """
    out = bytearray()
    pos = len(BOM) if buf[: len(BOM)] == BOM else 0
    depth = 0
    while True:
        found = _STRUCTURE.search(buf, pos)
        if found is None:
            out += buf[pos:]
            break
        start = found.start()
        char = buf[start]
        if char == _QUOTE:
            end = _after_string(buf, start + 1)
            colon = _SPACE.match(buf, end).end()  # type: ignore[union-attr]
            if (
                depth == _API_DEPTH
                and buf[colon : colon + 1] == b":"
                and bytes(buf[start + 1 : end - 1]).decode("utf-8", "replace") in BULKY_API_FIELDS
            ):
                out += buf[pos:end]
                out += b": null"
                pos = _after_value(buf, colon + 1)
            else:
                out += buf[pos:end]
                pos = end
        else:
            depth += 1 if char in _OPENERS else -1
            out += buf[pos : start + 1]
            pos = start + 1
        if len(out) > cap:
            return None
    return bytes(out) if len(out) <= cap else None


def read_trimmed(path: Path, cap: int) -> bytes | None:
    """A large file's bytes without its bulky API fields (:func:`trim_bulky`), via a memory map.

    Raises:
        OSError: the file cannot be read.
        ValueError: it is not well-formed JSON.
    """
    with path.open("rb") as handle:
        if path.stat().st_size == 0:
            return b""
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            return trim_bulky(buf, cap)


# ----------------------------------------------------------------------------------------------
# JSON to dataclasses.


def as_text(value: Any, where: str, what: str, report: RepairReport) -> str:
    """A description-like field as text: ``None`` is empty, other non-strings are dumped."""
    if isinstance(value, str):
        return value
    if value is None:
        report.add(where, "null_description", f"expected a string {what}, got null")
        return ""
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, list | dict) else str(value)
    report.add(where, "bad_description", f"expected a string {what}, got {type(value).__name__}")
    return text


@functools.lru_cache(maxsize=1024)
def type_quirk(type_name: str) -> str | None:
    """The repair kind of an unusual parameter type, or ``None`` for a standard one.

    >>> type_quirk("STRING"), type_quirk("string"), type_quirk("color")
    (None, 'odd_parameter_type', 'unknown_parameter_type')
    """
    if type_name in STANDARD_PARAM_TYPES:
        return None
    if param_kind(type_name) != "string" or type_name.strip().upper() in _STRING_TYPES:
        return "odd_parameter_type"
    return "unknown_parameter_type"


def _param(item: Any, where: str, report: RepairReport) -> ParamDoc | None:
    if type(item) is dict:  # the usual, regular parameter, read quickly
        name, type_name = item.get("name"), item.get("type")
        description = item.get("description", "")
        if (
            type(name) is str
            and name
            and type(type_name) is str
            and type_name in STANDARD_PARAM_TYPES
            and type(description) is str
            and item.get("enum") is None
        ):
            default = item.get("default")
            return ParamDoc(name, type_name, description, None if default == "" else default)
    return _irregular_param(item, where, report)


def _irregular_param(item: Any, where: str, report: RepairReport) -> ParamDoc | None:
    if not isinstance(item, Mapping):
        if isinstance(item, str) and not item.strip():
            report.add(where, "empty_parameter", f"expected a parameter object, got {item!r}")
        else:
            report.add(where, "bad_parameter", f"expected a parameter object, got {item!r:.80}")
        return None
    name = item.get("name")
    if not isinstance(name, str) or not name:
        report.add(where, "missing_parameter_name", f"expected a name, got {name!r:.80}")
        return None
    type_name = item.get("type")
    if type_name is None or type_name == "":
        report.add(where, "missing_parameter_type", f"{name!r} has no type: STRING assumed")
        type_name = "STRING"
    elif not isinstance(type_name, str):
        report.add(
            where, "bad_parameter_type", f"{name!r}: expected a type string, got {type_name!r}"
        )
        type_name = str(type_name)
    quirk = type_quirk(type_name)
    if quirk is not None:
        kind = param_kind(type_name)
        report.add(where, quirk, f"{name!r} has type {type_name!r}, kept (read as {kind})")
    description = item.get("description", "")
    if not isinstance(description, str):
        description = as_text(description, where, f"description of {name!r}", report)
    default = item.get("default")
    if default == "":
        default = None
    enum = item.get("enum")
    if enum is not None:
        if isinstance(enum, list):
            enum = tuple(enum)
        else:
            report.add(where, "bad_enum", f"{name!r}: expected an enum list, got {enum!r:.80}")
            enum = None
    return ParamDoc(name, type_name, description, default, enum)


def _param_list(value: Any, where: str, key: str, report: RepairReport) -> list[ParamDoc]:
    if isinstance(value, list):
        params = []
        for item in value:
            param = _param(item, where, report)
            if param is not None:
                params.append(param)
        return params
    if value is _MISSING:
        report.add(where, "missing_parameters", f"no {key}: none")
    elif value is None:
        report.add(where, "null_parameters", f"{key} is null: none")
    else:
        report.add(where, "bad_parameters", f"expected a list of {key}, got {value!r:.80}")
    return []


def _unique_params(
    required: list[ParamDoc], optional: list[ParamDoc], where: str, report: RepairReport
) -> tuple[tuple[ParamDoc, ...], tuple[ParamDoc, ...]]:
    if len(required) + len(optional) < 2:
        return tuple(required), tuple(optional)
    required_names: set[str] = set()
    kept_required = []
    for param in required:
        if param.name in required_names:
            report.add(where, "duplicate_parameter", f"a second required {param.name!r}, dropped")
        else:
            required_names.add(param.name)
            kept_required.append(param)
    optional_names: set[str] = set()
    kept_optional = []
    for param in optional:
        if param.name in required_names:
            report.add(
                where, "required_and_optional", f"{param.name!r} is also required: kept required"
            )
        elif param.name in optional_names:
            report.add(where, "duplicate_parameter", f"a second optional {param.name!r}, dropped")
        else:
            optional_names.add(param.name)
            kept_optional.append(param)
    return tuple(kept_required), tuple(kept_optional)


def parse_template(value: Any, where: str, report: RepairReport) -> Any:
    """A ``template_response``: an object or list, a JSON string of one, or ``None``."""
    if value is None or isinstance(value, dict | list):
        return value
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError as error:
            report.add(where, "bad_template", f"expected JSON in the string template: {error}")
            return None
        if isinstance(parsed, dict | list):
            report.add(where, "template_as_string", "the template was a JSON string, parsed")
            return parsed
        value = parsed
    report.add(where, "bad_template", f"expected a JSON object or list, got {value!r:.80}")
    return None


def parse_api(
    entry: Any,
    source: str,
    report: RepairReport,
    *,
    name_key: str = "name",
    description_key: str = "description",
) -> ApiDoc | None:
    """An API entry (``api_list`` item of a tool document or a query file) as an :class:`ApiDoc`.

    Args:
        entry: the entry.
        source: where it comes from, for the report.
        report: where repairs are recorded.
        name_key: the key of its name (``api_name`` in query files).
        description_key: the key of its description (``api_description`` in query files).

    Returns:
        The API, or ``None`` when the entry is not an object or has no name (both reported).
    """
    if not isinstance(entry, Mapping):
        report.add(source, "bad_api", f"expected an API object, got {entry!r:.80}")
        return None
    name = entry.get(name_key)
    if not isinstance(name, str) or not name:
        report.add(source, "missing_api_name", f"expected a string {name_key}, got {name!r:.80}")
        return None
    where = f"{source} API {name!r}"
    method = entry.get("method")
    if not isinstance(method, str) or not method.strip():
        report.add(where, "missing_method", f"expected a method, got {method!r}: GET assumed")
        method = "GET"
    elif not method.isupper() or not method.isalpha():
        fixed = method.strip().upper()
        report.add(where, "odd_method", f"method {method!r} read as {fixed!r}")
        method = fixed
    url = entry.get("url", "")
    if not isinstance(url, str):
        report.add(where, "bad_field", f"expected a string url, got {url!r:.80}")
        url = ""
    description = entry.get(description_key, "")
    if not isinstance(description, str):
        description = as_text(description, where, description_key, report)
    required = _param_list(
        entry.get("required_parameters", _MISSING), where, "required_parameters", report
    )
    optional = _param_list(
        entry.get("optional_parameters", _MISSING), where, "optional_parameters", report
    )
    required_t, optional_t = _unique_params(required, optional, where, report)
    template = entry.get("template_response")
    if template is not None and not isinstance(template, (dict, list)):
        template = parse_template(template, where, report)
    return ApiDoc(name, method, url, description, required_t, optional_t, template)


def parse_tool(
    data: Any, *, standard_name: str, category_dir: str, source: str, report: RepairReport
) -> ToolDoc | None:
    """A tool document as a :class:`ToolDoc` (``None`` when it is not a JSON object).

    Args:
        data: the parsed document.
        standard_name: the tool's standardized name (its file stem).
        category_dir: its category folder, the category when the document names none.
        source: where it comes from, for the report.
        report: where repairs are recorded.
    """
    if not isinstance(data, dict):
        report.add(source, "not_a_tool", f"expected a JSON object, got {type(data).__name__}")
        return None
    name = data.get("tool_name")
    if not isinstance(name, str) or not name:
        fallback = next(
            (v for v in (data.get("title"), data.get("name")) if isinstance(v, str) and v),
            standard_name,
        )
        report.add(source, "missing_tool_name", f"expected a tool_name, got {name!r:.80}")
        name = fallback
    description = data.get("tool_description", "")
    if not isinstance(description, str):
        description = as_text(description, source, "tool_description", report)
    category = data.get("category_name")
    if not isinstance(category, str) or not category:
        if category is not None:
            report.add(source, "bad_field", f"expected a category_name, got {category!r:.80}")
        category = category_dir
    host = data.get("host", "")
    if not isinstance(host, str):
        report.add(source, "bad_field", f"expected a string host, got {host!r:.80}")
        host = ""
    collections = data.get("collections", ())
    if not isinstance(collections, list | tuple) or not all(
        isinstance(c, str) for c in collections
    ):
        report.add(source, "bad_field", f"expected a list of collections, got {collections!r:.80}")
        collections = ()
    entries = data.get("api_list")
    if not isinstance(entries, list):
        report.add(source, "missing_api_list", f"expected an api_list, got {entries!r:.80}")
        entries = []
    apis: dict[str, ApiDoc] = {}
    for entry in entries:
        api = parse_api(entry, source, report)
        if api is None:
            continue
        if api.name in apis:
            report.add(source, "duplicate_api", f"a second API {api.name!r}; the first kept")
            continue
        apis[api.name] = api
    return ToolDoc(
        name=name,
        standard_name=standard_name,
        description=description,
        category=category,
        apis=tuple(apis.values()),
        collections=tuple(collections),
        host=host,
    )
