"""toolgym envs as verifiers environments, driven by verifiers itself against a scripted model.

The model is an OpenAI-compatible chat-completions server on localhost that plays a script per
prompt (tool calls, a text answer, or an HTTP error); verifiers' own client, interception server
and rollout machinery talk to it, so what is tested is what a real evaluation runs.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

pytest.importorskip("verifiers")
vf = pytest.importorskip("verifiers.v1")

from toolgym.errors import DependencyNotInstalled, UserInputError  # noqa: E402
from toolgym.integrations import verifiers as tv  # noqa: E402
from toolgym.integrations.episode import ToolEpisode  # noqa: E402

HOME = "toolbench/HomeSearch-v0"
RAPID = "toolbench/RapidAPI-v1"

Turn = list[tuple[str, str]] | str | int
"""One scripted model turn: tool calls ``(name, arguments text)``, a text answer, or an HTTP
status to fail with."""


class ScriptedModel(ThreadingHTTPServer):
    """Chat completions on localhost: turn k of a conversation plays ``scripts[prompt][k]``."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.scripts: dict[str, list[Turn]] = {}
        self.requests: list[dict[str, Any]] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def requests_for(self, prompt: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if _prompt_of(r) == prompt]


def _prompt_of(body: dict[str, Any]) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


class _Handler(BaseHTTPRequestHandler):
    server: ScriptedModel

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        turn = sum(m["role"] == "assistant" for m in body["messages"])
        script = self.server.scripts.get(_prompt_of(body), [])
        played: Turn = script[turn] if turn < len(script) else "I am done."
        if isinstance(played, int):
            self._send(played, {"error": {"message": "scripted failure"}})
            return
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if isinstance(played, str):
            message["content"] = played
        else:
            message["tool_calls"] = [
                {
                    "id": f"call_{turn}_{i}",
                    "type": "function",
                    "function": {"name": n, "arguments": a},
                }
                for i, (n, a) in enumerate(played)
            ]
        self._send(
            200,
            {
                "id": f"chatcmpl-{turn}",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "message": message,
                        "finish_reason": "stop" if isinstance(played, str) else "tool_calls",
                    }
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            },
        )

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScriptedModel]:
    runtimes = importlib.import_module("verifiers.v1.runtimes.subprocess")
    cache = runtimes.CACHE_DIR
    runtimes.CACHE_DIR = tmp_path_factory.mktemp("verifiers-cache")  # rollouts' scratch folders
    server = ScriptedModel()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        runtimes.CACHE_DIR = cache
        tv.close_pools()


def oracle_script(env_id: str, task_id: str) -> tuple[str, list[Turn], list[dict[str, Any]]]:
    """The task's prompt, the oracle's calls as a script (one call a turn), and its tools."""
    episode = ToolEpisode(env_id)
    start = episode.reset(seed=0, task_id=task_id)
    calls = episode.oracle_calls()
    assert calls is not None
    episode.close()
    script: list[Turn] = [[(c["name"], json.dumps(c["arguments"]))] for c in calls]
    return start.observation, script, start.tools


def play(env: Any, model: ScriptedModel, **kwargs: Any) -> list[Any]:
    return asyncio.run(
        tv.evaluate(env, model="scripted", base_url=model.base_url, api_key_var="NO_KEY", **kwargs)
    )


def pool_of(env_id: str) -> dict[str, Any]:
    """The stats of the pool of ``env_id``'s test split."""
    [stats] = [
        s for s in tv.pool_stats() if s["env_id"] == env_id and s["env_kwargs"] == {"split": "test"}
    ]
    return stats


# -- the rows -------------------------------------------------------------------------------------


def test_rows_carry_the_task_id_and_the_prompt() -> None:
    env = tv.load_environment(HOME, limit=3, system_prompt="Use the tools.")
    tasks = list(env.taskset)
    assert [t.data.task_id for t in tasks] == ["test-000", "test-001", "test-002"]
    first = tasks[0].data
    assert first.id == "test-000" and first.env_id == HOME and first.split == "test"
    assert first.prompt == first.instruction and first.prompt.startswith("I need a place")
    assert first.system_prompt == "Use the tools."
    assert len({t.key for t in tasks}) == 3


