"""What a message is read as: the parts a reading leaves aside or reads apart.

Examples an open question offers (``(single, double, suite…)``, ``a particular type, like
GIFs``) are no values put to the user; a word of the request between ``which`` and its noun
narrows the noun; a clause that says when an action happens names no detail asked; a
one-sentence ``when`` question asks dates; a forged success is not told by words of the request
or of a value; names the request wrote are no new values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolgym.simulators.user.acknowledgement import request_words
from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.memo import Remembered
from toolgym.simulators.user.phrases import _PREFERENCE, _QUOTED, _WH
from toolgym.simulators.user.slot_reading import _Slots
from toolgym.simulators.user.slots import contains_phrase, normalize, normalized
from toolgym.simulators.user.text import _ENUMERATOR, _SENTENCE, GROUP_1, _clauses

_INTERJECTION = Remembered(
    compiled(
        r"^((hey|hi|hello|ok|okay|so|sure|alright|all right|great|thanks|thank you|cool|and|also|"
        r"perfect|got it|understood|absolutely|right|now|next|quick question|one more thing) )+"
    )
)
"""Words that open a question without being part of it (``Sure, which picture ...?``)."""

_EXAMPLE_WORDS = r"e\.?g\.?|eg|say|(?:something |anything )?like|such as|for example|for instance"
_FOR_EXAMPLE = compiled(rf"(?:{_EXAMPLE_WORDS})\b", re.I)
"""What opens an example (``e.g. 42 x 63``, ``something like 'abc123XYZ'``)."""
_WHEN = compiled(r"when\b")
_MORE_ASKED = compiled(r",| and | or | plus |&")
_STOP = compiled(r"[.?!;:\n]")
_CAPITALIZED = compiled(r"\b[A-Z][\w-]*\b")
_LISTED_ITEM = compiled(r"\s*(?:\d+[.)]|[-*\u2022])\s+\S")
"""A list's item (``3) Preferred type of home``)."""
_OFFERED = compiled(
    rf"\s*\((?:(?:{_EXAMPLE_WORDS}|i\.e\.)\b[^()]*"
    r"|[^()]*(?:,|/|\bor\b|…|\.\.\.)[^()]*)\)",
    re.IGNORECASE,
)


_MODIFIED = compiled(r"\b((?:which|what) )([a-z]+) (?=[a-z])", re.IGNORECASE)


_SUBORDINATE = compiled(r" (when|while|whenever|after|before|once|during|as) (?!(you|your|i|we)\b)")


def _subordinate(canonical: str, found: _Slots, valued: set[str]) -> set[str]:
    """Kinds a yes/no question names only in a clause that says when its action happens.

    ``Should I keep the header row at the top when sorting?`` asks about the header row; the
    sort is when it happens, not a detail asked. Only where the question names something else
    before that clause.
    """
    cut = _SUBORDINATE.search(canonical)
    if cut is None:
        return set()
    before = {k for k, at in found.at if at < cut.start()}
    after = {k for k, at in found.at if at > cut.start()}
    return after - before - valued if before else set()


_LEADING_WHEN = compiled(r"^(when|while|whenever|after|before|once|as soon as) (i|we|you)\b")


def _leading_when(
    canonical: str, found: _Slots, valued: set[str], commas: Sequence[int]
) -> set[str]:
    """Kinds a question names only in an opening clause of when.

    ``When I sort, should the header row stay pinned at the top?``: the sort is when it happens,
    the row is asked about.
    """
    if not commas or _LEADING_WHEN.match(canonical) is None:
        return set()
    cut = min(commas)
    before = {k for k, at in found.at if at < cut}
    after = {k for k, at in found.at if at > cut}
    return before - after - valued if after else set()


def _when_asked(message: str, kinds: Sequence[str]) -> tuple[str, ...]:
    """The dates a one-sentence ``when`` question asks among ``kinds`` (the places are context).

    Empty when the message is no such question or names no date.
    """
    clauses = _clauses(message)
    if len(clauses) != 1 or not _WHEN.match(_INTERJECTION.sub("", clauses[0])):
        return ()
    if _MORE_ASKED.search(message):
        return ()  # "When do you depart, and how many adults?": asks more than the date
    timed = tuple(k for k in kinds if {"date", "time", "day"} & set(k.split("_")))
    return timed if timed and len(timed) < len(kinds) else ()


