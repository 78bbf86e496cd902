"""Seal-Tools' tool list and instances: reading, references, repairs and writing back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolgym.families.seal_tools.world import (
    REPAIR_KINDS,
    SealCall,
    SealInstance,
    SealTool,
    is_irregular_reference,
    is_reference,
    load_seal_instances,
    load_seal_tools,
    seal_tool_to_json,
    write_seal_instances,
    write_seal_tools,
)
from toolgym.simulators.tool_library.model import RepairReport

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples"


def sample(name: str) -> Path:
    """A file of the samples' Seal-Tools folder (the one holding ``tool.jsonl``), or skip."""
    found = sorted(SAMPLES.glob(f"*/{name}")) if SAMPLES.is_dir() else []
    found = [p for p in found if (p.parent / "tool.jsonl").is_file()]
    if not found:
        pytest.skip(f"the original-format sample {name} is absent from {SAMPLES}")
    return found[0]


def kinds(report: RepairReport) -> dict[str, int]:
    counts = report.counts()
    assert set(counts) <= set(REPAIR_KINDS), set(counts) - set(REPAIR_KINDS)
    return counts


def jsonl(path: Path, lines: list[Any], end: str = "\n") -> Path:
    text = end.join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    path.write_bytes((text + end).encode("utf-8"))
    return path


def test_is_reference() -> None:
    assert is_reference("API_call_0") and is_reference("API_call_12")
    assert not is_reference("API_call_0 response") and not is_reference("API_call_")
    assert not is_reference(0) and not is_reference(None)
    assert is_irregular_reference("API_call_0 response")
    assert not is_irregular_reference("API_call_0") and not is_irregular_reference("plain")


def test_tool_sample_loads_and_writes_back_byte_for_byte(tmp_path: Path) -> None:
    path = sample("tool.jsonl")
    report = RepairReport()
    tools = load_seal_tools(path, report)
    assert len(tools) == 20
    assert kinds(report) == {"crlf": 1}
    assert list(tools)[:2] == ["analyzeEvidence", "analyzeSubstance"]
    crop = tools["searchCrop"]
    assert crop.required == ("crop_name",) and len(crop.responses) == 5
    assert crop.parameters["crop_name"]["type"] == "str"
    assert crop.optional == (
        "Genetic_modification",
        "Growth_stage",
        "Nutrient_requirements",
        "Disease_resistance",
    )
    assert tools["getMemoryType"].parameters == {} and tools["getMemoryType"].required == ()
    assert tools["calculateLoanPayment"].parameters["loan_term"]["type"] == "int"
    assert all(t.extra == {} for t in tools.values())
    out = tmp_path / "tool.jsonl"
    write_seal_tools(tools, out)
    assert out.read_bytes() == path.read_bytes()


def test_instance_sample_references_and_round_trip(tmp_path: Path) -> None:
    tools = load_seal_tools(sample("tool.jsonl"))
    path = sample("dev.jsonl")
    report = RepairReport()
    instances = load_seal_instances(path, tools, report)
    assert len(instances) == 10
    by_id = {i.id: i for i in instances}
    assert [i.id for i in instances][:5] == [f"dev-easy-{n}" for n in range(195, 200)]
    assert by_id["dev-easy-198"].calling == [SealCall("getMemoryType", {}, ("API_call_0",))]
    nested = by_id["dev-difficult-200"]
    assert nested.references() == [(2, "location", "API_call_1")] and nested.nested
    assert nested.calling[1].responses == tuple(f"API_call_{k}" for k in range(1, 6))
    assert by_id["dev-difficult-334"].references() == [(1, "event_id", "API_call_0")]
    assert by_id["dev-difficult-628"].references() == [
        (1, "ticket_id", "API_call_0"),
        (2, "customer_id", "API_call_0"),
    ]
    irregular = by_id["dev-difficult-207"]
    assert irregular.references() == [] and not irregular.nested
    assert irregular.irregular_references() == [
        (1, "text", "API_call_0 response"),
        (2, "restaurant_id", "API_call_0 response"),
    ]
    loan = by_id["dev-difficult-620"].calling[0].parameters
    assert loan == {"loan_amount": 200000, "interest_rate": 3.5, "loan_term": 30}
    assert by_id["dev-easy-197"].calling[0].parameters == {"radial_speed": "16.7"}
    assert sum(i.nested for i in instances) == 3
    assert kinds(report) == {"irregular_reference": 2}
    assert all("dev-difficult-207" in r.source for r in report.repairs)
    out = tmp_path / "dev.jsonl"
    write_seal_instances(instances, out)
    assert out.read_bytes() == path.read_bytes()


