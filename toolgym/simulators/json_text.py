"""JSON text exactly as Python's :mod:`json` writes and reads it, at orjson's speed.

A step of a REST family encodes the service's answer, parses it back as the agent's client
would, and measures what it hands back against the step's cap. On an 18 KB forecast, mostly
floats, :mod:`json` takes about 200 µs for each of the three; orjson takes 20-60 µs. orjson does
not always agree with :mod:`json`, though:

- it writes floats below 1e-4 in other forms (``0.00001``, ``1e-7`` for ``1e-05``, ``1e-07``)
  and NaN and the infinities as ``null``;
- it reads an integer past 64 bits as a float, and refuses NaN, the infinities, lone surrogates
  and numbers past a float's range, which :mod:`json` reads;
- it renders objects :mod:`json` cannot (enums, UUIDs, dataclasses) and refuses some it can
  (integers past 64 bits, keys that are not text).

Each function here uses orjson only where its answer is provably :mod:`json`'s, and :mod:`json`
itself otherwise, so the bytes, the values and the errors are the same:

- :func:`dumps_compact` looks in orjson's text for the forms above (``e-``, ``0.0000``); where
  one is, :mod:`json` writes the text instead. A ``null`` may be a NaN: the text is read back
  and compared with the value;
- :func:`loads` and :func:`loads_utf8` leave to :mod:`json` a text with a run of 19 digits or
  more (an integer orjson might read as a float), a text with more brackets than the stack has
  room for :mod:`json`'s recursion (orjson reads 1,024 levels anywhere), and any text orjson
  refuses;
- :func:`fits` bounds the length of :mod:`json`'s text from orjson's: one space after each
  comma and colon, ``-Infinity`` for a ``null``, ``e-05`` for ``e-5``;
- dataclasses, dates and subclasses of ``str``, ``int``, ``dict`` and ``list`` are refused by
  orjson here (:data:`_OPTIONS`), and so left to :mod:`json`.

Enums, UUIDs and ``orjson.Fragment`` are not looked for. Where :mod:`json` refuses one (in
:func:`dumps_compact`: a service's payload, which holds JSON's own types), orjson renders it;
where :mod:`json` renders its ``str`` (in :func:`fits`), a UUID's is the text orjson writes, and
an enum's may be longer than the value orjson writes. No agent text becomes one of them: only a
family's own code could put one in a step's info.

Before its first use, orjson's writing and reading of numbers is compared with :mod:`json`'s
over floats of every magnitude (:func:`orjson_agrees`); a release that formats them otherwise is
not used. Without orjson installed, everything is :mod:`json`.

>>> dumps_compact({"temp": 21.5, "tiny": 1e-05, "name": "Zürich"})
b'{"temp":21.5,"tiny":1e-05,"name":"Z\\xc3\\xbcrich"}'
>>> loads('{"id": 123456789012345678901234567890}'), loads_utf8(b'{"id": 7, "t": 1e400}')
({'id': 123456789012345678901234567890}, {'id': 7, 't': inf})
>>> value = {"list": [1.5] * 1000}
>>> len(json.dumps(value)), fits(value, 6000), fits(value, 5010), fits(value, 4000)
(5010, True, True, False)
"""

from __future__ import annotations

import functools
import json
import math
import sys
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - a declared dependency; json alone still works
    orjson = None  # type: ignore[assignment]

