"""The one environment class: a family's parts assembled into the Gymnasium contract.

``ToolEnv`` knows no family. A family's declaration (:class:`~toolgym.envs.spec.FamilySpec`)
names its toolkit (tools, action language, backends) and its task suite (tasks and checkers); the
env combines them with a protocol:

* ``action_mode="program"``: single-step, the paper's protocol; the action runs whole and the
  episode ends;
* ``action_mode="call"``: multi-step; one call per step until the episode is submitted, by a
  terminal call (``API.search()``) or the language's finish word (``finish``).

Every episode starts the agent's backend from the world's state, and the gold of the task runs on
a second backend from the same state; the task's checker scores the agent's attempt against it.
Rewards are computed on these copies, never by replaying actions through the live episode. Agent
mistakes come back as observations and ``info["error"]``; only programmer mistakes raise.

Each family gets a subclass generated from its spec (``HomeSearchEnv``, see
:func:`toolgym.envs.env_class`), which carries the family's documentation.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from toolgym.benchmarks.score import Score
from toolgym.benchmarks.suite import TRAIN, TaskSuite
from toolgym.benchmarks.tasks import Task, TaskId, TaskIssue, TaskSet
from toolgym.envs.bounds import MAX_OBSERVATION_CHARS, bound_info, bound_text
from toolgym.envs.gold_cache import gold_attempts
from toolgym.envs.spaces import InfoDict, TextSpace, printable
from toolgym.envs.spec import FamilySpec, load_ref
from toolgym.envs.task_file_check import check_task_file, describe_error
from toolgym.errors import DependencyNotInstalled, ToolgymError, UserInputError
from toolgym.tools.backend import Attempt
from toolgym.tools.budgets import DEFAULT_BUDGETS, RESOURCE_LIMIT
from toolgym.tools.errors import INVALID_TASK, RUNTIME_ERROR, ToolCallError
from toolgym.tools.faults import FaultPlan
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.language import AgentHints, Execution
from toolgym.tools.native_calls import finish_tool_name, gold_calls, native_action
from toolgym.tools.tool import Tool, ToolSet
from toolgym.tools.toolkit import Toolkit

ACTION_MODES = ("program", "call")


def check_choice(name: str, value: Any, choices: tuple[Any, ...]) -> None:
    """Raise ``ValueError`` naming the allowed values if ``value`` is not one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")


