"""The OpenEnv server (``toolgym serve-env``): OpenEnv's and TRL's client paths, bad input, sessions.

One server is started for the module (uvicorn on a free localhost port, in a thread); the idle
timeout is tried on an app of its own through FastAPI's TestClient.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

pytest.importorskip(
    "openenv.core.env_server.http_server",
    reason='openenv-core is not installed (pip install "toolgym[openenv]")',
)

import httpx
from openenv.core.env_server.mcp_types import CallToolAction, CallToolObservation
from openenv.core.generic_client import GenericEnvClient
from openenv.core.mcp_client import MCPToolClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from toolgym.cli import build_parser, main
from toolgym.integrations.episode import ToolEpisode
from toolgym.integrations.openenv_env import openenv_types
from toolgym.integrations.openenv_server import (
    INSTALL,
    NO_EPISODE,
    EpisodeSession,
    ServerThread,
    make_app,
)
from toolgym.integrations.sessions import SessionPool

ENV = "toolbench/HomeSearch-v0"
MAX_SESSIONS = 8
LIMIT = 64 * 1024  # the guard's message limit on the module's server


@pytest.fixture(scope="module")
def server() -> Any:
    app = make_app(ENV, max_sessions=MAX_SESSIONS, idle_timeout_s=120, max_message_bytes=LIMIT)
    with ServerThread(app, max_message_bytes=LIMIT) as srv:
        yield srv


def pool_of(server: ServerThread) -> SessionPool:
    return server.app.state.toolgym_pool


def wait_for(predicate: Any, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return bool(predicate())


def reference(task_id: str, seed: int = 0) -> tuple[ToolEpisode, list[dict[str, Any]]]:
    """An in-process episode on the task, and the task's gold as tool calls."""
    episode = ToolEpisode(ENV)
    episode.reset(seed=seed, task_id=task_id)
    calls = episode.oracle_calls()
    assert calls
    return episode, calls


def call_action(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"type": "call_tool", "tool_name": name, "arguments": arguments}


# -- OpenEnv's own clients ---------------------------------------------------------------------


def test_generic_client_plays_the_oracle_to_reward_one(server: ServerThread) -> None:
    ref, calls = reference("test-000")
    with GenericEnvClient(base_url=server.url).sync() as env:
        start = env.reset(seed=0, task_id="test-000")
        obs = start.observation
        assert (obs["task_id"], start.done, start.reward) == ("test-000", False, None)
        assert obs["instruction"] and obs["text"] == obs["instruction"]
        assert obs["tools"] == ref.tool_schemas()  # OpenAI function schemas
        assert env.state()["step_count"] == 0
        for k, call in enumerate(calls, 1):
            result = env.step(call_action(call["name"], call["arguments"]))
            expected = ref.call(call["name"], call["arguments"])
            assert result.observation["text"] == expected.observation
            assert result.observation["result"]["data"] == expected.observation
            assert (result.observation["step"], result.done) == (k, expected.done)
            assert result.observation["tool_error"] is None
        assert result.done and result.reward == 1.0
        assert result.observation["metrics"]["success"] is True
        state = env.state()
        assert state["task_id"] == "test-000" and state["step_count"] == len(calls)
        assert state["done"] and state["reward"] == 1.0 and state["episode_id"] == obs["episode_id"]
        late = env.step(call_action("search", {}))
        assert late.done and late.observation["tool_error"]["category"] == "episode_ended"
        again = env.reset(seed=1, task_id="test-001", episode_id="mine-1")
        assert again.observation["episode_id"] == "mine-1" and env.state()["step_count"] == 0
        drawn = env.reset(seed=5).observation["task_id"]  # the seed draws the task
        assert drawn == ToolEpisode(ENV).reset(seed=5).task_id
        assert env.reset(seed=5).observation["task_id"] == drawn


