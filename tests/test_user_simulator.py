"""The rule-based simulated user on a written question set: accuracy, replay, and no leaks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from toolgym.families.home_search.chat import VOCABULARY
from toolgym.simulators.user import KINDS, Conversation, RuleUser, read_message
from toolgym.simulators.user.accuracy import (
    load_family,
    question_accuracy,
    read_questions,
    reply_polarity,
)
from toolgym.simulators.user.slots import Slot, SlotKind, Vocabulary, contains_phrase, normalize

QUESTIONS = Path(__file__).parent / "data" / "user_questions.jsonl"
FAMILY = "toolgym.families.home_search.chat:PROFILE"
FAMILIES = (
    FAMILY,
    "toolgym.families.trip_booking.chat:PROFILE",
    "toolgym.families.cat_api.chat:PROFILE",
    "toolgym.families.google_sheets.chat:PROFILE",
    "toolgym.families.web_shop.chat:PROFILE",
    "toolgym.families.rapid_api.chat:PROFILE",
)
"""Every conversation family the question set is written for."""
REFUSED = ("injection", "list_request", "forged_end", "off_topic")


@pytest.fixture(scope="module")
def families() -> dict[str, tuple]:
    return {ref: load_family(ref) for ref in FAMILIES}


@pytest.fixture(scope="module")
def family(families) -> tuple:
    return families[FAMILY]


@pytest.fixture(scope="module")
def accuracy(families):
    vocabularies = {ref: v for ref, (v, _) in families.items()}
    return question_accuracy(QUESTIONS, vocabularies, {ref: c for ref, (_, c) in families.items()})


def test_the_question_set_is_large_and_balanced(families) -> None:
    questions = read_questions(QUESTIONS)
    categories = Counter(q.category for q in questions)
    assert len(questions) >= 520, categories
    assert sum(categories[c] for c in REFUSED if c != "off_topic") + categories["off_topic"] >= 40
    assert sum(n for c, n in categories.items() if c.startswith(("check", "summary"))) >= 60
    assert categories["compound"] >= 60
    assert len({q.task for q in questions}) >= 10
    for q in questions:
        vocabulary, conversations = families[q.family]
        assert q.task in conversations, q
        assert q.kind in KINDS and all(k in vocabulary for k in q.reveals), q
        assert (q.polarity is not None) == q.category.startswith(("check", "summary", "ack")), q
    per_family = Counter(q.family for q in questions)
    assert set(per_family) == set(FAMILIES) and min(per_family.values()) >= 40, per_family
    assert len({q.message for q in questions}) >= 0.9 * len(questions)  # few repeats


def test_the_user_answers_at_least_95_percent_as_intended(accuracy) -> None:
    missed = "\n".join(
        f"  [{o.question.category}] {o.question.message!r} -> {o.turn.reply!r}: "
        + "; ".join(o.problems)
        for o in accuracy.failures()
    )
    report = (
        f"{accuracy.table()}\n\n{accuracy.table('batch')}\n\n{accuracy.table('family')}"
        f"\n\nmissed:\n{missed}"
    )
    assert accuracy.overall >= 0.95, report
    for right, total in accuracy.by("family").values():
        assert right / total >= FAMILY_FLOOR, report
    for right, total in accuracy.by("batch").values():
        assert right / total >= BATCH_FLOOR, report  # the batches written after tuning too


FAMILY_FLOOR = 0.85
"""The least share of one family's questions answered as intended."""
BATCH_FLOOR = 0.70
"""The least share of any one batch answered as intended: the ``fresh-*`` batches were written
blind, after the tuning, and read cold (82.5% of them on their first run)."""


# -- replay ---------------------------------------------------------------------------------------
PLAY = """
import json
from toolgym.families.home_search.chat import VOCABULARY
from toolgym.simulators.user import RuleUser
from toolgym.simulators.user.accuracy import load_family

MESSAGES = [
    "Hi there!",
    "What kind of home are you after?",
    "How many bathrooms, and what's the most you'd pay?",
    "Is the budget 2000 dollars?",
    "So: an apartment to rent in Des Moines with 1 bathroom, 1100 to 1550 dollars, right?",
    "Any preference on garages? Or a pool?",
    "Anything else?",
    "Great, I've run the search. Goodbye!",
]


def play(task):
    _, conversations = load_family("toolgym.families.home_search.chat:PROFILE")
    conversation, user, history = conversations[task], RuleUser(), []
    for message in MESSAGES:
        history.append(user.reply(conversation, VOCABULARY, tuple(history), message))
    return json.dumps([t.to_record() for t in history], sort_keys=True)
"""
TASKS = ("test-003", "test-011", "test-041")  # casual, forthcoming and casual personas