def _without_modifier(message: str, opening: str) -> str | None:
    """``message`` without a word of the request between ``which`` or ``what`` and its noun.

    ``Which cat pic are we downvoting?`` reads as ``Which pic ...``: the request's own word
    (``cat``) narrows the noun, which names the kind. ``None`` when there is no such word.
    """
    given = request_words(opening)
    plain = _MODIFIED.sub(
        lambda m: m.group(1) if m.group(2).lower() in given else m.group(), message, count=1
    )
    return plain if plain != message else None


_CONFIRM_LEAD = compiled(
    r"^\s*(?:(?:please\s+|kindly\s+)?confirm\s*[:\u2014\u2013-]|(?:just\s+)?confirming\b[:\u2014\u2013-]?)\s*",
    re.IGNORECASE,
)


_ATTRIBUTED_DASH = compiled(
    r"^(\s*(?:you (?:already )?(?:mentioned|said|noted|told me|indicated|specified|stated|wrote|gave|"
    r"asked for)|as you "
    r"(?:said|mentioned|noted))\b[^\u2014\u2013?.!]{1,80}?)\s+(?:[\u2014\u2013]|--?)\s+",
    re.IGNORECASE,
)
"""``You mentioned at least 1,300 sq ft — is there an upper limit ...?``: the dash ends what the
user said, as a full stop would."""


_DASH_QUESTION = compiled(
    r"^([^\u2014\u2013?.!:\n]{1,60}?)\s+(?:[\u2014\u2013]|--?)\s+"
    r"(?=(?:what|which|how|where|when|who|is there|are there|do you|would you|any)\b)",
    re.IGNORECASE,
)
"""``Richmond rentals — how many bedrooms?``, ``No breed given - is there one you want?``: a short
lead, then the question, as after a colon (a dash, or a hyphen between spaces)."""


def _attributed_dash(message: str) -> str:
    """``message`` with its dash after what the user said read as a stop.

    ``You mentioned at least 1,300 sq ft — is there ...?`` parts as a full stop would; a dash
    between a short lead and a question word (``Richmond rentals — how many bedrooms?``) reads
    as a colon.
    """
    found = _ATTRIBUTED_DASH.match(message)
    if found is None:
        return _DASH_QUESTION.sub(r"\1: ", message, count=1)
    rest = message[found.end() :]
    return f"{found.group(1)}. {rest[:1].upper()}{rest[1:]}"


_HEDGE = compiled(
    r"^\s*(?:(?:and|so|ok|okay)[,.]? )?(?:if (?:you (?:do not|don't|dont|would not|wouldn't) mind"
    r"(?: (?:me|my) asking)?|i (?:may|might|could|can) ask|it'?s (?:ok|okay|alright|all right) "
    r"(?:to ask|if i ask))|(?:may|can|could|might) i ask|"
    r"just wondering|i was wondering)\s*(?:[,:;\u2014\u2013]|-+)\s*",
    re.IGNORECASE,
)
"""A polite lead before a question (``If you don't mind me asking, is there ...?``)."""


_ASK_LEAD = compiled(
    r"\b(?:may|can|could|might) i (?:please |kindly |just |also |quickly )?ask(?: you)? "
    r"(?=(?:what|which|where|when|who|how)\b)",
    re.IGNORECASE,
)
"""``may I kindly ask which city ...?``: the question it leads to is the message's own."""


_FILLER = compiled(r"(?<![\w'-])(?:[Uu]+[hm]+|[Ee]rm+|[Hh]m+|[Mm]m+)(?![\w'-])[,.]*[ \t]*")
"""A spoken filler (``um``, ``uh``, ``erm``, ``hmm``): it says nothing."""


_COUNTED_ASKS = compiled(
    r"\b(?:\d|two|three|four|five|a couple(?: of)?|couple of|a few|few)[ \t]+"
    r"(?=(?:(?:more|quick|last|small|short|final|other)[ \t]+)?(?:things|questions|details|items|"
    r"points|follow-?ups|bits)\b)",
    re.IGNORECASE,
)
"""How many things the agent will ask (``Two things``, ``3 quick questions``): no value."""


_RETRACTED = compiled(
    r"^.*?\b(?:scratch that|ignore that|disregard that|forget that|never ?mind that|nevermind|"
    r"strike that|let me rephrase|let me start over)\b\s*[,.;:!\u2014\u2013-]+\s*",
    re.IGNORECASE | re.DOTALL,
)
"""What an agent takes back before saying what it means (``Which flavor — sorry, scratch that,
let me start with the bag: ...``)."""


_STATUS_LABEL = compiled(
    r"^\s*(?:status|state|log|note)\s*[:>-]+\s*(?=(?:need|needs|awaiting|missing|pending|required)\b)",
    re.IGNORECASE,
)
"""A log's label before what it says is missing (``STATUS: need ...``): no word of the task's."""


