"""API objects that implement tools, and the session an agent program runs in.

An API class (``HomeSearchAPI``) lists its :class:`~toolgym.tools.tool.Tool` descriptions in
``TOOLS`` and implements each as a method with the same parameters and types; the check runs when
the class is defined, so a drifted signature fails at import, not in front of a user. Value
constructors (``Loc``, ``Date``) are tools too, bound to a factory by :class:`Constructor`.

A :class:`ToolSession` is the namespace of one program: the API object (bound as ``API``), the
constructors, the variables the program assigned, the log of every call and the warnings.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.faults import FaultPlan
from toolgym.tools.plain_copy import plain_deepcopy
from toolgym.tools.tool import Tool, check_implementation


class ToolApi:
    """State and functions of one tool family's API object (bound as ``API`` in agent programs).

    Subclasses set ``TOOLS`` and implement one method per tool. They keep their mutable state in
    the instance attributes listed in ``STATE_ATTRS``, so sessions can snapshot and restore it.
    A state deep-copies them, except those in ``SHARED_STATE_ATTRS``: values the API's calls
    replace but never change in place (a search's result), which a state holds as they are.
    """

    TOOLS: ClassVar[tuple[Tool, ...]] = ()
    STATE_ATTRS: ClassVar[tuple[str, ...]] = ()
    SHARED_STATE_ATTRS: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for tool in cls.TOOLS:
            if tool.owner is None:
                continue
            method = getattr(cls, tool.name, None)
            if method is None:
                raise TypeError(
                    f"{cls.__name__} documents {tool.qualname} but does not implement it"
                )
            check_implementation(tool, method, f"{cls.__name__}.{tool.name}")

    def outcome(self) -> dict[str, Any]:
        """The dict that is scored against the gold (e.g. the accumulated search criteria)."""
        raise NotImplementedError(f"{type(self).__name__} does not define outcome()")

    def status(self) -> str:
        """A short text about the state after a call (shown in ``call`` mode; default: none)."""
        return ""

    def result_text(self) -> str:
        """What the program achieved, as the observation shows it (default: the outcome)."""
        return f"Outcome: {self.outcome()}"

    def get_state(self) -> dict[str, Any]:
        """A deep copy of the mutable state (the shared attributes as they are)."""
        shared = self.SHARED_STATE_ATTRS
        return {
            name: getattr(self, name) if name in shared else plain_deepcopy(getattr(self, name))
            for name in self.STATE_ATTRS
        }

    def set_state(self, state: Mapping[str, Any]) -> None:
        """Restore a state returned by :meth:`get_state`."""
        shared = self.SHARED_STATE_ATTRS
        for name in self.STATE_ATTRS:
            value = state[name]
            setattr(self, name, value if name in shared else plain_deepcopy(value))


def construct_from_json(value: Any) -> tuple[list[Any], dict[str, Any]]:
    """Arguments of a constructor call for a JSON value: an object is keywords, a list positions."""
    if isinstance(value, dict):
        return [], value
    if isinstance(value, list):
        return value, {}
    return [value], {}


@dataclass(frozen=True)
class Constructor:
    """A value constructor of the program namespace (``Loc``, ``Date``).

    Attributes:
        tool: its description.
        factory: the class or function that builds the value.
        from_json: how a JSON argument becomes constructor arguments (``(args, kwargs)``) when a
            JSON call passes a value of this type; default: an object is keyword arguments, a list
            positional ones, anything else the one positional argument.
    """

    tool: Tool
    factory: Callable[..., Any]
    from_json: Callable[[Any], tuple[list[Any], dict[str, Any]]] = construct_from_json


@dataclass
class CallRecord:
    """One executed call: its tool, bound arguments and result."""

    tool: Tool
    arguments: dict[str, Any]
    result: Any = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form for logs and ``info``."""
        return {"name": self.tool.qualname, "arguments": jsonable(self.arguments)}


_JSON_SCALARS = frozenset({str, int, float, bool, type(None)})


def jsonable(value: Any) -> Any:
    """``value`` with anything that is not JSON replaced by its ``repr``.

    >>> jsonable({"a": (1, 2.5), 3: None})
    {'a': [1, 2.5], '3': None}
    """
    kind = type(value)
    if kind in _JSON_SCALARS:  # the common case first: a call's arguments are mostly scalars
        return value
    if isinstance(value, dict):
        return {k if type(k) is str else str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, str | int | float | bool):
        return value
    return repr(value)


@dataclass(frozen=True)
class SessionMark:
    """Where a session was before a statement (:meth:`ToolSession.checkpoint`)."""

    api: dict[str, Any]
    """The API's state (a copy)."""
    variables: dict[str, Any]
    """The program's variables (a copy)."""
    calls: int
    """How many calls the session had logged."""
    warnings: int
    """How many warnings it had collected."""


@dataclass
class ToolSession:
    """The namespace an agent program runs in: the API object, constructors and variables.

    The session also logs every call and collects warnings: a value of another type than the docs
    say is passed on as given (the original APIs store what they get), and the warning says why
    it will probably not match.
    """

    api: ToolApi
    constructors: dict[str, Constructor] = field(default_factory=dict)
    api_name: str = "API"
    variables: dict[str, Any] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    faults: FaultPlan | None = None
    """Service faults the API's calls meet (see :mod:`toolgym.tools.faults`)."""

    def __post_init__(self) -> None:
        self._methods = _methods_of(type(self.api))

    # -- name resolution (used by the interpreter) ---------------------------------------------
    def is_bound(self, name: str) -> bool:
        """Whether ``name`` is the API object or a constructor (not a value)."""
        return name == self.api_name or name in self.constructors

    def resolve(self, owner: str | None, name: str) -> Tool:
        """The tool ``owner.name`` (or the constructor ``name``); wrong_api if unknown."""
        if owner is None:
            if name in self.constructors:
                return self.constructors[name].tool
            known = [self.api_name, *self.constructors]
            hint = f"; functions are called on {self.api_name}, e.g. {self.api_name}.{name}(...)"
            if name not in self._methods:
                hint = _suggest(name, known)
            raise ToolCallError(WRONG_API, f"unknown function {name!r}{hint}")
        if owner != self.api_name:
            raise ToolCallError(
                WRONG_API, f"unknown object {owner!r}; the API object is {self.api_name!r}"
            )
        tool = self._methods.get(name)
        if tool is None:
            raise ToolCallError(
                WRONG_API,
                f"{self.api_name} has no function {name!r}{_suggest(name, list(self._methods))}",
            )
        return tool

    def invoke(self, tool: Tool, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """Bind arguments to ``tool``'s parameters and call it; records the call."""
        arguments = bind_arguments(tool, args, kwargs)
        for param in tool.params:
            if param.name in arguments:
                problem = param.problem(arguments[param.name])
                if problem is not None:
                    self.warnings.append(f"{tool.qualname}: {param.name} {problem} (kept as given)")
        if tool.owner is None:
            result = self.constructors[tool.name].factory(**arguments)
        elif self.faults is not None:
            method = getattr(self.api, tool.name)
            result = self.faults.around_call(tool.qualname, lambda: method(**arguments))
        else:
            result = getattr(self.api, tool.name)(**arguments)
        self.calls.append(CallRecord(tool, arguments, result))
        return result

    def construct(self, type_name: str, value: Any) -> Any:
        """A value of the constructor ``type_name`` built from a JSON argument (the call is logged)."""
        constructor = self.constructors[type_name]
        args, kwargs = constructor.from_json(value)
        return self.invoke(constructor.tool, args, kwargs)

    # -- state ----------------------------------------------------------------------------------
    def get_state(self) -> dict[str, Any]:
        """Everything needed to continue the session later (deep-copied)."""
        return {
            "api": self.api.get_state(),
            "variables": copy.deepcopy(self.variables),
            "calls": [CallRecord(c.tool, copy.deepcopy(c.arguments), c.result) for c in self.calls],
            "warnings": list(self.warnings),
        }

    def checkpoint(self) -> SessionMark:
        """What a failed statement undoes with :meth:`rollback` (cheaper than :meth:`get_state`).

        The API's state and the variables are copied; of the calls and warnings, only how many
        there are: a run only appends to them, so the ones before it stay as they are (copying
        every call made so far made each step cost more than the one before).
        """
        variables = copy.deepcopy(self.variables) if self.variables else {}
        return SessionMark(self.api.get_state(), variables, len(self.calls), len(self.warnings))

    def rollback(self, mark: SessionMark) -> None:
        """Return to :meth:`checkpoint`'s ``mark``: the calls and warnings since are dropped."""
        self.api.set_state(mark.api)
        self.variables = copy.deepcopy(mark.variables) if mark.variables else {}
        del self.calls[mark.calls :]
        del self.warnings[mark.warnings :]

    def set_state(self, state: Mapping[str, Any]) -> None:
        """Restore a state returned by :meth:`get_state`."""
        self.api.set_state(state["api"])
        self.variables = copy.deepcopy(state["variables"])
        self.calls = list(state["calls"])
        self.warnings = list(state["warnings"])


_METHODS: dict[type[ToolApi], dict[str, Tool]] = {}


def _methods_of(api_class: type[ToolApi]) -> dict[str, Tool]:
    """The tools an API class implements as methods, by name (computed once per class)."""
    methods = _METHODS.get(api_class)
    if methods is None:
        methods = {t.name: t for t in api_class.TOOLS if t.owner is not None}
        _METHODS[api_class] = methods
    return methods


def bind_arguments(tool: Tool, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """Map positional and keyword arguments onto ``tool``'s parameters, or raise wrong_arguments."""
    params = tool.params
    names = [p.name for p in params]
    if len(args) > len(params):
        raise ToolCallError(
            WRONG_ARGUMENTS,
            f"{tool.qualname}() takes {len(params)} argument(s) ({_expected(names)}); "
            f"got {len(args)}",
        )
    bound = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"{tool.qualname}() has no parameter {key!r}; expected {_expected(names)}",
            )
        if key in bound:
            raise ToolCallError(WRONG_ARGUMENTS, f"{tool.qualname}() got {key!r} twice")
        bound[key] = value
    if len(bound) < len(params):
        missing = [p.name for p in params if p.required and p.name not in bound]
        if missing:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"{tool.qualname}() is missing required argument(s) {', '.join(missing)}; "
                f"signature: {tool.signature()}",
            )
    return bound


def _expected(names: list[str]) -> str:
    return ", ".join(names) or "no arguments"


def _suggest(name: str, options: list[str]) -> str:
    close = difflib.get_close_matches(name, options, n=1)
    return f"; did you mean {close[0]!r}?" if close else f"; available: {', '.join(options)}"
