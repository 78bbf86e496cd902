"""Tasks from ToolBench and StableToolBench query files.

A query file (``G1_instruction.json`` and the like: a JSON list of ``{query, query_id,
api_list, "relevant APIs"}`` records, StableToolBench's with every API's doc inline) becomes a
task set: each query offers its ``api_list`` (plus ``retrieve_apis`` and ``Finish``), and its
gold calls each relevant API once, with the documented example values, then answers. Ids flow as in the real
APIs: a library loaded from such a file answers its list calls with the records its documented
ids name (:mod:`~toolgym.simulators.tool_library.entities`), so the gold calls the APIs that
take an id the query does not state after those that list records, calling an offered listing
API of the tool first when none of the relevant ones lists. The files
carry no expected answers, so these tasks have no key values: such a task passes when every
relevant API was answered without an error and ``Finish`` gave an answer (StableToolBench asks a
judge whether the answer solves the query; toolgym reports the pre-check and the calls instead).

Use the file as the env's library and as its tasks::

    env = gym.make("toolbench/RapidAPI-v1", library="G1_instruction.json",
                   task_file="G1_instruction.json")
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from toolgym.benchmarks.tasks import Task, TaskSet, load_task_file
from toolgym.families.rapid_api.checker import is_id, mentions
from toolgym.families.rapid_api.functions import (
    FINISH,
    GIVE_ANSWER,
    RETRIEVE,
    ApiTool,
    library_tools,
)
from toolgym.families.rapid_api.world.query_files import load_query_file
from toolgym.simulators.tool_library.canonical import coerce_for_kind
from toolgym.simulators.tool_library.entities import entity_id, is_id_name
from toolgym.simulators.tool_library.model import ToolDoc, ToolLibrary
from toolgym.simulators.tool_library.validation import validate_call
from toolgym.simulators.tool_library.values import normalize_key, sample_argument

_GROUP = re.compile(r"(G\d)")
_LISTING = frozenset({"search", "list", "lists", "all", "find", "browse", "query", "searches"})
"""Words of an API name that say it lists records."""


def is_query_file(path: str | Path) -> bool:
    """Whether ``path`` is a JSON query file (rather than a JSONL task file)."""
    source = Path(path)
    if source.suffix.lower() != ".json":
        return False
    with source.open("rb") as handle:
        head = handle.read(256).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith((b"[", b"{"))


def _arguments(fn: ApiTool, tool: ToolDoc | None, query_id: Any) -> dict[str, Any]:
    """The required arguments: documented examples, else drawn values of the parameter's kind.

    An example the API's own checks refuse (a ``NUMBER`` documented as ``"abc"``) is replaced
    by a drawn value, so that the gold passes its arguments as the API takes them.
    """
    out = {}
    docs = {}
    for param, doc in zip(fn.params, fn.docs, strict=True):
        if not param.required:
            continue
        docs[param.name] = doc
        if tool is not None and is_id_name(doc.name):
            out[param.name] = coerce_for_kind(entity_id(tool, doc), doc.kind)
        elif doc.default not in (None, ""):
            out[param.name] = coerce_for_kind(doc.default, doc.kind)
        else:
            out[param.name] = sample_argument(doc, (query_id, param.name))
    api = None if tool is None else tool.api(fn.api_name)
    for _ in range(len(out)):
        if api is None:
            break
        problem = validate_call(api, out, function_name=fn.name, param_names=fn.param_names).problem
        if problem is None or problem.argument not in docs:
            break
        name = problem.argument
        if is_id_name(docs[name].name):  # an entity id is what the tool's listings hold
            break
        out[name] = sample_argument(docs.pop(name), (query_id, name))
    return out


def _takes_unseen_id(call: dict[str, Any], query: str) -> bool:
    """Whether a call passes an id the query does not state (it must come from a response)."""
    return any(
        is_id(name)
        and not isinstance(value, bool)
        and value not in (None, "")
        and not mentions(query, value if isinstance(value, str) else json.dumps(value))
        for name, value in call["arguments"].items()
    )


def _producer(fn: ApiTool, offered: list[ApiTool], used: set[str]) -> ApiTool | None:
    """An offered API of ``fn``'s tool that takes no id: it lists the records ids come from."""
    candidates = [
        other
        for other in offered
        if other.tool_name == fn.tool_name
        and other.name not in used
        and not any(is_id(p.name) for p in other.params if p.required)
    ]
    listing = [c for c in candidates if _LISTING & set(normalize_key(c.api_name).split("_"))]
    found = listing or candidates
    return found[0] if found else None


