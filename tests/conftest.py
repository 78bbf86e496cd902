"""Shared fixtures: the registered env ids and the shared original-format samples."""

from __future__ import annotations

from pathlib import Path

import pytest

import toolgym
from toolgym.envs import env_ids

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples"
ENV_IDS = env_ids()


@pytest.fixture(params=ENV_IDS)
def env_id(request: pytest.FixtureRequest) -> str:
    return request.param


def samples_dir() -> Path:
    """The shared samples folder, or skip the test saying why."""
    if not SAMPLES.is_dir():
        pytest.skip(f"the original-format samples folder {SAMPLES} is absent")
    return SAMPLES


assert toolgym.__version__
