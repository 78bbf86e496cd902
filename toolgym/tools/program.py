"""A small, safe interpreter for API-call programs (``API.set_location("Austin")`` ...).

Agent text is never given to ``exec``/``eval``. It is parsed with :func:`ast.parse` (through
:func:`~toolgym.tools.ast_parse.module_body`, which keeps the parse of lines seen before), the whole
tree is checked against a whitelist before anything runs, and then it is evaluated node by node:

* statements: a call (``API.search()``), an assignment to a plain name (``d = Date(4, 10, 2026)``),
  a bare literal or name (a no-op, as in Python), ``pass``; comments are ignored by the parser;
* expressions: ``str``/``int``/``float``/``bool``/``None`` literals, lists, tuples, dicts, names of
  earlier assignments, unary ``+``/``-`` and ``+ - * / //`` between numbers (so ``1.5 * 1000000``
  works), and calls to functions of the bound API object (``API.x(...)``) or to constructors
  (``Loc(...)``, ``Date(...)``) with positional and keyword arguments.

Everything else (imports, attribute access other than ``API.<function>``, names or attributes with
a leading underscore, subscripts, comprehensions, lambdas, f-strings, ``*args``/``**kwargs``, control
flow, string arithmetic) is refused with a ``non_executable`` error before any call runs.

How text around the program is treated (``extraction``):

* ``"strict"`` (default, the original benchmark's rule): the whole action is the program, so prose
  around the code, a Markdown fence or any other non-Python line makes it non-executable, and a
  second program after the first runs too (and usually breaks an ordering rule).
* ``"lenient"``: :func:`extract_program` keeps the first fenced code block if there is one, drops
  lines before the first line that looks like code, and stops after the first terminal call
  (``API.search()`` in Home Search), so prose and a second program are ignored.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from toolgym.tools.api import ToolSession
from toolgym.tools.ast_parse import module_body
from toolgym.tools.budgets import (
    DEFAULT_BUDGETS,
    RESOURCE_LIMIT,
    Budgets,
    Deadline,
    check_number,
    check_value,
    short_repr,
)
from toolgym.tools.errors import NON_EXECUTABLE, WRONG_ARGUMENTS, ToolCallError

MAX_PROGRAM_CHARS = DEFAULT_BUDGETS.max_action_chars
"""Longer actions are refused before parsing."""
MAX_STATEMENTS = 256
"""Programs with more statements are refused."""
MAX_COLLECTION_ITEMS = 1_024
"""Literal lists/tuples/dicts with more items are refused."""
MAX_DEPTH = 32
"""Deeper expression nesting is refused."""

EXTRACTION_MODES = ("strict", "lenient")

_ARITH = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
}
_LITERAL_TYPES = (str, int, float, bool, type(None))
_NODE_NAMES = {
    ast.Import: "an import",
    ast.ImportFrom: "an import",
    ast.FunctionDef: "a function definition",
    ast.AsyncFunctionDef: "a function definition",
    ast.ClassDef: "a class definition",
    ast.For: "a for loop",
    ast.While: "a while loop",
    ast.If: "an if statement",
    ast.With: "a with statement",
    ast.Try: "a try statement",
    ast.Delete: "a del statement",
    ast.Global: "a global statement",
    ast.Return: "a return statement",
    ast.AugAssign: "an augmented assignment",
    ast.AnnAssign: "an annotated assignment",
    ast.Lambda: "a lambda",
    ast.Subscript: "a subscript",
    ast.ListComp: "a comprehension",
    ast.DictComp: "a comprehension",
    ast.SetComp: "a comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.JoinedStr: "an f-string",
    ast.Await: "await",
    ast.Compare: "a comparison",
    ast.BoolOp: "a boolean operator",
    ast.IfExp: "a conditional expression",
    ast.NamedExpr: "an assignment expression",
    ast.Starred: "a starred expression",
}


def _describe(node: ast.AST) -> str:
    return _NODE_NAMES.get(type(node), f"{type(node).__name__} syntax")


def _refuse(node: ast.AST, what: str) -> ToolCallError:
    return ToolCallError(
        NON_EXECUTABLE,
        f"{what} is not allowed: a program may only contain API calls, constructor calls, "
        "literals and assignments",
        getattr(node, "lineno", None),
    )


def parse_program(
    source: str, session: ToolSession, budgets: Budgets = DEFAULT_BUDGETS
) -> list[ast.stmt]:
    """Parse ``source`` and check every node against the whitelist; return the statements.

    Raises:
        ToolCallError: ``non_executable`` for anything the interpreter does not run,
            ``resource_limit`` for a program or a number beyond the budgets.
    """
    if not isinstance(source, str):
        raise ToolCallError(
            NON_EXECUTABLE, f"an action must be a string; got {type(source).__name__}"
        )
    if len(source) > budgets.max_action_chars:
        raise ToolCallError(
            RESOURCE_LIMIT,
            f"the program has {len(source)} characters; at most {budgets.max_action_chars}",
        )
    if "\x00" in source:
        raise ToolCallError(NON_EXECUTABLE, "the program contains a NUL character")
    try:
        body = module_body(source)
    except SyntaxError as e:
        # The offending line comes from the source itself: SyntaxError.text may be read from a
        # file called "<unknown>" in the working directory.
        lines = _LINE_BREAK.split(source)  # the parser's lines (splitlines() splits at more)
        line = lines[e.lineno - 1].strip() if e.lineno and 0 < e.lineno <= len(lines) else ""
        shown = f": {line[:80]!r}" if line else ""
        raise ToolCallError(
            NON_EXECUTABLE, f"not a valid program ({e.msg}){shown}", e.lineno
        ) from None
    except (ValueError, RecursionError, MemoryError) as e:
        raise ToolCallError(NON_EXECUTABLE, f"not a valid program ({type(e).__name__})") from None
    if not body:
        raise ToolCallError(NON_EXECUTABLE, "the program is empty; expected at least one API call")
    if len(body) > MAX_STATEMENTS:
        raise ToolCallError(
            NON_EXECUTABLE, f"the program has {len(body)} statements; at most {MAX_STATEMENTS}"
        )
    # A statement that passed the check in this context is not walked again (the parse of a
    # line seen before is the same statement object; the check reads nothing else).
    context = (
        session.api_name,
        tuple(session.constructors),
        budgets.max_number,
        MAX_DEPTH,
        MAX_COLLECTION_ITEMS,
    )
    for stmt in body:
        checked = stmt.__dict__
        if checked.get(_CHECKED_FOR) != context:
            _check_stmt(stmt, session, budgets)
            checked[_CHECKED_FOR] = context
    return body


_LINE_BREAK = re.compile(r"\r\n|\r|\n")

_CHECKED_FOR = "_toolgym_checked_for"
"""The attribute a checked statement keeps its check's context in (``ast.dump`` ignores it)."""


