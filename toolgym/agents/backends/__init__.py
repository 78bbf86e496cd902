"""LLM backends: local Hugging Face models, OpenAI-compatible servers, llama.cpp, scripted.

Heavy libraries are imported only when a backend is created; :func:`make_backend` picks one.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from toolgym.agents.backends.base import (
    DEFAULT_STOPS,
    Generation,
    LLMBackend,
    Prompt,
    apply_stops,
    merge_stops,
)
from toolgym.agents.backends.scripted import ScriptedBackend
from toolgym.errors import UserInputError

BACKENDS = ("hf", "openai", "llamacpp")
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*(/[A-Za-z0-9][\w.-]*)?$")
"""What a Hugging Face hub id looks like: ``name`` or ``owner/name``."""
_TRUE = ("1", "true", "yes", "on")


def _hub_offline() -> bool:
    return any(
        os.environ.get(name, "").strip().lower() in _TRUE
        for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
    )


def _hub_cached(repo_id: str) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    return isinstance(try_to_load_from_cache(repo_id, "config.json"), str)


def check_model(
    backend: str | None = None, *, model: str | None = None, base_url: str | None = None
) -> None:
    """Check, without loading anything, that :func:`make_backend` can find the model.

    Raises:
        UserInputError: a model path that does not exist, a hub id that is not in the local
            cache while downloads are off, a GGUF file that is missing, a server URL that is not
            ``http(s)://host...``, or an unknown backend.
        DependencyNotInstalled: the embedded model's package is missing.
    """
    kind = backend or ("openai" if base_url else "hf")
    if kind not in BACKENDS:
        raise UserInputError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    if kind == "openai":
        parts = urlsplit(base_url or "")
        if base_url and (parts.scheme not in ("http", "https") or not parts.netloc):
            raise UserInputError(
                f"--base-url must be an http(s) URL such as http://127.0.0.1:8000/v1; got {base_url!r}"
            )
        if not (model or os.environ.get("TOOLGYM_MODEL")):
            raise UserInputError(
                "an OpenAI-compatible server needs the name of its model: pass --model NAME "
                "(or set TOOLGYM_MODEL)"
            )
        return
    if model is None or (kind == "hf" and model == "smollm2-135m"):
        from toolgym.agents.backends.llamacpp import embedded_gguf_path

        embedded_gguf_path()
        return
    path = Path(model).expanduser()
    if kind == "llamacpp":
        if not path.is_file():
            raise UserInputError(f"--model must be a GGUF file for llamacpp; no file at {model!r}")
        return
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise UserInputError(
                f"--model {model!r} is a directory without config.json, not a Hugging Face model"
            )
        return
    if path.exists():
        raise UserInputError(
            f"--model must be a model directory or a hub id; {model!r} is a file "
            "(for a GGUF file use --backend llamacpp)"
        )
    if not _HUB_ID.match(model):
        raise UserInputError(f"no model at {model!r}: the path does not exist")
    if _hub_offline() and not _hub_cached(model):
        raise UserInputError(
            f"--model {model!r} is not a local directory nor in the Hugging Face cache, and "
            "downloads are off (HF_HUB_OFFLINE=1): download it first or pass a local directory"
        )


def _fingerprint(path: Path) -> str:
    """A short hash of a model file or directory's files (names, sizes, modification times)."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    digest = hashlib.sha256()
    for file in files:
        stat = file.stat()
        digest.update(f"{file.relative_to(path) if path.is_dir() else file.name}|".encode())
        digest.update(f"{stat.st_size}|{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def model_identity(
    backend: str | None = None, *, model: str | None = None, base_url: str | None = None
) -> dict[str, Any]:
    """What identifies the model :func:`make_backend` would use, without loading it.

    It goes in results manifests, so that records of two models never mix: the backend, its
    label (as :attr:`LLMBackend.name` will be), and for local files their resolved path and a
    fingerprint (names, sizes and modification times), for a server its URL.
    """
    kind = backend or ("openai" if base_url else "hf")
    if kind == "openai":
        name = model or os.environ.get("TOOLGYM_MODEL") or ""
        url = base_url or os.environ.get("TOOLGYM_BASE_URL") or os.environ.get("OPENAI_BASE_URL")
        return {"backend": kind, "name": f"openai:{name}", "url": url}
    if model is None or (kind == "hf" and model == "smollm2-135m"):
        from toolgym.agents.backends.llamacpp import embedded_gguf_path

        embedded = embedded_gguf_path()
        path: Path | None = embedded
        name = "hf:smollm2-135m" if kind == "hf" else f"llamacpp:{embedded.name}"
    else:
        local = Path(model).expanduser()
        path = local.resolve() if local.exists() else None
        name = f"{kind}:{model}" if kind == "hf" else f"llamacpp:{local.name}"
    identity: dict[str, Any] = {"backend": kind, "name": name}
    if path is not None:
        identity.update(path=str(path), fingerprint=_fingerprint(path))
    return identity


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
    "check_model",
    "make_backend",
    "merge_stops",
    "model_identity",
]
