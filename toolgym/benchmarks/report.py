"""Summaries of evaluation records and plain-text tables."""

from __future__ import annotations

import csv
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from toolgym.tools.errors import CATEGORIES

SUMMARY_COLUMNS: tuple[str, ...] = (
    "env",
    "agent",
    "episodes",
    "success",
    "f1",
    "executable",
    *CATEGORIES,
    "other_errors",
    "steps",
)


def summarize(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Aggregate episode records of one env and agent.

    Returns:
        ``episodes``, ``success`` (rate), ``f1`` (mean), ``executable`` (rate), one count per error
        category, ``other_errors`` (timeouts, agent failures) and mean ``steps``.
    """
    n = len(records)
    categories = Counter(
        (r.get("error") or {}).get("category") for r in records if r.get("error") is not None
    )
    out: dict[str, Any] = {
        "env": records[0]["env_id"] if records else "",
        "agent": records[0]["agent"] if records else "",
        "episodes": n,
        "success": _mean(float(r["metrics"]["success"]) for r in records),
        "f1": _mean(float(r["metrics"]["f1"]) for r in records),
        "executable": _mean(float(r["metrics"]["executable"]) for r in records),
    }
    for category in CATEGORIES:
        out[category] = categories.pop(category, 0)
    out["other_errors"] = sum(categories.values())
    out["steps"] = _mean(float(r["steps"]) for r in records)
    return out


def _mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def format_table(
    rows: Sequence[Mapping[str, Any]], columns: Sequence[str] = SUMMARY_COLUMNS
) -> str:
    """Rows as an aligned plain-text table (rates as percentages with one decimal).

    >>> print(format_table([{"env": "a", "success": 0.5}], ["env", "success"]))
    env  success
    ---  -------
    a      50.0%
    """
    rate_columns = {"success", "f1", "executable"}

    def cell(column: str, value: Any) -> str:
        if column in rate_columns and isinstance(value, float):
            return f"{100 * value:.1f}%"
        if isinstance(value, float):
            return f"{value:.2f}"
        return str(value)

    cells = [[cell(c, row.get(c, "")) for c in columns] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
    numeric = [all(_is_numeric(row.get(c)) for row in rows) and bool(rows) for c in columns]

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


def _is_numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


PAPER_ROWS: tuple[tuple[str, str], ...] = (
    ("success", "success rate"),
    ("f1", "mean F1"),
    ("executable", "executable rate"),
    ("episodes", "episodes"),
)


def paper_layout(summaries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The paper's layout: one row per metric (per agent), one column per tool, plus the mean.

    >>> rows = paper_layout([{"env": "toolbench/A-v0", "agent": "m", "success": 0.5, "f1": 0.5,
    ...                        "executable": 1.0, "episodes": 2}])
    >>> rows[0]["metric"], rows[0]["A"], rows[0]["mean"]
    ('success rate', 0.5, 0.5)
    """
    agents = list(dict.fromkeys(s["agent"] for s in summaries))
    rows = []
    for agent in agents:
        mine = [s for s in summaries if s["agent"] == agent]
        for key, title in PAPER_ROWS:
            row: dict[str, Any] = {"agent": agent, "metric": title}
            for s in mine:
                row[tool_name(s["env"])] = s[key]
            values = [s[key] for s in mine]
            row["mean"] = sum(values) / len(values) if key != "episodes" else sum(values)
            rows.append(row)
    return rows


def tool_name(env_id: str) -> str:
    """``toolbench/HomeSearch-v0`` -> ``HomeSearch``."""
    return env_id.split("/")[-1].rsplit("-v", 1)[0]


def format_paper_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """:func:`paper_layout` rows as text (rates as percentages)."""
    columns = list(dict.fromkeys(k for row in rows for k in row))
    shown = []
    for row in rows:
        cells = {}
        for c in columns:
            value = row.get(c, "")
            if row.get("metric") != "episodes" and isinstance(value, float):
                value = f"{100 * value:.1f}%"
            cells[c] = value
        shown.append(cells)
    return format_table(shown, columns)


def write_summaries(summaries: Sequence[Mapping[str, Any]], out_dir: str | Path) -> dict[str, Path]:
    """Write ``summary.json``, ``summary.csv`` (per env) and ``summary_paper.{txt,csv}``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out / "summary.json",
        "csv": out / "summary.csv",
        "paper_txt": out / "summary_paper.txt",
        "paper_csv": out / "summary_paper.csv",
    }
    paper = paper_layout(summaries)
    paths["json"].write_text(
        json.dumps({"per_env": list(summaries), "paper": paper}, indent=2) + "\n"
    )
    _write_csv(paths["csv"], summaries, list(SUMMARY_COLUMNS))
    paths["paper_txt"].write_text(format_paper_table(paper) + "\n")
    _write_csv(paths["paper_csv"], paper, list(dict.fromkeys(k for r in paper for k in r)))
    return paths


def _write_csv(path: Path, rows: Sequence[Mapping[str, Any]], columns: list[str]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
