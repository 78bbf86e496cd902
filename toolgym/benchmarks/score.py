"""Scores and checkers: how a task judges what an agent did.

A :class:`Checker` scores an :class:`~toolgym.tools.backend.Attempt` against the attempts of the
task's gold, run by the environment from the same starting state, and returns a :class:`Score`:
the reward, whether the task succeeded, whether the action executed, an open dict of metrics and
the error. Dict F1 over search criteria, F1 over response fields, a command compared as text, and
later final-state comparison, LCS, WebShop's reward and precision/recall over calls all fit it.

A family declares which metrics its checkers report (:class:`MetricSpec`); reports and the
paper-layout table aggregate exactly those.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from toolgym.benchmarks.tasks import Task
    from toolgym.tools.backend import Attempt


@dataclass(frozen=True)
class MetricSpec:
    """A metric a family reports, averaged over episodes in summaries.

    Attributes:
        key: its key in ``info["metrics"]``.
        title: its name in the paper-layout table ("success rate").
        percent: whether tables show it as a percentage.
        pooled: for a metric computed over a whole split from counts (Seal-Tools' tool and
            parameter precision, recall and F1), ``(numerator keys, denominator keys)``: the
            summary is the sum of the numerator keys' values over every episode divided by the
            sum of the denominator keys' (0 when that sum is 0), instead of the mean of the
            episodes' values. F1 pools as ``(correct, correct) / (predicted, gold)``.
    """

    key: str
    title: str
    percent: bool = True
    pooled: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    def aggregate(self, metrics: Iterable[Mapping[str, Any]]) -> float:
        """The summary value over episodes' ``info["metrics"]``: the mean, or the pooled ratio.

        >>> p = MetricSpec("tool_p", "tool P", pooled=(("n_correct",), ("n_predicted",)))
        >>> p.aggregate([{"n_correct": 1, "n_predicted": 2}, {"n_correct": 2, "n_predicted": 2}])
        0.75
        """
        rows = list(metrics)
        if self.pooled is None:
            values = [float(m.get(self.key) or 0.0) for m in rows]
            return sum(values) / len(values) if values else 0.0
        tops, bottoms = self.pooled
        top = sum(float(m.get(k) or 0.0) for m in rows for k in tops)
        bottom = sum(float(m.get(k) or 0.0) for m in rows for k in bottoms)
        return top / bottom if bottom > 0 else 0.0


F1_METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("success", "success rate"),
    MetricSpec("f1", "mean F1"),
    MetricSpec("executable", "executable rate"),
)
"""The metrics of the ToolBench tools scored by F1 (the paper's success rate and more)."""


@dataclass(slots=True)
class Score:
    """How an attempt did.

    Attributes:
        reward: the reward the family gives (e.g. the F1).
        success: whether the task is solved.
        executable: whether the action ran (an action that did not run scores 0).
        metrics: the family's other metrics (``precision``, ``recall``, ``f1``, ...).
        error: ``{"category", "message"}`` when the attempt failed or missed, else ``None``.
        prediction: what was compared with the gold (``info["prediction"]``).
    """

    reward: float
    success: bool
    executable: bool
    metrics: Mapping[str, Any] = field(default_factory=dict)
    error: dict[str, str] | None = None
    prediction: Any = None

    def metrics_dict(self) -> dict[str, Any]:
        """``info["metrics"]``: ``executable``, ``success``, then the other metrics."""
        return {"executable": self.executable, "success": self.success, **self.metrics}


class Checker(ABC):
    """Scores attempts at a task (see the module docstring)."""

    runs_gold: ClassVar[bool] = True
    """Whether :meth:`check` needs the attempts of the task's gold (else it gets none)."""
    accepts_others: ClassVar[bool] = False
    """Whether outcomes other than the gold's can succeed (a geometric check within a tolerance:
    blocks anywhere along a vertical line). The contract suite then lets a changed gold succeed,
    and asks that most changes fail."""

    @abstractmethod
    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Score ``attempt`` at ``task``; ``golds`` are the attempts of its gold actions."""

    def needs_gold(self, task: Task) -> bool:
        """Whether scoring ``task`` needs the attempts of its gold (default: :attr:`runs_gold`).

        A checker that scores most tasks on their own may still need the gold for some (a
        Tabletop task without a template is scored against the scene its gold leaves).
        """
        return self.runs_gold

    def validate(self, task: Task, golds: Sequence[Attempt]) -> None:  # noqa: B027
        """Raise ``TaskFileError`` if the task's gold cannot be scored against (default: fine).

        Called once per task when an environment loads it, with the gold attempts (an empty
        sequence when :attr:`runs_gold` is false).
        """
