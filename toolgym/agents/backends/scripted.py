"""A scripted backend: canned replies, for tests, dry runs and debugging agents."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from toolgym.agents.backends.base import (
    DEFAULT_STOPS,
    Generation,
    LLMBackend,
    Prompt,
    apply_stops,
)
from toolgym.tools.grammar import ActionGrammar


class ScriptedBackend(LLMBackend):
    """Replies from a list (in order, cycling if ``cycle``) or from a function of the prompt.

    Every prompt it receives is kept in ``prompts``; stops are applied exactly as a real backend
    would. A reply ends as a model's turn does (``finish_reason="stop"``) unless it is longer
    than the token budget, counted in whitespace-separated words: then it is cut there and ends
    with ``"length"``. A reply may also be a :class:`Generation`, returned as it is (one with
    ``tool_calls`` plays a model's native tool calls). The ``tools`` each prompt offered are kept
    in ``tools``.

    Args:
        replies: the replies, or a function of the prompt returning one.
        cycle: start the list again when it runs out (otherwise that is an error).
        native_tool_calling: claim native tool calling (:attr:`native_tool_calling`), so that
            agents offer tools to the script.

    >>> b = ScriptedBackend(["API.search()\\nTask: more"])
    >>> b.generate(["q"])[0].text
    'API.search()\\n'
    """

    name = "scripted"

    def __init__(
        self,
        replies: Sequence[str | Generation] | Callable[[Prompt], str | Generation],
        *,
        cycle: bool = False,
        native_tool_calling: bool = False,
    ) -> None:
        self.replies = replies
        self.cycle = cycle
        self._native_tool_calling = native_tool_calling
        self.prompts: list[Prompt] = []
        self.grammars: list[ActionGrammar | None] = []
        self.tools: list[list[dict[str, Any]] | None] = []
        self.calls = 0
        self._next = 0

    @property
    def native_tool_calling(self) -> bool:
        """Whether agents may offer tools to this script (the constructor's option)."""
        return self._native_tool_calling

    def generate(
        self,
        prompts: Sequence[Prompt],
        *,
        max_new_tokens: int = 128,
        stop: Sequence[str] = DEFAULT_STOPS,
        tools: list[dict[str, Any]] | None = None,
        grammars: Sequence[ActionGrammar | None] | None = None,
    ) -> list[Generation]:
        """One canned reply per prompt (grammars and tools are kept, not applied)."""
        self.calls += 1
        self.grammars.extend(grammars if grammars is not None else [None] * len(prompts))
        self.tools.extend([tools] * len(prompts))
        out = []
        for prompt in prompts:
            self.prompts.append(prompt)
            if callable(self.replies):
                raw = self.replies(prompt)
            else:
                if self._next >= len(self.replies):
                    if not self.cycle:
                        raise RuntimeError(f"the script has only {len(self.replies)} replies")
                    self._next = 0
                raw = self.replies[self._next]
                self._next += 1
            out.append(raw if isinstance(raw, Generation) else _reply(raw, max_new_tokens, stop))
        return out


def _reply(raw: str, max_new_tokens: int, stop: Sequence[str]) -> Generation:
    text, stopped = apply_stops(raw, stop)
    words = list(re.finditer(r"\S+\s*", text))
    if not stopped and len(words) > max_new_tokens:
        cut = words[max_new_tokens - 1].end() if max_new_tokens else 0
        return Generation(text[:cut], "length", completion_tokens=max_new_tokens)
    return Generation(text, "stop", completion_tokens=len(words))
