"""``toolgym bench``: the benchmarks, one option each (reset/step latency by default)."""

from __future__ import annotations

import argparse
from typing import Any

from toolgym.cli.training_commands import _whole

POSITIVE = _whole(1)


def cmd_bench(args: argparse.Namespace) -> int:
    """``toolgym bench``: run the benchmark the options pick (reset/step latency by default)."""
    if args.main_job:
        from toolgym.cli.main_job_bench import main as main_job

        passed = [f"--env={env}" for env in args.env or ()]
        if args.limit is not None:
            passed.append(f"--limit={args.limit}")
        if args.adapter is not None:
            passed.append(f"--adapter={args.adapter}")
        return main_job(passed)
    if args.steps:
        from toolgym.evaluation.step_bench import main as steps_main

        argv = [f"--env={env}" for env in args.env or ()]
        if args.against:
            argv.append(f"--against={args.against}")
        return steps_main(argv)
    if args.serve:
        from toolgym.evaluation.serve_perf import main as serve_main

        return serve_main([])
    if args.rewards:
        from toolgym.training.reward_bench import main as rewards_main

        return rewards_main(args.env or (), args.rewards)
    if args.grammars:
        from toolgym.evaluation.grammar_perf import main as grammar_main

        argv = [f"--env={env}" for env in args.env or ()]
        return grammar_main([*argv, f"--tasks={min(args.tasks, 8)}"])
    if args.llm:
        from toolgym.evaluation.llm_perf import main as llm_main

        argv = [f"--env={env}" for env in args.env or ()]
        if args.agreement:
            argv.append(f"--agreement={args.agreement}")
        if args.decode_only:
            argv.append("--decode-only")
        return llm_main([*argv, f"--tasks={args.tasks}"])
    if args.scaling:
        from toolgym.evaluation.scaling import main as scaling_main

        return scaling_main([])
    from toolgym.evaluation.perf import main as perf_main

    return perf_main(["--repeat", str(args.repeat)])


def add_parser(sub: Any) -> None:
    """Add ``toolgym bench`` to the command line's subcommands."""
    bench = sub.add_parser("bench", help="print reset/step latency and oracle throughput")
    bench.add_argument("--repeat", type=POSITIVE, default=2000)
    bench.add_argument("--llm", action="store_true", help="benchmark the embedded model instead")
    bench.add_argument(
        "--grammars",
        action="store_true",
        help="time the grammar engines installed (llguidance, xgrammar): compile and per-token "
        "mask on each env's action grammars",
    )
    bench.add_argument(
        "--rewards",
        type=POSITIVE,
        nargs="?",
        const=200,
        metavar="N",
        help="time execution rewards (toolgym.training.rewards) on N completions per "
        "single-step env (default 200)",
    )
    bench.add_argument(
        "--env",
        action="append",
        help="with --llm, --grammars, --rewards, --steps or --main-job: an env to time (repeatable; "
        "default every env)",
    )
    bench.add_argument(
        "--steps",
        action="store_true",
        help="every env's gold step and reset against CartPole-v1's step, interleaved",
    )
    bench.add_argument(
        "--against",
        metavar="REV",
        help="with --steps: also measure the commit REV (a git worktree), in alternating processes",
    )
    bench.add_argument("--tasks", type=POSITIVE, default=8, help="with --llm: tasks per env")
    bench.add_argument(
        "--agreement",
        type=POSITIVE,
        metavar="TASKS",
        help="with --llm: compare int4 weights' greedy actions with float32's on TASKS test "
        "tasks of each API family",
    )
    bench.add_argument(
        "--decode-only",
        action="store_true",
        help="with --llm: the decode table beside llama.cpp (and --agreement) only",
    )
    bench.add_argument(
        "--serve",
        action="store_true",
        help="toolgym serve under hostile clients: a normal request's time with 1,100 half-sent "
        "and 300 slowloris connections open, and memory under header floods",
    )
    bench.add_argument(
        "--scaling",
        action="store_true",
        help="suite throughput with the oracle: sequential, AsyncVectorEnv and Ray at 1, 2, 4 "
        "workers, with memory and scaling efficiency",
    )
    bench.add_argument(
        "--main-job",
        action="store_true",
        help="run the main job (toolgym eval's defaults, into a fresh folder) and print its wall "
        "time split into prompt reading, decoding, token choice, env steps and the rest",
    )
    bench.add_argument(
        "--limit", type=POSITIVE, help="with --main-job: tasks per env (default: the main job's)"
    )
    bench.add_argument(
        "--adapter", help="with --main-job: toolgym eval's --adapter (none: the base model alone)"
    )
    bench.set_defaults(func=cmd_bench)
