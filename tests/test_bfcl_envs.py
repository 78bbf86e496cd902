"""BFCL's single-turn envs: their entries, options, reply formats and what the agent sees.

The contract suite covers what every env keeps; this file what is BFCL's own: one task per entry
under BFCL's ids, the ``category`` and ``reply_format`` options, the oracle in every reply
format, the unanswerable entries, tasks given at reset, and an env refused without bfcl-eval.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import gymnasium as gym
import pytest

from toolgym.agents import OracleAgent
from toolgym.envs import family_of
from toolgym.errors import DependencyNotInstalled
from toolgym.evaluation.runner import run_episode

ENV_IDS = [
    "toolbench/BFCL-Simple-v0",
    "toolbench/BFCL-Multiple-v0",
    "toolbench/BFCL-Parallel-v0",
    "toolbench/BFCL-ParallelMultiple-v0",
    "toolbench/BFCL-Irrelevance-v0",
    "toolbench/BFCL-Live-v0",
]


def test_an_env_is_refused_without_bfcl_eval_with_the_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "bfcl_eval" else real(name, *a),
    )
    with pytest.raises(
        DependencyNotInstalled, match=re.escape("pip install --no-deps bfcl-eval==2026.3.23")
    ):
        gym.make("toolbench/BFCL-Live-v0")
    assert family_of("toolbench/BFCL-Simple-v0").missing()  # its Java reader's grammars too


needs_bfcl = pytest.mark.skipif(
    bool(family_of("toolbench/BFCL-Simple-v0").missing()),
    reason="bfcl-eval or the tree-sitter grammars are not installed: "
    + "; ".join(family_of("toolbench/BFCL-Simple-v0").missing()),
)

UNANSWERABLE = {
    # an ArrayList of ``any`` items is read as text, and its possible answer holds numbers
    "simple_java_36",
    "simple_java_65",
    # a HashMap whose possible answer is a dict of values, not of accepted values
    "simple_java_64",
    # see tests/test_bfcl_checker.py
    "live_simple_106-63-0",
    "live_simple_112-68-0",
    "live_multiple_862-181-3",
    "live_multiple_964-207-0",
}


@needs_bfcl
def test_every_entry_is_a_task_under_its_id_and_category() -> None:
    from toolgym.families.bfcl import data
    from toolgym.families.bfcl.leaderboard import ENTRY_COUNTS

    counts: Counter[str] = Counter()
    unanswerable = set()
    for env_id in ENV_IDS:
        base = gym.make(env_id).unwrapped
        for task_id in base.task_ids:
            task = base.get_task(task_id)
            counts[task.meta["category"]] += 1
            assert str(task_id).startswith(task.meta["category"])
            if "unanswerable" in task.meta:
                unanswerable.add(task_id)
    assert counts == Counter({c: n for c, n in ENTRY_COUNTS.items() if c in data.SINGLE_TURN})
    assert unanswerable == UNANSWERABLE


@needs_bfcl
def test_the_category_option_picks_one_category() -> None:
    env = gym.make("toolbench/BFCL-Live-v0", category="live_parallel")
    assert len(env.unwrapped.task_ids) == 16
    with pytest.raises(ValueError, match="this env plays the categories"):
        gym.make("toolbench/BFCL-Live-v0", category="simple_python")
    with pytest.raises(ValueError, match="single-turn category"):
        gym.make("toolbench/BFCL-Live-v0", category="live")
    with pytest.raises(ValueError, match="reply_format must be one of"):
        gym.make("toolbench/BFCL-Live-v0", reply_format="xml")


@needs_bfcl
@pytest.mark.parametrize("reply_format", ["prompt", "fc"])
@pytest.mark.parametrize("mode", ["program", "call"])
def test_the_oracle_scores_one_in_every_reply_format(reply_format: str, mode: str) -> None:
    for env_id in ENV_IDS:
        env = gym.make(env_id, reply_format=reply_format, action_mode=mode)
        base, agent = env.unwrapped, OracleAgent(env)
        for task_id in base.task_ids:
            if task_id in UNANSWERABLE:
                continue
            record = run_episode(env, agent, task_id=task_id)
            assert record.reward == 1.0, (env_id, task_id, record.error)


@needs_bfcl
def test_replies_are_read_as_each_format_reads_them() -> None:
    answer = "[calculate_triangle_area(base=10, height=5)]"
    as_json = json.dumps(
        [{"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}]
    )
    expected = {
        ("any", answer): 1.0,
        ("any", as_json): 1.0,
        ("prompt", answer): 1.0,
        ("prompt", as_json): 0.0,  # a prompt-mode model's JSON is not calls to BFCL
        ("fc", answer): 0.0,  # a function-calling model's text is words
        ("fc", as_json): 1.0,
    }
    for (reply_format, reply), reward in expected.items():
        env = gym.make("toolbench/BFCL-Simple-v0", reply_format=reply_format)
        env.reset(options={"task_id": "simple_python_0"})
        assert env.step(reply)[1] == reward, (reply_format, reply)


@needs_bfcl
def test_what_the_agent_sees_is_what_bfcl_shows_a_model() -> None:
    env = gym.make("toolbench/BFCL-Simple-v0")
    obs, info = env.reset(options={"task_id": "simple_java_0"})
    (tool,) = info["tools"]
    assert tool["function"]["description"].endswith(
        "Note that the provided function is in Java 8 SDK syntax."
    )
    properties = tool["function"]["parameters"]["properties"]
    assert {p["type"] for p in properties.values()} == {"string"}
    assert json.loads(info["api_docs"])["name"] == "GeometryPresentation.createPresentation"
    obs, info = env.reset(options={"task_id": "simple_python_0"})
    assert "base" in info["tools"][0]["function"]["parameters"]["required"]
    assert obs == info["instruction"]


@needs_bfcl
def test_a_dotted_name_may_be_called_with_underscores() -> None:
    env = gym.make("toolbench/BFCL-Simple-v0")
    env.reset(options={"task_id": "simple_java_0"})
    call = {
        "name": "GeometryPresentation_createPresentation",
        "arguments": {"controller": "mapController", "parent": "mapArea"},
    }
    assert env.step(json.dumps([call]))[1] == 1.0


@needs_bfcl
def test_errors_carry_bfcls_error_type() -> None:
    env = gym.make("toolbench/BFCL-Simple-v0")
    env.reset(options={"task_id": "simple_python_0"})
    *_, info = env.step("[calculate_triangle_area(base=10)]")
    assert info["error"]["category"] == "wrong_arguments"
    assert info["error"]["message"].startswith("simple_function_checker:missing_required")
    assert info["metrics"]["error_type"] == "simple_function_checker:missing_required"
    env.reset(options={"task_id": "simple_python_0"})
    *_, info = env.step("The area is 25.")
    assert info["error"]["category"] == "non_executable"
    env = gym.make("toolbench/BFCL-Irrelevance-v0")
    env.reset(seed=0)
    obs, reward, *_, info = env.step("None of these functions can help.")
    assert reward == 1.0 and info["error"] is None


@needs_bfcl
def test_a_task_given_at_reset_gets_its_functions_from_its_gold() -> None:
    env = gym.make("toolbench/BFCL-Parallel-v0")
    gold = "[get_weather(city='Paris', days=3), get_weather(city='Rome', days=2)]"
    obs, info = env.reset(
        options={"task": {"prompt": "Weather in Paris and Rome?", "completion": [gold]}}
    )
    assert [t["function"]["name"] for t in info["tools"]] == ["get_weather"]
    assert (
        env.step("[get_weather(city='Rome', days=2), get_weather(city='Paris', days=3)]")[1] == 1.0
    )
    env.reset(options={"task": {"prompt": "Weather in Paris and Rome?", "completion": [gold]}})
    assert (
        env.step("[get_weather(city='Rome', days=3), get_weather(city='Paris', days=2)]")[1] == 0.0
    )


@needs_bfcl
def test_eval_runs_a_category_and_prints_the_leaderboard(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from toolgym.cli import main

    argv = ["eval", "--agent", "oracle", "--no-progress", "--out", str(tmp_path / "one")]
    assert (
        main([*argv, "--env", "toolbench/BFCL-Live-v0", "--env-option", "category=live_parallel"])
        == 0
    )
    out = capsys.readouterr().out
    assert re.search(r"live_parallel\s+16\s+100.0%", out)
    assert re.search(r"Live Acc\s+1.18", out)  # 16 of the four live AST categories' 1,351
    argv[-1] = str(tmp_path / "all")
    assert main([*argv, "--suite", "bfcl", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Non-Live AST Acc\s+N/A", out)  # Java and JavaScript were not run
    tables = (tmp_path / "all" / "summary_tables.txt").read_text()
    assert re.search(r"Non-Live Parallel AST\s+100.00", tables)  # every column in the files
    assert re.search(r"Python Simple AST\s+100.00", tables)


@needs_bfcl
@pytest.mark.parametrize(
    ("task_id", "param", "hostile"),
    [
        ("simple_java_1", "params", "new HashMap<>() {" + " " * 15_000),  # cubic backtracking
        ("simple_javascript_2", "status", "[" + "[]," * 5_000),  # exponential backtracking
    ],
)
def test_a_value_bfcls_converter_backtracks_on_is_cut_off(
    task_id: str, param: str, hostile: str
) -> None:
    from toolgym.families.bfcl.answers import read_answer

    env = gym.make("toolbench/BFCL-Simple-v0")
    env.reset(options={"task_id": task_id})
    ((name, arguments),) = read_answer(env.unwrapped.task.gold[0])[0].items()
    action = json.dumps([{"name": name, "arguments": {**arguments, param: hostile}}])
    *_, info = env.step(action)
    assert info["error"]["category"] == "wrong_arguments"
    assert "to convert (BFCL's converter backtracks on it)" in info["error"]["message"]
    env.reset(options={"task_id": task_id})  # the env goes on: the gold still passes
    assert env.step(env.unwrapped.task.gold[0])[1] == 1.0


@needs_bfcl
def test_the_system_prompt_lists_each_tasks_functions_as_indented_json() -> None:
    from toolgym.families.bfcl import prompt

    docs = [{"name": "f", "parameters": {"x": {"type": "integer", "default": 1.5}}}]
    first = prompt.system_prompt(docs)
    assert json.dumps(docs, indent=4) in first
    assert prompt.system_prompt(docs) == first  # kept, the same text
    other = [{"name": "f", "parameters": {"x": {"type": "integer", "default": 2.5}}}]
    assert json.dumps(other, indent=4) in prompt.system_prompt(other)
    assert "2.5" not in first
    for _ in range(prompt._INDENTED_ENTRIES + 5):  # the kept texts stay bounded
        docs = [{"name": f"g{_}"}]
        assert json.dumps(docs, indent=4) in prompt.system_prompt(docs)
    assert len(prompt._INDENTED) <= prompt._INDENTED_ENTRIES
