"""Prompts for reinforcement learning: ``train`` tasks with the eval agent's prompt, no gold.

An RL trainer (TRL's ``GRPOTrainer``, say) samples completions for each prompt of its dataset
and scores them with a reward function; :class:`~toolgym.training.rewards.ExecutionReward` runs
them in the task's env. The records here are those prompts: the prompt
:class:`~toolgym.agents.llm_agent.LLMAgent` builds for a ``train`` task at evaluation time
(built as :func:`~toolgym.training.sft_data.build_examples` builds it), its ``task_id`` and its
``env_id``. The task's gold is never in a record: only the env reads it, inside ``step``.

Formats (:data:`~toolgym.training.sft_data.DATA_FORMATS`):

* ``"chat"``: ``{"prompt": [system, user], "task_id", "env_id"}``, the prompt as chat messages
  (no system message without the system prompt): TRL's conversational prompt-only format;
* ``"completion"``: ``{"prompt": text, "task_id", "env_id"}``, the prompt as a completion
  backend reads it (the system prompt, a blank line, the user text): TRL's standard format.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym

from toolgym.agents.backends.base import as_messages, as_text
from toolgym.agents.defaults import prompt_defaults
from toolgym.envs import env_ids as registered_env_ids
from toolgym.envs import family_of
from toolgym.errors import UserInputError
from toolgym.training.sft_data import (
    PROGRAM_MODE,
    check_counts,
    check_format,
    datasets_module,
    task_prompts,
)

SINGLE_STRATEGY = "single"


def single_step_env_ids() -> list[str]:
    """The registered env ids whose protocol is one generation per task, in registry order."""
    return [
        env_id
        for env_id in registered_env_ids()
        if family_of(env_id).action_mode == PROGRAM_MODE
        and prompt_defaults(family_of(env_id).name).strategy == SINGLE_STRATEGY
    ]


def check_single_step(
    env_id: str, action_mode: str | None = None, page_prompts: bool = False
) -> None:
    """Refuse an env whose episodes take several generations (their rewards need rollouts).

    Args:
        env_id: a registered env id.
        action_mode: the env's action mode, when it is not the family's.
        page_prompts: whether the env's agent builds a fresh prompt on each page.

    Raises:
        UserInputError: an unknown env id, or a multi-step protocol (``action_mode="call"``, a
            ReAct default strategy, prompts built page by page).
    """
    known = registered_env_ids()
    if env_id not in known:
        raise UserInputError(f"unknown env id {env_id!r}; known: {', '.join(known)}")
    spec = family_of(env_id)
    mode = spec.action_mode if action_mode is None else action_mode
    reasons = []
    if mode != PROGRAM_MODE:
        reasons.append(f"action_mode {mode!r}: one tool call per step")
    strategy = prompt_defaults(spec.name).strategy
    if strategy != SINGLE_STRATEGY:
        reasons.append(f"its agents play {strategy!r}: one generation per turn")
    if page_prompts:
        reasons.append("its agent writes each step from a new prompt on each page")
    if reasons:
        raise UserInputError(
            f"{env_id} ({spec.name}) is multi-step ({'; '.join(reasons)}): an episode takes "
            "several generations, so a completion is not scored alone and its reward needs "
            "rollouts of the whole episode. Execution rewards take single-step envs "
            f"(action_mode {PROGRAM_MODE!r}): {', '.join(single_step_env_ids())}"
        )


def rl_env_ids(env_ids: str | Sequence[str]) -> list[str]:
    """``env_ids`` as a list, duplicates kept once, each checked with :func:`check_single_step`.

    Raises:
        UserInputError: none named, an unknown env id, or a multi-step env.
    """
    ids = [env_ids] if isinstance(env_ids, str) else list(env_ids)
    if not ids:
        raise UserInputError("name at least one env id; got none")
    unique = list(dict.fromkeys(ids))
    for env_id in unique:
        check_single_step(env_id)
    return unique


def rl_examples(
    env_ids: str | Sequence[str],
    n: int = 1800,
    *,
    fmt: str = "chat",
    seed: int = 0,
    world_seed: int = 0,
    shots: int | None = None,
    all_shot: bool = False,
    system_prompt: bool = True,
    retriever: str = "bm25",
    top_k_api: int | None = None,
) -> list[dict[str, Any]]:
    """``n`` prompt records per env, env after env; the same arguments give the same records.

    The tasks and prompts are :func:`~toolgym.training.sft_data.build_examples`'s for the same
    arguments (the tasks ``train-<seed * 2**32 + i>``, ``i < n``), without their gold.

    Args:
        env_ids: one env id or several (single-step envs).
        n: records per env.
        fmt: ``"chat"`` (the prompt as messages) or ``"completion"`` (as text).
        seed: which stream of ``train`` tasks (streams of different seeds share no task).
        world_seed: the simulated world the tasks are generated for (score them with an
            :class:`~toolgym.training.rewards.ExecutionReward` of the same ``world_seed``).
        shots: demonstrations retrieved per prompt (default: the family's, as ``toolgym eval``).
        all_shot: every demonstration of the ``demo`` split in each prompt, in split order.
        system_prompt: put the agent's system prompt first, or leave it out.
        retriever: ``"bm25"`` or ``"embedding"``, as the agent's.
        top_k_api: API docs per prompt (default: the family's).

    Returns:
        Records ``{"prompt", "task_id", "env_id"}``.

    Raises:
        UserInputError: a multi-step or unknown env, a bad count, shots or format.
    """
    check_format(fmt)
    check_counts(n, shots, all_shot)
    records: list[dict[str, Any]] = []
    for env_id in rl_env_ids(env_ids):
        pairs = task_prompts(
            env_id,
            n,
            seed=seed,
            world_seed=world_seed,
            shots=shots,
            all_shot=all_shot,
            system_prompt=system_prompt,
            retriever=retriever,
            top_k_api=top_k_api,
        )
        for task, prompt in pairs:
            shown = as_messages(prompt) if fmt == "chat" else as_text(prompt)
            records.append({"prompt": shown, "task_id": str(task.task_id), "env_id": env_id})
    return records


def task_difficulties(records: Sequence[dict[str, Any]], *, world_seed: int = 0) -> list[int]:
    """The difficulty of each record's ``train`` task: the API calls of its reference program.

    This is a curriculum's ordering key. The env counts it
    (:meth:`~toolgym.envs.tool_env.ToolEnv.task_calls`): the reference program never leaves
    the env, and the prompts are not changed.

    Args:
        records: :func:`rl_examples`'s records (``task_id``, ``env_id``).
        world_seed: the world they were generated for.
    """
    counts: list[int] = []
    envs: dict[str, Any] = {}
    try:
        for record in records:
            env_id = record["env_id"]
            if env_id not in envs:
                envs[env_id] = gym.make(env_id, split="train", world_seed=world_seed)
            counts.append(envs[env_id].unwrapped.task_calls(record["task_id"]))
    finally:
        for env in envs.values():
            env.close()
    return counts


def to_rl_dataset(env_ids: str | Sequence[str], n: int = 1800, **options: Any) -> Any:
    """:func:`rl_examples` as a Hugging Face ``datasets.Dataset``: ``prompt``, ``task_id``, ``env_id``.

    Args:
        env_ids: one env id or several (single-step envs).
        n: records per env.
        **options: :func:`rl_examples`'s keyword arguments (``fmt``, ``seed``, ``shots``, ...).

    Raises:
        DependencyNotInstalled: ``datasets`` is not installed.
        UserInputError: as :func:`rl_examples`.
    """
    datasets = datasets_module()  # before the prompts are built
    return datasets.Dataset.from_list(rl_examples(env_ids, n, **options))
