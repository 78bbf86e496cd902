"""The MCP server (``toolgym mcp``) under the MCP SDK's own client and raw JSON-RPC.

The SDK's client plays over stdio, streamable HTTP and in process; raw JSON-RPC over HTTP
drives 512 concurrent sessions and the bad input.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

import anyio
import mcp_types as types
import uvicorn
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from toolgym.cli import build_parser
from toolgym.errors import DependencyNotInstalled
from toolgym.integrations.episode import ToolEpisode
from toolgym.integrations.mcp_handlers import EPISODE_META_KEY
from toolgym.integrations.mcp_server import (
    episode_pool,
    make_server,
    require_mcp,
    streamable_http_app,
)

HOME = "toolbench/HomeSearch-v0"
RAPID = "toolbench/RapidAPI-v1"
ROOT = Path(__file__).resolve().parents[1]
VERSION = "2025-11-25"


_LOCAL: dict[str, ToolEpisode] = {}


def gold(env_id: str, task_id: str, seed: int = 0) -> tuple[list[dict[str, Any]], list[str]]:
    """The task's oracle calls and the observations they get, played locally."""
    episode = _LOCAL.get(env_id) or _LOCAL.setdefault(env_id, ToolEpisode(env_id))
    episode.reset(seed=seed, task_id=task_id)
    calls = episode.oracle_calls()
    assert calls
    observations = [episode.call(c["name"], c["arguments"]).observation for c in calls]
    return calls, observations


@contextmanager
def serve(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free localhost port; yields its MCP URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def home_app() -> Any:
    return streamable_http_app(HOME, max_sessions=600, idle_timeout_s=60)


@pytest.fixture(scope="module")
def home_url(home_app: Any) -> Iterator[str]:
    with serve(home_app) as url:
        yield url


@pytest.fixture(scope="module")
def small_app() -> Any:
    return streamable_http_app(HOME, max_sessions=3, idle_timeout_s=1.0)


@pytest.fixture(scope="module")
def small_url(small_app: Any) -> Iterator[str]:
    with serve(small_app) as url:
        yield url


# -- a raw JSON-RPC client over streamable HTTP --------------------------------------------------

HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def message(content_type: str, body: bytes) -> dict[str, Any]:
    """The JSON-RPC message of a response (JSON, or the data of an SSE stream's event)."""
    if content_type.startswith("text/event-stream"):
        for line in body.decode().splitlines():
            if line.startswith("data:"):
                data = json.loads(line[5:])
                if "id" in data:
                    return dict(data)
        raise AssertionError(f"no response in the stream: {body[:200]!r}")
    return dict(json.loads(body))


class RawSession:
    """One MCP session spoken by hand on its own keep-alive HTTP/1.1 connection.

    (A general HTTP client spends more time on 512 concurrent sessions than the server.)
    """

    def __init__(self, url: str) -> None:
        address = url.split("//", 1)[1]
        host_port, self.path = address.split("/", 1)
        host, port = host_port.split(":")
        self.host, self.port, self.path = host, int(port), "/" + self.path
        self.headers, self.next_id = dict(HEADERS), 1
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def http(
        self, method: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """One request; returns the status, headers (lower case) and body."""
        fields = {**(headers or self.headers), "host": f"{self.host}:{self.port}"}
        fields["content-length"] = str(len(body))
        head = f"{method} {self.path} HTTP/1.1\r\n" + "".join(
            f"{k}: {v}\r\n" for k, v in fields.items()
        )
        for attempt in range(2):
            fresh = self._streams is None
            if self._streams is None:
                self._streams = await asyncio.open_connection(self.host, self.port)
            reader, writer = self._streams
            try:
                writer.write(head.encode() + b"\r\n" + body)
                await writer.drain()
                raw = await reader.readuntil(b"\r\n\r\n")
                break
            except (asyncio.IncompleteReadError, ConnectionError):
                self.drop()
                if fresh or attempt:  # the server closed an idle keep-alive connection: again
                    raise
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        got = {k.lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:] if x)}
        if "content-length" in got:
            content = await reader.readexactly(int(got["content-length"]))
        elif got.get("transfer-encoding") == "chunked":
            content = b""
            while size := int((await reader.readline()).strip(), 16):
                content += await reader.readexactly(size)
                await reader.readexactly(2)
            await reader.readline()
        else:
            content = await reader.read()
        if got.get("connection") == "close":
            self.drop()
        return status, got, content

    def drop(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None

    async def post(self, payload: Any, headers: dict[str, str] | None = None) -> Any:
        status, got, body = await self.http("POST", json.dumps(payload).encode(), headers)
        return status, got, body

    async def open(self) -> tuple[int, dict[str, Any]]:
        status, got, body = await self.post(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "0"},
                },
            }
        )
        if status == 200:
            self.headers["mcp-session-id"] = got["mcp-session-id"]
            self.headers["mcp-protocol-version"] = VERSION
        return status, message(got.get("content-type", ""), body)

    async def request(self, method: str, params: Any = None) -> tuple[int, dict[str, Any]]:
        self.next_id += 1
        payload = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        status, got, body = await self.post(payload)
        return status, message(got.get("content-type", ""), body)

    async def call(self, name: str, arguments: Any) -> dict[str, Any]:
        status, reply = await self.request("tools/call", {"name": name, "arguments": arguments})
        assert reply["id"] == self.next_id, (status, reply)
        return reply

    async def close(self) -> int:
        status = (await self.http("DELETE"))[0]
        self.drop()
        return status


