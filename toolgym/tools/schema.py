"""One description per tool function, rendered as ToolBench text docs and OpenAI function schemas.

A :class:`ToolFunction` is the single source of truth about a function the agent may call: its name,
description, parameters and the object it hangs off (``API``) or ``None`` for constructors such as
``Loc``. The API classes that implement the functions are checked against these descriptions when
they are defined (see :class:`toolgym.tools.api.ToolApi`), so docs, schemas and code cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Parameter types, as the text docs spell them and as JSON schema types.
_JSON_TYPES: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "number": {"type": "number"},
    "List[str]": {"type": "array", "items": {"type": "string"}},
}
_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "number": (int, float),
    "List[str]": (list, tuple),
}


@dataclass(frozen=True)
class Param:
    """A parameter of a tool function.

    Attributes:
        name: the Python parameter name.
        type: ``string``/``str``, ``int``, ``float``, ``number``, ``List[str]`` or the name of a
            value class such as ``Loc`` or ``Date`` (then ``json_schema`` describes it).
        description: one sentence for the model.
        enum: allowed values, when the function validates them.
        required: whether the argument must be given.
        json_schema: the JSON schema of a value-class parameter.
    """

    name: str
    type: str
    description: str
    enum: tuple[str, ...] | None = None
    required: bool = True
    json_schema: dict[str, Any] | None = None

    def schema(self) -> dict[str, Any]:
        """JSON schema of the parameter."""
        out = dict(self.json_schema or _JSON_TYPES.get(self.type, {"type": "string"}))
        out["description"] = self.description
        if self.enum is not None:
            if out.get("type") == "array":
                out["items"] = {"type": "string", "enum": list(self.enum)}
            else:
                out["enum"] = list(self.enum)
        return out

    def accepts(self, value: object) -> bool:
        """Whether ``value`` has the declared Python type (used only for warnings)."""
        types = _PY_TYPES.get(self.type)
        if types is None:
            return type(value).__name__ == self.type
        return isinstance(value, types) and not isinstance(value, bool)


@dataclass(frozen=True)
class ToolFunction:
    """A function an agent can call.

    Attributes:
        name: function name (``set_location``).
        description: what it does, for the model (first line of the text doc).
        params: parameters in positional order.
        owner: the object it is called on (``"API"``), or ``None`` for a free function/constructor.
        doc_signature: the argument list as the original text docs write it, when it differs from
            ``name: type`` pairs (Trip Booking writes ``API.set_origin(Loc)``).
        terminal: whether calling it ends a ``call``-mode episode.
    """

    name: str
    description: str
    params: tuple[Param, ...] = ()
    owner: str | None = "API"
    doc_signature: str | None = None
    terminal: bool = False
    tags: tuple[str, ...] = field(default_factory=tuple)

    @property
    def qualname(self) -> str:
        """``API.set_location`` or ``Loc``."""
        return f"{self.owner}.{self.name}" if self.owner else self.name

    def signature(self) -> str:
        """The call signature as the text docs show it."""
        args = self.doc_signature
        if args is None:
            args = ", ".join(f"{p.name}: {p.type}" for p in self.params)
        return f"{self.qualname}({args})"

    def toolbench_doc(self) -> str:
        """The ToolBench-style doc: ``# <description>`` then the signature, newline-terminated."""
        return f"# {self.description}\n{self.signature()}\n"

    def openai_schema(self) -> dict[str, Any]:
        """OpenAI function-calling schema (``{"type": "function", "function": {...}}``)."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": {
                    "type": "object",
                    "properties": {p.name: p.schema() for p in self.params},
                    "required": [p.name for p in self.params if p.required],
                    "additionalProperties": False,
                },
            },
        }


def render_api_docs(functions: tuple[ToolFunction, ...]) -> str:
    """All docs as one text, one blank line between two docs."""
    return "\n".join(f.toolbench_doc() for f in functions)