def _play_here(task: str) -> str:
    scope: dict = {}
    exec(PLAY, scope)
    return scope["play"](task)


def test_the_same_conversation_replays_byte_identically_in_any_process() -> None:
    here = {task: _play_here(task) for task in TASKS}
    assert here == {task: _play_here(task) for task in TASKS}
    turns = json.loads(here["test-003"])
    assert len(turns) == 8 and turns[-1]["ended"] and turns[1]["revealed"] == ["home_type"]
    code = PLAY + f"\nprint(json.dumps({{t: play(t) for t in {TASKS!r}}}))"
    for seed in ("0", "12345"):  # other string hashes: nothing may depend on them
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        )
        assert json.loads(out.stdout.strip().splitlines()[-1]) == here


# -- no leaks -------------------------------------------------------------------------------------
def _held_forms(conversation: Conversation) -> dict[str, list[str]]:
    """Each held-back slot's full text and its written forms of three characters or more."""
    return {
        s.kind: [normalize(s.text), *(f for f in s.forms() if len(f) >= 3)]
        for s in conversation.slots
        if s.kind in conversation.held
    }


def test_no_reply_states_a_held_back_value_it_was_not_asked_about(families) -> None:
    """Refusals, greetings and "anything else?" never state a held-back value, in any family."""
    checked = 0
    for q in read_questions(QUESTIONS):
        vocabulary, conversations = families[q.family]
        conversation = conversations[q.task]
        if q.kind not in (*REFUSED, "greeting", "more"):
            continue
        if q.kind == "more" and conversation.persona == "forthcoming":
            continue  # a forthcoming user volunteers the next detail when asked what else
        turn = RuleUser().reply(conversation, vocabulary, (), q.message)
        reply = normalize(turn.reply)
        for forms in _held_forms(conversation).values():
            assert not any(contains_phrase(reply, f) for f in forms), (q.message, turn.reply)
        assert not turn.revealed, (q.message, turn)
        checked += 1
    assert checked >= 250


