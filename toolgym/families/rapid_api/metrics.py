"""The metrics RapidAPI reports.

Declared apart from the checker, so that the family's declaration imports nothing heavy
(``import toolgym`` stays light).
"""

from __future__ import annotations

from toolgym.benchmarks.score import MetricSpec

METRICS = (
    MetricSpec("success", "pass rate"),
    MetricSpec("precheck", "SoPR pre-check passed"),
    MetricSpec("calls_ok", "relevant APIs answered"),
    MetricSpec("grounded", "answer grounded"),
    MetricSpec("tool_f1", "tool F1"),
    MetricSpec("param_f1", "parameter F1"),
    MetricSpec("executable", "executable rate"),
)

BREAKDOWN = "group"
"""The metric that groups episodes in the per-group table."""
