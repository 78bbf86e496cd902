"""One self-contained HTML page of evaluation results.

:func:`write_html_report` turns runs (:mod:`toolgym.evaluation.runs`) into a single file that
opens in a browser with no server and no network: charts are inline SVG
(:mod:`toolgym.evaluation.charts`), the style and a few lines of script are in the page, and a
content security policy forbids loading anything else. It holds the runs and their facts, each
family's headline metric per agent, the error categories, reward, F1 and step histograms, any
extra tables, and a table of episodes to browse, filter and search. Everything an agent wrote is
escaped. The same runs give the same bytes.
"""

from __future__ import annotations

import html
import json
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toolgym._version import __version__
from toolgym.evaluation import charts
from toolgym.evaluation.profile import column_of
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.report_model import Family, ReportModel
from toolgym.evaluation.results import atomic_write
from toolgym.evaluation.runs import Run

MAX_EPISODES = 5000
"""Episodes embedded in the page by default."""

SHORT_CHARS = 100
"""Longer texts show this many characters in their cell; the whole text unfolds below."""

NO_ERROR = "(none)"
"""The error filter's value, and the error column, of an episode without an error."""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _number(value: Any, percent: bool = False) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if percent:
            return f"{100 * value:.1f}%"
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    return str(value)


def _table(
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    numeric: set[int],
    *,
    skip_first: bool = False,
) -> str:
    """An HTML table; cells are escaped.

    Args:
        columns: the header.
        rows: the cells, one sequence per row.
        numeric: indexes of the columns aligned right.
        skip_first: leave the first column out (the run's name, when there is one run).
    """
    if skip_first:
        columns, rows = columns[1:], [row[1:] for row in rows]
        numeric = {i - 1 for i in numeric if i > 0}
    head = "".join(f"<th>{_e(c).replace('_', '_<wbr>')}</th>" for c in columns)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="num">{_e(v)}</td>' if i in numeric else f"<td>{_e(v)}</td>"
            for i, v in enumerate(row)
        )
        body.append(f"<tr>{cells}</tr>")
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    return f'<div class="wide">{table}</div>'


def _legend(model: ReportModel) -> str:
    items = "".join(
        f'<span class="key"><span class="swatch" style="background:'
        f'{charts.color(model.color(i, a))}"></span>{_e(model.label(i, a))}</span>'
        for i, a in model.series
    )
    return f'<p class="legend">{items}</p>'


def _runs_section(model: ReportModel) -> str:
    columns = ["run", "path", "started", "wall time", "episodes", "episodes/s", "toolgym"]
    rows = []
    details = []
    for run in model.runs:
        meta = run.meta
        episodes = meta.get("episodes", sum(len(r) for r in run.records.values()))
        wall, rate = meta.get("wall_s"), meta.get("episodes_per_s")
        wall = f"{wall:.1f} s" if isinstance(wall, int | float) else ""
        rate = f"{rate:.2f}" if isinstance(rate, int | float) else ""
        version = meta.get("toolgym_version", "")
        started = meta.get("started", "")
        rows.append([run.name, run.path, started, wall, _number(episodes), rate, version])
        shown = {"started", "wall_s", "episodes", "episodes_per_s", "toolgym_version"}
        facts = []
        for key, value in meta.items():
            if key in shown:
                continue
            if key == "argv" and isinstance(value, list):
                value = shlex.join(str(v) for v in value)
            elif not isinstance(value, str):
                value = json.dumps(value, sort_keys=True, default=str)
            facts.append(f"<dt>{_e(key)}</dt><dd><code>{_e(value)}</code></dd>")
        if facts:
            details.append(
                f"<details><summary>{_e(run.name)}: run facts</summary>"
                f"<dl>{''.join(facts)}</dl></details>"
            )
    known = [k for k in range(len(columns)) if k < 2 or any(row[k] for row in rows)]
    rows = [[row[k] for k in known] for row in rows]
    numeric = {n for n, k in enumerate(known) if k in (4, 5)}
    return (
        '<section id="runs"><h2>Runs</h2>'
        + _table([columns[k] for k in known], rows, numeric)
        + "".join(details)
        + "</section>"
    )


