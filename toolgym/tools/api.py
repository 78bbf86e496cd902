"""Base class of the agent-facing API objects, and the session that binds them for a program.

An API class (``HomeSearchAPI``) lists its :class:`~toolgym.tools.schema.ToolFunction` descriptions
in ``FUNCTIONS`` and implements each as a method with the same parameter names; the check runs when
the class is defined, so a drifted signature fails at import, not in front of a user.
"""

from __future__ import annotations

import copy
import difflib
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toolgym.tools.errors import WRONG_API, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.schema import ToolFunction, render_api_docs


class ToolApi:
    """State and functions of one tool's API object (bound as ``API`` in agent programs).

    Subclasses set ``FUNCTIONS`` and implement one method per function. They keep their mutable
    state in instance attributes listed in ``STATE_ATTRS`` so sessions can snapshot and restore it.
    """

    FUNCTIONS: ClassVar[tuple[ToolFunction, ...]] = ()
    STATE_ATTRS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for fn in cls.FUNCTIONS:
            if fn.owner is None:
                continue
            method = getattr(cls, fn.name, None)
            if method is None:
                raise TypeError(f"{cls.__name__} documents {fn.qualname} but does not implement it")
            names = [p for p in inspect.signature(method).parameters if p != "self"]
            expected = [p.name for p in fn.params]
            if names != expected:
                raise TypeError(
                    f"{cls.__name__}.{fn.name} takes parameters {names} but its ToolFunction "
                    f"documents {expected}"
                )

    def outcome(self) -> dict[str, Any]:
        """The dict that is scored against the gold (e.g. the accumulated search criteria)."""
        raise NotImplementedError(f"{type(self).__name__} does not define outcome()")

    def get_state(self) -> dict[str, Any]:
        """A deep copy of the mutable state."""
        return {name: copy.deepcopy(getattr(self, name)) for name in self.STATE_ATTRS}

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore a state returned by :meth:`get_state`."""
        for name in self.STATE_ATTRS:
            setattr(self, name, copy.deepcopy(state[name]))


@dataclass(frozen=True)
class Constructor:
    """A free callable of the program namespace (``Loc``, ``Date``) and its description."""

    function: ToolFunction
    factory: Callable[..., Any]


@dataclass
class CallRecord:
    """One executed call: its function, bound arguments and result."""

    function: ToolFunction
    arguments: dict[str, Any]
    result: Any = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form for logs and ``info``."""
        return {"name": self.function.qualname, "arguments": _jsonable(self.arguments)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return repr(value)


@dataclass
class ToolSession:
    """The namespace an agent program runs in: the API object, constructors and variables.

    The session also logs every call and collects warnings (e.g. a string passed where the docs
    say ``int``: the original stores it as given, so it will not match, and the warning says why).
    """

    api: ToolApi
    constructors: dict[str, Constructor] = field(default_factory=dict)
    api_name: str = "API"
    variables: dict[str, Any] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._methods = {fn.name: fn for fn in self.api.FUNCTIONS if fn.owner is not None}

    # -- name resolution (used by the interpreter) ---------------------------------------------
    def is_bound(self, name: str) -> bool:
        """Whether ``name`` is the API object or a constructor (not a value)."""
        return name == self.api_name or name in self.constructors

    def resolve(self, owner: str | None, name: str) -> ToolFunction:
        """The function ``owner.name`` (or the constructor ``name``); wrong_api if unknown."""
        if owner is None:
            if name in self.constructors:
                return self.constructors[name].function
            known = [self.api_name, *self.constructors]
            hint = f"; functions are called on {self.api_name}, e.g. {self.api_name}.{name}(...)"
            if name not in self._methods:
                hint = _suggest(name, known)
            raise ToolCallError(WRONG_API, f"unknown function {name!r}{hint}")
        if owner != self.api_name:
            raise ToolCallError(
                WRONG_API, f"unknown object {owner!r}; the API object is {self.api_name!r}"
            )
        fn = self._methods.get(name)
        if fn is None:
            raise ToolCallError(
                WRONG_API,
                f"{self.api_name} has no function {name!r}{_suggest(name, list(self._methods))}",
            )
        return fn

    def invoke(self, fn: ToolFunction, args: list[Any], kwargs: dict[str, Any]) -> Any:
        """Bind arguments to ``fn``'s parameters and call it; records the call."""
        arguments = bind_arguments(fn, args, kwargs)
        for p in fn.params:
            if p.name in arguments and not p.accepts(arguments[p.name]):
                value = arguments[p.name]
                self.warnings.append(
                    f"{fn.qualname}: {p.name} should be {p.type}; got {type(value).__name__} "
                    f"{value!r} (kept as given)"
                )
        if fn.owner is None:
            result = self.constructors[fn.name].factory(**arguments)
        else:
            result = getattr(self.api, fn.name)(**arguments)
        self.calls.append(CallRecord(fn, arguments, result))
        return result

    # -- state ----------------------------------------------------------------------------------
    def get_state(self) -> dict[str, Any]:
        """Everything needed to continue the session later (deep-copied)."""
        return {
            "api": self.api.get_state(),
            "variables": copy.deepcopy(self.variables),
            "calls": [
                CallRecord(c.function, copy.deepcopy(c.arguments), c.result) for c in self.calls
            ],
            "warnings": list(self.warnings),
        }

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore a state returned by :meth:`get_state`."""
        self.api.set_state(state["api"])
        self.variables = copy.deepcopy(state["variables"])
        self.calls = list(state["calls"])
        self.warnings = list(state["warnings"])


def bind_arguments(fn: ToolFunction, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """Map positional and keyword arguments onto ``fn``'s parameters, or raise wrong_arguments."""
    params = fn.params
    names = [p.name for p in params]
    expected = ", ".join(names) or "no arguments"
    if len(args) > len(params):
        raise ToolCallError(
            WRONG_ARGUMENTS,
            f"{fn.qualname}() takes {len(params)} argument(s) ({expected}); got {len(args)}",
        )
    bound = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names:
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"{fn.qualname}() has no parameter {key!r}; expected {expected}",
            )
        if key in bound:
            raise ToolCallError(WRONG_ARGUMENTS, f"{fn.qualname}() got {key!r} twice")
        bound[key] = value
    missing = [p.name for p in params if p.required and p.name not in bound]
    if missing:
        raise ToolCallError(
            WRONG_ARGUMENTS,
            f"{fn.qualname}() is missing required argument(s) {', '.join(missing)}; "
            f"signature: {fn.signature()}",
        )
    return bound


