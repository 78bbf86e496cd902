"""Rewards from execution: a completion runs in its task's env and scores as the evaluation does.

:class:`ExecutionReward` turns single-step envs (one generation per task, ``action_mode
"program"``) into a reward function for RL trainers, with the signature of TRL's
``GRPOTrainer`` reward functions: ``reward(prompts, completions, **columns) -> list[float]``,
where ``columns`` are the dataset's other columns as lists (``task_id``, and ``env_id`` when the
dataset mixes envs) and the trainer's own keys (``completion_ids``, ``trainer_state``, ...),
which are ignored.

Each completion is scored the way :func:`~toolgym.evaluation.runner.evaluate` scores an
:class:`~toolgym.agents.llm_agent.LLMAgent` whose model wrote that text: the agent's stop
sequences cut it (as a backend stops the generation there), ``LLMAgent.parse`` extracts the
action (the env's action language, hints and extraction rule), and it is played as
:func:`~toolgym.evaluation.episodes.run_episode` plays an episode, in a fresh episode of the
task reset with the seed the evaluation gives that task. The default shaping, ``"reward"``, is the
reward the evaluation records. An unparsable, oversized or forbidden action is an agent's
mistake, scored as the evaluation scores it (never an exception); a task id the env does not
have is the caller's mistake, and raises.

The gold of a task never leaves its env: the env runs it inside ``step``, and what is kept of
each completion (:attr:`ExecutionReward.last_batch`) is its action, its reward, its error
category and its metrics.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

from toolgym.agents.backends.base import Generation, apply_stops
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.base import Agent
from toolgym.agents.llm_agent import LLMAgent
from toolgym.benchmarks.suite import TRAIN, TRAIN_STRIDE
from toolgym.benchmarks.tasks import Task
from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.envs.tool_env import ToolEnv
from toolgym.errors import UserInputError
from toolgym.evaluation.episodes import run_episode
from toolgym.tools.errors import AGENT_ERROR
from toolgym.tools.language import EXTRACTIONS
from toolgym.training.rl_data import check_single_step, rl_env_ids

SHAPINGS: tuple[str, ...] = ("reward", "success", "f1", "executable_bonus")
"""How a completion's episode becomes its reward (see :class:`ExecutionReward`)."""

EXECUTABLE_BONUS = 0.1
"""What ``shaping="executable_bonus"`` adds to the env's reward when the action ran."""

TASK_CACHE = 256
"""How many generated ``train`` tasks each env keeps for the completions still to come."""

_TRAIN_ID = re.compile(r"^train-(\d+)$")
_SHOWN_IDS = 5


@dataclass(frozen=True)
class RewardRecord:
    """What one completion did (no gold: only what the env reported about the attempt).

    Attributes:
        env_id: the env it ran in.
        task_id: the task's id.
        action: the action extracted from the completion (``None`` when extraction failed).
        reward: the shaped reward returned to the trainer.
        env_reward: the env's reward, as the evaluation records it.
        error_category: the evaluation's error category (``non_executable``, ``wrong_api``,
            ``agent_error``, ...), or ``None`` when the task was solved without error.
        metrics: the family's metrics of the episode (``info["metrics"]``).
    """

    env_id: str
    task_id: str
    action: str | None
    reward: float
    env_reward: float
    error_category: str | None
    metrics: dict[str, Any] = field(default_factory=dict)

    @property
    def executable(self) -> bool:
        """Whether the action ran (the ``executable`` metric; an agent error never ran)."""
        return _ran(self.metrics, self.error_category)


