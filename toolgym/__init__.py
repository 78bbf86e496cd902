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

__version__ = "0.1.0"

from toolgym.envs import ENV_TABLE, register_envs

register_envs()

__all__ = ["ENV_TABLE", "__version__", "register_envs"]