def test_concurrent_sessions_are_isolated_and_capacity_is_bounded(server: ServerThread) -> None:
    tasks = [f"test-{k:03d}" for k in range(MAX_SESSIONS)]
    refs = [reference(task, seed) for seed, task in enumerate(tasks)]

    async def play() -> list[dict[str, Any]]:
        clients = [GenericEnvClient(base_url=server.url) for _ in tasks]
        for client in clients:
            await client.connect()
        try:
            starts = await asyncio.gather(
                *(
                    c.reset(seed=s, task_id=t)
                    for s, (c, t) in enumerate(zip(clients, tasks, strict=True))
                )
            )
            assert [s.observation["task_id"] for s in starts] == tasks
            with connect(ws_url(server)) as extra:  # one session too many: refused
                refused = json.loads(extra.recv(timeout=10))
            assert refused["type"] == "error" and refused["data"]["code"] == "CAPACITY_REACHED"
            longest = max(len(calls) for _, calls in refs)
            for k in range(longest):  # every session steps at once, round after round
                turns = [(i, calls[k]) for i, (_, calls) in enumerate(refs) if k < len(calls)]
                results = await asyncio.gather(
                    *(clients[i].step(call_action(c["name"], c["arguments"])) for i, c in turns)
                )
                for (i, call), result in zip(turns, results, strict=True):
                    expected = refs[i][0].call(call["name"], call["arguments"])
                    assert result.observation["text"] == expected.observation, tasks[i]
                    assert result.observation["step"] == k + 1
                    assert (result.reward, result.done) == (expected.reward, expected.done)
            return [await c.state() for c in clients]
        finally:
            for client in clients:
                await client.close()

    states = asyncio.run(play())
    assert [s["task_id"] for s in states] == tasks
    assert all(s["done"] and s["reward"] == 1.0 for s in states)
    assert len({s["episode_id"] for s in states}) == len(tasks)
    assert wait_for(lambda: pool_of(server).stats()["open"] == 0)


def test_mcp_tool_client_lists_and_calls_the_tools(server: ServerThread) -> None:
    ref, _ = reference("test-000")
    with MCPToolClient(base_url=server.url).sync() as env:
        env.reset(seed=0, task_id="test-000")
        tools = env.list_tools()
        schemas = {s["function"]["name"]: s["function"] for s in ref.tool_schemas()}
        assert [t.name for t in tools] == list(schemas)
        assert all(t.input_schema == schemas[t.name]["parameters"] for t in tools)
        answer = env.call_tool("set_location", value="Anchorage")
        assert answer.startswith("OK") and "Anchorage" in answer
        with pytest.raises(RuntimeError, match="invalid_args"):
            env.call_tool("set_location", valu="Anchorage")
        with pytest.raises(RuntimeError, match="tool_not_found"):
            env.call_tool("no_such_tool")
        result = env.step(CallToolAction(tool_name="search", arguments={}))
        assert isinstance(result.observation, CallToolObservation)
        assert result.done and result.reward is not None


# -- TRL's environment_factory path ------------------------------------------------------------

_PYTHON_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "object": dict,
}


def _annotation(spec: dict[str, Any]) -> Any:
    if spec.get("type") == "array":
        item = _PYTHON_TYPES.get(spec.get("items", {}).get("type"), str)
        return list[item]  # type: ignore[valid-type]
    return _PYTHON_TYPES.get(spec.get("type"), str)


def _tool_method(function: dict[str, Any]) -> Any:
    """A method calling the server's tool, with the signature and docstring TRL reads."""
    name = function["name"]
    props = function.get("parameters", {}).get("properties", {})
    required = set(function.get("parameters", {}).get("required", []))

    def tool(self: Any, **arguments: Any) -> str:
        return self._call(name, arguments)

    kw = inspect.Parameter.KEYWORD_ONLY
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params += [
        inspect.Parameter(
            p,
            kw,
            annotation=_annotation(s),
            default=inspect.Parameter.empty if p in required else None,
        )
        for p, s in props.items()
    ]
    tool.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    tool.__annotations__ = {p.name: p.annotation for p in params[1:]} | {"return": str}
    tool.__name__ = tool.__qualname__ = name
    args = "".join(
        f"\n    {p}: {' '.join((s.get('description') or p).split())}" for p, s in props.items()
    )
    tool.__doc__ = (
        f"{' '.join((function.get('description') or name).split())}\n"
        + (f"\nArgs:{args}\n" if args else "")
        + "\nReturns:\n    The tool's answer.\n"
    )
    return tool


