"""An MCP server that serves one toolgym env's episodes (``toolgym mcp ENV_ID``).

Built on the official MCP Python SDK (``mcp>=2,<3``, extra ``mcp``: ``pip install
"toolgym[mcp]"``), over stdio (:func:`run_stdio`) and streamable HTTP
(:func:`streamable_http_app`, :func:`run_http`). The SDK is imported inside the functions, so
this module imports without it; using the server without it raises
:class:`~toolgym.errors.DependencyNotInstalled`.

What a client sees (details in :mod:`toolgym.integrations.mcp_handlers`):

* ``tools/list``: the current task's tools, each with its OpenAI schema's ``parameters`` as the
  input schema, and the control tool ``reset``. Before an episode starts the list holds
  ``reset`` alone, and other calls answer ``reset_needed``: a session starts no episode by
  itself.
* ``reset`` (``seed``, ``task_id``, both optional) starts an episode and returns the user's
  request as its text (structured content: ``task_id``, ``observation``, ``tools``, ...). A bad
  seed or task id is an error result (``wrong_arguments``). Where the task's tools changed, the
  server sends ``notifications/tools/list_changed`` (on handshake-era sessions; on a stdio
  server also to 2026-07-28 ``subscriptions/listen`` streams).
* ``tools/call`` of a task tool plays one step. The call that ends the episode carries
  ``reward``, ``done`` and ``metrics`` in its structured content, and the reward and metrics in
  its text. Failures are ``is_error=True`` results whose text is ``Error (<category>):
  <message>`` and whose structured content has ``error: {category, message}``: unknown tools
  and bad arguments (the env's categories), calls after the end (``episode_ended``), calls
  before a reset (``reset_needed``), a full server (``session_limit``).

One episode per MCP session: a stdio server plays one episode (the process is the session); a
stateful streamable HTTP server keys the episode by the ``mcp-session-id`` header, closes it
when the client deletes the session, and reclaims it when the session idles past
``idle_timeout_s`` (a client that vanished). Protocol versions: the handshake era (2024-11-05
to 2025-11-25) and 2026-07-28. Requests of the 2026-07-28 protocol over HTTP carry no session:
there ``reset`` opens an episode and returns a handle, which the client passes in each later
request's ``_meta["toolgym/episode"]``. A stateful HTTP server answers ``server/discover``
with the handshake versions, so clients that negotiate (the SDK's ``mode="auto"``) open a
session and need no handle.

Bad input never crashes the server: malformed JSON-RPC gets the protocol's parse or
invalid-request error, an unknown session id HTTP 404, a body over ``max_request_bytes`` HTTP
413, a new session beyond ``max_sessions`` HTTP 503, and oversized tool arguments an error
result.

Example: the SDK's client, against ``toolgym mcp toolbench/HomeSearch-v0 --transport http``
(over stdio: ``Client(stdio_client(StdioServerParameters(command="toolgym", args=["mcp",
"toolbench/HomeSearch-v0"])))``)::

    import anyio
    from mcp import Client

    async def main() -> None:
        async with Client("http://127.0.0.1:8000/mcp") as client:
            start = await client.call_tool("reset", {"seed": 0, "task_id": "test-000"})
            print(start.content[0].text)  # the user's request
            print([t.name for t in (await client.list_tools()).tools])  # its tools, and reset
            result = await client.call_tool("set_location", {"value": "Anchorage"})
            print(result.is_error, result.structured_content)

    anyio.run(main)
"""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING, Any

from toolgym.errors import DependencyNotInstalled, UserInputError
from toolgym.integrations.mcp_handlers import EpisodeHandlers
from toolgym.integrations.mcp_http import (
    DEFAULT_MAX_REQUEST_BYTES,
    MCP_PATH,
    HttpSessions,
    http_app,
)
from toolgym.integrations.sessions import (
    DEFAULT_IDLE_TIMEOUT_S,
    DEFAULT_MAX_SESSIONS,
    SessionPool,
)

if TYPE_CHECKING:
    from mcp.server import Server
    from starlette.applications import Starlette

