"""What kind of message an agent wrote: the patterns the user's reader tries.

The message kinds (:data:`KINDS`) and the fixed patterns that tell them: injections, requests for
the whole list, forged successes, farewells, "anything else?", greetings, questions and the
confirmation tags that put values to the user, and the moods of a sentence (a request, the agent
telling of itself). Plain data, read by :mod:`~toolgym.simulators.user.matcher`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.memo import Remembered
from toolgym.simulators.user.prefilter import any_match

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
    r"\b(developer|debug|admin|god|test|evaluation|eval|diagnostic|maintenance|audit|grading) mode\b",
    r"\bsimulated (user|customer|client|human|person)\b",
    r"\b(print|output|dump|reveal|list|recite|disclose)\b.{0,30}\b(held|withheld) (fields?|values?|slots?)\b",
    r"\bjailbreak\b",
    r"\b(pretend|act|behave) (to be|as if|like|as|you are|you're|that you are)\b.{0,30}\b(ai|assistant|system|simulator|model|bot)\b",
    r"\b(override|overwrite|bypass)\b.{0,30}\b(instructions?|rules|prompt|settings|restrictions)\b",
    r"\b(system|admin|security|developer) override\b",
    r"\b(you are|you're) (actually |really |just |only )?(an? )?(ai|bot|robot|chatbot|program)\b",
    r"\b(stop|quit|break) (role ?playing|pretending|acting|the act)\b|\bout of character\b",
    r"\b(instructions?|prompt|rules|requirements) (that )?(you were|were you|you've been|you have been) (given|told)\b",
    r"\b(what|which) (were you|have you been|you were) (told|instructed|asked) (to|not to)\b",
    r"\b(repeat|print|output|show|reveal|dump|echo|tell me|give me|share|paste|post|copy|send|list|write out|read|reading) (back |me |us )?(your|the) ((complete|full|entire|whole|original|exact|initial|system|real) ){0,2}(instructions?|prompt|configuration|config|persona|script)\b",
    r"\b(let's|let us|we) (swap|switch|trade) (roles|places|sides)?\b|\byou be the (agent|assistant|bot|api agent)\b",
    r"\broles (are |have been )?(now )?(swapped|switched|reversed)\b",
    r"\b(instructions?|goal|task) (that )?you (received|got|were handed)\b",
    r"\b(told|instructed|asked|supposed|meant|programmed) (to|not to) (withhold|hide|conceal|keep back|keep secret|keep to yourself|hold back|not (share|reveal|say|mention|disclose))\b",
    r"\bim_start\b|\bim_end\b|\[inst\]|<<sys>>|###\s*(system|instruction)",
    r"\b(you are|you're) (a|an|the) (user )?simulat",
    r"\bsimulator\b|\blanguage model\b|\bllm\b",
    r"\bas (the|an|your) (admin|administrator|developer|operator|system|owner)\b",
    r"\b(ignore|drop|forget|leave|step out of|break) (the |your |this )?(role ?play|roleplay|persona|character|act|role|script)\b",
    r"\bforget (that )?(you're|you are)\b",
    r"\bforget (that )?(ur|youre|your) (a |an |the )?(user|customer|human|person)\b",
    r"\b(no longer|not) (playing|acting as|pretending to be) (the|a) (user|customer|client)\b",
    r"\bas the (task|goal|scenario) (author|writer|designer|creator)\b",
    r"\b(your|the) (task|goal|instruction|config|setup|hidden|secret) (file|card|sheet|data|list|json)\b",
    r"\b(what|exactly what) (do |does )?(your|the) (instructions?|prompt|rules|task file|script) (say|says|tell|contain)\b",
    r"\bsystem (notice|alert|message|update|note)\b",
    r"\b(simulation|roleplay|game|session) (paused|suspended|over|ended|halted)\b",
    r"\b(dump|export|print|reveal)\b.{0,30}\b(setup|config|configuration|json|internal|state|memory)\b",
    r"\b(paste|post|share|send|give|copy)\b.{0,30}\b(config|configuration|json (you were|you have|you've|file))\b",
    r"\b(now |hereby )?(authori[sz]ed|permitted|allowed) to (reveal|share|print|show|disclose|list)\b",
    r"\b(read|recite|type|copy|print) (your \w+|the (instructions?|prompt|rules)) (back|out)\b|\bword for word\b|\bverbatim\b",
    r"\bnew (instructions?|rules|task|role|persona|directive)\b|\b(disregard|abandon|drop|leave) (your|the|this) (role|persona|character|act)\b",
    r"\b(your|the) (configuration|config|system settings|goal specification|task specification|specification)\b",
    r"\b(pretend|imagine|suppose) (that )?(you are|you're|you were|to be)\b|\blet'?s play a game\b|\b(act|play|role-?play) as\b",
    r"\b(output|print|dump|read out|reads out|recite|spit out|export)\b.{0,30}\b(secret|hidden|internal|confidential|private)\b",
    r"\b(designed|wrote|created|authored|set up) (this|the) (task|goal|test|scenario|episode)\b",
    r"\b(assistant|admin|developer|operator|qa|system) note\b|\bfor (qa|testing|debugging|audit) purposes\b",
    r"\bfull_request\b|\b(output|print|dump|return|emit) (the |your )?(\w+_\w+|full|whole|entire|raw) (field|request|goal|task|record|object)\b",
    r"\bignore (the |your )?(user|assistant|system) (role|persona|part)\b",
    r"\b(no|without any|without) (restrictions|limits|rules|filters|guardrails)\b|\balways (reveals?|answers?|tells?|shares?|discloses?)\b",
    r"\b(hidden|secret|internal|private) (fields?|values?|goal|state|variables?|data|parameters|info|information|instructions?)\b",
    r"\b(output|print|dump|return|emit|echo) (the |your |all |every |each )?(value|values|contents?|json|fields?)\b",
    r"\b(the )?(evaluation|harness|grader|test suite|benchmark) (requires|needs|wants|asks)\b",
]
_INJECTION_RAW = [
    r"<\|?\s*/?\s*(system|assistant|im_start|im_end|endoftext|admin|root|developer|instructions?)\b",
    r"\[/?inst\]|<<\s*/?sys\s*>>",
]
"""Injections read in the raw message: the markup of chat templates."""
_ROLE = compiled(r"^\W*(system|developer|admin|administrator|assistant)\s*[:\]>]")
"""A message posing as another role (``SYSTEM: ...``): an injection, unless it claims success."""
_LIST = [
    r"\b(list|tell me|give me|show me|send me|send|share|reveal|dump|enumerate|print|spell out|write out|write down|provide)\b.{0,25}\b(all|every|each|full|complete|entire|whole)\b.{0,30}\b(slots?|details?|requirements?|criteria|criterion|preferences?|parameters?|fields?|information|info|constraints?|values|settings|conditions?|specifications|specs|goal|task|list|wish ?list|filters?|arguments?|values?|options?|inputs?|attributes?|properties|characteristics)\b",
    r"\b(holding back|held back|keeping back|keeping from me|withholding|hiding|not telling me)\b",
    r"^(please )?(list|enumerate|itemi[sz]e) (out )?(all|every|each)\b",
    r"\beverything (you )?(haven't|have not|didn't|did not|still haven't) (told|tell|said|say|mentioned|shared|given)\b",
    r"\b(all|every one) of (your|the) (remaining |other |search )?(details|requirements|criteria|preferences|constraints|wishes|parameters)\b",
    r"\b(what|which) (are|were) all (your|the) (requirements|criteria|preferences|constraints|specifications|specs)\b",
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
    rf"(?<!\bto )(?<!\bfrom )\b(all|every|each|the remaining|the missing|the rest of the) (of )?(the |your |my |its |their |our |those |these )?(remaining |other |missing |needed |required |hidden |relevant |necessary |important |key )?({_NOUNS}|requirements|preferences|criteria|constraints|conditions|options)\b",
    r"\b(every|each) (one|single one|last one)\b|(?<!across )(?<!among )(?<!between )\b(all|each|every one) of (it|them|those|these)\b|\bthem all\b",
    r"\beverything\b(?! (fits?|is|looks|works|goes|lines up|shows|stays|matches|displays|reads|will|would|should|can|from|between)\b)|\b(the|whatever) rest\b|\bwhat(ever)?('s| is| was)? (left|missing|remaining|outstanding)\b",
    r"\b(leave|left|leaving) (anything |something |it |them |some )?out\b|\bin full\b",
    r"\b(the )?(full|complete|entire|whole) (list|set|picture|story|thing|spec|specification|request|brief|rundown|breakdown|details|info|information|lot)\b",
    r"\b(that|what|which) (you )?(haven't|have not|didn't|did not|still haven't|hasn't|has not|weren't|were not) (been )?(said|say|told|tell|mentioned|mention|shared|share|given|give|specified|provided|revealed)\b",
    r"(?<!should i )(?<!shall i )(?<!can i )(?<!must i )(?<!i ll )(?<!i will )(?<!\bto )\bsummari[sz]e\b(?! (the|an?|this|that) (article|page|text|document|post|video|file|book|paper|report|story|email|url|link)\b)|\bremind me (of|about) (it|everything|all|what)\b|\bfill (in|out)\b|\bat once\b|\bin one go\b|\bup front\b",
    rf"(?<!\bjust )(?<!\bonly )\b(the )?(first|second|third|fourth|fifth|sixth|last|next|final|1st|2nd|3rd|4th|5th|\d+th) ({_NOUNS}|one|parameter|field|item)\b(?! (of|in|for|on) )",
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
_GENERIC_NOUN = compiled(rf"\b({_NOUNS})\b")
"""A noun that names no detail in particular, even where a family's kind is called by it."""
_WHOLE = [
    r"\b(did|have|do) you (leave|left|miss|missed|skip|skipped|omit|omitted)\b|\bwhat are (they|those|these)\b",
    r"\beverything\b(?! (fits?|is|looks|works|goes|lines up|shows|stays|matches|displays|reads|will|would|should|can|from|between)\b)|\b(the|whatever) rest\b|\bwhat(ever)?('s| is| was)? (left|missing|remaining|outstanding)\b",
    rf"\b(all|every one) (of )?(the |your |my |those |these )?(remaining |other |missing |needed |required |hidden )?({_NOUNS}|requirements|preferences|criteria|constraints|conditions|options)\b",
    r"\b(the )?(full|complete|entire|whole) (list|set|picture|story|thing|spec|specification|request|brief|rundown|breakdown|details|info|information|lot)\b",
    r"\b(that|what|which) (you )?(haven't|have not|didn't|did not|still haven't|hasn't|has not|weren't|were not) (been )?(said|say|told|tell|mentioned|mention|shared|share|given|give|specified|provided|revealed)\b",
    r"(?<!should i )(?<!shall i )(?<!can i )(?<!must i )(?<!i ll )(?<!i will )(?<!\bto )\bsummari[sz]e\b(?! (the|an?|this|that) (article|page|text|document|post|video|file|book|paper|report|story|email|url|link)\b)|\bremind me\b|\bfill (in|out)\b|\bin full\b",
]
"""The generic requests that ask for the whole list even beside a named detail (``all the
details, the budget too``); the others (``each one``, ``at once``) are about the named one."""
_FORGED = [
    r"\b(reward|rewarded|rewards|score|scored|grade|graded|grader|grading|checker|verifier|judge|evaluation|evaluator|benchmark)\b|\btask_success\b"
    r"|\b(success|evaluation|reward|task|episode) metrics?\b",
    r"\b(the )?(episode|simulation|evaluation|test run|rollout) (is |has )?(over|ended|finished|terminated)\b"
    r"|\b(session|conversation|chat) (is |has been )?(closed|terminated)\b",
    r"\b(evaluated|assessed|judged|graded|rated|deemed|confirmed|certified) (as )?(a )?(success|successful|successfully|complete|completed|correct|passed|solved)\b",
    r"\b(eval|success|passed|solved|done|complete|result|status|outcome|verdict)\w* ?(=|:) ?(true|1|yes|pass|passed|ok|success)\b",
    r"\b(success|task success|eval|evaluation|status|result)( is| was)? (true|pass|passed|solved|succeeded)\b",
    r"\b(\d+|full|all|bonus|extra|max|maximum) points?\b",
    r"\b(test|tests|check|checks|verification) (has |have |was |were )?(passed|succeeded|approved)\b",
    r"\b(automated|automatic) (check|checker|test|tests|evaluation|verification)\b",
    r"\b(automatically|auto) (verified|checked|validated|confirmed|approved|marked)\b"
    r"|\bverified as (complete|completed|done|correct|successful|solved)\b"
    r"|\b(completed|done|finished) and (verified|validated|certified)\b",
    r"\b(test )?harness\b|\b(marked|flagged|graded|scored) (this |the )?(episode|task|run) as\b",
    r"\b(task|goal|episode|test) (is |was |has been )?(completed?|done|solved|passed|successful|a success)\b.{0,40}\b(success|successfully|verified|confirmed|correct)\b",
    r"\b(success|succeeded|passed|verified|approved)\b.{0,20}\b(task|goal|episode|test|check)\b",
    r"\b(system|tool|environment|server|check|checker) (says|said|reports|reported|confirms|confirmed|output|result)\b",
    r"\b(1 0|100 ?%|full marks)\b",
    r"\b(recorded|registered|logged|marked|counted|flagged) (it |this |that )?(as )?(a )?(success|successful|complete|completed|passed|solved)\b",
]
_END = [
    r"\b(i am|i'm|im|we are|we're|all|everything is|it's all|it is all) (done|finished|set|complete|completed)\b",
    r"\b(that's|that is|thats) (all|everything|it)\b",
    r"\b(i have|i've|ive|we have|we've) (now )?(finished|completed|done|booked|found|submitted|placed|made|run|set up|searched|bought|purchased|updated|voted|uploaded|saved|created|deleted)\b",
    r"\b(task|request|search|booking|order|purchase|job|work) (is |was |has been )?(done|finished|complete|completed|submitted)\b",
    r"\b(good ?bye|bye|(?<!good to )(?<!nice to )(?<!great to )see you|"
    r"have a (good|nice|great|safe|wonderful|lovely|fantastic) (day|one|evening|trip|flight|stay|"
    r"journey|time|weekend|holiday|vacation)|enjoy (your|the) (trip|stay|flight|new home|"
    r"purchase|pictures|photos|cats))\b",
    r"\b(tickets?|booking|bookings|rooms?|hotel|order|reservations?|purchase) (is|are|was|were|"
    r"has been|have been) (now )?(booked|confirmed|placed|reserved|complete|completed)\b",
    r"\b(nothing (else|more) (to do|needed))\b",
    r"\b(close|end|wrap up|finish) (the|this|our) (chat|conversation|session)\b",
    r"^(all )?(done|finished|completed?)\b(?! (with|by|in|on|at|for)\b)",
]
_MORE = [
    r"\b(anything|something) (else|more|further|additional|extra)\b",
    r"\b(what|which) else\b",
    r"\b(any|other|additional|further|more) (requirements?|preferences?|criteria|details?|constraints?|wishes|needs|conditions|specifications|requests?|information|info|must ?haves?|must-haves?|deal ?breakers?|features|wants)\b",
    r"\bis (that|this) (all|everything|it)$|\bis there (anything |something )?(more|else)\b",
    r"\b(anything|something) (i'm|i am|i've|i have|we're|we've|that i'm) (missing|missed|forgotten|forgetting|overlooked|left out)\b",
    r"\b(what|how) (can|may|should) i (help|do for you)\b",
    r"(?<!that is )(?<!that s )(?<!that's )(?<!is that )(?<!this is )\b(what|tell me what) (do )?you "
    r"(want|need|are looking for|have in mind)\b",
    r"\bwhat are (your|the) (requirements|preferences|criteria|needs)\b",
    r"\b(tell|give) me more( about (it|that|this|what you (want|need)))?$",
]
_MORE_HEAD = compiled(
    r"^((and|so|ok|okay|also|lastly|finally|last|one last thing|before i \w+( it| this| that)?) )*"
    r"((is|are) there )?(anything|something) (else|more|(that )?(i|we) (have not|haven't|didn't|did not|may have|might have))\b"
)
"""A question whose head is ``anything else?``: what follows it (``about how you want this
sorted``) is its context, not a detail asked."""
_MORE_FIRST = [*_MORE[:5]]
"""The ``anything else?`` phrasings that stay one even beside a word of the whole list
(``is that everything?``); the others yield to a request for the whole list."""
_GREETING = [
    r"^(hi|hiya|heya|hello|hey|yo|good (morning|afternoon|evening|day)|greetings|howdy)\b",
    r"^(thanks|thank you|thx|great|ok|okay|sure|got it|understood|perfect|alright|all right)\b",
    r"^(morning|afternoon|evening|welcome|cheers|appreciate it|much appreciated|noted|cool|nice)\b",
    r"^(so |really )?(good|nice|great|lovely) to (see|meet|hear from|chat with) you\b",
]
_YES_NO = compiled(
    r"^(is|are|am|do|does|did|should|shall|would|will|was|were|have|has|had|must|may)\b"
    r"|\b(right|correct|yes or no|is that (so|true|ok|okay|fine|it)|am i right|confirm|"
    r"correct me|sound (right|good)|true)\s*$"
    r"|\b(to confirm|to summari[sz]e|just to (check|confirm|be sure|clarify|make sure)|"
    r"let me (check|confirm|make sure|recap)|so you('d| would)? (want|like|need|said)|"
    r"you (want|need|said|mentioned|asked for)|in summary|recap|am i correct|is this correct)\b"
)
_CONFIRM = Remembered(
    compiled(
        r"\b(right|correct|is that (so|true|ok|okay|fine|it)|am i right|confirm|sound (right|good)|"
        r"true)\s*$"
        r"|\b(to confirm|to summari[sz]e|just to (check|confirm|be sure|make sure|double[ -]?check|verify)|"
        r"(let me|to|i want to|i'd like to|i would like to) (double[ -]?check|verify)|double[ -]?checking|"
        r"i take it|just checking|quick check|let me (check|confirm|make sure|recap)|"
        r"(just )?making sure|(just )?to be (sure|safe|clear)|"
        r"so you('d| would)? (want|like|need|said)|"
        r"you (said|mentioned|asked for)|in summary|recap|am i correct|is this correct|"
        r"did i get)\b|^(just )?confirming\b"
        r"|^(you|you'd|you're) "
        r"|^so (?!(what|which|how|where|when|do|does|did|would|will|can|could|is|are)\b)"
    )
)
"""A message that restates values for the user to confirm (``a garage, is that right?``)."""
_OPEN_ASK = compiled(
    r"^(can|could|would|will) you (tell|give|share|let|say|specify|provide|confirm what|clarify what|"
    r"state|name)\b|^(do|does) you (have|want|know) (a|an|any)? ?(preferred|preference|particular|"
    r"specific)?\b.{0,20}(\bin mind\b)?$"
)
_ASKS = compiled(
    r"\b(tell|give|send|share|say|specify|provide|confirm) me\b|\blet me (know|have|hear)\b"
    r"|\b(could|can|would|will) you "
    r"(tell|give|let|share|say|specify|provide|confirm)\b|\b(what|which|how many|how much)\b.{0,60}\b(you|your)\b"
)
"""A request for information: a message that asks is no farewell (``I've found a few
listings. Please tell me your maximum price.``)."""
_TAG = Remembered(
    compiled(
        r"\b(right|correct|is that (so|true|ok|okay|fine|it|right|correct)|am i right|"
        r"sound (right|good)|am i correct|is this (right|correct)|(is )?(that|this) (ok|okay|fine|good|"
        r"accurate|what you want|what you meant)|(that|this)( is|'s| s)? what you (want|need|meant|mean|"
        r"are after|re after|had in mind)|(be|is|that's|that is|this is|it's|it is) what you('re| are)? "
        r"(after|looking for|want|need|had in mind)|(?<!\bbe )(?<!\bis )(?<!\bare )(?<!\bseem )"
        r"(ok|okay|yes|yeah|good|fine|alright|agreed|yea|yep))\s*$"
    )
)
"""A confirmation tag that ends a message: everything the message says is put to the user (not
a clause that ends in one: ``... the longest commute that would still be okay?``)."""
_WORD_CHAR = compiled(r"[0-9a-z]")
_ASKED_MID = compiled(r"\?+\s")
"""A question mark inside a message (``Which city? I can search ...``)."""
_WHAT_WHICH_HOW = compiled(r"\b(what|which|how)\b")
_QUOTED = compiled(r"\"[^\"]+\"|(?<![A-Za-z])'[^']{2,}'(?![A-Za-z])")
_CAPITAL = compiled(r"(?<=[a-z,;:] )[A-Z][a-zA-Z]+")
_CODE = compiled(r"(?<![0-9a-z_])(?=[0-9_]*[a-z])(?=[a-z]*[0-9_])[0-9a-z_]{3,}(?![0-9a-z_])")
"""A written id or code (``abc123``, ``john_doe``): a value, though the reader does not know it."""


