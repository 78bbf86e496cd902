"""A run's row of the BFCL v4 leaderboard: its columns, from per-category accuracies, as BFCL sums.

BFCL's overall row (:data:`COLUMNS`) is built from each category's accuracy (correct entries over
entries run):

* Non-Live AST: the plain mean of simple (itself the mean of Python, Java and JavaScript simple),
  multiple, parallel and parallel multiple;
* Live: the mean of the four live AST categories weighted by their entry counts;
* Multi Turn: the plain mean of base, missing function, missing parameter and long context;
* Web Search and Memory: plain means of their categories; Agentic, the mean of the two;
* Irrelevance Detection: the mean of ``irrelevance`` and ``live_irrelevance``; Relevance
  Detection: ``live_relevance`` (shown, not part of the overall);
* Overall Acc: 10% Non-Live, 10% Live, 10% Irrelevance, 30% Multi Turn, 40% Agentic.

A category that was not run counts as 0 with the number of entries it has, as in BFCL; a
summary that rests on one is shown as not available (``None``), but the overall accuracy and the
group accuracies BFCL always shows (Non-Live's overall, Live, Multi Turn, Agentic) are numbers.

>>> row = leaderboard_row({"simple_python": (200, 400), "multiple": (100, 200)})
>>> row["Python Simple AST"], row["Non-Live AST Acc"], round(row["Overall Acc"], 4)
(0.5, None, 0.0167)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ENTRY_COUNTS = {
    "simple_python": 400,
    "simple_java": 100,
    "simple_javascript": 50,
    "multiple": 200,
    "parallel": 200,
    "parallel_multiple": 200,
    "irrelevance": 240,
    "live_simple": 258,
    "live_multiple": 1053,
    "live_parallel": 16,
    "live_parallel_multiple": 24,
    "live_irrelevance": 884,
    "live_relevance": 16,
    "multi_turn_base": 200,
    "multi_turn_miss_func": 200,
    "multi_turn_miss_param": 200,
    "multi_turn_long_context": 200,
    "memory_kv": 155,
    "memory_vector": 155,
    "memory_rec_sum": 155,
    "web_search_base": 100,
    "web_search_no_snippet": 100,
}
"""Each scoring category's entries in ``bfcl-eval`` 2026.3.23: a category not run counts as 0
with this many entries."""

COLUMNS = (
    "Overall Acc",
    "Non-Live AST Acc",
    "Non-Live Simple AST",
    "Non-Live Multiple AST",
    "Non-Live Parallel AST",
    "Non-Live Parallel Multiple AST",
    "Live Acc",
    "Live Simple AST",
    "Live Multiple AST",
    "Live Parallel AST",
    "Live Parallel Multiple AST",
    "Multi Turn Acc",
    "Multi Turn Base",
    "Multi Turn Miss Func",
    "Multi Turn Miss Param",
    "Multi Turn Long Context",
    "Web Search Acc",
    "Web Search Base",
    "Web Search No Snippet",
    "Memory Acc",
    "Memory KV",
    "Memory Vector",
    "Memory Recursive Summarization",
    "Relevance Detection",
    "Irrelevance Detection",
)
"""The leaderboard's overall columns (without cost, latency and the model's details)."""
HEADLINE = (
    "Overall Acc",
    "Non-Live AST Acc",
    "Live Acc",
    "Multi Turn Acc",
    "Relevance Detection",
    "Irrelevance Detection",
    "Memory Acc",
)
"""The columns a terminal table shows."""
DETAIL = ("Python Simple AST", "Java Simple AST", "JavaScript Simple AST")
"""The columns of the non-live table that the overall row leaves out."""


@dataclass(frozen=True)
class _Score:
    accuracy: float
    count: int
    shown: bool  # False: "N/A" (a category not run, or a summary that rests on one)

    @property
    def display(self) -> float | None:
        return self.accuracy if self.shown else None


def _category(results: Mapping[str, tuple[int, int]], name: str) -> _Score:
    if name not in results:
        return _Score(0.0, ENTRY_COUNTS[name], False)
    correct, total = results[name]
    return _Score(correct / total if total else 0.0, total, True)


def _mean(parts: list[_Score], *, always_shown: bool = False) -> _Score:
    return _Score(
        sum(p.accuracy for p in parts) / len(parts),
        sum(p.count for p in parts),
        always_shown or all(p.shown for p in parts),
    )


def _weighted(parts: list[_Score], *, always_shown: bool = False) -> _Score:
    count = sum(p.count for p in parts)
    accuracy = sum(p.accuracy * p.count for p in parts) / count if count else 0.0
    return _Score(accuracy, count, always_shown or all(p.shown for p in parts))


def leaderboard_row(results: Mapping[str, tuple[int, int]]) -> dict[str, float | None]:
    """The overall row's columns (:data:`COLUMNS` and :data:`DETAIL`) for a run.

    Args:
        results: per category, ``(correct, entries run)``; categories not run are left out.

    Raises:
        ValueError: a category BFCL does not score.
    """
    unknown = sorted(set(results) - set(ENTRY_COUNTS))
    if unknown:
        raise ValueError(f"not BFCL scoring categories: {', '.join(unknown)}")

    def c(name: str) -> _Score:
        return _category(results, name)

    simple = _mean([c("simple_python"), c("simple_java"), c("simple_javascript")])
    non_live_parts = [simple, c("multiple"), c("parallel"), c("parallel_multiple")]
    non_live = _mean(non_live_parts)
    non_live_overall = _mean(non_live_parts, always_shown=True)
    live_parts = [c("live_simple"), c("live_multiple"), c("live_parallel"),
                  c("live_parallel_multiple")]  # fmt: skip
    live = _weighted(live_parts, always_shown=True)
    multi_parts = [c("multi_turn_base"), c("multi_turn_miss_func"), c("multi_turn_miss_param"),
                   c("multi_turn_long_context")]  # fmt: skip
    multi_turn = _mean(multi_parts, always_shown=True)
    web_parts = [c("web_search_base"), c("web_search_no_snippet")]
    web = _mean(web_parts)
    memory_parts = [c("memory_kv"), c("memory_vector"), c("memory_rec_sum")]
    memory = _mean(memory_parts)
    agentic = _mean([web, memory], always_shown=True)
    irrelevance = _mean([c("irrelevance"), c("live_irrelevance")])
    overall = (
        0.1 * non_live_overall.accuracy
        + 0.1 * live.accuracy
        + 0.1 * irrelevance.accuracy
        + 0.3 * multi_turn.accuracy
        + 0.4 * agentic.accuracy
    )
    values = [
        overall,
        non_live.display,
        *(p.display for p in non_live_parts),
        live.display,
        *(p.display for p in live_parts),
        multi_turn.display,
        *(p.display for p in multi_parts),
        web.display,
        *(p.display for p in web_parts),
        memory.display,
        *(p.display for p in memory_parts),
        c("live_relevance").display,
        irrelevance.display,
    ]
    row = dict(zip(COLUMNS, values, strict=True))
    names = ("simple_python", "simple_java", "simple_javascript")
    row.update(zip(DETAIL, (c(n).display for n in names), strict=True))
    row["Agentic Acc"] = agentic.display
    return row


def run_results(summary: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """``{category: (correct, entries run)}`` of one env's summary (its per-category breakdown)."""
    breakdown = summary.get("breakdown") or {}
    out: dict[str, tuple[int, int]] = {}
    if breakdown.get("key") != "category":
        return out
    for group in breakdown.get("groups", ()):
        name, episodes = str(group["group"]), int(group["episodes"])
        if name in ENTRY_COUNTS:
            out[name] = (round(float(group.get("success") or 0.0) * episodes), episodes)
    return out


def _shown(value: float | None) -> str:
    return "N/A" if value is None else f"{100 * value:.2f}"


def leaderboard_tables(
    summaries: Sequence[Mapping[str, Any]], brief: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """The run's leaderboard row per agent, one table row per column (BFCL shows percentages).

    Categories not run count as 0 (see the module docstring). ``brief``: :data:`HEADLINE`'s
    columns only; else every column, and the simple ones by language.
    """
    by_agent: dict[str, dict[str, tuple[int, int]]] = {}
    for summary in summaries:
        by_agent.setdefault(str(summary.get("agent", "?")), {}).update(run_results(summary))
    rows_of = {agent: leaderboard_row(results) for agent, results in by_agent.items()}
    shown = HEADLINE if brief else (*COLUMNS, *DETAIL)
    rows = [
        {"column": column, **{agent: _shown(row[column]) for agent, row in rows_of.items()}}
        for column in shown
    ]
    title = "BFCL v4 leaderboard (accuracy %; a category not run counts as 0, as BFCL counts it)"
    return {title: rows} if rows_of else {}
