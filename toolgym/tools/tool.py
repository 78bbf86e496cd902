"""The one tool model: a function with a JSON Schema, rendered as ToolBench docs and OpenAI schemas.

A :class:`Tool` is the single source of truth about one function an agent may call, whatever the
family: a method of a Python API object (``API.set_location``), a value constructor (``Loc``), a
REST endpoint (``current_weather_city``) or any later kind. It holds the name, the description, the
typed parameters and how the function is reached; every rendering is generated from it:

* the ToolBench text doc (``# <description>`` and the signature, or the curl template of an
  endpoint), as the original prompts show it;
* the OpenAI function-calling schema, with nested objects and arrays, enums, defaults and
  ``required``, built by pydantic from the parameters' Python types.

Parameter types are Python annotations (``int``, ``list[str]``, a ``TypedDict`` for a nested
object, a value class) or the short names the original text docs use (``"string"``, ``"int"``,
``"float"``, ``"List[str]"``). :meth:`Param.problem` checks a value against the type with pydantic's
strict mode, and the API objects that implement tools are checked against their :class:`Tool`
descriptions (names, order, required-ness and types) when their class is defined.

A task exposes a subset of a family's tools (:meth:`ToolSet.subset`), so a library of thousands
of tools never ships whole with every reset; subsets and their renderings are cached.

>>> tool = Tool("set_num_beds", "To set the number of bedrooms.",
...             (Param("value", "int", "The number of bedrooms."),), owner="API")
>>> print(tool.toolbench_doc(), end="")
# To set the number of bedrooms.
API.set_num_beds(value: int)
>>> tool.openai_schema()["function"]["parameters"]["properties"]
{'value': {'type': 'integer', 'description': 'The number of bedrooms.'}}
>>> tool.params[0].problem("3")
"should be int; got str '3'"
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pydantic

_DOC_TYPES: dict[str, Any] = {
    "string": str,
    "str": str,
    "int": int,
    "integer": int,
    "float": float,
    "number": float,
    "bool": bool,
    "boolean": bool,
    "List[str]": list[str],
    "list": list,
    "dict": dict,
    "object": dict,
}
"""The type names of the original text docs, and the Python type each stands for."""

_KEY_ORDER = (
    "type",
    "items",
    "properties",
    "required",
    "additionalProperties",
    "description",
    "enum",
    "default",
)
_NO_DEFAULT: Any = inspect.Parameter.empty


def _annotation_name(annotation: Any) -> str:
    if isinstance(annotation, type) and not typing.get_args(annotation):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


@dataclass(frozen=True)
class Param:
    """A parameter of a tool.

    Attributes:
        name: the parameter name.
        type: a Python annotation, or a type name of the original docs (``"string"``, ``"int"``,
            ``"float"``, ``"number"``, ``"List[str]"``) that stands for one.
        description: one sentence for the model.
        enum: the allowed values, when the tool documents them (for a list, of its items).
        required: whether the argument must be given.
        json_schema: the JSON Schema of a value class whose JSON form is not its Python type
            (a ``Loc`` is a string in a JSON call); replaces the schema built from ``type``.
        default: the documented default of an optional parameter (shown in the schema).
    """

    name: str
    type: Any
    description: str
    enum: tuple[Any, ...] | None = None
    required: bool = True
    json_schema: Mapping[str, Any] | None = None
    default: Any = _NO_DEFAULT

    @property
    def annotation(self) -> Any:
        """The Python type of the parameter."""
        if isinstance(self.type, str):
            return _DOC_TYPES.get(self.type, Any)
        return self.type

    @property
    def type_name(self) -> str:
        """The type as the text docs write it (``string``, ``List[str]``, ``Loc``)."""
        return self.type if isinstance(self.type, str) else _annotation_name(self.type)

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the parameter (description, enum and default included)."""
        return _param_schema(self)

    def problem(self, value: Any) -> str | None:
        """Why ``value`` does not have the declared type (pydantic, strict), or ``None``.

        ``bool`` is not an ``int``, an ``int`` is a ``float``, and a value class is checked with
        ``isinstance``; the enum is not checked here (APIs decide how strict they are about it).
        """
        exact = self._exact_types
        if exact is not None:
            if type(value) in exact:
                return None
        elif self._plain_class is not None and isinstance(value, self._plain_class):
            return None
        adapter = self._adapter
        if adapter is None:
            return None
        try:
            adapter.validate_python(value, strict=True)
        except pydantic.ValidationError:
            return f"should be {self.type_name}; got {type(value).__name__} {_short(value)}"
        except Exception:  # a value whose own methods fail is simply not of the type
            return f"should be {self.type_name}; got {type(value).__name__}"
        return None

    @functools.cached_property
    def _adapter(self) -> pydantic.TypeAdapter[Any] | None:
        annotation = self.annotation
        return None if annotation is Any else _adapter(annotation)

    @functools.cached_property
    def _exact_types(self) -> tuple[type, ...] | None:
        # strict mode: no bool for int, but an int is a float
        return {int: (int,), float: (float, int), str: (str,), bool: (bool,)}.get(self.annotation)

    @functools.cached_property
    def _plain_class(self) -> type | None:
        """A value class (``Loc``) that pydantic checks with ``isinstance``, else ``None``."""
        annotation = self.annotation
        if not isinstance(annotation, type) or annotation in (int, float, str, bool):
            return None
        if issubclass(annotation, pydantic.BaseModel | dict | list | tuple | set | frozenset):
            return None
        if typing.is_typeddict(annotation):
            return None
        try:
            pydantic.TypeAdapter(annotation)
        except pydantic.PydanticSchemaGenerationError:
            return annotation
        return None


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@functools.lru_cache(maxsize=512)
def _adapter(annotation: Any) -> pydantic.TypeAdapter[Any]:
    try:
        return pydantic.TypeAdapter(annotation)
    except pydantic.PydanticSchemaGenerationError:  # a plain class: checked with isinstance
        return pydantic.TypeAdapter(
            annotation, config=pydantic.ConfigDict(arbitrary_types_allowed=True)
        )


