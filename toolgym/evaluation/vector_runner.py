"""Episodes played on a Gymnasium vector env: N sub-envs, N episodes in flight.

Every toolgym env works in :class:`gymnasium.vector.SyncVectorEnv` (the sub-envs in this
process, stepped one after the other) and :class:`gymnasium.vector.AsyncVectorEnv` (one process
per sub-env, stepped in parallel)::

    vec = vector_env("toolbench/HomeSearch-v0", 4)  # AsyncVectorEnv, autoreset disabled
    agents = [make_agent("oracle", env) for env in sub_envs(vec)]
    records = run_vector(vec, agents, task_ids, seeds)

:func:`run_vector` plays a list of tasks: each sub-env starts the next task as soon as its episode
ends, so every sub-env plays until the list runs out. A step is one call of ``vec.step`` for all
sub-envs. LLM agents that share a backend (``prompt``/``parse``/``record`` halves, as
:func:`~toolgym.evaluation.runner.run_batch` takes them) get one batched generation per step;
other agents act one after the other. The records are the ones
:func:`~toolgym.evaluation.runner.run_episode` makes, each with its own episode's wall time.

Choosing tasks. ``reset(options={"task_id": t})`` sends the same task to every sub-env; to give
each its own, set every sub-env's :attr:`~toolgym.envs.tool_env.ToolEnv.next_task_id` (Gymnasium's
``set_attr`` takes one value per sub-env), then reset::

    vec.set_attr("next_task_id", ["t1", "t2"])
    obs, infos = vec.reset(seed=[0, 1])

Refilling. The runner needs the vector env made with ``autoreset_mode=AutoresetMode.DISABLED``
(:func:`vector_env` does): it resets the sub-envs whose episodes ended itself, with Gymnasium's
``reset_mask``, before the next step. Gymnasium steps every sub-env at every step, so once the
tasks run out, a sub-env without an episode replays its last task with the empty action (a
no-op whose results are dropped) until the others end.

Agents that read their env (the oracle reads the gold, the random agent the tools) are built on
:func:`sub_envs`: the sub-envs themselves for a ``SyncVectorEnv``, and for an ``AsyncVectorEnv``
a :class:`SubEnv` per sub-env, which reads and calls the env in its process.

An exception out of a sub-env's ``step`` or ``reset`` (a toolgym bug: agent text never raises)
stops the run, as Gymnasium's vector envs do; agent failures are recorded (``agent_error``), and
an :class:`~toolgym.errors.InfrastructureError` stops the run with the episodes in flight not
recorded, as in the local runner.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv

from toolgym.agents.backends.base import PromptRejected, generate_with_tools
from toolgym.benchmarks.score import Score
from toolgym.benchmarks.suite import TaskSuite
from toolgym.benchmarks.tasks import Task, TaskId, TaskIssue
from toolgym.envs.spaces import info_at
from toolgym.envs.spec import FamilySpec
from toolgym.errors import InfrastructureError
from toolgym.evaluation.episodes import (
    agent_error,
    agent_grammar,
    agent_tools,
    checked_action,
    close_record,
    new_record,
)
from toolgym.evaluation.records import EpisodeRecord
from toolgym.tools.errors import ToolCallError
from toolgym.tools.faults import FaultPlan
from toolgym.tools.grammar import ActionGrammar
from toolgym.tools.language import AgentHints
from toolgym.tools.tool import Tool, ToolSet

PARK_ACTION = ""
"""The action a sub-env without an episode is stepped with (its results are dropped)."""

__all__ = ["PARK_ACTION", "SubEnv", "info_at", "run_vector", "sub_envs", "vector_env"]


def vector_env(
    env_id: str,
    num_envs: int,
    *,
    mode: str = "async",
    wrappers: Sequence[Callable[[gym.Env[Any, Any]], gym.Wrapper[Any, Any, Any, Any]]] = (),
    **env_kwargs: Any,
) -> VectorEnv[Any, Any, Any]:
    """``num_envs`` copies of ``env_id`` as a vector env for :func:`run_vector`.

    Args:
        env_id: a registered id.
        num_envs: how many sub-envs.
        mode: ``"async"`` (a process per sub-env) or ``"sync"`` (all in this process).
        wrappers: applied to each sub-env (e.g. ``FaultInjection``).
        **env_kwargs: the env's arguments (``split``, ``action_mode``, ...).

    Raises:
        ValueError: a mode other than ``"async"`` or ``"sync"``.
    """
    if mode not in ("async", "sync"):
        raise ValueError(f"mode is 'async' or 'sync'; got {mode!r}")
    return gym.make_vec(
        env_id,
        num_envs=num_envs,
        vectorization_mode=mode,
        vector_kwargs={"autoreset_mode": AutoresetMode.DISABLED},
        wrappers=list(wrappers) or None,
        **env_kwargs,
    )


class SubEnv:
    """Sub-env ``index`` of an :class:`~gymnasium.vector.AsyncVectorEnv`, read in its process.

    It has the surface of a toolgym env (:class:`~toolgym.envs.protocol.TaskEnv`), so agents
    and the runner take it as an env: each attribute is read from the sub-env's process, and
    each method runs there, through the sub-env's pipe. What never changes (``family``,
    ``version``, ``suite``, ``finish_word``, ``task_ids``) is read once, and shared
    by the sub-envs made the same way. Use it between the vector env's calls, never while one is
    pending (``step_async`` without its ``step_wait``).

    Args:
        vec: the vector env.
        index: the sub-env's index.
        shared: what sub-envs made alike share (:func:`sub_envs` gives them one).
    """

    def __init__(
        self,
        vec: AsyncVectorEnv,
        index: int,
        shared: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        if not 0 <= index < vec.num_envs:
            raise IndexError(f"a sub-env index is in [0, {vec.num_envs}); got {index}")
        self._vec = vec
        self._index = index
        self._shared = {} if shared is None else shared
        self._static: dict[str, Any] | None = None

    @property
    def unwrapped(self) -> SubEnv:
        """Itself (it stands for the unwrapped sub-env)."""
        return self

    def call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Call the sub-env's method ``name`` (or read its attribute) in its process.

        Raises:
            gymnasium.error.ClosedEnvironmentError: the vector env is closed.
            RuntimeError: a call of the vector env is pending.
            Exception: what the call raised in the sub-env (its process then ends, as with
                Gymnasium's own calls).
        """
        vec = self._vec
        pipe = None if vec.closed else vec.parent_pipes[self._index]
        if pipe is None:
            raise gym.error.ClosedEnvironmentError(
                f"sub-env {self._index} of {vec} is closed; cannot call {name}"
            )
        state = getattr(vec, "_state", None)
        if state is not None and getattr(state, "value", "default") != "default":
            raise RuntimeError(
                f"cannot call {name} on sub-env {self._index} while the vector env's "
                f"{state.value} call is pending"
            )
        pipe.send(("_call", (name, args, kwargs)))
        result, ok = pipe.recv()
        if ok:
            return result
        _, kind, value, _ = vec.error_queue.get()
        pipe.close()
        vec.parent_pipes[self._index] = None  # type: ignore[call-overload]  # as Gymnasium does
        try:
            error = kind(value)
        except Exception:  # an exception type that takes other arguments
            error = RuntimeError(f"{kind.__name__}: {value}")
        raise error

    def _constant(self, name: str) -> Any:
        if self._static is None:
            spec = self.call("spec")
            key = repr(spec) if spec is not None else f"sub-env {self._index}"
            self._static = self._shared.setdefault(key, {})
        if name not in self._static:
            self._static[name] = self.call(name)
        return self._static[name]

    # -- the TaskEnv surface ---------------------------------------------------------------------
    @property
    def family(self) -> FamilySpec:
        """The sub-env's family."""
        return self._constant("family")

    @property
    def version(self) -> int:
        """The family version."""
        return self._constant("version")

    @property
    def suite(self) -> TaskSuite:
        """The task suite."""
        return self._constant("suite")

    @property
    def finish_word(self) -> str | None:
        """The word that ends a multi-step episode, if the sub-env's language has one."""
        return self._constant("finish_word")

    @property
    def finish_tool(self) -> str | None:
        """The tool call that stands for the finish word (it depends on the task's tools)."""
        return self.call("finish_tool")

    @property
    def finish_words(self) -> bool:
        """Whether a turn may end on the agent's words (the sub-env's language says)."""
        return bool(self._constant("finish_words"))

    def render_call(self, tool: Tool, arguments: Mapping[str, Any]) -> str:
        """The sub-env's action that calls ``tool`` with ``arguments``."""
        return self.call("render_call", tool, arguments)

    @property
    def task_ids(self) -> tuple[TaskId, ...]:
        """The ids of the split's tasks."""
        return self._constant("task_ids")

    @property
    def task(self) -> Task | None:
        """The current task."""
        return self.call("task")

    @property
    def file_issues(self) -> tuple[TaskIssue, ...]:
        """The task file's lines that cannot be played as written."""
        return self.call("file_issues")

    @property
    def tools(self) -> ToolSet:
        """The current task's tools."""
        return self.call("tools")

    @property
    def hints(self) -> AgentHints:
        """How to act in the sub-env."""
        return self.call("hints")

    def action_grammar(self) -> ActionGrammar | None:
        """The grammar of the sub-env's next action."""
        return self.call("action_grammar")

    def native_action(self, tool_calls: list[dict[str, Any]]) -> str:
        """The sub-env's action that makes a model's native tool calls."""
        return self.call("native_action", tool_calls)

    def oracle_actions(self) -> list[str]:
        """The gold actions of the current task."""
        return self.call("oracle_actions")

    def oracle_calls(self) -> list[dict[str, Any]] | None:
        """The gold as native tool calls, one per step (the finish word as the finish tool)."""
        return self.call("oracle_calls")

    def score(self, error: ToolCallError | None = None) -> Score:
        """The score of the episode as if it ended now."""
        return self.call("score", error)

    def get_state(self) -> dict[str, Any]:
        """Everything needed to continue the episode later."""
        return self.call("get_state")

    def set_state(self, state: Any) -> None:
        """Return to a state returned by :meth:`get_state`."""
        self.call("set_state", state)

    def set_faults(self, plan: FaultPlan | None) -> None:
        """Make the sub-env's tool calls meet the faults of ``plan``."""
        self.call("set_faults", plan)

    def __repr__(self) -> str:
        return f"SubEnv({self._vec!r}, {self._index})"


