"""stdin and stdout as event-loop pipes for the MCP stdio server.

The SDK's ``stdio_server`` reads and writes the process's standard streams through
``anyio.wrap_file``: every line read, every write and every flush is a hand-off to a worker
thread and back, three per tool call, which cost more than the call itself. When both streams are
pipes, sockets or terminals (as when an MCP client starts the server), :func:`pipe_streams`
gives ``stdio_server`` streams that the event loop reads and writes directly (asyncio's pipe
transports), so a call is read, run and answered on the loop with no thread in between.

Like the SDK, it keeps the protocol's streams to itself while it serves: file descriptor 0 is
pointed at the null device and 1 at stderr, so a stray ``print`` or a child process cannot
write into the protocol; both are restored on exit. Where the streams are regular files (a
request file piped in by a shell, say) or the platform has no pipe transports, it yields
nothing and the SDK's own streams are used.

A line longer than ``max_line_bytes`` is dropped with a warning in the log (the SDK would have
read it whole, whatever its size); what the client gets back is the protocol's answer to a
message it could not parse.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

logger = logging.getLogger(__name__)

UNREADABLE_LINE = "{}\n"
"""What stands for a dropped line (no JSON-RPC message: the SDK reports it as unparsable)."""


def _is_pipe(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


class PipeLines:
    """The text lines of a pipe's file descriptor, read on the event loop.

    Args:
        fd: the descriptor (not closed here).
        max_line_bytes: the longest line kept.
    """

    def __init__(self, fd: int, max_line_bytes: int) -> None:
        self.fd = fd
        self.max_line_bytes = max_line_bytes
        self._reader: asyncio.StreamReader | None = None
        self.transport: asyncio.BaseTransport | None = None

    def __aiter__(self) -> PipeLines:
        return self

    async def __anext__(self) -> str:
        if self._reader is None:
            loop = asyncio.get_running_loop()
            self._reader = asyncio.StreamReader(limit=self.max_line_bytes)
            reader = self._reader
            self.transport, _ = await loop.connect_read_pipe(
                lambda: asyncio.StreamReaderProtocol(reader),
                os.fdopen(self.fd, "rb", buffering=0, closefd=False),
            )
        try:
            line = await self._reader.readline()
        except ValueError:  # over the limit: the reader dropped what it held
            logger.warning("a stdin line over %d bytes was dropped", self.max_line_bytes)
            return UNREADABLE_LINE
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class PipeWriter:
    """Text written to a pipe's file descriptor from the event loop (``write``, then ``flush``).

    Args:
        fd: the descriptor (not closed here).
    """

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._writer: asyncio.StreamWriter | None = None

    async def _open(self) -> asyncio.StreamWriter:
        if self._writer is None:
            loop = asyncio.get_running_loop()
            transport, protocol = await loop.connect_write_pipe(
                lambda: asyncio.streams.FlowControlMixin(loop),
                os.fdopen(self.fd, "wb", buffering=0, closefd=False),
            )
            self._writer = asyncio.StreamWriter(transport, protocol, None, loop)
        return self._writer

    async def write(self, text: str) -> None:
        """Queue ``text`` (UTF-8) on the pipe."""
        (await self._open()).write(text.encode("utf-8"))

    async def flush(self) -> None:
        """Wait until the pipe has taken what was queued (back-pressure on a slow client)."""
        await (await self._open()).drain()

    def close(self) -> None:
        """Close the transport (the descriptor stays open)."""
        if self._writer is not None:
            self._writer.transport.close()


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
    in_fd, out_fd = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # stray output goes to stderr, not into the protocol
    lines, writer = PipeLines(in_fd, max_line_bytes), PipeWriter(out_fd)
    try:
        yield lines, writer
    finally:
        writer.close()
        if lines.transport is not None:
            lines.transport.close()
        for fd in (in_fd, out_fd):
            with contextlib.suppress(OSError):
                os.set_blocking(fd, True)  # the transports made them non-blocking
        os.dup2(in_fd, 0)
        os.dup2(out_fd, 1)
        os.close(in_fd)
        os.close(out_fd)
