"""A family's evaluation profile: how its results are tabled, which suites it is in, what is timed.

A family names its profile by import path (``FamilySpec.profile``, ``"module:attribute"``), so
that the env's declaration carries nothing of the reports; reports, suites and benchmarks read it
here. A family without one gets :class:`EvalProfile`'s defaults.

>>> profile_of("toolbench/WebShop-v1").headline
('reward',)
>>> column_of("toolbench/WebShop-v0")
'WebShop long'
>>> suite_env_ids("toolbench")[:2]
['toolbench/HomeSearch-v0', 'toolbench/TripBooking-v0']
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolgym.envs import families, family_of
from toolgym.envs.spec import FamilySpec, load_ref

ALL_SUITE = "all"
"""The suite every family belongs to (``toolgym eval --suite all``)."""


@dataclass(frozen=True)
class BenchAction:
    """An action the performance benchmark times for a family (``toolgym bench``).

    Attributes:
        task_id: the test task it is played on.
        action: the action, as an agent would write it (program mode).
        label: what it is, for the printed line ("a five-call gspread program").
    """

    task_id: str
    action: str
    label: str


@dataclass(frozen=True)
class EvalProfile:
    """How a family is evaluated and reported (see the module docstring).

    Attributes:
        headline: the metrics the paper's main table shows for the family (its success rate,
            or VirtualHome's executability and LCS): one column each in the headline and
            ablation tables (:mod:`toolgym.evaluation.paper_tables`).
        breakdown: a key of ``info["metrics"]`` whose value names a group of tasks (Tabletop's
            ``template``):
            summaries also give each metric per group, and the command line prints that table.
        suites: the named benchmark suites the family belongs to (``toolgym eval --suite``):
            ``"toolbench"`` is the paper's eight tools; every family is also in ``"all"``.
        columns: ``{version: column}`` for versions that are columns of their own in the
            paper-layout table (WebShop long and short); other versions show the env name.
        bench: a typical action ``toolgym bench`` times end to end, when the family's actions
            cost more than a call (programs run in the sandbox).
        measures: import path of a function returning lines of the family's own performance
            measures, which ``toolgym bench`` prints (WebShop's search at 100,000 products).
        give_up_code: the status code (``info["code"]``) of a step that gives up, after which a
            search strategy (DFSDT) backtracks; ``None``: the family has no give-up.
        default_run: whether ``toolgym eval`` runs the family when no env or suite is named
            (the conversation envs do not: ``--suite conversations`` runs them).
        known_by: the one or two metrics the family is known by beside its success and
            executability, shown in the printed per-env table (RapidAPI's SoPR pre-check and
            tool F1); ``None``: its first other metric.
        tables: import path of a function ``(summaries, brief) -> {title: rows}`` that makes a
            benchmark's own tables from the summaries of its envs in a run (BFCL's leaderboard
            row over its categories); ``toolgym eval`` prints them (``brief``: what fits a
            terminal) after the per-env table and writes them whole into the results files and
            the HTML report (:func:`suite_tables`).
        run_options: import path of a function ``(out_dir, label) -> dict`` giving env
            options for one ``toolgym eval`` run of the family's envs (``out_dir`` the run's
            ``--out``, or ``None``; ``label`` the agent's row label): state a run's episodes
            share, such as BFCL's memory snapshots (each scenario's earlier conversations are
            played once per run). ``--env-option`` wins over them.
    """

    headline: tuple[str, ...] = ("success",)
    breakdown: str | None = None
    suites: tuple[str, ...] = ()
    columns: Mapping[int, str] = field(default_factory=dict)
    bench: BenchAction | None = None
    measures: str | None = None
    give_up_code: int | None = None
    default_run: bool = True
    known_by: tuple[str, ...] | None = None
    tables: str | None = None
    run_options: str | None = None

    def known_metrics(self, spec: FamilySpec) -> tuple[str, ...]:
        """The metrics :attr:`known_by` names, or the family's first other one."""
        if self.known_by is not None:
            return self.known_by
        other = [m.key for m in spec.metrics if m.key not in ("success", "executable")]
        return tuple(other[:1])

    def check(self, spec: FamilySpec) -> None:
        """Check the profile against its family's declaration.

        Raises:
            ValueError: a headline metric the family does not report, the ``all`` suite
                listed, or a column for a version the family does not have.
        """
        keys = {m.key for m in spec.metrics}
        unknown_known = [k for k in self.known_by or () if k not in keys]
        if unknown_known:
            raise ValueError(
                f"{spec.name}: known_by names metrics the family does not report: "
                f"{unknown_known} (it reports {sorted(keys)})"
            )
        missing = [k for k in self.headline if k not in keys]
        if not self.headline or missing:
            raise ValueError(
                f"{spec.name}: headline names one or more of the family's metrics "
                f"{sorted(keys)}; got {self.headline!r}"
            )
        if ALL_SUITE in self.suites:
            raise ValueError(f"every family is in the {ALL_SUITE!r} suite; do not list it")
        versions = {v.version for v in spec.versions}
        unknown = sorted(set(self.columns) - versions)
        if unknown:
            raise ValueError(
                f"{spec.name}: columns name versions {unknown}, not among {sorted(versions)}"
            )