_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""What :func:`dumps_compact` writes: compact, UTF-8, key order kept."""

_DIGITS = bytes(48 if 48 <= b <= 57 else 91 if b in b"[{" else 32 for b in range(256))
"""A ``bytes.translate`` table: every digit ``0``, every opening bracket ``[``, every other byte
a space."""
_LONG_RUN = b"0" * 19
"""Nineteen digits in a row: a number orjson may read otherwise (past 64 bits, an integer is
read as a float)."""
_OPTIONS = (
    0
    if orjson is None
    else orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)
"""What orjson leaves to :mod:`json` (by refusing it): dataclasses and dates, which orjson renders
and :mod:`json` refuses (or renders as their ``str``), and subclasses of ``str``, ``int``,
``dict`` and ``list``, which :mod:`json` reads through their own methods (an ``OrderedDict``'s
order, an ``items`` or ``__iter__`` of their own) and orjson through their storage."""
_STACK_MARGIN = 50
"""Frames kept free below the recursion limit when orjson reads a text :mod:`json` would read
nested level by level (its own frames, and some to spare)."""


def dumps_compact(value: Any) -> bytes:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()``, faster.

    Raises what that raises (``TypeError`` for an object JSON cannot render, ``ValueError`` for
    a cycle, ``UnicodeEncodeError`` for a lone surrogate). A ``null`` in orjson's text may be a
    NaN or an infinity that :mod:`json` writes as such: the text is read back and compared with
    ``value`` (one C-level reading, still faster than :mod:`json`'s writing).
    """
    if orjson is not None and orjson_agrees():
        try:
            text = orjson.dumps(value, option=_OPTIONS)
        except (TypeError, ValueError):
            pass  # json decides: it may render it (keys that are not text) or raise its error
        else:
            if (
                b"e-" not in text
                and b"0.0000" not in text
                and (b"null" not in text or orjson.loads(text) == value)
            ):
                return text
    return _COMPACT.encode(value).encode()


def loads(text: str) -> Any:
    """``json.loads(text)``, faster; raises ``ValueError`` (or ``RecursionError``) as it does."""
    read = _orjson_read(text, text.encode("utf-8", "surrogatepass"))
    return json.loads(text) if read is _NOT_READ else read


def loads_utf8(body: bytes, errors: str = "replace") -> Any:
    """``json.loads(body.decode("utf-8", errors))``, faster; raises as it does.

    A body orjson refuses (bytes that are not UTF-8, NaN, a lone surrogate's escape) is
    decoded and read by :mod:`json`.
    """
    read = _orjson_read(body, body)
    return json.loads(body.decode("utf-8", errors)) if read is _NOT_READ else read


_NOT_READ = object()
"""What :func:`_orjson_read` answers for a text it leaves to :mod:`json`."""


def _orjson_read(text: str | bytes, utf8: bytes) -> Any:
    """The value orjson reads from ``text`` (UTF-8 bytes: ``utf8``), where it is :mod:`json`'s.

    :data:`_NOT_READ` for a text with a run of 19 digits, one nested past what the stack has
    room for, or one orjson refuses.
    """
    if orjson is None or not orjson_agrees():
        return _NOT_READ
    marked = utf8.translate(_DIGITS)
    if _LONG_RUN in marked or not _nests_safely(marked):
        return _NOT_READ
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return _NOT_READ


def _nests_safely(marked: bytes) -> bool:
    """Whether :mod:`json` surely reads a text without running out of recursion.

    ``marked``: the text through :data:`_DIGITS`. :mod:`json` takes one level of recursion per
    level of nesting, which orjson does not (it reads 1,024 levels anywhere): the text nests no
    deeper than it has brackets, and its brackets must fit in what the stack has left.
    """
    room = min(sys.getrecursionlimit(), 1000) - _STACK_MARGIN - marked.count(b"[")
    if room <= 0:
        return False
    try:
        sys._getframe(room)
    except ValueError:
        return True  # fewer frames on the stack than the room left
    return False


def fits(value: Any, cap: int) -> bool:
    """Whether ``json.dumps(value, ensure_ascii=False, default=str)`` is surely ``cap`` long or less.

    ``False`` means not known: the caller renders ``value`` with :mod:`json` to know. orjson's
    text is at most as long as :mod:`json`'s but for one space after each comma and colon, a
    ``null`` that is ``-Infinity`` and an ``e-5`` that is ``e-05`` (strings and every other
    number are written alike, and orjson counts bytes where :mod:`json`'s length counts
    characters); a value orjson refuses or renders otherwise (a dataclass, a date, a value
    :mod:`json` shows as its ``str``, a subclass of a container: pass a ``dict`` subclass's
    items as a ``dict``) is not known.
    """
    if orjson is None or not orjson_agrees():
        return False
    try:
        text = orjson.dumps(value, option=_OPTIONS)
    except (TypeError, ValueError):
        return False
    size = len(text)
    if 3 * size <= cap:  # each comma, colon, null and "e-" is at least 2 bytes of orjson's
        return True
    if size > cap:
        return False
    grown = text.count(b",") + text.count(b":") + 5 * text.count(b"null") + text.count(b"e-")
    return size + grown <= cap


_SAMPLE_MANTISSAS = (1.0, 1.5, 2.2250738585072014, 3.141592653589793, 9.999999999999998)
_SAMPLE_TEXT = ['a\x00\x08\x0c\x1f\x7f\u2028"\\/\té\U0001f600', {"k": [True, None]}]
"""Escapes, characters past ASCII and the literals, which both must write alike."""


@functools.cache
def orjson_agrees() -> bool:
    """Whether the installed orjson writes and reads numbers as :mod:`json` does (checked once).

    Every float written differently must carry one of the forms :func:`dumps_compact` looks
    for, and must be no more than :func:`fits` allows for; every float and integer under 19
    digits must read back the same.
    """
    if orjson is None:
        return False
    samples: list[float] = [0.0, -0.0, 5e-324, 1.7976931348623157e308]
    for exponent in range(-323, 308):
        for mantissa in _SAMPLE_MANTISSAS:
            number = mantissa * 10.0**exponent
            if math.isfinite(number):
                samples += [number, -number]
    try:
        ours = _COMPACT.encode(samples)
        theirs = orjson.dumps(samples)
        if ours.encode() != theirs:  # only where the forms dumps_compact looks for are
            for mine, other in zip(ours[1:-1].split(","), theirs[1:-1].split(b","), strict=True):
                if mine.encode() != other and not (b"e-" in other or b"0.0000" in other):
                    return False
                if len(mine) > len(other) + 1:  # fits allows one more character
                    return False
        if orjson.loads(ours) != samples:
            return False
        integers = [0, -1, 10**18 - 1, -(10**18) + 1, 2**63 - 1, -(2**63)]
        read = [orjson.loads(str(n)) for n in integers]
        if read != integers or any(type(n) is not int for n in read):
            return False
        special = [math.nan, math.inf, -math.inf]
        if any(orjson.dumps(n) != b"null" for n in special):
            return False
        if _COMPACT.encode(_SAMPLE_TEXT).encode() != orjson.dumps(_SAMPLE_TEXT):
            return False
    except (TypeError, ValueError):
        return False
    return True
