"""The ``toolgym`` command line: list envs, evaluate agents, generate training data, benchmark.

Every family-dependent command (``list``, ``serve``, ``generate``, ``build-tasks``) is derived
from the family specs (:func:`toolgym.envs.families`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, NoReturn

import gymnasium as gym

from toolgym.agents import AGENT_NAMES
from toolgym.cli.bench_command import add_parser as add_bench_parser
from toolgym.cli.complexity import add_parser as add_complexity_parser
from toolgym.cli.eval_command import cmd_eval
from toolgym.cli.eval_setup import (
    DEFAULT_LLM_LIMIT,
    MODEL_BACKENDS,
    _check_env_ids,
)
from toolgym.cli.eval_user import USER_RECORDING
from toolgym.cli.mcp_command import add_parser as add_mcp_parser
from toolgym.cli.results_commands import add_parsers as add_results_parsers
from toolgym.cli.rl_command import add_parser as add_rl_parser
from toolgym.cli.serve_env import add_parser as add_serve_env_parser
from toolgym.cli.training_commands import add_parsers as add_training_parsers
from toolgym.envs import (
    families,
    family,
)
from toolgym.envs.protocol import task_env
from toolgym.envs.spec import load_ref
from toolgym.errors import (
    DependencyNotInstalled,
    InfrastructureError,
    TaskFileError,
    TaskFileWarning,
    TaskNotFoundError,
    UserInputError,
)
from toolgym.evaluation.profile import suite_names
from toolgym.evaluation.results import ResultsLockedError, ResultsMismatchError
from toolgym.evaluation.runner import BACKENDS


def _cmd_list(args: argparse.Namespace) -> int:
    from toolgym.envs.catalog import built_row, stored_catalog, stored_row
    from toolgym.evaluation.report import format_table

    stored = stored_catalog()  # the built-in envs' rows; others are built here
    rows = []
    for spec in families():
        for version in spec.versions:
            env_id = spec.env_id(version.version)
            entry = stored_row(stored, env_id) or built_row(spec, version)
            sizes = ", ".join(f"{k} {v}" for k, v in entry["splits"].items())
            rows.append(
                {
                    "id": env_id,
                    "family": spec.name,
                    "tools": entry["tools"],
                    "language": entry["language"],
                    "splits": sizes + (", train unlimited" if entry.get("train", True) else ""),
                    "max_steps": version.max_episode_steps,
                }
            )
    print(format_table(rows, ["id", "family", "tools", "language", "splits", "max_steps"]))
    return 0


def _cmd_generate(args: argparse.Namespace) -> int:
    from toolgym.benchmarks.tasks import write_task_file

    _check_env_ids([args.env])
    env = gym.make(args.env)
    base = task_env(env)
    tasks = list(base.suite.train_pairs(args.n, seed=args.seed, world_seed=args.world_seed))
    if args.out == "-":
        for task in tasks:
            print(json.dumps({"prompt": task.instruction, "completion": list(task.gold)}))
    else:
        write_task_file(tasks, args.out)
        print(f"wrote {len(tasks)} (goal, program) pairs to {args.out}", file=sys.stderr)
    return 0


def _cmd_build_tasks(args: argparse.Namespace) -> int:
    """Regenerate the stored splits of every family version and the env catalog (``--check``: compare)."""
    from toolgym.envs.catalog import stale_rows, write_catalog

    suites = [load_ref(version.tasks) for spec in families() for version in spec.versions]
    if args.check:
        stale = [name for suite in suites for name in suite.stale_splits()]
        stale += [f"{env_id} (catalog)" for env_id in stale_rows()]
        print("stale: " + ", ".join(stale) if stale else "all stored task sets are up to date")
        return 1 if stale else 0
    for suite in suites:
        for path, n in suite.write_splits().items():
            print(f"wrote {n} tasks to {path}")
    print(f"wrote the env catalog to {write_catalog()}")
    return 0


def service_names() -> dict[str, str]:
    """Every servable family by each name the command line accepts, and its service's path."""
    names = {}
    for spec in families():
        if spec.service is not None:
            for name in (spec.name, *spec.aliases):
                names[name] = spec.service
    return names


