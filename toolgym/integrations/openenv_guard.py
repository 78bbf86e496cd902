"""The OpenEnv server's guard: what a client's bytes may cost before the protocol reads them.

:class:`ProtocolGuard` is a plain ASGI middleware in front of the OpenEnv application of
:mod:`toolgym.integrations.openenv_server`. OpenEnv answers most bad input with its own error
messages and keeps the session; a few kinds of input would end a session (a WebSocket frame that
is binary, JSON that is not an object, JSON nested past Python's recursion limit) or cost memory
(a large message or request body). The guard answers those itself, in the protocol's own error
format, and the session goes on:

* on the OpenEnv WebSocket (``/ws``): ``{"type": "error", "data": {"message", "code"}}`` with
  OpenEnv's codes (``INVALID_JSON``, ``VALIDATION_ERROR``);
* on the MCP WebSocket (``/mcp``): a JSON-RPC 2.0 error (``-32700`` parse error, ``-32600``
  invalid request);
* on HTTP: a request body past the limit gets ``413`` with ``{"detail": ...}``, a bad
  ``Content-Length`` ``400``.

Messages past the WebSocket frame limit of the server (uvicorn's ``ws_max_size``, a few times the
guard's limit) are refused by the WebSocket layer itself: the connection is closed with code 1009
("message too big"), which is that protocol's error.

Example:
    >>> guard_error("ws", "INVALID_JSON", "expected a JSON object; got a list")
    '{"type": "error", "data": {"message": "expected a JSON object; got a list", "code": "INVALID_JSON"}}'
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from toolgym.tools.http_front import replay

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024
"""The largest WebSocket message (and HTTP request body) the guard passes on, by default."""

WS_PATH = "/ws"
"""OpenEnv's WebSocket of reset/step/state messages."""

MCP_PATH = "/mcp"
"""OpenEnv's WebSocket (and HTTP endpoint) of MCP JSON-RPC requests."""

_JSONRPC_CODES = {"INVALID_JSON": -32700, "VALIDATION_ERROR": -32600}


def guard_error(kind: str, code: str, message: str) -> str:
    """An error message in the protocol of the socket ``kind`` (``ws``: OpenEnv's, else MCP's)."""
    if kind == "ws":
        return json.dumps({"type": "error", "data": {"message": message, "code": code}})
    error = {"code": _JSONRPC_CODES.get(code, -32600), "message": message}
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": error})


def check_message(text: str | None, size: int, max_bytes: int) -> tuple[str, str] | None:
    """Why a WebSocket message cannot be passed on, as ``(code, message)``; ``None`` if it can.

    Args:
        text: the text frame's content (``None`` for a binary frame).
        size: the frame's size in bytes.
        max_bytes: the largest message passed on.

    >>> check_message('{"type": "state"}', 17, 100) is None
    True
    >>> check_message("[1, 2]", 6, 100)
    ('INVALID_JSON', 'expected a JSON object ({"type": ...}); got a list')
    """
    if text is None:
        return "INVALID_JSON", (
            f"expected a text frame holding a JSON object; got a binary frame of {size} bytes"
        )
    if size > max_bytes:
        return "VALIDATION_ERROR", f"a message has at most {max_bytes} bytes; got {size}"
    try:
        value = json.loads(text)
    except RecursionError:
        return "INVALID_JSON", "expected a JSON object; got JSON nested too deeply to read"
    except ValueError as e:
        return "INVALID_JSON", f"expected a JSON object; got text that is not JSON ({e})"
    if not isinstance(value, dict):
        return "INVALID_JSON", f'expected a JSON object ({{"type": ...}}); got {_describe(value)}'
    return None


def _describe(value: Any) -> str:
    """What kind of JSON value ``value`` is, with its article (``a list``, ``null``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "a string" if isinstance(value, str) else "a list"


class ProtocolGuard:
    """ASGI middleware: sizes and shapes of client input checked before the app reads it.

    Args:
        app: the ASGI application behind the guard.
        max_message_bytes: the largest WebSocket message and HTTP request body passed on.
    """

    def __init__(self, app: ASGIApp, max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES) -> None:
        if isinstance(max_message_bytes, bool) or not isinstance(max_message_bytes, int):
            raise TypeError(f"max_message_bytes is an int; got {max_message_bytes!r}")
        if max_message_bytes < 1:
            raise ValueError(f"max_message_bytes is at least 1; got {max_message_bytes}")
        self.app = app
        self.max_message_bytes = max_message_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one connection: a WebSocket's messages or an HTTP body checked first."""
        if scope["type"] == "websocket" and scope.get("path") in (WS_PATH, MCP_PATH):
            kind = "ws" if scope.get("path") == WS_PATH else "mcp"
            await self.app(scope, self._guarded(kind, receive, send), _closing(send))
        elif scope["type"] == "http" and scope.get("method") in ("POST", "PUT", "PATCH"):
            await self._http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _guarded(self, kind: str, receive: Receive, send: Send) -> Receive:
        """``receive`` that answers the messages it cannot pass on, and waits for the next one."""
        limit = self.max_message_bytes

        async def guarded_receive() -> Message:
            while True:
                message = await receive()
                if message.get("type") != "websocket.receive":
                    return message
                text = message.get("text")
                if text is not None:
                    # a character is 1 to 4 bytes: encode only when the count could matter
                    size = len(text) if 4 * len(text) <= limit else len(text.encode("utf-8"))
                else:
                    size = len(message.get("bytes") or b"")
                problem = check_message(text, size, limit)
                if problem is None:
                    return message
                await send({"type": "websocket.send", "text": guard_error(kind, *problem)})

        return guarded_receive

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Read a request body whole (up to the limit) before the app sees it; else 413 or 400."""
        limit = self.max_message_bytes
        declared = None
        for name, value in scope.get("headers") or ():
            if name.lower() == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0:
                    await _answer(send, 400, f"expected a Content-Length >= 0; got {value!r:.40}")
                    return
        if declared is not None and declared > limit:
            await _answer(send, 413, f"a request body has at most {limit} bytes; got {declared}")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message.get("type") != "http.request":  # the client went away
                return
            chunk = message.get("body") or b""
            size += len(chunk)
            if size > limit:
                await _answer(
                    send, 413, f"a request body has at most {limit} bytes; got more ({size}+)"
                )
                return
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        await self.app(scope, replay(b"".join(chunks), receive), send)


def _closing(send: Send) -> Send:
    """``send`` for which closing a connection the client closed already is not an error.

    OpenEnv closes every session's socket when the session ends, also after the client went
    away; the server's WebSocket layer then raises, and the error would be logged once per
    session.
    """

    async def send_closing(message: Message) -> None:
        if message.get("type") != "websocket.close":
            await send(message)
            return
        try:
            await send(message)
        except Exception:  # the client is gone: nothing left to close
            return

    return send_closing


async def _answer(send: Send, status: int, detail: str) -> None:
    """Send a whole JSON response ``{"detail": detail}``."""
    body = json.dumps({"detail": detail}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
