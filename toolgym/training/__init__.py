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
TRL's ``GRPOTrainer``). :mod:`toolgym.training.grpo` runs that trainer with a LoRA adapter
(``toolgym train-rl``), and :mod:`toolgym.training.rollouts` plays whole episodes of multi-step
families, with token ids and log-probabilities, for policy-gradient trainers.
"""

from __future__ import annotations

from toolgym.training.finetune import (
    DEFAULT_TARGET_MODULES,
    FinetuneConfig,
    FinetuneResult,
    train_adapter,
)
from toolgym.training.grpo import RLConfig, RLResult, train_grpo
from toolgym.training.reward_bench import reward_throughput
from toolgym.training.rewards import (
    EXECUTABLE_BONUS,
    SHAPINGS,
    ExecutionReward,
    RewardRecord,
    partial_credit_metric,
)
from toolgym.training.rl_data import (
    rl_examples,
    single_step_env_ids,
    task_difficulties,
    to_rl_dataset,
)
from toolgym.training.rl_report import write_rl_report
from toolgym.training.rollouts import (
    StepSample,
    Trajectory,
    collect_rollouts,
    group_advantages,
    rollout_agent,
    to_policy_gradient_samples,
)
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
from toolgym.training.trainable import cpu_grpo_args, trainable_model

__all__ = [
    "DATA_FORMATS",
    "DEFAULT_TARGET_MODULES",
    "EXECUTABLE_BONUS",
    "SHAPINGS",
    "AllShotAgent",
    "ExecutionReward",
    "FinetuneConfig",
    "FinetuneResult",
    "RLConfig",
    "RLResult",
    "RewardRecord",
    "SFTExample",
    "StepSample",
    "Trajectory",
    "build_examples",
    "collect_rollouts",
    "cpu_grpo_args",
    "example_records",
    "group_advantages",
    "partial_credit_metric",
    "program_env_ids",
    "reward_throughput",
    "rl_examples",
    "rollout_agent",
    "single_step_env_ids",
    "task_difficulties",
    "to_dataset",
    "to_policy_gradient_samples",
    "to_rl_dataset",
    "train_adapter",
    "train_grpo",
    "trainable_model",
    "write_jsonl",
    "write_rl_report",
]
