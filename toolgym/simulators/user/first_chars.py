"""The characters a pattern's match can start with, tested first: a search skips the rest.

A search tries a pattern at each position of the text. When the pattern opens with a literal or
a character class, the regular expression engine goes straight to the positions that hold one.
When it opens with a lookbehind (``(?<![0-9a-z])``), a word boundary or an alternation whose
branches open with such things, the engine cannot: it tries every branch at every position, and
most of the reader's patterns open that way (a sentence break is ``(?<=[a-z]{3}[.])\\s+`` or
``(?<=[!?;:])\\s+`` or ...; a confirmation tag is ``\\b(right|correct|...)``).

:func:`guarded` reads the pattern with :mod:`re`'s own parser, collects the characters a match
can start with (assertions take no text, so those after them; each branch's; an optional
part's and those after it), and, when they are few, puts them first as a lookahead:
``(?=[\\s\\n])(?:...)``. A position that cannot start a match is then left after one test of one
character. The lookahead takes no text and opens no group, and the guarded pattern is compiled
with the same flags (a case-insensitive pattern's class is read case-insensitively, as its
literals are), so every search, match, split and substitution gives the same answer
(``tests/test_user_first_chars.py`` compares them on every pattern of the reader over the
question set and random text).

No guard is added where it would not pay or could not be exact: a pattern the engine already
scans by its first characters, one anchored at the start (``^``: it is tried at one position, or
at line starts only), one that can match the empty text, one whose first characters are not
read (a back reference, a flag group, a negated class, ``.``) or are many (``\\w``, ``[a-z]``).
It is then returned as it is.
"""

from __future__ import annotations

import importlib
import re
from typing import Any


def _engine_module(name: str) -> Any:
    """A module of the standard library's own engine (private names, the same since 3.11)."""
    try:
        return importlib.import_module(f"re.{name}")
    except ImportError:  # pragma: no cover - another Python: no guard, the same answers
        return None


_sre_parser = _engine_module("_parser")
_sre_compiler = _engine_module("_compiler")
_sre: Any = _engine_module("_constants") if _sre_parser and _sre_compiler else None

_LEADING_FLAGS = re.compile(r"^(?:\(\?[aiLmsux]+\))+")
"""Global inline flags (``(?m)``): kept at the front, where Python requires them."""
_WIDE_RANGE = 10
"""A class range of more characters than this (``a-z``) makes the first characters many."""


def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, guarded by its first characters (:func:`guarded`).

    The pattern is read once and compiled once (guarded, or as it is): the reader compiles
    hundreds of them when it is imported.

    >>> compiled(r"(?<=[a-z])\\s+(?=[A-Z])").pattern
    '(?=[\\\\s])(?:(?<=[a-z])\\\\s+(?=[A-Z]))'
    >>> compiled(r"right|wrong").pattern  # the engine scans for "r" and "w" itself
    'right|wrong'
    """
    return _guarded_source(pattern, flags) or re.compile(pattern, flags)


def guarded(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` with its possible first characters as a leading lookahead, where it pays.

    The same matches at the same places, and the same groups; ``pattern`` itself where no
    guard is added (see the module docstring).
    """
    if not isinstance(pattern.pattern, str):
        return pattern
    return _guarded_source(pattern.pattern, pattern.flags) or pattern


def _guarded_source(source: str, flags: int) -> re.Pattern[str] | None:
    """``source`` compiled behind its guard, or ``None`` where it takes none."""
    if _sre is None:
        return None
    try:
        parsed = _sre_parser.parse(source, flags)
        flags = parsed.state.flags  # with the inline ones (``(?m)``), as the pattern's own
        guard = _guard(parsed, flags)
    except Exception:  # anything the reading does not know: no guard, never a wrong one
        return None
    if guard is None:
        return None
    body = _LEADING_FLAGS.sub("", source)
    if flags & re.VERBOSE:
        body += "\n"  # a comment at its end stops at a new line, not at the group's close
    try:
        return re.compile(f"{guard}(?:{body})", flags)
    except (re.error, RecursionError):  # a global flag after a comment ("(?#c)(?i)..."): kept
        return None


