"""A scripted expert that shops like a person, for gold actions and demonstrations.

It searches with the goal's keywords (the instruction without its opening words, its options and
its price), pages through the results until it sees the product the goal was made from (it knows
which: it is the oracle), opens it, sometimes reads its description or features first, picks the
goal's options and buys. When the product is not among the 50 hits, it searches again with the
product's title. Every action it writes runs on a real session, so its trajectory is valid by
construction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolgym.families.web_shop.world.goals import GoalSpec
from toolgym.families.web_shop.world.shop import PRODUCT_WINDOW, Session, Shop
from toolgym.simulators.seeding import stable_rng

_OPENING = re.compile(
    r"^(i need|i am looking for|i want|find me|i'm looking for|can you find|i would like|"
    r"show me)\s+(a pair of|some|an|a)?\s*"
)


@dataclass(frozen=True)
class Trajectory:
    """The expert's actions for a goal, and the pages it saw before each."""

    actions: tuple[str, ...]
    observations: tuple[str, ...]


def keywords(goal: GoalSpec) -> str:
    """The words a person would search for.

    They are the instruction without its opening words, options and price.

    >>> from toolgym.families.web_shop.world.reward import Goal
    >>> g = Goal("t", "q", "c", (), (), 1e6)
    >>> keywords(GoalSpec("B0", "i need a red shoe that is soft with size: 8", g, {}))
    'red shoe that is soft'
    """
    text = goal.instruction_text.split(" with ")[0].split(", and price lower than")[0]
    return _OPENING.sub("", text.lower()).strip()


class ExpertFailed(RuntimeError):
    """The expert could not buy the goal's product (a catalog too unlike its goals)."""


def play(shop: Shop, goal: GoalSpec, inspect: bool | None = None) -> Trajectory:
    """The expert's trajectory for ``goal`` in ``shop``.

    Args:
        shop: the shop.
        goal: the goal (the expert buys the product it was made from).
        inspect: whether it reads a sub-page before choosing options (``None``: drawn from the
            goal, about one time in three).

    Raises:
        ExpertFailed: the product cannot be found by search.
    """
    session = Session(shop, goal.instruction_text)
    actions: list[str] = []
    observations: list[str] = []

    def act(action: str) -> None:
        observations.append(session.observation())
        result = session.step(action)
        if not result.valid:
            raise ExpertFailed(f"{action}: {result.message}")
        actions.append(action)

    product = shop.by_asin.get(goal.asin)
    if product is None:
        raise ExpertFailed(f"the catalog has no product {goal.asin}")
    for query in (keywords(goal), product.title.lower()):
        words = [w for w in re.split(r"[^a-z0-9.'\-]+", query) if w]
        hits = shop.search(words)
        if goal.asin in hits:
            break
    else:
        raise ExpertFailed(f"no search finds {goal.asin}")
    act(f"search[{' '.join(words)}]")
    for _ in range(hits.index(goal.asin) // PRODUCT_WINDOW):
        act("click[next >]")
    act(f"click[{goal.asin.lower()}]")
    if inspect is None:
        inspect = stable_rng("web_shop", "expert", goal.instruction_text).random() < 1 / 3
    if inspect:
        act(f"click[{'features' if product.bullet_points else 'description'}]")
        act("click[< prev]")
    wanted = list(goal.goal_options.values())
    if not wanted:  # a human goal names option values without their groups
        offered = {v for values in product.options.values() for v in values}
        wanted = [v for v in goal.goal.options if isinstance(v, str) and v.lower() in offered]
    for value in wanted:
        act(f"click[{value.lower()}]")
    act("click[buy now]")
    return Trajectory(tuple(actions), tuple(observations))
