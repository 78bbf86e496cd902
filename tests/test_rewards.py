"""Execution rewards for RL: the evaluation's rewards, per completion, and the prompts without gold."""

from __future__ import annotations

import itertools
import pickle
import random
from typing import Any

import gymnasium as gym
import pytest
from conftest import ENV_IDS

from toolgym.agents.backends.base import as_text
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.defaults import prompt_defaults
from toolgym.agents.llm_agent import LLMAgent
from toolgym.cli import main
from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.evaluation.runner import evaluate
from toolgym.training import (
    EXECUTABLE_BONUS,
    SHAPINGS,
    ExecutionReward,
    partial_credit_metric,
    reward_throughput,
    rl_examples,
    to_rl_dataset,
)
from toolgym.training.rewards import completion_text
from toolgym.training.sft_data import held_out_goals, same_goal

HOME = "toolbench/HomeSearch-v0"
CATS = "toolbench/CatAPI-v1"
WEATHER = "toolbench/OpenWeather-v1"
SINGLE_STEP = [
    env_id
    for env_id in ENV_IDS
    if family_of(env_id).action_mode == "program"
    and prompt_defaults(family_of(env_id).name).strategy == "single"
]
TASKS = 3
GARBAGE = "Sure! I would look that up for you, then report back."
FORBIDDEN = "__import__('os').system('true')"
HUGE = "A" * 20_000


def gold_actions(env_id: str, task_ids: list[Any], split: str = "test") -> list[str]:
    """The gold action of each task, from the env's oracle."""
    env = gym.make(env_id, split=split)
    try:
        out = []
        for task_id in task_ids:
            env.reset(options={"task_id": task_id})
            out.append(task_env(env).oracle_actions()[0])
        return out
    finally:
        env.close()


def completion_kinds(golds: list[str], k: int) -> dict[str, str]:
    """Completions for task ``k``: right, wrong but runnable, and broken in several ways."""
    return {
        "gold": golds[k],
        "other_gold": golds[(k + 1) % len(golds)],
        "garbage": GARBAGE,
        "empty": "",
        "gold_then_stop": f"{golds[k]}\n------\nTask: and one more thing",
        "forbidden": FORBIDDEN,
        "huge": HUGE,
    }


@pytest.fixture(scope="module")
def cats() -> ExecutionReward:
    return ExecutionReward(CATS, split="test")


@pytest.mark.parametrize("env_id", SINGLE_STEP)
def test_rewards_are_the_evaluation_rewards(env_id: str) -> None:
    """Per completion: the reward, error category, action and metrics of ``evaluate``."""
    probe = gym.make(env_id)
    ids = list(task_env(probe).task_ids[:TASKS])
    probe.close()
    golds = gold_actions(env_id, ids)
    kinds = list(completion_kinds(golds, 0))
    reward = ExecutionReward(env_id, split="test")
    try:
        for kind in kinds:
            texts = [completion_kinds(golds, k)[kind] for k in range(len(ids))]

            def agent(env: gym.Env[Any, Any], texts: list[str] = texts) -> LLMAgent:
                # a model that wrote these texts and stopped by itself
                backend = ScriptedBackend(texts)
                return LLMAgent.for_env(env, backend, strategy="single", max_new_tokens=10**6)

            result = evaluate(env_id, agent, split="test", limit=len(ids), progress=False)
            rewards = reward(completions=texts, task_id=ids)
            for record, got in zip(result.records, reward.last_batch, strict=True):
                where = f"{env_id} {record.task_id} {kind}"
                assert got.env_reward == record.reward, where
                assert got.reward == record.reward, where
                assert got.error_category == record.error_category, where
                assert got.action == record.action, where
                assert got.metrics == record.metrics, where
                assert got.task_id == str(record.task_id)
            assert rewards == [r.reward for r in result.records]
            if kind in ("gold", "gold_then_stop"):
                assert all(r.error_category is None for r in reward.last_batch), kind
    finally:
        reward.close()


