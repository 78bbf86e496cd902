"""Supervised examples in the chat-with-tools format: the oracle's calls on ``train`` tasks.

A model that writes prose where a tool call is expected earns no reward in TRL's environments,
so GRPO has nothing to learn from. These examples are the start: each is one ``train`` task
played by its gold, as native tool calls (:meth:`~toolgym.envs.protocol.TaskEnv.oracle_calls`),
through :class:`~toolgym.integrations.episode.ToolEpisode`, exactly as a TRL rollout plays it:

* ``messages``: the system prompt rollouts get
  (:data:`~toolgym.agents.native_prompting.TOOL_CALL_SYSTEM_PROMPT`), the user's turn (the task's text, what the environment's
  ``reset`` gives), then for each call an assistant turn with one ``tool_calls`` entry and a
  ``tool`` turn with what the episode answered (a conversation env's user replies included:
  asking the user is a tool call);
* ``tools``: the task's OpenAI function schemas, the finish tool included;
* ``env_id``, ``task_id`` and ``reward`` (1: only golds that score are kept).

Tasks whose gold is more than calls (a program with variables: Trip Booking, Google Sheets) give
none, and a generated task whose goal is a test task's is passed over, so test tasks are never
training data.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from toolgym.agents.native_prompting import TOOL_CALL_SYSTEM_PROMPT
from toolgym.benchmarks.suite import TRAIN_STRIDE
from toolgym.envs import env_ids as registered_env_ids
from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.errors import UserInputError
from toolgym.integrations.episode import ToolEpisode
from toolgym.training.sft_data import held_out_goals, same_goal

MAX_SKIPPED = 4
"""How many train tasks per example kept may be passed over before an env is given up on."""


def tool_call_env_ids(envs: Sequence[str] = ()) -> list[str]:
    """``envs``, or else the newest version of every env whose family plays in call mode.

    Raises:
        UserInputError: an env that does not play in call mode.
    """
    ids = list(envs) or registered_env_ids()
    for env_id in ids:
        try:
            modes = family_of(env_id).action_modes
        except KeyError as e:
            raise UserInputError(f"no env {env_id!r}; see toolgym list") from e
        if "call" not in modes:
            raise UserInputError(f"{env_id} does not play in call mode (it offers {modes})")
    return ids


def play_gold(episode: ToolEpisode, task_id: str, seed: int = 0) -> dict[str, Any] | None:
    """One task's gold played as tool calls: the example, or ``None`` (no calls, or no reward)."""
    start = episode.reset(seed=seed, task_id=task_id)
    calls = episode.oracle_calls()
    if not calls:
        return None
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": TOOL_CALL_SYSTEM_PROMPT},
        {"role": "user", "content": start.observation},
    ]
    result = None
    for k, call in enumerate(calls):
        result = episode.call(call["name"], call["arguments"])
        messages.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {
                        "id": f"call_{k}",
                        "type": "function",
                        "function": {"name": call["name"], "arguments": call["arguments"]},
                    }
                ],
            }
        )
        messages.append(
            {
                "role": "tool",
                "tool_call_id": f"call_{k}",
                "name": call["name"],
                "content": result.observation,
            }
        )
        if result.done:
            break
    if result is None or not result.done or result.reward < 1.0:
        return None  # a gold that does not score here teaches nothing
    return {
        "env_id": episode.env_id,
        "task_id": task_id,
        "tools": start.tools,
        "messages": messages,
        "reward": result.reward,
    }


def tool_call_examples(
    env_ids: Sequence[str], n: int, *, seed: int = 0, world_seed: int = 0
) -> Iterator[dict[str, Any]]:
    """``n`` examples per env (fewer when its golds are not calls), from the ``train`` stream ``seed``.

    Raises:
        UserInputError: an env that does not play in call mode.
    """
    for env_id in tool_call_env_ids(env_ids):
        episode = ToolEpisode(env_id, split="train", world_seed=world_seed)
        suite = task_env(episode.env).suite
        held_out = held_out_goals(suite)
        kept = 0
        for k in range(n * (MAX_SKIPPED + 1)):
            if kept == n:
                break
            task_id = f"train-{seed * TRAIN_STRIDE + k}"
            if same_goal(suite.train(task_id, world_seed).instruction) in held_out:
                continue  # the generator wrote a test task's goal: never training data
            example = play_gold(episode, task_id, seed)
            if example is None:
                if k >= MAX_SKIPPED and kept == 0:
                    break  # the env's golds are programs, not calls (Sheets)
                continue
            kept += 1
            yield example


def write_tool_call_jsonl(examples: Iterable[dict[str, Any]], out: str | Path | TextIO) -> int:
    """Write the examples as JSONL (``"-"``: stdout); how many were written."""
    if out == "-" or not isinstance(out, str | Path):
        stream: TextIO = sys.stdout if out == "-" else out  # type: ignore[assignment]
        count = 0
        for example in examples:
            stream.write(json.dumps(example, ensure_ascii=False) + "\n")
            count += 1
        return count
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as stream:
        return write_tool_call_jsonl(examples, stream)
