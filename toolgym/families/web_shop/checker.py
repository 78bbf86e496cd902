"""Scoring a shopping episode: WebShop's reward of what was bought.

The reward is the purchase's (:func:`toolgym.families.web_shop.world.reward.get_reward`), 0 when
nothing was bought. Success is reported two ways: ``bought`` is the original's (anything was
bought), ``success`` is a reward of 1. Invalid actions are no-ops, as in WebShop, so an episode
is always executable; the components of the reward are in the metrics.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolgym.benchmarks.score import Checker, Score
from toolgym.benchmarks.tasks import Task
from toolgym.tools.backend import Attempt
from toolgym.tools.errors import GOAL_NOT_MET

_COMPONENTS = (
    "r_type",
    "r_att",
    "r_option",
    "r_price",
    "title_score",
    "query_match",
    "category_match",
)


class PurchaseReward(Checker):
    """WebShop's reward of the purchase (see the module docstring)."""

    runs_gold = False

    def check(self, task: Task, attempt: Attempt, golds: Sequence[Attempt]) -> Score:
        """Score what was bought."""
        outcome: dict[str, Any] = attempt.outcome if isinstance(attempt.outcome, dict) else {}
        components = outcome.get("reward") or {}
        bought = bool(outcome.get("bought"))
        reward = float(components.get("reward", 0.0)) if bought else 0.0
        metrics: dict[str, Any] = {"reward": reward, "bought": bought}
        metrics.update({k: components.get(k) for k in _COMPONENTS if k in components})
        error = None if attempt.error is None else attempt.error.to_info()
        if error is None and not bought:
            error = {"category": GOAL_NOT_MET, "message": "nothing was bought"}
        elif error is None and reward < 1.0:
            missing = [
                name
                for name, key in (
                    ("the product type", "r_type"),
                    ("attributes", "r_att"),
                    ("options", "r_option"),
                    ("the price", "r_price"),
                )
                if components.get(key) not in (None, True) and components.get(key) != 1.0
            ]
            error = {
                "category": GOAL_NOT_MET,
                "message": f"bought {outcome.get('asin')} for a reward of {reward:.2f}; short on "
                f"{', '.join(missing) or 'the goal'}",
            }
        prediction = (
            None if not bought else {"asin": outcome.get("asin"), "options": outcome.get("options")}
        )
        return Score(reward, reward == 1.0, True, metrics, error, prediction)
