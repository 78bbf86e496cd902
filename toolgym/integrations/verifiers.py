"""toolgym envs as verifiers environments: ``load_environment(env_id)``, scored by toolgym's reward.

`verifiers <https://github.com/PrimeIntellect-ai/verifiers>`_ 0.4 (``verifiers.v1``) composes an
environment (``vf.Env``) from a *taskset* (the rows every rollout starts from), a *harness* (the
program that plays one rollout, whose every model call goes through verifiers' interception
server, so the trace records it) and a *runtime* (where the harness runs). This module gives
each part for a toolgym env:

* the taskset (:func:`task_rows`) holds the split's tasks, one row each with the task id and the
  prompt (the first observation: the user's request), in the split's order, shuffled by ``seed``
  and cut to ``limit``; the ``train`` split draws ``train-<k>`` tasks (endless without a limit);
* the harness plays one :class:`~toolgym.integrations.episode.ToolEpisode` per rollout, in
  process: it resets the episode on the row's task, offers the model the task's tools (their
  OpenAI schemas, which differ per task in some envs), sends each tool call the model makes to
  :meth:`ToolEpisode.call <toolgym.integrations.episode.ToolEpisode.call>` (nothing is executed
  but the env's own tools; bad calls come back to the model as error observations), and stops
  when the episode ends, when the model answers without a tool call, or when verifiers refuses
  the next model turn (``max_turns``, a stop hook). The episode's env comes from a
  :class:`~toolgym.integrations.sessions.SessionPool` per env and goes back to it after the
  rollout, whatever happened, so envs are made once and memory stays flat;
* the task's scoring is toolgym's: the reward is the episode's reward (0 if it never ended),
  and ``success``, ``executable``, ``steps`` and ``ended`` are metrics (recorded, weight 0).
  The episode's record (task, steps, reward, metrics, error categories) is kept in the trace's
  ``info["toolgym"]``.

verifiers is an optional dependency (``pip install "toolgym[verifiers]"``): importing this module
never imports it, and the classes that subclass verifiers' (:data:`PLUGIN_CLASSES`) are built on
first use; without verifiers, using them raises :class:`~toolgym.errors.DependencyNotInstalled`.

verifiers 0.4 finds a taskset and its harness by importing a *top-level* module named after the
taskset id; a dotted module path cannot be named there (its lookup of
``verifiers.v1.tasksets.<name>`` fails first). Building the classes therefore registers them as
the module :data:`PLUGIN_MODULE` (``sys.modules``), so the taskset id :data:`TASKSET_ID` works
with ``vf.load_environment`` in any process that imported this module. ``vf-eval``, which starts
a process of its own, needs a module of that name on the path, one that re-exports the two
plugin classes::

    # toolgym_verifiers.py
    from toolgym.integrations.verifiers import ToolgymHarness, ToolgymTaskset

    __all__ = ["ToolgymHarness", "ToolgymTaskset"]

and then runs ``vf-eval toolgym-verifiers --env.taskset.env-id toolbench/HomeSearch-v0
--env.agent.runtime.type subprocess -m <model> --client.base-url <url>``.

Example (a scripted model would stand in for ``base_url``)::

    import asyncio
    from toolgym.integrations.verifiers import evaluate, load_environment

    env = load_environment("toolbench/HomeSearch-v0", limit=5, max_turns=20)
    episodes = asyncio.run(
        evaluate(env, model="my-model", base_url="http://127.0.0.1:8000/v1")
    )
    print([episode.traces[0].reward for episode in episodes])

The rows need no verifiers:

>>> row = next(task_rows("toolbench/HomeSearch-v0", limit=1))
>>> row["task_id"], row["split"], row["prompt"] == row["instruction"]
('test-000', 'test', True)
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import json
import sys
import threading
import types
from collections.abc import Iterator
from typing import Any

from toolgym.errors import DependencyNotInstalled, RowError, UserInputError
from toolgym.integrations.rows import row_name, row_seed, row_task_id
from toolgym.integrations.verifiers_play import (
    TRAIN_SPLIT,
    _check_count,
    _check_seed,
    env_kwargs,
    episode_pool,
    play_episode,
    task_rows,
)
from toolgym.integrations.verifiers_play import close_pools as close_pools
from toolgym.integrations.verifiers_play import pool_stats as pool_stats

VERIFIERS_INSTALL = 'pip install "toolgym[verifiers]"'
"""The command that installs verifiers for toolgym."""

TASKSET_ID = "toolgym-verifiers"
"""The taskset id (and harness id) of toolgym's environments in a verifiers config."""