def test_evaluate_seeds_every_task_as_the_reward_does() -> None:
    """A clock drawn per episode: tasks scored out of split order still get their own seeds."""
    n = 16
    ids = list(task_env(gym.make(WEATHER)).task_ids[:n])
    golds = gold_actions(WEATHER, ids)
    wrong = [golds[(k + 1) % n] for k in range(n)]

    def agent(env: gym.Env[Any, Any]) -> LLMAgent:
        return LLMAgent.for_env(env, ScriptedBackend(wrong), strategy="single")

    result = evaluate(WEATHER, agent, split="test", limit=n, progress=False, seed=1)
    reward = ExecutionReward(WEATHER, split="test", seed=1)
    order = list(range(n))
    random.Random(1).shuffle(order)
    got = reward(completions=[wrong[i] for i in order], task_id=[ids[i] for i in order])
    assert got == [result.records[i].reward for i in order]
    assert [r.metrics for r in reward.last_batch] == [result.records[i].metrics for i in order]
    other = ExecutionReward(WEATHER, split="test", seed=0)  # the seed matters here
    other(completions=[wrong[i] for i in order], task_id=[ids[i] for i in order])
    assert [r.metrics for r in other.last_batch] != [r.metrics for r in reward.last_batch]


def test_same_batch_same_rewards_in_any_order(cats: ExecutionReward) -> None:
    ids = [f"test-{i:03d}" for i in range(6)]
    golds = gold_actions(CATS, ids)
    completions = [*golds, *golds[1:], golds[0], GARBAGE, ""]
    task_ids = [*ids, *ids, ids[0], ids[1]]
    first = cats(completions=completions, task_id=task_ids)
    assert first == cats(completions=completions, task_id=task_ids)
    order = list(range(len(completions)))
    random.Random(0).shuffle(order)
    shuffled = cats(
        completions=[completions[i] for i in order], task_id=[task_ids[i] for i in order]
    )
    assert shuffled == [first[i] for i in order]
    assert first[:6] == [1.0] * 6 and first[-2:] == [0.0, 0.0]


def test_conversational_completions_and_trl_keywords(cats: ExecutionReward) -> None:
    ids = ["test-000", "test-001"]
    golds = gold_actions(CATS, ids)
    plain = cats(completions=[golds[0], GARBAGE], task_id=ids)
    logged: dict[str, list[Any]] = {}
    chat = cats(
        prompts=[[{"role": "user", "content": "q"}]] * 2,
        completions=[
            [{"role": "assistant", "content": golds[0]}],
            [{"role": "assistant", "content": [{"type": "text", "text": GARBAGE}]}],
        ],
        completion_ids=[[1, 2, 3], [4, 5]],
        task_id=ids,
        trainer_state=object(),
        log_extra=lambda column, values: logged.setdefault(column, values),
        log_metric=lambda name, value: None,
    )
    assert chat == plain == [1.0, 0.0]
    assert not logged  # ignored unless log_errors
    assert cats.__name__ == "execution_reward"
    assert completion_text({"role": "assistant", "content": "x"}) == "x"
    assert completion_text([{"role": "tool", "content": "no"}, {"content": "y"}]) == "y"
    with pytest.raises(TypeError, match="a string or a list of chat messages"):
        cats(completions=[42], task_id=["test-000"])


def test_log_errors_adds_a_column() -> None:
    reward = ExecutionReward(CATS, split="test", log_errors=True, name="run_it")
    logged: dict[str, list[Any]] = {}
    reward(
        completions=["", GARBAGE],
        task_id=["test-000", "test-001"],
        log_extra=lambda column, values: logged.setdefault(column, values),
    )
    assert logged == {"error_category": ["non_executable", "non_executable"]}
    assert reward.__name__ == "run_it"