_SUMMING_UP = compiled(
    r"^\s*(?:long story short|in short|in a nutshell|tl;?dr|bottom line|to sum up)\s*[,:\u2014\u2013-]\s*",
    re.IGNORECASE,
)
"""An idiom that sums up before the question (``Long story short, ...``): no ``story`` or size."""


def without_hedge(message: str) -> str:
    """``message`` without what asks nothing itself.

    Spoken fillers (``um``), a log's label (``STATUS: need ...``), a summing-up idiom (``Long
    story short, ...``), a polite lead (``If you don't mind me asking, ...``), the count of the
    questions to come (``Two things: ...`` reads ``several things``), and what the agent takes
    back (``Which flavor? Scratch that: how many ounces?``).
    """
    if _FILLER.search(message):
        message = _FILLER.sub("", message)
    message = _STATUS_LABEL.sub("", message, count=1)
    message = _SUMMING_UP.sub("", message, count=1)
    if _COUNTED_ASKS.search(message):
        message = _COUNTED_ASKS.sub("several ", message)
    if (taken_back := _RETRACTED.match(message)) is not None and taken_back.end() < len(message):
        message = message[taken_back.end() :]
    if " ask " in message.lower():
        message = _ASK_LEAD.sub("", message)
    found = _HEDGE.match(message)
    if found is None or found.end() == len(message):
        return message
    rest = message[found.end() :]
    return rest[:1].upper() + rest[1:]


_RUN_ON = compiled(
    r"(?:(?<=[a-z0-9])(?<!\band)(?<!\bor)|(?<=[a-z0-9] [-\u2013\u2014])) "
    r"(?=(?:what|which)(?: [a-z]+){1,2} (?:do|does|should|would|will|can|could|is|are) (?:you|i|we|it)\b"
    r"|(?:what|which|where|when|who|how)(?:'?s\b| (?:is|are|was|were|do|does|did|"
    r"would|should|will|can|could|many|much|ur|your)\b))"
)
"""Where an unpunctuated message's question starts after what came before it (``i can upvote
that for you what is the image id``)."""


def unpunctuated_question(message: str) -> str:
    """A message written without stops, its question set apart and marked as one.

    ``i can upvote that for you what is the image id``: ``i can upvote that for you. What is
    the image id?`` Text with any stop, question mark or line break is kept as it is.
    """
    text = message.strip()
    if not text or _STOP.search(text):
        return message
    parts = _RUN_ON.split(text, maxsplit=1)
    if len(parts) < 2:
        return message
    return f"{parts[0]}. {parts[1][:1].upper()}{parts[1][1:]}?"


def _confirm_lead(message: str) -> str:
    """A confirmation's lead read as ``To confirm: ...`` (a check).

    ``Confirm: add a column called 'Variance'?``, ``Confirming a downvote on image X.``; a
    question the request asked, told back in a check, is no question of the agent's (``You're
    asking which images are in your favourites, right?``).
    """
    if _TAGGED_END.search(message):
        message = _EMBEDDED_WH.sub(r"\1 the", message)
    return _CONFIRM_LEAD.sub("To confirm: ", message, count=1)


_TAGGED_END = compiled(
    r"(right|correct|is that right|is that correct|is that it|yes|ok|okay)\W*$", re.IGNORECASE
)
_EMBEDDED_WH = compiled(
    r"\b(asking|wondering|want to see|want to know|like to see|like to know|to find out|"
    r"show you|showing you|listing) (?:which|what)\b",
    re.IGNORECASE,
)


_IN_OUT = compiled(
    r"\s*\(\s*(?:check[- ]?)?in\s*(?:/|-|&|and|\+)\s*(?:check[- ]?)?out\s*\)", re.IGNORECASE
)
"""``which dates (in/out)``: both ends of a stay."""


_LOOK_BACK = 400
"""How far before an option list its sentence is looked for (a question's lead-in is shorter)."""


