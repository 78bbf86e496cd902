"""Google Sheets goals over a table, and the gold programs that reach them.

Each operation (:data:`OPERATIONS`) turns a :class:`~.tables.Table` and a generator into a goal
phrased for people ("Increase beef's price by 10%") and one or more gold programs, written as the
original labels are (gspread 5.8 calls such as ``worksheet.update('C2', 3.3)``, or a DataFrame
round trip). Alternatives reach the same sheet by other means; the environment checks that each
one runs, and the tests check that they all end in the same sheet. The operation mix follows the
original: cell and range updates, formulas, sorting, adding and deleting rows and columns,
merging, filters, formats, pivot tables and DataFrame round trips.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from toolgym.benchmarks.phrasing import pick
from toolgym.families.google_sheets.tasks.tables import CATEGORIES, MEATS, NAMES, SUPPLIES, Table
from toolgym.families.google_sheets.world.a1 import column_letters


@dataclass(frozen=True)
class Goal:
    """A goal and its gold programs.

    Attributes:
        sentence: the goal, phrased for people.
        gold: the gold programs (the first is the oracle's).
        check_format: whether formats are graded (the original's ``check_format``).
        check_layout: whether merges, filters, frozen rows and pivot tables are graded.
    """

    sentence: str
    gold: tuple[str, ...]
    check_format: bool = False
    check_layout: bool = False


Operation = Callable[[Table, np.random.Generator], Goal | None]

DATAFRAME_WRITE = (
    "worksheet.clear()\n"
    "set_with_dataframe(worksheet, df, include_index=False, include_column_header=True)"
)
"""How the original's demos write a DataFrame back."""


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(float(x), 2)


def _row_key(table: Table, rng: np.random.Generator, last: bool = True) -> str:
    keys = [str(r[0]) for r in table.rows]
    return pick(rng, keys if last else keys[:-1])


def set_value(t: Table, rng: np.random.Generator) -> Goal:
    """One cell gets a new value."""
    col, key = pick(rng, t.numeric), _row_key(t, rng)
    old = t.value(key, col)
    new = int(old) + int(rng.integers(1, 20)) * pick(rng, (1, -1)) if isinstance(old, int) else 1
    new = max(new, 0)
    r, c = t.row_of(key), t.column(col)
    sentence = pick(
        rng,
        (
            f"Change the {col.lower()} of {key} to {new}.",
            f"Set {key}'s {col.lower()} to {new}.",
            f"The {col.lower()} for {key} is now {new}; update the sheet.",
        ),
    )
    return Goal(
        sentence,
        (
            f"worksheet.update_cell({r}, {c}, {new})",
            f"worksheet.update('{t.letter(col)}{r}', {new})",
        ),
    )


def percent_change(t: Table, rng: np.random.Generator) -> Goal:
    """A value grows or shrinks by a percentage."""
    col, key = pick(rng, t.numeric), _row_key(t, rng)
    percent = pick(rng, (10, 20, 25, 50))
    up = bool(rng.random() < 0.7)
    old = float(t.value(key, col))  # type: ignore[arg-type]
    new = _num(round(old * (100 + percent if up else 100 - percent) / 100, 2))
    r, c = t.row_of(key), t.column(col)
    verb = pick(rng, ("Increase", "Raise")) if up else pick(rng, ("Decrease", "Cut", "Lower"))
    sentence = pick(
        rng,
        (
            f"{verb} {key}'s {col.lower()} by {percent}%.",
            f"{verb} the {col.lower()} of {key} by {percent} percent.",
        ),
    )
    return Goal(
        sentence,
        (
            f"worksheet.update_cell({r}, {c}, {new})",
            f"worksheet.update('{t.letter(col)}{r}', {new})",
        ),
    )


_NEW_KEYS = {
    "products": MEATS,
    "employees": NAMES,
    "grades": NAMES,
    "inventory": SUPPLIES,
    "budget": CATEGORIES,
}


def _new_row(t: Table, rng: np.random.Generator) -> list[object]:
    taken = {r[0] for r in t.rows}
    name = pick(rng, [k for k in _NEW_KEYS[t.kind] if k not in taken])
    row: list[object] = [name]
    for col in t.header[1:]:
        if col in t.numeric:
            values = [int(v) for v in t.values(col)]  # type: ignore[call-overload]
            row.append(int(rng.integers(min(values), max(values) + 1)))
        else:
            row.append(pick(rng, sorted({str(v) for v in t.values(col)})))
    return row


def _describe_row(t: Table, row: list[object]) -> str:
    parts = [f"{col.lower()} {value}" for col, value in zip(t.header[1:], row[1:], strict=True)]
    return ", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else parts[0]


def add_row(t: Table, rng: np.random.Generator) -> Goal:
    """A row is appended."""
    row = _new_row(t, rng)
    n = t.last_row + 1
    sentence = pick(
        rng,
        (
            f"Add a new {t.entity} {row[0]} with {_describe_row(t, row)}.",
            f"Append {row[0]} to the table: {_describe_row(t, row)}.",
        ),
    )
    values = json.dumps(row)
    return Goal(
        sentence,
        (
            f"worksheet.append_row({values})",
            f"worksheet.update('A{n}:{t.last_column}{n}', [{values}])",
        ),
    )


def insert_row(t: Table, rng: np.random.Generator) -> Goal:
    """A row is inserted below a named row."""
    row = _new_row(t, rng)
    key = _row_key(t, rng, last=False)
    at = t.row_of(key) + 1
    sentence = f"Insert a row for {row[0]} ({_describe_row(t, row)}) right below {key}."
    return Goal(sentence, (f"worksheet.insert_row({json.dumps(row)}, {at})",))


def delete_row(t: Table, rng: np.random.Generator) -> Goal:
    """A row is deleted."""
    key = _row_key(t, rng)
    r = t.row_of(key)
    sentence = pick(
        rng,
        (
            f"Remove {key} from the table.",
            f"Delete the row of {key}.",
            f"{key} is gone; delete its row.",
        ),
    )
    return Goal(sentence, (f"worksheet.delete_rows({r})", f"worksheet.delete_rows({r}, {r})"))


def delete_column(t: Table, rng: np.random.Generator) -> Goal:
    """A column is deleted."""
    col = pick(rng, t.header[1:])
    c = t.column(col)
    sentence = pick(
        rng,
        (f"Delete the {col} column.", f"We no longer need the {col.lower()} column; remove it."),
    )
    return Goal(sentence, (f"worksheet.delete_columns({c})", f"worksheet.delete_columns({c}, {c})"))


_DERIVED = {
    "products": ("Profit", "Price", "-", "Cost", "the price minus the cost"),
    "budget": ("Difference", "Actual", "-", "Planned", "actual minus planned spending"),
    "inventory": ("Stock Value", "Quantity", "*", "Unit Cost", "the quantity times the unit cost"),
    "employees": ("Salary per Year", "Salary", "/", "Years", "the salary divided by the years"),
    "grades": (
        "Math minus English",
        "Math",
        "-",
        "English",
        "the math mark minus the English mark",
    ),
}


def derived_column(t: Table, rng: np.random.Generator) -> Goal:
    """A new column computed from two others, with formulas or in pandas."""
    name, a, op, b, words = _DERIVED[t.kind]
    new = column_letters(len(t.header))
    n = t.last_row
    la, lb = t.letter(a), t.letter(b)
    cells = ", ".join(f"['={la}{r}{op}{lb}{r}']" for r in range(2, n + 1))
    formulas = f"worksheet.update('{new}1', '{name}')\nworksheet.update('{new}2:{new}{n}', [{cells}], raw=False)"
    frame = f"df = get_as_dataframe(worksheet)\ndf['{name}'] = df['{a}'] {op} df['{b}']\n{DATAFRAME_WRITE}"
    sentence = pick(
        rng,
        (
            f"Add a column {name} with {words} for every {t.entity}.",
            f"Create a new column called {name} that holds {words}.",
        ),
    )
    return Goal(sentence, (formulas, frame) if op != "/" else (formulas,))


def total_row(t: Table, rng: np.random.Generator) -> Goal:
    """A Total row with the sum of a column."""
    col = pick(rng, t.numeric)
    n, letter = t.last_row, t.letter(col)
    formula = f"=SUM({letter}2:{letter}{n})"
    sentence = pick(
        rng,
        (
            f"Add a Total row at the bottom with the sum of the {col.lower()} column.",
            f"Below the table, add a row named Total that sums up {col}.",
        ),
    )
    return Goal(
        sentence,
        (
            f"worksheet.update('A{n + 1}', 'Total')\nworksheet.update('{letter}{n + 1}', '{formula}', raw=False)",
            f"worksheet.update_cell({n + 1}, 1, 'Total')\nworksheet.update_cell({n + 1}, {t.column(col)}, '{formula}')",
        ),
    )


def sort_rows(t: Table, rng: np.random.Generator) -> Goal | None:
    """The rows are sorted by a column with distinct values."""
    columns = [c for c in t.numeric if len(set(t.values(c))) == len(t.rows)]
    if not columns:
        return None
    col = pick(rng, columns)
    down = bool(rng.random() < 0.5)
    order = "from highest to lowest" if down else "from lowest to highest"
    sentence = pick(
        rng, (f"Sort the rows by {col.lower()} {order}.", f"Order the table by {col} {order}.")
    )
    api = f"worksheet.sort(({t.column(col)}, '{'des' if down else 'asc'}'), range='A2:{t.last_column}{t.last_row}')"
    frame = (
        f"df = get_as_dataframe(worksheet)\n"
        f"df = df.sort_values('{col}', ascending={not down})\n{DATAFRAME_WRITE}"
    )
    return Goal(sentence, (api, frame))


def title_row(t: Table, rng: np.random.Generator) -> Goal:
    """A merged title row above the table."""
    title = pick(rng, ("Quarterly report", "Team overview", "Summary", "Current figures"))
    sentence = f"Insert a title row '{title}' above the table and merge it across all {len(t.header)} columns."
    return Goal(
        sentence,
        (f"worksheet.insert_row(['{title}'], 1)\nworksheet.merge_cells('A1:{t.last_column}1')",),
        check_layout=True,
    )


def bold_header(t: Table, rng: np.random.Generator) -> Goal:
    """The header row in bold."""
    sentence = pick(rng, ("Make the header row bold.", "Put the column titles in bold."))
    fmt = "{'textFormat': {'bold': True}}"
    return Goal(
        sentence,
        (f"worksheet.format('A1:{t.last_column}1', {fmt})", f"worksheet.format('1:1', {fmt})"),
        check_format=True,
    )


def currency_format(t: Table, rng: np.random.Generator) -> Goal:
    """A money column shown as dollars."""
    col = pick(rng, t.numeric)
    letter = t.letter(col)
    sentence = pick(
        rng,
        (
            f"Format the {col.lower()} column as dollars with two decimals.",
            f"Show {col} as currency, like $1,234.00.",
        ),
    )
    fmt = "{'numberFormat': {'type': 'CURRENCY', 'pattern': '$#,##0.00'}}"
    return Goal(
        sentence, (f"worksheet.format('{letter}2:{letter}{t.last_row}', {fmt})",), check_format=True
    )


def highlight_row(t: Table, rng: np.random.Generator) -> Goal:
    """One row gets a background colour."""
    key = _row_key(t, rng, last=False)
    colour, rgb = pick(
        rng,
        (
            ("yellow", "{'red': 1, 'green': 1, 'blue': 0}"),
            ("light green", "{'red': 0.8, 'green': 1, 'blue': 0.8}"),
            ("red", "{'red': 1, 'green': 0, 'blue': 0}"),
        ),
    )
    r = t.row_of(key)
    sentence = pick(
        rng,
        (f"Highlight the row of {key} in {colour}.", f"Give {key}'s row a {colour} background."),
    )
    return Goal(
        sentence,
        (f"worksheet.format('A{r}:{t.last_column}{r}', {{'backgroundColor': {rgb}}})",),
        check_format=True,
    )


def add_filter(t: Table, rng: np.random.Generator) -> Goal:
    """A basic filter over the table."""
    sentence = pick(rng, ("Add a filter to the table.", "Turn on filtering for the whole table."))
    return Goal(
        sentence,
        (f"worksheet.set_basic_filter('A1:{t.last_column}{t.last_row}')",),
        check_layout=True,
    )


def freeze_header(t: Table, rng: np.random.Generator) -> Goal:
    """The header row frozen."""
    sentence = pick(
        rng, ("Freeze the header row.", "Keep the first row visible when scrolling (freeze it).")
    )
    return Goal(sentence, ("worksheet.freeze(rows=1)",), check_layout=True)


def group_totals(t: Table, rng: np.random.Generator) -> Goal | None:
    """The table replaced by totals per group (a DataFrame round trip)."""
    if t.group is None:
        return None
    col = pick(rng, t.numeric)
    sentence = f"Replace the table with the total {col.lower()} per {t.group.lower()}."
    frame = (
        f"df = get_as_dataframe(worksheet)\n"
        f"df = df.groupby('{t.group}', as_index=False)['{col}'].sum()\n{DATAFRAME_WRITE}"
    )
    return Goal(sentence, (frame,))


def pivot_table(t: Table, rng: np.random.Generator) -> Goal | None:
    """A pivot table beside the data."""
    if t.group is None:
        return None
    col = pick(rng, t.numeric)
    anchor = len(t.header) + 1
    spec = {
        "source": {
            "sheetId": "@",
            "startRowIndex": 0,
            "endRowIndex": t.last_row,
            "startColumnIndex": 0,
            "endColumnIndex": len(t.header),
        },
        "rows": [
            {
                "sourceColumnOffset": t.column(t.group) - 1,
                "showTotals": True,
                "sortOrder": "ASCENDING",
            }
        ],
        "values": [{"summarizeFunction": "SUM", "sourceColumnOffset": t.column(col) - 1}],
    }
    body = {
        "requests": [
            {
                "updateCells": {
                    "rows": [{"values": [{"pivotTable": spec}]}],
                    "start": {"sheetId": "@", "rowIndex": 0, "columnIndex": anchor},
                    "fields": "pivotTable",
                }
            }
        ]
    }
    text = json.dumps(body).replace('"@"', "worksheet.id").replace("true", "True")
    letter = column_letters(anchor)
    sentence = (
        f"Create a pivot table in {letter}1 with the sum of {col.lower()} per {t.group.lower()}."
    )
    return Goal(sentence, (f"sheet.batch_update({text})",), check_layout=True)


_RENAMES = {
    "Price": "Sale Price", "Cost": "Unit Cost", "Salary": "Annual Salary", "Years": "Tenure",
    "Math": "Mathematics", "Science": "Sciences", "English": "Literature", "Quantity": "In Stock",
    "Unit Cost": "Cost Each", "Reorder Level": "Minimum", "Planned": "Budgeted", "Actual": "Spent",
    "Department": "Team", "Product": "Item", "Name": "Employee", "Student": "Pupil",
    "Item": "Supply", "Category": "Expense",
}  # fmt: skip


def rename_column(t: Table, rng: np.random.Generator) -> Goal:
    """A column header renamed."""
    col = pick(rng, t.header)
    new = _RENAMES[col]
    sentence = pick(
        rng, (f"Rename the column {col} to {new}.", f"Change the {col} header to '{new}'.")
    )
    c = t.column(col)
    return Goal(
        sentence,
        (
            f"worksheet.update_cell(1, {c}, '{new}')",
            f"worksheet.update('{t.letter(col)}1', '{new}')",
        ),
    )


def conditional_update(t: Table, rng: np.random.Generator) -> Goal | None:
    """Every row below a threshold gets a new value."""
    if len(t.numeric) < 2:
        return None
    test, target = (str(c) for c in rng.choice(t.numeric, size=2, replace=False))
    values = sorted(int(v) for v in t.values(test))  # type: ignore[call-overload]
    threshold = values[len(values) // 2]
    hits = [str(r[0]) for r in t.rows if int(r[t.header.index(test)]) < threshold]  # type: ignore[call-overload]
    if not hits or len(hits) == len(t.rows):
        return None
    lines = [f"worksheet.update_cell({t.row_of(k)}, {t.column(target)}, 0)" for k in hits]
    frame = f"df = get_as_dataframe(worksheet)\ndf.loc[df['{test}'] < {threshold}, '{target}'] = 0\n{DATAFRAME_WRITE}"
    sentence = f"Set the {target.lower()} to 0 for every {t.entity} whose {test.lower()} is below {threshold}."
    return Goal(sentence, ("\n".join(lines), frame))


def clear_cell(t: Table, rng: np.random.Generator) -> Goal:
    """One value cleared."""
    col, key = pick(rng, t.numeric), _row_key(t, rng)
    r = t.row_of(key)
    sentence = pick(
        rng,
        (
            f"Clear the {col.lower()} of {key}.",
            f"Erase {key}'s {col.lower()}; leave the cell empty.",
        ),
    )
    return Goal(
        sentence,
        (
            f"worksheet.update_cell({r}, {t.column(col)}, '')",
            f"worksheet.batch_clear(['{t.letter(col)}{r}'])",
        ),
    )


def add_to_column(t: Table, rng: np.random.Generator) -> Goal:
    """Every value of a column grows by an amount (a DataFrame round trip, or cell by cell)."""
    col = pick(rng, t.numeric)
    amount = int(pick(rng, (1, 2, 5, 10, 100)))
    frame = (
        f"df = get_as_dataframe(worksheet)\ndf['{col}'] = df['{col}'] + {amount}\n{DATAFRAME_WRITE}"
    )
    cells = "\n".join(
        f"worksheet.update_cell({i + 2}, {t.column(col)}, {int(v) + amount})"  # type: ignore[call-overload]
        for i, v in enumerate(t.values(col))
    )
    sentence = pick(
        rng, (f"Add {amount} to every {col.lower()}.", f"Increase all values in {col} by {amount}.")
    )
    return Goal(sentence, (frame, cells))


OPERATIONS: dict[str, Operation] = {
    "set_value": set_value,
    "percent_change": percent_change,
    "add_row": add_row,
    "insert_row": insert_row,
    "delete_row": delete_row,
    "delete_column": delete_column,
    "derived_column": derived_column,
    "total_row": total_row,
    "sort": sort_rows,
    "title_row": title_row,
    "bold_header": bold_header,
    "currency_format": currency_format,
    "highlight_row": highlight_row,
    "filter": add_filter,
    "freeze": freeze_header,
    "group_totals": group_totals,
    "pivot_table": pivot_table,
    "rename_column": rename_column,
    "conditional_update": conditional_update,
    "clear_cell": clear_cell,
    "add_to_column": add_to_column,
}
"""Every operation by name, in the order the fixed splits cycle through them."""
