"""How often a simulated user answers a set of agent messages as intended.

A question set is a JSONL file of agent messages, each written for one stored conversation task
and labelled with what the user should do::

    {"family": "<module>:<profile>", "batch": "tuning", "task": "test-003",
     "category": "check_no", "message": "Is your budget 1800 dollars?",
     "expect": {"kind": "check", "reveals": ["max_price"], "polarity": "no", "ended": false}}

(``batch`` says which part of the set a question belongs to: say, the questions the reader was
tuned on and those written afterwards to test it; the table can be made by batch.)

Each message is put to the user as the first turn of its task's conversation (no history), and
the reply is judged on what can be read from it:

* ``kind``: how the user read the message (:data:`~toolgym.simulators.user.matcher.KINDS`);
* ``reveals``: the task's slot kinds the reply must state. A reply *states* a kind when its text
  writes the slot's value (its full text, or a written form of three characters or more that no
  other slot of the task shares; ``1`` alone would name half the slots). Outside a check the
  kinds the turn records as revealed count too (in a check, the turn records a held-back value
  the agent wrote and the user confirmed, which the reply itself does not state). The reply must
  state every expected kind, and may restate what the opening gave, but must state no other
  held-back kind;
* ``polarity`` (checks): ``yes`` when the reply confirms, ``no`` when it corrects, read from the
  reply's first words;
* ``ended``: whether the user ended the conversation.

``family`` names the object that holds the family's vocabulary and stored tasks (a conversation
profile: ``vocabulary``, ``name``, ``version``, ``data_dir``); the core never names a family, so
the question file does. Run ``python -m toolgym.simulators.user.accuracy [QUESTIONS]`` for a
table by category.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgym.simulators.user.matcher import CHECK, KINDS
from toolgym.simulators.user.rule_user import Conversation, RuleUser, UserSimulator, UserTurn
from toolgym.simulators.user.slots import Vocabulary, contains_phrase, normalize

DEFAULT_QUESTIONS = Path("tests") / "data" / "user_questions.jsonl"
"""The question set, relative to the repository root."""

_YES = re.compile(r"^(yes|yep|yeah|correct|right|exactly|that's right)\b")
_NO = re.compile(r"^(no|nope|not|hmm not|almost|actually)\b")


@dataclass(frozen=True)
class Question:
    """One agent message of a question set and what the user should do with it."""

    family: str
    task: str
    category: str
    message: str
    kind: str
    reveals: tuple[str, ...] = ()
    polarity: str | None = None
    ended: bool = False
    batch: str = ""

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Question:
        """A question from its JSON line.

        Raises:
            ValueError: the record is not a question.
        """
        expect = record.get("expect")
        if not isinstance(expect, Mapping) or expect.get("kind") not in KINDS:
            raise ValueError(f"a question's 'expect' has a 'kind' among {KINDS}; got {expect!r}")
        polarity = expect.get("polarity")
        if polarity not in (None, "yes", "no"):
            raise ValueError(f"'polarity' is 'yes' or 'no'; got {polarity!r}")
        return cls(
            family=str(record.get("family", "")),
            task=str(record["task"]),
            category=str(record.get("category", expect["kind"])),
            message=str(record["message"]),
            kind=str(expect["kind"]),
            reveals=tuple(sorted(expect.get("reveals", ()))),
            polarity=polarity,
            ended=bool(expect.get("ended", False)),
            batch=str(record.get("batch", "")),
        )


@dataclass(frozen=True)
class Outcome:
    """A question, the user's turn, and what was wrong with it (nothing: answered as intended)."""

    question: Question
    turn: UserTurn
    stated: tuple[str, ...]
    polarity: str | None
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether the user answered as intended."""
        return not self.problems


@dataclass(frozen=True)
class Accuracy:
    """The outcomes of a question set, by category and overall."""

    outcomes: tuple[Outcome, ...] = field(default_factory=tuple)

    @property
    def overall(self) -> float:
        """The share of questions answered as intended."""
        return sum(o.ok for o in self.outcomes) / len(self.outcomes) if self.outcomes else 0.0

    def by(self, field: str = "category") -> dict[str, tuple[int, int]]:
        """``value -> (answered as intended, questions)``, in the file's order.

        ``field`` is a :class:`Question` field: ``category``, ``batch``, ``kind``, ``task``.
        """
        counts: dict[str, list[int]] = {}
        for outcome in self.outcomes:
            entry = counts.setdefault(str(getattr(outcome.question, field)), [0, 0])
            entry[0] += outcome.ok
            entry[1] += 1
        return {k: (v[0], v[1]) for k, v in counts.items()}

    def failures(self) -> list[Outcome]:
        """The outcomes not as intended."""
        return [o for o in self.outcomes if not o.ok]

    def table(self, field: str = "category") -> str:
        """A plain-text table: one row a value of ``field``, then the total."""
        rows = [f"{field:<14} {'right':>5} {'of':>5} {'accuracy':>9}"]
        for value, (right, total) in self.by(field).items():
            rows.append(f"{value:<14} {right:>5} {total:>5} {right / total:>9.1%}")
        right = sum(o.ok for o in self.outcomes)
        rows.append(f"{'overall':<14} {right:>5} {len(self.outcomes):>5} {self.overall:>9.1%}")
        return "\n".join(rows)


def read_questions(path: str | Path) -> list[Question]:
    """The questions of a JSONL question set (blank lines skipped).

    Raises:
        ValueError: a line that is not a question (the message says which).
    """
    questions = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            questions.append(Question.from_record(json.loads(line)))
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path}:{number}: not a question: {error}") from error
    return questions


def reply_states(reply: str, conversation: Conversation) -> tuple[str, ...]:
    """The kinds of the conversation's slots whose value the reply's text writes.

    A slot counts when the reply writes its full text, or one of its written forms that has
    three characters or more and is no other slot's form.
    """
    text = normalize(reply)
    forms = {s.kind: set(s.forms()) for s in conversation.slots}
    stated = []
    for slot in conversation.slots:
        others = set().union(*(f for k, f in forms.items() if k != slot.kind))
        own = {normalize(slot.text)} | {f for f in forms[slot.kind] if len(f) >= 3} - others
        if any(contains_phrase(text, form) for form in own):
            stated.append(slot.kind)
    return tuple(stated)


def reply_polarity(reply: str) -> str | None:
    """``yes`` for a reply that confirms, ``no`` for one that corrects, else ``None``."""
    text = normalize(reply)
    if _YES.search(text):
        return "yes"
    if _NO.search(text):
        return "no"
    return None


def judge(
    question: Question,
    conversation: Conversation,
    vocabulary: Vocabulary,
    user: UserSimulator | None = None,
) -> Outcome:
    """Put the question to the user as the conversation's first turn and judge the reply."""
    turn = (user or RuleUser()).reply(conversation, vocabulary, (), question.message)
    stated = set(reply_states(turn.reply, conversation))
    if turn.kind != CHECK:
        stated |= set(turn.revealed)
    polarity = reply_polarity(turn.reply) if turn.kind == CHECK else None
    problems = []
    if turn.kind != question.kind:
        problems.append(f"kind {turn.kind}, not {question.kind}")
    missing = sorted(set(question.reveals) - stated)
    if missing:
        problems.append(f"does not state {', '.join(missing)}")
    leaked = sorted((stated - set(question.reveals)) & set(conversation.held))
    if leaked:
        problems.append(f"states held-back {', '.join(leaked)}")
    if question.polarity is not None and polarity != question.polarity:
        problems.append(f"answers {polarity or 'neither yes nor no'}, not {question.polarity}")
    if turn.ended != question.ended:
        problems.append("ends the conversation" if turn.ended else "does not end it")
    return Outcome(question, turn, tuple(sorted(stated)), polarity, tuple(problems))


