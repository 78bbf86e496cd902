"""The ``toolgym`` command line: list envs, evaluate agents, generate training data, benchmark."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import gymnasium as gym

from toolgym.agents import AGENT_NAMES
from toolgym.envs import ENV_TABLE, env_ids


def _cmd_list(args: argparse.Namespace) -> int:
    from toolgym.benchmarks.report import format_table

    rows = []
    for entry in ENV_TABLE:
        env = gym.make(entry.id)
        suite = env.unwrapped.suite  # type: ignore[attr-defined]
        sizes = {split: len(suite.load(split)) for split in suite.splits}
        rows.append(
            {
                "id": entry.id,
                "family": entry.family,
                "tools": len(env.unwrapped.toolkit.functions),  # type: ignore[attr-defined]
                "splits": ", ".join(f"{k} {v}" for k, v in sizes.items()) + ", train unlimited",
                "max_steps": entry.max_episode_steps,
            }
        )
        env.close()
    print(format_table(rows, ["id", "family", "tools", "splits", "max_steps"]))
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from toolgym.benchmarks.report import SUMMARY_COLUMNS, format_table
    from toolgym.benchmarks.runner import evaluate

    ids = args.env or env_ids()
    unknown = [i for i in ids if i not in gym.registry and i.rsplit("-v", 1)[0] not in _names()]
    if unknown:
        print(f"error: unknown env id(s) {unknown}; known: {', '.join(env_ids())}", file=sys.stderr)
        return 2
    env_kwargs: dict[str, Any] = {"action_mode": args.action_mode}
    if args.task_file:
        env_kwargs["task_file"] = args.task_file
    if args.split == "train" and args.limit is None:
        print("error: --split train is unlimited; pass --limit", file=sys.stderr)
        return 2
    summaries = []
    for env_id in ids:
        result = evaluate(
            env_id,
            args.agent,
            split=args.split,
            limit=args.limit,
            seed=args.seed,
            env_kwargs=env_kwargs,
            out_dir=args.out,
            progress=not args.no_progress,
        )
        summaries.append(result.summary)
    print(format_table(summaries, SUMMARY_COLUMNS))
    if args.out:
        Path(args.out, "summary.json").write_text(json.dumps(summaries, indent=2) + "\n")
        print(f"\nepisode records and summary.json written to {args.out}/")
    return 0


def _names() -> set[str]:
    return {e.id.rsplit("-v", 1)[0] for e in ENV_TABLE}


def _cmd_generate(args: argparse.Namespace) -> int:
    from toolgym.benchmarks.tasks import write_task_file

    env = gym.make(args.env)
    suite = env.unwrapped.suite  # type: ignore[attr-defined]
    module = __import__(f"toolgym.benchmarks.{suite.family}", fromlist=["train_pairs"])
    tasks = list(module.train_pairs(args.n, seed=args.seed))
    if args.out == "-":
        for task in tasks:
            print(json.dumps({"prompt": task.instruction, "completion": list(task.completions)}))
    else:
        write_task_file(tasks, args.out)
        print(f"wrote {len(tasks)} (goal, program) pairs to {args.out}", file=sys.stderr)
    return 0


SERVICES = {
    "openweather": "toolgym.simulators.openweather:OpenWeatherApp",
    "catapi": "toolgym.simulators.catapi:CatApiApp",
}


def make_service(name: str, seed: int = 0, api_key: str | None = None) -> Any:
    """Build a simulated REST service by name (``openweather`` or ``catapi``)."""
    import importlib

    module, _, cls = SERVICES[name].partition(":")
    return getattr(importlib.import_module(module), cls)(seed=seed, api_key=api_key)


def _cmd_serve(args: argparse.Namespace) -> int:
    from toolgym.tools.http_server import serve

    serve(make_service(args.service, args.seed, args.api_key), args.host, args.port)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from toolgym.benchmarks.perf import main as perf_main

    return perf_main(["--repeat", str(args.repeat)])


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``toolgym`` command."""
    parser = argparse.ArgumentParser(
        prog="toolgym", description="Offline Gymnasium environments for tool-using LLM agents."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("list", help="list the registered environments").set_defaults(func=_cmd_list)

    ev = sub.add_parser("eval", help="evaluate an agent and print a results table")
    ev.add_argument("--env", action="append", help="env id (repeatable; default: every env)")
    ev.add_argument("--agent", default="oracle", choices=AGENT_NAMES)
    ev.add_argument("--split", default="test", choices=("test", "demo", "train"))
    ev.add_argument("--task-file", help="an original-format JSONL task file instead of a split")
    ev.add_argument("--action-mode", default="program", choices=("program", "call"))
    ev.add_argument("--limit", type=int, help="evaluate only the first N tasks of each env")
    ev.add_argument("--seed", type=int, default=0)
    ev.add_argument(
        "--out", default="results", help="directory for per-episode JSONL and summary.json"
    )
    ev.add_argument("--no-progress", action="store_true", help="hide progress bars")
    ev.set_defaults(func=_cmd_eval)

    gen = sub.add_parser("generate", help="write (goal, program) training pairs (alignment data)")
    gen.add_argument("--env", required=True)
    gen.add_argument("--n", type=int, default=1800)
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--out", default="-", help="output JSONL path, or - for stdout")
    gen.set_defaults(func=_cmd_generate)

    srv = sub.add_parser("serve", help="serve a simulated REST API on localhost")
    srv.add_argument("service", choices=sorted(SERVICES))
    srv.add_argument("--port", type=int, default=8080)
    srv.add_argument("--host", default="127.0.0.1")
    srv.add_argument("--seed", type=int, default=0, help="seed of the simulated world")
    srv.add_argument("--api-key", help="the only key accepted (default: any non-empty key)")
    srv.set_defaults(func=_cmd_serve)

    bench = sub.add_parser("bench", help="print reset/step latency and oracle throughput")
    bench.add_argument("--repeat", type=int, default=2000)
    bench.set_defaults(func=_cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``toolgym`` console script."""
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
