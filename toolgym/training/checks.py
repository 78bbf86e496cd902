"""Checks of training settings, shared by the fine-tuning and GRPO configurations."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from toolgym.errors import UserInputError


def check_whole(values: Mapping[str, tuple[Any, int]], optional: Collection[str] = ()) -> None:
    """Each ``name: (value, low)`` is a whole number >= ``low`` (or ``None`` when optional).

    >>> check_whole({"n": (0, 1)})
    Traceback (most recent call last):
    ...
    toolgym.errors.UserInputError: n is a whole number >= 1; got 0
    """
    for name, (value, low) in values.items():
        if value is None and name in optional:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise UserInputError(f"{name} is a whole number >= {low}; got {value!r}")


def check_positive(values: Mapping[str, Any]) -> None:
    """Each value is a finite number > 0."""
    for name, number in values.items():
        if not isinstance(number, int | float) or not math.isfinite(number) or number <= 0:
            raise UserInputError(f"{name} is a number > 0; got {number!r}")


def check_lora(dropout: float, target_modules: Sequence[str]) -> None:
    """A LoRA dropout in [0, 1) and at least one target module."""
    if not 0 <= dropout < 1:
        raise UserInputError(f"lora_dropout is a number in [0, 1); got {dropout!r}")
    if not target_modules:
        raise UserInputError("target_modules names at least one module; got none")


def config_dict(config: Any) -> dict[str, Any]:
    """A configuration dataclass as JSON-ready values (tuples as lists)."""
    return {
        k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(config).items()
    }
