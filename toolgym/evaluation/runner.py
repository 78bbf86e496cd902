"""The evaluation runner: it runs agents in envs, records and summarizes episodes.

Three loops play episodes (re-exported here):

* :func:`~toolgym.evaluation.episodes.run_episode`: one episode, one agent, one action per step
  (``single`` and ``react``);
* :func:`~toolgym.evaluation.episodes.run_batch`: N episodes in lockstep, one batched generation
  per step for LLM agents that share a backend;
* :func:`~toolgym.evaluation.dfsdt.run_dfsdt`: depth-first search over actions with
  backtracking through the env's ``get_state``/``set_state`` (ToolLLM's DFSDT).

:func:`evaluate` plays them here, on a vector env (:mod:`toolgym.evaluation.vector_runner`) or on
Ray workers (:mod:`toolgym.evaluation.distributed`).

:func:`evaluate` writes one JSON line per episode as soon as it ends
(``<out>/<env>__<label>__<split>.jsonl``, see :mod:`toolgym.evaluation.results`) and, when the
file exists, resumes: episodes already recorded are kept and not run again, a line cut by an
interrupt is dropped and re-run, and a resume with other settings is refused.

Whose failure it is decides what is recorded. An agent that fails (an exception out of ``act``,
a generation that cannot be parsed, a prompt the model server rejects) is recorded as the
episode's ``agent_error``; an exception out of ``env.step`` scores as an action that did not run.
When the infrastructure fails (:class:`~toolgym.errors.InfrastructureError`: a model server down
after its retries, a model that crashed), the run stops and the episodes in flight are not
recorded, so a resume plays them again.
"""

from __future__ import annotations

import contextlib
import hashlib
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
from tqdm.auto import tqdm

from toolgym.agents import Agent, make_agent
from toolgym.envs.protocol import task_env
from toolgym.evaluation.dfsdt import run_dfsdt
from toolgym.evaluation.episodes import (
    EnvFailure,
    agent_error,
    checked_action,
    close_record,
    env_step,
    new_record,
    run_batch,
    run_episode,
)
from toolgym.evaluation.interrupts import interrupts_deferred
from toolgym.evaluation.profile import profile_of
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.report import summarize
from toolgym.evaluation.results import ResultsFile, record_key, run_records
from toolgym.wrappers import FaultInjection

__all__ = [
    "BACKENDS",
    "AgentFactory",
    "EnvFailure",
    "EvalResult",
    "agent_error",
    "checked_action",
    "close_record",
    "env_step",
    "evaluate",
    "fault_label",
    "new_record",
    "results_file",
    "results_path",
    "run_batch",
    "run_dfsdt",
    "run_episode",
]

AgentFactory = Callable[[gym.Env[Any, Any]], Agent]


@dataclass
class EvalResult:
    """Records of every episode (in task order), their summary and what this call played.

    ``resumed`` episodes came from the results file; ``wall_s`` is the time spent playing the
    others.
    """

    records: list[EpisodeRecord]
    summary: dict[str, Any]
    path: Path | None = None
    resumed: int = 0
    wall_s: float = 0.0

    @property
    def played(self) -> int:
        """How many episodes this call played (the others were resumed from the file)."""
        return len(self.records) - self.resumed


def _task_source(split: str, env_kwargs: dict[str, Any]) -> dict[str, Any]:
    """Where the tasks come from: a split, or a task file with the hash of its contents."""
    task_file = env_kwargs.get("task_file")
    if task_file is None:
        return {"split": split}
    path = Path(task_file)
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    return {"task_file": str(path.resolve()), "sha256": digest}


MAX_LABEL_CHARS = 64
"""Longer labels are shortened in file names (with a hash of the whole label)."""


def results_path(out_dir: str | Path, env_id: str, label: str, source: str) -> Path:
    """The results file of ``label`` on ``env_id`` (``source``: the split or task file's name)."""
    safe = "".join(c if c.isalnum() or c in "-_.=" else "_" for c in label)
    if len(safe) > MAX_LABEL_CHARS:
        digest = hashlib.sha256(label.encode("utf-8", "backslashreplace")).hexdigest()[:10]
        safe = f"{safe[: MAX_LABEL_CHARS - 11]}-{digest}"
    return Path(out_dir) / f"{env_id.replace('/', '_')}__{safe}__{source[:MAX_LABEL_CHARS]}.jsonl"