def question_accuracy(
    path: str | Path,
    vocabularies: Mapping[str, Vocabulary],
    conversations: Mapping[str, Mapping[str, Conversation]],
    user: UserSimulator | None = None,
) -> Accuracy:
    """The accuracy of ``user`` (the rule-based one by default) on the question set at ``path``.

    Args:
        path: the JSONL question set.
        vocabularies: each family's vocabulary, by the name the questions give as ``family``.
        conversations: each family's conversations, by task id.
        user: the simulated user.

    Raises:
        KeyError: a question of a family or task not given.
    """
    outcomes = []
    for question in read_questions(path):
        conversation = conversations[question.family][question.task]
        outcomes.append(judge(question, conversation, vocabularies[question.family], user))
    return Accuracy(tuple(outcomes))


SPLITS = ("test", "demo")
"""The stored splits a question set's tasks come from (their ids do not overlap)."""


def load_family(
    ref: str, split: str | Sequence[str] = SPLITS
) -> tuple[Vocabulary, dict[str, Conversation]]:
    """The vocabulary and stored conversations of the profile at ``module:attribute`` ``ref``.

    The profile gives ``vocabulary``, ``name``, ``version`` and ``data_dir``; its conversations
    are read from ``<data_dir>/<name>-v<version>-<split>.jsonl`` (each task's
    ``setup["conversation"]``), for one split or several.

    Raises:
        ValueError: two splits holding the same task id.
    """
    module, _, attribute = ref.partition(":")
    profile = getattr(importlib.import_module(module), attribute or "PROFILE")
    conversations: dict[str, Conversation] = {}
    for name in (split,) if isinstance(split, str) else tuple(split):
        path = Path(profile.data_dir) / f"{profile.name}-v{profile.version}-{name}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                setup = record.get("setup") or {}
                if "conversation" not in setup:
                    continue
                key = str(record["id"])
                if key in conversations:
                    raise ValueError(f"{ref}: task {key!r} is in two splits of {split!r}")
                conversations[key] = Conversation.from_record(setup["conversation"])
    return profile.vocabulary, conversations


def main(argv: Sequence[str] | None = None) -> int:
    """Print the accuracy table of the rule-based user on a question set."""
    parser = argparse.ArgumentParser(
        prog="python -m toolgym.simulators.user.accuracy", description=__doc__.split("\n")[0]
    )
    parser.add_argument("questions", nargs="?", default=str(DEFAULT_QUESTIONS))
    parser.add_argument(
        "--split",
        action="append",
        help=f"a stored split the tasks come from (repeatable; default: {', '.join(SPLITS)})",
    )
    parser.add_argument(
        "--by", default="category", choices=("category", "batch", "kind", "task", "family")
    )
    parser.add_argument("--failures", action="store_true", help="list the questions missed")
    args = parser.parse_args(argv)
    families = dict.fromkeys(q.family for q in read_questions(args.questions))
    vocabularies, conversations = {}, {}
    for ref in families:
        vocabularies[ref], conversations[ref] = load_family(ref, args.split or SPLITS)
    accuracy = question_accuracy(args.questions, vocabularies, conversations)
    print(accuracy.table(args.by))
    if args.failures:
        for outcome in accuracy.failures():
            q = outcome.question
            print(f"\n[{q.category}] {q.task}: {q.message}")
            print(f"  reply: {outcome.turn.reply}")
            print(f"  {'; '.join(outcome.problems)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
