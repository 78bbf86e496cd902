"""The spreadsheet model: values written and read with the Sheets API's semantics."""

from __future__ import annotations

import pytest

from toolgym.families.google_sheets.world import formulas
from toolgym.families.google_sheets.world.sheet import (
    FORMULA_CHAR_COST,
    MAX_CELL_READS,
    Formula,
    SheetsError,
    Spreadsheet,
    format_number,
    parse_entered,
)

TABLE = [
    ["item", "price", "qty"],
    ["beef", "10", "2"],
    ["milk", "2.5", "4"],
    ["total", "=SUM(B2:B3)", "=B4*2"],
]


@pytest.fixture
def book() -> Spreadsheet:
    sheet = Spreadsheet("sid", "Budget")
    sheet.values_update("Sheet1!A1", TABLE, "USER_ENTERED")
    return sheet


def test_update_answers_the_bookkeeping(book: Spreadsheet) -> None:
    reply = book.values_update("Sheet1!E2:F3", [[1, 2], [3, 4]], "RAW")
    assert reply == {
        "spreadsheetId": "sid",
        "updatedRange": "Sheet1!E2:F3",
        "updatedRows": 2,
        "updatedColumns": 2,
        "updatedCells": 4,
    }


def test_render_options(book: Spreadsheet) -> None:
    formatted = book.values_get("Sheet1!A1:C6")
    assert formatted["range"] == "Sheet1!A1:C6" and formatted["majorDimension"] == "ROWS"
    assert formatted["values"][3] == ["total", "12.5", "25"]
    assert book.values_get("A1:C4", "UNFORMATTED_VALUE")["values"][1] == ["beef", 10, 2]
    assert book.values_get("B4:C4", "FORMULA")["values"] == [["=SUM(B2:B3)", "=B4*2"]]


def test_trimming_whole_sheets_and_columns(book: Spreadsheet) -> None:
    assert book.values_get("Sheet1")["range"] == "Sheet1!A1:Z1000"
    assert book.values_get("E1:F3") == {"range": "Sheet1!E1:F3", "majorDimension": "ROWS"}
    book.values_update("A7", [["late"]], "RAW")
    rows = book.values_get("A1:C10")["values"]
    assert rows[4] == [] and rows[5] == [] and rows[6] == ["late"]  # inner empty rows stay
    columns = book.values_get("A:A", major_dimension="COLUMNS")
    assert columns["range"] == "Sheet1!A1:A1000"
    assert columns["values"] == [["item", "beef", "milk", "total", "", "", "late"]]


def test_formulas_follow_their_inputs_and_cycles_are_ref_errors(book: Spreadsheet) -> None:
    book.values_update("B2", [["20"]], "USER_ENTERED")
    assert book.values_get("B4:C4", "UNFORMATTED_VALUE")["values"] == [[22.5, 45]]
    book.values_update("B2", [["=C4"]], "USER_ENTERED")  # B2 -> C4 -> B4 -> B2
    assert book.values_get("B2", "FORMATTED_VALUE")["values"] == [["#REF!"]]


@pytest.mark.parametrize(
    ("text", "entered"),
    [
        ("=1+1", Formula("=1+1")),
        ("'=1+1", "=1+1"),
        ("12%", 0.12),
        ("$1,234.50", 1234.5),
        ("-3", -3),
        ("007", 7),
        ("1e3", 1000),
        ("TRUE", True),
        ("false", False),
        ("1,2", "1,2"),
        ("abc", "abc"),
        ("=", "="),
    ],
)
def test_user_entered_parsing(text: str, entered: object) -> None:
    value = parse_entered(text)
    assert value == entered and type(value) is type(entered)


def test_raw_keeps_text(book: Spreadsheet) -> None:
    book.values_update("D1", [["=1+1", "12%"]], "RAW")
    assert book.values_get("D1:E1", "UNFORMATTED_VALUE")["values"] == [["=1+1", "12%"]]


@pytest.mark.parametrize(
    ("range_text", "values", "message"),
    [
        ("Sheet9!A1", [["x"]], "Unable to parse range: Sheet9"),
        ("Hello world", [["x"]], "Unable to parse range: Hello world"),
        ("A1:B1", [["a", "b", "c"]], r"tried writing to column \[C\]"),
        ("A1:B2", [["a"], ["b"], ["c"]], r"tried writing to row \[3\]"),
        ("Z1000", [["a", "b"]], "exceeds grid limits. Max rows: 1000, max columns: 26"),
        ("A2", "A2", "Invalid value at 'data.values'"),
        ("A2", [[{"x": 1}]], "Invalid values"),
    ],
)
def test_errors_are_the_apis(
    book: Spreadsheet, range_text: str, values: object, message: str
) -> None:
    with pytest.raises(SheetsError, match=message) as caught:
        book.values_update(range_text, values, "RAW")
    assert caught.value.code == 400
    assert caught.value.body()["error"]["status"] == "INVALID_ARGUMENT"