def text_of(result: types.CallToolResult) -> str:
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    return block.text


# -- the optional dependency --------------------------------------------------------------------


def test_without_the_sdk_the_server_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)
    monkeypatch.setitem(sys.modules, "mcp.server", None)
    with pytest.raises(DependencyNotInstalled, match=r'pip install "toolgym\[mcp\]"'):
        require_mcp()
    with pytest.raises(DependencyNotInstalled):
        make_server(HOME)


def test_the_command_line_takes_the_options() -> None:
    args = build_parser().parse_args(
        ["mcp", HOME, "--transport", "http", "--port", "0", "--max-sessions", "8"]
    )
    assert (args.env_id, args.transport, args.port, args.max_sessions) == (HOME, "http", 0, 8)
    args = build_parser().parse_args(["mcp", HOME, "--idle-timeout", "2.5", "--split", "demo"])
    assert (args.transport, args.idle_timeout, args.split, args.port) == (
        "stdio",
        2.5,
        "demo",
        8000,
    )
    assert not args.sse and args.world_seed is None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["mcp", HOME, "--port", "70000"])


# -- stdio --------------------------------------------------------------------------------------


def test_an_agent_loop_over_stdio_gets_the_reward() -> None:
    calls, observations = gold(HOME, "test-000")
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "toolgym.cli", "mcp", HOME], cwd=str(ROOT)
    )
    changed: list[str] = []

    async def note(incoming: Any) -> None:
        if isinstance(incoming, types.ToolListChangedNotification):
            changed.append(incoming.method)

    async def play() -> None:
        for mode in ("auto", "legacy"):
            async with Client(stdio_client(params), mode=mode, message_handler=note) as client:
                listed = await client.list_tools()
                assert [t.name for t in listed.tools] == ["reset"]
                early = await client.call_tool(calls[0]["name"], calls[0]["arguments"])
                assert early.is_error and "reset_needed" in text_of(early)
                start = await client.call_tool("reset", {"seed": 0, "task_id": "test-000"})
                assert not start.is_error and start.structured_content is not None
                assert start.structured_content["task_id"] == "test-000"
                listed = await client.list_tools()
                names = {t.name for t in listed.tools}
                assert {c["name"] for c in calls} <= names and "reset" in names
                for call, expected in zip(calls, observations, strict=True):
                    result = await client.call_tool(call["name"], call["arguments"])
                    assert text_of(result).startswith(expected)
                data = result.structured_content
                assert data is not None and data["done"] and data["reward"] == 1.0
                assert data["metrics"]["success"] is True
                assert "Episode ended: reward 1" in text_of(result)
        assert changed  # the legacy session was told the tool list changed

    asyncio.run(play())


def test_stdio_writes_only_protocol_messages_and_survives_garbage() -> None:
    opening, *rest = _handshake_and_reset("test-001")
    lines = [
        "this is not JSON",
        opening,
        rest[0],
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "no/such/method"}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": 5}}),
        rest[1],
    ]
    by_id = _raw_stdio(lines, until=4)  # every line of stdout is read as JSON-RPC
    assert by_id[2]["error"]["code"] == types.METHOD_NOT_FOUND
    assert by_id[3]["error"]["code"] == types.INVALID_PARAMS
    assert by_id[4]["result"]["structuredContent"]["task_id"] == "test-001"


def _raw_stdio(lines: list[str], until: int) -> dict[Any, dict[str, Any]]:
    """The replies, by id, of a stdio server fed ``lines``, read until the one of id ``until``."""
    server = _stdio_server(text=True)
    try:
        server.stdin.write("\n".join(lines) + "\n")
        server.stdin.flush()
        replies: list[dict[str, Any]] = []
        while not any(r.get("id") == until for r in replies):
            line = server.stdout.readline()
            assert line, "the server closed stdout"
            replies.append(json.loads(line))
        server.stdin.close()
        assert server.wait(30) == 0
    finally:
        server.kill()
        server.wait()
    return {r["id"]: r for r in replies if "id" in r}  # notifications have no id


def _stdio_server(text: bool) -> subprocess.Popen[Any]:
    """``toolgym mcp HOME`` over pipes, in text or bytes."""
    server = subprocess.Popen(
        [sys.executable, "-m", "toolgym.cli", "mcp", HOME],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=text,
        cwd=ROOT,
    )
    assert server.stdin is not None and server.stdout is not None
    return server


def _handshake_and_reset(task_id: str) -> list[str]:
    return [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": VERSION,
                    "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"},
                },
            }
        ),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 4,
                "method": "tools/call",
                "params": {"name": "reset", "arguments": {"task_id": task_id}},
            }
        ),
    ]


def test_stdio_drops_a_line_over_the_request_limit_and_goes_on() -> None:
    huge = json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping", "x": "a" * 3_000_000})
    nested = json.dumps({"jsonrpc": "2.0", "params": {"id": 5}, "id": "q", "x": "b" * 2_000_000})
    late = json.dumps({"jsonrpc": "2.0", "x": "c" * 2_000_000, "id": 11})  # its id comes too late
    lines = [huge, nested, late, *_handshake_and_reset("test-002")]
    by_id = _raw_stdio(lines, until=4)
    for request in (9, "q", None):  # never read whole: refused, under the request's id if seen
        assert by_id[request]["error"]["code"] == -32600
        assert "at most 1048576 bytes" in by_id[request]["error"]["message"]
    assert 5 not in by_id and 11 not in by_id
    assert by_id[4]["result"]["structuredContent"]["task_id"] == "test-002"


@pytest.mark.parametrize(
    ("head", "expected"),
    [
        (b'{"jsonrpc": "2.0", "params": {"id": 5}, "id": 7, "x": "aa', 7),
        (b'{"id": -3, "x": "aa', -3),
        (b'{"id": "a\\"b", "x', 'a"b'),
        (b'{"id": -}', None),  # a sign with no digits
        (b'{"id": 1e5, "x', None),  # no integer
        (b'{"id": 1234567890123456789012, "x', None),  # too long to be an id of ours
        (b'{"id": "\xff\xfe", "x', None),  # no UTF-8
        (b'{"x": "' + b"a" * 5000, None),  # the id, if any, comes later
        (b"{" * 5000, None),
    ],
)
def test_the_id_of_a_dropped_message_is_read_from_its_start(head: bytes, expected: Any) -> None:
    from toolgym.integrations.mcp_stdio import request_id

    assert request_id(head) == expected


def test_reading_the_id_of_a_dropped_message_never_raises() -> None:
    from toolgym.integrations.mcp_stdio import request_id

    rng = random.Random(3)
    pieces = [
        b"{",
        b"}",
        b"[",
        b"]",
        b'"',
        b"\\",
        b":",
        b",",
        b"-",
        b"1",
        b"e",
        b".",
        b'"id"',
        b" ",
    ]
    for _ in range(20_000):
        head = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        assert request_id(head) is None or isinstance(request_id(head), int | str)


def test_stdio_with_stdin_at_the_null_device_ends() -> None:
    server = subprocess.run(
        [sys.executable, "-m", "toolgym.cli", "mcp", HOME],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert server.returncode == 0 and server.stdout == b""


def test_stdio_from_a_file_is_served_by_the_sdks_streams(tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_text("\n".join(["not JSON", *_handshake_and_reset("test-004")[:2]]) + "\n")
    with requests.open("rb") as stdin:
        server = subprocess.run(
            [sys.executable, "-m", "toolgym.cli", "mcp", HOME],
            stdin=stdin,
            capture_output=True,
            cwd=ROOT,
            timeout=120,
        )
    assert server.returncode == 0
    replies = [json.loads(line) for line in server.stdout.splitlines()]
    by_id = {r["id"]: r for r in replies if "id" in r}
    assert by_id[1]["result"]["serverInfo"]["name"] == "toolgym"  # (at the end of stdin the
    # SDK's server stops, cancelling what is still running: a reset would not be answered)


def test_stdio_goes_on_quietly_when_the_client_stops_reading() -> None:
    server = _stdio_server(text=False)
    try:
        server.stdin.write(_handshake_and_reset("test-005")[0].encode() + b"\n")
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 1
        server.stdout.close()  # the client reads no more answers
        pings = [{"jsonrpc": "2.0", "id": 10 + i, "method": "ping"} for i in range(20)]
        server.stdin.write(b"".join(json.dumps(p).encode() + b"\n" for p in pings))
        server.stdin.close()
        server.wait(60)
        stderr = server.stderr.read()  # type: ignore[union-attr]
    finally:
        server.kill()
        server.wait()
    assert server.returncode == 0
    assert b"Traceback" not in stderr and stderr.count(b"stdout was closed by the client") == 1
    assert b"pipe closed by peer" not in stderr  # nothing more written: asyncio's warning each time


def test_the_session_streams_read_and_write_lines_as_the_sdks_do() -> None:
    from mcp.shared.message import SessionMessage

    from toolgym.integrations.mcp_stdio import PipeLines, PipeWriter, SessionReader, SessionWriter

    async def run() -> tuple[list[Any], bytes]:
        read_in, write_in = os.pipe()
        read_out, write_out = os.pipe()
        ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
        os.write(write_in, b"no JSON\n" + json.dumps(ping).encode() + b"\n")
        os.close(write_in)
        lines, writer = PipeLines(read_in, 1 << 20), PipeWriter(write_out)
        loop = asyncio.get_running_loop()
        connect, opened = loop.connect_write_pipe, []

        async def counted(*args: Any) -> Any:
            opened.append(args)
            return await connect(*args)

        loop.connect_write_pipe = counted  # type: ignore[method-assign]
        got = []
        async with SessionReader(lines) as reader, SessionWriter(writer) as out:
            async for item in reader:
                got.append(item)
            answer = types.JSONRPCResponse(jsonrpc="2.0", id=1, result={})
            sends = [out.send(SessionMessage(answer)) for _ in range(3)]
            await asyncio.gather(*sends)  # first writes at once: one pipe, whole lines
            assert len(opened) == 1
        with pytest.raises(anyio.ClosedResourceError):
            await out.send(SessionMessage(answer))
        with pytest.raises(anyio.ClosedResourceError):
            await reader.receive()
        await writer.close()
        lines.transport.close()  # type: ignore[union-attr]
        for fd in (read_in, write_out):
            os.close(fd)
        written = os.read(read_out, 1 << 16)
        os.close(read_out)
        return got, written

    got, written = asyncio.run(run())
    assert isinstance(got[0], Exception)  # handed to the session, which answers and goes on
    assert isinstance(got[1], SessionMessage) and got[1].message.id == 1
    assert written == b'{"jsonrpc":"2.0","id":1,"result":{}}\n' * 3


def _pipe_lines(chunks: list[bytes], max_line_bytes: int) -> tuple[list[str], list[bytes]]:
    """The lines :class:`PipeLines` reads from ``chunks`` arriving one by one, and its drops."""
    from toolgym.integrations.mcp_stdio import PipeLines

    async def run() -> tuple[list[str], list[bytes]]:
        dropped: list[bytes] = []

        async def drop(head: bytes) -> None:
            dropped.append(head)

        lines = PipeLines(-1, max_line_bytes, drop)
        reader = lines._reader = asyncio.StreamReader()

        async def feed() -> None:
            for chunk in chunks:
                reader.feed_data(chunk)
                for _ in range(3):  # the lines' reader takes this chunk alone
                    await asyncio.sleep(0)
            reader.feed_eof()

        feeding = asyncio.ensure_future(feed())
        got = [line async for line in lines]
        await feeding
        return got, dropped

    return asyncio.run(run())


def _text_file_lines(data: bytes) -> list[bytes]:
    """``data``'s lines as a text file reads them (universal newlines), each with its end."""
    read = io.TextIOWrapper(io.BytesIO(data), encoding="latin-1", newline=None).readlines()
    return [line.encode("latin-1") for line in read]


def test_stdin_lines_end_as_a_text_file_s_lines_end_wherever_the_reads_cut_them() -> None:
    rng = random.Random(11)
    alphabet = [b"a", b"{}", b"\r", b"\n", b"\r\n", "\u00e9\u20ac".encode(), b"\xff", b"\xe2\x82"]
    for case in range(400):
        data = b"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        cuts = sorted(
            rng.sample(range(1, len(data)), max(0, min(len(data) - 1, rng.randint(0, 8))))
        )
        chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        limit = rng.choice([4, 8, 1 << 20])
        got, dropped = _pipe_lines([c for c in chunks if c], limit)
        expected, too_long = [], []
        for line in _text_file_lines(data):
            body = line[:-1] if line.endswith(b"\n") else line
            if len(body) > limit:
                too_long.append(body)
            else:
                expected.append(line.decode("utf-8", errors="replace"))
        assert got == expected, (case, data, chunks)
        assert len(dropped) == len(too_long), (case, data, chunks)
        for head, body in zip(dropped, too_long, strict=True):
            assert body.startswith(head.rstrip(b"\r\n")[: len(body)]), (case, head, body)


def test_a_stdin_line_may_be_the_limit_long_whatever_its_end() -> None:
    ping = b'{"id": 1}'
    for end in (b"\n", b"\r\n", b"\r", b""):
        assert _pipe_lines([ping + end], len(ping)) == ([ping.decode() + "\n" * bool(end)], [])
        got, dropped = _pipe_lines([ping + end, b"next\n" if end else b""], len(ping) - 1)
        assert got == (["next\n"] if end else []) and dropped == [ping + end]
    got, dropped = _pipe_lines([ping[:4], ping[4:]], 5)  # too long, and no end before stdin's
    assert got == [] and dropped == [ping[:4] + ping[4:]]


def test_answers_dropped_at_the_end_leave_no_half_line() -> None:
    from toolgym.integrations.mcp_stdio import PipeWriter

    line = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"x": "a" * 9_960}}) + "\n"
    read_fd, write_fd = os.pipe()
    got: list[bytes] = []

    async def run() -> None:
        writer = PipeWriter(write_fd)
        for _ in range(20):  # three times what the pipe holds, and no one reads
            await writer.write(line)
        transport = writer._writer.transport  # type: ignore[union-attr]

        def read_once_dropped() -> None:  # the client reads again once the rest was dropped
            while not transport.is_closing():
                time.sleep(0.01)
            with open(read_fd, "rb") as pipe:
                got.append(pipe.read())

        reader = threading.Thread(target=read_once_dropped)
        reader.start()
        await writer.close(timeout_s=0.2, finish_s=60)
        os.close(write_fd)
        await asyncio.to_thread(reader.join, 60)

    asyncio.run(run())
    data = got[0]
    assert 0 < len(data) < 20 * len(line) and data.endswith(b"\n")
    assert all(json.loads(one)["id"] == 1 for one in data.splitlines())


