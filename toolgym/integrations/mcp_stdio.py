"""stdin and stdout as event-loop pipes for the MCP stdio server.

The SDK's ``stdio_server`` reads and writes the process's standard streams through
``anyio.wrap_file``: every line read, every write and every flush is a hand-off to a worker
thread and back, three per tool call, which cost more than the call itself; and each message
passes a task of its own (a reader, a writer) through a memory stream to and from the session.
When both streams are pipes (as when an MCP client starts the server),
:func:`session_streams` gives the SDK's server a read stream and a write stream
(``mcp.shared._stream_protocols``' ``ReadStream`` and ``WriteStream``) that read and write the
pipes on the event loop itself (asyncio's pipe transports): a line is read and validated as the
session asks for the next message, and a message is written as the session sends it, with no
thread and no task in between. Lines are read and written exactly as the SDK's transport reads
and writes them (``jsonrpc_message_adapter.validate_json``, a line that does not validate handed
to the session as its exception; ``model_dump_json(by_alias=True, exclude_unset=True)``).

Like the SDK, it keeps the protocol's streams to itself while it serves: file descriptor 0 is
pointed at the null device and 1 at stderr, so a stray ``print`` or a child process cannot
write into the protocol; both are restored on exit, after what was written has gone out. Where a
stream is anything else (a regular file, the null device, a socket, whose reader a write
transport would take for the peer closing, a terminal, which the transports would leave
non-blocking for whoever shares it) or the platform has no pipe transports, the SDK's own
``stdio_server`` serves.

Lines end as Python's text files end them, which the SDK reads stdin as: at ``\\n``, ``\\r\\n``
or a lone ``\\r``. A line longer than ``max_line_bytes`` (its end apart) is dropped whole (the
SDK would have read it, whatever its size): the client gets a JSON-RPC error (``-32600``) for
it, under the request's id when the line's start names one, and the log a warning; so does a
last line that long without its end; the refusal is queued, never waited for, so a client that
writes all its requests before it reads an answer cannot stall the server's reading. Once the
client has closed stdout, answers are dropped (``anyio.BrokenResourceError`` to the session, one
warning) and nothing more is written. When the server stops, queued answers have
:data:`FLUSH_TIMEOUT_S` to go out; those still queued then are dropped whole, the one the pipe
has taken a part of finished first, so the client never reads half a line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import stat
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

logger = logging.getLogger(__name__)

INVALID_REQUEST = -32600
"""JSON-RPC's error code for a message that is no valid request."""
READ_CHUNK = 1 << 16
FLUSH_TIMEOUT_S = 5.0
"""How long the last answers may take to go out when the server stops."""


def _is_pipe(fd: int) -> bool:
    """Whether ``fd`` is a pipe.

    A terminal is served by the SDK's streams: the transports would make it non-blocking, for
    every process that shares it, until the server ends (and for good if it is killed).
    """
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode)


def request_id(head: bytes) -> int | str | None:
    """The top-level ``"id"`` the start of a JSON-RPC message names, if it is there.

    >>> request_id(b'{"jsonrpc": "2.0", "params": {"id": 5}, "id": 7, "method": "x", "y": "aaa')
    7
    >>> request_id(b'{"method": "ping", "params": {"text": "aaaa') is None
    True
    """
    depth, i, key, expect_value = 0, 0, None, False
    while i < len(head):
        char = head[i : i + 1]
        if char == b'"':
            end = i + 1
            while end < len(head) and head[end : end + 1] != b'"':
                end += 2 if head[end : end + 1] == b"\\" else 1
            if end >= len(head):
                return None
            text = head[i + 1 : end]
            if depth == 1 and expect_value and key == b"id":
                try:
                    return str(json.loads(head[i : end + 1]))
                except ValueError:
                    return None
            if depth == 1 and not expect_value:
                key = text
            expect_value = False
            i = end + 1
            continue
        if char in (b"{", b"["):
            depth += 1
            expect_value = False
        elif char in (b"}", b"]"):
            depth -= 1
        elif char == b":" and depth == 1:
            expect_value = True
        elif char == b"," and depth == 1:
            key, expect_value = None, False
        elif depth == 1 and expect_value and key == b"id" and (char.isdigit() or char == b"-"):
            end = i + 1
            while end < len(head) and head[end : end + 1].isdigit():
                end += 1
            whole = end < len(head) and head[end : end + 1] not in (b".", b"e", b"E")
            digits = head[i:end].lstrip(b"-")
            return int(head[i:end]) if whole and 0 < len(digits) <= 18 else None
        i += 1
    return None


