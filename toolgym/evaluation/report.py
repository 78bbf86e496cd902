"""Summaries of evaluation records and plain-text tables.

A summary aggregates exactly the metrics the env's family declares (its ``FamilySpec.metrics``):
the mean of each over the episodes (or, for a pooled metric, its ratio of summed counts), the
error counts, and the mean number of steps. Tables and the paper's layout (one column per tool)
are built from whatever metrics the summaries carry.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolgym.benchmarks.score import F1_METRICS, MetricSpec
from toolgym.evaluation.profile import column_of
from toolgym.evaluation.records import EpisodeRecord
from toolgym.tools.errors import REPORTED_CATEGORIES


def summarize(
    records: Sequence[EpisodeRecord],
    metrics: Sequence[MetricSpec] = F1_METRICS,
    breakdown: str | None = None,
    headline: Sequence[str] = (),
    known_by: Sequence[str] = (),
) -> dict[str, Any]:
    """Aggregate episode records of one env and agent.

    Args:
        records: the episodes.
        metrics: the metrics to average (the family's declaration).
        breakdown: a metric whose value groups the episodes (the family's
            ``EvalProfile.breakdown``): the summary then also holds each metric per group.
        headline: the metrics the paper's main table shows (the family's
            ``EvalProfile.headline``), kept under ``headline`` for
            :mod:`toolgym.evaluation.paper_tables`.
        known_by: the metrics the printed per-env table shows beside success and
            executability (the family's ``EvalProfile.known_metrics``), kept under
            ``known_by``.

    Episodes a failure that is not the agent's ended (a simulated user that could not answer:
    :attr:`EpisodeRecord.unscored`) are left out of everything but ``unscored``.

    Returns:
        ``env``, ``agent``, ``episodes`` (those scored), the mean of each metric, one count per
        reported error category, ``other_errors`` (timeouts, agent failures, later
        categories), mean ``steps``, the service ``faults`` met, every category's count under
        ``errors``, the metric declarations under ``metric_specs``, ``unscored`` (the episodes
        left out) and, when there are some, ``unscored_errors`` (how many of each category);
        with ``breakdown``, ``breakdown``: ``{"key", "groups": [{"group", "episodes",
        <metric>...}, ...]}`` in first-seen order.
    """
    lost = [r for r in records if r.unscored is not None]
    out: dict[str, Any] = {
        "env": records[0].env_id if records else "",
        "agent": records[0].agent if records else "",
    }
    records = [r for r in records if r.unscored is None]
    n = len(records)
    counts = Counter(r.error_category for r in records if r.error is not None)
    out["episodes"] = n
    for spec in metrics:
        out[spec.key] = spec.aggregate(r.metrics or {} for r in records)
    for category in REPORTED_CATEGORIES:
        out[category] = counts.get(category, 0)
    out["other_errors"] = sum(v for k, v in counts.items() if k not in REPORTED_CATEGORIES)
    out["steps"] = _mean(float(r.steps) for r in records)
    out["faults"] = sum(r.faults for r in records)
    out["errors"] = {str(k): v for k, v in sorted(counts.items(), key=lambda kv: str(kv[0]))}
    out["metric_specs"] = [{"key": m.key, "title": m.title, "percent": m.percent} for m in metrics]
    out["unscored"] = len(lost)
    if lost:
        why = Counter(str((r.unscored or {}).get("category")) for r in lost)
        out["unscored_errors"] = dict(sorted(why.items()))
    if headline:
        out["headline"] = list(headline)
    if known_by:
        out["known_by"] = list(known_by)
    if breakdown is not None:
        groups: dict[str, list[EpisodeRecord]] = {}
        for r in records:
            groups.setdefault(str((r.metrics or {}).get(breakdown, "?")), []).append(r)
        rows = []
        for name, members in groups.items():
            row: dict[str, Any] = {"group": name, "episodes": len(members)}
            for spec in metrics:
                row[spec.key] = spec.aggregate(r.metrics or {} for r in members)
            rows.append(row)
        out["breakdown"] = {"key": breakdown, "groups": rows}
    return out


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def metric_specs(summaries: Sequence[Mapping[str, Any]]) -> list[MetricSpec]:
    """The metrics the summaries carry, each once, in first-seen order."""
    seen: dict[str, MetricSpec] = {}
    for summary in summaries:
        for spec in summary.get("metric_specs", []):
            seen.setdefault(spec["key"], MetricSpec(spec["key"], spec["title"], spec["percent"]))
    return list(seen.values())


def summary_columns(summaries: Sequence[Mapping[str, Any]]) -> list[str]:
    """The columns of the per-env table: the metrics, then the error counts and steps."""
    metrics = [m.key for m in metric_specs(summaries)]
    lost = ["unscored"] if any(s.get("unscored") for s in summaries) else []
    return [
        "env",
        "agent",
        "episodes",
        *lost,
        *metrics,
        *REPORTED_CATEGORIES,
        "other_errors",
        "steps",
    ]


def format_table(
    rows: Sequence[Mapping[str, Any]],
    columns: Sequence[str],
    percent: Iterable[str] = (),
) -> str:
    """Rows as an aligned plain-text table (``percent`` columns as percentages, one decimal).

    >>> print(format_table([{"env": "a", "success": 0.5}], ["env", "success"], ["success"]))
    env  success
    ---  -------
    a      50.0%
    """
    rate_columns = set(percent)

    def cell(column: str, value: Any) -> str:
        if column in rate_columns and isinstance(value, float):
            return f"{100 * value:.1f}%"
        if isinstance(value, float):
            return f"{value:.2f}"
        return str(value)

    cells = [[cell(c, row.get(c, "")) for c in columns] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
    numeric = [
        all(_is_numeric(row.get(c)) or row.get(c) in ("", None) for row in rows)
        and any(_is_numeric(row.get(c)) for row in rows)
        for c in columns
    ]

    def line(values: Sequence[str]) -> str:
        parts = [
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    header = [
        c.ljust(w) if not num else c.rjust(w)
        for c, w, num in zip(columns, widths, numeric, strict=True)
    ]
    return "\n".join(
        ["  ".join(header).rstrip(), "  ".join("-" * w for w in widths)] + [line(r) for r in cells]
    )


def table_width(
    rows: Sequence[Mapping[str, Any]], columns: Sequence[str], percent: Iterable[str] = ()
) -> int:
    """The width of :func:`format_table`'s text: its longest line."""
    return max(len(line) for line in format_table(rows, columns, percent).splitlines())


