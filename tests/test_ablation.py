"""``toolgym eval --ablation``: each configuration runs as it says, and the table is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_backend_http import FakeServer, chat_reply, server  # noqa: F401 - the fixture

from toolgym.cli import main
from toolgym.evaluation.ablation import ABLATION_CONFIGS, AblationRun, ablation_rows

HOME = "toolbench/HomeSearch-v0"


def _user_text(body: dict) -> str:
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")


def test_ablation_runs_each_configuration_against_a_server(
    server: FakeServer,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for _ in range(40):  # a program that runs (not the gold): every episode is executable
        server.add(200, chat_reply('API.set_location("Austin, TX")\nAPI.search()'))
    argv = ["eval", "--env", HOME, "--limit", "2", "--ablation", "--no-progress"]
    argv += ["--base-url", server.base_url, "--model", "m", "--grammar-format", "vllm"]
    assert main([*argv, "--out", str(tmp_path)]) == 0
    bodies = [r.body for r in server.requests]
    assert len(bodies) == 5 * 2  # zero/few-shot x system prompt, then the grammar row
    with_system = [any(m["role"] == "system" for m in b["messages"]) for b in bodies]
    with_demos = ["following set of examples" in _user_text(b) for b in bodies]
    with_grammar = ["structured_outputs" in b for b in bodies]
    assert with_demos == [False] * 4 + [True] * 6
    assert with_system == [False, False, True, True, False, False, True, True, True, True]
    assert with_grammar == [False] * 8 + [True] * 2
    text = (tmp_path / "ablation.md").read_text()
    for config in ABLATION_CONFIGS[:5]:
        assert f"| {config.name} |" in text
    assert "fine-tuned" not in text  # no --adapter: no fine-tuned rows
    table = json.loads((tmp_path / "ablation.json").read_text())
    assert [r["HomeSearch"] for r in table["executable"]] == [1.0] * 5
    assert "ablation (the paper's Table 7), 5 configurations" in capsys.readouterr().out


def test_ablation_refuses_what_it_sets_itself(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--env", HOME, "--ablation", "--no-system-prompt"]) == 2
    assert "drop --no-system-prompt" in capsys.readouterr().err
    assert main(["eval", "--env", HOME, "--ablation", "--agent", "oracle"]) == 2
    assert "LLM agent configurations" in capsys.readouterr().err


def test_ablation_rows_keep_each_configuration_and_its_time() -> None:
    summary = {"env": HOME, "agent": "x", "success": 0.5, "executable": 0.75, "episodes": 4}
    runs = [
        AblationRun(ABLATION_CONFIGS[0], [summary], 10.0, 4),
        AblationRun(ABLATION_CONFIGS[3], [{**summary, "success": 1.0}], 20.0, 4),
    ]
    table = ablation_rows(runs)
    assert [(r["configuration"], r["mean"], r["wall_s"]) for r in table["headline"]] == [
        ("zero-shot", 0.5, 10.0),
        ("few-shot + system prompt", 1.0, 20.0),
    ]
    assert [r["HomeSearch"] for r in table["executable"]] == [0.75, 0.75]


def test_an_env_without_a_grammar_gets_no_grammar_row_of_its_own(
    server: FakeServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Python envs run free under every configuration; each row still gets its own results."""
    argv = ["eval", "--env", "toolbench/GoogleSheets-v0", "--limit", "1", "--ablation"]
    argv += ["--base-url", server.base_url, "--model", "m", "--grammar-format", "vllm"]
    assert main([*argv, "--no-progress", "--out", str(tmp_path)]) == 0
    assert not any("structured_outputs" in r.body for r in server.requests)
    rows = json.loads((tmp_path / "ablation.json").read_text())["headline"]
    assert len(rows) == 5


def test_an_adapter_is_refused_for_a_served_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "adapter_config.json").write_text("{}")
    argv = ["eval", "--env", HOME, "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    assert main([*argv, "--adapter", str(tmp_path)]) == 2
    assert "local hf model" in capsys.readouterr().err
