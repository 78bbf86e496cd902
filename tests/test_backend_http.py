"""OpenAIBackend against a scripted OpenAI-format server on localhost."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from toolgym.agents.backends.base import DEFAULT_STOPS
from toolgym.agents.backends.openai_http import BackendError, BackendUnavailable, OpenAIBackend
from toolgym.errors import ToolgymError

KEY = "sk-test-SECRET-0123456789"


def chat_reply(content: str | None, finish: str = "stop", **message: Any) -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, **message},
                "finish_reason": finish,
            }
        ],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def completion_reply(text: str, finish: str = "stop") -> dict[str, Any]:
    return {
        "id": "cmpl-1",
        "object": "text_completion",
        "choices": [{"index": 0, "text": text, "finish_reason": finish}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8},
    }


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeServer:
    """Answers with the scripted replies in order (then a default reply); records requests."""

    base_url: str = ""
    script: list[tuple[int, Any, dict[str, str]]] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)

    def add(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        self.script.append((status, body, headers or {}))

    def reply_for(self, path: str) -> tuple[int, Any, dict[str, str]]:
        if self.script:
            return self.script.pop(0)
        if path.endswith("/chat/completions"):
            return 200, chat_reply("default"), {}
        if path.endswith("/completions"):
            return 200, completion_reply("default"), {}
        return 404, {"error": {"message": f"no route {path}"}}, {}


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            fake.requests.append(
                Recorded(self.path, dict(self.headers), json.loads(raw) if raw else {})
            )
            status, body, headers = fake.reply_for(self.path)
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            for key, value in headers.items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    fake.base_url = f"http://127.0.0.1:{httpd.server_port}/v1"
    try:
        yield fake
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "TOOLGYM_BASE_URL",
        "OPENAI_BASE_URL",
        "TOOLGYM_API_KEY",
        "OPENAI_API_KEY",
        "TOOLGYM_MODEL",
    ):
        monkeypatch.delenv(name, raising=False)


class Sleeps(list):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def make(server: FakeServer, **kwargs: Any) -> OpenAIBackend:
    kwargs.setdefault("sleep", Sleeps())
    kwargs.setdefault("timeout", 5.0)
    return OpenAIBackend(kwargs.pop("model", "tiny"), base_url=server.base_url, **kwargs)


def test_chat_request_and_generation(server: FakeServer) -> None:
    server.add(200, chat_reply("API.search()"))
    backend = make(server, system="You are an agent.")
    stops = ["------", "Task:", "\nObservation:", "<s4>", "<s5>", "<s6>"]
    [gen] = backend.generate(["find a cat"], max_new_tokens=32, stop=stops)
    assert gen.text == "API.search()"
    assert gen.finish_reason == "stop"
    assert (gen.prompt_tokens, gen.completion_tokens) == (11, 7)
    assert gen.tool_calls is None
    [req] = server.requests
    assert req.path == "/v1/chat/completions"
    body = req.body
    assert body["model"] == "tiny"
    assert body["messages"] == [
        {"role": "system", "content": "You are an agent."},
        {"role": "user", "content": "find a cat"},
    ]
    assert body["temperature"] == 0
    assert body["max_tokens"] == 32
    assert body["stop"] == stops[:4]
    assert "tools" not in body
    assert "Authorization" not in req.headers
    assert backend.name == "openai:tiny"


def test_authorization_header_only_with_key(server: FakeServer) -> None:
    backend = make(server, api_key=KEY)
    backend.generate([[{"role": "user", "content": "hi"}]], max_new_tokens=4)
    assert server.requests[-1].headers["Authorization"] == f"Bearer {KEY}"
    assert KEY not in repr(backend)


def test_several_prompts_sequential(server: FakeServer) -> None:
    server.add(200, chat_reply("one"))
    server.add(200, chat_reply("two", finish="length"))
    gens = make(server).generate(["a", "b"], max_new_tokens=8)
    assert [g.text for g in gens] == ["one", "two"]
    assert [g.finish_reason for g in gens] == ["stop", "length"]
    assert [r.body["messages"][-1]["content"] for r in server.requests] == ["a", "b"]


def test_local_stop_application(server: FakeServer) -> None:
    server.add(200, chat_reply("API.search()\nTask: next task", finish="length"))
    server.add(200, chat_reply("x\nObservation: y z"))
    backend = make(server)
    [gen] = backend.generate(["q"], max_new_tokens=64, stop=DEFAULT_STOPS)
    assert gen.text == "API.search()\n"
    assert gen.finish_reason == "stop"
    # A fifth stop is not sent to the server but still honoured locally.
    stops = ["s1", "s2", "s3", "s4", "\nObservation:"]
    [gen] = backend.generate(["q"], max_new_tokens=64, stop=stops)
    assert server.requests[-1].body["stop"] == stops[:4]
    assert gen.text == "x"


def test_429_retry_after_then_success(server: FakeServer) -> None:
    server.add(429, {"error": {"message": "slow down"}}, {"Retry-After": "0"})
    server.add(200, chat_reply("ok"))
    sleeps = Sleeps()
    [gen] = make(server, sleep=sleeps, backoff=3.0).generate(["q"], max_new_tokens=4)
    assert gen.text == "ok"
    assert len(server.requests) == 2
    assert sleeps == [0.0]  # Retry-After honoured instead of the 3 s backoff


def test_500_twice_then_success(server: FakeServer) -> None:
    server.add(500, {"error": {"message": "boom"}})
    server.add(502, b"bad gateway")
    server.add(200, chat_reply("ok"))
    sleeps = Sleeps()
    [gen] = make(server, sleep=sleeps, backoff=0.5).generate(["q"], max_new_tokens=4)
    assert gen.text == "ok"
    assert len(server.requests) == 3
    assert sleeps == [0.5, 1.0]  # exponential backoff


def test_5xx_exhausts_retries(server: FakeServer) -> None:
    for _ in range(3):
        server.add(503, {"error": {"message": "overloaded"}})
    sleeps = Sleeps()
    with pytest.raises(BackendError) as info:
        make(server, sleep=sleeps, max_retries=2).generate(["q"], max_new_tokens=4)
    assert info.value.status == 503
    assert "overloaded" in str(info.value)
    assert len(server.requests) == 3
    assert len(sleeps) == 2


def test_400_raises_immediately(server: FakeServer) -> None:
    server.add(400, {"error": {"message": "max_tokens is too large", "type": "invalid"}})
    sleeps = Sleeps()
    with pytest.raises(BackendError) as info:
        make(server, sleep=sleeps).generate(["q"], max_new_tokens=4)
    assert not isinstance(info.value, BackendUnavailable)
    assert isinstance(info.value, ToolgymError)
    assert info.value.status == 400
    assert "400" in str(info.value)
    assert "max_tokens is too large" in str(info.value)
    assert len(server.requests) == 1
    assert sleeps == []


def test_unreachable_server() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    sleeps = Sleeps()
    backend = OpenAIBackend("tiny", base_url=url, api_key=KEY, max_retries=2, sleep=sleeps)
    start = time.monotonic()
    with pytest.raises(BackendUnavailable) as info:
        backend.generate(["q"], max_new_tokens=4)
    assert time.monotonic() - start < 10
    message = str(info.value)
    assert url in message
    assert "TOOLGYM_BASE_URL" in message
    assert KEY not in message
    assert len(sleeps) == 2
    assert isinstance(info.value, ConnectionError)
    assert isinstance(info.value, ToolgymError)


def test_env_var_fallbacks(server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
    monkeypatch.setenv("TOOLGYM_BASE_URL", server.base_url + "/")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    monkeypatch.setenv("TOOLGYM_API_KEY", KEY)
    monkeypatch.setenv("TOOLGYM_MODEL", "env-model")
    backend = OpenAIBackend()
    assert backend.name == "openai:env-model"
    assert backend.base_url == server.base_url
    backend.generate(["q"], max_new_tokens=4)
    req = server.requests[-1]
    assert req.body["model"] == "env-model"
    assert req.headers["Authorization"] == f"Bearer {KEY}"
    monkeypatch.delenv("TOOLGYM_API_KEY")
    monkeypatch.delenv("TOOLGYM_BASE_URL")
    backend = OpenAIBackend()
    assert backend.base_url == "http://127.0.0.1:1/v1"
    assert backend._headers()["Authorization"] == "Bearer sk-openai"


def test_default_base_url_and_missing_model() -> None:
    assert OpenAIBackend("m").url == "http://127.0.0.1:8000/v1/chat/completions"
    with pytest.raises(ValueError, match="TOOLGYM_MODEL"):
        OpenAIBackend()
    with pytest.raises(ValueError, match="endpoint"):
        OpenAIBackend("m", endpoint="embeddings")


def test_completions_endpoint(server: FakeServer) -> None:
    server.add(200, completion_reply(" API.call()\n------\nmore", finish="length"))
    backend = make(server, endpoint="completions", system="ignored")
    prompt = [{"role": "user", "content": "Task: a"}, {"role": "assistant", "content": "Act:"}]
    [gen] = backend.generate([prompt], max_new_tokens=16, tools=[{"type": "function"}])
    assert gen.text == " API.call()\n"
    assert gen.finish_reason == "stop"
    assert (gen.prompt_tokens, gen.completion_tokens) == (5, 3)
    req = server.requests[-1]
    assert req.path == "/v1/completions"
    assert req.body["prompt"] == "Task: a\n\nAct:"
    assert "messages" not in req.body and "tools" not in req.body
    server.add(200, completion_reply("abc", finish="length"))
    [gen] = backend.generate(["x"], max_new_tokens=3)
    assert (gen.text, gen.finish_reason) == ("abc", "length")


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Search cats.",
            "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
        },
    }
]
CALL = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "search", "arguments": json.dumps({"q": "tabby"})},
}


def test_native_tool_calls(server: FakeServer) -> None:
    server.add(200, chat_reply(None, finish="tool_calls", tool_calls=[CALL]))
    backend = make(server, native_tools=True)
    [gen] = backend.generate(["find a tabby"], max_new_tokens=16, tools=TOOLS)
    assert gen.finish_reason == "tool_calls"
    assert gen.tool_calls == [CALL]
    assert gen.text == ""
    assert server.requests[-1].body["tools"] == TOOLS


def test_tools_not_sent_without_native_tools(server: FakeServer) -> None:
    server.add(200, chat_reply(None, tool_calls=[CALL]))
    [gen] = make(server).generate(["q"], max_new_tokens=4, tools=TOOLS)
    assert "tools" not in server.requests[-1].body
    assert gen.tool_calls is None
    assert gen.finish_reason == "stop"


def test_key_never_in_error_messages(server: FakeServer) -> None:
    server.add(401, {"error": {"message": f"Incorrect API key provided: {KEY}"}})
    with pytest.raises(BackendError) as info:
        make(server, api_key=KEY).generate(["q"], max_new_tokens=4)
    assert info.value.status == 401
    assert KEY not in str(info.value)
    assert "Incorrect API key" in str(info.value)


def test_non_json_success_raises(server: FakeServer) -> None:
    server.add(200, b"<html>not json</html>")
    with pytest.raises(BackendError, match="not a JSON"):
        make(server).generate(["q"], max_new_tokens=4)


def test_grammars_go_in_the_field_the_server_reads(server: FakeServer) -> None:
    from toolgym.tools.grammar import ActionGrammar

    grammar = ActionGrammar('"API.search()"')
    for kind, key in (("vllm", "structured_outputs"), ("guided", "guided_grammar")):
        server.add(200, chat_reply("API.search()"))
        make(server, grammar_format=kind).generate(["q"], grammars=[grammar])
        body = server.requests[-1].body
        sent = body[key]["grammar"] if kind == "vllm" else body[key]
        assert sent == grammar.gbnf and sent.startswith("root ::= ")
    server.add(200, chat_reply("API.search()"))
    make(server).generate(["q"], grammars=[grammar])  # no format: nothing the server may refuse
    assert not {"structured_outputs", "guided_grammar", "grammar"} & set(server.requests[-1].body)
    with pytest.raises(ValueError, match="grammar_format must be one of"):
        make(server, grammar_format="xml")
