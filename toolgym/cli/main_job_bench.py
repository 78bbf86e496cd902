"""``toolgym bench --main-job``: the main job's wall time, and where it goes.

It runs ``toolgym eval`` as the README's main job does (the embedded model, the shipped adapter
then the base model, each family's default tasks), into a fresh results folder so nothing is
resumed, with the stopwatches of :mod:`toolgym.agents.timing` on, and prints the wall time split
into reading prompts (``prefill``), stepping the model on new tokens (``decode``), choosing tokens
(grammar masks and sampling), the envs' steps, and the rest (loading the model, building
prompts, retrieving demonstrations, tokenizing), with the peak memory. The next speed-up is
aimed at the largest share.
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from collections.abc import Sequence

from toolgym.agents.timing import PHASES, recording

_LABELS = {
    "prefill": "reading prompts (prefill)",
    "decode": "decoding (model steps on new tokens)",
    "choose": "choosing tokens (grammar masks, sampling)",
    "env_step": "env steps (scoring included)",
}


def breakdown_table(seconds: dict[str, float], calls: dict[str, int], wall: float) -> str:
    """The phases' seconds, calls and shares of ``wall``, then the rest and the total.

    >>> print(breakdown_table({"decode": 3.0}, {"decode": 30}, 4.0))  # doctest: +NORMALIZE_WHITESPACE
    phase                                       seconds   calls   share
    reading prompts (prefill)                       0.0       0    0.0%
    decoding (model steps on new tokens)            3.0      30   75.0%
    choosing tokens (grammar masks, sampling)       0.0       0    0.0%
    env steps (scoring included)                    0.0       0    0.0%
    other (loading, prompts, retrieval)             1.0           25.0%
    wall time                                       4.0          100.0%
    """
    rows = [(_LABELS[p], seconds.get(p, 0.0), str(calls.get(p, 0))) for p in PHASES]
    rest = max(0.0, wall - sum(s for _, s, _ in rows))
    rows += [("other (loading, prompts, retrieval)", rest, ""), ("wall time", wall, "")]
    width = max(len(label) for label, _, _ in rows)
    lines = [f"{'phase':<{width}}  {'seconds':>8}  {'calls':>6}  {'share':>6}"]
    for label, spent, count in rows:
        share = spent / wall if wall > 0 else 0.0
        lines.append(f"{label:<{width}}  {spent:>8.1f}  {count:>6}  {share:>6.1%}")
    return "\n".join(lines)


def main(eval_args: Sequence[str] = ()) -> int:
    """Run the main job (``toolgym eval`` with ``eval_args``) and print its time breakdown."""
    from toolgym.cli import main as cli_main

    with tempfile.TemporaryDirectory(prefix="toolgym-main-job-") as out:
        argv = ["eval", "--no-progress", *eval_args, "--out", out]
        started = time.perf_counter()
        with recording() as clock:
            code = cli_main(argv)
        wall = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print()
    print(f"the main job (toolgym {' '.join(argv[:-2])}): exit status {code}")
    print(breakdown_table(dict(clock.seconds), dict(clock.calls), wall))
    print(f"peak memory (RSS): {peak:,.0f} MiB")
    sys.stdout.flush()
    return code
