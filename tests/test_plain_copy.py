"""plain_deepcopy gives what copy.deepcopy gives, and shares nothing that can change."""

from __future__ import annotations

import copy
import random
from typing import Any

from toolgym.tools.plain_copy import MAX_DEPTH, plain_deepcopy


class _Box:
    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Box) and other.value == self.value


def _random_value(rng: random.Random, depth: int, pool: list[Any]) -> Any:
    roll = rng.random()
    if pool and roll < 0.04:
        return rng.choice(pool)  # a container reached twice
    if depth < 6 and roll < 0.3:
        made: Any = [_random_value(rng, depth + 1, pool) for _ in range(rng.randrange(4))]
    elif depth < 6 and roll < 0.6:
        made = {
            rng.choice(["a", 1, 2.5, None, True, ("t", 1)]): _random_value(rng, depth + 1, pool)
            for _ in range(rng.randrange(4))
        }
    elif depth < 6 and roll < 0.65:
        return tuple(_random_value(rng, 6, pool) for _ in range(2))
    elif roll < 0.68:
        return _Box(rng.randrange(3))
    else:
        return rng.choice(["x", "", 0, -1, 2.5, float("inf"), None, False, b"raw"])
    pool.append(made)
    return made


def _containers(value: Any) -> list[Any]:
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            if isinstance(item, list):
                found.append(item)
            stack.extend(item)
        elif isinstance(item, _Box):
            found.append(item)
    return found


def test_it_equals_deepcopy_and_shares_no_container() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        value = _random_value(rng, 0, [])
        copied = plain_deepcopy(value)
        assert copied == copy.deepcopy(value)
        originals = {id(c) for c in _containers(value)}
        assert not originals & {id(c) for c in _containers(copied)}


def test_sharing_within_the_value_is_kept_as_deepcopy_keeps_it() -> None:
    shared = {"id": "a"}
    copied = plain_deepcopy({"first": shared, "second": [shared]})
    assert copied["first"] is copied["second"][0] and copied["first"] is not shared


def test_a_deep_or_cyclic_value_is_left_to_deepcopy() -> None:
    deep: list[Any] = []
    inner = deep
    for _ in range(MAX_DEPTH + 5):
        inner.append([])
        inner = inner[0]
    assert plain_deepcopy(deep) == deep
    cycle: dict[str, Any] = {}
    cycle["self"] = cycle
    copied = plain_deepcopy(cycle)
    assert copied["self"] is copied and copied is not cycle