class ToolEnv(gym.Env[str, str]):
    """A tool family as a Gymnasium environment (the family classes carry the documentation).

    Args:
        split: ``"test"``, ``"demo"`` or ``"train"`` (unlimited generated tasks).
        action_mode: ``"program"`` (single-step) or ``"call"`` (one call per step); by default
            the family's protocol (``FamilySpec.action_mode``).
        task_file: an original-format JSONL task file; replaces the split. It loads whatever its
            contents: a task whose gold does not run here is kept and marked
            (:attr:`task_issues`, ``info["task_issue"]``, a ``TaskFileWarning`` once), and
            scores 0 with the error category ``invalid_task``; only a file none of whose tasks
            can be played is refused.
        reward_type: the family's reward metric (``"f1"``) or ``"success"`` (1 or 0).
        world_seed: seed of the simulated world; the stored splits belong to the world they were
            built for, the ``train`` split and task files work in any world.
        render_mode: ``None``, ``"ansi"`` (text) or, for a family that draws its state,
            ``"rgb_array"`` (an image; the family's ``render_modes``).
        version: the family version (set by the registry; default: the newest).
        **options: the family's own options (its toolkit's keyword-only arguments).

    Raises:
        ValueError: a bad choice, or a stored split with another world than its own.
        TypeError: an option the family does not have.
        TaskFileError: a task file that cannot be read or has no playable task, or a gold of a
            stored split that does not run.
    """

    # an instance attribute with a class default, as gymnasium.Env declares it (not a ClassVar)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012
    family: ClassVar[FamilySpec]

    def __init__(
        self,
        split: str = "test",
        action_mode: str | None = None,
        task_file: str | Path | None = None,
        reward_type: str | None = None,
        world_seed: int = 0,
        render_mode: str | None = None,
        *,
        version: int | None = None,
        **options: Any,
    ) -> None:
        spec = getattr(type(self), "family", None)
        if not isinstance(spec, FamilySpec):
            raise ToolgymError(
                "ToolEnv is assembled from a family spec: use gym.make('toolbench/<Name>-vN') "
                "or toolgym.envs.env_class(spec)"
            )
        missing = spec.missing()
        if missing:
            raise DependencyNotInstalled(
                f"{spec.env_id(version)} reads packages that are not installed: "
                + "; ".join(missing)
            )
        version_spec = spec.get_version(version)
        self.version = version_spec.version
        self.env_id = spec.env_id(self.version)
        lacking = [f"{name}= ({what})" for name, what in spec.needs if options.get(name) is None]
        if lacking:
            raise UserInputError(f"{self.env_id} needs " + "; ".join(lacking))
        action_mode = spec.action_mode if action_mode is None else action_mode
        check_choice("action_mode", action_mode, spec.action_modes)
        reward_type = spec.reward if reward_type is None else reward_type
        check_choice("reward_type", reward_type, (spec.reward, "success"))
        check_choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        toolkit_class: type[Toolkit] = load_ref(version_spec.toolkit or spec.toolkit)
        allowed = toolkit_class.options()
        unknown = sorted(set(options) - set(allowed))
        if unknown:
            raise TypeError(
                f"{self.env_id} has no option(s) {', '.join(unknown)}; its options are "
                f"split, action_mode, task_file, reward_type, world_seed, render_mode"
                + "".join(f", {name}" for name in allowed)
            )
        self.action_mode = action_mode
        self.reward_type = reward_type
        self.render_mode = render_mode
        self.world_seed = world_seed
        self.toolkit = toolkit_class(world_seed=world_seed, **options)
        self.language = self.toolkit.language()
        self.suite: TaskSuite = load_ref(version_spec.tasks)
        self.task_file = None if task_file is None else str(task_file)
        self._tasks: TaskSet | None
        if task_file is not None:
            self.split = "file"
            loaded = self.suite.read_task_file(task_file)
            self._tasks = TaskSet(
                [self.suite.bind(t) for t in loaded.values()], loaded.name, loaded.issues
            )
        elif self.toolkit.user_world:
            self.split = "user"  # the stored splits belong to the generated world, not this one
            self._tasks = TaskSet([], f"{self.env_id} over the given files")
        else:
            check_choice("split", split, self.suite.all_splits)
            self.split = split
            if split != TRAIN and world_seed != self.suite.world_seed:
                raise ValueError(
                    f"the {split!r} split of {self.env_id} was built for "
                    f"world_seed={self.suite.world_seed}; got world_seed={world_seed}. Use "
                    "split='train' (generated for any world) or a task_file of your own"
                )
            self._tasks = (
                None if split == TRAIN else self.toolkit.select_tasks(self.suite.load(split))
            )
        self.observation_space = TextSpace(MAX_OBSERVATION_CHARS)
        self.action_space: TextSpace = TextSpace(self.language.budgets.max_action_chars)
        self._backend = self.toolkit.new_backend()
        self._gold_backend = self.toolkit.new_backend()
        self._faults: FaultPlan | None = None
        # Gold outcomes are shared by envs whose toolkit, tasks, world and options all agree.
        options_key = tuple(sorted((k, repr(v)) for k, v in {**allowed, **options}.items()))
        self._cache_scope = (
            f"{toolkit_class.__module__}.{toolkit_class.__qualname__}",
            version_spec.tasks,
            world_seed,
            options_key,
        )
        self._task: Task | None = None
        self._tools: ToolSet = self.toolkit.tools
        self._finish_tool: tuple[ToolSet, str] | None = None  # the finish tool's name, per tool set
        self._golds: tuple[Attempt, ...] = ()
        self._steps = 0
        self._done = False
        self._last_obs = ""
        self.next_task_id: TaskId | None = None
        """The task the next reset plays when its options name none (that reset clears it).

        A vector env sets it per sub-env: ``vec.set_attr("next_task_id", [id0, id1, ...])``.
        """
        self._validate_tasks()

    # -- tasks -----------------------------------------------------------------------------------
    @property
    def task_ids(self) -> tuple[TaskId, ...]:
        """Ids of the env's tasks, in order (empty for the unlimited ``train`` split)."""
        return () if self._tasks is None else self._tasks.ids

    @property
    def task(self) -> Task | None:
        """The current task (``None`` before the first reset)."""
        return self._task

    @property
    def file_issues(self) -> tuple[TaskIssue, ...]:
        """The task file's lines that cannot be played as written, by line (empty without one).

        Lines that are not tasks (skipped), tasks whose gold does not run here (kept, marked in
        :attr:`task_issues`, scored 0), and tasks some of whose gold alternatives do not run
        (played against the others, :attr:`task_notes`).
        """
        skipped = () if self._tasks is None else self._tasks.issues
        found = (*skipped, *self.task_issues.values(), *self.task_notes.values())
        return tuple(sorted(found, key=lambda i: i.line))

    @property
    def tools(self) -> ToolSet:
        """The tools of the current task (all of the family's before the first reset)."""
        return self._tools

    @property
    def hints(self) -> AgentHints:
        """How agents act here (derived from the action language and the tools)."""
        return self.language.hints(self._tools)

    @property
    def finish_word(self) -> str | None:
        """The word that ends a multi-step episode here (``finish``), if the language has one."""
        return self.language.finish_word

    @property
    def finish_words(self) -> bool:
        """Whether a turn may end on the agent's words (``ActionRunner.finish_words``)."""
        return bool(getattr(self.language, "finish_words", False))

    @property
    def finish_tool(self) -> str | None:
        """The tool call that stands for :attr:`finish_word` (``None`` without one).

        ``finish``, or ``finish_episode`` (and so on) when a tool of the task has that name:
        :meth:`oracle_calls` writes the finish word as a call to it, and :meth:`native_action`
        reads a call to it alone as the finish word.
        """
        if self.finish_word is None:
            return None
        tools = self.tools
        if self._finish_tool is None or self._finish_tool[0] is not tools:
            self._finish_tool = (tools, finish_tool_name(tools))  # once per tool set
        return self._finish_tool[1]

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """The action that calls ``tool`` with ``arguments`` in this env's action language."""
        return self.language.render_call(tool, arguments)

    def action_grammar(self) -> ActionGrammar | None:
        """What a model may write as the next action, for constrained decoding.

        The action language's grammar over the current task's tools, in the env's action mode
        (a whole program, or one step), from the episode's state (the links of the current
        page); ``None`` when the language has none.
        """
        return self.language.grammar(self._tools, self.action_mode, self._backend)

    def native_action(self, tool_calls: list[dict[str, Any]]) -> str:
        """The action that makes a model's native tool calls, in this env's action language.

        The calls are OpenAI's (``{"id", "type": "function", "function": {"name", "arguments":
        "<JSON>"}}``) or ``{"name", "arguments"}`` with an object or a JSON string. They are
        untrusted: read within the language's budgets, and calls that cannot be read give text
        the language reports as a ``non_executable`` action (see :mod:`toolgym.tools.native_calls`).
        """
        budgets = getattr(self.language, "budgets", DEFAULT_BUDGETS)
        word, tool = self.finish_word, self.finish_tool
        finish = (tool, word) if tool is not None and word is not None else None
        return native_action(tool_calls, self.language, self._tools, budgets, self._backend, finish)

    def get_task(self, task_id: TaskId) -> Task:
        """The task with id ``task_id`` in this env's split or task file."""
        if self._tasks is None:
            return self.suite.train(task_id, self.world_seed)
        return self._tasks[task_id]

    def _validate_tasks(self) -> None:
        """Run every gold once: a stored split's bad gold raises, a task file's is marked."""
        self.task_issues: dict[TaskId, TaskIssue] = {}
        """The tasks of the task file whose gold cannot be played here, and why."""
        self.task_notes: dict[TaskId, TaskIssue] = {}
        """The task file's tasks that are played, but with some gold alternatives dropped."""
        if self._tasks is None:
            return
        if self.task_file is None:
            for task in self._tasks.values():
                self._check_gold(task)
            return
        family = type(self).family
        self.task_issues, self.task_notes = check_task_file(
            self._tasks, self.task_file, self._check_gold, self.env_id, family, self.version
        )

    def _check_gold(self, task: Task) -> tuple[Attempt, ...]:
        self._backend.reset(None, task.setup)
        return self._gold_attempts(task)

    def _issue_of(self, task: Task) -> TaskIssue | None:
        """The issue of a task file's task (``None`` for any other task)."""
        issue = self.task_issues.get(task.task_id)
        if issue is None or self._tasks is None or self._tasks.get(task.task_id) is not task:
            return None
        return issue

    def _gold_attempts(self, task: Task) -> tuple[Attempt, ...]:
        """The attempts of the task's gold from the backend's current (starting) state.

        For a task file's task whose gold has several alternatives, one that does not run gets
        an attempt with its error (it never wins the scoring); the task fails only when none of
        them runs. Every other gold must run.
        """
        lenient = self._from_file(task) and len(task.gold) > 1
        return gold_attempts(
            task, self.language, self._backend, self._gold_backend, self._cache_scope, lenient
        )

    def _from_file(self, task: Task) -> bool:
        """Whether ``task`` is one of this env's task file's tasks."""
        return (
            self.task_file is not None
            and self._tasks is not None
            and self._tasks.get(task.task_id) is task
        )

    def task_calls(self, task_id: TaskId) -> int:
        """How many API calls the reference program of task ``task_id`` makes (0: none).

        A difficulty measure (a curriculum orders tasks by it): the program itself stays here.
        """
        task = self.get_task(task_id)
        return len(self.toolkit.api_calls(task.gold[0])) if task.gold else 0

    def oracle_actions(self) -> list[str]:
        """The gold actions of the current task in the current action mode."""
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before oracle_actions()")
        runs = [g for g, a in zip(self._task.gold, self._golds, strict=False) if a.error is None]
        gold = runs[0] if runs else self._task.gold[0]  # the first alternative that runs
        if self.action_mode == "program":
            return [self.language.gold_action(gold)]
        return self.language.episode_gold_steps(gold, self._backend)

    def oracle_calls(self) -> list[dict[str, Any]] | None:
        """The gold of the current task as native tool calls, one per step, in order.

        Each is ``{"name", "arguments"}`` (:func:`~toolgym.tools.native_calls.gold_calls`), so
        ``native_action([call])`` for each call plays the gold; ``None`` when a gold action is
        more than calls, which native tool calls cannot write.
        """
        return gold_calls(
            self.oracle_actions(), self.language, self._tools, self.finish_word, self.finish_tool
        )

    # -- Gymnasium API ---------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Start an episode on a task.

        The task is ``options["task_id"]``, ``options["task"]`` (a task or its record),
        :attr:`next_task_id`, or else one drawn from the env's generator (seeded by ``seed``).
        """
        super().reset(seed=seed)
        options = options or {}
        unknown = set(options) - {"task_id", "task"}
        if unknown:
            raise ToolgymError(
                f"reset options may contain 'task_id' or 'task'; got {sorted(unknown)}"
            )
        queued, self.next_task_id = self.next_task_id, None
        if queued is not None:
            if options:
                raise ToolgymError(
                    f"reset got options {sorted(options)} and a next_task_id ({queued!r}); "
                    "name the task one way"
                )
            options = {"task_id": queued}
        if "task" in options:
            record = options["task"]
            task = record if isinstance(record, Task) else Task.from_record(record, "inline")
            if task.checker is None:
                task = self.suite.bind(task)
        elif "task_id" in options:
            task = self.get_task(options["task_id"])
        elif self._tasks is None:
            task = self.suite.sample_train_task(self.np_random, self.world_seed)
        elif not self._tasks:
            raise ToolgymError(
                f"{self.env_id} plays a world made from your files, which no stored or generated "
                "task belongs to: give a task_file, or a task with reset(options={'task': ...})"
            )
        else:
            task = self._tasks[self._tasks.ids[int(self.np_random.integers(len(self._tasks)))]]
        self._task = None  # until the new episode is set up (a bad inline gold raises below)
        issue = self._issue_of(task)
        if issue is not None:  # a marked task is played, and scores 0 (see __init__)
            with contextlib.suppress(Exception):
                self._backend.reset(self.np_random, task.setup)
            self._golds = ()
        else:
            self._backend.reset(self.np_random, task.setup)
            self._golds = self._gold_attempts(task)
        self._task = task
        self._tools = self.toolkit.task_tools(task)
        self._steps = 0
        self._done = False
        instruction = printable(task.instruction)
        opening = printable(self._backend.opening(instruction))
        self._last_obs = opening
        info = InfoDict(
            task_id=task.task_id,
            instruction=instruction,
            api_docs=self._tools.api_docs,
            api_doc_list=list(self._tools.api_doc_list),
            tools=list(self._tools.openai_schemas),
            action_language=self.language.name,
            action_mode=self.action_mode,
            split=self.split,
        )
        info.update(self._backend.opening_info())  # the benchmark's own prompts, and the like
        if issue is not None:
            info["task_issue"] = issue.to_info()
        return opening, info

    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Run the action; when the episode ends, score it with the task's checker.

        Whatever the text, an agent's mistake comes back as an observation and
        ``info["error"]``; only a programming error raises (no reset, or an action that is not a
        string).
        """
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self._done:
            raise gym.error.ResetNeeded("the episode has ended; call reset() before step()")
        if not isinstance(action, str):
            raise TypeError(
                f"an action is text (the action space is a TextSpace); got {type(action).__name__}"
            )
        self._steps += 1
        execution = self._refuse_long(action) or self._execute(action)
        if execution.finished:
            assert execution.attempt is not None, "a finished execution carries its attempt"
            score = self._check(execution.attempt)
            info = InfoDict(
                {
                    "error": score.error,
                    "metrics": score.metrics_dict(),
                    "prediction": score.prediction,
                    **execution.info,
                }
            )
            reward = self.reward_of(score)
        else:
            error = None if execution.error is None else execution.error.to_info()
            info = InfoDict({"error": error, **execution.info})
            reward = 0.0
        if execution.tools is not None:  # more (or other) tools from now on
            self._tools = execution.tools
            info["tools"] = list(self._tools.openai_schemas)
            info["api_docs"] = self._tools.api_docs
        self._done = execution.finished
        obs = bound_text(printable(execution.observation))
        self._last_obs = obs
        info["step"] = self._steps
        if self._faults is not None:
            info["faults"] = [fault.to_info() for fault in self._faults.take_events()]
        bound_info(info)
        return obs, reward, execution.finished, False, info

    def set_faults(self, plan: FaultPlan | None) -> None:
        """Make the agent's tool calls meet the service faults of ``plan`` (``None``: none).

        The gold labels never meet faults. :class:`toolgym.wrappers.FaultInjection` sets a plan
        and reseeds it at every reset; each step then lists its faults in ``info["faults"]``.
        """
        self._faults = plan
        self._backend.set_faults(plan)

    def _refuse_long(self, action: str) -> Execution | None:
        """``resource_limit`` for an action past the language's length, before any of it is read."""
        limit = self.action_space.max_length
        if len(action) <= limit:
            return None
        error = ToolCallError(
            RESOURCE_LIMIT, f"the action has {len(action)} characters; at most {limit}"
        )
        return self.language.refusal(error, self._backend, self.action_mode == "program")

    def _execute(self, action: str) -> Execution:
        try:
            if self.action_mode == "program":
                return self.language.run_program(action, self._backend)
            if self.language.is_finish(action):
                return self.language.finish(self._backend)
            return self.language.run_call(action, self._backend)
        except Exception as e:  # a failure the language did not foresee: never out of step
            error = ToolCallError(
                RUNTIME_ERROR, f"the action failed while it ran: {describe_error(e)}"
            )
            if self.action_mode == "program":
                attempt = Attempt(None, error=error, backend=self._backend)
                return Execution(error.observation(), error, finished=True, attempt=attempt)
            return Execution(error.observation(), error)

    def _check(self, attempt: Attempt) -> Score:
        """The task's score of ``attempt``; a marked task (see ``task_file``) scores 0."""
        assert self._task is not None
        issue = self._issue_of(self._task)
        if issue is None:
            return self._task.check(attempt, self._golds)
        error = {"category": INVALID_TASK, "message": f"line {issue.line}: {issue.reason}"}
        return Score(0.0, False, attempt.error is None, {"f1": 0.0}, error, attempt.outcome)

    def reward_of(self, score: Score) -> float:
        """The reward of a score under ``reward_type``."""
        return float(score.reward) if self.reward_type != "success" else float(score.success)

    def score(self, error: ToolCallError | None = None) -> Score:
        """The score of the episode as if it ended now (after a truncation, or a failure).

        An episode that has not terminated is never a success (it was not submitted). With
        ``error`` (the episode stopped on a failure), it scores as an action that did not run.
        """
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before score()")
        attempt = self._backend.attempt() if error is None else Attempt(None, error=error)
        score = self._check(attempt)
        if not self._done:
            score.success = False
        return score

    def render(self) -> str | np.ndarray | None:
        """The episode as text (``ansi``) or an image (``rgb_array``).

        ``ansi``: the task, the last observation and, for a backend that describes its state
        (``render_text()``), that description; ``rgb_array``: the backend's image of its state,
        an ``(height, width, 3)`` ``uint8`` array.
        """
        if self.render_mode == "rgb_array":
            if self._task is None:
                raise gym.error.ResetNeeded("call reset() before render()")
            draw = getattr(self._backend, "render_rgb", None)
            if draw is None:  # the spec's render_modes promise it: a family's mistake
                raise ToolgymError(f"{self.env_id}'s backend has no render_rgb()")
            return draw()
        if self.render_mode != "ansi":
            return None
        task = (
            "" if self._task is None else f"Task {self._task.task_id}: {self._task.instruction}\n"
        )
        text = f"{task}Step {self._steps}\n{self._last_obs}\n"
        describe = getattr(self._backend, "render_text", None)
        if self._task is not None and describe is not None:  # the state as text (a scene)
            text += f"{describe()}\n"
        return text

    # -- state -----------------------------------------------------------------------------------
    def get_state(self) -> dict[str, Any]:
        """Everything needed to continue this episode later with :meth:`set_state`."""
        if self._task is None:
            raise gym.error.ResetNeeded("call reset() before get_state()")
        return {
            "task": self._task,
            "tools": self._tools,
            "episode": {"backend": self._backend.snapshot(), "golds": self._golds},
            "steps": self._steps,
            "done": self._done,
            "last_obs": self._last_obs,
            "np_random": copy.deepcopy(self.np_random.bit_generator.state),
        }

    def set_state(self, state: Mapping[str, Any]) -> None:
        """Restore a state returned by :meth:`get_state` (of an env of the same id and options)."""
        task: Task = state["task"]
        self._task = task
        tools = state.get("tools")  # a state saved before tools were kept: the task's own
        self._tools = tools if isinstance(tools, ToolSet) else self.toolkit.task_tools(task)
        self._backend.restore(state["episode"]["backend"])
        self._golds = state["episode"]["golds"]
        self._steps = state["steps"]
        self._done = state["done"]
        self._last_obs = state["last_obs"]
        rng = np.random.Generator(np.random.PCG64())
        rng.bit_generator.state = copy.deepcopy(state["np_random"])
        self._np_random = rng
