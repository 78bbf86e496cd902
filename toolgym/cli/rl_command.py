"""``toolgym train-rl``: GRPO on execution rewards from the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from toolgym.agents.backends.hf import EMBEDDED_MODEL
from toolgym.cli.training_commands import _dropout, _positive_number, _whole
from toolgym.errors import UserInputError
from toolgym.training.grpo import RESULT_FILE, RLConfig, train_grpo
from toolgym.training.rewards import SHAPINGS
from toolgym.training.rl_curve import curve_summary, describe
from toolgym.training.rl_data import single_step_env_ids
from toolgym.training.rl_report import write_rl_report
from toolgym.training.sft_data import named_env_ids


def _non_negative_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
    return value


def _config(args: argparse.Namespace) -> RLConfig:
    families = tuple(args.family)
    if not families and not args.env:
        from toolgym.envs import families as all_families

        choices = sorted(spec.name for spec in all_families())
        raise UserInputError(
            f"name what to train on: --family NAME ({', '.join(choices)}) or --env ID; got neither"
        )
    names = "+".join([*(e.rsplit("/", 1)[-1] for e in args.env), *families])
    out = args.out or str(Path("adapters") / f"rl-{Path(args.model).name}-{names}")
    return RLConfig(
        model=args.model,
        envs=tuple(args.env),
        families=families,
        n=args.n,
        shots=args.shots,
        system_prompt=not args.no_system_prompt,
        top_k_api=args.top_k_api,
        world_seed=args.world_seed,
        shaping=args.shaping,
        curriculum=args.curriculum,
        max_completion_length=args.max_completion_length,
        eval_constrained=args.eval_grammar,
        out=out,
        chat=None if args.chat == "auto" else args.chat == "on",
        **_shared(args),
    )


def _shared(args: argparse.Namespace) -> dict[str, Any]:
    """The settings both kinds of run take from the command line."""
    return {
        "num_generations": args.num_generations,
        "prompts_per_step": args.prompts_per_step,
        "micro_batch": args.micro_batch,
        "temperature": args.temperature,
        "max_steps": args.max_steps,
        "lr": args.lr,
        "beta": args.beta,
        "lora_r": args.lora_r,
        "lora_alpha": args.lora_alpha,
        "lora_dropout": args.lora_dropout,
        "seed": args.seed,
        "eval_tasks": args.eval_tasks,
        "num_threads": args.threads,
        "device": args.device,
        "progress": not args.no_progress,
    }


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _env_config(args: argparse.Namespace, env_ids: list[str]) -> Any:
    from toolgym.training.grpo_env import EnvRLConfig

    names = "+".join(e.rsplit("/", 1)[-1] for e in env_ids)
    return EnvRLConfig(
        model=args.model,
        envs=tuple(env_ids),
        n=args.n,
        max_completion_length=args.max_completion_length or EnvRLConfig.max_completion_length,
        max_tool_calls=args.max_tool_calls,
        eval_batch=args.eval_batch,
        world_seed=args.world_seed,
        out=args.out or str(Path("adapters") / f"rl-{Path(args.model).name}-{names}-calls"),
        adapter=_start_adapter(args),
        **_shared(args),
    )


def _start_adapter(args: argparse.Namespace) -> str | None:
    """The adapter a whole-episode run starts from (``--adapter``).

    A folder; ``none``; by default, the shipped tool-calling start for the embedded model (its
    base writes no tool calls).
    """
    if args.adapter == "none":
        return None
    if args.adapter is not None:
        return str(args.adapter)
    if args.model != EMBEDDED_MODEL:
        return None
    from toolgym.agents.aligned import tool_call_adapter_path

    found = tool_call_adapter_path()
    return None if found is None else str(found)


def _cmd_train_rl(args: argparse.Namespace) -> int:
    config = _config(args)
    env_ids = named_env_ids(config.envs, config.families)
    single = set(single_step_env_ids())
    calls = args.tool_calls or args.eval_only or any(e not in single for e in env_ids)
    if args.adapter not in (None, "none") and not calls:
        raise UserInputError(
            "--adapter starts whole-episode (tool-call) training; add --tool-calls, or name "
            f"a multi-step env (got only single-step ones: {', '.join(env_ids)})"
        )
    if args.eval_only:
        return _eval_only(_env_config(args, env_ids), args.out)
    if calls:
        from toolgym.training.grpo_env import train_grpo_env

        env_config = _env_config(args, env_ids)
        env_config.check()
        print(
            f"multi-turn GRPO: {env_config.model} on {', '.join(env_ids)}, one tool call per "
            f"turn ({env_config.max_steps} steps x {env_config.prompts_per_step} tasks x "
            f"{env_config.num_generations} rollouts)",
            file=sys.stderr,
        )
        return _print_result(train_grpo_env(env_config))
    config.check()
    print(
        f"GRPO: {config.model} on {', '.join(config.envs + config.families)} "
        f"({config.max_steps} steps x {config.prompts_per_step} prompts x "
        f"{config.num_generations} completions, shaping {config.shaping})",
        file=sys.stderr,
    )
    return _print_result(train_grpo(config))


EVAL_FILE = "toolgym_rl_eval.json"
"""What ``--eval-only`` writes in an ``--out`` folder (``--out`` may also name a ``.json`` file)."""


def _eval_path(out: str | None) -> Path | None:
    """Where ``--eval-only`` writes its table: ``out`` if it names a ``.json`` file, else in it.

    Raises:
        UserInputError: ``out`` names a folder that is an existing file.
    """
    if not out:
        return None
    path = Path(out)
    if path.suffix.lower() == ".json" and not path.is_dir():
        return path
    if path.exists() and not path.is_dir():
        raise UserInputError(
            f"--out {out} is a file; with --eval-only, --out is a .json file or a folder "
            f"(the table is written to {EVAL_FILE} in it)"
        )
    return path / EVAL_FILE


def _eval_only(config: Any, out: str | None) -> int:
    """Play the test tasks by tool calls and print success, reward and calls per env."""
    import json

    from toolgym.training.grpo_env import evaluate_tool_calls

    config.check()
    path = _eval_path(out)  # before the evaluation: a bad --out fails at once
    label = config.model + (f"+{Path(config.adapter).name}" if config.adapter else "")
    print(f"tool-call episodes: {label} on {', '.join(config.envs)}", file=sys.stderr)
    table = evaluate_tool_calls(config)
    width = max(len(e) for e in table)
    print(f"{'env':<{width}}  episodes  success  reward  calls/episode")
    for env_id, row in table.items():
        print(
            f"{env_id:<{width}}  {int(row['episodes']):>8}  {_percent(row['success']):>7}  "
            f"{row['reward']:>6.3f}  {row['tool_calls']:>13.1f}"
        )
    if path is not None:
        record = {"config": config.to_dict(), "test": table}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    return 0


def _print_result(result: Any) -> int:
    report = write_rl_report(result.out / RESULT_FILE)
    print(
        f"trained {result.steps} steps in {result.wall_s:.0f} s on {result.device} "
        f"({result.trainable_params:,} LoRA parameters); adapter in {result.out}"
    )
    for line in describe(curve_summary(result.history)):
        print(line)
    for env_id in result.before or result.after:
        before = result.before.get(env_id, {})
        after = result.after.get(env_id, {})
        print(
            f"{env_id} test ({int(after.get('episodes', before.get('episodes', 0)))} tasks): "
            f"success {_percent(before.get('success'))} -> {_percent(after.get('success'))}, "
            f"reward {before.get('reward', 0):.3f} -> {after.get('reward', 0):.3f}"
        )
    print(f"report: {report['html']} and {report['png']}")
    return 0


def add_parser(sub: Any) -> None:
    """Add ``train-rl`` to the command line's subcommands."""
    rl = sub.add_parser(
        "train-rl",
        help="GRPO (TRL) with a LoRA adapter on execution rewards: single-step prompts, or whole "
        "episodes by tool calls (multi-step families)",
        description="Train a LoRA adapter with TRL's GRPOTrainer on the train split's prompts; "
        "each sampled completion is rewarded by running it in its task's env, as the "
        "evaluation scores it. The test split is evaluated (greedy) before and after; the "
        "reward curve and results go to toolgym_rl.json, rl_report.html and "
        "reward_curve.png in the adapter folder.",
    )
    rl.add_argument("--env", action="append", default=[], help="env id (repeatable)")
    rl.add_argument(
        "--family",
        action="append",
        default=[],
        help="family name: its newest env (repeatable)",
    )
    rl.add_argument("--model", default=EMBEDDED_MODEL, help="model id or local folder")
    rl.add_argument("--n", type=_whole(1), default=256, help="train prompts per env (256)")
    rl.add_argument("--shots", type=_whole(0), help="demonstrations per prompt (family's)")
    rl.add_argument("--top-k-api", type=_whole(1), help="API docs per prompt (family's)")
    rl.add_argument("--no-system-prompt", action="store_true")
    rl.add_argument("--shaping", default="reward", choices=SHAPINGS, help="default reward")
    rl.add_argument(
        "--curriculum",
        action="store_true",
        help="order prompts by their task's number of API calls, fewest first (no shuffle)",
    )
    rl.add_argument(
        "--tool-calls",
        action="store_true",
        help="play whole episodes in call mode through TRL's environments (multi-turn GRPO); "
        "the default for multi-step envs",
    )
    rl.add_argument(
        "--adapter",
        help="whole-episode training and --eval-only start from this LoRA adapter, merged "
        "into the model (a tool-calling start: toolgym finetune --tool-calls); default: the "
        "shipped tool-calling start for the embedded model; none: the base model",
    )
    rl.add_argument(
        "--eval-only",
        action="store_true",
        help="no training: play --eval-tasks test tasks per env by tool calls (greedy) and "
        "print success, reward and calls; --out names a JSON file for the table",
    )
    rl.add_argument(
        "--max-tool-calls",
        type=_whole(1),
        default=8,
        help="with tool calls: tool-calling turns per rollout (8)",
    )
    rl.add_argument("--max-steps", type=_whole(1), default=50, help="optimizer steps (50)")
    rl.add_argument("--num-generations", type=_whole(2), default=4, help="group size (4)")
    rl.add_argument("--prompts-per-step", type=_whole(1), default=2, help="default 2")
    rl.add_argument(
        "--micro-batch",
        type=_whole(1),
        default=2,
        help="completions per forward/backward pass; divides the step's completions (2)",
    )
    rl.add_argument(
        "--max-completion-length", type=_whole(1), help="tokens per completion (family's)"
    )
    rl.add_argument("--temperature", type=_positive_number, default=0.8, help="default 0.8")
    rl.add_argument("--lr", type=_positive_number, default=1e-4, help="default 1e-4")
    rl.add_argument("--beta", type=_non_negative_number, default=0.0, help="KL weight (0)")
    rl.add_argument("--lora-r", type=_whole(1), default=16, help="default 16")
    rl.add_argument("--lora-alpha", type=_positive_number, default=32.0, help="default 32")
    rl.add_argument("--lora-dropout", type=_dropout, default=0.05, help="default 0.05")
    rl.add_argument("--seed", type=_whole(0), default=0, help="default 0")
    rl.add_argument("--world-seed", type=_whole(0), default=0, help="default 0")
    rl.add_argument(
        "--eval-tasks", type=_whole(0), default=16, help="test tasks before/after (16; 0: none)"
    )
    rl.add_argument(
        "--eval-batch",
        type=_whole(1),
        default=None,
        help="with tool calls: test episodes played together, one generation per turn "
        "(default: 8 on a GPU, 1 on the CPU)",
    )
    rl.add_argument(
        "--eval-grammar",
        action="store_true",
        help="evaluate under the action grammar (constrained decoding)",
    )
    rl.add_argument(
        "--out",
        help="adapter folder (default adapters/rl-<model>-<envs>); with --eval-only, a .json "
        f"file or a folder to write {EVAL_FILE} in",
    )
    rl.add_argument("--threads", type=_whole(1), help="CPU threads for torch")
    rl.add_argument("--device", help="cpu, cuda, cuda:1, ... (default: CUDA when present)")
    rl.add_argument("--chat", default="auto", choices=("auto", "on", "off"))
    rl.add_argument("--no-progress", action="store_true", help="hide progress bars")
    rl.set_defaults(func=_cmd_train_rl)


__all__ = ["add_parser"]
