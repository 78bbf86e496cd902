"""The world's tools in Seal-Tools' format: converted from the generated library, or read.

Every API of the generated tool library (:func:`~toolgym.simulators.tool_library.generator.
generate_library`) becomes one Seal-Tools tool:

* ``api_name``: a camelCase name from the API's name, verb first (``Search Loan Offers`` is
  ``searchLoanOffers``, ``/playlists/{playlist_id}`` is ``getPlaylistDetails``, ``Flight
  Search`` is ``searchFlight``); a name another API took first gets the tool's name appended
  (``searchDatasetsDataHub``), then a number;
* ``api_description``: the API's description; ``field``: ``"<category>/<tool name>"``;
* ``parameters``: each parameter's type as a Python name (``str``, ``int``, ``float``,
  ``bool``: a number is an ``int`` when the values drawn for it are) and its description;
  ``required``: the required ones;
* ``responses``: the fields of the response template: its top-level fields, or, for a response
  that wraps a list of objects or one object in an envelope (``{"results": [...], "total":
  ...}``, ``{"success": ..., "data": {...}}``), the wrapped object's fields; each with its type
  and a short description.

:func:`as_tool` turns a Seal-Tools tool into the :class:`~toolgym.tools.tool.Tool` the
environment documents (its text doc is the tool's ``tool.jsonl`` record).
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolgym.errors import TaskFileError
from toolgym.families.seal_tools.world import SealTool, load_seal_tools
from toolgym.simulators.tool_library.generator import generate_library
from toolgym.simulators.tool_library.key_kinds import singular
from toolgym.simulators.tool_library.model import ApiDoc, ParamDoc, ToolDoc
from toolgym.simulators.tool_library.values import sample_argument
from toolgym.tools.tool import Param, Tool, ToolSet

NUM_APIS = 4000
"""The size of the generated library a world's tools are converted from."""

_VERB_WORDS = """
add analyze book calculate cancel check classify compare compute convert count create decode
delete detect download encode estimate extract fetch find generate geocode get identify list
lookup parse predict rank recognize recommend resolve retrieve schedule score search send
shorten solve submit summarize track transcribe translate update upload validate verify
"""
VERBS = frozenset(_VERB_WORDS.split())
"""Words that may start an ``api_name`` as they are; any other name gets ``get`` first."""

ENVELOPE = frozenset({"success", "count", "total", "page", "per_page", "status", "message"})
"""Top-level response fields that only wrap the payload (a count, a page, a success flag)."""

_SEAL_TYPES = {bool: "bool", int: "int", float: "float"}
_SPLIT_CAMEL = re.compile(r"([a-z0-9])([A-Z])|([A-Z]+)([A-Z][a-z])")
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]+")


def words_of(name: str) -> list[str]:
    """The lower-case words of a name in any style.

    >>> words_of("lookupISBN"), words_of("search_recipes"), words_of("Get POI Details")
    (['lookup', 'isbn'], ['search', 'recipes'], ['get', 'poi', 'details'])
    """
    spaced = _SPLIT_CAMEL.sub(lambda m: " ".join(g for g in m.groups() if g), name)
    return [w.lower() for w in _NOT_ALNUM.split(spaced) if w]


def camel(words: list[str]) -> str:
    """``["search", "loan", "offers"]`` as ``searchLoanOffers``."""
    return words[0] + "".join(w[:1].upper() + w[1:] for w in words[1:]) if words else ""


def base_name(api: ApiDoc) -> str:
    """The camelCase ``api_name`` an API's name gives (before making it unique).

    >>> base_name(ApiDoc("/playlists/{playlist_id}")), base_name(ApiDoc("Flight Search"))
    ('getPlaylistDetails', 'searchFlight')
    >>> base_name(ApiDoc("/salary/estimate")), base_name(ApiDoc("Words"))
    ('estimateSalary', 'getWords')
    """
    if api.name.startswith("/"):
        segments = [s for s in api.name.split("/") if s]
        words = [w for s in segments if not s.startswith("{") for w in words_of(s)]
        if segments and segments[-1].startswith("{") and words:
            words = [*words[:-1], singular(words[-1]), "details"]
    else:
        words = words_of(api.name)
    if not words:
        return "callApi"
    if words[0] not in VERBS:
        words = [words[-1], *words[:-1]] if words[-1] in VERBS else ["get", *words]
    if words[0][:1].isdigit():
        words = ["get", *words]
    return camel(words)


def seal_type(param: ParamDoc) -> str:
    """The Python type name of a parameter's values (``str``, ``int``, ``float`` or ``bool``)."""
    kind = param.kind
    if kind not in ("number", "integer", "boolean"):
        return "str"
    return _SEAL_TYPES.get(type(sample_argument(param, ("type",))), "str")


def _field_type(value: Any) -> str:
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "dict"
    return value if value in ("str", "int", "float", "bool") else "str"


def _payload(template: Any) -> tuple[dict[str, Any], str | None]:
    """The object whose fields are the responses, and the list it is an item of (if any)."""
    if isinstance(template, list):
        template = {"results": template}
    if not isinstance(template, dict):
        return {}, None
    containers = [k for k, v in template.items() if isinstance(v, dict | list)]
    if len(containers) == 1 and set(template) - {containers[0]} <= ENVELOPE:
        key = containers[0]
        inner = template[key]
        if isinstance(inner, dict) and inner:
            return inner, None
        if isinstance(inner, list) and inner and isinstance(inner[0], dict):
            return inner[0], key
    return template, None


