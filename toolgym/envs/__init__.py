"""Environment registration: every toolgym env id, from one table.

Entry points are strings, so an env module is imported only when ``gym.make`` builds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym

NAMESPACE = "toolbench"


@dataclass(frozen=True)
class EnvEntry:
    """One row of the registration table."""

    name: str
    version: int
    entry_point: str
    max_episode_steps: int
    family: str
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """The full env id, e.g. ``toolbench/HomeSearch-v0``."""
        return f"{NAMESPACE}/{self.name}-v{self.version}"


ENV_TABLE: tuple[EnvEntry, ...] = (
    EnvEntry("HomeSearch", 0, "toolgym.envs.home_search:HomeSearchEnv", 32, "home_search"),
    EnvEntry("TripBooking", 0, "toolgym.envs.trip_booking:TripBookingEnv", 48, "trip_booking"),
    EnvEntry("OpenWeather", 0, "toolgym.envs.openweather:OpenWeatherEnv", 16, "openweather"),
    EnvEntry("CatAPI", 0, "toolgym.envs.cat_api:CatApiEnv", 16, "cat_api"),
)
"""Every registered environment."""


def register_envs() -> None:
    """Register every env of :data:`ENV_TABLE` (idempotent)."""
    for entry in ENV_TABLE:
        if entry.id in gym.registry:
            continue
        gym.register(
            id=entry.id,
            entry_point=entry.entry_point,
            max_episode_steps=entry.max_episode_steps,
            kwargs=dict(entry.kwargs),
            disable_env_checker=False,
        )


def env_ids() -> list[str]:
    """Ids of every toolgym env, in table order."""
    return [entry.id for entry in ENV_TABLE]
