"""The tool library's data model: tools, their APIs and parameters, in ToolBench's terms.

A :class:`ToolDoc` is one RapidAPI-style tool (``tool_name``, ``tool_description``, a category,
the collections it belongs to) with its :class:`ApiDoc` entries (name, method, url, description,
required and optional :class:`ParamDoc` parameters, a response template). A
:class:`ToolLibrary` holds many, indexed by standardized tool name and by category and
collection, and converts to and from ToolBench's tool JSON.

Parameter types are kept as the documents give them (``STRING``, ``NUMBER``, ``string``,
``ENUM``, ``DATE (YYYY-MM-DD)``, ...); :func:`param_kind` reads them. A response template is
ToolBench's ``template_response`` skeleton: a JSON object whose leaves are type names (``"str"``,
``"int"``, ``"float"``, ``"bool"``) and whose lists show one element and a ``"_list_length"``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from toolgym.simulators.tool_library.naming import standardize, standardize_category

PARAM_KINDS = ("string", "number", "integer", "boolean", "enum", "date", "time", "array", "object")
"""What a parameter's value is, whatever the document's spelling of its type."""

_KIND_OF_TYPE = {
    "STRING": "string",
    "NUMBER": "number",
    "INTEGER": "integer",
    "INT": "integer",
    "FLOAT": "number",
    "BOOLEAN": "boolean",
    "BOOL": "boolean",
    "ENUM": "enum",
    "ARRAY": "array",
    "LIST": "array",
    "OBJECT": "object",
    "DICT": "object",
    "STR": "string",
    "BINARY": "string",
    "GEOPOINT (LATITUDE, LONGITUDE)": "string",
}


def param_kind(type_name: Any) -> str:
    """The kind (:data:`PARAM_KINDS`) of a document's parameter type; unknown ones are strings.

    >>> [param_kind(t) for t in ("NUMBER", "string", "DATE (YYYY-MM-DD)", "TIME (24-hour HH:MM)")]
    ['number', 'string', 'date', 'time']
    """
    text = str(type_name or "STRING").strip().upper()
    if text.startswith("DATE"):
        return "date"
    if text.startswith("TIME"):
        return "time"
    return _KIND_OF_TYPE.get(text, "string")


@dataclass(frozen=True, slots=True)
class ParamDoc:
    """A parameter of an API.

    Attributes:
        name: the name the API takes (as the document writes it).
        type: the document's type string (``STRING``, ``NUMBER``, ``ENUM``, ...).
        description: free text (may be empty).
        default: the documented default or example value (``None`` when there is none).
        enum: the allowed values, when known.
    """

    name: str
    type: str = "STRING"
    description: str = ""
    default: Any = None
    enum: tuple[str, ...] | None = None

    @property
    def kind(self) -> str:
        """The value kind (:func:`param_kind`)."""
        return param_kind(self.type)

    def to_json(self) -> dict[str, Any]:
        """The ToolBench form ``{name, type, description, default}``."""
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "description": self.description,
            "default": "" if self.default is None else self.default,
        }
        if self.enum is not None:
            out["enum"] = list(self.enum)
        return out


@dataclass(frozen=True, slots=True)
class ApiDoc:
    """One API (endpoint) of a tool.

    Attributes:
        name: the API's display name (may be a path: ``properties/get-broadband``).
        method: ``GET``, ``POST``, ...
        url: an example URL.
        description: free text (may be empty).
        required: the required parameters, in order.
        optional: the optional parameters, in order.
        template: the response template (``template_response``), or ``None`` when unknown.
    """

    name: str
    method: str = "GET"
    url: str = ""
    description: str = ""
    required: tuple[ParamDoc, ...] = ()
    optional: tuple[ParamDoc, ...] = ()
    template: Any = None

    @property
    def params(self) -> tuple[ParamDoc, ...]:
        """Required then optional parameters."""
        return (*self.required, *self.optional)

    def to_json(self) -> dict[str, Any]:
        """The ToolBench ``api_list`` entry (with ``template_response`` when known)."""
        out: dict[str, Any] = {
            "name": self.name,
            "url": self.url,
            "description": self.description,
            "method": self.method,
            "required_parameters": [p.to_json() for p in self.required],
            "optional_parameters": [p.to_json() for p in self.optional],
        }
        if self.template is not None:
            out["template_response"] = self.template
        return out


@dataclass(frozen=True, slots=True)
class ToolDoc:
    """A RapidAPI-style tool.

    Attributes:
        name: the display name (``tool_name``: ``"Kick.com API | Kick API"``).
        standard_name: the standardized name (the file stem: ``kick_com_api_kick_api``), unique
            in a library.
        description: ``tool_description``.
        category: the category's display name (``"News/Media"``).
        apis: the APIs (``api_list``), with unique names.
        collections: the collections the tool belongs to.
        host: the API host, when known.
    """

    name: str
    standard_name: str
    description: str
    category: str
    apis: tuple[ApiDoc, ...]
    collections: tuple[str, ...] = ()
    host: str = ""

    @property
    def category_dir(self) -> str:
        """The category's folder name (``News_Media``)."""
        return standardize_category(self.category)

    def api(self, name: str) -> ApiDoc | None:
        """The API called ``name``, or ``None``."""
        return next((a for a in self.apis if a.name == name), None)

    def to_json(self) -> dict[str, Any]:
        """The ToolBench tool document."""
        out: dict[str, Any] = {
            "tool_name": self.name,
            "tool_description": self.description,
            "title": self.name,
            "standardized_name": self.standard_name,
            "category_name": self.category,
            "api_list": [a.to_json() for a in self.apis],
        }
        if self.host:
            out["host"] = self.host
        if self.collections:
            out["collections"] = list(self.collections)
        return out