def make_service(name: str, seed: int = 0, api_key: str | None = None) -> Any:
    """Build the simulated REST service of a family by name (``openweather``, ``cat_api``, ...)."""
    spec = family(name)
    if spec.service is None:
        raise ValueError(f"{spec.title} has no HTTP service; servable: {sorted(service_names())}")
    return load_ref(spec.service)(seed=seed, api_key=api_key)


def _cmd_serve(args: argparse.Namespace) -> int:
    from toolgym.tools.http_server import serve

    service = make_service(args.service, args.seed, args.api_key)
    try:
        serve(service, args.host, args.port)
    except OSError as e:  # the address is taken, or not this machine's
        raise UserInputError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from e
    return 0


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: what was expected and what came."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _whole(text: str, low: int, high: int | None, expected: str) -> int:
    """``text`` as an int in ``[low, high]``, or an argparse error saying what was expected."""
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
    return value


def _positive(text: str) -> int:
    return _whole(text, 1, None, "a whole number >= 1")


def _count(text: str) -> int:
    return _whole(text, 0, None, "a whole number >= 0")


def _port(text: str) -> int:
    return _whole(text, 0, 65535, "a port from 0 to 65535")


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:  # NaN fails too
        raise argparse.ArgumentTypeError(f"expected a rate from 0 to 1, got {text!r}")
    return value


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0.0 < value <= 86_400.0:  # NaN fails too
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to 86400, got {text!r}")
    return value


