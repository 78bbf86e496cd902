"""The LLM backend interface: batched generation with exact stop sequences.

A backend turns prompts into generations. A prompt is either plain text (completion models) or
a list of chat messages ``[{"role": "system"|"user"|"assistant", "content": str}, ...]``; a
backend that has a chat template (or a chat endpoint) formats messages itself, and a plain-text
prompt given to a chat backend is sent as one user message. With native tool calling the
messages follow OpenAI's format: an assistant message may carry ``tool_calls`` (its ``content``
then may be empty or ``None``), and a ``{"role": "tool", "tool_call_id", "content"}`` message
holds a call's result.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from toolgym.errors import InfrastructureError, ToolgymError
from toolgym.tools.grammar import ActionGrammar

Message = dict[str, Any]
"""A chat message: ``role`` and ``content`` (text), and ``tool_calls`` or ``tool_call_id``."""
Prompt = str | list[Message]

DEFAULT_STOPS: tuple[str, ...] = ("------", "Task:")
"""The paper's stop sequences (six dashes also stop at the 13-dash separator)."""


TRACE_KEYS: tuple[str, ...] = ("prompt_ids", "completion_ids", "logprobs")
"""The keys of a generation's token trace in ``Generation.extra`` (plain lists of ints and floats),
for backends that give one (``HFBackend(trace_tokens=True)``)."""


