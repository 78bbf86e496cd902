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
    ],
)
def test_user_options_that_do_not_fit_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], says: str
) -> None:
    argv = ["eval", "--env", CHAT, "--agent", "oracle", "--out", str(tmp_path), *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_a_user_option_for_an_env_without_a_user_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["eval", "--env", "toolbench/HomeSearch-v0", "--agent", "oracle"]
    assert main([*argv, "--user-model", "embedded", "--out", str(tmp_path)]) == 2
    assert "conversation envs" in capsys.readouterr().err
