"""RapidAPI: multi-step tool use over a library of thousands of RapidAPI-style APIs.

## Description

ToolBench's (ToolLLM's) and StableToolBench's tool-use setting, deterministic and offline. A
library of RapidAPI-style tools in ToolBench's format (49 categories, about 1,000 tools and
4,000 APIs by default, generated from the world seed; ``num_apis=16464`` gives ToolBench's size;
``library`` reads a real ToolBench ``tools/`` folder or query file instead) stands behind a service that
answers every call at once: it checks the arguments as the API would, answers from a fixture
cache when the call is in it, and otherwise synthesizes a response from the API's response
template, the same for the same call in any process. No key, no network, no judge.

A task ("Please search for hotels in Lisbon and tell me the name of the first result...") is of
group G1 (one tool), G2 (several tools of a category) or G3 (several tools of a collection), and
comes with a gold call graph whose nested calls take their arguments from earlier responses.
Labelled unsolvable variants have an API that is down; the right move is to try it and give up.

## Tools

The task's functions: every API of its tools and of one distractor tool, as ToolBench names them
(``<api>_for_<tool>``) with its function schemas (strict JSON Schema by default,
``schema_style="upstream"`` for ToolBench's), plus ``retrieve_apis`` (a BM25 top-k over the
whole library, whose results become callable) and ``Finish`` (``return_type`` ``give_answer``
with a ``final_answer``, or ``give_up_and_restart``). ``info["tools"]`` holds the schemas and
``info["api_docs"]`` each function's name, description and parameter schema.

## Action Space

A string (``TextSpace``): a JSON call ``{"name": ..., "arguments": {...}}`` (OpenAI's
``function_call`` and ``tool_calls`` messages work too) or ToolBench's text ``Thought: ...`` /
``Action: <function>`` / ``Action Input: {...}``. In ``call`` mode (the default) one reply per
step; in ``program`` mode the whole episode as a JSON list of calls.

## Observation Space

A string: first the instruction, then each call's reply ``{"error": ..., "response": ...}`` as
JSON, cut to 1,024 characters plus ``"..."`` as ToolBench cuts it. ``info["code"]`` is
ToolBench's status code of the step (0 normal, 1 no such function, 2 input error, 3 final
answer, 4 give up, 5 timeout, 6 API not working, 9 too many requests, 12 request refused:
wrong arguments or an HTTP error) and ``info["calls"]`` lists the calls the step ran.

## Rewards

The pass rate, computed, never judged: 1 when every API of the gold was answered without an
error and ``Finish`` gave an answer that states every key value the service returned for the
task (for an unsolvable task: when the API that is down was tried and the agent gave up), else
0. ``info["metrics"]`` adds StableToolBench's SoPR pre-check (``precheck``), ``calls_ok``,
``grounded``, Seal-Tools' ``tool_f1`` and ``param_f1`` against the gold calls, and the task's
``group``. Agent mistakes (an unknown function, wrong arguments, a bad ``Finish``) come back in
the reply and ``info["error"]`` (``wrong_api``, ``wrong_arguments``, ``non_executable``).

## Starting State

An empty episode on the task's functions (``setup["functions"]``), with the APIs of
``setup["down"]`` down. The task is ``options["task_id"]``, ``options["task"]`` or drawn with
the env's seeded generator.

## Episode End

Terminated at ``Finish`` (an answer or a give-up); in ``program`` mode after the one step.
Truncated after ``max_episode_steps`` (12, ToolBench's ``single_chain_max_step``).

## Arguments

``split`` (``"test"``: 200 tasks per group and 40 unsolvable ones per group, ``"demo"``: 75,
``"train"``: unlimited), ``action_mode`` (``"call"``/``"program"``), ``task_file`` (a JSONL
task file, or a ToolBench or StableToolBench query file: use it as the ``library`` too),
``reward_type`` (``"success"``), ``world_seed`` (seed of the library and of its responses: the
``test`` and ``demo`` splits belong to world 0), ``num_apis`` (the generated library's size,
4,000 by default; a larger library keeps the default one's tools and adds more),
``library`` (a ToolBench ``tools/`` folder, or a query file whose inline docs make the
library), ``response_cache`` (fixtures: a StableToolBench
cache folder or a saved cache file), ``schema_style`` (``"strict"``/``"upstream"``),
``observation_chars`` (1,024), ``render_mode`` (``None``/``"ansi"``).

"""

from __future__ import annotations

from toolgym.conversation.spec import chat_spec
from toolgym.envs.spec import FamilySpec, VersionSpec
from toolgym.families.rapid_api.metrics import METRICS

SPEC = FamilySpec(
    name="rapid_api",
    title="RapidAPI",
    env_name="RapidAPI",
    toolkit="toolgym.families.rapid_api.toolkit:RapidApiToolkit",
    versions=(
        VersionSpec(
            0,
            max_episode_steps=12,
            tasks="toolgym.families.rapid_api.tasks.suite:SUITE_V0",
            history="initial release: a generated 4,000-API library in ToolBench's format, "
            "deterministic synthesized responses, G1/G2/G3 tasks with gold call graphs and "
            "unsolvable variants, judge-free pass rate; tool and parameter F1 with the "
            "first-match rule (a repeated call counts again: recall can pass 100%)",
        ),
        VersionSpec(
            1,
            max_episode_steps=12,
            tasks="toolgym.families.rapid_api.tasks.suite:SUITE",
            history="v0's tasks and service; tool and parameter F1 match each gold call at most "
            "once (one-to-one), so no rate passes 100%",
        ),
    ),
    prompting="toolgym.families.rapid_api.profile:PROMPTING",
    profile="toolgym.families.rapid_api.profile:PROFILE",
    metrics=METRICS,
    reward="success",
    aliases=("toolllm", "stabletoolbench"),
    doc=__doc__ or "",
    action_mode="call",
    service="toolgym.simulators.tool_library.service:VirtualApiApp",
)
"""The RapidAPI family."""

CHAT_SPEC = chat_spec(
    SPEC,
    toolkit="toolgym.families.rapid_api.chat:RapidApiChatToolkit",
    tasks="toolgym.families.rapid_api.chat:SUITE",
    options=("num_apis", "library", "response_cache", "schema_style", "observation_chars"),
)
"""``toolbench/RapidAPIChat-v0``: the user holds back some values of the request (see ``chat.py``)."""
