"""The OpenEnv types of the toolgym server: its ``Environment``, observations and state.

openenv-core is an optional dependency (``pip install "toolgym[openenv]"``), and importing it
takes seconds, so the classes are built on first use by :func:`openenv_types` (importing this
module needs nothing). The environment is a thin shell over
:class:`~toolgym.integrations.openenv_session.EpisodeSession`: it checks what OpenEnv passes, turns
the session's answers into OpenEnv's observation models (OpenEnv's MCP ``CallToolObservation`` and
``ListToolsObservation`` for ``call_tool`` and ``list_tools`` actions), and hands the episode
back when OpenEnv closes the session.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
from dataclasses import dataclass
from typing import Any

from toolgym.errors import DependencyNotInstalled, UserInputError
from toolgym.integrations.episode import CallResult
from toolgym.integrations.openenv_session import EpisodeSession, mcp_error_type
from toolgym.integrations.sessions import SessionPool

INSTALL = 'pip install "toolgym[openenv]"'
"""The command that installs what the server needs."""


def require_openenv() -> None:
    """Import openenv-core's server, or say how to install it.

    Raises:
        DependencyNotInstalled: openenv-core cannot be imported.
    """
    try:
        for module in ("openenv.core.env_server.http_server", "openenv.core.env_server.mcp_types"):
            importlib.import_module(module)
    except ImportError as e:
        raise DependencyNotInstalled(
            f"the OpenEnv server needs openenv-core 0.3, which cannot be imported ({e}); "
            f"install it with: {INSTALL}"
        ) from e


@dataclass(frozen=True)
class OpenEnvTypes:
    """The OpenEnv classes of the server (built once openenv-core is imported).

    Attributes:
        environment: the ``Environment`` subclass; ``environment(pool)`` is one session's.
        action: the action class the server validates steps with (OpenEnv's ``CallToolAction``;
            ``list_tools`` actions are routed to ``ListToolsAction`` by OpenEnv).
        observation: the observation of a tool call (a ``CallToolObservation``).
        reset_observation: the observation of a reset.
        state: the state class.
    """

    environment: type[Any]
    action: type[Any]
    observation: type[Any]
    reset_observation: type[Any]
    state: type[Any]


@functools.cache
def openenv_types() -> OpenEnvTypes:
    """The server's OpenEnv classes.

    Raises:
        DependencyNotInstalled: openenv-core is not installed.
    """
    require_openenv()
    from openenv.core.env_server.interfaces import Environment
    from openenv.core.env_server.mcp_types import (
        CallToolAction,
        CallToolObservation,
        ListToolsAction,
        ListToolsObservation,
        Tool,
        ToolError,
    )
    from openenv.core.env_server.types import EnvironmentMetadata, Observation, State
    from pydantic import Field

    from toolgym._version import __version__

    class ToolgymResetObservation(Observation):
        """The start of an episode: the task's instruction and tools."""

        text: str = Field(description="The first observation: the user's request")
        instruction: str = Field(description="The task's instruction")
        task_id: str = Field(description="The task's id (test-007, train-123)")
        episode_id: str = Field(description="The episode's id")
        tools: list[dict[str, Any]] = Field(
            description="The task's tools as OpenAI function schemas"
        )
        info: dict[str, Any] = Field(default_factory=dict, description="The env's reset info")

    class ToolgymObservation(CallToolObservation):
        """What one tool call did (an MCP ``CallToolObservation`` with toolgym's fields)."""

        text: str = Field(description="The tool's answer, or why the call failed")
        tool_error: dict[str, Any] | None = Field(
            default=None, description="{category, message} when the call failed"
        )
        metrics: dict[str, Any] | None = Field(
            default=None, description="The episode's metrics, when it ended"
        )
        step: int = Field(default=0, description="Steps taken in the episode")
        truncated: bool = Field(default=False, description="Whether it ended at its step limit")

    class ToolgymState(State):
        """The episode's state."""

        env_id: str = Field(description="The env the server plays")
        task_id: str | None = Field(default=None, description="The task's id")
        seed: int | None = Field(default=None, description="The reset's seed")
        done: bool = Field(default=False, description="Whether the episode ended")
        reward: float = Field(default=0.0, description="The episode's reward (0 until it ends)")
        metrics: dict[str, Any] | None = Field(default=None, description="Its metrics, at end")

    def call_observation(name: str, result: CallResult) -> Any:
        """The observation of a tool call: MCP's fields, then toolgym's."""
        error = result.error
        return ToolgymObservation(
            tool_name=name,
            result={
                "content": [{"type": "text", "text": result.observation}],
                "data": result.observation,
                "is_error": error is not None,
            },
            error=None
            if error is None
            else ToolError(
                error_type=mcp_error_type(str(error.get("category"))),
                message=str(error.get("message", result.observation)),
            ),
            text=result.observation,
            tool_error=error,
            metrics=result.metrics,
            step=result.step,
            truncated=result.truncated,
            reward=result.reward,
            done=result.done,
        )

    class ToolgymEnvironment(Environment):
        """One OpenEnv session of a toolgym env (see :mod:`toolgym.integrations.openenv_server`).

        Calls of an env whose steps never block run on the server's event loop (a tool call
        takes well under a millisecond), so a step costs no thread hand-off; those of a
        sandboxed family or a model user run on the pool's one blocking worker thread, one at
        a time, as before, but off the loop. Making and closing sessions
        runs on OpenEnv's one shared worker thread.
        """

        SUPPORTS_CONCURRENT_SESSIONS = True
        REQUIRES_SINGLE_THREAD_EXECUTOR = True

        def __init__(self, pool: SessionPool) -> None:
            super().__init__()
            self.session = EpisodeSession(pool)

        def reset(
            self,
            seed: int | None = None,
            episode_id: str | None = None,
            task_id: str | int | None = None,
            **kwargs: Any,
        ) -> Any:
            """Start an episode (see :meth:`EpisodeSession.reset`); its first observation.

            Raises:
                UserInputError: a bad seed, task id or episode id, or another argument.
                SessionError: the session is closed, or the server is full.
            """
            if kwargs:
                raise UserInputError(
                    "reset takes seed, task_id and episode_id; got also "
                    f"{', '.join(sorted(map(str, kwargs)))[:200]}"
                )
            start, eid = self.session.reset(seed=seed, task_id=task_id, episode_id=episode_id)
            return ToolgymResetObservation(
                text=start.observation,
                instruction=str(start.info.get("instruction", start.observation)),
                task_id=start.task_id,
                episode_id=eid,
                tools=start.tools,
                info=start.info,
                reward=None,
                done=False,
            )

        async def reset_async(
            self,
            seed: int | None = None,
            episode_id: str | None = None,
            task_id: str | int | None = None,
            **kwargs: Any,
        ) -> Any:
            """:meth:`reset`, on the event loop or in a worker thread, as :meth:`step_async`."""
            work = functools.partial(
                self.reset, seed=seed, episode_id=episode_id, task_id=task_id, **kwargs
            )
            return await self._run(work)

        async def _run(self, work: Any) -> Any:
            """``work()``: on the loop, or on the pool's one blocking worker thread."""
            pool = self.session.pool
            if pool.steps_inline:
                return work()
            return await asyncio.get_running_loop().run_in_executor(pool.blocking_worker(), work)

        def step(self, action: Any, timeout_s: float | None = None, **kwargs: Any) -> Any:
            """One ``call_tool`` or ``list_tools`` action; never raises for what a client sent.

            Raises:
                UserInputError: another action class (only a server misconfigured sends one).
            """
            if isinstance(action, ListToolsAction):
                schemas, done = self.session.tools()
                tools = [
                    Tool(
                        name=s["function"]["name"],
                        description=s["function"].get("description") or "",
                        input_schema=s["function"].get("parameters") or {"type": "object"},
                    )
                    for s in schemas
                ]
                return ListToolsObservation(tools=tools, done=done, reward=None)
            if isinstance(action, CallToolAction):
                result = self.session.call(action.tool_name, action.arguments)
                return call_observation(action.tool_name, result)
            raise UserInputError(
                f"a step is a call_tool or list_tools action; got {type(action).__name__}"
            )

        async def step_async(
            self, action: Any, timeout_s: float | None = None, **kwargs: Any
        ) -> Any:
            """:meth:`step`, on the event loop or in a worker thread.

            On the loop there is no thread hand-off; an env whose calls may block (a sandboxed
            program, a model user) steps on the pool's one blocking worker, so that the server
            goes on answering (pings, states, tool lists, new sessions) meanwhile.
            """
            return await self._run(functools.partial(self.step, action, timeout_s, **kwargs))

        @property
        def state(self) -> Any:
            """The episode's state."""
            return ToolgymState(**self.session.state())

        def get_metadata(self) -> Any:
            """The env's name, description and toolgym's version."""
            env_id = self.session.pool.env_id
            return EnvironmentMetadata(
                name=env_id,
                description=f"toolgym {env_id}: an offline, deterministic tool-use task, played "
                "one tool call per step (call_tool / list_tools actions)",
                version=__version__,
            )

        def close(self) -> None:
            """Hand the session's episode back to the pool."""
            self.session.close()

    return OpenEnvTypes(
        environment=ToolgymEnvironment,
        action=CallToolAction,
        observation=ToolgymObservation,
        reset_observation=ToolgymResetObservation,
        state=ToolgymState,
    )


__all__ = ["INSTALL", "OpenEnvTypes", "openenv_types", "require_openenv"]
