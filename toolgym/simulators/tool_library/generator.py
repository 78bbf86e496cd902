"""A RapidAPI-style tool library generated from the hand-written domain grammars, fixed by seed.

:func:`generate_library` builds tools for all 49 ToolBench categories (see :mod:`.domains`). Each
tool takes one or two resources of its category and offers 2 to 8 APIs (about 4 on average):
searches and listings that return entities with their ``<entity>_id``, details and sub-resource
listings that require that ``<entity>_id``, and a few operations of its category. Every tool has
at least one API listing ``<entity>_id`` values and another requiring a parameter of exactly that
name, so tasks can chain calls. Tools of one category share parameter names (``city``,
``symbol``, ``date``, ...), so a value one returns can feed another. Tools then join collections
(:data:`~.domains.THEMES`): each collection holds 3 to 12 tools of at least two categories, each
tool is in at most two.

All randomness comes from :func:`~toolgym.simulators.seeding.stable_rng`, one generator per tool
(plus one for the category sequence and one for collections), so a library is the same in every
process and on every machine for a given ``seed`` and ``num_apis``.

>>> lib = generate_library(seed=0, num_apis=400)
>>> lib.num_apis, len(lib.categories)
(400, 49)
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from toolgym.simulators.seeding import stable_rng
from toolgym.simulators.tool_library.domains import (
    CATEGORIES,
    PLACE_PARAMS,
    PLACES,
    THEMES,
    Category,
    Field,
    Operation,
    Resource,
    SubResource,
    param_spec,
    snake,
)
from toolgym.simulators.tool_library.domains import wording as w
from toolgym.simulators.tool_library.domains.common import Place
from toolgym.simulators.tool_library.domains.themes import SUFFIXES
from toolgym.simulators.tool_library.model import ApiDoc, ParamDoc, ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.naming import standardize

T = TypeVar("T")

HOST_DOMAIN = "api.toolgym.test"
"""Every tool's host is ``<standard name with '-' for '_'>.api.toolgym.test``."""

API_COUNTS = (2, 3, 4, 5, 6, 7, 8)
"""How many APIs a tool may have."""

API_COUNT_WEIGHTS = (0.18, 0.29, 0.25, 0.13, 0.08, 0.05, 0.02)
"""The share of tools with each count of :data:`API_COUNTS` (a mean of about 3.9)."""

TOOLS_PER_COLLECTION = 9
"""About one collection is made for this many tools."""

_QUERY_PARAMS = frozenset({"q", "query", "keyword"})


class Draws:
    """Random choices from one :func:`stable_rng` generator, drawn in blocks for speed.

    Args:
        parts: what seeds the generator (see :func:`~toolgym.simulators.seeding.stable_seed`).
    """

    def __init__(self, *parts: object) -> None:
        self._rng = stable_rng(*parts)
        self._block: list[float] = []

    def random(self) -> float:
        """A float in ``[0, 1)``."""
        if not self._block:
            self._block = self._rng.random(128).tolist()
        return self._block.pop()

    def below(self, n: int) -> int:
        """An int in ``[0, n)``."""
        return min(int(self.random() * n), n - 1)

    def pick(self, items: Sequence[T]) -> T:
        """One of ``items``, uniformly."""
        return items[self.below(len(items))]

    def chance(self, p: float) -> bool:
        """``True`` with probability ``p``."""
        return self.random() < p

    def weighted(self, items: Sequence[T], weights: Sequence[float]) -> T:
        """One of ``items`` with probability proportional to its weight."""
        x = self.random() * sum(weights)
        for item, weight in zip(items, weights, strict=True):
            x -= weight
            if x < 0:
                return item
        return items[-1]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items`` (Fisher-Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


@dataclass(frozen=True, slots=True)
class _Plan:
    """One API a tool will have: its kind, resource, sub-resource or operation."""

    kind: str  # "search", "list", "details", "sub" or "op"
    resource: Resource | None = None
    sub: SubResource | None = None
    op: Operation | None = None


@dataclass
class _Tool:
    """A tool being built: its draws and the per-tool style of its document."""

    draw: Draws
    cat: Category
    place: Place
    style: str
    host: str
    string_type: str
    date_type: str
    int_defaults: bool
    numeric_ids: bool
    list_key: str
    ids: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)

    def id_value(self, id_name: str) -> tuple[str, str, str]:
        """The example value, parameter type and template leaf of ``id_name`` in this tool."""
        found = self.ids.get(id_name)
        if found is None:
            if self.numeric_ids:
                value = str(10_000_000 + self.draw.below(90_000_000))
                found = (value, "NUMBER" if self.draw.chance(0.5) else self.string_type, "int")
            else:
                prefix = id_name[:-3].replace("_", "")[:3]
                value = f"{prefix}_{self.draw.below(16**8):08x}"
                found = (value, self.string_type, "str")
            self.ids[id_name] = found
        return found


