"""The paper's tables, built from summaries of any number of runs.

* :func:`headline_table` is the layout of the paper's main results (Tables 6 and 9): one row per
  agent, one column per tool and headline metric (a family's ``EvalProfile.headline``: its
  success rate, VirtualHome's executability and LCS, WebShop's reward; WebShop long and short
  are two columns), and their mean.
* :func:`error_taxonomy` is the error analysis of Table 3: the share of episodes that failed on
  API selection, argument populating or a non-executable generation, per tool and agent.
* :func:`ablation_table` is Table 7's layout: the headline table with one row per configuration
  and each one's difference from the first over the tools they share, when several
  configurations were run on common tools.

A summary is what :func:`toolgym.evaluation.report.summarize` returns; a ``run`` key, when
present, names the run it came from (``toolgym compare`` adds it), and rows are then labelled
``run/agent``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolgym.evaluation.profile import column_of
from toolgym.evaluation.report import format_table, metric_specs, table_width, wrap_table
from toolgym.tools.errors import (
    FORBIDDEN,
    NON_EXECUTABLE,
    PRECONDITION,
    RUNTIME_ERROR,
    TRUNCATED_GENERATION,
    WRONG_API,
    WRONG_ARGUMENTS,
)

TAXONOMY: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("API selection", (WRONG_API,)),
    ("argument populating", (WRONG_ARGUMENTS,)),
    (
        "non-executable generation",
        (NON_EXECUTABLE, FORBIDDEN, RUNTIME_ERROR, PRECONDITION, TRUNCATED_GENERATION),
    ),
)
"""The paper's three kinds of failure and the error categories each one counts.

A generation that does not run at all, or runs into a forbidden construct, an exception or a
call out of order, is non-executable (the original counted each of those as a crash), and so is a
generation cut by its token limit whose cut action failed (``truncated_generation``). Every
other category (a timeout, an agent failure, a goal not met, a service fault, ...) is ``other``.
"""

_SHORT_TITLES = {"executable": "exec", "lcs": "LCS", "reward": "reward", "success": "success"}


def row_label(summary: Mapping[str, Any]) -> str:
    """A summary's row in the headline table, after its run when it has one.

    Its ``row`` (one per configuration of a run: the agent's per-env labels differ by strategy,
    shots and grammar) or else its agent.
    """
    row = summary.get("row") or summary["agent"]
    run = summary.get("run")
    return f"{run}/{row}" if run else str(row)


def _headline_keys(summary: Mapping[str, Any]) -> list[str]:
    keys = [k for k in summary.get("headline") or ("success",) if k in summary]
    if keys:
        return keys
    specs = metric_specs([summary])
    return [specs[0].key] if specs else []


def headline_columns(summaries: Sequence[Mapping[str, Any]]) -> list[str]:
    """The tool columns of :func:`headline_table`, in first-seen order."""
    columns: dict[str, None] = {}
    for summary in summaries:
        keys = _headline_keys(summary)
        for key in keys:
            columns[_column(summary["env"], key, len(keys))] = None
    return list(columns)


def _column(env_id: str, key: str, count: int) -> str:
    name = column_of(env_id)
    return name if count == 1 else f"{name} {_SHORT_TITLES.get(key, key)}"


def headline_table(
    summaries: Sequence[Mapping[str, Any]], mean_of: str = "success"
) -> list[dict[str, Any]]:
    """Tables 6 and 9: one row per configuration (per run), one column per tool and headline.

    ``mean`` is the mean success rate over the row's envs: every family's ``success`` (a
    WebShop purchase with reward 1, a VirtualHome plan that meets its goals), whatever its
    headline columns show (WebShop's reward, VirtualHome's executability and LCS); ``mean_of``
    names another metric to average instead.

    >>> s = {"env": "toolbench/HomeSearch-v0", "agent": "m", "success": 0.5, "headline": ["success"]}
    >>> v = {"env": "toolbench/VirtualHome-v0", "agent": "m", "success": 0.0, "executable": 1.0,
    ...      "headline": ["executable"]}
    >>> headline_table([s, v])
    [{'agent': 'm', 'HomeSearch': 0.5, 'VirtualHome': 1.0, 'mean': 0.25}]
    """
    rows: dict[str, dict[str, Any]] = {}
    successes: dict[str, list[float]] = {}
    for summary in summaries:
        label = row_label(summary)
        row = rows.setdefault(label, {"agent": label})
        keys = _headline_keys(summary)
        for key in keys:
            row[_column(summary["env"], key, len(keys))] = float(summary[key])
        if mean_of in summary:
            successes.setdefault(label, []).append(float(summary[mean_of]))
    for label, row in rows.items():
        values = successes.get(label, [])
        row["mean"] = sum(values) / len(values) if values else 0.0
    return list(rows.values())


def format_headline_table(summaries: Sequence[Mapping[str, Any]], width: int | None = None) -> str:
    """:func:`headline_table` as text, rates as percentages.

    With ``width``, a table wider than that is cut into blocks of columns that fit
    (:func:`~toolgym.evaluation.report.wrap_table`), each starting with the agent, and the mean
    comes first, beside the agent, instead of last.
    """
    rows = headline_table(summaries)
    columns = ["agent", *headline_columns(summaries), "mean"]
    if width is None or _fits(rows, columns, width):
        return format_table(rows, columns, columns[1:])
    columns = ["agent", "mean", *columns[1:-1]]
    return wrap_table(rows, columns, columns[1:], keys=1, width=width)


def _fits(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], width: int) -> bool:
    return table_width(rows, columns, columns[1:]) <= width


def ablation_table(summaries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Table 7: the configurations side by side on the tools they were all run on.

    Rows are the configurations (agent labels, or ``run/agent``) in first-seen order, with the
    headline table's columns; ``shared mean`` is the mean over the columns every configuration
    has, and ``Δ shared mean`` its difference from the first row's. Empty when fewer than two
    configurations were run, or when they share no tool (a strategy run on one env only is not
    an ablation of the others).

    >>> a = {"env": "toolbench/HomeSearch-v0", "agent": "a", "success": 0.5, "headline": ["success"]}
    >>> rows = ablation_table([a, {**a, "agent": "b", "success": 0.75}])
    >>> [(r["agent"], r["Δ shared mean"]) for r in rows]
    [('a', 0.0), ('b', 0.25)]
    """
    rows = headline_table(summaries)
    shared = [c for c in headline_columns(summaries) if all(c in row for row in rows)]
    if len(rows) < 2 or not shared:
        return []
    means = [sum(row[c] for c in shared) / len(shared) for row in rows]
    return [
        {**row, "shared mean": mean, "Δ shared mean": mean - means[0]}
        for row, mean in zip(rows, means, strict=True)
    ]


