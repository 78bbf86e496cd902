"""Converted GGUF models on disk: where they are kept, and saving one atomically.

``transformers`` dequantizes a GGUF file when it loads it (about 20 s for the embedded model on
two CPU cores); :class:`~toolgym.agents.backends.hf.HFBackend` saves the converted model once and
loads it from here afterwards. A folder names the file, its size, the ``transformers`` release
that converted it (its conversion changes between releases) and :data:`CONVERSION`.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from toolgym.simulators.cache import cache_root

CONVERSION = 2
"""The version of what the backend does to a converted GGUF model before caching it."""


def converted_dir(gguf_path: Path, cache_dir: str | Path | None, version: str) -> Path:
    """Where a GGUF file's converted weights are kept: one folder per file and converter.

    Args:
        gguf_path: the GGUF file.
        cache_dir: the folder of converted models (default: ``models`` under :func:`cache_root`).
        version: the ``transformers`` release that converts it.
    """
    stat = gguf_path.stat()
    root = Path(cache_dir) if cache_dir is not None else cache_root() / "models"
    return root / f"{gguf_path.stem}-{stat.st_size}-tf{version}-c{CONVERSION}"


def save_converted(model: Any, tokenizer: Any, target: Path) -> None:
    """Save dequantized weights and their tokenizer (atomically: a half-written cache is never read).

    The GGUF quantizer marks the model as not serializable; the weights are plain tensors once
    dequantized, so the marker is dropped first, and the in-memory model becomes an ordinary one
    too (the Trainer refuses a model marked as quantized). A cache that cannot be written only
    costs speed.
    """
    quantizer = getattr(model, "hf_quantizer", None)
    if quantizer is not None and hasattr(quantizer, "remove_quantization_config"):
        quantizer.remove_quantization_config(model)
    if getattr(model, "hf_quantizer", None) is not None:
        model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    if getattr(model.config, "_is_quantized", False):
        model.config._is_quantized = False
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=target.parent))
    try:
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)
        if target.exists():
            shutil.rmtree(target)
        tmp.rename(target)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
