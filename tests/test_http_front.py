"""One suite for the HTTP front, run against every server toolgym runs.

``toolgym serve`` (a simulated REST service), ``toolgym mcp --transport http`` and ``toolgym
serve-env`` (OpenEnv) stand behind the same front (:mod:`toolgym.tools.http_front`); each is
started here with strict limits and tried as a hostile client would: silent and trickling
connections, heads past the limits, half-sent bodies, a flood of stalled connections.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from toolgym.tools.http_front import ServerLimits

STRICT = ServerLimits(
    max_head_bytes=8192, max_headers=20, request_deadline_s=1.5, max_connections=16
)
IDLE_S = 2


@dataclass
class Served:
    """A running server: where it listens, a request it answers, and its protocol class."""

    name: str
    port: int
    request: bytes
    protocol: Any


def _serve_rest() -> Iterator[Served]:
    from toolgym.families.cat_api.world import CatApiApp
    from toolgym.tools.http_server import Server

    server = Server(CatApiApp(), idle_timeout=IDLE_S, limits=STRICT)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        request = b"GET /v1/votes HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: k\r\n\r\n"
        yield Served("serve", server.server_port, request, server._server.config.http)
    finally:
        server.shutdown()
        thread.join(timeout=5)


def _serve_mcp() -> Iterator[Served]:
    pytest.importorskip("mcp", reason="the MCP server needs the mcp extra")
    from toolgym.integrations.mcp_server import streamable_http_app
    from toolgym.tools.http_front import FrontServer

    app = streamable_http_app("toolbench/HomeSearch-v0", max_sessions=4)
    front = FrontServer(app, limits=STRICT, idle_timeout_s=IDLE_S, lifespan="on").start()
    try:
        port = front.socket.getsockname()[1]
        request = b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        yield Served("mcp", port, request, front.server.config.http)
    finally:
        front.stop()


def _serve_openenv() -> Iterator[Served]:
    pytest.importorskip("openenv", reason="the OpenEnv server needs the openenv extra")
    from toolgym.integrations.openenv_server import ServerThread, make_app

    app = make_app("toolbench/HomeSearch-v0", max_sessions=4)
    with ServerThread(app, limits=STRICT) as thread:
        port = int(thread.url.rsplit(":", 1)[1])
        request = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        yield Served("serve-env", port, request, thread.server.config.http)


@pytest.fixture(params=["serve", "mcp", "serve-env"])
def served(request: pytest.FixtureRequest) -> Iterator[Served]:
    starts = {"serve": _serve_rest, "mcp": _serve_mcp, "serve-env": _serve_openenv}
    yield from starts[request.param]()


def _read_all(sock: socket.socket) -> bytes:
    """Everything until the server closes the connection (a TimeoutError fails the test)."""
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            data += chunk
    return data


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def test_a_request_is_answered(served: Served) -> None:
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
        sock.sendall(served.request)
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 ") and _status(answer) < 500, answer[:200]


def test_silent_connections_are_closed(served: Served) -> None:
    for opening in (b"", b"GET /he"):  # nothing, or half a request line
        with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
            sock.sendall(opening)
            sock.settimeout(20)  # a server that never closes fails here, with a TimeoutError
            start = time.monotonic()
            _read_all(sock)
        assert time.monotonic() - start < 15, served.name  # idle timeout 2 s, a loaded margin


@pytest.mark.parametrize(
    "head",
    [
        "GET /health HTTP/1.1\r\nHost: x\r\nX-Long: " + "a" * 200_000 + "\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: x\r\n" + "X-A: b\r\n" * 200 + "\r\n",
    ],
    ids=["long-header", "many-headers"],
)
def test_heads_past_the_limits_get_431(served: Served, head: str) -> None:
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            sock.sendall(head.encode())
        answer = _read_all(sock)
    assert _status(answer) == 431, (served.name, answer[:200])


def test_a_half_sent_body_gets_408(served: Served) -> None:
    head = (
        "POST /health HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        "content-length: 500\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", served.port), timeout=20) as sock:
        sock.sendall(head.encode() + b'{"a": 1')
        start = time.monotonic()
        answer = _read_all(sock)
    # a route the app does not read the body of may be answered first (404); the rest of the
    # request then runs out of its deadline (1.5 s) all the same
    assert b"HTTP/1.1 408 " in answer and time.monotonic() - start < 15, (served.name, answer)


def test_trickled_header_bytes_do_not_hold_a_connection(served: Served) -> None:
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\n")
        start = time.monotonic()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            while time.monotonic() - start < 20:
                sock.sendall(b"X")
                time.sleep(0.1)
                sock.setblocking(False)
                try:
                    if sock.recv(65536, socket.MSG_PEEK) is not None:
                        break
                except BlockingIOError:
                    pass
                finally:
                    sock.setblocking(True)
    # the 1.5 s deadline ended it (a server without one keeps it open the whole 20 s)
    assert time.monotonic() - start < 15, served.name


def test_past_the_connection_cap_stalled_clients_are_shed_for_a_new_one(served: Served) -> None:
    stalled = []
    try:
        for _ in range(60):  # far past the cap of 16: half-sent requests
            sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
            sock.sendall(b"POST /health HTTP/1.1\r\nHost: x\r\ncontent-length: 1000\r\n\r\n")
            stalled.append(sock)
        with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
            sock.sendall(served.request)
            answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 ") and _status(answer) < 500, answer[:200]
        assert len(served.protocol.open) <= STRICT.max_connections + 1
    finally:
        for sock in stalled:
            sock.close()
