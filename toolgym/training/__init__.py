"""Programmatic alignment: supervised data from the ``train`` generators, and LoRA fine-tuning.

The paper's third technique fine-tunes a model on (goal, program) pairs that a family's templates
generate (:meth:`~toolgym.benchmarks.suite.TaskSuite.train_pairs`). :mod:`toolgym.training.sft_data`
turns those pairs into examples whose prompt is exactly the prompt the LLM agent builds at
evaluation time, and :mod:`toolgym.training.finetune` trains a LoRA adapter on them with
``peft`` and the ``transformers`` Trainer (``pip install "toolgym[hf,train]"``). Neither module
imports torch until it trains.
"""

from __future__ import annotations

from toolgym.training.finetune import (
    DEFAULT_TARGET_MODULES,
    FinetuneConfig,
    FinetuneResult,
    train_adapter,
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

__all__ = [
    "DATA_FORMATS",
    "DEFAULT_TARGET_MODULES",
    "AllShotAgent",
    "FinetuneConfig",
    "FinetuneResult",
    "SFTExample",
    "build_examples",
    "example_records",
    "program_env_ids",
    "to_dataset",
    "train_adapter",
    "write_jsonl",
]