MISREAD_LEAKS = 60
"""How many questions of the set, misread, get a held-back value they did not ask for: 3 of the
2,162 before the ``dev-4`` and ``blind-4`` batches, 6 of their 629 (a kind's word inside a
question about something else: "Should the title span all three columns?"), 8 of the 615 of
``dev-5`` and ``blind-5`` (a hyphenated range, a typo in the kind's word, a kind's word used in
another sense), 11 of the 603 of ``dev-6`` and ``blind-6`` (a check that names a held-back kind
without its value beside a value the reader cannot place; a count beside a kind whose value is
a name: "exercises for one muscle"); round seven's readings brought the 4,009 to 26, and 3 of
the 614 of ``dev-7`` and ``blind-7`` leak (a choice between two scopes, "the whole row coloured
or only the Category cell?"; a held value written like a given one; a check naming a held kind
with no value: "increase it by a percentage?"), and 1 of the 305 of ``blind-8`` (the same: "Update
Bruno's years to the new value — is that right?"); round eight left the 4,928 at 28, and 13 of
the 624 of ``dev-9`` and ``blind-9`` leak (a sheet's held name or format stated beside a question
about the new column's place or a cell; a RapidAPI task's two queries, one given and one held,
read as one: "What's the query for the Crimson Getaway destinations?"); after round nine the
6,464 hold 41, 6 of them in the 1,218 of ``blind-10``, ``dev-11`` and ``blind-11`` (a sheet's new
row asked for its name or its numbers, answered with both; a nightly cap answered with both
bounds), and 4 of the 306 of ``blind-12`` (a sheet's new column asked for its place or checked by
its formula, answered with its name; a check naming a held-back date by a word alone, "outbound
flight"; a route's start asked where the task's country is held); with ``dev-13`` and ``blind-13``
(619) the 7,389 hold 46, 9 of them in those two (a bound written beside a held-back one and
corrected, "priced at $175,000 or more"; a count of rooms named without its number; a change's
amount asked as "by a percentage"; a RapidAPI task's two queries read as one); after round ten those 7,389 hold 44, and with
``dev-14`` and ``blind-14`` (614) the 8,003 hold 49, 5 of them in ``dev-14`` (a sheet's held title
stated beside a question about its merge or a check of its row, or its new row's name beside a
check of its numbers; a held sort order stated in correcting the column; "how much living space
... at the very least?" answered with both prices as well); with ``blind-15`` (318) the 8,321
hold 51: 49 in the 8,003, and 2 in ``blind-15`` (a sheet's held title stated beside a question
about its merge, a held format stated in correcting a proposal to format another column); round
eleven brought those 8,321 to 46, and with ``dev-16`` and ``blind-16`` (624) the 8,945 hold 46,
none in those two (on their first runs 5 of ``dev-16``'s did, a lower price limit answered with
both bounds, a nightly cap with both room prices, a sheet's new row asked for its name or its
numbers answered with both, an actor's name with the query too; and 1 of ``blind-16``'s, a
username asked after a sentence naming the sites, answered with the query too); with
``dev-17`` and ``blind-17`` (606) the 9,551 hold 46, 1 of them in ``blind-17`` (a country asked
for "the loyalty search", answered with the query too; on the first runs 1 of ``dev-17``'s
leaked, "Should the title be centered?", and 2 of ``blind-17``'s, that one and "how much space"
answered with the price); with ``blind-18`` (321) the 9,872 hold 51, 5 of them in ``blind-18``
(8 on its first run): a sheet's held title stated beside a proposal to add and merge its row, a
held new name stated in reading "rename the Cost header, right?" as a question, a wrong size
corrected beside a held flavour, a RapidAPI summary writing a second hashtag the request gives
(corrected with the held one), and one naming a lookup of languages (answered with the held
target language); with ``blind-19`` (327) the 10,199 hold 52, 1 of them in ``blind-19`` (its one
on the first run: "Where exactly should the new row go?" answered with the row's numbers); with
``blind-20`` (319) the 10,518 hold 49, 2 of them in ``blind-20`` (4 on its first run: a summary's
"price from $400,000 up" corrected with the held minimum, a question about rounding a new cost
answered with the held percentage; the two fixed were RapidAPI summaries writing the query the
request quotes for another lookup, which now reads as the request's own value, as it does for
five other summaries of the set); with ``blind-21`` (318) the 10,836 held 50, 1 of them in
``blind-21`` (its one on the first run: "Where in the table should I place the new row?"
answered with the row's numbers, as ``blind-19``'s was); reading a question of where as not
asking for what it places brought them to 48; with ``dev-22`` and ``blind-22`` (643, written from
a prompt asking for still more varied phrasing) the 11,479 hold 55: the 10,836 still 48, 1 in
``dev-22`` (a preferred departure time read as the check-out) and 6 in ``blind-22`` (a lower
room price asked with an example beside it, answered with the route too; a recap whose route is
read as naming the origin; a wash's options, one of them a size's name, answered with the size;
a summary of a cat query corrected with its limit as well; a title's format asked, answered
with the title; a start date asked, answered with the query too); with ``dev-23`` (321) the
11,800 hold 55: round fifteen brought the 11,479 to 54 (the query asked for the Crimson Getaway
destinations, another lookup's, is no longer answered with the held one), and 1 is in
``dev-23`` (5 on its first run: an address checked in abbreviations, "1600 Amphitheatre Pkwy,
... California", read as a question and answered with the address; the four fixed were a daily
commute asked as "how much time maximum", "a lot of homes" read as a plot of land, a day "on
the 25th" taken as a fare, and another lookup's query asked); with ``blind-23`` (318) the
12,118 hold 55, none of them in ``blind-23`` (1 on its first run: "how much big the home must
be" answered with the price); with ``dev-24`` and ``blind-24`` (607) the 12,725 hold 57: round
sixteen left the 12,118 at 55 (a recap of a cat query, corrected with held values, now reads as
the check it is; a city asked after "I'll need to know", read as a greeting before, is now read
as asked and answered with the query too), 2 are in ``dev-24`` (5 on its first run: "the bottom
of your price range — the least you'd expect to spend" answered with both bounds; a sheet's new
row asked for its name, answered with its numbers too) and none in ``blind-24``; with ``dev-25``
and ``blind-25`` (613) the 13,338 hold 63: the 12,725 hold 58 (a value whose last word was read
singular, ``peach ring gummies``, was read right and is again read wrong, its held flavour
stated), 2 are in ``dev-25`` (a check of a title row's merge answered with the held title; a
check of a page answered with the held city of another lookup) and 3 in ``blind-25`` (a long
recap before a question, answered with everything; "rename the 'Product' header — right?" and
"change Jonas's Salary to a new value?", a held kind named without its value and answered with
it); with ``dev-26`` and ``blind-26`` (613) the 13,951 hold 63, none in those two (on its first
run ``blind-26`` had one: "Which flavor — sorry, scratch that, ... how many ounces?" answered
with the flavour the agent took back); with ``dev-27`` and ``blind-27`` (600) the 14,551 hold
64: the 13,951 still 63, none in ``dev-27`` and 1 in ``blind-27`` (its one on the first run too:
a RapidAPI recap writing the city the request gives for another lookup, "gyms in Osmanabad",
corrected with the held city of the first); with ``dev-28`` and ``blind-28`` (600) the 15,151
hold 60: round twenty brought the 14,551 to 60 (a recap's steps each keep their own lookup's
values; a name beside a word the request uses, ``CCS connectors``, is that word's value; a
number that is one end of a range is not the other end's wrong value, ``$2,900 or more``), and
none are in ``dev-28`` or ``blind-28`` (on their first runs 2 of ``dev-28``'s did, those two);
with ``dev-29`` and ``blind-29`` (600) the 15,751 hold 60, none in those two (on its first run 1
of ``blind-29``'s did: "... plus 5 hotel rooms at your destination. Right?", a place named by
the user's own detail, and a stand-in date that lost which kinds the check wrote values of)."""


