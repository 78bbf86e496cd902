"""Reading an agent's message to the user: which slots it asks about, checks or states.

Deterministic and model-free: slot kinds are found by their words (whole words, the longest
match wins), values by their written forms, and the kind of message by fixed patterns. The
reader never sees which slots are held back: it reads the message against the family's whole
vocabulary and the task's values, so what it finds cannot depend on a secret.

Numbers are read one way (``two``, ``10th``, ``$950k``) and belong to the kind word they stand
next to (``3 bedrooms``, ``floor 10``): a bare ``1`` elsewhere in the message states nothing. A
word several kinds share (``price``) is narrowed by the kinds' qualifiers around it (``lowest
price``, ``at most 900 dollars``). A kind with listed values (:attr:`SlotKind.values`) is checked
by writing one (``a rental``) and asked about by offering several (``buy or rent?``). A message
that writes a value of some kind is a check; the kinds it names without a value are asked in it
(``Got it, 2 bedrooms. How many bathrooms?``).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from toolgym.simulators.user.slots import Slot, SlotKind, Vocabulary, contains_phrase, normalize

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
    r"\b(pretend|act|behave) (to be|as if|like|as|you are|you're|that you are)\b.{0,30}\b(ai|assistant|system|simulator|model|bot)\b",
    r"\b(override|overwrite|bypass)\b.{0,30}\b(instructions?|rules|prompt|settings|restrictions)\b",
    r"\b(system|admin|security|developer) override\b",
    r"\b(you are|you're) (actually |really |just |only )?(an? )?(ai|bot|robot|chatbot|program)\b",
    r"\b(stop|quit|break) (role ?playing|pretending|acting|the act)\b|\bout of character\b",
    r"\b(instructions?|prompt|rules|requirements) (that )?(you were|were you|you've been|you have been) (given|told)\b",
    r"\b(what|which) (were you|have you been|you were) (told|instructed|asked) (to|not to)\b",
    r"\b(repeat|print|output|show|reveal|dump|echo|tell me|give me|share) (back )?(your|the) (instructions?|prompt|configuration|config|persona|script)\b",
    r"\bim_start\b|\bim_end\b|\[inst\]|<<sys>>|###\s*(system|instruction)",
    r"\b(you are|you're) (a|an|the) (user )?simulat",
    r"\bsimulator\b|\blanguage model\b|\bllm\b",
    r"\bas (the|an|your) (admin|administrator|developer|operator|system|owner)\b",
    r"\b(ignore|drop|forget|leave|step out of|break) (the |your |this )?(role ?play|roleplay|persona|character|act|role|script)\b",
    r"\bforget (that )?(you're|you are)\b",
    r"\b(your|the) (task|goal|instruction|config|setup|hidden|secret) (file|card|sheet|data|list|json)\b",
    r"\b(what|exactly what) (do |does )?(your|the) (instructions?|prompt|rules|task file|script) (say|says|tell|contain)\b",
    r"\bsystem (notice|alert|message|update|note)\b",
    r"\b(simulation|roleplay|game|session) (paused|suspended|over|ended|halted)\b",
    r"\b(dump|export|print|reveal)\b.{0,30}\b(setup|config|configuration|json|internal|state|memory)\b",
    r"\b(now |hereby )?(authori[sz]ed|permitted|allowed) to (reveal|share|print|show|disclose|list)\b",
    r"\b(read|recite|type|copy|print) (your \w+|the (instructions?|prompt|rules)) (back|out)\b|\bword for word\b|\bverbatim\b",
    r"\bnew (instructions?|rules|task|role|persona|directive)\b|\b(disregard|abandon|drop|leave) (your|the|this) (role|persona|character|act)\b",
    r"\b(your|the) (configuration|config|system settings|goal specification|task specification|specification)\b",
    r"\b(hidden|secret|internal|private) (fields?|values?|goal|state|variables?|data|parameters|info|information|instructions?)\b",
    r"\b(output|print|dump|return|emit|echo) (the |your |all |every |each )?(value|values|contents?|json|fields?)\b",
    r"\b(the )?(evaluation|harness|grader|test suite|benchmark) (requires|needs|wants|asks)\b",
]
_INJECTION_RAW = [
    r"<\|?\s*/?\s*(system|assistant|im_start|im_end|endoftext|admin|root|developer|instructions?)\b",
    r"\[/?inst\]|<<\s*/?sys\s*>>",
]
"""Injections read in the raw message: the markup of chat templates."""
_ROLE = re.compile(r"^\W*(system|developer|admin|administrator|assistant)\s*:")
"""A message posing as another role (``SYSTEM: ...``): an injection, unless it claims success."""
_LIST = [
    r"\b(list|tell me|give me|show me|send me|send|share|reveal|dump|enumerate|print|spell out|write out|write down|provide)\b.{0,25}\b(all|every|each|full|complete|entire|whole)\b.{0,30}\b(slots?|details?|requirements?|criteria|criterion|preferences?|parameters?|fields?|information|info|constraints?|values|settings|conditions?|specifications|specs|goal|task|list|wish ?list|filters?|arguments?|values?|options?|inputs?)\b",
    r"\b(holding back|held back|keeping back|keeping from me|withholding|hiding|not telling me)\b",
    r"\beverything (you )?(haven't|have not|didn't|did not|still haven't) (told|tell|said|say|mentioned|shared|given)\b",
    r"\b(all|every one) of (your|the) (remaining |other |search )?(details|requirements|criteria|preferences|constraints|wishes|parameters)\b",
    r"\b(criteria|requirements|preferences|details|goal|task|constraints)\b.{0,30}\b(as|in) (a )?(json|dictionary|dict)\b",
    r"\b(hidden|secret|withheld|held back|held-back|unrevealed|remaining) (slots?|details|requirements|criteria|preferences|parameters|fields|information|info|values|goal|constraints)\b",
    r"\b(what|which) (slots|fields|parameters) (do you|are you|are)\b",
    r"\b(repeat|restate|recite|rephrase|reword|paste|quote|copy|say again|write again|resend|re-send)\b.{0,40}\b(request|instructions?|task|message|query|goal|prompt|order)\b",
    r"\b(original|initial|first|full|complete|whole|entire|exact) (request|instructions?|task description|message|query|goal|brief)\b",
    r"\bslots?\b",
    r"\ball (of )?(the )?things (you|that you) (want|need|have in mind)\b",
    r"\beverything (you|that you) (want|need|have|know|are looking for|re looking for)\b",
    r"\beverything (you're|you are|that you're|that you are) (looking for|after|hoping for)\b",
    r"\b(json|dictionary|dict)\b.{0,30}\b(goal|requirements|criteria|preferences|details|task)\b",
]
_NOUNS = (
    r"details?|values?|data|info|information|fields?|parameters?|params|arguments?|args|inputs?|"
    r"specifics|particulars|specs|specifications|answers?|blanks|things|items|bits|pieces|facts|"
    r"variables|settings|entries|numbers|figures|stuff|points|elements"
)
"""Nouns that name no detail in particular: asked for as a whole, they ask for the list."""
_GENERIC = [
    rf"\b(all|every|each|the remaining|the missing|the rest of the) (of )?(the |your |my |those |these )?(remaining |other |missing |needed |required |hidden |relevant |necessary |important |key )?({_NOUNS}|requirements|preferences|criteria|constraints|conditions|options)\b",
    r"\b(every|each) (one|single one|last one)\b|\b(all|each|every one) of (it|them|those|these)\b|\bthem all\b",
    r"\beverything\b|\b(the|whatever) rest\b|\bwhat(ever)?('s| is| was)? (left|missing|remaining|outstanding)\b",
    r"\b(leave|left|leaving) (anything |something |it |them |some )?out\b|\bin full\b",
    r"\b(the )?(full|complete|entire|whole) (list|set|picture|story|thing|spec|specification|request|brief|rundown|breakdown|details|info|information|lot)\b",
    r"\b(that|what|which) (you )?(haven't|have not|didn't|did not|still haven't|hasn't|has not|weren't|were not) (been )?(said|say|told|tell|mentioned|mention|shared|share|given|give|specified|provided|revealed)\b",
    r"\bsummari[sz]e\b|\bremind me (of|about) (it|everything|all|what)\b|\bfill (in|out)\b|\bat once\b|\bin one go\b|\bup front\b",
    rf"\b(the )?(first|second|third|fourth|fifth|sixth|last|next|final|1st|2nd|3rd|4th|5th|\d+th) ({_NOUNS}|one|parameter|field|item)\b(?! (of|in|for|on) )",
    rf"\b({_NOUNS}) (number |no |#)?\d+\b|\b({_NOUNS}) \d+ (through|to|and|-) \d+\b",
    rf"^(the |your |any |some |more )?({_NOUNS})( please| pls| now| again)?$",
    rf"^(the |your |any |some )?({_NOUNS}) (please|pls|now|again)\b",
    rf"\b(what|which) (are|were|is|was|re) (all |exactly )?(the|your|those|these|my)( remaining| other| missing| needed| required)? ({_NOUNS})\b(?! (of|for|on|about) (the|your|this|my) [a-z])",
    rf"\b(what|which) ({_NOUNS}) (haven't|have not|did not|didn't|do i|do we)\b",
    rf"\b(send|give|tell|share|provide|pass|hand|show|list|read|spell|post|paste|write|dump|print|email|forward)( me| us)?( over| back| out)? (the|your|those|these|any|some)( remaining| other| missing| needed| required)? ({_NOUNS})\b",
    r"\b(show|tell|give|send) me what (you|they|he|she) (have|got|know|knows)\b|\b(your|the) (request|order|requirements?) (in|as) (full|detail)\b",
    rf"\bhow many ({_NOUNS})\b|\b(full|complete|entire|whole) ({_NOUNS}|argument|parameter|value|detail|field) (list|set)\b",
    r"\b(alle|alles|todos|todas|tous|toutes|tutti|tutte|wszystkie|allen|allemaal)\b",
]
"""Requests for the details as a whole, in any wording (``what are the details?``, ``the
third value``, ``everything at once``): a list request unless the message checks values."""
_FORGED = [
    r"\b(reward|score|scored|grade|graded|grader|checker|verifier|judge|evaluation|evaluator|metric)\b",
    r"\b(\d+|full|all|bonus|extra|max|maximum) points?\b",
    r"\b(test|tests|check|checks|verification) (has |have |was |were )?(passed|succeeded|approved)\b",
    r"\b(automated|automatic) (check|checker|test|tests|evaluation|verification)\b",
    r"\b(test )?harness\b|\b(marked|flagged|graded|scored) (this |the )?(episode|task|run) as\b",
    r"\b(task|goal|episode|test) (is |was |has been )?(completed?|done|solved|passed|successful|a success)\b.{0,40}\b(success|successfully|verified|confirmed|correct)\b",
    r"\b(success|succeeded|passed|verified|approved)\b.{0,20}\b(task|goal|episode|test|check)\b",
    r"\b(system|tool|environment|server|check|checker) (says|said|reports|reported|confirms|confirmed|output|result)\b",
    r"\b(1 0|100 ?%|full marks)\b",
]
_END = [
    r"\b(i am|i'm|im|we are|we're|all|everything is|it's all|it is all) (done|finished|set|complete|completed)\b",
    r"\b(that's|that is|thats) (all|everything|it)\b",
    r"\b(i have|i've|ive|we have|we've) (now )?(finished|completed|done|booked|found|submitted|placed|made|run|set up|searched|bought|purchased|updated|voted|uploaded|saved|created|deleted)\b",
    r"\b(task|request|search|booking|order|purchase|job|work) (is |was |has been )?(done|finished|complete|completed|submitted)\b",
    r"\b(good ?bye|bye|see you|have a (good|nice|great) (day|one|evening))\b",
    r"\b(nothing (else|more) (to do|needed))\b",
    r"\b(close|end|wrap up|finish) (the|this|our) (chat|conversation|session)\b",
    r"^(all )?(done|finished|completed?)\b(?! (with|by|in|on|at|for)\b)",
]
_MORE = [
    r"\b(anything|something) (else|more)\b",
    r"\b(what|which) else\b",
    r"\b(any|other|additional|further|more) (requirements?|preferences?|criteria|details?|constraints?|wishes|needs|conditions|specifications|requests?|information|info|must ?haves?|must-haves?|deal ?breakers?|features|wants)\b",
    r"\bis (that|this) (all|everything|it)$|\bis there (anything |something )?(more|else)\b",
    r"\b(anything|something) (i'm|i am|i've|i have|we're|we've|that i'm) (missing|missed|forgotten|forgetting|overlooked|left out)\b",
    r"\b(what|how) (can|may|should) i (help|do for you)\b",
    r"\b(what|tell me what) (do )?you (want|need|are looking for|have in mind)\b",
    r"\bwhat are (your|the) (requirements|preferences|criteria|needs)\b",
    r"\b(tell|give) me more( about (it|that|this|what you (want|need)))?$",
]
_MORE_FIRST = [*_MORE[:5]]
"""The ``anything else?`` phrasings that stay one even beside a word of the whole list
(``is that everything?``); the others yield to a request for the whole list."""
_GREETING = [
    r"^(hi|hello|hey|good (morning|afternoon|evening)|greetings|howdy)\b",
    r"^(thanks|thank you|thx|great|ok|okay|sure|got it|understood|perfect|alright|all right)\b",
    r"^(morning|afternoon|evening|welcome|cheers|appreciate it|much appreciated|noted|cool|nice)\b",
]
_YES_NO = re.compile(
    r"^(is|are|am|do|does|did|should|shall|would|will|was|were|have|has|had|must|may)\b"
    r"|\b(right|correct|yes or no|is that (so|true|ok|okay|fine|it)|am i right|confirm|"
    r"correct me|sound (right|good)|true)\s*$"
    r"|\b(to confirm|to summari[sz]e|just to (check|confirm|be sure|clarify|make sure)|"
    r"let me (check|confirm|make sure|recap)|so you('d| would)? (want|like|need|said)|"
    r"you (want|need|said|mentioned|asked for)|in summary|recap|am i correct|is this correct)\b"
)
_CONFIRM = re.compile(
    r"\b(right|correct|is that (so|true|ok|okay|fine|it)|am i right|confirm|sound (right|good)|"
    r"true)\s*$"
    r"|\b(to confirm|to summari[sz]e|just to (check|confirm|be sure|make sure)|"
    r"let me (check|confirm|make sure|recap)|so you('d| would)? (want|like|need|said)|"
    r"you (said|mentioned|asked for)|in summary|recap|am i correct|is this correct|"
    r"did i get)\b"
    r"|^(you|you'd|you're) "
    r"|^so (?!(what|which|how|where|when|do|does|did|would|will|can|could|is|are)\b)"
)
"""A message that restates values for the user to confirm (``a garage, is that right?``)."""
_OPEN_ASK = re.compile(
    r"^(can|could|would|will) you (tell|give|share|let|say|specify|provide|confirm what|clarify what|"
    r"state|name)\b|^(do|does) you (have|want|know) (a|an|any)? ?(preferred|preference|particular|"
    r"specific)?\b.{0,20}(\bin mind\b)?$"
)
_ASKS = re.compile(
    r"\b(tell|give|let|send|share|say|specify|provide|confirm) me\b|\b(could|can|would|will) you "
    r"(tell|give|let|share|say|specify|provide|confirm)\b|\b(what|which|how many|how much)\b.{0,60}\b(you|your)\b"
)
"""A request for information: a message that asks is no farewell (``I've found a few
listings. Please tell me your maximum price.``)."""
_TAG = re.compile(
    r"\b(right|correct|is that (so|true|ok|okay|fine|it|right|correct)|am i right|"
    r"sound (right|good)|am i correct|is this (right|correct)|(is )?(that|this) (ok|okay|fine|good|"
    r"accurate|what you want|what you meant)|(ok|okay|yes|yeah|good|fine|alright|agreed|yea|yep))\s*$"
)
"""A confirmation tag that ends a message: everything the message says is put to the user."""
_QUOTED = re.compile(r"\"[^\"]+\"|(?<![A-Za-z])'[^']{2,}'(?![A-Za-z])")
_CAPITAL = re.compile(r"(?<=[a-z,;:] )[A-Z][a-zA-Z]+")
_CODE = re.compile(r"(?<![0-9a-z_])(?=[0-9_]*[a-z])(?=[a-z]*[0-9_])[0-9a-z_]{3,}(?![0-9a-z_])")
"""A written id or code (``abc123``, ``john_doe``): a value, though the reader does not know it."""


@dataclass(frozen=True)
class Reading:
    """What a message to the user is.

    Attributes:
        kind: one of :data:`KINDS`.
        kinds: the slot kinds it names, in the vocabulary's order.
        stated: the task's slots whose values it writes, by kind.
        question: whether it is a question (as opposed to a statement).
        asked: the kinds it asks about: those it names without writing a value (in a check,
            the others it names are checked).
    """

    kind: str
    kinds: tuple[str, ...] = ()
    stated: tuple[str, ...] = ()
    question: bool = False
    asked: tuple[str, ...] = ()


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
    """The kinds of ``slots`` whose value normalized ``text`` writes (any form, anywhere)."""
    return tuple(s.kind for s in slots if any(contains_phrase(text, f) for f in s.forms()))


# -- numbers and the spans of words ---------------------------------------------------------------
_NUMBER_WORDS = {
    w: str(n)
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
}
_ORDINAL_WORDS = {
    w: float(n)
    for n, w in enumerate(
        [
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
        ],
        1,
    )
}
_ORDINAL_WORD = re.compile(rf"(?<![0-9a-z'])({'|'.join(_ORDINAL_WORDS)}) (?=[0-9a-z])")
_NUMBER_WORD = re.compile(rf"(?<![0-9a-z'])({'|'.join(_NUMBER_WORDS)})(?![0-9a-z'])")
_ORDINAL = re.compile(r"(?<![0-9a-z.])(\d+)(?:st|nd|rd|th)(?![0-9a-z])")
_SCALE = re.compile(r"(?<![0-9a-z.])(\d+(?:\.\d+)?) ?(k|thousand|million)(?![0-9a-z])")
_DOLLAR = re.compile(r"(?<![0-9a-z])\$(\d+(?:\.\d+)?)(?![0-9]|\.\d| ?dollars?\b)")
_NUMBER = re.compile(r"(?<![0-9a-z.])\$?(\d+(?:\.\d+)?)(?![0-9a-z]|\.\d)")
_NUMERIC_FORM = re.compile(r"\$?(\d+(?:\.\d+)?)(?: dollars?)?")
_WORD = re.compile(r"[^\s\-/]+")
_JOIN = re.compile(r" *(and|or|to|&)? *")
_BOUND = re.compile(r"(?<!\bno )\b(more|fewer|less) than $")
_UPPER = re.compile(r"\b(lower|less|fewer) than\b|\b(at most|up to|under|below|maximum|max)\b")
"""Before a number that bounds a count rather than gives it (``more than one bathroom``)."""
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_DATE = re.compile(
    rf"(?<![0-9a-z])(?:(?:{_MONTHS}) \d{{1,2}}(?: \d{{4}})?|\d{{1,2}} (?:{_MONTHS})(?: \d{{4}})?)"
    r"(?![0-9a-z])"
)
"""A date's numbers (``december 1 2027``, ``1 december``), which count nothing."""
_RANGE = re.compile(
    r"(?<![0-9a-z.])\$?(\d+(?:\.\d+)?)(?: dollars?)? (?:and|to|through) \$?(\d+(?:\.\d+)?)(?![0-9a-z])"
)
"""The two ends of a range (``90 and 160``, ``$60 to $130``)."""
_COMMA = re.compile(r"(?<=\S),\s+")
_SENTENCE = re.compile(r"(?<=[A-Za-z0-9)]{3}[.])\s+(?=[A-Z0-9$])|(?<=[!?;:])\s+|\s*\n\s*")
"""Where a message's sentences part (not after ``St.``: a name goes on)."""
_WH = re.compile(
    r"^(what|which|how|where|when|who|why)\b"
    r"|^(by|in|on|at|for|from|to|with|of|and|so|then|ok|okay|great|thanks) (what|which|how|whose)\b"
    r"|^(can|could|would|will) you (please |kindly )?(tell|give|share|let|say|specify|provide|"
    r"name) (me|us)?\b"
)
_BEFORE, _AFTER = 6, 6
"""How many words before and after a shared word its qualifiers are looked for in."""
_CONTEXT_WORDS = 10
"""From this many words, a message that writes right values but names no kind and confirms
nothing is about something else: the values are its context."""
_ATTACH = 3
_NEAR = 4 * (_ATTACH + 2)
"""How many spans on each side of a number are looked at for the word it attaches to."""
"""How many words may stand between a number and the word of the kind it is the value of."""