def test_tool_file_quirks(tmp_path: Path) -> None:
    good = {
        "api_name": "getThing",
        "api_description": "Get a thing",
        "field": "Things/Getting",
        "parameters": {"id": {"type": "str", "description": "which"}},
        "required": ["id", "ghost"],
        "responses": {"thing": {"type": "str", "description": "it"}},
        "example": {"id": "1"},
    }
    lines = [
        good,
        "",
        {**good, "api_description": "again"},
        "{not json",
        "[1, 2]",
        {"api_description": "nameless"},
        {
            "api_name": "odd",
            "api_description": None,
            "field": 3,
            "parameters": {"a": "str", "b": {"type": "int", "description": ""}},
            "required": "a",
            "responses": [],
        },
    ]
    path = jsonl(tmp_path / "tool.jsonl", lines, end="\r\n")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    report = RepairReport()
    tools = load_seal_tools(path, report)
    assert list(tools) == ["getThing", "odd"]
    thing = tools["getThing"]
    assert thing.api_description == "Get a thing" and thing.required == ("id", "ghost")
    assert thing.extra == {"example": {"id": "1"}}
    assert seal_tool_to_json(thing) == good
    odd = tools["odd"]
    assert (odd.api_description, odd.field, odd.required, odd.responses) == ("", "3", (), {})
    assert list(odd.parameters) == ["b"]
    assert kinds(report) == {
        "bad_field": 2,
        "bad_line": 2,
        "bad_parameter": 1,
        "bad_parameters": 1,
        "bad_required": 1,
        "bad_tool": 1,
        "blank_line": 1,
        "bom": 1,
        "crlf": 1,
        "duplicate_tool": 1,
        "unknown_required": 1,
    }
    out = tmp_path / "again.jsonl"
    write_seal_tools(list(tools.values()), out)
    assert load_seal_tools(out) == tools


def test_instance_file_quirks(tmp_path: Path) -> None:
    tools = {
        "make": SealTool("make", parameters={"x": {"type": "int"}}, required=("x",),
                         responses={"a": {}, "b": {}}),
        "use": SealTool("use", parameters={"y": {"type": "str"}}, responses={"c": {}}),
    }  # fmt: skip
    calls = [
        {"api": "make", "parameters": {"x": 1}, "responses": ["API_call_0", "API_call_1"]},
        {"api": "use", "parameters": {"y": "API_call_1", "z": 2}, "responses": ["API_call_2"]},
        {"api": "use", "parameters": {"y": "API_call_9"}, "responses": ["API_call_3", 4]},
        {"api": "make", "parameters": {}, "responses": ["API_call_4"]},
        {"api": "nowhere", "parameters": "x", "responses": []},
        {"parameters": {}},
    ]
    lines = [
        {"id": "dev-difficult-1", "query": "q", "calling": calls, "note": "kept"},
        {"id": "dev-difficult-1", "query": "again", "calling": []},
        {"query": "no id", "calling": []},
        {"id": "dev-easy-2", "query": 5, "calling": {"api": "make"}},
    ]
    report = RepairReport()
    instances = load_seal_instances(jsonl(tmp_path / "dev.jsonl", lines), tools, report)
    assert [i.id for i in instances] == ["dev-difficult-1", "dev-easy-2"]
    first = instances[0]
    assert first.extra == {"note": "kept"} and len(first.calling) == 5
    assert first.references() == [(1, "y", "API_call_1"), (2, "y", "API_call_9")]
    assert first.calling[2].responses == ("API_call_3",)
    assert first.calling[4].parameters == {}
    assert instances[1].query == "5" and instances[1].calling == []
    assert kinds(report) == {
        "bad_call": 1,
        "bad_calling": 1,
        "bad_field": 1,
        "bad_instance": 1,
        "bad_parameters": 1,
        "bad_responses": 1,
        "dangling_reference": 1,
        "duplicate_instance": 1,
        "missing_required": 1,
        "responses_mismatch": 1,
        "unknown_api": 1,
        "unknown_parameter": 1,
    }
    loose = RepairReport()
    load_seal_instances(tmp_path / "dev.jsonl", report=loose)
    assert "unknown_api" not in loose.counts() and loose.counts()["dangling_reference"] == 1
    out = tmp_path / "again.jsonl"
    write_seal_instances(instances, out)
    assert load_seal_instances(out) == instances
    assert SealInstance("i", "q").to_json() == {"id": "i", "query": "q", "calling": []}
