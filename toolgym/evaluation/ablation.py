"""The paper's ablation (Table 7): the prompting and alignment techniques, one at a time.

The ToolBench paper measures what each technique adds: demonstrations, the system prompt and
model alignment. An ablation runs the same slice of envs once per :class:`AblationConfig`, and
:func:`ablation_rows` lays the runs side by side: per env the headline metric and the
executable rate, their means, and each configuration's wall time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolgym.evaluation.paper_tables import headline_columns, headline_table
from toolgym.evaluation.report import format_table


@dataclass(frozen=True)
class AblationConfig:
    """One configuration of the ablation.

    Attributes:
        name: the row's name.
        few_shot: retrieved demonstrations (the family's shots, or ``--shots``); else zero-shot.
        system_prompt: the system prompt first.
        constrained: decoding under the action grammar.
        fine_tuned: the model with the LoRA adapter.
    """

    name: str
    few_shot: bool
    system_prompt: bool
    constrained: bool = False
    fine_tuned: bool = False


ABLATION_CONFIGS: tuple[AblationConfig, ...] = (
    AblationConfig("zero-shot", few_shot=False, system_prompt=False),
    AblationConfig("zero-shot + system prompt", few_shot=False, system_prompt=True),
    AblationConfig("few-shot", few_shot=True, system_prompt=False),
    AblationConfig("few-shot + system prompt", few_shot=True, system_prompt=True),
    AblationConfig("few-shot + system prompt + grammar", True, True, constrained=True),
    AblationConfig("fine-tuned, few-shot + system prompt", True, True, fine_tuned=True),
    AblationConfig(
        "fine-tuned, few-shot + system prompt + grammar",
        True,
        True,
        constrained=True,
        fine_tuned=True,
    ),
)
"""Every configuration, in the table's order: demonstrations and the system prompt (the paper's
in-context techniques), then constrained decoding, then the fine-tuned model (alignment)."""


def ablation_configs(*, constrained: bool, fine_tuned: bool) -> list[AblationConfig]:
    """The configurations that can run: without grammar or adapter rows when those are missing.

    >>> [c.name for c in ablation_configs(constrained=False, fine_tuned=False)][-1]
    'few-shot + system prompt'
    >>> len(ablation_configs(constrained=True, fine_tuned=True))
    7
    """
    return [
        c
        for c in ABLATION_CONFIGS
        if (constrained or not c.constrained) and (fine_tuned or not c.fine_tuned)
    ]


@dataclass
class AblationRun:
    """What one configuration's run gave.

    Attributes:
        config: the configuration.
        summaries: the run's per-env summaries (``toolgym.evaluation.results``).
        wall_s: the run's wall time in seconds (model loading excluded).
        episodes: the episodes in its summaries.
    """

    config: AblationConfig
    summaries: list[dict[str, Any]]
    wall_s: float
    episodes: int


def _relabelled(runs: Sequence[AblationRun], metric: str | None) -> list[dict[str, Any]]:
    out = []
    for run in runs:
        for summary in run.summaries:
            row = {k: v for k, v in summary.items() if k not in ("run", "row")}
            row["agent"] = run.config.name
            if metric is not None:
                row["headline"] = [metric] if metric in summary else []
            out.append(row)
    return out


def ablation_rows(runs: Sequence[AblationRun]) -> dict[str, Any]:
    """The ablation table's data: one row per configuration.

    Returns:
        ``{"columns": [...], "headline": rows, "executable": rows}``: the headline rows hold each
        env's headline metric (as the headline table names its columns), the executable rows
        each env's executable rate; both add ``mean``, ``wall_s`` and ``episodes``.

    >>> s = {"env": "toolbench/HomeSearch-v0", "agent": "x", "success": 0.5, "executable": 1.0,
    ...      "headline": ["success"], "episodes": 2}
    >>> runs = [AblationRun(c, [s], 1.0, 2) for c in ABLATION_CONFIGS[:2]]
    >>> table = ablation_rows(runs)
    >>> [(r["configuration"], r["HomeSearch"]) for r in table["executable"]]
    [('zero-shot', 1.0), ('zero-shot + system prompt', 1.0)]
    """
    timing = {r.config.name: {"wall_s": r.wall_s, "episodes": r.episodes} for r in runs}
    headline = _relabelled(runs, None)
    executable = _relabelled(runs, "executable")

    def rows(summaries: list[dict[str, Any]], mean_of: str) -> list[dict[str, Any]]:
        table = []
        for row in headline_table(summaries, mean_of):
            name = row.pop("agent")
            table.append({"configuration": name, **row, **timing[name]})
        return table

    return {
        "columns": headline_columns(headline),
        "exec_columns": headline_columns(executable),
        "headline": rows(headline, "success"),
        "executable": rows(executable, "executable"),
    }


def format_ablation(table: Mapping[str, Any], markdown: bool = False) -> str:
    """:func:`ablation_rows` as two tables (headline metric, then executable rate).

    Args:
        table: :func:`ablation_rows`'s result.
        markdown: Markdown tables instead of aligned text.
    """
    parts = []
    for key, title, columns in (
        ("headline", "headline metric (success, or the family's headline)", table["columns"]),
        ("executable", "executable rate", table["exec_columns"]),
    ):
        names = ["configuration", *columns, "mean", "episodes", "wall_s"]
        rates = [*columns, "mean"]
        rows = table[key]
        text = _markdown(rows, names, rates) if markdown else format_table(rows, names, rates)
        parts.append(f"{title}:\n\n{text}" if markdown else f"{title}:\n{text}")
    return "\n\n".join(parts)


def _markdown(
    rows: Sequence[Mapping[str, Any]], columns: Sequence[str], rates: Sequence[str]
) -> str:
    def cell(column: str, value: Any) -> str:
        if column in rates and isinstance(value, float):
            return f"{100 * value:.1f}%"
        if column == "wall_s" and isinstance(value, float):
            return f"{value:.0f} s"
        return "" if value is None else str(value)

    head = "| " + " | ".join(columns) + " |"
    rule = "|" + "|".join("---" if c == "configuration" else "---:" for c in columns) + "|"
    body = ["| " + " | ".join(cell(c, r.get(c)) for c in columns) + " |" for r in rows]
    return "\n".join([head, rule, *body])
