"""Seal-Tools' call metrics: parsing, counting (first and one-to-one), scores, references, SoPR.

Every expected number is worked out by hand in the comments next to it.
"""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolgym.benchmarks.call_metrics import (
    MAX_DEPTH,
    CallCounts,
    contains_reference,
    count_calls,
    episode_metrics,
    is_reference,
    parse_calling_list,
    resolve_references,
    scores,
)
from toolgym.families.rapid_api.checker import sopr_precheck

# dev-difficult-200 (reference §9.2): 3 calls; parameters 2 + 4 + 2 = 8; the third call's
# `location` takes searchCrop's first response field, API_call_1.
GOLD: list[dict[str, Any]] = [
    {
        "api": "getPlantingInstructions",
        "parameters": {"crop_name": "Tomatoes", "soil_type": "loam"},
        "responses": ["API_call_0"],
    },
    {
        "api": "searchCrop",
        "parameters": {
            "crop_name": "Tomatoes",
            "Growth_stage": "flowering",
            "Nutrient_requirements": "Phosphorus",
            "Disease_resistance": "Bacterial",
        },
        "responses": ["API_call_1", "API_call_2", "API_call_3", "API_call_4", "API_call_5"],
    },
    {
        "api": "getAvailableResources",
        "parameters": {"location": "API_call_1", "resource_type": "timber"},
        "responses": ["API_call_6"],
    },
]


def gold_copy() -> list[dict[str, Any]]:
    return copy.deepcopy(GOLD)


def counts(*values: int) -> CallCounts:
    # (instances, correct_format, gold_api, predict_api, correct_api, gold_param,
    #  predict_param, correct_param)
    return CallCounts(*values)


# (a) dev-difficult-200 ---------------------------------------------------------------------------


def test_perfect_prediction_parsed_from_single_quoted_text() -> None:
    text = "Here is the list:\n" + json.dumps(GOLD, indent=2).replace('"', "'") + "\nDone."
    predicted = parse_calling_list(text)
    assert predicted == GOLD
    got = count_calls(predicted, GOLD)
    # 3 calls, all matched; 8 parameters, all equal
    assert got == counts(1, 1, 3, 3, 3, 8, 8, 8)
    assert scores(got) == {
        "format_acc": 1.0,
        "tool_p": 1.0,
        "tool_r": 1.0,
        "tool_f1": 1.0,
        "param_p": 1.0,
        "param_r": 1.0,
        "param_f1": 1.0,
    }
    assert count_calls(predicted, GOLD, "one_to_one") == got


def test_missing_nested_call() -> None:
    predicted = gold_copy()[:2]
    got = count_calls(predicted, GOLD)
    # predicted: 2 calls, 2 + 4 = 6 parameters, all correct; gold: 3 calls, 8 parameters
    assert got == counts(1, 1, 3, 2, 2, 8, 6, 6)
    s = scores(got)
    assert s["tool_p"] == 1.0  # 2 / 2
    assert s["tool_r"] == pytest.approx(2 / 3)  # 2 / 3
    assert s["tool_f1"] == pytest.approx(0.8)  # 2 * 1 * 2/3 / (1 + 2/3) = (4/3) / (5/3)
    assert s["param_p"] == 1.0  # 6 / 6
    assert s["param_r"] == 0.75  # 6 / 8
    assert s["param_f1"] == pytest.approx(6 / 7)  # 2 * 0.75 / 1.75 = 1.5 / 1.75
    metrics = episode_metrics(got)
    assert metrics["tool_r"] == pytest.approx(2 / 3)
    assert metrics["n_gold_api"] == 3 and metrics["n_predict_param"] == 6
    assert metrics["n_instances"] == 1 and metrics["n_correct_format"] == 1


