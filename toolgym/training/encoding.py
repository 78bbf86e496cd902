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


def encode_tool_conversation(
    messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]], tokenizer: Any
) -> dict[str, list[int]]:
    """Token ids and labels of a tool-calling conversation: the loss on the assistant's turns only.

    ``messages`` and ``tools`` are a record of :mod:`toolgym.training.tool_call_data`, rendered
    by the tokenizer's chat template (one that renders tools and calls:
    :func:`~toolgym.training.grpo_env.tool_chat_template`), as a rollout renders them. Each
    assistant turn is what the template adds between the conversation up to it (with the
    generation prompt) and the conversation through it, so its labels are exactly the tokens
    the model writes at that point, its end-of-turn token included; everything else (system,
    user, tool answers, the generation prompts) is labelled ``-100``.

    Raises:
        ValueError: a template whose rendering of a longer conversation does not start with the
            rendering of a shorter one (the turns could not be told apart).
    """

    def ids(upto: int, generation: bool) -> list[int]:
        rendered = tokenizer.apply_chat_template(
            list(messages[:upto]),
            tools=list(tools) or None,
            add_generation_prompt=generation,
            tokenize=False,
        )
        return list(tokenizer(rendered, add_special_tokens=False)["input_ids"])

    input_ids: list[int] = []
    labels: list[int] = []
    for i, message in enumerate(messages):
        if message.get("role") != "assistant":
            continue
        before = ids(i, True)
        through = ids(i + 1, False)
        if before[: len(input_ids)] != input_ids or through[: len(before)] != before:
            raise ValueError(
                f"the chat template renders turn {i} in a way that changes the turns before it; "
                "expected each rendering to extend the previous one"
            )
        labels += [IGNORE_INDEX] * (len(before) - len(input_ids))
        labels += through[len(before) :]
        input_ids = through
    rest = ids(len(messages), False)
    if rest[: len(input_ids)] == input_ids:
        labels += [IGNORE_INDEX] * (len(rest) - len(input_ids))
        input_ids = rest
    return {"input_ids": input_ids, "labels": labels}
