"""The metrics the Sheets family reports.

Declared apart from the checker, so that the family's declaration imports nothing heavy
(``import toolgym`` stays light).
"""

from __future__ import annotations

from toolgym.benchmarks.score import MetricSpec

SHEETS_METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("success", "success rate"),
    MetricSpec("executable", "executable rate"),
    MetricSpec("cells", "mean cell accuracy"),
)
"""The metrics of the Sheets family."""
