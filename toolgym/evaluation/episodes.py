"""Playing episodes: one agent in one env, or N in lockstep with batched generation.

* :func:`run_episode`: one episode, one action per step (``single`` and ``react``);
* :func:`run_batch`: N episodes in lockstep, one batched generation per step for LLM agents that
  share a backend.

Whose failure it is decides what is recorded. An agent that fails (an exception out of ``act``,
a generation that cannot be parsed, a prompt the model server rejects) is recorded as the
episode's ``agent_error``; an exception out of ``env.step`` scores as an action that did not run
(:class:`EnvFailure`). When the infrastructure fails
(:class:`~toolgym.errors.InfrastructureError`: a model server down after its retries, a model
that crashed), it propagates and the episodes in flight are not recorded.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym

from toolgym.agents import Agent
from toolgym.agents.backends.base import PromptRejected, generate_with_tools
from toolgym.agents.timing import timed
from toolgym.envs.protocol import task_env
from toolgym.errors import InfrastructureError
from toolgym.evaluation.records import EpisodeRecord
from toolgym.tools.errors import (
    AGENT_ERROR,
    RUNTIME_ERROR,
    TIMEOUT,
    TRUNCATED_GENERATION,
    ToolCallError,
)


def new_record(obs: str, info: dict[str, Any]) -> EpisodeRecord:
    """The record of an episode that has just been reset (every loop starts one this way)."""
    return EpisodeRecord(info["task_id"], info["instruction"], observation=obs)


def agent_error(e: Exception) -> dict[str, str]:
    """The ``agent_error`` a record keeps when the agent (or its model backend) failed."""
    return {"category": AGENT_ERROR, "message": f"{type(e).__name__}: {e}"}


class EnvFailure(Exception):
    """An exception out of ``env.step``: the episode stops and scores as an action that failed."""

    def __init__(self, error: Exception) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.tool_error = ToolCallError(
            RUNTIME_ERROR, f"the environment failed on this action ({self})"
        )


def checked_action(action: Any) -> str:
    """``action`` itself, or a ``TypeError`` saying the agent returned something else."""
    if not isinstance(action, str):
        raise TypeError(f"the agent returned a {type(action).__name__}, not an action string")
    return action


def env_step(env: gym.Env[Any, Any], action: str) -> tuple[Any, ...]:
    """``env.step(action)``; an exception out of it becomes :class:`EnvFailure`."""
    try:
        with timed("env_step"):
            return env.step(action)
    except Exception as e:  # a toolgym bug: never score what the episode did before it
        raise EnvFailure(e) from e


def close_record(
    env: gym.Env[Any, Any],
    record: EpisodeRecord,
    terminated: bool,
    truncated: bool,
    step_info: dict[str, Any],
    start: float,
    failure: EnvFailure | None = None,
) -> EpisodeRecord:
    """Finish ``record``: its end flags, metrics, error (a timeout when a budget ended it), time.

    A terminated episode keeps the env's last metrics and error; one that did not end by itself
    is scored on the env's final state; ``failure`` (an exception out of ``env.step``) scores as
    an action that did not run. An episode a failure that is not the agent's ended
    (:attr:`EpisodeRecord.unscored`) keeps that failure as its error; summaries leave it out.
    """
    record.terminated, record.truncated = terminated, truncated
    record.warnings = step_info.get("warnings", [])
    if record.unscored is not None:  # not the agent's failure: kept, and said, not scored
        record.metrics = task_env(env).score().metrics_dict()
        record.error = record.unscored
    elif failure is not None:
        record.metrics = task_env(env).score(failure.tool_error).metrics_dict()
        record.error = failure.tool_error.to_info()
    elif terminated:
        record.metrics = step_info["metrics"]
        record.error = step_info["error"]
        record.prediction = step_info.get("prediction")
    else:
        record.metrics = task_env(env).score().metrics_dict()
        if record.error is None:
            record.error = {
                "category": TIMEOUT,
                "message": f"the step budget ({record.steps} steps) ran out before the episode ended",
            }
    if record.turns:  # the single-step protocol's fields, at the top for easy reading
        first = record.turns[0]
        record.prompt = first.get("prompt")
        record.generation = first.get("generation")
        record.action = first.get("action")
        record.error = truncation_error(record.turns[-1], record.error)
    task = task_env(env).task
    record.gold = None if task is None else list(task.gold)
    record.time_s = time.perf_counter() - start
    return record


def truncation_error(turn: dict[str, Any], error: dict[str, Any] | None) -> dict[str, Any] | None:
    """``error``, or a ``truncated_generation`` error when the turn's generation was cut.

    A generation that reached its token limit (``finish_reason == "length"``) ends mid-action, so
    the error its action gave ("attribute access not allowed" on a half-written line) is not what
    went wrong; the record says the generation was cut and keeps that error as the ``cause``.
    """
    if error is None or turn.get("finish_reason") != "length":
        return error
    if error.get("category") in (TRUNCATED_GENERATION, TIMEOUT, AGENT_ERROR):
        return error
    tokens = turn.get("completion_tokens")
    limit = f" ({tokens} tokens)" if tokens else ""
    return {
        "category": TRUNCATED_GENERATION,
        "message": (
            f"the generation reached its token limit{limit} before the action was complete; "
            f"the cut action failed with {error.get('category')}: {error.get('message')}"
        ),
        "cause": error,
    }


def run_episode(
    env: gym.Env[Any, Any],
    agent: Agent,
    *,
    task_id: Any = None,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
) -> EpisodeRecord:
    """Play one episode; agent failures are recorded (``agent_error``), never raised.

    Args:
        env: the env.
        agent: the agent.
        task_id: the task to play (``reset``'s ``{"task_id": ...}``).
        seed: the reset's seed.
        options: other reset options instead of ``task_id`` (``{"task": task}``: a task object).
    """
    if options is None:
        options = None if task_id is None else {"task_id": task_id}
    start = time.perf_counter()
    obs, info = env.reset(seed=seed, options=options)
    record = new_record(obs, info)
    terminated = truncated = False
    step_info: dict[str, Any] = {}
    failure = None
    try:
        agent.reset(obs, info)
        while not (terminated or truncated):
            action, turn = agent.act_with_info(obs, info)
            obs, reward, terminated, truncated, step_info = env_step(env, checked_action(action))
            info = {**info, **step_info}
            record.log_step(action, turn, obs, float(reward), step_info)
            if record.unscored is not None:  # the user failed: nothing more to score
                break
    except EnvFailure as e:
        failure = e
    except InfrastructureError:
        raise  # not the agent's failure: nothing is recorded
    except Exception as e:  # the agent (not the env) failed: keep the episode, say why
        record.error = agent_error(e)
    return close_record(env, record, terminated, truncated, step_info, start, failure)


def agent_grammar(agent: Any, info: dict[str, Any]) -> Any:
    """The agent's grammar for this turn, for agents that constrain their generations."""
    grammar = getattr(agent, "grammar", None)
    return grammar(info) if callable(grammar) else None


def agent_tools(agent: Any, info: dict[str, Any]) -> Any:
    """The tools the agent offers its model this turn (native tool calling), else ``None``."""
    tools = getattr(agent, "generation_tools", None)
    return tools(info) if callable(tools) else None


def run_batch(
    envs: Sequence[gym.Env[Any, Any]],
    agents: Sequence[Any],
    task_ids: Sequence[Any],
    seeds: Sequence[int | None],
    *,
    on_done: Callable[[int, EpisodeRecord], Any] | None = None,
) -> list[EpisodeRecord]:
    """Play ``len(task_ids)`` episodes in lockstep with one batched generation per step.

    ``agents`` are LLM agents (``prompt``/``parse`` halves) sharing one backend; slot ``i`` plays
    ``task_ids[i]`` in ``envs[i]``. Each episode is closed as soon as it ends: ``on_done(i,
    record)`` is called then (so a caller saves it and advances its progress without waiting for
    the batch), and its ``time_s`` is its own wall time, from the batch's start to its end.
    """
    n = len(task_ids)
    backend = agents[0].backend
    start = time.perf_counter()
    obs: list[str] = []
    infos: list[dict[str, Any]] = []
    records = []
    for i in range(n):
        options = None if task_ids[i] is None else {"task_id": task_ids[i]}
        o, info = envs[i].reset(seed=seeds[i], options=options)
        agents[i].reset(o, info)
        obs.append(o)
        infos.append(info)
        records.append(new_record(o, info))
    done = [False] * n
    last_info: list[dict[str, Any]] = [{} for _ in range(n)]
    flags = [(False, False)] * n
    failures: list[EnvFailure | None] = [None] * n
    closed: list[EpisodeRecord | None] = [None] * n

    def finish(i: int) -> None:
        done[i] = True
        terminated, truncated = flags[i]
        record = close_record(
            envs[i], records[i], terminated, truncated, last_info[i], start, failures[i]
        )
        closed[i] = record
        if on_done is not None:
            on_done(i, record)

    while not all(done):
        active = [i for i in range(n) if not done[i]]
        prompts = [agents[i].prompt(obs[i], infos[i]) for i in active]
        grammars = [agent_grammar(agents[i], infos[i]) for i in active]
        tools = [agent_tools(agents[i], infos[i]) for i in active]
        generations: list[Any]
        try:
            generations = generate_with_tools(
                backend,
                prompts,
                tools,
                grammars,
                max_new_tokens=agents[active[0]].max_new_tokens,
                stop=agents[active[0]].stop,
            )
        except PromptRejected:  # which one? each prompt alone, so the others still play
            generations = []
            for k, (i, prompt) in enumerate(zip(active, prompts, strict=True)):
                try:
                    generations.extend(
                        generate_with_tools(
                            backend,
                            [prompt],
                            [tools[k]],
                            [grammars[k]],
                            max_new_tokens=agents[i].max_new_tokens,
                            stop=agents[i].stop,
                        )
                    )
                except PromptRejected as e:
                    records[i].error = agent_error(e)
                    generations.append(None)
        for i, prompt, generation in zip(active, prompts, generations, strict=True):
            if generation is None:
                finish(i)
                continue
            try:
                action = checked_action(agents[i].parse(generation, infos[i]))
                turn = agents[i].record(prompt, generation, action)
            except Exception as e:  # the agent failed on this slot only
                records[i].error = agent_error(e)
                finish(i)
                continue
            try:
                o, reward, terminated, truncated, step_info = env_step(envs[i], action)
            except EnvFailure as e:
                failures[i] = e
                finish(i)
                continue
            infos[i] = {**infos[i], **step_info}
            obs[i] = o
            last_info[i] = step_info
            flags[i] = (terminated, truncated)
            records[i].log_step(action, turn, o, float(reward), step_info)
            if terminated or truncated or records[i].unscored is not None:
                finish(i)
    return [record for record in closed if record is not None]
