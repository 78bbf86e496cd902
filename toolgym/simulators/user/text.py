"""A message read as text: words, numbers and sentences written one way.

:func:`_canonical` writes numbers one way (``two`` -> ``2``, ``$950k`` -> ``$950000 dollars``),
hyphens and contractions read out, on messages and on the forms they are matched against alike;
:func:`_sentences` parts a message into sentences (list markers dropped) and gives each its mood
(:func:`_mood`); :func:`_find` and :func:`_inflections` find a kind's words.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Sequence

from toolgym.simulators.user.chat_words import expand_chat
from toolgym.simulators.user.date_forms import day_ranges, said_days, short_years
from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.memo import Remembered
from toolgym.simulators.user.number_words import (
    _FRACTION,
    _NUMBER_WORD,
    _NUMBER_WORDS,
    _PRONOUN_ONE,
    _SPELLED,
    _fraction,
    _spelled,
)
from toolgym.simulators.user.phrases import (
    _CHECK_TAG,
    _FIRST_PERSON,
    _LIST_HEADER,
    _NO_REQUEST,
    _REQUESTS,
    _SECOND_PERSON,
    _TAG,
)
from toolgym.simulators.user.slots import CACHED_CHARS, Slot, normalize, whole_words

# -- numbers and the spans of words ---------------------------------------------------------------
_CURRENCY_WORD = compiled(r"(?<![0-9a-z.])(\d+(?:\.\d+)?) (?:bucks|usd|dollars?)(?![0-9a-z])")
"""``80 bucks``, ``80 usd``: dollars."""
_ORDINAL = compiled(r"(?<![0-9a-z.])(\d+)(?:st|nd|rd|th)(?![0-9a-z])")
GROUP_1 = operator.itemgetter(1)
"""A substitution by a match's first group, where the group always takes part: ``r"\\1"`` as a
template would be read anew by :mod:`re` at every substitution, matched or not."""
_DOLLAR_MILLIONS = compiled(r"(?<![0-9a-z])\$(\d+(?:\.\d+)?) ?(?:m|mm|mil|mln)(?![0-9a-z])")
"""``$1.4M``: a million dollars times the number (a bare ``5m`` may be minutes or metres)."""
_SCALE = compiled(r"(?<![0-9a-z.])(\d+(?:\.\d+)?) ?(k|thousand|grand|million)(?![0-9a-z])")
_DOLLAR = compiled(r"(?<![0-9a-z])\$(\d+(?:\.\d+)?)(?![0-9]|\.\d| ?dollars?\b)")
_NUMBER = compiled(r"(?<![0-9a-z.])\$?(\d+(?:\.\d+)?)(?![0-9a-z]|\.\d)")
_NUMERIC_FORM = compiled(r"\$?(\d+(?:\.\d+)?)(?: dollars?)?")
_JOIN = compiled(r" *(and|or|to|&)? *")
_BOUND = compiled(r"(?<!\bno )\b(more|fewer|less) than $|\b(?:under|below|above|over)() $")
_UPPER = compiled(r"\b(lower|less|fewer) than\b|\b(at most|up to|under|below|maximum|max)\b")
"""Before a number that bounds a count rather than gives it (``more than one bathroom``)."""
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_DATE = Remembered(
    compiled(
        rf"(?<![0-9a-z])(?:(?:{_MONTHS}) \d{{1,2}}(?: \d{{4}})?|\d{{1,2}} (?:{_MONTHS})(?: \d{{4}})?)"
        r"(?![0-9a-z])"
    )
)
"""A date's numbers (``december 1 2027``, ``1 december``), which count nothing."""
_MONTH_STEM = compiled("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec")
"""The first three letters of every name in :data:`_MONTHS`."""


def writes_date(text: str) -> bool:
    """Whether the canonical form of normalized ``text`` holds a date (:data:`_DATE`).

    The canonical rewrites write a month's name only where the text holds one already (a short
    name written in full, a range's month repeated) and join no letters, so a text without the
    first three letters of any month holds no date and is not rewritten to find out (a test
    checks this on every message of the question set and on texts made of what each rewrite
    reads).
    """
    return _MONTH_STEM.search(text) is not None and _DATE.search(_canonical(text)) is not None


