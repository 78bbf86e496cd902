"""Google Sheets as a conversation: the user holds back which cells change, and how.

A task's goal sentence is read against the templates of its operation (meta ``operation``); its
parts become slots. What the user may hold back is what the sentence gives and the table does
not show: the new value (a cell's new value, a percentage, an amount, a new row's values), the
name of what is added (a new row, column, header or title), the sort order, the format, and the
cell of a pivot table. Each is checked against the literals of the gold programs (parsed with
``ast``), and is held back only when no way of writing it appears in the table or in the rest
of the request. What the request is about (the row, the column, a condition, a calculation,
the grouping, the merge) is always given. A goal no template reads has no slots.

The gold is gspread code, so a step is judged by what it did to the spreadsheet
(:mod:`.changes`): it guesses a held-back value when it writes it into a cell (however the
program computed it: ``0xf``, ``7 + 8``, a formula), a name as a cell or a sheet's title, the
order when it leaves the rows sorted that way, and the format or a pivot table's cell when it
changes any format or adds any pivot table.
"""

from __future__ import annotations

import ast
import contextlib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from toolgym.benchmarks.tasks import Task
from toolgym.conversation.tasks import ChatProfile, chat_suite
from toolgym.conversation.toolkit import ChatToolkit
from toolgym.families.google_sheets.toolkit import SheetsToolkit
from toolgym.families.google_sheets.world.a1 import column_letters
from toolgym.simulators.user import Slot, SlotKind, Vocabulary
from toolgym.simulators.user.slots import contains_phrase, normalize


def _words(text: str) -> tuple[str, ...]:
    """The comma-separated words of a slot kind, most natural first."""
    return tuple(w.strip() for w in text.split(","))


_COLUMNS = "cost, price, department, salary, years, math, science, english, quantity, unit cost, reorder level, planned, actual"
_KINDS = (  # name, words, the oracle's question
    ("value", "new value, new values, what value, which value, what values, which values, what number, which number, what numbers, which numbers, the numbers, numbers for, numbers go, numbers should, s numbers, and numbers, its numbers, their numbers, figures, what figure, which figure, new number, new figure, amount, how much, by how much, how big, increase, decrease, increment, add, marks, scores, grades, percent, percentage, what percentage, row values, values for the row, values of the row, values for the new row, change it to, changed to, set it to, set to, set them to, set those to, change them to, change those to, update it to, updated to, should it become, it become, should they become, should become, math mark, " + ", ".join(f"new {c}" for c in _words(_COLUMNS)), "What value should I use?"),
    ("name", "name, names, what name, new name, called, call, call it, what to call, title, title text, label, heading, rename, renamed, renaming, rename it to, header, new header, header name, column name, new column name, who, new entry, new product, new employee, new student, new item, new category, which product, which employee, which student, which item, which category, which supply, should it say, it should say, should it read, written on top, heading say, title say, text at the top, top of the new column, top of the column, head of the column", "What name should I use?"),
    ("order", "order, sort order, sorting order, which order, what order, direction, sort direction, ascending or descending, descending or ascending, which way, sort, sorted, sorting, how to sort, come first, go first, at the top or the bottom, at the top or bottom, top or bottom, at the top or at the bottom, top of the table or, end up at the top, end up on top", "In which order should I sort?"),
    ("format", "format, formatting, formatted, style, styling, look, look like, how should it look, colour, color, what colour, what color, which colour, which color, shade, what shade, which shade, fill colour, fill color, filled with, fill it with, background, background colour, background color, highlight, highlighted, font, number format, appearance, display, displayed, shown", "How should I format it?"),
    ("cell", "cell, which cell, what cell, where, location, anchor, anchor cell, starting cell, start cell, top-left cell, top left cell, start at, starts at, place it, put it", "Which cell should it go in?"),
    ("row", "row, which row, what row, rows, header row, column titles, which entry", "Which row is it?"),
    ("column", "column, columns, which column, what column, " + ", ".join(f"{c} column" for c in _words(f"{_COLUMNS}, product, name, student, item, category")), "Which column is it?"),
    ("condition", "condition, threshold, cutoff, cut-off, below, which rows, whose", "Which rows should change?"),
    ("calculation", "calculation, formula, formulas, compute, computed, calculate, calculated", "What calculation should the column hold?"),
    ("group", "group by, grouped by, group, grouping, per what, for each", "What should I group by?"),
    ("merge", "merge, merged, merging, span, spans, across, how wide", "How far should the merge go?"),
)  # fmt: skip
_VALUES = {
    "order": (
        "from highest to lowest, highest to lowest, descending, high to low, largest first, highest first, biggest first, decreasing, largest to smallest",
        "from lowest to highest, lowest to highest, ascending, low to high, smallest first, lowest first, increasing, smallest to largest",
    ),
    "format": ("bold, in bold, boldface", "currency, as currency, dollars, as dollars, dollar", "yellow", "light green", "red", "green", "blue", "italic, italics, in italics, italicize, italicized", "underline, underlined", "percent, percentage, percentages, as a percentage, as percentages", "as a date, date format"),
}  # fmt: skip
_WEAK = "value, new row, costs, prices, salaries, maths, spending, years of service, " + _COLUMNS
"""The columns' names: the new value's words in a question, not beside a checked condition."""
_CARRIERS = {"format": "format_cells", "cell": "add_pivot_table"}
"""The changes that set a kind whatever its value (:mod:`.changes`): any format, any pivot table.
The others are set by writing their value."""
_GIVEN = ("row", "column", "condition", "calculation", "group", "merge")
"""What a request is about: never held back."""

