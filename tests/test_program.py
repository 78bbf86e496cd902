import pytest

from toolgym.families.home_search.toolkit import HomeSearchToolkit
from toolgym.families.trip_booking.toolkit import TripBookingToolkit
from toolgym.tools.budgets import Budgets
from toolgym.tools.errors import (
    NON_EXECUTABLE,
    PRECONDITION,
    WRONG_API,
    WRONG_ARGUMENTS,
    ToolCallError,
)
from toolgym.tools.program import (
    extract_program,
    parse_program,
    run_program,
)

HOME = HomeSearchToolkit()
TRIP = TripBookingToolkit()


def run(source: str, toolkit=HOME):
    session = toolkit.new_session()
    run_program(source, session)
    return session


def category(source: str, toolkit=HOME) -> str:
    with pytest.raises(ToolCallError) as e:
        run(source, toolkit)
    return e.value.category


def test_runs_the_original_home_format() -> None:
    s = run(
        'API.set_location("Cape Coral")\nAPI.set_buy_or_rent("buy")\n'
        'API.select_home_type(["Multi-family", "Townhouse", "Co-op"])\n'
        "API.set_min_price(707000)\nAPI.set_max_price(1457000)\nAPI.search()"
    )
    assert s.api.search_criteria == {
        "location": "Cape Coral",
        "buy_or_rent": "buy",
        "home_type": "co-op,multi-family,townhouse",
        "min_price": 707000,
        "max_price": 1457000,
        "min_square_feet": 0,
    }


def test_runs_the_original_booking_format_with_variables() -> None:
    s = run(
        'API.select_booking_type("trip tickets")\nAPI.select_transportation("flight")\n'
        'location_from = Loc("Ontario")\nAPI.set_origin(location_from)\n'
        'location_to = Loc("Kansas City")\nAPI.set_destination(location_to)\n'
        "API.set_num_adults(4)\ndeparture_date = Date(12, 19, 2022)\n"
        "API.set_departure_date(departure_date)\nreturn_date = Date(12, 25, 2022)\n"
        "API.set_return_date(return_date)\nAPI.search()",
        TRIP,
    )
    assert s.api.search_criteria == {
        "booking_type": "trip tickets",
        "means_of_transportation": "flight",
        "location_from": "Ontario",
        "location_to": "Kansas City",
        "num_adults": 4,
        "departure_date": "12-19-2022",
        "return_date": "12-25-2022",
        "min_price_ticket": 0,
        "min_price_room": 0,
    }


def test_comments_keywords_nested_calls_and_arithmetic() -> None:
    s = run(
        "# buy in Austin\nAPI.set_location(value='Austin')  # city\n"
        "API.set_buy_or_rent('buy')\nbudget = 1.5 * 1000000\nAPI.set_max_price(budget)\n"
        "API.set_min_price(-(-2))\npass\nAPI.search()"
    )
    assert s.api.search_criteria["max_price"] == 1_500_000
    assert s.api.search_criteria["min_price"] == 2
    t = run('API.select_booking_type("hotels")\nAPI.set_hotel_location(Loc("Durham"))', TRIP)
    assert t.api.search_criteria["location"] == "Durham"


@pytest.mark.parametrize(
    "source",
    [
        "import os",
        "__import__('os')",
        "API.__class__",
        "API.__class__()",
        "API._require_buy_or_rent('x')",
        "x = API.search",
        "API.set_location.__self__",
        "(lambda: 1)()",
        "for i in range(3):\n    API.search()",
        "API.set_location(f'{1}')",
        "API.set_location([1][0])",
        "API.set_location(*['a'])",
        "API.set_location(**{'value': 'a'})",
        "API.set_location('a' * 10)",
        "API.set_location('a' if True else 'b')",
        "API = 3",
        "x, y = 1, 2",
        "API.search()()",
        "globals()['API']",
        "API.search().__class__",
        "Here is the program:\nAPI.search()",
        "```python\nAPI.search()\n```",
        "",
        "API.set_location(" + "[" * 100 + "]" * 100 + ")",
    ],
)
def test_refused_as_non_executable(source: str) -> None:
    session = HOME.new_session()
    with pytest.raises(ToolCallError) as e:
        run_program(source, session)
    assert e.value.category == NON_EXECUTABLE, str(e.value)
    assert session.calls == [], "nothing may run before the whole program is checked"


