"""The family contract suite: what every registered family keeps, checked the same way for all.

Parametrized over every registered env id (the built-in families and the to-do family kept in
the tests): the Gymnasium checker, determinism, the oracle on every stored task, perturbed golds,
bad actions as errors, state round trips and pickling, worlds and tasks that agree, and docs and
schemas that agree with the code.
"""

from __future__ import annotations

import pickle
import re
import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

from toolgym.agents import OracleAgent, make_agent
from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.evaluation.runner import run_episode
from toolgym.tools.errors import CATEGORIES
from toolgym.wrappers import FaultInjection

MODES = ("program", "call")
ENV_SECTIONS = (
    "Description",
    "Action Space",
    "Observation Space",
    "Rewards",
    "Episode End",
    "Arguments",
    "Version History",
)


def offered(env_id: str, mode: str) -> str:
    """``mode``, or a skip saying why when the env does not offer it (a conversation: call only)."""
    modes = family_of(env_id).action_modes
    if mode not in modes:
        pytest.skip(f"{env_id} offers action_mode {' and '.join(modes)} only")
    return mode


def whole_mode(env_id: str) -> str:
    """``program`` where the env offers it (a gold is one action), else ``call``."""
    return "program" if "program" in family_of(env_id).action_modes else "call"


def play_gold(env: gym.Env, gold: str) -> tuple:
    """The last step of playing a whole gold label (one action, or its steps in call mode)."""
    base = task_env(env)
    if base.action_mode == "program":
        return env.step(gold)
    result: tuple = ()
    for action in base.language.gold_steps(gold):
        result = env.step(action)
        if result[2] or result[3]:
            break
    return result


def first_gold(env: gym.Env) -> str:
    """The current task's gold as one action in program mode, or its label in call mode."""
    base = task_env(env)
    if base.action_mode == "program":
        return base.oracle_actions()[0]
    assert base.task is not None
    return base.task.gold[0]


@pytest.mark.parametrize("mode", MODES)
def test_check_env_passes(env_id: str, mode: str) -> None:
    env = gym.make(env_id, action_mode=offered(env_id, mode))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    messages = [str(w.message) for w in caught]
    assert not [m for m in messages if "env_checker" in m or "WARN" in m], messages


def test_spaces_admit_real_text(env_id: str) -> None:
    env = gym.make(env_id, action_mode=whole_mode(env_id))
    obs, info = env.reset(seed=0)
    assert obs in env.observation_space
    action = task_env(env).oracle_actions()[0]
    assert action in env.action_space
    obs, *_ = env.step(action)
    assert obs in env.observation_space
    assert '{"a": "b c"}\n' in env.action_space


def rollout(env: gym.Env, seed: int, episodes: int = 4) -> list:
    agent = make_agent("random", env, seed)
    trace = []
    for k in range(episodes):
        obs, info = env.reset(seed=seed + k)
        agent.reset(obs, info)
        trace.append((obs, info["task_id"]))
        done = False
        while not done:
            action = agent.act(obs, {**info})
            obs, reward, terminated, truncated, step_info = env.step(action)
            trace.append((action, obs, reward, terminated, truncated, step_info.get("error")))
            done = terminated or truncated
    return trace


@pytest.mark.parametrize("mode", MODES)
def test_same_seed_same_trajectory(env_id: str, mode: str) -> None:
    a = rollout(gym.make(env_id, action_mode=offered(env_id, mode)), 7)
    b = rollout(gym.make(env_id, action_mode=mode), 7)
    assert a == b
    c = rollout(gym.make(env_id, action_mode=mode), 8)
    assert a != c


def test_seeded_reset_picks_the_same_task(env_id: str) -> None:
    env = gym.make(env_id)
    first = [env.reset(seed=s)[1]["task_id"] for s in range(10)]
    again = [env.reset(seed=s)[1]["task_id"] for s in range(10)]
    assert first == again and len(set(first)) > 3


@pytest.mark.parametrize("split", ["test", "demo"])
@pytest.mark.parametrize("mode", MODES)
def test_oracle_scores_one_on_every_task(env_id: str, split: str, mode: str) -> None:
    """Every task but those of an original benchmark that no answer passes (marked so)."""
    if split not in task_env(gym.make(env_id)).suite.splits:
        pytest.skip(f"{env_id} has no {split!r} split")
    env = gym.make(env_id, split=split, action_mode=offered(env_id, mode))
    ids = task_env(env).task_ids
    assert ids
    agent = OracleAgent(env)
    for task_id in ids:
        if "unanswerable" in task_env(env).get_task(task_id).meta:
            continue
        record = run_episode(env, agent, task_id=task_id)
        assert record.terminated and not record.truncated, record
        assert record.reward == 1.0, record
        assert record.metrics is not None and record.metrics["success"] is True
        assert record.error is None