@dataclass(frozen=True, slots=True)
class Repair:
    """Something a loader had to fix or skip to read a file.

    Attributes:
        source: the file (and record) it was found in.
        kind: a short key (``duplicate_api``, ``empty_required``, ``bad_type``, ...).
        detail: what exactly, for a person.
    """

    source: str
    kind: str
    detail: str


@dataclass
class RepairReport:
    """What loaders repaired, counted by kind (see :class:`Repair`)."""

    repairs: list[Repair] = field(default_factory=list)

    def add(self, source: str, kind: str, detail: str) -> None:
        """Record one repair."""
        self.repairs.append(Repair(source, kind, detail))

    def extend(self, other: RepairReport) -> None:
        """Add another report's repairs."""
        self.repairs.extend(other.repairs)

    def counts(self) -> dict[str, int]:
        """How many repairs of each kind, by kind."""
        out: dict[str, int] = {}
        for repair in self.repairs:
            out[repair.kind] = out.get(repair.kind, 0) + 1
        return dict(sorted(out.items()))

    def __len__(self) -> int:
        return len(self.repairs)

    def summary(self, examples: int = 2) -> str:
        """A few lines: the count of each kind and its first examples."""
        if not self.repairs:
            return "nothing to repair"
        lines = []
        for kind, count in self.counts().items():
            found = [r for r in self.repairs if r.kind == kind][:examples]
            shown = "; ".join(f"{r.source}: {r.detail}" for r in found)
            lines.append(f"{kind}: {count} ({shown})")
        return "\n".join(lines)


class ToolLibrary:
    """Tools indexed by standardized name, category and collection.

    Args:
        tools: the tools; their ``standard_name`` must be unique.
        report: what the loader repaired to build them (empty for a generated library).

    Raises:
        ValueError: two tools with one standardized name.
    """

    def __init__(self, tools: Iterable[ToolDoc], report: RepairReport | None = None) -> None:
        self.tools: tuple[ToolDoc, ...] = tuple(tools)
        self.report = report if report is not None else RepairReport()
        self._by_name: dict[str, ToolDoc] = {}
        for tool in self.tools:
            if tool.standard_name in self._by_name:
                raise ValueError(f"two tools have the standardized name {tool.standard_name!r}")
            self._by_name[tool.standard_name] = tool

    def __len__(self) -> int:
        return len(self.tools)

    def __iter__(self) -> Iterator[ToolDoc]:
        return iter(self.tools)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __repr__(self) -> str:
        return (
            f"ToolLibrary({len(self.tools)} tools, {self.num_apis} APIs, "
            f"{len(self.categories)} categories, {len(self.collections)} collections)"
        )

    def tool(self, name: str) -> ToolDoc:
        """The tool of standardized name ``name`` (a display name is standardized first).

        Raises:
            KeyError: no such tool.
        """
        found = self._by_name.get(name) or self._by_name.get(standardize(name))
        if found is None:
            raise KeyError(f"no tool called {name!r} in the library ({len(self.tools)} tools)")
        return found

    def get(self, name: str) -> ToolDoc | None:
        """The tool called ``name``, or ``None``."""
        return self._by_name.get(name) or self._by_name.get(standardize(name))

    @functools.cached_property
    def num_apis(self) -> int:
        """The number of APIs over all tools."""
        return sum(len(t.apis) for t in self.tools)

    @functools.cached_property
    def categories(self) -> dict[str, tuple[ToolDoc, ...]]:
        """Tools by category display name, in library order."""
        out: dict[str, list[ToolDoc]] = {}
        for tool in self.tools:
            out.setdefault(tool.category, []).append(tool)
        return {k: tuple(v) for k, v in out.items()}

    @functools.cached_property
    def collections(self) -> dict[str, tuple[ToolDoc, ...]]:
        """Tools by collection name, in library order."""
        out: dict[str, list[ToolDoc]] = {}
        for tool in self.tools:
            for name in tool.collections:
                out.setdefault(name, []).append(tool)
        return {k: tuple(v) for k, v in out.items()}

    def merged(self, tools: Iterable[ToolDoc]) -> ToolLibrary:
        """This library plus ``tools`` (a tool of a name already here replaces it)."""
        extra = {t.standard_name: t for t in tools}
        kept = [extra.pop(t.standard_name, t) for t in self.tools]
        return ToolLibrary([*kept, *extra.values()], self.report)