def test_seed_shuffles_and_train_draws_generated_tasks() -> None:
    every = [r["task_id"] for r in tv.task_rows(HOME)]
    random.Random(7).shuffle(every)
    shuffled = [t.data.task_id for t in tv.load_environment(HOME, num_examples=4, seed=7).taskset]
    assert shuffled == every[:4]
    train = [t.data.task_id for t in tv.load_environment(HOME, split="train", limit=2).taskset]
    assert len(train) == 2 and all(t.startswith("train-") for t in train)
    endless = tv.load_environment(HOME, split="train")
    assert not endless.taskset.bounded
    assert [t.data.task_id for t in endless.taskset.take(2)] == train


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"env_id": "toolbench/NoSuchEnv-v0"}, "NoSuchEnv"),
        ({"split": "nope"}, "split must be one of"),
        ({"limit": -1}, "limit is an int >= 0"),
        ({"limit": 2, "num_examples": 3}, "limit and num_examples"),
        ({"action_mode": "program"}, "action_mode"),
        ({"bogus_option": 1}, "bogus_option"),
    ],
)
def test_bad_arguments_fail_at_load(kwargs: dict[str, Any], needle: str) -> None:
    kwargs = {"env_id": HOME, **kwargs}
    with pytest.raises(UserInputError, match=needle):
        tv.load_environment(**kwargs)


# -- rollouts -------------------------------------------------------------------------------------


def test_the_oracle_gets_reward_one(model: ScriptedModel) -> None:
    prompt, script, tools = oracle_script(HOME, "test-000")
    model.scripts[prompt] = script
    env = tv.load_environment(HOME, limit=1, system_prompt="Use the tools.")
    [episode] = play(env, model)
    trace = episode.traces[0]
    assert episode.ok and trace.ok and not trace.errors
    assert trace.reward == 1.0
    assert {name: r.weight for name, r in trace.rewards.items()} == {"reward": 1.0}
    assert trace.metrics == {"success": 1.0, "executable": 1.0, "steps": 8.0, "ended": 1.0}
    record = trace.info["toolgym"]
    assert record["task_id"] == "test-000" and record["ended"] and record["failed_calls"] == {}
    sent = model.requests_for(prompt)
    assert len(sent) == len(script)  # the episode's end ends the rollout: no extra model turn
    assert sent[0]["tools"] == tools
    assert sent[0]["messages"] == [
        {"role": "system", "content": "Use the tools."},
        {"role": "user", "content": prompt},
    ]
    roles = ["system", "user", *["assistant", "tool"] * (len(script) - 1)]
    assert [m["role"] for m in sent[-1]["messages"]] == roles
    assert [m.role for m in trace.messages] == [*roles, "assistant"]  # verifiers' record
    assert pool_of(HOME)["open"] == 0


def test_each_task_offers_its_own_tools_and_the_oracle_wins(model: ScriptedModel) -> None:
    played = {}
    for task_id in ("G1-000", "G1-001"):
        prompt, script, tools = oracle_script(RAPID, task_id)
        model.scripts[prompt] = script
        played[task_id] = (prompt, tools)
    env = tv.load_environment(RAPID, limit=2)
    episodes = play(env, model, max_concurrent=2)
    assert [e.traces[0].task.data.task_id for e in episodes] == ["G1-000", "G1-001"]
    assert [e.traces[0].reward for e in episodes] == [1.0, 1.0]
    seen = [model.requests_for(prompt)[0]["tools"] for prompt, _ in played.values()]
    assert seen == [tools for _, tools in played.values()] and seen[0] != seen[1]
    assert pool_of(RAPID)["open"] == 0


def test_bad_calls_score_zero_without_an_exception(model: ScriptedModel) -> None:
    prompt, _, _ = oracle_script(HOME, "test-001")
    huge = "x" * 300_000
    model.scripts[prompt] = [
        [("no_such_tool", "{}"), ("set_location", "{not json")],
        [("set_location", json.dumps({"value": huge}))],
        [("set_location", huge), ("search", "[1, 2]")],
        "I could not do it.",
    ]
    env = tv.load_environment(HOME, limit=2)
    episode = play(env, model, tasks=[list(env.taskset)[1]])[0]
    trace = episode.traces[0]
    assert episode.ok and trace.ok and not trace.errors
    assert trace.reward == 0.0
    assert trace.metrics == {"success": 0.0, "executable": 0.0, "steps": 5.0, "ended": 0.0}
    errors = trace.info["toolgym"]["failed_calls"]
    assert errors["wrong_api"] == 1 and sum(errors.values()) == 5
    last = model.requests_for(prompt)[-1]["messages"]
    results = [m["content"] for m in last if m["role"] == "tool"]
    assert len(results) == 5 and all(r.startswith("Error (") for r in results)
    assert all(len(r) < 5_000 for r in results)
    assert pool_of(HOME)["open"] == 0


