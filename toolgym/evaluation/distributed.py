"""Episodes played on a Ray cluster (or a local Ray instance), recorded by the driver alone.

:func:`play_on_ray` plays a list of episodes ``(index, task_id, seed)`` on Ray actors and hands
each record back to the driver, which calls ``on_record(index, record)`` as records arrive.

Workers. Each worker is a Ray actor that builds its env (and its agent) once, then plays chunks
of a few episodes each, with the runner's own loops (:func:`~toolgym.evaluation.runner.run_episode`,
:func:`~toolgym.evaluation.runner.run_batch`, :func:`~toolgym.evaluation.runner.run_dfsdt`),
so a record is the one a local :func:`~toolgym.evaluation.runner.evaluate` makes. A chunk is
one Ray generator call: the worker yields each record as its episode ends, so the driver
records episodes in the order they end, not chunk by chunk. Each worker has at most two chunks
queued, so it never waits for the driver between chunks.

Exactly-once recording. Workers never write results; the driver is their only writer (the
caller's ``on_record`` appends to the results file), so:

* an episode is recorded when its record reaches the driver, and only then;
* when a worker dies (its process killed, its node lost), the driver starts a new worker and
  sends it the episodes of the dead one's chunks that were not recorded yet (an episode whose
  worker died while playing it ``max_retries + 1`` times stops the run with an
  :class:`~toolgym.errors.InfrastructureError`);
* a record of an index already recorded (an episode that was played twice) is dropped.

What the local runner raises, this raises: an ``InfrastructureError`` out of a worker (a model
server that is down) stops the run, the episodes in flight are not recorded (a resume plays
them again), and every other exception out of a worker (an unknown task id, a missing package)
is raised in the driver as it was raised in the worker.

Models. An LLM agent is described by an :class:`AgentRecipe`: a factory of its backend and a
factory of the agent given an env and a backend (both picklable, e.g. a
:func:`functools.partial` of :func:`~toolgym.agents.backends.make_backend`). With
``shared=True`` (the default, for models loaded in process) the driver starts one model actor
per Ray node, placed on that node, which loads the model once and serves every worker of the
node through a :class:`RemoteBackend` (a proxy :class:`~toolgym.agents.backends.base.LLMBackend`
whose ``generate`` calls the node's actor; the actor serves one call at a time). With
``shared=False`` (a model served over HTTP, say by an OpenAI-compatible server) each worker
builds its own client backend and no model actor is made.

Ray. ``address=None`` joins the Ray instance this process already started, else starts a local
one (``num_cpus=workers``, no dashboard, workers' output kept in Ray's log files, Ray's own
logging at error level only); an address joins that cluster, whose nodes need toolgym (and
the env's data) installed. The instance stays up for the next call (``ray.shutdown()`` ends
it; Ray also ends it when the process exits).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import warnings
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import gymnasium as gym

from toolgym.agents import Agent, make_agent
from toolgym.agents.backends.base import DEFAULT_STOPS, Generation, LLMBackend, Prompt
from toolgym.errors import DependencyNotInstalled, InfrastructureError
from toolgym.evaluation.dfsdt import run_dfsdt
from toolgym.evaluation.episodes import run_batch, run_episode
from toolgym.evaluation.records import EpisodeRecord
from toolgym.wrappers import FaultInjection

RAY_INSTALL = 'pip install "toolgym[ray]"'
"""The command that installs Ray for toolgym."""

CHUNK_MAX = 8
"""The most episodes sent to a worker in one call."""

QUEUED_CHUNKS = 2
"""Chunks sent to a worker before its first one ends (so it never waits for the driver)."""

Todo = tuple[int, Any, int]
"""An episode to play: its index in the run, its task id and its reset seed."""


@dataclass(frozen=True)
class AgentRecipe:
    """How a worker builds an LLM agent: a backend, then an agent for an env over it.

    Both factories travel to the workers (Ray pickles them with cloudpickle): use module-level
    functions or :func:`functools.partial` of them rather than objects that hold a loaded model.

    Attributes:
        backend_factory: builds the backend, e.g.
            ``functools.partial(make_backend, "hf", model="...")``.
        agent_factory: ``(env, backend) -> Agent``, e.g. a function calling
            ``LLMAgent.for_env(env, backend, ...)``.
        shared: one model actor per node serves the node's workers (a model loaded in
            process); ``False``: each worker builds its own backend (a client of a served model).
        num_cpus: CPUs reserved for each model actor (0: it shares the node's CPUs with the
            workers; a CPU model then chooses its own threads, e.g. the HF backend's
            ``num_threads``).
        num_gpus: GPUs reserved for each model actor; model actors go only to nodes that have
            them.
    """

    backend_factory: Callable[[], LLMBackend]
    agent_factory: Callable[[gym.Env[Any, Any], LLMBackend], Agent]
    shared: bool = True
    num_cpus: float = 0.0
    num_gpus: float = 0.0


AgentSpec = str | Callable[[gym.Env[Any, Any]], Agent] | AgentRecipe
"""What a worker builds its agent from: a built-in agent's name, a factory, or a recipe."""


