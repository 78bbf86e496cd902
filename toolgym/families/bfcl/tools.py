"""An entry's functions as tools: the docs a model sees, as BFCL shows them at inference.

BFCL gives a model each function's doc with a note on its language appended to the
description; for Java and JavaScript entries every parameter becomes a string holding the
value's source text (``"new ArrayList<>(Arrays.asList(1, 2))"``), its real type named in its
description. In prompt mode the docs are listed as JSON; in function-calling mode they become
JSON Schema, Gorilla's type names mapped to JSON Schema's (``float`` to ``number`` with
``"format": "float"``, ``dict`` to ``object``, ``tuple`` to ``array``, anything unknown to
``string``). :class:`BfclTool` carries both.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgym.tools.tool import Param, Tool, ToolSet
from toolgym.tools.value_memo import ValueMemo

OPENAPI_TYPES = {
    "integer": "integer",
    "number": "number",
    "float": "number",
    "string": "string",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "dict": "object",
    "object": "object",
    "tuple": "array",
    "any": "string",
    "byte": "integer",
    "short": "integer",
    "long": "integer",
    "double": "number",
    "char": "string",
    "ArrayList": "array",
    "Array": "array",
    "HashMap": "object",
    "Hashtable": "object",
    "Queue": "array",
    "Stack": "array",
    "Any": "string",
    "String": "string",
    "Bigint": "integer",
}
"""A Gorilla type name's JSON Schema type (BFCL's function-calling mode)."""

LANGUAGE_HINTS = {
    "python": " Note that the provided function is in Python 3 syntax.",
    "java": " Note that the provided function is in Java 8 SDK syntax.",
    "javascript": " Note that the provided function is in JavaScript syntax.",
}
"""What BFCL appends to every function's description, by the entry's language."""
_LANGUAGE_NAMES = {"java": "Java", "javascript": "JavaScript"}
_LISTS = {"java": ("ArrayList", "Array"), "javascript": ("array",)}


def model_doc(function: Mapping[str, Any], language: str) -> dict[str, Any]:
    """The doc of ``function`` as BFCL shows it to a model (see the module docstring)."""
    doc = copy.deepcopy(dict(function))
    doc["description"] = str(doc.get("description", "")) + LANGUAGE_HINTS[language]
    if language == "python":
        return doc
    named = _LANGUAGE_NAMES[language]
    for value in doc.get("parameters", {}).get("properties", {}).values():
        value.setdefault("description", "")
        kind = value.get("type")
        if kind == "any":
            value["description"] += (
                f" This parameter can be of any type of {named} object in string representation."
            )
        else:
            value["description"] += (
                f" This is {named} {kind} type parameter in string representation."
            )
        if kind in _LISTS[language] and "items" in value:
            value["description"] += (
                f" The list elements are of type {value['items'].get('type')}; they are not in "
                "string representation."
            )
            del value["items"]
        if language == "javascript" and kind == "dict" and "properties" in value:
            value["description"] += (
                " The dictionary entries have the following schema; they are not in string "
                f"representation. {json.dumps(value['properties'])}"
            )
            del value["properties"]
        value["type"] = "string"
    return doc


def json_schema(properties: Mapping[str, Any]) -> dict[str, Any]:
    """Doc properties with Gorilla's types as JSON Schema's (BFCL's function-calling mode)."""
    out: dict[str, Any] = {}
    for key, original in properties.items():
        value = copy.deepcopy(dict(original)) if isinstance(original, Mapping) else {}
        kind = value.get("type")
        if kind == "float":
            value["format"] = "float"
            value["description"] = (
                str(value.get("description", "")) + " This is a float type value."
            )
        value["type"] = OPENAPI_TYPES.get(kind, "string") if isinstance(kind, str) else "string"
        if isinstance(value.get("properties"), Mapping):
            value["properties"] = json_schema(value["properties"])
        elif isinstance(value.get("items"), Mapping):
            items = dict(value["items"])
            if isinstance(items.get("properties"), Mapping):
                items["properties"] = json_schema(items["properties"])
            item_kind = items.get("type")
            items["type"] = (
                OPENAPI_TYPES.get(item_kind, "string") if isinstance(item_kind, str) else "string"
            )
            value["items"] = items
        out[key] = value
    return out


@dataclass(frozen=True)
class BfclTool(Tool):
    """One function of an entry, documented as BFCL documents it to a model.

    Attributes:
        doc: the doc the model sees (:func:`model_doc`): its JSON is the text doc, and its
            parameters, mapped to JSON Schema, are the function-calling schema.
    """

    doc: Mapping[str, Any] | None = None

    def toolbench_doc(self) -> str:
        """The doc as JSON, one line (BFCL's prompt mode lists the functions so)."""
        return json.dumps(self.doc, ensure_ascii=False) + "\n"

    def parameters_schema(self) -> dict[str, Any]:
        """The parameters as JSON Schema (every property, the doc's required ones)."""
        parameters = (self.doc or {}).get("parameters", {})
        return {
            "type": "object",
            "properties": json_schema(parameters.get("properties", {})),
            "required": [p.name for p in self.params if p.required],
        }


def bfcl_tool(function: Mapping[str, Any], language: str) -> BfclTool:
    """The tool of one BFCL function doc (its parameters untyped: BFCL's checker types them)."""
    doc = model_doc(function, language)
    parameters = doc.get("parameters", {})
    required = set(parameters.get("required", ()))
    params = tuple(
        Param(
            name,
            Any,
            str(value.get("description", "")) if isinstance(value, Mapping) else "",
            required=name in required,
        )
        for name, value in parameters.get("properties", {}).items()
    )
    return BfclTool(str(doc["name"]), str(doc["description"]), params, doc=doc)


@functools.lru_cache(maxsize=4096)
def _tool_set(functions: str, language: str) -> ToolSet:
    return ToolSet(bfcl_tool(f, language) for f in json.loads(functions))


_TOOL_SETS: ValueMemo[ToolSet] = ValueMemo(256)


def tool_set(functions: Sequence[Mapping[str, Any]], language: str) -> ToolSet:
    """The tools of an entry's function docs, in order.

    Found by the docs' identities at the resets of one task (:class:`ValueMemo`), else by their
    JSON text.
    """
    made = _TOOL_SETS.get(functions, language)
    if made is None:
        made = _TOOL_SETS.put(functions, _tool_set(json.dumps(list(functions)), language), language)
    return made
