"""Spreadsheet formulas: the language and functions the Sheets tasks use, with Sheets' types."""

from __future__ import annotations

import pytest

from toolgym.families.google_sheets.world.a1 import A1Range
from toolgym.families.google_sheets.world.formulas import (
    DIV0,
    NA,
    NAME,
    NUM,
    PARSE,
    REF,
    VALUE,
    FormulaSyntaxError,
    evaluate,
    parse_formula,
)

GRID = {
    "Sheet1": [
        ["item", "price", "qty"],
        ["beef", 10, 2],
        ["milk", 2.5, 4],
        ["eggs", "3", None],
    ],
    "My Rates": [["usd", 1], ["eur", 0.9]],
    "Sorted": [[1, "a"], [3, "b"], [5, "c"]],
}


def resolve(ref: A1Range) -> list[list[object]]:
    grid = GRID[ref.sheet or "Sheet1"]
    r0, r1, c0, c1 = ref.bounded(len(grid), max(len(row) for row in grid))
    return [
        [grid[i][j] if j < len(grid[i]) else None for j in range(c0, c1)] for i in range(r0, r1)
    ]


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        # arithmetic, precedence and types
        ("=1+2*3", 7.0),
        ("=(1+2)*3", 9.0),
        ("=-2^2", 4.0),
        ("=2^3^2", 64.0),
        ("=50%", 0.5),
        ("=10/4", 2.5),
        ('="3"+1', 4.0),
        ("=TRUE+1", 2.0),
        ("=C4+1", 1.0),  # an empty cell is 0
        ("=1/0", DIV0),
        ("=B2/C4", DIV0),
        ('="a"+1', VALUE),
        ("=A1:B2", VALUE),
        # comparison and text
        ("=1=1", True),
        ('="a"="A"', True),
        ('=1<"a"', True),
        ('="b">"a"', True),
        ("=A2&B3", "beef2.5"),
        ('=A2&" costs "&B2', "beef costs 10"),
        # references
        ("=$B$2*2", 20.0),
        ("='My Rates'!B2*B2", 9.0),
        ("=SUM(Sheet1!B2:B3)", 12.5),
        # functions
        ("=SUM(B2:B4)", 12.5),  # text in a range is skipped
        ("=SUM(B2,B4)", 10.0),  # text in a referenced cell is skipped
        ('=SUM(B2,"3")', 13.0),  # text given directly is a number
        ("=SUM(A1:C1)", 0.0),
        ("=AVERAGE(B2:B4)", 6.25),
        ("=AVERAGE(A1:A4)", DIV0),
        ("=MIN(B:B)", 2.5),
        ("=MAX(C2:C4)", 4.0),
        ("=COUNT(B2:B4)", 2.0),
        ("=COUNTA(A:A)", 4.0),
        ('=IF(B2>5,"high","low")', "high"),
        ("=IF(B3>5,1)", False),
        ("=ROUND(2.5)", 3.0),
        ("=ROUND(-2.5)", -3.0),
        ("=ROUND(B3*1.1, 2)", 2.75),
        ("=ROUND(1234.5678, -2)", 1200.0),
        ("=ROUNDUP(1.21, 1)", 1.3),
        ("=ROUNDDOWN(1.29, 1)", 1.2),
        ('=CONCATENATE(A2,"-",B2)', "beef-10"),
        ('=VLOOKUP("milk",A2:C4,2,FALSE)', 2.5),
        ('=VLOOKUP("MILK",A2:C4,3,FALSE)', 4),
        ('=VLOOKUP("x",A2:C4,2,FALSE)', NA),
        ('=VLOOKUP("milk",A2:C4,9,FALSE)', REF),
        ('=VLOOKUP("milk",A2:C4,0,FALSE)', VALUE),
        ("=VLOOKUP(4,Sorted!A1:B3,2)", "b"),  # approximate: the largest key not above 4
        ("=VLOOKUP(0,Sorted!A1:B3,2,TRUE)", NA),
        ('=SUMIF(A2:A4,"beef",B2:B4)', 10.0),
        ('=COUNTIF(B2:B4,">2")', 2.0),  # the text "3" is not a number here
        ('=IFERROR(1/0,"none")', "none"),
        ("=AND(1,TRUE)", True),
        ("=OR(0,FALSE)", False),
        ("=MOD(-7,3)", 2.0),
        ('=LEN("abc")', 3.0),
        # errors
        ("=foo(1)", NAME),
        ("=bar", NAME),
        ("=SUM(", PARSE),
        ("=1+", PARSE),
        ("=1 2", PARSE),
        ("=SUM(1/0, 2)", DIV0),
        # strange input ends as an error value, never an exception
        ("=ROUND(1,1e400)", NUM),
        ("=ROUND(1,400)", NUM),
        ("=VLOOKUP(1,A1:B2,1e400)", NUM),
        ("=MOD(1e308,1e-308)", NUM),
        ("=" + "(" * 5000 + "1" + ")" * 5000, PARSE),
    ],
)
def test_formulas(formula: str, expected: object) -> None:
    value = evaluate(formula, resolve, "Sheet1")
    if isinstance(expected, float) and isinstance(value, float):
        assert value == pytest.approx(expected)
    else:
        assert value == expected


def test_parsing_is_cached_and_refuses_what_is_not_a_formula() -> None:
    assert parse_formula("=SUM(A1:A3)") is parse_formula("=SUM(A1:A3)")
    with pytest.raises(FormulaSyntaxError, match="starts with"):
        parse_formula("SUM(A1)")
    with pytest.raises(FormulaSyntaxError):
        parse_formula("=)")


def test_a_formula_on_another_sheet_reads_its_own_sheet() -> None:
    assert evaluate("=B1", resolve, "My Rates") == 1
    assert evaluate("=B2*2", resolve, "Sheet1") == 20.0