def test_wrong_parameter_value() -> None:
    predicted = gold_copy()
    predicted[0]["parameters"]["soil_type"] = "clay"
    got = count_calls(predicted, GOLD)
    # 8 predicted parameters, 7 correct
    assert got == counts(1, 1, 3, 3, 3, 8, 8, 7)
    s = scores(got)
    assert s["param_p"] == 0.875 and s["param_r"] == 0.875  # 7 / 8 each
    assert s["param_f1"] == pytest.approx(0.875)  # P == R, so F1 == P
    assert s["tool_f1"] == 1.0


@pytest.mark.parametrize(
    ("value", "correct"),
    [
        (16.7, 1),  # str(16.7) == "16.7"
        ("16.7", 1),
        ("16.70", 0),  # "16.70" != "16.7"
        (" 16.7", 0),  # no stripping
    ],
)
def test_values_compare_by_str(value: Any, correct: int) -> None:
    gold = [{"api": "computeOrbit", "parameters": {"radial_speed": "16.7"}}]
    predicted = [{"api": "computeOrbit", "parameters": {"radial_speed": value}}]
    assert count_calls(predicted, gold) == counts(1, 1, 1, 1, 1, 1, 1, correct)


def test_number_in_gold_equals_string_in_prediction() -> None:
    gold = [{"api": "getLoan", "parameters": {"loan_amount": 200000}}]
    # str(200000) == "200000"; str(200000.0) == "200000.0" differs
    assert count_calls([{"api": "getLoan", "parameters": {"loan_amount": "200000"}}], gold) == (
        counts(1, 1, 1, 1, 1, 1, 1, 1)
    )
    assert count_calls([{"api": "getLoan", "parameters": {"loan_amount": 200000.0}}], gold) == (
        counts(1, 1, 1, 1, 1, 1, 1, 0)
    )


def test_items_without_api_and_parameters_not_an_object() -> None:
    predicted = [
        {"api": "getPlantingInstructions", "parameters": "Tomatoes"},  # 1 call, 0 parameters
        "getPlantingInstructions",  # not an object: ignored
        {"name": "searchCrop", "parameters": {"crop_name": "Tomatoes"}},  # no "api": ignored
        {"api": "unknownTool", "parameters": {"a": 1, "b": 2}},  # 1 call, 2 parameters, no gold
    ]
    # predict_api 2, correct_api 1 (getPlantingInstructions), predict_param 0 + 2, correct 0
    assert count_calls(predicted, GOLD) == counts(1, 1, 3, 2, 1, 8, 2, 0)


# (b) a duplicated call ---------------------------------------------------------------------------


def test_duplicated_call_counts_twice_first_once_one_to_one() -> None:
    gold = gold_copy()[:1]  # 1 call, 2 parameters
    predicted = gold_copy()[:1] * 2
    first = count_calls(predicted, gold)
    # both copies match the same gold call: correct_api 2, correct_param 2 + 2
    assert first == counts(1, 1, 1, 2, 2, 2, 4, 4)
    s = scores(first)
    assert s["tool_p"] == 1.0  # 2 / 2
    assert s["tool_r"] == 2.0  # 2 / 1: recall above 1, as in Seal-Tools
    assert s["tool_f1"] == pytest.approx(4 / 3)  # 2 * 1 * 2 / (1 + 2)
    strict = count_calls(predicted, gold, "one_to_one")
    # one copy matched (2 parameters), the other counts in predict_* only
    assert strict == counts(1, 1, 1, 2, 1, 2, 4, 2)
    s = scores(strict)
    assert s["tool_p"] == 0.5 and s["tool_r"] == 1.0  # 1 / 2, 1 / 1
    assert s["tool_f1"] == pytest.approx(2 / 3)  # 2 * 0.5 * 1 / 1.5
    assert s["param_p"] == 0.5 and s["param_r"] == 1.0  # 2 / 4, 2 / 2


# (c) two gold calls of one api -------------------------------------------------------------------

WEATHER_GOLD = [
    {"api": "getWeather", "parameters": {"city": "Paris"}},
    {"api": "getWeather", "parameters": {"city": "Rome"}},
]