def test_options_are_checked(book: Spreadsheet) -> None:
    with pytest.raises(SheetsError, match="valueInputOption"):
        book.values_update("A1", [["x"]], "PARSED")
    with pytest.raises(SheetsError, match="valueRenderOption"):
        book.values_get("A1", "PRETTY")


def test_number_display() -> None:
    assert [format_number(x) for x in (1.0, 2.5, 1 / 3, 1e20, True)] == [
        "1", "2.5", "0.3333333333", "1.00E+20", "TRUE",
    ]  # fmt: skip


def test_append_finds_the_table_and_grows_the_grid() -> None:
    from toolgym.families.google_sheets.world.dimensions import values_append

    book = Spreadsheet("sid", "B")
    first = values_append(book, "Sheet1", [["a", "b"]], "RAW")
    assert "tableRange" not in first and first["updates"]["updatedRange"] == "Sheet1!A1:B1"
    second = values_append(book, "Sheet1", [["c", "d"], ["e", "f"]], "RAW")
    assert second["tableRange"] == "Sheet1!A1:B1"
    assert second["updates"]["updatedRange"] == "Sheet1!A2:B3"
    third = values_append(book, "Sheet1!A1", [["g"]], "USER_ENTERED", "INSERT_ROWS")
    assert third["tableRange"] == "Sheet1!A1:B3" and book.sheets[0].rows == 1001
    assert book.values_get("Sheet1")["values"] == [["a", "b"], ["c", "d"], ["e", "f"], ["g"]]
    book.sheets[0].rows = 4
    values_append(book, "Sheet1", [["h"]], "RAW")
    assert book.sheets[0].rows == 5


def test_append_finds_the_block_that_holds_the_last_cell() -> None:
    """As the real API: after a row ``x1, "", x3`` the table is C1 (gspread issue 537)."""
    from toolgym.families.google_sheets.world.dimensions import values_append

    book = Spreadsheet("sid", "B")
    row = [["x1", "", "x3"]]
    assert values_append(book, "Sheet1", row, "RAW")["updates"]["updatedRange"] == "Sheet1!A1:C1"
    second = values_append(book, "Sheet1", row, "RAW")
    assert second["tableRange"] == "Sheet1!C1"
    assert second["updates"]["updatedRange"] == "Sheet1!C2:E2"
    third = values_append(book, "Sheet1", row, "RAW")  # the indentation grows
    assert third["tableRange"] == "Sheet1!E2" and third["updates"]["updatedRange"] == "Sheet1!E3:G3"
    # a single cell anchors the table at that cell (gspread's table_range="A1")
    fresh = Spreadsheet("sid", "B")
    values_append(fresh, "Sheet1!A1", row, "RAW")
    anchored = values_append(fresh, "Sheet1!A1", row, "RAW")
    assert anchored["updates"]["updatedRange"] == "Sheet1!A2:C2"
    # a header with gaps and touching rows are one table
    other = Spreadsheet("sid", "B")
    other.values_update("A1:C2", [["a", "b", "c"], ["1", "", "3"]], "RAW")
    appended = values_append(other, "Sheet1", [["4", "5", "6"]], "RAW")
    assert appended["tableRange"] == "Sheet1!A1:C2"
    assert appended["updates"]["updatedRange"] == "Sheet1!A3:C3"
    # an empty row, then data that starts in column B: the table is that data
    other.values_update("B5:C5", [["p", "q"]], "RAW")
    assert values_append(other, "Sheet1!A:C", [["r"]], "RAW")["tableRange"] == "Sheet1!B5:C5"


def test_clear_and_shifts(book: Spreadsheet) -> None:
    from toolgym.families.google_sheets.world.dimensions import shift_columns, shift_rows
    from toolgym.families.google_sheets.world.sheet import values_clear

    assert values_clear(book, "A1:A2") == {"spreadsheetId": "sid", "clearedRange": "Sheet1!A1:A2"}
    assert book.values_get("A1:A3")["values"] == [[], [], ["milk"]]
    ws = book.sheets[0]
    shift_rows(book, ws, 1, 2)  # two rows inserted before row 2
    assert ws.rows == 1002 and book.values_get("B4")["values"] == [["10"]]
    shift_rows(book, ws, 1, -2)
    assert ws.rows == 1000 and book.values_get("B2")["values"] == [["10"]]
    shift_columns(book, ws, 0, -1)  # column A deleted
    assert ws.cols == 25 and book.values_get("A1:B1")["values"] == [["price", "qty"]]


