"""Serve a simulated REST service on localhost, so curl, browsers and any HTTP client can use it.

``toolgym serve openweather --port 8080`` then
``curl 'http://127.0.0.1:8080/data/2.5/weather?q=austin&appid=KEY'``.

The service is an ASGI application (:func:`asgi_app`) around the same :meth:`HttpApp.handle` the
in-process transports use, served by uvicorn, a maintained server (with the ``httptools`` parser
where it is installed): it parses HTTP (chunked bodies; malformed requests answered with 400),
keeps connections alive, closes idle ones and queues a large backlog. The app runs on one worker
thread beside the event loop, so requests reach it one at a time, in the order they arrive (the
apps are not thread-safe, and a stateful app must answer deterministically), while the loop goes
on accepting, reading and timing out connections.

Hostile clients are shed (:class:`ServerLimits`): a request must arrive whole, head and body,
within a deadline (408, then the connection is closed), whatever it trickles; a head past a size
or a header count is answered 431 before more of it is read; and past a number of open
connections, a new one closes the connection that has waited longest without a request being
answered (one half-sent, stalled or idle), so a thousand stalled connections cannot keep out a
client that sends its request.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import socket
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from toolgym.simulators.http import HttpApp, Request

MAX_BODY_BYTES = 1 << 20
"""Larger request bodies are answered with 413."""
IDLE_TIMEOUT_S = 15
"""An idle keep-alive connection is closed after this long."""
BACKLOG = 2048
"""Connections the operating system queues before the server accepts them."""


@dataclass(frozen=True)
class ServerLimits:
    """What one client may cost the server.

    Attributes:
        max_head_bytes: the longest request head (request line and headers); longer: 431.
        max_headers: the most header fields in one request; more: 431.
        request_deadline_s: the time from a request's first byte to its last (head and body); a
            request still arriving then gets 408 and its connection is closed.
        max_connections: open connections past which a new one closes the one that has waited
            longest without being answered (never one whose request is being answered).
    """

    max_head_bytes: int = 64 * 1024
    max_headers: int = 100
    request_deadline_s: float = 10.0
    max_connections: int = 512


DEFAULT_LIMITS = ServerLimits()

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def _raw_response(status: int, reason: str, text: str) -> bytes:
    body = text.encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


class _GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with the limits of :class:`ServerLimits` and idle timers.

    uvicorn closes a keep-alive connection that stays silent after a response; this also closes
    one that opens and sends nothing (or stalls between requests' first bytes), so idle
    connections never pile up. A server makes a subclass of its own (:meth:`for_server`) whose
    ``limits`` and ``open`` (its connections, oldest-waiting first) it shares.
    """

    limits: ClassVar[ServerLimits] = DEFAULT_LIMITS
    open: ClassVar[OrderedDict[_GuardedProtocol, None]] = OrderedDict()

    @classmethod
    def for_server(cls, limits: ServerLimits) -> type[_GuardedProtocol]:
        """A subclass with its own limits and registry of connections."""
        return type("GuardedProtocol", (cls,), {"limits": limits, "open": OrderedDict()})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Accept the connection, make room past the cap, and start its idle timer."""
        super().connection_made(transport)
        self._in_head = False
        self._head_bytes = self._span = self._header_count = 0
        self._arriving = False
        self._deadline: asyncio.TimerHandle | None = None
        self.open[self] = None
        if len(self.open) > self.limits.max_connections:
            self._shed_one()
        self._arm_idle_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection."""
        self.open.pop(self, None)
        self._cancel_deadline()
        super().connection_lost(exc)

    def _shed_one(self) -> None:
        """Close the connection that has waited longest and is not being answered."""
        for other in self.open:
            if other is not self and not other._answering():
                self.open.pop(other, None)
                other.transport.close()
                return

    def _answering(self) -> bool:
        """Whether a request has arrived whole and its answer is not complete."""
        return not self._arriving and self.cycle is not None and not self.cycle.response_complete

    def data_received(self, data: bytes) -> None:
        """Parse the bytes within the head limits; restart the idle timer between requests."""
        if self.transport.is_closing():
            return
        limits = self.limits
        head = 0  # the bytes of a head in this packet, counted before the parser keeps them
        if self._in_head or not self._arriving:  # a head goes on, or one may begin here
            end = data.find(b"\r\n\r\n")
            head = len(data) if end < 0 else end + 4
            if self._in_head:
                self._span += head
        if max(head, self._span) <= limits.max_head_bytes:
            super().data_received(data)
            if self.transport.is_closing():
                return
        if max(head, self._span, self._head_bytes) > limits.max_head_bytes or (
            self._header_count > limits.max_headers
        ):
            self._refuse(
                431,
                "Request Header Fields Too Large",
                f"the request head is limited to {limits.max_head_bytes} bytes and "
                f"{limits.max_headers} header fields",
            )
            return
        if self.cycle is None or self.cycle.response_complete:
            self._arm_idle_timer()

    def on_message_begin(self) -> None:
        """A request begins (not a stray empty line): its limits and its deadline start."""
        self._arriving = self._in_head = True
        self._head_bytes = self._span = self._header_count = 0
        self._cancel_deadline()
        self._deadline = self.loop.call_later(self.limits.request_deadline_s, self._deadline_passed)
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        """Count the request line's bytes."""
        self._head_bytes += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """Count the header (the limits are checked once the bytes are parsed)."""
        self._header_count += 1
        self._head_bytes += len(name) + len(value) + 4
        if self._header_count <= self.limits.max_headers:
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        """The head is whole: the body may follow."""
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        """The request is whole: its deadline is met."""
        self._arriving = False
        self._cancel_deadline()
        super().on_message_complete()

    def on_response_complete(self) -> None:
        """Answered: the connection goes to the back of the line for shedding."""
        if self in self.open:
            self.open.move_to_end(self)
        super().on_response_complete()

    def _deadline_passed(self) -> None:
        self._deadline = None
        if self._arriving and not self.transport.is_closing():
            seconds = f"{self.limits.request_deadline_s:g}"
            self._refuse(408, "Request Timeout", f"a request must arrive within {seconds} s")

    def _refuse(self, status: int, reason: str, text: str) -> None:
        """Answer ``status`` and close, whatever the request's state."""
        self._cancel_deadline()
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the app, if it started, sees the client gone
            self.cycle.message_event.set()
        self.transport.write(_raw_response(status, reason, text))
        self.transport.close()

    def _cancel_deadline(self) -> None:
        deadline = getattr(self, "_deadline", None)
        if deadline is not None:
            deadline.cancel()
            self._deadline = None

    def _arm_idle_timer(self) -> None:
        if self.transport.is_closing():
            return
        self._unset_keepalive_if_required()
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )


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
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
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
        request = Request.build(scope["method"], f"https://{public_host}{target}", headers, body)
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
        # asyncio accepts up to a backlog of connections before any is seen (and shed): the
        # open-files limit must hold them all, or accepting pauses for a second (EMFILE)
        files = _raise_open_file_limit(BACKLOG + limits.max_connections + 256)
        backlog = max(64, min(BACKLOG, files - limits.max_connections - 128))
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolgym-serve")
        # IPPROTO_TCP named, so that asyncio turns Nagle off on accepted connections
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._socket = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._socket.bind((host, port))
        self._socket.listen(backlog)
        self.server_port: int = int(self._socket.getsockname()[1])
        config = uvicorn.Config(
            asgi_app(app, self._worker),
            backlog=backlog,
            timeout_keep_alive=idle_timeout,
            log_level="warning",
            access_log=False,
            server_header=False,
            date_header=False,
            lifespan="on",
            http=_GuardedProtocol.for_server(limits),
        )
        self._server = uvicorn.Server(config)
        self._stopped = threading.Event()

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown`."""
        try:
            self._server.run(sockets=[self._socket])
        finally:
            self._stopped.set()
            self._worker.shutdown(wait=False, cancel_futures=True)

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop serving and close the listening socket."""
        self._server.should_exit = True
        self._stopped.wait(timeout)
        self._socket.close()


def _raise_open_file_limit(wanted: int) -> int:
    """Raise the soft limit on open files towards ``wanted`` (up to the hard limit); the new one.

    Then the connection cap, not the file limit, decides when connections are shed.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):  # not allowed: a smaller backlog
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return wanted if soft == resource.RLIM_INFINITY else int(soft)


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
