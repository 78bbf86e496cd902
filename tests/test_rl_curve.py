"""Whether a run's reward rose against its noise (:mod:`toolgym.training.rl_curve`)."""

from __future__ import annotations

import math
import random

import pytest

from toolgym.training.rl_curve import (
    curve_summary,
    describe,
    reward_rise,
    signal_steps,
    with_trainer_logs,
)


def test_the_noise_comes_from_consecutive_steps() -> None:
    # alternating 0, 1: differences of +-1, so sigma = stdev([1, -1, ...]) / sqrt(2)
    rewards = [0.0, 1.0] * 5
    rise = reward_rise(rewards)
    assert rise is not None
    differences = [1.0, -1.0] * 4 + [1.0]
    sigma = (sum(d * d for d in differences) - sum(differences) ** 2 / 9) / 8
    assert rise["step_noise"] == pytest.approx(math.sqrt(sigma) / math.sqrt(2))
    assert rise["rise_se"] == pytest.approx(rise["step_noise"] * math.sqrt(2 / 5))
    assert rise["first"] == pytest.approx(0.4) and rise["last"] == pytest.approx(0.6)
    assert not rise["rose"]  # 0.2 up is well inside that noise


def test_a_steady_climb_rises_and_a_flat_noisy_run_does_not() -> None:
    rng = random.Random(0)
    climb = [0.1 + 0.04 * t + rng.gauss(0, 0.03) for t in range(20)]
    flat = [0.3 + rng.gauss(0, 0.1) for _ in range(20)]
    up = reward_rise(climb)
    assert up is not None and up["rose"] and up["z"] > 2
    # a slow trend barely enters the noise: sigma stays near the 0.03 it was drawn with
    assert up["step_noise"] < 0.06
    level = reward_rise(flat)
    assert level is not None and not level["rose"]


def test_short_runs_use_half_their_steps_and_very_short_ones_none() -> None:
    rise = reward_rise([0.0, 0.0, 0.5, 1.0], window=5)
    assert rise is not None and rise["window"] == 2
    assert rise["first"] == 0.0 and rise["last"] == 0.75
    assert reward_rise([0.0, 1.0]) is None
    # no noise at all: any rise is a rise, no z
    same = reward_rise([0.5, 0.5, 0.5, 0.5])
    assert same is not None and same["z"] is None and not same["rose"]


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError, match="window"):
        reward_rise([0.0] * 4, window=0)
    with pytest.raises(ValueError, match="window"):
        reward_rise([0.0] * 4, window=True)
    with pytest.raises(ValueError, match="finite"):
        reward_rise([0.0, float("nan"), 1.0])


def test_signal_counts_steps_with_a_group_whose_rewards_differ() -> None:
    history = [
        {"frac_reward_zero_std": 1.0},
        {"frac_reward_zero_std": 0.5},
        {"frac_reward_zero_std": 0.0},
        {"frac_reward_zero_std": None},
    ]
    assert signal_steps(history) == {
        "steps": 3,
        "with_signal": 2,
        "share": pytest.approx(2 / 3),
        "mean_frac_reward_zero_std": pytest.approx(0.5),
    }
    assert signal_steps([{"reward": 0.1}]) is None


def test_trainer_logs_join_the_history_by_step() -> None:
    history = [{"step": 0, "reward": 0.1}, {"step": 1, "reward": 0.2}, {"step": 5, "reward": 0}]
    logs = [
        {"step": 1, "frac_reward_zero_std": 0.75, "loss": 0.1},
        {"step": 2, "frac_reward_zero_std": 0.25},
        {"train_runtime": 3.0},
    ]
    joined = with_trainer_logs(history, logs)
    assert [h.get("frac_reward_zero_std") for h in joined] == [0.75, 0.25, None]
    assert history[0] == {"step": 0, "reward": 0.1}  # the input is not changed


