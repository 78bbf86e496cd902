"""The API-program action language: ``API.set_location("Austin")`` ... ``API.search()``.

In ``program`` mode the action is a whole program run by the safe interpreter of
:mod:`toolgym.tools.program`; the episode ends whether or not it ran. In ``call`` mode each step is
one statement, or one JSON tool call; a call that fails has no effect, and the episode ends at the
terminal call (``API.search()``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import DEFAULT_BUDGETS, Budgets, short_repr
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError
from toolgym.tools.grammar import ActionGrammar, lines, literal, one_of, python_value, rule_name
from toolgym.tools.json_calls import looks_like_json_call, parse_json_call
from toolgym.tools.language import ActionLanguage, AgentHints, Execution
from toolgym.tools.program import extract_program, parse_program, run_program, run_statements
from toolgym.tools.tool import Param, Tool, ToolSet

if TYPE_CHECKING:
    from toolgym.tools.api import Constructor
    from toolgym.tools.program_backend import ProgramBackend


class ApiProgramLanguage(ActionLanguage):
    """Programs of calls on the family's ``API`` object and constructors.

    Args:
        tools: the family's tools (their terminal calls end lenient extraction).
        extraction: ``"strict"`` or ``"lenient"`` (see :mod:`toolgym.tools.program`).
        budgets: the action's limits.
        constructors: the family's value constructors (``Loc``, ``Date``): a rendered call
            builds an argument of their type with them, from its JSON value as a JSON call would.
    """

    refusal_info: ClassVar[Mapping[str, Any]] = {"warnings": [], "calls": []}

    name = "api_program"
    reads_json_calls = True  # a JSON call runs as the rendered call (run_call reads both)
    step_description = "one call (one line of code)"
    demo_label = "Actions:"

    def __init__(
        self,
        tools: ToolSet,
        extraction: str = "strict",
        budgets: Budgets = DEFAULT_BUDGETS,
        constructors: Sequence[Constructor] = (),
    ) -> None:
        self.extraction = extraction
        self.budgets = budgets
        self._constructors = {c.tool.name: c for c in constructors}
        self._terminal_prefixes = tuple(f"{name}(" for name in sorted(tools.terminal))

    def grammar(self, tools: ToolSet, mode: str, backend: Backend) -> ActionGrammar:
        """Typed calls, each API method at most once (program mode), the terminal call last.

        Arguments take literals of their types or enum values; constructors (``Loc(...)``) may
        be assigned to variables on lines of their own.
        """
        return api_program_grammar(tools, whole=mode == "program")

    def run_program(self, text: str, backend: Backend) -> Execution:
        """Run the whole program; the episode ends."""
        program = _program_backend(backend)
        session = program.session
        source = text
        if self.extraction == "lenient" and isinstance(text, str):
            source = extract_program(text, self._terminal_prefixes)
        error: ToolCallError | None = None
        try:
            run_program(source, session, self.budgets)
        except ToolCallError as e:
            error = e
        if error is not None:
            observation = error.observation()
        else:
            observation = (
                f"The program ran ({len(session.calls)} calls).\n{session.api.result_text()}"
            )
        return Execution(
            observation,
            error,
            finished=True,
            attempt=program.final_attempt(error),
            info={
                "warnings": list(session.warnings),
                "calls": [c.to_dict() for c in session.calls],
            },
        )

    def run_call(self, text: str, backend: Backend) -> Execution:
        """Run one statement or JSON call; the terminal call ends the episode."""
        program = _program_backend(backend)
        session = program.session
        before = session.checkpoint()
        try:
            if looks_like_json_call(text):
                program.run_json(parse_json_call(text, self.budgets))
            else:
                statements = parse_program(text, session, self.budgets)
                if len(statements) != 1:
                    raise ToolCallError(
                        NON_EXECUTABLE,
                        f"call mode takes exactly one call per step; got {len(statements)} statements",
                    )
                run_statements(statements, session, self.budgets)
        except ToolCallError as e:
            session.rollback(before)  # a failed call has no effect
            return Execution(e.observation(), e, info={"warnings": [], "calls": []})
        new_calls = session.calls[before.calls :]
        if any(c.tool.terminal for c in new_calls):
            return Execution(
                session.api.result_text(),
                finished=True,
                attempt=program.final_attempt(None),
                info={
                    "warnings": list(session.warnings),
                    "calls": [c.to_dict() for c in session.calls],
                },
            )
        if new_calls:
            last = new_calls[-1]
            shown = ", ".join(f"{k}={short_repr(v)}" for k, v in last.arguments.items())
            observation = f"OK: {last.tool.qualname}({shown}). {session.api.status()}".rstrip()
        else:
            observation = "OK (no call made)."
        return Execution(
            observation,
            info={
                "warnings": session.warnings[before.warnings :],
                "calls": [c.to_dict() for c in new_calls],
            },
        )

    def run_gold(self, gold: str, backend: Backend) -> Attempt:
        """Run a gold program as written (no extraction)."""
        program = _program_backend(backend)
        run_program(gold, program.session, self.budgets)
        return program.final_attempt(None)

    def gold_steps(self, gold: str) -> list[str]:
        """The program's statements, one per step (the last one is the terminal call)."""
        return [line for line in gold.splitlines() if line.strip()]

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """``API.name(key=value, ...)`` with Python literals of the JSON values.

        An argument of a constructor's type is built by the constructor, from the JSON value as
        :meth:`~toolgym.tools.program_backend.ProgramBackend.run_json` builds it.

        >>> from toolgym.tools.api import Constructor
        >>> from toolgym.tools.tool import Param
        >>> t = Tool("set_num_beds", "", (Param("value", "int", ""),), owner="API")
        >>> ApiProgramLanguage(ToolSet([t])).render_call(t, {"value": 2})
        'API.set_num_beds(value=2)'
        >>> loc = Tool("Loc", "", (Param("name", "string", ""),), offered=False)
        >>> origin = Tool("set_origin", "", (Param("origin", "Loc", ""),), owner="API")
        >>> language = ApiProgramLanguage(ToolSet([origin, loc]), constructors=[Constructor(loc, str)])
        >>> language.render_call(origin, {"origin": "Austin"})
        "API.set_origin(origin=Loc('Austin'))"
        """
        args = ", ".join(
            f"{key}={self._argument(tool.param(key), value)}" for key, value in arguments.items()
        )
        return f"{tool.qualname}({args})"

    def _argument(self, param: Param | None, value: Any) -> str:
        """A JSON value as program text: a constructor call for a constructor's type."""
        constructor = None if param is None else self._constructors.get(param.type_name)
        if constructor is None:
            return python_literal(value)
        try:
            args, kwargs = constructor.from_json(value)
        except ToolCallError:  # the run then reports the value as it is
            return python_literal(value)
        parts = [python_literal(a) for a in args]
        parts += [f"{k}={python_literal(v)}" for k, v in kwargs.items()]
        return f"{constructor.tool.name}({', '.join(parts)})"

    @classmethod
    def extract(cls, generation: str, hints: AgentHints, extraction: str = "strict") -> str:
        """Strict: the whole stripped generation; lenient: see :func:`extract_program`."""
        if extraction == "lenient":
            return extract_program(generation, hints.terminal_calls)
        return generation.strip()