def test_second_gold_call_of_an_api() -> None:
    predicted = [{"api": "getWeather", "parameters": {"city": "Rome"}}]
    # "first" compares Rome with Paris: 0 correct parameters
    assert count_calls(predicted, WEATHER_GOLD) == counts(1, 1, 2, 1, 1, 2, 1, 0)
    # "one_to_one" matches it with the second gold call: 1 correct parameter
    assert count_calls(predicted, WEATHER_GOLD, "one_to_one") == counts(1, 1, 2, 1, 1, 2, 1, 1)
    both = [predicted[0], {"api": "getWeather", "parameters": {"city": "Paris"}}]
    # first: Rome vs Paris 0 + Paris vs Paris 1 = 1; one-to-one: Rome-Rome, Paris-Paris = 2
    assert count_calls(both, WEATHER_GOLD).correct_param == 1
    assert count_calls(both, WEATHER_GOLD, "one_to_one").correct_param == 2


def test_one_to_one_finds_the_best_assignment() -> None:
    gold = [
        {"api": "f", "parameters": {"x": 1, "y": 2, "z": 3}},
        {"api": "f", "parameters": {"x": 1, "y": 9, "z": 9}},
    ]
    predicted = [
        {"api": "f", "parameters": {"x": 1, "y": 2}},  # vs gold 0: 2, vs gold 1: 1 (x)
        {"api": "f", "parameters": {"y": 2, "z": 3}},  # vs gold 0: 2, vs gold 1: 0
    ]
    # taking each prediction's best in order gives 2 + 0 = 2; the best assignment is
    # prediction 0 -> gold 1 (1) and prediction 1 -> gold 0 (2) = 3
    assert count_calls(predicted, gold, "one_to_one") == counts(1, 1, 2, 2, 2, 6, 4, 3)
    # "first": both against gold 0: 2 + 2 = 4
    assert count_calls(predicted, gold) == counts(1, 1, 2, 2, 2, 6, 4, 4)


def test_one_to_one_beyond_the_exact_limit() -> None:
    gold = [{"api": "f", "parameters": {"i": k}} for k in range(10)]  # 10 calls, 10 parameters
    predicted = [{"api": "f", "parameters": {"i": k}} for k in reversed(range(12))]
    # 12 predicted (k = 11..0): 10 matched, each with its own k (1 parameter); 10 and 11 unmatched
    assert count_calls(predicted, gold, "one_to_one") == counts(1, 1, 10, 12, 10, 10, 12, 10)
    # "first": all 12 match gold 0 ({"i": 0}); only k = 0 is correct
    assert count_calls(predicted, gold) == counts(1, 1, 10, 12, 12, 10, 12, 1)


# (d) unparsable outputs --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I would call getPlantingInstructions with Tomatoes.",  # no list at all
        "[{'api': 'f', 'parameters': {'name': 'O'Brien'}, 'responses': []}]",  # ' becomes "
        '[{"api": "f", "parameters": {"x": 1}}]',  # no "responses" substring
        '[{"api": "f", "parameters": {"x": 1}, "responses": ["API_call_0"]',  # unbalanced
        '[{"api": "f", "parameters": {"x": "]"}, "responses": []}]',  # ] in a string counts
        '[{"name": "f", "api": "f", "parameters": {}, "responses": []}]',  # "api" not first
        '[{"api": "f", "parameters": {}, "responses": [],}]',  # trailing comma
        "",
    ],
)
def test_unparsable(text: str) -> None:
    assert parse_calling_list(text) is None


def test_parsing_is_whitespace_tolerant_and_drops_newlines() -> None:
    text = 'Answer:\n[ \n {  "api": "f",\n "parameters": {"x": "a\nb"}, "responses": []}] tail ]'
    # the newline inside "a\nb" is dropped too
    assert parse_calling_list(text) == [{"api": "f", "parameters": {"x": "ab"}, "responses": []}]