def test_oracle_calls_played_as_native_tool_calls_score_one(env_id: str) -> None:
    """Where the gold is only tool calls, the same calls made natively reproduce it.

    The first 30 test tasks of each env (the oracle test plays every one in both modes).
    """
    env = gym.make(env_id, split="test", action_mode="call")
    base = task_env(env)
    played = 0
    for task_id in base.task_ids[:30]:
        env.reset(seed=0, options={"task_id": task_id})
        calls = base.oracle_calls()
        if calls is None:
            continue
        played += 1
        reward, ended = 0.0, False
        for call in calls:
            action = base.native_action([call])  # the finish word is the finish tool
            assert action is not None
            _, reward, terminated, truncated, info = env.step(action)
            assert info["error"] is None, (task_id, call, info["error"])
            ended = terminated or truncated
            if ended:
                break
        assert ended and reward == 1.0, (task_id, calls)
    if played == 0:
        pytest.skip(f"no {env_id} gold is a sequence of tool calls (they are programs)")


def perturbations(gold: str) -> list[str]:
    """The gold with one value changed.

    Each number in turn plus one, else the last quoted text, else the last flag flipped, else
    the last bare argument of a call (``Agent.Put(cup, table)``).
    """
    out = [
        gold[: m.start()] + str(int(m.group()) + 1) + gold[m.end() :]
        for m in re.finditer(r"\d+", gold)
    ]
    if not out:
        quoted = list(re.finditer(r"\"([^\"]+)\"|'([^']+)'", gold))
        if quoted:
            m = quoted[-1]
            out.append(gold[: m.end() - 1] + "x" + gold[m.end() - 1 :])
    if not out:  # a flag: the last True or False flipped
        flags = list(re.finditer(r"\b(True|False|true|false)\b", gold))
        if flags:
            m = flags[-1]
            flipped = {"True": "False", "False": "True", "true": "false", "false": "true"}
            out.append(gold[: m.start()] + flipped[m.group()] + gold[m.end() :])
    if not out:  # bare names as arguments: Agent.Put(cup, table)
        bare = list(re.finditer(r"\w+(?=\)\s*$)", gold, re.MULTILINE))
        if bare:
            m = bare[-1]
            out.append(gold[: m.end()] + "x" + gold[m.end() :])
    return out  # empty: a gold without a value to change (a call that takes no argument)


def test_single_value_perturbations_score_below_one(env_id: str) -> None:
    """A changed value scores below 1, unless it leaves the outcome exactly as the gold's.

    (Asking for 6 geocoding matches of a city that has one gives the gold's answer: the checker
    must then agree, and score 1.) A checker that accepts other outcomes than the gold's
    (``accepts_others``: a line of blocks a little tilted is still a line) may score a changed
    gold 1, but most changes must still fail. Played step by step (call mode), a changed step
    may leave the episode unfinished (a product the shop does not show cannot be bought): that
    scores below 1 too.
    """
    env = gym.make(env_id, action_mode=whole_mode(env_id))
    base = task_env(env)
    below = total = 0
    others = False
    for task_id in base.task_ids:
        if "unanswerable" in base.get_task(task_id).meta:
            continue
        env.reset(options={"task_id": task_id})
        assert base.task is not None and base.task.checker is not None
        others = base.task.checker.accepts_others
        gold = first_gold(env)
        gold_prediction = play_gold(env, gold)[4]["prediction"]
        for action in perturbations(gold):
            env.reset(options={"task_id": task_id})
            obs, reward, terminated, truncated, info = play_gold(env, action)
            if not terminated:  # in call mode a changed step may leave the episode open
                assert base.action_mode == "call" and reward < 1.0, (task_id, action)
                below += 1
                total += 1
                continue
            same = gold_prediction is not None and info["prediction"] == gold_prediction
            if same or not others:
                assert (reward == 1.0) if same else (reward < 1.0), (task_id, action, obs[:200])
            if same:  # the change left the outcome as it was (words that say the same)
                continue
            below += reward < 1.0
            total += 1
    if total == 0:
        pytest.skip(f"no change of an {env_id} gold changes its outcome (its golds make no call)")
    share = 0.75 if others else 0.9
    assert below >= share * total, f"only {below} of {total} perturbations changed the outcome"


