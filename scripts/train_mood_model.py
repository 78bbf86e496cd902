"""Train the simulated user's mood model on the question set, and say how well it generalises.

The model (``toolgym.simulators.user.mood_model``) reads what an agent's message does: asks,
checks, greets ... It is trained on every message of the question set
(``tests/data/user_questions.jsonl``), labelled with what the user should read it as, and
written next to its module (``mood_weights.npz``)::

    python scripts/train_mood_model.py            # train and write the shipped weights
    python scripts/train_mood_model.py --lobo     # the figure for unseen phrasing

``--lobo`` holds each later batch out in turn (``blind-4`` ... the newest), trains on the
rest, and reads the held-out batch with the rules alone and with the rules and the model (the
model overrides the rules only where it is sure): the difference is what the model adds on
phrasing it has not seen. Training is seeded: the same set gives the same weights.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from toolgym.simulators.user import mood_model
from toolgym.simulators.user.accuracy import (
    DEFAULT_QUESTIONS,
    load_family,
    question_accuracy,
    read_questions,
)
from toolgym.simulators.user.mood_model import WEIGHTS, train

HELD_OUT = (
    "blind-4", "dev-5", "blind-5", "dev-6", "blind-6", "dev-7", "blind-7", "blind-8", "dev-9", "blind-9",
    "blind-10", "dev-11", "blind-11", "blind-12", "dev-13", "blind-13", "dev-14", "blind-14",
    "blind-15", "dev-16", "blind-16", "dev-17", "blind-17", "blind-18", "blind-19", "blind-20",
    "blind-21", "dev-22", "blind-22", "dev-23", "blind-23", "dev-24", "blind-24",
    "dev-25", "blind-25", "dev-26", "blind-26", "dev-27", "blind-27", "dev-28", "blind-28", "dev-29", "blind-29",
)  # fmt: skip
"""The batches held out in turn: those written after the reader's first rounds."""


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def lobo(path: Path) -> None:
    """Print each held-out batch's accuracy with the rules alone and with the model."""
    questions = read_questions(path)
    lines = _lines(path)
    families = sorted({q.family for q in questions})
    loaded = {f: load_family(f) for f in families}
    vocabularies = {f: v for f, (v, _) in loaded.items()}
    conversations = {f: c for f, (_, c) in loaded.items()}
    totals = [0, 0, 0]
    print(f"{'held out':<10} {'messages':>8} {'rules':>7} {'with model':>10}")
    for batch in HELD_OUT:
        rest = [q for q in questions if q.batch != batch]
        held = [line for q, line in zip(questions, lines, strict=True) if q.batch == batch]
        if not held:
            continue
        model = train([q.message for q in rest], [q.kind for q in rest])
        with tempfile.TemporaryDirectory() as folder:
            batch_path = Path(folder) / f"{batch}.jsonl"
            batch_path.write_text("\n".join(held) + "\n", encoding="utf-8")
            with mood_model.using(None):
                alone = question_accuracy(batch_path, vocabularies, conversations)
            with mood_model.using(model):
                both = question_accuracy(batch_path, vocabularies, conversations)
        right_alone = sum(o.ok for o in alone.outcomes)
        right_both = sum(o.ok for o in both.outcomes)
        totals = [totals[0] + len(held), totals[1] + right_alone, totals[2] + right_both]
        print(
            f"{batch:<10} {len(held):>8} {right_alone / len(held):>7.1%} "
            f"{right_both / len(held):>10.1%}"
        )
    print(
        f"{'all':<10} {totals[0]:>8} {totals[1] / totals[0]:>7.1%} {totals[2] / totals[0]:>10.1%}"
    )


def main() -> int:
    """Train and write the model, or print the held-out accuracies."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    parser.add_argument("--lobo", action="store_true", help="print the held-out accuracies")
    args = parser.parse_args()
    if args.lobo:
        lobo(args.questions)
        return 0
    questions = read_questions(args.questions)
    model = train([q.message for q in questions], [q.kind for q in questions])
    model.save(args.out)
    print(f"{len(questions)} messages, {len(model.hashes)} features: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