def trl_environment_class(base_url: str) -> type:
    """A class for ``GRPOTrainer(environment_factory=...)``: one method per tool of the server."""
    with GenericEnvClient(base_url=base_url).sync() as probe:
        schemas = probe.reset(seed=0).observation["tools"]

    class RemoteToolEnv:
        def __init__(self) -> None:
            self.client = GenericEnvClient(base_url=base_url).sync()
            self.reward = 0.0

        def reset(self, **row: Any) -> str:
            result = self.client.reset(seed=row.get("seed"), task_id=row.get("task_id"))
            self.reward = 0.0
            return result.observation["instruction"]

        def get_reward(self) -> float:
            return self.reward

        def _call(self, name: str, arguments: dict[str, Any]) -> str:
            result = self.client.step(call_action(name, arguments))
            self.reward = float(result.reward or 0.0)
            if result.observation["tool_error"] is not None:
                raise ValueError(result.observation["text"])  # TRL shows {"error": ...}
            return result.observation["text"]

    for schema in schemas:
        setattr(RemoteToolEnv, schema["function"]["name"], _tool_method(schema["function"]))
    return RemoteToolEnv


def test_trl_environment_factory_plays_through_the_openenv_client(server: ServerThread) -> None:
    transformers_utils = pytest.importorskip("transformers.utils")
    factory = trl_environment_class(server.url)
    environment = factory()  # TRL probes one instance, then draws one per rollout
    methods = dict(inspect.getmembers(type(environment), predicate=inspect.isfunction))
    assert "reset" in methods and "get_reward" in methods
    tools = {
        name: getattr(environment, name)
        for name in methods
        if name not in ("reset", "get_reward") and not name.startswith("_")
    }
    ref, calls = reference("test-000")
    expected = {s["function"]["name"]: s["function"] for s in ref.tool_schemas()}
    assert set(tools) == set(expected)
    for name, method in tools.items():  # the schema the chat template renders
        schema = transformers_utils.get_json_schema(method)["function"]
        assert set(schema["parameters"]["properties"]) == set(
            expected[name]["parameters"].get("properties", {})
        )
        assert set(schema["parameters"].get("required", [])) == set(
            expected[name]["parameters"].get("required", [])
        )
    row = {"prompt": [{"role": "user", "content": ""}], "task_id": "test-000", "seed": 0}
    instruction = environment.reset(**row)
    assert isinstance(instruction, str) and "Anchorage" in instruction
    for call in calls:  # as TRL's tool loop calls them, failures turned into {"error": ...}
        try:
            answer: Any = tools[call["name"]](**call["arguments"])
        except Exception as e:  # what TRL does
            answer = {"error": str(e)}
        assert isinstance(answer, str)
    assert environment.get_reward() == 1.0
    environment.reset(**row)
    try:
        tools["set_location"](valu="Anchorage")
        failed = None
    except Exception as e:  # what TRL does
        failed = {"error": str(e)}
    assert failed and "wrong_arguments" in failed["error"]
    environment.client.close()


# -- bad input ---------------------------------------------------------------------------------


def ws_url(server: ServerThread) -> str:
    return server.url.replace("http://", "ws://") + "/ws"


def ask(ws: Any, message: Any) -> dict[str, Any]:
    ws.send(message if isinstance(message, str | bytes) else json.dumps(message))
    return json.loads(ws.recv(timeout=10))


