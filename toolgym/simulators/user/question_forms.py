"""The forms a question takes: lead-ins, imperatives that ask, choices, a question's answer type.

What the reader tells a message's parts by before it decides what the message does: a remark
or a purpose that opens it (``To find the best matches in Austin, could you ...``), an
imperative that asks (``Tell me which colour``), alternatives put to the user (``a condo or a
townhouse``), the word a question is answered with (``where``: a place).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Sequence

from toolgym.simulators.user.acknowledgement import request_words
from toolgym.simulators.user.ends import direction_asked
from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.phrases import (
    _ANSWER_TYPES,
    _ANSWER_WORD,
    _FOR_THE_TASK,
    _GENERIC,
    _PERSONAL,
    _PREFER,
    _PREFERENCE,
    _TASK_FRAME,
    _WH,
    _YES_NO_START,
    ASK,
    CHECK,
    MISSING_DETAIL,
    OFF_TOPIC,
    _any,
    answer_key,
)
from toolgym.simulators.user.reading import Reading
from toolgym.simulators.user.rewrites import _INTERJECTION, _NOT_AN_OPTION
from toolgym.simulators.user.shapes import shape_named
from toolgym.simulators.user.slot_reading import _Slots
from toolgym.simulators.user.slots import Slot, Vocabulary, normalize, normalized
from toolgym.simulators.user.text import REQUEST, _phrase

_NEGATED_PART = compiled(r"\b(not|no|neither|without)\b[^,?;]*")
_WHERE_FIRST = compiled(r"(\w+ ){0,3}where\b")
_OR_BETWEEN = compiled(r"\w \bor\b \w")
_SMALL_TALK = compiled(
    r"\b(do|did) you (like|love|enjoy|miss) (living|being|it there|the (city|place|area))\b"
    r"|\b(have|had) you (ever )?(been|lived|visited|travelled|traveled)\b|\bgrew up\b"
    r"|\b(are|were) you (excited|nervous|happy|looking forward)\b|\bweather\b"
    r"|\b(do|did) you know (any|a|some|of any|of a) (good|nice|great|fun|cool|decent)\b"
    r"|\b(recommend|suggest) (any|a|some) (good|nice|great|fun)? ?(places?|spots?|restaurants?|"
    r"trails?|things to do)\b"
    r"|\b(nice|beautiful|lovely|fun|pretty) (this time of year|in the (spring|summer|fall|autumn|winter))\b"
)
"""Small talk about a value the request gave (``Do you like living in Madison?``): no check."""
_CONTEXT_WORDS = 10
"""From this many words, a message that writes right values but names no kind and confirms
nothing is about something else: the values are its context."""


_REMARK = compiled(
    r"^(to|for|since|because|before|given|now that|in order to|so that|so i can|with|as|besides|"
    r"apart from|aside from|other than|along with|in addition to|on top of|beyond|keeping) "
    r"|^(?!(got it|ok|okay|sure|great|alright|all right|thanks|thank you|perfect|noted|understood|"
    r"cool|so|you|your|i|we|it|that|this|there)\b)([a-z0-9'-]+ ){1,4}(?<!\bit )(?<!\bthat )"
    r"(has|have|is|are|can|gets?|comes?|tends?|runs?|seems?|offers?|sells?|varies|vary)\b"
)
"""A remark or a lead-in that opens a message before its question (``Houston has a huge range
of homes.``, ``To narrow down the Boise rentals:``): the question says what the message asks."""
_ALSO = compiled(
    r"(do you also want|would you also like|should i also|shall i also|can i also|"
    r"do you want me to also|want me to also|would you like me to also)\b"
    r"|(should|shall|can|could) (it|this|that|the \w+) also\b"
    r"|(should i|shall i|can i|do you want me to|would you like me to|want me to) .*"
    r"\b(as well|too|while i m at it|while i am at it)$"
)
"""A proposal beyond the request (``Should I also freeze the header row?``): values in it are
its context, not checked."""
_ATTRIBUTION = compiled(
    r"^(you (already )?(mentioned|said|noted|told me|indicated|specified|stated|wrote|gave)"
    r"|as you (said|mentioned|noted))\b"
)
"""A sentence that gives back what the user said as the ground of the question after it (``You
mentioned a floor of $2,900. What's the highest rent ...?``): context, not a check."""
_NEEDS_LIST = compiled(
    r"\b(i'll|i will|i'd|i would|i|we'll|we will|we) (still |just )?need\b[^:.?!\n]*:"
    r"|\bneed (a few|two|three|four|some|the following|these)\b[^:.?!\n]*:"
    r"|\b(could|can|would|will) you (please |kindly )?(tell|give|send|let) (me|us)( know)?\s*:"
    r"|\b(please )?(tell|give|send|let) (me|us)( know)?( the following)?\s*:"
    r"|\b(please |kindly )(share|provide|specify|supply|enter)( with me)?( the following)?\s*:",
    re.IGNORECASE,
)
"""What the agent needs, then a colon before the list of it (``To narrow down Anchorage rentals I
need a few things:``): a question, whatever the sentence before the colon restates."""
_SURE_LEAD = compiled(
    r"^just to (be sure|make sure|check|double check)( that)? (i|we) .*? (?=(what|which|where|when|"
    r"how|who)\b)"
)
"""A lead-in that says why the question that follows it is asked: no restatement to confirm."""
_SURE = compiled(r"^just to (be sure|make sure|check|double check)\b")
_PURPOSE = compiled(r"(?:in order |so as )?to (?!be\b)[a-z]+\b")
"""A purpose that leads a request in (``To narrow down the Chattanooga listings, could you ...``):
what it names is the task's, not restated to be confirmed."""
_TELL_ME = compiled(
    r"^(please |kindly )?((tell|give|send|share|let) (me|us)|provide|specify|enter|paste|supply)\b"
    r"|^(any|a|an) (preferred|particular|specific)\b"
    r"|\b(can|could|would|will) you (please |kindly )?(share|send|give me|provide|paste|supply)"
    r" (those|these|them|both|that|it)$"
    rf"|{MISSING_DETAIL}"
)
"""An imperative that asks (``Tell me which colour you'd like``, ``Please provide the image
id``), or a terse ask of a preference (``Any preferred colour for the XL leggings?``)."""
_FILLER = compiled(
    r"^ *((and|also|so|ok|okay|what about|how about|any|the|your|a|an|got|you got|have you got|"
    r"number of) +)*$"
)
"""What may stand before the word a terse question opens with (``And any room type ...?``, ``Got
a number of bedrooms in mind ...?``)."""
_CHOICE = compiled(
    r"[a-z0-9.]( ?,)? or (?!(more|less|fewer|above|below|higher|lower|so|not|later|earlier|"
    r"cheaper|over|under|greater|smaller|bigger|larger|longer|shorter|newer|older|after|before|"
    r"no|wrong|what|did|have|am|is that|was that)\b)[a-z0-9]"
)
"""Alternatives put to the user (``a condo or a townhouse``, ``plain, currency or something
else``): a choice asked for, not a value checked. Bounds (``$900 or less``) are none."""


def _offers_choice(
    canonical: str, asking: Sequence[tuple[int, int]], slots: Sequence[Slot], right: Sequence[str]
) -> bool:
    """Whether a sentence that asks offers alternatives (not inside a value it writes rightly).

    A value may hold ``or`` itself (``a co-op or multi-family``); its forms are taken out first.
    """
    for start, end in asking:
        clause = canonical[start:end]
        if "yes or no" in clause:
            continue
        clause = _NEGATED_PART.sub(" ", clause)  # not A or B
        for slot in slots:
            if slot.kind in right:
                for form in slot.forms():
                    if " or " in form:
                        clause = clause.replace(form, " ")
        if _CHOICE.search(clause):
            return True
    return False


def _generic(text: str) -> bool:
    """Whether normalized ``text`` asks for details as a whole (:data:`_GENERIC`)."""
    return _any(_GENERIC, text) or ("-" in text and _any(_GENERIC, text.replace("-", " ")))


def _asks_at_start(text: str) -> bool:
    """Whether ``text`` opens with a question or an imperative that asks."""
    head = _INTERJECTION.sub("", text)
    return bool(_WH.search(head) or _YES_NO_START.match(head) or _TELL_ME.match(head))


def _typed_kind(
    canonical: str, asking: Sequence[tuple[int, int]], slots: Sequence[Slot]
) -> str | None:
    """The task's one kind that answers a question's word (``where``: its one city), if any."""
    for start, end in asking:
        head = _ANSWER_WORD.match(_INTERJECTION.sub("", canonical[start:end]).strip())
        if head is None:
            continue
        owners = _owners(answer_key(head), [s.kind for s in slots])
        return owners[0] if len(owners) == 1 else None
    return None


def _owners(key: str, kinds: Sequence[str]) -> list[str]:
    """The kinds whose name holds a part that answers :data:`_ANSWER_TYPES` ``key``.

    ``where``: ``hotel_location``; ``search``: ``query``.
    """
    return [k for k in kinds if _ANSWER_TYPES[key] & set(k.split("_"))]


def question_parts(
    canonical: str, asking: Sequence[tuple[int, int]], commas: Sequence[int]
) -> list[tuple[int, int]]:
    """The parts of the asking sentences, cut at their commas and at each ``and``."""
    out: list[tuple[int, int]] = []
    for start, end in asking:
        cuts = [start, *(c for c in commas if start < c < end), end]
        for a, b in itertools.pairwise(cuts):
            low = a
            for part in _PART.split(canonical[a:b]):
                out.append((low, low + len(part)))
                low += len(part) + 3
    return out


def typed_kinds_of_parts(
    canonical: str,
    parts: Sequence[tuple[int, int]],
    slots: Sequence[Slot],
    named: Sequence[tuple[str, int]],
) -> tuple[str, ...]:
    """The kinds that the parts of a question answer by their question word alone.

    ``What's the OCR language, and what should I search videos for?``: the second part names no
    kind but asks what to search with, the task's one query. Each part (:func:`question_parts`)
    that opens with a question word and holds no kind's word (``named``: each named kind with
    where its word starts) gives its one owner.
    """
    found: list[str] = []
    kinds = {k for k, _ in named}
    for low, high in parts:
        if any(low <= at < high for _, at in named):
            continue  # "how many bedrooms": the part names its kind itself
        head = _ANSWER_WORD.match(_INTERJECTION.sub("", canonical[low:high]).strip())
        if head is None:
            continue
        owners = _owners(answer_key(head), [s.kind for s in slots])
        if len(owners) == 1 and owners[0] not in kinds | set(found):
            found.append(owners[0])
    return tuple(found)


_SEARCH_FRAME = compiled(
    r"\b(search|searching|look|looking)( \w+){0,2} for\b|\bquery( \w+){0,2} with\b"
    r"|\blook(ing)? up\b|\bmatching\b"
    r"|\bsearch (term|terms|text|string|phrase)\b|\bkeywords?\b"
)
"""A question about what to search with (``What ingredient should I search for?``)."""


def searched_with(message: str, present: Sequence[str]) -> str | None:
    """The task's one query kind, when ``message`` asks what to search with; else ``None``.

    A kind the task lacks named in such a question (``ingredient``, ``company name``) is what
    the search looks for: the task's query holds it.
    """
    if _SEARCH_FRAME.search(normalize(message)) is None:
        return None
    queries = _owners("search", present)
    return queries[0] if len(queries) == 1 else None


_PART = compiled(r"(?<= )and(?= )")


_IN_TERMS_OF = compiled(r"\b(in terms of|as in|meaning|i mean|i\.?e|that is|namely)\b")
"""What says which kinds a vague word before it means (``what size, in terms of bedrooms``)."""


def _asked_by_parts(
    canonical: str,
    asking: Sequence[tuple[int, int]],
    commas: Sequence[int],
    vocabulary: Vocabulary,
    slots: Sequence[Slot],
    found: _Slots,
    kinds: tuple[str, ...],
) -> tuple[str, ...]:
    """``kinds``, with what each part of a question of several parts asks by its form alone.

    A part's question word (``what should I search the videos for``: the query) and a trip's
    end a ``where`` part asks by its direction (``where's the bus going``: the destination).
    """
    if len(asking) + len(commas) + canonical.count(" and ") <= 1:
        return kinds
    parts = question_parts(canonical, asking, commas)
    kinds = (*kinds, *typed_kinds_of_parts(canonical, parts, slots, found.at))
    if vocabulary.pairs:
        kinds = _ends_of_parts(canonical, parts, vocabulary, slots, found.at, kinds)
    return kinds


def _ends_of_parts(
    canonical: str,
    parts: Sequence[tuple[int, int]],
    vocabulary: Vocabulary,
    slots: Sequence[Slot],
    at: Sequence[tuple[str, int]],
    kinds: tuple[str, ...],
) -> tuple[str, ...]:
    """``kinds``, with the end of a trip each ``where`` part of a question asks by its direction.

    ``Where's the bus going, and which room type?``: the destination. A date's word in a
    ``where`` part (``where does the cruise go``: ``go`` names the departure) is no date asked.
    """
    present = [s.kind for s in slots]
    out = list(kinds)
    for low, high in parts:
        inside = {k for k, p in at if low <= p < high}
        where = _WHERE_FIRST.match(canonical[low:high].strip()) is not None
        timed = {k for k in inside if {"date", "time", "day"} & set(k.split("_"))}
        if where and timed and inside == timed:
            elsewhere = {k for k, p in at if not low <= p < high}
            out = [k for k in out if k not in timed - elsewhere]
            inside = set()
        if not inside:
            end = direction_asked(canonical, [(low, high)], vocabulary, present)
            if end and end not in out:
                out.append(end)
    return tuple(out)


def _word_at(text: str, at: int) -> str:
    """The word of ``text`` that starts at ``at`` (up to the next space)."""
    end = text.find(" ", at)
    return text[at:] if end < 0 else text[at:end]


def _named_by_the_verb(canonical: str, found: _Slots, opening: str) -> set[str]:
    """The kinds a message names only by the verb the request opens with.

    ``Highlight the crab row the way I'll tell you``: in ``Should I highlight the entire row or
    just the cell?`` or ``So I'm formatting the header row, correct?`` the verb is the change
    asked for, not its detail (the colour, the format): no question about it.
    """
    head = normalized(opening).split()[:1]
    if not head or len(head[0]) < 4:
        return set()
    verb = head[0][:5]
    if re.search(rf"\b{re.escape(verb)}\w*\b.*\b(to|as|into|with|in)\b", canonical):
        return set()  # "renaming the Item column to Stock": a value follows the verb
    out: set[str] = set()
    for kind in {k for k, _ in found.at}:
        words = [_word_at(canonical, at) for k, at in found.at if k == kind]
        if words and all(w[:5] == verb and len(w) >= len(head[0]) for w in words):
            out.add(kind)
    return out


_ONLY_OPTIONS = compiled(
    r"\s*([^.?!,\n]{1,20},\s*){0,6}[^.?!,\n]{1,20},?\s+or\s+[^.?!,\n]{1,20}\?\s*"
)


def only_options(message: str) -> bool:
    """Whether ``message`` is nothing but options put to the user (``S, M, L or XL?``).

    Or a question followed by them alone (``Any colour preference? Transparent, black?``).
    """
    parts = _AFTER_QUESTION.split(message.strip())
    shape = _ONLY_OPTIONS if len(parts) == 1 else _LISTED_OPTIONS
    return (
        shape.fullmatch(parts[-1]) is not None and _NOT_AN_OPTION.search(parts[-1].lower()) is None
    )


_AFTER_QUESTION = compiled(r"(?<=\?)\s+")
_LISTED_OPTIONS = compiled(r"\s*([^.?!,\n]{1,20},\s*){1,6}[^.?!,\n]{1,25}\?\s*")
"""Options listed after a question, with or without ``or`` (``Transparent, black, bright?``)."""


def names_first(
    canonical: str, clause: tuple[int, int], found: _Slots, asked: Sequence[str]
) -> bool:
    """Whether a one-clause question opens by naming a detail it asks.

    ``Price range for the lavender shampoo?``, ``Any room type preference for the 5 rooms?``:
    the values after the word say which request it is about, not what to confirm.
    """
    start, end = clause
    words = [at for _, at in found.at if start <= at < end]
    if not words:
        return False
    first = min(words)
    opens = {kind for kind, at in found.at if at == first}
    return bool(opens & set(asked)) and _FILLER.match(canonical[start:first]) is not None


_BE_NAMED = compiled(
    r"^(?:what|how) (?:should|will|would|shall|do you want|would you like) (?:.+) be "
    r"(?=(?:called|named|titled|labelled|labeled|formatted|sorted|set)\b)"
)
"""``What should the new row be called?``: the predicate's word is asked, its subject is not."""
_SUBJECT_BE = compiled(
    r"^(?:should|will|would|shall|can|could|does|do|is|are) (?:the |its |this |that |your )"
    r"(?:[a-z]+ ){1,3}(?:be|look|appear|stay|sit) (?=(?:[a-z]+ed|bold|italic|visible|hidden|"
    r"larger|smaller|bigger|wider|narrower)$)"
)
"""A yes/no question about how its subject should be (``Should the title be centered?``)."""
_FOR_AT_END = compiled(r" for (?:the|this|that|your|each|every|a|an) (?:[a-z]+ ){0,2}[a-z]+$")
"""``What numbers go in Planned and Actual for the new entry?``: what the answer is for."""


def _context_kinds(canonical: str, found: _Slots, vocabulary: Vocabulary) -> set[str]:
    """The kinds a one-sentence open question names as its context, not as what it asks.

    The subject of ``what should <it> be called`` (only the name is asked) or of ``should the
    <it> be centered`` with no kind after it (the question is about how it is), and a kind named
    only in a closing ``for the ...`` after another kind's word (``What numbers go in Planned
    and Actual for the new entry?``), not by a weak word (:attr:`SlotKind.weak`).
    """
    if (m := _SUBJECT_BE.match(canonical)) is not None:
        after = {k for k, at in found.at if at >= m.end()}
        if not after:  # "Should the title be centered?": about the title, not asking it
            return {k for k, at in found.at if at < m.end()}
    if (m := _BE_NAMED.match(canonical)) is not None:
        after = {k for k, at in found.at if at >= m.end()}
        before = {k for k, at in found.at if at < m.end()}
        if after:
            return before - after
    if (m := _FOR_AT_END.search(canonical)) is not None:
        tail = {k for k, at in found.at if at >= m.start()}
        weak = {  # "name + details for the new row": a weak word there is still the values'
            k
            for k, at in found.at
            if at >= m.start() and any(canonical.startswith(w, at) for w in _weak(vocabulary, k))
        }
        tail -= weak
        head = {k for k, at in found.at if at < m.start()}
        if tail and head and not tail & head:
            return tail
    return set()


def _weak(vocabulary: Vocabulary, kind: str) -> tuple[str, ...]:
    """``kind``'s weak words, as messages are read."""
    return tuple(p for w in vocabulary[kind].weak if (p := _phrase(w)))


_PRONOUN_ASK = compiled(
    r"\b(paste|share|send|give|provide|type|enter|drop|tell me|let me know|post) (me )?"
    r"(it|them|that|those|this)\b"
    r"|^(which|what) (one|onepron) (should|do|would|shall|will|can)\b"
    r"|\b(set|put|make) (it|that|this|them) (to|at|as)\b|^how (many|much)$"
)
"""A request whose object is a pronoun: what it asks for is named in the sentence before."""


def asked_before(
    canonical: str, moods: Sequence[tuple[int, int, str]], found: _Slots
) -> list[tuple[int, int]]:
    """The sentence before a request that names no detail but asks for ``it``, if any."""
    out = []
    for i in range(1, len(moods)):
        start, end, mood = moods[i]
        if mood != REQUEST or not _PRONOUN_ASK.search(canonical[start:end]):
            continue
        if any(start <= at < end for _, at in found.at):
            continue
        before_start, before_end, _ = moods[i - 1]
        if any(before_start <= at < before_end for _, at in found.at):
            out.append((before_start, before_end))
    return out


def with_stand_ins(
    reading: Reading, vocabulary: Vocabulary, slots: Sequence[Slot], message: str
) -> Reading:
    """``reading`` with each kind the task lacks read as the one it stands in for (:func:`stand_in`).

    A question only (``when are you leaving?`` where the task books a hotel alone); what the
    reading asks and which kinds it writes values of are mapped the same way.
    """
    present = [s.kind for s in slots]
    # what the message searches with, and each kind's stand-in, read once (a long message names
    # many kinds); plain dicts, cheaper to make than functools caches at each message
    query: list[str | None] = []
    stood: dict[str, str] = {}

    def searched() -> str | None:
        if not query:
            query.append(searched_with(message, present))
        return query[0]

    def one(kind: str) -> str:
        other = stood.get(kind)
        if other is None:
            other = stood[kind] = stand_in(
                kind, vocabulary, slots, reading.kinds, message, searched
            )
        return other

    def standing(named: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(dict.fromkeys(one(k) for k in named))

    kinds = standing(reading.kinds)
    if kinds == reading.kinds or "?" not in message:
        return reading
    valued = None if reading.valued is None else standing(reading.valued)
    return dataclasses.replace(reading, kinds=kinds, asked=standing(reading.asked), valued=valued)


def stand_in(
    kind: str,
    vocabulary: Vocabulary,
    slots: Sequence[Slot],
    taken: Sequence[str],
    message: str,
    searched: Callable[[], str | None] | None = None,
) -> str:
    """The kind's stand-in in this task (the vocabulary's, else a present kind's part).

    The one present kind whose name has it as a part: "the URL" for ``image_url``, "the date"
    for ``start_date``; never one of the kinds already ``taken`` by the reading. ``searched``:
    :func:`searched_with`'s answer for the message and the task's kinds, where the caller keeps
    it.
    """
    present = [s.kind for s in slots]
    other = vocabulary.stand_in(kind, present)
    if other != kind or kind in present:
        return other
    parts = [k for k in present if kind in k.split("_") and k not in taken]
    if len(parts) == 1:
        return parts[0]
    shaped = shape_named(normalize(kind.replace("_", " ")), slots)  # "the email" as a host
    if shaped is not None and shaped not in taken:
        return shaped
    # "What ingredient should I search for?"
    query = searched() if searched is not None else searched_with(message, present)
    return query if query is not None and query not in taken else kind


_TERSE_CHOICE = compiled(r"(?:[a-z'-]+ ){0,2}[a-z'-]+ or (?:[a-z'-]+ ){0,2}[a-z'-]+")
"""Two options and nothing else (``whole bean or pre-ground``): a choice the request leaves open."""


_WANT_START = compiled(r"^(would you (like|prefer|want)|do you (want|need)|should i|shall i)\b")
"""A yes/no question about what the user wants done (not ``Do you use Excel or Sheets?``)."""


def unnamed_question(
    message: str,
    text: str,
    canonical: str,
    asking: Sequence[tuple[int, int]],
    moods: Sequence[tuple[int, int, str]],
    slots: Sequence[Slot],
    vocabulary: Vocabulary,
    opening: str,
    tagged: bool,
    confirming: bool,
) -> Reading:
    """What a question that names no detail of the task by a word asks.

    A detail its form or answer type points at (``Where will you be starting your journey
    from?``, ``the link?``); nothing (``Do you need a specific brand?``, ``Whole bean or
    pre-ground?``, ``Should it also be sulfate-free?``: the user has no preference); the
    restated request (``So you want to save a cat pic, right?``); or small talk.

    Args:
        message: the agent's message as read.
        text: its normalized form.
        canonical: its canonical form, what the agent tells of itself blanked.
        asking: the spans of ``canonical`` that ask.
        moods: each sentence's span and mood.
        slots: the task's slots.
        vocabulary: the family's vocabulary.
        opening: the user's request.
        tagged: whether the message ends with a tag (``right?``).
        confirming: whether it asks for a confirmation.
    """
    heads = [_INTERJECTION.sub("", canonical[s:e]) for s, e in asking]
    personal = _PERSONAL.search(canonical) is not None
    typed = _typed_kind(canonical, asking, slots)
    if typed is None and vocabulary.pairs:
        typed = direction_asked(canonical, asking, vocabulary, [s.kind for s in slots])
        if typed is not None:  # "Where will you be starting your journey from?"
            return Reading(ASK, (typed,), (), True, (typed,))
    if typed is None and any(m == REQUEST for *_, m in moods):
        typed = shape_named(" ".join(canonical[s:e] for s, e in asking), slots)  # "the link?"
        if typed is not None:
            return Reading(ASK, (typed,), (), True, (typed,))
    if typed is not None and _TASK_FRAME.search(text):
        return Reading(ASK, (typed,), (), True, (typed,))  # "Where are the stations located?"
    if not personal and any(_PREFERENCE.match(h) for h in heads):
        return Reading(ASK, (), (), True)  # "Do you need a specific brand?": no preference
    if not personal and _FOR_THE_TASK.search(text):
        return Reading(ASK, (), (), True)  # "Any pets I should account for when filtering?"
    if any(_PREFER.match(h) for h in heads):
        shared = request_words(message) & request_words(opening) - {"you", "prefer", "rather"}
        if shared:  # "a pullover hoodie or a zip-up?"
            return Reading(ASK, (), (), True)
    if message.strip().endswith("?") and _TERSE_CHOICE.fullmatch(text):
        return Reading(ASK, (), (), True)  # "Whole bean or pre-ground?": an option it lacks
    topic = request_words(opening) - {"you", "like", "want", "prefer"}
    if not personal and any(
        _WANT_START.match(h) and _OR_BETWEEN.search(h) and request_words(h) & topic for h in heads
    ):
        return Reading(ASK, (), (), True)  # "Would you like the newest or oldest favourites?"
    if not personal and any(_ALSO.match(h) for h in heads):
        return Reading(ASK, (), (), True)  # "Should it also be sulfate-free?"
    shared = request_words(message) & request_words(opening) - {"you", "want", "like"}
    if (tagged or confirming) and shared:
        return Reading(CHECK, (), (), True, (), True)  # "So you want to save a cat pic, right?"
    return Reading(OFF_TOPIC, (), (), True)