@dataclass
class Generation:
    """One generated text and how it ended.

    Attributes:
        text: the generated text, cut at the first stop sequence (the stop itself removed).
        finish_reason: ``"stop"`` (a stop sequence or end of turn), ``"length"`` (token limit) or
            ``"tool_calls"``.
        prompt_tokens: tokens in the prompt, when the backend knows.
        completion_tokens: tokens generated, when the backend knows.
        tool_calls: native tool calls (OpenAI format) when the backend returned some.
    """

    text: str
    finish_reason: str = "stop"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    tool_calls: list[dict[str, Any]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def merge_stops(*groups: Sequence[str] | None) -> list[str]:
    """Stop sequences from several groups, de-duplicated, in first-seen order (deterministic).

    >>> merge_stops(["------", "Task:"], ["Task:", "\\nObservation:"])
    ['------', 'Task:', '\\nObservation:']
    """
    out: list[str] = []
    for group in groups:
        for stop in group or ():
            if stop and stop not in out:
                out.append(stop)
    return out


def apply_stops(text: str, stops: Sequence[str]) -> tuple[str, bool]:
    """Cut ``text`` at the earliest occurrence of any stop; returns (text, whether one was found).

    >>> apply_stops("API.search()\\nTask: next", ["------", "Task:"])
    ('API.search()\\n', True)
    """
    cut = min((i for i in (text.find(s) for s in stops if s) if i >= 0), default=-1)
    return (text, False) if cut < 0 else (text[:cut], True)


class LLMBackend(ABC):
    """Generates text for a batch of prompts, greedily unless told otherwise."""

    name: str = "backend"

    @property
    def native_tool_calling(self) -> bool:
        """Whether the model takes ``tools`` and answers with ``Generation.tool_calls``."""
        return False

    @abstractmethod
    def generate(
        self,
        prompts: Sequence[Prompt],
        *,
        max_new_tokens: int = 128,
        stop: Sequence[str] = DEFAULT_STOPS,
        tools: list[dict[str, Any]] | None = None,
        grammars: Sequence[ActionGrammar | None] | None = None,
    ) -> list[Generation]:
        """One generation per prompt, in order.

        Args:
            prompts: texts or chat-message lists.
            max_new_tokens: the token budget of each generation.
            stop: stop sequences, applied exactly (the text ends before the first one).
            tools: OpenAI function schemas, for backends with native tool calling (others ignore
                them; the prompt already documents the tools).
            grammars: per prompt, the action grammar its generation must follow, or ``None``
                (:mod:`toolgym.tools.grammar`). Callers pass it only when one is set
                (:func:`grammar_options`), so a backend without constrained decoding need not
                take it.
        """

    def close(self) -> None:  # noqa: B027 - most backends hold nothing to release
        """Release resources (default: nothing)."""


class PromptRejected(ToolgymError):
    """A backend refused one prompt (too long for the model's context, say).

    It is the agent's failure, recorded with its episode, unlike an
    :class:`~toolgym.errors.InfrastructureError`.
    """


def grammar_options(grammars: Sequence[ActionGrammar | None]) -> dict[str, Any]:
    """``{"grammars": grammars}`` when one of them is set, else ``{}`` (for ``generate``)."""
    return {"grammars": list(grammars)} if any(g is not None for g in grammars) else {}


def generate_checked(
    backend: LLMBackend, prompts: Sequence[Prompt], **kwargs: Any
) -> list[Generation]:
    """``backend.generate(prompts, **kwargs)``, its failures sorted by whose they are.

    Every failure but a rejected prompt is raised as an
    :class:`~toolgym.errors.InfrastructureError` (a crashed model, a server that is down).

    Raises:
        PromptRejected: the backend refused a prompt.
        InfrastructureError: anything else went wrong in the backend.
    """
    try:
        generations = backend.generate(prompts, **kwargs)
    except (InfrastructureError, PromptRejected):
        raise
    except Exception as e:
        raise InfrastructureError(
            f"the {backend.name} backend failed: {type(e).__name__}: {e}"
        ) from e
    if len(generations) != len(prompts):
        raise InfrastructureError(
            f"the {backend.name} backend returned {len(generations)} generations "
            f"for {len(prompts)} prompts"
        )
    return generations


def as_messages(prompt: Prompt, system: str | None = None) -> list[Message]:
    """A prompt as chat messages, with ``system`` first when given and not already present."""
    messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else list(prompt)
    if system and not (messages and messages[0].get("role") == "system"):
        messages.insert(0, {"role": "system", "content": system})
    return messages


def as_text(prompt: Prompt) -> str:
    """A prompt as plain text (the messages' contents, for completion-only backends).

    An assistant message's tool calls are written as their JSON after its content.

    >>> call = {"id": "call_0", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    >>> print(as_text([{"role": "user", "content": "go"},
    ...                {"role": "assistant", "content": None, "tool_calls": [call]},
    ...                {"role": "tool", "tool_call_id": "call_0", "content": "done"}]))
    go
    <BLANKLINE>
    [{"id": "call_0", "type": "function", "function": {"name": "f", "arguments": "{}"}}]
    <BLANKLINE>
    done
    """
    if isinstance(prompt, str):
        return prompt
    parts = []
    for message in prompt:
        text = str(message.get("content") or "")
        calls = message.get("tool_calls")
        if calls:
            written = json.dumps(calls, default=str)
            text = f"{text}\n{written}" if text else written
        parts.append(text)
    return "\n\n".join(parts)


def generate_with_tools(
    backend: LLMBackend,
    prompts: Sequence[Prompt],
    tools: Sequence[list[dict[str, Any]] | None],
    grammars: Sequence[ActionGrammar | None],
    **kwargs: Any,
) -> list[Generation]:
    """:func:`generate_checked` for prompts that may each offer other tools.

    Prompts offering the same tools (``None``: none) share one ``generate`` call; the
    generations come back in prompt order. Without tools it is one call, as
    ``generate_checked(backend, prompts, **grammar_options(grammars), **kwargs)``.

    Raises:
        PromptRejected: the backend refused a prompt.
        InfrastructureError: anything else went wrong in the backend.
    """
    groups: dict[str, list[int]] = {}
    for i, offered in enumerate(tools):
        key = "" if not offered else json.dumps(offered, sort_keys=True, default=str)
        groups.setdefault(key, []).append(i)
    out: list[Generation | None] = [None] * len(prompts)
    for rows in groups.values():
        offered = tools[rows[0]] if rows else None
        extra = {"tools": offered} if offered else {}
        generations = generate_checked(
            backend,
            [prompts[i] for i in rows],
            **grammar_options([grammars[i] for i in rows]),
            **extra,
            **kwargs,
        )
        for i, generation in zip(rows, generations, strict=True):
            out[i] = generation
    return [g for g in out if g is not None]