def test_bad_websocket_messages_get_errors_and_the_session_goes_on(server: ServerThread) -> None:
    with connect(ws_url(server), max_size=None) as ws:
        before = ask(ws, {"type": "step", "data": call_action("search", {})})
        assert before["type"] == "observation"
        assert before["data"]["observation"]["tool_error"]["category"] == NO_EPISODE
        assert ask(ws, {"type": "reset", "data": {"seed": 0, "task_id": "test-000"}})["type"] == (
            "observation"
        )
        bad: list[tuple[Any, str, str]] = [
            ("not json", "INVALID_JSON", "not JSON"),
            ("[1, 2]", "INVALID_JSON", "got a list"),
            ("null", "INVALID_JSON", "got null"),
            ("[" * 5000 + "]" * 5000, "INVALID_JSON", "nested too deeply"),
            (b"\x00\x01binary", "INVALID_JSON", "binary frame"),
            ({"type": "nope"}, "UNKNOWN_TYPE", "nope"),
            ({"type": "step", "data": {"arguments": {}}}, "VALIDATION_ERROR", "Invalid"),
            ({"type": "step", "data": {"tool_name": 3}}, "VALIDATION_ERROR", "Invalid"),
            ({"type": "step", "data": []}, "VALIDATION_ERROR", "Invalid"),
            ({"type": "reset", "data": {"task_id": "test-999"}}, "EXECUTION_ERROR", "test-999"),
            ({"type": "reset", "data": {"seed": -3}}, "EXECUTION_ERROR", "'seed' must be"),
            ({"type": "reset", "data": {"seed": 0, "tsk": "x"}}, "EXECUTION_ERROR", "tsk"),
            ({"type": "reset", "data": {"episode_id": "\x00"}}, "EXECUTION_ERROR", "episode id"),
            ({"type": "state", "extra": 1}, "VALIDATION_ERROR", "Invalid"),
            (
                '{"type": "step", "data": {"tool_name": "' + "x" * LIMIT + '"}}',
                "VALIDATION_ERROR",
                f"at most {LIMIT} bytes",
            ),
        ]
        for message, code, words in bad:
            answer = ask(ws, message)
            assert answer["type"] == "error", message
            assert answer["data"]["code"] == code, (message, answer)
            assert words in answer["data"]["message"], (message, answer)
        state = ask(ws, {"type": "state"})  # the episode is untouched
        assert state["data"]["task_id"] == "test-000" and state["data"]["step_count"] == 0
        odd = ask(ws, {"type": "step", "data": call_action("set_location", {"valu": "Austin"})})
        assert odd["data"]["observation"]["tool_error"]["category"] == "wrong_arguments"
        with pytest.raises(ConnectionClosed) as closed:  # past the WebSocket layer's own limit
            ask(ws, '{"type": "state", "pad": "' + "x" * (4 * LIMIT + 10) + '"}')
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with connect(ws_url(server).replace("/ws", "/mcp")) as mcp:  # the JSON-RPC socket
        assert ask(mcp, "[1]")["error"]["code"] == -32700
        assert ask(mcp, b"\x00")["error"]["code"] == -32700
        listed = ask(mcp, {"jsonrpc": "2.0", "method": "tools/list", "id": 7})
        assert listed["id"] == 7 and "error" in listed  # tools are reached by step actions
    assert httpx.get(server.url + "/health").json()["status"] == "healthy"
    assert wait_for(lambda: pool_of(server).stats()["open"] == 0)


def test_bad_http_requests_get_errors(server: ServerThread) -> None:
    with httpx.Client(base_url=server.url) as http:
        ok = http.post("/reset", json={"seed": 3, "task_id": "test-003"})
        assert ok.status_code == 200 and ok.json()["observation"]["task_id"] == "test-003"
        bad = http.post("/reset", json={"task_id": "test-999"})
        assert bad.status_code == 400 and "test-999" in bad.json()["detail"]
        lone = http.post("/step", json={"action": call_action("search", {})})
        assert lone.status_code == 200
        assert lone.json()["observation"]["tool_error"]["category"] == NO_EPISODE
        assert http.post("/step", json={"action": {"nope": 1}}).status_code == 422
        malformed = http.post("/step", content=b"{not json", headers={"content-type": "x"})
        assert malformed.status_code == 422
        big = http.post("/step", content=b"x" * (LIMIT + 1))
        assert big.status_code == 413 and str(LIMIT) in big.json()["detail"]
        schema = http.get("/schema").json()
        assert "tool_name" in schema["action"]["properties"]
        assert http.get("/metadata").json()["name"] == ENV
        assert http.get("/sessions").json()["env_id"] == ENV
        rpc = {"jsonrpc": "2.0", "method": "tools/list", "params": {"session_id": "nope"}, "id": 1}
        unknown = http.post("/mcp", json=rpc).json()
        assert unknown["id"] == 1 and "Unknown session_id" in unknown["error"]["message"]
        assert http.post("/mcp", content=b"{oops").json()["error"]["code"] == -32700
    assert wait_for(lambda: pool_of(server).stats()["open"] == 0)


