"""Slots: the parts of a goal a simulated user holds, and the words that name them.

A family describes the kinds of detail its users can hold (:class:`SlotKind`: a maximum price, a
city, a breed) with the words an agent may use for them; a conversation task holds some of them
with values (:class:`Slot`). Everything here is plain data that round-trips through JSON, so a
task file carries its slots.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from toolgym.simulators.user.first_chars import compiled

_NON_WORD = compiled(r"[^0-9a-z$%./:@#+\-' ]+")


def normalize(text: str) -> str:
    """Lower-case text with one space between words and the punctuation that separates removed.

    A short text's is cached (a reply reads the same message, and its parts, several times);
    a long one (an agent's value, a tool's output) is not kept.

    >>> normalize("What's  your   BUDGET?")
    "what's your budget"
    >>> normalize("1,550 USD")
    '1550 usd'
    """
    return _normalize(text) if len(text) > CACHED_CHARS else _normalize_short(text)


CACHED_CHARS = 1000
"""The longest text whose normalized form (or canonical form) is cached."""


_THOUSANDS = compiled(r"(?<=\d),(?=\d{3}\b)")
_LOOSE_MARKS = compiled(r"(?<![0-9a-z])(?:[.:/']|-(?![0-9]))+|[.:/'\-]+(?![0-9a-z])")
"""Dots, colons, slashes, apostrophes and hyphens that join no two words (``end.``, ``- a``)."""


def _normalize(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'")
    if "," in text:
        text = _THOUSANDS.sub("", text)  # 1,550 -> 1550
    if "(s)" in text:
        text = text.replace("(s)", "s")  # "which one(s)": a plural
    text = _NON_WORD.sub(" ", text)
    if "." in text or ":" in text or "/" in text or "'" in text or "-" in text:
        text = _LOOSE_MARKS.sub(" ", text)
    return " ".join(text.split())  # only spaces are left: one between words, none around


_normalize_short = functools.lru_cache(maxsize=2048)(_normalize)


@functools.lru_cache(maxsize=16384)
def normalized(text: str) -> str:
    """:func:`normalize` of a text fixed through an episode, computed once.

    For a slot's value or forms, the opening request, a vocabulary's word: not for messages,
    which are new at every turn.
    """
    return normalize(text)


def value_key(value: Any) -> str:
    """A value as normalized text, to compare values written anywhere (``5``, ``"daft punk"``).

    >>> value_key("Daft Punk"), value_key(5), value_key(2.5)
    ('daft punk', '5', '2.5')
    """
    return normalize(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))


def contains_phrase(text: str, phrase: str) -> bool:
    """Whether normalized ``text`` holds normalized ``phrase`` as whole words."""
    if not phrase or phrase not in text:
        return False
    return whole_words(phrase).search(text) is not None


@functools.lru_cache(maxsize=8192)
def whole_words(phrase: str) -> re.Pattern[str]:
    """The pattern of normalized ``phrase`` as whole words (compiled once per phrase).

    The phrase comes first, and the test of the character before it after it (a lookbehind over
    that character and the phrase): a search then scans for the phrase's text directly instead
    of trying a lookbehind at every position. The same matches as
    ``(?<![0-9a-z])phrase(?![0-9a-z])``.

    >>> [m.span() for m in whole_words("cat").finditer("cat cats tomcat cat")]
    [(0, 3), (16, 19)]
    """
    literal = re.escape(phrase)
    return re.compile(rf"{literal}(?<![0-9a-z]{literal})(?![0-9a-z])")


@functools.lru_cache(maxsize=1024)
def standalone(text: str) -> re.Pattern[str]:
    """``text`` as written, with no word character (``\\w``) beside it (compiled once per text).

    For a value the request writes (a quoted name), looked for in each message.
    """
    literal = re.escape(text)
    return re.compile(rf"(?<!\w){literal}(?!\w)")


_COPULA = compiled(r" (?:is|are) (?=(?:below|above|under|over|less|more|greater|at|equal)\b)")
"""``is`` or ``are`` before a comparison, which a restated condition may leave out."""


@functools.lru_cache(maxsize=65536)
def _forms(text: str, aliases: tuple[str, ...], value: str | None) -> tuple[str, ...]:
    """:meth:`Slot.forms` of a slot's text, aliases and scalar value (computed once each)."""
    forms = {normalize(text), *(normalize(a) for a in aliases)}
    if value is not None:
        forms.add(normalize(value))
    forms |= {_COPULA.sub(" ", f) for f in forms if len(f.split()) >= 3}  # "quantity below 179"
    return tuple(sorted((f for f in forms if f), key=lambda f: (-len(f), f)))


