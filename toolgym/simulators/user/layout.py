"""What a message's layout says: marks, tables, drafts, headings and chat lines read as sentences.

Agents write markdown (bold marks, headings, tables), drafts of a call with blanks for the user
to fill, written-out reasoning before their question, and questions sent as several short chat
lines. :func:`plain_marks` rewrites each as the plain sentences it stands for, before the
message is read (:mod:`~toolgym.simulators.user.matcher`).
"""

from __future__ import annotations

import re

from toolgym.simulators.user.first_chars import compiled

_EMPHASIS = compiled(r"\*\*|(?<![\w])__|__(?![\w])")
"""Markdown's bold and code marks, which say nothing a reader needs."""
_HEADING = compiled(
    r"(?m)^[ \t]*(?:#{1,6}[ \t]+(?=\S)|\*\*(?=[^*\n]+\*\*[ \t]*$))([^*:?!.\n]{1,40}?)\**[ \t]*$"
)
"""A heading line (``**Property type**``, ``## Dates``): it names what the lines under it are
about, as a line ending in a colon does."""


_SYMBOLS = (
    (compiled(r"(?:(?<!\s)\s*)?(?:<=|\u2264|=<)\s*(?=[$\u20ac\u00a3]?\d)"), " at most "),
    (compiled(r"(?:(?<!\s)\s*)?(?:>=|\u2265)\s*(?=[$\u20ac\u00a3]?\d)"), " at least "),
    (compiled(r"(?<=[A-Za-z])\s*<\s*(?=[$\u20ac\u00a3]?\d)"), " below "),
    (compiled(r"(?<=[A-Za-z])\s*>\s*(?=[$\u20ac\u00a3]?\d)"), " above "),
    (compiled(r"(?<=[A-Za-z])\s*(?<![=!<>])=(?![=>])\s*(?=[$\u20ac\u00a3]?-?\d)"), " to "),
)
"""Comparisons written as symbols before a number (``unit cost < 13``, ``qty = 0``), as words.

The spaces before a symbol are read from their start only (from each space of a long run, the
rest of the run was read again: a run's length squared)."""


_TABLE_ROW = compiled(r"[ \t]*\|(.*)\|[ \t]*")
_TABLE_RULE = compiled(r"(?:[ \t]*\|)?(?:[ \t]*:?-{2,}:?[ \t]*\|)+(?:[ \t]*:?-{2,}:?[ \t]*)?")
"""A table's rule line (``|---|:--:|``), read whole. (The spaces before a rule's first bar
belong to the bar: two runs of spaces side by side made a line of spaces cost its length
squared, 140 ms at 4,000.)"""


_HEADINGS = frozenset(
    {
        "detail",
        "value",
        "field",
        "parameter",
        "item",
        "setting",
        "criteria",
        "criterion",
        "key",
        "name",
        "what",
        "requirement",
        "filter",
        "preference",
        "param",
        "argument",
        "arg",
        "input",
        "property",
        "attribute",
        "option",
        "answer",
        "your answer",
        "what i have",
        "spec",
        "info",
        "information",
        "",
    }
)
"""Words a table's header row is made of (``| Detail | Value |``), compared without a plural s."""
_CHOSEN = compiled(
    r"^([ \t]*(?:[-*\u2022]|\d+[.)])?[ \t]*)([a-z]+)[ \t]*(?:/|\bor\b)[ \t]*([a-z]+)[ \t]*:"
    r"[ \t]*([a-z]+)\b",
    re.IGNORECASE | re.MULTILINE,
)
"""A choice's name answered by one of its options (``- Buy/Rent: Rent``): the option alone."""


_LISTED_FIELD = compiled(
    r"^([ \t]*(?:[-*\u2022]|\d+[.)])[ \t]*)([^:?\n]{1,30}?):[ \t]+(?=[^\n]*[^?\s][ \t]*$)",
    re.MULTILINE,
)
"""A list's ``name: value`` line (``- Flavor: peanut butter``): the name and its value read as one
sentence, as ``Flavor peanut butter`` is (a colon ends a sentence)."""