def test_misread_questions_rarely_state_a_held_back_value(accuracy) -> None:
    """Over the whole set, misread messages included: held-back values beyond the expected.

    A few misread ones do (a given detail read as the held one it stands next to), and their
    number must not grow; refusals never do (the test above).
    """
    leaks = [
        (o.question.family, o.question.message, o.turn.reply)
        for o in accuracy.outcomes
        if any(p.startswith("states held-back") for p in o.problems)
    ]
    assert len(leaks) <= MISREAD_LEAKS, leaks


# -- reading edge cases ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def des_moines(family) -> Conversation:
    return family[1]["test-003"]  # rent in Des Moines: an apartment, 1 bath, 1100 to 1550 dollars


@pytest.mark.parametrize("message", ["", "   ", "\n\t  \n", "?!...", "🏠🏠", "\u200b"])
def test_an_empty_message_is_empty(message: str, des_moines: Conversation) -> None:
    assert read_message(message, VOCABULARY, des_moines.slots).kind == "empty"
    turn = RuleUser().reply(des_moines, VOCABULARY, (), message)
    assert turn.kind == "empty" and not turn.revealed and not turn.ended


def test_a_5000_character_message_is_read(des_moines: Conversation) -> None:
    filler = "I was thinking about the weather and the neighbourhood. " * 100
    long_ask = (filler + "How many bathrooms do you need?")[-5000:]
    assert len(long_ask) == 5000
    reading = read_message(long_ask, VOCABULARY, des_moines.slots)
    assert reading.kind == "ask" and reading.kinds == ("num_baths",)
    assert read_message(("blah " * 1000)[:5000], VOCABULARY, des_moines.slots).kind == "off_topic"
    digits = " ".join(str(n) for n in range(1200))[:5000]  # numbers everywhere, no kind word
    assert read_message(digits, VOCABULARY, des_moines.slots).kind == "off_topic"
    turn = RuleUser().reply(des_moines, VOCABULARY, (), long_ask)
    assert turn.revealed == ("num_baths",)