@dataclass(frozen=True)
class SlotKind:
    """A kind of detail a family's users hold.

    Attributes:
        name: its key (``max_price``), unique in the family.
        words: the words that name it, most natural first (``("maximum price", "budget")``);
            matched as whole words in an agent's message.
        phrase: how the user states it, with ``{text}`` for the value (``"a budget of at most
            {text}"``).
        call: the tool whose argument carries it, when one does (``set_max_price``).
        argument: that argument (``value``); ``None`` with a ``call``: any argument of it.
        question: how the oracle asks for it (``"What is your maximum price?"``).
        values: the values its slots take, when they are few enough to list, each as the ways
            an agent writes it (``(("buy", "purchase"), ("rent", "lease"))``): a message that
            writes one checks the kind, one that writes several offers a choice (asks).
        qualifiers: words that pick it among the kinds that share a word
            (``("minimum", "at least")`` for a minimum price, when a message says ``price``).
        counted: nouns that name it only after a number (``("photos",)``: ``10 photos`` is a
            number of images, ``which photos`` is not).
        weak: words that name it only in a message that checks no value, or with a number of
            their own (a spreadsheet's column names for its new value: ``What are pork's cost
            and price?`` asks the new row's values, ``Should Jonas's years become 12?`` checks
            the new value, but ``planned is below 857, right?`` checks a condition).
    """

    name: str
    words: tuple[str, ...]
    phrase: str = "{text}"
    call: str | None = None
    argument: str | None = None
    question: str = ""
    values: tuple[tuple[str, ...], ...] = ()
    qualifiers: tuple[str, ...] = ()
    counted: tuple[str, ...] = ()
    weak: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.words:
            raise ValueError(f"slot kind {self.name!r} needs at least one word that names it")
        if "{text}" not in self.phrase:
            raise ValueError(f"a slot kind's phrase holds '{{text}}'; got {self.phrase!r}")

    @property
    def title(self) -> str:
        """Its first word (how the user names it)."""
        return self.words[0]

    def ask(self) -> str:
        """The oracle's question for it."""
        return self.question or f"What {self.title} would you like?"