def results_file(
    out_dir: str | Path,
    env_id: str,
    label: str,
    *,
    agent_kind: str,
    split: str = "test",
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
    strategy: str = "single",
    batch_size: int = 1,
    dfsdt_width: int = 2,
    faults: float | None = None,
    settings: dict[str, Any] | None = None,
    resume: bool = True,
    task_ids: Sequence[Any] | None = None,
    limit: int | None = None,
) -> ResultsFile:
    """The results file of a run, with the manifest of its settings (not opened yet).

    :func:`evaluate` writes through it; a command line calls its ``check()`` first, to report a
    mismatched resume or a held lock before it loads a model. The arguments are
    :func:`evaluate`'s (``label`` already carries the ``@faults=`` suffix; ``batch_size`` is 1
    unless episodes are batched; ``task_ids`` and ``limit`` are the run's tasks, recorded as the
    manifest's ``run`` when it opens).
    """
    kwargs = dict(env_kwargs or {})
    tag = split if "task_file" not in kwargs else Path(kwargs["task_file"]).stem
    manifest = {
        "env_id": env_id,
        "agent": label,
        "agent_kind": agent_kind,
        "tasks": _task_source(split, kwargs),
        "seed": seed,
        "strategy": strategy,
        "env_kwargs": {k: _plain(v) for k, v in kwargs.items() if k not in ("split", "task_file")},
        "batch_size": batch_size,
        "faults": faults,
        **({"dfsdt_width": dfsdt_width} if strategy == "dfsdt" else {}),
        **(settings or {}),
    }
    return ResultsFile(
        results_path(out_dir, env_id, label, tag),
        manifest,
        resume=resume,
        task_ids=task_ids,
        limit=limit,
    )


def _plain(value: Any) -> Any:
    """An env argument as a manifest keeps it: JSON values as they are, an object by its name.

    (A model-played user is named ``llm:<model>``: its ``str``.)
    """
    if value is None or isinstance(value, str | int | float | bool | list | dict | tuple):
        return value
    return str(value)


def fault_label(label: str, faults: float | None) -> str:
    """The label of a run with service faults at rate ``faults`` (``label`` itself without)."""
    return label if faults is None else f"{label}@faults={faults:g}"


BACKENDS = ("local", "vector", "ray")
"""Where :func:`evaluate` plays episodes."""