logger = logging.getLogger(__name__)

MCP_INSTALL = 'pip install "toolgym[mcp]"'
"""The command that installs what the MCP server needs."""

DEFAULT_PORT = 8000
"""The port :func:`run_http` listens on by default."""

SERVER_NAME = "toolgym"


def require_mcp() -> None:
    """Check that the MCP SDK (2.x) is installed.

    Raises:
        DependencyNotInstalled: it is not, or another major version is (the message names the
            pip command).
    """
    try:
        import mcp.server  # noqa: F401
        import mcp_types  # noqa: F401
    except ImportError as e:
        raise DependencyNotInstalled(
            f"the MCP server needs the MCP SDK ({e.name} is missing): {MCP_INSTALL}"
        ) from e
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("mcp")
    except PackageNotFoundError:  # an unpackaged checkout: trust it
        return
    if not found.startswith("2."):
        raise DependencyNotInstalled(
            f"the MCP server needs mcp>=2,<3; got mcp {found}: {MCP_INSTALL}"
        )


def make_pool(
    env_id: str,
    *,
    split: str | None = None,
    world_seed: int | None = None,
    env_kwargs: dict[str, Any] | None = None,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
) -> SessionPool:
    """The pool of a server's episodes (``split`` and ``world_seed`` join ``env_kwargs``).

    Raises:
        UserInputError: an unknown env id, or limits that are not positive.
    """
    kwargs = dict(env_kwargs or {})
    if split is not None:
        kwargs["split"] = split
    if world_seed is not None:
        kwargs["world_seed"] = world_seed
    return SessionPool(
        env_id, env_kwargs=kwargs, max_sessions=max_sessions, idle_timeout_s=idle_timeout_s
    )


def make_server(
    env_id: str | None = None,
    *,
    pool: SessionPool | None = None,
    split: str | None = None,
    world_seed: int | None = None,
    env_kwargs: dict[str, Any] | None = None,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
    single_client: bool = False,
    handshake_discover: bool = False,
    max_handles: int | None = None,
) -> Server[Any]:
    """The MCP server (the SDK's low-level ``Server``) of one env's episodes.

    Args:
        env_id: the env to serve (or give ``pool``).
        pool: the episodes' pool (made from ``env_id`` and the options below when not given).
        split: the split the tasks come from (the env's default: ``test``).
        world_seed: the simulated world's seed (the env's default).
        env_kwargs: more ``gym.make`` arguments.
        max_sessions: episodes open at most.
        idle_timeout_s: seconds after which an unused episode is reclaimed.
        single_client: the server has one client (stdio): requests that name no episode all
            play one.
        handshake_discover: answer ``server/discover`` with the handshake-era versions only,
            so that negotiating clients open a (stateful) session.
        max_handles: episodes opened by handle (requests without a session) open at most
            (``None``: as many as the pool holds).

    Raises:
        DependencyNotInstalled: the MCP SDK is not installed.
        UserInputError: no env id and no pool, an unknown env id, or bad limits.
    """
    require_mcp()
    import mcp_types as types
    from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    if pool is None:
        if env_id is None:
            raise UserInputError("make_server needs an env id or a pool; got neither")
        pool = make_pool(
            env_id,
            split=split,
            world_seed=world_seed,
            env_kwargs=env_kwargs,
            max_sessions=max_sessions,
            idle_timeout_s=idle_timeout_s,
        )
    bus = InMemorySubscriptionBus() if single_client else None
    handlers = EpisodeHandlers(
        pool,
        single_client=single_client,
        split=pool.env_kwargs.get("split", split),
        bus=bus,
        max_handles=max_handles,
    )
    server = _server_class()(
        SERVER_NAME,
        version=_toolgym_version(),
        instructions=(
            f"Episodes of the toolgym env {pool.env_id}. Call {handlers.reset_tool} (seed, "
            "task_id) to start one: it returns the user's request and the task's tools appear. "
            "The call that ends the episode returns its reward and metrics."
        ),
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_subscriptions_listen=ListenHandler(bus) if bus is not None else None,
    )
    server.toolgym_pool = pool  # type: ignore[attr-defined]
    server.toolgym_handlers = handlers  # type: ignore[attr-defined]
    if handshake_discover:

        async def discover(ctx: Any, params: types.RequestParams) -> types.DiscoverResult:
            return types.DiscoverResult(
                supported_versions=list(HANDSHAKE_PROTOCOL_VERSIONS),
                capabilities=server.get_capabilities(),
                instructions=server.instructions,
            )

        server.add_request_handler("server/discover", types.RequestParams, discover)
    return server


