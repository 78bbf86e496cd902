"""Ray for toolgym: joining a session, and models served to the workers of each node.

An LLM agent is described by an :class:`AgentRecipe`: a factory of its backend and a factory of
the agent given an env and a backend (both picklable, e.g. a :func:`functools.partial` of
:func:`~toolgym.agents.backends.make_backend`). With ``shared=True`` (the default, for models
loaded in process) one model actor per Ray node, placed on that node, loads the model once and
serves every worker of the node through a :class:`RemoteBackend` (a proxy
:class:`~toolgym.agents.backends.base.LLMBackend` whose ``generate`` calls the node's actor; the
actor serves one call at a time). The actors stay loaded for the recipe's next run (the next env
of a command line) until :func:`release_models`. With ``shared=False`` (a model served over HTTP)
each worker builds its own client backend and no model actor is made.

:func:`connect_ray` joins the Ray instance this process already started, else starts a local one
(no dashboard, workers' output kept in Ray's log files, Ray's own logging at error level only), or
joins a cluster by address.
"""

from __future__ import annotations

import contextlib
import logging
import os
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import gymnasium as gym

from toolgym.agents import Agent
from toolgym.agents.backends.base import (
    DEFAULT_STOPS,
    Generation,
    LLMBackend,
    Prompt,
    grammar_options,
)
from toolgym.errors import DependencyNotInstalled, InfrastructureError
from toolgym.tools.grammar import ActionGrammar

RAY_INSTALL = 'pip install "toolgym[ray]"'
"""The command that installs Ray for toolgym."""


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


def raise_remote(error: Exception) -> NoReturn:
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
        self,
        prompts: list[Prompt],
        max_new_tokens: int,
        stop: list[str],
        tools: Any,
        grammars: list[ActionGrammar | None] | None = None,
    ) -> list[Generation]:
        """The backend's generations for ``prompts``."""
        self.load()
        assert self.backend is not None
        return self.backend.generate(
            prompts,
            max_new_tokens=max_new_tokens,
            stop=stop,
            tools=tools,
            **grammar_options(grammars or []),
        )

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
        grammars: Sequence[ActionGrammar | None] | None = None,
    ) -> list[Generation]:
        """One generation per prompt, from the node's model actor."""
        ray = require_ray()
        chosen = None if grammars is None else list(grammars)
        call = self.actor.generate.remote(list(prompts), max_new_tokens, list(stop), tools, chosen)
        try:
            return list(ray.get(call))
        except ray.exceptions.RayActorError as e:
            raise InfrastructureError(f"the actor serving the {self.name} model died: {e}") from e
        except ray.exceptions.RayTaskError as e:
            raise_remote(e)


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
        kill_actors(ray, actors.values())
        raise InfrastructureError(f"a model actor died while loading its model: {e}") from e
    except ray.exceptions.RayTaskError as e:
        kill_actors(ray, actors.values())
        raise_remote(e)
    return {node: (actor, name) for (node, actor), name in zip(actors.items(), names, strict=True)}


_LOADED: dict[int, tuple[AgentRecipe, str, dict[str, tuple[Any, str]]]] = {}
"""Model actors kept between runs: ``id(recipe) -> (recipe, Ray job, {node: (actor, name)})``."""


def models_for(ray: Any, recipe: AgentRecipe) -> dict[str, tuple[Any, str]]:
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
            kill_actors(ray, [actor for actor, _ in cached[2].values()])
    models = _start_models(ray, recipe)
    _LOADED[id(recipe)] = (recipe, job, models)
    return models


def drop_models(ray: Any, recipe: AgentRecipe) -> None:
    """End the recipe's model actors now and forget them (after a run that failed)."""
    entry = _LOADED.pop(id(recipe), None)
    if entry is not None:
        kill_actors(ray, [actor for actor, _ in entry[2].values()])


def release_models() -> None:
    """End the model actors kept between runs (Ray ends them too when this process exits)."""
    ray = require_ray()
    for _, _, models in list(_LOADED.values()):
        if ray.is_initialized():
            release_actors(ray, [actor for actor, _ in models.values()])
    _LOADED.clear()


def kill_actors(ray: Any, actors: Any) -> None:
    """End ``actors`` now (one that is gone already is skipped)."""
    for actor in actors:
        with contextlib.suppress(Exception):
            ray.kill(actor, no_restart=True)


def release_actors(ray: Any, actors: list[Any], timeout_s: float = 30.0) -> None:
    """Let idle actors close what they hold (an env's sandbox process, a model), then end them."""
    calls = []
    for actor in actors:
        with contextlib.suppress(Exception):
            calls.append(actor.close.remote())
    with contextlib.suppress(Exception):
        ray.wait(calls, num_returns=len(calls), timeout=timeout_s)
    kill_actors(ray, actors)
