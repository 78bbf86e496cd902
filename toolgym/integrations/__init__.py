"""toolgym inside the stacks people train and run agents with.

One episode played by tool calls (:class:`~toolgym.integrations.episode.ToolEpisode`) and many
of them per process (:class:`~toolgym.integrations.sessions.SessionPool`) are the core; each
stack is a thin adapter over them, in a module of its own whose third-party package is an extra:

* :mod:`.trl`: the environment objects of TRL's ``GRPOTrainer`` (``environment_factory``);
* :mod:`.openenv_server`: an OpenEnv server (``toolgym serve-env``, extra ``openenv``);
* :mod:`.mcp_server`: an MCP server over stdio and streamable HTTP (``toolgym mcp``, extra
  ``mcp``);
* :mod:`.verifiers`: a verifiers environment (``load_environment``, extra ``verifiers``).
"""

from __future__ import annotations

from toolgym.integrations.episode import CallResult, EpisodeStart, ToolEpisode
from toolgym.integrations.sessions import (
    SessionError,
    SessionLimitError,
    SessionPool,
    UnknownSessionError,
)

__all__ = [
    "CallResult",
    "EpisodeStart",
    "SessionError",
    "SessionLimitError",
    "SessionPool",
    "ToolEpisode",
    "UnknownSessionError",
]
