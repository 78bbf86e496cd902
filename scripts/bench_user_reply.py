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

The messages are spread over the family's tasks, so caches that hold a task's fixed values
(written forms, listed values) are warm after each task's first reply, as in an episode.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

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


def main(argv: list[str] | None = None) -> int:
    """Print each family's step, reply and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES))
    parser.add_argument("--samples", type=int, default=1500)
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    args = parser.parse_args(argv)
    rows = defaultdict(dict)
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