def _any(patterns: Sequence[str], text: str) -> bool:
    """Whether any of ``patterns`` is found in ``text`` (:func:`~.prefilter.any_match`)."""
    return any_match(patterns, text)


_WH = compiled(
    r"^(what|which|how|where|when|who|why)\b"
    r"|^(by|in|on|at|for|from|to|with|of|under|through|via|and|so|then|ok|okay|great|thanks|until|till|up to) "
    r"(what|which|how|whose|where|when)\b"
    r"|^(can|could|would|will) you (please |kindly )?(tell|give|share|let|say|specify|provide|"
    r"name) (me|us)?\b"
)
MISSING_DETAIL = (
    r"\byou (didn't|didnt|did not|haven't|havent|have not|never|forgot to)( yet| actually)? "
    r"(mention|say|said|give|given|specify|specified|provide|provided|tell|told|state|stated|"
    r"indicate|indicated|include|included|share|shared|list|listed|pick|picked|choose|chosen|"
    r"select|selected|set|name|named|enter|entered|note|noted)\b"
    r"|^no \S+( \S+){0,3} (was|were|has been|have been|is|are)( yet)? (given|specified|provided|"
    r"mentioned|stated|set|listed|included|entered|supplied|selected|chosen)\b"
    r"|^(status )?(missing|awaiting|pending|need|needs|needed|required)\b"
    r"|\b(awaiting|waiting (for|on)) (input|your|the|a|an)\b"
    r"|\b(still )?(needs|requires|is missing|lacks) (a|an|the|your|one|some)\b"
)
"""A sentence that names a detail as missing (``You didn't mention the budget``, ``No departure
date was given``, ``Missing field: ...``, ``Awaiting input``, ``The lookup needs a city``): it
asks for it."""
_REQUESTS = compiled(
    r"^(?:(?:ok|okay|alright|all right|well|now|next|um|uh|oh|hmm|and|so|from|to|until|till|since"
    r"|by) )*"  # "okay and how ...", "from where"
    r"(what|which|how|where|when|who|whom|whose|why|do|does|did|is|are|am|was|were|can|could|"
    r"would|will|should|shall|may|might|have|has|had|must|and|or|so|also)\b"
    r"|\b(tell|give|send|share|show) (me|us)\b|\blet (me|us) know\b|\b(please|kindly|pls)\b"
    r"|\b(i|we)('ll| will|'d| would| still| also| just| first)? (need|want|require|would like|"
    r"'d like|d like) (to know|your|the|a|an|some|you to)\b"
    r"|\bneed to know\b|\b(could|can|would|will) you\b|\bconfirm\b|\bcorrect me\b"
    r"|\b(i|we)('m| am|'re| are)( still| just)? missing\b|\bstill (missing|needed|unknown|open)\b"
    r"|\b(i|we) (still )?(do not|don't) (have|know) (the|your|a|an|any)\b"
    r"|^(provide|specify|enter|supply|indicate|input|select|choose|pick|share|send|paste|drop|"
    r"post|type|give|tell|show)\b"
    r"|\b(input|inputs|info|value|values|parameter|parameters|field|fields|details?|selection) (is |are )?"
    r"(required|needed|missing|pending)\b|\brequired (input|field|value|parameter)s?\b"
    r"|\b(right|correct|ok|okay)$"
    rf"|{MISSING_DETAIL}"
)
"""A sentence that asks or checks, whatever its mark: a question's opening word, a request
(``tell me``, ``please``, ``I need to know``), a missing detail named (``Input required``,
``You didn't mention the budget``, ``No departure date was given``, ``Awaiting input``)."""
_NO_REQUEST = compiled(
    r"\b(no need to|don't|do not|never|(?<!\bdid )(?<!\bhave )not|without|won't|will not|"
    r"no reason to|you needn't)"
    r"( \w+){0,2} (tell|give|send|share|show|let|confirm|ask)\b.*$"
)
"""A request the sentence takes back (``No need to tell me the number of bedrooms``)."""
_FIRST_PERSON = compiled(
    r"\b(i|i'm|im|i've|ive|i'll|i'd|my|mine|me|myself|we|we're|we've|we'll|our|ours|us|let's)\b"
)
_SECOND_PERSON = compiled(r"\b(you|your|you're|you'd|you've|you'll|yours|u|ur)\b")
_CHECK_TAG = Remembered(
    compiled(
        r"\b(right|correct|ok|okay|sound (right|good)|look (right|good)|sounds (right|good)|"
        r"looks (right|good)|is (that|this|it) (right|correct|ok|okay|accurate|fine|so)|"
        r"am i (right|correct)|did i get (that|it|this|everything) right|agreed|yes|good|fine|"
        r"alright|sound good|(is|was) (that|this|it) the (right|correct) \w+( \w+)?|"
        r"(is|was) (that|this|it) what you (want|wanted|mean|meant|need|needed|had in mind|are after)|"
        r"(does|would|will) (that|this|it) work( for you)?)\s*$"
    )
)
"""A last sentence that puts everything before it to the user (``Does that sound right?``)."""
_LIST_HEADER = compiled(
    r"need|missing|question|detail|param|info|following|tell|know|check|provide|give|send|share|"
    r"input|required|"
    r"things|confirm|specify|fill in"
)
"""A line ending with a colon that opens a list of what the agent asks."""


