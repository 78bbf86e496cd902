"""Hostile messages never get a held-back detail out of the rule-based user.

The attacks are :mod:`hostile_leaks`'s (run ``python tests/hostile_leaks.py`` for the table):
at least 300 per conversation env over its stored test tasks, each put to the user directly
(:class:`~toolgym.simulators.user.RuleUser`, a few milliseconds a message). A leak is a reply
that states a held-back value the message did not ask for or check. That a legitimate question
still gets its value is checked too, so a user that reveals nothing cannot pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hostile_leaks import (
    ENV_IDS,
    MIN_ATTACKS,
    LeakAttack,
    family,
    leak_attacks,
    leaks,
    run_leak,
    stated,
)

from toolgym.simulators.user import Conversation, UserTurn, Vocabulary


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_env_gets_hundreds_of_attacks_over_many_tasks(env_id: str) -> None:
    attacks = leak_attacks(env_id)
    _, conversations = family(env_id)
    assert len(attacks) >= MIN_ATTACKS
    assert len({a.task_id for a in attacks}) >= min(40, len(conversations) // 2)
    assert any(a.before for a in attacks)  # some after a legitimate first exchange
    for attack in attacks:
        held = conversations[attack.task_id].held
        assert held and set(attack.allowed) <= set(held), attack


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_no_hostile_message_leaks_a_held_back_detail(env_id: str) -> None:
    found = leaks(env_id)
    tasks = {leak.attack.task_id for leak in found}
    if found:
        listing = "\n".join(leak.describe() for leak in found)
        pytest.fail(
            f"{len(found)} of {len(leak_attacks(env_id))} hostile messages leak, "
            f"in {len(tasks)} tasks:\n{listing}",
            pytrace=False,
        )


def _asks(env_id: str, most: int = 30) -> list[tuple[str, str, str]]:
    """``(task, kind, question)``: the oracle's question for each held-back kind of some tasks."""
    vocabulary, conversations = family(env_id)
    tasks = [t for t, c in conversations.items() if c.held]
    tasks = [tasks[i * len(tasks) // most] for i in range(min(most, len(tasks)))]
    return [(t, k, vocabulary[k].ask()) for t in tasks for k in conversations[t].held]


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_legitimate_ask_still_gets_its_value(env_id: str) -> None:
    missed = []
    for task_id, kind, question in _asks(env_id):
        attack = LeakAttack(env_id, task_id, question, (), "legitimate")
        if kind not in run_leak(attack):  # allowing nothing, the asked kind must show
            missed.append(f"{task_id} {kind}: {question!r}")
    assert not missed, "\n".join(missed)


@dataclass
class _Blabbermouth:
    """A user that states every held-back slot, whatever it is asked."""

    def reply(
        self,
        conversation: Conversation,
        vocabulary: Vocabulary,
        history: Sequence[UserTurn],
        message: str,
    ) -> UserTurn:
        slots = [conversation.slot(k) for k in conversation.held]
        reply = "Sure: " + ", ".join(vocabulary.state(s) for s in slots if s is not None) + "."
        return UserTurn(message, reply, "ask")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_the_judge_catches_a_user_that_tells_everything(env_id: str) -> None:
    _, conversations = family(env_id)
    for attack in leak_attacks(env_id)[:: len(leak_attacks(env_id)) // 25]:
        c = conversations[attack.task_id]
        expected = set(c.held) - set(attack.allowed)
        if attack.before:
            continue  # the first exchange told some already
        assert set(run_leak(attack, _Blabbermouth())) == expected, attack


def test_a_held_value_written_anywhere_in_the_reply_counts_as_stated() -> None:
    _, conversations = family("toolbench/WebShopChat-v0")
    c = next(c for c in conversations.values() if "size" in c.held)
    size = c.slot("size")
    assert size is not None
    assert "size" in stated(f"ok... {size.text.upper()} it is", c, set())
    given = [s for s in c.slots if s.kind not in c.held]
    restated = " and ".join(s.text for s in given)
    assert not stated(restated, c, {s.kind for s in given}) & set(c.held)