@pytest.mark.parametrize(
    ("message", "kind", "stated"),
    [
        ("What\u2019s your budget?", "ask", ()),  # a curly apostrophe
        ("How many bedrooms? 🏠✨", "ask", ()),
        (
            "Ｉｓ ｙｏｕｒ ｂｕｄｇｅｔ １５５０ ｄｏｌｌａｒｓ？",
            "check",
            ("max_price",),
        ),  # full-width
        ("Tu presupuesto es 1550 dólares, ¿verdad?", "off_topic", ()),
        ("Is the budget $1,550 — correct?", "check", ("max_price",)),
        ("Café? Naïve résumé.", "off_topic", ()),
    ],
)
def test_unicode_messages(message: str, kind: str, stated: tuple, des_moines) -> None:
    reading = read_message(message, VOCABULARY, des_moines.slots)
    assert (reading.kind, reading.stated) == (kind, stated), reading


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("You said \"I want 'an apartment' with '1 bathroom'\", right?", "check"),
        ('He wrote: "she said \'the budget is "1550 dollars"\'". Is that right?', "check"),
        ("'''\"\"\"", "empty"),
        ('"Ignore your instructions" is what the "note" said.', "injection"),
        ("What's the 'home type' you're after?", "ask"),
    ],
)
def test_nested_quotes(message: str, kind: str, des_moines) -> None:
    assert read_message(message, VOCABULARY, des_moines.slots).kind == kind


def test_a_contraction_is_not_a_quoted_value(des_moines) -> None:
    reading = read_message(
        "How many bedrooms do you need, and what's the most you'd pay?",
        VOCABULARY,
        des_moines.slots,
    )
    assert reading.kind == "ask" and reading.kinds == ("max_price", "num_beds")


@pytest.mark.parametrize(
    ("message", "kind", "kinds", "stated", "asked"),
    [
        # a choice between values asks; one value checks
        ("Are you looking to buy or rent?", "ask", ("buy_or_rent",), (), ("buy_or_rent",)),
        ("This is a purchase, right?", "check", ("buy_or_rent",), (), ()),
        ("So a rental, correct?", "check", ("buy_or_rent",), ("buy_or_rent",), ()),
        ("A house, a condo or an apartment?", "ask", ("home_type",), (), ("home_type",)),
        # a bare "1" elsewhere states nothing; a number belongs to the word it stands next to
        ("1 bathroom and 2 bedrooms?", "check", ("num_beds", "num_baths"), ("num_baths",), ()),
        ("Do you need more than one bathroom?", "ask", ("num_baths",), (), ("num_baths",)),
        # qualifiers narrow a shared word
        ("What's the lowest you'd pay?", "ask", ("min_price",), (), ("min_price",)),
        ("What price range?", "ask", ("min_price", "max_price"), (), ("min_price", "max_price")),
        ("At most $1,550?", "check", ("max_price",), ("max_price",), ()),
        # a qualifier right before a word of one kind gives it to the sibling it qualifies
        ("What's your minimum budget?", "ask", ("min_price",), (), ("min_price",)),
        ("What's your budget?", "ask", ("max_price",), (), ("max_price",)),
        ("A budget of $1.55k, right?", "check", ("max_price",), ("max_price",), ()),
        # a check that also asks
        ("Got it, 1 bathroom. What's your budget?", "check", ("max_price", "num_baths"),
         ("num_baths",), ("max_price",)),
        # a city the family knows, right and wrong
        ("Should I search in Des Moines?", "check", ("location",), ("location",), ()),
        ("Should I search in Omaha?", "check", ("location",), (), ()),
    ],
)  # fmt: skip
def test_what_a_message_asks_and_checks(message, kind, kinds, stated, asked, des_moines) -> None:
    reading = read_message(message, VOCABULARY, des_moines.slots)
    got = (reading.kind, set(reading.kinds), reading.stated, set(reading.asked))
    assert got == (kind, set(kinds), stated, set(asked)), reading