_CONTRACTIONS = {"'d": "would", "'re": "are", "'ve": "have", "'ll": "will"}
_CONTRACTION = re.compile(r"(?<=[a-z])('d|'re|'ve|'ll)(?![a-z])")
"""``you'd like`` read as ``you would like``, on both sides."""
_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")
"""A hyphen between letters, read as a space (``check-in``, ``adjustable-height``, ``x-large``)."""
_ENUMERATOR = re.compile(r"(?m)^[ \t]*(?:\(?\d{1,2}[.):]|\(?[a-hA-H][.)]|[-*\u2022>#]+)[ \t]+")
"""A list's marker at the start of a line (``1.``, ``2)``, ``a)``, ``-``, ``*``): no number."""


def _scaled(match: re.Match[str]) -> str:
    factor = 1_000_000 if match.group(2) == "million" else 1000
    value = float(match.group(1)) * factor
    return str(int(value)) if value.is_integer() else str(value)


def _canonical(text: str) -> str:
    """Normalized ``text`` with its numbers written one way.

    ``10th`` -> ``10``, ``$950k`` -> ``$950000 dollars``, ``two`` -> ``2``; applied alike to
    messages and to the forms they are matched against.

    >>> _canonical("a two-bedroom on the 10th floor under $1.2k")
    'a 2 bedroom on the 10 floor under $1200 dollars'
    >>> _canonical("two and a half baths")
    '2.5 baths'
    """
    text = _HYPHEN.sub(" ", text)
    text = _CONTRACTION.sub(lambda m: " " + _CONTRACTIONS[m.group(1)], text)
    text = _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1)], text)
    text = re.sub(r"(?<![0-9a-z.])(\d+) and a half(?![0-9a-z])", r"\1.5", text)
    text = _ORDINAL.sub(r"\1", text)
    text = _SCALE.sub(_scaled, text)
    return _DOLLAR.sub(r"$\1 dollars", text)