VOCABULARY = Vocabulary(
    [
        SlotKind(
            name,
            _words(words),
            "cell {text}" if name == "cell" else "{text}",
            _CARRIERS.get(name),
            question=question,
            values=tuple(_words(v) for v in _VALUES.get(name, ())),
            weak=_words(_WEAK) if name == "value" else (),
        )
        for name, words, question in _KINDS
    ],
    topic="editing a spreadsheet",
)

_TEMPLATES = tuple(
    (op.strip(), pattern, dict(v.split("=", 1) for v in vague))
    for line in r"""
set_value | Change the (?P<column>.+) of (?P<row>.+) to (?P<value>\S+)\.
set_value | Set (?P<row>.+)'s (?P<column>.+) to (?P<value>\S+)\.
set_value | The (?P<column>.+) for (?P<row>.+) is now (?P<value>\S+); update the sheet\.
percent_change | (?:Increase|Raise|Decrease|Cut|Lower) (?P<row>.+)'s (?P<column>.+) by (?P<value>\d+%)\. | value=a percentage I'll give you
percent_change | (?:Increase|Raise|Decrease|Cut|Lower) the (?P<column>.+) of (?P<row>.+) by (?P<value>\d+ percent)\. | value=a percentage I'll give you
add_row | Add a new \w+(?P<name> .+) with (?P<value>.+)\. | name=, whose name I'll give you, | value=values I'll give you
add_row | Append (?P<name>.+) to the table(?P<value>: .+)\. | name=a new row (I'll give you its name) | value=, with values I'll give you
insert_row | Insert a row for (?P<name>.+) (?P<value>\(.+\)) right below (?P<row>.+)\. | name=a new entry whose name I'll give you | value=(with values I'll give you)
delete_row | Remove (?P<row>.+) from the table\.
delete_row | Delete the row of (?P<row>.+)\.
delete_row | (?P<row>.+) is gone; delete its row\.
delete_column | Delete the (?P<column>.+) column\.
delete_column | We no longer need the (?P<column>.+) column; remove it\.
derived_column | Add a column(?P<name> .+) with (?P<calculation>.+) for every \w+\. | name= (I'll give you its name)
derived_column | Create a new column(?P<name> called .+) that holds (?P<calculation>.+)\. | name=, with a name I'll give you,
total_row | Add a Total row at the bottom with the sum of the (?P<column>.+) column\.
total_row | Below the table, add a row named Total that sums up (?P<column>.+)\.
sort | Sort the rows by (?P<column>.+?)(?P<order> from (?:highest to lowest|lowest to highest))\. | order= in an order I'll give you
sort | Order the table by (?P<column>.+?)(?P<order> from (?:highest to lowest|lowest to highest))\. | order= in an order I'll give you
title_row | Insert a title row(?P<name> '.+') above the table and (?P<merge>merge it across all \d+ columns)\. | name= (I'll give you its text)
bold_header | (?P<format>Make (?P<row>the header row) bold)\. | format=Format {row} the way I'll tell you
bold_header | (?P<format>Put (?P<row>the column titles) in bold)\. | format=Format {row} the way I'll tell you
currency_format | Format the (?P<column>.+) column(?P<format> as dollars with two decimals)\. | format= the way I'll tell you
currency_format | (?P<format>Show (?P<column>.+) as currency, like \$1,234\.00)\. | format=Format the {column} column the way I'll tell you
highlight_row | Highlight the row of (?P<row>.+)(?P<format> in (?:yellow|light green|red))\. | format= in a colour I'll give you
highlight_row | Give (?P<row>.+)'s row (?P<format>a (?:yellow|light green|red) background)\. | format=a background colour I'll give you
group_totals | Replace the table with the total (?P<column>.+) per (?P<group>.+)\.
pivot_table | Create a pivot table(?P<cell> in [A-Z]+1) with the sum of (?P<column>.+) per (?P<group>.+)\. | cell= at a cell I'll give you
rename_column | Rename the column (?P<column>.+) to (?P<name>.+)\. | name=a new name I'll give you
rename_column | Change the (?P<column>.+) header to (?P<name>'.+')\. | name=a new name I'll give you
conditional_update | Set the (?P<column>.+) to (?P<value>\d+) for every \w+ whose (?P<condition>.+ is below \d+)\. | value=a value I'll give you
clear_cell | Clear the (?P<column>.+) of (?P<row>.+)\.
clear_cell | Erase (?P<row>.+)'s (?P<column>.+); leave the cell empty\.
add_to_column | Add (?P<value>\d+) to every (?P<column>.+)\. | value=an amount I'll give you
add_to_column | Increase all values in (?P<column>.+) by (?P<value>\d+)\. | value=an amount I'll give you
""".strip().splitlines()
    for op, pattern, *vague in [line.split(" | ")]
)
"""Each operation's goal sentences, ``operation | pattern | kind=vague words...``: a group is a
slot of its kind; a held-back group's span is replaced by the vague words (``{group}`` filled
from the sentence), else by a new value's."""