PLUGIN_MODULE = "toolgym_verifiers"
"""The top-level module name verifiers imports for :data:`TASKSET_ID`."""

PLUGIN_CLASSES = (
    "ToolgymTasksetConfig",
    "ToolgymTaskset",
    "ToolgymTaskData",
    "ToolgymTask",
    "ToolgymHarnessConfig",
    "ToolgymHarness",
)
"""The classes built over verifiers' on first use (attributes of this module from then on)."""

INFO_KEY = "toolgym"
"""The key of the episode's record in a trace's ``info``."""


def require_verifiers() -> Any:
    """The ``verifiers.v1`` module (verifiers' stack), imported on demand.

    Raises:
        DependencyNotInstalled: verifiers (0.4 or newer) is not installed.
    """
    try:
        return importlib.import_module("verifiers.v1")
    except ImportError as e:
        raise DependencyNotInstalled(
            f"the verifiers environment needs verifiers >= 0.4 (with verifiers.v1); importing it "
            f"failed ({e}): {VERIFIERS_INSTALL}"
        ) from e


# -- the rows -------------------------------------------------------------------------------------


# -- the verifiers classes ------------------------------------------------------------------------

_BUILD_LOCK = threading.Lock()
_BUILT: list[types.ModuleType] = []


def _plugin() -> types.ModuleType:
    """The classes over verifiers', as the module :data:`PLUGIN_MODULE` (built once)."""
    with _BUILD_LOCK:
        if not _BUILT:
            _BUILT.append(_build())
        return _BUILT[0]