class PipeLines:
    """The text lines of a pipe's file descriptor, read on the event loop.

    Args:
        fd: the descriptor (not closed here).
        max_line_bytes: the longest line kept, its end apart; a longer one is dropped whole.
        dropped: called with the start of each dropped line.
    """

    def __init__(
        self,
        fd: int,
        max_line_bytes: int,
        dropped: Callable[[bytes], Awaitable[None]] | None = None,
    ) -> None:
        self.fd = fd
        self.max_line_bytes = max_line_bytes
        self.dropped = dropped
        self._reader: asyncio.StreamReader | None = None
        self.transport: asyncio.BaseTransport | None = None
        self._buffer = bytearray()
        self._discarding: bytes | None = None  # the start of the line being dropped
        self._ended = False  # stdin has ended (what is buffered is all that comes)

    def __aiter__(self) -> PipeLines:
        return self

    async def __anext__(self) -> str:
        if self._reader is None:
            loop = asyncio.get_running_loop()
            self._reader = asyncio.StreamReader(limit=READ_CHUNK)
            reader = self._reader
            self.transport, _ = await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader),
                os.fdopen(self.fd, "rb", buffering=0, closefd=False),
            )
        while True:
            end, size = self._line_end()
            if end >= 0:
                line = bytes(self._buffer[: end + size])
                del self._buffer[: end + size]
                if self._discarding is None and end <= self.max_line_bytes:  # (its end apart)
                    return line[:end].decode("utf-8", errors="replace") + "\n"
                await self._drop(self._discarding or line)
                continue
            waiting = self._buffer.endswith(b"\r")  # perhaps the end of the line, or its start
            if self._discarding is None and len(self._buffer) - waiting > self.max_line_bytes:
                self._discarding = bytes(self._buffer[:4096])  # dropped once its end comes
            if self._discarding is not None:
                del self._buffer[: len(self._buffer) - waiting]
            chunk = await self._reader.read(READ_CHUNK) if not self._ended else b""
            if not chunk:  # the end: a last line without its newline, then no more
                self._ended = True
                if self._buffer.endswith(b"\r"):
                    continue  # a last line ended by a carriage return: read as a line
                if self._discarding is not None:  # a last line too long, without its end
                    await self._drop(self._discarding)
                elif self._buffer:
                    line = bytes(self._buffer)
                    self._buffer.clear()
                    return line.decode("utf-8", errors="replace")
                raise StopAsyncIteration
            self._buffer += chunk

    def _line_end(self) -> tuple[int, int]:
        """Where the buffer's first line ends, and its end's length (``-1, 0``: not yet).

        A line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``, as Python's text files read
        lines (the SDK's ``stdio_server`` reads stdin so): a ``\\r`` last in the buffer waits
        for the next byte, unless stdin has ended.
        """
        buffer = self._buffer
        newline = buffer.find(b"\n")
        limit = newline if newline >= 0 else len(buffer)
        ret = buffer.find(b"\r", 0, limit)  # (searched no further than the newline)
        if ret < 0:
            return newline, 1
        if ret + 1 == newline:
            return ret, 2
        if ret + 1 < len(buffer) or self._ended:
            return ret, 1
        return -1, 0  # "\r" last: "\r\n" split between two reads, or a line's end

    async def _drop(self, head: bytes) -> None:
        self._discarding = None
        logger.warning("a stdin message over %d bytes was dropped", self.max_line_bytes)
        if self.dropped is not None:
            await self.dropped(head)


