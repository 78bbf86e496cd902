"""Generated Seal-Tools instances over a world's converted tools.

Three kinds, as in Seal-Tools:

* ``single``: one call of any API;
* ``multiple``: 2 to 4 independent calls of different APIs of one category;
* ``nested``: 2 or 3 calls of one category where a later call takes a response of an earlier
  one: a parameter of the later API has the name of a response field of the earlier one
  (``getLoanOfferDetails(loan_offer_id)`` after ``searchLoanOffers``, whose results carry
  ``loan_offer_id``; an id, or a text field such as a country code, never a search's query,
  page or limit), and its value is that field's placeholder. A third call, when there is one,
  takes a response of either earlier call, or is independent.

Placeholders are numbered as Seal-Tools numbers them: one ``API_call_<k>`` per response field of
each call's tool, across the calls in order. Each call gives its required arguments and some of
its optional ones, drawn with :func:`~toolgym.simulators.tool_library.values.sample_argument`;
the query asks for each call in words (:mod:`.phrasing`) with every value as written. A task
offers :data:`OFFERED` tools: its gold tools and others of the same category, shuffled.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from toolgym.benchmarks.tasks import Task
from toolgym.families.seal_tools.calls import calling_text, numbering
from toolgym.families.seal_tools.convert import ConvertedApi, converted_library
from toolgym.families.seal_tools.tasks import phrasing
from toolgym.simulators.tool_library.model import ParamDoc
from toolgym.simulators.tool_library.values import sample_argument

OFFERED = 5
"""How many tools a task offers."""

OPTIONAL_SHARE = 0.35
"""The chance that a call gives each optional argument."""

THIRD_CALL = 0.4
"""The chance that a nested task has a third call."""

ID_LINKS = 0.6
"""The chance that a nested task's first link passes an id (when its category has such links)."""


@dataclass(frozen=True)
class Link:
    """A response of one API that a parameter of another takes.

    Attributes:
        producer: the index of the API that returns the field.
        field: the response field's position among the producer's responses.
        consumer: the index of the API that takes it.
        param: the consumer's parameter (the field's name).
    """

    producer: int
    field: int
    consumer: int
    param: str


@dataclass(frozen=True)
class Catalog:
    """A world's APIs by category, and the links between them.

    Attributes:
        apis: every converted API, in library order.
        categories: category -> indices of its APIs.
        links: category -> the links between its APIs.
    """

    apis: tuple[ConvertedApi, ...]
    categories: dict[str, tuple[int, ...]]
    links: dict[str, tuple[Link, ...]]

    def category(self, index: int) -> str:
        """The category of API ``index``."""
        return self.apis[index].tool.category


UNLINKED = frozenset({"q", "query", "lang", "sort", "limit", "page", "offset"})
"""Parameters a nested call never takes from a response (they shape a search, not name a thing)."""


def _linkable(param: str, field: Mapping[str, Any]) -> bool:
    """Whether a response field can feed a parameter of its name: an id, or a text value."""
    return param not in UNLINKED and (param.endswith("_id") or field.get("type") == "str")


@functools.lru_cache(maxsize=8)
def catalog(world_seed: int) -> Catalog:
    """The world's catalog (built once per process)."""
    apis = converted_library(world_seed)
    categories: dict[str, list[int]] = {}
    for index, api in enumerate(apis):
        categories.setdefault(api.tool.category, []).append(index)
    links: dict[str, tuple[Link, ...]] = {}
    for category, members in categories.items():
        found = []
        for producer in members:
            responses = apis[producer].seal.responses
            fields = list(responses)
            for consumer in members:
                if apis[consumer].api.description == apis[producer].api.description:
                    continue  # the same API of another tool (or itself)
                for param in apis[consumer].seal.parameters:
                    if param in fields and _linkable(param, responses[param]):
                        found.append(Link(producer, fields.index(param), consumer, param))
        if found:
            links[category] = tuple(found)
    return Catalog(apis, {k: tuple(v) for k, v in categories.items()}, links)


@dataclass
class _Call:
    index: int
    arguments: dict[str, Any]
    uses: tuple[int, str, str] | None = None  # (producer step, field, param)


def _value(param: ParamDoc, parts: tuple[Any, ...]) -> Any:
    """A drawn value for ``param`` that a query can show (never an empty string)."""
    value: Any = ""
    for attempt in range(4):
        value = sample_argument(param, (*parts, attempt))
        if not isinstance(value, str) or value.strip():
            return value
    return value or param.name


def _arguments(
    api: ConvertedApi, rng: np.random.Generator, parts: tuple[Any, ...], skip: str = ""
) -> dict[str, Any]:
    required = {p.name for p in api.api.required}
    out: dict[str, Any] = {}
    for position, param in enumerate(api.api.params):
        if param.name == skip:
            continue
        if param.name in required or rng.random() < OPTIONAL_SHARE:
            out[param.name] = _value(param, (*parts, position))
    return out


def _single(cat: Catalog, rng: np.random.Generator, parts: tuple[Any, ...]) -> list[_Call]:
    index = int(rng.integers(len(cat.apis)))
    return [_Call(index, _arguments(cat.apis[index], rng, (*parts, 0)))]


