"""What ``toolgym eval`` and ``toolgym compare`` print and write: the results tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toolgym.evaluation.paper_tables import (
    format_ablation_table,
    format_error_taxonomy,
    format_headline_table,
    row_label,
)
from toolgym.evaluation.profile import suite_tables
from toolgym.evaluation.report import (
    ENV_TABLE_WIDTH,
    format_breakdowns,
    format_env_table,
    format_fault_comparison,
    format_paper_table,
    format_summary_table,
    format_table,
    paper_layout,
    wrap_table,
)
from toolgym.evaluation.results import atomic_write
from toolgym.evaluation.summary_files import merged_with_saved, summaries_lock, write_summaries


def paper_tables_text(summaries: Sequence[Mapping[str, Any]]) -> str:
    """The paper's tables of the summaries, titled: headline, error taxonomy, and ablation."""
    parts = [
        "headline (the paper's Tables 6 and 9):\n" + format_headline_table(summaries),
        "errors (the paper's Table 3, share of episodes):\n" + format_error_taxonomy(summaries),
    ]
    ablation = format_ablation_table(summaries)
    if ablation:
        parts.append("configurations (the paper's Table 7):\n" + ablation)
    return "\n\n".join(parts)


def print_eval_tables(
    summaries: Sequence[Mapping[str, Any]],
    faulty: Sequence[Mapping[str, Any]],
    faults: float | None,
    seed: int,
) -> None:
    """Print an evaluation's tables, headline last.

    Per env (success, executability and the metrics the family is known by, in 120 columns),
    the breakdowns, the paper's error taxonomy and ablation, the comparison with faults, then
    the headline: one row per model, one mean over success rates. Every metric of every env is
    in the results files (``summary_tables.txt``, the CSV and the HTML report), not printed.
    """
    every = [*summaries, *faulty]
    print(format_env_table(every))
    benchmark = suite_tables_text(summaries, brief=True, width=ENV_TABLE_WIDTH)
    if benchmark:
        print()
        print(benchmark)
    breakdowns = format_breakdowns(summaries, every=False)
    if breakdowns:
        print()
        print(breakdowns)
    print()
    agents = list(dict.fromkeys(row_label(s) for s in every))
    print(
        "errors (the paper's Table 3, share of episodes"
        + (f"; {agents[0]}" if len(agents) == 1 else "")
        + "):\n"
        + format_error_taxonomy(every, width=ENV_TABLE_WIDTH)
    )
    ablation = format_ablation_table(every, width=ENV_TABLE_WIDTH)
    if ablation:
        print()
        print("configurations (the paper's Table 7):\n" + ablation)
    if faulty:
        print(f"\nwith and without service faults (rate {faults:g}, seed {seed}):")
        print(format_fault_comparison(summaries, faulty, width=ENV_TABLE_WIDTH))
    print()
    print("headline (the paper's Tables 6 and 9; mean: the success rate over the envs):")
    print(format_headline_table(every, width=ENV_TABLE_WIDTH))


def suite_tables_text(
    summaries: Sequence[Mapping[str, Any]], brief: bool = False, width: int | None = None
) -> str:
    """The benchmarks' own tables of a run (BFCL's leaderboard row), titled; "" when none.

    With ``width``, each table is cut into blocks of columns that fit, each repeating the
    column that names the rows.
    """
    parts = []
    for title, rows in suite_tables(summaries, brief).items():
        columns = list(dict.fromkeys(k for row in rows for k in row))
        text = (
            format_table(rows, columns) if width is None else wrap_table(rows, columns, width=width)
        )
        parts.append(f"{title}:\n" + text)
    return "\n\n".join(parts)


def full_tables_text(summaries: Sequence[Mapping[str, Any]]) -> str:
    """Every table of the summaries: the paper's, the benchmarks', every metric per env and tool."""
    parts = [
        paper_tables_text(summaries),
        suite_tables_text(summaries),
        "every metric, per env:\n" + format_summary_table(summaries),
        format_breakdowns(summaries),
        "every metric, per tool (the paper's layout):\n"
        + format_paper_table(paper_layout(summaries)),
    ]
    return "\n\n".join(p for p in parts if p)


def write_eval_outputs(summaries: Sequence[Mapping[str, Any]], out_dir: str | Path) -> list[str]:
    """Merge a run's summaries into ``out_dir``'s and write them; the names of the files.

    The merge is per env and agent (:func:`merged_with_saved`), tables included. Runs writing into one folder at the same time take turns (:func:`summaries_lock`), so each
    one's envs end up in the summary.
    """
    with summaries_lock(out_dir):
        merged = merged_with_saved(summaries, out_dir)
        paths = write_summaries(merged, out_dir)
        tables = Path(out_dir) / "summary_tables.txt"
        atomic_write(tables, (full_tables_text(merged) + "\n").encode())
    return sorted([*(p.name for p in paths.values()), tables.name])
