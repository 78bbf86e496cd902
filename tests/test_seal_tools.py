"""Seal-Tools: converted tools, generated tasks, exact success, pooled metrics and the loader."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import gymnasium as gym
import pytest
from conftest import samples_dir

from toolgym.benchmarks.call_metrics import parse_calling_list
from toolgym.benchmarks.tasks import Task
from toolgym.envs.protocol import task_env
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.report import summarize
from toolgym.families.seal_tools.calls import call_problems, calling_text, numbering
from toolgym.families.seal_tools.checker import gold_calls
from toolgym.families.seal_tools.convert import base_name, generated_world, response_fields
from toolgym.families.seal_tools.metrics import BREAKDOWN, METRICS
from toolgym.families.seal_tools.tasks import SUITE, generate_split, load_instance_tasks, train_task
from toolgym.families.seal_tools.world import is_reference
from toolgym.simulators.tool_library.model import ApiDoc
from toolgym.tools.backend import Attempt
from toolgym.tools.calling_list import parse_calling_list as read_calling_list
from toolgym.wrappers import FaultInjection

ENV_ID = "toolbench/SealTools-v0"


def call(api: str, responses: list[str], **parameters: Any) -> dict[str, Any]:
    return {"api": api, "parameters": parameters, "responses": responses}


def score(task: Task, prediction: list[Any] | None):
    assert task.checker is not None
    return task.checker.check(task, Attempt(prediction), ())


def bound(gold: list[dict[str, Any]], task_id: str = "t") -> Task:
    return SUITE.bind(Task(task_id, "a query", (calling_text(gold),)))


# -- the world's tools ---------------------------------------------------------------------------


def test_api_names_are_camel_case_unique_and_verb_first() -> None:
    world = generated_world(0)
    names = list(world.seal)
    assert len(names) == len(set(names)) == 4000
    assert all(n[:1].islower() and n.isalnum() for n in names)
    assert base_name(ApiDoc("Search Loan Offers")) == "searchLoanOffers"
    assert base_name(ApiDoc("/loyalty-programs/{loyalty_program_id}")) == (
        "getLoyaltyProgramDetails"
    )
    tool = next(iter(world.seal.values()))
    assert set(tool.to_json()) == {
        "api_name",
        "api_description",
        "field",
        "parameters",
        "required",
        "responses",
    }
    types = {spec["type"] for t in world.seal.values() for spec in t.parameters.values()}
    assert types == {"str", "int", "float", "bool"}
    assert all(t.responses for t in world.seal.values())


def test_responses_unwrap_a_wrapped_list_or_object() -> None:
    listed = {"results": [{"a_id": "str", "score": "float", "_list_length": 2}], "total": "int"}
    assert list(response_fields(listed)) == ["a_id", "score"]
    assert response_fields(listed)["score"]["type"] == "float"
    wrapped = {"success": "bool", "data": {"name": "str", "tags": ["str"]}}
    assert {k: v["type"] for k, v in response_fields(wrapped).items()} == {
        "name": "str",
        "tags": "list",
    }
    flat = {"country_code": "str", "trends": [{"x": "int"}], "updated_at": "str"}
    assert list(response_fields(flat)) == ["country_code", "trends", "updated_at"]


# -- generated tasks ---------------------------------------------------------------------------


def test_splits_have_every_kind_in_their_sizes() -> None:
    for split, per_kind in (("test", 200), ("demo", 20)):
        tasks = generate_split(split)
        assert Counter(t.meta["kind"] for t in tasks) == dict.fromkeys(
            ("single", "multiple", "nested"), per_kind
        )
        for task in tasks:
            calls = gold_calls(task.gold[0])
            assert calls is not None and task.tools is not None and len(task.tools) == 5
            assert {c["api"] for c in calls} <= set(task.tools)
            count = len(calls)
            kind = task.meta["kind"]
            assert (kind == "single") == (count == 1)
            assert count <= (4 if kind == "multiple" else 3)


def test_nested_placeholders_are_numbered_as_seal_tools_numbers_them() -> None:
    seal = generated_world(0).seal
    nested = [t for t in generate_split("test") if t.meta["kind"] == "nested"]
    assert len(nested) == 200
    three = 0
    for task in nested:
        calls = gold_calls(task.gold[0])
        assert calls is not None
        counts = [len(seal[c["api"]].responses) for c in calls]
        assert [c["responses"] for c in calls] == numbering(counts)
        owners = {p: (i, j) for i, c in enumerate(calls) for j, p in enumerate(c["responses"])}
        references = 0
        for i, c in enumerate(calls):
            for name, value in c["parameters"].items():
                if is_reference(value):
                    producer, field = owners[value]
                    assert producer < i
                    assert list(seal[calls[producer]["api"]].responses)[field] == name
                    references += 1
        assert references >= 1
        three += len(calls) == 3
    assert three > 20  # some nested tasks chain a third call


def test_generation_is_deterministic_and_the_stored_splits_are_current() -> None:
    assert SUITE.stale_splits() == []
    assert train_task(7, 0).to_record() == train_task(7, 0).to_record()
    assert train_task(7, 1).to_record() != train_task(7, 0).to_record()
    assert [train_task(k).meta["kind"] for k in range(3)] == ["single", "multiple", "nested"]
    held_out = {t.instruction for s in ("test", "demo") for t in generate_split(s)}
    assert all(train_task(k).instruction not in held_out for k in range(30))


def test_values_appear_in_the_query_as_written() -> None:
    for task in generate_split("demo"):
        for c in gold_calls(task.gold[0]) or ():
            for value in c["parameters"].values():
                if not is_reference(value) and not isinstance(value, bool):
                    assert str(value) in task.instruction, (task.task_id, value)


def test_the_oracle_scores_one_on_every_test_task_and_pools_to_one() -> None:
    tasks = list(SUITE.load("test").values())
    metrics = []
    for task in tasks:
        result = score(task, gold_calls(task.gold[0]))
        assert result.success and result.reward == 1.0, (task.task_id, result.error)
        metrics.append(result.metrics_dict())
    for spec in METRICS:
        assert spec.aggregate(metrics) == 1.0, spec.key


# -- the exact success ---------------------------------------------------------------------------


def test_success_ignores_order_when_the_numbering_follows_it() -> None:
    gold = [call("getA", ["API_call_0", "API_call_1"], x=1), call("getB", ["API_call_2"], y="u")]
    task = bound(gold)
    swapped = [call("getB", ["API_call_0"], y="u"), call("getA", ["API_call_1", "API_call_2"], x=1)]
    assert score(task, swapped).success
    stale = [call("getB", ["API_call_2"], y="u"), call("getA", ["API_call_0", "API_call_1"], x=1)]
    assert score(task, stale).error["category"] == "wrong_arguments"
    as_text = [call("getA", ["API_call_0", "API_call_1"], x="1"), gold[1]]
    assert score(task, as_text).success  # str() equality, as Seal-Tools compares
    extra = [call("getA", ["API_call_0", "API_call_1"], x=1, z=2), gold[1]]
    missing = [call("getA", ["API_call_0", "API_call_1"]), gold[1]]
    assert not score(task, extra).success and not score(task, missing).success
    twice = [*gold, call("getB", ["API_call_3"], y="u")]
    assert score(task, twice).error["category"] == "wrong_api"


def test_success_resolves_nested_references() -> None:
    gold = [
        call("searchA", ["API_call_0", "API_call_1"], q="x"),
        call("getB", ["API_call_2"], a_id="API_call_1"),
    ]
    task = bound(gold)
    assert score(task, gold).success
    wrong_field = [gold[0], call("getB", ["API_call_2"], a_id="API_call_0")]
    assert score(task, wrong_field).error["category"] == "wrong_arguments"
    empty = bound([call("getC", ["API_call_0"])])
    assert score(empty, [call("getC", ["API_call_0"])]).success  # no parameters at all
    irregular = [call("getC", ["API_call_3"]), call("getD", ["API_call_3"], c="API_call_3")]
    assert score(bound(irregular), irregular).success  # a gold numbered otherwise is kept


# -- episodes ----------------------------------------------------------------------------------


def test_the_first_observation_is_the_benchmark_prompt() -> None:
    env = gym.make(ENV_ID)
    obs, info = env.reset(options={"task_id": "test-002"})
    task = task_env(env).task
    assert task is not None and task.tools is not None
    fmt = '[{"api": "", "parameters": {"": ""}, "responses": ["API_call_0", "API_call_1"]}, ...]'
    assert f"\n{fmt}\n" in obs
    assert f'Input:\napi_list = [{{"api_name": "{task.tools[0]}"' in obs
    assert obs.endswith(f'\ntask_instruction = "{task.instruction}"')
    assert len(info["tools"]) == 5


def test_an_unparsable_answer_is_a_format_failure_not_an_exception() -> None:
    env = gym.make(ENV_ID)
    env.reset(options={"task_id": "test-004"})
    gold = gold_calls(task_env(env).task.gold[0])
    obs, reward, terminated, truncated, info = env.step("I would call getWeather(city='Paris').")
    assert terminated and not truncated and reward == 0.0
    assert info["error"]["category"] == "non_executable" and obs.startswith("Error")
    metrics = info["metrics"]
    assert metrics["format_acc"] == 0.0 and metrics["n_correct_format"] == 0
    assert metrics["n_gold_api"] == len(gold) and metrics["n_predict_api"] == 0
    calls = gym.make(ENV_ID, action_mode="call")
    calls.reset(options={"task_id": "test-004"})
    obs, reward, terminated, truncated, info = calls.step("[{'api': broken")
    assert not terminated and info["error"]["category"] == "non_executable"


def test_a_service_fault_fails_the_answer_but_its_text_still_counts() -> None:
    env = FaultInjection(gym.make(ENV_ID), rate=1.0, kinds=("server_error",))
    env.reset(options={"task_id": "test-001"})
    _, reward, _, _, info = env.step(task_env(env).oracle_actions()[0])
    assert reward == 0.0 and info["error"]["category"] == "service_error"
    assert info["metrics"]["n_correct_api"] == info["metrics"]["n_gold_api"] > 0


def test_call_mode_builds_the_answer_call_by_call() -> None:
    env = gym.make(ENV_ID, action_mode="call")
    env.reset(options={"task_id": "test-002"})
    steps = task_env(env).oracle_actions()
    assert len(steps) >= 3 and steps[-1] == "finish"
    obs, reward, terminated, _, info = env.step(steps[0])
    assert not terminated and "the next call's responses start at API_call_" in obs
    for action in steps[1:]:
        obs, reward, terminated, _, info = env.step(action)
    assert terminated and reward == 1.0


def test_pooled_summaries_are_seal_tools_metrics() -> None:
    env = gym.make(ENV_ID)
    episodes = [
        (
            [call("getA", ["API_call_0"], x=1, y="u"), call("getB", ["API_call_1"], z="v")],
            [
                call("getA", ["API_call_0"], x="1", y="w"),
                call("getA", ["API_call_1"], x=1),
                call("getC", ["API_call_2"]),
            ],
        ),
        ([call("getC", ["API_call_0"], q="k")], "I cannot do that."),
        ([call("getD", ["API_call_0"])], [call("getD", ["API_call_0"])]),
    ]
    records = []
    for k, (gold, answer) in enumerate(episodes):
        record = {"prompt": f"goal {k}", "completion": [calling_text(gold)]}
        env.reset(options={"task": record})
        text = answer if isinstance(answer, str) else json.dumps(answer)
        *_, info = env.step(text)
        records.append(EpisodeRecord(k, f"goal {k}", metrics=info["metrics"]))
    summary = summarize(records, METRICS, breakdown=BREAKDOWN)
    # By hand, with Seal-Tools' rules: 3 instances, 2 parsed; gold 4 calls / 4 parameters;
    # predicted 4 calls / 3 parameters; first-match correct: 3 calls, 2 parameters
    # (both getA calls match the gold getA; the second one's x counts again).
    expected = {
        "format_acc": 2 / 3,
        "tool_p": 3 / 4,
        "tool_r": 3 / 4,
        "tool_f1": 0.75,
        "param_p": 2 / 3,
        "param_r": 2 / 4,
        "param_f1": 2 * (2 / 3) * (2 / 4) / (2 / 3 + 2 / 4),
        "tool_f1_1to1": 2 * 2 / (4 + 4),  # one getA matched once: 2 correct calls
        "param_f1_1to1": 2 * 1 / (3 + 4),  # and 1 correct parameter
        "success": 1 / 3,
    }
    for key, value in expected.items():
        assert summary[key] == pytest.approx(value), key
    groups = {g["group"]: g for g in summary["breakdown"]["groups"]}
    assert set(groups) == {"multiple", "single"} and groups["single"]["episodes"] == 2


# -- Seal-Tools' parser, in both layers ------------------------------------------------------------


def test_the_language_reads_answers_exactly_as_the_metrics_do() -> None:
    golds = [t.gold[0] for t in generate_split("demo")]
    texts = [
        "",
        "[]",
        "[{'api': 'f', 'parameters': {}, 'responses': []}] and [1]",
        '[ {  "api": "f", "parameters": {"x": "a]b"}, "responses": []}]',
        "[" * 300 + '{"api": "f", "parameters": {}, "responses": []}' + "]" * 300,
        '[{"api": "f", "parameters": {"n": ' + "9" * 5000 + '}, "responses": []}]',
        "x" * 200_001,
    ]
    rng = random.Random(0)
    for _ in range(400):
        text = rng.choice(golds)
        i = rng.randrange(len(text))
        texts.append(text[:i] + rng.choice(["'", "]", "[", "\n", "", '"', "{"]) + text[i + 1 :])
    for text in [*golds, *texts]:
        assert read_calling_list(text) == parse_calling_list(text), text[:80]


def test_call_mode_notes_what_the_whole_answer_gets_wrong_step_by_step() -> None:
    """Each step reads only its own calls, yet notes the answer's problems as one reading would.

    The steps call an API the task does not offer, with placeholders out of order and one no
    call produced, then send an item that is not a call, then repeat the gold's calls; a state
    saved midway and restored gives the same notes again.
    """
    env = gym.make(ENV_ID, action_mode="call")
    env.reset(options={"task_id": "test-002"})
    base = task_env(env)
    gold = base.oracle_actions()[:-1]
    backend = base.unwrapped._backend
    offered = list(backend.api_list)
    other = next(name for name in sorted(backend.tools) if name not in offered)
    stray = call(other, ["API_call_99"], x="API_call_77")
    not_a_call = '[{"api": "x", "parameters": 3, "responses": []}]'
    steps = [*gold, calling_text([stray]), not_a_call, *gold]
    seen: list[Any] = []
    notes = []
    saved = None
    for k, action in enumerate(steps):
        if k == 2:
            saved = env.unwrapped.get_state()
        _, _, terminated, _, info = env.step(action)
        assert not terminated and info["error"] is None
        seen += read_calling_list(action)
        expected = call_problems(seen, backend.tools, offered)
        assert info["call_problems"] == expected
        notes.append(expected)
    stray_notes = " ".join(notes[len(gold)])
    assert "not in the task's api_list" in stray_notes and "not numbered" in stray_notes
    assert "API_call_77" in stray_notes and "is not a call" in " ".join(notes[-1])
    env.unwrapped.set_state(saved)
    for k, action in enumerate(steps[2:], start=2):
        assert env.step(action)[4]["call_problems"] == notes[k]


@pytest.mark.parametrize("mode", ["program", "call"])
def test_hostile_answers_are_errors_or_scores(mode: str) -> None:
    env = gym.make(ENV_ID, action_mode=mode)
    hostile = [
        '[{"api": {"__class__": 1}, "parameters": [], "responses": 3}]',
        '[{"api": "f", "parameters": {"x": NaN}, "responses": ["API_call_0"]}]',
        "["
        + ", ".join('{"api": "f", "parameters": {}, "responses": []}' for _ in range(300))
        + "]",
        '[{"api": "' + "a" * 15_000 + '", "parameters": {}, "responses": []}]',
        '[{"api": "f\\u0000", "parameters": {"\\ud800": 1}, "responses": ["\\n"]}]',
        "[" * 120 + '{"api": 1, "parameters": 2, "responses": 3}' + "]" * 120,
    ]
    for action in hostile:
        env.reset(seed=1)
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs in env.observation_space and reward == 0.0
        assert len(obs) < 5000
    env.reset(seed=1)
    for action in task_env(env).oracle_actions():
        result = env.step(action)
    assert result[1] == 1.0


# -- the original files ------------------------------------------------------------------------


def test_the_loader_reads_the_sample_instances_and_the_oracle_scores_one() -> None:
    folder = samples_dir() / "sealtools"
    tools, instances = folder / "tool.jsonl", folder / "dev.jsonl"
    if not instances.exists():
        pytest.skip(f"the Seal-Tools samples {instances} are absent")
    tasks = load_instance_tasks(tools, instances, offer="gold")
    assert [t.task_id for t in tasks][:2] == ["dev-easy-195", "dev-easy-196"]
    kinds = {t.task_id: t.meta["kind"] for t in tasks}
    assert len(tasks) == 10 and kinds["dev-easy-198"] == "single"
    assert kinds["dev-difficult-200"] == kinds["dev-difficult-628"] == "nested"
    assert kinds["dev-difficult-207"] == kinds["dev-difficult-620"] == "multiple"
    nested = next(t for t in tasks if t.task_id == "dev-difficult-200")
    assert gold_calls(nested.gold[0])[2]["parameters"]["location"] == "API_call_1"
    for mode in ("program", "call"):
        env = gym.make(ENV_ID, tool_file=str(tools), action_mode=mode)
        for task in tasks:
            obs, info = env.reset(options={"task": task})
            assert task.instruction in obs and len(info["tools"]) == len(task.tools)
            for action in task_env(env).oracle_actions():
                _, reward, terminated, _, info = env.step(action)
            assert terminated and reward == 1.0, (mode, task.task_id, info["error"])


def test_sample_instances_offer_five_retrieved_tools_by_default() -> None:
    """As Seal-Tools' prompts: five tools retrieved for the query, other tools among them."""
    folder = samples_dir() / "sealtools"
    tools, instances = folder / "tool.jsonl", folder / "dev.jsonl"
    if not instances.exists():
        pytest.skip(f"the Seal-Tools samples {instances} are absent")
    tasks = load_instance_tasks(tools, instances)
    gold = {t.task_id: t.tools for t in load_instance_tasks(tools, instances, offer="gold")}
    found = 0
    for task in tasks:
        assert task.tools is not None and len(task.tools) == 5
        assert len(set(task.tools)) == 5 and set(task.tools) != set(gold[task.task_id])
        missed = task.meta["retrieval_missed"]
        assert missed == [name for name in gold[task.task_id] if name not in task.tools]
        found += len(gold[task.task_id]) - len(missed)
    # BM25 finds most gold tools among 20; a miss is kept, as the benchmark keeps it
    assert found >= 0.8 * sum(len(g) for g in gold.values())
    env = gym.make(ENV_ID, tool_file=str(tools))
    obs, info = env.reset(options={"task": tasks[0]})
    assert {t["function"]["name"] for t in info["tools"]} == set(tasks[0].tools)
    with pytest.raises(ValueError, match="offer must be one of"):
        load_instance_tasks(tools, instances, offer="all")


def test_a_gold_is_read_once_per_text_and_a_bad_gold_is_refused_each_time() -> None:
    from toolgym.errors import TaskFileError
    from toolgym.families.seal_tools import checker

    gold = [call("getWeather", ["API_call_0"], city="Oslo")]
    first, second = bound(gold, "a"), bound(gold, "b")
    assert score(first, gold).success and score(second, gold).success
    assert checker._gold_of(first) is checker._gold_of(second)
    wrong = [call("getWeather", ["API_call_0"], city="Bergen")]
    assert not score(first, wrong).success
    bad = SUITE.bind(Task("bad", "a query", ('[{"api": 3}]',)))
    for _ in range(2):
        with pytest.raises(TaskFileError, match="task 'bad'"):
            score(bad, gold)
