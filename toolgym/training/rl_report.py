"""The reward curve of a GRPO run, as a PNG and as an HTML page with the test results.

:func:`write_rl_report` reads a run's ``toolgym_rl.json`` (:func:`~toolgym.training.grpo.train_grpo`
writes it) and writes beside it ``reward_curve.png`` and ``rl_report.html``: the mean reward,
success rate and executable rate of each generation batch over the optimizer steps, the share of
GRPO groups whose rewards were all equal, and for whole-episode runs the tool calls per rollout
(each with a moving average, since a batch holds a few completions); whether the reward rose
against its noise (:mod:`toolgym.training.rl_curve`); and the ``test`` results of the base model
and of the trained adapter. The HTML draws the same figure as inline SVG, so the page
stands alone.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from toolgym.evaluation.charts import new_figure, render, style
from toolgym.training.rl_curve import curve_summary, describe

if TYPE_CHECKING:
    from matplotlib.ticker import MaxNLocator

SERIES: tuple[tuple[str, str], ...] = (
    ("reward", "mean reward"),
    ("success", "success rate"),
    ("executable", "executable rate"),
    ("frac_reward_zero_std", "groups with equal rewards"),
)
"""The curves drawn on the left panel, where the history has them: a history key and its label."""

CALLS = ("tool_calls", "tool calls per rollout")
"""The right panel's curve, drawn when the history has it (whole-episode runs)."""

PNG_NAME = "reward_curve.png"
HTML_NAME = "rl_report.html"


def moving_average(values: Sequence[float], window: int) -> list[float]:
    """The mean of each value and the ``window - 1`` before it (fewer at the start).

    >>> moving_average([0, 1, 2, 3], 2)
    [0.0, 0.5, 1.5, 2.5]
    """
    if window < 1:
        raise ValueError(f"window is a whole number >= 1; got {window!r}")
    out = []
    for i in range(len(values)):
        part = values[max(0, i - window + 1) : i + 1]
        out.append(sum(part) / len(part))
    return out


def _has(history: Sequence[dict[str, Any]], key: str) -> bool:
    return any(h.get(key) is not None for h in history)


def _plot(
    ax: Any, steps: list[int], values: list[float], color: str, label: str, window: int
) -> None:
    ax.plot(steps, values, color=color, alpha=0.25, linewidth=1)
    ax.plot(
        steps,
        moving_average(values, window),
        color=color,
        linewidth=2,
        label=f"{label} ({window}-step mean)",
    )
    # a new linear axis ticks with an AutoLocator, a MaxNLocator (set_params takes its options)
    locator = cast("MaxNLocator", ax.xaxis.get_major_locator())
    locator.set_params(integer=True)
    ax.set_xlabel("optimizer step")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8, frameon=False)


def _figure(history: Sequence[dict[str, Any]], window: int) -> Any:
    calls = _has(history, CALLS[0])
    fig, axes = new_figure(11.0 if calls else 7.5, 3.2, columns=2 if calls else 1)
    steps = [int(h["step"]) + 1 for h in history]
    drawn = [(k, key, label) for k, (key, label) in enumerate(SERIES) if _has(history, key)]
    for k, key, label in drawn:
        values = [float(h.get(key) or 0.0) for h in history]
        _plot(axes[0], steps, values, f"C{k}", label, window)
    axes[0].set_ylabel("train batches")
    top = max([1.0, *(float(h.get(key) or 0.0) for h in history for _, key, _ in drawn)])
    axes[0].set_ylim(-0.02, top + 0.02)  # a shaped reward may pass 1 (executable_bonus)
    if calls:
        values = [float(h.get(CALLS[0]) or 0.0) for h in history]
        _plot(axes[1], steps, values, f"C{len(SERIES)}", CALLS[1], window)
        axes[1].set_ylim(bottom=0)
    return fig


def _results_rows(summary: dict[str, Any]) -> list[list[str]]:
    before, after = summary.get("test_before", {}), summary.get("test_after", {})
    rows = []
    for env_id in dict.fromkeys([*before, *after]):
        b, a = before.get(env_id, {}), after.get(env_id, {})
        for key in ("success", "reward", "executable"):
            rows.append(
                [
                    env_id,
                    key,
                    "-" if key not in b else f"{b[key]:.3f}",
                    "-" if key not in a else f"{a[key]:.3f}",
                ]
            )
    return rows


def render_rl_html(summary: dict[str, Any], svg: str) -> str:
    """The report page of a run's summary, with the reward curve ``svg``."""
    config = summary.get("config", {})
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
        for row in _results_rows(summary)
    )
    setup = ", ".join(
        f"{k}={html.escape(str(config.get(k)))}"
        for k in (
            "model",
            "shots",
            "top_k_api",
            "shaping",
            "curriculum",
            "num_generations",
            "prompts_per_step",
            "max_completion_length",
            "temperature",
            "lr",
            "beta",
            "lora_r",
            "seed",
        )
    )
    env_ids = ", ".join(summary.get("env_ids", []))
    lines = describe(summary.get("curve") or curve_summary(summary.get("history", [])))
    curve = "".join(f"<p>{html.escape(line)}.</p>" for line in lines)
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>GRPO on {html.escape(env_ids)}</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em}"
        "</style></head><body>"
        f"<h1>GRPO on execution rewards: {html.escape(env_ids)}</h1>"
        f"<p>{summary.get('steps', 0)} optimizer steps in {summary.get('wall_s', 0):.0f} s on "
        f"{html.escape(str(summary.get('device')))}; {setup}.</p>"
        "<h2>Reward over training</h2>"
        f"{svg}"
        f"{curve}"
        f"<h2>Test split, greedy decoding ({config.get('eval_tasks', 0)} tasks per env)</h2>"
        "<table><tr><th>env</th><th>metric</th><th>base</th><th>trained</th></tr>"
        f"{rows}</table></body></html>\n"
    )


def write_rl_report(summary_path: str | Path, *, window: int = 5) -> dict[str, Path]:
    """Write ``reward_curve.png`` and ``rl_report.html`` beside a run's ``toolgym_rl.json``.

    Args:
        summary_path: the run's ``toolgym_rl.json``.
        window: batches in the moving average.

    Returns:
        ``{"png": path, "html": path}``.

    Raises:
        FileNotFoundError: no such summary.
    """
    path = Path(summary_path)
    summary = json.loads(path.read_text(encoding="utf-8"))
    history = summary.get("history", [])
    with style():
        png = path.parent / PNG_NAME
        figure = _figure(history, window)
        figure.savefig(
            str(png), format="png", dpi=120, bbox_inches="tight", metadata={"Software": None}
        )
        svg = render(figure, "rl-curve", "reward over training steps")
    page = path.parent / HTML_NAME
    page.write_text(render_rl_html(summary, svg), encoding="utf-8")
    return {"png": png, "html": page}
