"""``toolgym eval``: evaluate an agent on the envs and print (and keep) the results tables."""

from __future__ import annotations

import argparse
import datetime
import shlex
import sys
import time
from typing import Any

from tqdm.auto import tqdm

from toolgym.cli.ablation import EvalOutcome, run_ablation
from toolgym.cli.eval_output import print_eval_tables, write_eval_outputs
from toolgym.cli.eval_setup import (
    DEFAULT_LLM_LIMIT,
    _action_mode,
    _agent_factory,
    _agent_setup,
    _check_eval_inputs,
    _limit,
    _strategy,
    env_label,
    env_settings,
    main_configurations,
    normalize_backends,
    row_label,
)
from toolgym.cli.eval_user import attach_user, unscored_status
from toolgym.errors import UserInputError
from toolgym.evaluation.paper_tables import format_headline_table
from toolgym.evaluation.profile import default_env_ids, suite_env_ids


def _resume_command(argv: list[str]) -> str:
    return shlex.join(["toolgym", *[a for a in argv if a != "--no-resume"]])


def _eval_ids(args: argparse.Namespace) -> list[str]:
    """The envs ``eval`` runs: ``--env``, else ``--suite``'s, else the default run's.

    The default run is every family's newest version but the conversation envs (``--suite
    conversations`` runs those).
    """
    if args.env and args.suite:
        raise UserInputError(
            f"give --env or --suite, not both (got --suite {args.suite} and --env {args.env})"
        )
    if args.suite:
        return suite_env_ids(args.suite)
    return list(args.env or default_env_ids())


def _episodes(tasks: int, limit: int | None) -> int:
    """How many episodes an env plays: its tasks (0 for an unlimited split) up to ``limit``."""
    if tasks == 0:
        return limit or 0
    return tasks if limit is None else min(tasks, limit)


def cmd_eval(args: argparse.Namespace) -> int:
    """Run ``toolgym eval`` (or, with ``--ablation``, its configurations); the exit status.

    By default the embedded model runs with the shipped adapter; ``--compare-base`` runs it
    again without (:func:`~toolgym.cli.eval_setup.main_configurations`), and one headline table
    puts the two rows side by side.
    """
    configurations = main_configurations(args)
    if args.ablation:
        return run_ablation(configurations[0][1], _run_eval)
    if len(configurations) == 1:
        outcome = _run_eval(configurations[0][1])
        return outcome if isinstance(outcome, int) else unscored_status(args, outcome.summaries)
    outcomes = []
    for k, (name, config_args) in enumerate(configurations, 1):
        print(f"\n=== {k}/{len(configurations)}: {name} ===", flush=True)
        outcome = _run_eval(config_args, write=False)
        if isinstance(outcome, int):
            return outcome
        outcomes.append(outcome)
    summaries = [s for o in outcomes for s in o.summaries]
    wall = sum(o.wall_s for o in outcomes)
    played = sum(o.played for o in outcomes)
    print(f"\nboth rows (mean: mean success rate over the envs), {wall:.0f} s:")
    print(format_headline_table(summaries))
    if args.out:
        from toolgym.evaluation.summary_files import write_run_summary

        paths = write_eval_outputs(summaries, args.out)
        run = write_run_summary(
            args.out,
            summaries,
            [f for o in outcomes for f in o.files],
            started=outcomes[0].started,
            wall_s=wall,
            played=played,
            resumed=sum(o.resumed for o in outcomes),
            argv=args.argv,
        )
        print(
            f"\nepisode records (JSONL), {', '.join(sorted(paths))} in {args.out}/; this run: {run}"
        )
    return unscored_status(args, summaries)


