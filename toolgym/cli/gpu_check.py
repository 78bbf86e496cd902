"""The GPU check: parity with the CPU, batched speed, fine-tuning, GRPO and rollouts on one GPU.

Run ``python -m toolgym.cli.gpu_check`` (or ``python scripts/gpu_check.py``) on a machine
with one GPU and nothing but toolgym and its dependencies installed (on an H200 on 2026-11-27,
before section 4 existed, ``--finetune-steps 100 --speed-tasks 8 --section-timeout 120`` took
462 s; section 4 is given up to 9 minutes more; the defaults were not timed) and writes ``gpu-check-<gpu>.json`` and ``gpu-check-<gpu>.md`` to ``--out``.

1. **Parity.** The parity slice (the first ``--tasks`` test tasks of each of the four API
   families, the ``api`` suite; the embedded model with the
   system prompt, 3 retrieved demonstrations and the action grammar, greedy) is played on the CPU
   in float32 and on the GPU in float32 and in bfloat16. It prints the share of episodes whose
   action on the GPU in float32 equals the CPU's (target: 95%), and the success of each run
   (bfloat16 within 2 points of float32). ``--cpu-reference FILE`` adds a comparison with the
   actions another machine wrote (``--cpu-only --out DIR`` writes them).
2. **Speed.** The slice at batch 1, 8, 32 and 64 (``--batches``) on the GPU in its default
   dtype: episodes/s, generated tokens/s and peak GPU memory.
3. **Training.** ``toolgym finetune`` for ``--finetune-steps`` steps on the four API families and
   ``toolgym train-rl`` for ``--rl-steps`` steps on the first of them (``--rl-family``), as
   their commands run them.
4. **GRPO on whole episodes.** ``toolgym train-rl`` on a conversation env (``--grpo-env``; by
   default the first env the start was trained on) from the shipped tool-calling start, ``--grpo-env-steps`` steps of 2
   tasks x 8 rollouts at temperature 1.0, the test tasks (``--grpo-env-tasks``) played before and
   after: the reward per step, whether it rose against its noise, the steps whose GRPO groups
   had rewards that differed, success before and after.
5. **Rollouts.** ``collect_rollouts`` on one multi-step env (``--rollout-env``; by default the
   newest env of the paper's first multi-step family).

A machine that runs one command for at most 10 minutes takes the check in two calls:
``--skip grpo_env``, then ``--only grpo_env`` (whose files are named ``...-grpo_env``).

Each section's wall time is recorded; a section that fails is recorded with its error and the
others still run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolgym.evaluation.parity import agreement, parity_envs, play_slice
from toolgym.evaluation.profile import profile_of
from toolgym.training.rl_curve import (
    LOG_FILE,
    curve_summary,
    describe,
    logged_steps,
    logged_timing,
)

PACKAGES = ("torch", "transformers", "accelerate", "peft", "trl", "llguidance", "gguf", "toolgym")


def _versions() -> dict[str, str]:
    from importlib import metadata

    found = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def device_name(device: str) -> str:
    """The accelerator's name (``"cpu"`` for the CPU)."""
    import torch

    if device.startswith("cuda") and torch.cuda.is_available():
        return str(torch.cuda.get_device_name(torch.device(device)))
    return platform.processor() or "cpu"


def slug(name: str) -> str:
    """A file-name form of a device name (``NVIDIA H100 80GB HBM3`` -> ``NVIDIA-H100-80GB-HBM3``)."""
    return re.sub(r"[^A-Za-z0-9.]+", "-", name).strip("-") or "device"


def _backend(model: str, device: str, dtype: str | None, threads: int | None) -> Any:
    from toolgym.agents.backends.hf import HFBackend

    return HFBackend(model, device=device, dtype=dtype, num_threads=threads)


def _gpu_memory(device: str) -> tuple[Callable[[], None], Callable[[], float | None]]:
    import torch

    if not (device.startswith("cuda") and torch.cuda.is_available()):
        return (lambda: None), (lambda: None)

    def reset() -> None:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()

    def peak() -> float:
        torch.cuda.synchronize()
        return torch.cuda.max_memory_allocated() / 2**30

    return reset, peak


