"""Deterministic responses: a ToolBench response template filled with coherent values.

:func:`synthesize` fills an API's ``template_response`` skeleton (leaves are type names, lists show
one element and a ``_list_length``) with values derived from BLAKE2b digests of stable strings, so the
same tool, API, canonical arguments and seed give the same response in any process. The filling
follows a few rules that make responses hang together:

* **Echo.** A field whose key is an argument's name (compared in snake case: ``hotelId`` is
  ``hotel_id``) holds the argument's value, as the field's type: searching hotels in Lisbon lists
  hotels whose ``city`` is Lisbon, and ``get_hotel(hotel_id=X)`` answers ``hotel_id`` X. An echoed
  city (or country) also fixes the object's country, coordinates and time zone.
* **Entities.** In an object with an id-like key (``id``, ``<x>_id``, ``uuid``), the other fields are
  drawn from the tool's name and the id's value, not from the call; so a hotel listed by a search
  API and fetched by a details API has the same name and price in both. The id itself is drawn from
  the call and the item's position (or echoed). The entity does not depend on the id's key, so a
  list's ``hotel_id`` and a details response's ``id`` of one value are one entity; an ``id`` near
  the top of a response (not in a list) holds the call's only ``<x>_id`` argument. Fields echoed
  from one call are not remembered by the next: a hotel found by searching Lisbon is not in Lisbon
  when fetched by id alone.
* **Lists.** ``_list_length`` is honoured up to 10 items; a ``limit``-like argument (``limit``,
  ``per_page``, ``page_size``, ``max_results``) shortens lists of objects further.
* **Odd templates.** A template stored as a JSON string is parsed; ``"list of str with length 8"``,
  ``"empty list"``, ``"NoneType"`` and ``"str or null"`` leaves are understood; ``None``, an
  unparsable string or anything else gives a small generic object built from the API's name and
  arguments: ``{"status": "success", "data": {...}}``.

Compiled templates are cached, so a call costs one pass over the template: a digest per call and
per entity, and one multiplication per field (:func:`~.value_sources.mix`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from toolgym.simulators.tool_library.canonical import canonical_arguments
from toolgym.simulators.tool_library.key_kinds import (
    GENERIC_CONTAINERS,
    NAME_SUFFIXES,
    leaf_base,
    singular,
    split_key,
    value_hint,
)
from toolgym.simulators.tool_library.model import ApiDoc, ToolDoc
from toolgym.simulators.tool_library.naming import standardize
from toolgym.simulators.tool_library.value_makers import (
    NUMERIC_ALIASES,
    NUMERIC_MAKERS,
    SCOPED_KINDS,
    maker_for,
)
from toolgym.simulators.tool_library.value_sources import (
    MULTIPLIER,
    SEED_MASK,
    Scope,
    key_constant,
    mix,
    seed_int,
)
from toolgym.simulators.tool_library.values import normalize_key, value_kind

__all__ = ["MAX_LIST_LENGTH", "MAX_TEMPLATE_DEPTH", "synthesize", "synthesize_canonical"]

MAX_LIST_LENGTH = 10
"""The most items a synthesized list has, whatever the template's ``_list_length``."""

MAX_TEMPLATE_DEPTH = 64
"""A template nested deeper is answered with the generic response."""

_LEAF, _OBJ, _LIST, _FIXED, _CONST = range(5)
_LIST_OF = re.compile(r"^\s*list of (.+?) with length (\d+)\s*$", re.IGNORECASE)
_PLACE_PINS = frozenset({"city", "country", "country_code"})
_LIMIT_ARGS = frozenset({"limit", "per_page", "page_size", "max_results", "num_results"})
_FILLER = frozenset(
    (
        *("get", "list", "search", "find", "fetch", "retrieve", "show", "all", "by", "for"),
        *("the", "of", "a", "an", "api", "v1", "v2", "v3", "info", "data", "details", "detail"),
        *("endpoint", "query", "lookup"),
    )
)
_CACHE_SIZE = 4096
_INDEX = tuple(key_constant(f"\x00item{i}") for i in range(MAX_LIST_LENGTH))
_plans: dict[Any, tuple[Any, tuple[Any, ...]]] = {}