def _shots(text: str) -> int | str:
    return text if text == "oracle" else _whole(text, 0, None, "a number >= 0 or 'oracle'")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``toolgym`` command."""
    parser = _Parser(
        prog="toolgym", description="Offline Gymnasium environments for tool-using LLM agents."
    )
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of an error instead of one line"
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sub.add_parser("list", help="list the registered environments").set_defaults(func=_cmd_list)

    ev = sub.add_parser(
        "eval",
        help="evaluate an agent and print a results table",
        description="Evaluate an agent on every env (or --env ...). By default: the embedded "
        "SmolLM2-135M-Instruct with the system prompt and 3 retrieved demonstrations, on the "
        f"first {DEFAULT_LLM_LIMIT} test tasks of each env.",
    )
    ev.add_argument("--env", action="append", help="env id (repeatable; default: every env)")
    ev.add_argument(
        "--suite",
        choices=suite_names(),
        help="run a named suite with the paper's protocol: every member env's whole test split "
        "(unless --limit), each family's max tokens, API docs, shots and step budget "
        "(toolbench: the paper's eight tools; all: every family)",
    )
    ev.add_argument("--agent", default="llm", choices=("llm", *AGENT_NAMES))
    ev.add_argument("--model", help="model id/path (hf), served model (openai), GGUF (llamacpp)")
    ev.add_argument(
        "--backend",
        choices=(*BACKENDS, *MODEL_BACKENDS),
        help="where episodes run: local (default, this process), vector (an AsyncVectorEnv of "
        "--workers processes, generations batched over them) or ray (spread over Ray "
        "workers); hf, openai and llamacpp are read as --model-backend",
    )
    ev.add_argument(
        "--model-backend",
        choices=MODEL_BACKENDS,
        help="how the model runs (default: openai if --base-url is given, else hf)",
    )
    ev.add_argument(
        "--workers",
        type=_positive,
        default=2,
        help="sub-envs (--backend vector) or Ray workers (--backend ray); default 2",
    )
    ev.add_argument(
        "--ray-address",
        help="an existing Ray cluster to join (default: start a local instance)",
    )
    ev.add_argument("--base-url", help="an OpenAI-compatible server, e.g. http://127.0.0.1:8000/v1")
    ev.add_argument(
        "--api-key", help="the server's key (default: $TOOLGYM_API_KEY/$OPENAI_API_KEY)"
    )
    ev.add_argument(
        "--retries",
        type=_count,
        default=5,
        help="retries of a failed request to the server, with backoff (default 5)",
    )
    ev.add_argument(
        "--shots",
        type=_shots,
        help="demonstrations per task: N or 'oracle' (default: the family's, 3 for every tool)",
    )
    ev.add_argument("--retriever", default="bm25", choices=("bm25", "embedding"))
    ev.add_argument(
        "--top-k-api", type=_positive, help="API docs per prompt (default: the original's)"
    )
    ev.add_argument(
        "--strategy",
        choices=("single", "react", "dfsdt"),
        help="default: the family's (single, or react for multi-step tool use)",
    )
    ev.add_argument("--max-new-tokens", type=_positive, help="default: the original's per tool")
    ev.add_argument("--no-system-prompt", action="store_true")
    ev.add_argument(
        "--batch-size",
        type=_positive,
        help="episodes per batched generation (default 8 for LLM agents)",
    )
    ev.add_argument("--threads", type=_positive, help="CPU threads for the local model")
    ev.add_argument(
        "--chat",
        default="auto",
        choices=("auto", "on", "off"),
        help="use the local model's chat template (auto: when it has one, except "
        "for the embedded model)",
    )
    ev.add_argument(
        "--constrained",
        default="auto",
        choices=("auto", "on", "off"),
        help="decode under the action language's grammar (auto: on for local models when "
        "llguidance is installed, off for servers)",
    )
    ev.add_argument(
        "--grammar-format",
        choices=("vllm", "guided", "llamacpp"),
        help="the request field a server reads grammars from (--constrained on with --base-url)",
    )
    ev.add_argument(
        "--tool-calling",
        default="text",
        choices=("text", "native"),
        help="text: the model writes actions (the paper's protocol); native: it calls the task's "
        "tools in its own format (a server's tools field, or a local chat template that takes "
        "tools)",
    )
    ev.add_argument(
        "--adapter",
        default="auto",
        help="a LoRA adapter folder (toolgym finetune) for the local model; 'none' for the base "
        "model alone; 'auto' (default): the embedded model with the adapter shipped with "
        "toolgym and the prompt settings it was trained with",
    )
    ev.add_argument(
        "--compare-base",
        action="store_true",
        help="with --adapter auto: then run the base model with the same prompts, and print "
        "both rows side by side",
    )
    ev.add_argument(
        "--device", help="the local model's device: cpu, cuda, cuda:1, ... (default: cuda if any)"
    )
    ev.add_argument(
        "--dtype",
        choices=("float32", "bfloat16", "float16"),
        help="the local model's dtype (default: float32 on the CPU, bfloat16 on a GPU)",
    )
    ev.add_argument(
        "--weights",
        default="auto",
        choices=("auto", "model", "int4"),
        help="the local model's weights when decoding: the model's own (auto), or int4 on the "
        "CPU (a quarter of float32's memory traffic; greedy tokens may differ)",
    )
    ev.add_argument("--split", default="test", choices=("test", "demo", "train"))
    ev.add_argument("--task-file", help="an original-format JSONL task file instead of a split")
    ev.add_argument(
        "--env-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a family option for every env of the run (repeatable): category=live_parallel, "
        "reply_format=prompt, max_results=3; the value is read as JSON when it parses, else as "
        "text",
    )
    ev.add_argument(
        "--user-replay",
        metavar="FILE",
        help="conversation envs: replay a recorded user (a JSONL recording) exactly instead of "
        "the rule-based user; a conversation the recording lacks is an error naming its turn",
    )
    ev.add_argument(
        "--user-model",
        metavar="MODEL",
        help="conversation envs: a model plays the user instead of the rule-based user "
        "('embedded' for the embedded SmolLM2, a Hugging Face id or path, or with "
        "--user-base-url a served model); its replies are recorded in "
        f"<out>/{USER_RECORDING}, which --user-replay replays exactly",
    )
    ev.add_argument(
        "--user-base-url",
        metavar="URL",
        help="the OpenAI-compatible server --user-model is served by (the key is --api-key's)",
    )
    ev.add_argument(
        "--user-timeout",
        type=_positive_seconds,
        metavar="SECONDS",
        help="the longest --user-model may take over one reply (default 60); a reply later "
        "than that is the user's failure (user_failed), not the agent's",
    )
    ev.add_argument(
        "--allow-unscored",
        action="store_true",
        help="exit 0 even when the simulated user failed in some episodes (user_failed, "
        "user_replay_miss); they are left out of the scores either way, and counted as "
        "'unscored'",
    )
    ev.add_argument(
        "--action-mode",
        choices=("program", "call"),
        help="default: program for --strategy single, else call",
    )
    ev.add_argument(
        "--limit",
        type=_positive,
        help="evaluate only the first N tasks of each env "
        f"(default: all; {DEFAULT_LLM_LIMIT} for LLM agents)",
    )
    ev.add_argument("--no-resume", action="store_true", help="start over instead of resuming")
    ev.add_argument("--seed", type=_count, default=0)
    ev.add_argument(
        "--out", default="results", help="directory for per-episode JSONL and summary.json"
    )
    ev.add_argument(
        "--faults",
        type=_rate,
        metavar="RATE",
        help="also run with service faults (429, 5xx, timeouts, broken and slow answers) on "
        "this fraction of tool calls, and report success with and without them",
    )
    ev.add_argument(
        "--ablation",
        action="store_true",
        help="run the paper's Table 7 configurations on the envs instead of one agent: zero-shot "
        "and few-shot, each with and without the system prompt, few-shot with constrained "
        "decoding, and with --adapter the fine-tuned model too; writes ablation.md",
    )
    ev.add_argument("--no-progress", action="store_true", help="hide progress bars")
    ev.set_defaults(func=cmd_eval)

    gen = sub.add_parser("generate", help="write (goal, program) training pairs (alignment data)")
    gen.add_argument("--env", required=True)
    gen.add_argument("--n", type=_positive, default=1800)
    gen.add_argument("--seed", type=_count, default=0, help="which stream of train tasks")
    gen.add_argument("--world-seed", type=_count, default=0, help="seed of the simulated world")
    gen.add_argument("--out", default="-", help="output JSONL path, or - for stdout")
    gen.set_defaults(func=_cmd_generate)

    build = sub.add_parser(
        "build-tasks", help="regenerate the stored test/demo task sets from their generators"
    )
    build.add_argument("--check", action="store_true", help="compare only; exit 1 if stale")
    build.set_defaults(func=_cmd_build_tasks)

    srv = sub.add_parser("serve", help="serve a simulated REST API on localhost")
    srv.add_argument("service", choices=sorted(service_names()))
    srv.add_argument("--port", type=_port, default=8080)
    srv.add_argument("--host", default="127.0.0.1")
    srv.add_argument("--seed", type=_count, default=0, help="seed of the simulated world")
    srv.add_argument("--api-key", help="the only key accepted (default: any non-empty key)")
    srv.set_defaults(func=_cmd_serve)

    add_results_parsers(sub, _positive)
    add_training_parsers(sub)
    add_rl_parser(sub)
    add_complexity_parser(sub)
    add_serve_env_parser(sub)
    add_mcp_parser(sub)

    add_bench_parser(sub)
    return parser


USER_ERRORS: tuple[type[BaseException], ...] = (
    UserInputError,
    TaskFileError,
    TaskFileWarning,
    TaskNotFoundError,
    DependencyNotInstalled,
    ResultsMismatchError,
    ResultsLockedError,
)
"""Errors a user can fix: one line and exit status 2 (``--debug`` shows the traceback)."""


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 500 else text[:497] + "..."


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``toolgym`` console script.

    Exit status: 0 done, 1 the infrastructure failed (a model server down, a model that cannot
    load), 2 a user error (bad flags, a missing or wrong file, a model that is not there), 130
    interrupted. Errors are printed as one line; ``--debug`` shows the traceback instead.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv  # accepted anywhere on the line
    argv = [a for a in argv if a != "--debug"]
    args = build_parser().parse_args(argv)
    args.argv, args.debug = argv, debug
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        if args.debug:
            raise
        print(f"\ntoolgym {args.command}: interrupted", file=sys.stderr)
        return 130
    except USER_ERRORS as e:
        if args.debug:
            raise
        print(f"toolgym {args.command}: error: {_one_line(e)}", file=sys.stderr)
        return 2
    except InfrastructureError as e:
        if args.debug:
            raise
        print(f"toolgym {args.command}: failed: {_one_line(e)}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader went away (``toolgym list | head``): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
