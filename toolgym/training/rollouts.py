"""Rollouts of whole episodes for policy-gradient training, scored exactly as the evaluation.

:func:`collect_rollouts` plays episodes of one env with an LLM agent and returns them as
:class:`Trajectory` objects: multi-step envs (WebShop, RapidAPI, any family played with
``action_mode="call"``) and single-step ones (one step each). Episodes run on a vector env
(``mode="sync"`` or ``"async"``) with :func:`~toolgym.evaluation.vector_runner.run_vector`, the
agents sharing one backend (one batched generation per step for the episodes in flight), or on
Ray workers (``mode="ray"``, :func:`~toolgym.evaluation.distributed.play_on_ray`, the agent
given as an :class:`~toolgym.evaluation.ray_models.AgentRecipe`).

The format. A :class:`Trajectory` is one episode: its env, task and reset seed, its steps, its
return (the sum of the step rewards), its final reward, success, error category and metrics as
the evaluation records them (:class:`~toolgym.evaluation.records.EpisodeRecord`). A
:class:`StepSample` is one generation and what it did: the prompt, the generated text, the
action, the env's reward and observation, the step's error, and the token trace when the backend
gives one (``HFBackend(trace_tokens=True)``: ``prompt_ids``, ``completion_ids``, ``logprobs``;
``None`` otherwise). :func:`to_policy_gradient_samples` flattens trajectories into one dict per
step with token ids, log-probabilities, rewards, returns-to-go and (GRPO) group advantages.

Seeds. Task ``k`` of a stored split is reset with ``seed + k``, as ``evaluate(seed=seed)`` over
the whole split seeds it, and ``train-<k>`` with ``seed + k % 2**32``, as
:class:`~toolgym.training.rewards.ExecutionReward` does
(:func:`~toolgym.training.rewards.task_seed`), so a rollout's rewards are the evaluation's. A
group (``group_size`` episodes of one task) shares that seed: its episodes differ only by what
the model samples. A generation the agent could not use (a prompt the backend refused, an
exception out of the agent) ends its episode with ``agent_error`` and is not a step.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium as gym

from toolgym.agents.backends.base import TRACE_KEYS, LLMBackend
from toolgym.agents.base import Agent
from toolgym.agents.defaults import prompt_defaults
from toolgym.agents.llm_agent import LLMAgent
from toolgym.benchmarks.suite import TRAIN_STRIDE
from toolgym.envs import env_ids as registered_env_ids
from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.envs.tool_env import ToolEnv
from toolgym.errors import UserInputError
from toolgym.evaluation.ray_models import AgentRecipe, require_ray
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.vector_runner import run_vector, sub_envs, vector_env
from toolgym.training.rewards import task_seed

MODES: tuple[str, ...] = ("sync", "async", "ray")
"""Where :func:`collect_rollouts` plays: sub-envs here, one process per sub-env, Ray workers."""

AgentFactory = Callable[[gym.Env[Any, Any], LLMBackend], Agent]
"""``(env, backend) -> agent``: how an agent is built on each sub-env over the shared backend."""


@dataclass
class StepSample:
    """One generation of an episode and what its action did.

    Attributes:
        prompt: the prompt as the agent built it (text, or chat messages).
        completion: the generated text (cut at the agent's stop sequences).
        action: the action the agent read from it.
        reward: the env's reward of the step.
        observation: the observation after the step.
        error: the step's error (``{"category", "message"}``) or ``None``.
        prompt_ids: the prompt's token ids (``None`` without a token trace).
        completion_ids: every generated token id (``None`` without a token trace).
        logprobs: per completion token, its log-probability when it was chosen.
    """

    prompt: Any
    completion: str
    action: str
    reward: float
    observation: str
    error: dict[str, Any] | None = None
    prompt_ids: list[int] | None = None
    completion_ids: list[int] | None = None
    logprobs: list[float] | None = None

    @property
    def traced(self) -> bool:
        """Whether the step has its token trace."""
        return None not in (self.prompt_ids, self.completion_ids, self.logprobs)


@dataclass
class Trajectory:
    """One episode for training (see the module's documentation).

    Attributes:
        env_id: the env it was played in.
        task_id: the task's id.
        seed: the episode's reset seed.
        steps: its steps, in order (none when the agent failed before its first action).
        return_: the sum of the step rewards (``"return"`` in :meth:`to_dict`).
        reward: the final reward, as the evaluation records it.
        success: the episode's ``success`` metric.
        error_category: the evaluation's error category (``None``: solved without error).
        metrics: the family's metrics of the episode.
        terminated: whether the episode ended by itself.
        truncated: whether the step budget ended it.
    """

    env_id: str
    task_id: Any
    seed: int
    steps: list[StepSample] = field(default_factory=list)
    return_: float = 0.0
    reward: float = 0.0
    success: bool = False
    error_category: str | None = None
    metrics: dict[str, Any] = field(default_factory=dict)
    terminated: bool = False
    truncated: bool = False

    @classmethod
    def from_record(cls, record: EpisodeRecord, env_id: str, seed: int) -> Trajectory:
        """The trajectory of an evaluation record (its turns become the steps)."""
        steps = [
            StepSample(
                turn.get("prompt"),
                turn.get("generation") or "",
                turn["action"],
                float(turn["reward"]),
                turn["observation"],
                turn.get("error"),
                *(turn.get(key) for key in TRACE_KEYS),
            )
            for turn in record.turns
        ]
        metrics = dict(record.metrics or {})
        return cls(
            env_id=env_id,
            task_id=record.task_id,
            seed=seed,
            steps=steps,
            return_=float(record.return_),
            reward=float(record.reward),
            success=bool(metrics.get("success")),
            error_category=record.error_category,
            metrics=metrics,
            terminated=record.terminated,
            truncated=record.truncated,
        )

    def returns_to_go(self, gamma: float = 1.0) -> list[float]:
        """Per step ``t``, the discounted return from it: ``sum(gamma**(k-t) * reward[k])``.

        >>> steps = [StepSample("p", "c", "a", r, "o") for r in (0.0, 0.0, 1.0)]
        >>> Trajectory("env", "t", 0, steps).returns_to_go(0.5)
        [0.25, 0.5, 1.0]
        """
        out: list[float] = []
        running = 0.0
        for step in reversed(self.steps):
            running = step.reward + gamma * running
            out.append(running)
        return out[::-1]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``return_`` as ``"return"``; the steps as dicts)."""
        data = asdict(self)
        data["return"] = data.pop("return_")
        return data


def rollout_agent(env: gym.Env[Any, Any], backend: LLMBackend, **options: Any) -> LLMAgent:
    """The LLM agent ``toolgym eval`` builds for ``env``: the family's strategy and shots.

    Args:
        env: the env (or a sub-env of a vector env).
        backend: the model.
        **options: :class:`~toolgym.agents.llm_agent.LLMAgent`'s keyword arguments; ``strategy``
            and ``shots`` default to the family's (``PromptDefaults``).
    """
    prompting = prompt_defaults(task_env(env).family.name)
    options.setdefault("strategy", prompting.strategy)
    options.setdefault("shots", prompting.shots)
    return LLMAgent.for_env(env, backend, **options)


def collect_rollouts(
    env_id: str,
    agent: LLMBackend | AgentRecipe,
    task_ids: Sequence[Any] | None = None,
    n: int | None = None,
    *,
    split: str = "train",
    seed: int = 0,
    group_size: int = 1,
    num_envs: int = 4,
    mode: str = "sync",
    env_kwargs: Mapping[str, Any] | None = None,
    agent_kwargs: Mapping[str, Any] | None = None,
    agent_factory: AgentFactory | None = None,
    workers: int = 2,
    ray_address: str | None = None,
) -> list[Trajectory]:
    """Play each task ``group_size`` times; one trajectory per episode, in task order.

    Args:
        env_id: a registered env id.
        agent: the model (an :class:`~toolgym.agents.backends.base.LLMBackend`, shared by all
            the sub-envs' agents), or an :class:`~toolgym.evaluation.ray_models.AgentRecipe`
            (needed for ``mode="ray"``; locally its backend is built once and closed at the end).
        task_ids: the tasks (default: the first ``n`` of a stored split, or for ``train`` the
            ids ``train-<seed * 2**32 + i>``, ``i < n``, those of
            :func:`~toolgym.training.rl_data.rl_examples`).
        n: how many tasks when ``task_ids`` is not given (default: the whole stored split).
        split: ``"train"`` (generated tasks), ``"test"`` or ``"demo"``.
        seed: the evaluation seed (see the module's documentation).
        group_size: episodes per task (a GRPO group), one after the other in the result.
        num_envs: episodes in flight (sub-envs; with Ray, episodes a worker plays in lockstep).
        mode: ``"sync"``, ``"async"`` or ``"ray"`` (:data:`MODES`).
        env_kwargs: more ``gym.make`` arguments (``world_seed``, ``task_file``, ...); an
            ``agent_kwargs`` strategy other than ``single`` plays ``action_mode="call"``
            unless told otherwise (a recipe's or factory's strategy is not seen: set it here).
        agent_kwargs: options of :func:`rollout_agent` (``max_new_tokens``, ``strategy``, ...).
        agent_factory: builds each agent instead of :func:`rollout_agent`.
        workers: Ray workers (``mode="ray"``).
        ray_address: a Ray cluster to join (default: a local instance).

    Raises:
        UserInputError: (a ``ValueError``) an unknown env id, mode or task; bad counts; ``n``
            and ``task_ids`` both given; ``mode="ray"`` without an ``AgentRecipe``; agent
            options beside a recipe; a DFSDT strategy.
        DependencyNotInstalled: ``mode="ray"`` without Ray.
        InfrastructureError: the model backend failed.
    """
    options = dict(agent_kwargs or {})
    custom = bool(options) or agent_factory is not None
    _check_arguments(env_id, agent, custom, n, task_ids, mode, group_size, num_envs)
    strategy = str(options.get("strategy", prompt_defaults(family_of(env_id).name).strategy))
    kwargs = _env_kwargs(split, env_kwargs, strategy)
    plan = [t for t in _tasks(env_id, kwargs, task_ids, n, seed) for _ in range(group_size)]
    if not plan:
        return []
    if mode == "ray":
        from toolgym.evaluation.distributed import play_on_ray

        assert isinstance(agent, AgentRecipe), "mode='ray' takes an AgentRecipe (_check_arguments)"
        played: dict[int, EpisodeRecord] = {}
        todo = [(i, t, s) for i, (t, s) in enumerate(plan)]
        play_on_ray(
            env_id,
            agent,
            todo,
            env_kwargs=kwargs,
            strategy=strategy,
            seed=seed,
            workers=workers,
            address=ray_address,
            batch_size=num_envs,
            on_record=played.__setitem__,
        )
        records = [played[i] for i in range(len(plan))]
    elif isinstance(agent, AgentRecipe):
        backend = agent.backend_factory()
        try:
            records = _play_vector(
                env_id, backend, agent.agent_factory, plan, kwargs, mode, num_envs
            )
        finally:
            backend.close()
    else:
        factory = agent_factory or functools.partial(rollout_agent, **options)
        records = _play_vector(env_id, agent, factory, plan, kwargs, mode, num_envs)
    return [Trajectory.from_record(r, env_id, s) for r, (_, s) in zip(records, plan, strict=True)]


def _check_arguments(
    env_id: str,
    agent: Any,
    custom: bool,
    n: int | None,
    task_ids: Sequence[Any] | None,
    mode: str,
    group_size: int,
    num_envs: int,
) -> None:
    """Raise ``UserInputError`` for arguments :func:`collect_rollouts` cannot play."""
    known = registered_env_ids()
    if env_id not in known:
        raise UserInputError(f"unknown env id {env_id!r}; known: {', '.join(known)}")
    if mode not in MODES:
        raise UserInputError(f"mode is one of {', '.join(MODES)}; got {mode!r}")
    recipe = isinstance(agent, AgentRecipe)
    if not (recipe or isinstance(agent, LLMBackend)):
        raise UserInputError(
            "agent is an LLMBackend (HFBackend, OpenAIBackend, ...) or an AgentRecipe; got "
            f"{type(agent).__name__}"
        )
    if mode == "ray" and not recipe:
        raise UserInputError(
            "mode='ray' builds the agents on the workers: give an AgentRecipe (a backend "
            f"factory and an agent factory), not a loaded {type(agent).__name__}"
        )
    if recipe and custom:
        raise UserInputError(
            "an AgentRecipe builds its own agents: give agent_kwargs or agent_factory with a "
            "backend, not with a recipe"
        )
    if mode == "ray":
        require_ray()
    for name, value in (("group_size", group_size), ("num_envs", num_envs)):
        if not isinstance(value, int) or value < 1:
            raise UserInputError(f"{name} is a whole number >= 1; got {value!r}")
    if n is not None and (not isinstance(n, int) or n < 1):
        raise UserInputError(f"n is a whole number >= 1 (or None); got {n!r}")
    if isinstance(task_ids, str):
        raise UserInputError(f"task_ids is a list of task ids; got the string {task_ids!r}")
    if n is not None and task_ids is not None:
        raise UserInputError(f"give task_ids or n, not both (got n={n} and {len(task_ids)} ids)")


def _env_kwargs(split: str, env_kwargs: Mapping[str, Any] | None, strategy: str) -> dict[str, Any]:
    """``gym.make``'s arguments: the split (unless a task file), one call per step for ReAct."""
    if strategy == "dfsdt":
        raise UserInputError(
            "rollouts play one action per turn; got strategy 'dfsdt' (use 'single' or 'react')"
        )
    kwargs = dict(env_kwargs or {})
    if "split" in kwargs:
        raise UserInputError(f"name the split with split=, not in env_kwargs (got {kwargs})")
    if "task_file" not in kwargs:
        kwargs["split"] = split
    if strategy != "single":
        kwargs.setdefault("action_mode", "call")
    return kwargs


def _tasks(
    env_id: str, kwargs: dict[str, Any], task_ids: Sequence[Any] | None, n: int | None, seed: int
) -> list[tuple[Any, int]]:
    """Each task to play (as the env knows it) with its reset seed, in order."""
    try:
        env = gym.make(env_id, **kwargs)
    except ValueError as e:  # a bad split, world seed or option of gym.make
        raise UserInputError(str(e)) from e
    try:
        base = task_env(env)
        assert isinstance(base, ToolEnv), f"expected a ToolEnv; got {type(base).__name__}"
        known, split = list(base.task_ids), base.split
    finally:
        env.close()
    if task_ids is None:
        if not known and n is None:
            raise UserInputError(f"the {split} split of {env_id} is unlimited: pass n or task_ids")
        count = n if n is not None else len(known)
        ids = known[:count] if known else [f"train-{seed * TRAIN_STRIDE + i}" for i in range(count)]
    else:
        ids = list(task_ids)
    positions = {str(t): (t, i) for i, t in enumerate(known)}
    return [task_seed(env_id, split, positions, t, seed) for t in ids]


def _play_vector(
    env_id: str,
    backend: LLMBackend,
    factory: AgentFactory,
    plan: list[tuple[Any, int]],
    kwargs: dict[str, Any],
    mode: str,
    num_envs: int,
) -> list[EpisodeRecord]:
    """Play ``plan`` on a vector env, the agents sharing one backend (batched generation)."""
    vec = vector_env(env_id, min(num_envs, len(plan)), mode=mode, **kwargs)
    try:
        agents = [factory(env, backend) for env in sub_envs(vec)]
        return run_vector(vec, agents, [t for t, _ in plan], [s for _, s in plan])
    finally:
        vec.close()


def group_advantages(
    trajectories: Sequence[Trajectory], *, eps: float = 1e-6, scale: bool = True
) -> list[float]:
    """GRPO advantages: per group, ``(return - mean) / (std + eps)``, one per trajectory.

    A group is the trajectories of one task (same env, task id and seed); ``std`` is the
    group's population standard deviation. A group of one, or of equal returns, gets 0.

    Args:
        trajectories: the trajectories, in any order.
        eps: added to the standard deviation.
        scale: divide by ``std + eps`` (``False``: only subtract the group mean).

    >>> ts = [Trajectory("e", "t", 0, return_=r) for r in (1.0, 0.0)]
    >>> [round(a, 3) for a in group_advantages(ts)]
    [1.0, -1.0]
    """
    groups: dict[tuple[str, str, int], list[int]] = {}
    for i, t in enumerate(trajectories):
        groups.setdefault((t.env_id, str(t.task_id), t.seed), []).append(i)
    out = [0.0] * len(trajectories)
    for members in groups.values():
        values = [trajectories[i].return_ for i in members]
        mean = sum(values) / len(values)
        std = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
        spread = std + eps if scale else 1.0
        for i, value in zip(members, values, strict=True):
            out[i] = (value - mean) / spread if spread else 0.0
    return out


def to_policy_gradient_samples(
    trajectories: Sequence[Trajectory],
    *,
    gamma: float = 1.0,
    advantages: Sequence[float] | None = None,
) -> list[dict[str, Any]]:
    """One dict per step of every trajectory, for a policy-gradient trainer.

    Each has ``prompt_ids``, ``completion_ids``, ``logprobs`` (the step's token trace),
    ``reward`` (the step's), ``return_to_go`` (:meth:`Trajectory.returns_to_go` with
    ``gamma``), ``advantage`` (its trajectory's: :func:`group_advantages` unless given),
    ``env_id``, ``task_id`` and ``step`` (its index in the episode). A trajectory without steps
    gives none.

    Raises:
        ValueError: a step without a token trace (play with ``HFBackend(trace_tokens=True)``),
            a trace whose ``logprobs`` and ``completion_ids`` differ in length, or
            ``advantages`` not one per trajectory.
    """
    if advantages is None:
        advantages = group_advantages(trajectories)
    if len(advantages) != len(trajectories):
        raise ValueError(
            f"expected one advantage per trajectory ({len(trajectories)}); got {len(advantages)}"
        )
    samples: list[dict[str, Any]] = []
    for trajectory, advantage in zip(trajectories, advantages, strict=True):
        to_go = trajectory.returns_to_go(gamma)
        for k, step in enumerate(trajectory.steps):
            where = f"step {k} of {trajectory.env_id} task {trajectory.task_id!r}"
            if not step.traced:
                raise ValueError(
                    f"{where} has no token trace: expected prompt_ids, completion_ids and "
                    "logprobs (collect with HFBackend(trace_tokens=True)); got None"
                )
            assert step.completion_ids is not None and step.logprobs is not None
            if len(step.completion_ids) != len(step.logprobs):
                raise ValueError(
                    f"{where}: expected one logprob per completion token "
                    f"({len(step.completion_ids)}); got {len(step.logprobs)}"
                )
            samples.append(
                {
                    "prompt_ids": step.prompt_ids,
                    "completion_ids": step.completion_ids,
                    "logprobs": step.logprobs,
                    "reward": step.reward,
                    "return_to_go": to_go[k],
                    "advantage": float(advantage),
                    "env_id": trajectory.env_id,
                    "task_id": trajectory.task_id,
                    "step": k,
                }
            )
    return samples
