"""``toolgym data`` and ``toolgym finetune``: programmatic alignment from the command line."""

from __future__ import annotations

import argparse
import math
import shlex
import sys
from pathlib import Path
from typing import Any

from toolgym.agents.backends.hf import EMBEDDED_MODEL
from toolgym.errors import UserInputError
from toolgym.training.finetune import FinetuneConfig, train_adapter
from toolgym.training.sft_data import (
    DATA_FORMATS,
    build_examples,
    program_env_ids,
    to_dataset,
    write_jsonl,
)


def _whole(low: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(f"expected a whole number >= {low}, got {text!r}")
        return value

    return parse


def _name_count(text: str) -> tuple[str, int]:
    name, sep, count = text.partition("=")
    if not sep or not name.strip() or not count.strip().isdigit() or int(count) < 1:
        raise argparse.ArgumentTypeError(
            f"expected NAME=N with N a whole number >= 1; got {text!r}"
        )
    return name.strip(), int(count)


def _positive_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}")
    return value


def _dropout(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1), got {text!r}")
    return value


def _add_data_options(parser: argparse.ArgumentParser) -> None:
    """The options ``data`` and ``finetune`` share: which tasks, and how they are prompted."""
    parser.add_argument(
        "--env", action="append", default=[], help="env id (repeatable; program-mode families)"
    )
    parser.add_argument(
        "--family", action="append", default=[], help="family name: its newest env (repeatable)"
    )
    parser.add_argument("--n", type=_whole(1), default=1800, help="examples per env (default 1800)")
    parser.add_argument(
        "--shots",
        type=_whole(0),
        help="demonstrations retrieved per prompt (default: the family's, as toolgym eval)",
    )
    parser.add_argument(
        "--all-shot",
        action="store_true",
        help="every demonstration of the demo split in each prompt, instead of --shots",
    )
    parser.add_argument("--no-system-prompt", action="store_true")
    parser.add_argument(
        "--top-k-api", type=_whole(1), help="API docs per prompt (default: the family's)"
    )
    parser.add_argument(
        "--seed", type=_whole(0), default=0, help="which stream of train tasks (default 0)"
    )
    parser.add_argument(
        "--world-seed", type=_whole(0), default=0, help="seed of the simulated world"
    )


def _check_shots(args: argparse.Namespace) -> None:
    if args.all_shot and args.shots is not None:
        raise UserInputError(f"give --shots or --all-shot, not both (got --shots {args.shots})")


def _cmd_data(args: argparse.Namespace) -> int:
    if args.tool_calls:
        from toolgym.training.tool_call_data import (
            tool_call_env_ids,
            tool_call_examples,
            write_tool_call_jsonl,
        )

        if args.family:
            raise UserInputError("--tool-calls takes --env (or none: every call-mode env)")
        calls = tool_call_examples(
            tool_call_env_ids(args.env), args.n, seed=args.seed, world_seed=args.world_seed
        )
        count = write_tool_call_jsonl(calls, args.out)
        if args.out != "-":
            print(f"wrote {count} tool-call examples to {args.out}", file=sys.stderr)
        return 0
    _check_shots(args)
    ids = program_env_ids(args.env, args.family)
    examples = build_examples(
        ids,
        args.n,
        seed=args.seed,
        world_seed=args.world_seed,
        shots=args.shots,
        all_shot=args.all_shot,
        system_prompt=not args.no_system_prompt,
        top_k_api=args.top_k_api,
    )
    if args.hf_dataset:
        to_dataset(examples, args.format).save_to_disk(args.hf_dataset)
        print(f"saved a dataset of {len(examples)} examples to {args.hf_dataset}", file=sys.stderr)
    if args.out == "-" and args.hf_dataset:
        return 0  # the dataset was the output asked for
    count = write_jsonl(examples, args.out, args.format)
    if args.out != "-":
        print(
            f"wrote {count} {args.format} examples from {', '.join(ids)} to {args.out}",
            file=sys.stderr,
        )
    return 0


def _default_out(args: argparse.Namespace, ids: list[str]) -> str:
    names = "+".join(env_id.rsplit("/", 1)[-1] for env_id in ids)
    return str(Path("adapters") / f"{Path(args.model).name}-{names}")


