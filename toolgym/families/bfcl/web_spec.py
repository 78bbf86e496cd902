"""BFCL v4's web search categories, over a search backend the user supplies.

## Description

BFCL's web search entries (``web_search_base`` and ``web_search_no_snippet``, 100 questions
each in ``bfcl-eval`` 2026.3.23): multi-hop questions whose answers are on the web ("In April
2025, who is the richest billionaire from the country that produces the most expensive
tea?"). The agent searches and reads pages with BFCL's two functions, then answers in words;
BFCL's agentic verdict scores the final answer. toolgym reaches no network, so the env searches
and fetches with a backend the user passes (``search_backend=``; see ``toolgym.families.bfcl.web``)
and is refused without one. It is in no suite, and its results are only as repeatable as the
backend.

## Tools

``search_engine_query(keywords, max_results=10, region="wt-wt")`` and
``fetch_url_content(url, mode="raw")``, as BFCL documents them. ``info["system_prompt"]`` is
BFCL's prompt-mode system prompt with them and BFCL's message on the final answer's format
(``{'answer': ..., 'context': ...}``).

## Action Space

A string: one model reply, read as in ``BFCL-MultiTurn`` (JSON calls or Python calls run; any
other reply is the final answer and ends the episode). Played in ``call`` mode only.

## Observation Space

A string: the question, then each call's result as BFCL writes it (search results as JSON,
without their ``body`` in ``web_search_no_snippet``; a page as ``{"content": ...}``; a failure
as ``{"error": ...}``).

## Rewards

``success``: 1 when the final answer contains one of BFCL's possible answers as a whole word
(case, and ``,./-_*^()`` ignored), else 0. ``info["metrics"]["error_type"]`` is BFCL's
(``agentic:answer_not_found``, ``agentic:no_last_message``).

## Starting State

The question and the search backend. The task is ``options["task_id"]`` (BFCL's id, with its
category: ``web_search_no_snippet_12``) or drawn with the env's seeded generator.

## Episode End

Terminated by the first reply without calls (the final answer), or after 20 replies with calls
(BFCL's forced quit, a failure). Truncated after ``max_episode_steps`` (24, set in the registry).

## Arguments

``search_backend`` (required: an object with ``search(keywords, max_results, region)`` and
``fetch(url, mode)``, or the ``"module:attribute"`` path of one), ``category``
(``"web_search_base"``, ``"web_search_no_snippet"``, ``None``: both), ``reply_format``
(``"any"``, ``"prompt"``, ``"fc"``), ``split`` (``"test"``), ``action_mode`` (``"call"``),
``reward_type`` (``"success"``), ``world_seed`` (0), ``render_mode`` (``None``/``"ansi"``).

"""

from __future__ import annotations

from dataclasses import replace

from toolgym.envs.spec import VersionSpec
from toolgym.families.bfcl.data import INSTALL
from toolgym.families.bfcl.turn_spec import MULTI_TURN

WEB_SEARCH = replace(
    MULTI_TURN,
    name="bfcl_web_search",
    title="BFCL Web Search",
    env_name="BFCL-WebSearch",
    toolkit="toolgym.families.bfcl.web_toolkit:BfclWebSearchToolkit",
    versions=(
        VersionSpec(
            0,
            24,
            "toolgym.families.bfcl.web_tasks:WEB_SEARCH_SUITE",
            history="initial release: bfcl-eval 2026.3.23's web search questions and verdict",
        ),
    ),
    profile="toolgym.families.bfcl.profile:WEB_PROFILE",
    doc=__doc__ or "",
    requires=(("bfcl_eval", INSTALL),),
    needs=(
        (
            "search_backend",
            "an object with search(keywords, max_results, region) and fetch(url, mode), or "
            "the 'module:attribute' path of one: toolgym reaches no network",
        ),
    ),
)
"""BFCL's web search categories."""