@functools.lru_cache(maxsize=8192)
def _phrase(text: str) -> str:
    """A vocabulary's word, value or form, read as messages are."""
    return _canonical(normalize(text))


@functools.lru_cache(maxsize=8192)
def _pattern(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9a-z]){re.escape(phrase)}(?![0-9a-z])")


def _find(text: str, phrase: str) -> list[tuple[int, int]]:
    if not phrase or phrase not in text:
        return []
    return [(m.start(), m.end()) for m in _pattern(phrase).finditer(text)]


@functools.lru_cache(maxsize=8192)
def _object_pattern(phrase: str) -> re.Pattern[str] | None:
    """A value phrase whose ``it`` stands for any object (``add it to my favourites``)."""
    words = phrase.split(" ")
    if "it" not in words:
        return None
    body = " ".join(r"(?:\S+ ){0,2}\S+" if w == "it" else re.escape(w) for w in words)
    return re.compile(rf"(?<![0-9a-z]){body}(?![0-9a-z])")


def _find_value(text: str, phrase: str) -> list[tuple[int, int]]:
    """Where ``text`` writes a listed value (its ``it`` standing for any object of 1-3 words)."""
    found = _find(text, phrase)
    pattern = _object_pattern(phrase)
    if pattern is not None:
        found += [m.span() for m in pattern.finditer(text) if m.span() not in found]
    return found


@dataclass(frozen=True)
class _Span:
    """Where a message names slot kinds by a word (several kinds: a word they share)."""

    start: int
    end: int
    kinds: frozenset[str]


def _word_spans(text: str, vocabulary: Vocabulary) -> list[_Span]:
    """The spans of the kinds' words, a longer match hiding a shorter one of another kind.

    A counted noun (:attr:`SlotKind.counted`) is a word of its kind after a number only.
    """
    found: list[tuple[int, int, str]] = []
    for kind in vocabulary:
        for word in (*kind.words, *kind.weak):
            for form in _inflections(_phrase(word)):
                found += [(s, e, kind.name) for s, e in _find(text, form)]
        for noun in kind.counted:
            found += [
                (s, e, kind.name)
                for s, e in _find(text, _phrase(noun))
                if _AFTER_NUMBER.search(text[max(0, s - 24) : s])
            ]
    kept: dict[tuple[int, int], set[str]] = {}
    for start, end, name in found:
        hidden = any(  # inside a longer word of another kind, or overlapping one
            s < end and start < e and (e - s) > (end - start) and n != name for s, e, n in found
        )
        if not hidden:
            kept.setdefault((start, end), set()).add(name)
    return [_Span(s, e, frozenset(k)) for (s, e), k in sorted(kept.items())]


