"""Charts as inline SVG: grouped bars, stacked bars and histograms, the same bytes every time.

Charts are drawn by matplotlib on its SVG canvas, without :mod:`matplotlib.pyplot` (so no global
backend is chosen and nothing is left open). Text stays text (``svg.fonttype='none'``), the ids
matplotlib hashes are salted with a constant and the date is left out, so one input gives one
output. :func:`render` turns a figure into an ``<svg>`` element that can sit in an HTML page
beside others: no XML prolog, no metadata, every id prefixed with the chart's own.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

from toolgym.errors import DependencyNotInstalled

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

PALETTE: tuple[str, ...] = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)
"""Series colors (matplotlib's ``tab10``), in order."""

NO_ERROR_COLOR = "#c7e9c0"
"""The color of the episodes without an error in stacked error bars."""

STYLE: dict[str, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "toolgym",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Arial", "Helvetica"],
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.color": "#e4e4e4",
    "text.usetex": False,
}
"""The rc settings every chart is drawn under."""


def color(index: int) -> str:
    """The color of series ``index`` (the palette repeats)."""
    return PALETTE[index % len(PALETTE)]


def plain(text: str) -> str:
    """``text`` shown as it is: a ``$`` would start matplotlib's math mode."""
    return text.replace("$", r"\$")


@contextlib.contextmanager
def style() -> Iterator[None]:
    """Draw under :data:`STYLE` (matplotlib is imported here, so only reports need it)."""
    try:
        import matplotlib
    except ImportError:  # pragma: no cover - a dependency of the package
        raise DependencyNotInstalled(
            "HTML reports draw their charts with matplotlib: pip install 'matplotlib>=3.8'"
        ) from None
    with matplotlib.rc_context(cast("Any", STYLE)):
        yield


def new_figure(width: float, height: float, columns: int = 1) -> tuple[Figure, list[Axes]]:
    """A figure of ``width`` x ``height`` inches with ``columns`` axes side by side."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    axes = [fig.add_subplot(1, columns, i + 1) for i in range(columns)]
    return fig, axes


_ID = re.compile(r'\sid="([^"]*)"')
_REF = re.compile(r'(url\(#|href="#)([^")]+)')


def render(fig: Figure, chart_id: str, label: str) -> str:
    """The figure as an ``<svg>`` element for an HTML page.

    Args:
        fig: the figure (drawn under :func:`style`).
        chart_id: a prefix for its ids, unique in the page.
        label: what it shows, for readers that do not see it (``aria-label``).

    Returns:
        The element: ids other charts could share are prefixed, ids nothing refers to dropped.
    """
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)
    referenced = {m.group(2) for m in _REF.finditer(svg)}

    def rename(match: re.Match[str]) -> str:
        name = match.group(1)
        return f' id="{chart_id}-{name}"' if name in referenced else ""

    svg = _ID.sub(rename, svg)
    svg = _REF.sub(lambda m: f"{m.group(1)}{chart_id}-{m.group(2)}", svg)
    size = re.search(r' width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    if size is not None:  # its drawn size, narrower on a narrow page
        width = float(size.group(1)) * 4 / 3
        svg = svg.replace(size.group(0), f' class="chart" style="width:{width:.0f}px"', 1)
    escaped = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return svg.replace("<svg", f'<svg role="img" aria-label="{escaped}"', 1).strip()


def _integers() -> Any:
    """Ticks on whole numbers only (counts)."""
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _percent_axis(ax: Axes) -> None:
    from matplotlib.ticker import PercentFormatter

    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def grouped_bars(
    groups: Sequence[str],
    series: Sequence[tuple[int, Sequence[float | None]]],
    *,
    ylabel: str,
    percent: bool,
    chart_id: str,
    label: str,
) -> str:
    """Bars grouped on the x axis: one group per entry of ``groups``, one bar per series.

    Args:
        groups: the x labels (env columns).
        series: ``(color index, one value per group)``; ``None`` draws no bar.
        ylabel: the y axis' label (the metric).
        percent: values are rates: the axis runs from 0 to 100%.
        chart_id: see :func:`render`.
        label: see :func:`render`.
    """
    n = max(1, len(series))
    with style():
        width = min(9.0, max(3.2, 1.2 + 0.32 * len(groups) * n))
        fig, (ax,) = new_figure(width, 2.7)
        bar = 0.8 / n
        for k, (index, values) in enumerate(series):
            for g, value in enumerate(values):
                if value is None:
                    continue
                x = g - 0.4 + bar * (k + 0.5)
                ax.bar(x, value, bar * 0.92, color=color(index))
                shown = f"{100 * value:.0f}%" if percent else f"{value:.2f}"
                ax.annotate(
                    shown,
                    (x, value),
                    xytext=(0, 2),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize=7 if n < 6 else 6,
                )
        ax.set_xticks(range(len(groups)), [plain(g) for g in groups])
        ax.set_xlim(-0.6, len(groups) - 0.4)
        ax.set_ylabel(plain(ylabel))
        ax.grid(axis="x", visible=False)
        if percent:
            ax.set_ylim(0, 1.12)
            _percent_axis(ax)
        return render(fig, chart_id, label)


def stacked_barh(
    labels: Sequence[str],
    stacks: Sequence[tuple[str, str, Sequence[int]]],
    *,
    xlabel: str,
    chart_id: str,
    label: str,
) -> str:
    """Horizontal bars, one per label, each stacked from ``stacks`` with a legend.

    Args:
        labels: one per bar, top to bottom.
        stacks: ``(name, color, one count per bar)``, stacked left to right.
        xlabel: the x axis' label.
        chart_id: see :func:`render`.
        label: see :func:`render`.
    """
    with style():
        fig, (ax,) = new_figure(7.5, 0.9 + 0.26 * max(1, len(labels)) + 0.18 * len(stacks))
        ys = list(range(len(labels)))
        left = [0] * len(labels)
        for name, fill, counts in stacks:
            ax.barh(ys, counts, 0.7, left=left, color=fill, label=plain(name))
            left = [a + b for a, b in zip(left, counts, strict=True)]
        ax.set_yticks(ys, [plain(t) for t in labels])
        ax.invert_yaxis()
        ax.set_xlabel(plain(xlabel))
        ax.grid(axis="y", visible=False)
        ax.xaxis.set_major_locator(_integers())
        if stacks:
            ax.legend(
                loc="upper left",
                bbox_to_anchor=(1.01, 1.0),
                frameon=False,
                fontsize=8,
            )
        return render(fig, chart_id, label)


def histograms(
    panels: Sequence[tuple[str, Sequence[tuple[int, Sequence[float]]], Sequence[float]]],
    *,
    chart_id: str,
    label: str,
    integer: bool = False,
) -> str:
    """Histograms side by side, one panel per entry, the series' bars next to each other.

    Args:
        panels: ``(x label, [(color index, values), ...], bin edges)``; series without values
            are left out.
        chart_id: see :func:`render`.
        label: see :func:`render`.
        integer: the values are counts (integer ticks on the x axis).
    """
    with style():
        fig, axes = new_figure(min(9.0, 3.0 * len(panels)), 2.3, len(panels))
        for ax, (xlabel, series, bins) in zip(axes, panels, strict=True):
            drawn = [(i, list(v)) for i, v in series if len(v)]
            if drawn:
                ax.hist(
                    [v for _, v in drawn],
                    bins=list(bins),
                    color=[color(i) for i, _ in drawn],
                    rwidth=0.9,
                )
            ax.set_xlabel(plain(xlabel))
            ax.set_ylabel("episodes")
            ax.grid(axis="x", visible=False)
            ax.yaxis.set_major_locator(_integers())
            if integer:
                ax.xaxis.set_major_locator(_integers())
        fig.subplots_adjust(wspace=0.35)
        return render(fig, chart_id, label)


def value_bins(values: Sequence[float], count: int = 10) -> list[float]:
    """``count`` equal bins over [0, 1], widened to hold every value.

    >>> value_bins([0.0, 0.5, 1.0], 4)
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    finite = [v for v in values if math.isfinite(v)]
    low = min([0.0, *finite])
    high = max([1.0, *finite])
    return [low + (high - low) * i / count for i in range(count + 1)]


def step_bins(values: Sequence[int], most: int = 30) -> list[float]:
    """Bins centred on whole numbers of steps, the fewest to the most (at most ``most`` bins).

    >>> step_bins([1, 3])
    [0.5, 1.5, 2.5, 3.5]
    """
    low, high = min([1, *values]), max([1, *values])
    width = max(1, math.ceil((high - low + 1) / most))
    edges = [low - 0.5]
    while edges[-1] < high + 0.5:
        edges.append(edges[-1] + width)
    return edges
