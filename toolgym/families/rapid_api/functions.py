"""The library's APIs as functions: ToolBench's names and schemas, with its quirks fixed.

Every API of the tool library becomes one :class:`ApiTool`, a :class:`~toolgym.tools.tool.Tool`
that knows the API it calls. Its function name is ToolBench's, ``<api>_for_<tool>``
(``change_name(standardize(api))``), and its description ToolBench's data format:
``This is the subfunction for tool "<tool>", you can use this tool.`` followed by
``The description of this function is: "<description>"``. The upstream conversion's quirks are
fixed (reference §4.5):

* ``required`` never holds an empty string, and optional parameters are always kept, also for an
  API that has no required ones;
* a name longer than 64 characters keeps its beginning and ends with a stable hash, instead of
  losing its beginning; two APIs whose names still collide get stable hash suffixes, and every
  function maps back to exactly one API (calls match names exactly);
* the schema is strict JSON Schema by default: ``NUMBER`` is ``number``, ``ENUM`` a string with
  its ``enum`` when the values are known, ``ARRAY`` an array, ``OBJECT`` an object, and the
  documented default goes into ``default`` (optional parameters) and the description
  (``Example: ...``). ``schema_style="upstream"`` emits ToolBench's shape instead (``NUMBER`` as
  ``integer``, everything else but booleans a string, ``example_value`` and an ``optional``
  list).

Two functions are not APIs: ``Finish`` (ToolBench's, which ends the episode with an answer or
gives up) and ``retrieve_apis`` (a top-k search over the whole library, whose results the agent
may then call).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from toolgym.simulators.tool_library.model import ApiDoc, ParamDoc, ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.naming import (
    change_name,
    dedupe_name,
    function_name,
    standardize,
)
from toolgym.simulators.user.slots import value_key
from toolgym.tools.tool import Param, Tool, ToolSet

FINISH = "Finish"
"""ToolBench's function that ends an episode."""
RETRIEVE = "retrieve_apis"
"""The function that searches the whole library for more APIs."""
GIVE_ANSWER = "give_answer"
GIVE_UP = "give_up_and_restart"
SCHEMA_STYLES = ("strict", "upstream")

MAX_DESCRIPTION = 256
"""ToolBench cuts function and parameter descriptions to 256 characters."""

_STRICT_TYPES = {
    "string": "string",
    "number": "number",
    "integer": "integer",
    "boolean": "boolean",
    "enum": "string",
    "date": "string",
    "time": "string",
    "array": "array",
    "object": "object",
}
_UPSTREAM_TYPES = {"NUMBER": "integer", "STRING": "string", "BOOLEAN": "boolean"}
_ANNOTATIONS: dict[str, Any] = {
    "string": str,
    "number": float,
    "integer": int,
    "boolean": bool,
    "enum": str,
    "date": str,
    "time": str,
    "array": list,
    "object": dict,
}


def _cut(text: str, limit: int = MAX_DESCRIPTION) -> str:
    return text if len(text) <= limit else text[:limit]


def _default_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class ApiTool(Tool):
    """A function that calls one API of the library (see the module docstring).

    Attributes:
        tool_name: the standardized name of the API's tool.
        api_name: the API's display name.
        category: the tool's category.
        arguments: ``(function parameter name, API parameter name)`` pairs.
        api_description: the API's own description.
        style: the schema style, ``"strict"`` or ``"upstream"``.
        docs: the API's parameters, required then optional.
    """

    tool_name: str = ""
    api_name: str = ""
    category: str = ""
    arguments: tuple[tuple[str, str], ...] = ()
    api_description: str = ""
    style: str = "strict"
    docs: tuple[ParamDoc, ...] = ()

    def without_examples(self, values: Collection[str]) -> ApiTool:
        """This function with no parameter documenting one of ``values`` as its example."""
        wanted = values if isinstance(values, set | frozenset) else set(values)
        hidden = tuple(
            i for i, key in enumerate(self.example_keys) if key is not None and key in wanted
        )
        if not hidden:
            return self
        kept = self._without_examples
        tool = kept.get(hidden)
        if tool is None:  # one function for each set of examples hidden, so its docs are made once
            hide = set(hidden)
            docs = tuple(
                replace(doc, default=None) if i in hide else doc for i, doc in enumerate(self.docs)
            )
            tool = kept[hidden] = replace(self, docs=docs)
        return tool

    @functools.cached_property
    def example_keys(self) -> tuple[str | None, ...]:
        """Each parameter's example as :func:`value_key` reads it (``None``: none), made once.

        A conversation env hides the held-back values' examples at every reset.
        """
        return tuple(
            None if doc.default in (None, "") else value_key(doc.default) for doc in self.docs
        )

    @functools.cached_property
    def _without_examples(self) -> dict[tuple[int, ...], ApiTool]:
        """This function without the examples at some places, by the places (filled as asked)."""
        return {}

    @functools.cached_property
    def param_names(self) -> dict[str, str]:
        """Function parameter name to API parameter name."""
        return dict(self.arguments)

    def openai_schema(self) -> dict[str, Any]:
        """The function schema in the chosen style, wrapped as ``{"type": "function", ...}``."""
        return {"type": "function", "function": self.function()}

    def function(self) -> dict[str, Any]:
        """The bare function schema (``{"name", "description", "parameters"}``)."""
        return {
            "name": self.name,
            "description": self.description,
            "parameters": self.parameters_schema(),
        }

    def parameters_schema(self) -> dict[str, Any]:
        """The arguments' schema in the chosen style."""
        properties: dict[str, Any] = {}
        required: list[str] = []
        optional: list[str] = []
        for param, doc in zip(self.params, self.docs, strict=True):
            properties[param.name] = self._property(param, doc)
            (required if param.required else optional).append(param.name)
        if self.style == "upstream":
            return {
                "type": "object",
                "properties": properties,
                "required": required,
                "optional": optional,
            }
        return {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }

    def _property(self, param: Param, doc: ParamDoc) -> dict[str, Any]:
        described = _cut(doc.description.strip())
        if self.style == "upstream":
            out: dict[str, Any] = {
                "type": _UPSTREAM_TYPES.get(str(doc.type), "string"),
                "description": described,
            }
            if doc.default not in (None, ""):
                out["example_value"] = doc.default
            return out
        kind = doc.kind
        out = {"type": _STRICT_TYPES[kind]}
        if kind == "array":
            out["items"] = {"type": "string"}
        if kind == "date":
            out["format"] = "date"
        if doc.default not in (None, ""):
            example = f"Example: {_default_text(doc.default)}."
            described = f"{described} {example}".strip() if described else example
        out["description"] = described
        if doc.enum:
            out["enum"] = list(doc.enum)
        if not param.required and doc.default not in (None, ""):
            out["default"] = doc.default
        return out

    def toolbench_doc(self) -> str:
        """The function's name and description, then its parameters' JSON Schema on a line."""
        schema = json.dumps(self.parameters_schema(), ensure_ascii=False)
        return f"{self.name}: {self.description}\nParameters: {schema}\n"


