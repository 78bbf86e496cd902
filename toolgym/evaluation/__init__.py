"""Evaluation: the loop that plays agents in environments, episode records, summaries, benchmarks.

* ``runner``: :func:`~toolgym.evaluation.runner.evaluate` (resumable JSONL records), and the
  loops ``run_episode``, ``run_batch``, ``run_dfsdt``;
* ``records``: :class:`~toolgym.evaluation.records.EpisodeRecord`;
* ``report``: summaries over the metrics each family declares, and the paper's tables;
* ``perf`` and ``llm_perf``: the benchmark scripts behind ``toolgym bench``.
"""

from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.runner import EvalResult, evaluate

__all__ = ["EpisodeRecord", "EvalResult", "evaluate"]
