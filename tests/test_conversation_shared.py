"""The episodes of one task share one conversation object; an equal record reads as it."""

from __future__ import annotations

import json
from dataclasses import replace

import gymnasium as gym
import pytest

from toolgym.conversation import shared as sharing
from toolgym.conversation.shared import record_text, shared
from toolgym.envs.protocol import task_env
from toolgym.simulators.user import Conversation

RECORD = {
    "key": "task-1",
    "slots": [
        {"kind": "breed", "value": "abys", "text": "Abyssinian"},
        {"kind": "limit", "value": [3, 4], "text": "3 or 4"},
    ],
    "held": ["breed"],
    "persona": "direct",
    "opening": "Show me some cats.",
}


def test_resets_of_one_task_share_its_conversation_and_another_task_gets_its_own() -> None:
    env = gym.make("toolbench/CatAPIChat-v0")
    base = task_env(env)
    first, second = list(base.task_ids)[:2]
    env.reset(options={"task_id": first})
    conversation = base._backend.conversation
    env.reset(options={"task_id": second})
    other = base._backend.conversation
    env.reset(options={"task_id": first})
    assert base._backend.conversation is conversation and other is not conversation
    assert other != conversation
    env.close()


def test_an_equal_record_reads_as_the_kept_conversation_and_a_changed_one_does_not() -> None:
    kept = shared(Conversation.from_record(RECORD))
    again = Conversation.from_record(json.loads(json.dumps(RECORD)))
    assert again is not kept and shared(again) is kept
    changed = json.loads(json.dumps(RECORD))
    changed["slots"][1]["value"] = [3, 5]
    assert shared(Conversation.from_record(changed)) is not kept
    tupled = Conversation(kept.key, tuple(kept.slots), kept.held, kept.persona, kept.opening)
    assert shared(tupled) is kept  # equal field by field (the slots' tuple is another object)


def test_the_record_text_is_the_records_json_and_a_value_json_cannot_write_is_kept_apart() -> None:
    kept = shared(Conversation.from_record(RECORD))
    assert record_text(kept) == json.dumps(kept.to_record(), sort_keys=True)
    odd = Conversation.from_record({**RECORD, "key": "odd"})
    odd = Conversation(odd.key, (replace(odd.slots[0], value={1, 2}),), (), "direct", "")
    assert shared(odd) is odd and shared(odd) is odd  # not kept: read as itself each time
    with pytest.raises(TypeError):  # a set is no JSON value: the gold's key fails as before
        record_text(odd)


def test_the_kept_conversations_are_bounded() -> None:
    for i in range(sharing.KEPT + 3):
        shared(Conversation.from_record({**RECORD, "key": f"task-{i}"}))
    assert len(sharing._BY_TEXT) <= sharing.KEPT and len(sharing._TEXTS) <= sharing.KEPT


def test_a_task_record_is_read_once_for_each_text_and_a_changed_one_anew() -> None:
    from toolgym.conversation.shared import conversation_of

    record = json.loads(json.dumps({**RECORD, "key": "read-once"}))
    first = conversation_of(record)
    assert first == Conversation.from_record(record)
    assert conversation_of(json.loads(json.dumps(record))) is first  # an equal record
    assert conversation_of(dict(reversed(list(record.items())))) is first  # keys in any order
    record["slots"][1]["value"] = [3, 5]  # changed in place: read anew
    changed = conversation_of(record)
    assert changed is not first and changed == Conversation.from_record(record)
    record["slots"][1]["value"] = [3.0, 5]  # 3.0 is not 3 in JSON: read anew
    assert conversation_of(record) == Conversation.from_record(record)
    with pytest.raises(ValueError):
        conversation_of({"key": "no slots"})


def test_a_kept_conversation_shares_nothing_with_the_record_it_was_read_from() -> None:
    from toolgym.conversation.shared import conversation_of

    first, second = (json.loads(json.dumps({**RECORD, "key": "apart"})) for _ in range(2))
    kept = conversation_of(first)
    first["slots"][1]["value"].append(9)  # the first record changed deep inside, in place
    assert conversation_of(second) is kept  # the other, unchanged record reads the kept one
    assert kept == Conversation.from_record(second)  # which the change did not reach
    assert conversation_of(first) == Conversation.from_record(first)  # the changed one anew


def test_a_record_json_would_read_otherwise_is_read_as_it_is_whatever_came_before() -> None:
    from toolgym.conversation.shared import conversation_of

    record = json.loads(json.dumps({**RECORD, "key": "tupled"}))
    conversation_of(record)  # the list record, kept
    tupled = {**record, "slots": tuple(record["slots"])}  # the same JSON text
    try:
        expected: object = Conversation.from_record(tupled)
    except ValueError as e:
        expected = type(e)
    try:
        got: object = conversation_of(tupled)
    except ValueError as e:
        got = type(e)
    assert got == expected


def test_resets_read_each_task_record_once(monkeypatch: pytest.MonkeyPatch) -> None:
    env = gym.make("toolbench/TripBookingChat-v0")
    base = task_env(env)
    ids = list(base.task_ids)[:3]
    for task_id in ids:
        env.reset(options={"task_id": task_id})
    read: list[object] = []
    original = Conversation.from_record
    monkeypatch.setattr(
        Conversation, "from_record", classmethod(lambda cls, r: read.append(r) or original(r))
    )
    for task_id in ids * 2:
        env.reset(options={"task_id": task_id})
    assert read == []  # the tools and the backend both took the conversation read before
    env.close()