def test_unparsable_prediction_adds_to_gold_only() -> None:
    got = count_calls(parse_calling_list("no calls here"), GOLD)
    assert got == counts(1, 0, 3, 0, 0, 8, 0, 0)
    assert scores(got) == {
        "format_acc": 0.0,  # 0 / 1
        "tool_p": None,  # 0 / 0
        "tool_r": 0.0,  # 0 / 3
        "tool_f1": None,  # P undefined
        "param_p": None,
        "param_r": 0.0,  # 0 / 8
        "param_f1": None,
    }
    metrics = episode_metrics(got)
    assert metrics["tool_p"] == 0.0 and metrics["param_f1"] == 0.0  # None becomes 0.0


def test_all_wrong_gives_zero_not_none() -> None:
    got = count_calls([{"api": "other", "parameters": {}}], GOLD)
    assert got == counts(1, 1, 3, 1, 0, 8, 0, 0)
    s = scores(got)
    # tool: P = 0 / 1, R = 0 / 3, P + R = 0 so F1 = 0.0; param: P = 0 / 0 undefined
    assert (s["tool_p"], s["tool_r"], s["tool_f1"]) == (0.0, 0.0, 0.0)
    assert (s["param_p"], s["param_r"], s["param_f1"]) == (None, 0.0, None)
    assert scores(CallCounts())["format_acc"] is None  # no instance: 0 / 0


# (e) a split of 3 instances ----------------------------------------------------------------------


def split() -> list[tuple[list[dict[str, Any]] | None, list[dict[str, Any]]]]:
    # instance 1: getPlantingInstructions exact (2 of 2), searchCrop with one wrong value (3 of 4),
    # the nested call missing, a call to a tool not in the gold (1 parameter)
    pred1 = gold_copy()[:2]
    pred1[1]["parameters"]["Disease_resistance"] = "Fungal"
    pred1.append({"api": "getSoilInfo", "parameters": {"location": "garden"}, "responses": []})
    # instance 2: unparsable
    gold2 = [{"api": "getWeather", "parameters": {"city": "Paris", "unit": "C"}}]
    # instance 3: convertCurrency twice (one wrong target, one exact), getExchangeRate missing
    gold3 = [
        {"api": "convertCurrency", "parameters": {"amount": 100, "from": "USD", "to": "EUR"}},
        {"api": "getExchangeRate", "parameters": {"base": "USD"}},
    ]
    pred3 = [
        {"api": "convertCurrency", "parameters": {"amount": "100", "from": "USD", "to": "GBP"}},
        {"api": "convertCurrency", "parameters": {"amount": 100, "from": "USD", "to": "EUR"}},
    ]
    return [(pred1, GOLD), (parse_calling_list("Sorry, I cannot."), gold2), (pred3, gold3)]


def test_split_first() -> None:
    per = [count_calls(p, g) for p, g in split()]
    # 1: predict_api 3, correct_api 2, predict_param 2 + 4 + 1 = 7, correct_param 2 + 3 = 5
    # 2: gold only: 1 call, 2 parameters
    # 3: predict_api 2, both match convertCurrency; predict_param 3 + 3 = 6;
    #    correct_param ("100" == str(100), USD, not GBP) 2 + 3 = 5
    assert per == [
        counts(1, 1, 3, 3, 2, 8, 7, 5),
        counts(1, 0, 1, 0, 0, 2, 0, 0),
        counts(1, 1, 2, 2, 2, 4, 6, 5),
    ]
    # instances 3, format 1 + 0 + 1 = 2, gold_api 3 + 1 + 2 = 6, predict_api 3 + 0 + 2 = 5,
    # correct_api 2 + 0 + 2 = 4, gold_param 8 + 2 + 4 = 14, predict_param 7 + 0 + 6 = 13,
    # correct_param 5 + 0 + 5 = 10
    total = counts(3, 2, 6, 5, 4, 14, 13, 10)
    assert sum(per, CallCounts()) == total
    assert sum(per) == total
    assert CallCounts.total(per) == total
    s = scores(total)
    assert s["format_acc"] == pytest.approx(2 / 3)
    assert s["tool_p"] == pytest.approx(0.8)  # 4 / 5
    assert s["tool_r"] == pytest.approx(2 / 3)  # 4 / 6
    assert s["tool_f1"] == pytest.approx(8 / 11)  # 2 * 0.8 * 2/3 / (0.8 + 2/3) = (16/15) / (22/15)
    assert s["param_p"] == pytest.approx(10 / 13)
    assert s["param_r"] == pytest.approx(5 / 7)  # 10 / 14
    # 2 * (10/13) * (5/7) / (10/13 + 5/7) = (100/91) / (135/91) = 100 / 135
    assert s["param_f1"] == pytest.approx(20 / 27)