def sub_envs(vec: VectorEnv[Any, Any, Any]) -> list[Any]:
    """Each sub-env of ``vec`` as agents take an env (see :class:`SubEnv`).

    Raises:
        TypeError: ``vec`` is neither a ``SyncVectorEnv`` nor an ``AsyncVectorEnv``.
    """
    base = vec.unwrapped
    if isinstance(base, SyncVectorEnv):
        return list(base.envs)
    if isinstance(base, AsyncVectorEnv):
        shared: dict[str, dict[str, Any]] = {}
        return [SubEnv(base, i, shared) for i in range(base.num_envs)]
    raise TypeError(f"expected a SyncVectorEnv or an AsyncVectorEnv; got {type(base).__name__}")


@dataclass
class _Episode:
    """An episode in flight in one sub-env."""

    index: int
    record: EpisodeRecord
    start: float
    obs: str
    info: dict[str, Any]
    step_info: dict[str, Any] = field(default_factory=dict)
    flags: tuple[bool, bool] = (False, False)


def _batched(agents: Sequence[Any]) -> bool:
    """Whether the agents are LLM agents that share a backend (one generation per step)."""
    halves = all(all(hasattr(a, h) for h in ("prompt", "parse", "record")) for a in agents)
    backend = getattr(agents[0], "backend", None)
    return halves and backend is not None and all(a.backend is backend for a in agents)


