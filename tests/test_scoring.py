"""Metrics and the shared checkers: the original dict F1, best label, diagnosis, crashes."""

import pytest

from toolgym.benchmarks.checkers import CriteriaF1, ResponseF1
from toolgym.benchmarks.metrics import best_f1, dict_f1
from toolgym.benchmarks.tasks import Task
from toolgym.errors import TaskFileError
from toolgym.tools.backend import Attempt
from toolgym.tools.errors import NON_EXECUTABLE, ToolCallError

TASK = Task("t", "goal", ("gold",))


def test_dict_f1_follows_the_original() -> None:
    label = {"location": "A", "buy_or_rent": "buy", "num_beds": 2, "min_price": 0}
    assert dict_f1(label, label) == (1.0, 1.0, 1.0)
    assert dict_f1({}, label) == (0.0, 0.0, 0.0)
    p, r, f = dict_f1({"location": "A", "num_beds": "2"}, label)  # "2" != 2
    assert (p, r) == (0.5, 0.25) and f == pytest.approx(1 / 3)
    assert dict_f1({"num_beds": 2.0}, {"num_beds": 2})[2] == 1.0  # 2 == 2.0
    # An empty label: the original divides by zero (a crashed case); here 0, never an exception.
    assert dict_f1({"a": 1}, {}) == (0.0, 0.0, 0.0)
    assert dict_f1({}, {}) == (0.0, 0.0, 0.0)


def test_best_label_wins() -> None:
    golds = [Attempt({"a": 1, "b": 2}), Attempt({"a": 1, "b": 3})]
    score = CriteriaF1().check(TASK, Attempt({"a": 1, "b": 3}), golds)
    assert score.success and score.metrics["closest_label"] == 1 and score.reward == 1.0
    assert best_f1({"a": 1}, [{"a": 2}, {"a": 1}]) == (1.0, 1.0, 1.0, 1)


def test_a_crash_scores_as_not_executable() -> None:
    golds = [Attempt({"a": 1, "b": 2})]
    error = ToolCallError(NON_EXECUTABLE, "boom")
    # the criteria set before the crash are not scored
    crashed = CriteriaF1().check(TASK, Attempt({"a": 1, "b": 2}, error=error), golds)
    assert crashed.metrics_dict() == {
        "executable": False,
        "success": False,
        "precision": 0.0,
        "recall": 0.0,
        "f1": 0.0,
        "closest_label": 0,
    }
    assert crashed.reward == 0.0 and crashed.error == error.to_info()


def test_criteria_diagnosis() -> None:
    gold = Attempt({"a": 1, "b": 2}, ("API.x", "API.y"))
    check = CriteriaF1().check
    assert check(TASK, Attempt({"a": 1, "b": 2}, ("API.x", "API.y")), [gold]).error is None
    missing = check(TASK, Attempt({"a": 1}, ("API.x",)), [gold]).error
    assert missing["category"] == "wrong_api" and "missing API.y" in missing["message"]
    wrong = check(TASK, Attempt({"a": 1, "b": 5}, ("API.x", "API.y")), [gold]).error
    assert wrong == {
        "category": "wrong_arguments",
        "message": "the right functions with wrong values for: b",
    }


def test_response_diagnosis() -> None:
    gold = Attempt({"cod": 200, "name": "Paris"}, ("GET /data/2.5/weather",))
    check = ResponseF1().check
    other = check(TASK, Attempt({"list": []}, ("GET /data/2.5/forecast",)), [gold])
    assert other.error["category"] == "wrong_api" and "/data/2.5/forecast" in other.error["message"]
    wrong = check(TASK, Attempt({"cod": 200, "name": "Lyon"}, ("GET /data/2.5/weather",)), [gold])
    assert wrong.error["category"] == "wrong_arguments" and "name" in wrong.error["message"]
    assert 0 < wrong.reward < 1


def test_empty_gold_criteria_are_refused() -> None:
    with pytest.raises(TaskFileError, match="sets nothing"):
        CriteriaF1().validate(TASK, [Attempt({})])