def section_parity(args: argparse.Namespace, report: dict[str, Any]) -> None:
    """CPU float32, GPU float32, GPU bfloat16 on the parity slice."""
    runs: dict[str, Any] = {}
    cpu = _backend(args.model, "cpu", "float32", args.cpu_threads)
    runs["cpu_float32"] = play_slice(cpu, args.tasks, args.parity_batch)
    del cpu
    if not args.cpu_only:
        for dtype in ("float32", "bfloat16"):
            backend = _backend(args.model, args.device, dtype, None)
            runs[f"gpu_{dtype}"] = play_slice(backend, args.tasks, args.parity_batch)
            del backend
    parity: dict[str, Any] = {"runs": runs}
    if "gpu_float32" in runs:
        parity["gpu_float32_vs_cpu"] = agreement(
            runs["gpu_float32"]["episodes"], runs["cpu_float32"]["episodes"]
        )
        parity["gpu_bfloat16_vs_gpu_float32"] = agreement(
            runs["gpu_bfloat16"]["episodes"], runs["gpu_float32"]["episodes"]
        )
        parity["bfloat16_success_points"] = 100 * (
            runs["gpu_bfloat16"]["success"] - runs["gpu_float32"]["success"]
        )
    if args.cpu_reference:
        data = json.loads(Path(args.cpu_reference).read_text())
        reference = (
            data["parity"]["runs"]["cpu_float32"]["episodes"]
            if "parity" in data
            else data["episodes"]
        )
        for name, run in runs.items():
            parity[f"{name}_vs_reference"] = agreement(run["episodes"], reference)
    report["parity"] = parity


def section_speed(args: argparse.Namespace, report: dict[str, Any]) -> None:
    """The slice at each batch size on the device, in its default dtype."""
    backend = _backend(args.model, args.device, None, None)
    reset, peak = _gpu_memory(args.device)
    play_slice(backend, 1, 1, parity_envs()[:1])  # warm-up: kernels, grammar compilation
    rows = []
    for batch in args.batches:
        reset()
        run = play_slice(backend, args.speed_tasks, batch)
        rows.append(
            {
                "batch": batch,
                "episodes": len(run["episodes"]),
                "episodes_per_s": run["episodes_per_s"],
                "tokens_per_s": run["tokens_per_s"],
                "wall_s": run["wall_s"],
                "peak_gpu_gib": peak(),
                "success": run["success"],
            }
        )
        print(f"  batch {batch}: {rows[-1]['episodes_per_s']:.1f} episodes/s", flush=True)
    report["speed"] = {"dtype": str(backend.dtype).replace("torch.", ""), "rows": rows}


