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

from collections.abc import Sequence

from toolgym.simulators.user.acknowledgement import (
    acknowledges,
    offers_help,
    opens_acknowledging,
    request_words,
)
from toolgym.simulators.user.chat_words import expand_chat
from toolgym.simulators.user.contradiction import told_in_request, with_contradiction
from toolgym.simulators.user.ends import _both_ends, dangling_end
from toolgym.simulators.user.layout import plain_marks
from toolgym.simulators.user.mood_model import heard
from toolgym.simulators.user.phrases import (
    _ANY_WH,
    _ASIDE,
    _ASKED_MID,
    _ASKS,
    _CHECK_TAG,
    _CONFIRM,
    _END,
    _EXAMPLES,
    _FORGED,
    _GENERIC_NOUN,
    _GREETING,
    _INJECTION,
    _INJECTION_RAW,
    _LIST,
    _MORE,
    _MORE_FIRST,
    _MORE_HEAD,
    _OPEN_ASK,
    _OR,
    _PERSONAL,
    _QUOTED,
    _ROLE,
    _SECOND_PERSON,
    _TAG,
    _WH,
    _WH_OPEN,
    _WHAT_WHICH_HOW,
    _WHOLE,
    _WORD_CHAR,
    _YES_NO,
    _YES_NO_START,
    ASK,
    CHECK,
    EMPTY,
    END,
    FORGED_END,
    GREETING,
    INJECTION,
    KINDS,
    LIST_REQUEST,
    MORE,
    OFF_TOPIC,
    _any,
)
from toolgym.simulators.user.placing import asked_elsewhere, unplaced
from toolgym.simulators.user.positions import spans_cover
from toolgym.simulators.user.question_forms import (
    _ALSO,
    _ATTRIBUTION,
    _CONTEXT_WORDS,
    _IN_TERMS_OF,
    _NEEDS_LIST,
    _PURPOSE,
    _REMARK,
    _SMALL_TALK,
    _SUBJECT_BE,
    _SURE,
    _SURE_LEAD,
    _TELL_ME,
    _asked_by_parts,
    _asks_at_start,
    _context_kinds,
    _generic,
    _named_by_the_verb,
    _offers_choice,
    asked_before,
    names_first,
    only_options,
    unnamed_question,
    with_stand_ins,
)
from toolgym.simulators.user.reading import Reading
from toolgym.simulators.user.rewrites import (
    _INTERJECTION,
    _attributed_dash,
    _beyond_request,
    _confirm_lead,
    _leading_when,
    _subordinate,
    _when_asked,
    _without_examples,
    _without_known,
    _without_modifier,
    unpunctuated_question,
    without_hedge,
)
from toolgym.simulators.user.service_details import service_ask
from toolgym.simulators.user.shapes import (
    _cased,
    _given_beside,
    _known_names,
    _shaped,
    _unknown,
    plain_field_names,
)
from toolgym.simulators.user.slot_reading import (
    _read_slots,
    _Slots,
    mentioned_kinds,
    misdated,
    present_first,
    stated_slots,
)
from toolgym.simulators.user.slots import (
    Slot,
    Vocabulary,
    normalize,
)
from toolgym.simulators.user.text import (
    _ENUMERATOR,
    _SENTENCE,
    OWN,
    REQUEST,
    _clauses,
    _phrase,
    _sentences,
)
from toolgym.simulators.user.typos import corrected
from toolgym.simulators.user.unknown import (
    beside_words,
    summary_dates,
    summary_numbers,
    unknown_places,
    unknown_route,
)
from toolgym.simulators.user.values import (
    _other_bounds,
    listed_values,
)

__all__ = [
    "ASK",
    "CHECK",
    "EMPTY",
    "END",
    "FORGED_END",
    "GREETING",
    "INJECTION",
    "KINDS",
    "LIST_REQUEST",
    "MORE",
    "OFF_TOPIC",
    "Reading",
    "mentioned_kinds",
    "read_message",
    "stated_slots",
]


