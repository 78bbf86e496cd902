"""What an HTML report is drawn from: the runs' families, series, summaries and records, indexed.

:class:`ReportModel` indexes runs (:mod:`toolgym.evaluation.runs`) by family, env and series (a
run's agent), in the order families are registered, with each family's headline metric
(:class:`Family`); :mod:`toolgym.evaluation.html_report` renders it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolgym.benchmarks.score import F1_METRICS
from toolgym.envs import env_ids, family_of
from toolgym.evaluation.profile import column_of, profile_of
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.runs import Run


@dataclass
class Family:
    """A family as the page shows it: its envs, its headline metric, its metric columns."""

    key: str
    title: str
    envs: list[str] = field(default_factory=list)
    headline: str = "success"
    headline_title: str = "success rate"
    percent: bool = True
    metrics: list[tuple[str, str, bool]] = field(default_factory=list)
    calls: bool = False


def family_for(env_id: str, summary: Mapping[str, Any]) -> Family:
    """The :class:`Family` of ``env_id`` (an unknown env is a family of its own)."""
    try:
        spec = family_of(env_id)
    except KeyError:
        specs = summary.get("metric_specs") or [
            {"key": m.key, "title": m.title, "percent": m.percent} for m in F1_METRICS
        ]
        metrics = [(str(m["key"]), str(m["title"]), bool(m["percent"])) for m in specs]
        keys = [k for k, _, _ in metrics]
        headline = "success" if "success" in keys else keys[0]
        return Family(env_id, column_of(env_id), metrics=metrics, **_headline(metrics, headline))
    metrics = [(m.key, m.title, m.percent) for m in spec.metrics]
    headline = profile_of(spec).headline[
        -1
    ]  # the metric the paper's main table shows for the family
    return Family(
        spec.name,
        spec.title,
        metrics=metrics,
        calls=spec.action_mode == "call",
        **_headline(metrics, headline),
    )


def _headline(metrics: Sequence[tuple[str, str, bool]], key: str) -> dict[str, Any]:
    title, percent = next(((t, p) for k, t, p in metrics if k == key), (key, True))
    return {"headline": key, "headline_title": title, "percent": percent}


@dataclass
class ReportModel:
    """What the page is drawn from: the runs' summaries and records, indexed."""

    runs: Sequence[Run]
    families: dict[str, Family] = field(default_factory=dict)
    family_of_env: dict[str, str] = field(default_factory=dict)
    series: list[tuple[int, str]] = field(default_factory=list)
    summaries: dict[tuple[int, str, str], dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for i, run in enumerate(self.runs):
            known = {(s.get("env", ""), s.get("agent", "")) for s in run.summaries}
            pairs = [(str(s.get("env", "")), str(s.get("agent", ""))) for s in run.summaries]
            pairs += [p for p in run.records if p not in known]
            by_pair = {(s.get("env"), s.get("agent")): s for s in run.summaries}
            for env_id, agent in pairs:
                summary = by_pair.get((env_id, agent), {"env": env_id, "agent": agent})
                if env_id not in self.family_of_env:
                    fam = family_for(env_id, summary)
                    fam = self.families.setdefault(fam.key, fam)
                    fam.envs.append(env_id)
                    self.family_of_env[env_id] = fam.key
                if (i, agent) not in self.series:
                    self.series.append((i, agent))
                self.summaries[(i, env_id, agent)] = dict(summary)
        # families and their envs in the order they are registered, unknown ones after
        order = {env_id: k for k, env_id in enumerate(env_ids())}

        def rank(env_id: str) -> tuple[int, str]:
            return order.get(env_id, len(order)), env_id

        for fam in self.families.values():
            fam.envs.sort(key=rank)
        ranked = sorted(self.families.values(), key=lambda f: rank(f.envs[0]))
        self.families = {f.key: f for f in ranked}

    def label(self, run: int, agent: str) -> str:
        """A series' name: the agent, after its run's name when there are several runs."""
        return agent if len(self.runs) == 1 else f"{self.runs[run].name} · {agent}"

    def color(self, run: int, agent: str) -> int:
        """A series' color index, the same in every chart."""
        return self.series.index((run, agent))

    def records(self, run: int, env_id: str, agent: str) -> list[EpisodeRecord]:
        """A series' records on one env."""
        return self.runs[run].records.get((env_id, agent), [])

    def entries(self, fam: Family) -> list[tuple[int, str, str, dict[str, Any]]]:
        """``(run, env, agent, summary)`` of a family, series by series."""
        return [
            (i, env_id, agent, self.summaries[(i, env_id, agent)])
            for i, agent in self.series
            for env_id in fam.envs
            if (i, env_id, agent) in self.summaries
        ]