async def _write_within(fd: int, data: bytes, deadline: float) -> None:
    """Write ``data`` to the non-blocking ``fd`` as the pipe takes it, until ``deadline``."""
    loop = asyncio.get_running_loop()
    while data and loop.time() < deadline:
        try:
            data = data[os.write(fd, data) :]
        except BlockingIOError:
            await asyncio.sleep(0.005)
        except OSError:  # the client has gone: nothing more can reach it
            return


class PipeWriter:
    """Text written to a pipe's file descriptor from the event loop (``write``, then ``flush``).

    Args:
        fd: the descriptor (not closed here).
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._writer: asyncio.StreamWriter | None = None
        self._opening: asyncio.Lock | None = None

    async def _open(self) -> asyncio.StreamWriter:
        if self._writer is None:  # once, even when several tasks write first at once
            self._opening = self._opening or asyncio.Lock()
            async with self._opening:
                if self._writer is None:
                    loop = asyncio.get_running_loop()
                    transport, protocol = await loop.connect_write_pipe(
                        lambda: asyncio.streams.FlowControlMixin(loop),
                        os.fdopen(self.fd, "wb", buffering=0, closefd=False),
                    )
                    self._writer = asyncio.StreamWriter(transport, protocol, None, loop)
        return self._writer

    async def write(self, text: str) -> None:
        """Queue ``text`` (UTF-8) on the pipe.

        Raises:
            ConnectionResetError: the pipe was closed by its reader (nothing is queued: the
                transport would log a warning for each write after the fifth).
        """
        writer = await self._open()
        if writer.transport.is_closing():
            raise ConnectionResetError("the pipe's reader has closed it")
        writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        """Wait until the pipe has taken what was queued (back-pressure on a slow client)."""
        await (await self._open()).drain()

    async def close(
        self, timeout_s: float = FLUSH_TIMEOUT_S, finish_s: float = FLUSH_TIMEOUT_S
    ) -> None:
        """Let what was queued go out (for at most ``timeout_s``), then close the transport.

        Answers still queued then are dropped whole: the line the pipe has taken a part of is
        finished first (for at most ``finish_s`` more), so the client never reads half of one.
        """
        if self._writer is None:
            return
        transport = self._writer.transport
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        while transport.get_write_buffer_size() and loop.time() < deadline:
            if transport.is_closing():
                break
            await asyncio.sleep(0.005)
        queued = getattr(transport, "_buffer", None)  # (asyncio's pipe transport keeps it so)
        if (
            transport.is_closing()
            or not transport.get_write_buffer_size()
            or not isinstance(queued, bytearray)
            or len(queued) != transport.get_write_buffer_size()
        ):
            transport.close()  # (what is left, if anything, goes out as the pipe takes it)
            return
        rest = bytes(queued[: queued.find(b"\n") + 1 or len(queued)])
        transport.abort()  # the rest dropped, and the descriptor left to this writer alone
        await _write_within(self.fd, rest, loop.time() + finish_s)


@asynccontextmanager
async def pipe_streams(max_line_bytes: int) -> AsyncIterator[tuple[Any, Any]]:
    """``(stdin, stdout)`` for ``stdio_server``, or ``(None, None)`` where pipes cannot be used.

    Must run on asyncio's event loop (``anyio.run`` with its default backend).
    """
    usable = os.name == "posix" and _is_pipe(0) and _is_pipe(1)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        usable = False
    if not usable:
        yield None, None
        return
    sys.stdout.flush()
    in_fd, out_fd = os.dup(0), os.dup(1)
    blocking = [os.get_blocking(in_fd), os.get_blocking(out_fd)]
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)  # stray output goes to stderr, not into the protocol
    except OSError:
        os.dup2(in_fd, 0)
        os.dup2(out_fd, 1)
        raise
    finally:
        os.close(null)
    writer = PipeWriter(out_fd)

    async def refuse(head: bytes) -> None:  # one write: it never splits another answer
        error = {"code": INVALID_REQUEST, "message": f"a message is at most {max_line_bytes} bytes"}
        reply = {"jsonrpc": "2.0", "id": request_id(head), "error": error}
        with contextlib.suppress(ConnectionError, OSError):  # a client that reads no more
            await writer.write(json.dumps(reply) + "\n")  # queued: reading stdin never waits
            # on stdout (a client that writes all its requests before it reads would wait too)

    lines = PipeLines(in_fd, max_line_bytes, refuse)
    try:
        yield lines, writer
    finally:
        with contextlib.suppress(Exception):
            await writer.close()
        if lines.transport is not None:
            lines.transport.close()
        sys.stdout.flush()
        for fd, was in zip((in_fd, out_fd), blocking, strict=True):
            with contextlib.suppress(OSError):
                os.set_blocking(fd, was)  # the transports made them non-blocking
        os.dup2(in_fd, 0)
        os.dup2(out_fd, 1)
        os.close(in_fd)
        os.close(out_fd)


class _Closable:
    """What both session streams share: ``aclose`` (no more items) and ``async with``."""

    _closed = False

    def _check_open(self) -> None:
        if self._closed:
            import anyio

            raise anyio.ClosedResourceError

    async def aclose(self) -> None:
        """Take or give no more items (the pipes themselves are closed by :func:`pipe_streams`)."""
        self._closed = True

    async def __aenter__(self) -> Any:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


class SessionReader(_Closable):
    """The session's messages read from a pipe's lines (the SDK's ``ReadStream``).

    Each line becomes a ``SessionMessage``, or the exception its validation raised (which the
    session reports and goes on), as in the SDK's ``stdio_server``.

    Args:
        lines: the pipe's lines.
    """

    def __init__(self, lines: PipeLines) -> None:
        import mcp_types
        from mcp.shared.message import SessionMessage

        self._lines = lines
        self._validate = mcp_types.jsonrpc_message_adapter.validate_json
        self._message = SessionMessage

    async def receive(self) -> Any:
        """The next message, or the exception of a line that is no JSON-RPC message.

        Raises:
            anyio.EndOfStream: the client closed stdin.
            anyio.ClosedResourceError: this reader was closed.
        """
        import anyio

        self._check_open()
        try:
            line = await self._lines.__anext__()
        except StopAsyncIteration:
            raise anyio.EndOfStream from None
        try:
            return self._message(self._validate(line, by_name=False))
        except Exception as e:  # the session answers what it can and goes on
            return e

    def __aiter__(self) -> SessionReader:
        return self

    async def __anext__(self) -> Any:
        import anyio

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


class SessionWriter(_Closable):
    """The session's messages written to a pipe, a line each (the SDK's ``WriteStream``).

    Each message goes out in one write, so answers sent by concurrent tasks never interleave;
    ``send`` returns once the pipe has taken it (back-pressure on a slow client).

    Args:
        writer: the pipe's writer.
    """

    def __init__(self, writer: PipeWriter) -> None:
        self._writer = writer
        self._gone = False

    async def send(self, item: Any) -> None:
        """Write ``item`` (a ``SessionMessage``) as one line of JSON.

        Raises:
            anyio.ClosedResourceError: this writer was closed.
            anyio.BrokenResourceError: the client closed its end of the pipe (the session
                drops the message and goes on until stdin ends).
        """
        self._check_open()
        text = item.message.model_dump_json(by_alias=True, exclude_unset=True)
        try:
            await self._writer.write(text + "\n")
            await self._writer.flush()
        except (ConnectionError, OSError) as e:  # the client no longer reads stdout
            import anyio

            if not self._gone:
                self._gone = True
                logger.warning("stdout was closed by the client (%s); answers are dropped", e)
            raise anyio.BrokenResourceError from e  # the session drops the answer, reads on


@asynccontextmanager
async def session_streams(max_line_bytes: int) -> AsyncIterator[tuple[Any, Any]]:
    """``(read_stream, write_stream)`` for the SDK server's ``run``, on the process's stdio.

    On pipes, a :class:`SessionReader` and a :class:`SessionWriter` over
    :func:`pipe_streams`; otherwise the SDK's own ``stdio_server``.
    """
    from mcp.server.stdio import stdio_server

    async with pipe_streams(max_line_bytes) as (stdin, stdout):
        if stdin is not None:
            yield SessionReader(stdin), SessionWriter(stdout)
            return
        async with stdio_server() as (read_stream, write_stream):
            yield read_stream, write_stream
