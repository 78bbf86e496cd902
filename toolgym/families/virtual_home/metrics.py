"""The metrics VirtualHome reports.

Declared apart from the checker, so that the family's declaration imports nothing heavy
(``import toolgym`` stays light).
"""

from __future__ import annotations

from toolgym.benchmarks.score import MetricSpec

METRICS = (
    MetricSpec("lcs", "LCS score"),
    MetricSpec("executable", "executable rate"),
    MetricSpec("strict_executable", "strict executable rate"),
    MetricSpec("goal", "goal satisfied rate"),
    MetricSpec("success", "success rate"),
)
"""The family's metrics; the paper shows executability and LCS."""