def test_a_client_that_vanishes_mid_episode_is_reclaimed_at_disconnect(
    server: ServerThread,
) -> None:
    pool = pool_of(server)
    assert wait_for(lambda: pool.stats()["open"] == 0)
    with contextlib.suppress(OSError, ConnectionClosed), connect(ws_url(server)) as ws:
        ask(ws, {"type": "reset", "data": {"seed": 0, "task_id": "test-000"}})
        ask(ws, {"type": "step", "data": call_action("set_location", {"value": "Austin"})})
        assert pool.stats()["open"] == 1
        ws.socket.shutdown(socket.SHUT_RDWR)  # gone, without a closing handshake
        ws.socket.close()
        assert wait_for(lambda: pool.stats()["open"] == 0)
    with GenericEnvClient(base_url=server.url).sync() as env:  # and the server goes on
        assert env.reset(seed=0, task_id="test-000").observation["task_id"] == "test-000"


def test_an_idle_session_is_reclaimed_after_the_timeout() -> None:
    from fastapi.testclient import TestClient

    app = make_app(ENV, max_sessions=4, idle_timeout_s=0.3)
    pool = app.state.toolgym_pool
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "reset", "data": {"seed": 0, "task_id": "test-000"}}))
        assert ws.receive_json()["type"] == "observation"
        assert pool.stats()["open"] == 1
        assert wait_for(lambda: pool.stats()["reclaimed"] == 1, timeout_s=5)
        assert pool.stats()["open"] == 0
        ws.send_text(json.dumps({"type": "step", "data": call_action("search", {})}))
        late = ws.receive_json()["data"]
        assert late["done"] and late["observation"]["tool_error"]["category"] == NO_EPISODE
        assert "reclaimed" in late["observation"]["text"]
        ws.send_text(json.dumps({"type": "reset", "data": {"seed": 0, "task_id": "test-001"}}))
        again = ws.receive_json()
        assert again["data"]["observation"]["task_id"] == "test-001"


def test_a_reclaimed_episode_is_never_touched_again() -> None:
    now = [0.0]
    pool = SessionPool(ENV, idle_timeout_s=10, spare_envs=4, clock=lambda: now[0])
    first, second = EpisodeSession(pool), EpisodeSession(pool)
    first.reset(seed=0, task_id="test-000")
    now[0] = 11.0
    assert pool.reap() == 1
    second.reset(seed=0, task_id="test-001")  # reuses the reclaimed env
    late = first.call("set_location", {"value": "Austin"})
    assert late.done and late.error and late.error["category"] == NO_EPISODE
    assert second.state()["step_count"] == 0 and second.state()["task_id"] == "test-001"
    first.close()
    second.close()
    second.close()
    assert len(pool) == 0
    assert first.call("search", {}).error["category"] == NO_EPISODE  # type: ignore[index]


def test_many_sessions_reuse_a_few_envs(server: ServerThread) -> None:
    pool = pool_of(server)
    made = pool.stats()["envs_made"]
    for k in range(150):
        with connect(ws_url(server)) as ws:
            ask(ws, {"type": "reset", "data": {"seed": k, "task_id": f"test-{k % 100:03d}"}})
            ask(ws, {"type": "step", "data": call_action("set_location", {"value": "Austin"})})
    assert wait_for(lambda: pool.stats()["open"] == 0)
    assert pool.stats()["envs_made"] <= max(made, MAX_SESSIONS + 1)


# -- the command line and the optional dependency ----------------------------------------------