_RANGE = compiled(
    r"(?<![0-9a-z.])\$?(\d+(?:\.\d+)?)(?: dollars?)? (?:and|to|through) \$?(\d+(?:\.\d+)?)(?![0-9a-z])"
)
"""The two ends of a range (``90 and 160``, ``$60 to $130``)."""
_COMMA = compiled(r"(?<=\S)(?<![0-9]),\s+|(?<=[0-9]),\s+(?!(?:19|20)[0-9]{2}\b)")
"""A comma that parts a sentence (not the one before a date's year: ``February 12, 2026``)."""
_SENTENCE = Remembered(
    compiled(
        r"(?<=[A-Za-z0-9)]{3}[.])\s+(?=[A-Z0-9$])|(?<=[0-9]['\"\u2019\u201d][.])\s+(?=[A-Z0-9$])"
        r"|(?<=[a-z]['\"\u2019\u201d][.])\s+(?=(?:What|Which|Where|When|Who|How|From|To|And|Is|Are|"
        r"Do|Does|Can|Could|Would|Will|Should)\b)"
        r"|(?<=[ (][0-9][.])\s+(?=[A-Z])|(?<=[ (][0-9]{2}[.])\s+(?=[A-Z])"
        r"|(?<=\bsq ft[.])\s+(?=[A-Z])|(?<=[!?;:])\s+|(?<!\s)\s*\n\s*"  # (a run read from its start)
        r"|(?<=[\u2600-\u27bf\U0001f300-\U0001faff])\s+(?=[A-Z])"  # "an upvote 👍 Which image?"
    )
)
"""Where a message's sentences part (not after ``St.``: a name goes on; after ``3' x 5'.``, a
quote's close before a question (``'tickets to Denver'. From where?``), ``sq ft.`` and a short
number, ``at limit 10. What ...``)."""


_CONTRACTIONS = {"'d": "would", "'re": "are", "'ve": "have", "'ll": "will", "'s": "is"}
_CONTRACTION = compiled(
    r"(?<=[a-z])('d|'re|'ve|'ll)(?![a-z])"
    r"|(?:(?<=\bwhat)|(?<=\bwhere)|(?<=\bwho)|(?<=\bwhen)|(?<=\bhow)|(?<=\bwhich))('s)(?![a-z])"
)
"""``you'd like`` read as ``you would like``, on both sides."""
_SHORT_MONTHS = {
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june",
    "jul": "july", "aug": "august", "sep": "september", "sept": "september", "oct": "october",
    "nov": "november", "dec": "december",
}  # fmt: skip
_SHORT_MONTH = compiled(
    r"(?<![0-9a-z])(jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)(?= \d{1,2}(?![0-9a-z]))"
    r"|(?<=\d )(jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)(?![0-9a-z])"
)
"""A month's short name beside a day (``sept 2``, ``2 sept``), read as its full name."""
_SLASH = compiled(r"(?<![a-z])(in|out|up|down|on|off|to|from)/(in|out|up|down|on|off|to|from)\b")
"""``dates in/out``, ``from/to``: both ends, read as ``and`` (``artist/song query`` stays one
name)."""
_ROOMS_PAIR = compiled(r"(?<![0-9a-z])(?:br|bd|bdr|bed)s?/(?:ba|bth|bath)s?(?![0-9a-z/])")
"""A listing's pair without counts (``BR/BA``, ``beds/baths``): bedrooms and bathrooms."""
_ROOMS_COUNTED = compiled(r"(?:(?<=\bhow many )|(?<=\bnumber of ))(br|bd|bdr|ba|bth)s?(?![0-9a-z])")
"""A listing's shorthand counted (``how many BA``, ``number of BRs``)."""
_HASH = compiled(r"(?<=[a-z]) ?#(?:(?=\s|$)|(?=(\d)))")
"""``tracking #``, ``room #5``: a number."""
_YOU_N = compiled(
    r"\b(you|us) (two|three|four|both)\b(?! (?:of|adults?|kids?|children|people|tickets?)\b)"
    r"|\b(?:the )?(?:two|three|four|five|six|2|3|4|5|6) of (you|us)\b"
)
"""``you two``, ``the four of you``: a pronoun, no number of anything."""
_PLUS = compiled(r"(?<=[a-z]) [+&] (?=[a-z])")
_AT_LEAST_PLUS = compiled(r"(?<![0-9a-z.$+])(\$?\d+(?:[.,]\d+)?k?)\+(?![0-9a-z+])")
"""``1300+ sq ft``, ``2+ bedrooms``: at least that many."""
"""``beds + baths``, ``beds & baths``: read as ``and``."""
_AT_THE_MOST = compiled(r"\bat the (?:very |absolute )?(least|most)\b")
"""``at the very least``: ``at least``."""
_NEGATION = (
    r"\b(?:can't|cannot|can not|won't|will not|wouldn't|would not|don't|do not|doesn't|does not|"
    r"shouldn't|should not|mustn't|must not|not|never) (?:want to |wish to |be able to |afford to )?"
    r"(?:go |spend |pay |be |get )?"
)
_NOT_ABOVE = compiled(_NEGATION + r"(?:above|over|past|beyond|exceed|more than|higher than)\b")
"""``can't go above``, ``won't exceed``: an upper bound, read as ``at most``."""
_NOT_BELOW = compiled(_NEGATION + r"(?:below|under|less than|lower than)\b")
"""``won't go below``: a lower bound, read as ``at least``."""