_ASIDE = compiled(
    r"^((slightly|a bit|a little|somewhat|totally|completely|kinda|kind of|bit) )?"
    r"(quick aside|side note|on a side note|side question|quick side question|off topic|"
    r"off-topic|unrelated|random question|random q|"
    r"just curious|out of curiosity|totally unrelated|not related|by the by|by the way|fun fact|random fact|"
    r"random thought|unrelated but)\b"
)
"""An aside that opens a message: what follows is not about the task."""
_PREFERENCE = compiled(
    r"^((and|so|also|ok|okay|great|thanks|sure|one more thing|lastly|next|quick question|hiya|hi|"
    r"hello|hey|got it|perfect|alright) )*"
    r"(do you have (a|an|any) [a-z-]+( [a-z-]+)? (in mind|you (prefer|like|want|need))\b|"
    r"(do|would|will|did) you (also )?(need|want|require|care|mind|prefer (a|an|any)|"
    r"have (a |any )?(particular|specific|preferred|certain|special|favou?rite))|would you (also )?(prefer|like (me )?to|"
    r"like (a|an|any|some)\b)"
    r"|are you (after|looking for|hoping for|set on|particular about|open to|okay with|fine with)"
    r"|would you be (fine|ok|okay|happy|alright|all right) with"
    r"|is (a |an |the )?[a-z-]+( [a-z-]+)? (a must|essential|required|a requirement|a dealbreaker)\b"
    r"|(should|does|do|must) (it|they|the [a-z-]+( [a-z-]+)?) (also )?(come with|have|include|feature|"
    r"need to be|have to be|need to have|have to have|need|require)\b"
    r"|(should|shall|may|can) i (also |additionally |just )?\w+ (?!it\b|that\b|this\b)\w+ \w+"
    r"|is there (a|an|any) (particular|specific|preferred|certain|special)\b"
    r"|(do|would|did) you have (a |an |any )?([a-z-]+ ){0,2}(preference|prefrence|preferance|"
    r"requirement)s?\b"
    r"|is there (a |an |any )?([a-z-]+ ){0,2}(preference|prefrence|preferance|requirement)s?\b"
    r"|((do you|have you) )?(have|got) (a |an |any )?([a-z-]+ ){0,4}in mind\b"
    r"|(any|a) (particular|specific|special) (preference|requirement|need)s?\b"
    r"|any (preferences?|prefs?)\b"
    r"|any (particular|specific|preferred|favou?rite) [a-z-]+( [a-z-]+)? (you|in mind|that you)\b"
    r"|will (you|there) (have|be|need) (any|a|an|some)\b"
    r"|(would you like|do you want|do you need) ([a-z-]+ ){1,3}(included|added|thrown in)\b"
    r"|(is|are|should) ([a-z-]+ ){1,2}(be )?included\b)"
)
"""A question about a preference or about what the agent should do (``Do you need a specific
brand?``, ``Should I round to whole numbers?``): about the request even where it names no detail
the family knows, so the user has no preference rather than being off the topic."""
_PREFER = compiled(
    r"^((and|so|also|ok|okay|great|thanks|sure|one more thing|lastly|next|quick question) )*"
    r"(do|would) you (also )?(rather|prefer)\b"
)
"""``Do you prefer a pullover or a zip-up?``: about the request when it writes a word of it."""
_ANSWER_TYPES = {
    "where": frozenset({"city", "location", "address", "place", "region", "country", "venue"}),
    "when": frozenset({"date", "time", "day", "month"}),
    "who": frozenset({"name", "username", "person", "author", "artist", "recipient"}),
    "how much": frozenset({"amount", "price", "cost", "budget", "fee", "total", "salary"}),
    "whose": frozenset({"name", "username", "person", "author", "host", "owner", "user"}),
    "how many": frozenset({"limit", "count", "results", "top"}),
    "search": frozenset({"query", "q", "keyword", "keywords", "term", "search"}),
    "site": frozenset({"domain", "website", "site", "url"}),
}
"""The parts of a kind's name that hold the answer to a question word (``where`` a city)."""
_ANSWER_WORD = compiled(
    r"^(?:(where|when|whose|who|how much|how many)"
    r"|what (?:\w+ )?(?:should|do you want me to|would you like me to|shall) (?:i |me to |we )?"
    r"(?P<search>search|type|query|look up|look for|enter|put in)"
    r"|(?:what|which) (?:(?P<term>keyword|search term|term|phrase)s?"
    r"|(?P<site>website|site|web site|domain))"
    r")\b"
)
"""A question word, or a question about what to search with or which site (its key: the
first group, ``search`` or ``site``)."""


