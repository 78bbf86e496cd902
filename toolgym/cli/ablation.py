"""``toolgym eval --ablation``: the paper's Table 7 configurations on one slice of envs."""

from __future__ import annotations

import argparse
import copy
import datetime
import importlib.util
import json
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolgym.cli.eval_output import write_eval_outputs
from toolgym.cli.eval_setup import _served
from toolgym.errors import UserInputError
from toolgym.evaluation.ablation import (
    AblationConfig,
    AblationRun,
    ablation_configs,
    ablation_rows,
    format_ablation,
)
from toolgym.evaluation.results import atomic_write


@dataclass
class EvalOutcome:
    """What one ``eval`` run gave: its summaries, wall time and episode counts."""

    summaries: list[dict[str, Any]]
    wall_s: float
    played: int
    resumed: int
    started: datetime.datetime
    files: list[Path] = field(default_factory=list)


def _constrained_possible(args: argparse.Namespace) -> bool:
    if args.constrained == "off" or args.tool_calling == "native":
        return False
    if _served(args):
        return args.grammar_format is not None
    return importlib.util.find_spec("llguidance") is not None


def _check(args: argparse.Namespace) -> None:
    if args.agent != "llm":
        raise UserInputError(
            f"--ablation compares LLM agent configurations; got --agent {args.agent}"
        )
    if args.no_system_prompt:
        raise UserInputError(
            "--ablation runs with and without the system prompt itself; drop --no-system-prompt"
        )
    if args.shots == 0:
        raise UserInputError(
            "--ablation runs zero-shot itself; --shots sets the few-shot rows' shots (got 0)"
        )
    if args.faults is not None:
        raise UserInputError(
            "--ablation does not take --faults; run the fault comparison on its own"
        )
    if args.constrained == "on" and not _constrained_possible(args):
        why = (
            "native tool calls follow no action grammar"
            if args.tool_calling == "native"
            else "a server needs --grammar-format; a local model needs llguidance installed"
        )
        raise UserInputError(
            f"--constrained on: constrained decoding is not available here ({why})"
        )


def config_args(args: argparse.Namespace, config: AblationConfig) -> argparse.Namespace:
    """``eval``'s arguments for one configuration."""
    out = copy.copy(args)
    out.ablation = False
    out.shots = args.shots if config.few_shot else 0
    out.no_system_prompt = not config.system_prompt
    out.constrained = "on" if config.constrained else "off"
    out.adapter = args.adapter if config.fine_tuned else None
    return out


def run_ablation(
    args: argparse.Namespace,
    run_eval: Callable[..., EvalOutcome | int],
) -> int:
    """Run every configuration that can run, then print and write the ablation table.

    Args:
        args: ``eval``'s arguments (``--adapter`` adds the fine-tuned rows).
        run_eval: runs ``eval`` for one configuration's arguments (``write=False``: the
            ablation writes the outputs of all of them).

    Returns:
        The exit status.
    """
    _check(args)
    configs = ablation_configs(
        constrained=_constrained_possible(args), fine_tuned=bool(args.adapter)
    )
    runs: list[AblationRun] = []
    clock = time.perf_counter()
    for k, config in enumerate(configs, 1):
        print(f"\n=== ablation {k}/{len(configs)}: {config.name} ===", flush=True)
        outcome = run_eval(config_args(args, config), write=False)
        if isinstance(outcome, int):
            return outcome
        episodes = sum(int(s.get("episodes", 0)) for s in outcome.summaries)
        runs.append(AblationRun(config, outcome.summaries, outcome.wall_s, episodes))
    wall = time.perf_counter() - clock
    table = ablation_rows(runs)
    print(f"\nablation (the paper's Table 7), {len(runs)} configurations in {wall:.0f} s:\n")
    print(format_ablation(table))
    if args.out:
        command = shlex.join(["toolgym", *args.argv])
        write_ablation(args.out, table, command=command, wall_s=wall)
        write_eval_outputs([s for run in runs for s in run.summaries], args.out)
        print(f"\nablation.md and ablation.json in {args.out}/")
    return 0


def write_ablation(
    out_dir: str | Path, table: dict[str, Any], *, command: str, wall_s: float
) -> None:
    """Write ``ablation.md`` (the tables and the command) and ``ablation.json``."""
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    text = (
        "# Ablation (the paper's Table 7)\n\n"
        f"Command: `{command}`\n\n"
        f"Wall time: {wall_s:.0f} s (all configurations; model loading excluded from each row's "
        "`wall_s`)\n\n" + format_ablation(table, markdown=True) + "\n"
    )
    atomic_write(folder / "ablation.md", text.encode())
    record = {"command": command, "wall_s": wall_s, **table}
    atomic_write(folder / "ablation.json", (json.dumps(record, indent=2) + "\n").encode())
