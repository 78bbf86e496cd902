"""The metrics WebShop reports.

Declared apart from the checker, so that the family's declaration imports nothing heavy
(``import toolgym`` stays light).
"""

from __future__ import annotations

from toolgym.benchmarks.score import MetricSpec

METRICS = (
    MetricSpec("reward", "mean reward"),
    MetricSpec("success", "reward 1 rate"),
    MetricSpec("bought", "bought rate (original success)"),
)