def python_literal(value: Any) -> str:
    """A JSON value as a Python literal (``true`` is ``True``, ``null`` is ``None``).

    >>> print(python_literal({"a": [True, None, 1.5, "x\u2028y"]}))
    {'a': [True, None, 1.5, 'x\u2028y']}
    """
    if value is None or isinstance(value, bool | str):
        return repr(value)  # an exact literal: repr escapes line separators and keeps emoji
    if isinstance(value, dict):
        items = (f"{python_literal(k)}: {python_literal(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(python_literal(v) for v in value) + "]"
    try:
        return json.dumps(value)
    except (TypeError, ValueError):  # not a JSON value: written as Python writes it
        return repr(value)


def _program_backend(backend: Backend) -> ProgramBackend:
    session = getattr(backend, "session", None)
    if session is None or not hasattr(backend, "final_attempt"):
        raise TypeError(
            f"the api_program language runs on a ProgramBackend; got {type(backend).__name__}"
        )
    return cast("ProgramBackend", backend)


ASSIGNMENT_START = r"[A-Za-z_][A-Za-z0-9_]*( (= ?.*)?)?"
"""The start of an assignment line (``checkin = Date(...)``), never restricted to one line."""


def api_program_grammar(tools: ToolSet, whole: bool = True) -> ActionGrammar:
    """The grammar of API programs over ``tools`` (see :meth:`ApiProgramLanguage.grammar`).

    Args:
        tools: the task's tools: methods of an object (``API.set_location``), terminal calls and
            constructors (tools without an owner, such as ``Loc``).
        whole: a whole program (lines ending with a terminal call) or one statement.
    """
    constructors = {
        t.name: rule_name("new", t.name) for t in tools if not t.owner and not t.terminal
    }
    rules = []
    for tool in tools:
        if tool.name in constructors and not tool.owner:
            rules.append(f"{constructors[tool.name]} ::= {_call(tool, constructors)}")
    calls = [_call(t, constructors) for t in tools if t.owner and not t.terminal]
    assignments = [f'ident " = " {name}' for name in constructors.values()]
    terminal = [_call(t, constructors) for t in tools if t.terminal]
    line = one_of(calls + assignments) if calls or assignments else None
    if not whole:
        body = one_of([x for x in (line, *terminal) if x])
    elif line is None:
        body = one_of(terminal)
    else:
        body = lines(line, final=one_of(terminal) if terminal else None)
    once = tuple(f"{t.qualname}(" for t in tools if t.owner and not t.terminal) if whole else ()
    fixed = [f"{t.qualname}()" for t in tools if t.terminal and not t.params]
    return ActionGrammar(
        body,
        rules="\n".join(rules),
        once=once,
        free=ASSIGNMENT_START if constructors else None,
        once_key=r"([A-Za-z_][A-Za-z0-9_]*) =" if constructors and whole else None,
        final=fixed[0] if whole and len(terminal) == 1 and fixed else None,
        uses=r"[(,] ?([A-Za-z_][A-Za-z0-9_]*)$" if constructors and whole else None,
        names=(*constructors, "True", "False", "None"),
    )


def _call(tool: Tool, constructors: dict[str, str]) -> str:
    """``API.set_x(<args>)``: the required arguments, then optional ones, by position."""
    values = [(python_value(p.annotation, p.enum, constructors), p.required) for p in tool.params]
    parts = [literal(f"{tool.qualname}(")]
    for position, (value, required) in enumerate(values):
        separator = '"," ws ' if position else ""
        parts.append(f"{separator}{value}" if required else f"({separator}{value})?")
    parts.append('")"')
    return " ".join(parts)
