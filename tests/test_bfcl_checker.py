"""toolgym's BFCL verdict against BFCL's own checker, on every possible answer and on perturbations.

BFCL's ``ast_checker`` module imports the table of model handlers (every vendor SDK) only to
rename dotted function names for some models; while it is imported here, that table is a
stand-in whose models rename nothing (as toolgym's envs give the functions' own names). The
stand-in is removed again, so nothing else sees it.
"""

from __future__ import annotations

import copy
import importlib
import sys
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip(
    "bfcl_eval", reason="bfcl-eval is not installed: pip install --no-deps bfcl-eval==2026.3.23"
)

from toolgym.families.bfcl import answers, data
from toolgym.families.bfcl.checker import (
    ast_verdict,
    has_call,
    is_call_list,
    relevance_verdict,
)
from toolgym.families.bfcl.decoding import DecodeError, decode_python_calls, render_python_calls
from toolgym.families.bfcl.multi_turn import MULTI_TURN, multi_turn_verdict
from toolgym.families.bfcl.reference import TABLE, import_with, model_table

PYTHON_AST = [c for c in data.NON_LIVE_AST + data.LIVE_AST if data.language_of(c) == "python"]
UNANSWERABLE: dict[str, list[str]] = {
    # a required parameter whose possible answer accepts nothing (``[]``)
    "live_simple": ["live_simple_106-63-0", "live_simple_112-68-0"],
    # the possible answer names a parameter the doc lacks, or lacks one the doc requires
    "live_multiple": ["live_multiple_862-181-3", "live_multiple_964-207-0"],
}
"""Entries of bfcl-eval 2026.3.23 that no answer passes, by BFCL's checker and toolgym's alike."""


@pytest.fixture(scope="module")
def reference() -> Any:
    """BFCL's ``ast_checker`` module, imported with a stand-in model table."""
    return import_with("bfcl_eval.eval_checker.ast_eval.ast_checker", {TABLE: model_table()})


