"""The metrics Tabletop reports.

Declared apart from the checker, so that the family's declaration imports nothing heavy
(``import toolgym`` stays light).
"""

from __future__ import annotations

from toolgym.benchmarks.score import MetricSpec

METRICS = (
    MetricSpec("success", "success rate"),
    MetricSpec("executable", "executable rate"),
    MetricSpec("original_success", "success rate (original checks)"),
)
"""The metrics a Tabletop summary averages."""

BREAKDOWN = "template"
"""The metric that groups episodes in the per-template table."""
