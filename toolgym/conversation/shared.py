"""One conversation object for the episodes of one task.

A conversation env reads its task's conversation anew at each reset, and the rule-based user
keeps what it reads from a task's slots alone (which hold a code, their written forms: see
:func:`toolgym.simulators.user.memo.per_task`) for the slots' tuple itself. A new tuple at each
reset would be read anew at each episode's first message; :func:`shared` hands back the
conversation an earlier episode read for an equal record instead, so a group of rollouts of one
task (GRPO's) reads it once. A conversation is frozen and no episode changes it.

The record's JSON text, which the gold's cache keys episodes by, is written once with it
(:func:`record_text`). A task's record is read once too (:func:`conversation_of`): the env's
tools (which hide the held-back values' examples) and its backend both read it at every reset.
"""

from __future__ import annotations

import json
from typing import Any

from toolgym.simulators.user import Conversation

KEPT = 1024
"""How many conversations are kept (dropped all at once past it)."""

_BY_TEXT: dict[str, Conversation] = {}
_TEXTS: dict[int, tuple[Conversation, str]] = {}
"""Each kept conversation's record text, by the conversation's id (the entry holds it)."""
_BY_RECORD: dict[str, tuple[Any, Conversation]] = {}
"""By a task record's JSON text (keys sorted): the record read back from that text, and the
conversation read from it."""


def conversation_of(record: Any) -> Conversation:
    """``shared(Conversation.from_record(record))``, read once for each record.

    A record equal to the one its JSON text (keys sorted) reads back as, as records read from
    task files are, is read once: the conversation is read from that private copy, so changing
    the record later changes no conversation. Any other record (a tuple for a list, a number for
    a key, a value JSON cannot write) is read anew each time, and not shared.

    Raises:
        ValueError: the record is no conversation (as :meth:`Conversation.from_record`).
    """
    try:
        text = json.dumps(record, sort_keys=True)
        kept = _BY_RECORD.get(text)
        if kept is not None and kept[0] == record:
            return kept[1]
        canonical = json.loads(text)
    except (TypeError, ValueError, RecursionError):  # no JSON value, or nested past the limit
        return Conversation.from_record(record)
    if canonical != record:  # read as it is, and not kept: it may hold objects it shares
        return Conversation.from_record(record)
    conversation = shared(Conversation.from_record(canonical))
    if len(_BY_RECORD) >= KEPT:
        _BY_RECORD.clear()
    _BY_RECORD[text] = (canonical, conversation)
    return conversation


def shared(conversation: Conversation) -> Conversation:
    """The kept conversation equal to ``conversation`` (field by field), else ``conversation``.

    ``conversation`` is kept in turn. One whose record JSON cannot write is never kept.
    """
    try:
        text = json.dumps(conversation.to_record(), sort_keys=True)
    except (TypeError, ValueError, RecursionError):  # a value JSON cannot write, or too deep
        return conversation
    kept = _BY_TEXT.get(text)
    if kept is not None and kept == conversation:
        return kept
    if len(_BY_TEXT) >= KEPT:
        _BY_TEXT.clear()
        _TEXTS.clear()
    _BY_TEXT[text] = conversation
    _TEXTS[id(conversation)] = (conversation, text)
    return conversation


def record_text(conversation: Conversation) -> str:
    """``conversation``'s record as JSON, keys sorted (written once for a kept one).

    Raises:
        TypeError: a slot's value JSON cannot write.
    """
    entry = _TEXTS.get(id(conversation))
    if entry is not None and entry[0] is conversation:
        return entry[1]
    return json.dumps(conversation.to_record(), sort_keys=True)
