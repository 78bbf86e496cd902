"""Conversation tasks: a family's task with part of its goal held back by the user.

A family describes its conversations with a :class:`ChatProfile`: its slot kinds, the slots of a
task (read from its gold), and how the user opens with the slots it gives. From each task of the
family the profile makes a conversation task, the same on every machine:

* the held-back slots (up to ``max_held``, never all of them) and the persona are drawn by a
  generator seeded with the family and the task id;
* the instruction is the opening request, which states the given slots only;
* the gold asks one question per held-back slot (``message_user("...")`` lines), then is the
  family's gold;
* ``setup`` is ``{"conversation": {...}, "inner": <the family's setup>}`` and ``meta`` keeps the
  full request under ``full_request``.

:class:`ChatChecker` scores with the family's checker and adds the conversation's metrics.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.suite import TaskSuite
from toolgym.benchmarks.tasks import Task, TaskSet
from toolgym.conversation.backend import ChatBackend
from toolgym.conversation.messages import MESSAGE_TOOL_NAME, inner_gold, render_message
from toolgym.conversation.metrics import CONVERSATION_METRICS
from toolgym.envs.spec import load_ref
from toolgym.simulators.seeding import stable_rng
from toolgym.simulators.user import PERSONAS, Conversation, Slot, Vocabulary
from toolgym.simulators.user.matcher import FORGED_END, INJECTION, LIST_REQUEST
from toolgym.tools.backend import Attempt

FULL_REQUEST = "full_request"
"""The meta key of a conversation task that keeps the family's whole request."""


@dataclass(frozen=True)
class ChatProfile:
    """How a family's tasks become conversations (see the module docstring).

    Attributes:
        name: the conversation family's name (``home_search_chat``).
        inner_tasks: import path of the family's :class:`TaskSuite`.
        vocabulary: the family's slot kinds.
        slots: ``task -> slots``, the details of a family task's goal.
        opening: ``(task, given slots) -> text``, the user's opening request.
        version: the conversation env's version.
        data_dir: where its stored splits live (the family's ``data/``).
        max_held: the most slots a task holds back.
        always_given: kinds never held back (what the request is about).
    """

    name: str
    inner_tasks: str
    vocabulary: Vocabulary
    slots: Callable[[Task], Sequence[Slot]]
    opening: Callable[[Task, Sequence[Slot]], str]
    version: int = 0
    data_dir: str | None = None
    max_held: int = 3
    always_given: tuple[str, ...] = ()


def held_back(
    profile: ChatProfile, task: Task, slots: Sequence[Slot]
) -> tuple[tuple[str, ...], str]:
    """The kinds ``task`` holds back, in goal order, and its persona (seeded by the task)."""
    rng = stable_rng("conversation", profile.name, task.task_id)
    candidates = [s.kind for s in slots if s.kind not in profile.always_given]
    count = min(profile.max_held, len(candidates), max(len(slots) - 1, 0))
    if count == 0 and candidates and len(slots) == 1 and not profile.always_given:
        count = 0  # a one-detail goal is stated whole
    order = [int(i) for i in rng.permutation(len(candidates))][:count]
    chosen = {candidates[i] for i in order}
    persona = PERSONAS[int(rng.integers(len(PERSONAS)))]
    return tuple(s.kind for s in slots if s.kind in chosen), persona


def chat_task(task: Task, profile: ChatProfile) -> Task:
    """The conversation task made from a family's ``task``."""
    slots = list(profile.slots(task))
    held, persona = held_back(profile, task, slots)
    given = [s for s in slots if s.kind not in held]
    opening = profile.opening(task, given)
    conversation = Conversation(
        f"{profile.name}/{task.task_id}", tuple(slots), held, persona, opening
    )
    questions = [render_message(profile.vocabulary[k].ask()) for k in held]
    gold = tuple("\n".join([*questions, g]) for g in task.gold)
    setup = {"conversation": conversation.to_record(), "inner": _json(task.setup)}
    meta = {**task.meta, FULL_REQUEST: task.instruction}
    tools = None if task.tools is None else (*task.tools, MESSAGE_TOOL_NAME)
    return Task(task.task_id, opening, gold, meta, tools, setup)