# ------------------------------------------------------------------------------ compiling


def _leaf(key: str, leaf_type: Any, context: str) -> tuple[Any, ...]:
    base = leaf_base(leaf_type)
    kind = value_kind(key, base, context)
    if base in ("int", "float") and kind not in NUMERIC_MAKERS:
        kind = NUMERIC_ALIASES.get(kind, "number")
    return (_LEAF, kind, base, value_hint(key, context), maker_for(kind, base))


def _context_of(key: str) -> str:
    words = split_key(key)
    word = singular(words[-1]) if words else ""
    return "" if word in GENERIC_CONTAINERS else word


def _is_id_key(norm: str) -> bool:
    return norm == "id" or norm.endswith("_id") or norm in ("uuid", "guid")


def _compile_object(template: Mapping[Any, Any], context: str) -> tuple[Any, ...]:
    items = [(str(k), v) for k, v in template.items() if k != "_list_length"]
    norms = {k: normalize_key(k) for k, _ in items}
    leafy = [k for k, v in items if not isinstance(v, dict | list) and _is_id_key(norms[k])]
    owners = [norms[k][:-3] for k in leafy if norms[k].endswith("_id") and norms[k] != "id"]
    own = singular(owners[0].split("_")[-1]) if owners else context
    rank = {
        k: (norms[k] != "id", norms[k] != f"{own}_id", norms[k] in ("uuid", "guid")) for k in leafy
    }
    fields = []
    for key, value in items:
        child = _compile(value, key, own)
        fields.append(_field(key, norms[key], child))
    by_key = {f[0]: f for f in fields}
    usable = [k for k in leafy if by_key[k][3] == _LEAF and by_key[k][6] in ("str", "int", "float")]
    id_fields = tuple(by_key[k] for k in sorted(usable, key=lambda k: rank[k]))
    return _object_node(tuple(fields), id_fields)


def _object_node(
    fields: tuple[tuple[Any, ...], ...], id_fields: tuple[Any, ...]
) -> tuple[Any, ...]:
    """An object's plan: its fields (see :func:`_field`) sorted for :func:`_object`.

    ``(tag, id fields, scoped, place pins, keys, leaf fields, other fields, fields by norm)``; a
    leaf field is ``(key, key constant * MULTIPLIER, maker, base, hint)``.
    """
    leaves = [f for f in fields if f[3] == _LEAF]
    scoped = any(f[4][1] in SCOPED_KINDS for f in leaves)
    pins = tuple((f[1], f[4][1]) for f in leaves if f[4][1] in _PLACE_PINS)
    by_norm: dict[str, list[tuple[Any, ...]]] = {}
    for key, norm, _, tag, child, _, base, _ in fields:
        by_norm.setdefault(norm, []).append((key, tag, base, child))
    return (
        _OBJ,
        id_fields,
        scoped,
        pins,
        tuple(f[0] for f in fields),
        tuple((f[0], f[2] * MULTIPLIER, f[5], f[6], f[7]) for f in leaves),
        tuple((f[0], f[2], f[3], f[4]) for f in fields if f[3] != _LEAF),
        {k: tuple(v) for k, v in by_norm.items()},
    )


def _field(key: str, norm: str, child: tuple[Any, ...]) -> tuple[Any, ...]:
    """``(key, snake-case key, key constant, tag, node, maker, base, hint)`` of an object's field."""
    if child[0] == _LEAF:
        return (key, norm, key_constant(key), _LEAF, child, child[4], child[2], child[3])
    return (key, norm, key_constant(key), child[0], child, None, None, None)


