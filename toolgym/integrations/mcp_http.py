"""The streamable HTTP side of the MCP server: the ASGI app and its sessions' bookkeeping.

:func:`http_app` wraps a server made by :func:`toolgym.integrations.mcp_server.make_server` in
the SDK's streamable HTTP session manager (with its idle timeout and body limit) and a
:class:`HttpSessions` tracker that bounds the sessions and closes their episodes; a task
reclaims idle sessions and episodes on a timer. The public entry points are
:func:`toolgym.integrations.mcp_server.streamable_http_app` and
:func:`~toolgym.integrations.mcp_server.run_http`. The SDK is imported inside the functions.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from toolgym.integrations.sessions import MemoryReturn, SessionPool
from toolgym.tools.http_front import replay

if TYPE_CHECKING:
    from mcp.server import Server
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
    from starlette.applications import Starlette
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger(__name__)

DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024
"""The largest HTTP request body the server reads (a longer one gets HTTP 413)."""

MCP_PATH = "/mcp"
"""The path the streamable HTTP endpoint is served at."""


def http_app(
    server: Server[Any],
    pool: SessionPool,
    *,
    max_sessions: int | None = None,
    stateless_http: bool = False,
    json_response: bool = True,
    max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES,
    path: str = MCP_PATH,
    host: str = "127.0.0.1",
    reap_interval_s: float | None = None,
) -> Starlette:
    """The ASGI app serving ``server`` (whose episodes are ``pool``'s) at ``path``.

    HTTP sessions are bounded by ``max_sessions`` (default ``pool.max_sessions``) and reclaimed
    after ``pool.idle_timeout_s``; the other arguments are
    :func:`toolgym.integrations.mcp_server.streamable_http_app`'s.
    """
    import anyio
    from mcp.server.streamable_http_manager import (
        StreamableHTTPASGIApp,
        StreamableHTTPSessionManager,
    )
    from starlette.applications import Starlette
    from starlette.routing import Route

    idle_timeout_s = pool.idle_timeout_s
    max_sessions = pool.max_sessions if max_sessions is None else max_sessions

    manager = StreamableHTTPSessionManager(
        app=server,
        json_response=json_response,
        stateless=stateless_http,
        security_settings=_security(host),
        session_idle_timeout=None if stateless_http else idle_timeout_s,
        max_request_body_size=max_request_bytes,
    )
    sessions = HttpSessions(
        StreamableHTTPASGIApp(manager),
        pool,
        manager,
        max_sessions=max_sessions,
        idle_timeout_s=idle_timeout_s,
        stateless=stateless_http,
        max_request_bytes=max_request_bytes,
    )
    interval = reap_interval_s or min(30.0, max(0.05, idle_timeout_s / 4))

    memory = MemoryReturn(pool)

    async def reap_forever() -> None:
        while True:
            await anyio.sleep(interval)
            forgotten = sessions.expire()
            closed = pool.spares_closed
            reaped = pool.reap()
            if reaped:
                logger.info("reclaimed %d idle episode(s)", reaped)
            memory.tick(reaped + forgotten + pool.spares_closed - closed)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            async with manager.run(), anyio.create_task_group() as tg:
                tg.start_soon(reap_forever)
                try:
                    yield
                finally:
                    tg.cancel_scope.cancel()
        finally:
            pool.close_all()

    app = Starlette(routes=[Route(path, endpoint=sessions)], lifespan=lifespan)
    app.state.toolgym_pool = pool
    app.state.toolgym_sessions = sessions
    app.state.toolgym_server = server
    return app


def _security(host: str) -> Any:
    """The SDK's DNS-rebinding protection for a loopback host (as its own app builder does)."""
    from mcp.server.transport_security import TransportSecuritySettings

    if host not in ("127.0.0.1", "localhost", "::1"):
        return None
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
    )