def response_fields(template: Any) -> dict[str, dict[str, str]]:
    """The Seal-Tools ``responses`` of a response template (see the module docstring).

    >>> response_fields({"results": [{"loan_id": "str", "_list_length": 2}], "total": "int"})
    {'loan_id': {'type': 'str', 'description': 'The loan id of each result.'}}
    """
    payload, listed = _payload(template)
    item = " ".join(words_of(singular(listed))) if listed else ""
    out: dict[str, dict[str, str]] = {}
    for key, value in payload.items():
        if key.startswith("_"):
            continue
        what = " ".join(words_of(key)) or key
        text = f"The {what} of each {item}." if item else f"The {what}."
        out[key] = {"type": _field_type(value), "description": text}
    return out or {"result": {"type": "str", "description": "The result."}}


def _param_spec(param: ParamDoc) -> dict[str, str]:
    text = param.description or f"The {' '.join(words_of(param.name))}."
    return {"type": seal_type(param), "description": text}


def seal_tool(tool: ToolDoc, api: ApiDoc, api_name: str) -> SealTool:
    """The Seal-Tools tool of one API of a library tool, called ``api_name``."""
    return SealTool(
        api_name=api_name,
        api_description=api.description,
        field=f"{tool.category}/{tool.name}",
        parameters={p.name: _param_spec(p) for p in api.params},
        required=tuple(p.name for p in api.required),
        responses=response_fields(api.template),
    )


@dataclass(frozen=True)
class ConvertedApi:
    """A library API and the Seal-Tools tool it became.

    Attributes:
        seal: the Seal-Tools tool.
        tool: the library tool the API belongs to.
        api: the library API (its parameters are what argument values are drawn for).
    """

    seal: SealTool
    tool: ToolDoc
    api: ApiDoc


@functools.lru_cache(maxsize=8)
def converted_library(world_seed: int) -> tuple[ConvertedApi, ...]:
    """Every API of the world's generated library as a Seal-Tools tool, in library order."""
    taken: set[str] = set()
    out = []
    for tool in generate_library(world_seed, NUM_APIS):
        for api in tool.apis:
            name = base_name(api)
            if name in taken:
                name = name + camel(["", *words_of(tool.name)[:3]])
            unique, n = name, 2
            while unique in taken:
                unique, n = f"{name}{n}", n + 1
            taken.add(unique)
            out.append(ConvertedApi(seal_tool(tool, api, unique), tool, api))
    return tuple(out)


def seal_record(tool: SealTool) -> str:
    """A tool's ``tool.jsonl`` record, as the prompt and the docs show it."""
    return json.dumps(tool.to_json(), ensure_ascii=False)


def as_tool(seal: SealTool) -> Tool:
    """The documented tool of a Seal-Tools tool (typed parameters, the record as its doc)."""
    params = tuple(
        Param(
            name,
            str(spec.get("type", "str")),
            str(spec.get("description", "")),
            required=name in seal.required,
        )
        for name, spec in seal.parameters.items()
    )
    return Tool(seal.api_name, seal.api_description, params, text_doc=seal_record(seal) + "\n")


@dataclass(frozen=True)
class World:
    """The tools of a world: Seal-Tools tools by ``api_name`` and the documented tools.

    A world pickles as the call that builds it (its seed, or its file), not as its tools.

    Attributes:
        seal: the Seal-Tools tools by ``api_name``, in order.
        tools: the documented tools, in the same order.
        source: ``("generated", world_seed)`` or ``("file", path)``.
    """

    seal: Mapping[str, SealTool]
    tools: ToolSet
    source: tuple[str, Any]

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        kind, where = self.source
        return (generated_world, (where,)) if kind == "generated" else (file_world, (where,))


@functools.lru_cache(maxsize=8)
def generated_world(world_seed: int) -> World:
    """The tools converted from the world's generated library."""
    seal = {c.seal.api_name: c.seal for c in converted_library(world_seed)}
    return World(seal, ToolSet(as_tool(t) for t in seal.values()), ("generated", world_seed))


@functools.lru_cache(maxsize=8)
def _file_world(path: str, stamp: float) -> World:
    try:
        seal = load_seal_tools(path)
    except OSError as e:
        raise TaskFileError(f"cannot read Seal-Tools tools from {path}: {e}") from e
    if not seal:
        raise TaskFileError(f"{path} holds no Seal-Tools tool (expected tool.jsonl records)")
    return World(seal, ToolSet(as_tool(t) for t in seal.values()), ("file", path))


def file_world(path: str | os.PathLike[str]) -> World:
    """The tools of a Seal-Tools ``tool.jsonl`` (read again when the file changes).

    Raises:
        TaskFileError: the file cannot be read or holds no tool.
    """
    source = Path(path).resolve()
    try:
        stamp = source.stat().st_mtime
    except OSError as e:
        raise TaskFileError(f"cannot read Seal-Tools tools from {path}: {e}") from e
    return _file_world(str(source), stamp)
