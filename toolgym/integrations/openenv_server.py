"""toolgym as an OpenEnv server: ``toolgym serve-env ENV_ID`` (extra ``openenv``).

`OpenEnv <https://github.com/meta-pytorch/OpenEnv>`_ (``openenv-core`` 0.3) serves environments
over HTTP and WebSocket with ``reset``, ``step`` and ``state``; its clients (``EnvClient``,
``GenericEnvClient``, ``MCPToolClient`` and their ``.sync()`` wrappers) and the trainers built on
them (TRL's ``GRPOTrainer(environment_factory=...)`` with an environment that wraps a client) play
any server that speaks it. :func:`make_app` builds such a server for one toolgym env with
openenv-core's own :func:`~openenv.core.env_server.http_server.create_fastapi_app`, so the wire
protocol is OpenEnv's, unchanged:

* a WebSocket connection to ``/ws`` is one session, with one episode of its own. The session's
  environment object is made by a factory per connection; its episode is drawn from a
  :class:`~toolgym.integrations.sessions.SessionPool` on the first ``reset`` (an env reused from
  closed sessions, not a new ``gym.make``) and handed back when the connection closes, when the
  client vanishes (the socket drops, or stops answering pings) or after ``idle_timeout_s``
  without a message;
* ``reset`` takes ``seed`` (an int >= 0), ``task_id`` (``test-007``; without it the seed draws a
  task) and ``episode_id``; its observation carries the task's instruction (``instruction``,
  ``text``), ``task_id`` and the task's tools as OpenAI function schemas (``tools``);
* ``step`` takes OpenEnv's standard MCP actions: ``{"type": "call_tool", "tool_name",
  "arguments"}`` (one tool call, JSON arguments) and ``{"type": "list_tools"}``. A call's
  observation is a ``CallToolObservation`` (``tool_name``, ``result`` with the text in
  ``data`` and ``content``, ``error`` as MCP's ``{error_type, message}``) with toolgym's own
  fields beside: ``text`` (the tool's answer), ``tool_error`` (``{category, message}`` when the
  call failed), ``metrics`` (when the episode ended), ``step`` and ``truncated``; ``reward`` and
  ``done`` are OpenEnv's;
* ``state`` gives ``episode_id``, ``step_count``, ``env_id``, ``task_id``, ``seed``, ``done``,
  ``reward`` and ``metrics``.

Nothing a client sends crashes the server or another session. Agent mistakes (unknown tools, bad
arguments, calls after the end) are observations with ``tool_error``, as in ``env.step``; a call
before any reset, or after the session's episode was reclaimed, is one too (category
``no_episode``); a bad ``seed`` or ``task_id`` is OpenEnv's error message (``EXECUTION_ERROR``
on the WebSocket, 400 on HTTP); malformed and oversized messages are answered by OpenEnv or by
the guard in front of it (:mod:`toolgym.integrations.openenv_guard`), and the session goes on.

The stateless HTTP endpoints of OpenEnv (``POST /reset``, ``POST /step``, ``GET /state``) make a
fresh environment per request, as OpenEnv defines them: ``/reset`` shows a task's start, ``/step``
has no episode to step. Episodes are played over the WebSocket.

The parts: :mod:`~toolgym.integrations.openenv_session` maps a session to a pooled episode,
:mod:`~toolgym.integrations.openenv_env` holds the OpenEnv classes (built on first use:
openenv-core is an optional dependency, and slow to import), and
:mod:`~toolgym.integrations.openenv_guard` checks client input. :func:`serve` runs the app with
uvicorn: WebSocket pings every 20 s (a client silent for 20 s more is dropped, and its session
closed), frames past 4 times the message limit refused (close code 1009), no per-message
compression (each session would keep a zlib state of its own), and at most twice
``max_sessions`` connections plus 64 (more are answered 503). :class:`ServerThread` and
:func:`serving` run one on a thread of the calling process.

Client side (a server started with ``toolgym serve-env ENV_ID --port 8000``)::

    from openenv.core.generic_client import GenericEnvClient

    with GenericEnvClient(base_url="http://127.0.0.1:8000").sync() as env:
        start = env.reset(seed=0, task_id="test-000")
        print(start.observation["instruction"], [t["function"]["name"]
                                                  for t in start.observation["tools"]])
        result = env.step({"type": "call_tool", "tool_name": "search", "arguments": {}})
        print(result.observation["text"], result.reward, result.done)
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, cast

from toolgym.errors import ToolgymError, UserInputError
from toolgym.integrations.openenv_env import INSTALL, OpenEnvTypes, openenv_types, require_openenv
from toolgym.integrations.openenv_guard import DEFAULT_MAX_MESSAGE_BYTES, ProtocolGuard
from toolgym.integrations.openenv_session import NO_EPISODE, EpisodeSession, mcp_error_type
from toolgym.integrations.sessions import (
    DEFAULT_IDLE_TIMEOUT_S,
    DEFAULT_MAX_SESSIONS,
    DEFAULT_SPARE_ENVS,
    MemoryReturn,
    SessionLimitError,
    SessionPool,
)

if TYPE_CHECKING:
    from toolgym.tools.http_front import FrontServer, ServerLimits

GC_THRESHOLD = 20_000
"""Allocations between collections of the young generation in :func:`serve`'s process."""

