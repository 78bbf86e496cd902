"""The shapes of a domain grammar: categories, their resources, operations and parameters.

Grammars are written in a small line-based text form read by :func:`parse_category` (see its
docstring) and :func:`parse_params`; the builders :func:`category`, :func:`resource`, :func:`sub`,
:func:`operation` and :func:`param` check each part. Field lists are space-separated names, each
optionally typed (``"name stars:int price:float"``; an untyped name takes its type from
:data:`~toolgym.simulators.tool_library.domains.fields.FIELD_TYPES`, else ``str``).

>>> [f.name for f in parse_fields("name stars:int")], parse_fields("stars:int")[0].type
(['name', 'stars'], 'int')
>>> parse_filters("city stars? max_price?")
(('city', True), ('stars', False), ('max_price', False))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from toolgym.simulators.tool_library.domains.fields import FIELD_TYPES

LEAF_TYPES = ("str", "int", "float", "bool")
"""The leaves of a response template (ToolBench's ``template_response``)."""

PARAM_TYPES = ("STRING", "NUMBER", "BOOLEAN", "ENUM", "DATE")
"""The parameter types a grammar names (``DATE`` is written ``DATE (YYYY-MM-DD)`` in documents)."""


@dataclass(frozen=True, slots=True)
class Field:
    """A field of an entity or of an operation's response.

    Attributes:
        name: the snake_case key.
        type: its template leaf (``str``, ``int``, ``float`` or ``bool``).
    """

    name: str
    type: str = "str"


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """A parameter the grammar knows, with what a document says about it.

    Attributes:
        name: the parameter name.
        type: one of :data:`PARAM_TYPES`.
        description: one sentence for the document.
        examples: example values; the generator picks one per tool as the ``default``.
        enum: the allowed values of an ``ENUM``.
        label: a noun phrase for API descriptions ("star rating").
        phrase: how a search narrows by it ("in a city").
    """

    name: str
    type: str
    description: str
    examples: tuple[str | int, ...] = ()
    enum: tuple[str, ...] | None = None
    label: str = ""
    phrase: str = ""

    @property
    def noun(self) -> str:
        """The label, or the name in words."""
        return self.label or self.name.replace("_", " ")

    @property
    def by(self) -> str:
        """The search phrase, or ``by <noun>``."""
        return self.phrase or f"by {self.noun}"


@dataclass(frozen=True, slots=True)
class SubResource:
    """Entities listed under one entity of a resource (a hotel's reviews).

    Attributes:
        singular: the noun for one ("review").
        plural: the noun for many ("reviews").
        fields: the fields of each listed entity.
        with_id: whether each listed entity carries its own ``<singular>_id``.
        id_name: ``<singular>_id`` in snake_case (derived when left empty).
    """

    singular: str
    plural: str
    fields: tuple[Field, ...]
    with_id: bool = True
    id_name: str = ""

    def __post_init__(self) -> None:
        if not self.id_name:
            object.__setattr__(self, "id_name", snake(self.singular) + "_id")


@dataclass(frozen=True, slots=True)
class Resource:
    """An entity type of a category (a hotel, a stock, a recipe).

    Attributes:
        singular: the noun for one, in words ("meal plan").
        plural: the noun for many ("meal plans").
        fields: the entity's fields, the summary fields first.
        filters: the search parameters, each ``(name, required)``.
        subs: the sub-resources listed under one entity.
        id_name: ``<singular>_id`` in snake_case (derived when left empty).
    """

    singular: str
    plural: str
    fields: tuple[Field, ...]
    filters: tuple[tuple[str, bool], ...]
    subs: tuple[SubResource, ...] = ()
    id_name: str = ""

    def __post_init__(self) -> None:
        if not self.id_name:
            object.__setattr__(self, "id_name", snake(self.singular) + "_id")


@dataclass(frozen=True, slots=True)
class Operation:
    """A category-specific operation (convert a currency, detect a text's sentiment).

    Attributes:
        name: the display name in Title Case words ("Convert Currency").
        description: an imperative sentence ending with a period.
        required: the required parameter names.
        optional: the optional parameter names.
        returns: the top-level response fields.
        list_key: the key of a listed part of the response, or ``""``.
        list_fields: the fields of each listed element.
        path: the URL path ("/convert").
        method: ``GET`` or ``POST``.
    """

    name: str
    description: str
    required: tuple[str, ...]
    optional: tuple[str, ...]
    returns: tuple[Field, ...]
    list_key: str = ""
    list_fields: tuple[Field, ...] = ()
    path: str = ""
    method: str = "GET"


@dataclass(frozen=True, slots=True)
class Category:
    """The grammar of one ToolBench category.

    Attributes:
        name: the category's display name ("Health and Fitness").
        resources: its entity types (2 to 5).
        operations: its specific operations.
        brands: words that tool names are built from ("Stay", "Trip").
        topics: noun phrases of what its tools offer ("hotel and flight search").
        queries: example search terms (defaults of ``q`` and ``query``).
        params: its own parameters, by name (they override the common ones).
        weight: its relative share of the tools.
    """

    name: str
    resources: tuple[Resource, ...]
    operations: tuple[Operation, ...]
    brands: tuple[str, ...]
    topics: tuple[str, ...]
    queries: tuple[str, ...]
    params: dict[str, ParamSpec] = field(default_factory=dict)
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class Theme:
    """A collection theme: tools of a few categories that a task may combine.

    Attributes:
        name: the collection name ("Travel Planning").
        categories: the category display names (2 to 4).
    """

    name: str
    categories: tuple[str, ...]


def snake(words: str) -> str:
    """``"meal plan"`` → ``"meal_plan"`` (lower case, spaces and hyphens as ``_``)."""
    return words.strip().lower().replace(" ", "_").replace("-", "_")


def parse_fields(spec: str) -> tuple[Field, ...]:
    """Fields from ``"name stars:int price"`` (see the module docstring).

    Raises:
        ValueError: an unknown type or a repeated name.
    """
    out: list[Field] = []
    for token in spec.split():
        name, _, leaf = token.partition(":")
        leaf = leaf or FIELD_TYPES.get(name, "str")
        if leaf not in LEAF_TYPES:
            raise ValueError(f"field {name!r}: expected a type in {LEAF_TYPES}, got {leaf!r}")
        if any(f.name == name for f in out):
            raise ValueError(f"field list {spec!r}: expected unique names, got {name!r} twice")
        out.append(Field(name, leaf))
    return tuple(out)


def parse_filters(spec: str) -> tuple[tuple[str, bool], ...]:
    """Search parameters from ``"city stars?"``: a trailing ``?`` marks an optional one."""
    return tuple((t.rstrip("?"), not t.endswith("?")) for t in spec.split())


def param(
    name: str,
    type: str,
    description: str,
    *examples: str | int,
    enum: Iterable[str] | None = None,
    label: str = "",
    phrase: str = "",
) -> ParamSpec:
    """A :class:`ParamSpec`; an ``ENUM`` without examples takes its first value as example.

    Raises:
        ValueError: an unknown type, an ``ENUM`` without values, or no example.
    """
    if type not in PARAM_TYPES:
        raise ValueError(f"parameter {name!r}: expected a type in {PARAM_TYPES}, got {type!r}")
    values = tuple(enum) if enum is not None else None
    if type == "ENUM" and not values:
        raise ValueError(f"parameter {name!r}: expected enum values for an ENUM, got none")
    if not examples and values:
        examples = (values[0],)
    if not examples:
        raise ValueError(f"parameter {name!r}: expected at least one example value, got none")
    return ParamSpec(name, type, description, tuple(examples), values, label, phrase)


def sub(singular: str, plural: str, fields: str, with_id: bool = True) -> SubResource:
    """A :class:`SubResource` from a field list."""
    return SubResource(singular, plural, parse_fields(fields), with_id)


def resource(singular: str, plural: str, fields: str, filters: str, *subs: SubResource) -> Resource:
    """A :class:`Resource` from a field list and a filter list.

    Raises:
        ValueError: fewer than 4 or more than 10 fields, or no filter.
    """
    parsed = parse_fields(fields)
    if not 4 <= len(parsed) <= 10:
        raise ValueError(f"resource {singular!r}: expected 4 to 10 fields, got {len(parsed)}")
    searched = parse_filters(filters)
    if not searched:
        raise ValueError(f"resource {singular!r}: expected at least one filter, got none")
    return Resource(singular, plural, parsed, searched, subs)


def operation(
    name: str,
    description: str,
    required: str = "",
    optional: str = "",
    returns: str = "",
    *,
    path: str = "",
    method: str = "GET",
) -> Operation:
    """An :class:`Operation`; ``returns`` is ``"top fields | list_key: element fields"``.

    Raises:
        ValueError: a description that is not one sentence ending with a period, or a
            response without fields.
    """
    if not description.endswith(".") or not description[:1].isupper():
        raise ValueError(
            f"operation {name!r}: expected a capitalised description ending with '.', "
            f"got {description!r}"
        )
    top, _, listed = returns.partition("|")
    key, _, element = listed.partition(":")
    top_fields, element_fields = parse_fields(top), parse_fields(element)
    if not top_fields and not element_fields:
        raise ValueError(f"operation {name!r}: expected response fields, got {returns!r}")
    words = name.lower().split()
    return Operation(
        name=name,
        description=description,
        required=tuple(required.split()),
        optional=tuple(optional.split()),
        returns=top_fields,
        list_key=key.strip(),
        list_fields=element_fields,
        path=path or "/" + "-".join(words),
        method=method,
    )


def category(
    name: str,
    *,
    resources: Iterable[Resource],
    operations: Iterable[Operation],
    brands: str,
    topics: Iterable[str],
    queries: Iterable[str],
    params: Iterable[ParamSpec] = (),
    weight: float = 1.0,
) -> Category:
    """A :class:`Category`; ``brands`` is a space-separated word list.

    Raises:
        ValueError: fewer than 2 or more than 5 resources.
    """
    found = tuple(resources)
    if not 2 <= len(found) <= 5:
        raise ValueError(f"category {name!r}: expected 2 to 5 resources, got {len(found)}")
    return Category(
        name=name,
        resources=found,
        operations=tuple(operations),
        brands=tuple(brands.split()),
        topics=tuple(topics),
        queries=tuple(queries),
        params={p.name: p for p in params},
        weight=weight,
    )


def _items(text: str) -> tuple[str, ...]:
    """``"a; b ;c"`` → ``("a", "b", "c")`` (empty items dropped)."""
    return tuple(t.strip() for t in text.split(";") if t.strip())


def parse_params(text: str) -> tuple[ParamSpec, ...]:
    """Parameters, one a line: ``name TYPE | description | ex1; ex2 | label | phrase``.

    The examples of an ``ENUM`` are its values; label and phrase may be left out.

    >>> parse_params("stars NUMBER | Minimum star rating. | 4; 3 | star rating")[0].examples
    ('4', '3')

    Raises:
        ValueError: a line without a name, a type and a description.
    """
    out = []
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        parts = [p.strip() for p in line.split("|")]
        head = parts[0].split()
        if len(head) != 2 or len(parts) < 2:
            raise ValueError(f"expected 'name TYPE | description | examples', got {line!r}")
        name, kind = head
        values = _items(parts[2]) if len(parts) > 2 else ()
        label = parts[3] if len(parts) > 3 else ""
        phrase = parts[4] if len(parts) > 4 else ""
        if kind == "ENUM":
            out.append(param(name, kind, parts[1], enum=values, label=label, phrase=phrase))
        else:
            out.append(param(name, kind, parts[1], *values, label=label, phrase=phrase))
    return tuple(out)


_HEAD_KEYS = ("category", "weight", "brands", "topics", "queries")


def _nouns(text: str) -> tuple[str, str]:
    """``"meal plan/meal plans"`` → ``("meal plan", "meal plans")``."""
    singular, _, plural = text.partition("/")
    if not plural:
        raise ValueError(f"expected 'singular/plural', got {text!r}")
    return singular.strip(), plural.strip()


def parse_category(text: str) -> Category:
    """A category from its text form, one statement a line (indented lines belong above).

    ::

        category: Travel
        weight: 1.6
        brands: Stay Trip Fare
        topics: hotel and flight search; trip planning
        queries: beach resort; city break
        resource hotel/hotels: name city stars price rating
          search: city stars? max_price?
          sub review/reviews: author rating text date
          sub- step/steps: instruction distance_km        (listed without their own id)
        op GET /convert Convert Currency: Convert an amount from one currency to another.
          in: from to amount | date                       (required | optional)
          out: result rate date | history: date rate      (top fields | list key: fields)
        param stars NUMBER | Minimum star rating. | 4; 3 | star rating | phrase

    Raises:
        ValueError: an unknown statement or a part that its builder refuses.
    """
    head: dict[str, str] = {"weight": "1"}
    resources: list[dict[str, Any]] = []
    ops: list[dict[str, Any]] = []
    params: list[str] = []
    current: dict[str, Any] | None = None
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        key, _, rest = line.partition(" ")
        if raw.startswith(" "):
            if current is None:
                raise ValueError(f"expected an indented line under a resource or op, got {line!r}")
            if key in ("sub", "sub-"):
                nouns, _, fields = rest.partition(":")
                current["subs"].append(sub(*_nouns(nouns), fields, with_id=key == "sub"))
            elif key in ("search:", "in:", "out:"):
                current[key[:-1]] = rest
            else:
                raise ValueError(f"expected 'search:', 'sub', 'in:' or 'out:', got {line!r}")
        elif key == "resource":
            nouns, _, fields = rest.partition(":")
            current = {"nouns": nouns, "fields": fields, "search": "", "subs": []}
            resources.append(current)
        elif key == "op":
            method, path, rest = rest.split(" ", 2)
            name, _, description = rest.partition(": ")
            current = {"method": method, "path": path, "name": name, "description": description}
            ops.append(current)
        elif key == "param":
            params.append(rest)
            current = None
        elif key[:-1] in _HEAD_KEYS and key.endswith(":"):
            head[key[:-1]] = rest.strip()
            current = None
        else:
            raise ValueError(f"expected a category statement, got {line!r}")
    built_resources = [
        resource(*_nouns(r["nouns"]), r["fields"], r["search"], *r["subs"]) for r in resources
    ]
    built_ops = []
    for o in ops:
        required, _, optional = o.get("in", "").partition("|")
        built_ops.append(
            operation(
                o["name"].strip(),
                o["description"].strip(),
                required,
                optional,
                o.get("out", ""),
                path=o["path"],
                method=o["method"],
            )
        )
    return category(
        head.get("category", ""),
        resources=built_resources,
        operations=built_ops,
        brands=head.get("brands", ""),
        topics=_items(head.get("topics", "")),
        queries=_items(head.get("queries", "")),
        params=parse_params("\n".join(params)),
        weight=float(head["weight"]),
    )
