"""BFCL's multi-turn env, turn by turn.

Held-back functions, the end of a turn, the forced quit, generated training conversations, and
the limits on what a call may cost.

Skipped without ``bfcl-eval`` (and ``mpmath``, which its ``MathAPI`` imports).
"""

from __future__ import annotations

import decimal
import json
import time

import gymnasium as gym
import pytest

pytest.importorskip("bfcl_eval", reason="bfcl-eval is not installed (pip install --no-deps ...)")
pytest.importorskip("mpmath", reason="BFCL's MathAPI needs mpmath")

from toolgym.envs.protocol import task_env
from toolgym.families.bfcl.multi_turn import Backends

ENV = "toolbench/BFCL-MultiTurn-v0"


def _play(env: gym.Env, actions: list[str]) -> list[tuple]:
    out = []
    for action in actions:
        out.append(env.step(action))
        if out[-1][2] or out[-1][3]:
            break
    return out


def test_held_back_functions_come_at_their_turn() -> None:
    env = gym.make(ENV, category="multi_turn_miss_func", reply_format="prompt")
    obs, info = env.reset(options={"task_id": "multi_turn_miss_func_0"})
    names = {t["function"]["name"] for t in info["tools"]}
    assert "sort" not in names and "Move 'final_report.pdf'" in obs
    held_turn = int(next(iter(task_env(env).task.setup["missed_function"])))
    steps = _play(env, task_env(env).oracle_actions())
    offered = [s for s in steps if "tools" in s[4]]
    assert len(offered) == 1 and offered[0][4]["turn"] == held_turn
    assert "sort" in {t["function"]["name"] for t in offered[0][4]["tools"]}
    assert (
        "I have updated some more functions" in offered[0][0] and "'name': 'sort'" in offered[0][0]
    )
    assert steps[-1][1] == 1.0 and steps[-1][2]
    fc = gym.make(ENV, category="multi_turn_miss_func", reply_format="fc")
    fc.reset(options={"task_id": "multi_turn_miss_func_0"})
    steps = _play(fc, task_env(fc).oracle_actions())
    said = [s[0] for s in steps if "tools" in s[4]]
    assert said == ["I have updated some more functions you can choose from. What about now?"]
    assert steps[-1][1] == 1.0


def test_words_end_a_turn_and_an_empty_turn_fails() -> None:
    env = gym.make(ENV, category="multi_turn_base")
    obs, _ = env.reset(options={"task_id": "multi_turn_base_0"})
    turns = task_env(env).task.setup["turns"]
    o, r, terminated, _, info = env.step("Sure, I will do that later.")
    assert not terminated and info["error"] is None and o == turns[1][0]["content"]
    for _ in turns[2:]:
        o, r, terminated, _, info = env.step("finish")
    o, r, terminated, _, info = env.step("finish")
    assert terminated and r == 0.0
    assert info["metrics"]["error_type"] == "multi_turn:empty_turn_model_response"
    assert info["error"]["message"].startswith("multi_turn:empty_turn_model_response")


def test_a_failed_call_counts_and_says_why() -> None:
    env = gym.make(ENV, category="multi_turn_base", reply_format="prompt")
    env.reset(options={"task_id": "multi_turn_base_0"})
    obs, _, _, _, info = env.step("[cd(folder='document'), no_such_tool(x=1)]")
    assert "[2] no_such_tool(x=1): Error during execution: name 'no_such_tool'" in obs
    assert info["error"]["category"] == "wrong_api" and info["calls"][0] == "cd(folder='document')"
    obs, _, _, _, info = env.step("[mkdir(name='x')]")
    assert info["error"]["category"] == "wrong_arguments" and "unexpected keyword" in obs
    attempt = task_env(env)._backend.attempt()
    assert attempt.outcome == [
        [["cd(folder='document')", "no_such_tool(x=1)"], ["mkdir(name='x')"]]
    ]


def test_twenty_one_replies_with_calls_in_a_turn_force_a_quit() -> None:
    env = gym.make(ENV, category="multi_turn_base", reply_format="prompt")
    env.reset(options={"task_id": "multi_turn_base_0"})
    steps = _play(env, ["[pwd()]"] * 30)
    assert len(steps) == 21 and steps[-1][2] and not steps[-1][3] and steps[-1][1] == 0.0
    assert "Forced to quit after 20 steps" in steps[-1][0]
    assert steps[-1][4]["metrics"]["error_type"] == "multi_turn:force_terminated"