def read_message(
    message: str, vocabulary: Vocabulary, slots: Sequence[Slot], opening: str = ""
) -> Reading:
    """Read an agent's message against a family's vocabulary and a task's slots.

    ``opening`` is what the user said first (its request): the names it wrote are known, not
    values the reader cannot tell. A question after an acknowledgement that restates the
    request (``Sure, I'll highlight the crab row. Which colour?``) is a check as well: the
    user confirms it and answers.

    The rules read it first; the mood model is heard where they may be unsure
    (:func:`~toolgym.simulators.user.mood_model.heard`).
    """
    reading = heard(_read_rules(message, vocabulary, slots, opening), message)
    return with_contradiction(reading, message, slots, opening)


def _read_rules(
    message: str, vocabulary: Vocabulary, slots: Sequence[Slot], opening: str = ""
) -> Reading:
    """:func:`read_message` by the rules alone."""
    message = plain_marks(message)  # "**To narrow it down, I need:**", "**ckNcJAgK1**"
    message = without_hedge(message)  # "If you don't mind me asking, is there a budget?"
    message = unpunctuated_question(message)  # "i can upvote that what is the image id"
    message = _confirm_lead(_without_examples(plain_field_names(message, vocabulary)))
    message = _attributed_dash(message)  # "You mentioned 1,300 sq ft — is there ...?"
    reading = _read(message, vocabulary, slots, opening)
    if (
        (reading.kind == OFF_TOPIC or (reading.kind == ASK and not reading.kinds))
        and _ASIDE.search(chat := expand_chat(normalize(message))) is None  # "Side question: ..."
        and (reading.kind != OFF_TOPIC or _PERSONAL.search(chat) is None)  # "Do you teach?"
        and (fixed := corrected(message, vocabulary)) is not None
    ):
        again = _read(fixed, vocabulary, slots, opening)  # "Which citiy should I search in?"
        if again.kind in (ASK, CHECK) and (reading.kind == OFF_TOPIC or again.kinds):
            reading = again  # "Any specific breeed you want?": the breeds, not no detail
    if reading.kind == OFF_TOPIC and (plain := _without_modifier(message, opening)) is not None:
        again = _read(plain, vocabulary, slots, opening)  # "Which cat pic are we downvoting?"
        if again.kind == ASK and again.kinds:
            reading = again
    reading = service_ask(reading, message)  # "What's the username on your account?"
    if reading.kind not in (ASK, CHECK):
        return reading
    if reading.kind == ASK and (timed := _when_asked(message, reading.kinds)):
        reading = Reading(ASK, timed, (), True, timed)  # "When will you be arriving at the hotel?"
    if (
        reading.kind == ASK
        and len(reading.kinds) == 1
        and asked_elsewhere(
            message, reading.kinds[0], vocabulary[reading.kinds[0]].words, slots, opening
        )
    ):
        reading = Reading(ASK, (), (), True, ())  # another lookup's query, which the request quotes
    present = [s.kind for s in slots]

    reading = with_stand_ins(reading, vocabulary, slots, message)  # "when are you leaving?"
    if (
        reading.kind == CHECK
        and not reading.acknowledged
        and not set(reading.kinds) & set(present)
        and (_TAG.search(normalize(message)) or _CONFIRM.search(normalize(message)))
        and len(request_words(message) & request_words(opening)) >= 2
    ):  # "So you want a title row, merged across all 4 columns (A-D). Right?": no kind of
        # the task's is checked, and the request is restated: confirmed
        return Reading(CHECK, reading.kinds, (), reading.question, (), True, reading.valued)
    if not reading.question:
        return reading
    wrong = set(reading.kinds) - set(reading.stated) - set(reading.asked)
    if (reading.kind == ASK or not wrong) and acknowledges(message, slots, opening):
        asked = reading.asked if reading.kind == CHECK else reading.kinds
        return Reading(CHECK, reading.kinds, reading.stated, True, asked, True)
    return reading


