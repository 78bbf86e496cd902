"""Readings of how a message writes a value: bounds, units, directions, parts, names and shapes.

Each case is a message written for one stored task, in wording of its own (not the question
set's), and the reading a person would give it. Asks: the longest qualifier picks, two close
words of one quantity narrow each other, a counted noun names its count, the last noun of a
compound is the detail, a quoted value of the request is no guess. Checks: a value written as
the other bound, in another unit or currency, with its comparison or its operands the other
way, or with a labelled part's number swapped is wrong, and the user says which.
"""

from __future__ import annotations

import pytest

from toolgym.simulators.user import RuleUser, read_message

_YES = {"yes", "yep", "correct", "exactly", "right"}


@pytest.mark.parametrize(
    ("family", "task", "message", "kinds"),
    [
        # "lower limit" is the minimum's, not the cap's "limit" inside it
        ("home", "test-024", "Do you have a lower limit on the price, nothing cheaper than some figure?",
         ("min_price",)),
        # "the most ... pay" (a cap) and "per night" (a room price): the room's cap
        ("trip", "test-049", "What is the most you would pay for each room per night?",
         ("max_room_price",)),
        # a counted noun after "number of" names its count
        ("cat", "test-081", "Number of photos you want?", ("limit",)),
        # the last noun of a compound is the detail asked
        ("rapid", "G3-u19", "Which artist/song query do you want me to run?", ("query",)),
        # chat spellings in every clause
        ("home", "test-030", "whats the top price u would pay for the orlando home?", ("max_price",)),
        # "(in/out)" after dates asks both ends of the stay
        ("trip", "test-096", "What dates (in/out) do you need?", ("checkin_date", "checkout_date")),
        # RapidAPI's date words name the start and end dates, picked by "from"/"begin"
        ("rapid", "G3-022", "From which date should the price history begin?", ("start_date",)),
        # the subject of "what should ... be named" is context
        ("sheets", "test-066", "What should the added row be named?", ("name",)),
        # how the subject should look asks no detail
        ("sheets", "test-009", "Should the title be capitalized?", ()),
        # a word of three kinds, in a task of a hotel alone: the hotel's city
        ("trip", "test-070", "Which city should I look in?", ("hotel_location",)),
        # a cruise's end named by its port, children by another word
        ("trip", "test-073", "Which port will the ship leave from?", ("origin",)),
        ("trip", "test-073", "How many little ones are travelling?", ("num_children",)),
        # a question of where asks no new values (the row's numbers are what is placed)
        ("sheets", "test-024", "Where in the sheet does the new row belong?", ("cell",)),
        # a request for "it" asks what the sentence before it names
        ("cat", "test-083", "To register it I need the picture's identifier. Can you send it over?",
         ("image",)),
        # "okay" that ends a clause is no confirmation tag
        ("home", "test-080", "For the house search, what is the longest commute that would be okay?",
         ("max_commute_time",)),
        # a lone bound's threshold
        ("rapid", "G2-155", "What magnitude threshold should the quake search use?",
         ("min_magnitude",)),
        # options listed after the question, with no "or"
        ("cat", "test-036", "Any format preference? Static, animated, something else?",
         ("mime_types",)),
    ],
)  # fmt: skip
def test_what_is_asked(chat_families, family, task, message, kinds) -> None:
    vocabulary, conversations = chat_families[family]
    conversation = conversations[task]
    reading = read_message(message, vocabulary, conversation.slots, conversation.opening)
    assert reading.kind == "ask" and set(reading.kinds) == set(kinds), reading