def _multiple(cat: Catalog, rng: np.random.Generator, parts: tuple[Any, ...]) -> list[_Call]:
    first = int(rng.integers(len(cat.apis)))
    members = cat.categories[cat.category(first)]
    count = min(int(rng.integers(2, 5)), len(members))
    others = [m for m in members if m != first]
    picked = [first, *(others[int(i)] for i in rng.permutation(len(others))[: count - 1])]
    return [_Call(i, _arguments(cat.apis[i], rng, (*parts, k))) for k, i in enumerate(picked)]


def _nested(cat: Catalog, rng: np.random.Generator, parts: tuple[Any, ...]) -> list[_Call]:
    names = sorted(cat.links)
    links = cat.links[names[int(rng.integers(len(names)))]]
    ids = tuple(other for other in links if other.param.endswith("_id"))
    pool = ids if ids and rng.random() < ID_LINKS else links
    link = pool[int(rng.integers(len(pool)))]
    calls = [
        _Call(link.producer, _arguments(cat.apis[link.producer], rng, (*parts, 0))),
        _Call(
            link.consumer,
            _arguments(cat.apis[link.consumer], rng, (*parts, 1), skip=link.param),
            (0, link.param, link.param),
        ),
    ]
    if rng.random() < THIRD_CALL:
        used = {link.producer, link.consumer}
        onward = [other for other in links if other.producer in used and other.consumer not in used]
        if onward:
            nxt = onward[int(rng.integers(len(onward)))]
            step = 0 if nxt.producer == link.producer else 1
            api = cat.apis[nxt.consumer]
            arguments = _arguments(api, rng, (*parts, 2), skip=nxt.param)
            calls.append(_Call(nxt.consumer, arguments, (step, nxt.param, nxt.param)))
        else:
            members = [m for m in cat.categories[cat.category(link.producer)] if m not in used]
            if members:
                index = members[int(rng.integers(len(members)))]
                calls.append(_Call(index, _arguments(cat.apis[index], rng, (*parts, 2))))
    return calls


MAKERS = {"single": _single, "multiple": _multiple, "nested": _nested}
"""How each kind of task draws its calls."""


def _calling(cat: Catalog, calls: Sequence[_Call]) -> list[dict[str, Any]]:
    """The gold calling list: arguments in declaration order, placeholders numbered."""
    apis = [cat.apis[c.index].seal for c in calls]
    placeholders = numbering([len(a.responses) for a in apis])
    out = []
    for call, seal, responses in zip(calls, apis, placeholders, strict=True):
        arguments = dict(call.arguments)
        if call.uses is not None:
            step, field, param = call.uses
            producer = apis[step]
            arguments[param] = placeholders[step][list(producer.responses).index(field)]
        ordered = {n: arguments[n] for n in seal.parameters if n in arguments}
        out.append({"api": seal.api_name, "parameters": ordered, "responses": responses})
    return out


def _query(cat: Catalog, calls: Sequence[_Call], rng: np.random.Generator) -> str:
    nested = any(c.uses is not None for c in calls)
    sentences = []
    for k, call in enumerate(calls):
        api = cat.apis[call.index]
        given = [(n, v) for n, v in call.arguments.items()]
        uses = ""
        if call.uses is not None:
            uses = phrasing.reference(call.uses[1], call.uses[0] + 1, rng)
        opener = phrasing.opener(k, len(calls), nested, rng)
        sentences.append(phrasing.request(rng, api.api.description, given, uses, opener))
    return " ".join(sentences)


def _offered(cat: Catalog, calls: Sequence[_Call], rng: np.random.Generator) -> tuple[str, ...]:
    gold = list(dict.fromkeys(c.index for c in calls))
    members = [m for m in cat.categories[cat.category(gold[0])] if m not in gold]
    extra = [members[int(i)] for i in rng.permutation(len(members))[: OFFERED - len(gold)]]
    chosen = [*gold, *extra]
    return tuple(cat.apis[chosen[int(i)]].seal.api_name for i in rng.permutation(len(chosen)))


def make_task(
    task_id: str, kind: str, world_seed: int, rng: np.random.Generator, parts: tuple[Any, ...]
) -> Task:
    """A task of ``kind`` in the world of ``world_seed``.

    Args:
        task_id: its id.
        kind: ``single``, ``multiple`` or ``nested``.
        world_seed: the world whose tools it calls.
        rng: what draws its APIs, arguments and words.
        parts: what seeds its argument values (with the call and parameter positions).

    Raises:
        ValueError: an unknown kind.
    """
    if kind not in MAKERS:
        raise ValueError(f"kind must be one of {', '.join(MAKERS)}; got {kind!r}")
    cat = catalog(world_seed)
    calls = MAKERS[kind](cat, rng, parts)
    gold = calling_text(_calling(cat, calls))
    query = _query(cat, calls, rng)
    return Task(task_id, query, (gold,), {"kind": kind}, _offered(cat, calls, rng))