def require_ray() -> Any:
    """The ``ray`` module.

    Raises:
        DependencyNotInstalled: Ray is not installed (the message names the pip command).
    """
    try:
        import ray
    except ImportError as e:
        raise DependencyNotInstalled(
            f"distributed evaluation needs Ray ({e.name} is missing): {RAY_INSTALL}"
        ) from e
    return ray


def _errors_to_stderr(ray: Any) -> None:
    """Send the messages Ray prints about dead workers to stderr rather than stdout.

    Ray's driver prints them to stdout whatever ``log_to_driver`` says; stdout is kept for
    toolgym's own output. A Ray without that hook is left as it is.
    """
    module = getattr(getattr(ray, "_private", None), "worker", None)
    original = getattr(module, "print_to_stdstream", None)
    if original is None or getattr(original, "to_stderr", False):
        return

    def to_stderr(data: dict[str, Any], ignore_prefix: bool) -> None:
        original({**data, "is_err": True}, ignore_prefix)

    to_stderr.to_stderr = True  # type: ignore[attr-defined]
    module.print_to_stdstream = to_stderr  # type: ignore[union-attr]


def connect_ray(address: str | None = None, *, num_cpus: int | None = None) -> Any:
    """Join (or start) a Ray instance quietly; the ``ray`` module.

    Args:
        address: a cluster's address (``ray://host:10001``, ``host:6379`` or ``auto``); ``None``
            joins the instance this process already joined, else starts a local one.
        num_cpus: the CPUs of a local instance started here (default: the machine's).

    Raises:
        DependencyNotInstalled: Ray is not installed.
    """
    ray = require_ray()
    if ray.is_initialized():
        return ray
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no network calls of Ray's own
    options: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": False,
        "logging_level": logging.ERROR,
    }
    if address is None:
        options["num_cpus"] = num_cpus
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ray.init(address=address, **options)
    _errors_to_stderr(ray)
    return ray


def ray_status(address: str | None = None, *, workers: int | None = None) -> dict[str, Any]:
    """What the Ray instance has: ``{"ray", "address", "nodes", "cpus", "gpus"}``.

    It joins (or starts, with ``workers`` CPUs) the instance as :func:`connect_ray` does.
    """
    ray = connect_ray(address, num_cpus=workers)
    resources = ray.cluster_resources()
    return {
        "ray": ray.__version__,
        "address": getattr(ray.get_runtime_context(), "gcs_address", None),
        "nodes": sum(1 for node in ray.nodes() if node.get("Alive")),
        "cpus": int(resources.get("CPU", 0)),
        "gpus": int(resources.get("GPU", 0)),
    }


def ray_status_line(status: dict[str, Any]) -> str:
    """:func:`ray_status` as one line, e.g. ``ray 2.9.3: 1 node, 2 CPUs, 0 GPUs``."""
    nodes = status["nodes"]
    return (
        f"ray {status['ray']}: {nodes} node{'s' if nodes != 1 else ''}, "
        f"{status['cpus']} CPUs, {status['gpus']} GPUs"
    )


def _raise_remote(error: Exception) -> NoReturn:
    """Raise what a Ray task or actor call raised (Ray's error is its ``__cause__``)."""
    cause = getattr(error, "cause", None)
    if isinstance(cause, Exception):
        raise cause from error
    raise error