def _run_eval(args: argparse.Namespace, *, write: bool = True) -> EvalOutcome | int:
    """Run ``eval``'s envs; its tables printed, and with ``write`` its outputs written.

    Returns:
        What ran, or the exit status 130 when interrupted.
    """
    from toolgym.evaluation.profile import run_options
    from toolgym.evaluation.runner import EvalResult, evaluate, fault_label, results_file
    from toolgym.evaluation.summary_files import write_run_summary

    normalize_backends(args)
    ids = _eval_ids(args)
    env_kwargs = _check_eval_inputs(args, ids)
    limit = args.limit
    if limit is None and args.agent == "llm" and not args.task_file and not args.suite:
        limit = DEFAULT_LLM_LIMIT
    label, settings = _agent_setup(args)
    batch_size = args.batch_size if args.batch_size else (8 if args.agent == "llm" else 1)
    batched = args.agent == "llm" and batch_size > 1 and args.strategy != "dfsdt"
    labels = {env_id: env_label(args, label, env_id) for env_id in ids}
    rates: list[float | None] = [None] if args.faults is None else [None, args.faults]
    out = args.out or None
    totals = {
        env_id: _episodes(n, _limit(args, env_id, limit)) for env_id, n in args.task_counts.items()
    }

    def kwargs_of(env_id: str, rate: float | None) -> dict[str, Any]:
        """The env's options in this run: the family's run options, then the user's."""
        shared = run_options(env_id, out, fault_label(labels[env_id], rate))
        return {**shared, **env_kwargs, "action_mode": _action_mode(args, env_id)}

    recorded = 0
    if out is not None:  # a held lock or a mismatched resume, said before a model loads
        for env_id in ids:
            for rate in rates:
                checked = results_file(
                    out,
                    env_id,
                    fault_label(labels[env_id], rate),
                    agent_kind=args.agent,
                    split=args.split,
                    seed=args.seed,
                    env_kwargs=kwargs_of(env_id, rate),
                    strategy=_strategy(args, env_id),
                    batch_size=batch_size if batched else 1,
                    faults=rate,
                    settings=env_settings(args, settings, env_id),
                    resume=not args.no_resume,
                )
                checked.check()
                recorded += min(len(checked.records), totals[env_id])
    attach_user(args, env_kwargs)
    results: list[EvalResult] = []
    faulty: list[EvalResult] = []
    saved = 0
    started = datetime.datetime.now(datetime.UTC)
    clock = time.perf_counter()

    overall = tqdm(
        total=sum(totals.values()) * len(rates),
        initial=recorded,
        desc="all envs",
        disable=args.no_progress or len(ids) * len(rates) < 2,
        position=0,
    )

    def count(_: Any) -> None:
        nonlocal saved
        saved += 1
        overall.update(1)

    try:
        factory = _agent_factory(args)
        for env_id in ids:
            for rate in rates:
                result = evaluate(
                    env_id,
                    factory,
                    split=args.split,
                    limit=_limit(args, env_id, limit),
                    seed=args.seed,
                    env_kwargs=kwargs_of(env_id, rate),
                    out_dir=out,
                    progress=not args.no_progress,
                    batch_size=batch_size,
                    strategy=_strategy(args, env_id),
                    label=labels[env_id],
                    resume=not args.no_resume,
                    settings=env_settings(args, settings, env_id),
                    on_record=count,
                    faults=rate,
                    backend=args.backend,
                    workers=args.workers,
                    ray_address=args.ray_address,
                )
                (results if rate is None else faulty).append(result)
    except KeyboardInterrupt:
        where = f" in {out}/" if out else " (no --out: nothing is kept)"
        resume = f"; resume with: {_resume_command(args.argv)}" if out else ""
        print(
            f"\ninterrupted: {saved} episode(s) of this run saved{where}{resume}", file=sys.stderr
        )
        return 130
    finally:
        overall.close()
    wall = time.perf_counter() - clock
    summaries = [r.summary for r in results]
    faulty_summaries = [r.summary for r in faulty]
    # one row per configuration: shots named when every env has the same
    row = row_label(label if args.shots is None else label.replace("{shots}", str(args.shots)))
    for summary in summaries:
        summary["row"] = row
    for summary in faulty_summaries:
        summary["row"] = fault_label(row, args.faults)
    print_eval_tables(summaries, faulty_summaries, args.faults, args.seed)
    played = sum(r.played for r in [*results, *faulty])
    resumed = sum(r.resumed for r in [*results, *faulty])
    if out and write:
        files = [r.path for r in [*results, *faulty] if r.path is not None]
        paths = write_eval_outputs([*summaries, *faulty_summaries], out)
        run = write_run_summary(
            out,
            [*summaries, *faulty_summaries],
            files,
            started=started,
            wall_s=wall,
            played=played,
            resumed=resumed,
            argv=args.argv,
        )
        print(f"\nepisode records (JSONL), {', '.join(sorted(paths))} in {out}/; this run: {run}")
    speed = f"{played / wall:.2f} episodes/s" if wall > 0 else "-"
    print(
        f"{played + resumed} episodes ({played} played, {resumed} resumed) in {wall:.1f} s: {speed}"
    )
    files = [r.path for r in [*results, *faulty] if r.path is not None]
    return EvalOutcome([*summaries, *faulty_summaries], wall, played, resumed, started, files)