def test_the_command_line_parses_serve_env() -> None:
    args = build_parser().parse_args(
        ["serve-env", ENV, "--port", "0", "--max-sessions", "3", "--idle-timeout", "2.5"]
    )
    assert (args.env_id, args.host, args.port, args.max_sessions) == (ENV, "127.0.0.1", 0, 3)
    assert (args.idle_timeout, args.split, args.world_seed) == (2.5, "test", 0)
    assert build_parser().parse_args(["serve-env", ENV]).port == 8000
    for bad in (["--port", "70000"], ["--max-sessions", "0"], ["--idle-timeout", "nan"]):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["serve-env", ENV, *bad])
    assert main(["serve-env", "toolbench/NoSuchEnv-v0"]) == 2


def test_without_openenv_the_server_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['openenv'] = None\n"
        "import toolgym, toolgym.integrations.openenv_server as server\n"
        "from toolgym.errors import DependencyNotInstalled\n"
        "try:\n"
        f"    server.make_app({ENV!r})\n"
        "except DependencyNotInstalled as e:\n"
        "    print('missing:', e)\n"
        "from toolgym.cli import main\n"
        f"print('status', main(['serve-env', {ENV!r}]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert "missing: " in done.stdout and INSTALL in done.stdout
    assert "status 2" in done.stdout and INSTALL in done.stderr


def test_toolgym_serve_env_serves_until_interrupted() -> None:
    command = [sys.executable, "-m", "toolgym.cli", "serve-env", ENV, "--port", "0"]
    proc = subprocess.Popen(
        [*command, "--max-sessions", "2", "--idle-timeout", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    try:
        banner = lines.get(timeout=90)
        assert ENV in banner and "at most 2 sessions" in banner
        url = banner.split(" on ", 1)[1].split()[0]
        with GenericEnvClient(base_url=url).sync() as env:
            start = env.reset(seed=0, task_id="test-000")
            assert start.observation["task_id"] == "test-000"
            result = env.step(call_action("set_location", {"value": "Anchorage"}))
            assert result.observation["text"].startswith("OK")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err[-2000:]


# -- where steps run -----------------------------------------------------------------------------


@pytest.mark.parametrize("inline", [True, False])
def test_steps_that_may_block_run_off_the_event_loop(inline: bool) -> None:
    pool = SessionPool(ENV, max_sessions=1)
    pool.steps_inline = inline
    env = openenv_types().environment(pool)
    threads: list[int] = []
    step, reset = env.step, env.reset

    def recorded(method: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            threads.append(threading.get_ident())
            return method(*args, **kwargs)

        return run

    env.step, env.reset = recorded(step), recorded(reset)
    _, calls = reference("test-000")

    async def play() -> Any:
        await env.reset_async(seed=0, task_id="test-000")
        action = openenv_types().action(tool_name=calls[0]["name"], arguments=calls[0]["arguments"])
        return await env.step_async(action)

    try:
        observation = asyncio.run(play())
    finally:
        env.close()
    assert observation.tool_error is None and observation.step == 1
    loop_thread = threading.get_ident()  # asyncio.run runs the loop in this thread
    assert len(threads) == 2
    assert all((t == loop_thread) == inline for t in threads)
    assert len(set(threads)) == 1  # off the loop: the pool's one blocking worker, one at a time


class _ModelUser:
    """A user played by something that may take seconds (it declares no ``may_block``)."""

    def reply(self, *args: Any) -> Any:
        raise AssertionError("not called")


@pytest.mark.parametrize(
    ("env_id", "kwargs", "inline"),
    [
        ("toolbench/HomeSearch-v0", {}, True),
        ("toolbench/CatAPI-v0", {}, True),
        ("toolbench/HomeSearchChat-v0", {}, True),
        ("toolbench/HomeSearchChat-v0", {"user": _ModelUser()}, False),
        ("toolbench/Tabletop-v0", {}, False),
        ("toolbench/GoogleSheets-v0", {}, False),
    ],
)
def test_an_episode_says_whether_its_steps_may_block(
    env_id: str, kwargs: dict[str, Any], inline: bool
) -> None:
    episode = ToolEpisode(env_id, **kwargs)
    try:
        assert episode.steps_inline is inline
    finally:
        episode.env.close()
