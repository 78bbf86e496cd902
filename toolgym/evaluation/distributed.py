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

Models and the Ray session (:mod:`toolgym.evaluation.ray_models`). An LLM agent travels as an
:class:`~toolgym.evaluation.ray_models.AgentRecipe`: one model actor per node serves the node's
workers, or each worker has its own client of a served model. ``address=None`` joins the Ray
instance this process already started, else starts a local one with ``num_cpus=workers``; an
address joins that cluster, whose nodes need toolgym (and the env's data) installed.
"""

from __future__ import annotations

import contextlib
import math
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import gymnasium as gym

from toolgym.agents import Agent, make_agent
from toolgym.agents.backends.base import LLMBackend
from toolgym.errors import InfrastructureError
from toolgym.evaluation.dfsdt import run_dfsdt
from toolgym.evaluation.episodes import run_batch, run_episode
from toolgym.evaluation.ray_models import (
    RAY_INSTALL,
    AgentRecipe,
    AgentSpec,
    RemoteBackend,
    connect_ray,
    drop_models,
    kill_actors,
    models_for,
    raise_remote,
    ray_status,
    ray_status_line,
    release_actors,
    release_models,
    require_ray,
)
from toolgym.evaluation.records import EpisodeRecord
from toolgym.wrappers import FaultInjection

CHUNK_MAX = 8
"""The most episodes sent to a worker in one call."""

QUEUED_CHUNKS = 2
"""Chunks sent to a worker before its first one ends (so it never waits for the driver)."""

Todo = tuple[int, Any, int]
"""An episode to play: its index in the run, its task id and its reset seed."""


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
                raise_remote(e)
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
        kill_actors(self.ray, [slot.actor])
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
    models = models_for(ray, recipe) if recipe is not None else {}
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
            release_actors(ray, actors)
        else:  # workers may be mid-chunk: end them now, and the models with them
            kill_actors(ray, actors)
            if recipe is not None:
                drop_models(ray, recipe)


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
