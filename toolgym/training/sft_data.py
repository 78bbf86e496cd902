"""Supervised examples for programmatic alignment: (prompt, program) pairs from ``train`` tasks.

Each example is one task of a family's unlimited ``train`` split
(:meth:`~toolgym.benchmarks.suite.TaskSuite.train_pairs`): its prompt is the prompt
:class:`~toolgym.agents.llm_agent.LLMAgent` builds for that task at evaluation time (the same API
docs retrieved with the family's ``top_k_api``, the same demonstrations retrieved from the env's
``demo`` split and rendered with its ``demo_label``, the same system prompt), because the agent
itself builds it: the env is reset on the task and the agent asked for its prompt. The completion
is the task's gold program, stripped, plus a newline.

Only families whose protocol is one generation per task (``action_mode == "program"``) give
such pairs; a multi-step family (one call per step, from a fresh prompt on each page or a ReAct
history) is refused with :class:`~toolgym.errors.UserInputError`.

Formats (:data:`DATA_FORMATS`):

* ``"chat"``: ``{"messages": [system, user, assistant], "task_id", "env_id"}`` (no system
  message without the system prompt);
* ``"completion"``: ``{"prompt": text, "completion": program, "task_id", "env_id"}``, the prompt
  as a completion backend reads it (the system prompt, a blank line, the user text).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import gymnasium as gym

from toolgym.agents.backends.base import Message, Prompt, as_messages, as_text
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.defaults import prompt_defaults
from toolgym.agents.llm_agent import LLMAgent
from toolgym.agents.prompting import SYSTEM_PROMPT
from toolgym.benchmarks.tasks import Task
from toolgym.envs import env_ids as registered_env_ids
from toolgym.envs import families as all_families
from toolgym.envs import family as find_family
from toolgym.envs import family_of
from toolgym.envs.protocol import task_env
from toolgym.errors import DependencyNotInstalled, UserInputError

DATA_FORMATS: tuple[str, ...] = ("chat", "completion")
"""The record formats: chat messages, or prompt and completion texts."""

PROGRAM_MODE = "program"


@dataclass(frozen=True)
class SFTExample:
    """One supervised example.

    Attributes:
        env_id: the env the task belongs to.
        task_id: the ``train`` task's id (``train-<k>``).
        prompt: the agent's prompt (chat messages with a system prompt, else text).
        completion: the gold program, stripped, plus a newline.
    """

    env_id: str
    task_id: str
    prompt: Prompt
    completion: str

    @property
    def prompt_text(self) -> str:
        """The prompt as a completion backend reads it (system prompt, blank line, user text)."""
        return as_text(self.prompt)

    def messages(self) -> list[Message]:
        """The prompt's chat messages followed by the assistant's program."""
        return [*as_messages(self.prompt), {"role": "assistant", "content": self.completion}]

    def to_record(self, fmt: str = "chat") -> dict[str, Any]:
        """The example as a JSON record in format ``fmt`` (see :data:`DATA_FORMATS`)."""
        check_format(fmt)
        ids = {"task_id": self.task_id, "env_id": self.env_id}
        if fmt == "chat":
            return {"messages": self.messages(), **ids}
        return {"prompt": self.prompt_text, "completion": self.completion, **ids}


class AllShotAgent(LLMAgent):
    """An :class:`LLMAgent` whose prompts show every demonstration of the pool, in pool order.

    The all-shot prompt: the whole ``demo`` split concatenated, instead of the few demonstrations
    retrieved for the task. Evaluate a model trained on all-shot prompts with this agent.
    """

    def _pick_demos(self, language: str) -> list[Task]:
        return list(self.demos)


def check_format(fmt: str) -> None:
    """Raise :class:`~toolgym.errors.UserInputError` unless ``fmt`` is one of :data:`DATA_FORMATS`."""
    if fmt not in DATA_FORMATS:
        raise UserInputError(f"the data format is one of {', '.join(DATA_FORMATS)}; got {fmt!r}")


def _check_program_mode(env_id: str) -> None:
    spec = family_of(env_id)
    if spec.action_mode != PROGRAM_MODE:
        program = [s.name for s in all_families() if s.action_mode == PROGRAM_MODE]
        raise UserInputError(
            f"{env_id} ({spec.name}) is a multi-step family (action_mode {spec.action_mode!r}: "
            "one tool call per step, each from a new prompt), so a task is not one "
            "(prompt, program) pair; alignment data needs a single-generation family "
            f"(action_mode {PROGRAM_MODE!r}): {', '.join(program)}"
        )


def program_env_ids(envs: Sequence[str] = (), families: Sequence[str] = ()) -> list[str]:
    """The env ids to build examples for: ``envs``, then each family's newest version.

    Duplicates are kept once, in order.

    Raises:
        UserInputError: nothing named, an unknown env id or family, or a multi-step family.
    """
    unique = named_env_ids(envs, families)
    for env_id in unique:
        _check_program_mode(env_id)
    return unique


def named_env_ids(envs: Sequence[str] = (), families: Sequence[str] = ()) -> list[str]:
    """``envs``, then each family's newest version, duplicates kept once, in order.

    Raises:
        UserInputError: nothing named, or an unknown env id or family.
    """
    ids: list[str] = []
    known = registered_env_ids()
    for env_id in envs:
        if env_id not in known:
            raise UserInputError(f"unknown env id {env_id!r}; known: {', '.join(known)}")
        ids.append(env_id)
    for name in families:
        try:
            spec = find_family(name)
        except KeyError as e:
            raise UserInputError(str(e.args[0])) from e
        ids.append(spec.env_id())
    if not ids:
        raise UserInputError("name at least one env id or family; got none")
    return list(dict.fromkeys(ids))


def check_counts(n: int, shots: int | None, all_shot: bool) -> None:
    """Raise :class:`~toolgym.errors.UserInputError` for a bad count, shots, or both shot options."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UserInputError(f"the number of examples is a whole number >= 1; got {n!r}")
    if shots is not None and (isinstance(shots, bool) or not isinstance(shots, int) or shots < 0):
        raise UserInputError(f"shots is a whole number >= 0; got {shots!r}")
    if all_shot and shots is not None:
        raise UserInputError(
            f"give shots or all_shot, not both (got shots={shots} and all_shot=True)"
        )