def profile_of(family: FamilySpec | str) -> EvalProfile:
    """The evaluation profile of a family, given as its spec or one of its env ids.

    Raises:
        KeyError: an env id no family registers.
        TypeError: the family's ``profile`` names something that is not an ``EvalProfile``.
        ValueError: the profile does not fit the family (see :meth:`EvalProfile.check`).
    """
    spec = family_of(family) if isinstance(family, str) else family
    return _load(spec)


@functools.cache
def _load(spec: FamilySpec) -> EvalProfile:
    if spec.profile is None:
        profile = EvalProfile()
    else:
        profile = load_ref(spec.profile)
        if not isinstance(profile, EvalProfile):
            raise TypeError(
                f"{spec.profile} should be an EvalProfile; got {type(profile).__name__}"
            )
    profile.check(spec)
    return profile


def run_options(env_id: str, out_dir: str | None, label: str) -> dict[str, Any]:
    """The env options a ``toolgym eval`` run gives ``env_id`` (see :attr:`EvalProfile.run_options`)."""
    ref = profile_of(env_id).run_options
    return dict(load_ref(ref)(out_dir, label)) if ref else {}


def suite_tables(
    summaries: Sequence[Mapping[str, Any]], brief: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """The benchmark tables of a run (see :attr:`EvalProfile.tables`), title to rows.

    Each table function gets the summaries of the envs whose profiles name it, in run order.
    """
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for summary in summaries:
        try:
            ref = profile_of(str(summary["env"])).tables
        except KeyError:  # an env no family registers now (an old results folder)
            continue
        if ref is not None:
            grouped.setdefault(ref, []).append(summary)
    out: dict[str, list[dict[str, Any]]] = {}
    for ref, members in grouped.items():
        out.update(load_ref(ref)(members, brief))
    return out


def column_of(env_id: str) -> str:
    """The env's column in the paper-layout table (its version's column, else its env name)."""
    try:
        spec = family_of(env_id)
    except KeyError:
        return env_id.split("/")[-1].rsplit("-v", 1)[0]
    version = int(env_id.rsplit("-v", 1)[1])
    return profile_of(spec).columns.get(version, spec.env_name)


CONVERSATION_PROFILE = EvalProfile(suites=("conversations",), default_run=False)
"""The profile of every conversation env (``toolbench/<EnvName>Chat-v0``)."""


def default_env_ids() -> list[str]:
    """What ``toolgym eval`` runs when no env or suite is named.

    Each family's newest version, but for the families kept out of the default run
    (:attr:`EvalProfile.default_run`).
    """
    return [spec.env_id(spec.latest.version) for spec in families() if profile_of(spec).default_run]


def suite_names() -> list[str]:
    """The named suites ``toolgym eval --suite`` runs: every family's, then ``all``."""
    names = dict.fromkeys(name for spec in families() for name in profile_of(spec).suites)
    return [*names, ALL_SUITE]


def suite_env_ids(name: str) -> list[str]:
    """The envs of a named suite, in table order.

    Each member family's newest version, and every version with a column of its own in the
    paper's tables (WebShop long and short).

    Raises:
        ValueError: an unknown suite (the message lists the known ones).
    """
    if name not in suite_names():
        raise ValueError(f"suite must be one of {', '.join(suite_names())}; got {name!r}")
    out = []
    for spec in families():
        profile = profile_of(spec)
        if name != ALL_SUITE and name not in profile.suites:
            continue
        for version in spec.versions:
            if version is spec.latest or version.version in profile.columns:
                out.append(spec.env_id(version.version))
    return out
