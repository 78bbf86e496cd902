"""toolgym: offline, deterministic Gymnasium environments for tool-using LLM agents.

Importing the package registers every environment in the ``toolbench/`` namespace::

    >>> import gymnasium as gym
    >>> import toolgym
    >>> env = gym.make("toolbench/HomeSearch-v0")
    >>> obs, info = env.reset(seed=0)
    >>> isinstance(obs, str) and "API.search()" in info["api_docs"]
    True
"""

from __future__ import annotations

from toolgym._version import __version__
from toolgym.envs import env_entries, env_ids, families, register_envs

register_envs()


def __getattr__(name: str) -> object:
    if name == "ENV_TABLE":  # the registered ids, derived from the family specs
        return env_entries()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["__version__", "env_ids", "families", "register_envs"]