def same_goal(instruction: str) -> str:
    """A goal as compared with the test split's: case and spacing do not count.

    >>> same_goal("  Show my  Favourites ") == same_goal("show my favourites")
    True
    """
    return " ".join(instruction.lower().split())


def held_out_goals(suite: Any) -> set[str]:
    """The goals of a suite's ``test`` split (:func:`same_goal` forms); none when it has none."""
    if "test" not in suite.splits:
        return set()
    return {same_goal(task.instruction) for task in suite.load("test").values()}


def task_prompts(
    env_id: str,
    n: int,
    *,
    seed: int = 0,
    world_seed: int = 0,
    shots: int | None = None,
    all_shot: bool = False,
    system_prompt: bool = True,
    retriever: str = "bm25",
    top_k_api: int | None = None,
) -> list[tuple[Task, Prompt]]:
    """The first ``n`` tasks of a ``train`` stream, each with the prompt the eval agent builds.

    The arguments are :func:`build_examples`'s, for one env. The tasks carry their gold; what
    is built from them decides whether it is shown (supervised data) or not (prompts for RL).
    A generated task whose goal is a test task's (:func:`same_goal`) is passed over, so test
    tasks are never training data; the ids of the tasks kept may then skip numbers.

    Raises:
        UserInputError: a multi-step family.
    """
    _check_program_mode(env_id)
    env = gym.make(env_id, split="train", world_seed=world_seed)
    try:
        base = task_env(env)
        agent_class = AllShotAgent if all_shot else LLMAgent
        agent = agent_class.for_env(
            env,
            ScriptedBackend(["unused"]),  # never called: only the prompt is built
            shots=prompt_defaults(base.family.name).shots if shots is None else shots,
            retriever=retriever,
            top_k_api=top_k_api,
            system_prompt=SYSTEM_PROMPT if system_prompt else None,
            strategy="single",
        )
        held_out = held_out_goals(base.suite)
        out: list[tuple[Task, Prompt]] = []
        for task in base.suite.train_pairs(None, seed=seed, world_seed=world_seed):
            if len(out) == n:
                break
            if same_goal(task.instruction) in held_out:
                continue  # the generator wrote a test task's goal: never training data
            observation, info = env.reset(seed=seed if not out else None, options={"task": task})
            agent.reset(observation, info)
            out.append((task, agent.prompt(observation, info)))
        return out
    finally:
        env.close()