class _ModelServer:
    """A Ray actor holding one loaded backend for the workers of its node."""

    def __init__(self, backend_factory: Callable[[], LLMBackend]) -> None:
        self.factory = backend_factory
        self.backend: LLMBackend | None = None

    def load(self) -> str:
        """Load the model (once); the backend's name."""
        if self.backend is None:
            self.backend = self.factory()
        return self.backend.name

    def generate(
        self, prompts: list[Prompt], max_new_tokens: int, stop: list[str], tools: Any
    ) -> list[Generation]:
        """The backend's generations for ``prompts``."""
        self.load()
        assert self.backend is not None
        return self.backend.generate(prompts, max_new_tokens=max_new_tokens, stop=stop, tools=tools)

    def close(self) -> None:
        """Release the backend."""
        if self.backend is not None:
            self.backend.close()


class RemoteBackend(LLMBackend):
    """An :class:`LLMBackend` whose generations come from a model actor (one per node).

    Failures of the model come back as they were raised (a rejected prompt stays
    :class:`~toolgym.agents.backends.base.PromptRejected`); a model actor that died is an
    :class:`~toolgym.errors.InfrastructureError`.

    Args:
        actor: the handle of a model actor.
        name: the served backend's name (in error messages).
    """

    def __init__(self, actor: Any, name: str = "remote") -> None:
        self.actor = actor
        self.name = name

    def generate(
        self,
        prompts: Sequence[Prompt],
        *,
        max_new_tokens: int = 128,
        stop: Sequence[str] = DEFAULT_STOPS,
        tools: list[dict[str, Any]] | None = None,
    ) -> list[Generation]:
        """One generation per prompt, from the node's model actor."""
        ray = require_ray()
        call = self.actor.generate.remote(list(prompts), max_new_tokens, list(stop), tools)
        try:
            return list(ray.get(call))
        except ray.exceptions.RayActorError as e:
            raise InfrastructureError(f"the actor serving the {self.name} model died: {e}") from e
        except ray.exceptions.RayTaskError as e:
            _raise_remote(e)


@dataclass(frozen=True)
class _Plan:
    """What every worker of a run plays: the env, the agent and the runner's settings."""

    env_id: str
    env_kwargs: dict[str, Any]
    agent: AgentSpec
    strategy: str
    dfsdt_width: int
    faults: float | None
    seed: int
    batch_size: int
    models: dict[str, tuple[Any, str]]


class _Worker:
    """A Ray actor that builds its env and agent once, then plays chunks of episodes."""

    def __init__(self, plan: _Plan) -> None:
        self.plan = plan
        self.envs: list[gym.Env[Any, Any]] = []
        self.agents: list[Agent] = []
        self.backend: LLMBackend | None = None

    def _add_player(self) -> None:
        """One more env and its agent (as the local runner builds them)."""
        plan = self.plan
        env = gym.make(plan.env_id, **plan.env_kwargs)
        if plan.faults is not None:
            env = FaultInjection(env, plan.faults, seed=plan.seed)
        spec = plan.agent
        if isinstance(spec, AgentRecipe):
            if self.backend is None and not spec.shared:
                self.backend = spec.backend_factory()
            elif self.backend is None:
                import ray

                node = ray.get_runtime_context().get_node_id()
                actor, name = plan.models.get(node) or next(iter(plan.models.values()))
                self.backend = RemoteBackend(actor, name)
            agent = spec.agent_factory(env, self.backend)
        else:
            agent = make_agent(spec, env, plan.seed) if isinstance(spec, str) else spec(env)
        self.envs.append(env)
        self.agents.append(agent)

    def _batch(self) -> int:
        """Episodes played in lockstep (the local runner's rule), building the players first."""
        plan = self.plan
        if not self.envs:
            self._add_player()
        batched = plan.batch_size > 1 and plan.strategy != "dfsdt"
        if not (batched and hasattr(self.agents[0], "prompt")):
            return 1
        while len(self.envs) < plan.batch_size:
            self._add_player()
        return plan.batch_size

    def play(self, chunk: list[Todo]) -> Iterator[tuple[int, EpisodeRecord]]:
        """Play ``chunk``, yielding ``(index, record)`` as each episode (or batch) ends."""
        step = self._batch()
        env, agent = self.envs[0], self.agents[0]
        for k in range(0, len(chunk), step):
            part = chunk[k : k + step]
            _, task_id, seed = part[0]
            if step > 1:
                ids, seeds = [t for _, t, _ in part], [s for _, _, s in part]
                played = run_batch(self.envs[: len(part)], self.agents[: len(part)], ids, seeds)
            elif self.plan.strategy == "dfsdt":
                depth = (env.spec.max_episode_steps if env.spec else None) or 12
                width = self.plan.dfsdt_width
                played = [
                    run_dfsdt(env, agent, task_id=task_id, seed=seed, width=width, max_depth=depth)
                ]
            else:
                played = [run_episode(env, agent, task_id=task_id, seed=seed)]
            for (index, _, _), record in zip(part, played, strict=True):
                yield index, record

    def close(self) -> None:
        """Close the envs and the worker's own backend."""
        for closable in [*self.envs, self.backend]:
            with contextlib.suppress(Exception):
                if closable is not None and not isinstance(closable, RemoteBackend):
                    closable.close()


