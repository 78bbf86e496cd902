"""Training sequences: an example's tokens, with the loss on its program only, and padded batches."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolgym.agents.backends.base import Prompt
from toolgym.training.sft_data import SFTExample

IGNORE_INDEX = -100
"""The label of a token the loss leaves out (the prompt, the padding)."""


def encode_example(
    example: SFTExample, tokenizer: Any, render: Callable[[Prompt], str], add_special_tokens: bool
) -> dict[str, list[int]]:
    """Token ids and labels of an example: the rendered prompt (labels ``-100``), then the program.

    The prompt is tokenized on its own, with the special tokens the backend adds at inference, so
    its tokens are exactly those the model reads before generating; the program follows, then
    the end-of-text token, which is what stops the generation.
    """
    prompt_ids = list(
        tokenizer(render(example.prompt), add_special_tokens=add_special_tokens)["input_ids"]
    )
    target = list(tokenizer(example.completion, add_special_tokens=False)["input_ids"])
    target.append(int(tokenizer.eos_token_id))
    return {
        "input_ids": prompt_ids + target,
        "labels": [IGNORE_INDEX] * len(prompt_ids) + target,
    }


class PadCollator:
    """Right-pads a batch of encoded examples (padding masked out of attention and loss)."""

    def __init__(self, pad_id: int) -> None:
        self.pad_id = pad_id

    def __call__(self, features: Sequence[dict[str, list[int]]]) -> dict[str, Any]:
        """The batch as ``input_ids``, ``attention_mask`` and ``labels`` tensors."""
        import torch

        width = max(len(f["input_ids"]) for f in features)
        ids, mask, labels = [], [], []
        for f in features:
            pad = width - len(f["input_ids"])
            ids.append(f["input_ids"] + [self.pad_id] * pad)
            mask.append([1] * len(f["input_ids"]) + [0] * pad)
            labels.append(f["labels"] + [IGNORE_INDEX] * pad)
        return {
            "input_ids": torch.tensor(ids),
            "attention_mask": torch.tensor(mask),
            "labels": torch.tensor(labels),
        }