def _slug(words: str) -> str:
    """``"meal plans"`` → ``"meal-plans"``."""
    return words.lower().replace(" ", "-")


def _plan_words(plan: _Plan, style: str) -> tuple[tuple[str, ...], str]:
    """The words and the URL path of a planned API."""
    if plan.op is not None:
        return (plan.op.name.lower(),), plan.op.path
    res = plan.resource
    assert res is not None
    base = "/" + _slug(res.plural)
    if plan.kind == "search":
        noun = res.singular if style == "terse" else res.plural
        return ("search", noun), f"{base}/search"
    if plan.kind == "list":
        return ("list", res.plural), base
    item = f"{base}/{{{res.id_name}}}"
    if plan.kind == "details":
        return ("get", res.singular, "details"), item
    assert plan.sub is not None
    return ("get", res.singular, plan.sub.plural), f"{item}/{_slug(plan.sub.plural)}"


def _param(tool: _Tool, name: str, taken: set[Any]) -> ParamDoc:
    """The document of parameter ``name`` in ``tool``.

    An example value already ``taken`` by another parameter of the API is avoided when the
    grammar offers another (a conversion's ``from`` and ``to`` differ).
    """
    draw, cat = tool.draw, tool.cat
    spec = param_spec(cat, name)
    if spec is None and name.startswith("include_"):
        what = name[len("include_") :].replace("_", " ")
        return ParamDoc(
            name, "BOOLEAN", f"Whether to include the {what}.", draw.pick(("true", "false"))
        )
    if spec is None:
        if not name.endswith("_id"):
            raise ValueError(f"{cat.name}: expected a known parameter or an *_id, got {name!r}")
        value, type_name, _ = tool.id_value(name)
        noun = w.lower_words(name[:-3].replace("_", " "))
        return ParamDoc(
            name, type_name, w.id_description(draw, noun, tool.sources.get(name, "")), value
        )
    if name in PLACE_PARAMS and name not in cat.params:
        default: Any = getattr(tool.place, PLACE_PARAMS[name])
        default = str(default)
    elif name in _QUERY_PARAMS and name not in cat.params:
        default = draw.pick(cat.queries)
    else:
        fresh = [e for e in spec.examples if e not in taken]
        default = draw.pick(fresh or spec.examples)
    enum = None
    description = spec.description
    if spec.type == "ENUM" and spec.enum is not None:
        if draw.chance(0.2):
            type_name = tool.string_type
            description = f"{description} One of: {', '.join(spec.enum)}."
        else:
            type_name, enum = "ENUM", spec.enum
    elif spec.type == "STRING":
        type_name = tool.string_type
    elif spec.type == "DATE":
        type_name = tool.date_type
    else:
        type_name = spec.type
    if type_name == "NUMBER" and tool.int_defaults and str(default).lstrip("-").isdigit():
        default = int(default)
    return ParamDoc(name, type_name, description, default, enum)


def _fields(tool: _Tool, fields: Sequence[Field]) -> dict[str, Any]:
    """The template of ``fields`` (an id the tool knows takes the tool's id leaf)."""
    return {f.name: tool.ids[f.name][2] if f.name in tool.ids else f.type for f in fields}


def _listed(tool: _Tool, entry: dict[str, Any]) -> list[dict[str, Any]]:
    """A template list: one element carrying its ``_list_length`` (1 to 5)."""
    return [{**entry, "_list_length": 1 + tool.draw.below(5)}]


