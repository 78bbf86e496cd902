"""What each token of a Hugging Face tokenizer writes, as bytes, and repairs of loaded tokenizers.

Constrained decoding matches a grammar against the bytes each token writes, so the grammar
engine's view of the vocabulary must be the tokenizer's own. Both come from the tokenizer's JSON,
which ``transformers`` builds itself when it loads a GGUF file, and that conversion changed between
releases: ``transformers`` 5.17 gives SmolLM2's byte-level BPE the decoder
``Sequence[ByteFallback, Fuse, Replace("▁", " "), ByteLevel]`` (5.24 gives plain ``ByteLevel``) and
names ``<|im_start|>`` as its end-of-sequence token (the GGUF says ``<|im_end|>``). ``transformers``
still decodes such a tokenizer right, but a grammar engine that looks only at the outer decoder
takes the vocabulary for raw text: a space is ``Ġ`` and a newline ``Ċ`` to it, so the grammar
refuses every token that starts with either, and every constrained action ends at its first
space. :func:`token_bytes` computes the bytes from the vocabulary itself, :func:`engine_json`
gives the engine a JSON whose decoder says what the vocabulary is, and
:func:`repair_gguf_tokenizer` puts back what a GGUF file says of its special tokens.
"""

from __future__ import annotations

import contextlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

_BYTE_TOKEN = re.compile(r"^<0x([0-9A-Fa-f]{2})>$")
GGUF_SPECIAL_TOKENS = {
    "eos_token": "tokenizer.ggml.eos_token_id",
    "bos_token": "tokenizer.ggml.bos_token_id",
    "unk_token": "tokenizer.ggml.unknown_token_id",
    "pad_token": "tokenizer.ggml.padding_token_id",
}
"""The tokenizer's special tokens and the GGUF metadata keys that give their ids."""


@cache
def _unicode_to_byte() -> dict[str, int]:
    """The inverse of byte-level BPE's byte-to-character table (GPT-2's ``bytes_to_unicode``).

    Printable Latin-1 bytes stand for themselves; the other 68 bytes are mapped, in order, to
    the characters from U+0100 on.
    """
    printable = [
        *range(ord("!"), ord("~") + 1),
        *range(ord("¡"), ord("¬") + 1),
        *range(ord("®"), ord("ÿ") + 1),
    ]
    chars = list(printable)
    extra = 0
    for byte in range(256):
        if byte not in printable:
            printable.append(byte)
            chars.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(printable, chars, strict=True)}


def _walk(node: Any, kind: str) -> list[dict[str, Any]]:
    """Every component of type ``kind`` in a tokenizer JSON node (sequences flattened)."""
    if not isinstance(node, dict):
        return []
    if node.get("type") == kind:
        return [node]
    found = []
    for key in ("decoders", "pretokenizers", "normalizers"):
        for child in node.get(key) or []:
            found += _walk(child, kind)
    return found


def _tokenizer_json(tokenizer: Any) -> dict[str, Any]:
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is None:
        raise ValueError(
            f"expected a fast (Rust-backed) Hugging Face tokenizer; got {type(tokenizer).__name__}"
        )
    data: dict[str, Any] = json.loads(backend.to_str())
    return data


def is_byte_level(tokenizer: Any) -> bool:
    """Whether the vocabulary is byte-level BPE (each byte written as one character).

    Read from the pre-tokenizer or the decoder, wherever a ``ByteLevel`` step sits in them.
    """
    data = _tokenizer_json(tokenizer)
    return bool(
        _walk(data.get("pre_tokenizer"), "ByteLevel") or _walk(data.get("decoder"), "ByteLevel")
    )


def token_bytes(tokenizer: Any, size: int | None = None) -> list[bytes]:
    """The bytes each token id writes, as the tokenizer's vocabulary defines them.

    Byte-level vocabularies map their characters back to bytes; SentencePiece-style ones write
    ``▁`` as a space and ``<0xNN>`` as byte ``NN``; added tokens write their text. Ids without a
    token (a logits width past the vocabulary) write nothing.

    Args:
        tokenizer: a fast Hugging Face tokenizer.
        size: how many ids (default: the vocabulary with its added tokens).
    """
    data = _tokenizer_json(tokenizer)
    vocab = data.get("model", {}).get("vocab") or {}
    if isinstance(vocab, list):  # Unigram: [[piece, score], ...]
        pieces = {i: piece for i, (piece, _) in enumerate(vocab)}
    else:
        pieces = {int(i): piece for piece, i in vocab.items()}
    added = {int(a["id"]): str(a["content"]) for a in data.get("added_tokens") or []}
    total = size if size is not None else max([*pieces, *added, -1]) + 1
    byte_level = is_byte_level(tokenizer)
    table = _unicode_to_byte()
    out: list[bytes] = []
    for i in range(total):
        if i in added:
            out.append(added[i].encode("utf-8"))
            continue
        piece = pieces.get(i)
        if piece is None:
            out.append(b"")
        elif byte_level and all(c in table for c in piece):
            out.append(bytes(table[c] for c in piece))
        elif (match := _BYTE_TOKEN.match(piece)) is not None:
            out.append(bytes([int(match.group(1), 16)]))
        else:
            out.append(piece.replace("▁", " ").encode("utf-8"))
    return out


