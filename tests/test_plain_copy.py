"""plain_deepcopy gives what copy.deepcopy gives, and shares nothing that can change."""

from __future__ import annotations

import copy
import random
from typing import Any

from toolgym.tools.plain_copy import MAX_DEPTH, PlainSnapshot, plain_deepcopy


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


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (floats by their text: -0.0, nan)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return repr(a) == repr(b)
    if isinstance(a, dict):
        return list(a) == list(b) and all(
            _same(x, y) and _same(a[x], b[y]) for x, y in zip(a, b, strict=True)
        )
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def test_a_snapshot_copies_what_plain_deepcopy_copied_when_it_was_made() -> None:
    rng = random.Random(12)
    made = 0
    for _ in range(3000):
        value = _random_value(rng, 0, [])
        if isinstance(value, dict) and rng.random() < 0.5:
            value[rng.choice(["z", 7])] = rng.choice([-0.0, float("nan"), 10**30, True, (1, "t")])
        expected = plain_deepcopy(value)
        snapshot = PlainSnapshot.of(value)
        if not isinstance(snapshot, PlainSnapshot):  # a _Box, a shared container: deep-copied
            assert snapshot == copy.deepcopy(value)
            continue
        made += 1
        first, second = snapshot.copy(), plain_deepcopy(snapshot)
        assert _same(first, expected) and _same(second, expected)
        ids = [{id(c) for c in _containers(v)} for v in (value, first, second)]
        assert not (ids[0] & ids[1] or ids[0] & ids[2] or ids[1] & ids[2])
        if isinstance(value, dict | list):
            value.clear()  # the snapshot keeps no reference to the value
            assert _same(snapshot.copy(), expected)
    assert made > 1000


def test_a_snapshot_keeps_a_dicts_key_order_and_key_types() -> None:
    value = {2: "b", "1": [1, 1.0, True], 1.5: {"x": None}, b"k": (), None: "n"}
    copied = PlainSnapshot.of(value).copy()
    assert list(copied) == list(value)
    assert [type(k) for k in copied] == [type(k) for k in value]
    assert _same(copied, value)
