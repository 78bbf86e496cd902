"""Did a run's train reward rise? The first and last steps' means against the steps' noise.

A GRPO run logs one mean reward per optimizer step, over a few rollouts, so its curve is noisy.
:func:`reward_rise` compares the mean of the last ``window`` steps with that of the first
``window`` and sets the difference beside the noise of such a difference:

* the **step noise** ``sigma`` is estimated from consecutive steps: for rewards ``r_t = m_t +
  e_t`` whose mean ``m_t`` drifts slowly and whose noise ``e_t`` is independent from step to step,
  ``r_{t+1} - r_t`` has a variance of about ``2 sigma^2``, so ``sigma`` is the standard deviation
  of the differences over ``sqrt(2)`` (a slow trend adds little to it, unlike the standard
  deviation of the rewards themselves);
* the **noise of the rise** is the standard error of a difference of two means of ``window``
  independent steps: ``sigma * sqrt(2 / window)``;
* the reward **rose** when the rise is larger than twice that standard error. With Gaussian noise
  and no change, that happens about 2.5% of the time in a long run (20 steps or more); in a short
  one ``sigma`` is itself estimated from few differences, and the chance is higher (about 15% with
  3 steps). A run whose steps show no noise at all rose if its last steps are higher.

:func:`signal_steps` reads TRL's ``frac_reward_zero_std`` (the share of a step's GRPO groups whose
rewards were all equal, which give no gradient) and says in how many steps some group had a
signal.
"""

from __future__ import annotations

import itertools
import json
import math
import statistics
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

RISE_Z = 2.0
"""How many standard errors of the rise make a rise (see the module docstring)."""

LOG_FILE = "trainer_log.jsonl"
"""TRL's logged metrics, one JSON line per logged step, written as the run goes (beside the
adapter), so a run stopped before its end leaves its curve so far. Its first line,
``{"event": "train_begin", "time": T}``, says when training began, and every step's line has the
``time`` it was logged at (seconds since the epoch)."""