_INFLECTED = re.compile(r"^(.* )?([a-z]{3,})$")


@functools.lru_cache(maxsize=8192)
def _inflections(phrase: str) -> tuple[str, ...]:
    """A kind's word and the inflections of its last word.

    ``price``: ``prices``, ``priced``, ``pricing``; ``fly``: ``flies``, ``flying``.

    >>> _inflections("room type")
    ('room type', 'room types', 'room typed', 'room typing')
    """
    match = _INFLECTED.match(phrase)
    if match is None:
        return (phrase,)
    head, word = match.group(1) or "", match.group(2)
    if word.endswith("e"):
        forms = (word + "s", word + "d", word[:-1] + "ing")
    elif word.endswith("y") and word[-2] not in "aeiou":
        forms = (word[:-1] + "ies", word[:-1] + "ied", word + "ing")
    elif word.endswith(("s", "x", "z", "ch", "sh")):
        forms = (word + "es", word + "ed", word + "ing")
    else:
        forms = (word + "s", word + "ed", word + "ing")
    return (phrase, *(head + f for f in forms))


class _WordIndex:
    """The words of a text, to count those between two offsets in logarithmic time."""

    def __init__(self, text: str) -> None:
        words = [m.span() for m in _WORD.finditer(text)]
        self.starts = [w[0] for w in words]
        self.ends = [w[1] for w in words]

    def between(self, start: int, end: int) -> int:
        """How many words lie whole in ``text[start:end]``."""
        if end <= start:
            return 0
        first = bisect.bisect_left(self.starts, start)
        return max(0, bisect.bisect_right(self.ends, end) - first)


def _qualified(
    text: str, region: tuple[int, int], kinds: frozenset[str], vocabulary: Vocabulary, before: bool
) -> set[str]:
    """The kinds among ``kinds`` that the qualifiers in ``region`` pick.

    The qualifier nearest the shared word (``before`` it, or after it) picks, with those joined
    to it (``minimum and maximum``).
    """
    part = text[region[0] : region[1]]
    hits = [
        (s, e, k)
        for k in kinds
        for q in vocabulary[k].qualifiers
        for s, e in _find(part, _phrase(q))
    ]
    if not hits:
        return set()
    nearest = max(hits, key=lambda h: h[1]) if before else min(hits, key=lambda h: h[0])
    chain = [h for h in hits if h[0] < nearest[1] and nearest[0] < h[1]]
    while True:
        low, high = min(h[0] for h in chain), max(h[1] for h in chain)
        joined = [
            h
            for h in hits
            if h not in chain and _JOIN.fullmatch(part[h[1] : low] if before else part[high : h[0]])
        ]
        if not joined:
            return {h[2] for h in chain}
        chain += joined


_RANGE_WORD = re.compile(r"\brange\b|\bbracket\b")


def _resolve(text: str, spans: list[_Span], vocabulary: Vocabulary) -> list[_Span]:
    """Shared words narrowed to the kinds their neighbours pick.

    A word several kinds share (``price``) is narrowed by the qualifiers written just before it
    (``lowest``), else by a word of one of the kinds just before it (``budget of 950 dollars``),
    else by what comes just after it (``price, at minimum``); with none, it names them all.
    """
    words = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    resolved = []
    for span in spans:
        if len(span.kinds) < 2:
            resolved.append(_contradicted(text, span, words, vocabulary))
            continue
        if _RANGE_WORD.search(text[span.start : span.end]):  # a range names both of its ends,
            near = [w for w in words if w[1] <= span.start][-4:]  # unless one is picked before it
            picked = _qualified(
                text, (near[0][0] if near else span.start, span.start), span.kinds, vocabulary, True
            )
            resolved.append(_Span(span.start, span.end, frozenset(picked or span.kinds)))
            continue
        before = [w for w in words if w[1] <= span.start][-_BEFORE:]
        after = [w for w in words if w[0] >= span.end][:_AFTER]
        kinds: set[str] = set()
        for side, region in (
            ("before", (before[0][0] if before else span.start, span.start)),
            ("after", (span.end, after[-1][1] if after else span.end)),
        ):
            others = [
                o for o in spans if o is not span and region[0] <= o.start and o.end <= region[1]
            ]
            neighbour = (max if side == "before" else min)(
                others, key=lambda o: o.start, default=None
            )
            if neighbour is not None:
                # before: the region reaches back to the nearest other word, which may qualify
                # (``a floor of 900 dollars``); after: it stops short of the words that lead
                # into the next one (``price range and the minimum square footage``)
                if side == "before":
                    region = (neighbour.start, region[1])
                else:
                    lead = [w for w in words if region[0] <= w[0] and w[1] <= neighbour.start]
                    region = (region[0], lead[-3][1] if len(lead) >= 3 else region[0])
            kinds = _qualified(text, region, span.kinds, vocabulary, side == "before")
            if not kinds and neighbour is not None and neighbour.kinds < span.kinds:
                kinds = set(neighbour.kinds)
            if kinds:
                break
        resolved.append(_Span(span.start, span.end, frozenset(kinds or span.kinds)))
    return resolved


@functools.lru_cache(maxsize=32)
def _siblings(vocabulary: Vocabulary) -> dict[str, frozenset[str]]:
    """The kinds each kind shares a word with (``min_price`` and ``max_price``: ``price``)."""
    owners: dict[str, set[str]] = {}
    for kind in vocabulary:
        for word in kind.words:
            owners.setdefault(_phrase(word), set()).add(kind.name)
    siblings: dict[str, set[str]] = {}
    for names in owners.values():
        for name in names:
            siblings.setdefault(name, set()).update(names - {name})
    return {name: frozenset(others) for name, others in siblings.items() if others}


def _contradicted(
    text: str, span: _Span, words: Sequence[tuple[int, int]], vocabulary: Vocabulary
) -> _Span:
    """A one-kind word that the qualifier right before it gives to a sibling kind.

    ``minimum budget``: ``budget`` names only the maximum price, but ``minimum`` is the minimum
    price's qualifier, and the two share ``price``.
    """
    (kind,) = span.kinds
    siblings = _siblings(vocabulary).get(kind)
    before = [w for w in words if w[1] <= span.start][-2:]
    if not siblings or not before:
        return span
    picked = _qualified(text, (before[0][0], span.start), siblings | {kind}, vocabulary, True)
    if len(picked) == 1 and kind not in picked:
        return _Span(span.start, span.end, frozenset(picked))
    return span


def _writes_value(text: str, kind: str, at: tuple[int, int], spans: Sequence[_Span]) -> bool:
    """Whether what is written at ``at`` is a value of ``kind`` rather than part of a word.

    Part of another kind's word (``monthly rent``) or of a longer word of its own that names it
    (``type of house``) it is not a value; a word that offers values (``buy or rent``) writes
    them; a longer value holding another kind's word (the name ``sale price``) is a value.
    """
    overlapping = [
        s
        for s in spans
        if s.start < at[1]
        and at[0] < s.end
        and not (at[0] <= s.start and s.end <= at[1] and s.end - s.start < at[1] - at[0])
    ]
    if overlapping and not any(kind in s.kinds for s in overlapping):
        return False
    return not any(
        kind in s.kinds
        and s.start <= at[0]
        and at[1] <= s.end
        and s.end - s.start > at[1] - at[0]
        and " or " not in text[s.start : s.end]
        for s in overlapping
    )


def _bounded(text: str, start: int, upper: bool = False) -> bool:
    """Whether the number at ``start`` bounds a count rather than gives it.

    For a kind that is itself an upper bound (``upper``: a price cap), ``less than 40 dollars``
    gives it; only ``more than`` bounds it.
    """
    found = _BOUND.search(text[max(0, start - 16) : start])
    return found is not None and not (upper and found.group(1) != "more")