BAD_ACTIONS = (
    "",
    " \n\t ",
    "finish",
    "\x00",
    "{",
    "[",
    '{"name": "no_such_tool", "arguments": {}}',
    '{"name": 3}',
    "import os; os.system('echo hi')",
    "__import__('os').system('echo hi')",
    "curl -X GET 'file:///etc/passwd'",
    "curl -X GET 'https://example.com/' ; rm -rf /",
    "x" * 20_000,
    "(" * 500,
    "🙂" * 100,
    "API.search(" * 50,
)


@pytest.mark.parametrize("mode", MODES)
def test_bad_actions_are_errors_not_exceptions(env_id: str, mode: str) -> None:
    env = gym.make(env_id, action_mode=offered(env_id, mode))
    for k, action in enumerate(BAD_ACTIONS):
        env.reset(seed=k)
        obs, reward, terminated, truncated, info = env.step(action)
        assert isinstance(obs, str) and obs in env.observation_space, action[:40]
        if info["error"] is not None:
            assert info["error"]["category"] in CATEGORIES, info["error"]
            assert reward < 1.0
    # the env keeps working: the gold still scores 1
    env.reset(seed=0)
    base = task_env(env)
    results = [env.step(a) for a in base.oracle_actions()]
    assert results[-1][1] == 1.0 and results[-1][2]