def _build() -> types.ModuleType:
    """Build the classes over verifiers' and register their module as :data:`PLUGIN_MODULE`."""
    require_verifiers()
    import httpx
    import verifiers.v1 as vf
    from pydantic import Field

    class ToolgymTasksetConfig(vf.TasksetConfig):
        """A toolgym env's rows (``--env.taskset.*``): which env, split, tasks and world."""

        env_id: str = ""
        """The toolgym env id (``toolbench/<Name>-v<N>``)."""
        split: str = "test"
        """The split; ``train`` draws generated ``train-<k>`` tasks."""
        limit: int | None = Field(None, ge=0)
        """Rows at most (``None``: the whole split; endless for ``train``)."""
        seed: int | None = None
        """Shuffles the split (``None``: its order); on ``train``, picks the tasks drawn."""
        world_seed: int | None = None
        """The simulated world (``None``: the env's default)."""
        env_options: dict[str, Any] = Field(default_factory=dict)
        """More ``gym.make`` options of the env."""
        system_prompt_text: str | None = None
        """A system prompt for every row (``None``: none)."""

    class ToolgymTaskData(vf.TaskData):
        """One row: a task of a toolgym env, and the prompt it opens with."""

        env_id: str = ""
        task_id: str = ""
        split: str = "test"
        instruction: str | None = None
        seed: int = 0
        world_seed: int | None = None
        env_options: dict[str, Any] = Field(default_factory=dict)

    class ToolgymTask(vf.Task[ToolgymTaskData, vf.State, vf.TaskConfig]):
        """A toolgym task, scored by the episode the harness played (``trace.info``)."""

        @property
        def key(self) -> str:
            """The env, split, world and task id: stable across runs."""
            d = self.data
            key = [d.env_id, d.split, d.world_seed, d.task_id, d.env_options]
            return json.dumps(key, sort_keys=True, default=str)

        @vf.reward
        async def reward(self, trace: Any) -> float:
            """The episode's reward (0 if it never ended)."""
            return float(_episode_record(trace).get("reward", 0.0))

        @vf.metric
        async def success(self, trace: Any) -> float:
            """1 if the episode ended with the task done, else 0."""
            return float(bool(_episode_record(trace).get("metrics", {}).get("success", False)))

        @vf.metric
        async def executable(self, trace: Any) -> float:
            """1 if the episode ended and its actions could all be run, else 0."""
            metrics = _episode_record(trace).get("metrics", {})
            return float(bool(metrics.get("executable", False)))

        @vf.metric
        async def steps(self, trace: Any) -> float:
            """The tool calls the episode took (failed ones count)."""
            return float(_episode_record(trace).get("steps", 0))

        @vf.metric
        async def ended(self, trace: Any) -> float:
            """1 if the episode ended (finished, or cut at its step limit), else 0."""
            return float(bool(_episode_record(trace).get("ended", False)))

    class ToolgymTaskset(vf.Taskset[ToolgymTask, ToolgymTasksetConfig]):
        """The rows of a toolgym env (see :func:`task_rows`)."""

        def __init__(self, config: Any) -> None:
            super().__init__(config)
            if not isinstance(config.env_id, str) or not config.env_id:
                raise UserInputError(
                    "the toolgym taskset needs env_id, a registered toolgym env id "
                    f"(--env.taskset.env-id); got {config.env_id!r:.80}"
                )
            # the env is made here, so a bad id or option fails at load, not at the first rollout
            self._rows = functools.partial(
                task_rows,
                config.env_id,
                split=config.split,
                limit=config.limit,
                seed=config.seed,
                world_seed=config.world_seed,
                env_options=config.env_options,
            )
            self._rows()
            self.INFINITE = config.split == TRAIN_SPLIT and config.limit is None

        def load(self) -> Iterator[Any]:
            """One task per row."""
            for row in self._rows():
                data = ToolgymTaskData(
                    id=row["task_id"],
                    name=f"{row['env_id']} {row['task_id']}",
                    system_prompt=self.config.system_prompt_text,
                    **row,
                )
                yield ToolgymTask(data, self.config.task)

    class ToolgymHarnessConfig(vf.HarnessConfig):
        """The toolgym harness's config (``tool_timeout`` is unused: env budgets bound calls)."""

    class ToolgymHarness(vf.Harness[ToolgymHarnessConfig]):
        """Plays the row's toolgym episode in process (see the module docstring)."""

        APPENDS_SYSTEM_PROMPT = True
        SUPPORTS_MCP = False
        SUPPORTS_RESUME = False
        SUPPORTS_TOOL_INTERCEPTION = False
        EXECUTES_CODE = False
        NEEDS_CONTAINER = False

        async def launch(
            self,
            ctx: Any,
            trace: Any,
            runtime: Any,
            endpoint: str,
            secret: str,
            mcp_urls: dict[str, str],
            data: Any,
            tool_interception_url: str | None = None,
        ) -> Any:
            """Play the episode of ``data``'s task; every model call goes to ``endpoint``."""
            row = data.model_dump()
            if not isinstance(row.get("env_id"), str) or not row.get("env_id"):
                raise RowError(
                    row_name(row),
                    "env_id",
                    "a toolgym env id (the harness plays rows of the toolgym taskset)",
                    row.get("env_id"),
                )
            task_id = str(row_task_id(row, required=True))
            seed = row_seed(row) or 0
            kwargs = env_kwargs(
                row.get("split") or "test", row.get("world_seed"), row.get("env_options")
            )
            pool = await asyncio.to_thread(episode_pool, row["env_id"], kwargs)
            system, prompt = self.resolve_prompt(data)
            messages: list[dict[str, Any]] = []
            if system:
                messages.append({"role": "system", "content": system})
            if isinstance(prompt, str):
                messages.append({"role": "user", "content": prompt})
            else:
                messages += [m.model_dump(exclude_none=True) for m in prompt or []]
            url = endpoint.rstrip("/") + "/chat/completions"
            headers = {"Authorization": f"Bearer {secret}"}
            record: dict[str, Any] = {}
            trace.info[INFO_KEY] = record
            async with httpx.AsyncClient(timeout=None) as client:

                async def complete(
                    sent: list[dict[str, Any]], tools: list[dict[str, Any]]
                ) -> dict[str, Any] | None:
                    body: dict[str, Any] = {"model": ctx.model, "messages": sent}
                    if tools:
                        body["tools"] = tools
                    response = await client.post(url, json=body, headers=headers)
                    if trace.stop_condition is not None:
                        return None  # verifiers refused the turn (max_turns, a stop hook)
                    if response.status_code != 200:
                        raise RuntimeError(
                            f"the model call failed: expected HTTP 200, got "
                            f"{response.status_code}: {response.text[:500]}"
                        )
                    payload = response.json()
                    choices = payload.get("choices") if isinstance(payload, dict) else None
                    choice = choices[0] if isinstance(choices, list) and choices else {}
                    message = choice.get("message") if isinstance(choice, dict) else None
                    return message if isinstance(message, dict) else None

                await play_episode(
                    pool,
                    task_id=task_id,
                    seed=seed,
                    messages=messages,
                    complete=complete,
                    record=record,
                )
            return vf.ProgramResult(exit_code=0, stdout="", stderr="")

    module = types.ModuleType(PLUGIN_MODULE, "toolgym's taskset and harness for verifiers.")
    module.__all__ = ["ToolgymTaskset", "ToolgymHarness"]  # type: ignore[attr-defined]
    built = {
        "ToolgymTasksetConfig": ToolgymTasksetConfig,
        "ToolgymTaskset": ToolgymTaskset,
        "ToolgymTaskData": ToolgymTaskData,
        "ToolgymTask": ToolgymTask,
        "ToolgymHarnessConfig": ToolgymHarnessConfig,
        "ToolgymHarness": ToolgymHarness,
    }
    for name, cls in built.items():
        cls.__module__ = PLUGIN_MODULE
        cls.__qualname__ = name
        setattr(module, name, cls)
    sys.modules.setdefault(PLUGIN_MODULE, module)  # one shipped on its own (re-exporting) wins
    return module