def _template(tool: _Tool, plan: _Plan) -> dict[str, Any]:
    """The response template of a planned API (ToolBench's ``template_response``)."""
    draw = tool.draw
    if plan.op is not None:
        out = _fields(tool, plan.op.returns)
        if plan.op.list_key:
            out[plan.op.list_key] = _listed(tool, _fields(tool, plan.op.list_fields))
        return out
    res = plan.resource
    assert res is not None
    id_leaf = tool.id_value(res.id_name)[2]
    if plan.kind in ("search", "list"):
        shown = res.fields[: 3 + draw.below(4)]
        key = snake(res.plural) if tool.list_key == "plural" else tool.list_key
        out = {key: _listed(tool, {res.id_name: id_leaf, **_fields(tool, shown)})}
        out[draw.pick(("total", "count"))] = "int"
        if draw.chance(0.3):
            out["page"] = "int"
        return out
    if plan.kind == "details":
        entity = {res.id_name: id_leaf, **_fields(tool, res.fields)}
        return {"success": "bool", "data": entity} if draw.chance(0.2) else entity
    sub = plan.sub
    assert sub is not None
    element = _fields(tool, sub.fields)
    if sub.with_id:
        element = {sub.id_name: tool.id_value(sub.id_name)[2], **element}
    return {res.id_name: id_leaf, snake(sub.plural): _listed(tool, element), "total": "int"}


def _params(tool: _Tool, plan: _Plan) -> tuple[list[str], list[str]]:
    """The required and optional parameter names of a planned API."""
    draw = tool.draw
    if plan.op is not None:
        return list(plan.op.required), list(plan.op.optional)
    res = plan.resource
    assert res is not None
    paging = [p for p, chance in (("limit", 0.45), ("page", 0.25)) if draw.chance(chance)]
    if plan.kind == "search":
        required = [n for n, needed in res.filters if needed]
        optional = [n for n, needed in res.filters if not needed and draw.chance(0.7)]
        if draw.chance(0.15):
            optional.append("sort")
        return required, [*optional, *paging]
    if plan.kind == "list":
        return [], paging
    if plan.kind == "details":
        extra = ["lang"] if draw.chance(0.15) else []
        if res.subs and draw.chance(0.3):
            extra.append(f"include_{snake(draw.pick(res.subs).plural)}")
        return [res.id_name], extra
    return [res.id_name], paging


def _describe(tool: _Tool, plan: _Plan, required: list[ParamDoc], optional: list[ParamDoc]) -> str:
    """The description of a planned API (its first sentence imperative)."""
    draw, res = tool.draw, plan.resource
    if plan.op is not None:
        return plan.op.description
    assert res is not None
    if plan.kind == "search":
        cat = tool.cat
        req = [s for s in (param_spec(cat, p.name) for p in required) if s is not None]
        opt = [
            s
            for s in (param_spec(cat, p.name) for p in optional)
            if s is not None and s.name not in ("limit", "page", "sort")
        ]
        return w.search_description(draw, res, req, opt)
    if plan.kind == "list":
        return w.list_description(draw, res)
    if plan.kind == "details":
        return w.details_description(draw, res)
    assert plan.sub is not None
    return w.sub_description(draw, res, plan.sub)


def _offer(plan: _Plan) -> str:
    """What an API offers, in words, for the tool description."""
    if plan.op is not None:
        return plan.op.name
    res = plan.resource
    assert res is not None
    if plan.kind == "search":
        return f"search {res.plural}"
    if plan.kind == "list":
        return f"browse {res.plural}"
    if plan.kind == "details":
        return f"get {res.singular} details"
    assert plan.sub is not None
    return f"list the {plan.sub.plural} of {w.a(res.singular)}"


def _resource_plans(res: Resource) -> list[_Plan]:
    """The optional APIs of a resource: its listing and its sub-resource listings."""
    return [
        _Plan("list", res),
        *(_Plan("sub", res, sub=s) for s in res.subs),
    ]