def test_split_one_to_one() -> None:
    per = [count_calls(p, g, "one_to_one") for p, g in split()]
    # 1: no api twice, as with "first"; 3: one gold convertCurrency, matched with the exact call
    #    (3 correct) rather than the one with GBP (2): correct_api 1, correct_param 3
    assert per[0] == counts(1, 1, 3, 3, 2, 8, 7, 5)
    assert per[2] == counts(1, 1, 2, 2, 1, 4, 6, 3)
    # correct_api 2 + 0 + 1 = 3, correct_param 5 + 0 + 3 = 8, the rest as with "first"
    total = counts(3, 2, 6, 5, 3, 14, 13, 8)
    assert CallCounts.total(per) == total
    s = scores(total)
    assert s["tool_p"] == pytest.approx(0.6)  # 3 / 5
    assert s["tool_r"] == pytest.approx(0.5)  # 3 / 6
    assert s["tool_f1"] == pytest.approx(6 / 11)  # 2 * 0.6 * 0.5 / 1.1 = 0.6 / 1.1
    assert s["param_p"] == pytest.approx(8 / 13)
    assert s["param_r"] == pytest.approx(4 / 7)  # 8 / 14
    assert s["param_f1"] == pytest.approx(16 / 27)  # 2 * 8 / (13 + 14)


# (f) references ----------------------------------------------------------------------------------


def test_reference_helpers() -> None:
    assert is_reference("API_call_1") and is_reference(" API_call_12\n")
    assert not is_reference("API_call_0 response") and not is_reference("API_call_")
    assert not is_reference(3)
    assert contains_reference("API_call_0 response") and contains_reference("API_call_3")
    assert not contains_reference("API call 3") and not contains_reference(None)


def test_renumbered_placeholders_match_with_resolve() -> None:
    predicted = gold_copy()
    predicted[0]["responses"] = ["API_call_5"]
    predicted[1]["responses"] = [
        "API_call_0",
        "API_call_1",
        "API_call_2",
        "API_call_3",
        "API_call_4",
    ]
    predicted[2]["parameters"]["location"] = "API_call_0"  # searchCrop's first field
    # literal: "API_call_0" != "API_call_1": 7 of 8
    assert count_calls(predicted, GOLD).correct_param == 7
    # resolved: both sides point at searchCrop's field 0: 8 of 8
    assert count_calls(predicted, GOLD, resolve=True) == counts(1, 1, 3, 3, 3, 8, 8, 8)
    assert count_calls(predicted, GOLD, "one_to_one", resolve=True).correct_param == 8


def test_same_literal_pointing_elsewhere_fails_with_resolve() -> None:
    predicted = gold_copy()
    predicted[0]["responses"] = ["API_call_1"]  # now getPlantingInstructions' output
    predicted[1]["responses"] = [f"API_call_{k}" for k in range(2, 7)]
    # literal "API_call_1" == "API_call_1": 8 of 8; resolved it points at another call: 7 of 8
    assert count_calls(predicted, GOLD).correct_param == 8
    assert count_calls(predicted, GOLD, resolve=True).correct_param == 7


