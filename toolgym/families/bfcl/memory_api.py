"""BFCL's memory backends, kept in memory: key-value, recursive summary, and vector.

BFCL's memory categories give the model one of three ``MemoryAPI`` classes and score what it
answers from it. Its own classes keep their state in files under a result folder (written when
a conversation ends, read when the next begins) and load their encoder from the Hugging Face
hub when imported, so they are written here with the same public functions, limits, results and
error texts, and a state that is a value:

* :class:`MemoryKV` (``MemoryAPI_kv``): a core memory of at most 7 entries of 300 characters and
  an archival memory of at most 50 of 2,000, each a dict of snake_case keys, searched by key with
  BM25+ (``rank_bm25.BM25Plus`` over the keys' lower-cased words, as BFCL searches);
* :class:`MemoryRecSum` (``MemoryAPI_rec_sum``): one text of at most 10,000 characters;
* :class:`MemoryVector` (``MemoryAPI_vector``, in :mod:`.memory_vector`): two stores of texts
  retrieved by the cosine similarity of their all-MiniLM-L6-v2 embeddings.

Each class's :meth:`export` is the snapshot BFCL writes (``{"core_memory", "archival_memory"}``
or ``{"memory"}``), and ``_load_scenario`` takes one back (``{"snapshot": ...}`` in its
starting state), so a snapshot file from ``bfcl-eval``'s own run loads as it is.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from typing import Any

MAX_CORE_MEMORY_SIZE = 7
MAX_CORE_MEMORY_ENTRY_LENGTH = 300
MAX_ARCHIVAL_MEMORY_SIZE = 50
MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH = 2000
MAX_MEMORY_ENTRY_LENGTH = 10_000
"""The recursive summary's limit."""
MAX_REPLACED_LENGTH = 100_000
"""A replacement that would make the memory longer is refused (BFCL has no such limit: an empty
``old_text`` puts ``new_text`` between every two characters, a memory of 100 MB at worst)."""

_KEY = re.compile(r"^[a-z]+(_[a-z0-9]+)*$")


def bm25_search(query: str, corpus: list[str], k: int = 5) -> dict[str, Any]:
    """BFCL's key search: BM25+ scores of ``corpus`` for ``query``, best first, ``k`` of them.

    Words are the lower-cased, whitespace-split texts with ``_`` read as a space. An empty
    corpus fails as BFCL's does (a division by zero).
    """
    from rank_bm25 import BM25Plus

    def words(text: str) -> list[str]:
        return text.replace("_", " ").lower().split()

    bm25 = BM25Plus([words(text) for text in corpus])
    scores = bm25.get_scores(words(query))
    ranked = sorted(zip(scores, corpus, strict=True), key=lambda x: x[0], reverse=True)
    return {"ranked_results": ranked[:k]}


class MemoryBase:
    """What the memory classes share: the scenario they serve and their snapshot."""

    def __init__(self) -> None:
        self.scenario = ""

    def _load_scenario(self, initial_config: Mapping[str, Any], long_context: bool = False) -> None:
        """Start from ``initial_config``: ``{"scenario", "snapshot"}`` (a snapshot, or none)."""
        self.scenario = str(initial_config.get("scenario", ""))
        snapshot = initial_config.get("snapshot")
        if snapshot:
            self._load_snapshot(snapshot)

    def _load_snapshot(self, snapshot: Mapping[str, Any]) -> None:
        raise NotImplementedError

    def _export(self) -> dict[str, Any]:
        """The snapshot BFCL writes of this memory (JSON-ready)."""
        raise NotImplementedError

    def _dump_core_memory_to_context(self) -> str:
        """What the system prompt shows of the memory, as BFCL shows it."""
        raise NotImplementedError