def _choose_plans(draw: Draws, cat: Category, count: int) -> list[_Plan]:
    """``count`` APIs: a search and a details of a primary resource, then others.

    A second resource, when taken, comes with its own search and details, and an operation
    that requires an ``<entity>_id`` is taken only when a search of the tool lists it (unless
    nothing else is left), so every id a tool requires is one that another of its APIs lists.
    """
    first = draw.pick(cat.resources)
    others = [r for r in cat.resources if r is not first]
    ops = [_Plan("op", op=op) for op in cat.operations]
    plans = [_Plan("search", first), _Plan("details", first)]
    if others and count >= 4 and (count - 2 > len(first.subs) + 1 or draw.chance(0.35)):
        fits = [r for r in others if _capacity(cat, first, r) >= count]
        second = draw.pick(fits) if fits else max(others, key=lambda r: _capacity(cat, first, r))
        plans += [_Plan("search", second), _Plan("details", second)]
    chosen = [p.resource for p in plans if p.kind == "search"]
    listed = {r.id_name for r in chosen if r is not None}
    usable = [p for p in ops if _ids_needed(p) <= listed]
    pool = [p for r in chosen if r is not None for p in _resource_plans(r)] + usable
    plans += draw.shuffled(pool)[: count - len(plans)]
    if len(plans) < count:
        plans += draw.shuffled([p for p in ops if p not in usable])[: count - len(plans)]
    order = {"search": 0, "list": 1, "details": 2, "sub": 3, "op": 4}
    resources = list(cat.resources)
    return sorted(
        plans,
        key=lambda p: (
            p.op is not None,
            resources.index(p.resource) if p.resource else 0,
            order[p.kind],
        ),
    )


def _capacity(cat: Category, first: Resource, second: Resource) -> int:
    """How many APIs a tool of resources ``first`` and ``second`` can have, ids all listed."""
    listed = {first.id_name, second.id_name}
    ops = [op for op in cat.operations if {n for n in op.required if n.endswith("_id")} <= listed]
    return 6 + len(first.subs) + len(second.subs) + len(ops)


def _ids_needed(plan: _Plan) -> set[str]:
    """The ``<entity>_id`` parameters an operation requires."""
    assert plan.op is not None
    return {name for name in plan.op.required if name.endswith("_id")}


def _api_count(draw: Draws, remaining: int) -> int:
    """How many APIs the next tool gets so that the library ends with exactly the total."""
    if remaining <= API_COUNTS[-1]:
        return remaining
    count = draw.weighted(API_COUNTS, API_COUNT_WEIGHTS)
    return count - 1 if remaining - count == 1 else count


def _unique_name(draw: Draws, cat: Category, res: Resource, place: Place, taken: set[str]) -> str:
    """A display name whose standardized form is not ``taken`` (then added to it)."""
    name = key = ""
    for _ in range(8):
        name = w.tool_name(draw, cat, res, place)
        key = standardize(name)
        if key not in taken:
            break
    attempt = 0
    while key in taken:
        attempt += 1
        name = w.name_variant(draw, name) if attempt < 4 else f"{name} {attempt}"
        key = standardize(name)
    taken.add(key)
    return name


def _build_tool(seed: int, index: int, cat: Category, count: int, taken: set[str]) -> ToolDoc:
    """Tool number ``index`` of the library, of category ``cat`` with ``count`` APIs."""
    draw = Draws(seed, "tool", index)
    place = draw.pick(PLACES)
    plans = _choose_plans(draw, cat, count)
    primary = plans[0].resource
    assert primary is not None
    name = _unique_name(draw, cat, primary, place, taken)
    standard_name = standardize(name)
    tool = _Tool(
        draw=draw,
        cat=cat,
        place=place,
        style=draw.weighted(w.NAME_STYLES, w.NAME_STYLE_WEIGHTS),
        host=f"{standard_name.replace('_', '-')}.{HOST_DOMAIN}",
        string_type="string" if draw.chance(0.12) else "STRING",
        date_type="DATE (YYYY-MM-DD)" if draw.chance(0.6) else "STRING",
        int_defaults=draw.chance(0.2),
        numeric_ids=draw.chance(0.5),
        list_key=draw.pick(("results", "data", "items", "plural")),
    )
    named: list[tuple[_Plan, str, str]] = []
    seen: set[str] = set()
    for plan in plans:
        words, path = _plan_words(plan, tool.style)
        api = w.api_name(tool.style, words, path)
        key = standardize(api)
        if key in seen:
            api = w.api_name("title", words, path)
            key = standardize(api)
        seen.add(key)
        named.append((plan, api, path))
        if plan.kind == "search" and plan.resource is not None:
            tool.sources.setdefault(plan.resource.id_name, f"the {api} endpoint")
    apis = []
    for plan, api, path in named:
        required_names, optional_names = _params(tool, plan)
        required_names = list(dict.fromkeys(required_names))
        optional_names = [n for n in dict.fromkeys(optional_names) if n not in required_names]
        used_defaults: set[Any] = set()
        params = []
        for n in [*required_names, *optional_names]:
            params.append(_param(tool, n, used_defaults))
            used_defaults.add(params[-1].default)
        required, optional = params[: len(required_names)], params[len(required_names) :]
        url_path = path
        for p in required:
            url_path = url_path.replace("{" + p.name + "}", str(p.default))
        apis.append(
            ApiDoc(
                name=api,
                method=plan.op.method if plan.op is not None else "GET",
                url=f"https://{tool.host}{url_path}",
                description=_describe(tool, plan, required, optional),
                required=tuple(required),
                optional=tuple(optional),
                template=_template(tool, plan),
            )
        )
    offers = [w.lower_words(_offer(p)) for p in plans]
    description = w.tool_description(draw, name, cat, offers)
    return ToolDoc(name, standard_name, description, cat.name, tuple(apis), (), tool.host)


