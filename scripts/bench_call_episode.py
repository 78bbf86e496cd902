"""A call-mode step's cost as its episode grows, against CartPole-v1's step.

``python scripts/bench_call_episode.py [--env toolbench/TripBooking-v0] [--repeat 6]``

An agent's episode in call mode is often longer than the gold's: it sets a detail again, or
makes calls the gold does not. Each episode here plays a test task's gold calls with the
non-terminal ones repeated ``--repeat`` times (then the terminal call), and times every step;
a ``CartPole-v1`` step is timed beside each, so load that comes and goes falls on both. The
table gives, per env, the median step of the gold's calls the first time (early) and the same
calls the last time (late), each against CartPole's median step, and their quotient: a step
whose cost grows with the calls made before it shows a quotient above 1.

In a conversation env the episode asks the user only the gold's first question, so details stay
untold while the calls pile up: each call is then checked for a guess (run from a mark, and
undone when it sets an untold detail), and an episode ends without its terminal call.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import gymnasium as gym

import toolgym  # noqa: F401  (registers the envs)
from toolgym.conversation.messages import is_message
from toolgym.envs.protocol import task_env

ENVS = (
    "toolbench/HomeSearch-v0",
    "toolbench/TripBooking-v0",
    "toolbench/SealTools-v0",
    "toolbench/HomeSearchChat-v0",
    "toolbench/TripBookingChat-v0",
)
"""Families whose backends keep the episode's calls (and conversations over them)."""


def episode(gold: list[str], repeat: int) -> tuple[int, int, list[str]]:
    """The gold's calls played ``repeat`` times: the first call's step, the calls, the steps.

    The terminal call ends a plain episode; a conversation's keeps only its first message, and
    no terminal call.
    """
    if not any(is_message(a) for a in gold):
        return 0, len(gold) - 1, gold[:-1] * repeat + gold[-1:]
    first = next(a for a in gold if is_message(a))
    calls = [a for a in gold[:-1] if not is_message(a)]
    return 1, len(calls), [first, *calls * repeat, first]


def bench_env(env_id: str, repeat: int, tasks: int, rounds: int) -> dict[str, float]:
    """Median µs of early and late steps and of CartPole's step, sampled together."""
    env = gym.make(env_id, action_mode="call")
    base = task_env(env)
    pole = gym.make("CartPole-v1")
    pole.reset(seed=0)
    flip = 0
    early: list[int] = []
    late: list[int] = []
    poles: list[int] = []
    plays = []
    for task_id in list(base.task_ids)[:tasks]:
        env.reset(options={"task_id": task_id})
        gold = base.oracle_actions()
        plays.append((task_id, *episode(gold, repeat)))
    for _ in range(rounds):
        for task_id, start, calls, actions in plays:
            env.reset(options={"task_id": task_id})
            times = []
            for action in actions:
                flip ^= 1
                t = time.perf_counter_ns()
                _, _, terminated, truncated, _ = pole.step(flip)
                poles.append(time.perf_counter_ns() - t)
                if terminated or truncated:
                    pole.reset()
                t = time.perf_counter_ns()
                env.step(action)
                times.append(time.perf_counter_ns() - t)
            early += times[start : start + calls]  # the gold's calls the first time
            late += times[-1 - calls : -1]  # the same calls the last time
    env.close()
    pole.close()
    cartpole = statistics.median(poles)
    return {
        "steps": statistics.median(len(a) for *_, a in plays),
        "early": statistics.median(early) / cartpole,
        "late": statistics.median(late) / cartpole,
        "cartpole_us": cartpole / 1e3,
    }


def main(argv: list[str] | None = None) -> int:
    """Print each env's early and late step against CartPole's, and their quotient."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", action="append", help="an env id (repeatable)")
    parser.add_argument("--repeat", type=int, default=6)
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{'env':26s} {'steps':>5s} {'early':>7s} {'late':>7s} {'late/early':>10s}")
    for env_id in args.env or ENVS:
        row = bench_env(env_id, args.repeat, args.tasks, args.rounds)
        print(
            f"{env_id:26s} {row['steps']:5.0f} {'x' + format(row['early'], '.1f'):>7s} "
            f"{'x' + format(row['late'], '.1f'):>7s} {row['late'] / row['early']:10.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
