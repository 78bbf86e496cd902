"""Starting tables of Google Sheets tasks, generated from a seed.

Five kinds of table, each with a key column that names its rows and typed columns
(:class:`Table`): ``products`` (Product, Cost, Price, as the original's README example),
``employees`` (Name, Department, Salary, Years), ``grades`` (Student, Math, Science, English),
``inventory`` (Item, Quantity, Unit Cost, Reorder Level) and ``budget`` (Category, Planned,
Actual). Numbers are whole, so that programs that compute with them give exact values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from toolgym.families.google_sheets.world.a1 import column_letters

MEATS = (
    "beef", "pork", "chicken", "lamb", "duck", "fish", "turkey", "veal", "goat", "shrimp",
    "salmon", "tofu", "bacon", "ham", "crab", "rabbit",
)  # fmt: skip
NAMES = (
    "Alice", "Bruno", "Chen", "Dana", "Emeka", "Fatima", "Goran", "Hana", "Ines", "Jonas",
    "Keiko", "Liam", "Maya", "Nikos", "Olga", "Priya", "Quinn", "Rosa", "Sven", "Tariq",
)  # fmt: skip
DEPARTMENTS = ("Sales", "Engineering", "Marketing", "Finance", "Support")
SUPPLIES = (
    "pens", "pencils", "notebooks", "staplers", "folders", "markers", "erasers", "rulers",
    "scissors", "envelopes", "tape", "binders", "sticky notes", "paper clips",
)  # fmt: skip
CATEGORIES = (
    "Rent", "Groceries", "Travel", "Utilities", "Insurance", "Dining", "Education", "Health",
    "Clothing", "Gifts", "Internet", "Transport",
)  # fmt: skip


@dataclass(frozen=True)
class Table:
    """A starting table.

    Attributes:
        kind: which generator made it (``products``, ``employees``, ...).
        header: the column names.
        rows: the data rows (the key column first).
        entity: what a row is, for goals ("product", "employee").
        numeric: the names of the number columns.
        group: a column whose values repeat (for pivots), if the table has one.
    """

    kind: str
    header: tuple[str, ...]
    rows: tuple[tuple[object, ...], ...]
    entity: str
    numeric: tuple[str, ...]
    group: str | None = None

    @property
    def key(self) -> str:
        """The column that names rows."""
        return self.header[0]

    @property
    def grid(self) -> list[list[object]]:
        """Header and rows, as a task's ``setup["table"]``."""
        return [list(self.header), *[list(r) for r in self.rows]]

    @property
    def last_row(self) -> int:
        """The 1-based sheet row of the last data row."""
        return len(self.rows) + 1

    @property
    def last_column(self) -> str:
        """The letter of the last column."""
        return column_letters(len(self.header) - 1)

    def column(self, name: str) -> int:
        """The 1-based index of a column."""
        return self.header.index(name) + 1

    def letter(self, name: str) -> str:
        """The letter of a column."""
        return column_letters(self.header.index(name))

    def row_of(self, key: object) -> int:
        """The 1-based sheet row of the row named ``key``."""
        return 2 + [r[0] for r in self.rows].index(key)

    def value(self, key: object, column: str) -> object:
        """The value in row ``key`` and column ``column``."""
        return self.rows[self.row_of(key) - 2][self.header.index(column)]

    def values(self, column: str) -> list[object]:
        """The values of a column, in row order."""
        return [r[self.header.index(column)] for r in self.rows]


def _names(rng: np.random.Generator, pool: tuple[str, ...], n: int) -> list[str]:
    return [pool[i] for i in rng.choice(len(pool), size=n, replace=False)]


def products(rng: np.random.Generator, n: int) -> Table:
    """Products with a cost and a price."""
    rows = []
    for name in _names(rng, MEATS, n):
        cost = int(rng.integers(1, 16))
        rows.append((name, cost, cost + int(rng.integers(-2, 30))))
    return Table(
        "products", ("Product", "Cost", "Price"), tuple(rows), "product", ("Cost", "Price")
    )


def employees(rng: np.random.Generator, n: int) -> Table:
    """Employees with a department, a salary and years of service."""
    rows = [
        (
            name,
            DEPARTMENTS[int(rng.integers(3))] if i < n - 1 else DEPARTMENTS[int(rng.integers(5))],
            int(rng.integers(40, 130)) * 1000,
            int(rng.integers(1, 21)),
        )
        for i, name in enumerate(_names(rng, NAMES, n))
    ]
    return Table(
        "employees",
        ("Name", "Department", "Salary", "Years"),
        tuple(rows),
        "employee",
        ("Salary", "Years"),
        group="Department",
    )


def grades(rng: np.random.Generator, n: int) -> Table:
    """Students with three marks."""
    rows = [
        (name, *(int(rng.integers(45, 101)) for _ in range(3))) for name in _names(rng, NAMES, n)
    ]
    return Table(
        "grades",
        ("Student", "Math", "Science", "English"),
        tuple(rows),
        "student",
        ("Math", "Science", "English"),
    )


def inventory(rng: np.random.Generator, n: int) -> Table:
    """Office supplies with a quantity, a unit cost and a reorder level."""
    rows = [
        (name, int(rng.integers(0, 200)), int(rng.integers(1, 25)), int(rng.integers(10, 60)))
        for name in _names(rng, SUPPLIES, n)
    ]
    return Table(
        "inventory",
        ("Item", "Quantity", "Unit Cost", "Reorder Level"),
        tuple(rows),
        "item",
        ("Quantity", "Unit Cost", "Reorder Level"),
    )


def budget(rng: np.random.Generator, n: int) -> Table:
    """Budget categories with planned and actual spending."""
    rows = []
    for name in _names(rng, CATEGORIES, n):
        planned = int(rng.integers(2, 40)) * 50
        rows.append((name, planned, planned + int(rng.integers(-10, 11)) * 25))
    return Table(
        "budget", ("Category", "Planned", "Actual"), tuple(rows), "category", ("Planned", "Actual")
    )


TABLES: dict[str, Callable[[np.random.Generator, int], Table]] = {
    "products": products,
    "employees": employees,
    "grades": grades,
    "inventory": inventory,
    "budget": budget,
}
"""Every table generator by kind."""


def make_table(kind: str, rng: np.random.Generator) -> Table:
    """A table of ``kind`` with 5 to 8 rows."""
    return TABLES[kind](rng, int(rng.integers(5, 9)))
