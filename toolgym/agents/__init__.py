"""Agents: ``act(observation, info) -> action``. LLM backends import their SDKs lazily."""

from typing import Any

from toolgym.agents.base import Agent
from toolgym.agents.oracle import OracleAgent
from toolgym.agents.random_agent import RandomAgent

AGENT_NAMES = ("oracle", "random")


def make_agent(name: str, env: Any, seed: int = 0) -> Agent:
    """Build a built-in agent by name (``oracle`` or ``random``) for ``env``."""
    if name == "oracle":
        return OracleAgent(env)
    if name == "random":
        return RandomAgent(env, seed)
    raise ValueError(f"agent must be one of {', '.join(AGENT_NAMES)}; got {name!r}")


__all__ = ["AGENT_NAMES", "Agent", "OracleAgent", "RandomAgent", "make_agent"]
