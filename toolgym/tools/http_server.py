"""Serve a simulated REST service on localhost, so curl, browsers and any HTTP client can use it.

``toolgym serve openweather --port 8080`` then ``curl 'http://127.0.0.1:8080/data/2.5/weather?q=austin&appid=KEY'``.
The server answers with the same :meth:`HttpApp.handle` as the in-process transports. Requests are
handled one at a time under a lock (the apps are not thread-safe and stateful apps must stay
deterministic); connections are kept alive (HTTP/1.1).
"""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from toolgym.simulators.http import HttpApp, Request

MAX_BODY_BYTES = 1 << 20


def make_server(app: HttpApp, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A server (not yet started) answering every request with ``app``; port 0 picks a free port."""
    lock = threading.Lock()
    public_host = app.hosts[0] if app.hosts else "localhost"

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "toolgym"
        sys_version = ""
        wbufsize = 1 << 16  # headers and body leave in one write (flushed after each request)

        def setup(self) -> None:
            super().setup()
            # No Nagle delay: small keep-alive answers would otherwise wait for delayed ACKs.
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY_BYTES:
                self.send_error(413, "request body too large")
                return
            body = self.rfile.read(length) if length else b""
            request = Request.build(
                self.command, f"https://{public_host}{self.path}", dict(self.headers), body
            )
            with lock:
                reply = app.handle(request)
            self.send_response(reply.status)
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(reply.body)

        do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = do_HEAD = _answer

        def log_message(self, format: str, *args: Any) -> None:  # quiet by default
            pass

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server


def serve(app: HttpApp, host: str = "127.0.0.1", port: int = 8080) -> None:
    """Serve ``app`` until interrupted."""
    server = make_server(app, host, port)
    print(
        f"serving {app.name or type(app).__name__} on http://{host}:{server.server_port}/",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