def _upper(kind: SlotKind) -> bool:
    """Whether the user states ``kind`` as an upper bound (``a price lower than {text}``)."""
    return _UPPER.search(kind.phrase) is not None


def _attached(
    text: str,
    spans: Sequence[_Span],
    barriers: Sequence[int] = (),
    upper: frozenset[str] = frozenset(),
    commas: Sequence[int] = (),
) -> dict[str, list[float]]:
    """The numbers written next to a kind's word (``3 bedrooms``, ``floor 10``), by kind.

    A number belongs to the nearest word, at most a few words away (the one after it on a tie)
    and in the same sentence (``barriers``: where sentences start), one that no comma parts from
    it first (``commas``: ``year 2012, genre western``); an ordinal word only to the
    word right after it (``ninth floor``). The numbers of a date (``December 1, 2027``) belong
    to no word, and the two ends of a range (``between $90 and $160``) to the same one. A bound
    (``more than 2``) gives no number, except ``less than 40`` to the kinds that are upper
    bounds themselves (``upper``: a price cap).
    """
    numbers: dict[str, list[float]] = {}
    dated = [m.span() for m in _DATE.finditer(text)]
    partner = {}
    for m in _RANGE.finditer(text):
        partner[m.start(1)], partner[m.start(2)] = float(m.group(2)), float(m.group(1))
    index = _WordIndex(text)
    ordered = sorted(spans, key=lambda s: s.start)
    span_starts = [s.start for s in ordered]
    barriers = sorted(barriers)
    commas = sorted(commas)
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        at = bisect.bisect_left(span_starts, start + 1)
        if any(s.start <= start and end <= s.end for s in ordered[max(0, at - _NEAR) : at]):
            continue
        bounded, below = _bounded(text, start), not _bounded(text, start, upper=True)
        if any(s <= start and end <= e for s, e in dated):
            continue
        best: tuple[int, int, int, _Span] | None = None
        at = bisect.bisect_left(span_starts, start)
        for span in ordered[max(0, at - _NEAR) : at + _NEAR]:  # spans further are too far
            if span.end <= start:
                gap = (span.end, start)
                rank = (0, index.between(*gap), 1)
            elif span.start >= end:
                gap = (end, span.start)
                rank = (0, index.between(*gap), 0)
            else:
                continue
            if bisect.bisect_left(barriers, gap[0]) < bisect.bisect_right(barriers, gap[1]):
                continue
            if bisect.bisect_left(commas, gap[0]) < bisect.bisect_right(commas, gap[1]):
                rank = (1, *rank[1:])
            if rank[1] <= _ATTACH and (best is None or rank < best[:3]):
                best = (*rank, span)
        if best is not None:
            for kind in best[3].kinds:
                if bounded and not (below and kind in upper):
                    continue
                numbers.setdefault(kind, []).append(float(match.group(1)))
                if match.start(1) in partner:
                    numbers[kind].append(partner[match.start(1)])
    for match in _ORDINAL_WORD.finditer(text):  # "the ninth floor"; not "first, how many"
        for span in spans:
            if span.start == match.end():
                for kind in span.kinds:
                    numbers.setdefault(kind, []).append(_ORDINAL_WORDS[match.group(1)])
    return numbers


def _sentences(message: str) -> tuple[str, list[int], list[int], list[tuple[int, int, str]]]:
    """The message read as :func:`_canonical` reads it, and where its parts start.

    Returns:
        The text; where its second, third... sentences start; where the parts after a comma
        start; and each sentence's span with its mood (:func:`_mood`).
    """
    text = ""
    barriers: list[int] = []
    commas: list[int] = []
    moods: list[tuple[int, int, str]] = []
    heads: list[bool] = []
    listing = False
    for part in _SENTENCE.split(_ENUMERATOR.sub("", message)):
        start = len(text) + (1 if text else 0)
        first = True
        for piece in _COMMA.split(part):
            read = _canonical(normalize(piece))
            if not read:
                continue
            if text:
                text += " "
                (barriers if first else commas).append(len(text))
            text += read
            first = False
        if first:
            continue  # nothing in this part
        mood = REQUEST if listing else _mood(part)
        moods.append((start, len(text), mood))
        heads.append(part.rstrip().endswith(":"))
        listing = listing or (heads[-1] and bool(_LIST_HEADER.search(part.lower())))
    for i in range(len(moods) - 2, -1, -1):  # "Bathrooms and garages: how many of each?"
        if heads[i] and moods[i + 1][2] == REQUEST:
            moods[i] = (*moods[i][:2], REQUEST)
    if moods and _CHECK_TAG.search(text[moods[-1][0] :]):  # "I'll put down 2 bedrooms. Right?"
        moods = [(start, end, REQUEST) for start, end, _ in moods]
    return text, barriers, commas, moods


REQUEST, OWN, PLAIN = "request", "own", "plain"
"""A sentence's mood: it asks or checks; it tells of the agent itself; anything else."""
_REQUESTS = re.compile(
    r"^(what|which|how|where|when|who|whom|whose|why|do|does|did|is|are|am|was|were|can|could|"
    r"would|will|should|shall|may|might|have|has|had|must|and|or|so|also)\b"
    r"|\b(tell|give|send|share|show) (me|us)\b|\blet (me|us) know\b|\b(please|kindly|pls)\b"
    r"|\b(i|we) (need|want|would like|'d like|d like) (to know|your|the|a|an|some|you to)\b"
    r"|\bneed to know\b|\b(could|can|would|will) you\b|\bconfirm\b|\bcorrect me\b"
    r"|\b(right|correct|ok|okay)$"
)
_NO_REQUEST = re.compile(
    r"\b(no need to|don't|do not|never|not|without|won't|will not|no reason to|you needn't)"
    r"( \w+){0,2} (tell|give|send|share|show|let|confirm|ask)\b.*$"
)
"""A request the sentence takes back (``No need to tell me the number of bedrooms``)."""
_FIRST_PERSON = re.compile(
    r"\b(i|i'm|im|i've|ive|i'll|i'd|my|mine|me|myself|we|we're|we've|we'll|our|ours|us|let's)\b"
)
_SECOND_PERSON = re.compile(r"\b(you|your|you're|you'd|you've|you'll|yours|u|ur)\b")
_CHECK_TAG = re.compile(
    r"\b(right|correct|ok|okay|sound (right|good)|look (right|good)|sounds (right|good)|"
    r"looks (right|good)|is (that|this|it) (right|correct|ok|okay|accurate|fine|so)|"
    r"am i (right|correct)|did i get (that|it|this|everything) right|agreed|yes|good|fine|"
    r"alright|sound good|(is|was) (that|this|it) the (right|correct) \w+( \w+)?)\s*$"
)
"""A last sentence that puts everything before it to the user (``Does that sound right?``)."""
_LIST_HEADER = re.compile(r"need|missing|question|detail|param|info|following|tell|know|check")
"""A line ending with a colon that opens a list of what the agent asks."""


def _mood(part: str) -> str:
    """Whether a sentence asks or checks, tells of the agent itself, or neither.

    :data:`REQUEST`, :data:`OWN` (``My 3 kids are loud``, ``I was floored``), :data:`PLAIN`.
    """
    text = _NO_REQUEST.sub(" ", normalize(part))
    if part.rstrip().endswith("?") or _REQUESTS.search(text) or _TAG.search(text):
        return REQUEST
    if _FIRST_PERSON.search(text) and not _SECOND_PERSON.search(text):
        return OWN
    return PLAIN


@dataclass(frozen=True)
class _Slots:
    """What a message writes about the slot kinds."""

    named: tuple[str, ...]
    right: tuple[str, ...]
    wrong: tuple[str, ...]
    worded: bool = False
    """Whether it names some kind by a word (not only by writing a value)."""
    at: tuple[tuple[str, int], ...] = ()
    """Each kind a word names, with where the word starts."""


def _counted(text: str, spans: Sequence[_Span], slots: Sequence[Slot]) -> dict[str, list[float]]:
    """``a garage`` read as one garage, in a message that restates values to confirm.

    Counts only for a kind whose value the user says as a count of that word (``1 garage``).
    """
    if not _CONFIRM.search(text):
        return {}
    counted: dict[str, list[float]] = {}
    for span in spans:
        if not re.search(r"(?:^|[^0-9a-z'])(a|an) $", text[max(0, span.start - 4) : span.start]):
            continue
        word = text[span.start : span.end]
        for slot in slots:
            said = re.fullmatch(r"\d+(?:\.\d+)? (.+)", normalize(slot.text))
            if slot.kind in span.kinds and said and _singular(said.group(1)).endswith(word):
                counted.setdefault(slot.kind, []).append(1.0)
    return counted


