"""``ast.parse`` for agent actions, one thread at a time.

CPython 3.11 can fail to build the tree of a parse when several threads parse at once (a
``SystemError: AST constructor recursion depth mismatch`` from the shared recursion counter of
its AST converter), which a server stepping many sessions in threads meets under load. Every
parse of an agent's action in the serving process goes through :func:`parse`, which holds a
process-wide lock; a parse of an action within budgets takes well under a millisecond. (The
sandbox worker parses programs alone in its own process.)
"""

from __future__ import annotations

import ast
import threading
from typing import Literal, overload

_LOCK = threading.Lock()


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