def _guard(parsed: Any, flags: int) -> str | None:
    """The lookahead of the characters a match of the parsed pattern starts with, or ``None``.

    ``(?=[...])``; ``(?:^|(?=[...]))`` where a branch starts at ``^`` (the start, or a line's
    start, under the pattern's own flags) instead of with a character.
    """
    if not _opens_unscanned(parsed.data):
        return None
    if _sre_compiler._get_literal_prefix(parsed, flags)[0]:
        return None  # the engine finds the literal it opens with by itself
    if _sre_compiler._get_charset_prefix(parsed, flags):
        return None
    items, nullable = _sequence(parsed.data)
    if items is None or nullable or not items:
        return None
    parts, anchors = [], []
    for kind, value in dict.fromkeys(items):
        if kind == "anchor":
            anchors.append("^" if value is _sre.AT_BEGINNING else r"\A")
        elif kind == "range":
            low, high = value
            if high - low >= _WIDE_RANGE:
                return None
            parts.append(f"{_escaped(low)}-{_escaped(high)}")
        elif kind == "category":
            if value not in (r"\d", r"\s"):
                return None  # \w, \S, \D, \W: nearly every character of a message
            parts.append(value)
        else:
            parts.append(_escaped(value))
    if not parts:
        return None  # every branch is anchored: each is tried where its anchor holds only
    lookahead = f"(?=[{''.join(parts)}])"
    return f"(?:{'|'.join(anchors)}|{lookahead})" if anchors else lookahead


def _opens_unscanned(data: Any) -> bool:
    """Whether the pattern opens with what the engine cannot scan for: an assertion, a branch.

    Not ``^`` (tried at the start, or at line starts, only) nor a plain repeat or literal.
    """
    lead = data[0] if data else None
    while lead is not None and lead[0] is _sre.SUBPATTERN:
        _, added, removed, inner = lead[1]
        if added or removed or not inner.data:
            return False
        lead = inner.data[0]
    if lead is None:
        return False
    op, value = lead
    if op is _sre.AT:
        return value not in (_sre.AT_BEGINNING, _sre.AT_BEGINNING_STRING)
    return op in (_sre.ASSERT, _sre.ASSERT_NOT, _sre.BRANCH)


_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_NOT_WORD": r"\W",
}

_Item = tuple[str, Any]
"""``("char", code)``, ``("range", (low, high))``, ``("category", "\\d")``, or ``("anchor",
AT_BEGINNING)``: a branch that starts where ``^`` (or ``\\A``) holds, whatever comes next."""


def _sequence(data: Any) -> tuple[list[_Item] | None, bool]:
    """The first characters of a sequence of parsed elements, and whether it can be empty.

    ``None``: a first character that is not read (any character, a negated class, a group
    reference, a flag group).
    """
    items: list[_Item] = []
    for op, value in data:
        if op is _sre.AT and value in (_sre.AT_BEGINNING, _sre.AT_BEGINNING_STRING):
            return [*items, ("anchor", value)], False  # from here, a start where it holds
        if op in (_sre.AT, _sre.ASSERT, _sre.ASSERT_NOT):
            continue  # takes no text: the next element's characters come first
        found, nullable = _element(op, value)
        if found is None:
            return None, False
        items += found
        if not nullable:
            return items, False
    return items, True


def _element(op: Any, value: Any) -> tuple[list[_Item] | None, bool]:
    """The first characters of one parsed element, and whether it can match the empty text."""
    if op is _sre.LITERAL:
        return [("char", value)], False
    if op is _sre.IN:
        items: list[_Item] = []
        for kind, member in value:
            if kind is _sre.LITERAL:
                items.append(("char", member))
            elif kind is _sre.RANGE:
                items.append(("range", tuple(member)))
            elif kind is _sre.CATEGORY and str(member) in _CATEGORIES:
                items.append(("category", _CATEGORIES[str(member)]))
            else:
                return None, False  # a negated class, a case-folded range...
        return items, False
    if op is _sre.SUBPATTERN:
        _, added, removed, inner = value
        return (None, False) if added or removed else _sequence(inner.data)
    if op is _sre.ATOMIC_GROUP:
        return _sequence(value.data)
    if op is _sre.BRANCH:
        items, nullable = [], False
        for branch in value[1]:
            found, empty = _sequence(branch.data)
            if found is None:
                return None, False
            items += found
            nullable = nullable or empty
        return items, nullable
    if op in (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT):
        low, _, inner = value
        found, empty = _sequence(inner.data)
        return (None, False) if found is None else (found, empty or low == 0)
    return None, False


def _escaped(code: int) -> str:
    """One character as a member of a class.

    A letter or digit as it is, ASCII punctuation after a backslash, anything else by its code
    (``\\x0a``, ``\\u2022``).
    """
    char = chr(code)
    if char.isascii() and char.isalnum():
        return char
    if char.isascii() and char.isprintable():
        return "\\" + char
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )
