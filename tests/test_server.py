"""``toolgym serve`` under load and under malformed HTTP, against 127.0.0.1 only.

The hostile-client suite every server shares (silent and trickling connections, heads past the
limits, shedding past the connection cap) is ``tests/test_http_front.py``.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from toolgym.families.cat_api.world import CatApiApp
from toolgym.tools.http_server import Server, ServerLimits

REQUEST = (
    "GET /v1/images/search?limit=2&order=ASC HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: k\r\n\r\n"
)


def running(srv: Server) -> Iterator[Server]:
    """``srv`` serving on a thread until the test is done."""
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        thread.join(timeout=5)


@pytest.fixture
def server() -> Iterator[Server]:
    yield from running(Server(CatApiApp(), idle_timeout=2))


def exchange(port: int, raw: bytes, timeout: float = 10.0) -> bytes:
    """Send ``raw`` on a new connection and read until the first complete response."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return data
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = next(
            (
                int(line.split(b":")[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            ),
            0,
        )
        while len(body) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        return head + b"\r\n\r\n" + body


def status(response: bytes) -> int:
    return int(response.split(b" ", 2)[1])


@pytest.fixture
def patient_server() -> Iterator[Server]:
    """A server that waits a minute for a silent connection's first request.

    Opening 200 connections on a loaded machine can take longer than the 2 s the other tests'
    server gives a silent one (closing those is ``tests/test_http_front.py``'s to test).
    """
    yield from running(Server(CatApiApp(), idle_timeout=60))


def test_two_hundred_concurrent_connections_are_all_answered(patient_server: Server) -> None:
    barrier = threading.Barrier(200, timeout=120)

    def client(_: int) -> int:
        port = patient_server.server_port
        with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
            barrier.wait()  # all 200 connections are open before any request is sent
            sock.sendall(REQUEST.encode())
            data = sock.recv(65536)
            return status(data)

    with ThreadPoolExecutor(max_workers=200) as pool:
        statuses = list(pool.map(client, range(200)))
    assert statuses == [200] * 200


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"GET /v1/favourites HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
        (b"GET /v1/favourites HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400),
        (b"NOT-HTTP\r\n\r\n", 400),
        (b"GET /v1/favourites HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n", 400),
        (
            b"POST /v1/favourites HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n"
            + b"x" * 100,
            413,
        ),
    ],
)
def test_malformed_requests_get_4xx(server: Server, raw: bytes, expected: int) -> None:
    assert status(exchange(server.server_port, raw)) == expected


def test_chunked_bodies_are_one_request(server: Server) -> None:
    body = b'{"image_id":"dv0","value":1}'
    raw = (
        b"POST /v1/votes HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + f"{len(body):x}\r\n".encode()
        + body
        + b"\r\n0\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as sock:
        sock.sendall(raw + REQUEST.encode())
        data = b""
        deadline = time.monotonic() + 10
        while data.count(b"HTTP/1.1 ") < 2 and time.monotonic() < deadline:
            data += sock.recv(65536)
    answers = data.split(b"HTTP/1.1 ")[1:]
    assert [int(a[:3]) for a in answers] == [200, 200], data[:300]
    assert b"SUCCESS" in answers[0]


def test_idle_keep_alive_connections_time_out(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.server_port), timeout=10) as sock:
        sock.sendall(REQUEST.encode())
        assert status(sock.recv(65536)) == 200
        time.sleep(4)  # the fixture's server closes connections idle for 2 s
        sock.settimeout(5)
        leftover, closed = b"", False
        try:
            while chunk := sock.recv(65536):  # the rest of the first answer, then end of stream
                leftover += chunk
            closed = True
        except ConnectionResetError:
            closed = True
    assert closed
    assert b"HTTP/1.1" not in leftover  # nothing was sent after the first answer


# -- hostile clients --------------------------------------------------------------------------------


@pytest.fixture
def strict() -> Iterator[Server]:
    limits = ServerLimits(
        max_head_bytes=8192, max_headers=20, request_deadline_s=1.5, max_connections=16
    )
    yield from running(Server(CatApiApp(), idle_timeout=30, limits=limits))


def read_all(sock: socket.socket) -> bytes:
    """Everything until the server closes the connection (a TimeoutError fails the test)."""
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def test_a_half_sent_body_gets_408_and_changes_nothing(strict: Server) -> None:
    body = b'{"image_id": "abc", "value": 1, "sub_id": "half"}'
    head = (
        "POST /v1/votes HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body) + 500}\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", strict.server_port), timeout=10) as sock:
        sock.sendall(head.encode() + body)  # 500 bytes short, and never sent
        answer = read_all(sock)  # returns once the server closes the connection
    assert status(answer) == 408
    votes = exchange(
        strict.server_port, b"GET /v1/votes HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\n\r\n"
    )
    assert status(votes) == 200 and b"half" not in votes