def completion_text(completion: Any) -> str:
    """The text of a completion: a string, or chat messages (TRL's conversational format).

    Of messages, the contents of the assistant's (or of those without a role) are joined;
    a content given as parts keeps its ``text`` parts.

    >>> completion_text([{"role": "assistant", "content": "API.search()"}])
    'API.search()'

    Raises:
        TypeError: neither a string nor a list of messages.
    """
    if isinstance(completion, str):
        return completion
    messages = [completion] if isinstance(completion, Mapping) else completion
    if not isinstance(messages, Sequence) or not all(isinstance(m, Mapping) for m in messages):
        raise TypeError(
            "a completion is a string or a list of chat messages "
            f'[{{"role": "assistant", "content": ...}}]; got {type(completion).__name__}'
        )
    texts = []
    for message in messages:
        if message.get("role", "assistant") != "assistant":
            continue
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        elif isinstance(content, Sequence):  # content parts
            texts += [p.get("text", "") for p in content if isinstance(p, Mapping)]
    return "".join(texts)


def partial_credit_metric(env_id: str) -> str | None:
    """The F1-like metric ``shaping="f1"`` reads for an env, or ``None`` (then: success).

    The family's reward metric when it is an F1 (its key ends in ``f1``), else its metric
    ``f1``, else the first metric it declares whose key ends in ``f1``.
    """
    spec = family_of(env_id)
    keys = [m.key for m in spec.metrics]
    if spec.reward in keys and spec.reward.endswith("f1"):
        return spec.reward
    if "f1" in keys:
        return "f1"
    return next((k for k in keys if k.endswith("f1")), None)


def task_seed(
    env_id: str, split: str, ids: Mapping[str, tuple[Any, int]], task_id: Any, seed: int
) -> tuple[Any, int]:
    """A task id as the env knows it, and the seed the evaluation resets its episode with.

    A stored split's (or task file's) ``k``-th task gets ``seed + k``; ``train-<k>`` gets
    ``seed + k % 2**32``, as :class:`ExecutionReward` seeds its episodes.

    Args:
        env_id: the env's id (for messages).
        split: the env's split (``"file"`` for a task file).
        ids: ``str(task id) -> (task id, position)`` of the env's tasks (empty for ``train``).
        task_id: the task.
        seed: the evaluation seed.

    Raises:
        UserInputError: the env has no such task.
    """
    key = str(task_id)
    if split == TRAIN:
        match = _TRAIN_ID.match(key)
        if match is None:
            raise UserInputError(
                f"{env_id}'s train split has the task ids 'train-<k>', k a whole "
                f"number >= 0 (rl_examples writes them); got {task_id!r}"
            )
        return key, seed + int(match.group(1)) % TRAIN_STRIDE
    found = ids.get(key)
    if found is None:
        known = list(ids)
        shown = ", ".join(known[:_SHOWN_IDS]) + (
            f", ..., {known[-1]}" if len(known) > _SHOWN_IDS else ""
        )
        raise UserInputError(
            f"{env_id}'s {split} split has no task {task_id!r}; its {len(known)} task ids: {shown}"
        )
    task, index = found
    return task, seed + index


def _tool_env(env: gym.Env[Any, Any]) -> ToolEnv:
    """``env`` unwrapped: the :class:`ToolEnv` that ``gym.make`` builds for a toolgym env id."""
    base = task_env(env)
    assert isinstance(base, ToolEnv), f"expected a ToolEnv; got {type(base).__name__}"
    return base