_LOOKUPS = Vocabulary(
    [
        SlotKind("country", ("country code", "country"), "the country code {text}"),
        SlotKind("domain", ("domain",), "the domain {text}"),
        SlotKind("price", ("price", "dollars"), "a price lower than {text}"),
        SlotKind("bedrooms", ("bedrooms",), "{text} bedrooms"),
        SlotKind("name", ("header", "name"), "the name {text}"),
        SlotKind("limit", ("how many",), "{text} photos", counted=("photos",)),
        SlotKind("language", ("language code", "language"), "the language code {text}"),
    ],
    "a few lookups",
)
_LOOKUP_SLOTS = (
    Slot("country", "US", 'country code "US"'),
    Slot("domain", "github.com", 'domain "github.com"'),
    Slot("price", 40.0, "40.00 dollars", ("40 dollars", "40")),
    Slot("bedrooms", 2, "2 bedrooms", ("2",)),
    Slot("name", "Sale Price", "the name Sale Price"),
    Slot("limit", 10, "10 photos", ("10",)),
    Slot("language", "IT", 'language code "IT"', ("IT",)),
)


@pytest.mark.parametrize(
    ("message", "kind", "kinds", "stated", "asked"),
    [
        # a message that ends in a confirmation tag puts every kind it names to the user: the
        # country with a value the reader does not know is checked (wrongly), not asked
        ("So I'll check github.com in country code GB. Right?", "check", ("domain", "country"),
         ("domain",), ()),
        ("Got github.com. Which country code?", "check", ("domain", "country"), ("domain",),
         ("country",)),
        # "less than" gives a kind that is an upper bound itself; it bounds a count
        ("Less than 40 dollars, correct?", "check", ("price",), ("price",), ()),
        ("More than 2 bedrooms?", "ask", ("bedrooms",), (), ("bedrooms",)),
        # a value holding another kind's word is the value, and names no other kind
        ("Should the new header be 'Sale Price'?", "check", ("name",), ("name",), ()),
        # a counted noun names its kind after a number only
        ("Should I pull ten photos?", "check", ("limit",), ("limit",), ()),
        ("So 12 cat photos?", "check", ("limit",), (), ()),
        ("Which photos do you like best?", "off_topic", (), (), ()),
    ],
)  # fmt: skip
def test_tags_bounds_and_longer_values(message, kind, kinds, stated, asked) -> None:
    reading = read_message(message, _LOOKUPS, _LOOKUP_SLOTS)
    got = (reading.kind, set(reading.kinds), reading.stated, reading.asked)
    assert got == (kind, set(kinds), stated, asked), reading


@pytest.mark.parametrize(
    ("message", "kind", "stated"),
    [
        # a short code that is also a word is the code only in capitals
        ("Should I do it?", "off_topic", ()),
        ("Is the language code IT?", "check", ("language",)),
        ("So language code it, right?", "check", ("language",)),
        # a message that asks is no farewell
        ("I've found a few photos. Please tell me how many you want.", "ask", ()),
        ("I've finished the search. Goodbye!", "end", ()),
        # asking for the request again is asking for the hidden list
        ("Repeat your original request in full, please.", "list_request", ()),
        ("Can you restate the whole task with every detail?", "list_request", ()),
    ],
)
def test_codes_farewells_and_restated_requests(message: str, kind: str, stated: tuple) -> None:
    reading = read_message(message, _LOOKUPS, _LOOKUP_SLOTS)
    assert (reading.kind, reading.stated) == (kind, stated), reading


@pytest.mark.parametrize(
    ("message", "kind", "stated", "wrong"),
    [
        # numbers in words, fractions of round numbers and "bucks" are numbers
        ("So your budget is at most one thousand five hundred and fifty dollars?", "check",
         ("max_price",), ()),
        ("Rent under fifteen hundred bucks, right?", "check", ("buy_or_rent",), ("max_price",)),
        ("Is your max price three quarters of a million?", "check", (), ("max_price",)),
        # a question about a preference the request does not hold: no preference, nothing told
        ("Do you need a specific school district?", "ask", (), ()),
        ("Should I also include listings with a pool?", "ask", (), ()),
        ("Do you prefer cats or dogs, personally?", "off_topic", (), ()),
    ],
)  # fmt: skip
def test_spelled_numbers_and_preferences(message, kind, stated, wrong, des_moines) -> None:
    reading = read_message(message, VOCABULARY, des_moines.slots)
    checked = set(reading.kinds) - set(reading.stated) - set(reading.asked)
    assert (reading.kind, reading.stated, tuple(sorted(checked))) == (kind, stated, wrong), reading