@pytest.mark.parametrize("mode", MODES)
def test_an_action_past_the_action_space_is_refused_before_it_runs(env_id: str, mode: str) -> None:
    env = gym.make(env_id, action_mode=offered(env_id, mode))
    env.reset(seed=0)
    limit = env.action_space.max_length
    # valid text throughout, so only its length is wrong
    oracle = task_env(env).oracle_actions()[0]
    action = (oracle + "\n") * (limit // (len(oracle) + 1) + 1)
    assert len(action) > limit
    obs, reward, terminated, _, info = env.step(action)
    assert info["error"]["category"] == "resource_limit", info["error"]
    assert f"at most {limit}" in info["error"]["message"] and obs in env.observation_space
    assert reward == 0.0 and terminated == (mode == "program")
    env.reset(seed=0)  # the refusal reports what any failed action of the language reports
    *_, failed = env.step("x")
    env.reset(seed=0)
    *_, info = env.step(action)
    assert set(info) >= set(failed), sorted(set(failed) - set(info))
    if not terminated:  # call mode: nothing ran, and the episode goes on to the gold
        results = [env.step(a) for a in task_env(env).oracle_actions()]
        assert results[-1][1] == 1.0


def test_state_round_trip(env_id: str) -> None:
    env = gym.make(env_id, action_mode="call")
    base = task_env(env)
    for seed in range(3, 40):  # a task whose gold takes more than one step
        env.reset(seed=seed)
        actions = base.oracle_actions()
        if len(actions) > 1:
            break
    else:
        pytest.skip(f"every {env_id} gold drawn is one step")
    env.step(actions[0])
    state = base.get_state()
    rest = [env.step(a)[:4] for a in actions[1:]]
    base.set_state(state)
    again = [env.step(a)[:4] for a in actions[1:]]
    assert rest == again
    assert rest[-1][1] == 1.0 and rest[-1][2] is True
    # restoring into a fresh env of the same id continues the episode there
    other = gym.make(env_id, action_mode="call")
    other.reset(seed=99)
    task_env(other).set_state(state)
    assert [other.step(a)[:4] for a in actions[1:]] == rest


def test_pickle_round_trip(env_id: str) -> None:
    env = gym.make(env_id, action_mode="call")
    env.reset(seed=5)
    base = task_env(env)
    env.step(base.oracle_actions()[0])
    clone = pickle.loads(pickle.dumps(env))
    rest = base.oracle_actions()[1:]
    assert [env.step(a)[:4] for a in rest] == [clone.step(a)[:4] for a in rest]
    fresh = pickle.loads(pickle.dumps(gym.make(env_id)))
    obs, info = fresh.reset(seed=1)
    opens_with_question = info.get("conversation_id", "question") == "question"
    assert (info["instruction"] in obs) == opens_with_question  # or an earlier conversation


def test_reset_info(env_id: str) -> None:
    env = gym.make(env_id)
    obs, info = env.reset(seed=0)
    assert set(info) >= {
        "task_id",
        "instruction",
        "api_docs",
        "api_doc_list",
        "tools",
        "action_language",
        "action_mode",
        "split",
    }
    assert all(t["type"] == "function" for t in info["tools"])
    offered = [t for t in task_env(env).tools if t.offered]
    assert len(info["tools"]) == len(offered)  # programs' docs (Sheets) offer no JSON calls
    assert info["action_language"] == task_env(env).language.name
    with pytest.raises(KeyError, match="no task 'nope'"):
        env.reset(options={"task_id": "nope"})
    with pytest.raises(ValueError, match="action_mode must be one of"):
        gym.make(env_id, action_mode="chat")
    with pytest.raises(ValueError, match="split must be one of"):
        gym.make(env_id, split="validation")
    with pytest.raises(TypeError, match="has no option"):
        gym.make(env_id, not_an_option=1)


def test_inline_task(env_id: str) -> None:
    env = gym.make(env_id, action_mode=whole_mode(env_id))
    env.reset(seed=0)
    gold = first_gold(env)
    obs, info = env.reset(options={"task": {"prompt": "  my goal ", "completion": [gold]}})
    base = task_env(env)
    assert base.task is not None and info["task_id"] == "inline"
    # a conversation opens with the part of the request the user gives; it keeps the whole one
    request = base.task.meta.get("full_request", info["instruction"])
    assert request == "my goal"
    assert info["instruction"] in obs  # the instruction, or a first page that shows it
    assert play_gold(env, base.task.gold[0])[1] == 1.0


def test_reward_type_success(env_id: str) -> None:
    env = gym.make(env_id, action_mode=whole_mode(env_id), reward_type="success")
    base = task_env(env)
    for task_id in base.task_ids[:50]:  # the first whose changed gold changes the outcome
        env.reset(options={"task_id": task_id})
        gold = first_gold(env)
        assert play_gold(env, gold)[1] == 1.0
        changes = perturbations(gold)
        if not changes:
            continue
        env.reset(options={"task_id": task_id})
        reward = play_gold(env, changes[0])[1]
        assert reward in (0.0, 1.0)
        if reward == 0.0:
            return
    pytest.skip(f"no change of an {env_id} gold changes its outcome (its golds make no call)")


def test_call_mode_truncates_at_the_registered_budget(env_id: str) -> None:
    env = gym.make(env_id, action_mode="call")
    env.reset(seed=0)
    limit = env.spec.max_episode_steps
    own = task_env(env).language.step_limit  # BFCL's forced quit after 20 replies with calls
    steps = 0
    truncated = terminated = False
    reward = 0.0
    while not (truncated or terminated):
        _, reward, terminated, truncated, info = env.step("no_such_function()")
        assert info["error"] is not None
        steps += 1
    if own is not None and own < limit:  # the language's own limit ends it first, a failure
        # (after each of an episode's conversations: BFCL's memory categories)
        assert terminated and not truncated and steps % (own + 1) == 0 and reward == 0.0
        return
    assert truncated and not terminated and steps == limit


def test_render_ansi(env_id: str) -> None:
    env = gym.make(env_id, render_mode="ansi")
    env.reset(seed=0)
    assert "Task " in env.render()
    plain = gym.make(env_id)
    plain.reset(seed=0)
    assert plain.render() is None


# -- worlds and tasks that agree ---------------------------------------------------------------


def test_stored_splits_refuse_another_world(env_id: str) -> None:
    suite = task_env(gym.make(env_id)).suite
    other = suite.world_seed + 1
    with pytest.raises(ValueError, match=rf"built for world_seed={suite.world_seed}"):
        gym.make(env_id, world_seed=other)


def test_train_tasks_are_built_for_their_world(env_id: str) -> None:
    if task_env(gym.make(env_id)).suite.train_task is None:
        pytest.skip(f"{env_id} has no train split (its tasks are a benchmark's, not generated)")
    for world_seed in (1, 7):
        env = gym.make(env_id, split="train", world_seed=world_seed)
        agent = OracleAgent(env)
        for seed in range(6):
            record = run_episode(env, agent, seed=seed)
            assert record.reward == 1.0, (world_seed, record.task_id, record.error)


# -- docs and schemas agree with the code --------------------------------------------------------


def test_docs_and_schemas_agree_with_the_tools(env_id: str) -> None:
    env = gym.make(env_id)
    obs, info = env.reset(seed=0)
    base = task_env(env)
    tools = base.tools
    assert list(info["api_doc_list"]) == [t.toolbench_doc() for t in tools]
    assert info["api_docs"] == "\n".join(info["api_doc_list"])
    offered = [t for t in tools if t.offered]
    assert [s["function"]["name"] for s in info["tools"]] == [t.name for t in offered]
    for schema, tool in zip(info["tools"], offered, strict=True):
        params = schema["function"]["parameters"]
        assert list(params["properties"]) == [p.name for p in tool.params]
        assert params["required"] == [p.name for p in tool.params if p.required]
        assert tool.description in base.tools.api_docs


def test_env_class_documents_the_family(env_id: str) -> None:
    env = gym.make(env_id)
    cls = type(env.unwrapped)
    doc = cls.__doc__ or ""
    for section in ENV_SECTIONS:
        assert f"## {section}" in doc, (cls.__name__, section)
    for option in base_options(env):
        assert f"``{option}``" in doc, (cls.__name__, option)
    spec = task_env(env).family
    for version in spec.versions:
        assert f"* v{version.version}: {version.history}" in doc, (cls.__name__, version.version)
        assert f"max_episode_steps={version.max_episode_steps}" in doc
    assert cls.__name__ == spec.class_name and cls.__module__ == "toolgym.envs"


def base_options(env: gym.Env) -> list[str]:
    return [
        "split",
        "action_mode",
        "task_file",
        "reward_type",
        "world_seed",
        "render_mode",
        *task_env(env).toolkit.options(),
    ]


def calling_tasks(env: gym.Env, count: int) -> list:
    """The first ``count`` test tasks whose gold calls a tool (skip when none does)."""
    base = task_env(env)
    found = []
    for task_id in base.task_ids:
        task = base.get_task(task_id)
        if "unanswerable" not in task.meta and base.toolkit.api_calls(task.gold[0]):
            found.append(task_id)
        if len(found) == count:
            return found
    if not found:
        pytest.skip(f"no {base.env_id} gold calls a tool (its golds make no call)")
    return found


def retrying_oracle(env: gym.Env, task_id, retries: int = 50) -> tuple[float, int, int]:
    """Play the gold in call mode, repeating each step a service fault failed: (reward, faults, steps)."""
    env.reset(options={"task_id": task_id})
    met = steps = 0
    reward = 0.0
    for action in task_env(env).oracle_actions():
        for _ in range(retries):
            _, reward, terminated, truncated, info = env.step(action)
            steps += 1
            met += len(info["faults"])
            error = info.get("error") or {}
            if terminated or truncated or error.get("category") != "service_error":
                break
        if terminated or truncated:
            break
    return reward, met, steps


def test_service_faults_reach_every_family_and_retries_overcome_them(env_id: str) -> None:
    """Faults that fail calls without effect: an agent that tries again still scores 1."""
    env = FaultInjection(
        gym.make(env_id, action_mode="call", max_episode_steps=400),
        rate=0.4,
        kinds=("rate_limit", "server_error", "timeout", "slow"),
        seed=3,
    )
    ids = calling_tasks(env, 6)
    results = [retrying_oracle(env, task_id) for task_id in ids]
    assert all(reward == 1.0 for reward, _, _ in results), results
    assert sum(met for _, met, _ in results) > 0, "no fault reached the family's calls"
    assert sum(steps for *_, steps in results) > sum(
        len(task_env(env).get_task(t).gold) for t in ids
    )


@pytest.mark.parametrize("mode", MODES)
def test_every_call_failing_is_a_service_error_not_an_exception(env_id: str, mode: str) -> None:
    env = gym.make(env_id, action_mode=offered(env_id, mode))
    env = FaultInjection(env, rate=1.0, kinds=("timeout",))
    check_env(env.unwrapped)  # the gold labels are never touched by the faults
    ids = calling_tasks(env, 3)
    for task_id in ids:
        env.reset(options={"task_id": task_id})
        for action in task_env(env).oracle_actions():  # a message to the user meets no fault
            _, reward, terminated, _, info = env.step(action)
            if info["faults"] or terminated:
                break
        assert reward < 1.0 and info["faults"] and info["faults"][0]["kind"] == "timeout"
        assert info["error"]["category"] == "service_error"
    env.close()
    env.reset(options={"task_id": ids[0]})  # closed: no faults any more
    for action in task_env(env).oracle_actions():
        _, reward, *_ = env.step(action)
    assert reward == 1.0