def chunk_size(episodes: int, workers: int, batch_size: int = 1) -> int:
    """Episodes per call: about four calls per worker, at most :data:`CHUNK_MAX` (whole batches).

    >>> chunk_size(100, 2), chunk_size(6, 2), chunk_size(100, 2, batch_size=4)
    (8, 1, 8)
    """
    size = max(1, min(CHUNK_MAX, math.ceil(episodes / max(1, workers * 4))))
    unit = max(1, batch_size)
    return max(unit, size - size % unit)


def _model_nodes(ray: Any, recipe: AgentRecipe) -> list[str]:
    """The alive nodes that can hold a model actor of ``recipe`` (and run workers)."""
    ids = []
    for node in ray.nodes():
        resources = node.get("Resources", {})
        if not node.get("Alive") or resources.get("CPU", 0) <= 0:
            continue
        if resources.get("CPU", 0) < recipe.num_cpus or resources.get("GPU", 0) < recipe.num_gpus:
            continue
        ids.append(node["NodeID"])
    return ids


def _start_models(ray: Any, recipe: AgentRecipe) -> dict[str, tuple[Any, str]]:
    """One loaded model actor per node that can hold one: ``{node id: (actor, backend name)}``.

    Raises:
        InfrastructureError: no node has the resources the recipe asks for.
        Exception: what loading the model raised (a missing package, a model not found).
    """
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    nodes = _model_nodes(ray, recipe)
    if not nodes:
        raise InfrastructureError(
            f"no Ray node has {recipe.num_cpus:g} CPUs and {recipe.num_gpus:g} GPUs for a model "
            f"actor; the cluster has {ray.cluster_resources()}"
        )
    server = ray.remote(_ModelServer)
    actors = {
        node: server.options(
            num_cpus=recipe.num_cpus,
            num_gpus=recipe.num_gpus,
            max_restarts=0,
            scheduling_strategy=NodeAffinitySchedulingStrategy(node, soft=False),
        ).remote(recipe.backend_factory)
        for node in nodes
    }
    try:
        names = ray.get([actor.load.remote() for actor in actors.values()])
    except ray.exceptions.RayActorError as e:
        _kill(ray, actors.values())
        raise InfrastructureError(f"a model actor died while loading its model: {e}") from e
    except ray.exceptions.RayTaskError as e:
        _kill(ray, actors.values())
        _raise_remote(e)
    return {node: (actor, name) for (node, actor), name in zip(actors.items(), names, strict=True)}


_LOADED: dict[int, tuple[AgentRecipe, str, dict[str, tuple[Any, str]]]] = {}
"""Model actors kept between runs: ``id(recipe) -> (recipe, Ray job, {node: (actor, name)})``."""


def _models_for(ray: Any, recipe: AgentRecipe) -> dict[str, tuple[Any, str]]:
    """The recipe's model actors: the ones an earlier run of this recipe loaded, else new ones.

    A command line that evaluates several envs with one recipe loads its model once per node,
    not once per env. Actors of another Ray session, or one that died, are started again.
    """
    job = str(ray.get_runtime_context().get_job_id())
    cached = _LOADED.get(id(recipe))
    if cached is not None and cached[0] is recipe and cached[1] == job:
        try:
            ray.get([actor.load.remote() for actor, _ in cached[2].values()], timeout=60)
            return cached[2]
        except Exception:  # one died: start them all again
            _kill(ray, [actor for actor, _ in cached[2].values()])
    models = _start_models(ray, recipe)
    _LOADED[id(recipe)] = (recipe, job, models)
    return models