def _run_command(
    arguments: list[str], timeout: float, summary: Path
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Run ``toolgym ARGUMENTS``; its entry (command, exit, wall) and the summary it wrote."""
    command = [sys.executable, "-m", "toolgym.cli", *arguments]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
        code: int | str = done.returncode
        output = done.stdout + done.stderr
    except subprocess.TimeoutExpired as e:  # stopped: what it wrote so far is kept
        code = f"stopped after {timeout:g} s"
        output = "".join(
            x.decode("utf-8", "replace") if isinstance(x, bytes) else x
            for x in (e.stdout, e.stderr)
            if x
        )
    entry: dict[str, Any] = {
        "command": "toolgym " + shlex.join(arguments),
        "exit": code,
        "wall_s": time.perf_counter() - start,
    }
    if not summary.is_file():
        entry["output"] = output[-2000:]
        return entry, None
    data: dict[str, Any] = json.loads(summary.read_text())
    return entry, data


def default_grpo_env() -> str:
    """The first env the shipped tool-calling start was trained on (its record's ``env_ids``).

    The start calls that env's tools, so GRPO's rollouts earn rewards that differ (a partial
    reward, such as a share of criteria set right, differs even where no episode is solved).

    Raises:
        RuntimeError: no tool-calling start is shipped, or its record names no env.
    """
    from toolgym.agents.aligned import RECORD_FILE, tool_call_adapter_path

    folder = tool_call_adapter_path()
    record = None if folder is None else folder / RECORD_FILE
    if record is None or not record.is_file():
        raise RuntimeError("no tool-calling start is shipped: name the env with --grpo-env")
    env_ids = json.loads(record.read_text(encoding="utf-8")).get("env_ids") or []
    if not env_ids:
        raise RuntimeError("the tool-calling start's record names no env: use --grpo-env")
    return str(env_ids[0])


def _api_families() -> list[str]:
    """The parity slice's families, by name."""
    from toolgym.envs import family_of

    return [family_of(env_id).name for env_id in parity_envs()]


def default_rollout_env() -> str:
    """The newest env of the paper's first multi-step family (``action_mode="call"``)."""
    from toolgym.envs import families

    for spec in families():
        if "toolbench" in profile_of(spec).suites and spec.action_mode == "call":
            return spec.env_id()
    raise RuntimeError("no multi-step family is registered in the toolbench suite")


def section_finetune(args: argparse.Namespace, report: dict[str, Any]) -> None:
    """``toolgym finetune`` on the four API families."""
    out = Path(args.work) / "finetune"
    families = [x for f in _api_families() for x in ("--family", f)]
    sizes = ["--n", str(args.finetune_examples), "--max-steps", str(args.finetune_steps)]
    command = ["finetune", *families, *sizes, "--batch-size", str(args.finetune_batch)]
    command += ["--model", args.model, "--out", str(out), "--no-progress"]
    entry, data = _run_command(command, args.section_timeout, out / "toolgym_finetune.json")
    if data is not None:
        losses = data.get("train_loss") or []
        entry.update(
            steps=data.get("steps"),
            examples=(data.get("data") or {}).get("examples"),
            train_s=data.get("wall_s"),
            first_loss=losses[0] if losses else None,
            last_loss=losses[-1] if losses else None,
            device=data.get("device"),
        )
    report["finetune"] = entry


def section_rl(args: argparse.Namespace, report: dict[str, Any]) -> None:
    """``toolgym train-rl`` for a few steps on one API family."""
    out = Path(args.work) / "rl"
    family = args.rl_family or _api_families()[0]
    command = ["train-rl", "--family", family, "--max-steps", str(args.rl_steps)]
    command += ["--eval-tasks", str(args.rl_eval_tasks), "--model", args.model]
    command += ["--out", str(out), "--no-progress"]
    entry, data = _run_command(command, args.section_timeout, out / "toolgym_rl.json")
    if data is not None:
        entry.update(steps=data.get("steps"), train_s=data.get("wall_s"))
    report["train_rl"] = entry


def section_grpo_env(args: argparse.Namespace, report: dict[str, Any]) -> None:
    """``toolgym train-rl`` on whole episodes of a multi-step env: the reward curve's check."""
    out = Path(args.work) / "grpo-env"
    args.grpo_env = args.grpo_env or default_grpo_env()
    command = ["train-rl", "--env", args.grpo_env, "--max-steps", str(args.grpo_env_steps)]
    command += ["--num-generations", "8", "--prompts-per-step", "2", "--micro-batch", "8"]
    command += ["--max-completion-length", "512", "--max-tool-calls", "12", "--temperature", "1.0"]
    command += ["--lr", "2e-4", "--eval-tasks", str(args.grpo_env_tasks), "--model", args.model]
    command += ["--out", str(out), "--no-progress"]
    timeout = max(args.section_timeout, args.grpo_env_timeout)
    launched = time.time()
    entry, data = _run_command(command, timeout, out / "toolgym_rl.json")
    timing = logged_timing(out)
    if timing["train_began"] is not None:  # loading, building the data, the test tasks before
        entry["before_training_s"] = round(timing["train_began"] - launched, 1)
    entry["step_s"] = timing["step_s"]
    if (out / LOG_FILE).is_file():  # kept beside the report: the temporary folder goes
        shutil.copyfile(out / LOG_FILE, Path(args.out) / f"grpo_env-{LOG_FILE}")
    if data is None:  # stopped or failed: the steps it logged before
        steps = logged_steps(out)  # their rewards and TRL's frac_reward_zero_std
        entry.update(
            steps_logged=len(steps),
            curve=describe(curve_summary(steps)),
            rewards=[round(float(step["reward"]), 4) for step in steps],
        )
    else:
        before = (data.get("test_before") or {}).get(args.grpo_env, {})
        after = (data.get("test_after") or {}).get(args.grpo_env, {})
        entry.update(
            steps=data.get("steps"),
            train_s=data.get("wall_s"),
            eval_s=data.get("eval_s"),
            success_before=before.get("success"),
            success_after=after.get("success"),
            test_tasks=after.get("episodes", before.get("episodes")),
            curve=describe(data.get("curve") or {}),
            rewards=[round(float(h["reward"]), 4) for h in data.get("history", [])],
        )
    report["grpo_env"] = entry


def section_rollouts(args: argparse.Namespace, report: dict[str, Any]) -> None:
    """``collect_rollouts`` on one multi-step family, sampled, with token traces."""
    from toolgym.agents.backends.hf import HFBackend
    from toolgym.training.rollouts import collect_rollouts

    backend = HFBackend(args.model, device=args.device, temperature=0.7, seed=0, trace_tokens=True)
    start = time.perf_counter()
    played = collect_rollouts(
        args.rollout_env,
        backend,
        n=args.rollout_tasks,
        split="test",
        group_size=2,
        num_envs=4,
        agent_kwargs={"max_new_tokens": 64},
    )
    wall = time.perf_counter() - start
    steps = sum(len(t.steps) for t in played)
    report["rollouts"] = {
        "env": args.rollout_env,
        "episodes": len(played),
        "steps": steps,
        "wall_s": wall,
        "steps_per_s": steps / wall if wall else 0.0,
        "mean_return": sum(t.return_ for t in played) / max(len(played), 1),
        "traced_steps": sum(1 for t in played for s in t.steps if s.traced),
    }


SECTIONS: dict[str, Callable[[argparse.Namespace, dict[str, Any]], None]] = {
    "parity": section_parity,
    "speed": section_speed,
    "finetune": section_finetune,
    "train_rl": section_rl,
    "grpo_env": section_grpo_env,
    "rollouts": section_rollouts,
}


def _pct(value: Any) -> str:
    return "" if value is None else f"{100 * float(value):.1f}%"


def _num(value: Any, digits: int = 1) -> str:
    return "" if value is None else f"{float(value):.{digits}f}"


def markdown(report: dict[str, Any]) -> str:
    """The report as a markdown page."""
    lines = [
        f"# GPU check: {report['device_name']}",
        "",
        f"{report['date']}, `{report['command']}`, {report['wall_s']:.0f} s in all.",
        "",
        "Versions: " + ", ".join(f"{k} {v}" for k, v in report["versions"].items()) + ".",
        "",
    ]
    parity = report.get("parity")
    if parity:
        lines += ["## Parity (the 4 API families' first test tasks, greedy, grammar)", ""]
        lines += [
            "| run | episodes | success | executable | episodes/s |",
            "|---|---:|---:|---:|---:|",
        ]
        for name, run in parity["runs"].items():
            lines.append(
                f"| {name} | {len(run['episodes'])} | {_pct(run['success'])} | "
                f"{_pct(run['executable'])} | {_num(run['episodes_per_s'], 2)} |"
            )
        lines.append("")
        for key in sorted(k for k in parity if "_vs_" in k):
            a = parity[key]
            lines.append(
                f"* {key.replace('_', ' ')}: {a['equal_actions']}/{a['episodes']} equal actions "
                f"({_pct(a['agreement'])})"
            )
        if "bfloat16_success_points" in parity:
            lines.append(
                f"* bfloat16 success minus float32 success: "
                f"{parity['bfloat16_success_points']:+.1f} points"
            )
        lines.append("")
    speed = report.get("speed")
    if speed:
        lines += [f"## Batched evaluation ({speed['dtype']})", ""]
        lines += [
            "| batch | episodes | episodes/s | generated tokens/s | peak GPU memory | success |",
            "|---:|---:|---:|---:|---:|---:|",
        ]
        for row in speed["rows"]:
            memory = "" if row["peak_gpu_gib"] is None else f"{row['peak_gpu_gib']:.2f} GiB"
            lines.append(
                f"| {row['batch']} | {row['episodes']} | {_num(row['episodes_per_s'], 2)} | "
                f"{_num(row['tokens_per_s'], 0)} | {memory} | {_pct(row['success'])} |"
            )
        lines.append("")
    for key, title in (
        ("finetune", "toolgym finetune"),
        ("train_rl", "toolgym train-rl"),
        ("grpo_env", "toolgym train-rl on whole episodes"),
    ):
        entry = report.get(key)
        if entry:
            lines += [f"## {title}", "", f"`{entry['command']}`", ""]
            hidden = ("command", "output", "curve", "rewards", "step_s")
            details = {k: v for k, v in entry.items() if k not in hidden}
            lines.append(", ".join(f"{k}: {v}" for k, v in details.items()))
            lines += [f"\n* {line}" for line in entry.get("curve") or []]
            if entry.get("rewards"):
                lines.append(f"\nTrain reward per step: {entry['rewards']}")
            if entry.get("step_s"):
                seconds = entry["step_s"]
                lines.append(
                    f"\nSeconds per step: median {statistics.median(seconds):.1f} (each: {seconds})"
                )
            if entry.get("output"):
                lines += ["", "```", entry["output"].strip(), "```"]
            lines.append("")
    rollouts = report.get("rollouts")
    if rollouts:
        lines += ["## collect_rollouts", ""]
        lines.append(", ".join(f"{k}: {v}" for k, v in rollouts.items()))
        lines.append("")
    if report.get("failures"):
        lines += ["## Failures", ""]
        for name, error in report["failures"].items():
            lines += [f"* {name}: `{error.strip().splitlines()[-1]}`"]
        lines.append("")
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m toolgym.cli.gpu_check", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--device", default="cuda", help="the accelerator (default cuda)")
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--out", default="gpu-check", help="folder for the JSON and markdown")
    parser.add_argument("--tasks", type=int, default=16, help="parity tasks per family (16)")
    parser.add_argument("--parity-batch", type=int, default=16)
    parser.add_argument(
        "--speed-tasks", type=int, default=16, help="tasks per family at each batch size (16)"
    )
    parser.add_argument("--batches", default="1,8,32,64")
    parser.add_argument("--finetune-steps", type=int, default=200)
    parser.add_argument("--finetune-examples", type=int, default=400, help="per family")
    parser.add_argument("--finetune-batch", type=int, default=8)
    parser.add_argument("--rl-steps", type=int, default=2)
    parser.add_argument(
        "--rl-eval-tasks",
        type=int,
        default=4,
        help="test tasks train-rl evaluates before and after",
    )
    parser.add_argument(
        "--rl-family", help="the family train-rl runs on (default: the first API family)"
    )
    parser.add_argument(
        "--grpo-env",
        help="the env of the whole-episode GRPO section (default: the first env the shipped "
        "tool-calling start was trained on)",
    )
    parser.add_argument("--grpo-env-steps", type=int, default=20)
    parser.add_argument(
        "--grpo-env-tasks", type=int, default=16, help="its test tasks before and after (16)"
    )
    parser.add_argument(
        "--grpo-env-timeout", type=float, default=540.0, help="its time limit in seconds (540)"
    )
    parser.add_argument(
        "--rollout-env", help="a multi-step env (default: the first multi-step family's newest)"
    )
    parser.add_argument("--rollout-tasks", type=int, default=4)
    parser.add_argument("--cpu-threads", type=int, default=None)
    parser.add_argument("--cpu-reference", help="a cpu_float32 run from another machine")
    parser.add_argument(
        "--cpu-only", action="store_true", help="play the parity slice on the CPU only and stop"
    )
    parser.add_argument("--skip", action="append", default=[], choices=sorted(SECTIONS))
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        choices=sorted(SECTIONS),
        help="run these sections alone (their report's name ends with them)",
    )
    parser.add_argument("--section-timeout", type=float, default=300.0)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the check; print the markdown and write the JSON and markdown files."""
    args = _parser().parse_args(argv)
    args.batches = [int(b) for b in str(args.batches).split(",") if b]
    args.rollout_env = args.rollout_env or default_rollout_env()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    name = "cpu" if args.cpu_only else device_name(args.device)
    report: dict[str, Any] = {
        "device": "cpu" if args.cpu_only else args.device,
        "device_name": name,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": shlex.join(
            [Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])]
        ),
        "versions": _versions(),
        "sections_s": {},
        "failures": {},
    }
    start = time.perf_counter()
    sections = [s for s in SECTIONS if (s in args.only or not args.only) and s not in args.skip]
    if args.cpu_only:
        sections = ["parity"]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    only = args.only and not args.cpu_only
    stem = f"gpu-check-{slug(name)}" + "".join(f"-{s}" for s in sections if only)
    with tempfile.TemporaryDirectory(prefix="toolgym-gpu-check-") as work:
        args.work = work
        for section in sections:
            began = time.perf_counter()
            print(f"[{section}] ...", flush=True)
            try:
                SECTIONS[section](args, report)
            except Exception:  # one section's failure is reported; the others still run
                report["failures"][section] = traceback.format_exc()[-3000:]
            report["sections_s"][section] = time.perf_counter() - began
            print(f"[{section}] {report['sections_s'][section]:.0f} s", flush=True)
            report["wall_s"] = time.perf_counter() - start
            # Written after every section, so a check stopped part-way keeps what it measured.
            _write(report, out, stem)
    report["wall_s"] = time.perf_counter() - start
    page = _write(report, out, stem)  # also when every section was skipped
    print(page)
    return 1 if report["failures"] else 0


def _write(report: dict[str, Any], out: Path, stem: str) -> str:
    """Write the report's JSON and markdown to ``out``; the markdown."""
    (out / f"{stem}.json").write_text(json.dumps(report, indent=1, default=str) + "\n")
    page = markdown(report)
    (out / f"{stem}.md").write_text(page + "\n")
    return page


if __name__ == "__main__":
    sys.exit(main())
