"""A1 notation as the Sheets API reads and writes it."""

from __future__ import annotations

import pytest

from toolgym.families.google_sheets.world.a1 import (
    MAX_COLUMNS,
    A1Error,
    A1Range,
    column_index,
    column_letters,
    parse_a1,
    quote_title,
)


def test_column_letters_round_trip() -> None:
    assert all(column_index(column_letters(i)) == i for i in range(MAX_COLUMNS))
    assert [column_letters(i) for i in (0, 25, 26, 51, 52, 701, 702)] == [
        "A", "Z", "AA", "AZ", "BA", "ZZ", "AAA",
    ]  # fmt: skip
    with pytest.raises(ValueError, match="0 to"):
        column_letters(MAX_COLUMNS)


@pytest.mark.parametrize(
    ("text", "expected", "written"),
    [
        ("A1", A1Range(None, 0, 1, 0, 1), "A1"),
        ("b2", A1Range(None, 1, 2, 1, 2), "B2"),
        ("$A$1:$C$6", A1Range(None, 0, 6, 0, 3), "A1:C6"),
        ("C6:A1", A1Range(None, 0, 6, 0, 3), "A1:C6"),
        ("A:C", A1Range(None, None, None, 0, 3), "A:C"),
        ("2:5", A1Range(None, 1, 5, None, None), "2:5"),
        ("A5:A", A1Range(None, 4, None, 0, 1), "A5:A"),
        ("A1:C", A1Range(None, 0, None, 0, 3), "A1:C"),
        ("Sheet1", A1Range("Sheet1"), "Sheet1"),
        ("Sheet1!A1:B2", A1Range("Sheet1", 0, 2, 0, 2), "Sheet1!A1:B2"),
        ("'My Sheet'!B2:D4", A1Range("My Sheet", 1, 4, 1, 4), "'My Sheet'!B2:D4"),
        ("'It''s'!A:A", A1Range("It's", None, None, 0, 1), "'It''s'!A:A"),
        ("'A1'!A1", A1Range("A1", 0, 1, 0, 1), "'A1'!A1"),
        ("'Q1 2024'", A1Range("Q1 2024"), "'Q1 2024'"),
        ("Data!ZZZ10000000", A1Range("Data", 9_999_999, 10_000_000, 18_277, 18_278), None),
    ],
)
def test_ranges(text: str, expected: A1Range, written: str | None) -> None:
    parsed = parse_a1(text, ["Sheet1"])
    assert parsed == expected
    if written is not None:
        assert parsed.to_a1() == written
    assert (
        parse_a1(parsed.to_a1() or "A1", ["Sheet1"]).cells() == parsed.cells() or not parsed.cells()
    )


@pytest.mark.parametrize(
    "text",
    ["", " ", "A", "5", "A:5", "5:A", "A1:B2:C3", "'x", "'x'y!A1", "!A1", "AAAA1", "A0", "A1:"],
)
def test_malformed_ranges_are_refused_with_the_api_message(text: str) -> None:
    with pytest.raises(A1Error, match="Unable to parse range"):
        parse_a1(text)


def test_a_title_that_reads_like_a_cell_names_the_sheet() -> None:
    assert parse_a1("A1", ["A1"]) == A1Range("A1")
    assert parse_a1("A1") == A1Range(None, 0, 1, 0, 1)
    assert quote_title("A1") == "'A1'" and quote_title("Sheet_2") == "Sheet_2"
    assert quote_title("2024") == "'2024'" and quote_title("Año") == "'Año'"


def test_grid_ranges_and_bounds() -> None:
    assert parse_a1("Sheet1!B2:C3").grid_range(7) == {
        "sheetId": 7,
        "startRowIndex": 1,
        "endRowIndex": 3,
        "startColumnIndex": 1,
        "endColumnIndex": 3,
    }
    assert parse_a1("A:B").grid_range(0) == {
        "sheetId": 0,
        "startColumnIndex": 0,
        "endColumnIndex": 2,
    }
    assert parse_a1("A5:C").bounded(1000, 26) == (4, 1000, 0, 3)
    assert parse_a1("Sheet1", ["Sheet1"]).bounded(10, 5) == (0, 10, 0, 5)
    assert parse_a1("Z100").bounded(10, 5) == (99, 99, 25, 25)  # outside: empty