def test_max_turns_ends_the_rollout(model: ScriptedModel) -> None:
    prompt, script, _ = oracle_script(HOME, "test-002")
    model.scripts[prompt] = script
    env = tv.load_environment(HOME, limit=3, max_turns=2)
    episode = play(env, model, tasks=[list(env.taskset)[2]])[0]
    trace = episode.traces[0]
    assert trace.stop_condition == "max_turns" and not trace.errors
    assert trace.reward == 0.0 and trace.metrics["steps"] == 2.0 and trace.metrics["ended"] == 0.0
    assert pool_of(HOME)["open"] == 0


def test_a_failing_model_fails_the_rollout_and_releases_the_env(model: ScriptedModel) -> None:
    prompt, script, _ = oracle_script(HOME, "test-003")
    model.scripts[prompt] = [script[0], 500]
    env = tv.load_environment(HOME, limit=4)
    made = pool_of(HOME)["envs_made"]
    episode = play(env, model, tasks=[list(env.taskset)[3]])[0]
    assert not episode.ok
    assert trace_error_mentions(episode, "500")
    assert episode.traces[0].info["toolgym"]["steps"] == 1
    stats = pool_of(HOME)
    assert stats["open"] == 0 and stats["envs_made"] == made


def trace_error_mentions(episode: Any, text: str) -> bool:
    errors = [*episode.errors, *(e for t in episode.traces for e in t.errors)]
    return any(text in e.message for e in errors)


def test_many_rollouts_reuse_few_envs(model: ScriptedModel) -> None:
    env = tv.load_environment(HOME, limit=7)
    tasks = list(env.taskset)[4:7]
    for task in tasks:
        model.scripts[task.data.prompt] = oracle_script(HOME, task.data.task_id)[1]
    before = pool_of(HOME)["envs_made"]
    episodes = play(env, model, tasks=tasks, rollouts_per_task=3, max_concurrent=2)
    assert len(episodes) == 9 and all(e.traces[0].reward == 1.0 for e in episodes)
    stats = pool_of(HOME)
    assert stats["open"] == 0 and stats["envs_made"] <= max(before, 2)


# -- loading --------------------------------------------------------------------------------------


def test_verifiers_own_loader_builds_it_from_the_taskset_id() -> None:
    tv.plugin()
    config = vf.resolve_env_config(
        {
            "taskset": {"id": tv.TASKSET_ID, "env_id": HOME, "limit": 1},
            "agent": {"runtime": {"type": "subprocess"}},
        }
    )
    env = vf.load_environment(config)
    assert isinstance(env, vf.SingleAgentEnv)
    assert isinstance(env.taskset, tv.ToolgymTaskset)
    assert config.agent_harnesses()["agent"].id == tv.TASKSET_ID
    assert vf.default_harness_id(tv.TASKSET_ID) == tv.TASKSET_ID
    assert [t.data.task_id for t in env.taskset] == ["test-000"]


SHIM = """from toolgym.integrations.verifiers import ToolgymHarness, ToolgymTaskset

__all__ = ["ToolgymHarness", "ToolgymTaskset"]
"""


def test_a_top_level_module_on_the_path_serves_a_fresh_process(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # what vf-eval imports in a process that never imported toolgym (see the module docstring)
    (tmp_path / f"{tv.PLUGIN_MODULE}.py").write_text(SHIM, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, tv.PLUGIN_MODULE, raising=False)
    module = vf.import_taskset(tv.TASKSET_ID)
    assert module.__file__ == str(tmp_path / f"{tv.PLUGIN_MODULE}.py")
    assert module.ToolgymTaskset is tv.ToolgymTaskset
    assert vf.default_harness_id(tv.TASKSET_ID) == tv.TASKSET_ID


def test_without_verifiers_it_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "verifiers", None)
    monkeypatch.setitem(sys.modules, "verifiers.v1", None)
    for use in (lambda: tv.load_environment(HOME), lambda: tv.ToolgymTaskset):
        with pytest.raises(DependencyNotInstalled, match=r'pip install "toolgym\[verifiers\]"'):
            use()


def test_the_module_imports_without_verifiers() -> None:
    code = (
        "import sys; sys.modules['verifiers'] = None\n"
        "import toolgym, toolgym.integrations.verifiers as m\n"
        "print(next(m.task_rows('toolbench/HomeSearch-v0'))['task_id'])\n"
        "try:\n"
        "    m.load_environment('toolbench/HomeSearch-v0')\n"
        "except toolgym.errors.DependencyNotInstalled as e:\n"
        "    print(type(e).__name__)\n"
        "print('verifiers.v1' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["test-000", "DependencyNotInstalled", "False"]