def evaluate(
    env_id: str,
    agent: str | AgentFactory | Any = "oracle",
    *,
    split: str = "test",
    limit: int | None = None,
    task_ids: Sequence[Any] | None = None,
    seed: int = 0,
    env_kwargs: dict[str, Any] | None = None,
    out_dir: str | Path | None = None,
    progress: bool = True,
    batch_size: int = 1,
    strategy: str = "single",
    label: str | None = None,
    resume: bool = True,
    dfsdt_width: int = 2,
    settings: dict[str, Any] | None = None,
    on_record: Callable[[EpisodeRecord], Any] | None = None,
    faults: float | None = None,
    backend: str = "local",
    workers: int = 2,
    ray_address: str | None = None,
) -> EvalResult:
    """Evaluate an agent on the tasks of one env split (or ``limit`` of them, in order).

    Args:
        env_id: a registered id such as ``toolbench/HomeSearch-v0``.
        agent: ``"oracle"``, ``"random"``, a factory ``env -> Agent`` or, with
            ``backend="ray"``, an :class:`~toolgym.evaluation.distributed.AgentRecipe` (an LLM
            agent the workers build, its model loaded once per node).
        split: the split to evaluate (``test``, ``demo``; ``train`` needs ``limit``).
        limit: evaluate only the first ``limit`` tasks.
        task_ids: evaluate exactly these tasks.
        seed: base seed; episode ``i`` resets with ``seed + i``, and the random agent draws from
            a generator seeded by ``seed`` and the task's id.
        env_kwargs: extra keyword arguments for ``gym.make``.
        out_dir: where to write the JSONL records and their manifest (nothing written when
            ``None``).
        progress: show a progress bar.
        batch_size: episodes played in lockstep with batched generation (LLM agents).
        strategy: ``single``, ``react`` or ``dfsdt`` (DFSDT runs one episode at a time).
        label: the agent's name in file names and tables (default: the agent's ``name``).
        resume: keep and skip the episodes already in the output file (refused, with
            :class:`~toolgym.evaluation.results.ResultsMismatchError`, when they were made with
            other settings); ``False`` starts the file over.
        dfsdt_width: candidate actions per DFSDT node.
        settings: what else describes the agent (model, backend, shots, ...), kept in the
            manifest so that a resume with other values is refused.
        on_record: called with each record once it is saved.
        faults: play with :class:`~toolgym.wrappers.FaultInjection` at this rate (seeded with
            ``seed``); the agent's label gets ``@faults=RATE``.
        backend: ``"local"`` (this process), ``"vector"`` (an ``AsyncVectorEnv`` of
            ``workers`` sub-env processes, LLM generations batched over them, see
            :mod:`toolgym.evaluation.vector_runner`) or ``"ray"`` (episodes spread over
            ``workers`` Ray workers, see :mod:`toolgym.evaluation.distributed`). The records are
            the same, and only this process writes them.
        workers: sub-envs (``"vector"``) or Ray workers (``"ray"``).
        ray_address: an existing Ray cluster to join (default: a local instance).

    Raises:
        InfrastructureError: the model backend failed (nothing is recorded for the episodes in
            flight).
        ResultsMismatchError: a resume with settings other than the saved records'.
        ResultsLockedError: another process is writing the same results file.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend is one of {', '.join(BACKENDS)}; got {backend!r}")
    if backend == "vector" and strategy == "dfsdt":
        raise ValueError("DFSDT backtracks through one env's saved states; use backend='local'")
    kwargs = dict(env_kwargs or {})
    if "task_file" not in kwargs:
        kwargs["split"] = split

    def make_env() -> gym.Env[Any, Any]:
        made = gym.make(env_id, **kwargs)
        return made if faults is None else FaultInjection(made, faults, seed=seed)

    env = make_env()
    recipe = hasattr(agent, "backend_factory")  # an LLM agent the Ray workers build
    if recipe and backend != "ray":
        raise ValueError("an AgentRecipe describes an agent for Ray workers; pass backend='ray'")
    agent_obj: Any = None
    if isinstance(agent, str):
        agent_obj = make_agent(agent, env, seed)
    elif not recipe:
        agent_obj = agent(env)
    name = label or getattr(agent_obj, "name", None) or ("llm" if recipe else "agent")
    name = fault_label(name, faults)
    unwrapped = task_env(env)
    if task_ids is None:
        ids: list[Any] = list(unwrapped.task_ids)
        if not ids:
            if limit is None:
                raise ValueError(f"split {split!r} of {env_id} is unlimited; pass limit")
            ids = list(unwrapped.suite.sampled_train_ids(limit, seed))
        elif limit is not None:
            ids = ids[:limit]
    else:
        ids = list(task_ids)
    seeds = {i: seed + i for i in range(len(ids))}
    batchable = batch_size > 1 and strategy != "dfsdt" and (recipe or hasattr(agent_obj, "prompt"))
    results: ResultsFile | None = None
    if out_dir is not None:
        results = results_file(
            out_dir,
            env_id,
            name,
            agent_kind=agent if isinstance(agent, str) else "custom",
            split=split,
            seed=seed,
            env_kwargs=kwargs,
            strategy=strategy,
            batch_size=batch_size if batchable else 1,
            dfsdt_width=dfsdt_width,
            faults=faults,
            settings=settings,
            resume=resume,
            task_ids=ids,
            limit=limit,
        )
    fresh: dict[int, EpisodeRecord] = {}
    with contextlib.ExitStack() as stack:
        stack.callback(env.close)
        done: dict[str, EpisodeRecord] = {}
        if results is not None:
            stack.enter_context(results)
            done = {
                record_key(r.task_id): r for r in run_records(results.records, results.manifest)
            }
        todo = [(i, t) for i, t in enumerate(ids) if t is None or record_key(t) not in done]
        envs = [env]
        agents = [agent_obj]
        if batchable and backend == "local":
            for _ in range(batch_size - 1):
                extra = make_env()
                stack.callback(extra.close)
                envs.append(extra)
                agents.append(
                    agent(extra) if not isinstance(agent, str) else make_agent(agent, extra, seed)
                )
        bar = stack.enter_context(
            tqdm(
                total=len(ids),
                initial=len(ids) - len(todo),
                desc=f"{env_id} [{name}]",
                disable=not progress,
                leave=False,
            )
        )

        def keep(i: int, record: EpisodeRecord) -> None:
            record.env_id, record.agent, record.split, record.strategy = (
                env_id,
                name,
                split,
                strategy,
            )
            with interrupts_deferred():  # saved and counted together, or neither
                fresh[i] = record
                if results is not None:
                    results.append(record)
                if on_record is not None:
                    on_record(record)
            bar.update(1)

        if todo and len(todo) < len(ids) and progress:
            where = f" in {results.path}" if results is not None else ""
            tqdm.write(
                f"{env_id} [{name}]: resuming: {len(ids) - len(todo)} of {len(ids)} episodes "
                f"already recorded{where}, {len(todo)} to play",
                file=sys.stderr,
            )
        started = time.perf_counter()
        if backend == "ray":
            from toolgym.evaluation.distributed import play_on_ray

            play_on_ray(
                env_id,
                agent,
                [(i, t, seeds[i]) for i, t in todo],
                env_kwargs=kwargs,
                strategy=strategy,
                dfsdt_width=dfsdt_width,
                faults=faults,
                seed=seed,
                workers=workers,
                address=ray_address,
                batch_size=batch_size if batchable else 1,
                on_record=keep,
            )
        elif backend == "vector":
            _play_vector(env_id, agent, kwargs, todo, seeds, workers, seed, faults, keep)
        else:
            _play_local(envs, agents, todo, seeds, strategy, dfsdt_width, batchable, keep)
        wall = time.perf_counter() - started
    records = [fresh[i] if i in fresh else done[record_key(t)] for i, t in enumerate(ids)]
    spec = unwrapped.family
    profile = profile_of(spec)
    summary = summarize(
        records, spec.metrics, profile.breakdown, profile.headline, profile.known_metrics(spec)
    )
    path = results.path if results is not None else None
    return EvalResult(records, summary, path, resumed=len(ids) - len(todo), wall_s=wall)


def _play_vector(
    env_id: str,
    agent: str | AgentFactory,
    env_kwargs: dict[str, Any],
    todo: list[tuple[int, Any]],
    seeds: dict[int, int],
    workers: int,
    seed: int,
    faults: float | None,
    keep: Callable[[int, EpisodeRecord], None],
) -> None:
    """Play ``todo`` on an ``AsyncVectorEnv`` of ``workers`` sub-envs, one process each.

    An LLM agent's generations are batched over the sub-envs (its backend stays here).
    """
    from toolgym.evaluation.vector_runner import run_vector, sub_envs, vector_env

    wrappers = [] if faults is None else [lambda e: FaultInjection(e, faults, seed=seed)]
    vec = vector_env(env_id, min(workers, max(len(todo), 1)), wrappers=wrappers, **env_kwargs)
    try:
        subs = sub_envs(vec)
        agents = [make_agent(agent, e, seed) if isinstance(agent, str) else agent(e) for e in subs]
        run_vector(
            vec,
            agents,
            [t for _, t in todo],
            [seeds[i] for i, _ in todo],
            on_record=lambda k, record: keep(todo[k][0], record),
        )
    finally:
        vec.close()


def _play_local(
    envs: list[gym.Env[Any, Any]],
    agents: list[Any],
    todo: list[tuple[int, Any]],
    seeds: dict[int, int],
    strategy: str,
    dfsdt_width: int,
    batchable: bool,
    keep: Callable[[int, EpisodeRecord], None],
) -> None:
    """Play the episodes ``todo`` (index, task id) in this process, each kept as it ends."""
    env, agent = envs[0], agents[0]
    step = len(envs) if batchable else 1
    for k in range(0, len(todo), step):
        chunk = todo[k : k + step]
        if batchable:

            def keep_slot(
                slot: int, record: EpisodeRecord, chunk: list[tuple[int, Any]] = chunk
            ) -> None:
                keep(chunk[slot][0], record)

            run_batch(
                envs[: len(chunk)],
                agents[: len(chunk)],
                [t for _, t in chunk],
                [seeds[i] for i, _ in chunk],
                on_done=keep_slot,
            )
            continue
        i, t = chunk[0]
        if strategy == "dfsdt":
            limit_steps = env.spec.max_episode_steps if env.spec else None
            record = run_dfsdt(
                env,
                agent,
                task_id=t,
                seed=seeds[i],
                width=dfsdt_width,
                max_depth=limit_steps or 12,
            )
        else:
            record = run_episode(env, agent, task_id=t, seed=seeds[i])
        keep(i, record)
