"""A random agent: calls the env's tools with random arguments drawn from their JSON schemas."""

from __future__ import annotations

import json
import re
from typing import Any

import gymnasium as gym

from toolgym.agents.base import Agent
from toolgym.envs.protocol import task_env
from toolgym.simulators.seeding import stable_rng
from toolgym.tools.tool import Tool

_WORDS = ("x", "test", "example", "none", "42")
"""Strings it may send, besides the examples a parameter's description quotes."""
_QUOTED = re.compile(r'"([^"]{1,40})"')


class RandomAgent(Agent):
    """A baseline that knows only the tools: random tools, random arguments.

    In ``program`` mode it writes 1–6 random calls and then the action that submits (languages
    with a finish word send one random call instead). In ``call`` mode it makes one random call
    per step and, where the language has a finish word, says it with probability 0.3 per step.
    Arguments follow each parameter's JSON Schema (enums, integers, arrays, objects); strings are
    the examples its description quotes or a few generic words. Calls are written in the env's
    action language. Each episode draws from its own generator, seeded by ``seed`` and the task
    (its id, or its instruction when it has none), so an episode is the same whether it is played
    alone, in a resumed run or after any others.

    Args:
        env: the environment it plays in (its tools and action language).
        seed: the run's seed.
    """

    name = "random"

    def __init__(self, env: gym.Env[Any, Any], seed: int = 0) -> None:
        self.env = task_env(env)
        self.seed = seed
        self.rng = stable_rng("random-agent", seed)

    def reset(self, observation: str, info: dict[str, Any]) -> None:
        """Seed this episode's generator from the run's seed and the task."""
        task = info.get("task_id")
        key = json.dumps(task, sort_keys=True) if task is not None else info.get("instruction")
        self.rng = stable_rng("random-agent", self.seed, key)

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """A random program or call."""
        env = self.env
        tools = [t for t in env.tools if t.offered]
        hints = env.hints
        if not tools:
            return hints.finish_action or ""
        finish_word = env.finish_word
        if finish_word is not None:
            if info.get("action_mode") == "call" and self.rng.random() < 0.3:
                return finish_word
            return self._call(tools[int(self.rng.integers(len(tools)))])
        if info.get("action_mode") == "call":
            return self._call(tools[int(self.rng.integers(len(tools)))])
        lines = [
            self._call(tools[int(self.rng.integers(len(tools)))])
            for _ in range(int(self.rng.integers(1, 7)))
        ]
        return "\n".join([*lines, hints.finish_action or ""]).rstrip()

    def _call(self, tool: Tool) -> str:
        props = tool.parameters_schema()["properties"]
        arguments = {name: self._value(schema) for name, schema in props.items()}
        return self.env.render_call(tool, arguments)

    def _value(self, schema: dict[str, Any]) -> Any:
        kind = schema.get("type")
        if "enum" in schema:
            return schema["enum"][int(self.rng.integers(len(schema["enum"])))]
        if kind == "array":
            items = schema.get("items", {})
            return [self._value(items) for _ in range(int(self.rng.integers(1, 3)))]
        if kind == "integer":
            return int(self.rng.integers(0, 10))
        if kind == "number":
            return int(self.rng.integers(0, 5000))
        if kind == "object":
            inner = schema.get("properties", {})
            return {k: self._value(v) for k, v in inner.items()}
        words = (*_QUOTED.findall(schema.get("description", "")), *_WORDS)
        return words[int(self.rng.integers(len(words)))]
