"""The web shop backend: one shopping session with one goal, and the purchase it makes."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from toolgym.errors import TaskFileError
from toolgym.families.web_shop.world.catalog import (
    Product,
)
from toolgym.families.web_shop.world.goals import PRICE_SEED, GoalSpec, product_goal
from toolgym.families.web_shop.world.reward import Purchase, Reward, get_reward
from toolgym.families.web_shop.world.shop import Session, Shop
from toolgym.tools.backend import Attempt, Backend
from toolgym.tools.budgets import short_repr
from toolgym.tools.errors import NON_EXECUTABLE, PRECONDITION, WRONG_ARGUMENTS, ToolCallError
from toolgym.tools.json_calls import ToolCall


def purchase_of(product: Product, options: Mapping[str, str]) -> Purchase:
    """What the reward reads of a purchase of ``product`` with ``options``."""
    return Purchase(
        title=product.title,
        attributes=product.attributes,
        bullet_points=product.bullet_points,
        description=product.description,
        query=product.query,
        product_category=product.product_category,
        options=tuple(options.values()),
        price=product.price_for(PRICE_SEED),
        nouns=product.nouns,
    )


def goal_of(shop: Shop, data: Any) -> GoalSpec:
    """A goal from a task's setup.

    The setup holds a whole goal (:meth:`GoalSpec.to_data`), or the product and the options it
    asks for (``{"asin": ..., "options": {...}}``), made as the catalog's goals are.

    Raises:
        TaskFileError: neither, or a product or options the shop does not have.
    """
    if not isinstance(data, Mapping):
        raise TaskFileError(f"a web shop goal is an object; got {data!r}")
    if "instruction_text" in data:
        try:
            return GoalSpec.from_data(dict(data))
        except (KeyError, TypeError, ValueError) as e:
            raise TaskFileError(f"a web shop goal needs its fields ({e}); got {data!r}") from None
    product = shop.by_asin.get(str(data.get("asin")))
    if product is None:
        raise TaskFileError(f"the shop has no product {data.get('asin')!r}")
    options = data.get("options") or {}
    goal = product_goal(product, options, shop.seed)
    if goal is not None:
        return goal
    raise TaskFileError(f"product {product.asin} has no goal with options {options!r}")


class WebShopBackend(Backend):
    """One shopping session with one goal.

    Args:
        shop: the shop.
        rich: render pages in WebShop's rich text instead of the simple ``[SEP]`` text.
    """

    handles_faults = True

    def __init__(self, shop: Shop, rich: bool = False) -> None:
        self.shop = shop
        self.rich = rich
        self.goal: GoalSpec | None = None
        self.session = Session(shop, "")
        self.actions: list[str] = []
        self.reward: Reward | None = None

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """A new session for the task's goal.

        Raises:
            TaskFileError: a setup that is not ``{"goal": <goal>}``.
        """
        if not setup or "goal" not in setup:
            raise TaskFileError(
                "a web shop task names its goal: a setup {'goal': {...}} (a whole goal, or a "
                "product's asin and options), or a gold that buys a product, from which the goal "
                f"is made; this task has neither (setup {short_repr(setup, 120)})"
            )
        self.goal = goal_of(self.shop, setup["goal"])
        self.session = Session(self.shop, self.goal.instruction_text)
        self.actions, self.reward = [], None

    def opening(self, instruction: str) -> str:
        """The search page, which shows the goal's instruction."""
        return self.observation()

    def start_key(self) -> Hashable:
        """The goal."""
        return None if self.goal is None else self.goal.instruction_text

    def snapshot(self) -> dict[str, Any]:
        """The session, the actions taken and the reward."""
        return {
            "goal": None if self.goal is None else self.goal.to_data(),
            "session": self.session.state(),
            "actions": list(self.actions),
            "reward": self.reward,
        }

    def restore(self, state: Any) -> None:
        """Back to a :meth:`snapshot`."""
        self.goal = None if state["goal"] is None else GoalSpec.from_data(state["goal"])
        instruction = "" if self.goal is None else self.goal.instruction_text
        self.session = Session(self.shop, instruction)
        self.session.set_state(state["session"])
        self.actions = list(state["actions"])
        self.reward = state["reward"]

    def calls_since(self, state: Any) -> list[ToolCall]:
        """The actions taken since the snapshot ``state``, as calls.

        ``search[...]`` is ``search`` with its ``query``; a click that chooses an option is
        ``choose_option`` with the option's group and value (``{"size": "medium"}``), whatever the
        click's spelling; any other click is ``click`` with its ``target``.
        """
        done = len(state["actions"]) if isinstance(state, Mapping) else 0
        calls = []
        for action in self.actions[done:]:
            name, _, rest = action.partition("[")
            argument = rest.rsplit("]", 1)[0]
            if name.strip().lower() == "search":
                calls.append(ToolCall("search", {"query": argument}))
            else:
                calls.append(ToolCall("click", {"target": argument}))
        before = state["session"].get("options", {}) if isinstance(state, Mapping) else {}
        chosen = {k: v for k, v in self.session.options.items() if before.get(k) != v}
        if chosen:
            calls.append(ToolCall("choose_option", chosen))
        return calls

    def observation(self) -> str:
        """The current page (the done page ends with the score, as WebShop's does)."""
        text = self.session.observation(self.rich)
        if self.session.page == "done" and self.reward is not None:
            sep = "\n" if self.rich else " [SEP] "
            text += f"{sep}Your score (min 0.0, max 1.0){sep}{self.reward.reward}"
        return text

    def available(self) -> dict[str, Any]:
        """``{"has_search_bar", "clickables"}``, as WebShop's ``get_available_actions``."""
        return {
            "has_search_bar": self.session.has_search_bar(),
            "clickables": self.session.clickables(),
        }

    def act(self, action: str) -> bool:
        """Take one action; whether it bought something.

        Raises:
            ToolCallError: the action was not carried out (the page is unchanged): not an action,
                not clickable here, after the purchase, or stopped by a service fault.
        """
        name = action.strip().split("[", 1)[0].strip() or "action"
        if self.faults is not None:
            return bool(self.faults.around_call(name, lambda: self._act(action)))
        return self._act(action)

    def _act(self, action: str) -> bool:
        result = self.session.step(action)
        if not result.valid:
            category = WRONG_ARGUMENTS
            if self.session.page == "done":
                category = PRECONDITION
            elif "an action is" in result.message or "the actions are" in result.message:
                category = NON_EXECUTABLE
            raise ToolCallError(category, result.message)
        self.actions.append(action.strip())
        if result.done:
            assert self.goal is not None and self.session.bought is not None
            asin, options = self.session.bought
            product = self.shop.by_asin[asin]
            self.reward = get_reward(purchase_of(product, options), self.goal.goal)
        return result.done

    def attempt(self) -> Attempt:
        """What was bought (if anything) and its reward."""
        bought = self.session.bought
        outcome = {
            "bought": bought is not None,
            "asin": None if bought is None else bought[0],
            "options": None if bought is None else dict(bought[1]),
            "reward": None if self.reward is None else self.reward.to_info(),
        }
        calls = tuple(a.split("[", 1)[0] for a in self.actions)
        return Attempt(outcome, calls, None, "\n".join(self.actions), self)