def wrap_table(
    rows: Sequence[Mapping[str, Any]],
    columns: Sequence[str],
    percent: Iterable[str] = (),
    keys: int = 1,
    width: int = 120,
) -> str:
    """:func:`format_table`, cut into blocks of columns that each fit in ``width`` columns.

    Every block repeats the first ``keys`` columns (what names a row), so each row keeps its
    name; blocks are parted by a blank line. A table that fits, or one whose keys and any one
    other column pass ``width`` already, is one block.

    >>> rows = [{"agent": "a", "x": 0.5, "y": 0.25}]
    >>> print(wrap_table(rows, ["agent", "x", "y"], ["x", "y"], width=12))
    agent      x
    -----  -----
    a      50.0%
    <BLANKLINE>
    agent      y
    -----  -----
    a      25.0%
    """
    percent = list(percent)

    def wide(names: Sequence[str]) -> int:
        return table_width(rows, names, percent)

    head, rest = list(columns[:keys]), list(columns[keys:])
    blocks: list[list[str]] = []
    for column in rest:
        if blocks and wide([*head, *blocks[-1], column]) <= width:
            blocks[-1].append(column)
        else:
            blocks.append([column])
    if len(blocks) <= 1 or any(wide([*head, *block]) > width for block in blocks):
        return format_table(rows, columns, percent)  # cutting would not make it fit
    return "\n\n".join(format_table(rows, [*head, *block], percent) for block in blocks)


def format_summary_table(summaries: Sequence[Mapping[str, Any]]) -> str:
    """The per-env table of :func:`summarize` results."""
    percent = [m.key for m in metric_specs(summaries) if m.percent]
    return format_table(summaries, summary_columns(summaries), percent)


_SHORT = {"mean F1": "F1", "mean reward": "reward", "LCS score": "LCS",
          "SoPR pre-check passed": "SoPR pre-check", "mean cell accuracy": "cell accuracy",
          "success rate (original checks)": "original success", "parameter F1": "param F1"}  # fmt: skip
"""Metric titles as the per-env table writes them beside their values."""
ENV_TABLE_WIDTH = 120
"""The width the printed per-env table keeps to (a terminal's)."""


def _title(summary: Mapping[str, Any], key: str) -> str:
    titles = {m["key"]: m["title"] for m in summary.get("metric_specs", [])}
    title = str(titles.get(key, key))
    return _SHORT.get(title, title)


def _rate(value: Any, percent: bool = True) -> str:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return ""
    return f"{100 * value:.1f}%" if percent else f"{value:.2f}"


