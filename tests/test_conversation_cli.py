"""``toolgym eval`` with a model playing the user: its replies recorded, then replayed exactly."""

import json
from pathlib import Path

import pytest

import toolgym.agents.backends as backends
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.cli import main
from toolgym.cli.eval_user import USER_RECORDING

CHAT = "toolbench/HomeSearchChat-v0"


def _records(out: Path) -> list[dict]:
    (path,) = out.glob("toolbench_HomeSearchChat-v0__*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def user_model(monkeypatch: pytest.MonkeyPatch) -> list[ScriptedBackend]:
    """``make_backend`` builds a scripted user that always answers the same."""
    made: list[ScriptedBackend] = []

    def make(*args, **kwargs) -> ScriptedBackend:
        backend = ScriptedBackend(
            ["Three bedrooms, please. Anything is fine otherwise."], cycle=True
        )
        made.append(backend)
        return backend

    monkeypatch.setattr(backends, "make_backend", make)
    return made


def test_a_model_played_user_is_recorded_with_the_run_and_replays(
    tmp_path: Path, user_model: list[ScriptedBackend]
) -> None:
    out = tmp_path / "run"
    base = ["eval", "--env", CHAT, "--agent", "oracle", "--limit", "3", "--no-progress"]
    assert main([*base, "--user-model", "embedded", "--out", str(out)]) == 0
    assert len(user_model) == 1
    recording = out / USER_RECORDING
    entries = [json.loads(line) for line in recording.read_text().splitlines()]
    recorded = _records(out)
    messages = sum(r["metrics"]["turns"] for r in recorded)
    assert len(entries) == messages == len(user_model[0].prompts) > 0
    assert all(e["reply"].startswith("Three bedrooms") for e in entries)
    manifest = json.loads(next(out.glob("*.manifest.json")).read_text())
    assert manifest["env_kwargs"]["user"] == "llm:embedded"
    # the oracle's questions are read as questions whoever answers them
    assert sum(r["metrics"]["questions"] for r in recorded) == messages

    again = tmp_path / "replayed"
    assert main([*base, "--user-replay", str(recording), "--out", str(again)]) == 0
    assert len(user_model) == 1  # no model
    replayed = _records(again)
    for first, second in zip(recorded, replayed, strict=True):
        assert (first["reward"], first["metrics"], first["actions"]) == (
            second["reward"],
            second["metrics"],
            second["actions"],
        )
    assert not any((r.get("error") or {}).get("category") == "user_replay_miss" for r in replayed)


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--user-model", "embedded", "--user-replay", "x.jsonl"], "give one"),
        (["--user-base-url", "http://127.0.0.1:9/v1"], "give both"),
        (["--user-model", "embedded", "--backend", "vector"], "--backend local"),
        (["--user-timeout", "5"], "give both"),
    ],
)
def test_user_options_that_do_not_fit_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], says: str
) -> None:
    argv = ["eval", "--env", CHAT, "--agent", "oracle", "--out", str(tmp_path), *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_a_user_timeout_that_is_no_number_of_seconds_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["eval", "--env", CHAT, "--user-model", "embedded", "--user-timeout", "0"])
    assert stop.value.code == 2 and "expected seconds" in capsys.readouterr().err


def test_a_user_option_for_an_env_without_a_user_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", "--env", "toolbench/HomeSearch-v0", "--agent", "oracle"]
    assert main([*argv, "--user-model", "embedded", "--out", str(tmp_path)]) == 2
    assert "conversation envs" in capsys.readouterr().err


def _summary(out: Path) -> dict:
    rows = json.loads((out / "summary.json").read_text())["per_env"]
    (row,) = [r for r in rows if r["env"] == CHAT]
    return row


def test_episodes_the_user_failed_are_left_out_and_the_run_says_so(
    tmp_path: Path, user_model: list[ScriptedBackend], capsys: pytest.CaptureFixture[str]
) -> None:
    """A replay that lacks a conversation loses that episode: unscored, warned, exit 4."""
    out = tmp_path / "run"
    base = ["eval", "--env", CHAT, "--agent", "oracle", "--no-progress"]
    assert main([*base, "--limit", "2", "--user-model", "embedded", "--out", str(out)]) == 0
    recording = out / USER_RECORDING
    capsys.readouterr()
    again = tmp_path / "replayed"
    argv = [*base, "--limit", "3", "--user-replay", str(recording), "--out", str(again)]
    assert main(argv) == 4  # the third task's conversation is not in the recording
    err = capsys.readouterr().err
    assert "1 episode(s) not scored" in err and "user_replay_miss: 1" in err
    records = _records(again)
    lost = [r for r in records if r.get("unscored")]
    assert len(lost) == 1 and lost[0]["unscored"]["category"] == "user_replay_miss"
    assert lost[0]["error"]["category"] == "user_replay_miss"
    assert lost[0]["steps"] == 1  # the episode stopped where the user failed
    summary = _summary(again)
    assert summary["episodes"] == 2 and summary["unscored"] == 1
    assert summary["unscored_errors"] == {"user_replay_miss": 1}
    assert "user_replay_miss" not in summary["errors"]  # not counted as the agent's error
    allowed = tmp_path / "allowed"
    argv = [*base, "--limit", "3", "--user-replay", str(recording), "--out", str(allowed)]
    assert main([*argv, "--allow-unscored"]) == 0


def test_a_user_model_that_fails_leaves_the_episode_unscored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Down(ScriptedBackend):
        def generate(self, *args: object, **kwargs: object) -> list:
            raise ConnectionError("server unreachable")

    monkeypatch.setattr(backends, "make_backend", lambda *a, **k: Down(["unused"]))
    out = tmp_path / "run"
    argv = ["eval", "--env", CHAT, "--agent", "oracle", "--no-progress", "--limit", "2"]
    assert main([*argv, "--user-model", "embedded", "--out", str(out)]) == 4
    assert "user_failed: 2" in capsys.readouterr().err
    summary = _summary(out)
    assert summary["episodes"] == 0 and summary["unscored"] == 2


def test_the_user_timeout_fails_a_slow_reply(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    import gymnasium as gym

    from toolgym.agents.llm_user import LLMUser

    class Slow(ScriptedBackend):
        def generate(self, *args: object, **kwargs: object) -> list:
            time.sleep(0.05)
            return super().generate(*args, **kwargs)

    env = gym.make(CHAT, user=LLMUser(Slow(["Three bedrooms."]), timeout_s=0.01))
    env.reset(options={"task_id": "test-003"})
    _, _, _, _, info = env.step('message_user("How many bedrooms?")')
    assert info["error"]["category"] == "user_failed" and "timeout" in info["error"]["message"]
    with pytest.raises(ValueError, match="timeout_s"):
        LLMUser(Slow(["x"]), timeout_s=0)