_PREFER_TO = compiled(r"\b(would|do) you (?:prefer to|rather|want to|wish to)(?= [a-z])")
"""``how would you prefer to travel``: read as ``how would you like to travel``."""
_WILL_BE = compiled(r"\b(?:will|would) (you|we|they) be ([a-z]{3,}ing)\b")
"""``where will you be staying``: read as ``where are you staying``."""
_HOW_MANY_ONE = compiled(
    r"\bhow many (room|bedroom|bathroom|bed|bath|adult|kid|night|guest|garage|balcony|pool|"
    r"image|picture|photo|pic|ticket|traveler|traveller|passenger|year|item|result|row|column)"
    r"(?=\s+(?:you|do|does|did|will|would|should|are|is|for|in|at|per|to|we|i|u|ur|your|there)\b"
    r"|\s*$)"
)
"""A countable noun written singular after ``how many`` (``how many room``): its plural."""
_HOW_MEANT = compiled(
    r"\bhow (?:are|will|do|would|did) you (?:be )?(?:planning|plan|going|want|wanting|like|intend|"
    r"intending|hoping|hope|thinking of|thinking about|planning on|looking) (?:to )?"
    r"(get|getting|go|going|travel|travelling|traveling)\b"
)
"""How the user means to go (``How are you planning to get there?``): how they will go."""
_THE_HOUSE = compiled(
    r"\b((?:at|in|to|into|of|for|from|near|around|on|outside) (?:the|your|this|that)(?: new)?) house"
    r"(?=\s*(?:[.,!?;:]|$))"
)
"""``at the house?`` where a sentence ends: the home the user wants, whatever its kind."""
_HOW_MUCH = compiled(r"\bhow much (time|big|bigger|large|larger|small|wide|long|far)\b")
"""``how much time``, ``how much big``: a length or a size asked, no price."""
_A_LOT = compiled(
    r"\b(?:(?:a (?:whole |great )?lot|lots)( of)|(down|up|it|them|that|this|quite|thanks|helps|"
    r"matters|costs|varies|differs|changes) a lot|a lot(?= *(?:$|[.,!?;:)]|more\b|less\b"
    r"|better\b|worse\b|cheaper\b|bigger\b|smaller\b|nicer\b)))"
)
"""``a lot of``, ``lots of``, ``thanks a lot``: a quantity, no plot of land."""
_HYPHEN = compiled(r"(?<=[0-9a-z])-(?=[a-z])")
"""A hyphen before a letter, read as a space (``check-in``, ``x-large``, ``14-inch``)."""
_ENUMERATOR = Remembered(
    compiled(
        r"(?m)^[ \t]*(?:\(?\d{1,2}[.):]|\(?[a-hA-H][.)]|[-*\u2022>#]+)[ \t]+"
        r"|(?<=[?.!;,:] )\(?\d{1,2}\)[ \t]+|(?<=[a-z] )\(\d{1,2}\)[ \t]+(?=[a-zA-Z])"
    )
)
"""A list's marker at the start of a line (``1.``, ``2)``, ``a)``, ``-``, ``*``) or after a
sentence in a line (``1) breed? 2) format?``): no number."""