def test_formulas_follow_inserted_and_deleted_rows_and_columns() -> None:
    from toolgym.families.google_sheets.world.dimensions import shift_columns, shift_rows
    from toolgym.families.google_sheets.world.sheet import Worksheet

    book = Spreadsheet("sid", "T")
    book.values_update("A1:A4", [[1], [2], [3], ["=SUM(A1:A3)"]], "USER_ENTERED")
    book.sheets.append(Worksheet(7, "Other", 1))
    book.values_update("'Other'!A1", [["=Sheet1!A3*2"]], "USER_ENTERED")
    ws = book.sheets[0]
    shift_rows(book, ws, 1, 1)  # a row inserted before row 2
    assert book.values_get("A5", "FORMULA")["values"] == [["=SUM(A1:A4)"]]
    assert book.values_get("'Other'!A1", "FORMULA")["values"] == [["=Sheet1!A4*2"]]
    shift_rows(book, ws, 3, -1)  # row 4 (the 3) deleted
    assert book.values_get("A4", "FORMULA")["values"] == [["=SUM(A1:A3)"]]
    assert book.values_get("'Other'!A1", "FORMULA")["values"] == [["=#REF!*2"]]
    assert book.values_get("'Other'!A1", "FORMATTED_VALUE")["values"] == [["#REF!"]]
    shift_columns(book, ws, 0, 1)  # a column inserted before A
    assert book.values_get("B4", "FORMULA")["values"] == [["=SUM(B1:B3)"]]
    assert book.values_get("B4", "UNFORMATTED_VALUE")["values"] == [[3]]


@pytest.mark.parametrize(
    ("formula", "rows", "cols", "expected"),
    [
        ("=A1+$B$2", 1, 1, "=B2+$B$2"),
        ("=SUM(A$1:A3)", 2, 0, "=SUM(A$1:A5)"),
        ('="A1"&A1', 0, 2, '="A1"&C1'),
        ("=LOG10(A1)", 1, 0, "=LOG10(A2)"),
        ("=A1", -1, 0, "=#REF!"),
        ("=SUM(A:A)", 3, 3, "=SUM(A:A)"),
    ],
)
def test_copied_formulas_move_their_relative_references(
    formula: str, rows: int, cols: int, expected: str
) -> None:
    from toolgym.families.google_sheets.world.references import offset_formula

    assert offset_formula(formula, rows, cols) == expected


def test_typed_dates_percentages_and_amounts_keep_their_look() -> None:
    book = Spreadsheet("sid", "T")
    book.values_update(
        "A1:D1", [["2024-01-15", "1/2/2024 9:05", "12.5%", "$1,200.50"]], "USER_ENTERED"
    )
    assert book.values_get("A1:D1", "UNFORMATTED_VALUE")["values"] == [
        [45306, 45293 + (9 * 60 + 5) / 1440, 0.125, 1200.5]
    ]
    assert book.values_get("A1:D1")["values"] == [
        ["2024-01-15", "1/2/2024 9:05:00", "12.50%", "$1,200.50"]
    ]
    dates = book.values_get("A1", "UNFORMATTED_VALUE", "ROWS", "FORMATTED_STRING")
    assert dates["values"] == [["2024-01-15"]]
    book.values_update("E1", [["2024-01-15"]], "RAW")  # RAW keeps text
    assert book.values_get("E1", "UNFORMATTED_VALUE")["values"] == [["2024-01-15"]]
    book.values_update("F1", [["'2024-01-15"]], "USER_ENTERED")  # so does a leading apostrophe
    assert book.values_get("F1", "UNFORMATTED_VALUE")["values"] == [["2024-01-15"]]


@pytest.mark.parametrize(
    ("serial", "pattern", "shown"),
    [
        (45306, "yyyy-mm-dd", "2024-01-15"),
        (45306, "M/d/yyyy", "1/15/2024"),
        (45306, "mmm d, yyyy", "Jan 15, 2024"),
        (45306, "ddd dd/mm/yy", "Mon 15/01/24"),
        (45306.5 + 1 / 1440, "h:mm AM/PM", "12:01 PM"),
        (0.75, "hh:mm:ss", "18:00:00"),
        (45306, '"Day "d', "Day 15"),
    ],
)
def test_date_patterns(serial: float, pattern: str, shown: str) -> None:
    from toolgym.families.google_sheets.world.dates import format_date

    assert format_date(serial, pattern) == shown


def test_formulas_of_constants_count_against_the_work_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A formula costs what its text costs, cells read or not.

    A sheet full of long constant formulas stops evaluating (``#ERROR!``) once the budget is spent.
    """
    book = Spreadsheet("sid", "B")
    formula = "=" + "+".join(["1"] * 30)
    rows, cols = 1000, 26  # the default grid
    book.values_update("Sheet1!A1", [[formula] * cols for _ in range(rows)], "USER_ENTERED")
    calls = [0]
    real = formulas.evaluate

    def counted(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("toolgym.families.google_sheets.world.sheet.evaluate", counted)
    values = book.values_get("Sheet1!A1:Z1000", "UNFORMATTED_VALUE")["values"]
    flat = [v for row in values for v in row]
    affordable = MAX_CELL_READS // (FORMULA_CHAR_COST * len(formula))
    assert calls[0] == affordable < rows * cols
    assert flat[:affordable] == [30] * affordable
    assert set(flat[affordable:]) == {"#ERROR!"}
    # a write starts a new budget
    book.values_update("Sheet1!A1", [["=1+1"]], "USER_ENTERED")
    assert book.values_get("A1", "UNFORMATTED_VALUE")["values"] == [[2]]