def _without_examples(message: str) -> str:
    """``message`` with the examples or choices an open question gives read as offered.

    ``What kind of room would you prefer (single, double, suite…)?``, ``What size panel (e.g.
    42 x 63)?``, ``How much of a discount — 5%, 10%, 20%?``, ``Studio, 1BR, 2BR, 3+ — how
    many bedrooms?``: values offered to pick from, not values put to the user to confirm.
    """

    def drop(match: re.Match[str]) -> str:
        # the sentence before the options; a look-back of bounded length keeps a message of
        # many option lists linear ("(king, queen) " repeated: each list read its whole prefix)
        before = re.split(
            r"(?<=[.?!:;])\s+|\n", message[max(0, match.start() - _LOOK_BACK) : match.start()]
        )[-1]
        inner = match.group().strip()[1:-1].strip(" .…")
        example = _FOR_EXAMPLE.match(inner)
        if example and re.search(r"[0-9'\"\u2018\u201c]", inner):
            return ""  # "I'll need its ID (something like 'abc123XYZ')": a form, not a value
        if not _asks_openly(before) and not _LISTED_ITEM.match(before):
            return match.group()  # "Do you have a preferred ..." asks too, and so does a list's
            # item ("3) Preferred type of home (house, condo, ...)")
        if example or inner.lower().startswith(("i.e.", "ie ")):
            return ""
        items = [i.strip() for i in re.split(r",|/|\bor\b|…|\.\.\.", inner) if i.strip()]
        return ": " + _choice(items) if len(items) > 1 else ""

    if "(" in message:
        message = _IN_OUT.sub(", check-in and check-out", message)  # "which dates (in/out)?"
        message = _OFFERED.sub(drop, message)
    if any(mark in message for mark in ("\u2014", "\u2013", " - ", "--", "...", "\u2026")):
        message = _options_first(message)  # "Studio, 1BR, 2BR, 3+ — how many bedrooms?"
        message = _offered_after(message)
    if "?" in message:
        message = _trailing_options(message)
    return _EXAMPLE_TAIL.sub(GROUP_1, message)


_OPTIONS_SENTENCE = compiled(
    r"(?<=\?)\s+((?:[^.?!,\n]{1,30},\s*){1,6}(?:or\s+)?[^.?!,\n]{1,30}(?:\.{3}|\u2026|etc\.?)?\?)"
    r"\s*$"
    r"|(?<=\?)\s+((?:the )?(?:options|choices|possible values|common ones)(?: \w+){0,2} "
    r"(?:include|are|would be)\b[^?]*)$"
    r"|(?<=\?)\s+(?:e\.?g\.?|for example|for instance|such as|like|say)[:,]?\s+([^?]*?)\.?\s*$",
    re.IGNORECASE,
)
"""A last sentence that only lists options (``Central West End, Soulard, somewhere else?``)."""


_NOT_AN_OPTION = compiled(
    r"\b(what|which|how|where|when|who|why|if|also|do|does|did|should|would|will|can|could|is|"
    r"are|you|your|i|we|me|it|that|this|not|no|just|only|right|correct)\b"
)
"""A word no option holds: a question's, a pronoun, a negation, a confirmation."""


def _trailing_options(message: str) -> str:
    """``message`` with a last sentence of options after an open question read as offered.

    ``What finish should it be? Natural wood, white, black...?`` and ``Which room type? Options
    usually include Standard, Double and Suite.``, ``Any flavour? e.g. vanilla, hazelnut or
    plain``: the options join the question as a choice.
    """
    found = _OPTIONS_SENTENCE.search(message)
    if found is None:
        return message
    listed = (
        found.group(1)
        or found.group(3)
        or re.sub(r"^.*?\b(include|are|would be)\b", "", found.group(2))
    )
    items = [
        i.strip(" .?\u2026")
        for i in re.split(r",|\bor\b|\band\b|\.{3}|\u2026|\betc\b", listed.rstrip("?"))
        if i.strip(" .?\u2026")
    ]
    before = _SENTENCE.split(message[: found.start()].rstrip())[-1]
    if not _asks_openly(before) or len(items) < 2:
        return message
    if (found.group(1) or found.group(3)) and any(
        len(i.split()) > 4 or _NOT_AN_OPTION.search(i.lower()) for i in items
    ):
        return message
    question = message[: found.start()].rstrip().rstrip("?")
    return f"{question}: {_choice(items)}?"


def _asks_openly(sentence: str) -> bool:
    """Whether ``sentence`` is an open question or asks a preference (options may follow)."""
    head = _INTERJECTION.sub("", normalize(_ENUMERATOR.sub("", sentence)))
    return bool(
        _WH.search(head)
        or _PREFERENCE.match(head)
        or (sentence.rstrip().endswith("?") and _WH_SOON.match(head))
    )


_WH_SOON = compiled(r"(?:[a-z']+ ){1,2}(?:what|which|how|where|when)\b")
"""A question word after a word or two (``Roughly how much space ...?``, ``And which ...?``)."""