_NAMED_NUMBER = compiled(
    r"(?<![\w:])(\"?)([A-Za-z][A-Za-z _-]{0,29}?)\1[ \t]*:[ \t]*"
    r"(?=-?\$?\d[\d,]*(?:\.\d+)?[ \t]*(?:[,;}\n]|$|and\b|\.(?!\d)))"
)
"""A number written after its field's name and a colon (``bedrooms: 2,``, ``"baths": 1}``): the
name and the number read as one phrase, as ``bedrooms 2`` is (a colon ends a sentence)."""


def _table_as_list(message: str) -> str:
    """``message`` with a markdown table's rows written as a list of ``name: value`` lines.

    ``| Buy/Rent | Rent |`` reads ``- Buy/Rent: Rent``, as a bulleted summary is read; the
    header row (the one above the rule) and the rule are left out.
    """
    lines = message.split("\n")
    kept = []
    for i, line in enumerate(lines):
        if _TABLE_RULE.fullmatch(line):
            continue
        row = _TABLE_ROW.fullmatch(line)
        if row is None:
            kept.append(line)
            continue
        cells = [c.strip() for c in row.group(1).split("|") if c.strip()]
        if (
            i + 1 < len(lines)
            and _TABLE_RULE.fullmatch(lines[i + 1])
            and all(c.lower().rstrip("s") in _HEADINGS for c in cells)
        ):
            continue  # the header: "| Detail | Value |" ("| Item | trail mix |" is a row)
        if cells:
            kept.append(
                "- " + (f"{cells[0]}: {', '.join(cells[1:])}" if len(cells) > 1 else cells[0])
            )
    return "\n".join(kept)


_THOUGHT = compiled(
    r"^\s*(?:thoughts?|thinking|reasoning|internal note|observation|analysis)\s*:.*?"
    r"\b(?:question|ask|ask_user|q|to user|reply|message)\s*:\s*",
    re.IGNORECASE | re.DOTALL,
)
"""An agent's reasoning written out before its question (``Thought: I still need the bedrooms.
Question: how many ...?``): only the question is said to the user."""


_BLANK_FIELD = compiled(
    r"(?P<name>\"[A-Za-z][A-Za-z_ -]{0,29}\"|\b[A-Za-z][A-Za-z_-]*(?: [A-Za-z_-]+){0,2})\s*[:=]\s*"
    r"(?:\?{1,3}|_{2,}|\[\s*\]|<[^<>\n]{0,20}>|tbd\b|null\b)(?=\s*(?:[,}\n]|$))",
    re.IGNORECASE,
)
"""A field a draft leaves blank (``"beds": ___``, ``rooms: ?``, ``transportation = ??``)."""
_FILL_IN = compiled(
    r"(?:(?:please|pls|could you|can you|would you)\s+)?fill (?:in|out)\b(?: the| those| these)?"
    r"(?: two| three| four| five)?(?: blanks?| question marks?| gaps?| fields?| rest| missing ones)?"
    r"(?: for me)?(?: please)?\s*[:.?!]?",
    re.IGNORECASE,
)
"""The request to fill a draft's blanks: each blank is a question of its own."""


def _blanks_asked(message: str) -> str:
    """``message`` with a draft's blank fields written as questions, its fill-in request out.

    ``"beds": ___`` reads ``What is the beds?``: each blank is asked for. A draft has fields
    (two blanks, or a blank among fields already filled in), and a message that is one blank
    field and nothing else (``dep_date: ?``) asks for it; a lone ``price=___`` after other
    words is left as written, a request to fill in the blanks.
    """
    blanks = len(_BLANK_FIELD.findall(message))
    alone = blanks == 1 and not _BLANK_FIELD.sub("", message).strip(" \t\n*#>-")
    if blanks == 0 or (blanks == 1 and message.count(":") + message.count("=") < 3 and not alone):
        return message
    asked = _BLANK_FIELD.sub(
        lambda m: "\nWhat is the " + m.group("name").strip('"').replace("_", " ") + "?\n", message
    )
    return asked if asked == message else _FILL_IN.sub("", asked)