def env_table(summaries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The printed per-env rows: each env's success, executability and the metrics it is known by.

    One row per env and model (a summary's ``row``, else its agent), with ``episodes``, the
    success rate, the executable rate when the family reports one, and under ``also`` the one or
    two metrics the family is known by (``known_by``: RapidAPI's SoPR pre-check and tool F1),
    each with its name. Every metric of every family is in the results files, not here.
    """
    rows = []
    for summary in summaries:
        percents = {m["key"]: m["percent"] for m in summary.get("metric_specs", [])}
        also = [
            f"{_title(summary, key)} {_rate(summary[key], percents.get(key, True))}"
            for key in summary.get("known_by") or ()
            if key in summary and key not in ("success", "executable")
        ]
        row: dict[str, Any] = {
            "env": str(summary["env"]),
            "model": str(summary.get("row") or summary["agent"]),
            "episodes": summary.get("episodes", 0),
            "also": ", ".join(also),
        }
        for key in ("success", "executable"):
            if _is_numeric(summary.get(key)):
                row[key] = float(summary[key])
        if summary.get("unscored"):
            row["unscored"] = summary["unscored"]
        rows.append(row)
    return rows


def format_env_table(summaries: Sequence[Mapping[str, Any]], width: int = ENV_TABLE_WIDTH) -> str:
    """:func:`env_table` as text that fits in ``width`` columns.

    A table too wide shows env ids without their namespace (``toolbench/``), then shortens a
    model label too long for the rest from its middle (``hf:smo...-1shot``); the full labels
    are in the headline table and the results files.
    """
    rows = env_table(summaries)
    columns = ["env", "model", "episodes", "success", "executable", "also"]
    if any("unscored" in r for r in rows):
        columns.insert(3, "unscored")
    for column in ("executable", "also"):
        if not any(r.get(column) for r in rows):
            columns.remove(column)
    return _fitted(rows, columns, ("success", "executable"), "model", width)


def _fitted(
    rows: list[dict[str, Any]],
    columns: Sequence[str],
    percent: Sequence[str],
    label: str,
    width: int,
) -> str:
    """``rows`` as a table, made to fit ``width`` columns by shortening its names (in place).

    Env ids lose their namespace (``toolbench/``, or any other) when every one has the same,
    then the ``label`` column's values too long for the rest lose their middle
    (``hf:smo...-1shot``), then the env ids do (``todo/Lo...-v0``). Names shortened alike keep
    more of themselves, so that no two print the same, even past the width.
    """
    text = format_table(rows, columns, percent)
    over = _overflow(text, width)
    namespaces = {r["env"].partition("/")[0] for r in rows if "/" in r["env"]}
    if over > 0 and len(namespaces) == 1 and all("/" in r["env"] for r in rows):
        prefix = f"{namespaces.pop()}/"  # every env is in one namespace: it goes without saying
        for r in rows:
            r["env"] = r["env"].removeprefix(prefix)
        text = format_table(rows, columns, percent)
        over = _overflow(text, width)
    for column in (label, "env"):
        if over <= 0 or not rows:
            break
        for r, name in zip(rows, _shortened([r[column] for r in rows], over), strict=True):
            r[column] = name
        text = format_table(rows, columns, percent)
        over = _overflow(text, width)
    return text


def _overflow(text: str, width: int) -> int:
    """How many columns the widest line of ``text`` has past ``width``."""
    return max((len(line) for line in text.splitlines()), default=0) - width


def _shortened(names: list[str], over: int) -> list[str]:
    """``names`` cut from the middle by ``over`` characters (to 12 at least), kept distinct."""
    longest = max(map(len, names))
    keep = max(12, longest - over)
    while keep < longest and len({_elided(n, keep) for n in names}) < len(set(names)):
        keep += 1  # two names cut alike: keep more of each
    return [_elided(name, keep) for name in names]


def _elided(name: str, keep: int) -> str:
    """``name`` in at most ``keep`` characters, its middle replaced by ``...`` if too long."""
    if len(name) <= keep:
        return name
    half = (keep - 3) // 2
    return f"{name[:half]}...{name[len(name) - (keep - 3 - half) :]}"


def format_breakdowns(summaries: Sequence[Mapping[str, Any]], every: bool = True) -> str:
    """The per-group tables of the summaries that have a breakdown ("" when none has).

    ``every=False`` keeps the columns the printed per-env table has (success, executability and
    the metrics the family is known by) instead of every metric.
    """
    parts = []
    for summary in summaries:
        breakdown = summary.get("breakdown")
        if not breakdown:
            continue
        specs = metric_specs([summary])
        if not every:
            shown = {"success", "executable", *(summary.get("known_by") or ())}
            specs = [m for m in specs if m.key in shown]
        rows = [{breakdown["key"]: g["group"], **g} for g in breakdown["groups"]]
        columns = [breakdown["key"], "episodes", *(m.key for m in specs)]
        table = format_table(rows, columns, [m.key for m in specs if m.percent])
        parts.append(f"{summary['env']} ({summary['agent']}) per {breakdown['key']}:\n{table}")
    return "\n\n".join(parts)


def fault_comparison(
    clean: Sequence[Mapping[str, Any]], faulty: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Side by side, per env: each metric without and with service faults, and the faults met.

    Args:
        clean: summaries (:func:`summarize`) of runs without faults.
        faulty: summaries of the same envs and tasks with faults, in the same order.

    Returns:
        One row per env: each metric, then the same with faults, the faults met (slow answers
        included) and the episodes that ended on a ``service_error``.
    """
    rows = []
    for plain, broken in zip(clean, faulty, strict=True):
        row: dict[str, Any] = {"env": plain["env"], "agent": plain["agent"]}
        row["episodes"] = plain["episodes"]
        for spec in metric_specs([plain]):
            row[spec.key] = plain[spec.key]
            row[f"{spec.key} w/ faults"] = broken[spec.key]
        row["faults met"] = broken.get("faults", 0)
        row["service errors"] = broken.get("errors", {}).get("service_error", 0)
        rows.append(row)
    return rows


def format_fault_comparison(
    clean: Sequence[Mapping[str, Any]],
    faulty: Sequence[Mapping[str, Any]],
    width: int | None = None,
) -> str:
    """The :func:`fault_comparison` table as text (rates as percentages).

    With ``width`` (the printed table), only the success rates are compared, beside the faults
    met, one row per env and model, and the names are shortened to fit as
    :func:`format_env_table`'s are; without it, every metric is compared.
    """
    rows = fault_comparison(clean, faulty)
    rates = [m.key for m in metric_specs(clean) if m.percent]
    percent = [*rates, *(f"{k} w/ faults" for k in rates)]
    if width is None:
        return format_table(rows, list(dict.fromkeys(k for row in rows for k in row)), percent)
    for row, summary in zip(rows, clean, strict=True):
        row["env"], row["model"] = str(row["env"]), str(summary.get("row") or row["agent"])
    columns = ["env", "model", "episodes", "success", "success w/ faults"]
    return _fitted(rows, [*columns, "faults met", "service errors"], percent, "model", width)


def _is_numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


COUNT_ROW = "_count"
"""The key marking a :func:`paper_layout` row of a metric that is a count, not a rate."""


def paper_layout(summaries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The paper's layout: one row per metric (per agent), one column per tool, plus the mean.

    >>> from toolgym.benchmarks.score import F1_METRICS
    >>> s = {"env": "toolbench/A-v0", "agent": "m", "success": 0.5, "f1": 0.5,
    ...      "executable": 1.0, "episodes": 2,
    ...      "metric_specs": [{"key": m.key, "title": m.title, "percent": m.percent}
    ...                       for m in F1_METRICS]}
    >>> rows = paper_layout([s])
    >>> rows[0]["metric"], rows[0]["A"], rows[0]["mean"]
    ('success rate', 0.5, 0.5)
    """
    agents = list(dict.fromkeys(s["agent"] for s in summaries))
    specs = metric_specs(summaries)
    rows = []
    for agent in agents:
        mine = [s for s in summaries if s["agent"] == agent]
        for key, title, percent in [(m.key, m.title, m.percent) for m in specs] + [
            ("episodes", "episodes", False)
        ]:
            row: dict[str, Any] = {"agent": agent, "metric": title}
            if not percent:
                row[COUNT_ROW] = True
            values = []
            for s in mine:
                if key in s:
                    row[tool_name(s["env"])] = s[key]
                    values.append(s[key])
            if not values:
                continue
            row["mean"] = sum(values) / len(values) if key != "episodes" else sum(values)
            rows.append(row)
    return rows


def tool_name(env_id: str) -> str:
    """``toolbench/HomeSearch-v0`` -> ``HomeSearch``.

    A version with a column name of its own gives it (``WebShop long``, ``WebShop short``).
    """
    return column_of(env_id)


def format_paper_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """:func:`paper_layout` rows as text (rates as percentages)."""
    columns = list(dict.fromkeys(k for row in rows for k in row if k != COUNT_ROW))
    shown = []
    for row in rows:
        cells = {}
        for c in columns:
            value = row.get(c, "")
            if isinstance(value, float):
                value = f"{value:.2f}" if row.get(COUNT_ROW) else f"{100 * value:.1f}%"
            cells[c] = value
        shown.append(cells)
    return format_table(shown, columns)
