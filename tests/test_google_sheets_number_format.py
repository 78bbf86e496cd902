"""Number formats: values displayed under a cell's numberFormat pattern, as Sheets shows them."""

from __future__ import annotations

import pytest

from toolgym.families.google_sheets.client import sheets_client
from toolgym.families.google_sheets.world.number_format import format_with_pattern


@pytest.mark.parametrize(
    ("value", "pattern", "shown"),
    [
        (1234.5, "$#,##0.00", "$1,234.50"),
        (1234567, "#,##0", "1,234,567"),
        (3.14159, "0.00", "3.14"),
        (2.5, "0", "3"),
        (-2.5, "0", "-3"),
        (0.5, "#.##", ".5"),
        (0.5, "0.0#", "0.5"),
        (0.125, "0.0%", "12.5%"),
        (0.5, "0%", "50%"),
        (-1234, "#,##0;(#,##0)", "(1,234)"),
        (1234, "#,##0;(#,##0)", "1,234"),
        (12345, "0.00E+00", "1.23E+04"),
        (5, '0.0 "kg"', "5.0 kg"),
        (7, '"€"#,##0', "€7"),
        (0.0, "0.00", "0.00"),
        (-0.001, "0.00", "0.00"),
    ],
)
def test_patterns(value: float, pattern: str, shown: str) -> None:
    assert format_with_pattern(value, pattern) == shown


def test_unknown_patterns_leave_the_default() -> None:
    assert format_with_pattern(1.5, "yyyy-mm-dd") is None
    assert format_with_pattern(1.5, "@") is None


def test_formatted_values_follow_the_cell_format() -> None:
    ws = sheets_client().create("F").sheet1
    ws.update([[1234.5, 0.125]], "A1")
    ws.format("A1", {"numberFormat": {"type": "CURRENCY", "pattern": "$#,##0.00"}})
    ws.format("B1", {"numberFormat": {"type": "PERCENT", "pattern": "0.0%"}})
    assert ws.get_all_values() == [["$1,234.50", "12.5%"]]
    assert ws.get("A1:B1", value_render_option="UNFORMATTED_VALUE") == [[1234.5, 0.125]]
