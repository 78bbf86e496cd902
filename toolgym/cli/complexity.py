"""``toolgym complexity``: the API complexity score of the stored splits, next to the paper's.

For every env (or each ``--env``), the score of its test split against its demonstration pool
(:func:`toolgym.benchmarks.complexity.split_complexity`), printed as a table with the paper's
Table 4 value where the family gives one, or as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from typing import Any

from toolgym.benchmarks.complexity import DEMO_POOL, ComplexityResult, split_complexity
from toolgym.envs import env_ids, families, family, latest_env_ids
from toolgym.errors import UserInputError
from toolgym.evaluation.profile import profile_of
from toolgym.evaluation.report import format_table

COLUMNS = ("env", "|D|", "test cases", "demos", "score", "paper", "gap %")
"""The columns of the printed table."""


def parse_base(text: str) -> float:
    """A log base from the command line: ``e``, ``2`` or any positive number other than 1.

    >>> parse_base("2"), round(parse_base("e"), 3)
    (2.0, 2.718)
    """
    if text.strip().lower() == "e":
        return math.e
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not math.isfinite(value) or value <= 0 or value == 1:
        raise argparse.ArgumentTypeError(
            f"expected e, 2 or another positive number other than 1; got {text!r}"
        )
    return value


def default_env_ids() -> list[str]:
    """The envs the command scores by default, in table order.

    Every family's newest version, plus the older versions that are a paper column of their own
    (two demonstration pools of one task).
    """
    latest = set(latest_env_ids())
    ids = []
    for spec in families():
        for version in spec.versions:
            env_id = spec.env_id(version.version)
            if env_id in latest or version.version in profile_of(spec).columns:
                ids.append(env_id)
    return ids


def resolve_env(name: str) -> str:
    """An env id from ``--env``: a registered id, or a family's name for its newest version.

    Raises:
        UserInputError: neither (the message lists the registered ids).
    """
    if name in env_ids():
        return name
    try:
        return family(name).env_id()
    except KeyError:
        raise UserInputError(
            f"--env expects a registered env id or a family name; got {name!r} "
            f"(registered: {', '.join(env_ids())})"
        ) from None


def table_row(result: ComplexityResult) -> dict[str, Any]:
    """One row of the table (``paper`` and ``gap %`` empty where the paper gives no value)."""
    gap = result.gap
    return {
        "env": result.env_id,
        "|D|": result.num_apis,
        "test cases": result.test_cases,
        "demos": result.demos,
        "score": result.score,
        "paper": "" if result.paper is None else result.paper,
        "gap %": "" if gap is None else f"{100 * gap:+.0f}%",
    }


def complexity_rows(
    ids: Sequence[str], split: str = "test", pool: str = DEMO_POOL, base: float = math.e
) -> list[dict[str, Any]]:
    """Table rows (:data:`COLUMNS`) of the envs in ``ids`` that can be scored, for reports.

    An id that is not registered, or whose family has no such split or pool, is left out.
    """
    known = set(env_ids())
    rows = []
    for env_id in ids:
        if env_id not in known:
            continue
        try:
            rows.append(table_row(split_complexity(env_id, split, pool, base)))
        except ValueError:
            continue
    return rows


def run(args: argparse.Namespace) -> int:
    """The ``complexity`` command; returns the exit status.

    Raises:
        UserInputError: an unknown env, split or pool.
    """
    ids = [resolve_env(name) for name in args.env] if args.env else default_env_ids()
    results = []
    for env_id in ids:
        try:
            results.append(
                split_complexity(env_id, args.split, args.pool, args.base, multiset=args.multiset)
            )
        except ValueError as e:
            raise UserInputError(f"{env_id}: {e}") from e
    if args.json:
        print(json.dumps([r.to_dict() for r in results], indent=2))
        return 0
    base = "e" if args.base == math.e else f"{args.base:g}"
    kind = "multisets" if args.multiset else "sets"
    print(
        f"API complexity of the {args.split!r} split against the {args.pool!r} pool "
        f"(log base {base}, API {kind})"
    )
    print(format_table([table_row(r) for r in results], COLUMNS))
    return 0


def add_parser(sub: argparse._SubParsersAction[Any]) -> None:
    """Add the ``complexity`` subcommand to the command line's subparsers."""
    parser = sub.add_parser(
        "complexity",
        help="print the API complexity score of the stored splits (the paper's Appendix D)",
        description="The API complexity score of each env's test split against its "
        "demonstrations: the mean over test cases of the distance to the closest demonstration, "
        "|e| log 2 + |t \\ e| log |D|, next to the paper's Table 4 value.",
    )
    parser.add_argument(
        "--env",
        action="append",
        metavar="ID",
        help="env id or family name (repeatable; default: every family's newest version, "
        "plus versions that are a paper column of their own)",
    )
    parser.add_argument("--split", default="test", help="the test cases' split (default: test)")
    parser.add_argument(
        "--pool",
        default=DEMO_POOL,
        help="the demonstrations' split (default: demo, as agents use them)",
    )
    parser.add_argument(
        "--base", type=parse_base, default=math.e, help="the log base: e (default) or 2"
    )
    parser.add_argument(
        "--multiset", action="store_true", help="count repeated calls (default: sets of APIs)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.set_defaults(func=run)
