"""Results files: manifests, torn and duplicate lines, the lock, per-episode seeds, kills, resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from conftest import KILL_RESUME

from toolgym.agents.backends import model_identity
from toolgym.agents.backends.base import PromptRejected
from toolgym.agents.backends.openai_http import OpenAIBackend
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.agents.llm_agent import LLMAgent
from toolgym.envs.protocol import task_env
from toolgym.errors import InfrastructureError
from toolgym.evaluation.records import EpisodeRecord
from toolgym.evaluation.results import (
    ResultsFile,
    ResultsLockedError,
    ResultsMismatchError,
    make_manifest,
    manifest_path,
    read_records,
)
from toolgym.evaluation.runner import evaluate, results_path

HOME = "toolbench/HomeSearch-v0"
TRIP = "toolbench/TripBooking-v0"
ROOT = Path(__file__).resolve().parent.parent


def record(task_id: int, text: str = "") -> EpisodeRecord:
    return EpisodeRecord(task_id, f"task {task_id} {text}")


def comparable(path: Path) -> list[dict[str, Any]]:
    """The records of a results file, without the wall times."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        row.pop("time_s")
    return rows


# -- reading back ---------------------------------------------------------------------------------


def two_records(tmp_path: Path, text: str) -> Path:
    """A results file holding the records of tasks 0 and 1 (``text`` in the second)."""
    path = tmp_path / "r.jsonl"
    with ResultsFile(path, {"env_id": HOME}) as results:
        results.append(record(0))
        results.append(record(1, text))
    return path


def test_a_torn_last_line_is_dropped_and_the_file_repaired(tmp_path: Path) -> None:
    path = two_records(tmp_path, "ünïcode ✓")
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"task_id": 2, "instruction": "cut he')
    records, dropped = read_records(path)
    assert [r.task_id for r in records] == [0, 1] and dropped == 1
    assert path.read_bytes() == whole


def test_a_utf8_sequence_cut_at_the_end_does_not_break_a_rerun(tmp_path: Path) -> None:
    path = two_records(tmp_path, "✓✓✓")
    data = path.read_bytes()
    cut = data.rindex("✓".encode()) + 1  # inside the last three-byte sequence
    path.write_bytes(data[:cut] + b"\n")  # even with a newline after the cut bytes
    with ResultsFile(path, {"env_id": HOME}) as results:
        assert [r.task_id for r in results.records] == [0]
        assert results.dropped == 1


