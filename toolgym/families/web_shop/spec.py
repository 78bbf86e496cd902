"""WebShop: find and buy what the user asks for in a simulated web shop of 1,000 to 100,000+ products.

## Description

The SambaNova ToolBench *WebShop* task as a Gymnasium environment, with WebShop's pages, actions
and reward, in pure Python. The user asks for a product ("i need a herbal tea that is organic
with flavor: hibiscus, and size: 40 count, and price lower than 30.00 dollars"); the agent
searches the shop, pages through results, opens products, reads their description, features and
reviews, chooses options and buys. The catalog is generated from hand-written category grammars
(beauty, food, fashion, furniture, electronics: titles, descriptions, bullet points, attributes,
options, prices, ratings and reviews), 1,000 products by default and any number by argument;
search is BM25 over title, description, first bullet point and options (Porter stems, Lucene's
stop words, ``k1 = 0.9``, ``b = 0.4``), 50 hits, 10 per page.

## Tools

``search[keywords]`` and ``click[target]``, WebShop's actions: the target is the lower-cased
text of a button (``back to search``, ``next >``, ``< prev``, ``description``, ``features``,
``reviews``, ``buy now``), a product id on a results page or an option value on an item page.
``info["available_actions"]`` lists ``has_search_bar`` and the ``clickables`` of the page.

## Action Space

A string (``TextSpace``, up to 16,384 characters): one action per step in ``call`` mode (the
benchmark's protocol; a JSON call ``{"name": "click", "arguments": {"target": "buy now"}}`` works
too); in ``program`` mode, several actions, one per line, taken in order until one buys.

## Observation Space

A string: the current page as WebShop's simple text (its text nodes joined by ``[SEP]``), or its
rich text with ``observation="rich"``. The first observation is the search page, which shows the
instruction.

## Rewards

WebShop's reward of the purchase, given at ``click[buy now]``: the share of the goal's
attributes, options and price cap the product meets, times a type factor (1, 0.5, 0.1 or 0) from
its query, category and title nouns; 0 when nothing was bought. ``reward_type="success"`` gives 1
only for a reward of 1. ``info["metrics"]`` holds ``reward``, ``bought`` (the original's success:
anything was bought), ``success`` (reward 1) and the reward's components (``r_type``, ``r_att``,
``r_option``, ``r_price``, ``title_score``, ``query_match``, ``category_match``). An action that
is not carried out leaves the page as it is, as in WebShop, and ``info["error"]`` says why
(``non_executable``, ``wrong_arguments``, ``precondition``); an episode that ends without a
purchase reports ``goal_not_met``.

## Starting State

The search page of a session whose goal is the task's (``setup["goal"]``). The task is
``options["task_id"]``, ``options["task"]`` or drawn with the env's seeded generator.

## Episode End

Terminated at ``click[buy now]``; in ``program`` mode after the one step. Truncated after
``max_episode_steps`` (25, the benchmark's budget).

## Arguments

``split`` (``"test"``: 100 goals, ``"demo"``: the expert's trajectories, 1,500 in ``-v0`` and
the 200 shortest in ``-v1``, ``"train"``: unlimited goals), ``action_mode``
(``"call"``/``"program"``), ``task_file`` (a JSONL task file), ``reward_type``
(``"reward"``/``"success"``), ``num_products`` (catalog size, default 1,000), ``observation``
(``"simple"``/``"rich"``), ``world_seed`` (seed of the catalog: the ``test`` and ``demo`` splits
belong to world 0), ``product_file`` and ``attribute_file`` (WebShop's ``items_shuffle*.json``
and ``items_ins_v2*.json``: the shop is theirs, and its tasks come from
:func:`toolgym.families.web_shop.tasks.files.load_goal_tasks` or a task file),
``render_mode`` (``None``/``"ansi"``).

"""

from __future__ import annotations

from toolgym.conversation.spec import chat_spec
from toolgym.envs.spec import FamilySpec, VersionSpec
from toolgym.families.web_shop.metrics import METRICS

SPEC = FamilySpec(
    name="web_shop",
    title="WebShop",
    env_name="WebShop",
    toolkit="toolgym.families.web_shop.toolkit:WebShopToolkit",
    versions=(
        VersionSpec(
            0,
            max_episode_steps=25,
            tasks="toolgym.families.web_shop.tasks:SUITE",
            history="initial release: a generated catalog, pure-Python BM25 search, WebShop's "
            "pages and reward (thefuzz's ratio through RapidFuzz, title nouns from the catalog "
            "or a word heuristic in place of spaCy); the long set of 1,500 expert demonstrations",
        ),
        VersionSpec(
            1,
            max_episode_steps=25,
            tasks="toolgym.families.web_shop.tasks:SUITE_SHORT",
            history="the same shop and test goals with the short set of demonstrations: the 200 "
            "shortest expert trajectories, results pages cut to the product opened",
        ),
    ),
    prompting="toolgym.families.web_shop.profile:PROMPTING",
    profile="toolgym.families.web_shop.profile:PROFILE",
    metrics=METRICS,
    reward="reward",
    aliases=("webshop",),
    doc=__doc__ or "",
    action_mode="call",
)
"""The WebShop family (its prompting defaults are the original's command-line settings)."""

CHAT_SPEC = chat_spec(
    SPEC,
    toolkit="toolgym.families.web_shop.chat:WebShopChatToolkit",
    tasks="toolgym.families.web_shop.chat:SUITE",
    options=("num_products", "observation", "product_file", "attribute_file"),
)
"""``toolbench/WebShopChat-v0``: the user holds back options and the price cap (see ``chat.py``)."""