def _compile_list(template: list[Any], key: str, context: str) -> tuple[Any, ...]:
    item_context = _context_of(key) or context
    if not template:
        return (_LIST, (_CONST, None), 0, False)
    if len(template) > 1:
        return (_FIXED, tuple(_compile(v, key, item_context) for v in template))
    first = template[0]
    if isinstance(first, dict):
        length = first.get("_list_length")
        length = length if isinstance(length, int) and not isinstance(length, bool) else None
        return (_LIST, _compile_object(first, item_context), length, True)
    if isinstance(first, str):
        match = _LIST_OF.match(first)
        if match:
            return (_LIST, _compile(match.group(1), key, item_context), int(match.group(2)), False)
    item = _compile(first, key, item_context)
    return (_LIST, item, None, item[0] == _OBJ)


def _compile(template: Any, key: str, context: str) -> tuple[Any, ...]:
    if isinstance(template, dict):
        return _compile_object(template, _context_of(key) or context)
    if isinstance(template, list):
        return _compile_list(template, key, context)
    if isinstance(template, str):
        text = template.strip().lower()
        if text == "empty list":
            return (_LIST, (_CONST, None), 0, False)
        match = _LIST_OF.match(template)
        if match:
            return (_LIST, _compile(match.group(1), key, context), int(match.group(2)), False)
    return _leaf(key, template, context)


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return type(value).__name__
    containers: dict[type, str] = {list: "list", dict: "dict"}
    return containers.get(type(value), "str")


def _generic_template(api: ApiDoc, names: tuple[tuple[str, str], ...]) -> tuple[Any, ...]:
    words = [w for w in standardize(api.name).split("_") if w and w not in _FILLER]
    noun = words[-1] if words and not words[-1].isdigit() else "result"
    plural = noun.endswith("s") or standardize(api.name).startswith(("list", "search", "find"))
    item = {"id": "str", "name": "str", "description": "str", "url": "str", "updated_at": "str"}
    data: dict[str, Any] = dict(names)
    slot = noun if noun not in data else "result"
    data[slot] = [{**item, "_list_length": 3}] if plural else item
    data_node = _compile_object(data, "")
    fields = (_field("status", "status", (_CONST, "success")), _field("data", "data", data_node))
    return _object_node(fields, ())


def _tool_context(tool: ToolDoc) -> str:
    """What a tool's top-level objects are, when its name says (``hotels_finder``: ``hotel``)."""
    words = [singular(w) for w in tool.standard_name.split("_")]
    return next((w for w in words if w in NAME_SUFFIXES), "")


def _plan(tool: ToolDoc, api: ApiDoc, arguments: Mapping[str, Any]) -> tuple[Any, ...]:
    template = api.template
    text = isinstance(template, str)
    cache_key: Any = (template if text else id(template), tool.standard_name)
    found = _plans.get(cache_key)
    if found is not None and (text or found[0] is template):
        plan = found[1]
    else:
        try:
            plan = _compile_template(template, _tool_context(tool))
        except RecursionError:
            plan = (_CONST, None)
        _remember(cache_key, template, plan)
    if plan[0] != _CONST:
        return plan
    names = tuple((k, _type_name(v)) for k, v in sorted(arguments.items()))
    generic_key = ("\x00generic", api.name, names)
    found = _plans.get(generic_key)
    if found is None:
        found = (None, _generic_template(api, names))
        _remember(generic_key, None, found[1])
    return found[1]


def _remember(key: Any, template: Any, plan: tuple[Any, ...]) -> None:
    if len(_plans) >= _CACHE_SIZE:
        _plans.clear()
    _plans[key] = (template, plan)