def _episode_record(trace: Any) -> dict[str, Any]:
    record = trace.info.get(INFO_KEY)
    return record if isinstance(record, dict) else {}


def plugin() -> types.ModuleType:
    """The module of toolgym's verifiers classes (:data:`PLUGIN_CLASSES`), built on first use.

    Raises:
        DependencyNotInstalled: verifiers is not installed.
    """
    require_verifiers()  # every time: a cached build must not hide a missing verifiers
    return _plugin()


def __getattr__(name: str) -> Any:
    if name in PLUGIN_CLASSES:
        return getattr(plugin(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# -- the environment ------------------------------------------------------------------------------


def load_environment(
    env_id: str,
    *,
    split: str = "test",
    limit: int | None = None,
    num_examples: int | None = None,
    seed: int | None = None,
    world_seed: int | None = None,
    system_prompt: str | None = None,
    max_turns: int | None = None,
    **env_options: Any,
) -> Any:
    """A verifiers environment (``vf.Env``) of a toolgym env, scored by toolgym's reward.

    Its rollouts run its harness in verifiers' ``subprocess`` runtime (a scratch folder: the
    episode itself is played in this process) and take the run's model.

    Args:
        env_id: a registered toolgym env id (``toolbench/<Name>-v<N>``).
        split: the split of the rows; ``train`` draws generated ``train-<k>`` tasks.
        limit: rows at most (``None``: the whole split; endless for ``train``).
        num_examples: another name of ``limit`` (give one, or both alike).
        seed: shuffles the split (``None``: its order); on ``train``, picks the tasks drawn.
        world_seed: the simulated world (``None``: the env's default).
        system_prompt: a system prompt for every row (``None``: none).
        max_turns: model turns per rollout at most (``None``: until the episode ends; the env's
            step limit ends it).
        **env_options: more ``gym.make`` options of the env (``reward_type``, the family's).

    Raises:
        DependencyNotInstalled: verifiers is not installed.
        UserInputError: a bad argument, or an env that cannot be made.
    """
    vf = require_verifiers()
    plugin()
    limit = _check_count("limit", limit)
    num_examples = _check_count("num_examples", num_examples)
    if limit is not None and num_examples is not None and limit != num_examples:
        raise UserInputError(
            f"limit and num_examples name the same count; got limit={limit}, "
            f"num_examples={num_examples}"
        )
    max_turns = _check_count("max_turns", max_turns)
    if system_prompt is not None and not isinstance(system_prompt, str):
        raise UserInputError(f"system_prompt is text or None; got {type(system_prompt).__name__}")
    if "action_mode" in env_options:
        raise UserInputError(
            "a verifiers environment plays tool calls; action_mode is not an option"
        )
    taskset = {
        "id": TASKSET_ID,
        "env_id": env_id,
        "split": split,
        "limit": limit if limit is not None else num_examples,
        "seed": _check_seed("seed", seed),
        "world_seed": _check_seed("world_seed", world_seed),
        "env_options": env_options,
        "system_prompt_text": system_prompt,
    }
    agent = {"runtime": {"type": "subprocess"}, "max_turns": max_turns}
    config = vf.resolve_env_config({"taskset": taskset, "agent": agent})
    return vf.load_environment(config)


async def evaluate(
    env: Any,
    *,
    model: str,
    base_url: str,
    api_key_var: str = "OPENAI_API_KEY",
    rollouts_per_task: int = 1,
    max_concurrent: int | None = None,
    tasks: list[Any] | None = None,
) -> list[Any]:
    """Play every task of ``env`` (or ``tasks``) with a model; the verifiers episodes, in order.

    A small stand-in for ``vf-eval`` in a Python program: verifiers' serving resources come up
    once, then each rollout runs through ``env.run_slot``. Each episode's trace has the reward
    (``trace.reward``), the metrics (``trace.metrics``) and the record (``trace.info["toolgym"]``).

    Args:
        env: an environment from :func:`load_environment`.
        model: the model name sent to the endpoint.
        base_url: an OpenAI-compatible endpoint (``http://host:port/v1``).
        api_key_var: the environment variable that holds the endpoint's key.
        rollouts_per_task: rollouts of each task.
        max_concurrent: rollouts at once at most (``None``: all).
        tasks: the tasks to play (``None``: every task of the env's taskset).

    Raises:
        DependencyNotInstalled: verifiers is not installed.
        UserInputError: a count that is not positive, or an endless taskset without ``tasks``.
    """
    vf = require_verifiers()
    if isinstance(rollouts_per_task, bool) or not isinstance(rollouts_per_task, int):
        raise UserInputError(f"rollouts_per_task is an int >= 1; got {rollouts_per_task!r:.80}")
    if rollouts_per_task < 1:
        raise UserInputError(f"rollouts_per_task is an int >= 1; got {rollouts_per_task}")
    if max_concurrent is not None and (
        isinstance(max_concurrent, bool)
        or not isinstance(max_concurrent, int)
        or max_concurrent < 1
    ):
        raise UserInputError(f"max_concurrent is an int >= 1 or None; got {max_concurrent!r:.80}")
    if tasks is None:
        if not env.taskset.bounded:
            raise UserInputError(
                "the taskset is endless (the train split without a limit): pass tasks, or load "
                "the environment with a limit"
            )
        tasks = list(env.taskset)
    client = vf.EvalClientConfig(base_url=base_url, api_key_var=api_key_var)
    ctx = vf.ModelContext(model=model, client=client)
    gate = asyncio.Semaphore(max_concurrent) if max_concurrent else None
    async with env.serving():
        slots = [slot for task in tasks for slot in env.slots(task, rollouts_per_task)]
        return list(await asyncio.gather(*(env.run_slot(slot, ctx, gate) for slot in slots)))