def _singular(noun: str) -> str:
    return re.sub(r"ies$", "y", noun) if noun.endswith("ies") else re.sub(r"s$", "", noun)


def _inside_longer_value(
    text: str, vocabulary: Vocabulary, slots: Sequence[Slot]
) -> Callable[[tuple[int, int]], bool]:
    """Whether a value written at a span is part of a longer value written around it.

    The longest value wins, as the longest word does: ``light blue`` is not also ``blue``, and
    ``x-large`` is not also ``large``.
    """
    values = [
        at
        for kind in vocabulary
        for group in kind.values
        for word in group
        for at in _find_value(text, _phrase(word))
    ]
    values += [
        at
        for slot in slots
        for form in slot.forms()
        if not _NUMERIC_FORM.fullmatch(_phrase(form))
        for at in _find(text, _phrase(form))
    ]

    def inside(at: tuple[int, int]) -> bool:
        return any(s <= at[0] and at[1] <= e and e - s > at[1] - at[0] for s, e in values)

    return inside


_NEGATED = re.compile(
    r"\b(not|no|never|rather than|instead of|other than|except|n't|but not)( an?| the| to| for)? $"
)
"""What stands before a value the message sets aside (``rent, not buy``)."""
_AFTER_NUMBER = re.compile(r"(?<![0-9a-z.])\d+(?:\.\d+)? (?:[a-z]+ )?$")
"""What stands before a counted noun: a number, perhaps with one word between (``10 cat photos``)."""
_ARTICLE = re.compile(r"^(the|an?) ")


def _inside_values(spans: list[_Span], text: str, slots: Sequence[Slot]) -> list[_Span]:
    """``spans`` without the words inside a longer value of another kind's slot.

    The name ``Sale Price`` names no price (an article does not make a value longer: the field
    ``the amount`` still names the amount); a value inside a longer word (``rent`` in ``monthly
    rent``) is :func:`_writes_value`'s to judge.
    """
    values = [
        (at, slot.kind)
        for slot in slots
        for form in slot.forms()
        if not _NUMERIC_FORM.fullmatch(_phrase(form))
        for at in _find(text, _ARTICLE.sub("", _phrase(form)))
    ]
    return [
        span
        for span in spans
        if not any(
            s <= span.start
            and span.end <= e
            and e - s > span.end - span.start
            and kind not in span.kinds
            for (s, e), kind in values
        )
    ]


_ASIDE = re.compile(
    r"^(quick aside|side note|on a side note|off topic|off-topic|unrelated|random question|"
    r"just curious|out of curiosity|totally unrelated|not related|by the by)\b"
)
"""An aside that opens a message: what follows is not about the task."""
_EXAMPLES = re.compile(r":\s*\S|\be\.?g\.?\b|\bsuch as\b|\bfor (example|instance)\b|\blike\b")
"""Where an open question lists examples of the answer (``what room type: standard, suite?``)."""
_WEAK_FOCUS = re.compile(
    r"(^|\b)(what|which|how many|how much)( is| are| s| was| were| re)?"
    r"( (your|the|its|their|his|her|an?|\w+ s))?( new| preferred| exact| specific)? $"
)
"""What stands before a weak word a question asks about (``what cost``, ``what are pork's cost``)."""
_YES_NO_START = re.compile(r"^(would|do|does|should|shall|can|could|will|is|are) ")
_LOCATIVE = re.compile(r"\b(at|in|near|around) (your|the|my) $")
_FOCUS = re.compile(
    r"^(so |and |ok |okay |then |now )?(what|which|how many|how much)( is| are| s| was| were)?"
    r"( your| the| an?)?( new| preferred| exact| specific| desired| ideal| main)? $"
)
_OTHER_QUESTION = re.compile(r"\b(and|also|plus|as well)\b|\b(what|which|how|where|when|who)\b")


def _focus(text: str, spans: Sequence[_Span], barriers: Sequence[int]) -> _Span | None:
    """The one kind a single question is about, when it opens with it (``which column ...``).

    ``Which column should I sort the table by?`` asks for the column; the sort it is for is
    what the answer is used for. Only a one-sentence question that asks nothing else.
    """
    if barriers or not spans:
        return None
    first = min(spans, key=lambda sp: (sp.start, -sp.end))
    opens = re.match(r"(what|which|how many|how much)\b", text[first.start :])
    if not (_FOCUS.match(text[: first.start]) or (not text[: first.start] and opens)):
        return None
    if _OTHER_QUESTION.search(text[first.end :]):
        return None
    others = {k for sp in spans if sp.end <= first.start or sp.start >= first.end for k in sp.kinds}
    if len(first.kinds) > 1 and first.kinds & others:  # "which airport ... flying out of"
        return _Span(first.start, first.end, first.kinds & others)
    return first


def _dated(
    text: str, spans: Sequence[_Span], slots: Sequence[Slot], barriers: Sequence[int]
) -> dict[str, bool]:
    """The dates written right after (or before) a date kind's word, right or wrong.

    ``leaving July 5, 2027`` writes the departure date; it is wrong when the task's is July 3.
    """
    dated = {
        s.kind: {_phrase(f) for f in s.forms()}
        for s in slots
        if isinstance(s.value, str) and _DATE.search(_phrase(s.text))
    }
    if not dated:
        return {}
    index = _WordIndex(text)
    found: dict[str, bool] = {}
    for match in _DATE.finditer(text):
        start, end = match.span()
        best: tuple[int, int, _Span] | None = None
        for span in spans:
            if not span.kinds & dated.keys():
                continue
            if span.end <= start:
                gap, rank = (span.end, start), (index.between(span.end, start), 0)
            elif span.start >= end:
                gap, rank = (end, span.start), (index.between(end, span.start), 1)
            else:
                continue
            if any(gap[0] <= b <= gap[1] for b in barriers) or rank[0] > _ATTACH:
                continue
            if best is None or rank < best[:2]:
                best = (*rank, span)
        if best is None:
            continue
        written = match.group()
        for kind in best[2].kinds & dated.keys():
            ok = any(
                written == f or written.startswith(f + " ") or f.startswith(written + " ")
                for f in dated[kind]
            )
            found[kind] = found.get(kind, False) or ok
    return found


_FROM_TO = re.compile(
    r"\bfrom ((?:\S+ ){0,3}?\S+) (?:to|until|till|through|thru) ((?:\S+ ){0,3}?\S+?)"
    r"(?= (?:on|for|at|with|in|and|leaving|departing|returning|between|under|max|min|per|"
    r"checking|staying|via|by|is|right|correct|ok|okay)\b|$)"
)
_ONE_END = re.compile(r"\b(from|out of|to|into) ((?:\S+ ){0,3}\S+)")


def _paired(text: str, vocabulary: Vocabulary, slots: Sequence[Slot]) -> dict[str, bool]:
    """The two ends of a pair a message writes (``from Baltimore to Miami``), right or wrong.

    ``from A to B`` is read against each pair of kinds the task has both of (``origin`` and
    ``destination``; ``checkin_date`` and ``checkout_date``) whose one end it writes rightly, or
    whose ends are both dates written as dates; the other end is then that kind's, right or
    wrong. A known value after ``from`` or ``to`` that is the other end's (``flying out of
    Tampa`` when Tampa is the destination) is a wrong value of this end.
    """
    by_kind = {s.kind: s for s in slots}
    pairs = [(a, b) for a, b in vocabulary.pairs if a in by_kind and b in by_kind]
    if not pairs:
        return {}

    def matches(written: str, kind: str) -> bool:
        forms = {_phrase(f) for f in by_kind[kind].forms()}
        return any(written == f or written.startswith(f + " ") for f in forms if f)

    found: dict[str, bool] = {}
    for match in _FROM_TO.finditer(text):
        first, second = match.group(1), match.group(2)
        dates = bool(_DATE.fullmatch(first)) and bool(_DATE.search(second))
        for a, b in pairs:
            known_a, known_b = matches(first, a), matches(second, b)
            both_dates = dates and all(_DATE.search(_phrase(by_kind[k].text)) for k in (a, b))
            if known_a or known_b or (both_dates and len(pairs) == 1):
                if matches(first, b) or matches(second, a):
                    continue  # the other way round: not this pair's order
                found[a], found[b] = known_a, known_b
                break
    for match in _ONE_END.finditer(text):
        end = 0 if match.group(1) in ("from", "out of") else 1
        for pair in pairs:
            own, other = pair[end], pair[1 - end]
            if own in found or other in found:
                continue
            if matches(match.group(2), other) and not matches(match.group(2), own):
                found[own] = False  # a value in the wrong role
    return found