def run_vector(
    vec_env: VectorEnv[Any, Any, Any],
    agents: Sequence[Any],
    task_ids: Sequence[Any],
    seeds: Sequence[int | None],
    *,
    on_record: Callable[[int, EpisodeRecord], Any] | None = None,
) -> list[EpisodeRecord]:
    """Play ``task_ids`` on the sub-envs of ``vec_env``, a new task as soon as an episode ends.

    Args:
        vec_env: a ``SyncVectorEnv`` or ``AsyncVectorEnv`` of toolgym envs made with
            ``autoreset_mode=AutoresetMode.DISABLED`` (see :func:`vector_env`).
        agents: one agent per sub-env, built on :func:`sub_envs` when it reads its env; LLM
            agents sharing a backend get one batched generation per step.
        task_ids: the tasks to play (``None``: the task the sub-env's generator draws).
        seeds: the reset seed of each task.
        on_record: called with the task's position in ``task_ids`` and its record as each
            episode ends.

    Returns:
        The records, in the order of ``task_ids``, as
        :func:`~toolgym.evaluation.runner.run_episode` makes them; each ``time_s`` is the
        episode's own wall time, from its reset to its end.

    Raises:
        ValueError: a vector env whose sub-envs reset themselves, one agent per sub-env not
            given, ``seeds`` not as long as ``task_ids``, or DFSDT agents.
        InfrastructureError: the model backend failed (the episodes in flight are not
            recorded).
    """
    n = vec_env.num_envs
    mode = vec_env.metadata.get("autoreset_mode")
    if mode != AutoresetMode.DISABLED:
        raise ValueError(
            "run_vector resets the sub-envs itself: make the vector env with "
            "autoreset_mode=AutoresetMode.DISABLED (vector_env() does); got "
            f"{getattr(mode, 'value', mode)!r}"
        )
    if len(agents) != n:
        raise ValueError(f"one agent per sub-env: expected {n} agents, got {len(agents)}")
    if len(seeds) != len(task_ids):
        raise ValueError(f"one seed per task: got {len(seeds)} seeds for {len(task_ids)} tasks")
    if any(getattr(a, "strategy", None) == "dfsdt" for a in agents):
        raise ValueError("DFSDT searches one episode at a time: use run_dfsdt")
    if not task_ids:
        return []
    envs = sub_envs(vec_env)
    base: SyncVectorEnv | AsyncVectorEnv = vec_env.unwrapped  # type: ignore[assignment]
    batched = _batched(agents)
    todo = deque(range(len(task_ids)))
    episodes: list[_Episode | None] = [None] * n
    live = [False] * n  # the sub-env is in an episode that may be stepped
    last_task: list[Any] = [task_ids[0]] * n
    out: dict[int, EpisodeRecord] = {}

    def close(i: int) -> None:
        episode = episodes[i]
        assert episode is not None
        terminated, truncated = episode.flags
        record = close_record(
            envs[i], episode.record, terminated, truncated, episode.step_info, episode.start
        )
        out[episode.index] = record
        episodes[i] = None
        if on_record is not None:
            on_record(episode.index, record)

    def fail(i: int, error: Exception) -> None:
        episode = episodes[i]
        assert episode is not None
        episode.record.error = agent_error(error)
        close(i)

    while todo or any(e is not None for e in episodes):
        # 1. every sub-env without an episode starts the next task (or, with none left, parks)
        mask = np.zeros(n, dtype=np.bool_)
        next_ids: list[Any] = [None] * n
        reset_seeds: list[int | None] = [None] * n
        starting = []
        for i in range(n):
            if episodes[i] is None and todo:
                k = todo.popleft()
                mask[i], next_ids[i], reset_seeds[i] = True, task_ids[k], seeds[k]
                starting.append((i, k))
            elif episodes[i] is None and not live[i]:
                mask[i], next_ids[i] = True, last_task[i]
        if mask.any():
            base.set_attr("next_task_id", next_ids)
            start = time.perf_counter()
            obs, infos = vec_env.reset(
                seed=reset_seeds,  # type: ignore[arg-type]  # one per sub-env
                options={"reset_mask": mask},
            )
            for j in np.flatnonzero(mask):
                live[int(j)] = True
            for i, k in starting:
                info = info_at(infos, i)
                episodes[i] = _Episode(k, new_record(obs[i], info), start, obs[i], info)
                last_task[i] = task_ids[k]
                try:
                    agents[i].reset(obs[i], info)
                except InfrastructureError:
                    raise
                except Exception as e:  # the agent failed: the episode is recorded as such
                    fail(i, e)
        acting = [i for i in range(n) if episodes[i] is not None]
        if not acting:
            continue
        # 2. the agents act: one batched generation, or one agent after the other
        actions = [PARK_ACTION] * n
        turns: list[dict[str, Any]] = [{} for _ in range(n)]
        if batched:
            _act_batched(agents, episodes, acting, actions, turns, fail)
        else:
            for i in acting:
                current = episodes[i]
                assert current is not None
                try:
                    action, turns[i] = agents[i].act_with_info(current.obs, current.info)
                    actions[i] = checked_action(action)
                except InfrastructureError:
                    raise
                except Exception as e:
                    fail(i, e)
        if all(episodes[i] is None for i in acting):
            continue  # every agent failed: start new episodes before stepping
        # 3. one step of every sub-env
        obs, rewards, terminated, truncated, infos = vec_env.step(tuple(actions))
        for i in range(n):
            ended = bool(terminated[i] or truncated[i])
            live[i] = live[i] and not ended
            stepped = episodes[i]
            if stepped is None:
                continue  # a parked sub-env, or one whose agent failed: results dropped
            step_info = info_at(infos, i)
            stepped.obs, stepped.step_info = obs[i], step_info
            stepped.info = {**stepped.info, **step_info}
            stepped.flags = (bool(terminated[i]), bool(truncated[i]))
            stepped.record.log_step(actions[i], turns[i], obs[i], float(rewards[i]), step_info)
            if ended:
                close(i)
    return [out[k] for k in range(len(task_ids))]


