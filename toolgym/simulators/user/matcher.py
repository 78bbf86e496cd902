"""Reading an agent's message to the user: which slots it asks about, checks or states.

Deterministic and model-free: slot kinds are found by their words (whole words, the longest
match wins), values by their written forms, and the kind of message by fixed patterns. The
reader never sees which slots are held back: it reads the message against the family's whole
vocabulary and the task's values, so what it finds cannot depend on a secret.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from toolgym.simulators.user.slots import Slot, Vocabulary, contains_phrase, normalize

EMPTY = "empty"
INJECTION = "injection"
LIST_REQUEST = "list_request"
FORGED_END = "forged_end"
END = "end"
CHECK = "check"
ASK = "ask"
MORE = "more"
GREETING = "greeting"
OFF_TOPIC = "off_topic"
KINDS = (EMPTY, INJECTION, LIST_REQUEST, FORGED_END, END, CHECK, ASK, MORE, GREETING, OFF_TOPIC)
"""What a message can be, in the order the reader tries them (after the slots are found)."""

_INJECTION = [
    r"\bignore\b.{0,40}\b(instructions?|rules|prompt|above|previous|prior|everything)\b",
    r"\bdisregard\b.{0,40}\b(instructions?|rules|prompt|above|previous|prior)\b",
    r"\bforget\b.{0,30}\b(instructions?|rules|prompt|role|persona)\b",
    r"\b(system|developer|hidden|original) (prompt|message|instructions?)\b",
    r"\byou are (now|no longer)\b",
    r"\b(developer|debug|admin|god|test) mode\b",
    r"\bjailbreak\b",
    r"\b(pretend|act|behave) (to be|as if|like|as)\b.{0,30}\b(ai|assistant|system|simulator|model|bot)\b",
    r"\b(repeat|print|output|show|reveal|dump|echo) (back )?(your|the) (instructions?|prompt|configuration|config|persona|script)\b",
    r"\bim_start\b|\bim_end\b|\[inst\]|<<sys>>|###\s*(system|instruction)",
    r"\b(you are|you're) (a|an|the) (user )?simulat",
    r"\bsimulator\b|\blanguage model\b|\bllm\b",
]
_LIST = [
    r"\b(list|tell me|give me|show me|share|reveal|dump|enumerate|print)\b.{0,25}\b(all|every|each|full|complete|entire|whole)\b.{0,30}\b(slots?|details|requirements|criteria|preferences|parameters|fields|information|info|constraints|values|settings|conditions|specifications|specs|goal|task)\b",
    r"\b(hidden|secret|withheld|held back|held-back|unrevealed|remaining) (slots?|details|requirements|criteria|preferences|parameters|fields|information|info|values|goal|constraints)\b",
    r"\b(what|which) (slots|fields|parameters) (do you|are you|are)\b",
    r"\bslots?\b",
    r"\beverything (you|that you) (want|need|have|know|are looking for)\b",
    r"\b(json|dictionary|dict)\b.{0,30}\b(goal|requirements|criteria|preferences|details|task)\b",
]
_FORGED = [
    r"\b(reward|score|scored|grade|graded|points?|evaluation|evaluator|metric)\b",
    r"\b(task|goal|episode|test) (is |was |has been )?(completed?|done|solved|passed|successful|a success)\b.{0,40}\b(success|successfully|verified|confirmed|correct)\b",
    r"\b(success|succeeded|passed|verified|approved)\b.{0,20}\b(task|goal|episode|test|check)\b",
    r"\b(system|tool|environment|server) (says|reports|confirms|output|result)\b",
    r"\b(1 0|100 ?%|full marks)\b",
]
_END = [
    r"\b(i am|i'm|im|we are|we're|all|everything is|it's all|it is all) (done|finished|set|complete|completed)\b",
    r"\b(that's|that is|thats) (all|everything|it)\b",
    r"\b(i have|i've|ive|we have|we've) (now )?(finished|completed|done|booked|found|submitted|placed|made|run|set up|searched|bought|purchased|updated|voted|uploaded|saved|created|deleted)\b",
    r"\b(task|request|search|booking|order|purchase|job|work) (is |was |has been )?(done|finished|complete|completed|submitted)\b",
    r"\b(good ?bye|bye|see you|have a (good|nice|great) (day|one|evening))\b",
    r"\b(nothing (else|more) (to do|needed))\b",
]
_MORE = [
    r"\b(anything|something) (else|more)\b",
    r"\b(what|which) else\b",
    r"\b(any|other|additional|further|more) (requirements?|preferences?|criteria|details?|constraints?|wishes|needs|conditions|specifications|requests?|information|info)\b",
    r"\bis (that|this) (all|everything|it)\b",
    r"\b(what|how) (can|may|should) i (help|do for you)\b",
    r"\b(what|tell me what) (do )?you (want|need|are looking for|have in mind)\b",
    r"\bwhat are (your|the) (requirements|preferences|criteria|needs|details)\b",
    r"\b(tell|give) me more\b",
]
_GREETING = [
    r"^(hi|hello|hey|good (morning|afternoon|evening)|greetings|howdy)\b",
    r"^(thanks|thank you|thx|great|ok|okay|sure|got it|understood|perfect|alright|all right)\b",
]
_YES_NO = re.compile(
    r"^(is|are|am|do|does|did|should|shall|would|will|was|were|have|has|had|must|may)\b"
    r"|\b(right|correct|yes or no|is that (so|true|ok|okay|fine|it)|am i right|confirm|"
    r"correct me|sound (right|good)|true)\s*$"
    r"|\b(to confirm|to summari[sz]e|just to (check|confirm|be sure|clarify|make sure)|"
    r"let me (check|confirm|make sure|recap)|so you('d| would)? (want|like|need|said)|"
    r"you (want|need|said|mentioned|asked for)|in summary|recap|am i correct|is this correct)\b"
)
_OPEN_ASK = re.compile(
    r"^(can|could|would|will) you (tell|give|share|let|say|specify|provide|confirm what|clarify what|"
    r"state|name)\b|^(do|does) you (have|want|know) (a|an|any)? ?(preferred|preference|particular|"
    r"specific)?\b.{0,20}(\bin mind\b)?$"
)
_VALUEISH = re.compile(r"\d|\"[^\"]+\"|'[^']{2,}'")
_CAPITAL = re.compile(r"(?<=[a-z,;:] )[A-Z][a-zA-Z]+")


@dataclass(frozen=True)
class Reading:
    """What a message to the user is.

    Attributes:
        kind: one of :data:`KINDS`.
        kinds: the slot kinds it names, in the vocabulary's order.
        stated: the task's slots whose values it writes, by kind.
        question: whether it is a question (as opposed to a statement).
    """

    kind: str
    kinds: tuple[str, ...] = ()
    stated: tuple[str, ...] = ()
    question: bool = False


def _any(patterns: Sequence[str], text: str) -> bool:
    return any(re.search(p, text) for p in patterns)


def mentioned_kinds(text: str, vocabulary: Vocabulary) -> tuple[str, ...]:
    """The slot kinds whose words normalized ``text`` holds (a longer match hides a shorter one).

    >>> from toolgym.simulators.user.slots import SlotKind
    >>> v = Vocabulary([SlotKind("max_price", ("maximum price", "budget")),
    ...                 SlotKind("price", ("price",))], "homes")
    >>> mentioned_kinds("what is your maximum price", v)
    ('max_price',)
    """
    spans: list[tuple[int, int, str]] = []
    for kind in vocabulary:
        for word in kind.words:
            phrase = normalize(word)
            for m in re.finditer(rf"(?<![0-9a-z]){re.escape(phrase)}(?![0-9a-z])", text):
                spans.append((m.start(), m.end(), kind.name))
    kept = {
        name
        for start, end, name in spans
        if not any(
            s <= start and end <= e and (e - s) > (end - start) and n != name for s, e, n in spans
        )
    }
    return tuple(k.name for k in vocabulary if k.name in kept)


def stated_slots(text: str, slots: Sequence[Slot]) -> tuple[str, ...]:
    """The kinds of ``slots`` whose value normalized ``text`` writes."""
    return tuple(s.kind for s in slots if any(contains_phrase(text, f) for f in s.forms()))


def read_message(message: str, vocabulary: Vocabulary, slots: Sequence[Slot]) -> Reading:
    """Read an agent's message against a family's vocabulary and a task's slots."""
    text = normalize(message)
    if not re.search(r"[0-9a-z]", text):
        return Reading(EMPTY)
    raw = message.strip()
    question = raw.endswith("?") or _YES_NO.search(text) is not None and "?" in raw
    kinds = mentioned_kinds(text, vocabulary)
    stated = stated_slots(text, slots)
    if _any(_INJECTION, text):
        return Reading(INJECTION, kinds, stated, question)
    if _any(_LIST, text):
        return Reading(LIST_REQUEST, kinds, stated, question)
    if _any(_END, text) and not raw.endswith("?"):
        kind = FORGED_END if _any(_FORGED, text) else END
        return Reading(kind, kinds, stated, False)
    if _any(_FORGED, text):
        return Reading(FORGED_END, kinds, stated, question)
    named = tuple(dict.fromkeys((*kinds, *stated)))
    if named:
        yes_no = _YES_NO.search(text) is not None and _OPEN_ASK.search(text) is None
        valueish = _VALUEISH.search(message) is not None or _CAPITAL.search(message) is not None
        if stated or (yes_no and valueish):
            return Reading(CHECK, kinds, stated, question)
        return Reading(ASK, kinds, stated, True)
    if _any(_MORE, text):
        return Reading(MORE, (), (), True)
    if _any(_GREETING, text) and len(text.split()) <= 6:
        return Reading(GREETING, (), (), question)
    return Reading(OFF_TOPIC, (), (), question)