def test_an_over_long_line_never_stops_stdin_while_stdout_is_unread() -> None:
    pings = [{"jsonrpc": "2.0", "id": 10 + i, "method": "tools/list"} for i in range(300)]
    huge = {"jsonrpc": "2.0", "id": 999, "method": "ping", "x": "a" * 1_100_000}
    tail = [
        {"jsonrpc": "2.0", "id": 1000 + i, "method": "ping", "x": "b" * 999} for i in range(2000)
    ]
    lines = [*_handshake_and_reset("test-001"), *map(json.dumps, [*pings, huge, *tail])]
    server = _stdio_server(text=False)
    stdin = server.stdin
    assert stdin is not None

    def write_all() -> None:
        stdin.write("\n".join(lines).encode() + b"\n")
        stdin.close()

    try:  # every request written before any answer is read: stdout fills while stdin is read
        writing = threading.Thread(target=write_all)
        writing.start()
        writing.join(120)
        assert not writing.is_alive(), "the server stopped reading stdin"
        server.stdin = None  # (closed by the thread)
        out, _ = server.communicate(timeout=120)
    finally:
        server.kill()
        server.wait()
    by_id = {r.get("id"): r for r in map(json.loads, out.splitlines())}
    assert by_id[999]["error"]["code"] == -32600
    assert all(10 + i in by_id for i in range(300)) and all(1000 + i in by_id for i in range(2000))


def test_stdio_uses_event_loop_pipes_only_on_pipes(tmp_path: Path) -> None:
    from toolgym.integrations.mcp_stdio import _is_pipe

    read, write = os.pipe()
    try:
        assert _is_pipe(read) and _is_pipe(write)
    finally:
        os.close(read)
        os.close(write)
    with (tmp_path / "requests.jsonl").open("w") as file:  # a file: the SDK's own streams
        assert not _is_pipe(file.fileno())
    with open(os.devnull, "rb") as null:  # a character device no event loop can watch
        assert not _is_pipe(null.fileno())
    main, terminal = os.openpty()  # a terminal: shared, and its transports make it non-blocking
    try:
        assert not _is_pipe(terminal)
    finally:
        os.close(main)
        os.close(terminal)
    one, other = socket.socketpair()  # a socket: its write transport would read as a close
    with one, other:
        assert not _is_pipe(one.fileno())
    assert not _is_pipe(10_000)  # not open


# -- in process -----------------------------------------------------------------------------------


def test_in_process_requests_without_a_session_name_their_episode_by_handle() -> None:
    calls, _ = gold(HOME, "test-003")
    server = make_server(HOME, max_sessions=1)

    async def play() -> None:
        async with Client(server) as client:
            lost = await client.call_tool(calls[0]["name"], calls[0]["arguments"])
            assert lost.is_error and "reset_needed" in text_of(lost)
            start = await client.call_tool("reset", {"task_id": "test-003", "seed": 3})
            assert start.structured_content is not None
            meta = {EPISODE_META_KEY: start.structured_content["episode"]}
            assert len((await client.list_tools(meta=meta)).tools) > 1
            for call in calls:
                result = await client.call_tool(call["name"], call["arguments"], meta=meta)
            assert result.structured_content is not None
            assert result.structured_content["reward"] == 1.0
            full = await client.call_tool("reset", {})  # a second episode: max_sessions is 1
            assert full.is_error and "session_limit" in text_of(full)
            bogus = await client.call_tool("reset", {}, meta={EPISODE_META_KEY: "e-nope"})
            assert bogus.is_error and "unknown_episode" in text_of(bogus)
            wrong = await client.call_tool("reset", {}, meta={EPISODE_META_KEY: 7})
            assert wrong.is_error and "unknown_episode" in text_of(wrong)
            for arguments in ({"seed": -1}, {"task_id": "nope"}, {"seed": 0, "colour": 1}):
                bad = await client.call_tool("reset", arguments, meta=meta)
                assert bad.is_error and "wrong_arguments" in text_of(bad)
                assert bad.structured_content is not None
                assert bad.structured_content["error"]["category"] == "wrong_arguments"

    asyncio.run(play())
    assert episode_pool(server).stats()["open"] == 1


