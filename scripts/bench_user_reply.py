"""The rule-based user's reply against its family's gold step, interleaved.

For each of the six conversation families, the script times, back to back, one gold step of the
family's own env (``toolbench/<Family>-v0``: a reset to a test task, then its first gold action,
the step alone timed) and one reply of the rule-based user to an agent message written for a
task of that family (the question set, ``tests/data/user_questions.jsonl``: asks, checks,
summaries, small talk, injections). Each reply starts the task's conversation afresh, as the
question set is read. The figures are medians over the samples, and their quotient is the ratio
the user's reply costs against the step (the goal is at most 2)::

    python scripts/bench_user_reply.py                 # all six families
    python scripts/bench_user_reply.py --family WebShop --samples 2000
    python scripts/bench_user_reply.py --long          # the longest messages an env takes

The messages are spread over the family's tasks, so caches that hold a task's fixed values
(written forms, listed values) are warm after each task's first reply, as in an episode.

``--long`` times replies to messages as long as a conversation env takes
(:data:`~toolgym.conversation.messages.MAX_MESSAGE_CHARS`), written from the family's own words
(its kinds' words and qualifiers, a task's values, question-set messages, numbers and marks, in
seeded random order, with and without spaces, and runs of one of them): each is read once cold
(the first time the process meets its words) and once more with the message caches emptied, and
the script prints their medians and maxima against the median reply to the question set.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import gymnasium as gym

import toolgym  # noqa: F401  (registers the envs)
from toolgym.envs.protocol import task_env
from toolgym.simulators.user import RuleUser
from toolgym.simulators.user.accuracy import DEFAULT_QUESTIONS, load_family, read_questions
from toolgym.simulators.user.acknowledgement import request_words

FAMILIES = {
    "HomeSearch": "toolgym.families.home_search.chat:PROFILE",
    "CatAPI": "toolgym.families.cat_api.chat:PROFILE",
    "TripBooking": "toolgym.families.trip_booking.chat:PROFILE",
    "GoogleSheets": "toolgym.families.google_sheets.chat:PROFILE",
    "WebShop": "toolgym.families.web_shop.chat:PROFILE",
    "RapidAPI": "toolgym.families.rapid_api.chat:PROFILE",
}
"""Each family's env name and the profile its question-set entries name."""


def _forget_messages() -> None:
    """Empty the caches of short texts, so each timed message is read as a new one.

    (The question set repeats its messages over the samples; an agent's messages are new.) The
    normalized and canonical forms, the words a message may share with the request, and the
    answers of the patterns a reply asks of one text more than once
    (``simulators/user/memo.py``). The caller reads the task's request again, as an episode
    has read it before its first message.
    """
    from toolgym.simulators.user import acknowledgement, slots, text
    from toolgym.simulators.user.memo import forget_messages

    slots._normalize_short.cache_clear()
    text._canonical_short.cache_clear()
    acknowledgement._request_words_short.cache_clear()
    forget_messages()


