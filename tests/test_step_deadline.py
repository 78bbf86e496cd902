"""A sandboxed step's own work on a program's result is cut off at the step's deadline.

The deadline is moved into the past (``STEP_MARGIN_S`` patched), so what is checked is where the
cut falls and what the step reports, not how fast this machine is.
"""

from __future__ import annotations

import time

import gymnasium as gym
import pytest

import toolgym.tools.sandbox_backend as sandbox_backend
from toolgym.envs.protocol import task_env
from toolgym.families.google_sheets.world.service import SheetsApp
from toolgym.tools.deadline import DeadlineExceeded, check_deadline, deadline, seconds_left

SHEETS = "toolbench/GoogleSheets-v0"


@pytest.fixture
def sheets() -> gym.Env:
    env = gym.make(SHEETS)
    yield env
    env.close()


def test_a_late_outcome_is_a_timeout_and_the_next_step_is_not(
    sheets: gym.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheets.reset(seed=0)
    gold = task_env(sheets).oracle_actions()[0]
    _, reward, *_, info = sheets.step(gold)
    assert reward == 1.0 and info["error"] is None

    monkeypatch.setattr(sandbox_backend, "STEP_MARGIN_S", -1000.0)  # always past
    sheets.reset(seed=0)
    observation, reward, terminated, _, info = sheets.step(gold)
    assert reward == 0.0 and terminated
    assert info["error"]["category"] == "timeout"
    assert "time limit" in info["error"]["message"] and "timeout" in observation

    monkeypatch.setattr(sandbox_backend, "STEP_MARGIN_S", 1.0)
    sheets.reset(seed=0)
    _, reward, *_, info = sheets.step(gold)
    assert reward == 1.0 and info["error"] is None  # nothing was left behind


def test_a_late_view_says_so_in_call_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    env = gym.make(SHEETS, action_mode="call")
    env.reset(seed=0)
    monkeypatch.setattr(sandbox_backend, "STEP_MARGIN_S", -1000.0)
    observation, *_, info = env.step("worksheet.update_acell('F1', '=SUM(B2:B7)')")
    env.close()
    assert "ran past the step's time limit" in observation
    assert info["error"] is None  # the cell ran; only its drawing was cut


def test_formula_work_checks_the_deadline() -> None:
    app = SheetsApp()
    book = app.create("late")
    ws = book.sheets[0]
    book.values_update("Sheet1!A1:B1", [[1, "=A1*2"]], "USER_ENTERED")
    with deadline(time.monotonic() - 1), pytest.raises(DeadlineExceeded):
        book.value(ws, 0, 1)
    assert book.value(ws, 0, 1) == 2  # nothing was cached from the cut evaluation


def test_deadlines_nest_to_the_earlier_and_are_not_exceptions() -> None:
    assert seconds_left() is None
    with deadline(time.monotonic() + 100):
        with deadline(time.monotonic() + 1000):
            left = seconds_left()
            assert left is not None and left <= 100
        with deadline(None):
            assert seconds_left() is not None
    assert seconds_left() is None
    check_deadline()
    assert not issubclass(DeadlineExceeded, Exception)  # a service's `except Exception` passes it
