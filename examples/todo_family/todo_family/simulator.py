"""The to-do list world: numbered items, each open or done."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

CHORES = (
    "buy bread",
    "call mom",
    "water the plants",
    "pay the rent",
    "book a dentist appointment",
    "return the library books",
    "clean the fridge",
    "renew the passport",
)
"""The items a seeded list starts with are drawn from these."""


@dataclass
class Item:
    """One entry of the list."""

    item_id: int
    text: str
    done: bool = False


class TodoList:
    """A to-do list that starts with ``items``, or with chores drawn from ``seed``.

    Args:
        seed: seed of the starting items when none are given (two or three chores).
        items: the starting items (a task's own setup).
    """

    def __init__(self, seed: int = 0, items: tuple[str, ...] | None = None) -> None:
        if items is None:
            rng = np.random.default_rng(seed)
            picks = rng.choice(len(CHORES), size=int(rng.integers(2, 4)), replace=False)
            items = tuple(CHORES[int(k)] for k in picks)
        self.items: dict[int, Item] = {i + 1: Item(i + 1, text) for i, text in enumerate(items)}
        self.next_id = len(items) + 1

    def add(self, text: str) -> Item:
        """Append an open item."""
        item = Item(self.next_id, text)
        self.items[item.item_id] = item
        self.next_id += 1
        return item

    def complete(self, item_id: int) -> Item:
        """Mark an item done (``KeyError`` if there is none)."""
        self.items[item_id].done = True
        return self.items[item_id]

    def remove(self, item_id: int) -> Item:
        """Delete an item (``KeyError`` if there is none)."""
        return self.items.pop(item_id)

    def state(self) -> tuple[tuple[str, bool], ...]:
        """The list as ``(text, done)`` pairs, in id order: what a task is graded on."""
        return tuple((item.text, item.done) for _, item in sorted(self.items.items()))

    def snapshot(self) -> dict[str, Any]:
        """A copy of the list."""
        return {"items": copy.deepcopy(self.items), "next_id": self.next_id}

    def restore(self, state: dict[str, Any]) -> None:
        """Return to a snapshot."""
        self.items = copy.deepcopy(state["items"])
        self.next_id = state["next_id"]