def release_models() -> None:
    """End the model actors kept between runs (Ray ends them too when this process exits)."""
    ray = require_ray()
    for _, _, models in list(_LOADED.values()):
        if ray.is_initialized():
            _release(ray, [actor for actor, _ in models.values()])
    _LOADED.clear()


def _kill(ray: Any, actors: Any) -> None:
    for actor in actors:
        with contextlib.suppress(Exception):
            ray.kill(actor, no_restart=True)


def _release(ray: Any, actors: list[Any], timeout_s: float = 30.0) -> None:
    """Let idle actors close what they hold (an env's sandbox process, a model), then end them."""
    calls = []
    for actor in actors:
        with contextlib.suppress(Exception):
            calls.append(actor.close.remote())
    with contextlib.suppress(Exception):
        ray.wait(calls, num_returns=len(calls), timeout=timeout_s)
    _kill(ray, actors)


@dataclass
class _Slot:
    """A worker and the chunks it was sent that have not ended (generator, episodes)."""

    actor: Any
    chunks: list[tuple[Any, list[Todo]]]


class _Dispatcher:
    """Sends chunks to workers, records what comes back once, replaces workers that die."""

    def __init__(
        self,
        ray: Any,
        new_worker: Callable[[], Any],
        chunks: list[list[Todo]],
        workers: int,
        max_retries: int,
        on_record: Callable[[int, EpisodeRecord], None],
    ) -> None:
        self.ray, self.new_worker = ray, new_worker
        self.queue = deque(chunks)
        self.max_retries, self.on_record = max_retries, on_record
        self.slots = [_Slot(new_worker(), []) for _ in range(min(workers, len(chunks)))]
        self.expected = {index for chunk in chunks for index, _, _ in chunk}
        self.recorded: set[int] = set()
        self.deaths: Counter[int] = Counter()
        self.owner: dict[Any, _Slot] = {}

    def feed(self) -> None:
        """Keep :data:`QUEUED_CHUNKS` chunks queued on every worker while chunks are left."""
        for slot in self.slots:
            while self.queue and len(slot.chunks) < QUEUED_CHUNKS:
                chunk = self.queue.popleft()
                generator = slot.actor.play.remote(chunk)
                slot.chunks.append((generator, chunk))
                self.owner[generator] = slot

    def run(self) -> None:
        """Play every chunk; each record is handed to ``on_record`` once, as it arrives."""
        ray = self.ray
        self.feed()
        while self.owner:
            generator = ray.wait(list(self.owner), num_returns=1)[0][0]
            slot = self.owner[generator]
            try:
                index, record = ray.get(next(generator))
            except StopIteration:
                slot.chunks = [c for c in slot.chunks if c[0] is not generator]
                del self.owner[generator]
            except ray.exceptions.RayActorError as e:
                self.replace(slot, e)
            except ray.exceptions.RayTaskError as e:
                _raise_remote(e)
            else:
                if index in self.expected and index not in self.recorded:
                    self.recorded.add(index)
                    self.on_record(index, record)
            self.feed()
        missing = self.expected - self.recorded
        if missing:  # a worker ended a chunk without playing all of it
            raise InfrastructureError(f"{len(missing)} episodes came back without records")

    def replace(self, slot: _Slot, error: Exception) -> None:
        """A dead worker: its unrecorded episodes go back to the queue, a new worker joins.

        The first of them was being played when it died; it counts a death.

        Raises:
            InfrastructureError: that episode's workers died more than ``max_retries`` times.
        """
        left = [[e for e in chunk if e[0] not in self.recorded] for _, chunk in slot.chunks]
        left = [chunk for chunk in left if chunk]
        for generator, _ in slot.chunks:
            self.owner.pop(generator, None)
        slot.chunks = []
        if left:
            index, task_id, _ = left[0][0]
            self.deaths[index] += 1
            times = self.deaths[index]
            if times > self.max_retries:
                raise InfrastructureError(
                    f"the worker playing task {task_id!r} (episode {index}) died {times} "
                    f"time{'s' if times != 1 else ''}; an episode is sent again at most "
                    f"{self.max_retries} times: {str(error).splitlines()[0]}"
                ) from error
        self.queue.extendleft(reversed(left))
        _kill(self.ray, [slot.actor])
        slot.actor = self.new_worker()


