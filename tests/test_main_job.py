"""The main job's configurations (the shipped adapter and the base model) and its headline."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from toolgym.agents import aligned
from toolgym.cli import build_parser
from toolgym.cli.eval_setup import main_configurations, row_label
from toolgym.evaluation.paper_tables import headline_table


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for the shipped adapter, trained with one shot."""
    folder = tmp_path / "adapter"
    folder.mkdir()
    (folder / "adapter_config.json").write_text("{}")
    (folder / aligned.RECORD_FILE).write_text(json.dumps({"config": {"shots": 1}}))
    monkeypatch.setattr(aligned, "shipped_adapter_path", lambda: folder)
    aligned.shipped_record.cache_clear()
    monkeypatch.setattr(
        aligned, "shipped_record", lambda: json.loads((folder / aligned.RECORD_FILE).read_text())
    )
    return folder


def _configs(*argv: str) -> list[tuple[str, object]]:
    return main_configurations(build_parser().parse_args(["eval", *argv]))


def test_the_default_runs_the_shipped_adapter_alone(shipped: Path) -> None:
    ((_, tuned),) = _configs()
    assert tuned.adapter == str(shipped) and tuned.shots == 1  # the adapter's prompts


def test_compare_base_runs_the_shipped_adapter_then_the_base_model(shipped: Path) -> None:
    (name1, tuned), (name2, base) = _configs("--compare-base")
    assert "adapter" in name1 and "base" in name2
    assert tuned.adapter == str(shipped) and base.adapter is None
    assert tuned.shots == base.shots == 1  # the adapter's prompts, for both rows
    (_, tuned), (_, base) = _configs("--compare-base", "--shots", "3")
    assert tuned.shots == base.shots == 3


@pytest.mark.parametrize(
    "argv",
    [
        ("--adapter", "none"),
        ("--model", "HuggingFaceTB/SmolLM2-360M-Instruct"),
        ("--base-url", "http://127.0.0.1:8000/v1"),
        ("--model-backend", "llamacpp"),
        ("--agent", "oracle"),
    ],
)
def test_one_configuration_without_the_shipped_adapter(
    shipped: Path, argv: tuple[str, ...]
) -> None:
    ((_, args),) = _configs(*argv)
    assert args.adapter is None and args.shots is None


def test_a_named_adapter_and_the_ablation(shipped: Path, tmp_path: Path) -> None:
    ((_, args),) = _configs("--adapter", str(tmp_path))
    assert args.adapter == str(tmp_path)
    ((_, args),) = _configs("--ablation")
    assert args.adapter == str(shipped) and args.shots == 1


def test_without_a_shipped_adapter_the_base_model_runs_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(aligned, "shipped_adapter_path", lambda: None)
    ((_, args),) = _configs()
    assert args.adapter is None


def test_the_headline_has_one_row_per_configuration_and_a_mean_of_success_rates() -> None:
    label = "hf:smollm2-135m+a-{strategy}-{shots}shot{grammar}"
    assert row_label(label) == "hf:smollm2-135m+a"
    assert row_label(label.replace("{shots}", "1")) == "hf:smollm2-135m+a-1shot"
    rows = {"tuned": "hf:m+a-1shot", "base": "hf:m-1shot"}
    summaries = []
    for name, row in rows.items():
        good = 1.0 if name == "tuned" else 0.0
        summaries += [
            {
                "env": "toolbench/CatAPI-v1",
                "agent": "x-single-1shot-grammar",
                "row": row,
                "success": good,
                "headline": ["success"],
            },
            {
                "env": "toolbench/GoogleSheets-v0",
                "agent": "x-single-1shot",
                "row": row,
                "success": 0.5,
                "headline": ["success"],
            },
            {
                "env": "toolbench/RapidAPI-v0",
                "agent": "x-react-1shot-grammar",
                "row": row,
                "success": 0.0,
                "headline": ["success"],
            },
            {
                "env": "toolbench/VirtualHome-v0",
                "agent": "x-single-1shot-grammar",
                "row": row,
                "success": 0.0,
                "executable": 1.0,
                "lcs": 0.5,
                "headline": ["executable", "lcs"],
            },
        ]
    table = headline_table(summaries)
    assert [r["agent"] for r in table] == list(rows.values())  # not one row per label
    tuned, base = table
    assert tuned["VirtualHome exec"] == 1.0  # shown, but not averaged with success rates
    assert tuned["mean"] == pytest.approx((1.0 + 0.5 + 0.0 + 0.0) / 4)
    assert base["mean"] == pytest.approx(0.5 / 4)


