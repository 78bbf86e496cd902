"""Results found again by the identities of the values they were made from, checked unchanged."""

from __future__ import annotations

import copy

import pytest

from toolgym.tools.value_memo import ValueMemo

DOCS = [{"name": "f", "parameters": {"x": {"type": "integer", "default": 1}}}, {"name": "g"}]


def test_the_same_objects_unchanged_find_the_result_and_anything_else_misses() -> None:
    memo: ValueMemo[str] = ValueMemo(8)
    docs = copy.deepcopy(DOCS)
    assert memo.get(docs) is None
    assert memo.put(docs, "made") == "made"
    assert memo.get(docs) == "made"
    assert memo.get(list(docs)) == "made"  # another list of the same objects
    assert memo.get(tuple(docs)) == "made"
    assert memo.get(copy.deepcopy(docs)) is None  # equal values, other objects
    assert memo.get(docs, "python") is None  # another extra part of the key
    assert memo.get(docs[:1]) is None


def test_a_value_changed_in_place_misses_until_its_result_is_made_again() -> None:
    memo: ValueMemo[str] = ValueMemo(8)
    docs = copy.deepcopy(DOCS)
    memo.put(docs, "before")
    docs[0]["parameters"]["x"]["default"] = 2  # deep inside one of the objects
    assert memo.get(docs) is None
    memo.put(docs, "after")
    assert memo.get(docs) == "after"
    docs[1]["name"] = "h"
    assert memo.get(docs) is None


def test_it_keeps_at_most_its_size_and_refuses_no_room() -> None:
    memo: ValueMemo[int] = ValueMemo(2)
    lists = [[{"i": i}] for i in range(3)]
    for i, values in enumerate(lists):
        memo.put(values, i)
    assert memo.get(lists[2]) == 2 and memo.get(lists[0]) is None  # dropped when full
    with pytest.raises(ValueError, match="at least one"):
        ValueMemo(0)


def test_bfcl_tool_sets_follow_docs_changed_in_place() -> None:
    from toolgym.families.bfcl.tools import tool_set

    docs = [
        {
            "name": "add",
            "description": "Add two numbers.",
            "parameters": {"type": "dict", "properties": {"a": {"type": "integer"}}},
        }
    ]
    first = tool_set(docs, "python")
    assert tool_set(list(docs), "python") is first
    docs[0]["description"] = "Add numbers."
    again = tool_set(docs, "python")
    assert again is not first
    (tool,) = again
    assert tool.doc["description"].startswith("Add numbers.")


def test_values_marshal_cannot_write_are_copied_too() -> None:
    from collections import OrderedDict

    memo: ValueMemo[str] = ValueMemo(4)
    odd = [OrderedDict(a=[1]), {1, 2}]
    memo.put(odd, "made")
    assert memo.get(odd) == "made"
    odd[0]["a"].append(2)
    assert memo.get(odd) is None
