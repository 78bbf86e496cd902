"""The Cat API: search cat images, manage favourites and vote through curl requests.

## Description

The SambaNova ToolBench *The Cat API* task as a Gymnasium environment. The user wants cat
pictures, to see or change their favourites, or to vote on an image; the agent answers with a
curl request. The service is simulated: an image catalog of 1,200 images with real breed ids
that searches page through, a favourites store and a votes store, reset at every episode.

In ``-v1`` the image-id space is open, as on the real service: any id in one of the real
formats (legacy ``dv0``, 9-character ``tF_6-Beo_``, base64 number ``MTY3ODIyMQ``) names an image
whose attributes are a stable hash of the id, so it can be favourited, voted on and removed from
the favourites; anything else is ``400 INVALID_IMAGE_ID``. The catalog's ids come in all three
formats and follow the same hash. ``-v0`` is kept as it was: only the ids of its catalog
(9-character and legacy ids, attributes of their own) are images.

## Tools

Six documented endpoints: image search, list favourites, add a favourite, delete a favourite,
vote up, vote down (``info["api_docs"]``, ``info["tools"]``). The evaluator adds the
``Content-Type: application/json`` and ``x-api-key`` headers.

## Action Space

A string. In ``program`` mode the first line starting with ``curl`` is the request and the
episode ends. In ``call`` mode each step is one request (curl or a JSON call) and ``finish``
ends the episode, scoring the last request.

With ``action_language="python"`` the action is instead a Python program that calls the API with
the real ``requests`` library (``requests.get(url, headers=..., params=...)``); it runs in the
sandbox (:mod:`toolgym.tools.sandbox`), its requests reach the simulated service and nothing else,
and the last request it made is scored as a curl request would be. In ``call`` mode each step is
then one code cell.

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
A task's ``setup`` (``{"favourites_absent": [image ids], "favourites_present": [image or
favourite ids], "extra_images": [ids of another shape]}``) adjusts the favourites first. A task
without one, such as a line of an original test file, gets the setup its gold needs: an image
the gold favourites is not a favourite at the start, a favourite the gold deletes exists, and
an id the gold quotes that names no image of the world (of another shape, or outside the ``-v0``
catalog) names one in that task; tasks whose gold needs nothing start from the seeded state as it
is. The agent's own requests meet the world as it is.

## Episode End

Terminated after the request (``program``) or at ``finish`` (``call``); truncated after
``max_episode_steps`` (16).

## Arguments

``split`` (``test`` 100, ``demo`` 12, ``train`` unlimited; each version has its own, built in its
world), ``action_mode``, ``task_file`` (the original format ``{"prompt", "completion": [curl],
"compare_string_only"}`` runs in either version), ``reward_type``, ``max_body_chars`` (default
4000), ``action_language`` (``curl`` or ``python``), ``timeout_s`` (the time limit of one
Python program, default 5), ``world_seed`` (the ``test`` and ``demo`` splits belong to world 0, ``train`` tasks are
built for any world), ``render_mode``.

"""

from __future__ import annotations

from toolgym.conversation.spec import chat_spec
from toolgym.envs.spec import FamilySpec, VersionSpec

SPEC = FamilySpec(
    name="cat_api",
    title="The Cat API",
    env_name="CatAPI",
    toolkit="toolgym.families.cat_api.toolkit:CatApiToolkit",
    versions=(
        VersionSpec(
            0,
            max_episode_steps=16,
            tasks="toolgym.families.cat_api.tasks:SUITE",
            history=(
                "initial release. Unlike the original (one live account shared by every case), "
                "each episode starts from the same fresh state, so a correct answer can no longer "
                "fail because an earlier case changed the favourites. Since v1: a task file's task "
                "gets the starting favourites and images its gold needs (stored tasks and "
                "everything the agent sends are answered as before)"
            ),
        ),
        VersionSpec(
            1,
            max_episode_steps=16,
            tasks="toolgym.families.cat_api.tasks:SUITE_V1",
            toolkit="toolgym.families.cat_api.toolkit:CatApiV1Toolkit",
            history=(
                "image ids in the real formats. The catalog's ids are legacy 2-3 character, "
                "9-character and 10-character base64-number ids whose attributes are the hash of "
                "the id that every other well-formed id also follows: any well-formed id can be "
                "favourited, voted on and removed; a task's starting favourites never collide "
                "with what its gold adds or deletes; new test and demo splits built in this world. "
                "Later fixes (same tasks and catalogue): the breeds and categories page with "
                "limit and page; the oldest images' numeric legacy ids (264, 959) are images; "
                "GET /v1/images/{image_id} answers any well-formed id"
            ),
        ),
    ),
    prompting="toolgym.families.cat_api.profile:PROMPTING",
    profile="toolgym.families.cat_api.profile:PROFILE",
    service="toolgym.families.cat_api.world:CatApiApp",
    aliases=("catapi",),
    doc=__doc__ or "",
)
"""The Cat API family (its prompting defaults are the original's ``top_k_api`` and
``max_output_token`` command-line settings)."""

CHAT_SPEC = chat_spec(
    SPEC,
    toolkit="toolgym.families.cat_api.chat:CatApiChatToolkit",
    tasks="toolgym.families.cat_api.chat:SUITE",
    options=("max_body_chars", "action_language", "timeout_s"),
)
"""``toolbench/CatAPIChat-v0``: the user holds back some filters, or the image (see ``chat.py``)."""
