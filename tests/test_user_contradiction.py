"""A check that restates the request as something else is corrected; a service's detail is asked."""

from __future__ import annotations

import pytest

from toolgym.simulators.user import RuleUser
from toolgym.simulators.user.accuracy import load_family, reply_polarity
from toolgym.simulators.user.contradiction import contradicts_request, restated

SHEETS = "toolgym.families.google_sheets.chat:PROFILE"
CATS = "toolgym.families.cat_api.chat:PROFILE"
TABLE = """Clear the actual of Utilities.

| Category | Planned | Actual |
| --- | --- | --- |
| Rent | 1200 | 1250 |
| Utilities | 300 | 280 |
| Dining | 400 | 520 |"""


@pytest.fixture(scope="module")
def sheets():
    return load_family(SHEETS)


@pytest.fixture(scope="module")
def cats():
    return load_family(CATS)


@pytest.mark.parametrize(
    ("message", "contradicts"),
    [
        ("I'll clear the Planned amount for Utilities - correct?", True),  # another column
        ("I'll clear the Actual amount for Dining - correct?", True),  # another row
        ("I'll clear the Actual amount for Utilities - correct?", False),
        ("So: the Actual of Utilities (280 now) goes blank. Right?", False),
        ("Clearing Utilities' actual; Rent and Dining stay as they are. OK?", False),  # context
        ("So you want me to delete the whole table, right?", False),  # the same action
        ("So you want me to add a new row for Utilities, right?", True),  # another action
    ],
)
def test_what_contradicts_a_request_with_a_table(message: str, contradicts: bool) -> None:
    assert contradicts_request(message, TABLE) is contradicts


@pytest.mark.parametrize(
    ("message", "opening", "contradicts"),
    [
        ("You want me to delete all your favourites, correct?", "Show me my favourites.", True),
        ("So you'd like me to upvote it, right?", "Which images are in my favourites?", True),
        ("You want me to pull up your favourites, right?", "Get all my favourites.", False),
        ("I'll add 10 to each Planned value, OK?", "Increase all values in Planned.", False),
        ("So I'll search rentals in Tulsa, right?", "I'm looking for a home in Tulsa.", False),
        ("I'll filter by price, ok?", "I'm looking for a home in Tulsa.", False),
    ],
)
def test_what_contradicts_a_request_by_its_action(
    message: str, opening: str, contradicts: bool
) -> None:
    assert contradicts_request(message, opening) is contradicts


def test_the_user_says_no_and_restates_the_request(cats, sheets) -> None:
    vocabulary, tasks = cats
    favourites = tasks["test-085"]  # "I'd like to go through my favourite cat pictures."
    message = "Understood - you'd like me to delete all of your favourite cat pictures. Correct?"
    turn = RuleUser().reply(favourites, vocabulary, (), message)
    assert turn.kind == "check" and reply_polarity(turn.reply) == "no", turn.reply
    assert restated(favourites.opening) in turn.reply
    assert "Appreciate it" not in restated(favourites.opening)  # the request, not its thanks
    vocabulary, tasks = sheets
    erase = tasks["test-040"]  # "Erase envelopes's reorder level; leave the cell empty."
    message = "So you want me to erase the Quantity for envelopes and leave the cell empty?"
    turn = RuleUser().reply(erase, vocabulary, (), message)
    assert reply_polarity(turn.reply) == "no" and "|" not in turn.reply, turn.reply  # no table
    right = "So you want me to erase the reorder level for envelopes and leave the cell empty?"
    assert reply_polarity(RuleUser().reply(erase, vocabulary, (), right).reply) == "yes"


@pytest.mark.parametrize(
    "message",
    [
        "What's the username on your account?",
        "Which sheet tab is this table on?",
        "what's the spreadsheet id",
        "To fetch your favourites I need two things: your sub_id and the page number.",
        "Okay, I'll fetch your favourite cat images. What's your sub_id?",
    ],
)
def test_a_question_about_a_service_detail_is_an_ask_of_nothing(message: str, cats) -> None:
    vocabulary, tasks = cats
    turn = RuleUser().reply(tasks["test-013"], vocabulary, (), message)  # no detail held
    assert turn.kind in ("ask", "check") and not turn.revealed, turn


@pytest.mark.parametrize(
    "message",
    ["What's your favourite movie?", "Random question: which browser tab do you like best?"],
)
def test_small_talk_stays_small_talk(message: str, cats) -> None:
    vocabulary, tasks = cats
    assert RuleUser().reply(tasks["test-013"], vocabulary, (), message).kind == "off_topic"