def engine_json(tokenizer: Any) -> str:
    """The tokenizer's JSON for a grammar engine, its decoder saying what the vocabulary is.

    A byte-level vocabulary whose decoder wraps ``ByteLevel`` in a sequence of other steps (as
    ``transformers`` 5.17 converts GGUF files) gets the plain ``ByteLevel`` decoder, which is what
    the sequence amounts to for byte-level pieces; any other tokenizer is passed as it is.
    Padding and truncation are off.
    """
    data = _tokenizer_json(tokenizer)
    decoder = data.get("decoder")
    if is_byte_level(tokenizer) and (decoder or {}).get("type") != "ByteLevel":
        steps = _walk(decoder, "ByteLevel")
        data["decoder"] = (
            steps[0]
            if steps
            else {
                "type": "ByteLevel",
                "add_prefix_space": True,
                "trim_offsets": True,
                "use_regex": True,
            }
        )
    data["padding"] = None
    data["truncation"] = None
    return json.dumps(data)


def gguf_special_ids(path: str | Path) -> dict[str, Any]:
    """What a GGUF file's metadata declares of its special tokens.

    Returns:
        ``{"eos_token": id, "bos_token": id, ...}`` for the ids it gives, and
        ``"add_bos_token"``/``"add_eos_token"`` (bools) where it says whether encoding adds them.
    """
    try:
        from gguf import GGUFReader
    except ImportError:  # transformers needs gguf to read the file at all
        return {}
    reader = GGUFReader(str(path))
    found: dict[str, Any] = {}
    for name, key in GGUF_SPECIAL_TOKENS.items():
        field = reader.fields.get(key)
        if field is not None and field.data:
            found[name] = int(field.parts[field.data[0]][0])
    for flag in ("add_bos_token", "add_eos_token"):
        field = reader.fields.get(f"tokenizer.ggml.{flag}")
        if field is not None and field.data:
            found[flag] = bool(field.parts[field.data[0]][0])
    return found


def _adds_special_tokens(tokenizer: Any) -> bool:
    plain = tokenizer.encode("a b", add_special_tokens=False)
    return bool(tokenizer.encode("a b", add_special_tokens=True) != plain)


def repair_gguf_tokenizer(tokenizer: Any, model: Any, declared: dict[str, Any]) -> list[str]:
    """Make a tokenizer converted from a GGUF file agree with the file; what changed.

    The special tokens the file declares (``declared``, from :func:`gguf_special_ids`) replace
    those the conversion chose, in the tokenizer and in the model's generation settings; a
    byte-level vocabulary gets the plain ``ByteLevel`` decoder (see :func:`engine_json`); decoding
    never cleans up spaces before punctuation (that is for WordPiece, and would rewrite actions);
    when the file says encoding adds no beginning-of-sequence token (``add_bos_token`` false),
    encoding adds none (``transformers`` 4.56 adds ``<|im_start|>`` to SmolLM2's prompts).

    Returns:
        One line per repair, e.g. ``"eos_token: '<|im_start|>' -> '<|im_end|>'"``.
    """
    notes = []
    size = len(tokenizer)
    for name, token_id in declared.items():
        if name not in GGUF_SPECIAL_TOKENS or not 0 <= token_id < size:
            continue
        token = tokenizer.convert_ids_to_tokens(token_id)
        current = getattr(tokenizer, name, None)
        if current != token:
            setattr(tokenizer, name, token)
            notes.append(f"{name}: {current!r} -> {token!r}")
        for config in (getattr(model, "generation_config", None), getattr(model, "config", None)):
            attribute = f"{name}_id"
            if config is not None and getattr(config, attribute, token_id) != token_id:
                setattr(config, attribute, token_id)
    backend = tokenizer.backend_tokenizer
    decoder = json.loads(backend.to_str()).get("decoder") or {}
    if is_byte_level(tokenizer) and decoder.get("type") != "ByteLevel":
        from tokenizers import decoders

        backend.decoder = decoders.ByteLevel()
        notes.append(f"decoder: {decoder.get('type')} -> ByteLevel")
    no_bos = declared.get("add_bos_token") is False and declared.get("add_eos_token") is not True
    if no_bos and _adds_special_tokens(tokenizer):
        from tokenizers import processors

        for flag in ("add_bos_token", "add_eos_token"):  # transformers 4.x keeps them too
            if getattr(tokenizer, flag, False):
                with contextlib.suppress(AttributeError, ValueError):
                    setattr(tokenizer, flag, False)
        if _adds_special_tokens(tokenizer):
            backend.post_processor = processors.TemplateProcessing(
                single="$A", pair="$A $B:1", special_tokens=[]
            )
        notes.append("encoding adds no special tokens (the file's add_bos_token is false)")
    if getattr(tokenizer, "clean_up_tokenization_spaces", False):
        tokenizer.clean_up_tokenization_spaces = False
        notes.append("clean_up_tokenization_spaces: True -> False")
    return notes