_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_MAPS = ("properties", "$defs", "patternProperties")


def _ordered(schema: Any) -> Any:
    """A JSON Schema with its keys in a fixed, readable order and ``title`` dropped, recursively.

    Only sub-schemas are rewritten; values such as ``enum``, ``default`` or ``const`` are kept as
    they are.
    """
    if not isinstance(schema, dict):
        return schema
    keys = [k for k in _KEY_ORDER if k in schema]
    keys += [k for k in schema if k not in _KEY_ORDER and k != "title"]
    out: dict[str, Any] = {}
    for key in keys:
        value = schema[key]
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            value = {name: _ordered(sub) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            value = [_ordered(sub) for sub in value]
        elif key in ("items", "additionalProperties", "not"):
            value = _ordered(value)
        out[key] = value
    return out


def _inline_refs(schema: Any, defs: Mapping[str, Any]) -> Any:
    """Replace ``$ref`` pointers to ``$defs`` by the definitions (function schemas are inline)."""
    if isinstance(schema, list):
        return [_inline_refs(s, defs) for s in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _inline_refs(defs[ref.removeprefix("#/$defs/")], defs)
    return {k: _inline_refs(v, defs) for k, v in schema.items() if k != "$defs"}


@functools.lru_cache(maxsize=512)
def _type_schema(annotation: Any) -> dict[str, Any]:
    if annotation is Any:
        return {"type": "string"}
    raw = _adapter(annotation).json_schema()
    return dict(_ordered(_inline_refs(raw, raw.get("$defs", {}))))


def _param_schema(param: Param) -> dict[str, Any]:
    base = param.json_schema if param.json_schema is not None else _type_schema(param.annotation)
    out = dict(_ordered(dict(base)))
    out["description"] = param.description
    if param.enum is not None:
        if out.get("type") == "array":
            out["items"] = {**out.get("items", {"type": "string"}), "enum": list(param.enum)}
        else:
            out["enum"] = list(param.enum)
    if param.default is not _NO_DEFAULT:
        out["default"] = param.default
    return out


@dataclass(frozen=True)
class Tool:
    """A function an agent can call.

    Attributes:
        name: the function name (``set_location``, ``current_weather_city``).
        description: what it does, for the model (the first line of the text doc).
        params: the parameters, in positional order.
        owner: the object it is called on in programs (``"API"``), or ``None``.
        terminal: whether calling it submits the episode's answer (``API.search()``).
        doc_signature: the argument list as the original text docs write it, when it differs from
            ``name: type`` pairs (Trip Booking writes ``API.set_origin(Loc)``).
        text_doc: the whole ToolBench text doc, when the family writes it (REST endpoints show
            their curl template); otherwise it is rendered from the signature.
        offered: whether it appears in the function-calling schemas (value constructors such as
            ``Loc`` are documented for programs; JSON calls pass their values instead).
        route: how a REST endpoint is reached (a :class:`~toolgym.tools.rest.RestRoute`), for
            tools that are endpoints.
    """

    name: str
    description: str
    params: tuple[Param, ...] = ()
    owner: str | None = None
    terminal: bool = False
    doc_signature: str | None = None
    text_doc: str | None = None
    offered: bool = True
    route: Any = None

    def __post_init__(self) -> None:
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError(f"tool {self.name!r} declares a parameter twice: {names}")

    @functools.cached_property
    def qualname(self) -> str:
        """``API.set_location``, or the bare name of a tool without an owner."""
        return f"{self.owner}.{self.name}" if self.owner else self.name

    @functools.cached_property
    def shared_schema(self) -> dict[str, Any]:
        """:meth:`openai_schema`, made once per tool and shared by every set holding it.

        Read-only: the schema of every env of a family is this one object.
        """
        return self.openai_schema()

    @functools.cached_property
    def shared_doc(self) -> str:
        """:meth:`toolbench_doc`, made once per tool."""
        return self.toolbench_doc()

    def without_examples(self, values: Collection[str]) -> Tool:
        """This tool with no documented example that is one of ``values`` (normalized text).

        A tool whose docs show no examples (the default) is itself.
        """
        return self

    def param(self, name: str) -> Param | None:
        """The parameter called ``name``, if there is one."""
        return next((p for p in self.params if p.name == name), None)

    def signature(self) -> str:
        """The call signature as the text docs show it."""
        args = self.doc_signature
        if args is None:
            args = ", ".join(f"{p.name}: {p.type_name}" for p in self.params)
        return f"{self.qualname}({args})"

    def toolbench_doc(self) -> str:
        """The ToolBench-style text doc, newline-terminated."""
        if self.text_doc is not None:
            return self.text_doc
        return f"# {self.description}\n{self.signature()}\n"

    def parameters_schema(self) -> dict[str, Any]:
        """The JSON Schema of the arguments object."""
        return {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.params},
            "required": [p.name for p in self.params if p.required],
            "additionalProperties": False,
        }

    def openai_schema(self) -> dict[str, Any]:
        """The OpenAI function-calling schema (``{"type": "function", "function": {...}}``)."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters_schema(),
            },
        }


def check_implementation(tool: Tool, function: Callable[..., Any], where: str) -> None:
    """Raise ``TypeError`` unless ``function``'s signature matches ``tool``'s parameters.

    Names and order must match; a parameter with a default must be optional and the other way
    round; every annotated parameter must have the tool's type.
    """
    params = [p for p in inspect.signature(function).parameters.values() if p.name != "self"]
    names, expected = [p.name for p in params], [p.name for p in tool.params]
    if names != expected:
        raise TypeError(f"{where} takes parameters {names} but its Tool documents {expected}")
    annotations = {
        k: v for k, v in getattr(function, "__annotations__", {}).items() if k in expected
    }
    # Only the documented parameters are resolved: ``self`` may name a class still being defined.
    holder = types.SimpleNamespace(
        __annotations__=annotations, __globals__=getattr(function, "__globals__", {})
    )
    try:
        hints = typing.get_type_hints(holder)
    except Exception as e:  # an annotation that does not resolve is a programming error
        raise TypeError(f"{where}: cannot resolve its annotations ({e})") from e
    for code, doc in zip(params, tool.params, strict=True):
        optional = code.default is not inspect.Parameter.empty
        if optional == doc.required:
            state = "optional" if optional else "required"
            raise TypeError(f"{where}: {code.name} is {state} in the code but not in its Tool")
        hint = hints.get(code.name, Any)
        if hint is not Any and hint != doc.annotation:
            raise TypeError(
                f"{where}: {code.name} is annotated {_annotation_name(hint)} but its Tool "
                f"documents {doc.type_name}"
            )


class ToolSet(Sequence[Tool]):
    """An ordered collection of tools with unique names, and its cached renderings.

    Tools are found by qualified name (``worksheet.update``) and by bare name. Two documented-only
    tools (not ``offered`` as function schemas) of different owners may share a bare name
    (``worksheet.batch_update``, ``sheet.batch_update``); the bare name then finds the first.

    Args:
        tools: the tools, in the order the docs list them.

    Raises:
        ValueError: two tools share a qualified name, or two offered tools a name.
    """

    def __init__(self, tools: Iterable[Tool]) -> None:
        self._tools = tuple(tools)
        self._by_name: dict[str, Tool] = {}
        for tool in self._tools:
            if tool.qualname in self._by_name:
                raise ValueError(f"two tools are called {tool.qualname!r}")
            self._by_name[tool.qualname] = tool
        offered: set[str] = set()
        for tool in self._tools:
            if tool.offered:  # function-calling schemas are found by bare name
                if tool.name in offered:
                    raise ValueError(f"two tools are called {tool.name!r}")
                offered.add(tool.name)
            self._by_name.setdefault(tool.name, tool)
        self._subsets: dict[tuple[str, ...], ToolSet] = {}

    def __getitem__(self, index: Any) -> Any:
        return self._tools[index]

    def __getstate__(self) -> dict[str, Any]:
        """The set without its caches keyed by ``id`` (a copy's tools have other ids)."""
        state = dict(self.__dict__)
        state.pop("_positions", None)
        return state

    def __len__(self) -> int:
        return len(self._tools)

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools)

    def __contains__(self, item: object) -> bool:
        return item in self._by_name if isinstance(item, str) else item in self._tools

    def __repr__(self) -> str:
        return f"ToolSet({len(self)} tools: {', '.join(t.name for t in self._tools[:5])}...)"

    def get(self, name: str) -> Tool | None:
        """The tool called ``name`` (its name or qualified name), or ``None``."""
        return self._by_name.get(name)

    @functools.cached_property
    def _positions(self) -> dict[int, int]:
        """Each tool's position in the set, by ``id`` (subsets of large sets stay cheap)."""
        return {id(t): i for i, t in enumerate(self._tools)}

    @property
    def names(self) -> tuple[str, ...]:
        """The tool names, in order."""
        return tuple(t.name for t in self._tools)

    @functools.cached_property
    def terminal(self) -> frozenset[str]:
        """Qualified names of the terminal tools."""
        return frozenset(t.qualname for t in self._tools if t.terminal)

    @functools.cached_property
    def api_doc_list(self) -> tuple[str, ...]:
        """The ToolBench text doc of every tool."""
        return tuple(t.shared_doc for t in self._tools)

    @functools.cached_property
    def api_docs(self) -> str:
        """All text docs as one text, with a blank line between two docs."""
        return "\n".join(self.api_doc_list)

    @functools.cached_property
    def openai_schemas(self) -> tuple[dict[str, Any], ...]:
        """The function-calling schemas of the offered tools (shared: treat as read-only)."""
        return tuple(t.shared_schema for t in self._tools if t.offered)

    def subset(self, names: Iterable[str] | None) -> ToolSet:
        """The tools called ``names`` (in this set's order); ``None`` means all of them.

        Raises:
            KeyError: a name that is not in the set.
        """
        if names is None:
            return self
        key = tuple(sorted(set(names)))
        cached = self._subsets.get(key)
        if cached is None:
            unknown = [n for n in key if n not in self._by_name]
            if unknown:
                raise KeyError(f"no tools called {unknown} (known: {', '.join(self.names)})")
            positions = self._positions
            wanted = sorted({positions[id(self._by_name[n])] for n in key})
            cached = ToolSet(self._tools[i] for i in wanted)
            self._subsets[key] = cached
        return cached
