"""Home Search: find homes to buy or rent by setting search criteria through ``API`` calls.

## Description

The SambaNova ToolBench *Home Search* task as a Gymnasium environment. The user states what
home they want to buy or rent; the agent writes a program of ``API`` calls that sets the
search criteria and ends with ``API.search()``. The search runs over a generated database of
6,144 listings in 64 US cities and returns the matching listings.

## Tools

The original's 15 functions, same names, arguments, enum values and rules:
``API.set_location`` (first), ``API.set_buy_or_rent`` (second), ``API.select_home_type``,
``API.set_min_price``/``set_max_price``, ``API.set_min_square_feet``/``set_max_square_feet``,
``API.set_num_beds``, ``API.set_num_baths``, ``API.set_num_garages``,
``API.set_num_swimming_pools``, ``API.set_num_balconies``, ``API.set_floor_number``,
``API.set_max_commute_time`` and ``API.search`` (fills ``min_price``/``min_square_feet`` = 0).
``info["api_docs"]`` has the ToolBench-style docs, ``info["tools"]`` the OpenAI schemas.

## Action Space

A string (``TextSpace``, up to 16,384 characters). In ``program`` mode, a whole program
(one call per line; assignments and comments allowed), run by a safe interpreter. In ``call``
mode, one call per step, as a line of code or a JSON call ``{"name", "arguments"}``.

## Observation Space

A string: the user's goal after ``reset``; after a step, the listings found (or what a call
did), or ``Error (<category>): <message>``.

## Rewards

The F1 of the accumulated ``search_criteria`` dict against the best gold program's (the
original metric), given when the episode ends; 0 otherwise and for programs that do not run.
``reward_type="success"`` gives 1 only for F1 == 1. ``info["metrics"]`` holds ``executable``,
``success``, ``precision``, ``recall``, ``f1``; ``info["error"]`` a ``{"category", "message"}``
with category ``non_executable``, ``wrong_api``, ``wrong_arguments`` or ``precondition``.

## Starting State

Empty criteria; the task is ``options["task_id"]``, ``options["task"]`` (a record
``{"prompt", "completion"}``) or drawn with the env's seeded generator.

## Episode End

Terminated after the one step in ``program`` mode, and at ``API.search()`` in ``call`` mode.
Truncated after ``max_episode_steps`` (32, set in the registry).

## Arguments

``split`` (``"test"``: 100 tasks, ``"demo"``: 10 demonstrations, ``"train"``: unlimited generated
tasks), ``action_mode`` (``"program"``/``"call"``), ``task_file`` (an original-format JSONL file,
tasks addressed by 0-based line number), ``extraction`` (``"strict"``/``"lenient"``),
``reward_type`` (``"f1"``/``"success"``), ``max_results`` (listings shown, default 5),
``world_seed`` (seed of the listing database: the ``test`` and ``demo`` splits belong to
world 0, ``train`` tasks are built for any world), ``render_mode`` (``None``/``"ansi"``).

"""

from __future__ import annotations

from toolgym.conversation.spec import chat_spec
from toolgym.envs.spec import FamilySpec, VersionSpec

SPEC = FamilySpec(
    name="home_search",
    title="Home Search",
    env_name="HomeSearch",
    toolkit="toolgym.families.home_search.toolkit:HomeSearchToolkit",
    versions=(
        VersionSpec(
            0,
            max_episode_steps=32,
            tasks="toolgym.families.home_search.tasks:SUITE",
            history="initial release: the original API and scoring",
        ),
    ),
    prompting="toolgym.families.home_search.profile:PROMPTING",
    profile="toolgym.families.home_search.profile:PROFILE",
    doc=__doc__ or "",
)
"""The Home Search family (its prompting defaults are the original's ``top_k_api`` and
``max_output_token`` command-line settings)."""

CHAT_SPEC = chat_spec(
    SPEC,
    toolkit="toolgym.families.home_search.chat:HomeSearchChatToolkit",
    tasks="toolgym.families.home_search.chat:SUITE",
    options=("extraction", "max_results"),
)
"""``toolbench/HomeSearchChat-v0``: the user holds back some criteria (see ``chat.py``)."""