def _scaled(match: re.Match[str]) -> str:
    return _scaled_by(match.group(1), 1_000_000 if match.group(2) == "million" else 1000)


def _scaled_by(number: str, factor: int) -> str:
    value = float(number) * factor
    return str(int(value)) if value.is_integer() else str(value)


def _canonical(text: str) -> str:
    """Normalized ``text`` with its numbers written one way.

    ``10th`` -> ``10``, ``$950k`` -> ``$950000 dollars``, ``two`` -> ``2``; applied alike to
    messages and to the forms they are matched against.

    >>> _canonical("a two-bedroom on the 10th floor under $1.2k")
    'a 2 bedroom on the 10 floor under $1200 dollars'
    >>> _canonical("two and a half baths")
    '2.5 baths'
    >>> _canonical("under eighty bucks, three quarters of a million, one hundred and fifty")
    'under 80 dollars, 750000, 150'
    >>> _canonical("between $900k and $1.4m")
    'between $900000 dollars and $1400000 dollars'
    """
    return _canonical_short(text) if len(text) <= CACHED_CHARS else _canonical_text(text)


_ROOM_WORDS = {
    "br": "bedrooms", "bd": "bedrooms", "bdr": "bedrooms", "bed": "bedrooms", "ba": "bathrooms",
    "bth": "bathrooms", "bath": "bathrooms",
}  # fmt: skip
_ROOM_SHORT = compiled(
    r"(?<![0-9a-z.$])(\d+(?:\.\d+)?) ?(br|bd|bdr|bed|ba|bth|bath)(?![0-9a-z])(?! rooms?\b)"
)
"""A listing's shorthand (``1BR/2BA``, ``3bd``, ``2 ba``): that many bedrooms or bathrooms."""


