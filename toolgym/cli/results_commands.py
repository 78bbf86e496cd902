"""``toolgym compare`` and ``toolgym report``: runs side by side, as text or as one HTML page."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolgym.cli.eval_output import paper_tables_text


def _summaries(runs: Sequence[Any]) -> list[dict[str, Any]]:
    """Every run's summaries in table order, each marked with its run's name (several runs)."""
    from toolgym.envs import env_ids

    order = {env_id: i for i, env_id in enumerate(env_ids())}
    several = len(runs) > 1
    out = [{**s, "run": run.name} if several else dict(s) for run in runs for s in run.summaries]
    return sorted(out, key=lambda s: order.get(s.get("env", ""), len(order)))


def run_facts(runs: Sequence[Any]) -> list[dict[str, Any]]:
    """One row per run: where it is, its episodes, and its time when its summary keeps it."""
    rows = []
    for run in runs:
        meta = run.meta
        rows.append(
            {
                "run": run.name,
                "path": str(run.path),
                "envs": len({env for env, _ in run.records}),
                "episodes": sum(len(r) for r in run.records.values()),
                "started": meta.get("started", ""),
                "wall_s": meta.get("wall_s", ""),
                "episodes/s": meta.get("episodes_per_s", ""),
            }
        )
    return rows


def _cmd_compare(args: argparse.Namespace) -> int:
    from toolgym.evaluation.report import format_table
    from toolgym.evaluation.runs import load_runs

    runs = load_runs(args.runs)
    facts = run_facts(runs)
    print(format_table(facts, list(facts[0])))
    print()
    print(paper_tables_text(_summaries(runs)))
    return 0


def report_tables(
    runs: Sequence[Any], *, complexity: bool = True
) -> dict[str, list[dict[str, Any]]]:
    """The tables a report shows besides its charts: the paper's, and the API complexity score."""
    from toolgym.evaluation.paper_tables import ablation_table, error_taxonomy, headline_table
    from toolgym.evaluation.profile import suite_tables

    summaries = _summaries(runs)
    tables = {
        "Headline results (the paper's Tables 6 and 9)": headline_table(summaries),
        "Error taxonomy (the paper's Table 3, share of episodes)": error_taxonomy(summaries),
    }
    ablation = ablation_table(summaries)
    if ablation:
        tables["Configurations (the paper's Table 7)"] = ablation
    tables = {title: _as_percent(rows) for title, rows in tables.items()}
    tables.update(suite_tables(summaries))  # a benchmark's own (BFCL's leaderboard row)
    if complexity:
        from toolgym.cli.complexity import complexity_rows

        envs = list(dict.fromkeys(env for run in runs for env, _ in run.records))
        rows = [
            {k: f"{v:.2f}" if isinstance(v, float) else v for k, v in row.items()}
            for row in complexity_rows(envs)
        ]
        if rows:
            tables["API complexity score (the paper's Appendix D, test split vs demo pool)"] = rows
    return tables


def _as_percent(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows with their rates (floats) written as percentages, their counts as they are."""
    return [
        {k: f"{100 * v:.1f}%" if isinstance(v, float) else v for k, v in row.items()}
        for row in rows
    ]


def _cmd_report(args: argparse.Namespace) -> int:
    from toolgym.evaluation.html_report import write_html_report
    from toolgym.evaluation.runs import load_runs

    runs = load_runs(args.runs)
    path = write_html_report(
        runs,
        args.out,
        extra_tables=report_tables(runs, complexity=not args.no_complexity),
        max_episodes=args.max_episodes,
    )
    size = Path(path).stat().st_size
    print(f"wrote {path} ({size / 1024:.0f} KiB): open it in a browser, no server needed")
    return 0


def add_parsers(sub: Any, positive: Any) -> None:
    """Add ``compare`` and ``report`` to the command line's subcommands."""
    cmp = sub.add_parser(
        "compare",
        help="put runs side by side: the paper's tables over every run",
        description="Compare runs: each RUN is a results folder (an eval's --out) or one run's "
        "summary (<out>/runs/<run id>.json).",
    )
    cmp.add_argument("runs", nargs="+", metavar="RUN")
    cmp.set_defaults(func=_cmd_compare)

    rep = sub.add_parser(
        "report",
        help="write one self-contained HTML report of runs",
        description="Write one HTML file (no server, no network) with success bars, error "
        "categories, score and step histograms, the paper's tables, the API complexity score "
        "and a browsable table of episodes. Each RUN is a results folder or a run summary.",
    )
    rep.add_argument("runs", nargs="+", metavar="RUN")
    rep.add_argument("--out", default="report.html", help="the HTML file (default report.html)")
    rep.add_argument(
        "--max-episodes",
        type=positive,
        default=5000,
        help="episodes listed in the page's table (default 5000)",
    )
    rep.add_argument(
        "--no-complexity", action="store_true", help="leave out the API complexity score"
    )
    rep.set_defaults(func=_cmd_report)
