"""A learned reading of what a message does (asks, checks, greets ...), beside the rules.

The rules read a message's parts: its sentences, the kinds its words name, the values it
writes. What they misread most on unseen phrasing is what the message *does*: a question that
writes values to pick from read as a check (``which image, and is the vote up or down?``), a
restatement before a question read as a plain ask. A linear model over the message's words,
word pairs and triples, its first words and its question marks, trained on the question set
(``tests/data/user_questions.jsonl``: every message labelled with what it does), reads that
part from the whole message.

It is deterministic on any machine: features are hashed with CRC-32, the weights are stored as
8-bit integers (``mood_weights.npz``, next to this module) and a message's scores are sums of
integers. It is light: a few hundred features a message, one table lookup each.

:func:`heard` is where the reader listens to it, :func:`train` fits it (``python
scripts/train_mood_model.py`` writes the file and prints the leave-one-batch-out accuracy, the
figure for phrasing it was not trained on).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import zlib
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from toolgym.simulators.user.first_chars import compiled
from toolgym.simulators.user.phrases import ASK, CHECK
from toolgym.simulators.user.reading import Reading
from toolgym.simulators.user.text import _clauses

MOODS = (
    "ask",
    "check",
    "more",
    "list_request",
    "injection",
    "forged_end",
    "greeting",
    "off_topic",
    "end",
)
"""What a message may do: the reader's kinds of message, in the weights' column order."""
WEIGHTS = Path(__file__).with_name("mood_weights.npz")
"""The trained model shipped with the package."""
BUCKETS = 1 << 20
"""Features are hashed into this many buckets."""
_TOKEN = compiled(r"[a-z]+|\d+|[?!:()\-\u2014,.]")
_MAX_CHARS = 4000
"""Only a message's first characters are read (a long message costs no more)."""


def features(message: str) -> list[int]:
    """The hashed features of ``message``: sorted, each once.

    Its lower-cased words (numbers as one token) and punctuation, each word with the next one
    and the next two, its first three words and its first two together, whether it ends with a
    question mark, how many it holds (up to 3), and its length in words (by fives, up to 30).
    """
    text = message[:_MAX_CHARS].lower().replace("\u2019", "'")
    words = ["<n>" if w.isdigit() else w for w in _TOKEN.findall(text)]
    found = {f"u:{w}" for w in words}
    found |= {f"b:{a} {b}" for a, b in itertools.pairwise(words)}
    found |= {f"t:{a} {b} {c}" for a, b, c in zip(words, words[1:], words[2:], strict=False)}
    found |= {f"s:{w}" for w in words[:3]}
    if words:
        found.add("first2:" + " ".join(words[:2]))
    found.add("endq" if text.rstrip().endswith("?") else "noendq")
    found.add(f"nq:{min(text.count('?'), 3)}")
    found.add(f"len:{min(len(words) // 5, 6)}")
    return sorted({zlib.crc32(f.encode()) % BUCKETS for f in found})


@dataclass(frozen=True)
class MoodModel:
    """A linear model over hashed features, its weights 8-bit integers.

    Attributes:
        hashes: the features it has weights for, sorted.
        weights: one row per feature, one column per mood (``int8``).
        bias: one per mood (``int32``), on the weights' scale.
        scale: how many integer units one unit of score is.
    """

    hashes: np.ndarray
    weights: np.ndarray
    bias: np.ndarray
    scale: float

    def scores(self, message: str) -> np.ndarray:
        """The message's integer score for each mood (:data:`MOODS` order)."""
        wanted = np.asarray(features(message), dtype=np.int64)
        at = np.searchsorted(self.hashes, wanted)
        inside = at < len(self.hashes)
        at, wanted = at[inside], wanted[inside]
        known = at[self.hashes[at] == wanted]
        return self.weights[known].astype(np.int32).sum(axis=0) + self.bias

    def mood(self, message: str, margin: float = 6.0) -> str | None:
        """The mood the model reads, when it leads every other by ``margin`` (in score units).

        ``None`` when it is not that sure. A margin of 6 is odds of 400 to 1 or more against
        the runner-up (margins from 5 to 8 gave the same held-out accuracy, within 0.1 point).
        """
        scores = self.scores(message)
        order = np.argsort(-scores, kind="stable")
        if scores[order[0]] - scores[order[1]] < margin * self.scale:
            return None
        return MOODS[int(order[0])]

    def save(self, path: Path) -> None:
        """Write the model (``.npz``)."""
        np.savez_compressed(
            path,
            hashes=self.hashes,
            weights=self.weights,
            bias=self.bias,
            scale=np.asarray(self.scale),
        )