def _canonical_text(text: str) -> str:
    # each rewrite is tried only where its text can be (a hyphen, a digit, "not"...): the same
    # result, without a search of every pattern over every message
    if "-" in text:
        text = _HYPHEN.sub(" ", text)
    if "/" in text:
        text = _SLASH.sub(r"\1 and \2", text)
        text = _ROOMS_PAIR.sub("bedrooms and bathrooms", text)
    if "how many b" in text or " of b" in text:
        text = _ROOMS_COUNTED.sub(lambda m: _ROOM_WORDS[m[1]], text)
    if "at the " in text:
        text = _AT_THE_MOST.sub(r"at \1", text)
    if "not" in text or "n't" in text or "never" in text:
        text = _NOT_ABOVE.sub("at most", text)
        text = _NOT_BELOW.sub("at least", text)
    if "#" in text:
        text = _HASH.sub(lambda m: " number" + (" " if m.group(1) else ""), text)
    if "+" in text or "&" in text:
        text = _PLUS.sub(" and ", text)
        text = _AT_LEAST_PLUS.sub(r"at least \1", text)
    text = expand_chat(text)
    if "th" in text or "st" in text or "nd" in text or "rd" in text:
        text = said_days(text)
    if _DIGIT.search(text):
        text = _ORDINAL.sub(GROUP_1, text)  # "dec 8th": the month's short form is read next
        text = _SHORT_MONTH.sub(lambda m: _SHORT_MONTHS[m.group(1) or m.group(2)], text)
        text = day_ranges(text)
        if "'" in text:
            text = short_years(text)
    if "'" in text:
        text = _CONTRACTION.sub(lambda m: " " + _CONTRACTIONS[m.group(1) or m.group(2)], text)
    if " be " in text:
        text = _WILL_BE.sub(r"are \1 \2", text)
    if "you prefer" in text or "you rather" in text or "you want" in text or "you wish" in text:
        text = _PREFER_TO.sub(
            lambda m: "do you want to" if m[1] == "do" else "would you like to", text
        )
    if "lot" in text:  # "a lot of homes": many, no plot of land
        text = _A_LOT.sub(lambda m: "many" if m[1] else f"{m[2]} much" if m[2] else "much", text)
    if "how " in text:  # "how are you planning to get there": how you will get there
        text = _HOW_MEANT.sub(r"how will you \1", text)
        text = _HOW_MANY_ONE.sub(r"how many \1s", text)  # "how many room you need"
    if "house" in text:  # "park your cars at the house?": the home, no kind of home
        text = _THE_HOUSE.sub(r"\1 home", text)
    if "how much " in text:  # "how much time", "how much big": no amount of money
        text = _HOW_MUCH.sub(lambda m: "how long" if m[1] == "time" else f"how {m[1]}", text)
    if "one" in text:
        text = _PRONOUN_ONE.sub(r"\1 onepron", text)
    if "half" in text or "quarter" in text or "third" in text:
        text = _FRACTION.sub(_fraction, text)
    if "you " in text or "us " in text:
        text = _YOU_N.sub(lambda m: f"{m.group(1) or m.group(3)} all", text)
    text = _SPELLED.sub(_spelled, text)
    text = _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1)], text)
    if not _DIGIT.search(text):
        return text
    if "and a half" in text:
        text = _HALF.sub(r"\1.5", text)
    text = _ORDINAL.sub(GROUP_1, text)
    if "wide" in text:
        text = _WIDE_BY_LONG.sub(r"w\1 x l\2", text)
    text = _ROOM_SHORT.sub(lambda m: f"{m.group(1)} {_ROOM_WORDS[m.group(2)]}", text)
    if "$" in text:
        text = _DOLLAR_MILLIONS.sub(lambda m: "$" + _scaled_by(m.group(1), 1_000_000), text)
    text = _SCALE.sub(_scaled, text)
    text = _CURRENCY_WORD.sub(lambda m: f"{m[1]} dollars", text)
    text = _DOLLAR.sub(lambda m: f"${m[1]} dollars", text)
    if "floor" in text or "ceiling" in text:
        text = _MONEY_BOUND.sub(
            lambda m: f"{m[1] or ''}{_BOUND_WORDS[m[2] or m[3]]}{m[4] or ''}", text
        )
    return text


_DIGIT = compiled(r"\d")
_MONEY_BOUND = compiled(
    r"(\d+(?:\.\d+)? dollars (?:as|is|for|being) (?:your|the|my|our|a) )(floor|ceiling)\b"
    r"|\b(floor|ceiling)( (?:of|at|is|around|about) \$\d)"
)
"""A floor or a ceiling of money (``$1800 as your floor``): a minimum or maximum, no storey."""
_BOUND_WORDS = {"floor": "minimum", "ceiling": "maximum"}
_WIDE_BY_LONG = compiled(
    r"(?<![0-9a-z.])(\d+(?:\.\d+)?) (?:inches |inch |in )?wide (?:by|x) (\d+(?:\.\d+)?) "
    r"(?:inches |inch |in )?(?:long|tall|high|in length)(?![0-9a-z])"
)
"""``63 wide by 42 long``: a size in two dimensions as a listing writes it (``w63 x l42``)."""
_HALF = compiled(r"(?<![0-9a-z.])(\d+) and a half(?![0-9a-z])")
"""``2 and a half``: ``2.5``."""


_canonical_short = functools.lru_cache(maxsize=2048)(_canonical_text)


def _phrase(text: str) -> str:
    """A vocabulary's word, value or form, read as messages are.

    Cached for texts of at most :data:`~.slots.CACHED_CHARS` characters (a long text is read
    anew, and held by no cache).
    """
    return _phrase_short(text) if len(text) <= CACHED_CHARS else _canonical(normalize(text))


@functools.lru_cache(maxsize=8192)
def _phrase_short(text: str) -> str:
    return _canonical(normalize(text))


@functools.lru_cache(maxsize=4096)
def phrased(forms: tuple[str, ...]) -> tuple[str, ...]:
    """A vocabulary's or a slot's words or forms, each read as :func:`_phrase` reads it.

    The same for every message of a task: cached on the tuple (a slot's :meth:`~.Slot.forms`,
    a kind's words or qualifiers).
    """
    return tuple(_phrase(f) for f in forms)