FIELDS = {
    "getPlantingInstructions": ["instructions"],
    "searchCrop": ["location", "variety", "season", "fertiliser", "resistance"],
    "getAvailableResources": ["resources"],
}


def test_resolve_with_response_fields_and_no_declared_responses() -> None:
    predicted = gold_copy()
    for call in predicted:
        del call["responses"]
    # without the tools' fields the prediction declares nothing: "API_call_1" stays literal,
    # the gold's resolves to "<searchCrop>.<0>": 7 of 8
    assert count_calls(predicted, GOLD, resolve=True).correct_param == 7
    # with them, the global numbering gives getPlantingInstructions API_call_0, searchCrop
    # API_call_1..5: "API_call_1" is searchCrop's "location" on both sides: 8 of 8
    got = count_calls(predicted, GOLD, resolve=True, response_fields=FIELDS.get)
    assert got.correct_param == 8


def test_resolve_references_output() -> None:
    calls: list[Any] = gold_copy()
    calls[2]["parameters"]["location"] = "API_call_1 response"  # as in dev-difficult-207
    calls.append("not a call")
    resolved = resolve_references(calls, FIELDS.get)
    assert resolved[0]["responses"] == ["API_call_0"]
    assert resolved[1]["responses"] == [f"API_call_{k}" for k in range(1, 6)]
    assert resolved[2]["parameters"] == {
        "location": "<searchCrop>.<location> response",
        "resource_type": "timber",
    }
    assert resolved[3] == "not a call"
    assert calls[2]["parameters"]["location"] == "API_call_1 response"  # input untouched
    # an unknown placeholder stays literal
    lone = [{"api": "f", "parameters": {"x": "API_call_9"}, "responses": ["API_call_0"]}]
    assert resolve_references(lone)[0]["parameters"] == {"x": "API_call_9"}


# (g) adversarial input ---------------------------------------------------------------------------

TOKENS = ["[", "]", "{", "}", '"api"', ":", ",", '"parameters"', '"responses"', "'", "\n", " "]
TOKENS += ['"', "\\", "1", "x", "\x00", "API_call_0", "1e999", "-", "null"]


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_parse_never_raises_on_text(text: str) -> None:
    result = parse_calling_list(text)
    assert result is None or isinstance(result, list)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=60))
def test_parse_never_raises_on_json_like_text(tokens: list[str]) -> None:
    result = parse_calling_list('[{"api"' + "".join(tokens))
    assert result is None or isinstance(result, list)
    if result is not None:
        count_calls(result, GOLD)
        count_calls(result, GOLD, "one_to_one", resolve=True)


def nested(levels: int) -> str:
    # depth: the list 1, the call 2, its parameters 3, then `levels` lists
    return (
        '[{"api": "f", "parameters": {"x": ' + "[" * levels + "]" * levels + '}, "responses": []}]'
    )


def test_adversarial_inputs() -> None:
    assert parse_calling_list("[" * 100_000) is None
    assert parse_calling_list('[{"api"' + "[" * 100_000) is None
    assert parse_calling_list("x" * 1_000_000) is None  # over the size limit
    assert parse_calling_list(nested(5) + " " * 200_000) is None  # over the size limit
    assert parse_calling_list(nested(MAX_DEPTH - 3)) is not None  # depth 100
    assert parse_calling_list(nested(MAX_DEPTH - 2)) is None  # depth 101
    deep = (
        '[{"api": "f", "parameters": {"x": ' + "[" * 40_000 + "]" * 40_000 + '}, "responses": []}]'
    )
    assert parse_calling_list(deep) is None
    # brackets inside a string do not count towards the depth
    in_string = '[{"api": "f", "parameters": {"x": "' + "{" * 500 + '"}, "responses": []}]'
    assert parse_calling_list(in_string) == [
        {"api": "f", "parameters": {"x": "{" * 500}, "responses": []}
    ]
    # ... after an escaped quote too (square brackets in strings must balance, as in Seal-Tools)
    inner = "[" * 200 + "]" * 200
    escaped = '[{"api": "f", "parameters": {"x": "\\"' + inner + '"}, "responses": []}]'
    assert parse_calling_list(escaped) == [
        {"api": "f", "parameters": {"x": '"' + inner}, "responses": []}
    ]
    # many escaped quotes: one linear pass (a regex for strings would restart at each quote)
    started = time.perf_counter()
    quotes = '[{"api"' + '\\"' * 99_000 + " parameters responses]"
    assert parse_calling_list(quotes) is None
    assert time.perf_counter() - started < 10
    huge_int = '[{"api": "f", "parameters": {"x": 1' + "0" * 5000 + '}, "responses": []}]'
    assert parse_calling_list(huge_int) is None  # int() refuses over 4300 digits
    assert parse_calling_list('[{"api": "f\x00", "parameters": {}, "responses": []}]') is None
    assert parse_calling_list(None) is None  # type: ignore[arg-type]
    assert parse_calling_list(b'[{"api": "f"}]') is None  # type: ignore[arg-type]