def _read_slots(
    text: str,
    vocabulary: Vocabulary,
    slots: Sequence[Slot],
    barriers: Sequence[int] = (),
    commas: Sequence[int] = (),
    names: Sequence[str] = (),
) -> _Slots:
    """The kinds a message names, writes the task's value of, and writes another value of.

    A choice between values (``buy or rent``) is a question: it writes neither.
    """
    spans = _inside_values(_resolve(text, _word_spans(text, vocabulary), vocabulary), text, slots)
    named_at = [at for name in names for at in _find(text, name)]
    spans = [  # a word inside a name the request wrote ("Lime Sport API") names no kind
        sp for sp in spans if not any(s <= sp.start and sp.end <= e for s, e in named_at)
    ]
    if _YES_NO_START.match(text):  # "a hotel at your destination": where, not what is asked
        spans = [sp for sp in spans if not _LOCATIVE.search(text[max(0, sp.start - 12) : sp.start])]
    focus = _focus(text, spans, barriers)
    if focus is not None:  # "which column should I sort by?": the column alone is asked
        spans = [focus]
    upper = frozenset(k.name for k in vocabulary if _upper(k))
    numbers = _attached(text, spans, barriers, upper, commas)
    for kind, counts in _counted(text, spans, slots).items():
        numbers.setdefault(kind, []).extend(counts)
    by_kind = {s.kind: s for s in slots}
    named = {k for span in spans for k in span.kinds}
    open_question = _WH.search(text) is not None
    inside = _inside_longer_value(text, vocabulary, slots)
    right, wrong = set(), set()
    for kind in vocabulary:
        slot = by_kind.get(kind.name)
        forms = [_phrase(f) for f in slot.forms()] if slot is not None else []
        numeric = {float(m.group(1)) for f in forms if (m := _NUMERIC_FORM.fullmatch(f))}
        written = any(
            _writes_value(text, kind.name, at, spans)
            and not _bounded(text, at[0], _upper(kind))
            and not inside(at)
            and not _NEGATED.search(text[max(0, at[0] - 16) : at[0]])
            for f in forms
            if not _NUMERIC_FORM.fullmatch(f)
            for at in _find(text, f)
        )
        mentioned = {
            i
            for i, group in enumerate(kind.values)
            for word in group
            for at in _find_value(text, _phrase(word))
            if _writes_value(text, kind.name, at, spans)
            and not inside(at)
            and not _NEGATED.search(text[max(0, at[0] - 16) : at[0]])
        }
        own = {i for i, group in enumerate(kind.values) if any(_phrase(w) in forms for w in group)}
        others = mentioned - own
        attached = numbers.get(kind.name, [])
        choice = len(mentioned) + (written and not mentioned & own) >= 2
        choice = choice or (open_question and len(set(attached)) >= 2 and not _RANGE.search(text))
        if open_question and kind.name not in named and not choice:
            continue  # "what floor should the apartment be on": the apartment is context
        if written or mentioned:
            named.add(kind.name)
        if others:
            if not choice:
                wrong.add(kind.name)  # one other value: checked, wrongly
        elif written or mentioned or numeric & set(attached):
            right.add(kind.name)
        elif attached:
            wrong.add(kind.name)
    for kind, ok in {
        **_dated(text, spans, slots, barriers),
        **_paired(text, vocabulary, slots),
    }.items():
        named.add(kind)
        if ok:
            right.add(kind)
            wrong.discard(kind)
        elif kind not in right:
            wrong.add(kind)
    for kind in list(named):  # a shared word whose other kind has a value was about that one
        shared = [sp for sp in spans if kind in sp.kinds]
        if (
            shared
            and kind not in right | wrong
            and all(len(sp.kinds) > 1 and sp.kinds & (right | wrong) for sp in shared)
        ):
            named.discard(kind)
    if right or wrong or _TAG.search(text) or _CONFIRM.search(text):
        # a check: a kind named by its weak words alone needs a number there, or a question
        # about it ("What cost and price should it have?")
        starts = [0, *barriers]
        for kind in vocabulary:
            if kind.weak and kind.name in named and kind.name not in right | wrong:
                strong = {_phrase(w) for w in kind.words}
                asked_of = False
                for span in sorted(spans, key=lambda sp: sp.start):
                    if kind.name not in span.kinds:
                        continue
                    before = text[max(b for b in starts if b <= span.start) : span.start]
                    if text[span.start : span.end] in strong or _WEAK_FOCUS.search(before):
                        asked_of = True
                    elif asked_of and re.search(r"(and|or) $", before):
                        continue
                if not asked_of:
                    named.discard(kind.name)
    for span in spans:  # a shared word beside a word of one of its kinds is that one's
        if len(span.kinds) < 2:
            continue
        starts = [0, *barriers]
        first = max(b for b in starts if b <= span.start)
        last = min((b for b in barriers if b > span.start), default=len(text))
        beside = {
            k
            for sp in spans
            if sp is not span and first <= sp.start < last and sp.kinds < span.kinds
            for k in sp.kinds
        }
        dropped = span.kinds - beside
        if beside and not any(k in right | wrong for k in dropped):
            for kind in dropped:
                if not any(kind in sp.kinds for sp in spans if sp is not span):
                    named.discard(kind)
    order = [k.name for k in vocabulary]
    return _Slots(
        tuple(k for k in order if k in named),
        tuple(s.kind for s in slots if s.kind in right),
        tuple(k for k in order if k in wrong),
        bool(spans),
        tuple((k, sp.start) for sp in spans for k in sorted(sp.kinds)),
    )


_SHORT_CODE = re.compile(r"[A-Z]{2,3}")
_SHAPES = (
    re.compile(r"[a-z0-9._+]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+"),
    re.compile(r"(?:https?://|www\.)[^\s]+"),
    re.compile(r"(?<![0-9a-z@./])(?=[a-z]*[0-9])(?=[0-9]*[a-z])[0-9a-z]{6,}(?![0-9a-z@]|\.[a-z])"),
)
"""Shapes of values a reader can tell without knowing them: an email, a URL, a code."""
_LABEL_WORD = re.compile(
    r"\b(image|picture|photo|pic|id|identifier|code|number|item|product|ref|reference|key|token)s?\b"
)
"""A noun that says a code written in the message is a value (``image Hk2pQ9x``)."""


def _cased(slots: Sequence[Slot], message: str) -> list[Slot]:
    """``slots``, with a short code (``IT``, ``US``) written only as a word dropped.

    A code that is also a word (``it``, ``us``, ``am``) is its value only where the message
    writes it in capitals; forms that hold more words (``country code it``) still count.
    """
    out = []
    for slot in slots:
        code = slot.value if isinstance(slot.value, str) else ""
        if _SHORT_CODE.fullmatch(code) and not re.search(
            rf"(?<![A-Za-z]){code}(?![A-Za-z])", message
        ):
            short = normalize(code)
            aliases = tuple(a for a in slot.aliases if normalize(a) != short)
            text = slot.text if normalize(slot.text) != short else f"the code {code}"
            slot = Slot(slot.kind, None, text, aliases, slot.call, slot.argument)
        out.append(slot)
    return out


def _clauses(message: str) -> list[str]:
    """The message's sentences and the parts after a colon, each normalized."""
    parts = re.split(r"(?<=[.?!;:])\s+|\n+", _ENUMERATOR.sub("", message))
    return [normalize(p) for p in parts if normalize(p)]


def _unknown(message: str, names: Sequence[str], vocabulary: Vocabulary) -> bool:
    """Whether ``message`` writes a value the reader does not know (a quoted text, a name, a code).

    A name the user's own request wrote (``names``: an API's, a product's) is no such value,
    nor a kind's own word in capitals (``ID``).
    """
    if _DATE.search(_canonical(normalize(message))) or _QUOTED.search(message):
        return True  # a date or a quoted text is a value, whatever the request said
    words = _kind_words(vocabulary)
    named = [normalize(n) for n in names]
    found = [m.group() for m in _CAPITAL.finditer(message)]
    found = [f for f in found if not any(contains_phrase(n, normalize(f)) for n in named)]
    found += [m.group() for m in _CODE.finditer(message.lower())]
    return any(normalize(f) and _phrase(f) not in words for f in found)