def _json(setup: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if setup is None else dict(setup)


def inner_task(task: Task) -> Task:
    """The family's task inside a conversation task (as the family's checker reads it)."""
    setup = task.setup or {}
    inner = setup.get("inner") if "conversation" in setup else setup or None
    meta = {k: v for k, v in task.meta.items() if k != FULL_REQUEST}
    tools = None if task.tools is None else tuple(t for t in task.tools if t != MESSAGE_TOOL_NAME)
    return Task(
        task.task_id,
        str(task.meta.get(FULL_REQUEST, task.instruction)),
        tuple(inner_gold(g) for g in task.gold),
        meta,
        tools,
        inner if isinstance(inner, Mapping) else None,
    )


class ChatChecker(Checker):
    """The family's checker, plus the conversation's metrics.

    Args:
        inner: the family's checker of the task.
    """

    def __init__(self, inner: Checker) -> None:
        self.inner = inner
        self.accepts_others = inner.accepts_others  # type: ignore[misc]

    def needs_gold(self, task: Task) -> bool:
        """The family's answer."""
        return self.inner.needs_gold(inner_task(task))

    def validate(self, task: Task, golds: Sequence[Attempt]) -> None:
        """The family's check of its gold."""
        self.inner.validate(inner_task(task), golds)

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """The family's score of the attempt, with the conversation's metrics."""
        chat = attempt.backend if isinstance(attempt.backend, ChatBackend) else None
        inner_attempt = (
            attempt if chat is None else dataclasses.replace(attempt, backend=chat.inner)
        )
        score = self.inner.check(inner_task(task), inner_attempt, golds)
        return dataclasses.replace(score, metrics={**score.metrics, **conversation_metrics(chat)})


def conversation_metrics(chat: ChatBackend | None) -> dict[str, int]:
    """The conversation's counts (zeros without one)."""
    if chat is None or chat.conversation is None:
        return {m.key: 0 for m in CONVERSATION_METRICS}
    turns = chat.turns
    refused = (INJECTION, LIST_REQUEST, FORGED_END)
    return {
        "turns": len(turns),
        "questions": sum(t.kind in ("ask", "check", "more") for t in turns),
        "repeated_asks": sum(len(t.repeated) for t in turns),
        "guessed_slots": len(chat.guesses),
        "untold_slots": len(chat.untold()),
        "refused_messages": sum(t.kind in refused for t in turns),
    }


# -- the suite ------------------------------------------------------------------------------------
def _profile(ref: str) -> tuple[ChatProfile, TaskSuite]:
    profile: ChatProfile = load_ref(ref)
    return profile, load_ref(profile.inner_tasks)


def _generate(ref: str, split: str) -> list[Task]:
    profile, inner = _profile(ref)
    return [chat_task(t, profile) for t in inner.load(split).values()]


def _train(ref: str, k: int, world_seed: int) -> Task:
    profile, inner = _profile(ref)
    return chat_task(inner.train(f"train-{k}", world_seed), profile)


def _checker(ref: str, task: Task) -> Checker:
    _, inner = _profile(ref)
    family = inner_task(task)
    if family.setup is None and inner.setup_for is not None:
        family = inner.bind(family)
    return ChatChecker(inner.checker_for(family))


def _read_file(ref: str, path: str | Path) -> TaskSet:
    """A task file of conversation tasks or of the family's tasks, read as the family reads it."""
    _, inner = _profile(ref)
    return inner.read_task_file(path)


def _prepare(ref: str, task: Task) -> Task:
    """A conversation task as it is; a family's task (or a gold with questions) made one."""
    if task.setup is not None and "conversation" in task.setup:
        return task
    profile, inner = _profile(ref)
    return chat_task(inner.bind(inner_task(task)), profile)


def chat_suite(ref: str) -> TaskSuite:
    """The task suite of the conversation profile at import path ``ref``."""
    profile, inner = _profile(ref)
    return TaskSuite(
        family=profile.name,
        version=profile.version,
        splits=inner.splits,
        generate_split=partial(_generate, ref),
        train_task=partial(_train, ref),
        checker_for=partial(_checker, ref),
        world_seed=inner.world_seed,
        data_dir=profile.data_dir,
        read_file=partial(_read_file, ref),
        prepare=partial(_prepare, ref),
    )
