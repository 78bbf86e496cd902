"""The generic tool environment: the episode protocol every tool family shares.

``ToolEnv`` owns what does not depend on how a tool is called: the task split (or a task file),
choosing the task at reset, the step counter, ending the episode, rewards from metrics, render,
and saving/restoring state. A family kind subclasses it and implements the hooks:
:class:`~toolgym.envs.program_env.ProgramEnv` for API-call programs (Home Search, Trip Booking),
:class:`~toolgym.envs.rest_env.RestEnv` for REST services called with curl (OpenWeather, Cat API).
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from toolgym.benchmarks.suite import TRAIN, TaskSuite
from toolgym.benchmarks.tasks import Task, TaskId, TaskSet, load_task_file
from toolgym.envs.spaces import TextSpace
from toolgym.errors import ToolgymError

ACTION_MODES = ("program", "call")
REWARD_TYPES = ("f1", "success")
MAX_OBSERVATION_CHARS = 65_536
MAX_ACTION_CHARS = 16_384


class ToolEnv(gym.Env[str, str]):
    """Base of every toolgym environment (see the family classes for the documentation).

    Args:
        split: ``"test"``, ``"demo"`` or ``"train"`` (unlimited generated tasks).
        action_mode: ``"program"`` (the paper's single-step protocol) or ``"call"``.
        task_file: an original-format JSONL task file; replaces the split.
        reward_type: ``"f1"`` or ``"success"`` (1 only for a perfect answer).
        render_mode: ``None`` or ``"ansi"``.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 4}
    suite: ClassVar[TaskSuite]

    def __init__(
        self,
        split: str = "test",
        action_mode: str = "program",
        task_file: str | Path | None = None,
        reward_type: str = "f1",
        render_mode: str | None = None,
    ) -> None:
        check_choice("action_mode", action_mode, ACTION_MODES)
        check_choice("reward_type", reward_type, REWARD_TYPES)
        check_choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        self.action_mode = action_mode
        self.reward_type = reward_type
        self.render_mode = render_mode
        self.task_file = None if task_file is None else str(task_file)
        if task_file is not None:
            self.split = "file"
            self._tasks: TaskSet | None = load_task_file(task_file)
        else:
            check_choice("split", split, self.suite.all_splits)
            self.split = split
            self._tasks = None if split == TRAIN else self.suite.load(split)
        self.observation_space = TextSpace(MAX_OBSERVATION_CHARS)
        self.action_space = TextSpace(MAX_ACTION_CHARS)
        self._task: Task | None = None
        self._steps = 0
        self._done = False
        self._last_obs = ""

    def _validate_tasks(self) -> None:
        """Run every gold once (called by subclasses after their set-up): bad labels fail early."""
        if self._tasks is not None:
            for task in self._tasks.values():
                self._check_gold(task)

    # -- hooks -----------------------------------------------------------------------------------
    @abstractmethod
    def _check_gold(self, task: Task) -> None:
        """Raise ``TaskFileError`` if the task's gold does not execute."""

    @abstractmethod
    def _start_episode(self, task: Task) -> None:
        """Set up the tool state of a new episode on ``task``."""

    @abstractmethod
    def _step_program(self, action: str) -> tuple[str, float, bool, dict[str, Any]]:
        """Run a whole-program action; returns (obs, reward, terminated, info)."""

    @abstractmethod
    def _step_call(self, action: str) -> tuple[str, float, bool, dict[str, Any]]:
        """Run a one-call action; returns (obs, reward, terminated, info)."""

    @abstractmethod
    def oracle_actions(self) -> list[str]:
        """The gold actions of the current task in the current action mode."""

    @abstractmethod
    def score(self) -> dict[str, Any]:
        """Metrics of the current state as if the episode ended now (e.g. after truncation)."""

    @abstractmethod
    def _reset_info(self) -> dict[str, Any]:
        """Family-specific entries of the reset ``info`` (``api_docs``, ``tools``)."""

    @abstractmethod
    def _episode_state(self) -> dict[str, Any]:
        """A deep copy of the family-specific episode state."""

    @abstractmethod
    def _restore_episode(self, state: Mapping[str, Any]) -> None:
        """Restore what :meth:`_episode_state` returned."""

    # -- tasks -----------------------------------------------------------------------------------
    @property
    def task_ids(self) -> tuple[TaskId, ...]:
        """Ids of the env's tasks, in order (empty for the unlimited ``train`` split)."""
        return () if self._tasks is None else self._tasks.ids

    @property
    def task(self) -> Task | None:
        """The current task (``None`` before the first reset)."""
        return self._task

    def get_task(self, task_id: TaskId) -> Task:
        """The task with id ``task_id`` in this env's split or task file."""
        if self._tasks is None:
            return self.suite.train(task_id)
        return self._tasks[task_id]

    # -- Gymnasium API ---------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Start an episode on a task: ``options["task_id"]``, ``options["task"]`` or a random one."""
        super().reset(seed=seed)
        options = options or {}
        unknown = set(options) - {"task_id", "task"}
        if unknown:
            raise ToolgymError(
                f"reset options may contain 'task_id' or 'task'; got {sorted(unknown)}"
            )
        if "task" in options:
            record = options["task"]
            task = record if isinstance(record, Task) else Task.from_record(record, "inline")
        elif "task_id" in options:
            task = self.get_task(options["task_id"])
        elif self._tasks is None:
            task = self.suite.sample_train_task(self.np_random)
        else:
            task = self._tasks[self._tasks.ids[int(self.np_random.integers(len(self._tasks)))]]
        self._start_episode(task)
        self._task = task
        self._steps = 0
        self._done = False
        self._last_obs = task.instruction
        info = {
            "task_id": task.task_id,
            "instruction": task.instruction,
            **self._reset_info(),
            "action_mode": self.action_mode,
            "split": self.split,
        }
        return task.instruction, info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Run the action and score it when the episode ends."""
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self._done:
            raise gym.error.ResetNeeded("the episode has ended; call reset() before step()")
        self._steps += 1
        if self.action_mode == "program":
            obs, reward, terminated, info = self._step_program(action)
        else:
            obs, reward, terminated, info = self._step_call(action)
        self._done = terminated
        if len(obs) > MAX_OBSERVATION_CHARS:
            obs = obs[: MAX_OBSERVATION_CHARS - 20] + "\n...[truncated]"
        self._last_obs = obs
        info["step"] = self._steps
        return obs, reward, terminated, False, info

    def reward_of(self, metrics: Mapping[str, Any]) -> float:
        """The reward for final metrics under ``reward_type``."""
        return float(metrics["f1"]) if self.reward_type == "f1" else float(metrics["success"])

    def render(self) -> str | None:
        """``ansi``: the task and the last observation as text."""
        if self.render_mode != "ansi":
            return None
        task = (
            "" if self._task is None else f"Task {self._task.task_id}: {self._task.instruction}\n"
        )
        return f"{task}Step {self._steps}\n{self._last_obs}\n"

    # -- state -----------------------------------------------------------------------------------
    def get_state(self) -> dict[str, Any]:
        """Everything needed to continue this episode later with :meth:`set_state`."""
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before get_state()")
        return {
            "task": self._task,
            "episode": self._episode_state(),
            "steps": self._steps,
            "done": self._done,
            "last_obs": self._last_obs,
            "np_random": copy.deepcopy(self.np_random.bit_generator.state),
        }

    def set_state(self, state: Mapping[str, Any]) -> None:
        """Restore a state returned by :meth:`get_state` (of an env of the same id and kwargs)."""
        self._task = state["task"]
        self._restore_episode(state["episode"])
        self._steps = state["steps"]
        self._done = state["done"]
        self._last_obs = state["last_obs"]
        rng = np.random.Generator(np.random.PCG64())
        rng.bit_generator.state = copy.deepcopy(state["np_random"])
        self._np_random = rng


def check_choice(name: str, value: Any, choices: tuple[Any, ...]) -> None:
    """Raise ``ValueError`` naming the allowed values if ``value`` is not one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