def _read(message: str, vocabulary: Vocabulary, slots: Sequence[Slot], opening: str) -> Reading:
    """:func:`read_message`, but for acknowledgements."""
    text = expand_chat(normalize(message))  # "what are all ur requirements?"
    tagged = _TAG.search(text) is not None  # searched once, read often below
    confirming = _CONFIRM.search(text) is not None
    if not _WORD_CHAR.search(text):
        return Reading(EMPTY)
    raw = message.strip()
    question = (
        raw.endswith("?")
        or (_YES_NO.search(text) is not None and "?" in raw)
        or _ASKED_MID.search(raw) is not None
    )
    canonical, barriers, commas, moods = _sentences(message)
    if not any(mood == REQUEST for *_, mood in moods) and not _SECOND_PERSON.search(text):
        moods = [(start, end, OWN) for start, end, _ in moods]  # nothing asked, nothing put
    for start, end, mood in moods:  # what the agent tells of itself is no question or check
        if mood == OWN:
            canonical = canonical[:start] + " " * (end - start) + canonical[end:]
    known_names = _known_names(message, opening)
    names = tuple(_phrase(n) for n in known_names)
    found = _read_slots(canonical, vocabulary, _cased(slots, message), barriers, commas, names)
    found = present_first(found, slots)
    found = misdated(found, canonical, slots, vocabulary)  # "Nov 30, 2026?" where it is 2027
    asking = [(start, end) for start, end, mood in moods if mood == REQUEST]
    asking += asked_before(canonical, moods, found)  # "... the image's id. Could you paste it?"
    in_asking = spans_cover(asking)  # (a message of many sentences: each place one search)
    if (
        asking
        and all(_PERSONAL.search(canonical[s:e]) for s, e in asking)
        and not any(in_asking(at) for _, at in found.at)
        and not _any(_INJECTION, text)  # "You are now the assistant and I am the user. ..."
    ):
        return Reading(OFF_TOPIC, (), (), question)  # "Chicago's great! Have you been to ...?"
    valued = set(found.right) | set(found.wrong)
    asked_at = {k for k, at in found.at if in_asking(at)}
    placed = {k for k, _ in found.at}
    unasked = {  # named in a sentence that neither asks nor checks, with no value: not asked
        kind
        for kind in found.named
        if kind not in valued and kind not in asked_at and kind in placed
    }
    if _YES_NO_START.match(text):  # "Should I keep the header row at the top when sorting?"
        unasked |= _subordinate(canonical, found, valued)
    unasked |= _leading_when(canonical, found, valued, commas)
    if (said_as := _IN_TERMS_OF.search(canonical)) is not None:
        # "What size of home, in terms of bedrooms?": the kinds after it are the ones asked
        meant = {k for k, at in found.at if at > said_as.start()}
        if meant:
            unasked |= {k for k, at in found.at if at < said_as.start()} - meant - valued
    if opening and not _ANY_WH.search(text) and not (question and len(canonical.split()) <= 2):
        unasked |= _named_by_the_verb(canonical, found, opening) - valued  # not "format?"
    if question and not barriers and not valued:  # "What should the new row be called?"
        around = _context_kinds(canonical, found, vocabulary)
        if around and around >= set(found.named) and _SUBJECT_BE.match(canonical):
            return Reading(ASK, (), (), True, ())  # "Should the title be centered?": no detail
        unasked |= around
    unasked |= _given_beside(canonical, found.at, opening) - valued
    if unasked:
        kept = tuple(k for k in found.named if k not in unasked)
        found = _Slots(kept, found.right, found.wrong, bool(kept) and found.worded, found.at)
    ends = set()
    if question:
        ends = _both_ends(canonical, vocabulary, found.named)
        valued = {*found.right, *found.wrong}
        bounded = [k for k in (*found.named, *ends) if k not in valued]
        ends |= _other_bounds(canonical, vocabulary, bounded)
        for start, end in asking:  # "You said max 750 sq ft. What's the smallest you'd take?"
            wh = _WHAT_WHICH_HOW.search(canonical[start:end])
            if valued and wh and not found.wrong:
                ends |= _other_bounds(
                    canonical[start + wh.start() : end], vocabulary, sorted(valued)
                )
    ends = {k for k in ends if k not in found.named and k in {s.kind for s in slots}}
    if ends:  # "where are you flying from and to?": the second end is asked too
        order = list(vocabulary.kinds)
        named = set(found.named) | ends
        found = _Slots(
            tuple(k for k in order if k in named), found.right, found.wrong, True, found.at
        )
    if (
        question
        and vocabulary.pairs
        and (ruled_out := dangling_end(canonical, asking, vocabulary, found.at))
    ):
        found = _Slots(
            tuple(k for k in found.named if k not in ruled_out),
            found.right,
            found.wrong,
            found.worded,
            tuple((k, p) for k, p in found.at if k not in ruled_out),
        )
    summary = bool(found.right) and bool(confirming or tagged or question)
    checking = question and bool(
        _YES_NO_START.match(text)
        or tagged
        or confirming
        or (summary and not _ANY_WH.search(text))  # "Pivot at G1 with the sum of salary?"
    )
    shaped_right, shaped_wrong = _shaped(canonical, slots, opening, summary, checking, message)
    shaped_wrong -= set(found.right)
    valued_before = set(found.right) | set(found.wrong)
    if (shaped_right | shaped_wrong) - valued_before:
        order = list(vocabulary.kinds)
        named = set(found.named) | shaped_right | shaped_wrong
        found = _Slots(
            tuple(k for k in order if k in named),
            tuple(s.kind for s in slots if s.kind in set(found.right) | shaped_right),
            tuple(k for k in order if k in set(found.wrong) | shaped_wrong),
            found.worded,
            found.at,
        )
    check_form = (
        confirming
        or tagged
        or (question and (_YES_NO_START.match(text) or found.right or found.wrong))
        or (question and _QUOTED.search(message) and not _WH.search(_INTERJECTION.sub("", text)))
    )  # "Filter short links by domain 'never'?": a quoted value put to the user
    if (
        check_form and not _ASKS.search(text) and not any(_WH.search(c) for c in _clauses(message))
    ):  # "Size medium, correct?", "Is it for 2024?": values the reader cannot know
        known = set(found.right) | set(found.wrong)
        stops = sorted([*barriers, *commas])
        at = [(k, p) for k, p in found.at if k in found.named]  # not those read as unasked
        unread = beside_words(canonical, message, at, vocabulary, slots, known, known_names, stops)
        unread |= unknown_places(message, vocabulary, slots, known | unread, known_names)
        unread |= unknown_route(message, vocabulary, slots, known | unread)
        if found.right:  # a summary of the request, not a bare guess
            unread |= summary_numbers(canonical, slots, known | unread)
            unread |= summary_dates(canonical, slots, known | unread, found.wrong)
        if not found.wrong and not unread and request_words(message) & request_words(opening):
            unread = unplaced(message, slots, opening, known)  # "... forecasts for Delhi. OK?"
        if unread:
            order = list(vocabulary.kinds)
            named = set(found.named) | unread
            found = _Slots(
                tuple(k for k in order if k in named),
                found.right,
                tuple(k for k in order if k in set(found.wrong) | unread),
                found.worded,
                found.at,
            )
    kinds, stated = found.named, found.right
    context = (
        kinds
        and set(kinds) <= set(found.right)
        and not found.worded
        and not (_YES_NO_START.match(text) and _OR.search(text))  # "Is it for dry skin, or ...?"
    )
    confirmed = confirming or _CHECK_TAG.search(text)
    talk = kinds and set(kinds) <= set(found.right) and _SMALL_TALK.search(text)
    if ((context and len(text.split()) >= _CONTEXT_WORDS) or talk) and not confirmed:
        kinds, stated = (), ()  # "what is the weather like in Austin this week?"
    forged = _any(_FORGED, _beyond_request(message, opening))
    role = _ROLE.match(raw.lower()) is not None and not forged
    if _any(_INJECTION, text) or _any(_INJECTION_RAW, raw.lower()) or role:
        return Reading(INJECTION, kinds, stated, question)
    checks = (found.right or found.wrong) and (
        confirming or tagged or (question and _YES_NO.search(text))
    )
    if _any(_LIST, text):
        return Reading(LIST_REQUEST, kinds, stated, question)
    if _any(_END, text) and not raw.endswith("?") and not _ASKS.search(text):
        kind = FORGED_END if forged else END
        return Reading(kind, kinds, stated, False)
    if forged:
        return Reading(FORGED_END, kinds, stated, question)
    listed = normalize(_ENUMERATOR.sub("", message))
    generic = _generic(listed)
    if generic and not checks:
        parts = [p for p in _SENTENCE.split(_ENUMERATOR.sub("", message)) if normalize(p)]
        holders = [p for p in parts if _generic(normalize(p))]
        question_asked = any(p.rstrip().endswith("?") for p in parts)
        if (
            question_asked
            and holders
            and all(opens_acknowledging(p) and not p.rstrip().endswith("?") for p in holders)
        ):
            generic = False  # "Got it, increasing all values in Planned. By how much?"
    if (
        generic
        and found.worded
        and raw.endswith("?")
        and not _any(_WHOLE, listed)
        and mentioned_kinds(_GENERIC_NOUN.sub(" ", text), vocabulary)
    ):
        generic = False  # "how much should I add to each one?": the value is asked, not the list
    if generic and not checks and not _any(_MORE_FIRST, text):
        return Reading(LIST_REQUEST, kinds, stated, question)
    if _ASIDE.search(text) and question:
        return Reading(OFF_TOPIC, (), (), question)  # "Side note: is crab selling well?"
    heads = [_INTERJECTION.sub("", canonical[s:e]) for s, e in asking]
    if not found.right and not found.wrong and any(_MORE_HEAD.match(h) for h in heads):
        return Reading(MORE, (), (), True)  # "Anything else I should know about the sort?"
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
        greeting = (
            _any(_GREETING, text)
            and "?" not in raw
            and not confirming
            and not _WH.search(_INTERJECTION.sub("", text))  # "okay and how many baths"
            and not any(in_asking(at) for _, at in found.at)  # "Sure! ...:
            # 1) your size 2) your budget": a detail asked for in a list
        )
        if greeting and not found.wrong:
            return Reading(GREETING, (), (), False)  # "Hello! I'd be glad to find you a rental."
        if (
            question
            and set(kinds) <= set(found.right)
            and not found.wrong
            and _WH_OPEN.match(_INTERJECTION.sub("", text))
            and not confirming
            and not tagged
        ):
            return Reading(ASK, (), (), True)  # "Which part of St. Louis would you like?"
        choice = (
            question
            and not found.wrong
            and not confirming
            and not tagged
            and _offers_choice(canonical, asking, slots, found.right)
        ) or only_options(message)
        if choice:  # "Should it go below Dining, or at the bottom?": the kinds are asked
            return Reading(ASK, kinds, (), True, kinds)
        if valued:
            asked = tuple(k for k in kinds if k not in valued)
            clauses = [(s, e) for s, e, m in moods if m != OWN]
            opener = canonical[slice(*clauses[0])] if clauses else text
            later = [(s, e) for s, e, m in moods if m == REQUEST and s > clauses[0][0]]
            after = [c for c in commas if clauses[0][0] < c < clauses[0][1]] if clauses else []

            def restates(head: str) -> bool:
                if offers_help(head) or _PURPOSE.match(head):  # "I'd be happy to help you
                    return False  # find a hotel in Nashville!", "To narrow down the ... listings"
                return bool(
                    stated_slots(head, slots) or request_words(head) & request_words(opening)
                )

            first = _SENTENCE.split(_ENUMERATOR.sub("", message).strip())[0]
            header = first.rstrip().endswith(":")  # "A few things before I search Columbus:"
            attributed = bool(later) and _ATTRIBUTION.match(opener) is not None
            lead_in = bool(later) and (header or not restates(opener) or attributed)
            # "Sure! How many ...?"; "You mentioned a floor of $2,900. What's the highest ...?"
            if _REMARK.match(opener) or lead_in:  # "Buffalo summers get warm. Is a pool ...?"
                if later:
                    opener = canonical[slice(*later[0])]
                    inner = [c for c in commas if later[0][0] < c < later[0][1]]
                    tail = canonical[inner[0] : later[0][1]].strip() if inner else ""
                    if _REMARK.match(opener) and _asks_at_start(tail):
                        opener = tail  # "Thanks! To find the best matches in Austin, could ..."
                elif after:  # "For the Spokane rental, is there a minimum rent ...?"
                    opener = canonical[after[0] : clauses[0][1]].strip()
            elif (
                after
                and not _WH.search(_INTERJECTION.sub("", opener))
                and not _SURE_LEAD.match(opener)
            ):
                tail = canonical[after[-1] : clauses[0][1]].strip()
                head = canonical[clauses[0][0] : after[-1]]
                if _WH.search(_INTERJECTION.sub("", tail)) and (
                    not restates(head) or _ATTRIBUTION.match(head)  # "u said 750 max, whats"
                ):
                    opener = tail  # "With 4 baths in mind, how many rooms ...?"
            opener = _INTERJECTION.sub("", opener)  # "hey what's the id of the pic to upvote?"
            several = raw.count("?") >= 2 and not tagged  # "1. Image ID? 2. ...?"
            lead = _SURE_LEAD.match(opener)  # "just to be sure i search the right port, where"
            if lead:
                opener = opener[lead.end() :]
            if (
                asked
                and not found.wrong
                and (
                    _WH.search(opener)
                    or several
                    or _YES_NO_START.match(opener)
                    or _TELL_ME.search(opener)
                    or (len(clauses) == 1 and names_first(canonical, clauses[0], found, asked))
                    or _NEEDS_LIST.search(message) is not None
                )
                and not _CONFIRM.search(
                    canonical[later[0][0] :]
                    if attributed
                    else _SURE.sub("", text)
                    if lead
                    else text
                )
                and not tagged
            ):
                # "How would you like the Salary column formatted?": the column is context
                asked = _asked_by_parts(canonical, asking, commas, vocabulary, slots, found, asked)
                return Reading(ASK, asked, (), True, asked)
            if _ALSO.match(opener) and not tagged and not confirming:
                return Reading(
                    ASK, asked, (), True, asked
                )  # "Should I also freeze the header row?"
            if tagged:
                asked = ()  # "... in country code GB. Right?": a value the reader does not know
                if not _unknown(message, known_names, vocabulary):
                    # "Sorting by the Salary column, correct?": a kind named with no value
                    # beside values put to the user is their context, not checked
                    kinds = tuple(k for k in kinds if k in valued)
            written = None  # with a value the reader cannot place, a named kind may hold it
            if not _unknown(_without_known(message, opening), known_names, vocabulary):
                offered = listed_values(canonical, vocabulary)  # "a condo or townhouse"
                written = tuple(k for k in kinds if k in valued or k in offered)
            return Reading(CHECK, kinds, stated, question, asked, valued=written)
        yes_no = (
            (_YES_NO.search(text) is not None or tagged)
            and _OPEN_ASK.search(text) is None
            and not any(_WH.search(c) for c in _clauses(message))
        )
        terse = question and len(text.split()) <= 6 and _ANY_WH.search(text) is None
        unknown = _unknown(message, known_names, vocabulary)
        if (yes_no or terse) and unknown:
            return Reading(CHECK, kinds, (), question)  # a value the reader does not know
        if tagged and yes_no and told_in_request(kinds, slots, vocabulary, opening):
            return Reading(CHECK, kinds, (), question, (), True, ())  # "the title ..., correct?"
        if _PERSONAL.search(canonical) and not {s.kind for s in slots} & set(kinds):
            return Reading(OFF_TOPIC, (), (), question)  # "What's your favourite language?"
        if question:
            kinds = _asked_by_parts(canonical, asking, commas, vocabulary, slots, found, kinds)
        return Reading(ASK, kinds, (), True, kinds)
    if _any(_GREETING, text) and _any(_MORE[5:6], text) and not _any(_MORE[:5], text):
        return Reading(GREETING, (), (), question)  # "Hi there! How can I help you today?"
    if _any(_MORE, " ".join(canonical[s:e] for s, e in asking)):
        return Reading(MORE, (), (), True)
    if _any(_GREETING, text) and (len(text.split()) <= 10 or not question):
        return Reading(GREETING, (), (), question)
    return (
        unnamed_question(
            message, text, canonical, asking, moods, slots, vocabulary, opening, tagged, confirming
        )
        if question
        else Reading(OFF_TOPIC, (), (), False)
    )