def _results_section(model: ReportModel) -> str:
    parts = [
        '<section id="results"><h2>Results per family</h2>',
        "<p>One bar per agent of each run on each env of the family: the family's headline "
        "metric, as the paper's main table shows it (a success rate, an LCS score or a "
        "mean reward, named on the axis).</p>",
        _legend(model),
    ]
    one = len(model.runs) == 1
    for n, fam in enumerate(model.families.values()):
        entries = model.entries(fam)
        columns = [column_of(env_id) for env_id in fam.envs]
        series = []
        for i, agent in model.series:
            found = [model.summaries.get((i, env_id, agent)) for env_id in fam.envs]
            values = [None if v is None else float(v.get(fam.headline, 0.0)) for v in found]
            if any(v is not None for v in found):
                series.append((model.color(i, agent), values))
        axis = fam.headline_title
        label = f"{fam.title}: {axis} per agent"
        chart = charts.grouped_bars(
            columns, series, ylabel=axis, percent=fam.percent, chart_id=f"bars{n}", label=label
        )
        names = [m for m in fam.metrics if any(m[0] in s for *_, s in entries)]
        head = ["run", "env", "agent", "episodes", *(t for _, t, _ in names), "steps", "errors"]
        rows = []
        for i, env_id, agent, s in entries:
            cells = [_number(s.get(k, ""), p) for k, _, p in names]
            errors = sum((s.get("errors") or {}).values())
            steps = float(s.get("steps", 0.0))
            keys = [model.runs[i].name, column_of(env_id), agent, _number(s.get("episodes", 0))]
            rows.append([*keys, *cells, _number(steps), _number(errors)])
        numeric = set(range(3, len(head)))
        parts.append(
            f'<div><h3 id="family-{n}">{_e(fam.title)}</h3>'
            f'<p class="note">Headline: {_e(fam.headline_title)}.</p>'
            f'<div class="side">{chart}{_table(head, rows, numeric, skip_first=one)}</div></div>'
        )
    parts.append("</section>")
    return "".join(parts)


def _errors_section(model: ReportModel) -> str:
    entries = [e for fam in model.families.values() for e in model.entries(fam)]
    totals: dict[str, int] = {}
    for *_, s in entries:
        for category, count in (s.get("errors") or {}).items():
            totals[str(category)] = totals.get(str(category), 0) + int(count)
    categories = sorted(totals, key=lambda c: (-totals[c], c))
    labels = [f"{column_of(env_id)} · {model.label(i, agent)}" for i, env_id, agent, _ in entries]
    ok = [
        max(0, int(s.get("episodes", 0)) - sum((s.get("errors") or {}).values()))
        for *_, s in entries
    ]
    stacks = [
        (c, charts.color(k), [int((s.get("errors") or {}).get(c, 0)) for *_, s in entries])
        for k, c in enumerate(categories)
    ]
    stacks.append(("no error", charts.NO_ERROR_COLOR, ok))
    chart = charts.stacked_barh(
        labels, stacks, xlabel="episodes", chart_id="errors", label="error categories per env"
    )
    head = ["run", "env", "agent", "episodes", "no error", *categories]
    rows = []
    for k, (i, env_id, agent, s) in enumerate(entries):
        counts = [_number((s.get("errors") or {}).get(c, 0)) for c in categories]
        keys = [model.runs[i].name, column_of(env_id), agent, _number(s.get("episodes", 0))]
        rows.append([*keys, _number(ok[k]), *counts])
    return (
        '<section id="errors"><h2>Error categories</h2>'
        "<p>What decided each episode that failed: one bar per agent on each env, its episodes "
        "by the category of their error.</p>"
        f'<div class="charts">{chart}</div>'
        + _table(head, rows, set(range(3, len(head))), skip_first=len(model.runs) == 1)
        + "</section>"
    )


def _f1(record: EpisodeRecord) -> float | None:
    value = (record.metrics or {}).get("f1")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _pooled(model: ReportModel, fam: Family) -> list[tuple[int, list[EpisodeRecord]]]:
    """Each series' records over the family's envs."""
    out = []
    for i, agent in model.series:
        records = [r for env_id in fam.envs for r in model.records(i, env_id, agent)]
        if records:
            out.append((model.color(i, agent), records))
    return out