def test_checks_before_running_anything() -> None:
    session = HOME.new_session()
    with pytest.raises(ToolCallError):
        run_program('API.set_location("Austin")\nimport os', session)
    assert session.api.search_criteria == {}


def test_unknown_functions_are_wrong_api() -> None:
    assert category("API.fly()") == WRONG_API
    assert category("search()") == WRONG_API
    assert category("Loc('x')") == WRONG_API  # Home Search has no Loc
    assert category("api.search()") == WRONG_API
    assert category("open('/etc/passwd')") == WRONG_API  # only bound names resolve
    assert category("exec('import os')") == WRONG_API


def test_argument_errors() -> None:
    assert category('API.set_location("a", "b")') == WRONG_ARGUMENTS
    assert category("API.set_location()") == WRONG_ARGUMENTS
    assert category('API.set_location(city="a")') == WRONG_ARGUMENTS
    assert category("API.set_location(undefined_name)") == WRONG_ARGUMENTS
    assert category("API.set_location(1 / 0)") == WRONG_ARGUMENTS
    assert category("API.set_location('a' + 'b')") == NON_EXECUTABLE
    assert category("x = 'a'\nAPI.set_location(x * 3)") == WRONG_ARGUMENTS


def test_error_messages_say_what_was_expected() -> None:
    with pytest.raises(ToolCallError, match=r"did you mean 'set_num_beds'"):
        run("API.set_num_bed(3)")
    with pytest.raises(ToolCallError, match=r"takes 1 argument\(s\) \(value\); got 2"):
        run("API.set_location('a', 'b')")
    with pytest.raises(ToolCallError, match=r"line 2"):
        run("API.set_location('a')\nAPI.nope()")


def test_ordering_rules_are_preconditions() -> None:
    assert category('API.set_buy_or_rent("buy")') == PRECONDITION
    assert category('API.set_location("A")\nAPI.set_num_beds(2)') == PRECONDITION
    assert category('API.set_location("A")\nAPI.set_location("B")') == PRECONDITION
    assert category("API.set_num_adults(2)", TRIP) == PRECONDITION
    assert category('API.select_booking_type("hotels")\nAPI.search()', TRIP) == PRECONDITION


def test_parse_program_counts_statements() -> None:
    assert len(parse_program("API.search()\n\n# c\nAPI.search()", HOME.new_session())) == 2


def test_lenient_extraction() -> None:
    text = "Sure, here you go:\n```python\nAPI.set_location('Austin')\nAPI.search()\n```\nThanks"
    terminal = ("API.search(",)
    assert extract_program(text, terminal) == "API.set_location('Austin')\nAPI.search()"
    two = "API.set_location('A')\nAPI.search()\nAPI.set_location('B')\nAPI.search()"
    assert extract_program(two, terminal) == "API.set_location('A')\nAPI.search()"
    assert extract_program(two) == two  # no terminal call given: nothing is cut
    assert extract_program("Let me think.\nAPI.search()", terminal) == "API.search()"


def test_a_line_checked_in_one_session_is_checked_anew_in_another() -> None:
    source = 'API.set_location("Austin")\nx = Date'
    for _ in range(3):  # the same statement objects from the third parse on
        with pytest.raises(ToolCallError, match="using 'Date' other than to call it"):
            parse_program(source, TRIP.new_session())  # Date is a constructor there
        assert len(parse_program(source, HOME.new_session())) == 2  # a plain name here
    small = Budgets(max_number=1e3)
    with pytest.raises(ToolCallError, match="larger than 1000"):
        parse_program("API.set_min_price(320000)\nAPI.search()", HOME.new_session(), small)
    for _ in range(3):
        parse_program("API.set_min_price(320000)\nAPI.search()", HOME.new_session())
    with pytest.raises(ToolCallError, match="larger than 1000"):
        parse_program("API.set_min_price(320000)\nAPI.search()", HOME.new_session(), small)


def test_a_syntax_error_quotes_the_parsers_line() -> None:
    with pytest.raises(ToolCallError) as e:
        run("# a\u2028b\nz = (")
    assert e.value.line == 2 and "'z = ('" in str(e.value)