class _CompletionAgent(Agent):
    """An agent whose model wrote one given completion: the eval ``LLMAgent`` parses it."""

    def __init__(self, parser: LLMAgent) -> None:
        self.parser = parser
        self.name = parser.name
        self.text = ""

    def act(self, observation: str, info: dict[str, Any]) -> str:
        return self.act_with_info(observation, info)[0]

    def act_with_info(self, observation: str, info: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        text, _ = apply_stops(self.text, self.parser.stop)  # where a backend stops generating
        generation = Generation(text, "stop")
        action = self.parser.parse(generation, info)
        return action, self.parser.record(None, generation, action)


class _EnvSlot:
    """One env id's env, its parser, and how its task ids map to episode seeds."""

    def __init__(
        self, env_id: str, kwargs: dict[str, Any], extraction: str, seed: int, shaping: str
    ) -> None:
        self.env_id = env_id
        self.env = gym.make(env_id, **kwargs)
        base = _tool_env(self.env)
        try:
            check_single_step(env_id, base.action_mode, base.hints.page_prompts)
        except UserInputError:
            self.env.close()
            raise
        parser = LLMAgent.for_env(
            self.env,
            ScriptedBackend(["unused"]),  # never called: the completion is given
            shots=0,
            strategy="single",
            extraction=extraction,
        )
        self.agent = _CompletionAgent(parser)
        self.split = base.split
        self.seed = seed
        self.shaping = shaping
        self.f1_metric = partial_credit_metric(env_id)
        self.ids = {str(t): (t, i) for i, t in enumerate(base.task_ids)}
        self.tasks: dict[str, Task] = {}

    def task(self, task_id: Any) -> tuple[Any, int]:
        """The task id as the env knows it, and the seed the evaluation resets it with.

        A stored split's (or task file's) ``k``-th task gets ``seed + k`` (the seed of its
        episode in ``evaluate(seed=seed)`` over the whole split); ``train-<k>`` gets
        ``seed + k % 2**32`` (its position in its ``train`` stream).

        Raises:
            UserInputError: the env has no such task.
        """
        return task_seed(self.env_id, self.split, self.ids, task_id, self.seed)

    def options(self, task_id: Any) -> tuple[dict[str, Any], int]:
        """The reset options of the task's episode, and its seed.

        A ``train`` task is generated once and kept (up to :data:`TASK_CACHE` of them), since a
        trainer scores several completions of each prompt; the reset then takes the task itself,
        which plays exactly as its id does.
        """
        task, seed = self.task(task_id)
        if self.split != TRAIN:
            return {"task_id": task}, seed
        cached = self.tasks.pop(task, None)
        if cached is None:
            cached = _tool_env(self.env).get_task(task)
            if len(self.tasks) >= TASK_CACHE:
                self.tasks.pop(next(iter(self.tasks)))
        self.tasks[task] = cached  # the most recent last
        return {"task": cached}, seed

    def score(self, task_id: Any, text: str) -> RewardRecord:
        """Play ``text`` as the agent's generation in a fresh episode of the task."""
        options, seed = self.options(task_id)
        self.agent.text = text
        record = run_episode(self.env, self.agent, seed=seed, options=options)
        metrics = dict(record.metrics or {})
        category = record.error_category
        action = record.action if record.turns else None
        env_reward = float(record.reward)
        shaped = _shape(self.shaping, env_reward, metrics, category, self.f1_metric)
        return RewardRecord(
            self.env_id, str(task_id), action, shaped, env_reward, category, metrics
        )


def _shape(
    shaping: str,
    env_reward: float,
    metrics: Mapping[str, Any],
    category: str | None,
    f1_metric: str | None,
) -> float:
    if shaping == "reward":
        return env_reward
    if shaping == "success" or (shaping == "f1" and f1_metric is None):
        return 1.0 if metrics.get("success") else 0.0
    if shaping == "f1":
        assert f1_metric is not None
        return float(metrics.get(f1_metric) or 0.0)
    return env_reward + (EXECUTABLE_BONUS if _ran(metrics, category) else 0.0)


def _ran(metrics: Mapping[str, Any], category: str | None) -> bool:
    return category != AGENT_ERROR and bool(metrics.get("executable"))


class ExecutionReward:
    """A reward function that runs each completion in its task's env (see the module docs).

    Called as TRL's ``GRPOTrainer`` calls reward functions::

        reward(prompts=[...], completions=[...], task_id=[...], env_id=[...], **trainer_keys)

    Completions are strings, or chat messages ``[{"role": "assistant", "content": ...}]``.
    ``task_id`` is required (one per completion); ``env_id`` is required when the function has
    several envs. Other keywords (``completion_ids``, ``trainer_state``, ``log_extra``, ...) are
    ignored, except ``log_extra`` with ``log_errors``.

    Shapings (:data:`SHAPINGS`):

    * ``"reward"`` (default): the env's reward, exactly as the evaluation records it;
    * ``"success"``: 1.0 when the episode's ``success`` metric is true, else 0.0;
    * ``"f1"``: partial credit, the family's F1-like metric (:func:`partial_credit_metric`;
      :attr:`f1_metrics` says which, per env), or success for a family without one;
    * ``"executable_bonus"``: the env's reward plus :data:`EXECUTABLE_BONUS` when the action ran
      (its ``executable`` metric), right or wrong.

    Determinism: a completion's reward depends only on its text, its task and the settings
    here, not on the rest of its batch or on earlier calls. Each env id has one env, reset
    for every completion (no state crosses completions) with the task's seed: ``seed + k`` for
    the ``k``-th task of a stored split, as ``evaluate(seed=seed)`` seeds it, and ``seed + k %
    2**32`` for ``train-<k>``.

    Args:
        env_ids: one env id or several (single-step envs).
        split: where the task ids come from: ``"train"`` (the ids of
            :func:`~toolgym.training.rl_data.rl_examples`), ``"test"`` or ``"demo"``.
        shaping: one of :data:`SHAPINGS`.
        env_kwargs: extra keyword arguments for ``gym.make`` (``world_seed``, ``reward_type``,
            a family's options, ``task_file``, which replaces the split).
        extraction: ``"strict"`` (the evaluation's default) or ``"lenient"``, as the agent's.
        seed: the evaluation seed the episodes are reset with (see above).
        name: the function's ``__name__``, which trainers log the reward by (default:
            ``execution_<shaping>``).
        log_errors: when the trainer passes a ``log_extra`` callable (TRL does), log each
            completion's error category as the column ``error_category``.

    Raises:
        UserInputError: (a ``ValueError``) an unknown env id, a multi-step env, an unknown
            shaping, extraction or split.
    """

    def __init__(
        self,
        env_ids: str | Sequence[str],
        *,
        split: str = TRAIN,
        shaping: str = "reward",
        env_kwargs: Mapping[str, Any] | None = None,
        extraction: str = "strict",
        seed: int = 0,
        name: str | None = None,
        log_errors: bool = False,
    ) -> None:
        if shaping not in SHAPINGS:
            raise UserInputError(f"shaping is one of {', '.join(SHAPINGS)}; got {shaping!r}")
        if extraction not in EXTRACTIONS:
            raise UserInputError(
                f"extraction is one of {', '.join(EXTRACTIONS)}; got {extraction!r}"
            )
        kwargs = dict(env_kwargs or {})
        if "split" in kwargs:
            raise UserInputError(
                f"name the split with split=, not in env_kwargs (got split={kwargs['split']!r})"
            )
        if "task_file" not in kwargs:
            kwargs["split"] = split
        self.env_ids: list[str] = rl_env_ids(env_ids)
        self.split = split
        self.shaping = shaping
        self.extraction = extraction
        self.seed = seed
        self.env_kwargs = kwargs
        self.log_errors = log_errors
        self.__name__ = name or f"execution_{shaping}"
        self.last_batch: list[RewardRecord] = []
        """What each completion of the last call did, in order."""
        self._slots: dict[str, _EnvSlot] = {}
        self._open()

    def _open(self) -> None:
        try:
            for env_id in self.env_ids:
                self._slots[env_id] = _EnvSlot(
                    env_id, self.env_kwargs, self.extraction, self.seed, self.shaping
                )
        except UserInputError:
            self.close()
            raise
        except ValueError as e:  # a bad split, world seed or option of gym.make
            self.close()
            raise UserInputError(str(e)) from e

    @property
    def f1_metrics(self) -> dict[str, str | None]:
        """Per env id, the metric ``shaping="f1"`` reads (``None``: success instead)."""
        return {env_id: slot.f1_metric for env_id, slot in self._slots.items()}

    def __call__(
        self,
        prompts: Sequence[Any] | None = None,
        completions: Sequence[Any] | None = None,
        **kwargs: Any,
    ) -> list[float]:
        """The rewards of a batch of completions, one float each, in order.

        Args:
            prompts: the prompts (only their count is checked; the task id names the task).
            completions: strings, or lists of chat messages.
            **kwargs: ``task_id`` (a list, one per completion), ``env_id`` (a list, needed with
                several envs), and keys of the trainer's, which are ignored.

        Raises:
            UserInputError: missing or misaligned ``task_id``/``env_id`` lists, an env id this
                function does not have, a task id its env does not have.
            TypeError: a completion that is neither a string nor chat messages.
        """
        if completions is None or isinstance(completions, str):
            got = "none" if completions is None else "one string"
            raise UserInputError(
                f"the reward function needs completions=[...], a list of them; got {got}"
            )
        if not self._slots:
            raise UserInputError("this reward function was closed; make a new ExecutionReward")
        n = len(completions)
        if prompts is not None and len(prompts) != n:
            raise UserInputError(
                f"expected one prompt per completion ({n}); got {len(prompts)} prompts"
            )
        task_ids = self._column(kwargs, "task_id", n)
        env_ids = self._env_column(kwargs.get("env_id"), n)
        texts = [completion_text(c) for c in completions]
        for env_id, task_id in zip(env_ids, task_ids, strict=True):
            self._slots[env_id].task(task_id)  # every id is checked before anything runs
        records = [
            self._slots[env_id].score(task_id, text)
            for env_id, task_id, text in zip(env_ids, task_ids, texts, strict=True)
        ]
        self.last_batch = records
        log_extra = kwargs.get("log_extra")
        if self.log_errors and callable(log_extra):
            log_extra("error_category", [r.error_category or "" for r in records])
        return [r.reward for r in records]

    def score(self, completion: Any, task_id: Any, env_id: str | None = None) -> RewardRecord:
        """One completion's record (as one entry of :attr:`last_batch`; it is not kept)."""
        if not self._slots:
            raise UserInputError("this reward function was closed; make a new ExecutionReward")
        env = self._env_column(None if env_id is None else [env_id], 1)[0]
        return self._slots[env].score(task_id, completion_text(completion))

    @staticmethod
    def _column(kwargs: Mapping[str, Any], key: str, n: int) -> list[Any]:
        values = kwargs.get(key)
        if values is None:
            raise UserInputError(
                f"the reward function needs {key}=[...] (one per completion; a dataset column "
                f"of rl_examples' records); got none among {sorted(kwargs) or 'no keywords'}"
            )
        if isinstance(values, str) or not isinstance(values, Sequence):
            raise UserInputError(
                f"{key} is a list with one value per completion; got {type(values).__name__}"
            )
        if len(values) != n:
            raise UserInputError(
                f"expected one {key} per completion ({n}); got {len(values)} {key} values"
            )
        return list(values)

    def _env_column(self, values: Sequence[Any] | None, n: int) -> list[str]:
        if values is None:
            if len(self.env_ids) > 1:
                raise UserInputError(
                    f"this reward function has several envs ({', '.join(self.env_ids)}): it "
                    "needs env_id=[...], one per completion (a dataset column of rl_examples' "
                    "records); got none"
                )
            return [self.env_ids[0]] * n
        ids = self._column({"env_id": values}, "env_id", n)
        for env_id in dict.fromkeys(ids):
            if env_id not in self._slots:
                raise UserInputError(
                    f"this reward function runs {', '.join(self.env_ids)}; got env id {env_id!r}"
                )
        return [str(i) for i in ids]

    def close(self) -> None:
        """Close the envs (a later call is refused until the object is rebuilt)."""
        for slot in self._slots.values():
            slot.env.close()
        self._slots = {}

    def __getstate__(self) -> dict[str, Any]:
        """The settings; the envs are made again when the object is unpickled."""
        state = dict(self.__dict__)
        state["_slots"] = {}
        state["last_batch"] = []
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._open()

    def __repr__(self) -> str:
        return (
            f"ExecutionReward({self.env_ids!r}, split={self.split!r}, shaping={self.shaping!r}, "
            f"extraction={self.extraction!r}, seed={self.seed})"
        )
