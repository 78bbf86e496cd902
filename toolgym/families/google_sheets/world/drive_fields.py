"""Drive's partial responses: the default fields, and file times.

Drive v3 answers with the fields a request names (``fields=id,name``,
``fields=kind,nextPageToken,files(id,name,modifiedTime)``, ``*`` for all: the masks of
:mod:`.fields`) and, without ``fields``, with its defaults: a file's ``kind``, ``id``, ``name``
and ``mimeType``; a list's ``kind``, ``incompleteSearch`` and each file's defaults. A field a
resource does not have is left out, as Drive leaves it out.

>>> file = {"kind": "drive#file", "id": "x", "name": "n", "mimeType": "m", "createdTime": "t"}
>>> drive_fields(file, "id,name")
{'id': 'x', 'name': 'n'}
>>> drive_fields(file, None)
{'kind': 'drive#file', 'id': 'x', 'name': 'n', 'mimeType': 'm'}
>>> drive_time(61)
'2026-01-01T00:01:01.000Z'
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from toolgym.families.google_sheets.world.fields import apply_fields, parse_fields

FILE_DEFAULT = "kind,id,name,mimeType"
"""The fields of a file when a request names none."""
FILE_LIST_DEFAULT = f"kind,incompleteSearch,files({FILE_DEFAULT})"
"""The fields of a file list when a request names none."""

_EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def drive_time(tick: int) -> str:
    """The RFC 3339 time of the service's clock tick ``tick`` (one second per change)."""
    return (_EPOCH + dt.timedelta(seconds=tick)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def drive_fields(resource: dict[str, Any], fields: str | None, default: str = FILE_DEFAULT) -> Any:
    """``resource`` as Drive answers it: the ``fields`` asked for, else the default ones."""
    return apply_fields(resource, parse_fields(default if fields is None else fields))