def test_garbage_and_duplicate_lines_are_dropped_first_record_kept(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with ResultsFile(path, {"env_id": HOME}) as results:
        results.append(record(0, "first"))
    with path.open("ab") as handle:
        handle.write(b"not json\n[1, 2]\n\xff\xfe\n")
        handle.write(json.dumps(record(0, "second").to_dict()).encode() + b"\n")
        handle.write(json.dumps(record(1).to_dict()).encode() + b"\n")
    records, dropped = read_records(path)
    assert [(r.task_id, r.instruction) for r in records] == [(0, "task 0 first"), (1, "task 1 ")]
    assert dropped == 4
    assert read_records(path) == (records, 0)  # repaired once, for good


def test_records_with_lone_surrogates_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    with ResultsFile(path, {}) as results:
        results.append(record(0, "\ud800 lone"))
    (back,), dropped = read_records(path)
    assert dropped == 0 and back.instruction == "task 0 \ud800 lone"


# -- manifests ------------------------------------------------------------------------------------


def test_a_resume_with_other_settings_is_refused(tmp_path: Path) -> None:
    evaluate(HOME, "random", limit=3, out_dir=tmp_path, progress=False)
    for change in (
        {"seed": 1},
        {"env_kwargs": {"action_mode": "call"}},
        {"strategy": "react"},
    ):
        with pytest.raises(ResultsMismatchError, match="other settings"):
            kwargs: dict[str, Any] = {"limit": 3, "out_dir": tmp_path, "progress": False}
            evaluate(HOME, "random", **{**kwargs, **change, "label": "random"})
    # another split is another file; the same settings resume; a larger limit extends the run
    assert evaluate(HOME, "random", split="demo", limit=1, out_dir=tmp_path, progress=False)
    again = evaluate(HOME, "random", limit=5, out_dir=tmp_path, progress=False)
    assert again.resumed == 3 and len(again.records) == 5


def test_records_without_a_manifest_are_not_resumed(tmp_path: Path) -> None:
    result = evaluate(HOME, "oracle", limit=2, out_dir=tmp_path, progress=False)
    manifest_path(result.path).unlink()
    with pytest.raises(ResultsMismatchError, match="no manifest"):
        evaluate(HOME, "oracle", limit=2, out_dir=tmp_path, progress=False)
    fresh = evaluate(HOME, "oracle", limit=2, out_dir=tmp_path, progress=False, resume=False)
    assert fresh.resumed == 0 and manifest_path(fresh.path).exists()


def test_the_manifest_names_the_run(tmp_path: Path) -> None:
    task_file = ROOT / "toolgym/families/home_search/data/home_search-v0-demo.jsonl"
    result = evaluate(
        HOME,
        "random",
        limit=1,
        seed=7,
        out_dir=tmp_path,
        progress=False,
        env_kwargs={"task_file": str(task_file)},
        settings={"model": "hf:some-model", "shots": 3},
    )
    manifest = json.loads(manifest_path(result.path).read_text())
    assert manifest["env_id"] == HOME and manifest["seed"] == 7
    assert manifest["agent"] == "random" and manifest["model"] == "hf:some-model"
    assert manifest["tasks"]["task_file"] == str(task_file)
    assert len(manifest["tasks"]["sha256"]) == 64
    assert manifest["toolgym_version"] and manifest["shots"] == 3


# -- the lock -------------------------------------------------------------------------------------


def test_a_second_writer_is_refused_while_the_first_holds_the_file(tmp_path: Path) -> None:
    path = results_path(tmp_path, HOME, "oracle", "test")
    with ResultsFile(path, {}):
        with pytest.raises(ResultsLockedError, match="another evaluation"):
            ResultsFile(path, {}).open()
        with pytest.raises(ResultsLockedError):
            evaluate(HOME, "oracle", limit=1, out_dir=tmp_path, progress=False)
    with ResultsFile(path, {}):  # released on close
        pass


def test_a_killed_writer_releases_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from toolgym.evaluation.results import ResultsFile\n"
            f"held = ResultsFile({str(path)!r}, {{}}).open()\n"
            "print('locked', flush=True)\n"
            "time.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(ResultsLockedError):
            ResultsFile(path, {}).open()
    finally:
        holder.kill()
        holder.wait()
    with ResultsFile(path, {}):
        pass


# -- seeds ----------------------------------------------------------------------------------------


def test_random_episodes_do_not_depend_on_what_ran_before() -> None:
    whole = evaluate(TRIP, "random", limit=12, progress=False)
    tail_ids = [r.task_id for r in whole.records[7:]]
    tail = evaluate(TRIP, "random", task_ids=tail_ids, progress=False)
    # task_ids start at index 0, so the env's reset seeds differ; the agent's draws do not
    assert [r.actions for r in tail.records] == [r.actions for r in whole.records[7:]]
    other_seed = evaluate(TRIP, "random", limit=12, seed=1, progress=False)
    assert [r.actions for r in other_seed.records] != [r.actions for r in whole.records]


# -- infrastructure failures ----------------------------------------------------------------------


def closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_unreachable_model_server_stops_the_run_and_records_nothing(tmp_path: Path) -> None:
    backend = OpenAIBackend(
        "m", base_url=f"http://127.0.0.1:{closed_port()}/v1", max_retries=0, timeout=5
    )
    with pytest.raises(InfrastructureError, match="cannot reach"):
        evaluate(
            HOME,
            lambda env: LLMAgent.for_env(env, backend),
            limit=2,
            out_dir=tmp_path,
            progress=False,
            label="llm",
        )
    (path,) = tmp_path.glob("*.jsonl")
    assert path.read_text() == ""


def test_cli_exits_non_zero_with_one_line_when_the_server_is_down(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    argv = f"eval --base-url {url} --model m --retries 0 --env {HOME} --limit 2 --no-progress"
    out = subprocess.run(
        [sys.executable, "-m", "toolgym.cli", *argv.split(), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 1
    assert out.stderr.strip().count("\n") == 0, out.stderr
    assert out.stderr.startswith("toolgym eval: failed: cannot reach the OpenAI-compatible server")
    assert all(p.read_text() == "" for p in tmp_path.glob("*.jsonl"))


# -- kill and resume ------------------------------------------------------------------------------

SLOW_DRIVER = """
import sys, time
import toolgym.evaluation.runner as runner
play = runner.run_episode
def slow(*args, **kwargs):
    time.sleep(float(sys.argv[1]))
    return play(*args, **kwargs)
runner.run_episode = slow
from toolgym.cli import main
sys.exit(main(sys.argv[2:]))
"""


def eval_command(agent: str, out: Path) -> list[str]:
    return [
        "eval",
        "--agent",
        agent,
        "--env",
        HOME,
        "--env",
        TRIP,
        "--limit",
        "30",
        "--no-progress",
        "--out",
        str(out),
    ]


def saved_lines(out: Path) -> int:
    return sum(p.read_bytes().count(b"\n") for p in out.glob("*.jsonl"))


def _as_from_a_terminal() -> None:
    """In the child: Ctrl-C as a shell delivers it, whatever the test process did to signals.

    An ignored or blocked SIGINT is inherited across exec.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def run_driver(args: list[str], delay: float, driver: Path, **kwargs: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(driver), str(delay), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_as_from_a_terminal,
        **kwargs,
    )


@pytest.mark.parametrize("agent", ["random", "oracle"])
def test_killed_and_resumed_runs_equal_an_uninterrupted_run(tmp_path: Path, agent: str) -> None:
    driver = tmp_path / "driver.py"
    driver.write_text(SLOW_DRIVER)
    whole = tmp_path / "whole"
    assert run_driver(eval_command(agent, whole), 0.0, driver).wait(timeout=120) == 0
    killed = tmp_path / "killed"
    rng = np.random.default_rng(1234)
    kills = 0
    for _ in range(40):
        proc = run_driver(eval_command(agent, killed), 0.01, driver)
        # kill after a random number of further episodes, at a random point of the next one
        target = saved_lines(killed) + int(rng.integers(1, 12))
        while proc.poll() is None and saved_lines(killed) < target:
            time.sleep(0.002)
        time.sleep(float(rng.uniform(0.0, 0.015)))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            kills += 1
            continue
        assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
        break
    else:
        pytest.fail("the run never finished")
    KILL_RESUME["kills"] += kills
    assert kills >= 2, "no kill landed during the run: the timing of this test needs a look"
    names = sorted(p.name for p in whole.glob("*.jsonl"))
    assert names == sorted(p.name for p in killed.glob("*.jsonl")) and len(names) == 2
    for name in names:
        assert comparable(killed / name) == comparable(whole / name), name
    summary = json.loads((whole / "summary.json").read_text())
    assert json.loads((killed / "summary.json").read_text()) == summary
    KILL_RESUME["killed runs equal to uninterrupted ones"] += 1


def test_ctrl_c_says_what_is_saved_and_how_to_resume(tmp_path: Path) -> None:
    driver = tmp_path / "driver.py"
    driver.write_text(SLOW_DRIVER)
    out = tmp_path / "out"
    # episodes slow enough (60 of them, 0.05 s each) that the signal lands while the run goes on
    proc = run_driver(eval_command("random", out), 0.05, driver)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait until some episodes are saved
        if any(p.stat().st_size > 0 for p in out.glob("*.jsonl")):
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err[-2000:]
    saved = sum(len(p.read_text().splitlines()) for p in out.glob("*.jsonl"))
    assert f"interrupted: {saved} episode(s) of this run saved in {out}/" in err
    assert "resume with: toolgym eval --agent random" in err
    assert "Traceback" not in err
    assert os.path.exists(out / f"{HOME.replace('/', '_')}__random__test.manifest.json")


# -- review cases ---------------------------------------------------------------------------------


def test_a_run_that_saved_nothing_leaves_no_settings_behind(tmp_path: Path) -> None:
    def boom(prompt: Any) -> str:
        raise RuntimeError("model crashed")

    with pytest.raises(InfrastructureError):
        evaluate(
            HOME,
            lambda env: LLMAgent.for_env(env, ScriptedBackend(boom)),
            limit=2,
            strategy="react",
            out_dir=tmp_path,
            progress=False,
            label="llm",
        )
    # nothing was saved, so another setting may use the file; its manifest is then the new one
    again = evaluate(
        HOME,
        lambda env: LLMAgent.for_env(env, ScriptedBackend(["API.search()"], cycle=True)),
        limit=2,
        out_dir=tmp_path,
        progress=False,
        label="llm",
    )
    assert json.loads(manifest_path(again.path).read_text())["strategy"] == "single"


def test_records_with_mistyped_fields_are_dropped(tmp_path: Path) -> None:
    path = two_records(tmp_path, "fine")
    good = json.loads(path.read_text().splitlines()[0])
    with path.open("a") as handle:
        for broken in (
            {**good, "task_id": 7, "turns": 5},
            {"task_id": 8, "actions": []},  # no instruction
            {**good, "task_id": 9, "steps": "two"},
        ):
            handle.write(json.dumps(broken) + "\n")
    records, dropped = read_records(path)
    assert [r.task_id for r in records] == [0, 1] and dropped == 3


def test_runs_on_the_train_split_resume(tmp_path: Path) -> None:
    first = evaluate(HOME, "random", split="train", limit=4, out_dir=tmp_path, progress=False)
    more = evaluate(HOME, "random", split="train", limit=7, out_dir=tmp_path, progress=False)
    assert more.resumed == 4 and [r.task_id for r in more.records[:4]] == [
        r.task_id for r in first.records
    ]
    assert all(str(r.task_id).startswith("train-") for r in more.records)


def test_one_rejected_prompt_fails_only_its_episode_in_a_batch() -> None:
    def reply(prompt: Any) -> str:
        if f"Task: {victim}" in str(prompt):
            raise PromptRejected("too long for the context")
        return "API.search()"

    env = gym.make(HOME)
    victim = task_env(env).get_task(task_env(env).task_ids[2]).instruction
    result = evaluate(
        HOME,
        lambda e: LLMAgent.for_env(e, ScriptedBackend(reply)),
        limit=4,
        batch_size=4,
        progress=False,
    )
    categories = [r.error_category for r in result.records]
    assert categories[2] == "agent_error" and "agent_error" not in categories[:2] + categories[3:]


def test_model_identity_tells_apart_models_of_the_same_name(tmp_path: Path) -> None:
    for folder, config in (("a", '{"x": 1}'), ("b", '{"x": 2}')):
        (tmp_path / folder / "ckpt").mkdir(parents=True)
        (tmp_path / folder / "ckpt" / "config.json").write_text(config)
    identities = []
    for folder in ("a", "b"):
        os.chdir(tmp_path / folder)
        identities.append(model_identity("hf", model="ckpt"))
    os.chdir(ROOT)
    assert identities[0]["name"] == identities[1]["name"] == "hf:ckpt"
    assert identities[0]["path"] != identities[1]["path"]
    assert make_manifest({"model": identities[0]}) != make_manifest({"model": identities[1]})


def test_a_mismatched_resume_is_refused_before_the_model_is_used(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    argv = f"eval --base-url {url} --model m --retries 0 --env {HOME} --limit 2 --no-progress"
    base = [sys.executable, "-m", "toolgym.cli", *argv.split(), "--out", str(tmp_path)]
    first = subprocess.run(base, capture_output=True, text=True, timeout=120)
    assert first.returncode == 1  # the server is down: nothing recorded, the manifest written
    (path,) = tmp_path.glob("*.jsonl")
    manifest = json.loads(manifest_path(path).read_text())
    manifest = {
        k: v for k, v in manifest.items() if k not in ("manifest_version", "toolgym_version")
    }
    with ResultsFile(path, manifest) as results:  # as if one episode had been saved
        results.append(record(0))
    second = subprocess.run([*base, "--seed", "4"], capture_output=True, text=True, timeout=120)
    assert second.returncode == 2, second.stderr  # refused before the server is tried (exit 1)
    assert "other settings (seed: 0 on disk, 4 now)" in second.stderr


# -- runs that never mix --------------------------------------------------------------------------


def test_a_smaller_run_after_a_larger_one_counts_its_own_tasks_everywhere(tmp_path: Path) -> None:
    from toolgym.evaluation.runs import load_run

    evaluate(HOME, "random", limit=5, out_dir=tmp_path, progress=False)
    small = evaluate(HOME, "random", limit=2, out_dir=tmp_path, progress=False)
    assert small.resumed == 2 and small.summary["episodes"] == 2
    manifest = json.loads(manifest_path(small.path).read_text())
    assert manifest["run"]["limit"] == 2 and manifest["run"]["task_count"] == 2
    assert manifest["run"]["task_ids"] == ["test-000", "test-001"]
    run = load_run(tmp_path)  # what toolgym compare reads
    assert run.meta["episodes"] == 2 and run.summaries[0]["episodes"] == 2
    assert len(small.path.read_text().splitlines()) == 5  # the other three stay on disk
    again = evaluate(HOME, "random", limit=5, out_dir=tmp_path, progress=False)
    assert again.resumed == 5 and load_run(tmp_path).meta["episodes"] == 5


def test_a_foreign_record_in_a_results_file_is_never_counted(tmp_path: Path) -> None:
    from toolgym.evaluation.runs import load_run

    first = evaluate(HOME, "random", limit=2, out_dir=tmp_path, progress=False)
    other = evaluate(TRIP, "random", limit=3, progress=False).records
    stray = EpisodeRecord.from_dict({**first.records[0].to_dict(), "task_id": "test-099"})
    with first.path.open("a") as handle:
        for foreign in (other[2], stray):  # another env's record; a task no run asked for
            handle.write(json.dumps(foreign.to_dict()) + "\n")
    assert load_run(tmp_path).meta["episodes"] == 2
    again = evaluate(HOME, "random", limit=3, out_dir=tmp_path, progress=False)
    # test-002 of Trip Booking is not Home Search's test-002: it is played, not resumed
    assert again.resumed == 2 and again.records[2].env_id == HOME


SUMMARY_WRITER = """
import json, sys
from pathlib import Path
from toolgym.cli.eval_output import write_eval_outputs
env, out = sys.argv[1], sys.argv[2]
for k in range(40):
    write_eval_outputs([{"env": env, "agent": "random", "episodes": k, "success": 0.5}], out)
    # the other writer merges under the lock, from what is on disk: this run's entry never
    # goes back to an older value
    saved = json.loads((Path(out) / "summary.json").read_text())["per_env"]
    mine = [s["episodes"] for s in saved if s["env"] == env]
    assert mine and mine[0] >= k, (k, mine)
"""


def test_concurrent_runs_into_one_folder_keep_both_summaries(tmp_path: Path) -> None:
    script = tmp_path / "writer.py"
    script.write_text(SUMMARY_WRITER)
    out = tmp_path / "out"
    procs = [
        subprocess.Popen([sys.executable, str(script), env, str(out)], stderr=subprocess.PIPE)
        for env in (HOME, TRIP)
    ]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()[-2000:]
    summary = json.loads((out / "summary.json").read_text())
    assert sorted((s["env"], s["episodes"]) for s in summary["per_env"]) == [(HOME, 39), (TRIP, 39)]