def _printed_summaries(row: str) -> list[dict]:
    """Summaries as a run makes them, for every family's newest env (RapidAPI's known metrics)."""
    from toolgym.envs import families
    from toolgym.evaluation.profile import profile_of
    from toolgym.evaluation.report import summarize

    out = []
    for spec in families():
        profile = profile_of(spec)
        summary = summarize([], spec.metrics, None, profile.headline, profile.known_metrics(spec))
        summary.update(env=spec.env_id(spec.latest.version), agent=f"{row}-react", row=row)
        summary.update({m.key: 0.25 for m in spec.metrics}, episodes=8)
        out.append(summary)
    return out


def test_the_printed_per_env_table_fits_in_120_columns() -> None:
    from toolgym.evaluation.report import ENV_TABLE_WIDTH, env_table, format_env_table

    row = "hf:smollm2-135m+smollm2-135m-toolbench-1shot-with-a-very-long-adapter-name"
    summaries = _printed_summaries(row) + _printed_summaries("hf:smollm2-135m-1shot")
    text = format_env_table(summaries)
    assert max(len(line) for line in text.splitlines()) <= ENV_TABLE_WIDTH, text
    rows = {r["env"].removeprefix("toolbench/"): r for r in env_table(summaries)}
    assert rows["RapidAPI-v1"]["also"] == "SoPR pre-check 25.0%, tool F1 25.0%"
    assert rows["HomeSearch-v0"]["also"] == "F1 25.0%"  # a family's first other metric
    assert "executable" not in rows["WebShop-v1"]  # WebShop reports none
    assert "hf:smollm2-135m-1shot" in text  # a short label is kept whole


def test_a_known_metric_the_family_lacks_is_refused() -> None:
    from toolgym.envs import family_of
    from toolgym.evaluation.profile import EvalProfile

    spec = family_of("toolbench/HomeSearch-v0")
    with pytest.raises(ValueError, match="known_by names metrics"):
        EvalProfile(known_by=("nope",)).check(spec)
    assert EvalProfile().known_metrics(spec) == ("f1",)
    assert EvalProfile(known_by=()).known_metrics(spec) == ()


def test_the_run_prints_the_headline_last_with_one_row_per_model(capsys) -> None:
    from toolgym.cli.eval_output import print_eval_tables

    tuned = "hf:smollm2-135m+smollm2-135m-toolbench-1shot"
    summaries = _printed_summaries(tuned) + _printed_summaries("hf:smollm2-135m-1shot")
    print_eval_tables(summaries, [], None, 0)
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 120  # a terminal's width, every table
    headline = out.split("headline (the paper's Tables 6 and 9")[1].split("\n\n")
    assert len(headline) > 1  # the envs' columns do not fit in one block
    for block in headline:
        rows = block.strip("\n").splitlines()[-2:]
        assert [line.split()[0] for line in rows] == [tuned, "hf:smollm2-135m-1shot"]
    first = headline[0].splitlines()
    assert first[1].split()[:2] == ["agent", "mean"]  # the mean beside the model, once
    headers = [block.strip("\n").splitlines()[-4].split() for block in headline]
    assert sum(header.count("mean") for header in headers) == 1
    errors = out.split("errors (the paper's Table 3")[1].split("\n\n")[0]
    assert tuned in errors.splitlines()[3]  # two models: each row names its own
    assert "every metric" not in out and "mean F1" not in out  # no per-metric layout


def test_one_models_error_table_names_it_once(capsys) -> None:
    from toolgym.cli.eval_output import print_eval_tables

    print_eval_tables(_printed_summaries("hf:m+adapter-1shot"), [], None, 0)
    out = capsys.readouterr().out
    title, header = out.split("errors (the paper's Table 3")[1].splitlines()[:2]
    assert title == ", share of episodes; hf:m+adapter-1shot):"
    assert header.split()[:2] == ["tool", "episodes"]