def gold_calls(
    possible: list[dict[str, Any]], functions: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each expected call, a parameter at its first accepted value; optional ones left out."""
    return answers.gold_calls(possible, functions, "python")


def perturbations(calls: list[dict[str, Any]], doc_of: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Single-value changes of an answer: each a way an answer goes wrong."""
    yield "no call", []
    yield "a call twice", calls + calls[:1]
    if len(calls) > 1:
        yield "a call missing", calls[1:]
        yield "reversed", list(reversed(calls))
    for k, call in enumerate(calls):
        ((name, arguments),) = call.items()

        def put(new: dict[str, Any], k: int = k) -> list[dict[str, Any]]:
            return [*calls[:k], new, *calls[k + 1 :]]

        yield "renamed", put({name + "_x": arguments})
        yield "extra parameter", put({name: {**arguments, "zz_extra": 1}})
        for param, value in arguments.items():
            rest = {p: v for p, v in arguments.items() if p != param}
            yield f"{param} left out", put({name: rest})
            for label, other in _other_values(value):
                yield f"{param} {label}", put({name: {**arguments, param: other}})
        properties = doc_of.get(name, {}).get("parameters", {}).get("properties", {})
        for param in properties:
            if param not in arguments:
                yield f"{param} added", put({name: {**arguments, param: "x"}})


def _other_values(value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, bool):
        yield "negated", not value
        yield "as int", int(value)
    elif isinstance(value, int):
        yield "plus one", value + 1
        yield "as float", float(value)
        yield "as text", str(value)
    elif isinstance(value, float):
        yield "doubled", value * 2 + 1
        yield "as int", int(value)
        yield "as text", str(value)
    elif isinstance(value, str):
        yield "changed", value + "q"
        yield "upper case", value.upper()
        yield "spaced", f" {value}."
        yield "as list", [value]
    elif isinstance(value, list):
        yield "empty", []
        yield "shortened", value[:-1]
        yield "reversed", list(reversed(value))
        yield "as tuple", tuple(value)
        if value:
            yield "first changed", [_changed(value[0]), *value[1:]]
    elif isinstance(value, dict):
        yield "empty", {}
        if value:
            key = next(iter(value))
            yield "a key changed", {**value, key: _changed(value[key])}
            yield "a key renamed", {**{k: v for k, v in value.items() if k != key}, key + "_x": 1}
            yield "a key left out", {k: v for k, v in value.items() if k != key}


def _changed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return value + "q"
    return "q"


def _theirs(reference: Any, entry: dict[str, Any], calls: Any, possible: Any, category: str) -> Any:
    from bfcl_eval.constants.enums import Language

    try:
        result = reference.ast_checker(
            entry["function"], copy.deepcopy(calls), possible, Language.PYTHON, category, "toolgym"
        )
    except Exception as e:  # BFCL's checker fails on some malformed answers
        return ("raised", type(e).__name__)
    return (result["valid"], None if result["valid"] else result["error_type"])


def _mine(entry: dict[str, Any], calls: Any, possible: Any, category: str) -> Any:
    try:
        verdict = ast_verdict(
            entry["function"], calls, possible, language="python", category=category
        )
    except Exception as e:
        return ("raised", type(e).__name__)
    return (verdict.valid, verdict.error_type)


@pytest.mark.parametrize("category", PYTHON_AST)
def test_every_possible_answer_passes_and_perturbations_agree_with_bfcl(
    reference: Any, category: str
) -> None:
    entries, possible_of = data.entries(category), data.answers(category)
    assert len(entries) == len(possible_of) > 0
    compared = disagreements = 0
    failures: list[str] = []
    unanswerable: list[str] = []
    for entry in entries:
        possible = possible_of[entry["id"]]
        gold = gold_calls(possible, entry["function"])
        theirs = _theirs(reference, entry, gold, possible, category)
        assert _mine(entry, gold, possible, category) == theirs, entry["id"]
        if theirs != (True, None):
            unanswerable.append(entry["id"])
            continue
        doc_of = {f["name"]: f for f in entry["function"]}
        for label, calls in perturbations(gold, doc_of):
            compared += 1
            mine = _mine(entry, calls, possible, category)
            theirs = _theirs(reference, entry, calls, possible, category)
            if mine != theirs:
                disagreements += 1
                failures.append(f"{entry['id']} {label}: toolgym {mine}, BFCL {theirs}")
    assert not failures, f"{disagreements} of {compared}:\n" + "\n".join(failures[:20])
    assert compared > 5 * len(entries)
    assert unanswerable == UNANSWERABLE.get(category, [])


def test_relevance_follows_bfcl() -> None:
    assert relevance_verdict("irrelevance", None).valid
    assert relevance_verdict("live_irrelevance", []).valid
    assert relevance_verdict("irrelevance", [{}]).valid
    verdict = relevance_verdict("irrelevance", [{"f": {}}])
    assert not verdict.valid and verdict.error_type == "irrelevance_error:decoder_success"
    assert relevance_verdict("live_relevance", [{"anything": {"x": 1}}]).valid
    verdict = relevance_verdict("live_relevance", None)
    assert not verdict.valid and verdict.error_type == "relevance_error:decoder_failed"
    assert not has_call(["f"]) and not is_call_list([{"f": 1}]) and is_call_list([])


def test_the_data_is_bfcls() -> None:
    counts = {c: len(data.entries(c)) for c in data.SINGLE_TURN}
    assert counts["simple_python"] == 400 and counts["live_multiple"] == 1053
    assert counts["live_irrelevance"] == 884 and data.answers("irrelevance") == {}
    assert sum(counts.values()) == 3641


@pytest.fixture(scope="module")
def bfcl_decode() -> Any:
    """BFCL's prompt-mode reader, imported with stand-ins.

    The stand-ins replace what its module imports and this reading does not use (the Java and
    JavaScript parsers' tree-sitter, retry and file lock helpers); they are removed afterwards.
    """
    names: dict[str, dict[str, Any]] = {
        "bfcl_eval.model_handler.parser.java_parser": {"parse_java_function_call": None},
        "bfcl_eval.model_handler.parser.js_parser": {"parse_javascript_function_call": None},
        "tenacity": {
            n: (lambda *a, **k: lambda f: f)
            for n in (
                "retry",
                "retry_if_exception_message",
                "retry_if_exception_type",
                "wait_random_exponential",
                "stop_after_attempt",
            )
        },
        "filelock": {"FileLock": object},
    }
    return import_with("bfcl_eval.model_handler.utils", names).default_decode_ast_prompting


def _written_answers(calls: list[dict[str, Any]]) -> Iterator[str]:
    text = render_python_calls(calls)
    yield text
    yield f"```\n{text}\n```"
    yield text[1:-1]  # no brackets
    yield f"'{text}'"
    yield f"Sure! {text}"  # prose: fails to read in both
    yield text.replace("=", " = ")
    yield text.replace("(", "(1, ", 1)  # a positional argument: dropped
    if calls and next(iter(calls[0].values())):
        ((name, arguments),) = calls[0].items()
        param = next(iter(arguments))
        for expression in (
            "2 * 3",
            "10 ** 2",
            "-4",
            "[1, 2] + [3]",
            "'a' + 'b'",
            "7 // 2",
            "some_name",
            "np.pi",
            "datetime.now()",
            "f(x=1)",
            "a[0]",
            "...",
            "(1, 2)",
            "{'k': -1.5}",
            "lambda x: x",
            "not True",
            "1 if x else 2",
        ):
            yield f"[{name}({param}={expression})]"  # fmt: skip


@pytest.mark.parametrize("category", PYTHON_AST)
def test_written_answers_read_as_bfcl_reads_them(bfcl_decode: Any, category: str) -> None:
    compared = 0
    chosen = data.entries(category)[:60]
    for entry in chosen:
        possible = data.answers(category)[entry["id"]]
        for text in _written_answers(gold_calls(possible, entry["function"])):
            try:
                theirs: Any = bfcl_decode(text)
            except Exception:
                theirs = "fails"
            try:
                mine: Any = decode_python_calls(text)
            except DecodeError:
                mine = "fails"
            compared += 1
            assert mine == theirs, (entry["id"], text)
            assert type(mine) is type(theirs)
    assert compared >= 7 * len(chosen)


MULTI_TURN_UTILS = "bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils"


def _their_multi_turn(entry: dict[str, Any], turns: Any, possible: Any) -> Any:
    """BFCL's verdict, with its backends' instances (cached in its module) cleared after."""
    checker = importlib.import_module("bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker")
    utils = sys.modules[MULTI_TURN_UTILS]
    category = entry["id"].rsplit("_", 1)[0]
    try:
        if len(turns) != len(possible):
            return (False, "multi_turn:force_terminated")
        result = checker.multi_turn_checker(
            copy.deepcopy(turns), possible, entry, category, "toolgym"
        )
        return (result["valid"], None if result["valid"] else result["error_type"])
    finally:
        for name in [n for n in vars(utils) if n.endswith("_instance")]:
            del vars(utils)[name]


def multi_turn_perturbations(truth: list[list[str]]) -> Iterator[tuple[str, Any]]:
    yield "the possible answer", [[calls] if calls else [] for calls in truth]
    yield "a step per call", [[[c] for c in calls] for calls in truth]
    yield "a turn short", [[calls] if calls else [] for calls in truth[:-1]]
    for k, calls in enumerate(truth):

        def put(new: Any, k: int = k) -> Any:
            turns: list[Any] = [[c] if c else [] for c in truth]
            turns[k] = new
            return turns

        if not calls:
            earlier = next((c for c in reversed(truth[:k]) if c), None)
            if earlier:
                yield f"turn {k}: acts where it cannot", put([earlier[:1]])
            continue
        yield f"turn {k}: no call", put([])
        yield f"turn {k}: last call left out", put([calls[:-1]] if len(calls) > 1 else [])
        yield f"turn {k}: first call twice", put([[calls[0], *calls]])
        yield f"turn {k}: reversed", put([list(reversed(calls))])
        yield f"turn {k}: an unknown function", put([[*calls, "no_such_function(x=1)"]])
        changed = calls[0].replace("='", "='x", 1) if "='" in calls[0] else calls[0] + ")"
        yield f"turn {k}: a value changed", put([[changed, *calls[1:]]])


@pytest.mark.parametrize("category", MULTI_TURN)
def test_multi_turn_answers_are_judged_as_bfcl_judges_them(category: str) -> None:
    pytest.importorskip("mpmath", reason="BFCL's MathAPI needs mpmath")
    entries = data.multi_turn_entries(category)
    assert len(entries) == 200
    compared, failures = 0, []
    for entry in entries:
        truth = entry["ground_truth"]
        for label, turns in multi_turn_perturbations(truth):
            mine = multi_turn_verdict(entry, turns, truth)
            theirs = _their_multi_turn(entry, turns, truth)
            compared += 1
            if (mine.valid, mine.error_type) != theirs:
                failures.append(f"{entry['id']} {label}: toolgym {mine}, BFCL {theirs}")
    assert not failures, f"{len(failures)} of {compared}:\n" + "\n".join(failures[:15])
    assert compared > 8 * 50


@pytest.fixture(scope="module")
def bfcl_sums(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """BFCL's accuracy helpers, imported with stand-ins (its folders made in a temporary one)."""
    import os

    os.environ.setdefault("BFCL_PROJECT_ROOT", str(tmp_path_factory.mktemp("bfcl-root")))
    stand_ins: dict[str, dict[str, Any]] = {
        TABLE: model_table(),
        "filelock": {"FileLock": object},
        "tenacity": {},
    }
    return import_with("bfcl_eval.eval_checker.eval_runner_helper", stand_ins)


def _their_row(h: Any, results: dict[str, tuple[int, int]]) -> dict[str, Any]:
    """The overall row as BFCL's ``generate_leaderboard_csv`` sums it (its formulas, its helpers)."""
    from toolgym.families.bfcl.leaderboard import ENTRY_COUNTS

    def c(name: str) -> dict[str, Any]:
        if name in results:
            correct, total = results[name]
            return {
                "accuracy": correct / total,
                "total_count": total,
                "display_accuracy": correct / total,
            }
        return {"accuracy": 0, "total_count": ENTRY_COUNTS[name], "display_accuracy": "N/A"}

    u, w = h.calculate_unweighted_accuracy, h.calculate_weighted_accuracy
    simple = u([c("simple_python"), c("simple_java"), c("simple_javascript")])
    parts = [simple, c("multiple"), c("parallel"), c("parallel_multiple")]
    live_parts = [
        c("live_simple"),
        c("live_multiple"),
        c("live_parallel"),
        c("live_parallel_multiple"),
    ]
    multi = [c(f"multi_turn_{k}") for k in ("base", "miss_func", "miss_param", "long_context")]
    web = u([c("web_search_base"), c("web_search_no_snippet")])
    memory = u([c("memory_kv"), c("memory_vector"), c("memory_rec_sum")])
    agentic = u([web, memory], display_na_if_category_missing=False)
    irrelevance = u([c("irrelevance"), c("live_irrelevance")])
    live = w(live_parts, display_na_if_category_missing=False)
    multi_turn = u(multi, display_na_if_category_missing=False)
    overall = h.calculate_percentage_weighted_accuracy(
        [u(parts, display_na_if_category_missing=False), live, irrelevance, multi_turn, agentic],
        [10, 10, 10, 30, 40],
        display_na_if_category_missing=False,
    )
    shown = lambda s: None if s["display_accuracy"] == "N/A" else s["display_accuracy"]  # noqa: E731
    return {
        "Overall Acc": overall["display_accuracy"],
        "Non-Live AST Acc": shown(u(parts)),
        "Live Acc": shown(live),
        "Multi Turn Acc": shown(multi_turn),
        "Memory Acc": shown(memory),
        "Web Search Acc": shown(web),
        "Irrelevance Detection": shown(irrelevance),
        "Relevance Detection": shown(c("live_relevance")),
        "Live Multiple AST": shown(c("live_multiple")),
    }


def test_the_leaderboard_row_sums_as_bfcl_sums(bfcl_sums: Any) -> None:
    import random

    from toolgym.families.bfcl.leaderboard import ENTRY_COUNTS, leaderboard_row

    rng = random.Random(0)
    for trial in range(200):
        chosen = [n for n in ENTRY_COUNTS if trial == 0 or rng.random() < 0.7]
        results = {}
        for name in chosen:
            total = rng.randint(1, ENTRY_COUNTS[name])
            results[name] = (rng.randint(0, total), total)
        mine, theirs = leaderboard_row(results), _their_row(bfcl_sums, results)
        for column, value in theirs.items():
            assert mine[column] == pytest.approx(value) if value is not None else mine[column] is None, (
                trial, column)  # fmt: skip


def test_the_entry_counts_are_bfcls() -> None:
    from toolgym.families.bfcl.leaderboard import ENTRY_COUNTS

    for category in data.SINGLE_TURN:
        assert ENTRY_COUNTS[category] == len(data.entries(category))
    for category in MULTI_TURN:
        assert ENTRY_COUNTS[category] == len(data.multi_turn_entries(category))