def test_generated_training_conversations_are_scored_by_the_same_verdict() -> None:
    env = gym.make(ENV, split="train")
    base = task_env(env)
    assert base.get_task("train-5").gold == base.get_task("train-5").gold  # rebuilt alike
    kinds = set()
    for k in range(60):
        env.reset(options={"task_id": f"train-{k}"})
        task = base.task
        assert task is not None and task.meta["generated"]
        kinds |= {c.split("(")[0] for turn in task.meta["ground_truth"] for c in turn}
        steps = _play(env, base.oracle_actions())
        assert steps[-1][1] == 1.0 and all(s[4]["error"] is None for s in steps), task.task_id
        # a changed file name or number fails the state or response check
        gold = json.loads(task.gold[0])
        turn = next((t for t in gold if t and "=" in t[0]), None)
        if turn is None:
            continue
        changed = (
            turn[0].replace("='", "='x", 1) if "='" in turn[0] else turn[0].replace("=", "=1", 1)
        )
        env.reset(options={"task_id": f"train-{k}"})
        actions = [f"[{changed}]", *[f"[{c}]" for c in turn[1:]], "finish"]
        for other in gold[gold.index(turn) + 1 :]:
            actions += [*(f"[{c}]" for c in other), "finish"]
        prefix = ["finish"] * gold.index(turn)
        assert _play(env, prefix + actions)[-1][1] == 0.0, (task.task_id, changed)
    assert {"mkdir", "touch", "echo", "cat", "wc", "cp", "mv", "ls", "cd"} <= kinds
    assert {"get_user_id", "send_message", "add_contact", "search_messages"} <= kinds
    assert {"create_ticket", "get_ticket", "close_ticket", "resolve_ticket"} <= kinds
    assert {"post_tweet", "follow_user", "search_tweets"} <= kinds


def test_an_inline_task_of_gold_calls_is_one_turn_over_the_classes_it_calls() -> None:
    env = gym.make(ENV)
    gold = json.dumps([["mkdir(dir_name='x')"], ["add(a=1, b=2)"]])
    obs, info = env.reset(options={"task": {"prompt": "Make x, then add", "completion": [gold]}})
    task = task_env(env).task
    assert task is not None and task.setup["involved_classes"] == ["GorillaFileSystem", "MathAPI"]
    assert obs == "Make x, then add" and len(task.setup["turns"]) == 1
    steps = _play(env, task_env(env).oracle_actions())
    assert steps[-1][1] == 1.0
    with pytest.raises(Exception, match="no BFCL multi-turn class has a method"):
        env.reset(options={"task": {"prompt": "p", "completion": ['[["rm_rf(x=1)"]]']}})


def test_a_call_costs_what_a_budget_allows_and_leaves_no_setting_behind() -> None:
    backends = Backends({"involved_classes": ["MathAPI"], "initial_config": {}})
    started = time.monotonic()
    huge = backends.run_one("logarithm(value=10, base=2, precision=1000000000)")
    power = backends.run_one("power(base=7, exponent=1000000000000)")
    assert time.monotonic() - started < 5
    assert huge.startswith("Error during execution: precision is at most 1000")
    assert power.startswith("Error during execution: an integer power of at most")
    before = decimal.getcontext().prec
    assert "result" in backends.run_one("square_root(number=2, precision=5)")
    assert decimal.getcontext().prec == before
    import mpmath

    dps = mpmath.mp.dps
    assert "mpf" in backends.run_one("logarithm(value=8, base=2, precision=30)")
    assert mpmath.mp.dps == dps
    assert backends.run_one("power(base=2.5, exponent=3)") == '{"result": 15.625}'
    assert backends.run_one("__import__('os')").startswith("Error during execution: name")
    assert backends.run_one("exit()").startswith("Error during execution: Function call exit")


def test_a_tool_episode_offers_held_back_functions_from_their_turn() -> None:
    from toolgym.integrations.episode import ToolEpisode

    episode = ToolEpisode(ENV, category="multi_turn_miss_func")
    start = episode.reset(seed=0, task_id="multi_turn_miss_func_0")
    names = [s["function"]["name"] for s in start.tools]
    assert "sort" not in names and episode.finish_tool in names
    seen = [episode.tool_names()]
    result = None
    for call in episode.oracle_calls() or []:
        result = episode.call(call["name"], call["arguments"])
        seen.append(episode.tool_names())
    assert result is not None and result.done and result.reward == 1.0
    assert "sort" not in seen[0] and "sort" in seen[-1]
    assert "sort" in [s["function"]["name"] for s in episode.tool_schemas()]
    episode.close()


def test_a_backends_list_default_is_not_shared_between_episodes() -> None:
    from toolgym.families.bfcl.multi_turn import Backends

    calls = [
        "post_tweet(content='hi')",
        "mention(tweet_id=0, mentioned_usernames=['@eve'])",
        "post_tweet(content='again')",
    ]
    config = {"involved_classes": ["TwitterAPI"], "initial_config": {"TwitterAPI": {"authenticated": True}}}  # fmt: skip
    for _ in range(2):  # BFCL's post_tweet(tags=[], mentions=[]) shares one list process-wide
        results = Backends(config).run(calls)
        assert json.loads(results[0])["mentions"] == [] and json.loads(results[2])["mentions"] == []