_pattern = whole_words


def _find(text: str, phrase: str) -> list[tuple[int, int]]:
    if not phrase or phrase not in text:
        return []
    return [(m.start(), m.end()) for m in _pattern(phrase).finditer(text)]


@functools.lru_cache(maxsize=8192)
def _object_pattern(phrase: str) -> re.Pattern[str] | None:
    """A value phrase whose ``it`` stands for any object (``add it to my favourites``)."""
    words = phrase.split(" ")
    if "it" not in words:
        return None
    body = " ".join(r"(?:\S+ ){0,2}\S+" if w == "it" else re.escape(w) for w in words)
    return re.compile(rf"(?<![0-9a-z]){body}(?![0-9a-z])")


def _find_value(text: str, phrase: str) -> list[tuple[int, int]]:
    """Where ``text`` writes a listed value (its ``it`` standing for any object of 1-3 words)."""
    found = _find(text, phrase)
    pattern = _object_pattern(phrase)
    if pattern is not None:
        found += [m.span() for m in pattern.finditer(text) if m.span() not in found]
    return found


_INFLECTED = compiled(r"^(.* )?([a-z]{3,})$")

_NOUN_BEFORE = frozenset(
    [
        "the",
        "a",
        "an",
        "your",
        "my",
        "our",
        "their",
        "this",
        "that",
        "these",
        "those",
        "each",
        "every",
        "any",
        "per",
        "on",
        "in",
        "of",
        "at",
        "for",
    ]
)
"""Words after which a kind's last word is a noun: it takes a plural, not ``-ed`` or ``-ing``
(``the rent``, ``rents``; ``set on renting`` is no price)."""


@functools.lru_cache(maxsize=8192)
def _inflections(phrase: str) -> tuple[str, ...]:
    """A kind's word and the inflections of its last word (and of its first, before ``of``).

    ``price``: ``prices``, ``priced``, ``pricing``; ``fly``: ``flies``, ``flying``.

    >>> _inflections("room type")
    ('room type', 'room types', 'room typed', 'room typing')
    >>> _inflections("kind of home")[-2:]
    ('kinds of home', 'kinds of homes')
    """
    match = _INFLECTED.match(phrase)
    if match is None:
        return (phrase,)
    head, word = match.group(1) or "", match.group(2)
    if head and head.split()[-1] in _NOUN_BEFORE:
        forms: tuple[str, ...] = (
            word + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s"),
        )
    elif word.endswith("e"):
        forms = (word + "s", word + "d", word[:-1] + "ing")
    elif word.endswith("y") and word[-2] not in "aeiou":
        forms = (word[:-1] + "ies", word[:-1] + "ied", word + "ing", word + "s")  # "balconys"
    elif word.endswith(("s", "x", "z", "ch", "sh")):
        forms = (word + "es", word + "ed", word + "ing")
    else:
        forms = (word + "s", word + "ed", word + "ing")
    out = (phrase, *(head + f for f in forms))
    of = re.match(r"([a-z]+) (of .+)$", phrase)  # "kind of home": "kinds of homes" too
    if of is not None and not of.group(1).endswith("s"):
        plural = of.group(1) + ("es" if of.group(1).endswith(("x", "z", "ch", "sh")) else "s")
        out += tuple(f"{plural} {f[len(of.group(1)) + 1 :]}" for f in out[:2])
    return out


def date_forms(slots: Sequence[Slot]) -> dict[str, set[str]]:
    """The date slots' kinds (a text value that reads as a date), each with its forms as read."""
    return {
        s.kind: set(phrased(s.forms()))
        for s in slots
        if isinstance(s.value, str) and _DATE.search(_phrase(s.text))
    }


_ARROW = compiled(r"(?:(?<!\s)\s*)?(?:\u2192|->|=>|\u27f6)\s*")
"""``Denver → Fort Worth``: ``to``. (The spaces before an arrow are read from their start only:
from each space of a long run, the rest of the run was read again.)"""
_AMPERSAND = compiled(r"(?<=[A-Za-z]) & (?=[A-Za-z])")
"""``bedrooms & bathrooms``: ``and`` (normalizing drops the sign, and the minus sign: ``Math −
English`` is read ``Math minus English``)."""