def test_mixed_env_ids_score_as_each_env_alone(cats: ExecutionReward) -> None:
    both = ExecutionReward([CATS, HOME], split="test")
    cat_golds = gold_actions(CATS, ["test-000"])
    home_golds = gold_actions(HOME, ["test-000", "test-001"])
    home = ExecutionReward(HOME, split="test")
    completions = [cat_golds[0], home_golds[1], home_golds[0], GARBAGE]
    env_ids = [CATS, HOME, HOME, CATS]
    task_ids = ["test-000", "test-000", "test-000", "test-001"]
    mixed = both(completions=completions, task_id=task_ids, env_id=env_ids)
    alone = [
        (cats if e == CATS else home)(completions=[c], task_id=[t])[0]
        for c, e, t in zip(completions, env_ids, task_ids, strict=True)
    ]
    assert mixed == alone and mixed[0] == mixed[2] == 1.0 and 0 < mixed[1] < 1
    with pytest.raises(ValueError, match=r"several envs .* needs env_id"):
        both(completions=completions, task_id=task_ids)
    with pytest.raises(ValueError, match=rf"runs {CATS}, {HOME}; got env id 'toolbench/Nope-v0'"):
        both(completions=["x"], task_id=["test-000"], env_id=["toolbench/Nope-v0"])


def test_shapings() -> None:
    ids = ["test-000", "test-000", "test-000", "test-000"]
    gold, other = gold_actions(HOME, ["test-000", "test-001"])
    completions = [gold, other, GARBAGE, ""]
    rewards = {
        shaping: ExecutionReward(HOME, split="test", shaping=shaping) for shaping in SHAPINGS
    }
    got = {s: r(completions=completions, task_id=ids) for s, r in rewards.items()}
    base = got["reward"]
    assert base[0] == 1.0 and 0 < base[1] < 1 and base[2:] == [0.0, 0.0]
    assert got["success"] == [1.0, 0.0, 0.0, 0.0]
    assert got["f1"] == [1.0, rewards["f1"].last_batch[1].metrics["f1"], 0.0, 0.0]
    bonus = [base[0] + EXECUTABLE_BONUS, base[1] + EXECUTABLE_BONUS, 0.0, 0.0]
    assert got["executable_bonus"] == pytest.approx(bonus)
    assert rewards["executable_bonus"].__name__ == "execution_executable_bonus"
    with pytest.raises(ValueError, match="reward, success, f1, executable_bonus; got 'nope'"):
        ExecutionReward(HOME, shaping="nope")


def test_f1_shaping_reads_each_family_s_f1_like_metric() -> None:
    assert ExecutionReward([HOME, CATS], shaping="f1").f1_metrics == {HOME: "f1", CATS: "f1"}
    expected = {
        "toolbench/SealTools-v0": "tool_f1",  # the first F1 it declares
        "toolbench/TodoList-v0": "item_f1",  # its reward metric
        "toolbench/GoogleSheets-v0": None,  # no F1: scored by success
        "toolbench/Tabletop-v0": None,
    }
    for env_id, metric in expected.items():
        if env_id in SINGLE_STEP:
            assert partial_credit_metric(env_id) == metric, env_id


@pytest.mark.parametrize("env_id", ["toolbench/WebShop-v1", "toolbench/RapidAPI-v1"])
def test_multi_step_envs_are_refused(env_id: str) -> None:
    with pytest.raises(ValueError, match=r"multi-step .*rollouts.*HomeSearch-v0"):
        ExecutionReward(env_id)
    with pytest.raises(ValueError, match="multi-step"):
        rl_examples(env_id, 1)


def test_bad_ids_and_settings_are_refused(cats: ExecutionReward) -> None:
    with pytest.raises(ValueError, match=r"action_mode 'call'.*rollouts"):
        ExecutionReward(HOME, env_kwargs={"action_mode": "call"})
    with pytest.raises(ValueError, match=r"unknown env id 'toolbench/Nope-v0'; known: .*CatAPI-v1"):
        ExecutionReward("toolbench/Nope-v0")
    with pytest.raises(ValueError, match="split"):
        ExecutionReward(CATS, split="validation")
    with pytest.raises(ValueError, match="with split=, not in env_kwargs"):
        ExecutionReward(CATS, env_kwargs={"split": "test"})
    with pytest.raises(ValueError, match="extraction is one of strict, lenient; got 'loose'"):
        ExecutionReward(CATS, extraction="loose")
    cats(completions=[GARBAGE], task_id=["test-002"])
    good = cats.last_batch
    with pytest.raises(
        ValueError, match=r"test split has no task 'test-999'; its 100 task ids: test-000, "
    ):
        cats(completions=["x", "y"], task_id=["test-000", "test-999"])
    assert cats.last_batch is good  # the bad batch ran nothing
    with pytest.raises(ValueError, match=r"needs task_id=.*got none"):
        cats(completions=["x"])
    with pytest.raises(ValueError, match=r"one task_id per completion \(2\); got 1"):
        cats(completions=["x", "y"], task_id=["test-000"])
    with pytest.raises(ValueError, match=r"one prompt per completion \(1\); got 2"):
        cats(prompts=["p", "q"], completions=["x"], task_id=["test-000"])
    train = ExecutionReward(CATS)
    with pytest.raises(ValueError, match=r"task ids 'train-<k>'.*got 'test-000'"):
        train(completions=["x"], task_id=["test-000"])
    train.close()
    with pytest.raises(ValueError, match="closed"):
        train(completions=["x"], task_id=["train-0"])


