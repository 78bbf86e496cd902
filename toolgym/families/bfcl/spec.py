"""BFCL v4's single-turn categories, one env per group, scored as BFCL's AST checker scores.

## Description

The Berkeley Function Calling Leaderboard (v4) as Gymnasium environments, read from the
installed ``bfcl-eval`` package (``pip install --no-deps bfcl-eval==2026.3.23``; an env made
without it is refused with that command). ``BFCL-Simple`` also reads Java and JavaScript replies
with BFCL's own parsers, which need the tree-sitter grammars BFCL pins
(``pip install tree-sitter==0.21.3 tree-sitter-java==0.21.0 tree-sitter-javascript==0.21.4``). Each task is one of BFCL's entries, under BFCL's id
(``simple_python_0``, ``live_multiple_12-3-0``): a question and the functions it offers, which
the agent answers with calls, or, where no function fits, with words. Nothing runs: the answer
is scored by BFCL's verdict, its AST check (names, required and unexpected parameters, types,
Java and JavaScript values converted by BFCL's converters, accepted values with BFCL's string,
list and dict rules, parallel calls in any order), or its irrelevance and relevance checks.
Envs: ``BFCL-Simple`` (simple_python, simple_java, simple_javascript), ``BFCL-Multiple``,
``BFCL-Parallel``, ``BFCL-ParallelMultiple``, ``BFCL-Irrelevance`` and ``BFCL-Live``
(live_simple, live_multiple, live_parallel, live_parallel_multiple, live_irrelevance,
live_relevance).

## Tools

The entry's functions, as BFCL shows them to a model: each description ends with a note on
its language, and Java and JavaScript parameters are strings of source text. ``info["tools"]``
holds them as function-calling schemas (Gorilla's types mapped to JSON Schema's),
``info["api_docs"]`` as JSON docs, one per line (BFCL's prompt mode lists them so).

## Action Space

A string (``TextSpace``, up to 16,384 characters): JSON calls (``{"name", "arguments"}``, a
list of them, or BFCL's ``[{name: {...}}]``) or Python calls as BFCL's prompt asks for them
(``[func(a=1), other(b='x')]``, decoded without evaluating anything); anything else is a reply
in words. In ``program`` mode (BFCL's protocol) the action is the whole reply and the episode's
one step. In ``call`` mode each step adds its calls to the answer (a function the entry does not
offer, or a step that is not calls, is refused), and ``finish`` submits it (with no call: a
reply in words).

## Observation Space

A string: after ``reset``, the user's request (with the entry's system message when it has
one); after an action, the calls read, or ``Error (<category>): <message>``.

## Rewards

``success``: 1 when BFCL's checker passes the answer, else 0. ``info["metrics"]`` holds the
entry's ``category`` (reports break results down by it) and BFCL's ``error_type``;
``info["error"]`` gives the failing check (``wrong_api``, ``wrong_arguments``,
``non_executable``, ``goal_not_met``) with BFCL's error type first in its message.

## Starting State

The entry's question and functions. The task is ``options["task_id"]`` (BFCL's id),
``options["task"]`` (a task or a record; one with only a prompt and gold calls gets functions
and a possible answer derived from them) or drawn with the env's seeded generator.

## Episode End

Terminated after the one step in ``program`` mode, and at ``finish`` in ``call`` mode. Truncated after ``max_episode_steps`` (16, set in the registry).

## Arguments

``split`` (``"test"``: every entry of the env's categories; BFCL has no demonstrations and its
questions cannot be generated, so there is no ``demo`` or ``train`` split), ``category`` (one of
the env's BFCL categories, such as ``"live_parallel"``; ``None``: all of them),
``reply_format`` (``"any"``: JSON calls, else Python calls; ``"prompt"``: Python calls only,
as BFCL reads a prompt-mode model, so that JSON is not calls; ``"fc"``: JSON calls only, as it
reads a function-calling model's tool calls), ``action_mode``
(``"program"``/``"call"``), ``task_file`` (a JSONL file of task records), ``reward_type``
(``"success"``), ``world_seed`` (0: BFCL's entries are fixed), ``render_mode``
(``None``/``"ansi"``).

"""

from __future__ import annotations

from dataclasses import replace

from toolgym.benchmarks.score import MetricSpec
from toolgym.envs.spec import FamilySpec, VersionSpec
from toolgym.families.bfcl.data import INSTALL, TREE_SITTER_INSTALL

METRICS = (MetricSpec("success", "accuracy"),)
"""BFCL's accuracy: the share of entries its checker passes."""

_HISTORY = (
    "initial release: bfcl-eval 2026.3.23's entries, BFCL's AST, relevance and irrelevance "
    "verdicts, JSON and Python-call answers"
)

SIMPLE = FamilySpec(
    name="bfcl_simple",
    title="BFCL Simple",
    env_name="BFCL-Simple",
    toolkit="toolgym.families.bfcl.toolkit:BfclToolkit",
    versions=(VersionSpec(0, 16, "toolgym.families.bfcl.tasks:SIMPLE", history=_HISTORY),),
    prompting="toolgym.families.bfcl.profile:PROMPTING",
    profile="toolgym.families.bfcl.profile:PROFILE",
    metrics=METRICS,
    reward="success",
    doc=__doc__ or "",
    requires=(
        ("bfcl_eval", INSTALL),
        ("tree_sitter_java", TREE_SITTER_INSTALL),
        ("tree_sitter_javascript", TREE_SITTER_INSTALL),
    ),
)
"""BFCL's simple categories in Python, Java and JavaScript."""


def _group(name: str, title: str, env_name: str, suite: str) -> FamilySpec:
    version = VersionSpec(0, 16, f"toolgym.families.bfcl.tasks:{suite}", history=_HISTORY)
    return replace(
        SIMPLE,
        name=name,
        title=title,
        env_name=env_name,
        versions=(version,),
        requires=(("bfcl_eval", INSTALL),),
    )


MULTIPLE = _group("bfcl_multiple", "BFCL Multiple", "BFCL-Multiple", "MULTIPLE")
PARALLEL = _group("bfcl_parallel", "BFCL Parallel", "BFCL-Parallel", "PARALLEL")
PARALLEL_MULTIPLE = _group(
    "bfcl_parallel_multiple", "BFCL Parallel Multiple", "BFCL-ParallelMultiple", "PARALLEL_MULTIPLE"
)
IRRELEVANCE = _group("bfcl_irrelevance", "BFCL Irrelevance", "BFCL-Irrelevance", "IRRELEVANCE")
LIVE = _group("bfcl_live", "BFCL Live", "BFCL-Live", "LIVE")