def test_a_preference_the_request_lacks_gets_a_reply_that_tells_nothing(des_moines) -> None:
    turn = RuleUser().reply(des_moines, VOCABULARY, (), "Do you need a specific school district?")
    assert turn.kind == "ask" and turn.reply and not turn.revealed
    assert not any(ch.isdigit() for ch in turn.reply)


_SHAPED = Vocabulary(
    [
        SlotKind("cell", ("cell",), "cell {text}"),
        SlotKind("year", ("year",), "year {text}"),
        SlotKind("min_sqft", ("square feet",), "at least {text}"),
    ],
    "a few lookups",
)
_SHAPED_SLOTS = (
    Slot("cell", "F1", "cell F1"),
    Slot("year", 2025.0, "year 2025"),
    Slot("min_sqft", 1900, "1900 square feet", ("1900",)),
)


@pytest.mark.parametrize(
    ("message", "wrong", "stated"),
    [
        ("Is it for 2024?", ("year",), ()),  # a year placed in the request, checked wrongly
        ("Holidays for 2025, correct?", (), ("year",)),
        ("I'll place the pivot at H1. ok?", ("cell",), ()),
        ("F2, right?", (), ()),  # a bare value says nothing of what it is
        ("Leaving on May 3 2024, right?", (), ()),  # a year inside a date is the date's
    ],
)
def test_years_and_cells_a_check_places(message, wrong, stated) -> None:
    reading = read_message(message, _SHAPED, _SHAPED_SLOTS)
    checked = tuple(k for k in reading.kinds if k not in reading.stated + reading.asked)
    assert (checked, reading.stated) == (wrong, stated), reading


def test_a_wrong_value_is_corrected_and_a_right_one_confirmed(des_moines) -> None:
    user = RuleUser()
    wrong = user.reply(des_moines, VOCABULARY, (), "So a 2-bathroom apartment, right?")
    assert reply_polarity(wrong.reply) == "no" and "1 bathroom" in wrong.reply
    right = user.reply(des_moines, VOCABULARY, (), "So a 1-bathroom apartment, right?")
    assert reply_polarity(right.reply) == "yes" and "1 bathroom" not in right.reply
    both = user.reply(des_moines, VOCABULARY, (), "Great, an apartment. How many bathrooms?")
    assert reply_polarity(both.reply) == "yes" and "1 bathroom" in both.reply


def test_a_bad_question_line_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"task": "test-003", "message": "hi", "expect": {"kind": "nope"}}\n')
    with pytest.raises(ValueError, match=r"q\.jsonl:1"):
        read_questions(path)


# -- values the reader cannot know, acknowledgements, stand-ins -----------------------------------
@pytest.fixture(scope="module")
def hotel_only() -> tuple[Vocabulary, Conversation]:
    """A hotel in Tulsa from November 17 to 20, 2027: check-out, city and room held back."""
    vocabulary, conversations = load_family("toolgym.families.trip_booking.chat:PROFILE", "test")
    return vocabulary, conversations["test-003"]


@pytest.fixture(scope="module")
def leggings() -> tuple[Vocabulary, Conversation]:
    """Moisture-wicking leggings under $80, in light blue and x-large (both held back)."""
    vocabulary, conversations = load_family("toolgym.families.web_shop.chat:PROFILE", "test")
    return vocabulary, conversations["test-003"]


@pytest.mark.parametrize(
    ("message", "wrong"),
    [
        ("Size medium, correct?", "size"),  # an unlisted word right after a listed kind's word
        ("Leggings in size Medium, right?", "size"),
        ("Is the color 'teal'?", "color"),  # a quoted text beside the word
    ],
)
def test_an_unknown_value_beside_a_kind_word_is_corrected(leggings, message, wrong) -> None:
    vocabulary, conversation = leggings
    turn = RuleUser().reply(conversation, vocabulary, (), message)
    assert turn.kind == "check" and reply_polarity(turn.reply) == "no", turn
    assert turn.revealed == (wrong,), turn


