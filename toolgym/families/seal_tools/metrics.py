"""The metrics Seal-Tools reports.

Declared apart from the checker, so that the family's declaration imports nothing heavy
(``import toolgym`` stays light).
"""

from __future__ import annotations

from toolgym.benchmarks.score import MetricSpec

BREAKDOWN = "kind"
"""The metric that groups episodes: the task's kind."""


def _pooled(key: str, title: str, correct: str, *denominators: str) -> MetricSpec:
    tops = (correct,) * len(denominators)
    return MetricSpec(key, title, pooled=(tops, denominators))


METRICS = (
    MetricSpec("success", "success rate"),
    _pooled("format_acc", "Format ACC", "n_correct_format", "n_instances"),
    _pooled("tool_p", "Tool P", "n_correct_api", "n_predict_api"),
    _pooled("tool_r", "Tool R", "n_correct_api", "n_gold_api"),
    _pooled("tool_f1", "Tool F1", "n_correct_api", "n_predict_api", "n_gold_api"),
    _pooled("param_p", "Parameter P", "n_correct_param", "n_predict_param"),
    _pooled("param_r", "Parameter R", "n_correct_param", "n_gold_param"),
    _pooled("param_f1", "Parameter F1", "n_correct_param", "n_predict_param", "n_gold_param"),
    _pooled(
        "tool_f1_1to1", "Tool F1 (one-to-one)", "n_correct_api_1to1", "n_predict_api", "n_gold_api"
    ),
    _pooled(
        "param_f1_1to1",
        "Parameter F1 (one-to-one)",
        "n_correct_param_1to1",
        "n_predict_param",
        "n_gold_param",
    ),
)
"""The family's metrics (Seal-Tools' table, plus success and the one-to-one F1s)."""