_RGB = {
    "yellow": "red 1 green 1 blue 0",
    "light green": "red 0.8 green 1 blue 0.8",
    "red": "red 1 green 0 blue 0",
}
"""A highlight colour as its gold writes it (``{'red': 1, 'green': 1, 'blue': 0}``)."""


def _gold(task: Task) -> tuple[list[Any], list[str]]:
    """The literals of the task's golds, and how they write cells (``3 4 15``, ``D3 15``)."""
    literals: list[Any] = []
    writes: list[str] = []
    for gold in task.gold:
        try:
            tree = ast.parse(gold)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant | ast.List):
                with contextlib.suppress(ValueError):
                    literals.append(ast.literal_eval(node))
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            try:
                args = [ast.literal_eval(a) for a in node.args]
            except ValueError:
                continue
            cell = node.func.attr == "update_cell" and len(args) == 3
            a1 = node.func.attr == "update" and len(args) == 2 and isinstance(args[0], str)
            if (cell or a1) and _scalar(args[-1]):
                writes.append(" ".join(str(a) for a in args))
    return [v for v in literals if v is not None and not isinstance(v, bool)], writes


def _scalar(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _given(kind: str, text: str, table: list[list[Any]]) -> Slot | None:
    """A slot the user always gives, as the table names it (``None``: the table lacks it)."""
    if kind == "row":
        keys = [str(r[0]) for r in table[1:] if r]
        fixed = text in ("the header row", "the column titles")
        return Slot("row", 1 if fixed else text, text) if fixed or text in keys else None
    if kind == "column":
        header = [str(h) for h in table[0]] if table else []
        name = next((h for h in header if h.lower() == text.lower()), None)
        return None if name is None else Slot("column", name, f"the {name} column", (name,))
    if kind == "group":
        return Slot(kind, text, f"per {text}", (text,))
    if kind == "merge" and (count := re.search(r"\d+", text)) is not None:
        n, last = int(count.group()), column_letters(int(count.group())).lower()
        return Slot(  # "merged over the 3 columns", "across columns A to C"
            kind,
            text,
            text,
            (f"across all {n} columns", f"all {n} columns", f"the {n} columns",
             f"{n} columns", f"columns a to {last}", f"a to {last}", f"a1 to {last}1"),
        )  # fmt: skip
    return Slot(kind, text, text)


def _value(
    op: str, text: str, literals: list[Any], writes: list[str], header: list[str]
) -> Slot | None:
    """The value to write: a cell's new value, a percentage, an amount, a new row's values."""
    if op == "percent_change":
        percent = text.split()[0].rstrip("%")
        new = [w.split()[-1] for w in writes][:1]
        aliases = (f"{percent} percent", *new, *writes)
        return Slot("value", f"{percent}%", f"{percent}%", (f"by {percent}%", *aliases))
    if op in ("add_row", "insert_row"):
        rows = [v for v in literals if isinstance(v, list) and len(v) == len(header) > 1]
        if not rows:
            return None
        fields = rows[0][1:]
        parts = [f"{h.lower()} {v}" for h, v in zip(header[1:], fields, strict=True)]
        said = f"{', '.join(parts[:-1])} and {parts[-1]}" if len(parts) > 1 else parts[0]
        if not contains_phrase(normalize(text), normalize(said)):
            return None
        return Slot("value", fields, said, (" ".join(map(str, fields)), " ".join(parts)))
    number = int(text) if text.isdigit() else None
    if number is None or number not in literals:
        return None
    extra = (f"+ {number}", f"+{number}") if op == "add_to_column" else ()
    return Slot("value", number, str(number), (*extra, *writes))


def _held(kind: str, text: str, op: str, task: Task, header: list[str]) -> Slot | None:
    """A slot the user may hold back, checked against the gold (``None``: the gold disagrees)."""
    literals, writes = _gold(task)
    if kind == "value":
        return _value(op, text, literals, writes, header)
    if kind == "name":
        said = normalize(text)
        names = [v for v in literals if isinstance(v, str) and contains_phrase(said, normalize(v))]
        name = max(names, key=len, default="")
        return (
            Slot("name", name, f"the {'title' if op == 'title_row' else 'name'} {name}")
            if name
            else None
        )
    if kind == "order":
        down = "highest to lowest" in text
        code, words = ("des", 0) if down else ("asc", 1)
        ways = VOCABULARY["order"].values[words]
        flag = f"ascending {not down}".lower()
        said = f"{ways[2]} order ({ways[1]})"
        return Slot("order", code, said, (*ways[:3], flag)) if code in literals else None
    if kind == "format":
        colour = next((c for c in _RGB if re.search(rf"\b{c}\b", text)), None)
        if colour is not None and "backgroundColor" in literals:
            return Slot("format", colour, f"a {colour} background", (colour, _RGB[colour]))
        if "bold" in text and "bold" in literals:
            return Slot("format", "bold", "bold", ("in bold",))
        if "CURRENCY" in literals:
            return Slot("format", "CURRENCY", "dollars with two decimals", ("currency", "dollars"))
        return None
    cell = text.split()[-1]
    index = [v for v in literals if _scalar(v) and column_letters(int(v)) + "1" == cell]
    return Slot("cell", cell, cell, (f"columnindex {index[0]}",)) if index else None


def _hidden(slot: Slot, shown: str) -> Slot | None:
    """``slot`` without the aliases ``shown`` writes; ``None`` when ``shown`` writes its value."""
    aliases = tuple(a for a in slot.aliases if not contains_phrase(shown, normalize(a)))
    slot = Slot(slot.kind, slot.value, slot.text, aliases)
    return None if any(contains_phrase(shown, f) for f in slot.forms()) else slot


def _read(task: Task) -> tuple[re.Match[str], dict[str, str], list[Slot]] | None:
    """The task's goal sentence read by a template of its operation, and its slots in order."""
    op = str(task.meta.get("operation", ""))
    sentence, _, rest = task.instruction.partition("\n")
    found = [
        (m, vague)
        for name, pattern, vague in _TEMPLATES
        if name == op and (m := re.fullmatch(pattern, sentence)) is not None
    ]
    table = (task.setup or {}).get("table") or []
    if not found or not isinstance(table, list) or not table:
        return None
    match, vague = found[0]
    header = [str(h) for h in table[0]]
    slots = []
    for kind, text in match.groupdict().items():
        if kind in _GIVEN:
            slot = _given(kind, text, table)
            if slot is None:
                return None  # the sentence names what the table lacks: not this template's
        else:
            held = _held(kind, text, op, task, header)
            shown = normalize(sentence[: match.start(kind)] + sentence[match.end(kind) :] + rest)
            slot = None if held is None else _hidden(held, shown)
        if slot is not None:
            slots.append((match.start(kind), slot))
    return match, vague, [s for _, s in sorted(slots, key=lambda p: p[0])]


def slots(task: Task) -> list[Slot]:
    """The details of the task's goal, in the sentence's order (none for an unknown goal)."""
    read = _read(task)
    return [] if read is None else read[2]


def opening(task: Task, given: Sequence[Slot]) -> str:
    """The request with each held-back detail replaced by vague words, then the table.

    ``Change the years of Jonas to a new value I'll give you.``
    """
    read = _read(task)
    if read is None:
        return task.instruction
    match, vague, found = read
    kept = {s.kind for s in given}
    sentence, newline, rest = task.instruction.partition("\n")
    for kind in sorted((s.kind for s in found if s.kind not in kept), key=match.start)[::-1]:
        words = vague.get(kind, "a new value I'll give you").format(**match.groupdict())
        sentence = sentence[: match.start(kind)] + words + sentence[match.end(kind) :]
    return sentence + newline + rest


PROFILE = ChatProfile(
    name="google_sheets_chat",
    inner_tasks="toolgym.families.google_sheets.tasks:SUITE",
    vocabulary=VOCABULARY,
    slots=slots,
    opening=opening,
    data_dir=str(Path(__file__).parent / "data"),
    always_given=_GIVEN,
)


class SheetsChatToolkit(ChatToolkit):
    """Google Sheets' toolkit with the user channel."""

    inner_class = SheetsToolkit
    vocabulary = VOCABULARY


SUITE = chat_suite("toolgym.families.google_sheets.chat:PROFILE")
