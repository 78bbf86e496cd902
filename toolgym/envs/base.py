"""The generic tool environment: one episode protocol for every API-program tool family.

A family is wired in by a thin subclass that provides a *toolkit* (``toolgym.tools``: the API
object, its docs and schemas, what to score) and a *task suite* (``toolgym.benchmarks``: the task
splits). This module knows nothing about homes or trips.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from toolgym.benchmarks.scoring import GoldOutcome, diagnose, score
from toolgym.benchmarks.suite import TRAIN, TaskSuite
from toolgym.benchmarks.tasks import Task, TaskId, TaskSet, load_task_file
from toolgym.envs.spaces import TextSpace
from toolgym.errors import TaskFileError, ToolgymError
from toolgym.tools.api import Toolkit, ToolSession
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError
from toolgym.tools.json_calls import looks_like_json_call, run_json_call
from toolgym.tools.program import (
    EXTRACTION_MODES,
    MAX_PROGRAM_CHARS,
    extract_program,
    parse_program,
    run_program,
    run_statements,
)

ACTION_MODES = ("program", "call")
REWARD_TYPES = ("f1", "success")
MAX_OBSERVATION_CHARS = 65_536


# Gold outcomes by (toolkit name, program): gold programs are executed once per process.
_GOLD_CACHE: dict[tuple[str, str], GoldOutcome] = {}


class ToolEnv(gym.Env[str, str]):
    """Generic environment for tools driven by API-call programs (see subclasses for the docs).

    A family subclasses it and sets ``toolkit_class`` (its ``toolgym.tools`` toolkit) and ``suite``
    (its ``toolgym.benchmarks`` task suite); everything else is shared.

    Args:
        split: ``"test"``, ``"demo"`` or ``"train"`` (unlimited generated tasks).
        action_mode: ``"program"`` (whole program in one step) or ``"call"`` (one call per step).
        task_file: path of an original-format JSONL task file; replaces the split.
        extraction: ``"strict"`` (the original rule: the action is the program) or ``"lenient"``.
        reward_type: ``"f1"`` (reward = F1 of the criteria) or ``"success"`` (1 if F1 == 1).
        max_results: how many results a search shows in the observation.
        world_seed: seed of the simulated world (listings, inventory).
        render_mode: ``None`` or ``"ansi"``.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 4}
    toolkit_class: ClassVar[type[Toolkit]]
    suite: ClassVar[TaskSuite]

    def __init__(
        self,
        split: str = "test",
        action_mode: str = "program",
        task_file: str | Path | None = None,
        extraction: str = "strict",
        reward_type: str = "f1",
        max_results: int = 5,
        world_seed: int = 0,
        render_mode: str | None = None,
    ) -> None:
        _check_choice("action_mode", action_mode, ACTION_MODES)
        _check_choice("extraction", extraction, EXTRACTION_MODES)
        _check_choice("reward_type", reward_type, REWARD_TYPES)
        _check_choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        self.toolkit = self.toolkit_class(seed=world_seed, max_results=max_results)
        suite = self.suite
        self.action_mode = action_mode
        self.extraction = extraction
        self.reward_type = reward_type
        self.render_mode = render_mode
        self.task_file = None if task_file is None else str(task_file)
        if task_file is not None:
            self.split = "file"
            self._tasks: TaskSet | None = load_task_file(task_file)
        else:
            _check_choice("split", split, suite.all_splits)
            self.split = split
            self._tasks = None if split == TRAIN else suite.load(split)
        if self._tasks is not None:
            for task in self._tasks.values():
                self._gold(task)  # every label must execute: fail at construction, not mid-run
        self.observation_space = TextSpace(MAX_OBSERVATION_CHARS)
        self.action_space = TextSpace(MAX_PROGRAM_CHARS)
        self._terminal_prefixes = tuple(f"{name}(" for name in self.toolkit.terminal_functions)
        self._task: Task | None = None
        self._golds: tuple[GoldOutcome, ...] = ()
        self._session: ToolSession | None = None
        self._steps = 0
        self._done = False
        self._last_obs = ""

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

    def _gold(self, task: Task) -> tuple[GoldOutcome, ...]:
        golds = []
        for program in task.completions:
            key = (self.toolkit.name, program)
            gold = _GOLD_CACHE.get(key)
            if gold is None:
                session = self.toolkit.new_session()
                try:
                    run_program(program, session)
                except ToolCallError as e:
                    raise TaskFileError(
                        f"the gold program of task {task.task_id!r} does not execute: {e}\n{program}"
                    ) from None
                criteria = self.toolkit.outcome(session)
                if not criteria:
                    raise TaskFileError(f"the gold program of task {task.task_id!r} sets nothing")
                gold = GoldOutcome(criteria, tuple(c.function.qualname for c in session.calls))
                _GOLD_CACHE[key] = gold
            golds.append(gold)
        return tuple(golds)

    def oracle_actions(self) -> list[str]:
        """The gold actions of the current task in the current action mode (for oracle agents)."""
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before oracle_actions()")
        program = self._task.completions[0]
        if self.action_mode == "program":
            return [program]
        return [line for line in program.splitlines() if line.strip()]

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
        self._golds = self._gold(task)
        self._task = task
        self._session = self.toolkit.new_session()
        self._steps = 0
        self._done = False
        self._last_obs = task.instruction
        info = {
            "task_id": task.task_id,
            "instruction": task.instruction,
            "api_docs": self.toolkit.api_docs,
            "tools": list(self.toolkit.tools),
            "action_mode": self.action_mode,
            "split": self.split,
        }
        return task.instruction, info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Run the action (a program, or one call) and score it when the episode ends."""
        if self._session is None or self._task is None:
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

    def _step_program(self, action: str) -> tuple[str, float, bool, dict[str, Any]]:
        session = self._session
        assert session is not None
        source = action
        if self.extraction == "lenient" and isinstance(action, str):
            source = extract_program(action, self._terminal_prefixes)
        error: ToolCallError | None = None
        try:
            run_program(source, session)
        except ToolCallError as e:
            error = e
        info = self._finish(session, error)
        if error is not None:
            obs = f"Error ({error.category}): {error}"
        else:
            obs = f"The program ran ({len(session.calls)} calls).\n{self._result_text(session)}"
        return obs, self._reward(info["metrics"]), True, info

    def _step_call(self, action: str) -> tuple[str, float, bool, dict[str, Any]]:
        session = self._session
        assert session is not None
        before = session.get_state()
        n_calls = len(session.calls)
        try:
            if isinstance(action, str) and looks_like_json_call(action):
                run_json_call(action, session)
            else:
                statements = parse_program(action, session)
                if len(statements) != 1:
                    raise ToolCallError(
                        NON_EXECUTABLE,
                        f"call mode takes exactly one call per step; got {len(statements)} statements",
                    )
                run_statements(statements, session)
        except ToolCallError as e:
            session.set_state(before)  # a failed call has no effect
            info: dict[str, Any] = {"error": e.to_info(), "warnings": [], "calls": []}
            return f"Error ({e.category}): {e}", 0.0, False, info
        new_calls = session.calls[n_calls:]
        terminal = any(c.function.qualname in self.toolkit.terminal_functions for c in new_calls)
        if terminal:
            info = self._finish(session, None)
            return self._result_text(session), self._reward(info["metrics"]), True, info
        info = {
            "error": None,
            "warnings": session.warnings[len(before["warnings"]) :],
            "calls": [c.to_dict() for c in new_calls],
        }
        if new_calls:
            last = new_calls[-1]
            shown = ", ".join(f"{k}={v!r}" for k, v in last.arguments.items())
            obs = (
                f"OK: {last.function.qualname}({shown}). Criteria: {self.toolkit.outcome(session)}"
            )
        else:
            obs = "OK (no call made)."
        return obs, 0.0, False, info

    def _finish(self, session: ToolSession, error: ToolCallError | None) -> dict[str, Any]:
        prediction = None if error is not None else self.toolkit.outcome(session)
        metrics = score(prediction, self._golds)
        if error is not None:
            error_info: dict[str, str] | None = error.to_info()
        else:
            assert prediction is not None
            gold = self._golds[metrics["closest_label"]]
            names = [c.function.qualname for c in session.calls]
            error_info = None if metrics["success"] else diagnose(prediction, names, gold)
        return {
            "error": error_info,
            "metrics": metrics,
            "prediction": prediction,
            "warnings": list(session.warnings),
            "calls": [c.to_dict() for c in session.calls],
        }

    def score(self) -> dict[str, Any]:
        """Metrics of the current state as if the episode ended now (e.g. after truncation)."""
        if self._session is None:
            raise gym.error.ResetNeeded("call reset() before score()")
        return score(self.toolkit.outcome(self._session) or None, self._golds)

    def _reward(self, metrics: Mapping[str, Any]) -> float:
        return float(metrics["f1"]) if self.reward_type == "f1" else float(metrics["success"])

    @staticmethod
    def _result_text(session: ToolSession) -> str:
        result = getattr(session.api, "last_search", None)
        if result is None:
            return (
                "API.search() was not called, so nothing was searched. "
                f"Criteria: {getattr(session.api, 'search_criteria', {})}"
            )
        return result.to_text()

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
        if self._session is None:
            raise gym.error.ResetNeeded("call reset() before get_state()")
        return {
            "task": self._task,
            "golds": self._golds,
            "session": self._session.get_state(),
            "steps": self._steps,
            "done": self._done,
            "last_obs": self._last_obs,
            "np_random": copy.deepcopy(self.np_random.bit_generator.state),
        }

    def set_state(self, state: Mapping[str, Any]) -> None:
        """Restore a state returned by :meth:`get_state` (of an env with the same toolkit)."""
        if self._session is None:
            self._session = self.toolkit.new_session()
        self._task = state["task"]
        self._golds = state["golds"]
        self._session.set_state(state["session"])
        self._steps = state["steps"]
        self._done = state["done"]
        self._last_obs = state["last_obs"]
        rng = np.random.Generator(np.random.PCG64())
        rng.bit_generator.state = copy.deepcopy(state["np_random"])
        self._np_random = rng


def _check_choice(name: str, value: Any, choices: tuple[Any, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