def _check_stmt(stmt: ast.stmt, session: ToolSession, budgets: Budgets) -> None:
    if isinstance(stmt, ast.Expr):
        _check_expr(stmt.value, session, 0, budgets)
    elif isinstance(stmt, ast.Assign):
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            raise _refuse(stmt, "assigning to anything but one plain name")
        _check_name(stmt.targets[0], stmt.targets[0].id)
        if session.is_bound(stmt.targets[0].id):
            raise _refuse(stmt, f"reassigning {stmt.targets[0].id!r}")
        _check_expr(stmt.value, session, 0, budgets)
    elif not isinstance(stmt, ast.Pass):
        raise _refuse(stmt, _describe(stmt))


def _check_name(node: ast.AST, name: str) -> None:
    if name.startswith("_"):
        raise _refuse(node, f"the name {name!r} (names starting with '_')")


def _check_expr(node: ast.expr, session: ToolSession, depth: int, budgets: Budgets) -> None:
    if depth > MAX_DEPTH:
        raise _refuse(node, f"nesting deeper than {MAX_DEPTH} levels")
    if isinstance(node, ast.Constant):
        if not isinstance(node.value, _LITERAL_TYPES):
            raise _refuse(node, f"a {type(node.value).__name__} literal")
        try:
            check_number(node.value, budgets)
        except ToolCallError as e:
            e.line = getattr(node, "lineno", None)
            raise
    elif isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute):
            if not isinstance(func.value, ast.Name):
                raise _refuse(
                    node,
                    f"calling anything but {session.api_name}.<function>(...) or a constructor",
                )
            _check_name(func.value, func.value.id)
            if func.attr.startswith("_"):
                raise _refuse(node, f"the attribute {func.attr!r} (attributes starting with '_')")
        elif isinstance(func, ast.Name):
            _check_name(func, func.id)
        else:
            raise _refuse(
                node, f"calling anything but {session.api_name}.<function>(...) or a constructor"
            )
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise _refuse(arg, "*args")
            _check_expr(arg, session, depth + 1, budgets)
        for kw in node.keywords:
            if kw.arg is None:
                raise _refuse(node, "**kwargs")
            _check_expr(kw.value, session, depth + 1, budgets)
    elif isinstance(node, ast.Name):
        _check_name(node, node.id)
        if session.is_bound(node.id):
            raise _refuse(node, f"using {node.id!r} other than to call it")
    elif isinstance(node, ast.List | ast.Tuple | ast.Set):
        if len(node.elts) > MAX_COLLECTION_ITEMS:
            raise _refuse(node, f"a literal with more than {MAX_COLLECTION_ITEMS} items")
        for elt in node.elts:
            _check_expr(elt, session, depth + 1, budgets)
    elif isinstance(node, ast.Dict):
        if len(node.keys) > MAX_COLLECTION_ITEMS:
            raise _refuse(node, f"a literal with more than {MAX_COLLECTION_ITEMS} items")
        for key in node.keys:
            if key is None:
                raise _refuse(node, "dict unpacking (**)")
            _check_expr(key, session, depth + 1, budgets)
        for value in node.values:
            _check_expr(value, session, depth + 1, budgets)
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, ast.UAdd | ast.USub):
            raise _refuse(node, f"the operator {type(node.op).__name__}")
        _check_expr(node.operand, session, depth + 1, budgets)
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _ARITH:
            raise _refuse(node, f"the operator {type(node.op).__name__}")
        for side in (node.left, node.right):
            if isinstance(side, ast.Constant) and not _is_number(side.value):
                raise _refuse(node, "arithmetic on anything but numbers")
        _check_expr(node.left, session, depth + 1, budgets)
        _check_expr(node.right, session, depth + 1, budgets)
    elif isinstance(node, ast.Attribute):
        if node.attr.startswith("_"):
            raise _refuse(node, f"the attribute {node.attr!r} (attributes starting with '_')")
        raise _refuse(
            node, f"attribute access other than calling {session.api_name}.<function>(...)"
        )
    else:
        raise _refuse(node, _describe(node))


