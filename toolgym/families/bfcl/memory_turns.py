"""The memory backend: a scenario's earlier conversations, then the question, on one memory.

BFCL plays a memory scenario's conversations (``memory_kv_prereq_0-customer-0``, ...) with the
model first, one after another on one memory backend, and writes the memory's snapshot when each
ends; every question of the scenario then starts from the last snapshot, in a conversation of its
own. Here an episode is one question, and it plays the same way:

* the scenario's conversations come first, each a fresh conversation (its own system prompt,
  which shows the memory as it is then, and no history of the one before), turn by turn as in
  ``BFCL-MultiTurn``; the last reply of each turn is words, as BFCL's loop has it. A turn of more
  than 20 steps with calls ends its conversation, and the next one opens;
* then the question, with BFCL's system message on the answer's format; its final reply is the
  answer, scored by BFCL's agentic verdict.

``info["conversation"]`` numbers the conversation a step is in (0 first); the step that opens
one also carries its ``system_prompt``. An agent drops its history when the number changes
(:class:`toolgym.agents.llm_agent.LLMAgent` does).

With a snapshot folder (``snapshots=``, in BFCL's layout: ``<folder>/<kv|vector|rec_sum>/
memory_snapshot/<scenario>_final.json``, the layout of ``bfcl-eval``'s
``result/<model>/agentic/memory``), a scenario whose snapshot is there skips its conversations,
and one whose snapshot is not there writes it when its conversations end: BFCL's protocol, each
scenario's conversations played once, and ``bfcl-eval``'s own snapshots usable as they are.
"""

from __future__ import annotations

import json
import os
import tempfile
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from toolgym.errors import TaskFileError
from toolgym.families.bfcl.data import MEMORY, MEMORY_SCENARIOS, memory_class
from toolgym.families.bfcl.memory_api import MemoryBase, MemoryKV, MemoryRecSum
from toolgym.families.bfcl.turns import NO_REQUEST, SETUP_KEYS, MultiTurnBackend, user_text
from toolgym.tools.budgets import short_repr


def _vector() -> MemoryBase:
    from toolgym.families.bfcl.memory_vector import MemoryVector

    return MemoryVector()


MAKERS = {"MemoryAPI_kv": MemoryKV, "MemoryAPI_vector": _vector, "MemoryAPI_rec_sum": MemoryRecSum}
"""The memory classes, by BFCL's names."""
MEMORY_SETUP_KEYS = SETUP_KEYS | {"scenario", "prereq", "shared_memory"}
"""A memory question's setup: a multi-turn entry's, its scenario, its earlier conversations, and
whether its memory is the scenario's, shared through snapshots (BFCL's questions; not generated
ones)."""


def _instructions() -> tuple[dict[str, str], str, str]:
    import bfcl_eval.constants.default_prompts as prompts

    return (
        prompts.MEMORY_AGENT_SETTINGS,
        prompts.MEMORY_BACKEND_INSTRUCTION_CORE_ARCHIVAL,
        prompts.MEMORY_BACKEND_INSTRUCTION_UNIFIED,
    )


def _is_conversation(turns: Any) -> bool:
    """Whether ``turns`` is a non-empty list of turns, each a list of messages."""
    return (
        isinstance(turns, list)
        and bool(turns)
        and all(
            isinstance(turn, list)
            and all(isinstance(m, dict) and isinstance(m.get("content"), str) for m in turn)
            for turn in turns
        )
    )


def memory_instruction(category: str, scenario: str, memory: MemoryBase) -> str:
    """BFCL's system message on the memory: the scenario's role and what the memory shows."""
    settings, core_archival, unified = _instructions()
    template = unified if "rec_sum" in category else core_archival
    return template.format(
        scenario_setting=settings[scenario], memory_content=memory._dump_core_memory_to_context()
    )


def snapshot_path(folder: Path, category: str, scenario: str) -> Path:
    """Where BFCL keeps a scenario's last snapshot under a memory result folder."""
    backend = category.removeprefix("memory_")
    return folder / backend / "memory_snapshot" / f"{scenario}_final.json"


