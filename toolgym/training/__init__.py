"""Programmatic alignment: supervised data from the ``train`` generators, and LoRA fine-tuning.

The paper's third technique fine-tunes a model on (goal, program) pairs that a family's templates
generate (:meth:`~toolgym.benchmarks.suite.TaskSuite.train_pairs`). :mod:`toolgym.training.sft_data`
turns those pairs into examples whose prompt is exactly the prompt the LLM agent builds at
evaluation time, and :mod:`toolgym.training.finetune` trains a LoRA adapter on them with
``peft`` and the ``transformers`` Trainer (``pip install "toolgym[hf,train]"``). Neither module
imports torch until it trains.

For reinforcement learning, :mod:`toolgym.training.rl_data` gives the same prompts without the
gold, and :class:`~toolgym.training.rewards.ExecutionReward` scores a trainer's completions by
running them in the task's env, exactly as the evaluation scores them (a reward function for
TRL's ``GRPOTrainer``).
"""

from __future__ import annotations

from toolgym.training.finetune import (
    DEFAULT_TARGET_MODULES,
    FinetuneConfig,
    FinetuneResult,
    train_adapter,
)
from toolgym.training.reward_bench import reward_throughput
from toolgym.training.rewards import (
    EXECUTABLE_BONUS,
    SHAPINGS,
    ExecutionReward,
    RewardRecord,
    partial_credit_metric,
)
from toolgym.training.rl_data import rl_examples, single_step_env_ids, to_rl_dataset
from toolgym.training.sft_data import (
    DATA_FORMATS,
    AllShotAgent,
    SFTExample,
    build_examples,
    example_records,
    program_env_ids,
    to_dataset,
    write_jsonl,
)

__all__ = [
    "DATA_FORMATS",
    "DEFAULT_TARGET_MODULES",
    "EXECUTABLE_BONUS",
    "SHAPINGS",
    "AllShotAgent",
    "ExecutionReward",
    "FinetuneConfig",
    "FinetuneResult",
    "RewardRecord",
    "SFTExample",
    "build_examples",
    "example_records",
    "partial_credit_metric",
    "program_env_ids",
    "reward_throughput",
    "rl_examples",
    "single_step_env_ids",
    "to_dataset",
    "to_rl_dataset",
    "train_adapter",
    "write_jsonl",
]