def test_bad_arguments_say_what_was_expected() -> None:
    with pytest.raises(ValueError, match="matching must be one of"):
        count_calls([], GOLD, "best")
    with pytest.raises(ValueError, match="gold call 1 must be an object with a string 'api'"):
        count_calls([], [GOLD[0], {"parameters": {}}])
    with pytest.raises(ValueError, match="must have object 'parameters', got list"):
        count_calls([], [{"api": "f", "parameters": []}])
    with pytest.raises(TypeError, match="predicted must be a list of calls or None, got str"):
        count_calls("[]", GOLD)  # type: ignore[arg-type]


# (h) SoPR pre-checks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "return_type", "answer", "expected"),
    [
        ("Finish", "give_answer", "Paris is 12 °C.", "candidate"),
        ("Finish", None, "Paris is 12 °C.", "candidate"),
        (None, None, None, "unsolved"),  # no tool step at all
        ("get_weather_for_weather", "give_answer", "Paris is 12 °C.", "unsolved"),  # not Finish
        ("finish", "give_answer", "Paris is 12 °C.", "unsolved"),  # the name is exact
        ("Finish", "give_answer", "", "unsolved"),
        ("Finish", "give_answer", "  \n\t", "unsolved"),
        ("Finish", "give_answer", None, "unsolved"),
        ("Finish", "give_up_and_restart", "I could not find it.", "unsolved"),
        ("Finish", " give_up ", "I could not find it.", "unsolved"),
        ("Finish", "give_answer", '{"return_type": "give_up_and_restart"}', "unsolved"),
    ],
)
def test_sopr_precheck(
    name: str | None, return_type: str | None, answer: str | None, expected: str
) -> None:
    assert sopr_precheck(name, return_type, answer) == expected


def test_nesting_past_the_depth_cap_is_unparsable_and_many_flat_brackets_are_not() -> None:
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    text = f'[{{"api": "f", "parameters": {{"x": {deep}}}, "responses": []}}]'
    assert parse_calling_list(text) is None
    at_cap = "[" * (MAX_DEPTH - 3) + "]" * (MAX_DEPTH - 3)
    text = f'[{{"api": "f", "parameters": {{"x": {at_cap}}}, "responses": []}}]'
    assert parse_calling_list(text) is not None
    flat = ", ".join(["[1]"] * (2 * MAX_DEPTH))  # many brackets in all, none deep
    text = f'[{{"api": "f", "parameters": {{"x": [{flat}]}}, "responses": []}}]'
    assert parse_calling_list(text) is not None
    quoted = '"' + "[" * (2 * MAX_DEPTH) + "]" * (2 * MAX_DEPTH) + '"'  # in a string: no nesting
    text = f'[{{"api": "f", "parameters": {{"x": {quoted}}}, "responses": []}}]'
    assert parse_calling_list(text) == [
        {"api": "f", "parameters": {"x": quoted[1:-1]}, "responses": []}
    ]
