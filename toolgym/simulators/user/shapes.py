"""Values a reader tells by their shape, and names it cannot know.

An email, a URL or a labelled code is a value of the one kind whose value has that shape; a yes/no
question may place a year or a spreadsheet cell; a short code that is also a word (``IT``) counts
only in capitals; a capitalized name the opening did not write, a quoted text or a date is a value
the reader does not know.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import NamedTuple

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.memo import TASKS_KEPT, per_task
from toolgym.simulators.user.phrases import _CAPITAL, _CODE, _QUOTED
from toolgym.simulators.user.placing import _measured, given_elsewhere
from toolgym.simulators.user.slots import (
    Slot,
    Vocabulary,
    contains_phrase,
    normalize,
    normalized,
    standalone,
)
from toolgym.simulators.user.text import _MONTHS, _canonical, _phrase, writes_date

_SHORT_CODE = compiled(r"[A-Z]{2,3}")
_CASE_TURN = compiled(r"(?<=[a-z])(?=[A-Z])")
_NAME_WORD = compiled(r"[\w'&-]+")
_SHAPES = (
    compiled(r"[a-z0-9._+]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+"),
    compiled(r"(?:https?://|www\.)[^\s]+"),
    compiled(r"(?<![0-9a-z+])\+\d{7,15}(?![0-9a-z])"),
    compiled(r"(?<![0-9a-z-])(?:19|20)\d\d-[01]\d-[0-3]\d(?![0-9a-z-])"),
    compiled(
        r"(?<![@\w./-])(?!www\.)(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|co|edu|gov|info|app|me|uk|"
        r"de|fr)(?![\w/-]|\.[a-z])"
    ),
    compiled(r"(?<![0-9a-z])https? [a-z0-9-]+(?:\.[a-z0-9-]+)+(?:/[^\s]*)?"),
    compiled(
        r"(?<![0-9a-z.])[a-z]?\d+(?:\.\d+)?[a-z]{0,2} ?x ?[a-z]?\d+(?:\.\d+)?[a-z]{0,2}(?![0-9a-z])"
    ),
    compiled(r"(?<![0-9a-z@./])(?=[a-z]*[0-9])(?=[0-9]*[a-z])[0-9a-z]{6,}(?![0-9a-z@]|\.[a-z])"),
)
"""Shapes of values a reader can tell without knowing them: an email, a URL, an international
phone number, an ISO date (``2024-01-01``), a domain name, a URL as read (``https
example.com/status``), a size in two dimensions (``32w x 30l``, ``3' x 5'``), a code (last)."""
_LABELLED_SHAPES = (_SHAPES[-3], _SHAPES[-1])
"""The shapes a value needs a label word or a summary for (a URL as read, a code)."""
_CAPITALS = compiled(r"[A-Z]{3,5}")
"""A value written in capitals alone (a ticker: ``TSLA``), told by its shape in a check."""
_NOT_CODES = frozenset(
    {
        "API",
        "URL",
        "JSON",
        "HTTP",
        "HTML",
        "FAQ",
        "USD",
        "EUR",
        "GBP",
        "ASAP",
        "FYI",
        "NOTE",
        "OKAY",
    }
)
"""Words in capitals that are no value (``the API``, ``USD``)."""
_YEAR = compiled(r"(?<![0-9a-z.])(?:19|20)\d\d(?![0-9a-z]|\.\d)")
_IN_DATE = compiled(rf"\b({_MONTHS})( \d{{1,2}})? $|\d{{1,2}} $")
"""Before a year that is part of a date (``may 3 2027``, ``3 may 2027``)."""
_CELL = compiled(r"(?<![0-9a-z.])[a-z]{1,2}[1-9][0-9]{0,3}(?![0-9a-z])")
_JOINED_CODE = compiled(
    r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])(?=[\w-]*[_-])[A-Za-z0-9][\w-]{5,}(?![\w-])"
)
"""A code that joins its parts with ``_`` or ``-`` (an image's id: ``Q7r_DBzj-``)."""
_NUMBER = compiled(r"(?<![0-9a-z.])\d+(?:\.\d+)?(?![0-9a-z]|\.\d)")
_CHECKED_SHAPES = (
    (_YEAR, "year", lambda v: _year_value(v) is not None),
    (_CELL, "cell", lambda v: isinstance(v, str) and re.fullmatch(r"[A-Z]{1,2}[1-9][0-9]{0,3}", v)),
    (_NUMBER, "value", lambda v: _NUMBER.fullmatch(str(v)) and not isinstance(v, bool)),
)
"""Shapes a yes/no question writes a value in without naming its kind, by the part of a kind's
name that holds such values: a year (``Is it for 2024?``), a spreadsheet cell (``I'll place
the pivot at H1, ok?``), a number (``I'll set Reorder Level to 10 ... Okay?``)."""
_PLACED = compiled(r"\b(at|in|into|for|to|from|on|of|by|until|since|before|after) $")
"""Before a shaped value the message places in its request; a value alone (``F2, right?``)
says nothing of what it is."""


def _year_value(value: object) -> int | None:
    """``value`` as a year (1900-2099), if it is one."""
    if isinstance(value, bool):
        return None
    whole = isinstance(value, (int, float)) and float(value).is_integer()
    written = isinstance(value, str) and re.fullmatch(r"(19|20)\d\d", value.strip()) is not None
    if not (whole or written):
        return None
    year = int(value)  # type: ignore[call-overload]
    return year if 1900 <= year <= 2099 else None


_LABEL_WORD = compiled(
    r"\b(image|picture|photo|pic|id|identifier|code|number|item|product|ref|reference|key|token)s?\b"
)
"""A noun that says a code written in the message is a value (``image Hk2pQ9x``)."""
_SHORT_ID = compiled(r"(?=[a-z]*[0-9])(?=[0-9]*[a-z])[0-9a-z]{3,5}")
"""A short id of letters and digits (``3sa``): told from a word only by the label before it."""
_LETTERS_ID = compiled(r"[a-z]{2,6}")
_LABELLED_TOKEN = compiled(
    r"\b(image|picture|photo|pic|id)s? (?:id )?#?(['\"\u2018\u201c]?)([0-9a-z_]{2,12})\2"
)
"""A token right after an image's label (``image 'lab9'``), quoted or not."""
_ID_LIKE = compiled(r"(?=[\w-]*(?:\d|[_-]|[a-z][A-Z]|[A-Z]{2}[a-z]))[A-Za-z0-9][\w-]{5,}")
"""An id of six characters or more with a digit, a ``_`` or ``-``, or capitals inside it
(``NjEyMDAyNA``, ``xK29bLm4Q``): no word."""
_LABELLED_ID = compiled(
    r"\b(?:image|picture|photo|pic)s?(?: id)?:? #?['\"\u2018\u201c]?([A-Za-z0-9][\w-]{5,})",
    re.IGNORECASE,
)
"""A token right after an image's label, as written (ids are told by their case)."""
_LABELLED_SHORT_ID = compiled(
    r"\b(image|picture|photo|pic|id|identifier|code|ref|reference|key)s? (?:id )?#?"
    r"((?=[a-z]*[0-9])(?=[0-9]*[a-z])[0-9a-z]{3,5})(?![0-9a-z])"
)

_BARE_SHORT_ID = compiled(r"(?<![\w.$-])(?=[a-z]*[0-9])(?=[0-9]*[a-z])[0-9a-z]{3,5}(?![\w-])")
"""A short id written alone; a summary's other right values make it the task's id."""
_BARE_ID = compiled(
    r"(?<![\w./@-])(?=[\w-]*(?:\d|[_-]|[a-z][A-Z]|[A-Z]{2}[a-z]))[A-Za-z0-9][\w-]{5,}(?![\w@-])"
)
"""An id written alone, shaped as ids are (``NjEyMDAyNQ``): a summary's other right values
make it the task's id when it is as long as the task's."""
_NOT_ID = compiled(
    r"\d+(?:st|nd|rd|th|am|pm|s|k|m|x|gb|tb|mb|mm|cm|ml|kg|oz|lb|lbs|ft|in|hr|hrs|min|mins|px|"
    r"mp|fps)|[a-z]\d|mp\d|h\d{3}"
)
"""Tokens of digits and letters that are no id: ordinals, times, amounts, units, cells."""


def _cased(slots: Sequence[Slot], message: str) -> Sequence[Slot]:
    """``slots``, with a short code (``IT``, ``US``) written only as a word dropped.

    A code that is also a word (``it``, ``us``, ``am``) is its value only where the message
    writes it in capitals; forms that hold more words (``country code it``) still count.
    ``slots`` itself where no slot's value is such a code (most tasks), and the same tuple for
    each message that drops the same codes (so what is kept per task stays kept).
    """
    coded = _coded(slots)
    if not coded:
        return slots
    dropped = tuple(i for i in coded if not _code_alone(slots[i].value).search(message))
    if not dropped:
        return slots
    variants = _uncoded(slots)
    cased = variants.get(dropped)
    if cased is None:
        out = list(slots)
        for i in dropped:
            slot = slots[i]
            short = normalize(slot.value)
            aliases = tuple(a for a in slot.aliases if normalized(a) != short)
            text = slot.text if normalized(slot.text) != short else f"the code {slot.value}"
            out[i] = Slot(slot.kind, None, text, aliases, slot.call, slot.argument)
        cased = variants[dropped] = tuple(out)
    return cased


@per_task
def _coded(slots: Sequence[Slot]) -> tuple[int, ...]:
    """Where ``slots`` hold a short code for a value (:data:`_SHORT_CODE`), fixed in a task."""
    return tuple(
        i
        for i, slot in enumerate(slots)
        if isinstance(slot.value, str) and _SHORT_CODE.fullmatch(slot.value)
    )


@per_task
def _uncoded(slots: Sequence[Slot]) -> dict[tuple[int, ...], tuple[Slot, ...]]:
    """The task's slots with some codes dropped (by :func:`_cased`), by the codes' places.

    Filled as messages drop codes; at most one entry for each subset of :func:`_coded`.
    """
    return {}


@functools.lru_cache(maxsize=1024)
def _code_alone(code: str) -> re.Pattern[str]:
    """A short code (``IT``) as written, with no letter beside it (compiled once per code)."""
    return re.compile(rf"(?<![A-Za-z]){re.escape(code)}(?![A-Za-z])")


def _unknown(message: str, names: Sequence[str], vocabulary: Vocabulary) -> bool:
    """Whether ``message`` writes a value the reader does not know (a quoted text, a name, a code).

    A name the user's own request wrote (``names``: an API's, a product's) is no such value,
    nor a kind's own word in capitals (``ID``), nor the first word of one the message writes
    (``the MIME type``).
    """
    if writes_date(normalize(message)) or _QUOTED.search(message):
        return True  # a date or a quoted text is a value, whatever the request said
    words = _kind_words(vocabulary)
    named = [normalize(n) for n in names]
    found = [m.group() for m in _CAPITAL.finditer(message)]
    found = [f for f in found if not any(contains_phrase(n, normalize(f)) for n in named)]
    found += [m.group() for m in _CODE.finditer(message.lower())]
    heads = _kind_heads(vocabulary)
    unplaced = [f for f in found if normalize(f) and _phrase(f) not in words]
    if not unplaced:
        return False
    # once, for the words a capital may begin ("the MIME type"); read as _phrase reads, but a
    # message is not kept among the vocabulary's phrases
    read = _canonical(normalize(message))
    return any(
        not any(contains_phrase(read, w) for w in heads.get(_phrase(f), ())) for f in unplaced
    )


@functools.lru_cache(maxsize=32)
def _kind_heads(vocabulary: Vocabulary) -> dict[str, tuple[str, ...]]:
    """The kinds' words of several words, by their first word (``mime``: ``mime type``...)."""
    heads: dict[str, list[str]] = {}
    for word in _kind_words(vocabulary):
        if " " in word:
            heads.setdefault(word.split(" ", 1)[0], []).append(word)
    return {head: tuple(sorted(found)) for head, found in heads.items()}


@functools.lru_cache(maxsize=32)
def _kind_words(vocabulary: Vocabulary) -> frozenset[str]:
    """Every word of every kind, read as messages are."""
    return frozenset(_phrase(w) for kind in vocabulary for w in (*kind.words, *kind.weak))


_FIELD = compiled(r"(?<![\w-])([A-Za-z]+)(?:_([A-Za-z]+)|-(ids?|IDs?|Ids?))(?![\w-])")
_LOWER_CAMEL = compiled(r"(?<![\w-])[a-z]{2,}(?:[A-Z][a-z]+)+(?![\w-])")
"""A name in lower camel case (``maxPrice``, ``checkinDate``): a field's, read as its words."""
_COUNT_HEADS = frozenset({"num", "number", "no", "nb", "n", "count", "total"})
"""A field name's first word that counts what its second names (``num_baths``)."""


def plain_field_names(message: str, vocabulary: Vocabulary) -> str:
    """``message`` with fields' names written as words, or as one word when they name no kind.

    ``maxPrice`` is ``max Price``; ``num_baths`` is ``baths``. ``sub_id``, ``user
    sub-ID``: a parameter's name, neither the kind whose word ends it (the image's ``id``) nor
    a code the reader does not know. A name that is itself a kind's word (``image_id``) is kept,
    and so is a snake-cased value (``john_doe``).
    """
    if _LOWER_CAMEL.search(message):
        message = _LOWER_CAMEL.sub(lambda m: _CASE_TURN.sub(" ", m.group()), message)
    if "_" not in message and "-" not in message:
        return message
    words = _kind_words(vocabulary)

    def plain(match: re.Match[str]) -> str:
        head, tail = match.group(1), match.group(2) or match.group(3)
        if head.lower() in _COUNT_HEADS and match.group(2):
            return tail
        if _phrase(f"{head} {tail}") in words or _phrase(tail) not in words:
            return match.group()
        return head + tail

    return _FIELD.sub(plain, message)


_LINKS = frozenset({"of", "and", "for", "the", "de", "&"})


_OPENING_QUOTE = compiled(r"\"([^\"]{1,40})\"")


@functools.lru_cache(maxsize=TASKS_KEPT)
def _opening_quotes(opening: str) -> tuple[str, ...]:
    """The values the request quotes (``country code "US"``): its own, never a guess."""
    return tuple(_OPENING_QUOTE.findall(opening))


_CAMEL = compiled(r"[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*")


def _known_names(message: str, opening: str) -> list[str]:
    """The capitalized names the message writes that the opening wrote.

    Names of several words (``Tariff Zone``), of one word written in its own casing
    (``GridPrime``), and values the opening quotes (``country code "US"``).
    """
    if not opening:
        return []
    words = _NAME_WORD.findall(message)
    known = normalized(opening)
    names: list[str] = []
    i = 0
    while i < len(words):  # the longest run of capitalized words from each one, if known
        if not words[i][:1].isupper():
            i += 1
            continue
        for j in range(min(len(words), i + 6), i + 1, -1):
            run = words[i:j]
            if run[-1][:1].isupper() and all(w[:1].isupper() or w in _LINKS for w in run):
                name = " ".join(run)
                if contains_phrase(known, normalize(name)):
                    names.append(name)
                    i = j - 1
                    break
        else:  # one word: a name only in its own casing ("GridPrime", "LikeLab")
            if _CAMEL.fullmatch(words[i]) and contains_phrase(known, normalize(words[i])):
                names.append(words[i])
        i += 1
    for quoted in _opening_quotes(opening):  # "with country code US" where the request
        if standalone(quoted).search(message):  # wrote "US" itself
            names.append(quoted)
    return names


class _ValueMarks(NamedTuple):
    """Which shapes a slot's text value has (what :func:`_shaped` looks for, fixed in a task)."""

    quoted: bool
    """Its text is quoted (``'The Road'``)."""
    joined: bool
    """It is a code joined by ``_`` or ``-`` (:data:`_JOINED_CODE`)."""
    shapes: tuple[bool, ...]
    """Whether it has each of :data:`_SHAPES`, in order."""
    short: bool
    """A short id of letters and digits (``3sb``)."""
    lettered: bool
    """An image's id of letters alone (``lab``): a quoted token or one with a digit."""
    ided: bool
    """An image's or an id kind's value shaped as an id (``NjEyMDAyNB``)."""
    capital: bool
    """A code in capitals (``TSLA``)."""


@functools.lru_cache(maxsize=4096)
def _value_marks(kind: str, value: str, text: str) -> _ValueMarks:
    """:class:`_ValueMarks` of a slot with a text value (computed once a slot)."""
    lower = value.lower()
    an_id = "image" in kind.split("_") or kind.endswith("id")
    return _ValueMarks(
        _QUOTED.search(text) is not None,
        _JOINED_CODE.fullmatch(value) is not None,
        tuple(shape.fullmatch(normalized(value)) is not None for shape in _SHAPES),
        _SHORT_ID.fullmatch(lower) is not None,
        an_id and _LETTERS_ID.fullmatch(lower) is not None,
        an_id and _ID_LIKE.fullmatch(value) is not None,
        _CAPITALS.fullmatch(value) is not None,
    )


class _SlotMarks(NamedTuple):
    """The slots of a task with each value shape :func:`_shaped` reads (fixed in a task)."""

    quoted: tuple[Slot, ...]
    joined: tuple[Slot, ...]
    shaped: tuple[tuple[Slot, ...], ...]
    """For each of :data:`_SHAPES`, in order, the slots whose value has it."""
    short: tuple[Slot, ...]
    lettered: tuple[Slot, ...]
    ided: tuple[Slot, ...]
    capital: tuple[Slot, ...]
    checked: tuple[tuple[Slot, ...], ...]
    """For each of :data:`_CHECKED_SHAPES`, in order, the slots of a kind that may hold it."""


@per_task
def _slot_marks(slots: Sequence[Slot]) -> _SlotMarks:
    """:class:`_SlotMarks` of ``slots`` (by :func:`_value_marks` of each text value)."""
    valued = [(s, _value_marks(s.kind, s.value, s.text)) for s in slots if isinstance(s.value, str)]
    return _SlotMarks(
        tuple(s for s, marks in valued if marks.quoted),
        tuple(s for s, marks in valued if marks.joined),
        tuple(
            tuple(s for s, marks in valued if marks.shapes[index]) for index in range(len(_SHAPES))
        ),
        tuple(s for s, marks in valued if marks.short),
        tuple(s for s, marks in valued if marks.lettered),
        tuple(s for s, marks in valued if marks.ided),
        tuple(s for s, marks in valued if marks.capital),
        tuple(
            tuple(s for s in slots if part in s.kind.split("_") and fits(s.value))
            for _, part, fits in _CHECKED_SHAPES
        ),
    )


def _shaped(
    text: str,
    slots: Sequence[Slot],
    opening: str = "",
    summary: bool = False,
    checking: bool = False,
    message: str = "",
) -> tuple[set[str], set[str]]:
    """The kinds whose value's shape (an email, a URL, a code) the message writes: right, wrong.

    A written email, URL, ISO date or code that is no value of the task is read as a value of the one
    kind whose slot has a value of that shape (``image Hk2pQ9x``, ``tracey.riley@gmail.com``).
    A code needs a word that labels it (``image``), unless the message is a ``summary`` (a
    check that writes other values of the task rightly: ``Downvote for c9P9NXMZN, yes?``).
    A message ``checking`` (a yes/no question) also writes a year or a cell that way
    (:data:`_CHECKED_SHAPES`), when it writes one of that shape. A code that holds ``_`` or
    ``-`` (``EshcK8_K8``) is read in the ``message`` as written.
    """
    right: set[str] = set()
    wrong: set[str] = set()
    known = normalized(opening)
    marks = _slot_marks(slots)
    quoted = marks.quoted
    if len(quoted) == 1 and (summary or checking):  # "So I should transliterate 'The ...'?"
        (slot,) = quoted
        for match in _QUOTED.finditer(message):
            written = normalize(match.group().strip("'\""))
            if written and not contains_phrase(known, written):
                own = written == normalize(str(slot.value))
                (right if own else wrong).add(slot.kind)
    joined = marks.joined
    if len(joined) == 1 and (_LABEL_WORD.search(text) or summary):
        (slot,) = joined
        for match in _JOINED_CODE.finditer(message):
            if normalize(match.group()) in known or not (
                "_" in match.group() or "-" in match.group()
            ):
                continue
            own = match.group().lower() == str(slot.value).lower()
            (right if own else wrong).add(slot.kind)
    for shape, owners in zip(_SHAPES, marks.shaped, strict=True):
        if len(owners) != 1:
            continue
        (slot,) = owners
        for match in shape.finditer(text):
            written = match.group().strip(".")
            if written in known:
                continue  # a value the request wrote itself (another call's)
            if shape in _LABELLED_SHAPES and not _LABEL_WORD.search(text) and not summary:
                continue  # a code alone may be any word spelled with digits; a bare URL a guess
            if written.replace(" ", "") in {
                normalized(f).replace(" ", "") for f in (slot.value, slot.text, *slot.aliases)
            }:
                right.add(slot.kind)
            else:
                wrong.add(slot.kind)
    short = marks.short
    if len(short) == 1 and short[0].kind not in right | wrong:
        (slot,) = short  # "image 3sb": a short id is a value only right after its label
        for match in _LABELLED_SHORT_ID.finditer(text):
            if match.group(2) not in known:
                own = match.group(2) == str(slot.value).lower()
                (right if own else wrong).add(slot.kind)
        if summary and slot.kind not in right | wrong:  # "Remove 0d8 from your favourites, yes?"
            width = len(str(slot.value))
            for match in _BARE_SHORT_ID.finditer(text):
                token = match.group()
                if len(token) == width and token not in known and not _NOT_ID.fullmatch(token):
                    (right if token == str(slot.value).lower() else wrong).add(slot.kind)
    lettered = marks.lettered  # an image's id of letters alone
    if len(lettered) == 1 and lettered[0].kind not in right | wrong and (summary or checking):
        (slot,) = lettered
        for match in _LABELLED_TOKEN.finditer(message.lower()):
            token = match.group(3)
            marked = match.group(2) != ""
            if token == str(slot.value).lower():
                right.add(slot.kind)
            elif (marked or any(c.isdigit() for c in token)) and token not in known:
                wrong.add(slot.kind)
    ided = marks.ided
    if len(ided) == 1 and ided[0].kind not in right | wrong and (summary or checking):
        (slot,) = ided  # "upvote image NjEyMDAyNB?": an id after its label, in any shape
        for match in _LABELLED_ID.finditer(message):
            token = match.group(1)
            if token.lower() not in known and _ID_LIKE.fullmatch(token):
                (right if token == slot.value else wrong).add(slot.kind)
        if summary and slot.kind not in right | wrong:  # "Upvoting NjEyMDAyNQ, right?"
            for match in _BARE_ID.finditer(message):
                token = match.group()
                if len(token) == len(slot.value) and token.lower() not in known:
                    (right if token == slot.value else wrong).add(slot.kind)
    capital = marks.capital
    if len(capital) == 1 and capital[0].kind not in right | wrong and (summary or checking):
        (slot,) = capital  # "Pulling AAPL daily prices": a ticker where the task's is TSLA
        shape = re.compile(rf"(?<![\w-])[A-Z]{{{len(slot.value)}}}(?![\w-])")
        for match in shape.finditer(message):
            token = match.group()
            if token == slot.value:
                right.add(slot.kind)
            elif token.lower() not in known.split() and token not in _NOT_CODES:
                wrong.add(slot.kind)
    if summary or checking:
        wrong |= given_elsewhere(message, slots, opening) - right
        measured_right, measured_wrong = _measured(text, slots, known, right | wrong)
        right |= measured_right
        wrong |= measured_wrong
    if checking:
        for (shape, _, _), owners in zip(_CHECKED_SHAPES, marks.checked, strict=True):
            if len(owners) != 1 or owners[0].kind in right | wrong:
                continue
            (slot,) = owners
            placed = {
                m.group()
                for m in shape.finditer(text)
                if m.group() not in known
                and _PLACED.search(text[max(0, m.start() - 8) : m.start()])
                and not (
                    shape is _YEAR and _IN_DATE.search(text[max(0, m.start() - 16) : m.start()])
                )
            }
            if len(placed) != 1:
                continue  # none, or a choice between several
            value = _year_value(slot.value) if shape is _YEAR else slot.value
            (right if placed == {normalized(str(value))} else wrong).add(slot.kind)
    return right, wrong


_SHAPE_NOUNS = (
    (compiled(r"\b(e ?mail|email address|mail address|e mail address)\b"), _SHAPES[0]),
    (
        compiled(
            r"\b(url|urls|link|links|web address|website address|web page|webpage|"
            r"address of the (page|article|site|website|image|photo|picture|file|video|post))\b"
        ),
        _SHAPES[1],
    ),
    (
        compiled(
            r"\b(phone|mobile|telephone)( number)?\b|\bnumber\b.{0,40}\b(sent|send|text|texted)\b"
        ),
        _SHAPES[2],
    ),
)
"""Nouns that name a value by its shape (``the email address``, ``the link``), with the shape."""


def shape_named(text: str, slots: Sequence[Slot]) -> str | None:
    """The task's one kind whose value has the shape a noun of normalized ``text`` names.

    ``What's the organiser's email address?`` asks the one slot whose value is an email,
    whatever the family calls its kind; ``None`` when the text names no shape or not exactly one
    slot has it.
    """
    for noun, shape in _SHAPE_NOUNS:
        if noun.search(text):
            owners = [s.kind for s in slots if shape.fullmatch(str(s.value).strip().lower())]
            if len(owners) == 1:
                return owners[0]
    return None


def _given_beside(canonical: str, at: Sequence[tuple[str, int]], opening: str) -> set[str]:
    """The kinds whose word the message follows with a value the request quoted itself.

    ``GridPrime with country code US`` where the request wrote ``(country code "US")`` for
    its second lookup: the request's given value, no question or guess about the held one.
    """
    quoted = [normalize(q) for q in _opening_quotes(opening)]
    if not quoted:
        return set()
    given, other = set(), set()
    for kind, start in at:
        words = canonical[start : start + 120].split()
        if any(  # the value one to three words after the kind's word starts
            q and words[i : i + len(q.split())] == q.split() for q in quoted for i in (1, 2, 3)
        ):
            given.add(kind)
        else:
            other.add(kind)  # "the book query is '...'. What's the podcast query?": asked too
    return given - other