def build_examples(
    env_ids: str | Sequence[str],
    n: int = 1800,
    *,
    seed: int = 0,
    world_seed: int = 0,
    shots: int | None = None,
    all_shot: bool = False,
    system_prompt: bool = True,
    retriever: str = "bm25",
    top_k_api: int | None = None,
) -> list[SFTExample]:
    """``n`` examples per env, env after env; the same arguments give the same examples.

    Args:
        env_ids: one env id or several (see :func:`program_env_ids` to name families).
        n: examples per env: the ``train`` tasks ``train-<seed * 2**32 + i>``, ``i < n``.
        seed: which stream of ``train`` tasks (streams of different seeds share no task).
        world_seed: the simulated world the tasks are generated for.
        shots: demonstrations retrieved per prompt (default: the family's, as ``toolgym eval``).
        all_shot: show every demonstration of the ``demo`` split in each prompt, in split order
            (:class:`AllShotAgent`), instead of retrieving ``shots`` of them.
        system_prompt: put the agent's system prompt first (``toolgym eval``'s default), or
            leave it out (``--no-system-prompt``).
        retriever: ``"bm25"`` or ``"embedding"``, as the agent's.
        top_k_api: API docs per prompt (default: the family's).

    Raises:
        UserInputError: a multi-step family or an unknown env, a bad count or shots.
    """
    ids = [env_ids] if isinstance(env_ids, str) else list(env_ids)
    check_counts(n, shots, all_shot)
    ids = program_env_ids(ids)
    out: list[SFTExample] = []
    for env_id in ids:
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
        out += [
            SFTExample(env_id, str(task.task_id), prompt, task.gold[0].strip() + "\n")
            for task, prompt in pairs
        ]
    return out


def example_records(examples: Iterable[SFTExample], fmt: str = "chat") -> Iterator[dict[str, Any]]:
    """The examples as JSON records of format ``fmt`` (see :data:`DATA_FORMATS`)."""
    check_format(fmt)
    for example in examples:
        yield example.to_record(fmt)


def write_jsonl(
    examples: Iterable[SFTExample], out: str | Path | TextIO = "-", fmt: str = "chat"
) -> int:
    """Write the examples as JSONL to a path, an open text stream, or ``"-"`` (stdout).

    Returns:
        How many records were written.
    """
    check_format(fmt)
    if isinstance(out, str | Path) and str(out) != "-":
        path = Path(out)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as file:
            return write_jsonl(examples, file, fmt)
    stream = sys.stdout if isinstance(out, str | Path) else out
    count = 0
    for record in example_records(examples, fmt):
        stream.write(json.dumps(record, ensure_ascii=False) + "\n")
        count += 1
    return count


def to_dataset(examples: Iterable[SFTExample], fmt: str = "chat") -> Any:
    """The examples as a Hugging Face ``datasets.Dataset`` of format ``fmt``'s records.

    Raises:
        DependencyNotInstalled: ``datasets`` is not installed.
    """
    check_format(fmt)
    return records_dataset(list(example_records(examples, fmt)))


def records_dataset(records: Sequence[dict[str, Any]]) -> Any:
    """JSON records as a Hugging Face ``datasets.Dataset`` (one column per key).

    Raises:
        DependencyNotInstalled: ``datasets`` is not installed.
    """
    return datasets_module().Dataset.from_list(list(records))


def datasets_module() -> Any:
    """The ``datasets`` package.

    Raises:
        DependencyNotInstalled: ``datasets`` is not installed.
    """
    try:
        import datasets
    except ImportError as e:
        raise DependencyNotInstalled(
            f"a Hugging Face dataset needs the datasets package ({e.name} is missing): "
            'pip install "toolgym[train]"'
        ) from e
    return datasets