@pytest.mark.parametrize(
    ("family", "task", "message", "revealed"),
    [
        # the task's cap (1,800) written as a minimum
        ("home", "test-096", "To confirm, a condo or apartment to rent in St. Louis with a minimum "
         "rent of $1,800?", ("max_price",)),
        # 26 ounces written in pounds
        ("shop", "test-054", "So a chocolate high-protein trail mix, 26 pounds, under $60?",
         ("size",)),
        # a price in another currency
        ("shop", "test-020", "A black queen bed frame with steel slats for at most 340 euros, right?",
         ("price",)),
        # a held format in another currency
        ("sheets", "test-011", "So the Salary column goes to euros with two decimals, right?",
         ("format",)),
        # labelled parts with their numbers swapped (planned 860, actual 1279)
        ("sheets", "test-066", "Adding Education below Clothing, planned 1279 and actual 860. Right?",
         ("value",)),
        # a ticker in capitals where the task's is another
        ("rapid", "G3-022", "So I'll pull MSFT's daily prices for 2024-01-01 to 2024-06-30, ok?",
         ("symbol",)),
        # a country after "filtered to": the task's one place
        ("rapid", "G1-124", "Team search for 'real madrid', filtered to Italy. Correct?",
         ("country",)),
        # a measure in the size's own unit (14 inch in the task), a listed size with no word
        ("shop", "test-004", "Those 20 inch extensions, correct?", ()),
        ("shop", "test-006", "So a brown hoodie in small, right?", ("size",)),
        # a name the task has no place for but the one it leaves out (the city, Mumbai)
        ("rapid", "G3-u22", "I'll get the SkyFeed forecasts for Lisbon, okay?", ("city",)),
        # the task's day in another year (November 30, 2027)
        ("trip", "test-070", "Checking in Nov 30, 2028, yes?", ("checkin_date",)),
        # a short id alone beside a right value (the task's is 0d3); a vote as a verb
        ("cat", "test-061", "Remove 9x7 from your favourites, right?", ("image",)),
        ("cat", "test-056", "Downvoting image Dfv6t9OPI, yes?", ()),
        # two bounds, or two dates, each written under the other's label
        ("home", "test-031", "Minimum 2,500 dollars and maximum 1,800 dollars, right?",
         ("min_price", "max_price")),
        ("trip", "test-070", "So check-in Dec 10 and check-out Nov 30, 2027?",
         ("checkin_date", "checkout_date")),
        # a day before its month, in another year; a width and a length swapped
        ("trip", "test-070", "So you're checking in on 30 November 2026?", ("checkin_date",)),
        ("shop", "test-048", "Curtains 63 wide by 42 long, right?", ("size",)),
        # a range's two ends for a pair of bounds (the task's cap is 500)
        ("rapid", "G2-012", "For Barterview, a price range of $93 to $600, right?", ()),
        # the value the request quotes for another lookup, under the held one's lookup
        ("rapid", "G2-132", 'Reportmouth topics with country code "SE", right?', ("country",)),
    ],
)  # fmt: skip
def test_a_wrongly_written_value_is_corrected(
    chat_families, family, task, message, revealed
) -> None:
    vocabulary, conversations = chat_families[family]
    turn = RuleUser().reply(conversations[task], vocabulary, (), message)
    first = turn.reply.split()[0].strip(".,!:").lower()
    assert turn.kind == "check" and first not in _YES, turn
    assert set(revealed) <= set(turn.revealed), turn


@pytest.mark.parametrize(
    ("family", "task", "message"),
    [
        # a condition the other way round is wrong; the right one is not
        ("sheets", "test-060", "Quantity set to 0 where unit cost is below 13, right?"),
        # the request's own second value (country code "US") beside a summary of the lookups
        ("rapid", "G2-030", "So: Tariff Zone's plan type and currency, then GridPrime with "
         "country code US for its provider. Right?"),
        # a cell's present number is no proposed value
        ("sheets", "test-001", "So Quinn's Years (now at 17) goes up by the percentage you give, "
         "correct?"),
        # comparisons written as symbols
        ("sheets", "test-060", "quantity = 0 where unit cost < 13, yes?"),
    ],
)  # fmt: skip
def test_a_right_check_is_confirmed_and_reveals_nothing(
    chat_families, family, task, message
) -> None:
    vocabulary, conversations = chat_families[family]
    turn = RuleUser().reply(conversations[task], vocabulary, (), message)
    first = turn.reply.split()[0].strip(".,!:").lower()
    assert turn.kind == "check" and first in _YES and not turn.revealed, turn


def test_a_condition_the_other_way_round_is_wrong(chat_families) -> None:
    vocabulary, conversations = chat_families["sheets"]
    message = "Quantity set to 0 where unit cost is above 13, right?"  # below 13 in the task
    turn = RuleUser().reply(conversations["test-060"], vocabulary, (), message)
    assert turn.kind == "check" and turn.reply.split()[0].strip(".,!:").lower() not in _YES, turn


def test_bold_marks_and_a_further_question_read_as_plain_text(chat_families) -> None:
    vocabulary, conversations = chat_families["cat"]
    turn = RuleUser().reply(
        conversations["test-068"],
        vocabulary,
        (),
        "**Quick check:** add ckNcJAgK1 to the favourites?",
    )
    assert turn.kind == "check" and turn.reply.split()[0].strip(".,!:").lower() in _YES, turn
    vocabulary, conversations = chat_families["rapid"]
    reading = read_message(
        "Is there anything further I should know?",
        vocabulary,
        conversations["G1-042"].slots,
        conversations["G1-042"].opening,
    )
    assert reading.kind == "more", reading


def test_a_name_the_task_cannot_place_is_a_guess_without_the_request(chat_families) -> None:
    """A name after a preposition is the left-out detail's only in a check of the request."""
    vocabulary, conversations = chat_families["rapid"]
    turn = RuleUser().reply(conversations["G3-u22"], vocabulary, (), "Is it for Lisbon?")
    assert "Mumbai" not in turn.reply and "city" not in turn.revealed, turn
