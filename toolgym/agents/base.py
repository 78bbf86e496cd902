"""The agent interface: agents choose actions, the runner owns the loop."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class Agent(ABC):
    """Maps observations to actions. ``reset`` is called at the start of every episode."""

    name: str = "agent"

    def reset(self, observation: str, info: dict[str, Any]) -> None:  # noqa: B027 - optional hook
        """Prepare for a new episode (default: nothing to do)."""

    @abstractmethod
    def act(self, observation: str, info: dict[str, Any]) -> str:
        """Return the next action for ``observation``."""

    def act_with_info(self, observation: str, info: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The next action and what the runner should record about it (default: nothing)."""
        return self.act(observation, info), {}