@dataclass
class _Run:
    """One program run: its session, budgets, deadline and the items its values hold so far."""

    session: ToolSession
    budgets: Budgets
    deadline: Deadline
    items: int = 0

    def built(self, value: Any, what: str) -> Any:
        """Account for a container the program built (too large, too deep or too many: an error)."""
        items = check_value(value, self.budgets, what)
        self.items += items
        if self.items > self.budgets.max_action_items:
            raise ToolCallError(
                RESOURCE_LIMIT,
                f"the program builds values of more than {self.budgets.max_action_items} items "
                "in all",
            )
        return value


def run_statements(
    statements: list[ast.stmt], session: ToolSession, budgets: Budgets = DEFAULT_BUDGETS
) -> list[Any]:
    """Run checked statements in ``session``; return the value of each expression statement.

    Raises:
        ToolCallError: the first agent mistake (the statements before it have run), including
            ``resource_limit`` and ``timeout`` when a budget runs out.
    """
    run = _Run(session, budgets, Deadline(budgets.max_seconds))
    values = []
    for stmt in statements:
        run.deadline.check()
        if isinstance(stmt, ast.Expr):
            values.append(_eval(stmt.value, run))
        elif isinstance(stmt, ast.Assign):
            target = stmt.targets[0]
            assert isinstance(target, ast.Name)  # guaranteed by _check_stmt
            session.variables[target.id] = _eval(stmt.value, run)
    return values


def run_program(source: str, session: ToolSession, budgets: Budgets = DEFAULT_BUDGETS) -> list[Any]:
    """Check and run ``source`` in ``session`` (see the module docstring for the language)."""
    return run_statements(parse_program(source, session, budgets), session, budgets)