@pytest.mark.parametrize(
    ("single_client", "inline", "makes_envs", "on_loop"),
    [
        (False, True, False, True),
        (False, True, True, False),
        (False, False, False, False),
        (True, False, True, True),
    ],
    ids=["quick-env-call", "quick-env-reset", "env-that-may-block", "one-client"],
)
def test_where_a_servers_work_runs(
    single_client: bool, inline: bool, makes_envs: bool, on_loop: bool
) -> None:
    """Quick envs' calls and a stdio server's one client on the loop; the rest in a thread."""
    from toolgym.integrations.mcp_handlers import EpisodeHandlers
    from toolgym.integrations.sessions import SessionPool

    pool = SessionPool(HOME, max_sessions=2)
    pool.steps_inline = inline
    handlers = EpisodeHandlers(pool, single_client=single_client)

    async def where() -> list[int]:
        return [await handlers._run(threading.get_ident, makes_envs=makes_envs) for _ in range(3)]

    try:
        threads = asyncio.run(where())
    finally:
        pool.close_all()
    loop_thread = threading.get_ident()  # asyncio.run runs the loop in this thread
    assert all((t == loop_thread) == on_loop for t in threads)


# -- streamable HTTP ------------------------------------------------------------------------------


def test_an_agent_loop_over_http_gets_the_reward_and_the_errors(
    home_url: str, home_app: Any
) -> None:
    calls, observations = gold(HOME, "test-000")
    changed: list[str] = []

    async def note(incoming: Any) -> None:
        if isinstance(incoming, types.ToolListChangedNotification):
            changed.append(incoming.method)

    async def play() -> None:
        async with Client(home_url, message_handler=note) as client:
            assert client.protocol_version == VERSION  # a session, not stateless requests
            assert [t.name for t in (await client.list_tools()).tools] == ["reset"]
            start = await client.call_tool("reset", {"seed": 0, "task_id": "test-000"})
            assert "episode" not in (start.structured_content or {})  # the session is the key
            tools = {t.name: t for t in (await client.list_tools()).tools}
            schema = ToolEpisode(HOME).tool_schemas()[0]["function"]
            assert tools[schema["name"]].input_schema == schema["parameters"]
            unknown = await client.call_tool("no_such_tool", {})
            assert unknown.is_error and unknown.structured_content is not None
            assert unknown.structured_content["error"]["category"] == "wrong_api"
            big = await client.call_tool(calls[0]["name"], {"value": "x" * 100_000})
            assert big.is_error and "wrong_arguments" in text_of(big)
            await client.call_tool("reset", {"seed": 0, "task_id": "test-000"})
            for call, expected in zip(calls, observations, strict=True):
                result = await client.call_tool(call["name"], call["arguments"])
                assert text_of(result).startswith(expected) and not result.is_error
            assert result.structured_content is not None
            assert result.structured_content["reward"] == 1.0
            after = await client.call_tool(calls[0]["name"], calls[0]["arguments"])
            assert after.is_error and after.structured_content is not None
            assert after.structured_content["error"]["category"] == "episode_ended"
            await asyncio.sleep(0.2)
        assert changed

    open_before = episode_pool(home_app).stats()["open"]
    asyncio.run(play())
    assert episode_pool(home_app).stats()["open"] == open_before  # closed with the session


def test_a_task_whose_tools_change_plays_over_http_with_sse_responses() -> None:
    calls, _ = gold(RAPID, "G1-000")
    with serve(streamable_http_app(RAPID, max_sessions=4, json_response=False)) as url:

        async def play() -> None:
            async with Client(url) as client:
                await client.call_tool("reset", {"task_id": "G2-000"})
                first = {t.name for t in (await client.list_tools()).tools}
                await client.call_tool("reset", {"seed": 0, "task_id": "G1-000"})
                second = {t.name for t in (await client.list_tools()).tools}
                assert first != second and {c["name"] for c in calls} <= second
                for call in calls:
                    result = await client.call_tool(call["name"], call["arguments"])
                assert result.structured_content is not None
                assert result.structured_content["reward"] == 1.0

        asyncio.run(play())


def test_stateless_requests_of_the_newest_protocol_use_a_handle(home_url: str) -> None:
    calls, _ = gold(HOME, "test-002", seed=2)

    async def play() -> None:
        async with Client(home_url, mode="2026-07-28") as client:
            lost = await client.call_tool(calls[0]["name"], calls[0]["arguments"])
            assert lost.is_error and "reset_needed" in text_of(lost)
            start = await client.call_tool("reset", {"seed": 2, "task_id": "test-002"})
            assert start.structured_content is not None
            handle = start.structured_content["episode"]
            assert handle in text_of(start)
            for call in calls:
                result = await client.call_tool(
                    call["name"], call["arguments"], meta={EPISODE_META_KEY: handle}
                )
            assert result.structured_content is not None
            assert result.structured_content["reward"] == 1.0
            assert result.structured_content["episode"] == handle

    asyncio.run(play())