def _distributions_section(model: ReportModel) -> str:
    parts = [
        '<section id="distributions"><h2>Reward and F1</h2>',
        "<p>How the episodes' last rewards, and their F1 where the family reports one, are "
        "spread; a family's envs are pooled per agent.</p>",
        _legend(model),
        '<div class="cards">',
    ]
    for n, fam in enumerate(model.families.values()):
        pooled = _pooled(model, fam)
        if not pooled:
            continue
        rewards = [(c, [r.reward for r in records]) for c, records in pooled]
        f1s = [(c, [v for r in records if (v := _f1(r)) is not None]) for c, records in pooled]
        every = [v for _, values in rewards for v in values]
        panels: list[tuple[str, Any, Any]] = [("reward", rewards, charts.value_bins(every))]
        if any(values for _, values in f1s):
            panels.append(("F1", f1s, charts.value_bins([v for _, vs in f1s for v in vs])))
        chart = charts.histograms(
            panels, chart_id=f"hist{n}", label=f"{fam.title}: reward and F1 histograms"
        )
        parts.append(f'<div class="card"><h3>{_e(fam.title)}</h3>{chart}</div>')
    parts.append("</div></section>")
    return "".join(parts)


def _steps_section(model: ReportModel) -> str:
    parts = [
        '<section id="steps"><h2>Steps per episode</h2>',
        "<p>The families played one call per step, or with an episode of more than one step.</p>",
        _legend(model),
        '<div class="cards">',
    ]
    drawn = 0
    for n, fam in enumerate(model.families.values()):
        pooled = _pooled(model, fam)
        if not pooled or not (fam.calls or any(r.steps > 1 for _, rs in pooled for r in rs)):
            continue
        steps = [(c, [r.steps for r in records]) for c, records in pooled]
        bins = charts.step_bins([v for _, values in steps for v in values])
        label = f"{fam.title}: steps per episode"
        panels = [("steps", steps, bins)]
        chart = charts.histograms(panels, chart_id=f"steps{n}", label=label, integer=True)
        parts.append(f'<div class="card"><h3>{_e(fam.title)}</h3>{chart}</div>')
        drawn += 1
    parts.append("</div>")
    if not drawn:
        parts.append("<p>No family here plays more than one step.</p>")
    parts.append("</section>")
    return "".join(parts)