def episode_pool(server: Any) -> SessionPool:
    """The episode pool of a server made by :func:`make_server` (or of its HTTP app).

    Raises:
        TypeError: ``server`` was not made here.
    """
    pool = getattr(server, "toolgym_pool", None)
    if pool is None:
        pool = getattr(getattr(server, "state", None), "toolgym_pool", None)
    if not isinstance(pool, SessionPool):
        raise TypeError(
            f"expected a server or app made by toolgym's make_server/streamable_http_app; got "
            f"{type(server).__name__}"
        )
    return pool


_SERVER_CLASS: list[type[Any]] = []


def _server_class() -> type[Server[Any]]:
    """The SDK's ``Server``, advertising ``tools.listChanged`` to handshake-era clients."""
    if _SERVER_CLASS:
        return _SERVER_CLASS[0]
    from mcp.server import Server
    from mcp.server.lowlevel import NotificationOptions
    from mcp.server.models import InitializationOptions

    class EpisodeServer(Server[Any]):
        """An MCP server whose tool list changes with the task."""

        def create_initialization_options(
            self,
            notification_options: NotificationOptions | None = None,
            experimental_capabilities: dict[str, dict[str, Any]] | None = None,
            extensions: dict[str, dict[str, Any]] | None = None,
        ) -> InitializationOptions:
            return super().create_initialization_options(
                notification_options or NotificationOptions(tools_changed=True),
                experimental_capabilities,
                extensions,
            )

    _SERVER_CLASS.append(EpisodeServer)
    return EpisodeServer


def _toolgym_version() -> str:
    from toolgym._version import __version__

    return str(__version__)


# -- stdio --------------------------------------------------------------------------------------


def run_stdio(
    env_id: str,
    *,
    split: str | None = None,
    world_seed: int | None = None,
    env_kwargs: dict[str, Any] | None = None,
) -> None:
    """Serve ``env_id`` to the one client on stdin/stdout until it closes stdin.

    The client plays one episode at a time (the process is its session, so nothing idles out).
    Only protocol messages go to stdout (the SDK points file descriptor 1 at stderr while it
    serves); logs go to stderr.

    Raises:
        DependencyNotInstalled: the MCP SDK is not installed.
        UserInputError: an unknown env id.
    """
    require_mcp()
    import anyio

    from toolgym.integrations.mcp_stdio import session_streams

    server = make_server(
        env_id,
        split=split,
        world_seed=world_seed,
        env_kwargs=env_kwargs,
        max_sessions=1,
        single_client=True,
    )

    async def serve() -> None:
        async with session_streams(DEFAULT_MAX_REQUEST_BYTES) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(serve)
    finally:
        episode_pool(server).close_all()


# -- streamable HTTP ----------------------------------------------------------------------------


