"""Summaries of evaluation records and plain-text tables."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
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