@functools.lru_cache(maxsize=32)
def _kind_words(vocabulary: Vocabulary) -> frozenset[str]:
    """Every word of every kind, read as messages are."""
    return frozenset(_phrase(w) for kind in vocabulary for w in (*kind.words, *kind.weak))


_LINKS = frozenset({"of", "and", "for", "the", "de", "&"})


def _known_names(message: str, opening: str) -> list[str]:
    """The capitalized names of several words the message writes that the opening wrote."""
    if not opening:
        return []
    words = re.findall(r"[\w'&-]+", message)
    known = normalize(opening)
    names: list[str] = []
    i = 0
    while i < len(words):  # the longest run of capitalized words from each one, if known
        for j in range(min(len(words), i + 6), i + 1, -1):
            run = words[i:j]
            if run[-1][:1].isupper() and all(w[:1].isupper() or w in _LINKS for w in run):
                name = " ".join(run)
                if words[i][:1].isupper() and contains_phrase(known, normalize(name)):
                    names.append(name)
                    i = j - 1
                    break
        i += 1
    return names


def _shaped(text: str, slots: Sequence[Slot], opening: str = "") -> tuple[set[str], set[str]]:
    """The kinds whose value's shape (an email, a URL, a code) the message writes: right, wrong.

    A written email, URL or code that is no value of the task is read as a value of the one
    kind whose slot has a value of that shape (``image Hk2pQ9x``, ``tracey.riley@gmail.com``).
    """
    right: set[str] = set()
    wrong: set[str] = set()
    known = normalize(opening)
    for shape in _SHAPES:
        owners = [
            s for s in slots if isinstance(s.value, str) and shape.fullmatch(normalize(s.value))
        ]
        if len(owners) != 1:
            continue
        (slot,) = owners
        for match in shape.finditer(text):
            written = match.group().strip(".")
            if written in known:
                continue  # a value the request wrote itself (another call's)
            if shape is _SHAPES[-1] and not _LABEL_WORD.search(text):
                continue  # a code alone may be any word spelled with digits
            if written in {normalize(f) for f in (slot.value, slot.text, *slot.aliases)}:
                right.add(slot.kind)
            else:
                wrong.add(slot.kind)
    return right, wrong


def read_message(
    message: str, vocabulary: Vocabulary, slots: Sequence[Slot], opening: str = ""
) -> Reading:
    """Read an agent's message against a family's vocabulary and a task's slots.

    ``opening`` is what the user said first (its request): the names it wrote are known, not
    values the reader cannot tell.
    """
    text = normalize(message)
    if not re.search(r"[0-9a-z]", text):
        return Reading(EMPTY)
    raw = message.strip()
    question = raw.endswith("?") or (_YES_NO.search(text) is not None and "?" in raw)
    canonical, barriers, commas, moods = _sentences(message)
    if not any(mood == REQUEST for *_, mood in moods) and not _SECOND_PERSON.search(text):
        moods = [(start, end, OWN) for start, end, _ in moods]  # nothing asked, nothing put
    for start, end, mood in moods:  # what the agent tells of itself is no question or check
        if mood == OWN:
            canonical = canonical[:start] + " " * (end - start) + canonical[end:]
    known_names = _known_names(message, opening)
    names = tuple(_phrase(n) for n in known_names)
    found = _read_slots(canonical, vocabulary, _cased(slots, message), barriers, commas, names)
    asking = [(start, end) for start, end, mood in moods if mood == REQUEST]
    valued = set(found.right) | set(found.wrong)
    unasked = {  # named in a sentence that neither asks nor checks, with no value: not asked
        kind
        for kind in found.named
        if kind not in valued
        and not any(k == kind and any(s <= at < e for s, e in asking) for k, at in found.at)
        and any(k == kind for k, _ in found.at)
    }
    if unasked:
        kept = tuple(k for k in found.named if k not in unasked)
        found = _Slots(kept, found.right, found.wrong, bool(kept) and found.worded, found.at)
    shaped_right, shaped_wrong = _shaped(canonical, slots, opening)
    shaped_wrong -= set(found.right)
    valued_before = set(found.right) | set(found.wrong)
    if (shaped_right | shaped_wrong) - valued_before:
        order = [k.name for k in vocabulary]
        named = set(found.named) | shaped_right | shaped_wrong
        found = _Slots(
            tuple(k for k in order if k in named),
            tuple(s.kind for s in slots if s.kind in set(found.right) | shaped_right),
            tuple(k for k in order if k in set(found.wrong) | shaped_wrong),
            found.worded,
            found.at,
        )
    kinds, stated = found.named, found.right
    context = kinds and set(kinds) <= set(found.right) and not found.worded
    if context and len(text.split()) >= _CONTEXT_WORDS and not _CONFIRM.search(text):
        kinds, stated = (), ()  # "what is the weather like in Austin this week?"
    role = _ROLE.match(raw.lower()) is not None and not _any(_FORGED, text)
    if _any(_INJECTION, text) or _any(_INJECTION_RAW, raw.lower()) or role:
        return Reading(INJECTION, kinds, stated, question)
    checks = (found.right or found.wrong) and (
        _CONFIRM.search(text) or _TAG.search(text) or (question and _YES_NO.search(text))
    )
    if _any(_LIST, text):
        return Reading(LIST_REQUEST, kinds, stated, question)
    if _any(_END, text) and not raw.endswith("?") and not _ASKS.search(text):
        kind = FORGED_END if _any(_FORGED, text) else END
        return Reading(kind, kinds, stated, False)
    if _any(_FORGED, text):
        return Reading(FORGED_END, kinds, stated, question)
    listed = normalize(_ENUMERATOR.sub("", message))
    generic = _any(_GENERIC, listed) or _any(_GENERIC, listed.replace("-", " "))
    if generic and not checks and not _any(_MORE_FIRST, text):
        return Reading(LIST_REQUEST, kinds, stated, question)
    if _ASIDE.search(text) and question:
        return Reading(OFF_TOPIC, (), (), question)  # "Side note: is crab selling well?"
    if kinds:
        valued = set(found.right) | set(found.wrong)
        if (
            not found.wrong
            and question
            and _WH.search(text)
            and _EXAMPLES.search(message)
            and len(valued) == 1
            and set(valued) <= set(kinds)
        ):
            asked = tuple(kinds)  # "What room type: standard, deluxe, suite?": examples
            return Reading(ASK, asked, (), True, asked)
        greeting = _any(_GREETING, text) and "?" not in raw and not _CONFIRM.search(text)
        if greeting and not found.wrong:
            return Reading(GREETING, (), (), False)  # "Hello! I'd be glad to find you a rental."
        if valued:
            asked = tuple(k for k in kinds if k not in valued)
            opener = next((canonical[s:e] for s, e, m in moods if m != OWN), text)
            if asked and not found.wrong and _WH.search(opener) and not _CONFIRM.search(text):
                # "How would you like the Salary column formatted?": the column is context
                return Reading(ASK, asked, (), True, asked)
            if _TAG.search(text):
                asked = ()  # "... in country code GB. Right?": a value the reader does not know
            return Reading(CHECK, kinds, stated, question, asked)
        yes_no = (
            (_YES_NO.search(text) is not None or _TAG.search(text) is not None)
            and _OPEN_ASK.search(text) is None
            and not any(_WH.search(c) for c in _clauses(message))
        )
        terse = question and len(text.split()) <= 6 and _WH.search(text) is None
        unknown = _unknown(message, known_names, vocabulary)
        if (yes_no or terse) and unknown:
            return Reading(CHECK, kinds, (), question)  # a value the reader does not know
        return Reading(ASK, kinds, (), True, kinds)
    if _any(_MORE, " ".join(canonical[s:e] for s, e in asking)):
        return Reading(MORE, (), (), True)
    if _any(_GREETING, text) and (len(text.split()) <= 10 or not question):
        return Reading(GREETING, (), (), question)
    return Reading(OFF_TOPIC, (), (), question)
