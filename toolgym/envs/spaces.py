"""Text spaces that admit real text (spaces, quotes, newlines, JSON, any printable Unicode)."""

from __future__ import annotations

import string
from typing import Any

from gymnasium import spaces

_WHITESPACE = frozenset("\n\r\t")
_NO_WHITESPACE = {ord(c): None for c in _WHITESPACE}
"""A ``str.translate`` table that drops the whitespace a text space allows."""


class TextSpace(spaces.Text):
    r"""A :class:`gymnasium.spaces.Text` whose ``contains`` accepts any printable Unicode text.

    ``Text`` only admits characters of a fixed charset, and its default is alphanumeric, so
    ``"API.search()"`` or any JSON would be outside it. This space accepts every string of allowed
    length made of printable characters plus newline, carriage return and tab; ``sample()`` draws
    from :data:`string.printable`.

    >>> TextSpace(64).contains('API.set_location("São Paulo")\nAPI.search()')
    True
    >>> TextSpace(64).contains("bell\x07")
    False
    """

    def __init__(self, max_length: int, *, min_length: int = 0, seed: Any = None) -> None:
        super().__init__(
            max_length=max_length, min_length=min_length, charset=string.printable, seed=seed
        )

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is a string of allowed length made of printable text."""
        return (
            isinstance(x, str)
            and self.min_length <= len(x) <= self.max_length
            and (x.isprintable() or x.translate(_NO_WHITESPACE).isprintable())
        )

    def __repr__(self) -> str:
        return f"TextSpace({self.min_length}, {self.max_length}, printable unicode)"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TextSpace)
            and self.min_length == other.min_length
            and self.max_length == other.max_length
        )


def printable(text: str) -> str:
    r"""``text`` with every character a :class:`TextSpace` refuses written as an escape.

    Observations echo agent text (an unknown parameter name, a bad value); this keeps them inside
    the observation space whatever the agent wrote.

    >>> printable("ok\nbell\x07 \ud800")
    'ok\nbell\\x07 \\ud800'
    """
    if text.isprintable() or text.translate(_NO_WHITESPACE).isprintable():  # C speed, no loop
        return text
    return "".join(
        c
        if c.isprintable() or c in _WHITESPACE
        else c.encode("unicode_escape", "backslashreplace").decode("ascii")
        for c in text
    )
