"""Seal-Tools: single-turn function calling, every call of the answer in one calling list.

## Description

The Seal-Tools benchmark as a Gymnasium environment. The user's query asks for one or more
API calls; the agent sees the benchmark's prompt (the output format, the offered tools as
``api_list`` and the query as ``task_instruction``) and answers with the list of calls that
carry the query out, in Seal-Tools' format: ``[{"api": ..., "parameters": {...}, "responses":
["API_call_0", ...]}, ...]``. Each call lists one placeholder per response field of its API,
numbered across the answer in call order, and a later call may pass an earlier placeholder as a
parameter value (a nested call). Nothing runs: the answer is read with Seal-Tools' parser and
scored against the gold calling list, with Seal-Tools' metrics. Tasks are of three kinds:
``single`` (one call), ``multiple`` (2 to 4 independent calls) and ``nested`` (2 or 3 calls, a
later one taking an earlier one's response).

## Tools

The world's tools in Seal-Tools' format (``api_name``, ``api_description``, ``field``,
``parameters`` with Python type names, ``required``, ``responses``): by default the 4,000 APIs
of the world's generated tool library, each one tool (``searchLoanOffers``,
``getLoanOfferDetails``, ...), or the tools of a Seal-Tools ``tool.jsonl`` (``tool_file``). A
task offers 5 of them: its gold tools and others of the same category. ``info["api_docs"]``
holds their ``tool.jsonl`` records, ``info["tools"]`` their OpenAI schemas.

## Action Space

A string (``TextSpace``, up to 16,384 characters) holding a calling list anywhere in it, read
as Seal-Tools reads it: every ``'`` taken for ``"``, line breaks dropped, the first list whose
first object starts with ``"api"``, bracket-balanced, holding ``api``, ``parameters`` and
``responses``, parsed as JSON. In ``program`` mode (the benchmark's protocol) the action is the
model's whole answer, the episode's one step. In ``call`` mode each step adds the calls of one
calling list to the answer (their placeholders numbered across the whole answer) and
``finish`` submits it; a step that holds no calling list is an error and adds nothing.

## Observation Space

A string: after ``reset``, the prompt (the instruction, the output format line, ``Input:``,
``api_list = [...]`` and ``task_instruction = "<query>"``); after an action, the calls read and
what the answer gets wrong about the tools (unknown APIs, undeclared or missing parameters,
placeholder counts and numbering; in ``call`` mode also where the next call's placeholders
start), or ``Error (<category>): <message>``.

## Rewards

``success``: 1 when the answer is the gold calling list (the same calls in any order, each
with exactly the gold's parameters and values equal by ``str()``, placeholders numbered as
Seal-Tools numbers them and references naming the same responses), else 0.
``info["metrics"]`` holds Seal-Tools' values for the episode, ``format_acc``, ``tool_p``,
``tool_r``, ``tool_f1``, ``param_p``, ``param_r``, ``param_f1`` (first-match, as Seal-Tools
counts), the one-to-one ``tool_f1_1to1`` and ``param_f1_1to1``, the counters ``n_*`` they come
from, and the task's ``kind``; summaries pool the counters over the split, which gives
Seal-Tools' split-level numbers, and break them down by kind. ``info["error"]`` is a
``{"category", "message"}`` with category ``non_executable`` (no calling list could be read),
``wrong_api``, ``wrong_arguments``, ``resource_limit`` or ``service_error``;
``info["call_problems"]`` lists what the answer gets wrong about the tools.

## Starting State

The task's prompt over the tools it offers. The task is ``options["task_id"]``,
``options["task"]`` (a record ``{"prompt", "completion", "tools"}`` or a task of
:func:`toolgym.families.seal_tools.tasks.load_instance_tasks`) or drawn with the env's seeded
generator.

## Episode End

Terminated after the one step in ``program`` mode, and at ``finish`` in ``call`` mode.
Truncated after ``max_episode_steps`` (12, set in the registry).

## Arguments

``split`` (``"test"``: 600 tasks, 200 of each kind; ``"demo"``: 60; ``"train"``: unlimited
generated tasks), ``action_mode`` (``"program"``/``"call"``), ``task_file`` (a JSONL file of
task records, tasks addressed by 0-based line number), ``reward_type``
(``"success"``), ``tool_file`` (a Seal-Tools ``tool.jsonl`` whose tools replace the
generated ones; the stored splits offer generated tools), ``world_seed`` (seed of the generated
tool library: the ``test`` and ``demo`` splits belong to world 0, ``train`` tasks are built for
any world), ``render_mode`` (``None``/``"ansi"``).

"""

from __future__ import annotations

from toolgym.envs.spec import FamilySpec, VersionSpec
from toolgym.families.seal_tools.metrics import METRICS

SPEC = FamilySpec(
    name="seal_tools",
    title="Seal-Tools",
    env_name="SealTools",
    toolkit="toolgym.families.seal_tools.toolkit:SealToolsToolkit",
    versions=(
        VersionSpec(
            0,
            max_episode_steps=12,
            tasks="toolgym.families.seal_tools.tasks:SUITE",
            history="initial release: single, multiple and nested calling lists over the "
            "generated tool library in Seal-Tools' format, Seal-Tools' parser and pooled "
            "metrics, an exact success and one-to-one F1s",
        ),
    ),
    prompting="toolgym.families.seal_tools.profile:PROMPTING",
    profile="toolgym.families.seal_tools.profile:PROFILE",
    metrics=METRICS,
    reward="success",
    doc=__doc__ or "",
)
"""The Seal-Tools family (5 offered tools, as the benchmark's prompts hold)."""
