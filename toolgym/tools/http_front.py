"""The HTTP front every toolgym server stands behind: what one client may cost, enforced.

``toolgym serve`` (simulated REST services), ``toolgym mcp --transport http`` and ``toolgym
serve-env`` (OpenEnv) are uvicorn servers; each is given :func:`guarded_protocol`'s HTTP protocol
and :func:`listening_socket`'s socket, so hostile clients are shed alike by all three
(:class:`ServerLimits`): a request must arrive whole, head and body, within a deadline (408, then
the connection is closed), whatever it trickles; a head past a size or a header count is answered
431 before more of it is read; a connection that opens and sends nothing, or stalls between
requests, is closed after the idle timeout; and past a number of open connections, a new one
closes the connection that has waited longest without a request being answered (one half-sent,
stalled or idle), so a thousand stalled connections cannot keep out a client that sends its
request. A connection upgraded to a WebSocket leaves the HTTP front (the WebSocket layer's pings
and size limit govern it).
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import socket
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

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


def _raw_response(status: int, reason: str, text: str) -> bytes:
    body = text.encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with the limits of :class:`ServerLimits` and idle timers.

    uvicorn closes a keep-alive connection that stays silent after a response; this also closes
    one that opens and sends nothing (or stalls between requests' first bytes), so idle
    connections never pile up. A server makes a subclass of its own (:meth:`for_server`) whose
    ``limits`` and ``open`` (its connections, oldest-waiting first) it shares.
    """

    limits: ClassVar[ServerLimits] = DEFAULT_LIMITS
    open: ClassVar[OrderedDict[GuardedProtocol, None]] = OrderedDict()

    @classmethod
    def for_server(cls, limits: ServerLimits) -> type[GuardedProtocol]:
        """A subclass with its own limits and registry of connections."""
        return type("GuardedProtocol", (cls,), {"limits": limits, "open": OrderedDict()})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Accept the connection, make room past the cap, and start its idle timer."""
        super().connection_made(transport)
        self._in_head = False
        self._head_bytes = self._span = self._header_count = 0
        self._arriving = False
        self._deadline: asyncio.TimerHandle | None = None
        self._began = 0.0  # when the request now arriving began (the loop's clock)
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
            if self._arriving and self._deadline is None:  # the rest is yet to come
                self._deadline = self.loop.call_at(
                    self._began + limits.request_deadline_s, self._deadline_passed
                )
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
        """A request begins (not a stray empty line): its limits and its deadline start.

        The deadline's timer is armed only if the request is still arriving once the bytes at
        hand are parsed (:meth:`data_received`): most requests arrive whole in one read.
        """
        self._arriving = self._in_head = True
        self._head_bytes = self._span = self._header_count = 0
        self._cancel_deadline()
        self._began = self.loop.time()
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

    def handle_websocket_upgrade(self) -> None:
        """Hand the connection to the WebSocket layer, which governs it from here."""
        self.open.pop(self, None)
        self._cancel_deadline()
        self._arriving = False
        super().handle_websocket_upgrade()

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


def raise_open_file_limit(wanted: int) -> int:
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


def replay(body: bytes, receive: Any) -> Any:
    """An ASGI ``receive`` that gives ``body`` as the whole request, then waits on ``receive``.

    For a wrapper that read the body itself (to bound it, or to drop a client that left
    mid-body) before the application reads it.
    """
    given = False

    async def replayed() -> dict[str, Any]:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def guarded_protocol(limits: ServerLimits = DEFAULT_LIMITS) -> type[GuardedProtocol]:
    """The HTTP protocol class (uvicorn's ``http=``) of one server: its limits, its connections."""
    return GuardedProtocol.for_server(limits)


def listening_socket(
    host: str, port: int, limits: ServerLimits = DEFAULT_LIMITS
) -> tuple[socket.socket, int]:
    """A socket bound to ``host:port`` and listening, with the backlog it listens with.

    The open-files limit is raised first: asyncio accepts up to a backlog of connections before
    any is seen (and shed), so the limit must hold them all, or accepting pauses for a second
    (``EMFILE``). Raises ``OSError`` when the address cannot be listened on.
    """
    files = raise_open_file_limit(BACKLOG + limits.max_connections + 256)
    backlog = max(64, min(BACKLOG, files - limits.max_connections - 128))
    # IPPROTO_TCP named, so that asyncio turns Nagle off on accepted connections
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    return sock, backlog


class FrontServer:
    """An ASGI app served by uvicorn behind the front (not yet started); port 0 picks a free one.

    Args:
        app: the ASGI application.
        host: the interface to listen on.
        port: the port.
        limits: what one client may cost.
        idle_timeout_s: seconds after which an idle keep-alive connection is closed.
        **config: more ``uvicorn.Config`` options (WebSocket settings, ``lifespan``, ...).

    Raises:
        OSError: the address cannot be listened on.
    """

    def __init__(
        self,
        app: Any,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        limits: ServerLimits = DEFAULT_LIMITS,
        idle_timeout_s: int = 15,
        **config: Any,
    ) -> None:
        import uvicorn

        self.socket, backlog = listening_socket(host, port, limits)
        bound = self.socket.getsockname()
        shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        self.url = f"http://{shown}:{bound[1]}"
        """The server's base URL."""
        options: dict[str, Any] = {
            "backlog": backlog,
            "timeout_keep_alive": idle_timeout_s,
            "log_level": "warning",
            "access_log": False,
            "server_header": False,
            "date_header": False,
            # X-Forwarded-* rewrites nothing a toolgym server reads (one await less a request)
            "proxy_headers": False,
            **config,
            "http": guarded_protocol(limits),
        }
        self.server = uvicorn.Server(uvicorn.Config(app, **options))
        self._thread: threading.Thread | None = None

    def run(self) -> None:
        """Serve until interrupted or :meth:`stop` (in this thread)."""
        try:
            self.server.run(sockets=[self.socket])
        except KeyboardInterrupt:
            pass
        finally:
            self.socket.close()

    def start(self, timeout_s: float = 30.0) -> FrontServer:
        """Serve on a thread of its own; returns once the server accepts connections."""
        self._thread = threading.Thread(target=self.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"the server on {self.url} did not start in {timeout_s:g} s")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Stop serving (and wait for the thread :meth:`start` began)."""
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.socket.close()