def test_a_stateless_http_server_serves_episodes_by_handle() -> None:
    calls, _ = gold(HOME, "test-007", seed=7)
    with serve(streamable_http_app(HOME, max_sessions=4, stateless_http=True)) as url:

        async def play() -> None:
            for mode in ("legacy", "auto"):
                async with Client(url, mode=mode) as client:
                    start = await client.call_tool("reset", {"seed": 7, "task_id": "test-007"})
                    assert start.structured_content is not None
                    meta = {EPISODE_META_KEY: start.structured_content["episode"]}
                    for call in calls:
                        result = await client.call_tool(call["name"], call["arguments"], meta=meta)
                    assert result.structured_content is not None
                    assert result.structured_content["reward"] == 1.0

        asyncio.run(play())


def test_512_concurrent_sessions_play_their_own_tasks(home_url: str, home_app: Any) -> None:
    count = 512
    expected = {i: gold(HOME, f"test-{i % 100:03d}", seed=i) for i in range(count)}
    opened = asyncio.Event()
    ready = [0]

    async def one(i: int) -> float:
        session = RawSession(home_url)
        assert (await session.open())[0] == 200
        ready[0] += 1
        if ready[0] == count:
            opened.set()
        await opened.wait()  # every session is open at once
        start = await session.call("reset", {"seed": i, "task_id": f"test-{i % 100:03d}"})
        assert start["result"]["structuredContent"]["task_id"] == f"test-{i % 100:03d}"
        calls, observations = expected[i]
        for call, observation in zip(calls, observations, strict=True):
            reply = await session.call(call["name"], call["arguments"])
            assert reply["result"]["structuredContent"]["observation"] == observation
        assert await session.close() == 200
        return float(reply["result"]["structuredContent"]["reward"])

    async def run() -> list[float]:
        return await asyncio.gather(*(one(i) for i in range(count)))

    open_before = episode_pool(home_app).stats()["open"]
    assert asyncio.run(run()) == [1.0] * count
    stats = episode_pool(home_app).stats()
    assert stats["open"] == open_before and stats["envs_made"] <= count + open_before + 1


def test_bad_http_input_gets_protocol_errors(home_url: str) -> None:
    async def run() -> None:
        raw = RawSession(home_url)
        status, _, body = await raw.http("POST", b"{not json", HEADERS)
        assert status == 400 and json.loads(body)["error"]["code"] == types.PARSE_ERROR
        status, _, body = await raw.post({"hello": 1}, HEADERS)
        assert status == 400 and "error" in json.loads(body)
        gone = dict(HEADERS, **{"mcp-session-id": "f" * 32, "mcp-protocol-version": VERSION})
        status, _, _ = await raw.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, gone)
        assert status == 404
        status, _, _ = await raw.http("POST", b" " * (2 << 20), HEADERS)
        assert status == 413
        raw.drop()
        session = RawSession(home_url)
        await session.open()
        reply = await session.call("reset", "not an object")
        assert reply["error"]["code"] == types.INVALID_PARAMS
        reply = await session.call("reset", {"task_id": "x" * 500})
        assert reply["result"]["isError"] is True
        assert await session.close() == 200
        assert await session.close() == 404  # closing twice: the session is gone
        again = RawSession(home_url)  # and the server still serves
        assert (await again.open())[0] == 200
        reply = await again.call("reset", {"task_id": "test-004"})
        assert reply["result"]["isError"] is False
        await again.close()
        vanishing = RawSession(home_url)  # a client that drops its connection mid-request
        await vanishing.open()
        assert vanishing._streams is not None
        vanishing._streams[1].write(b"POST /mcp HTTP/1.1\r\ncontent-length: 100\r\n\r\n{")
        vanishing.drop()

    asyncio.run(run())


def test_sessions_are_bounded_reclaimed_and_memory_stays_flat(
    small_url: str, small_app: Any
) -> None:
    pool = episode_pool(small_app)
    sessions = small_app.state.toolgym_sessions

    async def run() -> None:
        held = [RawSession(small_url) for _ in range(3)]
        for session in held:
            assert (await session.open())[0] == 200
            await session.call("reset", {"task_id": "test-005"})
        status, refused = await RawSession(small_url).open()
        assert status == 503 and "max_sessions" in refused["error"]["message"]
        await held[0].close()
        vanished = held[1:]  # these clients go away mid-episode without a word
        for session in vanished:
            session.drop()
        await asyncio.sleep(2.6)  # idle timeout 1 s: the SDK ends them, the pool reclaims
        assert pool.stats()["open"] == 0 and pool.stats()["reclaimed"] >= 2
        for session in vanished:
            assert (await session.request("tools/list"))[0] == 404
            session.drop()
        assert len(sessions) == 0
        for _ in range(100):  # open and close many: nothing piles up
            session = RawSession(small_url)
            assert (await session.open())[0] == 200
            await session.call("reset", {"task_id": "test-006"})
            assert await session.close() == 200

    asyncio.run(run())
    assert pool.stats()["open"] == 0 and pool.stats()["envs_made"] <= 4, (
        pool._sessions,
        sessions._last_seen,
    )
    assert len(sessions) == 0 and sessions.stats()["refused"] == 1
    assert len(sessions.manager._server_instances) == 0  # the SDK keeps no ended session


ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
"""What every request of the 2026-07-28 protocol carries in ``_meta``."""


