"""Tasks from ToolBench and StableToolBench query files.

A query file (``G1_instruction.json`` and the like: a JSON list of ``{query, query_id,
api_list, "relevant APIs"}`` records, StableToolBench's with every API's doc inline) becomes a
task set: each query offers its ``api_list`` (plus ``retrieve_apis`` and ``Finish``), and its
gold calls each relevant API once, with the documented example values, then answers. The files
carry no expected answers, so these tasks have no key values: such a task passes when every
relevant API was answered without an error and ``Finish`` gave an answer (StableToolBench asks a
judge whether the answer solves the query; toolgym reports the pre-check and the calls instead).

Use the file as the env's library and as its tasks::

    env = gym.make("toolbench/RapidAPI-v0", library="G1_instruction.json",
                   task_file="G1_instruction.json")
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from toolgym.benchmarks.tasks import Task, TaskSet, load_task_file
from toolgym.families.rapid_api.functions import (
    FINISH,
    GIVE_ANSWER,
    RETRIEVE,
    ApiTool,
    library_tools,
)
from toolgym.families.rapid_api.world.query_files import load_query_file
from toolgym.simulators.tool_library.canonical import coerce_for_kind
from toolgym.simulators.tool_library.values import sample_argument

_GROUP = re.compile(r"(G\d)")


def is_query_file(path: str | Path) -> bool:
    """Whether ``path`` is a JSON query file (rather than a JSONL task file)."""
    source = Path(path)
    if source.suffix.lower() != ".json":
        return False
    with source.open("rb") as handle:
        head = handle.read(256).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith((b"[", b"{"))


def _arguments(fn: ApiTool, query_id: Any) -> dict[str, Any]:
    out = {}
    for param, doc in zip(fn.params, fn.docs, strict=True):
        if not param.required:
            continue
        if doc.default not in (None, ""):
            out[param.name] = coerce_for_kind(doc.default, doc.kind)
        else:
            out[param.name] = sample_argument(doc, (query_id, param.name))
    return out


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
        calls: list[dict[str, Any]] = [
            {"name": fn.name, "arguments": _arguments(fn, record.query_id)} for fn in relevant
        ]
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
