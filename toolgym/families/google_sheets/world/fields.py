"""Field masks: the ``fields`` parameter of the Sheets and Drive APIs.

A mask names the parts of a response to keep: ``sheets(properties(title,sheetId))``,
``files(id,name)``, ``sheets.data.rowData.values.note`` (``/`` works as ``.``), ``*`` for all.
"""

from __future__ import annotations

from typing import Any

from toolgym.families.google_sheets.world.sheet import bad_request

MAX_MASK_DEPTH = 16
"""The deepest nesting of parentheses a mask may have (the APIs' own objects go about 8 deep)."""
MAX_MASK_CHARS = 4096
"""The longest mask read."""

Mask = dict[str, "Mask | None"]


def parse_fields(text: str) -> Mask:
    """A ``fields`` mask as a tree (``None``: the whole value below); ``/`` works as ``.``.

    >>> parse_fields("sheets(properties(title,sheetId),data.rowData.values.note),spreadsheetId")
    {'sheets': {'properties': {'title': None, 'sheetId': None}, 'data': {'rowData': {'values': {'note': None}}}}, 'spreadsheetId': None}
    """
    text = text.replace("/", ".")
    depth = deepest = 0
    for char in text:
        depth += (char == "(") - (char == ")")
        deepest = max(deepest, depth)
    if deepest > MAX_MASK_DEPTH or len(text) > MAX_MASK_CHARS:
        raise bad_request(
            f"Invalid field selection: at most {MAX_MASK_DEPTH} levels and {MAX_MASK_CHARS} "
            f"characters; got {deepest} levels, {len(text)} characters"
        )
    position = 0

    def parse_list() -> Mask:
        nonlocal position
        mask: Mask = {}
        while position < len(text):
            start = position
            while position < len(text) and text[position] not in ",()":
                position += 1
            path = [p for p in text[start:position].strip().split(".") if p]
            sub: Mask | None = None
            if position < len(text) and text[position] == "(":
                position += 1
                sub = parse_list()
                if position >= len(text) or text[position] != ")":
                    raise bad_request(f"Invalid field selection {text!r}: unbalanced parentheses")
                position += 1
            if path:
                node = mask
                for name in path[:-1]:
                    child = node.get(name, {})
                    node[name] = child if child is not None else None
                    if node[name] is None:
                        break
                    node = node[name]  # type: ignore[assignment]
                else:
                    last = path[-1]
                    if last in node and node[last] is not None and sub is not None:
                        node[last].update(sub)  # type: ignore[union-attr]
                    elif last not in node or sub is None:
                        node[last] = sub
            if position < len(text) and text[position] == ",":
                position += 1
                continue
            break
        return mask

    mask = parse_list()
    if position != len(text):
        raise bad_request(f"Invalid field selection {text!r}")
    return mask


def apply_fields(value: Any, mask: Mask | None) -> Any:
    """``value`` with only what ``mask`` names (lists keep their items, masked; ``*``: all).

    >>> apply_fields({"a": 1, "files": [{"id": 1, "x": 2}]}, parse_fields("files(id)"))
    {'files': [{'id': 1}]}
    >>> apply_fields({"a": 1, "b": {"c": 2}}, parse_fields("*"))
    {'a': 1, 'b': {'c': 2}}
    """
    if mask is None or "*" in mask:
        return value
    if isinstance(value, list):
        return [apply_fields(v, mask) for v in value]
    if not isinstance(value, dict):
        return value
    return {k: apply_fields(v, mask[k]) for k, v in value.items() if k in mask}