def _extra_section(tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    parts = ['<section id="tables"><h2>Tables</h2>']
    for n, (name, rows) in enumerate(tables.items()):
        columns = list(dict.fromkeys(k for row in rows for k in row))
        cells = [[_number(row.get(c, "")) for c in columns] for row in rows]
        numeric = {
            k
            for k, c in enumerate(columns)
            if rows
            and all(
                isinstance(row.get(c), int | float) and not isinstance(row.get(c), bool)
                for row in rows
                if row.get(c) is not None
            )
        }
        parts.append(f'<h3 id="table-{n}">{_e(name)}</h3>' + _table(columns, cells, numeric))
    parts.append("</section>")
    return "".join(parts)


def _text_cell(text: str) -> str:
    """A cell's text, the first :data:`SHORT_CHARS` characters with the whole below."""
    text = text.strip()
    if len(text) <= SHORT_CHARS and "\n" not in text:
        return f"<td>{_e(text)}</td>"
    short = text.replace("\n", " ")[:SHORT_CHARS].rstrip() + " …"
    return (
        f"<td><details><summary>{_e(short)}</summary>"
        f'<div class="full">{_e(text)}</div></details></td>'
    )


def _chosen(groups: Sequence[Sequence[EpisodeRecord]], cap: int) -> list[int]:
    """How many records of each group to embed: turn by turn, so every group has some."""
    taken = [0] * len(groups)
    left = cap
    while left > 0:
        moved = False
        for g, records in enumerate(groups):
            if left > 0 and taken[g] < len(records):
                taken[g] += 1
                left -= 1
                moved = True
        if not moved:
            break
    return taken


def _episodes_section(model: ReportModel, cap: int) -> str:
    groups = [
        (i, env_id, agent, model.records(i, env_id, agent))
        for fam in model.families.values()
        for i, env_id, agent, _ in model.entries(fam)
    ]
    total = sum(len(records) for *_, records in groups)
    taken = _chosen([records for *_, records in groups], max(0, cap))
    envs = list(dict.fromkeys(env_id for _, env_id, _, _ in groups))
    series = [model.label(i, a) for i, a in model.series]
    categories: set[str] = set()
    rows: list[str] = []
    one = len(model.runs) == 1

    def run_cell(i: int) -> str:
        return "" if one else f'<td class="key">{_e(model.runs[i].name)}</td>'

    for (i, env_id, agent, records), count in zip(groups, taken, strict=True):
        for record in records[:count]:
            category = record.error_category or NO_ERROR
            categories.add(category)
            action = record.action if record.action is not None else "\n".join(record.actions)
            success = (record.metrics or {}).get("success")
            f1 = _f1(record)
            message = str((record.error or {}).get("message", ""))
            rows.append(
                f'<tr data-env="{_e(env_id)}" data-agent="{_e(model.label(i, agent))}" '
                f'data-error="{_e(category)}">'
                + run_cell(i)
                + f'<td class="key">{_e(column_of(env_id))}</td><td class="key">{_e(agent)}</td>'
                f'<td class="key"><code>{_e(json.dumps(record.task_id))}</code></td>'
                + _text_cell(record.instruction)
                + _text_cell(action)
                + _text_cell(record.observation)
                + f'<td class="num">{record.reward:.2f}</td>'
                f'<td class="num">{"" if success is None else _number(bool(success))}</td>'
                f'<td class="num">{"" if f1 is None else f"{f1:.2f}"}</td>'
                f'<td class="key" title="{_e(message)}">{_e(category)}</td>'
                f'<td class="num">{record.steps}</td></tr>'
            )
    left_out = total - len(rows)
    note = (
        f'<p class="note">{len(rows):,} of {total:,} episodes are in this page '
        f"({left_out:,} left out: at most {cap:,}, shared evenly between the agents and envs).</p>"
        if left_out
        else f'<p class="note">All {total:,} episodes.</p>'
    )

    def select(name: str, what: str, values: Sequence[str]) -> str:
        options = "".join(f'<option value="{_e(v)}">{_e(v)}</option>' for v in values)
        return (
            f'<label>{what} <select id="f-{name}"><option value="">all</option>'
            f"{options}</select></label>"
        )

    head = ["env", "agent", "task", "instruction", "action", "last observation", "reward"]
    head = [*(["run"] if not one else []), *head, "success", "F1", "error", "steps"]
    ordered = sorted(categories - {NO_ERROR}) + ([NO_ERROR] if NO_ERROR in categories else [])
    return (
        '<section id="episodes"><h2>Episodes</h2>'
        + note
        + '<form class="filters" onsubmit="return false">'
        + select("env", "env", envs)
        + select("agent", "agent", series)
        + select("error", "error", ordered)
        + '<label>search <input id="f-text" type="search" placeholder="any text"></label>'
        + '<span id="ep-count" class="count"></span></form>'
        + '<div class="scroll"><table id="episode-table"><thead><tr>'
        + "".join(f"<th>{_e(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></div></section>"
    )


SCRIPT = """
(function () {
  var rows = Array.prototype.slice.call(document.querySelectorAll("#episode-table tbody tr"));
  var text = rows.map(function (r) { return r.textContent.toLowerCase(); });
  var env = document.getElementById("f-env"), agent = document.getElementById("f-agent");
  var error = document.getElementById("f-error"), query = document.getElementById("f-text");
  var count = document.getElementById("ep-count");
  function apply() {
    var q = query.value.trim().toLowerCase(), shown = 0;
    rows.forEach(function (r, i) {
      var ok = (!env.value || r.dataset.env === env.value) &&
        (!agent.value || r.dataset.agent === agent.value) &&
        (!error.value || r.dataset.error === error.value) && (!q || text[i].indexOf(q) >= 0);
      r.hidden = !ok;
      if (ok) { shown += 1; }
    });
    count.textContent = shown + " of " + rows.length + " episodes shown";
  }
  [env, agent, error].forEach(function (e) { e.addEventListener("change", apply); });
  query.addEventListener("input", apply);
  apply();
})();
"""
"""The episode table's filters: env, agent, error category and a text search."""

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
  margin: 0 auto; max-width: 1240px; padding: 0 20px 40px; }
h1 { margin: 24px 0 4px; } h2 { border-bottom: 1px solid #ddd; padding-bottom: 4px;
  margin-top: 36px; } h3 { margin: 22px 0 6px; }
.sub, .note { color: #666; } nav ol { columns: 2; max-width: 640px; }
table { border-collapse: collapse; margin: 8px 0 12px; font-size: 13px; }
th, td { border-bottom: 1px solid #e6e6e6; padding: 3px 8px; text-align: left;
  vertical-align: top; }
th { background: #f5f5f5; position: sticky; top: 0; } td.num { text-align: right;
  font-variant-numeric: tabular-nums; white-space: nowrap; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; } svg.chart { max-width: 100%; height: auto;
  display: block; } .cards { display: flex; flex-wrap: wrap; gap: 8px 40px; }
.card { flex: 0 1 auto; min-width: 0; max-width: 100%; overflow-x: auto; }
.side { display: flex; flex-wrap: wrap; gap: 8px 32px; align-items: flex-start; }
.side .wide { margin-top: 12px; flex: 0 1 auto; }
.wide { overflow-x: auto; max-width: 100%; }
.legend .key { margin-right: 16px; white-space: nowrap; }
.swatch { display: inline-block; width: 11px; height: 11px; margin-right: 5px;
  vertical-align: -1px; border-radius: 2px; }
.filters { display: flex; flex-wrap: wrap; gap: 14px; align-items: center; margin: 8px 0; }
.count { color: #444; font-weight: 600; } .scroll { max-height: 80vh; overflow: auto; }
#episode-table td { max-width: 340px; overflow-wrap: anywhere; }
#episode-table td.key { white-space: nowrap; overflow-wrap: normal; }
details summary { cursor: pointer; } .full { white-space: pre-wrap; font-family: ui-monospace,
  monospace; font-size: 12px; background: #fafafa; padding: 4px; margin-top: 4px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; font-size: 13px; }
dd { margin: 0; overflow-wrap: anywhere; }
"""
"""The page's style sheet."""

POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
"""The content security policy: nothing is loaded from outside the page."""


def render_html_report(
    runs: Sequence[Run],
    *,
    title: str = "toolgym results",
    extra_tables: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    max_episodes: int = MAX_EPISODES,
) -> str:
    """The page :func:`write_html_report` writes, as text."""
    model = ReportModel(runs)
    sections = [
        ("runs", "Runs", _runs_section(model)),
        ("results", "Results per family", _results_section(model)),
        ("errors", "Error categories", _errors_section(model)),
        ("distributions", "Reward and F1", _distributions_section(model)),
        ("steps", "Steps per episode", _steps_section(model)),
    ]
    if extra_tables:
        sections.append(("tables", "Tables", _extra_section(extra_tables)))
    sections.append(("episodes", "Episodes", _episodes_section(model, max_episodes)))
    toc = "".join(f'<li><a href="#{key}">{_e(name)}</a></li>' for key, name, _ in sections)
    families = ", ".join(f.title for f in model.families.values())
    episodes = sum(len(r) for run in runs for r in run.records.values())
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>"
        f"<header><h1>{_e(title)}</h1>"
        f'<p class="sub">{len(runs)} run{"s" if len(runs) != 1 else ""}, '
        f"{episodes:,} episodes; families: {_e(families) or 'none'}. "
        f"Made by toolgym {_e(__version__)}.</p></header>"
        f"<nav><h2>Contents</h2><ol>{toc}</ol></nav>"
        + "".join(body for *_, body in sections)
        + f"<script>{SCRIPT}</script></body></html>\n"
    )


def write_html_report(
    runs: Sequence[Run],
    path: str | Path,
    *,
    title: str = "toolgym results",
    extra_tables: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    max_episodes: int = MAX_EPISODES,
) -> Path:
    """Write one self-contained HTML page of the runs' results.

    Args:
        runs: the runs (:func:`~toolgym.evaluation.runs.load_runs`).
        path: the file to write (its folder is created).
        title: the page's title.
        extra_tables: more tables, title -> rows (each row a mapping column -> value).
        max_episodes: at most this many episodes in the browsable table, shared evenly between
            the agents and envs (the page says how many were left out).

    Returns:
        The path written.
    """
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    page = render_html_report(
        runs, title=title, extra_tables=extra_tables, max_episodes=max_episodes
    )
    atomic_write(out, page.encode("utf-8"))
    return out