def _cmd_finetune(args: argparse.Namespace) -> int:
    _check_shots(args)
    if args.tool_calls:
        from toolgym.training.tool_call_data import tool_call_env_ids

        if args.family:
            raise UserInputError("--tool-calls takes --env (or none: every call-mode env)")
        ids = tool_call_env_ids(args.env)
    else:
        ids = program_env_ids(args.env, args.family)
    config = FinetuneConfig(
        model=args.model,
        envs=tuple(ids),
        n=args.n,
        n_per_env=tuple(args.n_for or ()),
        shots=args.shots,
        all_shot=args.all_shot,
        system_prompt=not args.no_system_prompt,
        top_k_api=args.top_k_api,
        world_seed=args.world_seed,
        epochs=args.epochs,
        max_steps=args.max_steps,
        lr=args.lr,
        batch_size=args.batch_size,
        grad_accum=args.grad_accum,
        max_length=args.max_length,
        lora_r=args.lora_r,
        lora_alpha=args.lora_alpha,
        lora_dropout=args.lora_dropout,
        seed=args.seed,
        out=args.out or _default_out(args, ids),
        num_threads=args.threads,
        chat=None if args.chat == "auto" else args.chat == "on",
        progress=not args.no_progress,
        adapter_dtype=args.adapter_dtype,
        command=shlex.join(["toolgym", *getattr(args, "argv", sys.argv[1:])]),
        tool_calls=args.tool_calls,
    )
    config.check()
    result = train_adapter(config)
    first = f"{result.losses[0]:.4f}" if result.losses else "n/a"
    last = f"{result.losses[-1]:.4f}" if result.losses else "n/a"
    print(
        f"trained {result.model} on {result.examples} examples from {', '.join(result.env_ids)}"
        f" ({result.skipped} skipped: longer than --max-length {result.max_length})"
    )
    print(
        f"{result.steps} steps on {result.device} in {result.wall_s:.1f} s; "
        f"loss {first} -> {last}; {result.trainable_params:,} trainable parameters"
    )
    print(f"adapter: {result.out}")
    print(f"evaluate it: {result.eval_command}")
    if config.all_shot:
        print(
            "(trained on all-shot prompts: evaluate with toolgym.training.AllShotAgent for the "
            "same prompts)"
        )
    return 0


def add_parsers(sub: Any) -> None:
    """Add ``data`` and ``finetune`` to the command line's subcommands."""
    data = sub.add_parser(
        "data",
        help="write alignment examples: the agent's prompt and the gold program of train tasks",
        description="Build supervised (prompt, program) examples from the train generators of "
        "program-mode families; each prompt is the one toolgym eval's LLM agent builds.",
    )
    _add_data_options(data)
    data.add_argument(
        "--format",
        default="chat",
        choices=DATA_FORMATS,
        help="chat: {messages}; completion: {prompt, completion} (default chat)",
    )
    data.add_argument("--out", default="-", help="output JSONL path, or - for stdout (default)")
    data.add_argument(
        "--tool-calls",
        action="store_true",
        help="chat-with-tools examples instead: the oracle's calls on train tasks of call-mode "
        "envs (every one without --env), as TRL's environments play them",
    )
    data.add_argument(
        "--hf-dataset",
        metavar="DIR",
        help="save a Hugging Face dataset there (save_to_disk); JSONL too only with --out FILE",
    )
    data.set_defaults(func=_cmd_data)

    ft = sub.add_parser(
        "finetune",
        help="LoRA fine-tune a model on alignment examples (programmatic alignment)",
        description="Fine-tune a LoRA adapter (peft, transformers Trainer) on examples built as "
        "toolgym data builds them; the loss is on the programs only. Examples longer than "
        "--max-length tokens are skipped.",
    )
    _add_data_options(ft)
    ft.add_argument(
        "--model",
        default=EMBEDDED_MODEL,
        help=f"model id or local folder (default {EMBEDDED_MODEL}: the embedded model)",
    )
    ft.add_argument("--max-steps", type=_whole(1), help="optimizer steps (overrides --epochs)")
    ft.add_argument("--epochs", type=_positive_number, default=1.0, help="default 1")
    ft.add_argument("--lr", type=_positive_number, default=2e-4, help="default 2e-4")
    ft.add_argument("--batch-size", type=_whole(1), default=4, help="default 4")
    ft.add_argument("--grad-accum", type=_whole(1), default=1, help="default 1")
    ft.add_argument("--lora-r", type=_whole(1), default=16, help="default 16")
    ft.add_argument("--lora-alpha", type=_whole(1), default=32, help="default 32")
    ft.add_argument("--lora-dropout", type=_dropout, default=0.05, help="default 0.05")
    ft.add_argument(
        "--max-length",
        type=_whole(8),
        help="longest example in tokens; longer ones are skipped (default: the model's context)",
    )
    ft.add_argument(
        "--n-for",
        action="append",
        type=_name_count,
        metavar="NAME=N",
        help="another count for one env or family name (repeatable): --n-for FAMILY=60",
    )
    ft.add_argument(
        "--adapter-dtype",
        choices=("float32", "float16", "bfloat16"),
        default="float32",
        help="the saved weights' dtype (default float32; float16 halves the size)",
    )
    ft.add_argument("--out", help="adapter folder (default adapters/<model>-<envs>)")
    ft.add_argument("--threads", type=_whole(1), help="CPU threads for torch")
    ft.add_argument(
        "--chat",
        default="auto",
        choices=("auto", "on", "off"),
        help="render with the model's chat template (auto: as toolgym eval does)",
    )
    ft.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    ft.add_argument(
        "--tool-calls",
        action="store_true",
        help="train on chat-with-tools examples (toolgym data --tool-calls: the oracle's calls "
        "on train tasks of call-mode envs) with the loss on the calls only",
    )
    ft.set_defaults(func=_cmd_finetune)