def format_ablation_table(summaries: Sequence[Mapping[str, Any]], width: int | None = None) -> str:
    """:func:`ablation_table` as text ("" when fewer than two configurations were run).

    With ``width``, cut into blocks of columns as :func:`format_headline_table` is, the three
    means first.
    """
    rows = ablation_table(summaries)
    if not rows:
        return ""
    means = ["mean", "shared mean", "Δ shared mean"]
    columns = ["agent", *headline_columns(summaries), *means]
    if width is None or _fits(rows, columns, width):
        return format_table(rows, columns, columns[1:])
    columns = ["agent", *means, *columns[1:-3]]
    return wrap_table(rows, columns, columns[1:], keys=1, width=width)


def error_taxonomy(summaries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Table 3: per tool and agent, the share of episodes in each kind of failure.

    Returns:
        One row per summary: ``tool``, ``agent``, ``episodes``, one rate per kind of
        :data:`TAXONOMY`, ``other`` (every other failure) and ``no error`` (episodes without one).

    >>> s = {"env": "toolbench/HomeSearch-v0", "agent": "m", "episodes": 4,
    ...      "errors": {"wrong_api": 1, "non_executable": 2}}
    >>> row = error_taxonomy([s])[0]
    >>> row["API selection"], row["non-executable generation"], row["no error"]
    (0.25, 0.5, 0.25)
    """
    rows = []
    for summary in summaries:
        n = int(summary.get("episodes", 0))
        errors: Mapping[str, int] = summary.get("errors", {})
        row: dict[str, Any] = {
            "tool": column_of(summary["env"]),
            "agent": row_label(summary),
            "episodes": n,
        }
        counted = 0
        for title, categories in TAXONOMY:
            count = sum(int(errors.get(c, 0)) for c in categories)
            counted += count
            row[title] = count / n if n else 0.0
        failed = sum(int(v) for v in errors.values())
        row["other"] = (failed - counted) / n if n else 0.0
        row["no error"] = (n - failed) / n if n else 0.0
        rows.append(row)
    return rows


def format_error_taxonomy(summaries: Sequence[Mapping[str, Any]], width: int | None = None) -> str:
    """:func:`error_taxonomy` as text, shares as percentages.

    With ``width``: when every row is one agent's, the agent column goes (the caller names the
    agent once), and a table still wider is cut into blocks of columns that fit, each starting
    with the tool (and the agent).
    """
    rows = error_taxonomy(summaries)
    rates = [title for title, _ in TAXONOMY] + ["other", "no error"]
    columns = ["tool", "agent", "episodes", *rates]
    if width is None:
        return format_table(rows, columns, rates)
    keys = 2
    if len({r["agent"] for r in rows}) <= 1:
        columns.remove("agent")
        keys = 1
    return wrap_table(rows, columns, rates, keys=keys, width=width)