def api_description(tool: ToolDoc, api: ApiDoc, name: str) -> str:
    """ToolBench's function description for ``api`` of ``tool`` called ``name``."""
    text = f'This is the subfunction for tool "{tool.standard_name}", you can use this tool.'
    own = (api.description or "").strip()
    if own:
        own = _cut(own.replace(api.name, name)) if api.name else _cut(own)
        text += f'The description of this function is: "{own}"'
    return text


def _params(
    api: ApiDoc,
) -> tuple[tuple[Param, ...], tuple[tuple[str, str], ...], tuple[ParamDoc, ...]]:
    taken: set[str] = set()
    params, pairs, docs = [], [], []
    for doc, required in [(p, True) for p in api.required] + [(p, False) for p in api.optional]:
        base = change_name(standardize(doc.name)) or "arg"
        name = base
        k = 2
        while name in taken:
            name = f"{base}_{k}"
            k += 1
        taken.add(name)
        params.append(
            Param(
                name,
                _ANNOTATIONS[doc.kind],
                _cut(doc.description.strip()),
                enum=doc.enum,
                required=required,
            )
        )
        pairs.append((name, doc.name))
        docs.append(doc)
    return tuple(params), tuple(pairs), tuple(docs)


def api_tools(library: ToolLibrary, style: str = "strict") -> list[ApiTool]:
    """One function per API of the library, with unique names, in library order.

    Raises:
        ValueError: an unknown ``style``.
    """
    if style not in SCHEMA_STYLES:
        raise ValueError(f"schema_style must be one of {SCHEMA_STYLES}; got {style!r}")
    taken = {FINISH, RETRIEVE}
    out = []
    for tool in library:
        for api in tool.apis:
            name = dedupe_name(
                function_name(api.name, tool.standard_name), taken, tool.standard_name, api.name
            )
            taken.add(name)
            params, pairs, docs = _params(api)
            out.append(
                ApiTool(
                    name,
                    api_description(tool, api, name),
                    params,
                    tool_name=tool.standard_name,
                    api_name=api.name,
                    category=tool.category,
                    arguments=pairs,
                    api_description=(api.description or "").strip(),
                    style=style,
                    docs=docs,
                )
            )
    return out


FINISH_TOOL = Tool(
    FINISH,
    "If you believe that you have obtained a result that can answer the task, please call this "
    "function to provide the final answer. Alternatively, if you recognize that you are unable "
    "to proceed with the task in the current state, call this function to restart. Remember: "
    "you must ALWAYS call this function at the end of your attempt, and the only part that will "
    "be shown to the user is the final answer, so it should contain sufficient information.",
    (
        Param(
            "return_type",
            str,
            "give_answer to answer the task, give_up_and_restart to give up.",
            enum=(GIVE_ANSWER, GIVE_UP),
        ),
        Param(
            "final_answer",
            str,
            "The final answer you want to give the user. You should have this field if "
            '"return_type"=="give_answer".',
            required=False,
        ),
    ),
    terminal=True,
)
"""ToolBench's ``Finish``."""

RETRIEVE_TOOL = Tool(
    RETRIEVE,
    "Search the whole API library for functions that can help with a need, and make the ones "
    "found callable. Returns the best matches' function schemas.",
    (
        Param("query", str, "What the functions should do, in a few words."),
        Param("top_k", int, "How many functions to return (1 to 10).", required=False, default=5),
    ),
)
"""The retriever as a function the agent calls."""


def library_tools(library: ToolLibrary, style: str = "strict") -> ToolSet:
    """Every API of ``library`` as a function, plus ``Finish`` and ``retrieve_apis``."""
    return ToolSet([*api_tools(library, style), RETRIEVE_TOOL, FINISH_TOOL])
