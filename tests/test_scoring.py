import pytest

from toolgym.benchmarks.scoring import GoldOutcome, diagnose, dict_f1, score


def test_dict_f1_follows_the_original() -> None:
    label = {"location": "A", "buy_or_rent": "buy", "num_beds": 2, "min_price": 0}
    assert dict_f1(label, label) == (1.0, 1.0, 1.0)
    assert dict_f1({}, label) == (0.0, 0.0, 0.0)
    p, r, f = dict_f1({"location": "A", "num_beds": "2"}, label)  # "2" != 2
    assert (p, r) == (0.5, 0.25) and f == pytest.approx(1 / 3)
    assert dict_f1({"num_beds": 2.0}, {"num_beds": 2})[2] == 1.0  # 2 == 2.0
    with pytest.raises(ValueError):
        dict_f1({"a": 1}, {})


def test_best_label_wins() -> None:
    golds = [GoldOutcome({"a": 1, "b": 2}, ()), GoldOutcome({"a": 1, "b": 3}, ())]
    m = score({"a": 1, "b": 3}, golds)
    assert m["success"] and m["closest_label"] == 1
    crashed = score(None, golds)
    assert crashed == {
        "executable": False,
        "success": False,
        "precision": 0.0,
        "recall": 0.0,
        "f1": 0.0,
        "closest_label": 0,
    }


def test_diagnose() -> None:
    gold = GoldOutcome({"a": 1, "b": 2}, ("API.x", "API.y"))
    assert diagnose({"a": 1, "b": 2}, ["API.x", "API.y"], gold) is None
    assert diagnose({"a": 1}, ["API.x"], gold)["category"] == "wrong_api"
    wrong = diagnose({"a": 1, "b": 5}, ["API.x", "API.y"], gold)
    assert wrong == {
        "category": "wrong_arguments",
        "message": "the right functions with wrong values for: b",
    }