def test_rl_examples_carry_no_gold_and_score_as_train_tasks() -> None:
    for env_id in SINGLE_STEP:
        if family_of(env_id).missing() or task_env(gym.make(env_id)).suite.train_task is None:
            continue  # no train split (BFCL's entries): RL examples come from one only
        records = rl_examples(env_id, 2)
        suite = task_env(gym.make(env_id, split="train")).suite
        # the first train tasks whose goals are no test task's (a small test family repeats some)
        held_out = held_out_goals(suite)
        fresh = (t for t in suite.train_pairs(None) if same_goal(t.instruction) not in held_out)
        tasks = list(itertools.islice(fresh, 2))
        assert [r["task_id"] for r in records] == [str(t.task_id) for t in tasks]
        for record, task in zip(records, tasks, strict=True):
            assert set(record) == {"prompt", "task_id", "env_id"} and record["env_id"] == env_id
            assert [m["role"] for m in record["prompt"]] == ["system", "user"]
            text = as_text(record["prompt"])
            # the prompt ends with the task: nothing of its answer follows (the same program
            # may still show up earlier, as a demonstration's answer or an API doc's example)
            ending = text[text.rindex(task.instruction.strip()) :]
            assert len(ending) < len(task.instruction.strip()) + 20, ending
            for gold in task.gold:
                assert gold.strip() not in ending, (env_id, task.task_id)
    records = rl_examples(CATS, 3, fmt="completion", seed=2, shots=0)
    assert all(isinstance(r["prompt"], str) for r in records)
    assert records[0]["task_id"] == f"train-{2 * 2**32}"
    tasks = list(task_env(gym.make(CATS, split="train")).suite.train_pairs(3, seed=2))
    reward = ExecutionReward(CATS, seed=2)  # the train split
    golds = [t.gold[0] for t in tasks]
    rewards = reward(
        prompts=[r["prompt"] for r in records],
        completions=golds,
        task_id=[r["task_id"] for r in records],
        env_id=[r["env_id"] for r in records],
    )
    assert rewards == [1.0, 1.0, 1.0]
    assert "gold" not in repr(reward.last_batch[0]).lower()


def test_rl_dataset_columns() -> None:
    pytest.importorskip("datasets")
    dataset = to_rl_dataset([CATS, HOME], 2, shots=1)
    assert set(dataset.column_names) == {"prompt", "task_id", "env_id"} and len(dataset) == 4
    assert dataset[0]["prompt"] == rl_examples(CATS, 1, shots=1)[0]["prompt"]
    assert dataset[3]["env_id"] == HOME


def test_the_reward_function_pickles(cats: ExecutionReward) -> None:
    golds = gold_actions(CATS, ["test-000"])
    copy = pickle.loads(pickle.dumps(cats))
    batch = {"completions": [golds[0], GARBAGE], "task_id": ["test-000", "test-000"]}
    assert copy(**batch) == cats(**batch) == [1.0, 0.0]
    assert repr(copy) == repr(cats)


def test_throughput_and_bench_command(capsys: pytest.CaptureFixture[str]) -> None:
    row = reward_throughput(CATS, 4)
    assert row["completions"] == 4 and row["rewards/s"] > 0 and row["gold mean reward"] == 1.0
    assert main(["bench", "--rewards", "4", "--env", CATS]) == 0
    out = capsys.readouterr().out
    assert "rewards/s" in out and "ms per reward" in out and CATS in out
