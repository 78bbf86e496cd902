"""Serve a simulated REST service on localhost, so curl, browsers and any HTTP client can use it.

``toolgym serve openweather --port 8080`` then
``curl 'http://127.0.0.1:8080/data/2.5/weather?q=austin&appid=KEY'``.

The service is an ASGI application (:func:`asgi_app`) around the same :meth:`HttpApp.handle` the
in-process transports use, served by uvicorn, a maintained server (with the ``httptools`` parser
where it is installed): it parses HTTP (chunked bodies; malformed requests answered with 400),
keeps connections alive, closes idle ones and queues a large backlog. Requests reach the app one
at a time, in the order they arrive (the apps are not thread-safe, and a stateful app must answer
deterministically): on the event loop itself for an app whose every answer takes well under a
millisecond (``HttpApp.answers_inline``: The Cat API, OpenWeather), else on one worker thread
beside the loop, which goes on accepting, reading and timing out connections meanwhile.

Hostile clients are shed by the HTTP front every toolgym server shares
(:mod:`toolgym.tools.http_front`: request deadlines, head limits, idle timers, a connection cap
with shedding).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from toolgym.simulators.http import HttpApp, Request
from toolgym.tools.http_front import DEFAULT_LIMITS, FrontServer, ServerLimits

MAX_BODY_BYTES = 1 << 20
"""Larger request bodies are answered with 413."""
IDLE_TIMEOUT_S = 15
"""An idle keep-alive connection is closed after this long."""


Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def _plain(send: Send, status: int, text: str) -> Awaitable[None]:
    """Answer with a short plain-text body (413 and the like)."""

    async def reply() -> None:
        body = text.encode()
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", b"%d" % len(body)),
        ]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return reply()


def asgi_app(
    app: HttpApp, worker: ThreadPoolExecutor | None = None
) -> Callable[[Scope, Receive, Send], Awaitable[None]]:
    """An ASGI application answering every request with ``app.handle``.

    The request's URL is rebuilt on the app's own host (``https://api.thecatapi.com/...``), so the
    app sees exactly what the other transports give it: the host its ``Host`` header names when
    that is one of the app's, else the one the app gives for the path (``HttpApp.host_for``), so
    that a service of several hosts (Sheets, Drive and OAuth) answers all of them on one port. With ``worker`` (one thread), the app
    runs there, off the event loop; a request whose client left before it arrived whole is not
    handled.
    """
    own_hosts = {h.lower() for h in app.hosts}

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        declared = headers.get("content-length", "0")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            await _plain(send, 413, "request body too large")
            return
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # half a request changes nothing
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY_BYTES:
                await _plain(send, 413, "request body too large")
                return
        target = scope.get("raw_path", b"").decode("latin-1") or scope["path"]
        if scope.get("query_string"):
            target += "?" + scope["query_string"].decode("latin-1")
        named = headers.get("host", "").rsplit(":", 1)[0].lower()
        public_host = named if named in own_hosts else app.host_for(target.split("?", 1)[0])
        # (Request.build's work done: names lower-cased above, the body bytes, the method as read)
        request = Request(scope["method"].upper(), f"https://{public_host}{target}", headers, body)
        if worker is None:
            reply = app.handle(request)
        else:
            reply = await asyncio.get_running_loop().run_in_executor(worker, app.handle, request)
        response_headers = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in reply.headers.items()
            if k.lower() != "content-length"
        ]
        response_headers.append((b"content-length", b"%d" % len(reply.body)))
        await send(
            {"type": "http.response.start", "status": reply.status, "headers": response_headers}
        )
        await send({"type": "http.response.body", "body": reply.body})

    return application


class Server:
    """A uvicorn server for ``app`` (not yet started); port 0 picks a free port.

    Args:
        app: the simulated service.
        host: the interface to listen on.
        port: the port (0: any free one; see :attr:`server_port`).
        idle_timeout: seconds after which an idle keep-alive connection is closed.
        limits: what one client may cost (:class:`ServerLimits`).
    """

    def __init__(
        self,
        app: HttpApp,
        host: str = "127.0.0.1",
        port: int = 0,
        idle_timeout: int = IDLE_TIMEOUT_S,
        limits: ServerLimits = DEFAULT_LIMITS,
    ) -> None:
        self.app = app
        self.limits = limits
        self._worker = (
            None
            if app.answers_inline
            else ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolgym-serve")
        )
        self._front = FrontServer(
            asgi_app(app, self._worker),
            host,
            port,
            limits=limits,
            idle_timeout_s=idle_timeout,
            lifespan="on",
        )
        self._server = self._front.server
        self._socket = self._front.socket
        self.server_port: int = int(self._socket.getsockname()[1])
        self._stopped = threading.Event()

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown`."""
        try:
            self._front.run()
        finally:
            self._stopped.set()
            if self._worker is not None:
                self._worker.shutdown(wait=False, cancel_futures=True)

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop serving and close the listening socket."""
        self._server.should_exit = True
        self._stopped.wait(timeout)
        self._socket.close()


def make_server(app: HttpApp, host: str = "127.0.0.1", port: int = 0) -> Server:
    """A server (not yet started) answering every request with ``app``; port 0 picks a free port."""
    return Server(app, host, port)


def serve(app: HttpApp, host: str = "127.0.0.1", port: int = 8080) -> None:
    """Serve ``app`` until interrupted."""
    server = make_server(app, host, port)
    bare = host.strip("[]")
    shown = f"[{bare}]" if ":" in bare else bare
    print(
        f"serving {app.name or type(app).__name__} on http://{shown}:{server.server_port}/",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server._socket.close()
