"""What ``toolgym eval`` and ``toolgym compare`` print and write: the results tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toolgym.evaluation.paper_tables import (
    format_ablation_table,
    format_error_taxonomy,
    format_headline_table,
)
from toolgym.evaluation.report import (
    format_breakdowns,
    format_fault_comparison,
    format_paper_table,
    format_summary_table,
    merged_with_saved,
    paper_layout,
    summaries_lock,
    write_summaries,
)
from toolgym.evaluation.results import atomic_write


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
    """Print an evaluation's tables: per env, per metric and tool, the paper's, the breakdowns."""
    every = [*summaries, *faulty]
    print(format_summary_table(every))
    print()
    print(format_paper_table(paper_layout(every)))
    print()
    print(paper_tables_text(every))
    breakdowns = format_breakdowns(summaries)
    if breakdowns:
        print()
        print(breakdowns)
    if faulty:
        print(f"\nwith and without service faults (rate {faults:g}, seed {seed}):")
        print(format_fault_comparison(summaries, faulty))


def write_eval_outputs(summaries: Sequence[Mapping[str, Any]], out_dir: str | Path) -> list[str]:
    """Merge a run's summaries into ``out_dir``'s and write them; the names of the files.

    The merge is per env and agent (:func:`merged_with_saved`), tables included. Runs writing into one folder at the same time take turns (:func:`summaries_lock`), so each
    one's envs end up in the summary.
    """
    with summaries_lock(out_dir):
        merged = merged_with_saved(summaries, out_dir)
        paths = write_summaries(merged, out_dir)
        tables = Path(out_dir) / "summary_tables.txt"
        atomic_write(tables, (paper_tables_text(merged) + "\n").encode())
    return sorted([*(p.name for p in paths.values()), tables.name])