def _too_deep(template: Any) -> bool:
    """Whether a template nests deeper than :data:`MAX_TEMPLATE_DEPTH` (checked without recursion)."""
    stack = [(template, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_TEMPLATE_DEPTH:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False


def _compile_template(template: Any, context: str) -> tuple[Any, ...]:
    """A template's plan, or ``(_CONST, None)`` when it needs the generic one.

    Args:
        template: the template.
        context: what the top-level objects are (``hotel``), when the tool's name says.
    """
    if isinstance(template, str):
        text = template.strip()
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):
            parsed = None
        if isinstance(parsed, dict | list):
            template = parsed
        elif leaf_base(text) != "str" or text.lower() in ("str", "string"):
            return _leaf("result", text, context)
        else:
            return (_CONST, None)
    if _too_deep(template):
        return (_CONST, None)
    if isinstance(template, dict) and template:
        return _compile_object(template, context)
    if isinstance(template, list):
        return _compile_list(template, "results", context)
    if isinstance(template, bool | int | float):
        return _leaf("result", template, context)
    return (_CONST, None)


# ------------------------------------------------------------------------------ filling


class _Call:
    __slots__ = ("echo", "entity", "id_arg", "limit")

    def __init__(self, tool: ToolDoc, arguments: Mapping[str, Any], seed: int) -> None:
        self.echo = {normalize_key(k): v for k, v in arguments.items() if v is not None and v != ""}
        self.entity = f"{seed}\x1f{tool.standard_name}\x1f".encode()
        ids = [v for k, v in self.echo.items() if k.endswith("_id")]
        self.id_arg = ids[0] if len(ids) == 1 and "id" not in self.echo else None
        limits = [v for k, v in self.echo.items() if k in _LIMIT_ARGS]
        limit = limits[0] if limits else None
        self.limit = limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def _coerce(value: Any, base: str) -> Any:
    """An argument's value as a field of type ``base`` holds it (as given when it cannot)."""
    if base == "str":
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, list):
            return ",".join(str(v) for v in value)
        if isinstance(value, dict):
            return json.dumps(value, ensure_ascii=False, sort_keys=True)
        return str(value)
    if base in ("int", "float") and not isinstance(value, bool):
        try:
            number = float(value)
        except (TypeError, ValueError, OverflowError):
            return value
        if number != number or number in (float("inf"), float("-inf")):
            return value
        return int(number) if base == "int" else number
    if base == "bool" and isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


def _object(node: tuple[Any, ...], seed: int, call: _Call, level: int) -> dict[str, Any]:
    _, id_fields, scoped, pins, keys, leaves, others, by_norm = node
    echo = call.echo
    own = seed
    id_key = None
    id_value: Any = None
    if id_fields:
        chosen = id_fields[0]
        if len(id_fields) > 1:
            chosen = next((f for f in id_fields if f[1] not in echo), chosen)
        id_key, norm, const, _, _, maker, base, hint = chosen
        if norm in echo:
            id_value = _coerce(echo[norm], base)
        elif level <= 1 and norm == "id" and call.id_arg is not None:
            id_value = _coerce(call.id_arg, base)
        else:
            id_value = maker(((seed + const) * MULTIPLIER >> 32) & SEED_MASK, base, hint, None)
        own = seed_int(call.entity + _id_bytes(id_value))
    hits = echo.keys() & by_norm.keys() if echo else ()
    scope = Scope(own) if scoped else None
    if pins and hits and scope is not None:
        for norm, kind in pins:
            if norm in hits:
                scope.pin(kind, echo[norm])
    # each leaf's bits are mix(own, key constant) unmasked: (own + const) * MULTIPLIER >> 32,
    # with const * MULTIPLIER precomputed; echoed fields and the id are replaced below
    own_product = own * MULTIPLIER
    drawn = {
        key: maker((own_product + product) >> 32, base, hint, scope)
        for key, product, maker, base, hint in leaves
    }
    if not others:
        out = drawn
    else:
        out = dict.fromkeys(keys)
        out.update(drawn)
        for key, const, tag, child in others:
            if tag == _OBJ:
                out[key] = _object(child, mix(own, const), call, level + 1)
            else:
                out[key] = _fill(child, mix(own, const), call, level + 1)
    for norm in hits:
        for key, tag, base, child in by_norm[norm]:
            if tag == _LEAF:
                out[key] = _coerce(echo[norm], base)
            elif tag == _LIST and not child[3]:
                out[key] = _echo_list(echo[norm], child)
    if id_key is not None:
        out[id_key] = id_value
    return out


