"""The step's bounds take one C-level encoding where they can, with the outputs of the walk."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolgym.envs.bounds import _bound_walked, bound_info, bound_text, bound_value
from toolgym.tools.budgets import short_repr

_SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=8)
        | st.dictionaries(st.text(max_size=6), inner, max_size=6)
        | st.tuples(inner, inner)
    ),
    max_leaves=60,
)


def _reference_value(value: Any, cap: int) -> Any:
    """What a value was bounded to before the fast path: texts cut, containers walked."""
    if isinstance(value, str):
        return bound_text(value, cap)
    if value is None or isinstance(value, bool | int | float):
        return value
    return _bound_walked(value, cap)


def _reference_info(info: dict[str, Any], cap: int) -> dict[str, Any]:
    out = {}
    for key, value in info.items():
        if key == "error" and isinstance(value, dict):
            out[key] = {k: _reference_value(v, cap) for k, v in value.items()}
        else:
            out[key] = _reference_value(value, cap)
    return out


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, default=repr, sort_keys=True) == json.dumps(
        b, default=repr, sort_keys=True
    )


@settings(max_examples=300, deadline=None)
@given(value=_VALUES, cap=st.sampled_from([20, 60, 200, 65_536]))
def test_a_value_is_bounded_as_the_walk_bounds_it(value: Any, cap: int) -> None:
    assert _same(bound_value(value, cap), _reference_value(value, cap))


@settings(max_examples=300, deadline=None)
@given(
    info=st.dictionaries(st.text(max_size=8), _VALUES, max_size=6),
    message=st.text(max_size=300),
    cap=st.sampled_from([30, 120, 65_536]),
)
def test_an_info_is_bounded_as_the_walk_bounds_it(info: dict, message: str, cap: int) -> None:
    info["error"] = {"category": "runtime_error", "message": message}
    expected = _reference_info(copy.deepcopy(info), cap)
    assert _same(bound_info(info, cap), expected)


def test_large_and_unrenderable_values_keep_their_bounds() -> None:
    cap = 1_000
    many = list(range(50_000))  # past the two-level guard: walked, cut at the cap
    assert bound_value(many, cap) == _reference_value(many, cap)
    assert len(bound_value(many, cap)) == cap
    nested = {"rows": [["x" * 10] * 200 for _ in range(200)]}  # few items on top, much text below
    assert bound_value(nested, cap) == _reference_value(nested, cap)
    assert len(bound_value(nested, cap)) == cap
    cycle: list[Any] = []
    cycle.append(cycle)
    assert bound_value(cycle, cap) == short_repr(cycle, cap)
    keys = {(1, 2): "x"}
    assert bound_value(keys, cap) == short_repr(keys, cap)
    info = bound_info({"a": keys, "b": [1, 2], "c": "y" * 5_000}, cap)
    assert info["b"] == [1, 2] and len(info["c"]) == cap and info["a"] == short_repr(keys, cap)


def test_an_info_that_fits_is_returned_unchanged() -> None:
    info = {"error": None, "step": 3, "result": {"ids": [1, 2, 3]}, "score": 0.5}
    assert bound_info(info) is info and info["result"] == {"ids": [1, 2, 3]}