def _gold_calls(
    record_query: str,
    query_id: Any,
    relevant: list[ApiTool],
    offered: list[ApiTool],
    library: ToolLibrary,
) -> tuple[list[dict[str, Any]], list[str]]:
    """The relevant APIs' calls, those passing ids after those that list records.

    A call that passes an id the query does not state comes after the calls that do not, and
    when no earlier call of its tool can have returned the id, an offered API of the tool that
    takes no id (a search or a list, preferably) is called first. When the tool offers none,
    the id can only come from the API's documentation (its example value): it is returned
    second, as an id the agent may pass without a response holding it.
    """
    calls: list[dict[str, Any]] = [
        {"name": fn.name, "arguments": _arguments(fn, library.get(fn.tool_name), query_id)}
        for fn in relevant
    ]
    pairs = list(zip(relevant, calls, strict=True))
    pairs.sort(key=lambda pair: _takes_unseen_id(pair[1], record_query))
    out: list[tuple[ApiTool, dict[str, Any]]] = []
    documented: list[str] = []
    used = {fn.name for fn in relevant}
    for fn, call in pairs:
        if _takes_unseen_id(call, record_query) and not any(
            earlier.tool_name == fn.tool_name and not _takes_unseen_id(c, record_query)
            for earlier, c in out
        ):
            producer = _producer(fn, offered, used)
            if producer is not None:
                used.add(producer.name)
                tool = library.get(producer.tool_name)
                out.append(
                    (
                        producer,
                        {"name": producer.name, "arguments": _arguments(producer, tool, query_id)},
                    )
                )
            else:
                documented += [
                    v if isinstance(v, str) else json.dumps(v)
                    for k, v in call["arguments"].items()
                    if is_id(k) and not isinstance(v, bool) and v not in (None, "")
                ]
        out.append((fn, call))
    return [call for _, call in out], documented


def read_query_file(path: str | Path) -> TaskSet:
    """The queries of a ToolBench or StableToolBench query file as tasks (see the module)."""
    records, library = load_query_file(path)
    by_api = {
        (t.tool_name, t.api_name): t for t in library_tools(library) if isinstance(t, ApiTool)
    }
    match = _GROUP.search(Path(path).name)
    group = match.group(1) if match else "?"
    tasks = []
    for record in records:
        offered = [by_api[pair] for pair in record.api_list if pair in by_api]
        relevant = [by_api[pair] for pair in record.relevant_apis if pair in by_api] or offered[:1]
        if not offered:
            continue
        calls, documented = _gold_calls(record.query, record.query_id, relevant, offered, library)
        names = ", ".join(fn.name for fn in relevant)
        final = {"return_type": GIVE_ANSWER, "final_answer": f"Here is what {names} returned."}
        calls.append({"name": FINISH, "arguments": final})
        functions = sorted({*(fn.name for fn in offered), FINISH, RETRIEVE})
        meta = {
            "group": group,
            "solvable": True,
            "relevant": [[fn.tool_name, fn.api_name] for fn in relevant],
            "key_values": [],
            "categories": record.categories,
        }
        if documented:  # ids only the docs show: no offered API lists them
            meta["documented_ids"] = documented
        tasks.append(
            Task(
                record.query_id,
                record.query.strip(),
                (json.dumps(calls, ensure_ascii=False),),
                meta,
                tuple(functions),
                {"functions": functions},
            )
        )
    return TaskSet(tasks, Path(path).name)


def read_task_file(path: str | Path) -> TaskSet:
    """A query file's tasks, or an original-format JSONL task file's."""
    return read_query_file(path) if is_query_file(path) else load_task_file(path)
