"""Action grammars: what a model may write in an action language, for constrained decoding.

An action language derives an :class:`ActionGrammar` from the task's tools (and, for languages
whose actions depend on the page, from the backend's state): ``ActionLanguage.grammar``. The
grammar is written in GBNF, the EBNF dialect that llama.cpp's server reads and that the grammar
engines of other servers (vLLM, SGLang) and libraries (llguidance, xgrammar) read or convert. Its
start rule is ``root``.

What a context-free grammar cannot say compactly, that each of a dozen setters is called at most
once in any order, is kept beside it as line prefixes (:attr:`ActionGrammar.once`), which a local
decoder enforces with :meth:`ActionGrammar.allows` on the text generated so far; a server
constrained by the GBNF alone enforces the rest of the grammar.

Every grammar ends with an optional trailer: the newlines and the paper's stop sequences a model
writes after its action (six dashes, ``Task:``), so that a constrained model stops the way an
unconstrained one does.

>>> g = ActionGrammar(one_of(['"a()"', '"b()"']), once=())
>>> print(g.gbnf.splitlines()[0].replace(TRAILER, "<trailer>"))
root ::= (("a()" | "b()")) <trailer>
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

TRAILER = '[\\n]{0,2} ("-"{1,6} | "Task:")?'
"""What may follow an action: a newline, a blank line, then dashes or the next task's label.