def test_the_main_job_bench_splits_the_wall_time(capsys) -> None:
    """The oracle has no model: its time is env steps and the rest, and the shares add up."""
    from toolgym.cli.main_job_bench import main as main_job

    code = main_job(["--agent", "oracle", "--env", "toolbench/HomeSearch-v0", "--limit", "2"])
    out = capsys.readouterr().out
    assert code == 0
    cells = [re.split(r"\s{2,}", line.strip()) for line in out.splitlines()[-8:-1]]
    lines = {row[0]: row[1:] for row in cells}
    assert int(lines["env steps (scoring included)"][1]) >= 2  # a step per episode at least
    assert lines["decoding (model steps on new tokens)"][1] == "0"
    assert lines["wall time"][-1] == "100.0%"
    assert "peak memory (RSS)" in out.splitlines()[-1]


def test_the_stopwatches_cost_nothing_when_off() -> None:
    from toolgym.agents.timing import recording, timed

    with timed("decode"):  # no clock: nothing kept, nothing raised
        pass
    with recording() as clock, timed("decode"), timed("decode"):
        pass
    assert clock.calls == {"decode": 2}


def test_a_table_no_cut_can_fit_is_printed_whole() -> None:
    from toolgym.evaluation.report import format_table, wrap_table

    rows = [{"name": "x" * 30, "a": 0.5, "b": 0.25}]
    whole = format_table(rows, ["name", "a", "b"], ["a", "b"])
    assert wrap_table(rows, ["name", "a", "b"], ["a", "b"], width=20) == whole
    assert wrap_table(rows, ["name", "a", "b"], ["a", "b"], width=39) != whole  # two blocks fit


def test_the_fault_comparison_and_the_suite_tables_fit_in_120_columns(capsys) -> None:
    from toolgym.cli.eval_output import print_eval_tables

    agents = [f"hf:smollm2-135m+a-rather-long-adapter-name-number-{i}" for i in range(4)]
    summaries = [s for agent in agents for s in _printed_summaries(agent)]
    faulty = [{**s, "faults": 3, "errors": {"service_error": 1}} for s in summaries]
    print_eval_tables(summaries, faulty, 0.2, 0)
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 120, out
    comparison = out.split("with and without service faults")[1].split("\n\n")[0]
    header, _, *rows = comparison.splitlines()[1:]
    assert header.split()[:3] == ["env", "model", "episodes"]
    assert len(rows) == len(summaries)
    assert len({row.split()[1] for row in rows}) == len(agents)  # shortened, still told apart
    assert rows[0].split()[-2:] == ["3", "1"]  # the faults met, the service errors
    bfcl = out.split("BFCL v4 leaderboard")[1].split("errors (")[0].strip().split("\n\n")
    assert len(bfcl) > 1 and all("column" in block for block in bfcl)  # cut, rows named
    assert all(any(agent in block for block in bfcl) for agent in agents)


@pytest.mark.parametrize("namespace", ["myplugin", None])
def test_env_ids_of_any_namespace_are_shortened_to_fit(namespace: str | None) -> None:
    from toolgym.evaluation.report import ENV_TABLE_WIDTH, format_env_table

    model = "hf:smollm2-135m+smollm2-135m-toolbench-1shot-with-a-very-long-adapter-name"
    summaries = _printed_summaries(model)
    for i, summary in enumerate(summaries):
        name = f"AVeryLongPluginEnvironmentNameThatGoesOnAndOn{i}Tasks-v0"
        if namespace is None and i == 0:
            name = f"other/{name}"  # two namespaces: none is left out
        elif namespace is not None:
            name = f"{namespace}/{name}"
        summary["env"] = name
    text = format_env_table(summaries)
    assert max(len(line) for line in text.splitlines()) <= ENV_TABLE_WIDTH, text
    envs = [line.split()[0] for line in text.splitlines()[2:]]
    assert len(set(envs)) == len(summaries)  # cut from the middle, still told apart
    assert not any(env.startswith("myplugin/") for env in envs)
    assert all(env.endswith("Tasks-v0") and "..." in env for env in envs)  # the version kept


def test_shortened_model_labels_stay_apart() -> None:
    from toolgym.evaluation.report import format_env_table

    models = [f"hf:smollm2-135m+{'a' * 30}-{x * 10}-{'z' * 30}-1shot" for x in "AB"]
    summaries = [s for model in models for s in _printed_summaries(model)]
    text = format_env_table(summaries)
    rows = [line.split()[1] for line in text.splitlines()[2:]]
    assert len(set(rows)) == 2  # cut from the middle, they would print alike
