"""Documented entities: the ids a tool's documents name exist in the tool's world.

A real API's documented example values name real records: the example ``id`` of a details
endpoint is one its search endpoint can return. A library loaded from ToolBench or StableToolBench
files keeps that property here: every id parameter of a tool (``id``, ``hotel_id``, ``hotelId``)
has one *entity id*, its documented example value (or, undocumented, a value drawn from the
tool's and parameter's names), and the tool's list responses hold those ids, item by item, in the
items' id fields. So ids flow from answers to later calls: a search answers with the record whose
details the query's gold (or an agent) then asks for.

:func:`entity_ids` lists a tool's entity ids; :func:`plant_entity_ids` puts them into a
synthesized response (a pure function: the same response, tool and arguments give the same
result in any process).
"""

from __future__ import annotations

import math
import re
from typing import Any

from toolgym.simulators.tool_library.model import ParamDoc, ToolDoc
from toolgym.simulators.tool_library.values import normalize_key, sample_argument

__all__ = ["entity_id", "entity_ids", "is_id_name", "plant_entity_ids"]

_MAX_DEPTH = 6
"""How deep into a response ids are planted."""


def is_id_name(name: str) -> bool:
    """Whether a parameter or field names an id (``id``, ``hotel_id``, ``hotelId``, ``is_id``)."""
    norm = normalize_key(name)
    return norm == "id" or norm.endswith("_id")


def _field_norm(name: str) -> str:
    """A parameter's name as the response field that holds it (``is_id``, ToolBench's ``id``)."""
    norm = normalize_key(name)
    return "id" if norm == "is_id" else norm


_INTEGER = re.compile(r"-?[0-9]{1,18}")
_NUMBER_KINDS = frozenset({"number", "integer"})


def entity_id(tool: ToolDoc, param: ParamDoc) -> Any:
    """The entity id of ``param`` (an id parameter of one of ``tool``'s APIs).

    The documented example value when it is a string or an integer the parameter's kind takes
    (a ``NUMBER`` id documented as ``"abc"`` is not); otherwise a value of the parameter's kind
    drawn from the tool's and the parameter's names (so every API of the tool that takes this
    parameter names the same record), a whole number for number kinds.
    """
    value = param.default
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        value = value.strip()
    numeric = param.kind in _NUMBER_KINDS
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value and (not numeric or _INTEGER.fullmatch(value)):
        return value
    drawn = sample_argument(param, ("entity", tool.standard_name, normalize_key(param.name)))
    if isinstance(drawn, float) and math.isfinite(drawn):
        return int(drawn)
    return drawn


_cache: dict[int, tuple[ToolDoc, tuple[tuple[str, Any], ...]]] = {}
_CACHE_SIZE = 4096


def entity_ids(tool: ToolDoc) -> tuple[tuple[str, Any], ...]:
    """``(field name, id)`` for each id parameter of ``tool``'s APIs, in document order, once each.

    The field name is the parameter's in snake case (``hotelId``: ``hotel_id``; ToolBench's
    ``is_id``: ``id``).
    """
    found = _cache.get(id(tool))
    if found is not None and found[0] is tool:
        return found[1]
    ids = _entity_ids(tool)
    if len(_cache) >= _CACHE_SIZE:
        _cache.clear()
    _cache[id(tool)] = (tool, ids)
    return ids


def _entity_ids(tool: ToolDoc) -> tuple[tuple[str, Any], ...]:
    out: dict[tuple[str, str], tuple[str, Any]] = {}
    for api in tool.apis:
        for param in api.params:
            if not is_id_name(param.name):
                continue
            value = entity_id(tool, param)
            if isinstance(value, bool) or not isinstance(value, str | int):
                continue
            norm = _field_norm(param.name)
            out.setdefault((norm, str(value)), (norm, value))
    return tuple(out.values())


def _as_field(value: Any, current: Any) -> Any:
    """``value`` in the type of the field it replaces, or ``None`` when it cannot be."""
    if isinstance(current, bool):
        return None
    if isinstance(current, int):
        text = str(value).strip()
        return int(text) if _INTEGER.fullmatch(text) else None
    if isinstance(current, str):
        return str(value)
    return None


def _id_fields(item: dict[str, Any]) -> dict[str, str]:
    """The item's id-like fields with plain values, by snake-case name."""
    return {
        normalize_key(str(k)): k
        for k, v in item.items()
        if is_id_name(str(k)) and isinstance(v, str | int) and not isinstance(v, bool)
    }


def _place(
    item: dict[str, Any], fields: dict[str, str], norm: str, value: Any, exact: bool
) -> bool:
    """Put ``value`` into the item's field for ``norm``, or its ``id`` or only id field."""
    key = fields.get(norm) if exact else fields.get("id")
    if key is None and not exact and len(fields) == 1:
        key = next(iter(fields.values()))
    if key is None:
        return False
    converted = _as_field(value, item[key])
    if converted is None:
        return False
    item[key] = converted
    return True


def _plant_list(
    items: list[dict[str, Any]], ids: list[tuple[str, Any]], taken: set[str], extend: bool
) -> None:
    """Put one id not yet ``taken`` into each item, matching field names first.

    With ``extend``, an id no item's field can hold is added to the next item as a field of
    its own name (a record holds more than the documented sample of it shows), or in the field
    of that name when the field's type could not hold it.
    """
    left = iter(items)
    for item in left:
        fields = _id_fields(item)
        placed = False
        for exact in (True, False):
            for norm, value in ids:
                if str(value) not in taken and _place(item, fields, norm, value, exact):
                    taken.add(str(value))
                    placed = True
                    break
            if placed:
                break
        if not placed:
            break
    if not extend:
        return
    spare = [item for item in items if not _id_fields(item)] or items
    position = 0
    for norm, value in ids:
        if str(value) in taken:
            continue
        item = spare[position % len(spare)]
        position += 1
        # its own field, added; or the field of its name, whose type could not hold it
        key = next((k for k in item if normalize_key(str(k)) == norm), norm)
        item[key] = value
        taken.add(str(value))


def plant_entity_ids(tool: ToolDoc, response: Any, arguments: dict[str, Any]) -> Any:
    """``response`` with ``tool``'s entity ids in the id fields of its lists of objects.

    Each list of objects (up to a few levels deep) gets the ids in order, one per item, in the
    field of the same name, else in the item's ``id`` field, else in its only id field, when the
    field's type can hold the id; the first list also gets, as fields of their own, the ids no
    field of it could hold; a response with no list of objects, to a call that passes no id,
    gets them as fields of its own. An id the call passed as an argument is left out (the call already
    names that record). The response is changed in place and returned.
    """
    passed = {str(v) for v in arguments.values() if isinstance(v, str | int)}
    ids = [(norm, value) for norm, value in entity_ids(tool) if str(value) not in passed]
    if not ids:
        return response
    stack: list[tuple[Any, int]] = [(response, 0)]
    taken: set[str] = set()
    first = True
    while stack:
        node, depth = stack.pop()
        if depth > _MAX_DEPTH:
            continue
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in reversed(list(node.values())))
        elif isinstance(node, list):
            if node and all(isinstance(item, dict) for item in node):
                _plant_list(node, ids, taken if first else set(), first)
                first = False
            stack.extend((v, depth + 1) for v in reversed(node))
    if first and isinstance(response, dict) and not any(is_id_name(k) for k in arguments):
        for norm, value in ids:  # no list: the one record answered holds them
            if norm not in {normalize_key(str(k)) for k in response}:
                response[norm] = value
    return response
