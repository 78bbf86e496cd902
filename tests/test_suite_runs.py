"""Suites, per-run summaries, ``toolgym compare`` and the paper's tables."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import gymnasium as gym
import pytest

from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.llm_agent import LLMAgent
from toolgym.cli import main
from toolgym.envs import families, family_of
from toolgym.evaluation.paper_tables import (
    ablation_table,
    error_taxonomy,
    headline_columns,
    headline_table,
)
from toolgym.evaluation.profile import EvalProfile, profile_of, suite_env_ids, suite_names
from toolgym.evaluation.runner import run_batch

HOME = "toolbench/HomeSearch-v0"
WEATHER = "toolbench/OpenWeather-v1"


def test_the_toolbench_suite_is_the_papers_nine_columns() -> None:
    ids = suite_env_ids("toolbench")
    columns = [id_.split("/")[1] for id_ in ids]
    assert len(ids) == 9  # eight tools, WebShop long and short
    assert sum(c.startswith("WebShop") for c in columns) == 2
    assert set(suite_env_ids("all")) >= set(ids)
    assert len(suite_env_ids("all")) == len(families()) + 1
    assert suite_names()[-1] == "all"
    with pytest.raises(ValueError, match="suite must be one of"):
        suite_env_ids("nope")


def test_a_family_profile_is_checked_against_its_spec() -> None:
    spec = family_of(HOME)
    with pytest.raises(ValueError, match="headline names one or more"):
        EvalProfile(headline=("nope",)).check(spec)
    with pytest.raises(ValueError, match="every family is in the 'all' suite"):
        EvalProfile(suites=("all",)).check(spec)
    with pytest.raises(ValueError, match=r"columns name versions \[7\]"):
        EvalProfile(columns={7: "x"}).check(spec)
    EvalProfile(headline=("f1",), suites=("api",), columns={0: "x"}).check(spec)


def test_a_family_profile_or_prompting_of_the_wrong_type_is_refused() -> None:
    spec = dataclasses.replace(family_of(HOME), profile="toolgym.envs.spec:NAMESPACE")
    with pytest.raises(TypeError, match="should be an EvalProfile; got str"):
        profile_of(spec)


def _summary(env: str, agent: str, **values: float) -> dict:
    spec = family_of(env)
    out = {"env": env, "agent": agent, "episodes": 4, "headline": list(profile_of(spec).headline)}
    out.update(values)
    return out


def test_headline_table_has_one_column_per_tool_and_headline_metric() -> None:
    vh = "toolbench/VirtualHome-v0"
    rows = headline_table(
        [
            _summary(HOME, "a", success=0.5),
            _summary(vh, "a", executable=1.0, lcs=0.25),
            _summary(HOME, "b", success=1.0),
        ]
    )
    assert headline_columns([_summary(vh, "a", executable=1.0, lcs=0.25)]) == [
        "VirtualHome exec",
        "VirtualHome LCS",
    ]
    assert rows[0] == {
        "agent": "a",
        "HomeSearch": 0.5,
        "VirtualHome exec": 1.0,
        "VirtualHome LCS": 0.25,
        "mean": 0.5,  # over success rates only: VirtualHome's executability and LCS are not
    }
    assert rows[1] == {"agent": "b", "HomeSearch": 1.0, "mean": 1.0}


def test_ablation_table_needs_two_configurations() -> None:
    one = [_summary(HOME, "a", success=0.5)]
    assert ablation_table(one) == []
    two = [*one, _summary(HOME, "b", success=0.75)]
    rows = ablation_table(two)
    assert [r["Δ shared mean"] for r in rows] == [0.0, 0.25]
    elsewhere = [*one, _summary(WEATHER, "c", success=1.0)]  # no tool in common
    assert ablation_table(elsewhere) == []


def test_error_taxonomy_shares_add_up() -> None:
    s = _summary(HOME, "a", success=0.25)
    s["errors"] = {"wrong_api": 1, "wrong_arguments": 1, "timeout": 1}
    row = error_taxonomy([s])[0]
    shares = [row[k] for k in row if k not in ("tool", "agent", "episodes")]
    assert sum(shares) == pytest.approx(1.0)
    assert row["API selection"] == row["argument populating"] == row["other"] == 0.25


def test_a_batch_closes_each_episode_as_it_ends() -> None:
    """Progress and records advance per episode inside a batch, with each one's own time."""
    envs = [gym.make(HOME) for _ in range(3)]

    def reply(prompt: object) -> str:
        time.sleep(0.05)
        return "API.search()"  # ends every episode on its first step

    backend = ScriptedBackend(reply)
    agents = [LLMAgent.for_env(e, backend) for e in envs]
    seen: list[int] = []
    records = run_batch(
        envs,
        agents,
        ["test-000", "test-001", "test-002"],
        [0, 1, 2],
        on_done=lambda i, r: seen.append(i),
    )
    assert seen == [0, 1, 2] and len(records) == 3
    assert all(r.time_s > 0.04 for r in records)  # its own time, not a share of the batch's