def test_the_summary_reads_as_sentences() -> None:
    history = [
        {"reward": r, "frac_reward_zero_std": f}
        for r, f in zip([0.0, 0.1, 0.1, 0.3, 0.5, 0.6], [1.0, 0.5, 0.5, 0.0, 0.0, 0.5], strict=True)
    ]
    lines = describe(curve_summary(history, window=3))
    assert lines[0].startswith("train reward: first 3 steps 0.067, last 3 0.467: +0.400")
    assert lines[1] == (
        "GRPO groups with differing rewards: in 5 of 6 steps (mean frac_reward_zero_std 0.42)"
    )


def test_a_run_too_short_to_judge_says_so() -> None:
    lines = describe(curve_summary([{"reward": 0.25}, {"reward": 0.5}]))
    assert lines == [
        "train reward: first step 0.250, last 0.500 (2 steps: too few to tell a rise from noise)"
    ]
    assert describe(curve_summary([])) == []


def test_entries_without_a_step_or_a_figure_are_left_as_they_are() -> None:
    history = [{"step": None, "reward": 0.1}, {"reward": 0.2}, {"step": 0, "reward": 0.3}]
    logs = [{"step": 1, "frac_reward_zero_std": None}, {"step": None, "frac_reward_zero_std": 1.0}]
    assert with_trainer_logs(history, logs) == history


def test_logged_rewards_read_the_steps_written_so_far(tmp_path) -> None:
    from toolgym.training.rl_curve import LOG_FILE, logged_rewards

    assert logged_rewards(tmp_path) == []
    (tmp_path / LOG_FILE).write_text(
        '{"step": 1, "reward": 0.25, "loss": 0.1}\n{"step": 1, "train_runtime": 3}\n'
        '{"step": 2, "reward": 0.5}\n{"step": 3, "rew'  # a line cut short by a stopped run
    )
    assert logged_rewards(tmp_path) == [0.25, 0.5]


def test_the_log_says_when_training_began_and_how_long_each_step_took(tmp_path) -> None:
    from toolgym.training.rl_curve import LOG_FILE, logged_rewards, logged_timing

    assert logged_timing(tmp_path) == {"train_began": None, "step_s": []}
    (tmp_path / LOG_FILE).write_text(
        '{"event": "train_begin", "time": 1000.0}\n'
        '{"step": 1, "reward": 0.25, "time": 1090.5}\n'
        '{"step": 1, "train_runtime": 3, "time": 1091.0}\n'  # not a step: no reward
        '{"step": 2, "reward": 0.5, "time": 1170.5}\n{"step": 3, "rew'
    )
    assert logged_rewards(tmp_path) == [0.25, 0.5]  # the begin line is not a step
    assert logged_timing(tmp_path) == {"train_began": 1000.0, "step_s": [90.5, 80.0]}
    # an older release's log: no begin line and no times
    (tmp_path / LOG_FILE).write_text('{"step": 1, "reward": 0.25}\n{"step": 2, "reward": 0.5}\n')
    assert logged_timing(tmp_path) == {"train_began": None, "step_s": []}


def test_the_log_writer_writes_the_beginning_and_each_steps_time(tmp_path) -> None:
    import json
    import types

    from toolgym.training.rl_curve import LOG_FILE, log_writer, logged_timing

    fake = types.SimpleNamespace(TrainerCallback=object)
    writer = log_writer(fake, tmp_path / "run")
    state = types.SimpleNamespace(global_step=0)
    writer.on_train_begin(None, state, None)
    for step in (1, 2):
        state.global_step = step
        writer.on_log(None, state, None, logs={"reward": step / 4, "loss": 0.1})
    lines = [json.loads(x) for x in (tmp_path / "run" / LOG_FILE).read_text().splitlines()]
    assert lines[0]["event"] == "train_begin"
    assert [(x["step"], x["reward"]) for x in lines[1:]] == [(1, 0.25), (2, 0.5)]
    timing = logged_timing(tmp_path / "run")
    assert timing["train_began"] == lines[0]["time"]
    assert len(timing["step_s"]) == 2 and all(s >= 0 for s in timing["step_s"])
