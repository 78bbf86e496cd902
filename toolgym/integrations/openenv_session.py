"""One OpenEnv session's episode: how the OpenEnv server maps a session to a pooled episode.

An OpenEnv server makes one environment object per session (a WebSocket connection, or one HTTP
request). Each holds an :class:`EpisodeSession`: the session's episode is drawn from the server's
:class:`~toolgym.integrations.sessions.SessionPool` on first use (the first ``reset`` or
``list_tools``), lives as long as the session, and goes back to the pool when the session closes
(its env kept for the next session) or when the pool reclaims it after ``idle_timeout_s``
without use. A session whose episode was reclaimed gets ``no_episode`` errors for its calls until
it resets; a closed one, for good.

Nothing here imports openenv-core: :mod:`toolgym.integrations.openenv_env` wraps it in OpenEnv's
types.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from toolgym.errors import UserInputError
from toolgym.integrations.episode import CallResult, EpisodeStart, ToolEpisode
from toolgym.integrations.rows import row_seed
from toolgym.integrations.sessions import (
    SessionError,
    SessionPool,
    UnknownSessionError,
    check_session_id,
)
from toolgym.tools.errors import register_category

T = TypeVar("T")

NO_EPISODE = register_category(
    "no_episode",
    "a tool call the server has no episode for: none was started in the session (reset first), "
    "or the session's episode was reclaimed after idling or closed",
)

NOT_STARTED = (
    "no episode has started in this session; reset first (episodes are played over the "
    "WebSocket /ws: each HTTP request is a session of its own)"
)

_MCP_ERROR_TYPES = {
    "wrong_api": "tool_not_found",
    "wrong_arguments": "invalid_args",
    "non_executable": "invalid_args",
    "timeout": "timeout",
}


def mcp_error_type(category: str) -> str:
    """The MCP ``ToolErrorType`` value OpenEnv's tool clients get for a toolgym error category.

    >>> mcp_error_type("wrong_api"), mcp_error_type("wrong_arguments"), mcp_error_type("x")
    ('tool_not_found', 'invalid_args', 'execution_error')
    """
    return _MCP_ERROR_TYPES.get(category, "execution_error")


def _no_episode(message: str, *, done: bool) -> CallResult:
    return CallResult(message, done=done, error={"category": NO_EPISODE, "message": message})


class EpisodeSession:
    """The episode of one OpenEnv session: a pool session opened on first use, closed once.

    Every use goes through :meth:`SessionPool.run` (the episode's lock), and checks, under that
    lock, that the pool session is still this one's: an episode reclaimed after idling and reused
    by another session is never touched again from here.

    Args:
        pool: the pool the episode is drawn from.
    """

    def __init__(self, pool: SessionPool) -> None:
        self.pool = pool
        self._lock = threading.Lock()
        self._sid: str | None = None
        self._closed = False
        self._episode_id: str | None = None

    # -- the pool session ---------------------------------------------------------------------

    def _open(self) -> str:
        """The pool session, opened (again, if it was reclaimed) when there is none."""
        with self._lock:
            if self._closed:
                raise SessionError(
                    "this session is closed (its connection ended or it idled past "
                    f"{self.pool.idle_timeout_s:g} s); open a new connection"
                )
            if self._sid is None or self._sid not in self.pool:
                self._sid, _ = self.pool.open()
            return self._sid

    def _run(self, sid: str, work: Callable[[ToolEpisode], T]) -> T:
        def checked(episode: ToolEpisode) -> T:
            if sid not in self.pool:  # reclaimed while waiting for the lock
                raise UnknownSessionError(sid)
            return work(episode)

        return self.pool.run(sid, checked)

    # -- what the protocol asks ---------------------------------------------------------------

    def reset(
        self, *, seed: Any = None, task_id: Any = None, episode_id: Any = None
    ) -> tuple[EpisodeStart, str]:
        """Start an episode; its start and its episode id (``episode_id``, or a new one).

        Raises:
            UserInputError: a bad seed (a :class:`~toolgym.errors.RowError`), task id or
                episode id.
            SessionError: the session is closed, or the server holds ``max_sessions`` already.
        """
        if episode_id is not None:
            try:
                check_session_id(episode_id)
            except SessionError as e:
                raise UserInputError(str(e).replace("session id", "episode id")) from e
        seed = row_seed({"seed": seed}, name="(the reset request)")
        sid = self._open()
        try:
            start = self._run(sid, lambda ep: ep.reset(seed=seed, task_id=task_id))
        except UnknownSessionError:  # reclaimed between opening and starting: once more
            sid = self._open()
            start = self._run(sid, lambda ep: ep.reset(seed=seed, task_id=task_id))
        self._episode_id = episode_id if episode_id is not None else uuid.uuid4().hex
        return start, self._episode_id

    def call(self, name: Any, arguments: Any) -> CallResult:
        """Call a tool; a :class:`CallResult` whatever came (see the module docstring)."""
        with self._lock:
            closed, sid = self._closed, self._sid
        if closed:
            return _no_episode("this session is closed; open a new connection", done=True)
        if sid is None:
            return _no_episode(NOT_STARTED, done=False)
        try:
            return self._run(sid, lambda ep: self._call(ep, name, arguments))
        except UnknownSessionError:
            return _no_episode(
                f"this session's episode was reclaimed after idling "
                f"{self.pool.idle_timeout_s:g} s; reset to start a new one",
                done=True,
            )

    @staticmethod
    def _call(episode: ToolEpisode, name: Any, arguments: Any) -> CallResult:
        if episode.state()["task_id"] is None:  # a pool session reopened, never reset
            return _no_episode(NOT_STARTED, done=False)
        return episode.call(name, arguments)

    def tools(self) -> tuple[list[dict[str, Any]], bool]:
        """The current task's tools as OpenAI function schemas, and whether the episode ended."""
        sid = self._open()
        return self._run(sid, lambda ep: (ep.tool_schemas(), ep.done))

    def state(self) -> dict[str, Any]:
        """The episode as JSON-ready values (OpenEnv's ``episode_id`` and ``step_count`` too)."""
        state: dict[str, Any] = {
            "env_id": self.pool.env_id,
            "task_id": None,
            "seed": None,
            "step_count": 0,
            "done": False,
            "reward": 0.0,
            "metrics": None,
        }
        with self._lock:
            sid = self._sid
        if sid is not None:
            with contextlib.suppress(UnknownSessionError):
                state.update(self._run(sid, lambda ep: ep.state()))
        state["episode_id"] = self._episode_id if state["task_id"] is not None else None
        return state

    def close(self) -> None:
        """Hand the episode back to the pool (waits for a call in flight); closing twice is safe."""
        with self._lock:
            self._closed = True
            sid, self._sid = self._sid, None
        if sid is None:
            return
        try:
            episode = self.pool.get(sid)
        except UnknownSessionError:
            return
        with episode.lock:
            self.pool.close(sid)


__all__ = ["NOT_STARTED", "NO_EPISODE", "EpisodeSession", "mcp_error_type"]