It is written inside the ``root`` rule, with the action's expression: llguidance, given the two
as rules of their own, refuses a blank line as one token after the action's last line.
"""

STRING_RULES = (
    'str ::= "\\"" strchar{0,200} "\\""\n'
    'strchar ::= [^"\\\\\\n] | "\\\\" ["\\\\/nt]\n'
    'int ::= "-"? [0-9]{1,12}\n'
    'num ::= "-"? [0-9]{1,12} ("." [0-9]{1,8})?\n'
    'bool ::= "True" | "False"\n'
    "ident ::= [A-Za-z_] [A-Za-z0-9_]{0,40}\n"
    'ws ::= " "?\n'
    'jstr ::= "\\"" jchar{0,200} "\\""\n'
    'jchar ::= [^"\\\\\\n\\x00-\\x1f] | "\\\\" ["\\\\/bfnrtu]\n'
    'jbool ::= "true" | "false"\n'
    'jnull ::= "null"\n'
    "jvalue ::= jstr | num | jbool | jnull | jarr | jobj\n"
    'jarr ::= "[" ws (jvalue ("," ws jvalue){0,50})? ws "]"\n'
    'jobj ::= "{" ws (jstr ":" ws jvalue ("," ws jstr ":" ws jvalue){0,50})? ws "}"\n'
)
"""Shared value rules: Python-style literals (``str``, ``int``, ``num``, ``bool``, ``ident``) and
JSON values (``jstr``, ``jvalue``, ``jobj``, ...), bounded so that no value runs on forever."""


@dataclass(frozen=True)
class ActionGrammar:
    """The grammar of one action.

    Attributes:
        gbnf: the grammar in GBNF (start rule ``root``), the trailer and value rules included.
        once: line prefixes of which at most one line may start with each
            (``API.set_location(``): enforced locally by :meth:`allows`, not by the GBNF.
        json_schema: for actions that are one JSON call, its JSON Schema (what OpenAI-compatible
            servers take as a structured output).
        free: a regular expression of the starts of lines no :attr:`once` prefix restricts
            (an assignment ``x = Loc(...)``), so a line that may still become one is allowed.
        once_key: a regular expression whose first group keys lines written at most once
            each (``^(\\w+) =``: a variable is assigned once).
        final: the text of the line that ends the action (``API.search()``) when it is fixed:
            a local decoder writes it when the token budget would otherwise run out first.
        uses: a regular expression matching a line that is writing a name as an argument, its
            first group the name so far (``API.set_origin(orig``): the name must become one
            that an earlier line defined (a :attr:`once_key` group) or one of :attr:`names`.
        names: the names an argument may always start with (constructors, ``True``).
    """

    gbnf: str
    once: tuple[str, ...] = ()
    json_schema: dict[str, Any] | None = field(default=None, compare=False)
    free: str | None = None
    once_key: str | None = None
    final: str | None = None
    uses: str | None = None
    names: tuple[str, ...] = ()

    def __init__(
        self,
        body: str,
        *,
        rules: str = "",
        once: Sequence[str] = (),
        json_schema: dict[str, Any] | None = None,
        free: str | None = None,
        once_key: str | None = None,
        final: str | None = None,
        uses: str | None = None,
        names: Sequence[str] = (),
    ) -> None:
        gbnf = f"root ::= ({body}) {TRAILER}\n{rules.strip()}\n{STRING_RULES}"
        object.__setattr__(self, "gbnf", "\n".join(line for line in gbnf.splitlines() if line))
        object.__setattr__(self, "once", tuple(once))
        object.__setattr__(self, "json_schema", json_schema)
        object.__setattr__(self, "free", free)
        object.__setattr__(self, "once_key", once_key)
        object.__setattr__(self, "final", final)
        object.__setattr__(self, "uses", uses)
        object.__setattr__(self, "names", tuple(names))

    def after_thought(self, max_chars: int = 300) -> ActionGrammar:
        """This grammar behind a ReAct turn's thought: one line of free text, then ``Action:``.

        The prompt of a ReAct turn ends with ``Thought:``; the model writes its thought (one line
        of at most ``max_chars`` characters), a newline, ``Action:`` and the action.

        >>> g = ActionGrammar('"f()"').after_thought(20)
        >>> print(g.gbnf.splitlines()[0].replace(TRAILER, "<trailer>"))
        root ::= thought "\\nAction: " ("f()") <trailer>
        """
        head, sep, rest = self.gbnf.partition("\n")
        if not head.startswith("root ::= "):
            raise ValueError(f"a grammar's first rule must be root; got {head[:40]!r}")
        root = f'root ::= thought "\\nAction: " {head.removeprefix("root ::= ")}'
        thought = f"thought ::= [^\\n]{{0,{max_chars}}}"
        out = copy.copy(self)
        object.__setattr__(out, "gbnf", f"{root}\n{thought}{sep}{rest}")
        # The line rules read the action's lines; a thought line is none of them.
        for name, empty in (("json_schema", None), ("once", ()), ("once_key", None)):
            object.__setattr__(out, name, empty)
        for name, empty in (("final", None), ("uses", None), ("free", None)):
            object.__setattr__(out, name, empty)
        return out

    @property
    def key(self) -> str:
        """A short content hash (engines cache compiled grammars by it)."""
        return hashlib.sha256(self.gbnf.encode()).hexdigest()[:16]

    def allows(self, text: str) -> bool:
        """Whether ``text`` (generated so far) keeps every :attr:`once` prefix to one line.

        A line that is still being written is refused as soon as it can only become a second
        line with a prefix already used: ``API.set_loc`` after a line ``API.set_location(...)``,
        when no other prefix starts that way.

        >>> g = ActionGrammar('"x"', once=("A.set_a(", "A.set_ab("))
        >>> g.allows('A.set_a(1)\\nA.set_a')
        True
        >>> g.allows('A.set_a(1)\\nA.set_ab(2)\\nA.set_a')
        False
        >>> g.allows('A.set_a(1)\\nA.set_a(2)')
        False
        """
        if not self.once and self.once_key is None:
            return True
        *done, current = text.split("\n")
        if self.once_key is not None:
            keys = [m.group(1) for m in map(self._keyed, [*done, current]) if m]
            if len(keys) != len(set(keys)):
                return False
            if not self._defined(current, keys[: len(keys) - bool(self._keyed(current))]):
                return False
        used: set[str] = set()
        for line in done:
            prefix = _prefix_of(line, self.once)
            if prefix is not None:
                if prefix in used:
                    return False
                used.add(prefix)
        if not current:
            return True
        started = _prefix_of(current, self.once)
        if started is not None:
            return started not in used
        extending = [p for p in self.once if p.startswith(current)]
        if not extending or any(p not in used for p in extending):
            return True
        return self.free is not None and re.fullmatch(self.free, current) is not None

    def _defined(self, line: str, defined: list[str]) -> bool:
        """Whether the name ``line`` is writing as an argument may still become a known one."""
        if self.uses is None:
            return True
        match = re.search(self.uses, line)
        if match is None:
            return True
        name = match.group(1)
        return any(known.startswith(name) for known in (*defined, *self.names))

    def _keyed(self, line: str) -> re.Match[str] | None:
        assert self.once_key is not None
        return re.match(self.once_key, line)


def _prefix_of(line: str, prefixes: Iterable[str]) -> str | None:
    """The longest of ``prefixes`` that ``line`` starts with."""
    found = [p for p in prefixes if line.startswith(p)]
    return max(found, key=len) if found else None


def literal(text: str) -> str:
    """``text`` as a GBNF string literal.

    >>> literal('say "hi"\\n')
    '"say \\\\"hi\\\\"\\\\n"'
    """
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    escaped = escaped.replace("\r", "\\r").replace("\t", "\\t")
    return f'"{escaped}"'


def one_of(alternatives: Sequence[str]) -> str:
    """A GBNF alternation of expressions (grouped)."""
    if not alternatives:
        raise ValueError("a grammar alternation needs at least one alternative")
    return "(" + " | ".join(alternatives) + ")"


def rule_name(*parts: str) -> str:
    """A GBNF rule name from arbitrary parts (letters, digits and dashes only)."""
    raw = "-".join(parts)
    name = re.sub(r"[^A-Za-z0-9]+", "-", raw).strip("-").lower() or "r"
    digest = hashlib.sha256(raw.encode()).hexdigest()[:6]
    return f"r-{name[:40]}-{digest}"


def python_value(annotation: Any, enum: Sequence[Any] | None, constructors: dict[str, str]) -> str:
    """A Python-literal value of a parameter: enum literals, typed literals or a constructor.

    Args:
        annotation: the parameter's annotation (``str``, ``int``, ``list[str]``, a class, or a
            type name of the original docs).
        enum: the allowed values, when the parameter has them.
        constructors: rule names of the constructor calls by class name (``{"Loc": "r-loc"}``);
            a parameter of such a class takes a constructor call or a variable.
    """
    origin = typing.get_origin(annotation)
    if origin in (list, tuple, Sequence):
        (item,) = typing.get_args(annotation)[:1] or (str,)
        one = python_value(item, enum, constructors)
        return f'"[" ws ({one} ("," ws {one}){{0,20}})? ws "]"'
    if enum:
        return one_of([_python_literal(v) for v in enum])
    name = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    if name in constructors:
        return f"({constructors[name]} | ident)"
    return _PYTHON_VALUES.get(name.lower(), "(str | num | ident)")


_PYTHON_VALUES = {
    "str": "str",
    "string": "str",
    "int": "int",
    "integer": "int",
    "float": "num",
    "number": "num",
    "bool": "bool",
    "boolean": "bool",
}


def _python_literal(value: Any) -> str:
    if isinstance(value, str):
        return literal(json.dumps(value))
    return literal(repr(value))


def json_value(annotation: Any, enum: Sequence[Any] | None = None) -> str:
    """A JSON value of a parameter (enum values, or the type's JSON values)."""
    if enum:
        return one_of([literal(json.dumps(v)) for v in enum])
    origin = typing.get_origin(annotation)
    if origin in (list, tuple, Sequence):
        return "jarr"
    name = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return {
        "str": "jstr",
        "string": "jstr",
        "int": "int",
        "integer": "int",
        "float": "num",
        "number": "num",
        "bool": "jbool",
        "boolean": "jbool",
        "list": "jarr",
        "array": "jarr",
        "dict": "jobj",
        "object": "jobj",
    }.get(name.lower(), "jvalue")


_COMMA = '"," ws'


def sequence(members: Sequence[tuple[str, bool]], separator: str) -> str:
    """Members in the given order with ``separator`` between them; optional ones may be left out.

    Args:
        members: ``(expression, required)`` per member.
        separator: the expression between two members written.

    >>> sequence([('"a"', False), ('"b"', True)], '","')
    '("a" "," "b" | "b")'
    """
    alternatives = []
    for first, (expression, _) in enumerate(members):
        if any(required for _, required in members[:first]):
            break  # a required member cannot be left out before the first one written
        parts = [expression]
        for other, required in members[first + 1 :]:
            parts.append(f"{separator} {other}" if required else f"({separator} {other})?")
        alternatives.append(" ".join(parts))
    body = one_of(alternatives) if alternatives else '""'
    return body if any(required for _, required in members) or not members else f"{body}?"


def json_object(members: Sequence[tuple[str, str, bool]]) -> str:
    """A JSON object whose members come in the given order, optional ones left out or not.

    Args:
        members: ``(name, value expression, required)`` per member.

    >>> print(json_object([("a", "int", True)]))
    "{" ws ("\\"a\\":" ws int) ws "}"
    """
    written = [
        (f"{literal(json.dumps(name) + ':')} ws {value}", req) for name, value, req in members
    ]
    if not members:
        return '"{" ws "}"'
    return f'"{{" ws {sequence(written, _COMMA)} ws "}}"'


def lines(line: str, *, final: str | None = None, max_lines: int = 40) -> str:
    """Lines of ``line``, ending with one ``final`` line when given (a terminal call)."""
    if final is None:
        return f'{line} ("\\n" {line}){{0,{max_lines - 1}}}'
    return f'({line} "\\n"){{0,{max_lines - 1}}} {final}'


def json_arguments(params: Iterable[Any], extra: str | None = None) -> str:
    """A JSON object of tool arguments (``Param`` objects), each of its type or enum.

    Args:
        params: the tool's parameters, in order.
        extra: another expression every argument may take instead (a placeholder).
    """
    members = []
    for param in params:
        value = json_value(param.annotation, param.enum)
        members.append((param.name, f"({value} | {extra})" if extra else value, param.required))
    return json_object(members)


def json_list(item: str, most: int = 21) -> str:
    """A JSON list of one to ``most`` items of the expression ``item``.

    >>> json_list("int", 3)
    '"[" ws int ("," ws int){0,2} ws "]"'
    """
    return f'"[" ws {item} ("," ws {item}){{0,{most - 1}}} ws "]"'


def json_call(tool: Any, *, name_key: str = "name", arguments_key: str = "arguments") -> str:
    """``{"name": <tool>, "arguments": {...}}`` for one tool."""
    return json_object(
        [
            (name_key, literal(json.dumps(tool.name)), True),
            (arguments_key, json_arguments(tool.params), True),
        ]
    )