class HttpSessions:
    """The streamable HTTP sessions of a stateful server (an ASGI wrapper around the SDK's app).

    It bounds them (a request that would open one more than ``max_sessions`` gets HTTP 503),
    and closes a session's episode when the client deletes the session, when the session is
    gone (HTTP 404) or when it idled past ``idle_timeout_s`` (a client that vanished; the SDK
    ends the session itself then). It also drops a deleted session from the SDK's table of
    sessions, which keeps ended ones otherwise, so that memory stays flat over many sessions.
    """

    def __init__(
        self,
        app: ASGIApp,
        pool: SessionPool,
        manager: StreamableHTTPSessionManager,
        *,
        max_sessions: int,
        idle_timeout_s: float,
        stateless: bool = False,
        clock: Callable[[], float] = time.monotonic,
        max_request_bytes: int = DEFAULT_MAX_REQUEST_BYTES,
    ) -> None:
        self.app = app
        self.max_request_bytes = max_request_bytes
        self.pool = pool
        self.manager = manager
        self.max_sessions = max_sessions
        self.idle_timeout_s = idle_timeout_s
        self.stateless = stateless
        self.clock = clock
        self._last_seen: dict[str, float] = {}
        self._expired_at = -1e9
        self.opened = 0
        """Sessions opened since the app was made."""
        self.refused = 0
        """New sessions refused (HTTP 503) because ``max_sessions`` were open."""

    def __len__(self) -> int:
        return len(self._last_seen)

    def stats(self) -> dict[str, int]:
        """Open, opened and refused sessions."""
        return {"open": len(self), "opened": self.opened, "refused": self.refused}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one ASGI request, counting the session it opens or ends.

        A request that cannot belong to an HTTP session (one of a protocol version without
        sessions, 2026-07-28 on, or any request to a stateless server) loses an
        ``mcp-session-id`` header before anything reads it: such a header names no session the
        SDK checked, so it must not pick an episode (another client's, or a made-up one).
        """
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

        session_id = version = None
        for key, value in scope["headers"]:
            if key == b"mcp-session-id":
                session_id = value.decode("latin-1")
            elif key == b"mcp-protocol-version":
                version = value.decode("latin-1")
        modern = version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS
        if session_id is not None and (modern or self.stateless):
            headers = [(k, v) for k, v in scope["headers"] if k != b"mcp-session-id"]
            scope = {**scope, "headers": headers}
            session_id = None
        if scope["method"] == "POST":
            body = await _whole_body(receive, self.max_request_bytes)
            if body is None:
                return  # the client left mid-body: nothing to answer, nothing to log
            receive = replay(body, receive)
        if self.stateless:
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        self.expire()
        if session_id is None and method == "POST" and not modern:
            if len(self._last_seen) >= self.max_sessions:
                self.refused += 1
                await _refuse(scope, receive, send, self.max_sessions)
                return
        elif session_id is not None and session_id in self._last_seen:
            self._last_seen[session_id] = self.clock()

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start":
                status = message["status"]
                if session_id is None:
                    for key, value in message.get("headers", ()):
                        if key.lower() == b"mcp-session-id":
                            self._last_seen[value.decode("latin-1")] = self.clock()
                            self.opened += 1
                elif status == 404 or (method == "DELETE" and status < 300):
                    self.forget(session_id)  # before the client hears the session is gone
            await send(message)

        await self.app(scope, receive, watch)

    def forget(self, session_id: str) -> None:
        """Close a session's episode and drop the SDK's record of the ended session."""
        self._last_seen.pop(session_id, None)
        self.pool.close(f"s-{session_id}")
        table = getattr(self.manager, "_server_instances", None)
        if isinstance(table, dict):
            transport = table.get(session_id)
            if transport is not None and getattr(transport, "is_terminated", False):
                table.pop(session_id, None)

    def expire(self) -> int:
        """Forget the sessions idle past the timeout (the SDK has ended them); once a second.

        Returns how many were forgotten.
        """
        now = self.clock()
        if now - self._expired_at < 1.0:
            return 0
        self._expired_at = now
        horizon = now - self.idle_timeout_s - 1.0
        stale = [s for s, seen in self._last_seen.items() if seen < horizon]
        for session_id in stale:
            self.forget(session_id)
        return len(stale)


async def _whole_body(receive: Receive, limit: int) -> bytes | None:
    """A request's body, read whole before the SDK sees it; ``None`` if the client left.

    Past ``limit`` bytes the reading stops: what was read goes on, and the SDK answers 413
    from the request's length (a body longer than it declares is cut there).
    """
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body += message.get("body", b"")
        if len(body) > limit or not message.get("more_body", False):
            return bytes(body)


async def _refuse(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
    """HTTP 503 with a JSON-RPC error: the server holds ``limit`` sessions already."""
    from starlette.responses import Response

    body = {
        "jsonrpc": "2.0",
        "id": None,
        "error": {
            "code": -32000,
            "message": f"the server holds {limit} sessions (its max_sessions); close one or "
            "retry later",
        },
    }
    response = Response(
        json.dumps(body),
        status_code=503,
        media_type="application/json",
        headers={"Retry-After": "5"},
    )
    await response(scope, receive, send)