IDLE_TIMEOUT_S = 5
"""An idle keep-alive HTTP connection is closed after this long (uvicorn's own default)."""

CONNECTIONS_PER_SESSION = 2
"""Open connections a server accepts per session of ``max_sessions`` (plus 64), at most."""

WS_SIZE_FACTOR = 4
"""The WebSocket layer refuses (closes with 1009) messages this many times the guard's limit."""


_TYPE_NAMES = {
    "ToolgymEnvironment": "environment",
    "ToolgymObservation": "observation",
    "ToolgymResetObservation": "reset_observation",
    "ToolgymState": "state",
}


def __getattr__(name: str) -> Any:
    """The OpenEnv classes by name (``ToolgymEnvironment``, ...), built on first use."""
    if name in _TYPE_NAMES:
        return getattr(openenv_types(), _TYPE_NAMES[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- the application ---------------------------------------------------------------------------


def make_app(
    env_id: str,
    *,
    env_kwargs: dict[str, Any] | None = None,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
    spare_envs: int = DEFAULT_SPARE_ENVS,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
) -> Any:
    """The OpenEnv application (FastAPI) serving ``env_id``; see the module docstring.

    ``app.state.toolgym_pool`` is the session pool; ``GET /sessions`` shows its counts.

    Args:
        env_id: the env every session plays.
        env_kwargs: more ``gym.make`` arguments (``split``, ``world_seed``, family options).
        max_sessions: sessions open at most (OpenEnv refuses more with ``CAPACITY_REACHED``).
        idle_timeout_s: seconds without a message after which a session is reclaimed.
        spare_envs: closed sessions' envs kept for reuse.
        max_message_bytes: the largest WebSocket message or HTTP body accepted.

    Raises:
        DependencyNotInstalled: openenv-core is not installed.
        UserInputError: an unknown env id, bad env kwargs, or a limit that is not positive.
    """
    types = openenv_types()
    from fastapi import Request
    from fastapi.responses import JSONResponse
    from openenv.core.env_server.http_server import create_fastapi_app
    from openenv.core.env_server.types import ConcurrencyConfig

    if isinstance(max_message_bytes, bool) or not isinstance(max_message_bytes, int):
        raise UserInputError(f"max_message_bytes is an int >= 1; got {max_message_bytes!r}")
    if max_message_bytes < 1:
        raise UserInputError(f"max_message_bytes is an int >= 1; got {max_message_bytes!r}")
    pool = SessionPool(
        env_id,
        env_kwargs=env_kwargs,
        max_sessions=max_sessions,
        idle_timeout_s=idle_timeout_s,
        spare_envs=spare_envs,
    )
    config = ConcurrencyConfig(
        max_concurrent_envs=max_sessions, session_timeout=float(idle_timeout_s)
    )
    make_env = cast(Callable[..., Any], types.environment)
    factory: Callable[[], Any] = functools.partial(make_env, pool)
    app = create_fastapi_app(
        factory,
        types.action,
        types.observation,
        concurrency_config=config,
    )
    app.title = f"toolgym {pool.env_id} (OpenEnv)"
    app.state.toolgym_pool = pool

    async def toolgym_error(request: Request, exc: Exception) -> JSONResponse:
        status = 503 if isinstance(exc, SessionLimitError) else 400
        return JSONResponse({"detail": str(exc)}, status_code=status)

    app.add_exception_handler(ToolgymError, toolgym_error)

    @app.get("/sessions", tags=["Health"], summary="The session pool's counts")
    async def sessions() -> dict[str, Any]:
        return pool.stats()

    reaper: dict[str, asyncio.Task[None]] = {}
    interval = min(max(pool.idle_timeout_s / 4, 0.05), 5.0)

    # openenv-core ends the sessions of vanished clients itself, checking every
    # max(timeout / 4, 5 s): their memory is free once it has, an interval after the timeout
    memory = MemoryReturn(pool, settle_s=pool.idle_timeout_s + max(pool.idle_timeout_s / 4, 5.0))

    async def reap_forever() -> None:
        while True:
            await asyncio.sleep(interval)
            closed = pool.spares_closed
            memory.tick(pool.reap() + pool.spares_closed - closed)

    async def start_reaper() -> None:
        reaper["task"] = asyncio.get_running_loop().create_task(reap_forever())

    async def stop_reaper() -> None:
        task = reaper.pop("task", None)
        if task is not None:
            task.cancel()
        pool.close_all()

    app.router.on_startup.append(start_reaper)
    app.router.on_shutdown.append(stop_reaper)
    app.add_middleware(ProtocolGuard, max_message_bytes=max_message_bytes)
    return app


def _options(app: Any, max_message_bytes: int, log_level: str) -> dict[str, Any]:
    """The uvicorn settings for an app of :func:`make_app` (see the module docstring).

    They go beside the HTTP front's (:class:`~toolgym.tools.http_front.FrontServer`).
    """
    from uvicorn.config import WS_PROTOCOLS

    pool = getattr(getattr(app, "state", None), "toolgym_pool", None)
    return {
        # a connection whose session OpenEnv reclaimed stays open until its client leaves: the
        # connections a server holds are bounded here (more are answered 503)
        "limit_concurrency": None
        if pool is None
        else CONNECTIONS_PER_SESSION * pool.max_sessions + 64,
        "ws": "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "auto",
        "ws_max_size": WS_SIZE_FACTOR * max_message_bytes,
        # small JSON messages: compressing them costs each session its own zlib state
        "ws_per_message_deflate": False,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "log_level": log_level,
        "lifespan": "on",
        "timeout_graceful_shutdown": 5,
    }


def _front(
    app: Any,
    host: str,
    port: int,
    max_message_bytes: int,
    log_level: str,
    limits: ServerLimits | None = None,
) -> FrontServer:
    """The app behind the HTTP front every toolgym server shares.

    Request deadlines, head limits, idle timers and shedding; a WebSocket leaves the front when
    it upgrades.
    """
    from toolgym.tools.http_front import DEFAULT_LIMITS, FrontServer

    try:
        return FrontServer(
            app,
            host,
            port,
            limits=limits or DEFAULT_LIMITS,
            idle_timeout_s=IDLE_TIMEOUT_S,
            **_options(app, max_message_bytes, log_level),
        )
    except OSError as e:
        raise UserInputError(f"cannot listen on {host}:{port}: {e.strerror or e}") from e


def serve(
    env_id: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    env_kwargs: dict[str, Any] | None = None,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    log_level: str = "warning",
) -> None:
    """Serve ``env_id`` over OpenEnv's protocol until interrupted (see :func:`make_app`).

    Raises:
        DependencyNotInstalled: openenv-core is not installed.
        UserInputError: an unknown env id, bad limits, or an address that cannot be listened on.
    """
    app = make_app(
        env_id,
        env_kwargs=env_kwargs,
        max_sessions=max_sessions,
        idle_timeout_s=idle_timeout_s,
        max_message_bytes=max_message_bytes,
    )
    front = _front(app, host, port, max_message_bytes, log_level)
    url = front.url
    # What was loaded to serve is never garbage: full collections skip it from here on, and
    # the young generation is collected less often (thousands of live sessions make each
    # collection longer, not the garbage more).
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 20, 20)
    print(
        f"toolgym OpenEnv server: {env_id} on {url} (WebSocket {url.replace('http', 'ws', 1)}"
        f"/ws; at most {max_sessions} sessions)",
        flush=True,
    )
    front.run()


class ServerThread:
    """An OpenEnv app served by uvicorn on a thread of this process (tests, notebooks, benches).

    Use it as a context manager, or call :meth:`stop`.

    Args:
        app: the application (:func:`make_app`).
        host: the address to listen on.
        port: the port (0: a free one).
        max_message_bytes: the guard's limit the app was made with (sets the WebSocket layer's).
        timeout_s: how long to wait for the server to start.
        limits: the HTTP front's limits (:class:`~toolgym.tools.http_front.ServerLimits`).

    Raises:
        UserInputError: the address cannot be listened on.
        TimeoutError: the server did not start in ``timeout_s``.
    """

    def __init__(
        self,
        app: Any,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        timeout_s: float = 30.0,
        limits: ServerLimits | None = None,
    ) -> None:
        self.app = app
        """The application served."""
        self.front = _front(app, host, port, max_message_bytes, "error", limits).start(timeout_s)
        self.server = self.front.server
        self.url = self.front.url
        """The server's base URL (``http://127.0.0.1:PORT``)."""

    def stop(self) -> None:
        """Stop the server and wait for its thread."""
        self.front.stop()

    def __enter__(self) -> ServerThread:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def serving(env_id: str, **kwargs: Any) -> Iterator[ServerThread]:
    """Serve ``env_id`` on a free localhost port of this process for the ``with`` block.

    Args:
        env_id: the env to serve.
        **kwargs: :func:`make_app`'s keyword arguments.
    """
    limit = kwargs.get("max_message_bytes", DEFAULT_MAX_MESSAGE_BYTES)
    with ServerThread(make_app(env_id, **kwargs), max_message_bytes=limit) as server:
        yield server


__all__ = [
    "INSTALL",
    "NO_EPISODE",
    "EpisodeSession",
    "OpenEnvTypes",
    "ServerThread",
    "make_app",
    "mcp_error_type",
    "openenv_types",
    "require_openenv",
    "serve",
    "serving",
]