def test_the_serve_command_serves() -> None:
    import subprocess
    import sys

    from toolgym.evaluation.serve_perf import _free_port

    port = _free_port()
    command = [sys.executable, "-m", "toolgym.cli", "serve", "cat_api", "--port", str(port)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/".encode() in line, line
        assert status(exchange(port, REQUEST.encode())) == 200
    finally:
        proc.kill()
        proc.wait()


def read_responses(sock: socket.socket, count: int) -> list[int]:
    """The statuses of ``count`` responses read from ``sock`` (fewer if it closes first)."""
    data, statuses = b"", []
    while len(statuses) < count:
        head_end = data.find(b"\r\n\r\n")
        if head_end < 0:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
            continue
        head = data[:head_end]
        length = next(
            (int(line.split(b":")[1]) for line in head.split(b"\r\n")
             if line.lower().startswith(b"content-length")),
            0,
        )  # fmt: skip
        while len(data) < head_end + 4 + length:
            data += sock.recv(65536)
        statuses.append(status(head))
        data = data[head_end + 4 + length :]
    return statuses


def test_pipelined_requests_are_limited_one_by_one(strict: Server) -> None:
    one = "GET /v1/votes HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\n" + "X-A: b\r\n" * 5 + "\r\n"
    with socket.create_connection(("127.0.0.1", strict.server_port), timeout=10) as sock:
        sock.sendall((one * 25).encode())  # 175 header fields in one packet, 7 per request
        assert read_responses(sock, 25) == [200] * 25


def test_a_stalled_pipelined_request_gets_its_own_deadline(strict: Server) -> None:
    first = "GET /v1/votes HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\n\r\n"
    second = "POST /v1/votes HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\ncontent-length: 1000\r\n\r\n{"
    with socket.create_connection(("127.0.0.1", strict.server_port), timeout=10) as sock:
        sock.sendall((first + second).encode())
        assert read_responses(sock, 2) == [200, 408]
        assert read_all(sock) == b""  # and the connection is closed


def test_an_empty_line_between_requests_starts_no_deadline(strict: Server) -> None:
    with socket.create_connection(("127.0.0.1", strict.server_port), timeout=10) as sock:
        sock.sendall(REQUEST.encode())
        assert read_responses(sock, 1) == [200]
        sock.sendall(b"\r\n")  # allowed before a request (RFC 9112, 2.2)
        time.sleep(strict.limits.request_deadline_s + 0.5)
        sock.sendall(REQUEST.encode())
        assert read_responses(sock, 1) == [200]


@pytest.fixture
def sheets_server() -> Iterator[Server]:
    from toolgym.families.google_sheets.world.service import SheetsApp

    yield from running(Server(SheetsApp(), idle_timeout=2))


def test_the_real_gspread_client_creates_and_opens_files_over_http(sheets_server: Server) -> None:
    """Sheets, Drive and the token endpoint answer on one port: create, open, list, sign in."""
    pytest.importorskip("cryptography", reason="a service-account key is made with cryptography")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from google.oauth2.service_account import Credentials

    from toolgym.families.google_sheets.client import served_client

    url = f"http://127.0.0.1:{sheets_server.server_port}"
    client = served_client(url)
    book = client.create("Budget")  # Drive files.create
    sheet = client.open_by_key(book.id).sheet1
    assert sheet.update([["item", "price"], ["beef", 10]], "A1")["updatedCells"] == 4
    assert client.open("Budget").sheet1.get_all_records() == [{"item": "beef", "price": 10}]
    assert [f["name"] for f in client.list_spreadsheet_files()] == ["Budget"]

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    info = {
        "type": "service_account",
        "project_id": "p",
        "private_key_id": "k",
        "private_key": pem,
        "client_email": "bot@p.iam.gserviceaccount.com",
        "client_id": "1",
        "token_uri": "https://oauth2.googleapis.com/token",  # as a real key file has it
    }
    scopes = [
        "https://www.googleapis.com/auth/spreadsheets",
        "https://www.googleapis.com/auth/drive",
    ]
    credentials = Credentials.from_service_account_info(info, scopes=scopes)
    signed = served_client(url, credentials)
    assert signed.create("Signed").title == "Signed"
    assert credentials.token  # refreshed from the server's /token, never from the network
    assert {f["name"] for f in signed.list_spreadsheet_files()} == {"Budget", "Signed"}


def test_a_served_service_of_one_host_ignores_the_path_for_its_host(server: Server) -> None:
    reply = exchange(server.server_port, REQUEST.replace("/v1/images", "/drive/v1/images").encode())
    assert reply.startswith(b"HTTP/1.1 404")  # still the Cat API's host: no such route there


class _Where(CatApiApp):
    """The Cat API, noting the thread each request is answered on."""

    threads: list[str]

    def handle(self, request):  # type: ignore[no-untyped-def]
        self.threads.append(threading.current_thread().name)
        return super().handle(request)


@pytest.mark.parametrize("inline", [True, False])
def test_a_quick_service_is_answered_on_the_loop_and_a_slow_one_off_it(inline: bool) -> None:
    class App(_Where):
        answers_inline = inline

    app = App()
    app.threads = []
    for srv in running(Server(app, idle_timeout=2)):
        loop_threads = {t.name for t in threading.enumerate()}
        for _ in range(3):
            assert status(exchange(srv.server_port, REQUEST.encode())) == 200
    assert len(app.threads) == 3 and len(set(app.threads)) == 1
    worker = app.threads[0].startswith("toolgym-serve")
    assert worker is not inline  # inline: the serving thread itself
    assert inline is (app.threads[0] in loop_threads)
