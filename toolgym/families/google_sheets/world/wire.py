"""The Sheets API's answers as the real service writes them: what it leaves out and what it adds.

The real API is proto3 on the wire: a field at its default is left out. So a ``GridRange`` of
sheet 0 carries no ``sheetId`` (in merges, named, filtered and protected ranges), a colour
channel at 0 is not written (black is ``{}``), a dimension group that is not collapsed has no
``collapsed``, and a protected range without editors has no ``editors.users``. It also writes
more than asked for: a colour beside its ``...Style`` twin (``tabColor`` and ``tabColorStyle:
{"rgbColor": ...}``, whichever was set), and a spreadsheet's ``defaultFormat`` and ``spreadsheetTheme`` (Google
Sheets' defaults: Arial, and its six accent colours and link colour).

>>> wire({"merges": [{"sheetId": 0, "startRowIndex": 0, "endRowIndex": 2}]})
{'merges': [{'startRowIndex': 0, 'endRowIndex': 2}]}
>>> wire({"tabColor": {"red": 1, "green": 0, "blue": 0}})
{'tabColor': {'red': 1}, 'tabColorStyle': {'rgbColor': {'red': 1}}}
>>> wire({"properties": {"sheetId": 0, "title": "Sheet1"}})
{'properties': {'sheetId': 0, 'title': 'Sheet1'}}
"""

from __future__ import annotations

import copy
from typing import Any

_CHANNELS = frozenset({"red", "green", "blue", "alpha"})


def _rgb(hex_code: str) -> dict[str, float]:
    """A colour of the API from ``#RRGGBB``, its channels as the service rounds them (float32)."""
    import numpy as np

    red, green, blue = (int(hex_code[i : i + 2], 16) for i in (1, 3, 5))
    out = {
        k: float(str(np.float32(v / 255)))  # float32, written with its shortest digits
        for k, v in (("red", red), ("green", green), ("blue", blue))
    }
    return {k: (int(v) if v in (0.0, 1.0) else v) for k, v in out.items() if v}


SPREADSHEET_THEME: dict[str, Any] = {
    "primaryFontFamily": "Arial",
    "themeColors": [
        {"colorType": kind, "color": {"rgbColor": _rgb(code)}}
        for kind, code in (
            ("TEXT", "#000000"),
            ("BACKGROUND", "#FFFFFF"),
            ("ACCENT1", "#4285F4"),
            ("ACCENT2", "#EA4335"),
            ("ACCENT3", "#FBBC04"),
            ("ACCENT4", "#34A853"),
            ("ACCENT5", "#FF6D01"),
            ("ACCENT6", "#46BDC6"),
            ("LINK", "#1155CC"),
        )
    ],
}
"""The theme of a new spreadsheet."""

ROW_PIXELS, COLUMN_PIXELS = 21, 100
"""A row's and a column's default size, as ``rowMetadata``/``columnMetadata`` give it."""


def _is_colour(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and set(value) <= _CHANNELS
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value.values())
    )


class Wired(dict[str, Any]):
    """A part of an answer already in the form the service writes (:func:`wire`'s output).

    :func:`wire` returns it as it is, so one rendering can stand for many cells of an answer
    (the same effective format on 26,000 cells is rendered once). It is shared: never mutate it.
    """


def wire(value: Any) -> Any:
    """``value`` (an answer, or part of one) as the real service writes it (a copy).

    A :class:`Wired` part is already written so, and comes back as it is (not copied).
    """
    if isinstance(value, Wired):
        return value
    if isinstance(value, list):
        return [wire(item) for item in value]
    if not isinstance(value, dict):
        return value
    if _is_colour(value):
        return {k: v for k, v in value.items() if v}
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key == "collapsed" and item is False:
            continue
        if key == "sheetId" and item == 0 and "title" not in value:
            continue  # a range's sheet 0; a sheet's own properties keep it
        if key == "editors" and isinstance(item, dict):
            item = {k: v for k, v in item.items() if v not in ([], {}, None)}
            if not item:
                continue
        out[key] = wire(item)
    for key, item in list(out.items()):
        twin = f"{key}Style"
        plain_colour = (key.endswith("Color") and key != "rgbColor") or key == "color"
        if plain_colour and _is_colour(item) and twin not in value:
            out[twin] = {"rgbColor": copy.deepcopy(item)}
        plain = key[: -len("Style")]
        if (
            key.endswith(("ColorStyle", "colorStyle"))
            and isinstance(item, dict)
            and _is_colour(item.get("rgbColor"))
            and plain not in value
        ):
            out[plain] = copy.deepcopy(item["rgbColor"])  # a theme colour has no plain twin
    return out


def dimension_metadata(
    stored: dict[str, dict[str, Any]], start: int, end: int, pixels: int
) -> list[dict[str, Any]]:
    """``rowMetadata`` or ``columnMetadata`` of indexes ``start`` to ``end``.

    Each entry is the size (``pixelSize``) and what ``updateDimensionProperties`` set on it
    (``hiddenByUser``, a size of its own).
    """
    return [{"pixelSize": pixels, **stored.get(str(i), {})} for i in range(start, end)]