def check_setup(setup: Mapping[str, Any]) -> str:
    """Refuse a setup that is not a memory question's; its category.

    Raises:
        TaskFileError: an unknown scenario or category, another class than the category's (or
            more than one), held-back functions, or conversations that are not lists of turns.
    """
    if setup.get("scenario") not in MEMORY_SCENARIOS:
        raise TaskFileError(
            "a BFCL memory task's setup names its 'scenario', one of "
            f"{', '.join(MEMORY_SCENARIOS)}; got {short_repr(setup.get('scenario'), 80)}"
        )
    if setup.get("category", "memory_kv") not in MEMORY:
        raise TaskFileError(
            f"a BFCL memory task's 'category' is one of {', '.join(MEMORY)}; got "
            f"{short_repr(setup.get('category'), 80)}"
        )
    category = str(setup.get("category", "memory_kv"))
    if list(setup.get("involved_classes") or ()) != [memory_class(category)]:
        raise TaskFileError(
            f"a {category} task involves one class, {memory_class(category)}; got "
            f"{short_repr(setup.get('involved_classes'), 80)}"
        )
    if setup.get("missed_function"):
        raise TaskFileError("a BFCL memory task holds back no function ('missed_function')")
    prereq = setup.get("prereq") or []
    if not isinstance(prereq, list) or not all(
        isinstance(p, dict) and _is_conversation(p.get("turns")) for p in prereq
    ):
        raise TaskFileError(
            "'prereq' is a list of conversations, {'id', 'turns'} each, with turns a "
            "non-empty list of turns (lists of messages: {'role', 'content'})"
        )
    if not _is_conversation(setup.get("turns")):
        raise TaskFileError(
            "'turns' is a non-empty list of turns (lists of messages: {'role', 'content'})"
        )
    return category