def play_on_ray(
    env_id: str,
    agent: AgentSpec,
    todo: Sequence[Todo],
    *,
    env_kwargs: dict[str, Any],
    strategy: str = "single",
    dfsdt_width: int = 2,
    faults: float | None = None,
    seed: int = 0,
    workers: int = 2,
    address: str | None = None,
    batch_size: int = 1,
    max_retries: int = 3,
    on_record: Callable[[int, EpisodeRecord], None],
) -> None:
    """Play the episodes ``todo`` on Ray workers; ``on_record(index, record)`` in the driver.

    Records arrive in the order their episodes end; each index is recorded exactly once (see the
    module's documentation). The records are the local runner's: the caller sets their
    ``env_id``, ``agent``, ``split`` and ``strategy``, as
    :func:`~toolgym.evaluation.runner.evaluate` does.

    Args:
        env_id: a registered env id.
        agent: ``"oracle"``, ``"random"``, a picklable factory ``env -> Agent``, or an
            :class:`AgentRecipe` for an LLM agent.
        todo: ``(index, task_id, seed)`` of each episode to play.
        env_kwargs: ``gym.make``'s keyword arguments (the split or task file included).
        strategy: ``single``, ``react`` or ``dfsdt``.
        dfsdt_width: candidate actions per DFSDT node.
        faults: play with :class:`~toolgym.wrappers.FaultInjection` at this rate (seeded with
            ``seed``).
        seed: the run's base seed (the random agent's and the faults').
        workers: worker actors (one CPU each; at most the cluster's CPUs).
        address: a Ray cluster to join; ``None``: the local instance (started when needed, with
            ``workers`` CPUs).
        batch_size: episodes a worker plays in lockstep with batched generation (LLM agents).
        max_retries: how many times an episode whose worker died is sent again.
        on_record: called in the driver with each episode's index and record.

    Raises:
        DependencyNotInstalled: Ray is not installed.
        InfrastructureError: a model failed, or an episode's worker died more than
            ``max_retries`` times (nothing is recorded for the episodes in flight).
        ValueError: ``workers`` or ``batch_size`` below 1, or ``max_retries`` below 0.
    """
    if workers < 1 or batch_size < 1 or max_retries < 0:
        raise ValueError(
            f"workers and batch_size must be at least 1 and max_retries at least 0; got "
            f"workers={workers}, batch_size={batch_size}, max_retries={max_retries}"
        )
    if not todo:
        return
    recipe = agent if isinstance(agent, AgentRecipe) and agent.shared else None
    model_cpus = math.ceil(recipe.num_cpus) if recipe is not None else 0
    ray = connect_ray(address, num_cpus=workers + model_cpus)
    models = _models_for(ray, recipe) if recipe is not None else {}
    free = int(ray.cluster_resources().get("CPU", workers)) - model_cpus * len(models)
    workers = max(1, min(workers, free))
    worker = ray.remote(_Worker).options(num_cpus=1, max_restarts=0, max_task_retries=0)
    plan = _Plan(
        env_id, dict(env_kwargs), agent, strategy, dfsdt_width, faults, seed, batch_size, models
    )
    size = chunk_size(len(todo), workers, batch_size)
    chunks = [list(todo[k : k + size]) for k in range(0, len(todo), size)]
    dispatcher = _Dispatcher(
        ray, lambda: worker.remote(plan), chunks, workers, max_retries, on_record
    )
    done = False
    try:
        dispatcher.run()
        done = True
    finally:
        actors = [slot.actor for slot in dispatcher.slots]
        if done:  # the model actors stay loaded for the recipe's next run
            _release(ray, actors)
        else:  # workers may be mid-chunk: end them now, and the models with them
            _kill(ray, [*actors, *(a for a, _ in models.values())])
            if recipe is not None:
                _LOADED.pop(id(recipe), None)


__all__ = [
    "RAY_INSTALL",
    "AgentRecipe",
    "RemoteBackend",
    "chunk_size",
    "connect_ray",
    "play_on_ray",
    "ray_status",
    "ray_status_line",
    "release_models",
    "require_ray",
]
