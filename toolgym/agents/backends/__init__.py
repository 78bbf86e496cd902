"""LLM backends: local Hugging Face models, OpenAI-compatible servers, llama.cpp, scripted.

Heavy libraries are imported only when a backend is created; :func:`make_backend` picks one.
"""

from __future__ import annotations

from typing import Any

from toolgym.agents.backends.base import (
    DEFAULT_STOPS,
    Generation,
    LLMBackend,
    Prompt,
    apply_stops,
    merge_stops,
)
from toolgym.agents.backends.scripted import ScriptedBackend

BACKENDS = ("hf", "openai", "llamacpp")


def make_backend(
    backend: str | None = None,
    *,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    **kwargs: Any,
) -> LLMBackend:
    """Build a backend: ``openai`` when ``base_url`` is given, else ``hf`` (the embedded model).

    Args:
        backend: ``"hf"``, ``"openai"`` or ``"llamacpp"`` (default from ``base_url``).
        model: a model id/path (``hf``), a served model name (``openai``), a GGUF path
            (``llamacpp``); ``None`` is the embedded SmolLM2-135M-Instruct where that applies.
        base_url: an OpenAI-compatible server (``http://127.0.0.1:8000/v1``).
        api_key: the server's key (or ``$TOOLGYM_API_KEY`` / ``$OPENAI_API_KEY``).
        **kwargs: passed to the backend.
    """
    kind = backend or ("openai" if base_url else "hf")
    if kind == "hf":
        from toolgym.agents.backends.hf import EMBEDDED_MODEL, HFBackend

        return HFBackend(model or EMBEDDED_MODEL, **kwargs)
    if kind == "openai":
        from toolgym.agents.backends.openai_http import OpenAIBackend

        return OpenAIBackend(model, base_url=base_url, api_key=api_key, **kwargs)
    if kind == "llamacpp":
        from toolgym.agents.backends.llamacpp import LlamaCppBackend

        return LlamaCppBackend(model, **kwargs)
    raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")


__all__ = [
    "BACKENDS",
    "DEFAULT_STOPS",
    "Generation",
    "LLMBackend",
    "Prompt",
    "ScriptedBackend",
    "apply_stops",
    "make_backend",
    "merge_stops",
]
