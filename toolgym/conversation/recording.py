"""Recorded users: replies kept by conversation, and a user that replays them exactly.

A :class:`UserRecording` keeps a user's replies keyed by a hash of the conversation up to the
agent's message (:func:`conversation_key`), in memory and appended to a JSONL file (one reply per
line), so a recording is part of a run's results. :class:`ReplayUser` answers from a recording
alone: a conversation the recording does not hold gets an error (category
``user_replay_miss``) that says at which turn it leaves the recording, never a new reply.

What a free-text reply revealed is read from its text (:func:`turn_from_text`): a held-back
detail whose value it writes counts as told from then on; the reply ``DONE`` ends the
conversation. The model-played user that makes recordings is
:class:`toolgym.agents.llm_user.LLMUser`.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolgym.errors import ToolgymError
from toolgym.simulators.user.accuracy import reply_polarity
from toolgym.simulators.user.matcher import (
    ASK,
    CHECK,
    FORGED_END,
    INJECTION,
    LIST_REQUEST,
    read_message,
)
from toolgym.simulators.user.rule_user import Conversation, RuleUser, UserTurn, told
from toolgym.simulators.user.slots import Vocabulary, contains_phrase, normalize
from toolgym.tools.errors import ToolCallError, register_category

USER_REPLAY_MISS = register_category(
    "user_replay_miss",
    "A replayed user was asked something its recording does not hold: the conversation left the "
    "recorded ones (the message says at which turn). Not the agent's mistake: the episode is "
    "not scored for the agent.",
    unscored=True,
)

END_WORD = "DONE"
"""The reply that ends the conversation."""


def conversation_key(conversation: Conversation, history: Sequence[UserTurn], message: str) -> str:
    """The key of a reply: a hash of the task's conversation, the turns before, and the message."""
    payload = json.dumps(
        {
            "conversation": conversation.to_record(),
            "turns": [[t.message, t.reply] for t in history],
            "message": message,
        },
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class UserRecording:
    """Replies by conversation key, kept in memory and appended to a JSONL file when given.

    Args:
        path: the file (read when it exists; new replies are appended); ``None``: memory only.

    Raises:
        ToolgymError: a file whose lines are not recorded replies.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = None if path is None else Path(path)
        self.replies: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        if self.path is not None and self.path.exists():
            for number, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                    self.replies[str(entry["key"])] = entry
                except (ValueError, KeyError, TypeError) as e:
                    raise ToolgymError(
                        f"{self.path}:{number} is not a recorded reply "
                        f'({{"key", "conversation", "turn", "message", "reply"}}): {e}'
                    ) from None

    def get(self, key: str) -> str | None:
        """The recorded reply of ``key``."""
        entry = self.replies.get(key)
        return None if entry is None else str(entry["reply"])

    def put(
        self, key: str, conversation: Conversation, turn: int, message: str, reply: str
    ) -> None:
        """Record a reply (and append it to the file)."""
        entry = {
            "key": key,
            "conversation": conversation.key,
            "turn": turn,
            "message": message,
            "reply": reply,
        }
        with self._lock:
            self.replies[key] = entry
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self.path.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(entry, ensure_ascii=False) + "\n")

    def turns_of(self, conversation: str) -> list[dict[str, Any]]:
        """The recorded replies of one task's conversations, by turn."""
        return sorted(
            (e for e in self.replies.values() if e.get("conversation") == conversation),
            key=lambda e: (int(e.get("turn", 0)), str(e.get("message", ""))),
        )


def turn_from_text(
    conversation: Conversation,
    history: Sequence[UserTurn],
    message: str,
    text: str,
    vocabulary: Vocabulary | None = None,
) -> UserTurn:
    """The turn of a free-text reply: the held-back details it writes, and whether it ends.

    With the family's ``vocabulary``, the agent's message is read as the rule-based user reads
    it (the turn's kind, and the details it asked for again), so that a conversation's metrics
    count questions whoever answers them; without, the kind is ``"recorded"``.
    """
    ended = text.strip().rstrip(".!").upper() == END_WORD
    known = told(conversation, history)
    kind: str = "recorded"
    repeated: tuple[str, ...] = ()
    confirmed: tuple[str, ...] = ()
    if vocabulary is not None:
        reading = read_message(message, vocabulary, conversation.slots, conversation.opening)
        kind = reading.kind
        if kind in (ASK, CHECK):  # counted as the rule-based user counts them
            named = dict.fromkeys((*reading.kinds, *reading.stated))
            repeated = tuple(k for k in named if (kind == ASK or k in reading.asked) and k in known)
        if kind == CHECK and reply_polarity(text) == "yes":
            confirmed = reading.stated  # "Is it 3 bedrooms?" "Yes.": told
    said = normalize(text)
    revealed = []
    for slot in conversation.slots:
        if slot.kind in conversation.held and slot.kind not in known:
            forms = [f for f in slot.forms() if len(f) >= 3 or f == normalize(slot.text)]
            if slot.kind in confirmed or any(contains_phrase(said, f) for f in forms):
                revealed.append(slot.kind)
    return UserTurn(message, text, kind, tuple(revealed), repeated, ended=ended)


_REFUSED = (INJECTION, LIST_REQUEST, FORGED_END)


def refused_turn(
    conversation: Conversation, vocabulary: Vocabulary, history: Sequence[UserTurn], message: str
) -> UserTurn | None:
    """The rule-based user's refusal of an injection, a list request or a forged success.

    ``None`` for any other message. A model that plays the user sees the held-back details in its prompt; such messages never
    reach it (and a replay answers them the same way, with no recording).
    """
    if (
        read_message(message, vocabulary, conversation.slots, conversation.opening).kind
        not in _REFUSED
    ):
        return None
    return RuleUser().reply(conversation, vocabulary, history, message)


def replay_miss(recording: UserRecording, conversation: Conversation, turn: int) -> str:
    """Where a conversation leaves ``recording``: the turn, and what the recording holds there."""
    recorded = recording.turns_of(conversation.key)
    if not recorded:
        return f"the recording holds no conversation of {conversation.key}"
    where = (
        f"turn {turn + 1} of {conversation.key}: the recording has no reply to this message "
        "after these turns"
    )
    same = [e["message"] for e in recorded if int(e.get("turn", -1)) == turn]
    if same:
        shown = "; ".join(repr(str(m)[:80]) for m in same[:3])
        return f"{where}; at this turn it answers {shown}"
    last = max(int(e["turn"]) for e in recorded) + 1
    return f"{where}; its conversations end after turn {last}"


class ReplayUser:
    """A user that answers from a recording only (see the module docstring).

    Args:
        recording: the recording, or the path of its JSONL file.

    Raises:
        FileNotFoundError: a path that is not a file.
    """

    name = "replay"
    may_block = False
    """A replay reads the recording: it never waits on a model."""

    def __init__(self, recording: UserRecording | str | Path) -> None:
        if not isinstance(recording, UserRecording) and not Path(recording).is_file():
            raise FileNotFoundError(
                "user_replay is the path of a recording (a JSONL file that --user-model or "
                f"LLMUser(recording=...) wrote); got {str(recording)!r}, which is not a file"
            )
        self.recording = (
            recording if isinstance(recording, UserRecording) else UserRecording(recording)
        )

    def reply(
        self,
        conversation: Conversation,
        vocabulary: Vocabulary,
        history: Sequence[UserTurn],
        message: str,
    ) -> UserTurn:
        """The recorded reply.

        Raises:
            ToolCallError: ``user_replay_miss`` for a conversation the recording does not hold.
        """
        refused = refused_turn(conversation, vocabulary, history, message)
        if refused is not None:
            return refused
        text = self.recording.get(conversation_key(conversation, history, message))
        if text is None:
            raise ToolCallError(
                USER_REPLAY_MISS, replay_miss(self.recording, conversation, len(history))
            )
        return turn_from_text(conversation, history, message, text, vocabulary)
