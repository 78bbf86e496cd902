"""``ast.parse`` for agent actions, one thread at a time, and a program's statements by line.

CPython 3.11 can fail to build the tree of a parse when several threads parse at once (a
``SystemError: AST constructor recursion depth mismatch`` from the shared recursion counter of
its AST converter), which a server stepping many sessions in threads meets under load. Every
parse of an agent's action in the serving process goes through :func:`parse`, which holds a
process-wide lock; a parse of an action within budgets takes well under a millisecond. (The
sandbox worker parses programs alone in its own process.)

:func:`module_body` is ``parse(source).body`` for API programs, whose lines recur across
episodes (``API.search()``, ``API.set_buy_or_rent("buy")``): the statements of a line that
stands alone are kept by its text and line number, and only the lines not kept are parsed,
together in one parse, so a program of new lines costs one parse as before (see
:func:`module_body` for when a line is kept, and why the result is the whole parse's).
"""

from __future__ import annotations

import ast
import re
import threading
from collections import OrderedDict
from typing import Literal, overload

_LOCK = threading.Lock()

MEMO_LINES = 2_048
"""How many program lines :func:`module_body` keeps (the least recently used go first)."""
MEMO_CHARS = 65_536
"""How many characters the kept lines hold in all (each statement node needs one or more)."""
MEMO_LINE_CHARS = 256
"""Longer lines are parsed every time, not kept."""
MEMO_MAX_LINES = 512
"""A source with more lines is parsed whole, as it is."""
SEEN_LINES = 8_192
"""How many lines seen once are remembered (by their hash) until a second sighting keeps them."""
FULL_ADMITS = 8
"""Once the memo is full, one line in this many that would be kept is kept (a cycle of more lines
than the memo holds would otherwise replace every line before it is read again)."""

_KEPT_STATEMENTS = (ast.Expr, ast.Assign, ast.Pass)
"""The statements a kept line may hold: those whose parse no other line can change."""
_NOT_PLAIN = ("\\", "\r")
"""A source holding one of these is parsed whole: a backslash may join a line to the next, and
a carriage return ends a line that ``str.split("\\n")`` does not split."""

_WARNED = re.compile(r"[0-9](?:and|else|for|if|in|is|not|or)")
"""A number touching a keyword (``0in y``): the parser warns of it at every parse, so such a line
is parsed every time, never kept (a kept line is not parsed again, and a warnings filter that
turns warnings into errors would then see none)."""

_memo: OrderedDict[tuple[int, str], tuple[ast.stmt, ...]] = OrderedDict()
_memo_chars = 0
_seen: set[int] = set()
_candidates = 0


@overload
def parse(source: str, filename: str = ..., mode: Literal["exec"] = ...) -> ast.Module: ...


@overload
def parse(source: str, filename: str = ..., *, mode: Literal["eval"]) -> ast.Expression: ...


def parse(source: str, filename: str = "<unknown>", mode: str = "exec") -> ast.AST:
    """``ast.parse(source, filename, mode)``, holding the parse lock.

    >>> type(parse("x = 1")).__name__
    'Module'
    """
    with _LOCK:
        return ast.parse(source, filename=filename, mode=mode)


def module_body(source: str) -> list[ast.stmt]:
    """``parse(source).body``, with the statements of lines seen before read from a memo.

    A line is kept, by its number and text, from its second sighting on (lines written once,
    with a value no other program has, would only churn the memo), when it is at most
    :data:`MEMO_LINE_CHARS` characters, holds nothing the parser warns of (:data:`_WARNED`; a
    backslash, the other source of warnings, keeps the whole source from the memo), and every
    statement it holds starts and ends on it and is an expression, an assignment or ``pass``. Only the lines not kept are parsed, in one parse
    of the source with the kept lines left blank. The result equals the whole source's parse,
    positions included: a kept line, parsed on its own, opens no bracket or string and joins no
    other line, so every line begins a fresh statement whether the lines around it are blank
    or not; a parse of the rest in which a statement spans two lines (a bracket, string or
    backslash left open), or holds another kind of statement (an import from ``__future__``
    changes how later lines parse), is dropped and the whole source is parsed as it is. So is
    a source with a backslash or a carriage return, and any parse that fails, so a syntax
    error is the whole source's own. The statement objects are shared by every program that
    holds the line: a caller must not change them.

    Raises:
        SyntaxError, ValueError, RecursionError, MemoryError: as :func:`ast.parse` would.
    """
    if any(mark in source for mark in _NOT_PLAIN):
        return parse(source).body
    lines = source.split("\n")
    if len(lines) > MEMO_MAX_LINES:
        return parse(source).body
    keys = list(enumerate(lines, 1))
    with _LOCK:
        found = [_memo.get(key) for key in keys]
        missing, admitted = [], []
        for k, kept in enumerate(found):
            if kept is not None:
                _memo.move_to_end(keys[k])
                continue
            missing.append(k)
            if len(lines[k]) <= MEMO_LINE_CHARS and _WARNED.search(lines[k]) is None:
                seen = hash(keys[k])
                if seen not in _seen:
                    _seen.add(seen)
                elif len(_memo) < MEMO_LINES or _full_admit():
                    admitted.append(k)
        if len(_seen) > SEEN_LINES:
            _seen.clear()
    if not missing:
        return [stmt for kept in found for stmt in kept or ()]
    if len(missing) == len(lines) and not admitted:
        return parse(source).body  # nothing kept, nothing to keep
    rest = "\n".join(line if kept is None else "" for line, kept in zip(lines, found, strict=True))
    try:
        tree = parse(rest)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        if len(missing) == len(lines):
            raise  # the rest is the source: its own error
        return parse(source).body  # the whole source's own error (or its parse)
    by_line: dict[int, list[ast.stmt]] = {}
    for stmt in tree.body:
        if type(stmt) not in _KEPT_STATEMENTS or stmt.end_lineno != stmt.lineno:
            return tree.body if len(missing) == len(lines) else parse(source).body
        by_line.setdefault(stmt.lineno, []).append(stmt)
    for k in missing:
        found[k] = tuple(by_line.get(k + 1, ()))
    if admitted:
        _keep([(keys[k], found[k]) for k in admitted])  # type: ignore[misc]
    return [stmt for kept in found for stmt in kept or ()]


def _full_admit() -> bool:
    """Whether a line may replace another in the full memo (one in :data:`FULL_ADMITS`)."""
    global _candidates
    _candidates += 1
    return _candidates % FULL_ADMITS == 0


def _keep(entries: list[tuple[tuple[int, str], tuple[ast.stmt, ...]]]) -> None:
    """Keep the parses of lines; the least recently used go past the memo's bounds."""
    global _memo_chars
    with _LOCK:
        for key, kept in entries:
            if key not in _memo:
                _memo[key] = kept
                _memo_chars += len(key[1])
        while _memo and (len(_memo) > MEMO_LINES or _memo_chars > MEMO_CHARS):
            (_, line), _ = _memo.popitem(last=False)
            _memo_chars -= len(line)


def forget() -> None:
    """Empty :func:`module_body`'s memo and its lines seen once."""
    global _memo_chars
    with _LOCK:
        _memo.clear()
        _seen.clear()
        _memo_chars = 0