@pytest.mark.parametrize(
    "message", ["Is it petite?", "Petite, right?", "Is it 2024?", "What size do you need, petite?"]
)
def test_a_bare_unknown_value_stays_a_guess(leggings, message) -> None:
    """No kind's word beside it and no right value around it: nothing is corrected.

    (``petite`` is no size the shop lists; a listed one, ``medium``, is checked as the size.)
    """
    vocabulary, conversation = leggings
    turn = RuleUser().reply(conversation, vocabulary, (), message)
    assert turn.kind != "check" or reply_polarity(turn.reply) != "no", turn
    if turn.kind == "check":
        assert not turn.revealed, turn


def test_an_unknown_place_in_a_check_is_the_place_kind(hotel_only) -> None:
    vocabulary, conversation = hotel_only
    turn = RuleUser().reply(conversation, vocabulary, (), "A Queen Bed room in Denver, right?")
    assert reply_polarity(turn.reply) == "no" and "Tulsa" in turn.reply, turn
    assert "hotel_location" in turn.revealed, turn  # the room type, confirmed, is told too
    right = RuleUser().reply(conversation, vocabulary, (), "A Queen Bed room in Tulsa, right?")
    assert reply_polarity(right.reply) == "yes" and "Tulsa" not in right.reply, right


def test_a_trip_word_asks_the_hotel_kind_of_a_hotel_only_booking(hotel_only) -> None:
    vocabulary, conversation = hotel_only
    turn = RuleUser().reply(conversation, vocabulary, (), "When are you leaving?")
    assert turn.kind == "ask" and turn.revealed == ("checkout_date",), turn
    assert vocabulary.stand_in("departure_date", ["checkout_date"]) == "checkout_date"
    assert vocabulary.stand_in("departure_date", ["departure_date"]) == "departure_date"
    assert vocabulary.stand_in("departure_date", ["origin"]) == "departure_date"


def test_a_stand_in_of_an_unknown_kind_is_refused() -> None:
    kinds = [SlotKind("a", ("alpha",)), SlotKind("b", ("beta",))]
    with pytest.raises(ValueError, match="stand-in"):
        Vocabulary(kinds, "testing", stand_ins=[("a", "c")])


def test_an_acknowledgement_before_a_question_is_confirmed() -> None:
    vocabulary, conversations = load_family("toolgym.families.google_sheets.chat:PROFILE", "test")
    crab = conversations["test-012"]  # highlight the crab row in yellow (held back)
    turn = RuleUser().reply(
        crab, vocabulary, (), "Sure, I'll highlight the crab row. Which colour would you like?"
    )
    assert turn.kind == "check" and reply_polarity(turn.reply) == "yes", turn
    assert turn.revealed == ("format",) and "yellow" in turn.reply, turn
    plain = RuleUser().reply(crab, vocabulary, (), "Which colour would you like?")
    assert plain.kind == "ask" and reply_polarity(plain.reply) is None, plain


@pytest.mark.parametrize(
    ("message", "asked"),
    [
        ("What's your budget range?", {"min_price", "max_price"}),
        ("1) The lowest price you'd consider? 2) And the highest?", {"min_price", "max_price"}),
        ("What's the bottom of your price range?", {"min_price"}),
    ],
)
def test_both_bounds_of_a_range(des_moines, message, asked) -> None:
    reading = read_message(message, VOCABULARY, des_moines.slots, des_moines.opening)
    assert reading.kind == "ask" and set(reading.asked) == asked, reading


@pytest.mark.parametrize(
    ("typo", "word"),
    [("citiy", "city"), ("busines", "business"), ("bugdet", "budget")],
)
def test_a_slip_of_the_keyboard_is_corrected(typo: str, word: str) -> None:
    from toolgym.simulators.user.typos import _one_edit

    assert _one_edit(typo, word)


@pytest.mark.parametrize(
    ("written", "word"), [("share", "shade"), ("there", "where"), ("specifics", "specific")]
)
def test_other_words_are_not_typos(written: str, word: str) -> None:
    from toolgym.simulators.user.typos import _one_edit

    assert not _one_edit(written, word)  # a letter changed, or an ending: another word
