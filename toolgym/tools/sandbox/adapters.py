"""Adapters: how a world's state becomes the names a sandboxed program sees, and back.

An adapter is an object with ``setup(state) -> dict[str, Any]`` (the program's names, built from
a copy of the state the parent sent) and ``collect(namespace) -> state`` (the new state, plain
data, read after the program ran). The parent names the adapter by import path; families add
theirs (a Sheets backend behind a ready gspread client, a pybullet scene).
"""

from __future__ import annotations

from typing import Any


class PlainState:
    """The state is a plain value the program reads and changes as the variable ``state``."""

    def setup(self, state: Any) -> dict[str, Any]:
        """``{"state": state}`` (already a copy: it came through JSON)."""
        return {"state": state}

    def collect(self, namespace: dict[str, Any]) -> Any:
        """The program's ``state`` variable, as it left it."""
        return namespace.get("state")


plain = PlainState()
"""The adapter of :class:`PlainState`."""
