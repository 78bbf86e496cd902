"""A random agent: calls functions from the env's tool schemas with random arguments."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from toolgym.agents.base import Agent

_WORDS = ("Austin", "Denver", "Boston", "house", "hotels", "flight", "rent", "Double", "x")


class RandomAgent(Agent):
    """A baseline that knows only ``info["tools"]``: random functions, random arguments.

    For API-program tools it writes 1–6 random ``API`` calls and then ``API.search()`` (``program``
    mode) or one random call per step (``call`` mode). For REST tools (``info["action_language"]``
    is ``"curl"``) it sends random JSON calls and, in ``call`` mode, says ``finish`` with
    probability 0.3 per step. Its generator is seeded, so runs reproduce.

    Args:
        seed: seed of the agent's generator.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: str, info: dict[str, Any]) -> str:
        """A random program or call."""
        tools = info.get("tools") or []
        if not tools:
            return "API.search()"
        if info.get("action_language") == "curl":
            if info.get("action_mode") == "call" and self.rng.random() < 0.3:
                return "finish"
            return self._json_call(tools[int(self.rng.integers(len(tools)))])
        if info.get("action_mode") == "call":
            return self._call(tools[int(self.rng.integers(len(tools)))])
        lines = [
            self._call(tools[int(self.rng.integers(len(tools)))])
            for _ in range(int(self.rng.integers(1, 7)))
        ]
        return "\n".join([*lines, "API.search()"])

    def _call(self, tool: dict[str, Any]) -> str:
        fn = tool["function"]
        props = fn["parameters"].get("properties", {})
        args = ", ".join(f"{name}={self._value(schema)}" for name, schema in props.items())
        return f"API.{fn['name']}({args})"

    def _json_call(self, tool: dict[str, Any]) -> str:
        fn = tool["function"]
        props = fn["parameters"].get("properties", {})
        args = {name: json.loads(self._value(schema)) for name, schema in props.items()}
        return json.dumps({"name": fn["name"], "arguments": args})

    def _value(self, schema: dict[str, Any]) -> str:
        kind = schema.get("type")
        if "enum" in schema:
            return json.dumps(schema["enum"][int(self.rng.integers(len(schema["enum"])))])
        if kind == "array":
            items = schema.get("items", {})
            return (
                "["
                + ", ".join(self._value(items) for _ in range(int(self.rng.integers(1, 3))))
                + "]"
            )
        if kind == "integer":
            return str(int(self.rng.integers(0, 10)))
        if kind == "number":
            return str(int(self.rng.integers(0, 5000)))
        if kind == "object":
            inner = schema.get("properties", {})
            return "{" + ", ".join(f'"{k}": {self._value(v)}' for k, v in inner.items()) + "}"
        return json.dumps(_WORDS[int(self.rng.integers(len(_WORDS)))])
