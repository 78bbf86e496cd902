"""BFCL v4's own files, read from the installed ``bfcl-eval`` package (never copied here).

``bfcl-eval`` (Apache-2.0) ships the Berkeley Function Calling Leaderboard's questions, possible
answers and function docs as JSON Lines under ``bfcl_eval/data/``. Its declared dependencies pin
numpy 1.26.4 and pull about 30 model vendors' SDKs, none of which reading or scoring needs, so it
is installed without them::

    pip install --no-deps bfcl-eval==2026.3.23

Only files are read here: none of the package's modules is imported (several create folders
when imported).

* :data:`SINGLE_TURN` names the single-turn categories, each one file of questions
  (``BFCL_v4_<category>.json``) and, for all but the relevance ones, one of possible answers
  (``possible_answer/BFCL_v4_<category>.json``) with the same ids;
* :func:`entries` reads a category's questions, :func:`answers` its possible answers by id.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from pathlib import Path
from typing import Any

from toolgym.errors import DependencyNotInstalled, UserInputError

PACKAGE = "bfcl-eval"
VERSION = "2026.3.23"
"""The release the family was checked against (its ids and counts are this release's)."""
INSTALL = f"pip install --no-deps {PACKAGE}=={VERSION}"
"""How to install it: without its dependencies, which reading and scoring do not use."""
TREE_SITTER_INSTALL = (
    "pip install tree-sitter==0.21.3 tree-sitter-java==0.21.0 tree-sitter-javascript==0.21.4"
)
"""What BFCL's Java and JavaScript readers need (the releases ``bfcl-eval`` pins)."""

NON_LIVE_AST = ("simple_python", "simple_java", "simple_javascript", "multiple", "parallel",
                "parallel_multiple")  # fmt: skip
LIVE_AST = ("live_simple", "live_multiple", "live_parallel", "live_parallel_multiple")
IRRELEVANCE = ("irrelevance", "live_irrelevance")
"""Categories where no function fits: a reply that calls none passes."""
RELEVANCE = ("live_relevance",)
"""A category where some function fits: a reply that calls any passes (arguments unchecked)."""
SINGLE_TURN = (*NON_LIVE_AST, "irrelevance", *LIVE_AST, "live_irrelevance", *RELEVANCE)
"""Every single-turn category, in BFCL's order."""


def data_dir() -> Path:
    """The ``data`` folder of the installed ``bfcl-eval``.

    Raises:
        DependencyNotInstalled: ``bfcl-eval`` is not installed (the message gives the command).
    """
    return _data_dir()


@functools.cache
def _data_dir() -> Path:
    spec = importlib.util.find_spec("bfcl_eval")
    if spec is None or not spec.submodule_search_locations:
        raise DependencyNotInstalled(
            f"BFCL's data comes from the {PACKAGE} package, which is not installed: {INSTALL} "
            "(without its dependencies: they pin numpy 1.26.4 and pull model vendors' SDKs that "
            "toolgym does not use)"
        )
    folder = Path(next(iter(spec.submodule_search_locations))) / "data"
    if not folder.is_dir():
        raise DependencyNotInstalled(f"{PACKAGE} has no data folder at {folder}: {INSTALL}")
    return folder


def _check(category: str) -> None:
    if category not in SINGLE_TURN:
        raise UserInputError(
            f"no single-turn BFCL category {category!r}; expected one of {', '.join(SINGLE_TURN)}"
        )


def _lines(path: Path) -> list[dict[str, Any]]:
    """A JSON Lines file's records (BFCL's files mostly end without a line break)."""
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@functools.cache
def entries(category: str) -> tuple[dict[str, Any], ...]:
    """The questions of ``category``, in file order: ``{"id", "question", "function"}`` each.

    Raises:
        UserInputError: not a single-turn category.
        DependencyNotInstalled: ``bfcl-eval`` is not installed.
    """
    _check(category)
    return tuple(_lines(data_dir() / f"BFCL_v4_{category}.json"))


@functools.cache
def answers(category: str) -> dict[str, list[dict[str, Any]]]:
    """The possible answers of ``category`` by entry id (``{}`` for the relevance categories).

    Each is BFCL's ``ground_truth``: one ``{function: {parameter: [accepted values]}}`` per call
    (an accepted ``""`` marks a parameter that may be left out).
    """
    _check(category)
    if category in IRRELEVANCE + RELEVANCE:
        return {}
    records = _lines(data_dir() / "possible_answer" / f"BFCL_v4_{category}.json")
    return {r["id"]: r["ground_truth"] for r in records}


MULTI_TURN_DOCS = {
    "GorillaFileSystem": "gorilla_file_system.json",
    "MathAPI": "math_api.json",
    "MessageAPI": "message_api.json",
    "TwitterAPI": "posting_api.json",
    "TicketAPI": "ticket_api.json",
    "TradingBot": "trading_bot.json",
    "TravelAPI": "travel_booking.json",
    "VehicleControlAPI": "vehicle_control.json",
    "WebSearchAPI": "web_search.json",
    "MemoryAPI_kv": "memory_kv.json",
    "MemoryAPI_vector": "memory_vector.json",
    "MemoryAPI_rec_sum": "memory_rec_sum.json",
}
"""The file of each multi-turn class's function docs, under ``multi_turn_func_doc/``."""


@functools.cache
def class_docs(name: str) -> tuple[dict[str, Any], ...]:
    """The function docs of the multi-turn class ``name`` (one of :data:`MULTI_TURN_DOCS`).

    Raises:
        DependencyNotInstalled: ``bfcl-eval`` is not installed.
    """
    return tuple(_lines(data_dir() / "multi_turn_func_doc" / MULTI_TURN_DOCS[name]))


@functools.cache
def multi_turn_entries(category: str) -> tuple[dict[str, Any], ...]:
    """A multi-turn category's entries, with their function docs and possible answers.

    Each entry's ``function`` holds the docs of its classes but those ``missed_function``
    withholds, which becomes ``{turn: [docs]}``; ``ground_truth`` is its possible answer.

    Raises:
        UserInputError: not a multi-turn category.
        DependencyNotInstalled: ``bfcl-eval`` is not installed.
    """
    from toolgym.families.bfcl.multi_turn import MULTI_TURN

    if category not in MULTI_TURN:
        raise UserInputError(
            f"no multi-turn BFCL category {category!r}; expected one of {', '.join(MULTI_TURN)}"
        )
    folder = data_dir()
    truth = {
        r["id"]: r["ground_truth"]
        for r in _lines(folder / "possible_answer" / f"BFCL_v4_{category}.json")
    }
    out = []
    for record in _lines(folder / f"BFCL_v4_{category}.json"):
        functions = [doc for name in record["involved_classes"] for doc in class_docs(name)]
        withheld = {
            turn: [doc for doc in functions if doc["name"] in names]
            for turn, names in (record.get("missed_function") or {}).items()
        }
        hidden = {doc["name"] for held in withheld.values() for doc in held}
        out.append(
            {
                **record,
                "function": [doc for doc in functions if doc["name"] not in hidden],
                "missed_function": withheld,
                "ground_truth": truth[record["id"]],
            }
        )
    return tuple(out)


def language_of(category: str) -> str:
    """``"java"``, ``"javascript"`` or ``"python"``: how a category's values are typed.

    >>> language_of("simple_java"), language_of("simple_javascript"), language_of("live_simple")
    ('java', 'javascript', 'python')
    """
    if category.endswith("_javascript"):
        return "javascript"
    if category.endswith("_java"):
        return "java"
    return "python"


WEB_SEARCH = ("web_search_base", "web_search_no_snippet")
"""The web search categories: the same questions, with and without the results' snippets."""


@functools.cache
def web_search_entries(category: str) -> tuple[dict[str, Any], ...]:
    """A web search category's entries, as BFCL makes them from its one file of questions.

    Each gets the category's id (``web_search_no_snippet_3``), the ``WebSearchAPI`` function
    docs, ``initial_config`` with ``show_snippet``, and its possible answers
    (``ground_truth``: texts, any of which the final answer must contain).

    Raises:
        UserInputError: not a web search category.
        DependencyNotInstalled: ``bfcl-eval`` is not installed.
    """
    if category not in WEB_SEARCH:
        raise UserInputError(
            f"no BFCL web search category {category!r}; expected one of {', '.join(WEB_SEARCH)}"
        )
    folder = data_dir()
    docs = list(class_docs("WebSearchAPI"))
    truth = {
        r["id"]: r["ground_truth"]
        for r in _lines(folder / "possible_answer" / "BFCL_v4_web_search.json")
    }
    return tuple(
        {
            **record,
            "id": record["id"].replace("web_search", category),
            "function": docs,
            "initial_config": {"WebSearchAPI": {"show_snippet": category == "web_search_base"}},
            "ground_truth": truth[record["id"]],
        }
        for record in _lines(folder / "BFCL_v4_web_search.json")
    )


MEMORY = ("memory_kv", "memory_vector", "memory_rec_sum")
"""The memory categories: the same questions over three memory backends."""
MEMORY_SCENARIOS = ("student", "customer", "finance", "healthcare", "notetaker")
"""The memory scenarios, in BFCL's order (each has its own conversations to remember)."""


def memory_class(category: str) -> str:
    """The memory class of a memory category (``"memory_kv"`` -> ``"MemoryAPI_kv"``)."""
    return f"MemoryAPI_{category.removeprefix('memory_')}"


@functools.cache
def memory_prereqs(category: str, scenario: str) -> tuple[dict[str, Any], ...]:
    """The conversations a scenario's questions remember, in order, under the category's ids.

    Each is ``{"id", "topic", "question"}`` (``question``: its user turns), with BFCL's id
    (``memory_kv_prereq_0-customer-0``).

    Raises:
        UserInputError: not a memory category or scenario.
        DependencyNotInstalled: ``bfcl-eval`` is not installed.
    """
    _check_memory(category)
    if scenario not in MEMORY_SCENARIOS:
        raise UserInputError(
            f"no BFCL memory scenario {scenario!r}; expected one of {', '.join(MEMORY_SCENARIOS)}"
        )
    path = data_dir() / "memory_prereq_conversation" / f"memory_{scenario}.json"
    return tuple(
        {**record, "id": record["id"].replace("memory", category, 1)} for record in _lines(path)
    )


@functools.cache
def memory_entries(category: str) -> tuple[dict[str, Any], ...]:
    """A memory category's questions, in file order, as BFCL makes them.

    Each gets the category's id (``memory_kv_0-customer-0``), the class's function docs, and its
    possible answers (``ground_truth``: texts, any of which the final answer must contain).

    Raises:
        UserInputError: not a memory category.
        DependencyNotInstalled: ``bfcl-eval`` is not installed.
    """
    _check_memory(category)
    folder = data_dir()
    docs = list(class_docs(memory_class(category)))
    truth = {
        r["id"]: r["ground_truth"]
        for r in _lines(folder / "possible_answer" / "BFCL_v4_memory.json")
    }
    return tuple(
        {
            **record,
            "id": record["id"].replace("memory", category, 1),
            "involved_classes": [memory_class(category)],
            "function": docs,
            "ground_truth": truth[record["id"]],
        }
        for record in _lines(folder / "BFCL_v4_memory.json")
    )


def _check_memory(category: str) -> None:
    if category not in MEMORY:
        raise UserInputError(
            f"no BFCL memory category {category!r}; expected one of {', '.join(MEMORY)}"
        )
