"""The oracle agent: plays the gold actions of the current task (an upper bound and a self-test)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from toolgym.agents.base import Agent
from toolgym.envs.protocol import task_env


class OracleAgent(Agent):
    """Replays the env's ``oracle_actions()``; it reads the gold, so it is privileged.

    Args:
        env: the environment it plays in (wrapped or not).
    """

    name = "oracle"

    def __init__(self, env: gym.Env[Any, Any]) -> None:
        self.env = task_env(env)
        self._actions: list[str] = []
        self._next = 0

    def reset(self, observation: str, info: dict[str, Any]) -> None:
        """Fetch the gold actions of the new episode's task."""
        self._actions = list(self.env.oracle_actions())
        self._next = 0

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """The next gold action."""
        if self._next >= len(self._actions):
            raise RuntimeError("the oracle has no actions left; was reset() called?")
        action = self._actions[self._next]
        self._next += 1
        return action