_BARE_WH_ITEM = compiled(r"(?im)^([ \t]*(?:from |to )?(?:where|when))[ \t]*(?:\+|&|,|/)[ \t]*")
"""A question word alone as the first item of a list (``where + check-in date + room type``):
a question of its own."""


_OPENERS = (
    "hey", "hi", "hello", "yo", "ok", "okay", "k", "so", "sure", "alright", "all right", "great",
    "thanks", "thx", "ty", "cool", "nice", "perfect", "got it", "gotcha", "noted", "right", "now",
    "next", "quick q", "quick question", "one more", "one more thing", "also", "and",
)  # fmt: skip
_BURST_FILLER = compiled(rf"^(?:(?:{'|'.join(_OPENERS)})\W*)+$", re.IGNORECASE)
"""A chat burst's line that only opens the next (``hey``, ``ok cool``, ``quick q``)."""


def _bursts(message: str) -> str:
    """A message sent as short chat lines ending in a question, read as one question.

    ``ok cool`` / ``for the houston hotel`` / ``how many rooms?`` reads ``for the houston
    hotel, how many rooms?``: lines that only open the next go, and the rest is one sentence.
    """
    lines = [line.strip() for line in message.split("\n") if line.strip()]
    if (
        len(lines) < 2
        or not lines[-1].endswith("?")
        or any(len(line.split()) > 7 or line[-1] in ".:;" for line in lines)
        or any(line.endswith("?") for line in lines[:-1])
    ):
        return message
    kept = [line for line in lines if not _BURST_FILLER.match(line)] or lines[-1:]
    return ", ".join(kept)


_SPACED_SLASH = compiled(r"(?<=[A-Za-z]) / (?=[A-Za-z])")
"""A slash between two words, spaced: the words joined as by a bare slash."""


def plain_marks(message: str) -> str:
    """``message`` as plain sentences: its layout and marks read as what they say.

    Short chat lines ending in a question are one question (:func:`_bursts`), reasoning
    written out before a ``Question:`` label is left out, a draft's blank fields are
    asked for, a heading line ends in a colon, bold and code marks go, a question word
    heading a list is asked, a table's rows are a list of ``name: value`` lines, a list's
    ``name: value`` line one sentence (and any ``name: number``), and comparison symbols are
    words.
    """
    if "`" in message:
        message = message.replace("`", "")  # "`checkout_date?`"
    if "\n" in message:
        message = _bursts(message)
    if ":" in message or "=" in message:  # before the bold marks go: "beds: ___"
        message = message.replace("**", "")  # "**Color:** ?"
        message = _blanks_asked(_THOUGHT.sub("", message, count=1))
    if "**" in message or "#" in message:
        message = _HEADING.sub(r"\1:", message)
    message = _EMPHASIS.sub("", message)
    if "+" in message or "&" in message or "," in message or "/" in message:
        message = _BARE_WH_ITEM.sub(lambda m: f"{m[1]}? ", message)
    if " / " in message:
        message = _SPACED_SLASH.sub("/", message)  # "how many beds / baths?" as "beds/baths"
    if "|" in message:
        message = _table_as_list(message)
    if ":" in message:
        message = _CHOSEN.sub(
            lambda m: (
                m.group(1) + m.group(4)
                if m.group(4).lower() in (m.group(2).lower(), m.group(3).lower())
                else m.group()
            ),
            message,
        )
        message = _LISTED_FIELD.sub(r"\1\2 ", message)
        message = _NAMED_NUMBER.sub(r"\2 ", message)
    if (
        "<" in message
        or ">" in message
        or "=" in message
        or "\u2264" in message
        or "\u2265" in message
    ):
        for pattern, words in _SYMBOLS:
            message = pattern.sub(words, message)
    return message