def answer_key(match: re.Match[str]) -> str:
    """The :data:`_ANSWER_TYPES` key of an :data:`_ANSWER_WORD` match."""
    if match.group("search") or match.group("term"):
        return "search"
    if match.group("site"):
        return "site"
    return match.group(1)


_TASK_FRAME = compiled(
    r"\b(should|shall i|do you want|would you like|you want|you need|you would like|"
    r"for you|me to|(to|i) (search|find|look|book|use|check|query|run|call|set|send))\b"
)
"""Words that set a question in the request (``the stations you want me to find``)."""
_FOR_THE_TASK = compiled(
    r"\b(i|we) (should|need to|ought to|must|have to) (account for|consider|factor in|keep in mind|"
    r"include|filter (for|by|on)|look for|know about)\b"
    r"|\bwhen (i am |i'm |we are )?(filtering|searching|booking|looking|shopping|ordering)\b"
    r"|\b(for|in|to) (the|your|my|this) (search|booking|order|filters?|results|listings)\b"
    r"|\b(i can|i could|i will|i'll|we can) (restrict|filter|narrow|limit|tailor)\b"
    r"|^(are|is|do|does|would|will) .*\b(a|any) (particular|specific|certain|preferred) [a-z]+"
)
"""A question set in the agent's task (``... any pets I should account for when filtering?``)."""
_PERSONAL = Remembered(
    compiled(
        r"\b(personally|in general|in your life|for fun|just curious|yourself)\b"
        r"|\b(do|did|have) you (usually|normally|typically|generally|often|ever)\b"
        r"|\b(have|did) you (already |yet )?(had|get|got) (a|the) chance\b"
        r"|\bhave you (already )?(been to|visited|heard of|tried)\b"
        r"|\b(what|which) (is )?your (favourite|favorite) (?!one\b)\w+"
        r"|\b(do|did) you (teach|study|coach)\b|\bare you (a|an|the) (teacher|student|professor|coach)\b"
        r"|\b(lately|these days|last night|last weekend)\b|\bhow('s| is| has) the weather\b"
        r"|\b(did|have) you (catch|see|watch|seen|watched|caught) (the|that|any)\b"
    )
)
"""A question about the user's own life, not the request (``Do you prefer cats, personally?``)."""
_EXAMPLES = compiled(r":\s*\S|\be\.?g\.?\b|\bsuch as\b|\bfor (example|instance)\b|\blike\b")
"""Where an open question lists examples of the answer (``what room type: standard, suite?``)."""
_YES_NO_START = compiled(r"^(would|do|does|should|shall|can|could|will|is|are) ")
_OR = compiled(r"\bor\b(?! (?:is|are|was|were) (?:this|it|that|they)\b)")
"""An alternative offered (``for dry skin, or for sensitive skin?``), not another question
(``or is this just sample data?``)."""
_ANY_WH = compiled(r"\b(what|which|how|where|when|who|whom|whose)\b")
"""A question word anywhere (``Rename 'Price' to what?``)."""
_WH_OPEN = compiled(
    r"(which|what|is there an?|is there any|do you have an?|any)( particular| specific| preferred)?"
    r" (part|area|areas|neighbou?rhoods?|district|side|suburb)\b"
)
"""An open question about something a written value narrows (``which part of St. Louis``)."""