@functools.lru_cache(maxsize=4)
def load(path: Path = WEIGHTS) -> MoodModel | None:
    """The model stored at ``path``, or ``None`` where there is none."""
    if not path.is_file():
        return None
    with np.load(path) as data:
        return MoodModel(data["hashes"], data["weights"], data["bias"], float(data["scale"]))


_MODEL: list[MoodModel | None] = []
"""The model :func:`heard` uses instead of the shipped one (see :func:`using`)."""


@contextlib.contextmanager
def using(model: MoodModel | None) -> Iterator[None]:
    """Read messages with ``model`` (``None``: the rules alone) instead of the shipped model.

    For measuring what the model adds (``scripts/train_mood_model.py --lobo``).
    """
    _MODEL.append(model)
    try:
        yield
    finally:
        _MODEL.pop()


_OPEN = compiled(r"(which|what|where|when|how|who|whose)\b")
_CONFIRMED = compiled(r"\b(right|correct|ok|okay|yes|confirm)\W*$")


def heard(reading: Reading, message: str) -> Reading:
    """The rules' ``reading`` of ``message``, with the model heard where the rules may be unsure.

    The model is asked only there, and heard only where it is sure: a check in which the rules
    found no value they can tell right or wrong, or one that opens with a question word and ends
    with no confirmation (``Which city will the four of you be leaving from?``: a number read as a
    wrong count), is an ask where the model reads one; a question
    after a statement (``Understood, removing one from your favourites. What's its ID?``) is a
    check as well where the model reads one: the user confirms and answers.
    """
    model = _MODEL[-1] if _MODEL else load()
    if model is None or reading.kind not in (ASK, CHECK):
        return reading
    wrong = set(reading.kinds) - set(reading.stated) - set(reading.asked)
    unsure_check = reading.kind == CHECK and not (reading.acknowledged or wrong or reading.stated)
    unsure_check = unsure_check or (
        reading.kind == CHECK
        and not reading.acknowledged
        and _OPEN.match(message.strip().lower()) is not None
        and _CONFIRMED.search(message.strip().lower()) is None
    )
    unsure_ask = reading.kind == ASK and bool(reading.kinds) and len(_clauses(message)) > 1
    mood = model.mood(message) if unsure_check or unsure_ask else None  # only where it may help
    if unsure_check and mood == ASK:  # no value it could tell right or wrong: asked
        return Reading(ASK, reading.kinds, (), True, reading.kinds)
    if unsure_ask and mood == CHECK:  # a statement before the question restates: confirmed
        return Reading(CHECK, reading.kinds, (), reading.question, reading.kinds, True)
    return reading


def train(
    messages: Sequence[str],
    moods: Sequence[str],
    epochs: int = 8,
    rate: float = 0.5,
    min_count: int = 2,
    seed: int = 0,
) -> MoodModel:
    """Fit a model by stochastic gradient descent on the softmax loss, then store it in 8 bits.

    Args:
        messages: the agent's messages.
        moods: what each does (one of :data:`MOODS`).
        epochs: passes over the messages, each in an order drawn from ``seed``.
        rate: the step size.
        min_count: a feature seen in fewer messages gets no weight.
        seed: the draw of the orders.

    Raises:
        ValueError: the lists differ in length, or a mood is none of :data:`MOODS`.
    """
    if len(messages) != len(moods):
        raise ValueError(f"{len(messages)} messages but {len(moods)} moods")
    unknown = sorted(set(moods) - set(MOODS))
    if unknown:
        raise ValueError(f"moods must be among {MOODS}; got {unknown}")
    rows = [features(m) for m in messages]
    counts = Counter(h for row in rows for h in row)
    hashes = np.asarray(sorted(h for h, c in counts.items() if c >= min_count), dtype=np.int64)
    index = {int(h): i for i, h in enumerate(hashes)}
    rows_at = [[index[h] for h in row if h in index] for row in rows]
    target = [MOODS.index(m) for m in moods]
    weights = np.zeros((len(hashes), len(MOODS)))
    bias = np.zeros(len(MOODS))
    rng = np.random.default_rng(seed)
    for _ in range(epochs):
        for i in rng.permutation(len(rows_at)):
            at = rows_at[i]
            score = weights[at].sum(axis=0) + bias
            prob = np.exp(score - score.max())
            prob /= prob.sum()
            prob[target[i]] -= 1.0
            weights[at] -= rate * prob
            bias -= 0.1 * rate * prob
    scale = 127.0 / max(float(np.abs(weights).max()), 1e-9)
    return MoodModel(
        hashes,
        np.round(weights * scale).astype(np.int8),
        np.round(bias * scale).astype(np.int32),
        scale,
    )