def reward_rise(rewards: Sequence[float], window: int = 5) -> dict[str, Any] | None:
    """The first and last ``window`` steps' mean rewards, their difference and its noise.

    Args:
        rewards: one mean train reward per optimizer step, in order.
        window: steps in each mean; with fewer than ``2 * window`` steps, half the steps each.

    Returns:
        ``{"window", "first", "last", "rise", "step_noise", "rise_se", "z", "rose"}``
        (``z`` is the rise over its standard error, ``None`` when the steps show no noise at
        all), or ``None`` for fewer than 3 steps, too few to estimate the noise.

    Raises:
        ValueError: ``window`` is not a whole number >= 1, or a reward is not finite.
    """
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise ValueError(f"window is a whole number >= 1; got {window!r}")
    values = [float(r) for r in rewards]
    if not all(math.isfinite(v) for v in values):
        raise ValueError(f"rewards are finite numbers; got {list(rewards)!r}")
    if len(values) < 3:
        return None
    used = min(window, len(values) // 2)
    first = statistics.fmean(values[:used])
    last = statistics.fmean(values[-used:])
    differences = [b - a for a, b in itertools.pairwise(values)]
    noise = statistics.stdev(differences) / math.sqrt(2) if len(differences) > 1 else 0.0
    se = noise * math.sqrt(2 / used)
    rise = last - first
    z = rise / se if se > 0 else None
    return {
        "window": used,
        "first": first,
        "last": last,
        "rise": rise,
        "step_noise": noise,
        "rise_se": se,
        "z": z,
        "rose": rise > RISE_Z * se if se > 0 else rise > 0,
    }


def signal_steps(history: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """How many steps had a GRPO group whose rewards differed (TRL's ``frac_reward_zero_std``).

    Returns:
        ``{"steps", "with_signal", "share", "mean_frac_reward_zero_std"}`` over the steps that
        logged it, or ``None`` when none did.
    """
    fractions = [
        float(h["frac_reward_zero_std"])
        for h in history
        if h.get("frac_reward_zero_std") is not None
    ]
    if not fractions:
        return None
    with_signal = sum(1 for f in fractions if f < 1.0)
    return {
        "steps": len(fractions),
        "with_signal": with_signal,
        "share": with_signal / len(fractions),
        "mean_frac_reward_zero_std": statistics.fmean(fractions),
    }


def curve_summary(history: Sequence[Mapping[str, Any]], window: int = 5) -> dict[str, Any]:
    """``{"reward_rise", "signal", "rewards"}`` of a run's history.

    See the two functions; ``rewards`` are the steps' mean rewards.
    """
    rewards = [float(h["reward"]) for h in history]
    return {
        "reward_rise": reward_rise(rewards, window),
        "signal": signal_steps(history),
        "rewards": rewards,
    }


def describe(summary: Mapping[str, Any]) -> list[str]:
    """Lines a person reads: the rise against its noise, and the steps with a signal."""
    lines = []
    rise = summary.get("reward_rise")
    if rise is None and summary.get("rewards"):
        rewards = summary["rewards"]
        lines.append(
            f"train reward: first step {rewards[0]:.3f}, last {rewards[-1]:.3f} "
            f"({len(rewards)} steps: too few to tell a rise from noise)"
        )
    if rise is not None:
        verdict = "rose" if rise["rose"] else "did not rise"
        lines.append(
            f"train reward: first {rise['window']} steps {rise['first']:.3f}, last "
            f"{rise['window']} {rise['last']:.3f}: {rise['rise']:+.3f} against a standard error "
            f"of {rise['rise_se']:.3f} (step noise {rise['step_noise']:.3f}); it {verdict} "
            f"(needs more than {RISE_Z:g} standard errors)"
        )
    signal = summary.get("signal")
    if signal is not None:
        lines.append(
            f"GRPO groups with differing rewards: in {signal['with_signal']} of "
            f"{signal['steps']} steps (mean frac_reward_zero_std "
            f"{signal['mean_frac_reward_zero_std']:.2f})"
        )
    return lines


def with_trainer_logs(
    history: Sequence[Mapping[str, Any]], logs: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """``history`` with TRL's ``frac_reward_zero_std`` of the same step added to each entry.

    TRL logs one entry per optimizer step (``step`` counts from 1); a history entry's ``step``
    counts from 0. Entries of steps TRL did not log are left as they are.
    """
    by_step = {
        int(entry["step"]) - 1: float(entry["frac_reward_zero_std"])
        for entry in logs
        if entry.get("frac_reward_zero_std") is not None and entry.get("step") is not None
    }
    out = []
    for entry in history:
        row = dict(entry)
        step = row.get("step")
        if step is not None and int(step) in by_step:
            row["frac_reward_zero_std"] = by_step[step]
        out.append(row)
    return out


def log_writer(transformers: Any, folder: str | Path) -> Any:
    """A ``TrainerCallback`` that appends each of TRL's logs to ``folder``/:data:`LOG_FILE`.

    The file is emptied when training begins and starts with a line saying when; each step's
    line has the time it was logged at.
    """
    path = Path(folder) / LOG_FILE

    class _LogWriter(transformers.TrainerCallback):
        def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            path.parent.mkdir(parents=True, exist_ok=True)
            begin = {"event": "train_begin", "time": round(time.time(), 3)}
            path.write_text(json.dumps(begin) + "\n", encoding="utf-8")

        def on_log(
            self, args: Any, state: Any, control: Any, logs: Any = None, **kwargs: Any
        ) -> None:
            entry = {"step": int(state.global_step), **dict(logs or {})}
            entry["time"] = round(time.time(), 3)
            with path.open("a", encoding="utf-8") as out:
                out.write(json.dumps(entry, default=str) + "\n")

    return _LogWriter()


def logged_steps(folder: str | Path) -> list[dict[str, Any]]:
    """The lines of ``folder``/:data:`LOG_FILE` that log a step's mean reward, in order.

    ``[]`` without the file; a line cut short by a stopped run is skipped.
    """
    return [e for e in _log_lines(folder) if isinstance(e.get("reward"), int | float)]


def logged_rewards(folder: str | Path) -> list[float]:
    """The mean reward of each step logged so far in ``folder``/:data:`LOG_FILE`."""
    return [float(entry["reward"]) for entry in logged_steps(folder)]


def logged_timing(folder: str | Path) -> dict[str, Any]:
    """When training began and how long each logged step took, from ``folder``/:data:`LOG_FILE`.

    Returns:
        ``{"train_began", "step_s"}``: the epoch time training began (``None`` when the log does
        not say) and the seconds between consecutive logged steps, the first counted from the
        beginning (steps without a ``time``, from an older release's log, give none).
    """
    began = next(
        (
            float(e["time"])
            for e in _log_lines(folder)
            if e.get("event") == "train_begin" and isinstance(e.get("time"), int | float)
        ),
        None,
    )
    times = [e.get("time") for e in logged_steps(folder)]
    marks = [began, *times] if began is not None else times
    step_s = [
        round(float(b) - float(a), 3)
        for a, b in itertools.pairwise(marks)
        if isinstance(a, int | float) and isinstance(b, int | float)
    ]
    return {"train_began": began, "step_s": step_s}


def _log_lines(folder: str | Path) -> list[dict[str, Any]]:
    path = Path(folder) / LOG_FILE
    if not path.is_file():
        return []
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict):
            lines.append(entry)
    return lines
