"""Drive's partial responses: the ``fields`` parameter, the default fields and file times.

Drive v3 answers with the fields a request names (``fields=id,name``,
``fields=kind,nextPageToken,files(id,name,modifiedTime)``, ``*`` for all) and, without
``fields``, with its defaults: a file's ``kind``, ``id``, ``name`` and ``mimeType``; a list's
``kind``, ``incompleteSearch`` and each file's defaults. A field a resource does not have is left
out, as Drive leaves it out.

>>> drive_fields({"kind": "drive#file", "id": "x", "name": "n", "mimeType": "m", "createdTime": "t"}, "id,name")
{'id': 'x', 'name': 'n'}
>>> listing = {"kind": "drive#fileList", "incompleteSearch": False, "files": [{"id": "x", "name": "n", "kind": "k"}]}
>>> drive_fields(listing, "files(id)")
{'files': [{'id': 'x'}]}
>>> drive_time(61)
'2026-01-01T00:01:01.000Z'
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from toolgym.families.google_sheets.world.sheet import SheetsError

FILE_DEFAULT = "kind,id,name,mimeType"
"""The fields of a file when a request names none."""
FILE_LIST_DEFAULT = f"kind,incompleteSearch,files({FILE_DEFAULT})"
"""The fields of a file list when a request names none."""
MAX_FIELDS_CHARS = 2048
"""The longest ``fields`` value read; a longer one is a 400."""

_EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)

Selection = dict[str, "Selection | None"]
"""Field names to their sub-selection (``None``: the whole value)."""


def drive_time(tick: int) -> str:
    """The RFC 3339 time of the service's clock tick ``tick`` (one second per change)."""
    return (_EPOCH + dt.timedelta(seconds=tick)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def parse_fields(text: str) -> Selection | None:
    """The selection a ``fields`` value names (``None`` for ``*``: everything).

    Raises:
        SheetsError: 400 for unbalanced parentheses, an empty name or a value too long.
    """
    if len(text) > MAX_FIELDS_CHARS:
        raise SheetsError(400, "INVALID_ARGUMENT", "Invalid field selection: too long")
    selection, rest = _parse(text.replace(" ", ""), 0)
    if rest != len(text.replace(" ", "")):
        raise SheetsError(400, "INVALID_ARGUMENT", f"Invalid field selection {text[:80]!r}")
    return selection


def _parse(text: str, at: int) -> tuple[Selection | None, int]:
    selection: Selection = {}
    everything = False
    while at < len(text) and text[at] != ")":
        end = at
        while end < len(text) and text[end] not in ",()":
            end += 1
        name = text[at:end]
        if not name:
            raise SheetsError(400, "INVALID_ARGUMENT", f"Invalid field selection {text[:80]!r}")
        sub: Selection | None = None
        at = end
        if at < len(text) and text[at] == "(":
            sub, at = _parse(text, at + 1)
            if at >= len(text) or text[at] != ")":
                raise SheetsError(400, "INVALID_ARGUMENT", f"Invalid field selection {text[:80]!r}")
            at += 1
        if name == "*":
            everything = True
        else:
            for part in reversed(name.split("/")):  # a/b is a(b)
                sub = {part: sub}
            selection.update(sub or {})
        if at < len(text) and text[at] == ",":
            at += 1
    return (None if everything else selection), at


def select(value: Any, selection: Selection | None) -> Any:
    """``value`` cut to ``selection`` (lists are cut item by item)."""
    if selection is None:
        return value
    if isinstance(value, list):
        return [select(item, selection) for item in value]
    if not isinstance(value, dict):
        return value
    return {k: select(value[k], sub) for k, sub in selection.items() if k in value}


def drive_fields(resource: dict[str, Any], fields: str | None, default: str = FILE_DEFAULT) -> Any:
    """``resource`` as Drive answers it: the ``fields`` asked for, else the default ones."""
    return select(resource, parse_fields(default if fields is None else fields))