def _collections(seed: int, categories: Sequence[str]) -> list[list[str]]:
    """The collections of each tool (by index), from the themes (see the module docstring)."""
    draw = Draws(seed, "collections")
    by_category: dict[str, list[int]] = {}
    for index, name in enumerate(categories):
        by_category.setdefault(name, []).append(index)
    memberships: list[list[str]] = [[] for _ in categories]
    themes = draw.shuffled(THEMES)
    wanted = max(1, round(len(categories) / TOOLS_PER_COLLECTION))
    for k in range(wanted):
        theme, round_ = themes[k % len(themes)], k // len(themes)
        suffix = SUFFIXES[round_] if round_ < len(SUFFIXES) else f"Collection {round_ + 1}"
        label = f"{theme.name} {suffix}".strip()
        pools = {
            c: [t for t in by_category.get(c, ()) if len(memberships[t]) < 2]
            for c in theme.categories
        }
        open_categories = draw.shuffled([c for c in theme.categories if pools[c]])
        if len(open_categories) < 2 or sum(len(p) for p in pools.values()) < 3:
            continue
        size = 3 + draw.below(5) + draw.below(6)
        chosen = [draw.pick(pools[c]) for c in open_categories][:size]
        rest = [t for c in open_categories for t in pools[c] if t not in chosen]
        while len(chosen) < size and rest:
            chosen.append(rest.pop(draw.below(len(rest))))
        for t in chosen:
            memberships[t].append(label)
    return memberships


def _category_sequence(seed: int) -> Iterator[Category]:
    """The categories of successive tools: each one once (shuffled), then by weight."""
    draw = Draws(seed, "categories")
    yield from draw.shuffled(CATEGORIES)
    weights = [c.weight for c in CATEGORIES]
    while True:
        yield draw.weighted(CATEGORIES, weights)


@functools.lru_cache(maxsize=8)
def generate_library(seed: int = 0, num_apis: int = 4000) -> ToolLibrary:
    """A RapidAPI-style tool library of exactly ``num_apis`` APIs, fixed by ``seed``.

    The library has exactly ``num_apis`` APIs (the last tool takes what is left). With the
    default size it has all 49 categories, about 1,030 tools and about 115 collections;
    ``num_apis=16464`` gives ToolBench's API count (about 4,250 tools, 470 collections). Results
    are cached: treat the returned library as read-only.

    Args:
        seed: what fixes the library.
        num_apis: the total number of APIs (at least 2).

    Raises:
        ValueError: ``num_apis`` below 2.
    """
    if num_apis < 2:
        raise ValueError(f"num_apis must be at least 2, got {num_apis}")
    taken: set[str] = set()
    tools: list[ToolDoc] = []
    sequence = _category_sequence(seed)
    count_draw = Draws(seed, "api-counts")
    remaining = num_apis
    while remaining > 0:
        count = _api_count(count_draw, remaining)
        tools.append(_build_tool(seed, len(tools), next(sequence), count, taken))
        remaining -= count
    memberships = _collections(seed, [t.category for t in tools])
    return ToolLibrary(
        ToolDoc(t.name, t.standard_name, t.description, t.category, t.apis, tuple(m), t.host)
        for t, m in zip(tools, memberships, strict=True)
    )
