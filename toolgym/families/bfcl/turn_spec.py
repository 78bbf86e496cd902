"""BFCL v4's multi-turn categories as one env, played a reply at a time and scored as BFCL scores.

## Description

The Berkeley Function Calling Leaderboard's multi-turn entries (``multi_turn_base``,
``multi_turn_miss_func``, ``multi_turn_miss_param``, ``multi_turn_long_context``; 800 in
``bfcl-eval`` 2026.3.23), read from the installed ``bfcl-eval``
(``pip install --no-deps bfcl-eval==2026.3.23``, and ``mpmath`` for its ``MathAPI``). Each task
is a conversation of several user turns over BFCL's own Python backends (a file system, a
messaging app, a trading bot, a travel agency, a car, ...), fresh from the entry's
``initial_config`` at every reset (the long-context scenarios for ``long_context``). The
agent's calls run on them as BFCL runs them; a reply without calls ends the turn and the next
user message comes, with the functions a ``miss_func`` entry held back when their turn comes.
At the end BFCL's verdict scores the conversation: after every turn whose possible answer has
calls, the backends' state must equal that of the possible answer's run, and the possible
answer's results must be among the agent's.

## Tools

The entry's functions, BFCL's docs of its classes' methods (those held back come at their
turn, in ``info["tools"]`` of that step). ``info["system_prompt"]`` is BFCL's system prompt for a
prompt-mode model, with the functions of the first turn.

## Action Space

A string (``TextSpace``, up to 16,384 characters): one model reply. JSON calls
(``{"name", "arguments"}`` or a list of them, as a function-calling model's tool calls come) or
Python calls as BFCL's prompt asks for them (``[cd(folder='docs'), ls()]``, decoded without
evaluating anything); anything else, ``[]`` or ``finish`` ends the turn. Played in ``call`` mode
only.

## Observation Space

A string: after ``reset``, the first user turn; after calls, their results (a dict as JSON,
``Error during execution: <message>`` for a failed call, one numbered line per call when there
are several); after a reply that ends a turn, the next user turn (``miss_func``'s turn lists
the new functions for a prompt-mode model, as BFCL's message does).

## Rewards

``success``: 1 when BFCL's multi-turn checker passes the conversation, else 0, given when the
episode ends. ``info["metrics"]`` holds the entry's ``category`` and BFCL's ``error_type``;
``info["error"]`` the failing check (``multi_turn:instance_state_mismatch``,
``multi_turn:execution_response_mismatch``, ``multi_turn:empty_turn_model_response``,
``multi_turn:force_terminated``) and the turn it failed at.

## Starting State

The entry's backends in its starting state and its first user turn. The task is
``options["task_id"]`` (BFCL's id), ``options["task"]`` (a task or a record; one with only a
request and a gold of turns of calls becomes a one-turn entry over the classes it calls) or drawn
with the env's seeded generator.

## Episode End

Terminated when the last turn ends, or when a turn has more than 20 steps with calls (BFCL's
forced quit: the remaining turns are missing and the entry fails). Truncated after
``max_episode_steps`` (200, set in the registry).

## Arguments

``split`` (``"test"``: every multi-turn entry; ``"train"``: generated conversations over the
file system, math, messaging, ticket and posting backends, scored by the same verdict), ``category`` (one of the four, such as
``"multi_turn_miss_param"``; ``None``: all), ``reply_format`` (``"any"``: JSON calls, else
Python calls; ``"prompt"``: Python calls only; ``"fc"``: JSON calls only, and held-back
functions announced as BFCL announces them to a function-calling model), ``action_mode``
(``"call"``), ``task_file``, ``reward_type`` (``"success"``), ``world_seed`` (0),
``render_mode`` (``None``/``"ansi"``).

"""

from __future__ import annotations

from dataclasses import replace

from toolgym.envs.spec import VersionSpec
from toolgym.families.bfcl.data import INSTALL
from toolgym.families.bfcl.spec import SIMPLE

MULTI_TURN = replace(
    SIMPLE,
    name="bfcl_multi_turn",
    title="BFCL Multi Turn",
    env_name="BFCL-MultiTurn",
    toolkit="toolgym.families.bfcl.turn_toolkit:BfclMultiTurnToolkit",
    versions=(
        VersionSpec(
            0,
            200,
            "toolgym.families.bfcl.turn_tasks:MULTI_TURN_SUITE",
            history="initial release: bfcl-eval 2026.3.23's multi-turn entries and verdict",
        ),
    ),
    prompting="toolgym.families.bfcl.profile:TURN_PROMPTING",
    doc=__doc__ or "",
    action_mode="call",
    action_modes=("call",),
    requires=(("bfcl_eval", INSTALL), ("mpmath", "pip install mpmath")),
)
"""BFCL's multi-turn categories."""
