import json
import subprocess
import sys
from pathlib import Path

import pytest

from toolgym.cli import main
from toolgym.evaluation.runner import evaluate


def test_evaluate_oracle_and_random(tmp_path: Path) -> None:
    result = evaluate(
        "toolbench/HomeSearch-v0", "oracle", limit=5, out_dir=tmp_path, progress=False
    )
    assert result.summary["episodes"] == 5 and result.summary["success"] == 1.0
    lines = result.path.read_text().splitlines()
    assert len(lines) == 5
    record = json.loads(lines[0])
    assert {"env_id", "task_id", "actions", "reward", "metrics", "error", "observation"} <= set(
        record
    )
    rand = evaluate("toolbench/TripBooking-v0", "random", limit=20, progress=False)
    assert rand.summary["success"] < 1.0
    assert (
        sum(
            rand.summary[c]
            for c in ("non_executable", "wrong_api", "wrong_arguments", "precondition")
        )
        > 0
    )


def test_evaluate_call_mode_and_train_split() -> None:
    res = evaluate(
        "toolbench/TripBooking-v0",
        "oracle",
        limit=4,
        env_kwargs={"action_mode": "call"},
        progress=False,
    )
    assert res.summary["success"] == 1.0 and res.summary["steps"] > 1
    train = evaluate("toolbench/HomeSearch-v0", "oracle", split="train", limit=3, progress=False)
    assert train.summary["episodes"] == 3 and train.summary["success"] == 1.0
    with pytest.raises(ValueError, match="unlimited"):
        evaluate("toolbench/HomeSearch-v0", "oracle", split="train", progress=False)


def test_random_agent_in_call_mode_is_truncated_or_terminates() -> None:
    res = evaluate(
        "toolbench/HomeSearch-v0",
        "random",
        limit=5,
        env_kwargs={"action_mode": "call"},
        progress=False,
    )
    for r in res.records:
        assert r.terminated or r.truncated
        if r.truncated:
            assert r.error_category == "timeout"


def test_cli_eval_prints_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "eval",
            "--agent",
            "oracle",
            "--env",
            "toolbench/HomeSearch-v0",
            "--limit",
            "3",
            "--no-progress",
            "--out",
            str(tmp_path),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "toolbench/HomeSearch-v0" in out and "100.0%" in out and "success" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["per_env"][0]["episodes"] == 3
    assert (
        summary["paper"][0]["metric"] == "success rate" and summary["paper"][0]["HomeSearch"] == 1.0
    )
    assert (tmp_path / "summary_paper.csv").read_text().startswith("agent,metric,HomeSearch,mean")
    assert "HomeSearch" in (tmp_path / "summary_paper.txt").read_text()


def test_cli_list_and_generate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "toolbench/TripBooking-v0" in out and "test 120" in out and "test 100" in out
    target = tmp_path / "train.jsonl"
    assert (
        main(["generate", "--env", "toolbench/TripBooking-v0", "--n", "12", "--out", str(target)])
        == 0
    )
    rows = [json.loads(line) for line in target.read_text().splitlines()]
    assert len(rows) == 12 and all(r["completion"][0].endswith("API.search()") for r in rows)


def test_cli_rejects_unknown_env(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--env", "toolbench/Nope-v0"]) == 2
    assert "unknown env id" in capsys.readouterr().err


def test_console_script_runs(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolgym.cli",
            "eval",
            "--agent",
            "oracle",
            "--env",
            "toolbench/TripBooking-v0",
            "--limit",
            "2",
            "--no-progress",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "toolbench/TripBooking-v0" in out.stdout


HOME = "toolbench/HomeSearch-v0"
OW_TASKS = str(
    Path(__file__).resolve().parents[1]
    / "toolgym/families/openweather/data/openweather-v0-test.jsonl"
)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["eval", "--env", "toolbench/Nope-v0"], "unknown env id"),
        (["eval", "--shots", "many"], "--shots: expected a number >= 0 or 'oracle', got 'many'"),
        (["eval", "--limit", "0"], "--limit: expected a whole number >= 1, got '0'"),
        (["eval", "--agent", "nobody"], "invalid choice: 'nobody'"),
        (["eval", "--unknown-flag"], "unrecognized arguments: --unknown-flag"),
        (["eval", "--task-file", "/no/such/tasks.jsonl"], "no file at '/no/such/tasks.jsonl'"),
        (
            [
                "eval",
                "--env",
                "toolbench/HomeSearch-v0",
                "--agent",
                "oracle",
                "--task-file",
                OW_TASKS,
            ],
            "does not hold tasks of toolbench/HomeSearch-v0",
        ),
        (["eval", "--env", HOME, "--model", "./models/missing"], "no model at './models/missing'"),
        (["eval", "--env", HOME, "--model", "/abs/missing"], "no model at '/abs/missing'"),
        (["eval", "--env", HOME, "--model", "someone/not-cached"], "downloads are off"),
        (["eval", "--env", HOME, "--base-url", "localhost:8000", "--model", "m"], "http(s) URL"),
        (["eval", "--split", "train", "--agent", "oracle"], "--split train is unlimited"),
        (["serve", "openweather", "--port", "70000"], "a port from 0 to 65535"),
        (["generate", "--env", "toolbench/Nope-v0"], "unknown env id"),
        (["eval", "--seed", "-5"], "--seed: expected a whole number >= 0, got '-5'"),
        (["eval", "--agent", "oracle", "--strategy", "dfsdt"], "it needs --agent llm"),
        (["eval", "--env", HOME, "--base-url", "http://127.0.0.1:1/v1"], "pass --model NAME"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(
    argv: list[str],
    expected: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))  # an empty cache
    monkeypatch.chdir(tmp_path)
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own errors
        code = e.code
    err = capsys.readouterr().err
    assert code == 2
    assert expected in err
    assert err.strip().count("\n") == 0, err
    assert "Traceback" not in err


def test_debug_shows_the_traceback(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no file at"):
        main(["--debug", "eval", "--task-file", str(tmp_path / "missing.jsonl")])


def test_a_resume_with_other_settings_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", "--agent", "random", "--env", "toolbench/HomeSearch-v0", "--limit", "2"]
    argv += ["--no-progress", "--out", str(tmp_path)]
    assert main(argv) == 0
    assert main(argv) == 0  # the same settings resume
    capsys.readouterr()
    assert main([*argv, "--seed", "3"]) == 2
    err = capsys.readouterr().err
    assert "written with other settings (seed: 0 on disk, 3 now)" in err
    assert main([*argv, "--seed", "3", "--no-resume"]) == 0


def test_a_task_file_that_is_not_text_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "tasks.jsonl"
    bad.write_bytes(b'{"prompt": "\xff\xfe"}\n')
    assert main(["eval", "--agent", "oracle", "--env", HOME, "--task-file", str(bad)]) == 2
    assert "is not UTF-8 text" in capsys.readouterr().err


def test_an_unwritable_out_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["eval", "--agent", "oracle", "--env", HOME, "--out", str(blocker / "x")]) == 2
    assert "cannot be written" in capsys.readouterr().err