@dataclass(frozen=True)
class Slot:
    """One detail of one task's goal.

    Attributes:
        kind: the name of its :class:`SlotKind`.
        value: the JSON value the gold passes.
        text: how the user says the value (``"1550 dollars"``).
        aliases: other ways of writing the value that mean it (``("1550", "$1550")``).
        call: the tool whose argument carries this slot's value, when the task knows it and its
            kind names none (a RapidAPI task's API); ``None``: the kind's.
        argument: that argument (``q``); with a ``call``, ``None`` means any argument of it.
    """

    kind: str
    value: Any
    text: str
    aliases: tuple[str, ...] = ()
    call: str | None = None
    argument: str | None = None

    def forms(self) -> tuple[str, ...]:
        """Every normalized way of writing the value, longest first (computed once a slot)."""
        found = self.__dict__.get("_forms")
        if found is None:  # a frozen slot keeps them beside its fields (eq and hash ignore it)
            scalar = isinstance(self.value, (int, float, str)) and not isinstance(self.value, bool)
            found = _forms(self.text, self.aliases, str(self.value) if scalar else None)
            self.__dict__["_forms"] = found
        return found

    def to_record(self) -> dict[str, Any]:
        """The slot as JSON."""
        record: dict[str, Any] = {"kind": self.kind, "value": self.value, "text": self.text}
        if self.aliases:
            record["aliases"] = list(self.aliases)
        if self.call is not None:
            record["call"] = self.call
            if self.argument is not None:
                record["argument"] = self.argument
        return record

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Slot:
        """A slot from :meth:`to_record`'s JSON.

        Raises:
            ValueError: the record is not a slot.
        """
        if not isinstance(record, Mapping) or not isinstance(record.get("kind"), str):
            raise ValueError(f"a slot is an object with 'kind', 'value' and 'text'; got {record!r}")
        text = record.get("text")
        if not isinstance(text, str):
            raise ValueError(f"a slot's 'text' is a string; got {text!r}")
        aliases = record.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise ValueError(f"a slot's 'aliases' is a list of strings; got {aliases!r}")
        call, argument = record.get("call"), record.get("argument")
        if call is not None and not (isinstance(call, str) and call):
            raise ValueError(f"a slot's 'call' is a tool's name; got {call!r}")
        if argument is not None and not (isinstance(argument, str) and call is not None):
            raise ValueError(
                f"a slot's 'argument' is a string, given with its 'call'; got {argument!r} "
                f"with call {call!r}"
            )
        return cls(record["kind"], record.get("value"), text, tuple(aliases), call, argument)


class Vocabulary:
    """A family's slot kinds, by name.

    Args:
        kinds: the kinds, each name once.
        topic: what the user's requests are about (``"finding a home"``), for refusals.
        pairs: kinds that are the two ends of one thing, in order (``("origin",
            "destination")``, ``("checkin_date", "checkout_date")``): ``from A to B`` writes a
            value of each, and a value after ``from`` or ``to`` is its end's.
        stand_ins: kinds whose words name another kind in a task that lacks them, in order
            (``("departure_date", "checkout_date")``: in a hotel-only booking, "when are you
            leaving?" asks the check-out date).

    Raises:
        ValueError: a name given twice, or a pair or stand-in of kinds it does not have.
    """

    def __init__(
        self,
        kinds: Iterable[SlotKind],
        topic: str,
        pairs: Iterable[tuple[str, str]] = (),
        stand_ins: Iterable[tuple[str, str]] = (),
    ) -> None:
        self.kinds: dict[str, SlotKind] = {}
        for kind in kinds:
            if kind.name in self.kinds:
                raise ValueError(f"slot kind {kind.name!r} is given twice")
            self.kinds[kind.name] = kind
        self.topic = topic
        self.pairs = tuple((str(a), str(b)) for a, b in pairs)
        self.stand_ins = tuple((str(a), str(b)) for a, b in stand_ins)
        for what, pairs_of in (("pair", self.pairs), ("stand-in", self.stand_ins)):
            for pair in pairs_of:
                unknown = [k for k in pair if k not in self.kinds]
                if unknown:
                    raise ValueError(f"{what} {pair!r} names kinds the vocabulary lacks: {unknown}")

    def stand_in(self, kind: str, present: Iterable[str]) -> str:
        """The kind ``kind``'s words name in a task whose kinds are ``present``."""
        have = set(present)
        if kind in have:
            return kind
        return next((b for a, b in self.stand_ins if a == kind and b in have), kind)

    def __getitem__(self, name: str) -> SlotKind:
        kind = self.kinds.get(name)
        if kind is None:
            raise KeyError(f"no slot kind {name!r}; kinds: {', '.join(self.kinds)}")
        return kind

    def __contains__(self, name: object) -> bool:
        return name in self.kinds

    def __iter__(self) -> Any:
        return iter(self.kinds.values())

    def state(self, slot: Slot) -> str:
        """How the user states ``slot``."""
        return self[slot.kind].phrase.format(text=slot.text)
