"""Episode records: what an evaluation keeps of every episode, one JSON line each."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from toolgym.tools.errors import is_unscored

_JSON_NAMES = {"return_": "return"}
"""Fields whose JSON key is a Python keyword."""


@dataclass
class EpisodeRecord:
    """One played episode.

    Attributes:
        task_id: the task's id.
        instruction: the user's goal.
        env_id: the env it was played in.
        agent: the agent's label.
        split: the split (or the task file's name).
        strategy: ``single``, ``react`` or ``dfsdt``.
        actions: every action, in order.
        turns: per step: what the agent recorded (prompt, generation), the action, the
            observation, the reward, the error and the injected service faults, if any.
        reward: the last reward.
        return_: the sum of the rewards (``"return"`` in JSON).
        terminated: whether the episode ended by itself.
        truncated: whether a step budget ended it.
        steps: how many steps were played.
        metrics: the family's metrics of the final state (``info["metrics"]``).
        error: the error that decided the episode, ``{"category", "message"}``, or ``None``.
        warnings: the env's warnings at the end.
        observation: the last observation.
        prediction: what was compared with the gold, when the episode terminated.
        prompt: the first turn's prompt (single-step protocol), when the agent recorded one.
        generation: the first turn's raw generation.
        action: the first turn's action.
        gold: the task's gold actions (what the oracle plays), beside the agent's, when known.
        time_s: wall time of the episode (a batch's time is shared by its episodes).
        search: DFSDT's steps and backtracks.
        unscored: the failure that was not the agent's (a simulated user that could not answer:
            ``user_failed``, ``user_replay_miss``) and ended the episode, which is then not
            scored for the agent; ``None`` for an episode that is.
        extra: keys of a stored record this version does not know (kept as they are).
    """

    task_id: Any
    instruction: str
    env_id: str = ""
    agent: str = ""
    split: str = ""
    strategy: str = ""
    actions: list[str] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)
    reward: float = 0.0
    return_: float = 0.0
    terminated: bool = False
    truncated: bool = False
    steps: int = 0
    metrics: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)
    observation: str = ""
    prediction: Any = None
    prompt: Any = None
    generation: str | None = None
    action: str | None = None
    gold: list[str] | None = None
    time_s: float = 0.0
    search: list[dict[str, Any]] | None = None
    unscored: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def faults(self) -> int:
        """How many service faults the episode met."""
        return sum(len(turn.get("faults", ())) for turn in self.turns)

    @property
    def error_category(self) -> str | None:
        """The category of :attr:`error`, if any."""
        return None if self.error is None else self.error.get("category")

    def log_step(
        self, action: str, turn: dict[str, Any], obs: str, reward: float, info: dict[str, Any]
    ) -> None:
        """Add one step."""
        self.actions.append(action)
        entry = {
            **turn,
            "action": action,
            "observation": obs,
            "reward": float(reward),
            "error": info.get("error"),
        }
        if info.get("faults"):
            entry["faults"] = info["faults"]
        if "code" in info:  # a status code (function-calling families)
            entry["code"] = info["code"]
        if self.unscored is None and is_unscored(info.get("error")):
            self.unscored = dict(info["error"])
        self.turns.append(entry)
        self.reward = float(reward)
        self.return_ += float(reward)
        self.steps += 1
        self.observation = obs

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (optional fields only when set; ``prediction`` when terminated)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "extra":
                continue
            value = getattr(self, f.name)
            if (
                f.name in ("prompt", "generation", "action", "gold", "search", "unscored")
                and value is None
            ):
                continue
            if f.name == "prediction" and not self.terminated:
                continue
            out[_JSON_NAMES.get(f.name, f.name)] = value
        out.update(self.extra)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EpisodeRecord:
        """A record read back from its JSON form (unknown keys go to :attr:`extra`)."""
        names = {_JSON_NAMES.get(f.name, f.name): f.name for f in fields(cls) if f.name != "extra"}
        known = {names[k]: v for k, v in data.items() if k in names}
        extra = {k: v for k, v in data.items() if k not in names}
        return cls(**known, extra=extra)