def _id_bytes(value: Any) -> bytes:
    """An id's value as the bytes its entity's seed is hashed from (``7`` and ``"7"`` agree)."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
    else:
        text = json.dumps(value, default=str, sort_keys=True)
    try:
        return text.encode()
    except UnicodeEncodeError:  # a lone surrogate from a JSON string
        return text.encode("utf-8", "surrogatepass")


def _echo_list(value: Any, node: tuple[Any, ...]) -> list[Any]:
    """An argument given for a list of plain values (a list, or a comma-separated string)."""
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    elif not isinstance(value, list):
        value = [value]
    item = node[1]
    base = item[2] if item[0] == _LEAF else "null"
    return [_coerce(v, base) for v in value[:MAX_LIST_LENGTH]]


def _index(seed: int, i: int) -> int:
    return mix(seed, _INDEX[i] if i < len(_INDEX) else key_constant(f"\x00item{i}"))


def _fill(node: tuple[Any, ...], seed: int, call: _Call, level: int) -> Any:
    tag = node[0]
    if tag == _LEAF:
        scope = Scope(seed) if node[1] in SCOPED_KINDS else None
        return node[4](seed, node[2], node[3], scope)
    if tag == _OBJ:
        return _object(node, seed, call, level)
    if tag == _CONST:
        return node[1]
    if tag == _FIXED:
        return [_fill(item, _index(seed, i), call, level) for i, item in enumerate(node[1])]
    _, item, length, objects = node
    if length is None:
        length = 2 + seed % 4
    length = max(0, min(length, MAX_LIST_LENGTH))
    if objects and call.limit is not None:
        length = min(length, max(call.limit, 0))
    if item[0] == _OBJ and length <= len(_INDEX):  # item seeds: mix(seed, _INDEX[i]), inlined
        return [
            _object(item, (seed + index) * MULTIPLIER >> 32 & SEED_MASK, call, 99)
            for index in _INDEX[:length]
        ]
    return [_fill(item, _index(seed, i), call, 99) for i in range(length)]


def synthesize(tool: ToolDoc, api: ApiDoc, arguments: Mapping[str, Any], seed: int = 0) -> Any:
    """The response of ``api`` of ``tool`` to ``arguments``, the same in any process.

    Args:
        tool: the tool.
        api: the API (its ``template`` is the response skeleton; ``None`` gives a generic one).
        arguments: the call's arguments, by the API's parameter names (canonicalised here:
            key order, ``1`` against ``1.0``, numeric strings and left-out defaults do not matter;
            an optional argument given as ``None`` or ``""`` counts as left out).
        seed: the world's seed.

    Returns:
        A JSON-compatible value: usually an object, as the template says.
    """
    required = {p.name for p in api.required}
    given = {k: v for k, v in arguments.items() if k in required or (v is not None and v != "")}
    return synthesize_canonical(tool, api, canonical_arguments(given, api), seed)


def synthesize_canonical(
    tool: ToolDoc, api: ApiDoc, arguments: dict[str, Any], seed: int = 0
) -> Any:
    """:func:`synthesize` for arguments already in canonical form, as ``validate_call`` gives them.

    Args:
        tool: the tool.
        api: the API.
        arguments: canonical arguments (``canonical_arguments(arguments, api)``).
        seed: the world's seed.
    """
    # canonical arguments are sorted, JSON-like values, so their repr is stable across processes
    text = repr((tool.standard_name, api.name, arguments, seed))
    call = _Call(tool, arguments, seed)
    plan = _plan(tool, api, arguments)
    try:
        root = seed_int(text.encode())
    except UnicodeEncodeError:  # a lone surrogate from a JSON string
        root = seed_int(text.encode("utf-8", "surrogatepass"))
    if plan[0] == _OBJ:
        return _object(plan, root, call, 0)
    return _fill(plan, root, call, 0)