def test_a_request_of_the_newest_protocol_cannot_drive_another_sessions_episode() -> None:
    """The 2026-07-28 protocol has no sessions: an ``mcp-session-id`` header there binds nothing."""
    app = streamable_http_app(HOME, max_sessions=4, idle_timeout_s=30.0)
    pool = episode_pool(app)
    calls, _ = gold(HOME, "test-002", seed=2)
    with serve(app) as url:

        async def run() -> None:
            victim = RawSession(url)
            assert (await victim.open())[0] == 200
            await victim.call("reset", {"seed": 2, "task_id": "test-002"})
            key = f"s-{victim.headers['mcp-session-id']}"
            steps = pool.run(key, lambda ep: ep.state()["step_count"])
            attacker = RawSession(url)
            forged = {
                **HEADERS,
                "mcp-session-id": victim.headers["mcp-session-id"],
                "mcp-protocol-version": "2026-07-28",
            }
            for name, arguments in [
                (calls[0]["name"], calls[0]["arguments"]),
                ("reset", {"seed": 0, "task_id": "test-000"}),
            ]:
                payload = {
                    "jsonrpc": "2.0",
                    "id": 9,
                    "method": "tools/call",
                    "params": {"name": name, "arguments": arguments, "_meta": ENVELOPE},
                }
                routing = {"mcp-method": "tools/call", "mcp-name": name}
                status, got, body = await attacker.post(payload, {**forged, **routing})
                reply = message(got.get("content-type", ""), body)
                assert status == 200 and "result" in reply, (status, reply)
                if name != "reset":  # no session on this path: the call has no episode
                    assert "reset_needed" in json.dumps(reply), reply
            assert pool.run(key, lambda ep: ep.state()["step_count"]) == steps
            assert pool.run(key, lambda ep: ep.state()["task_id"]) == "test-002"
            made_up = dict(forged, **{"mcp-session-id": "a" * 32})
            await attacker.post(
                {
                    "jsonrpc": "2.0",
                    "id": 10,
                    "method": "tools/call",
                    "params": {
                        "name": calls[0]["name"],
                        "arguments": calls[0]["arguments"],
                        "_meta": ENVELOPE,
                    },
                },
                {**made_up, "mcp-method": "tools/call", "mcp-name": calls[0]["name"]},
            )
            assert f"s-{'a' * 32}" not in pool
            attacker.drop()
            assert await victim.close() == 200

        asyncio.run(run())


def test_stateless_resets_cannot_fill_the_pool_stateful_clients_use() -> None:
    app = streamable_http_app(HOME, max_sessions=3, idle_timeout_s=30.0)
    with serve(app) as url:

        async def run() -> None:
            async with Client(url, mode="2026-07-28") as client:
                refused = 0
                for _ in range(5):  # more than max_sessions stateless episodes
                    start = await client.call_tool("reset", {"task_id": "test-000"})
                    refused += bool(start.is_error)
                assert refused == 2, refused  # handles have their own cap: max_sessions
            held = [RawSession(url) for _ in range(3)]
            for session in held:  # stateful clients still get their max_sessions
                assert (await session.open())[0] == 200
                reply = await session.call("reset", {"task_id": "test-001"})
                assert not reply["result"].get("isError"), reply
            for session in held:
                assert await session.close() == 200

        asyncio.run(run())


def test_a_client_that_leaves_mid_body_leaves_no_traceback(
    small_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    host, port = small_url.split("//", 1)[1].split("/", 1)[0].split(":")
    with caplog.at_level("ERROR"):
        for declared in (1_000, 50_000):
            with socket.create_connection((host, int(port))) as raw:
                raw.sendall(
                    (
                        f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\n"
                        "Content-Type: application/json\r\n"
                        "Accept: application/json, text/event-stream\r\n"
                        f"Content-Length: {declared}\r\n\r\n"
                    ).encode()
                    + b'{"jsonrpc": "2.0", '
                )
                time.sleep(0.2)
        time.sleep(0.5)

        async def still_serves() -> None:
            session = RawSession(small_url)
            assert (await session.open())[0] == 200
            assert await session.close() == 200

        asyncio.run(still_serves())
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text