class MemoryBackend(MultiTurnBackend):
    """One memory question with the conversations before it (see the module docstring).

    Args:
        reply_format: how replies are read (:data:`.answers.REPLY_FORMATS`).
        snapshots: a folder of scenarios' snapshots in BFCL's layout, read and written; ``None``
            plays every scenario's conversations in every episode.
    """

    setup_keys = MEMORY_SETUP_KEYS

    def __init__(self, reply_format: str = "any", snapshots: str | Path | None = None) -> None:
        super().__init__(reply_format, MAKERS)
        self.snapshots = None if snapshots is None else Path(snapshots)
        self.conversations: list[list[list[dict[str, Any]]]] = [[[]]]
        self.conversation_ids: list[str] = []
        self.conversation = 0
        self.shared = False
        """Whether the episode's memory is its scenario's, read from and written to
        ``snapshots`` (BFCL's own questions: ``setup["shared_memory"]``)."""

    def reset(
        self, rng: np.random.Generator | None, setup: Mapping[str, Any] | None = None
    ) -> None:
        """The question's episode: its scenario's conversations (unless a snapshot stands in).

        Raises:
            TaskFileError: a setup that is not a memory question's, or a snapshot file that is
                not a snapshot.
        """
        if not setup:
            raise TaskFileError("a BFCL memory task has a setup: its question and scenario")
        category = check_setup(setup)
        scenario = setup["scenario"]
        self.shared = setup.get("shared_memory") is True
        stored = self._stored(category, scenario) if self.shared else None
        classes = list(setup.get("involved_classes") or ())
        config = {name: {"scenario": scenario, "snapshot": stored} for name in classes}
        try:
            super().reset(rng, {**setup, "initial_config": config})
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            if stored is None:
                raise
            raise TaskFileError(f"the {scenario} memory snapshot does not load: {e!r}") from e
        question = list(setup.get("turns") or [[]])
        before = [] if stored is not None else list(setup.get("prereq") or [])
        self.conversations = [list(p["turns"]) for p in before] + [question]
        self.conversation_ids = [str(p.get("id", "")) for p in before] + ["question"]
        self.conversation = 0

    @property
    def memory(self) -> MemoryBase:
        """The episode's memory backend."""
        assert self.backends is not None, "reset() first"
        return next(iter(self.backends.instances.values()))

    @property
    def turns(self) -> list[list[dict[str, Any]]]:
        """The user's turns of the conversation under way."""
        return self.conversations[self.conversation]

    def system_message(self) -> str | None:
        """BFCL's memory message (the scenario's role, the memory), and the question's own."""
        own = [memory_instruction(self.category, str(self.setup["scenario"]), self.memory)]
        own += [str(m.get("content")) for m in self.turns[0] if m.get("role") == "system"]
        return "\n\n".join(own)

    def opening_info(self) -> dict[str, Any]:
        """The prompts, and the first conversation's number and id."""
        return {**super().opening_info(), **self.turn_info()}

    def turn_info(self, opened: bool = False) -> dict[str, Any]:
        """The conversation's number and id, and its system prompt on the step that opens it."""
        info: dict[str, Any] = {
            "conversation": self.conversation,
            "conversation_id": self.conversation_ids[self.conversation],
        }
        if opened:
            info["system_prompt"] = self.system_prompt()
            info["system_message"] = self.system_message()
        return info

    def run(
        self, texts: Sequence[str], seconds: float | None = None
    ) -> tuple[list[str], list[Any]]:
        """Run a step's calls; a forced quit before the question opens the next conversation."""
        results, faults = super().run(texts, seconds)
        if self.forced and self.conversation + 1 < len(self.conversations):
            self.forced = self.ended = False
            self.pending = self._next_conversation()
        return results, faults

    def end_turn(self, words: str | None = None) -> str | None:
        """End the turn; after a conversation's last turn, the next conversation opens."""
        last_turn = self.turn + 1 >= len(self.turns)
        if not self.ended and last_turn and self.conversation + 1 < len(self.conversations):
            return self._next_conversation()
        return super().end_turn(words)

    def _next_conversation(self) -> str:
        self.conversation += 1
        if self.conversation == len(self.conversations) - 1:
            self._store()  # the scenario's conversations are over
        self.turn, self.count, self.words = 0, 0, None
        self.answer.append([])
        return user_text(self.turns[0]) or NO_REQUEST

    def _stored(self, category: str, scenario: str) -> dict[str, Any] | None:
        if self.snapshots is None:
            return None
        path = snapshot_path(self.snapshots, category, scenario)
        if not path.is_file():
            return None
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise TaskFileError(f"the memory snapshot {path} does not read: {e}") from e
        keys = {"memory"} if category == "memory_rec_sum" else {"core_memory", "archival_memory"}
        if not isinstance(found, dict) or not keys <= set(found):
            raise TaskFileError(
                f"the memory snapshot {path} is not a {category} snapshot: an object with "
                f"{', '.join(sorted(keys))}"
            )
        return found

    def _store(self) -> None:
        """Write the scenario's snapshot, once (the first episode to finish its conversations)."""
        if self.snapshots is None or not self.shared:
            return
        path = snapshot_path(self.snapshots, self.category, str(self.setup["scenario"]))
        if path.exists():
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(self.memory._export(), f, indent=4)
            os.replace(temporary, path)
        except OSError as e:  # the episode goes on; later ones play the conversations again
            warnings.warn(f"the memory snapshot {path} was not written: {e}", stacklevel=2)

    def snapshot(self) -> dict[str, Any]:
        """The whole episode (its memory copied)."""
        state = super().snapshot()
        state["conversation"] = self.conversation
        state["conversations"] = [list(c) for c in self.conversations]
        state["conversation_ids"] = list(self.conversation_ids)
        state["shared"] = self.shared
        return state

    def restore(self, state: Any) -> None:
        """Back to a :meth:`snapshot`."""
        super().restore(state)
        self.conversation = state["conversation"]
        self.conversations = [list(c) for c in state["conversations"]]
        self.conversation_ids = list(state["conversation_ids"])
        self.shared = bool(state.get("shared", False))