def _act_batched(
    agents: Sequence[Any],
    episodes: list[_Episode | None],
    acting: list[int],
    actions: list[str],
    turns: list[dict[str, Any]],
    fail: Callable[[int, Exception], None],
) -> None:
    """One generation for every acting sub-env's prompt, as the local runner's ``run_batch``."""
    prompts: dict[int, Any] = {}
    for i in acting:
        episode = episodes[i]
        assert episode is not None
        try:
            prompts[i] = agents[i].prompt(episode.obs, episode.info)
        except Exception as e:
            fail(i, e)
    if not prompts:
        return
    slots = list(prompts)
    first = agents[slots[0]]
    grammars: dict[int, Any] = {}
    tools: dict[int, Any] = {}
    for i in slots:
        episode = episodes[i]
        assert episode is not None
        grammars[i] = agent_grammar(agents[i], episode.info)
        tools[i] = agent_tools(agents[i], episode.info)
    generations: dict[int, Any] = {}
    try:
        batch = generate_with_tools(
            first.backend,
            [prompts[i] for i in slots],
            [tools[i] for i in slots],
            [grammars[i] for i in slots],
            max_new_tokens=first.max_new_tokens,
            stop=first.stop,
        )
        generations = dict(zip(slots, batch, strict=True))
    except PromptRejected:  # which one? each prompt alone, so the others still play
        for i in slots:
            try:
                generations[i] = generate_with_tools(
                    agents[i].backend,
                    [prompts[i]],
                    [tools[i]],
                    [grammars[i]],
                    max_new_tokens=agents[i].max_new_tokens,
                    stop=agents[i].stop,
                )[0]
            except PromptRejected as e:
                fail(i, e)
    for i, generation in generations.items():
        episode = episodes[i]
        assert episode is not None
        try:
            action = checked_action(agents[i].parse(generation, episode.info))
            turns[i] = agents[i].record(prompts[i], generation, action)
            actions[i] = action
        except Exception as e:
            fail(i, e)
