"""Numbers written in words: ``two``, ``the ninth``, ``one hundred and fifty``, ``half a million``.

What :func:`~.text._canonical` reads to write a message's numbers in digits, and what the
values' reading takes for an ordinal (``the ninth floor``).
"""

from __future__ import annotations

import re

from toolgym.simulators.user.first_chars import compiled

_NUMBER_WORDS = {
    w: str(n)
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
}
_ORDINAL_WORDS = {
    w: float(n)
    for n, w in enumerate(
        [
            "first",
            "second",
            "third",
            "fourth",
            "fifth",
            "sixth",
            "seventh",
            "eighth",
            "ninth",
            "tenth",
            "eleventh",
            "twelfth",
        ],
        1,
    )
}
_ORDINAL_WORD = compiled(rf"(?<![0-9a-z'])({'|'.join(_ORDINAL_WORDS)}) (?=[0-9a-z])")
_NUMBER_WORD = compiled(rf"(?<![0-9a-z'])({'|'.join(_NUMBER_WORDS)})(?![0-9a-z'])")
_UNITS = {
    **{w: int(n) for w, n in _NUMBER_WORDS.items()},
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_NUMERAL = "|".join([*_UNITS, *_SCALES])
_SPELLED = compiled(
    rf"(?<![0-9a-z.'])(?:(?:{'|'.join(_UNITS)})|a(?= (?:hundred|thousand|million)))"
    rf"(?:(?: and)? (?:{_NUMERAL}))*(?![0-9a-z'])"
)
"""A number written in words (``eighty``, ``one hundred and fifty``, ``a thousand``)."""
_PRONOUN_ONE = compiled(
    r"\b(which|that|this|the|each|any|every|another|other|same|right|wrong|new|last|next) "
    r"one(?![0-9a-z'])(?! (?:hundred|thousand|million|and a half)\b)"
)
"""``one`` that stands for a noun (``which one are you heading to?``): no number."""
_FRACTION = compiled(
    r"(?<![0-9a-z'])(?:(?P<n>one|two|three|a) )?(?P<part>half|quarters?|third|thirds)"
    r"(?: of)? (?:a |an )?(?P<scale>million|thousand|hundred)(?![0-9a-z'])"
)
"""A fraction of a round number (``half a million``, ``three quarters of a million``)."""


_CENTURIES = {"nineteen": 1900, "twenty": 2000}
_YEAR_ENDS = {
    "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
    "ninety",
}  # fmt: skip


def _spelled(match: re.Match[str]) -> str:
    """A number in words, in digits; a lone unit word stays as :data:`_NUMBER_WORDS` has it.

    A year said as two numbers (``twenty twenty seven``, ``nineteen ninety``) is that year.
    """
    total = current = 0
    words = [w for w in match.group(0).split() if w != "and"]
    if 1 < len(words) < 4 and words[0] in _CENTURIES and words[1] in _YEAR_ENDS:
        return str(_CENTURIES[words[0]] + sum(_UNITS.get(w, 0) for w in words[1:3]))
    if words[0] == "a":
        words[0] = "one"
    for word in words:
        if word in _UNITS:
            current += _UNITS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        else:
            total += (current or 1) * _SCALES[word]
            current = 0
    return str(total + current)


def _fraction(match: re.Match[str]) -> str:
    part = {"half": 0.5, "quarter": 0.25, "quarters": 0.25, "third": 1 / 3, "thirds": 1 / 3}
    count = {"one": 1, "two": 2, "three": 3, "a": 1, None: 1}[match.group("n")]
    value = count * part[match.group("part")] * _SCALES[match.group("scale")]
    return str(round(value))