def _sentences(message: str) -> tuple[str, list[int], list[int], list[tuple[int, int, str]]]:
    """The message read as :func:`_canonical` reads it, and where its parts start.

    Returns:
        The text; where its second, third... sentences start; where the parts after a comma
        start; and each sentence's span with its mood (:func:`_mood`).
    """
    text = ""
    barriers: list[int] = []
    commas: list[int] = []
    moods: list[tuple[int, int, str]] = []
    heads: list[bool] = []
    asides: list[bool] = []
    listing = False
    plain = _AMPERSAND.sub(" and ", _ENUMERATOR.sub("", message)).replace("\u2212", " minus ")
    plain = _ARROW.sub(" to ", plain)  # "Denver → Fort Worth"
    for part in _SENTENCE.split(plain):
        start = len(text) + (1 if text else 0)
        first = True
        for piece in _COMMA.split(part):
            read = _canonical(normalize(piece))
            if not read:
                continue
            if text:
                text += " "
                (barriers if first else commas).append(len(text))
            text += read
            first = False
        if first:
            continue  # nothing in this part
        mood = REQUEST if listing else _mood(part)
        moods.append((start, len(text), mood))
        heads.append(part.rstrip().endswith(":"))
        asides.append(part.strip().startswith("(") and part.strip().endswith(")"))
        listing = listing or (heads[-1] and bool(_LIST_HEADER.search(part.lower())))
    for i in range(len(moods) - 2, -1, -1):  # "Bathrooms and garages: how many of each?"
        if heads[i] and moods[i + 1][2] == REQUEST:
            moods[i] = (*moods[i][:2], REQUEST)
    for i in range(1, len(moods)):  # "What's the least space you need? (e.g. 1,500 sq ft)"
        if asides[i] and moods[i - 1][2] == REQUEST:
            moods[i] = (*moods[i][:2], REQUEST)
    if moods and _CHECK_TAG.search(text[moods[-1][0] :]):  # "I'll put down 2 bedrooms. Right?"
        moods = [(start, end, REQUEST) for start, end, _ in moods]
    elif len(_ENUMERATOR.findall(message)) >= 2 and all(m == PLAIN for *_, m in moods):
        moods = [(start, end, REQUEST) for start, end, _ in moods]  # "1. City 2. Country code"
    return text, barriers, commas, moods


REQUEST, OWN, PLAIN = "request", "own", "plain"
"""A sentence's mood: it asks or checks; it tells of the agent itself; anything else."""


def _mood(part: str) -> str:
    """Whether a sentence asks or checks, tells of the agent itself, or neither.

    :data:`REQUEST`, :data:`OWN` (``My 3 kids are loud``, ``I was floored``), :data:`PLAIN`.
    """
    text = _NO_REQUEST.sub(" ", expand_chat(normalize(part)))  # "whats ur budget": asks
    if part.rstrip().endswith("?") or _REQUESTS.search(text) or _TAG.search(text):
        return REQUEST
    if _FIRST_PERSON.search(text) and not _SECOND_PERSON.search(text):
        return OWN
    return PLAIN


_AFTER_NUMBER = compiled(r"(?<![0-9a-z.])\d+(?:\.\d+)? (?:[a-z]+(?:-[a-z]+)? ){0,2}$")
"""What stands before a counted noun: a number, perhaps with a word or two between (``10 cat
photos``, ``10 full-size images``)."""


_CLAUSE_BREAK = compiled(r"(?<=[.?!;:\u2600-\u27bf\U0001f300-\U0001faff])\s+|\n+")
"""Where a clause ends: a stop, a colon, an emoji, a new line."""


def _clauses(message: str) -> list[str]:
    """The message's sentences and the parts after a colon, each normalized."""
    parts = _CLAUSE_BREAK.split(_ENUMERATOR.sub("", message))
    return [expand_chat(normalize(p)) for p in parts if normalize(p)]  # "whats the max ..."
