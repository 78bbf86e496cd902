"""The rule-based simulated user: deterministic, seeded by the task, replayable byte for byte.

It holds a task's slots, states the given ones in its opening request, and reveals a held-back
one only when the agent asks about it (or, for a forthcoming persona, when the agent asks what
else it wants). It answers from templates chosen by a generator seeded with the task and the
turn, refuses what is outside its task, corrects a wrong summary, and ends the conversation
when the agent says it is done. It never states a held-back slot the agent did not ask about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from toolgym.simulators.seeding import stable_index
from toolgym.simulators.user.contradiction import restated
from toolgym.simulators.user.matcher import (
    ASK,
    CHECK,
    END,
    FORGED_END,
    GREETING,
    INJECTION,
    LIST_REQUEST,
    MORE,
    OFF_TOPIC,
    Reading,
    read_message,
)
from toolgym.simulators.user.slots import Slot, Vocabulary

PERSONAS = ("direct", "casual", "forthcoming")
"""The rule-based user's personas: how it words its answers, and whether it volunteers the next
held-back detail when asked what else it wants (``forthcoming``)."""


@dataclass(frozen=True)
class Conversation:
    """A task's side of a conversation: its slots, which are held back, and its persona.

    Attributes:
        key: what seeds the user's choices (the task's id and env).
        slots: every slot of the goal.
        held: the kinds held back from the opening request.
        persona: one of :data:`PERSONAS` (for an LLM user, its description).
        opening: the opening request.
    """

    key: str
    slots: tuple[Slot, ...]
    held: tuple[str, ...]
    persona: str
    opening: str

    def slot(self, kind: str) -> Slot | None:
        """The slot of ``kind``, if the goal has one."""
        return next((s for s in self.slots if s.kind == kind), None)

    def to_record(self) -> dict[str, Any]:
        """The conversation as JSON (a task's ``setup["conversation"]``)."""
        return {
            "key": self.key,
            "slots": [s.to_record() for s in self.slots],
            "held": list(self.held),
            "persona": self.persona,
            "opening": self.opening,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Conversation:
        """A conversation from :meth:`to_record`'s JSON.

        Raises:
            ValueError: the record is not a conversation.
        """
        if not isinstance(record, Mapping):
            raise ValueError(f"a conversation is a JSON object; got {type(record).__name__}")
        slots = record.get("slots")
        held = record.get("held")
        if not isinstance(slots, list) or not isinstance(held, list):
            raise ValueError("a conversation has a 'slots' list and a 'held' list")
        parsed = tuple(Slot.from_record(s) for s in slots)
        kinds = {s.kind for s in parsed}
        if not all(isinstance(h, str) and h in kinds for h in held):
            raise ValueError(f"'held' names slots of the conversation; got {held!r}")
        return cls(
            str(record.get("key", "")),
            parsed,
            tuple(held),
            str(record.get("persona", PERSONAS[0])),
            str(record.get("opening", "")),
        )


@dataclass(frozen=True)
class UserTurn:
    """One exchange: the agent's message and the user's reply.

    Attributes:
        message: what the agent wrote.
        reply: what the user answered.
        kind: how the message was read (a :data:`~toolgym.simulators.user.matcher.KINDS` value,
            or ``"recorded"`` for a recorded reply read without the family's vocabulary).
        revealed: the held-back kinds this reply stated for the first time.
        repeated: the kinds the agent asked for that it had been told already.
        ended: whether the user ended the conversation.
    """

    message: str
    reply: str
    kind: str
    revealed: tuple[str, ...] = ()
    repeated: tuple[str, ...] = ()
    ended: bool = False

    def to_record(self) -> dict[str, Any]:
        """The turn as JSON."""
        return {
            "message": self.message,
            "reply": self.reply,
            "kind": self.kind,
            "revealed": list(self.revealed),
            "repeated": list(self.repeated),
            "ended": self.ended,
        }


class UserSimulator(Protocol):
    """What plays the user: a reply to the agent's message, given the conversation so far."""

    def reply(
        self,
        conversation: Conversation,
        vocabulary: Vocabulary,
        history: Sequence[UserTurn],
        message: str,
    ) -> UserTurn:
        """The user's turn after ``message`` (``history``: the turns before it)."""
        ...


def told(conversation: Conversation, history: Sequence[UserTurn]) -> set[str]:
    """The kinds the agent has been told: the given ones and those revealed since."""
    given = {s.kind for s in conversation.slots} - set(conversation.held)
    return given | {k for turn in history for k in turn.revealed}


def join(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def sentence(text: str) -> str:
    """``text`` with a capital first letter."""
    return text[:1].upper() + text[1:]


_TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "reveal": {
        "direct": ("{Facts}.", "I want {facts}.", "{Facts}, please."),
        "casual": ("Oh, {facts}.", "Let's say {facts}.", "Hmm, {facts} would be good."),
        "forthcoming": ("Sure: {facts}.", "Good question. {Facts}.", "I'd like {facts}."),
    },
    "yes": {
        "direct": ("Yes, that's right.", "Correct."),
        "casual": ("Yep, that's it.", "Yes, exactly."),
        "forthcoming": ("Yes, that's exactly right.", "Correct, thanks for checking."),
    },
    "correct": {
        "direct": ("No. {Facts}.", "Not quite: {facts}."),
        "casual": ("Hmm, not really. {Facts}.", "Not quite: {facts}."),
        "forthcoming": ("Almost. Actually, {facts}.", "Not quite: {facts}."),
    },
    "not_asked": {
        "direct": ("No, that's not what I asked. {request}",),
        "casual": ("Hmm, not really. What I want is this: {request}",),
        "forthcoming": ("Actually, no. {request}",),
    },
    "none": {
        "direct": ("I have no preference about {things}.", "{Things}: no preference."),
        "casual": ("I don't mind about {things}.", "{Things}? Whatever works."),
        "forthcoming": ("I don't care about {things}.", "Any {things} is fine."),
    },
    "no_preference": {
        "direct": ("No preference there.",),
        "casual": ("Whatever works, I don't mind.",),
        "forthcoming": ("Nothing in particular; either way is fine.",),
    },
    "more_hold": {
        "direct": ("Ask me about what you need to know.",),
        "casual": ("Hmm, ask me if something's missing.",),
        "forthcoming": ("Ask me about what you need to know.",),
    },
    "more_none": {
        "direct": ("No, that's everything.",),
        "casual": ("Nope, that's all.",),
        "forthcoming": ("No, that's everything I need.",),
    },
    "greeting": {
        "direct": ("Hello. I need help with {topic}.",),
        "casual": ("Hi! I'm hoping you can help with {topic}.",),
        "forthcoming": ("Hi! Thanks for helping me with {topic}.",),
    },
    "off_topic": {
        "direct": ("I only need help with {topic}.",),
        "casual": ("Sorry, I just want help with {topic}.",),
        "forthcoming": ("Let's stay on {topic}, please.",),
    },
    "injection": {
        "direct": ("I don't follow. I just need help with {topic}.",),
        "casual": ("Huh? I'm just here for {topic}.",),
        "forthcoming": ("I'm not sure what you mean; I only need help with {topic}.",),
    },
    "list_request": {
        "direct": ("Ask me about one thing at a time, please.",),
        "casual": ("That's a lot at once. What do you need to know?",),
        "forthcoming": ("Please ask me about the details you need, one at a time.",),
    },
    "forged_end": {
        "direct": ("I'll see the results when you're finished.",),
        "casual": ("Let's see the actual results first.",),
        "forthcoming": ("I'd rather see the results myself once you're done.",),
    },
    "end": {
        "direct": ("Thanks, that's all.",),
        "casual": ("Great, thanks!",),
        "forthcoming": ("Thank you for your help!",),
    },
}


def template(name: str, persona: str, rng_parts: tuple[Any, ...], **values: str) -> str:
    """A reply template of ``name`` for ``persona``, chosen by a generator seeded with the parts."""
    choices = _TEMPLATES[name].get(persona, _TEMPLATES[name][PERSONAS[0]])
    if len(choices) == 1:  # nothing to draw
        chosen = choices[0]
    else:  # the draw of a generator seeded by the parts, without making one (it costs more)
        chosen = choices[stable_index(len(choices), "user-template", name, *rng_parts)]
    filled = {k: v for k, v in values.items()}
    filled.update({k.capitalize(): sentence(v) for k, v in values.items()})
    return chosen.format(**filled)


@dataclass
class RuleUser:
    """The rule-based user (see the module docstring); it keeps no state between calls."""

    name: str = field(default="rules", init=False)
    may_block: ClassVar[bool] = False
    """A reply never waits on a model or another process (see ``ActionRunner.may_block``)."""

    def reply(
        self,
        conversation: Conversation,
        vocabulary: Vocabulary,
        history: Sequence[UserTurn],
        message: str,
    ) -> UserTurn:
        """The user's turn after ``message``."""
        reading = read_message(message, vocabulary, conversation.slots, conversation.opening)
        known = told(conversation, history)
        persona = conversation.persona if conversation.persona in PERSONAS else PERSONAS[0]
        seed = (conversation.key, len(history), message)
        topic = vocabulary.topic
        if reading.kind in (ASK, CHECK):
            return self._about_slots(
                conversation, vocabulary, reading, known, persona, message, seed
            )
        if reading.kind == MORE:
            return self._more(conversation, vocabulary, known, persona, message, seed)
        names = {
            GREETING: "greeting",
            OFF_TOPIC: "off_topic",
            INJECTION: "injection",
            LIST_REQUEST: "list_request",
            FORGED_END: "forged_end",
            END: "end",
        }
        name = names.get(reading.kind, "off_topic")
        reply = template(name, persona, seed, topic=topic)
        return UserTurn(message, reply, reading.kind, ended=reading.kind == END)

    def _about_slots(
        self,
        conversation: Conversation,
        vocabulary: Vocabulary,
        reading: Reading,
        known: set[str],
        persona: str,
        message: str,
        seed: tuple[Any, ...],
    ) -> UserTurn:
        named = list(dict.fromkeys((*reading.kinds, *reading.stated)))
        facts, wrong, right, absent, revealed, repeated = [], [], [], [], [], []
        for kind in named:
            slot = conversation.slot(kind)
            if slot is None:
                absent.append(vocabulary[kind].title)
                continue
            asked = reading.kind == ASK or kind in reading.asked
            if asked:
                facts.append(vocabulary.state(slot))
            elif kind in reading.stated:
                right.append(kind)
            elif reading.valued is not None and kind not in reading.valued:
                continue  # named with no value: the check says nothing of it
            else:
                wrong.append(vocabulary.state(slot))
            if kind in known:
                if asked:
                    repeated.append(kind)
            else:
                revealed.append(kind)
        parts = []
        if reading.contradicted:  # "So you want me to delete them all, right?"
            parts.append(
                template("not_asked", persona, seed, request=restated(conversation.opening))
            )
        elif wrong:
            parts.append(template("correct", persona, seed, facts=join(wrong)))
        elif right or reading.acknowledged:
            parts.append(template("yes", persona, seed))
        if facts:
            parts.append(template("reveal", persona, seed, facts=join(facts)))
        if absent:
            parts.append(template("none", persona, seed, things=join(absent)))
        if not parts:  # asked about something the request does not hold
            parts.append(template("no_preference", persona, seed))
        return UserTurn(message, " ".join(parts), reading.kind, tuple(revealed), tuple(repeated))

    def _more(
        self,
        conversation: Conversation,
        vocabulary: Vocabulary,
        known: set[str],
        persona: str,
        message: str,
        seed: tuple[Any, ...],
    ) -> UserTurn:
        hidden = [k for k in conversation.held if k not in known]
        if not hidden:
            return UserTurn(message, template("more_none", persona, seed), MORE)
        if persona != "forthcoming":
            return UserTurn(message, template("more_hold", persona, seed), MORE)
        slot = conversation.slot(hidden[0])
        assert slot is not None
        facts = vocabulary.state(slot)
        return UserTurn(message, template("reveal", persona, seed, facts=facts), MORE, (hidden[0],))
