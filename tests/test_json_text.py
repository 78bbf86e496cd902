"""JSON text at orjson's speed is Python's json text: the same bytes, values, errors and bounds."""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolgym.simulators import json_text
from toolgym.simulators.json_text import dumps_compact, fits, loads, loads_utf8, orjson_agrees

_NUMBERS = (
    st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.floats(min_value=1e-12, max_value=1e-3)  # where orjson writes floats otherwise
    | st.sampled_from([1e-05, -7e-09, 1e16, 2.5e-300, math.nan, math.inf, -math.inf, -0.0])
)
_TEXTS = st.text(max_size=20) | st.sampled_from(["", "é\u2028\x00\x7f", "\ud800", "0.0000", "e-"])
_VALUES = st.recursive(
    st.none() | st.booleans() | _NUMBERS | _TEXTS,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(_TEXTS, inner, max_size=5)
        | st.dictionaries(st.integers(-5, 5) | st.booleans(), inner, max_size=3)
        | st.tuples(inner, inner)
    ),
    max_leaves=40,
)


def _outcome(function: Any, *args: Any) -> tuple[str, Any]:
    """What a call returns, or the type of what it raises."""
    try:
        return ("value", function(*args))
    except Exception as e:
        return ("raised", type(e).__name__)


def _same_value(a: Any, b: Any) -> bool:
    """Equal, with the same types all the way down (1 is not 1.0) and NaN equal to NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same_value(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def test_the_installed_orjson_is_used() -> None:
    """The requirement is met (else every function here is json's own speed)."""
    assert orjson_agrees()


@settings(max_examples=600, deadline=None)
@given(value=_VALUES)
def test_dumps_compact_writes_jsons_bytes(value: Any) -> None:
    reference = _outcome(lambda v: json.dumps(v, ensure_ascii=False, separators=(",", ":")), value)
    if reference[0] == "value":
        reference = _outcome(str.encode, reference[1])  # a lone surrogate fails here
    assert _outcome(dumps_compact, value) == reference


@settings(max_examples=600, deadline=None)
@given(value=_VALUES, spaced=st.booleans())
def test_loads_reads_what_json_reads(value: Any, spaced: bool) -> None:
    text = json.dumps(value, ensure_ascii=False, separators=None if spaced else (",", ":"))
    expected = json.loads(text)
    assert _same_value(loads(text), expected)
    body = text.encode("utf-8", "surrogatepass")  # a lone surrogate: bytes that are not UTF-8
    reference = _outcome(lambda b: json.loads(b.decode("utf-8", "replace")), body)
    got = _outcome(loads_utf8, body)
    assert got[0] == reference[0]
    assert _same_value(got[1], reference[1])


@pytest.mark.parametrize(
    "text",
    [
        "12345678901234567890123",
        "-9223372036854775809",
        "[18446744073709551616, 1]",
        "1e400",
        "[NaN, -Infinity]",
        '"\\ud800"',
        '{"a": 1, "a": 2}',
        "\ufeff[1]",
        "[1,]",
        "",
        "[" * 3000 + "]" * 3000,
        '"a\x00b"',
        "0.1e1",
    ],
)
def test_loads_agrees_on_what_orjson_reads_otherwise(text: str) -> None:
    expected = _outcome(json.loads, text)
    got = _outcome(loads, text)
    assert got[0] == expected[0] and _same_value(got[1], expected[1])
    got = _outcome(loads_utf8, text.encode())
    assert got[0] == expected[0] and _same_value(got[1], expected[1])


@settings(max_examples=600, deadline=None)
@given(value=_VALUES, slack=st.integers(-40, 40))
def test_fits_never_says_yes_to_a_text_past_the_cap(value: Any, slack: int) -> None:
    try:
        size = len(json.dumps(value, ensure_ascii=False, default=str))
    except (TypeError, ValueError):
        assert not fits(value, 10**9)  # keys json renders as text and orjson refuses
        return
    cap = max(size + slack, 0)
    if fits(value, cap):
        assert size <= cap


def test_fits_is_exact_on_a_long_list_of_floats() -> None:
    value = {"list": [21.25] * 5000}
    size = len(json.dumps(value, ensure_ascii=False))
    assert fits(value, size) and not fits(value, size - 1)


def test_without_orjson_everything_is_jsons(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_text, "orjson", None)
    value = {"t": [1e-05, 2**80, math.inf], "é": None}
    assert (
        dumps_compact(value)
        == json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
    )
    assert loads('{"n": 1}') == {"n": 1} and loads_utf8(b"[1.5]") == [1.5]
    assert not fits(value, 10**9)


def test_an_orjson_that_formats_floats_otherwise_is_not_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Drifted:
        """orjson, but writing exponents without their sign (``1e16``)."""

        OPT_PASSTHROUGH_DATACLASS = OPT_PASSTHROUGH_DATETIME = 0
        JSONDecodeError = ValueError

        @staticmethod
        def dumps(value: Any, option: int = 0) -> bytes:
            return json.dumps(value, separators=(",", ":")).replace("e+", "e").encode()

        loads = staticmethod(json.loads)

    monkeypatch.setattr(json_text, "orjson", Drifted)
    json_text.orjson_agrees.cache_clear()
    try:
        assert not orjson_agrees()
        assert dumps_compact(1e16) == b"1e+16"
    finally:
        monkeypatch.undo()
        json_text.orjson_agrees.cache_clear()
    assert orjson_agrees()


class _OwnItems(dict):  # type: ignore[type-arg]
    def items(self) -> Any:
        return [("x", 1), ("y", 2)]


class _OwnIter(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        return iter(range(10))


def _moved() -> OrderedDict[str, int]:
    ordered = OrderedDict(a=1, b=2)
    ordered.move_to_end("a")
    return ordered


@pytest.mark.parametrize("value", [_OwnItems(a=1), _OwnIter([1]), _moved(), {"k": _moved()}])
def test_subclasses_are_read_as_json_reads_them(value: Any) -> None:
    """Python's json reads a subclass through its own methods; orjson would read its storage."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert dumps_compact(value) == text.encode()
    assert not fits(value, 10**9)  # not known: the caller asks json


def test_loads_leaves_deep_texts_to_json() -> None:
    """Where orjson reads 1,024 levels, json runs out of stack first (sooner when deep)."""
    for depth in (900, 1000, 1024):
        text = "[" * depth + "]" * depth
        expected = _outcome(json.loads, text)
        assert _outcome(loads, text) == expected
        assert _outcome(loads_utf8, text.encode()) == expected

    def nested(frames: int, text: str) -> tuple[tuple[str, Any], tuple[str, Any]]:
        if frames:
            return nested(frames - 1, text)
        return _outcome(json.loads, text), _outcome(loads, text)

    expected, got = nested(300, "[" * 800 + "]" * 800)
    assert got == expected and expected[0] == "raised"


def test_a_null_is_written_by_orjson_when_it_is_none() -> None:
    value = {"rain": None, "temp": [1.5, None], "nan": [math.nan]}
    assert dumps_compact(value) == json.dumps(value, separators=(",", ":")).encode()
    del value["nan"]
    assert dumps_compact(value) == b'{"rain":null,"temp":[1.5,null]}'
