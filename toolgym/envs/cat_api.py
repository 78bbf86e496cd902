"""The Cat API: search cat images, manage favourites and vote through curl requests.

## Description

The SambaNova ToolBench *The Cat API* task as a Gymnasium environment. The user wants cat
pictures, to see or change their favourites, or to vote on an image; the agent answers with a
curl request. The service is simulated: an image catalog of more than 1,000 images with real
breed ids, a favourites store and a votes store, reset at every episode.

## Tools

Six documented endpoints: image search, list favourites, add a favourite, delete a favourite,
vote up, vote down (``info["api_docs"]``, ``info["tools"]``). The evaluator adds the
``Content-Type: application/json`` and ``x-api-key`` headers.

## Action Space

A string. In ``program`` mode the first line starting with ``curl`` is the request and the
episode ends. In ``call`` mode each step is one request (curl or a JSON call) and ``finish``
ends the episode, scoring the last request.

## Observation Space

A string: the goal after ``reset``; then ``HTTP <status>`` and the body, or an error.

## Rewards

The original metric: F1 over top-level fields of the response (lists as ``{index: item}``,
object answers must say ``SUCCESS`` and their fresh ``id`` is dropped) against the gold
request's response on the same fresh state. Deleting a favourite is scored, as in the original,
by comparing the normalised command with the gold; ``info["metrics"]["state_success"]`` also
says whether the favourite is really gone.

## Starting State

Favourites and votes in their seeded initial state; ``order=RANDOM`` is a seeded permutation.

## Episode End

Terminated after the request (``program``) or at ``finish`` (``call``); truncated after
``max_episode_steps`` (16).

## Arguments

``split`` (``test`` 100, ``demo`` 12, ``train`` unlimited), ``action_mode``, ``task_file``,
``reward_type``, ``max_body_chars`` (default 4000), ``world_seed`` (the ``test`` and ``demo``
splits belong to world 0, ``train`` tasks are built for any world), ``render_mode``.

"""

from __future__ import annotations

from toolgym.envs.spec import FamilySpec, PromptDefaults, VersionSpec

SPEC = FamilySpec(
    name="cat_api",
    title="The Cat API",
    env_name="CatAPI",
    toolkit="toolgym.tools.cat_api:CatApiToolkit",
    versions=(
        VersionSpec(
            0,
            max_episode_steps=16,
            tasks="toolgym.benchmarks.cat_api:SUITE",
            history=(
                "initial release. Unlike the original (one live account shared by every case), each episode starts from the same fresh state, so a correct answer can no longer fail because an earlier case changed the favourites"
            ),
        ),
    ),
    prompting=PromptDefaults(top_k_api=3, max_new_tokens=128),
    service="toolgym.simulators.cat_api:CatApiApp",
    aliases=("catapi",),
    doc=__doc__ or "",
)
"""The Cat API family (its prompting defaults are the original's ``top_k_api`` and
``max_output_token`` command-line settings)."""