def streamable_http_app(
    env_id: str,
    *,
    split: str | None = None,
    world_seed: int | None = None,
    env_kwargs: dict[str, Any] | None = None,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
    stateless_http: bool = False,
    json_response: bool = True,
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES,
    path: str = MCP_PATH,
    host: str = "127.0.0.1",
    reap_interval_s: float | None = None,
) -> Starlette:
    """The streamable HTTP app (ASGI) serving ``env_id`` at ``path``.

    Args:
        env_id: the env to serve.
        split: the split the tasks come from.
        world_seed: the simulated world's seed.
        env_kwargs: more ``gym.make`` arguments.
        max_sessions: open sessions at most (a new session beyond gets HTTP 503), and, apart,
            episodes opened by handle by requests without a session (a ``reset`` beyond gets
            ``session_limit``): stateless resets never take a stateful client's place.
        idle_timeout_s: seconds without a request after which a session and its episode are
            reclaimed.
        stateless_http: keep no HTTP sessions: every request names its episode by handle.
        json_response: answer each POST with its JSON-RPC response as JSON (the default: tool
            calls send nothing before their result, and JSON costs half of an SSE stream);
            ``False`` answers with an SSE stream. Notifications not tied to a request
            (``tools/list_changed``) go on the session's GET stream either way.
        max_request_bytes: the largest request body read (HTTP 413 beyond).
        path: where the endpoint is.
        host: the host it will listen on; on a loopback host the SDK's DNS-rebinding
            protection admits only loopback ``Host`` and ``Origin`` headers.
        reap_interval_s: how often idle sessions are looked for (default: a quarter of
            ``idle_timeout_s``, at most 30 s).

    The app's ``state.toolgym_pool`` is the episode pool and ``state.toolgym_sessions`` the
    :class:`HttpSessions` tracker (for their ``stats()``).

    Raises:
        DependencyNotInstalled: the MCP SDK is not installed.
        UserInputError: an unknown env id, or bad limits.
    """
    require_mcp()
    if isinstance(max_request_bytes, bool) or not isinstance(max_request_bytes, int):
        raise UserInputError(f"max_request_bytes is an int > 0; got {max_request_bytes!r}")
    if max_request_bytes < 1:
        raise UserInputError(f"max_request_bytes is an int > 0; got {max_request_bytes!r}")
    if isinstance(max_sessions, bool) or not isinstance(max_sessions, int) or max_sessions < 1:
        raise UserInputError(f"max_sessions is an int > 0; got {max_sessions!r}")
    pool = make_pool(  # room for max_sessions sessions and, apart, as many handles
        env_id,
        split=split,
        world_seed=world_seed,
        env_kwargs=env_kwargs,
        max_sessions=max_sessions if stateless_http else 2 * max_sessions,
        idle_timeout_s=idle_timeout_s,
    )
    server = make_server(pool=pool, handshake_discover=not stateless_http, max_handles=max_sessions)
    return http_app(
        server,
        pool,
        max_sessions=max_sessions,
        stateless_http=stateless_http,
        json_response=json_response,
        max_request_bytes=max_request_bytes,
        path=path,
        host=host,
        reap_interval_s=reap_interval_s,
    )


def run_http(
    env_id: str,
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    **options: Any,
) -> None:
    """Serve ``env_id`` over streamable HTTP at ``http://host:port/mcp`` until interrupted.

    ``options`` are :func:`streamable_http_app`'s. The server stands behind the HTTP front every
    toolgym server shares (:mod:`toolgym.tools.http_front`).

    Raises:
        DependencyNotInstalled: the MCP SDK is not installed.
        UserInputError: an unknown env id, or bad limits.
    """
    app = streamable_http_app(env_id, host=host, **options)
    from toolgym.tools.http_front import FrontServer

    try:
        front = FrontServer(app, host, port, lifespan="on")
    except OSError as e:
        raise UserInputError(f"cannot listen on {host}:{port}: {e.strerror or e}") from e
    pool = episode_pool(app)
    print(
        f"toolgym mcp: serving {env_id} at http://{host}:{port}{options.get('path', MCP_PATH)} "
        f"(at most {options.get('max_sessions', DEFAULT_MAX_SESSIONS)} sessions and as many "
        f"episodes by handle, idle timeout {pool.idle_timeout_s:g} s)",
        file=sys.stderr,
        flush=True,
    )
    front.run()


__all__ = [
    "DEFAULT_MAX_REQUEST_BYTES",
    "DEFAULT_PORT",
    "MCP_INSTALL",
    "MCP_PATH",
    "HttpSessions",
    "episode_pool",
    "make_pool",
    "make_server",
    "require_mcp",
    "run_http",
    "run_stdio",
    "streamable_http_app",
]
