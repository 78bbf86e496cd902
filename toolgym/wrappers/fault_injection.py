"""Make an environment's tool calls fail the way real services do, at a seeded rate."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import gymnasium as gym

from toolgym.envs.protocol import task_env
from toolgym.tools.faults import FAULT_KINDS, FaultPlan


class FaultInjection(gym.Wrapper[str, str, str, str]):
    """Service faults on the agent's tool calls: 429s, 5xx, timeouts, broken and slow answers.

    Each tool call (an HTTP request, an ``API.*`` call) meets a fault with probability ``rate``;
    the kind is drawn uniformly from ``kinds`` (see :mod:`toolgym.tools.faults` for what each one
    does). The agent sees the failure in its observation and may try again; an episode that ends
    on a fault scores as a failure with the ``service_error`` category. The faults of an episode
    depend only on ``seed`` and the task, so runs reproduce and resumed runs match. The gold
    labels never meet faults. Each step lists its faults in ``info["faults"]``.

    Example:
        >>> import gymnasium as gym, toolgym
        >>> from toolgym.wrappers import FaultInjection
        >>> env = FaultInjection(gym.make("toolbench/OpenWeather-v0"), rate=0.2, seed=0)
        >>> obs, info = env.reset(seed=0)
        >>> info["fault_rate"]
        0.2

    Args:
        env: a toolgym environment (possibly wrapped).
        rate: the probability that a tool call meets a fault, from 0 to 1.
        kinds: the kinds of fault to draw from (default: all of
            :data:`~toolgym.tools.faults.FAULT_KINDS`).
        seed: the base seed of the faults.
        slow_s: the range of a slow answer's delay, in seconds.
        real_delays: sleep through slow answers' delays (default: only report them).

    Raises:
        TypeError: ``env`` is not a toolgym environment.
        ValueError: a rate outside [0, 1] or an unknown kind.
    """

    def __init__(
        self,
        env: gym.Env[str, str],
        rate: float = 0.1,
        kinds: Sequence[str] = FAULT_KINDS,
        *,
        seed: int = 0,
        slow_s: tuple[float, float] = (1.0, 8.0),
        real_delays: bool = False,
    ) -> None:
        super().__init__(env)
        self.plan = FaultPlan(rate, kinds, seed=seed, slow_s=slow_s, real_delays=real_delays)
        task_env(env).set_faults(self.plan)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Reset the env, then seed this episode's faults from the base seed and the task."""
        obs, info = self.env.reset(seed=seed, options=options)
        task = info.get("task_id")
        self.plan.reseed(
            json.dumps(task, sort_keys=True) if task is not None else info.get("instruction")
        )
        info["fault_rate"] = self.plan.rate
        return obs, info

    def close(self) -> None:
        """Remove the faults from the env and close it."""
        task_env(self.env).set_faults(None)
        super().close()