def _eval(node: ast.expr, run: _Run) -> Any:
    try:
        return _eval_node(node, run)
    except ToolCallError as e:
        if e.line is None:
            e.line = getattr(node, "lineno", None)
        raise


def _eval_node(node: ast.expr, run: _Run) -> Any:
    session = run.session
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute):
            assert isinstance(func.value, ast.Name)
            fn = session.resolve(func.value.id, func.attr)
        else:
            assert isinstance(func, ast.Name)
            fn = session.resolve(None, func.id)
        args = [_eval_node(a, run) for a in node.args]
        kwargs = {kw.arg: _eval_node(kw.value, run) for kw in node.keywords if kw.arg}
        run.deadline.check()
        return session.invoke(fn, args, kwargs)
    if isinstance(node, ast.Name):
        if node.id in session.variables:
            return session.variables[node.id]
        if node.id in ("True", "False", "None"):  # pragma: no cover - parsed as constants
            return {"True": True, "False": False, "None": None}[node.id]
        raise ToolCallError(
            WRONG_ARGUMENTS, f"the name {node.id!r} is not defined; assign it before using it"
        )
    if isinstance(node, ast.List):
        return run.built([_eval_node(e, run) for e in node.elts], "a list")
    if isinstance(node, ast.Tuple):
        return run.built(tuple(_eval_node(e, run) for e in node.elts), "a tuple")
    if isinstance(node, ast.Set):
        return run.built([_eval_node(e, run) for e in node.elts], "a set")
    if isinstance(node, ast.Dict):
        out = {}
        for k, v in zip(node.keys, node.values, strict=True):
            key = _eval_node(k, run)  # type: ignore[arg-type]
            if not isinstance(key, _LITERAL_TYPES):
                raise ToolCallError(NON_EXECUTABLE, "dict keys must be literals")
            out[key] = _eval_node(v, run)
        return run.built(out, "a dict")
    if isinstance(node, ast.UnaryOp):
        value = _eval_node(node.operand, run)
        if not _is_number(value):
            raise ToolCallError(
                WRONG_ARGUMENTS, f"unary minus/plus needs a number; got {short_repr(value)}"
            )
        return -value if isinstance(node.op, ast.USub) else +value
    if isinstance(node, ast.BinOp):
        left, right = _eval_node(node.left, run), _eval_node(node.right, run)
        if not (_is_number(left) and _is_number(right)):
            raise ToolCallError(
                WRONG_ARGUMENTS,
                f"arithmetic works on numbers only; got {short_repr(left)} and {short_repr(right)}",
            )
        try:
            result = _ARITH[type(node.op)](left, right)
        except ZeroDivisionError:
            raise ToolCallError(WRONG_ARGUMENTS, "division by zero") from None
        except OverflowError:
            raise ToolCallError(
                RESOURCE_LIMIT, f"a number larger than {run.budgets.max_number:g} in magnitude"
            ) from None
        check_number(result, run.budgets)
        return result
    raise ToolCallError(NON_EXECUTABLE, f"{_describe(node)} is not allowed")  # pragma: no cover


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_FENCE = re.compile(r"```[ \t]*[\w+-]*[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)
_CODE_LINE = re.compile(r"^\s*[A-Za-z_]\w*\s*(\.|\(|=)")


def extract_program(text: str, terminal_calls: tuple[str, ...] = ()) -> str:
    r"""Lenient extraction: first fenced block, leading prose dropped, cut after a terminal call.

    Args:
        text: the action or generation.
        terminal_calls: line prefixes of the calls that end a program (``"API.search("``).

    >>> extract_program("Sure! Here:\n```python\nAPI.set_location('Austin')\nAPI.search()\n```\nDone.",
    ...                 ("API.search(",))
    "API.set_location('Austin')\nAPI.search()"
    """
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    lines = body.splitlines()
    start = next((i for i, line in enumerate(lines) if _CODE_LINE.match(line)), len(lines))
    kept = []
    for line in lines[start:]:
        kept.append(line)
        if any(line.strip().startswith(t) for t in terminal_calls):
            break
    return "\n".join(kept).strip()