def test_eval_keeps_one_summary_per_run_and_compare_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "res"
    args = ["eval", "--agent", "oracle", "--env", HOME, "--limit", "2", "--out", str(out)]
    assert main([*args, "--no-progress"]) == 0
    first = capsys.readouterr().out
    assert "headline (the paper's Tables 6 and 9" in first
    assert "errors (the paper's Table 3" in first
    assert first.strip().splitlines()[-1].startswith("2 episodes (2 played, 0 resumed) in ")
    assert main([*args, "--limit", "3"]) == 0  # a resume: 2 recorded, 1 to play
    captured = capsys.readouterr()
    assert "resuming: 2 of 3 episodes already recorded" in captured.err
    assert captured.out.strip().splitlines()[-1].startswith("3 episodes (1 played, 2 resumed)")
    runs = sorted((out / "runs").glob("*.json"))
    assert len(runs) == 2  # the second run did not overwrite the first's summary
    data = [json.loads(p.read_text()) for p in runs]
    assert sorted(d["played"] for d in data) == [1, 2]
    assert all(d["files"] == ["toolbench_HomeSearch-v0__oracle__test.jsonl"] for d in data)
    assert (
        main(["eval", "--agent", "random", "--env", HOME, "--limit", "3", "--out", str(out)]) == 0
    )
    capsys.readouterr()
    assert main(["compare", str(runs[0]), str(out)]) == 0
    text = capsys.readouterr().out
    assert "configurations (the paper's Table 7)" in text
    assert f"{runs[0].stem}/oracle" in text and "res/random" in text


def test_suite_and_env_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--agent", "oracle", "--suite", "toolbench", "--env", HOME]) == 2
    assert "give --env or --suite, not both" in capsys.readouterr().err


def test_backend_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["eval", "--agent", "oracle", "--env", HOME, "--limit", "1", "--out", str(tmp_path)]
    assert main([*base, "--ray-address", "127.0.0.1:1"]) == 2
    assert "needs --backend ray" in capsys.readouterr().err
    assert main([*base, "--backend", "openai", "--model-backend", "hf"]) == 2
    assert "name two model backends" in capsys.readouterr().err


def test_an_llm_agent_goes_to_ray_workers_as_a_picklable_recipe() -> None:
    """No model loads in the driver: the recipe names how workers build backend and agent."""
    import pickle

    from toolgym.cli import build_parser
    from toolgym.cli.eval_setup import _agent_factory, normalize_backends

    args = build_parser().parse_args(
        ["eval", "--backend", "ray", "--model-backend", "openai", "--base-url", "http://x/v1"]
    )
    normalize_backends(args)
    recipe = _agent_factory(args)
    assert recipe.shared is False  # a served model: a client per worker, no model actor
    again = pickle.loads(pickle.dumps(recipe))
    assert again.backend_factory.args == ("openai",)
    assert again.agent_factory.keywords["options"]["agent"] == "llm"
    args = build_parser().parse_args(["eval", "--backend", "hf"])  # the older spelling
    normalize_backends(args)
    assert (args.backend, args.model_backend) == ("local", "hf")


def test_eval_on_a_vector_env_records_what_a_local_run_records(tmp_path: Path) -> None:
    from toolgym.evaluation.runner import evaluate

    def strip(record: object) -> dict:
        return {k: v for k, v in record.to_dict().items() if k != "time_s"}  # type: ignore[attr-defined]

    local = evaluate(WEATHER, "random", limit=5, progress=False, faults=0.3)
    vector = evaluate(
        WEATHER, "random", limit=5, progress=False, faults=0.3, backend="vector", workers=2
    )
    assert [strip(r) for r in local.records] == [strip(r) for r in vector.records]
    assert local.summary == vector.summary
    backend = ScriptedBackend(["API.search()"], cycle=True)
    batched = evaluate(
        HOME,
        lambda e: LLMAgent.for_env(e, backend),
        limit=4,
        progress=False,
        backend="vector",
        workers=2,
    )
    assert backend.calls == 2 and len(batched.records) == 4  # one generation per vector step
    with pytest.raises(ValueError, match="backend is one of local, vector, ray"):
        evaluate(HOME, "oracle", limit=1, backend="spark")