def bench_family(name: str, questions_path: Path, samples: int) -> dict[str, float]:
    """Median µs of the family's gold step and of the user's reply, sampled alternately."""
    questions = [q for q in read_questions(questions_path) if q.family == FAMILIES[name]]
    vocabulary, conversations = load_family(FAMILIES[name])
    cases = [(conversations[q.task], q.message) for q in questions if q.task in conversations]
    if not cases:
        raise SystemExit(f"no questions of {name} in {questions_path}")
    env = gym.make(f"toolbench/{name}-v0")
    base = task_env(env)
    golds = []
    for task_id in list(base.task_ids)[:8]:
        env.reset(options={"task_id": task_id})
        golds.append((task_id, base.oracle_actions()[0]))
    user = RuleUser()
    for conversation, message in cases:  # warm-up: each task's fixed values
        user.reply(conversation, vocabulary, (), message)
    for task_id, action in golds:
        env.reset(options={"task_id": task_id})
        env.step(action)
    steps, replies = [], []
    count = samples if name != "GoogleSheets" else max(40, samples // 20)
    for i in range(count):
        task_id, action = golds[i % len(golds)]
        env.reset(options={"task_id": task_id})
        t = time.perf_counter_ns()
        env.step(action)
        steps.append(time.perf_counter_ns() - t)
        conversation, message = cases[i % len(cases)]
        _forget_messages()
        request_words(conversation.opening)
        t = time.perf_counter_ns()
        user.reply(conversation, vocabulary, (), message)
        replies.append(time.perf_counter_ns() - t)
    env.close()
    step, reply = statistics.median(steps) / 1e3, statistics.median(replies) / 1e3
    return {"messages": len(cases), "step_us": step, "reply_us": reply, "ratio": reply / step}


_MARKS = ("$", "1,250", "?", ".", ",", "-", "'", '"', ":", "=", "(", ")", "\n", "1.", "#", "/")
"""Numbers and marks mixed into the long messages."""


def long_messages(
    vocabulary: Any, conversation: Any, questions: list[str], count: int
) -> list[str]:
    """``count`` messages of :data:`MAX_MESSAGE_CHARS` characters made of the family's words."""
    from toolgym.conversation.messages import MAX_MESSAGE_CHARS

    rng = random.Random(f"long-{vocabulary.topic}")
    words = [w for kind in vocabulary for w in (*kind.words, *kind.qualifiers)]
    words += [s.text for s in conversation.slots] + ["which", "what", "or", "and", "right"]
    pieces = words + list(_MARKS) + rng.sample(questions, min(len(questions), 40))
    out = []
    for i in range(count):
        if i % 4 == 3:  # one piece over and over ("Size: ", a question, a word)
            piece = rng.choice(pieces) + rng.choice(("", " "))
            text = piece * (MAX_MESSAGE_CHARS // max(1, len(piece)) + 1)
        else:  # pieces in any order, spaced or run together
            joint = " " if i % 4 != 2 else ""
            text = joint.join(rng.choice(pieces) for _ in range(MAX_MESSAGE_CHARS // 2))
        out.append(text[:MAX_MESSAGE_CHARS])
    return out


def bench_long(name: str, questions_path: Path, count: int) -> dict[str, float]:
    """Median and maximum ms of replies to long messages, cold and warm, and a typical reply."""
    questions = [q for q in read_questions(questions_path) if q.family == FAMILIES[name]]
    vocabulary, conversations = load_family(FAMILIES[name])
    cases = [(conversations[q.task], q.message) for q in questions if q.task in conversations]
    user = RuleUser()
    typical = []
    for i, (conversation, message) in enumerate(cases[:400]):
        _forget_messages()
        t = time.perf_counter_ns()
        user.reply(conversation, vocabulary, (), message)
        if i >= 200:  # after each task's first reply
            typical.append(time.perf_counter_ns() - t)
    conversation = cases[0][0]
    cold: list[int] = []
    warm: list[int] = []
    for message in long_messages(vocabulary, conversation, [m for _, m in cases], count):
        for times in (cold, warm):
            _forget_messages()
            t = time.perf_counter_ns()
            user.reply(conversation, vocabulary, (), message)
            times.append(time.perf_counter_ns() - t)
    return {
        "typical_ms": statistics.median(typical) / 1e6,
        "cold_median_ms": statistics.median(cold) / 1e6,
        "cold_max_ms": max(cold) / 1e6,
        "warm_median_ms": statistics.median(warm) / 1e6,
        "warm_max_ms": max(warm) / 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    """Print each family's step, reply and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES))
    parser.add_argument("--samples", type=int, default=1500)
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    parser.add_argument(
        "--long", action="store_true", help="time replies to the longest messages instead"
    )
    parser.add_argument("--messages", type=int, default=60, help="long messages a family")
    args = parser.parse_args(argv)
    if args.long:
        print(
            f"{'family':14s} {'typical ms':>10s} {'cold med':>9s} {'cold max':>9s} "
            f"{'warm med':>9s} {'warm max':>9s}"
        )
        for name in args.family or FAMILIES:
            row = bench_long(name, args.questions, args.messages)
            print(
                f"{name:14s} {row['typical_ms']:10.2f} {row['cold_median_ms']:9.1f} "
                f"{row['cold_max_ms']:9.1f} {row['warm_median_ms']:9.1f} {row['warm_max_ms']:9.1f}"
            )
        return 0
    rows: dict[str, dict[str, float]] = defaultdict(dict)
    for name in args.family or FAMILIES:
        rows[name] = bench_family(name, args.questions, args.samples)
    print(f"{'family':14s} {'messages':>8s} {'step us':>9s} {'reply us':>9s} {'reply/step':>10s}")
    for name, row in rows.items():
        print(
            f"{name:14s} {row['messages']:8d} {row['step_us']:9.0f} {row['reply_us']:9.0f} "
            f"{'x' + format(row['ratio'], '.2f'):>10s}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