class MemoryKV(MemoryBase):
    """BFCL's ``MemoryAPI_kv`` (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.core_memory: dict[str, str] = {}
        self.archival_memory: dict[str, str] = {}

    def _load_snapshot(self, snapshot: Mapping[str, Any]) -> None:
        self.core_memory = copy.deepcopy(dict(snapshot["core_memory"]))
        self.archival_memory = copy.deepcopy(dict(snapshot["archival_memory"]))

    def _export(self) -> dict[str, Any]:
        return {
            "core_memory": copy.deepcopy(self.core_memory),
            "archival_memory": copy.deepcopy(self.archival_memory),
        }

    def _dump_core_memory_to_context(self) -> str:
        if not self.core_memory:
            return "There is no content in the core memory at this point."
        return json.dumps(self.core_memory, indent=4)

    @staticmethod
    def _add(
        store: dict[str, str], key: Any, value: Any, limits: tuple[int, int, str], done: str
    ) -> Any:
        key, value = str(key), str(value)
        size, length, which = limits
        if len(store) >= size:
            return {"error": f"{which} is full. Please clear some entries."}
        if len(value) > length:
            return {
                "error": f"Entry is too long. Please shorten the entry to less than {length} characters."
            }
        if not _KEY.match(key):
            return {"error": "Key must be in snake_case format and cannot contain spaces."}
        if key in store:
            return {"error": "Key name must be unique."}
        store[key] = value
        return {"status": done}

    @staticmethod
    def _replace(store: dict[str, str], key: Any, value: Any, length: int) -> Any:
        key, value = str(key), str(value)
        if key not in store:
            return {"error": "Key not found."}
        if len(value) > length:
            return {
                "error": f"Entry is too long. Please shorten the entry to less than {length} characters."
            }
        store[key] = value
        return {"status": "Key replaced."}

    @staticmethod
    def _remove(store: dict[str, str], key: Any) -> Any:
        if key in store:
            del store[key]
            return {"status": "Key removed."}
        return {"error": "Key not found."}

    @staticmethod
    def _retrieve(store: dict[str, str], key: Any) -> Any:
        if key not in store:
            return {"error": "Key not found."}
        return {"value": store[key]}

    def core_memory_add(self, key: str, value: str) -> Any:
        """Add a key-value pair to the short-term memory (snake_case, unique key)."""
        return self._add(
            self.core_memory,
            key,
            value,
            (MAX_CORE_MEMORY_SIZE, MAX_CORE_MEMORY_ENTRY_LENGTH, "Core memory"),
            "Key-value pair added.",
        )

    def core_memory_remove(self, key: str) -> Any:
        """Remove a key-value pair from the short-term memory."""
        return self._remove(self.core_memory, key)

    def core_memory_replace(self, key: str, value: str) -> Any:
        """Replace the value of a key in the short-term memory."""
        return self._replace(self.core_memory, key, value, MAX_CORE_MEMORY_ENTRY_LENGTH)

    def core_memory_clear(self) -> Any:
        """Clear the short-term memory."""
        self.core_memory = {}
        return {"status": "Short term memory cleared."}

    def core_memory_retrieve(self, key: str) -> Any:
        """The value of a key in the short-term memory."""
        return self._retrieve(self.core_memory, key)

    def core_memory_list_keys(self) -> Any:
        """The short-term memory's keys."""
        return {"keys": list(self.core_memory.keys())}

    def core_memory_key_search(self, query: str, k: int = 5) -> Any:
        """The short-term memory's keys most like ``query`` (BM25+)."""
        return bm25_search(query, list(self.core_memory.keys()), k)

    def core_memory_retrieve_all(self) -> Any:
        """Every key-value pair of the short-term memory."""
        return self.core_memory

    def archival_memory_add(self, key: str, value: str) -> Any:
        """Add a key-value pair to the long-term memory (snake_case, unique key)."""
        return self._add(
            self.archival_memory,
            key,
            value,
            (MAX_ARCHIVAL_MEMORY_SIZE, MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH, "Long term memory"),
            "Key added.",
        )

    def archival_memory_remove(self, key: str) -> Any:
        """Remove a key-value pair from the long-term memory."""
        return self._remove(self.archival_memory, key)

    def archival_memory_replace(self, key: str, value: str) -> Any:
        """Replace the value of a key in the long-term memory."""
        return self._replace(self.archival_memory, key, value, MAX_ARCHIVAL_MEMORY_ENTRY_LENGTH)

    def archival_memory_clear(self) -> Any:
        """Clear the long-term memory."""
        self.archival_memory = {}
        return {"status": "Long term memory cleared."}

    def archival_memory_retrieve(self, key: str) -> Any:
        """The value of a key in the long-term memory."""
        return self._retrieve(self.archival_memory, key)

    def archival_memory_list_keys(self) -> Any:
        """The long-term memory's keys."""
        return {"keys": list(self.archival_memory.keys())}

    def archival_memory_key_search(self, query: str, k: int = 5) -> Any:
        """The long-term memory's keys most like ``query`` (BM25+)."""
        return bm25_search(query, list(self.archival_memory.keys()), k)


class MemoryRecSum(MemoryBase):
    """BFCL's ``MemoryAPI_rec_sum`` (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.memory = ""

    def _load_snapshot(self, snapshot: Mapping[str, Any]) -> None:
        memory = snapshot["memory"]
        if not isinstance(memory, str):
            raise TypeError(f"Memory data should be a string, but got {type(memory)} instead.")
        self.memory = memory

    def _export(self) -> dict[str, Any]:
        return {"memory": self.memory}

    def _dump_core_memory_to_context(self) -> str:
        if not self.memory:
            return "There is no content in the memory at this point."
        return str(self.memory)

    def memory_append(self, text: str) -> Any:
        """Append ``text`` to the memory."""
        text = str(text)
        if len(self.memory + text) > MAX_MEMORY_ENTRY_LENGTH:
            return {
                "error": "Entry will be too long after appending. Please shorten the entry to "
                f"less than {MAX_MEMORY_ENTRY_LENGTH} characters."
            }
        self.memory += text
        return {"status": "Memory appended."}

    def memory_update(self, text: str) -> Any:
        """Replace the whole memory with ``text``."""
        text = str(text)
        if len(text) > MAX_MEMORY_ENTRY_LENGTH:
            return {
                "error": "Entry will be too long after updating. Please shorten the entry to "
                f"less than {MAX_MEMORY_ENTRY_LENGTH} characters."
            }
        self.memory = text
        return {"status": "Memory updated."}

    def memory_clear(self) -> Any:
        """Clear the memory."""
        self.memory = ""
        return {"status": "Short term memory cleared."}

    def memory_replace(self, old_text: str, new_text: str) -> Any:
        """Replace every ``old_text`` in the memory with ``new_text``."""
        old_text, new_text = str(old_text), str(new_text)
        if old_text not in self.memory:
            return {"error": f"Text '{old_text}' not found in memory."}
        grown = len(self.memory) + self.memory.count(old_text) * (len(new_text) - len(old_text))
        if len(new_text) > MAX_MEMORY_ENTRY_LENGTH or grown > MAX_REPLACED_LENGTH:
            return {
                "error": "Entry will be too long after replacing. Please shorten the entry to "
                f"less than {MAX_MEMORY_ENTRY_LENGTH} characters."
            }
        self.memory = self.memory.replace(old_text, new_text)
        return {"status": "Memory updated."}

    def memory_retrieve(self) -> Any:
        """The memory's text."""
        if not self.memory:
            return {"error": "Memory is empty."}
        return {"memory_content": self.memory}