def _choice(items: Sequence[str]) -> str:
    """Options written as a choice (``a, b or c``)."""
    return ", ".join(items[:-1]) + " or " + items[-1]


_DASH = r"\s+(?:\u2014|\u2013|--?)\s+"
_LIST_BEFORE = compiled(
    rf"(?:^|(?<=[.!?:]\s))(?P<items>[^.?!\n,\u2014\u2013]{{1,24}}(?:,[^.?!\n,\u2014\u2013]{{1,24}}){{2,}})"
    rf"(?:{_DASH}|\s*(?:\.{{3}}|\u2026)\s*)"
    r"(?=(?:what|which|how|where|when|who)\b)",
    re.IGNORECASE,
)
"""Options listed before a dash (or an ellipsis) and an open question: offered, not checked."""
_DASH_AT = compiled(r"(?<!\s)" + _DASH)
"""A dash between spaces, searched from the start of its spaces (a search from each space of a
long run read the rest of the run: its length squared)."""


def _options_first(message: str) -> str:
    """``message`` with options listed before an open question written after it, as a choice.

    ``Apartment, house, condo... which type?`` reads ``which type: Apartment, house or condo?``.
    """
    found = _LIST_BEFORE.search(message)
    if found is None:
        return message
    end = message.find("?", found.end())
    items = [i.strip() for i in found.group("items").split(",") if i.strip()]
    if end < 0 or len(items) < 2:
        return message[: found.start()] + message[found.end() :]
    question = message[found.end() : end]
    return f"{message[: found.start()]}{question}: {_choice(items)}{message[end:]}"


def _offered_after(message: str) -> str:
    """``message`` with an open question's options after a dash written as a choice.

    ``How much of a discount — 5%, 10%, 20%?`` reads ``How much of a discount: 5%, 10% or
    20%?``, and so does a preference asked (``Any preference on the room - single, double,
    suite?``). Each sentence is cut once, at its first dash (time linear in the message).
    """
    parts = re.split(r"([.?!\n])", message)
    for at in range(0, len(parts) - 1, 2):
        if parts[at + 1] != "?" or (dash := _DASH_AT.search(parts[at])) is None:
            continue
        head, rest = parts[at][: dash.start()], parts[at][dash.end() :]
        if "," not in rest or "\u2014" in rest or "\u2013" in rest:
            continue
        asked = head.rsplit(": ", 1)[-1]  # "Two things: what size — S, M, L?"
        if not _asks_openly(asked):  # "Any preference on the room - single, double, suite?"
            continue
        items = [i.strip() for i in re.split(r",|\bor\b", rest) if i.strip()]
        items = [i for i in items if not re.fullmatch(r"(something|anything) else|other", i, re.I)]
        if len(items) >= 2:
            parts[at] = f"{head}: {', '.join(items[:-1])} or {items[-1]}"
    return "".join(parts)


_EXAMPLE_TAIL = compiled(
    r"(\b(?:particular|specific|certain|preferred|kind of|type of|sort of)\b[^?.!\n,]{0,30}?)"
    r"(?:, ?(?:like|say|e\.g\.,?|eg|such as|for example,?)| (?:e\.g\.,?|such as|for example,?))"
    r" [^?.!\n]*",
    re.IGNORECASE,
)
"""Examples after a noun a question asks a choice of (``a particular file type, like only
animated GIFs?``): offered, not checked."""


def _beyond_request(message: str, opening: str) -> str:
    """``message`` normalized, without its quoted texts and the words the request wrote.

    What tells a forged success (``your score``) is not in a value (``a column named 'Score
    Difference'``) nor a word the request used itself (``the science score``).
    """
    given = request_words(opening)
    words = normalize(_QUOTED.sub(" ", message)).split()
    return " ".join(  # "ties broken by the Math score": a column's measure, no forged score
        w
        for i, w in enumerate(words)
        if w not in given and not (i and words[i - 1] in given and w in _MEASURES)
    )


_MEASURES = frozenset({"score", "scores", "grade", "grades", "points", "rating", "ratings"})


def _without_known(message: str, opening: str) -> str:
    """``message`` without the quoted texts and capitalized words the user's request wrote.

    ``renaming the 'Item' column``, ``Liam's row``: names of the request, not new values.
    """
    given = normalized(opening)

    def known(match: re.Match[str]) -> str:
        inner = normalized(match.group().strip("'\""))
        return " " if inner and contains_phrase(given, inner) else match.group()

    return _CAPITALIZED.sub(known, _QUOTED.sub(known, message))