def _suggest(name: str, options: list[str]) -> str:
    close = difflib.get_close_matches(name, options, n=1)
    return f"; did you mean {close[0]!r}?" if close else f"; available: {', '.join(options)}"


class Toolkit:
    """Everything an environment needs from a tool family: sessions, docs, schemas, the scored dict.

    Subclasses set ``name``, ``api_class`` and ``constructors`` and implement :meth:`make_api`.

    Args:
        seed: seed of the simulated world behind the API.
        max_results: how many results a search shows.
    """

    name: ClassVar[str] = ""
    api_class: ClassVar[type[ToolApi]] = ToolApi
    constructors: ClassVar[tuple[Constructor, ...]] = ()

    def __init__(self, seed: int = 0, max_results: int = 5) -> None:
        if max_results < 1:
            raise ValueError(f"max_results must be at least 1; got {max_results}")
        self.seed = seed
        self.max_results = max_results
        self.functions: tuple[ToolFunction, ...] = (
            *self.api_class.FUNCTIONS,
            *(c.function for c in self.constructors),
        )
        self.terminal_functions = frozenset(f.qualname for f in self.functions if f.terminal)
        self.api_doc_list = [f.toolbench_doc() for f in self.functions]
        self.api_docs = render_api_docs(self.functions)
        self.tools = [f.openai_schema() for f in self.api_class.FUNCTIONS]

    def make_api(self) -> ToolApi:
        """A fresh API object bound to the world."""
        raise NotImplementedError

    def new_session(self) -> ToolSession:
        """A fresh session: new API object, the constructors, no variables."""
        return ToolSession(self.make_api(), {c.function.name: c for c in self.constructors})

    @staticmethod
    def outcome(session: ToolSession) -> dict[str, Any]:
        """The dict the scorer compares with the gold."""
        return session.api.outcome()
